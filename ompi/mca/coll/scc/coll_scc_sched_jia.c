/* coll_scc_sched_jia.c: Jia's multiple-message broadcast (seeds/000 §5) for any n and any root. */
#include "coll_scc_sched.h"

/* Processes are relabelled so the root is vrank 0.  With q = floor(log2 n) and
 * N = 2^q, the n processes form N units of one or two processes; the units run
 * the hypercube schedule of Jia's basic algorithm, and inside a two-process unit
 * the members alternate the roles Out (talks to the partner unit's In) and In
 * (receives from the partner unit's Out and hands the block on to its Out one
 * round later).  This follows the clean form in notes/seed-000-pichler.md §2.6:
 * no traffic into the root, no exchange of block k-2 when k == 1, nothing at n == 1. */

typedef struct jia {
    int n, q, N;
    long k;
} jia_t;

/* the cooperating member of unit u (u itself for a one-process unit) */
static int jia_co(const jia_t *J, int u)
{
    return (u >= 1 && u <= J->n - J->N) ? u + J->N - 1 : u;
}

static int jia_unit(const jia_t *J, int v)
{
    return v < J->N ? v : v - J->N + 1;
}

/* Out of unit u in a round before which the unit switched roles sw times;
 * In is the other member (a one-process unit is both). */
static int jia_out(const jia_t *J, int u, long sw)
{
    int co = jia_co(J, u);
    return (co == u || sw % 2 != 0) ? u : co;
}

static int jia_in(const jia_t *J, int u, long sw)
{
    int co = jia_co(J, u);
    return (co == u || sw % 2 != 0) ? co : u;
}

/* distance from bit l to the next set bit of u above it, cyclically over q bits */
static int jia_dis(const jia_t *J, int u, int l)
{
    if (u == 0) {
        return J->q;
    }
    for (int d = 1; d <= J->q; ++d) {
        if ((u >> ((l + d) % J->q)) & 1) {
            return d;
        }
    }
    return J->q;
}

static long lmin(long a, long b)
{
    return a < b ? a : b;
}

int scc_sched_jia_bcast(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks)
{
    jia_t J;
    scc_sched_reset(s);
    if (n < 1 || rank < 0 || rank >= n || root < 0 || root >= n) {
        return -1;
    }
    if (n == 1 || nblocks == 0) {
        return 0;
    }
    J.n = n;
    J.k = nblocks;
    for (J.q = 0; (2L << J.q) <= n; ++J.q) {
    }
    J.N = 1 << J.q;
    if ((uint64_t) nblocks + (uint64_t) J.q > UINT32_MAX) {
        return -1;
    }

    const int v = (rank - root + n) % n;
    const int u = jia_unit(&J, v);
    const int pair = jia_co(&J, u) != u;
    const long k = J.k, q = J.q;
    int dis[32];
    long swu = 0; /* role switches of my unit before round j */
#define RANK_OF(w) (((w) + root) % n)

    for (int l = 0; l < q; ++l) {
        dis[l] = jia_dis(&J, u, l);
    }
    for (long j = 0; j < k + q - 1; ++j) {
        int l = (int) (j % q);
        int w = u ^ (1 << l);
        int b = (u >> l) & 1;
        /* the partner unit differs in bit l only, seen j/q times before round j */
        long sww = swu + (j / q) * ((1 - b) - b);
        long sblk = lmin(k - 1, j - q + (1 - b) * dis[l]); /* block this unit sends */
        long tblk = lmin(k - 1, j - q + b * dis[l]);       /* block this unit receives */
        int out_u = jia_out(&J, u, swu), in_u = jia_in(&J, u, swu);
        int out_w = jia_out(&J, w, sww), in_w = jia_in(&J, w, sww);
        long fwd = pair ? j - q - 1 : -1;                  /* in-unit hand-over, In -> Out */
        uint32_t r = (uint32_t) j;

        /* every block sent in round j was held before round j: sends go first */
        if (v == out_u && sblk >= 0 && in_w != 0) {
            scc_sched_push(s, SCC_STEP_SEND, 0, -1, r, r, (uint32_t) sblk, 1, 1);
        }
        if (fwd >= 0 && v == in_u) {
            scc_sched_push(s, SCC_STEP_SEND, 0, -1, r, r, (uint32_t) fwd, 1, 1);
        }
        if (v == in_u && tblk >= 0 && v != 0) {
            scc_sched_push(s, SCC_STEP_RECV, 0, RANK_OF(out_w), r, r, (uint32_t) tblk, 1, 0);
        }
        if (fwd >= 0 && v == out_u) {
            scc_sched_push(s, SCC_STEP_RECV, 0, RANK_OF(in_u), r, r, (uint32_t) fwd, 1, 0);
        }
        swu += b;
    }
    if (pair) {
        /* one more round inside each unit: the two newest blocks cross over */
        long j = k + q - 1;
        int out_u = jia_out(&J, u, swu), in_u = jia_in(&J, u, swu);
        uint32_t r = (uint32_t) j;
        if (v == in_u) {
            if (k >= 2) {
                scc_sched_push(s, SCC_STEP_SEND, 0, -1, r, r, (uint32_t) (k - 2), 1, 1);
            }
            scc_sched_push(s, SCC_STEP_RECV, 0, RANK_OF(out_u), r, r, (uint32_t) (k - 1), 1, 0);
        } else {
            scc_sched_push(s, SCC_STEP_SEND, 0, -1, r, r, (uint32_t) (k - 1), 1, 1);
            if (k >= 2) {
                scc_sched_push(s, SCC_STEP_RECV, 0, RANK_OF(in_u), r, r, (uint32_t) (k - 2), 1, 0);
            }
        }
    }
#undef RANK_OF
    s->nrounds = (uint32_t) (k + q - 1 + (n != J.N));
    return 0;
}
