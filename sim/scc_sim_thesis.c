/* scc_sim_thesis.c: Pichler's Cube code (seeds/000 §10.3) as the thesis runs it -- round order, redundant root receives. */
#include "scc_sim_thesis.h"

typedef struct cube {
    int n, q, N;   /* q = floor(log2 n), N = 2^q units */
    long k;        /* blocks */
} cube_t;

/* calc_co: the other member of p's unit (p itself in a one-process unit) */
static int cube_co(const cube_t *C, int p)
{
    if (p == 0) {
        return 0;
    }
    if (p <= C->n - C->N) {
        return C->N - 1 + p;
    }
    return p < C->N ? p : p - C->N + 1;
}

/* Dis: distance from bit l to the next set bit of x above it, cyclically over
 * q bits; q for the root's unit */
static int cube_dis(const cube_t *C, int x, int l)
{
    for (int d = 1; x != 0 && d <= C->q; ++d) {
        if ((x >> ((l + d) % C->q)) & 1) {
            return d;
        }
    }
    return C->q;
}

/* role switches of unit x before round j: its set bits among the bit
 * positions of rounds 0 .. j-1 (the code's Switch array) */
static long cube_switches(const cube_t *C, int x, long j)
{
    long sw = 0;
    for (int l = 0; l < C->q; ++l) {
        if ((x >> l) & 1) {
            sw += j / C->q + (l < j % C->q);
        }
    }
    return sw;
}

static long lmin(long a, long b)
{
    return a < b ? a : b;
}

typedef struct emit {
    scc_sched_t *s;
    int n, root;
} emit_t;

static void send_to(const emit_t *E, long j, long blk)
{
    scc_sched_push(E->s, SCC_STEP_SEND, 0, -1, (uint32_t) j, (uint32_t) j, (uint32_t) blk, 1, 1);
}

static void recv_from(const emit_t *E, long j, int vpeer, long blk)
{
    scc_sched_push(E->s, SCC_STEP_RECV, 0, (vpeer + E->root) % E->n, (uint32_t) j, (uint32_t) j,
                   (uint32_t) blk, 1, 0);
}

/* n = 2^q: partners differ in bit j mod q; the code guards the root on both sides */
static void cube_pow2(const cube_t *C, const emit_t *E, int me)
{
    for (long j = 0; j < C->k + C->q - 1; ++j) {
        int l = (int) (j % C->q), you = me ^ (1 << l), b = (me >> l) & 1;
        long s = lmin(C->k - 1, j - C->q + (1 - b) * cube_dis(C, me, l));
        long t = lmin(C->k - 1, j - C->q + b * cube_dis(C, me, l));
        if (me < you) {
            if (s >= 0) {
                send_to(E, j, s);
            }
            if (t >= 0 && me > 0) {
                recv_from(E, j, you, t);
            }
        } else {
            if (t >= 0) {
                recv_from(E, j, you, t);
            }
            if (s >= 0 && you > 0) {
                send_to(E, j, s);
            }
        }
    }
}

int scc_sim_thesis_cube_bcast(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks,
                              int root_recv)
{
    cube_t C;
    emit_t E = { s, n, root };
    int me, co_me, rep, single;

    scc_sched_reset(s);
    if (n < 1 || rank < 0 || rank >= n || root < 0 || root >= n) {
        return -1;
    }
    if (n == 1 || nblocks == 0) {
        return 0;
    }
    C.n = n;
    C.k = nblocks;
    for (C.q = 0; (2L << C.q) <= n; ++C.q) {
    }
    C.N = 1 << C.q;
    me = (rank - root + n) % n;
    if (C.N == n) {
        cube_pow2(&C, &E, me);
        s->nrounds = (uint32_t) (C.k + C.q - 1);
        return 0;
    }

    co_me = cube_co(&C, me);
    rep = me < C.N ? me : co_me;    /* the unit's cube address: its lower member */
    single = co_me == me;
    for (long j = 0; j < C.k + C.q - 1; ++j) {
        int l = (int) (j % C.q), w = rep ^ (1 << l), b = (rep >> l) & 1;
        long u = cube_switches(&C, rep, j);
        int out = u % 2 == 0 ? cube_co(&C, rep) : rep, in = cube_co(&C, out);
        /* the partner unit's roles follow from the parity of its switches */
        int out_w = (u + j / C.q) % 2 == 0 ? cube_co(&C, w) : w, in_w = cube_co(&C, out_w);
        long sb = lmin(C.k - 1, j - C.q + (1 - b) * cube_dis(&C, rep, l));
        long tb = lmin(C.k - 1, j - C.q + b * cube_dis(&C, rep, l));
        long fwd = j - C.q - 1;     /* the in-unit hand-over, In -> Out */
        int do_send = sb >= 0 && (root_recv || in_w != 0);
        int do_recv = tb >= 0 && (root_recv || me != 0);

        if (single) {
            if (me < in_w) {
                if (do_send) {
                    send_to(&E, j, sb);
                }
                if (do_recv) {
                    recv_from(&E, j, out_w, tb);
                }
            } else {
                if (do_recv) {
                    recv_from(&E, j, out_w, tb);
                }
                if (do_send) {
                    send_to(&E, j, sb);
                }
            }
        } else if (me == out) {
            if (do_send) {
                send_to(&E, j, sb);
            }
            if (fwd >= 0) {
                recv_from(&E, j, in, fwd);
            }
        } else {
            if (do_recv) {
                recv_from(&E, j, out_w, tb);
            }
            if (fwd >= 0) {
                send_to(&E, j, fwd);
            }
        }
    }
    if (!single) {
        /* the extra round inside each pair: the two newest blocks cross over */
        long j = C.k + C.q - 1, u = cube_switches(&C, rep, j);
        int out = u % 2 == 0 ? cube_co(&C, rep) : rep, in = cube_co(&C, out);
        if (me == out) {
            if (C.k >= 2) {
                recv_from(&E, j, in, C.k - 2);
            }
            send_to(&E, j, C.k - 1);
        } else {
            if (C.k >= 2) {
                send_to(&E, j, C.k - 2);
            }
            recv_from(&E, j, out, C.k - 1);
        }
    }
    s->nrounds = (uint32_t) (C.k + C.q);
    return 0;
}
