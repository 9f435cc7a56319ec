/* scc_sim_base.c: the simulator's baselines -- linear (RCCE-style), binomial and pairwise schedules. */
#include "scc_sim_base.h"

static int bad(int n, int rank, int root)
{
    return n < 1 || rank < 0 || rank >= n || root < 0 || root >= n;
}

/* ---------------------------------------------------------------- linear */

int scc_sim_linear_bcast(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks)
{
    if (bad(n, rank, root)) {
        return -1;
    }
    scc_sched_reset(s);
    s->nrounds = (uint32_t) (n - 1);
    if (rank == root) {
        for (int i = 1; i < n; ++i) {
            for (uint32_t b = 0; b < nblocks; ++b) {
                scc_sched_push(s, SCC_STEP_SEND, 0, -1, (uint32_t) (i - 1) * nblocks + b,
                               (uint32_t) (i - 1), b, 1, 1);
            }
        }
    } else {
        int i = (rank - root + n) % n;
        for (uint32_t b = 0; b < nblocks; ++b) {
            scc_sched_push(s, SCC_STEP_RECV, 0, root, (uint32_t) (i - 1) * nblocks + b,
                           (uint32_t) (i - 1), b, 1, 0);
        }
    }
    return 0;
}

/* The root reduces rank order: its own input first, then each rank's message. */
static void linear_reduce_steps(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks)
{
    if (rank != root) {
        int i = (rank - root + n) % n;
        for (uint32_t b = 0; b < nblocks; ++b) {
            scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_INPUT, -1, b, (uint32_t) (i - 1), b, 1, 1);
        }
        return;
    }
    for (int i = 1; i < n; ++i) {
        int src = (root + i) % n;
        for (uint32_t b = 0; b < nblocks; ++b) {
            scc_sched_push(s, SCC_STEP_RECV_REDUCE, 1 == i ? SCC_STEP_F_INPUT : 0, src, b,
                           (uint32_t) (i - 1), b, 1, 0);
        }
    }
}

int scc_sim_linear_reduce(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks)
{
    if (bad(n, rank, root)) {
        return -1;
    }
    scc_sched_reset(s);
    s->nrounds = (uint32_t) (n - 1);
    linear_reduce_steps(s, n, rank, root, nblocks);
    return 0;
}

int scc_sim_linear_allreduce(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks)
{
    if (bad(n, rank, root)) {
        return -1;
    }
    scc_sched_reset(s);
    s->nrounds = (uint32_t) (2 * (n - 1));
    linear_reduce_steps(s, n, rank, root, nblocks);
    /* then the bcast, its tags after the reduce's */
    if (rank == root) {
        for (int i = 1; i < n; ++i) {
            for (uint32_t b = 0; b < nblocks; ++b) {
                scc_sched_push(s, SCC_STEP_SEND, 0, -1, nblocks + (uint32_t) (i - 1) * nblocks + b,
                               (uint32_t) (n - 1 + i - 1), b, 1, 1);
            }
        }
    } else {
        int i = (rank - root + n) % n;
        for (uint32_t b = 0; b < nblocks; ++b) {
            scc_sched_push(s, SCC_STEP_RECV, 0, root, nblocks + (uint32_t) (i - 1) * nblocks + b,
                           (uint32_t) (n - 1 + i - 1), b, 1, 0);
        }
    }
    return 0;
}

int scc_sim_linear_barrier(scc_sched_t *s, int n, int rank, int root)
{
    if (bad(n, rank, root)) {
        return -1;
    }
    scc_sched_reset(s);
    s->nrounds = 2;
    if (rank != root) {
        int i = (rank - root + n) % n;
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, 0, 0, 0, 0, 1);
        scc_sched_push(s, SCC_STEP_RECV, 0, root, (uint32_t) i, 1, 0, 0, 0);
        return 0;
    }
    for (int i = 1; i < n; ++i) {
        scc_sched_push(s, SCC_STEP_RECV, 0, (root + i) % n, 0, 0, 0, 0, 0);
    }
    for (int i = 1; i < n; ++i) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, (uint32_t) i, 1, 0, 0, 1);
    }
    return 0;
}

int scc_sim_linear_alltoall(scc_sched_t *s, int n, int rank)
{
    if (bad(n, rank, 0)) {
        return -1;
    }
    scc_sched_reset(s);
    s->nrounds = (uint32_t) n;
    for (int i = 0; i < n; ++i) {
        uint32_t at;
        if (i == rank) {
            continue;
        }
        /* block ids are src * n + dst; the message to i carries (rank, i) */
        at = scc_sched_list_push(s, (uint32_t) (rank * n + i));
        scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_LIST | SCC_STEP_F_INPUT, -1, (uint32_t) i,
                       (uint32_t) i, at, 1, 1);
        at = scc_sched_list_push(s, (uint32_t) (i * n + rank));
        scc_sched_push(s, SCC_STEP_RECV, SCC_STEP_F_LIST, i, (uint32_t) rank, (uint32_t) i, at, 1, 0);
    }
    return 0;
}

int scc_sim_pairwise_alltoall(scc_sched_t *s, int n, int rank)
{
    if (bad(n, rank, 0)) {
        return -1;
    }
    scc_sched_reset(s);
    s->nrounds = (uint32_t) (n - 1);
    for (int i = 1; i < n; ++i) {
        int dst = (rank + i) % n, src = (rank - i + n) % n;
        uint32_t at = scc_sched_list_push(s, (uint32_t) (rank * n + dst));
        scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_LIST | SCC_STEP_F_INPUT, -1, (uint32_t) i,
                       (uint32_t) (i - 1), at, 1, 1);
        at = scc_sched_list_push(s, (uint32_t) (src * n + rank));
        scc_sched_push(s, SCC_STEP_RECV, SCC_STEP_F_LIST, src, (uint32_t) i, (uint32_t) (i - 1), at, 1,
                       0);
    }
    return 0;
}

/* ---------------------------------------------------------------- binomial */

/* Children of virtual rank v, largest subtree first; returns how many. */
static int binomial_children(int v, int n, int *ch)
{
    int m, k = 0;
    if (0 == v) {
        for (m = 1; m < n; m <<= 1) {
        }
    } else {
        m = v & -v;
    }
    for (m >>= 1; m > 0; m >>= 1) {
        if (v + m < n) {
            ch[k++] = v + m;
        }
    }
    return k;
}

static int binomial_parent(int v)
{
    return v - (v & -v);
}

/* Index of child c in its parent's list. */
static int binomial_index(int c, int n)
{
    int ch[32], k = binomial_children(binomial_parent(c), n, ch);
    for (int i = 0; i < k; ++i) {
        if (ch[i] == c) {
            return i;
        }
    }
    return -1;
}

static void binomial_bcast_steps(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks,
                                 uint32_t tag0, uint32_t round0)
{
    int v = (rank - root + n) % n, ch[32], k = binomial_children(v, n, ch);
    int pk = 0, idx = 0, parent = -1;

    if (v != 0) {
        int pc[32];
        parent = (binomial_parent(v) + root) % n;
        pk = binomial_children(binomial_parent(v), n, pc);
        idx = binomial_index(v, n);
    }
    for (uint32_t b = 0; b < nblocks; ++b) {
        if (parent >= 0) {
            scc_sched_push(s, SCC_STEP_RECV, 0, parent, tag0 + b * (uint32_t) pk + (uint32_t) idx,
                           round0 + b, b, 1, 0);
        }
        for (int j = 0; j < k; ++j) {
            scc_sched_push(s, SCC_STEP_SEND, 0, -1, tag0 + b * (uint32_t) k + (uint32_t) j,
                           round0 + b, b, 1, 1);
        }
    }
}

static void binomial_reduce_steps(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks)
{
    int v = (rank - root + n) % n, ch[32], k = binomial_children(v, n, ch);

    for (uint32_t b = 0; b < nblocks; ++b) {
        /* smallest subtree first: it is ready first */
        for (int j = k - 1; j >= 0; --j) {
            scc_sched_push(s, SCC_STEP_RECV_REDUCE, j == k - 1 ? SCC_STEP_F_INPUT : 0,
                           (ch[j] + root) % n, b, b, b, 1, 0);
        }
        if (v != 0) {
            scc_sched_push(s, SCC_STEP_SEND, 0 == k ? SCC_STEP_F_INPUT : 0, -1, b, b, b, 1, 1);
        }
    }
}

int scc_sim_binomial_bcast(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks)
{
    if (bad(n, rank, root) || n > (1 << 30)) {
        return -1;
    }
    scc_sched_reset(s);
    binomial_bcast_steps(s, n, rank, root, nblocks, 0, 0);
    s->nrounds = nblocks;
    return 0;
}

int scc_sim_binomial_reduce(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks)
{
    if (bad(n, rank, root)) {
        return -1;
    }
    scc_sched_reset(s);
    binomial_reduce_steps(s, n, rank, root, nblocks);
    s->nrounds = nblocks;
    s->flags = SCC_SCHED_F_COMMUTATIVE;
    return 0;
}

int scc_sim_binomial_allreduce(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks)
{
    if (bad(n, rank, root)) {
        return -1;
    }
    scc_sched_reset(s);
    binomial_reduce_steps(s, n, rank, root, nblocks);
    binomial_bcast_steps(s, n, rank, root, nblocks, nblocks, nblocks);
    s->nrounds = 2 * nblocks;
    s->flags = SCC_SCHED_F_COMMUTATIVE;
    return 0;
}

int scc_sim_binomial_barrier(scc_sched_t *s, int n, int rank, int root)
{
    int v, ch[32], k;

    if (bad(n, rank, root)) {
        return -1;
    }
    scc_sched_reset(s);
    v = (rank - root + n) % n;
    k = binomial_children(v, n, ch);
    for (int j = k - 1; j >= 0; --j) {
        scc_sched_push(s, SCC_STEP_RECV, 0, (ch[j] + root) % n, 0, 0, 0, 0, 0);
    }
    if (v != 0) {
        int parent = (binomial_parent(v) + root) % n;
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, 0, 0, 0, 0, 1);
        scc_sched_push(s, SCC_STEP_RECV, 0, parent, 1 + (uint32_t) binomial_index(v, n), 1, 0, 0, 0);
    }
    for (int j = 0; j < k; ++j) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, 1 + (uint32_t) j, 1, 0, 0, 1);
    }
    s->nrounds = 2;
    return 0;
}
