/* coll_scc_sched_ring.c: flat-set allreduce by butterfly (seeds/002) and pipelined rings
 * (allreduce, allgather, reduce-scatter). */
#include "coll_scc_sched.h"

/* ---------------------------------------------------------------- */
/* Butterfly: seeds/002's HypercubeReduce wrapped in the fold of A.3.2 */

/* With P = 2^q <= n < 2P, ranks P..n-1 ("partially filled") fold their input into
 * rank r - P, the P "filled" ranks swap partials across dimensions 0..q-1 (both
 * partners combine the same two partials: p op p' on one side, p' op p on the
 * other, equal bit for bit when op commutes), and the filled ranks hand the
 * result back.  Every phase moves one block per message, blocks in order, so a
 * rank sends and receives at most one message per round: fold-in rounds
 * [0, nb), swap j in rounds [f + j nb, f + (j+1) nb) with f = nb when n != P
 * (else 0), fold-out after the swaps.  tag = round. */
int scc_sched_butterfly_allreduce(scc_sched_t *s, int n, int rank, uint32_t nblocks)
{
    scc_sched_reset(s);
    if (n < 1 || rank < 0 || rank >= n) {
        return -1;
    }
    if (n == 1 || nblocks == 0) {
        return 0;
    }
    int q = 0;
    while ((2L << q) <= n) {
        ++q;
    }
    const int P = 1 << q;
    const uint32_t f = n != P ? nblocks : 0;
    const uint64_t rounds = (uint64_t) nblocks * (uint64_t) (q + (n != P ? 2 : 0));
    if (rounds > UINT32_MAX) {
        return -1;
    }

    if (rank >= P) {
        /* partially filled: my input goes to rank - P, the result comes back from it */
        for (uint32_t b = 0; b < nblocks; ++b) {
            scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_INPUT, -1, b, b, b, 1, 1);
        }
        for (uint32_t b = 0; b < nblocks; ++b) {
            uint32_t r = f + (uint32_t) q * nblocks + b;
            scc_sched_push(s, SCC_STEP_RECV, 0, rank - P, r, r, b, 1, 0);
        }
    } else {
        const int extra = rank + P < n;
        if (extra) {
            for (uint32_t b = 0; b < nblocks; ++b) {
                scc_sched_push(s, SCC_STEP_RECV_REDUCE, SCC_STEP_F_INPUT, rank + P, b, b, b, 1, 0);
            }
        }
        for (int j = 0; j < q; ++j) {
            /* until something arrived, my partial is my input */
            const int fl = (!extra && j == 0) ? SCC_STEP_F_INPUT : 0;
            const int partner = rank ^ (1 << j);
            for (uint32_t b = 0; b < nblocks; ++b) {
                uint32_t r = f + (uint32_t) j * nblocks + b;
                scc_sched_push(s, SCC_STEP_SEND, fl, -1, r, r, b, 1, 1);
                scc_sched_push(s, SCC_STEP_RECV_REDUCE, fl, partner, r, r, b, 1, 0);
            }
        }
        if (extra) {
            for (uint32_t b = 0; b < nblocks; ++b) {
                uint32_t r = f + (uint32_t) q * nblocks + b;
                scc_sched_push(s, SCC_STEP_SEND, 0, -1, r, r, b, 1, 1);
            }
        }
    }
    s->nrounds = (uint32_t) rounds;
    /* a swap changes the block its own message carries: messages must be copies */
    s->flags = SCC_SCHED_F_COMMUTATIVE | SCC_SCHED_F_SEND_COPY;
    return 0;
}

/* ---------------------------------------------------------------- */
/* Rings                                                              */

/* n segments of consecutive blocks: segment g holds base + (g < extra) blocks
 * from g * base + min(g, extra). */
typedef struct ring {
    int n, rank;
    uint32_t base, extra;
    uint32_t K;            /* blocks of the largest segment: rounds per ring step */
} ring_t;

static uint32_t seg_len(const ring_t *g, int seg)
{
    return g->base + ((uint32_t) seg < g->extra ? 1 : 0);
}

static uint32_t seg_start(const ring_t *g, int seg)
{
    uint32_t sg = (uint32_t) seg;
    return sg * g->base + (sg < g->extra ? sg : g->extra);
}

static int ring_mod(int a, int n)
{
    return ((a % n) + n) % n;
}

/* Reduce-scatter around the ring towards rank + 1, ending with segment rank
 * reduced at rank: in step i (0..n-2) rank r sends segment r-i-1 and combines
 * segment r-i-2 arriving from r-1, block by block (round round0 + i K + j for
 * block j of the segment).  Segment g travels g+1, g+2, ..., g, so it is
 * combined in that order.  Each segment arrives once (first touch: F_INPUT);
 * the one a rank sends first comes from its input. */
static void ring_emit_rs(scc_sched_t *s, const ring_t *g, uint32_t round0)
{
    const int n = g->n, r = g->rank, left = ring_mod(r - 1, n);
    for (int i = 0; i < n - 1; ++i) {
        const int sseg = ring_mod(r - i - 1, n), rseg = ring_mod(r - i - 2, n);
        const uint32_t slen = seg_len(g, sseg), rlen = seg_len(g, rseg);
        for (uint32_t j = 0; j < g->K; ++j) {
            uint32_t t = round0 + (uint32_t) i * g->K + j;
            if (j < slen) {
                scc_sched_push(s, SCC_STEP_SEND, i == 0 ? SCC_STEP_F_INPUT : 0, -1, t, t,
                               seg_start(g, sseg) + j, 1, 1);
            }
            if (j < rlen) {
                scc_sched_push(s, SCC_STEP_RECV_REDUCE, SCC_STEP_F_INPUT, left, t, t,
                               seg_start(g, rseg) + j, 1, 0);
            }
        }
    }
}

/* Allgather around the ring towards rank + 1, starting with segment rank at
 * rank: in step i rank r sends segment r-i and receives segment r-i-1 from r-1. */
static void ring_emit_ag(scc_sched_t *s, const ring_t *g, uint32_t round0)
{
    const int n = g->n, r = g->rank, left = ring_mod(r - 1, n);
    for (int i = 0; i < n - 1; ++i) {
        const int sseg = ring_mod(r - i, n), rseg = ring_mod(r - i - 1, n);
        const uint32_t slen = seg_len(g, sseg), rlen = seg_len(g, rseg);
        for (uint32_t j = 0; j < g->K; ++j) {
            uint32_t t = round0 + (uint32_t) i * g->K + j;
            if (j < slen) {
                scc_sched_push(s, SCC_STEP_SEND, 0, -1, t, t, seg_start(g, sseg) + j, 1, 1);
            }
            if (j < rlen) {
                scc_sched_push(s, SCC_STEP_RECV, 0, left, t, t, seg_start(g, rseg) + j, 1, 0);
            }
        }
    }
}

/* Sets up g for total blocks in n segments; -1 when ids or rounds would not fit. */
static int ring_init(ring_t *g, int n, int rank, uint64_t total, int phases)
{
    g->n = n;
    g->rank = rank;
    g->base = (uint32_t) (total / (uint64_t) n);
    g->extra = (uint32_t) (total % (uint64_t) n);
    g->K = g->base + (g->extra > 0 ? 1 : 0);
    if (total > UINT32_MAX || (uint64_t) phases * (uint64_t) (n - 1) * g->K > UINT32_MAX) {
        return -1;
    }
    return 0;
}

/* Resets s and sets g up for `total` blocks in `phases` phases: -1 on bad input, 1 when
 * the schedule stays empty (one rank, no blocks), 0 when the phases are to be emitted. */
static int ring_start(scc_sched_t *s, ring_t *g, int n, int rank, uint64_t total, int phases)
{
    scc_sched_reset(s);
    if (n < 1 || rank < 0 || rank >= n || ring_init(g, n, rank, total, phases) != 0) {
        return -1;
    }
    return (1 == n || 0 == total) ? 1 : 0;
}

int scc_sched_ring_allreduce(scc_sched_t *s, int n, int rank, uint32_t nblocks)
{
    ring_t g;
    int rc = ring_start(s, &g, n, rank, nblocks, 2);
    if (0 != rc) {
        return rc < 0 ? -1 : 0;
    }
    ring_emit_rs(s, &g, 0);
    ring_emit_ag(s, &g, (uint32_t) (n - 1) * g.K);
    s->nrounds = 2 * (uint32_t) (n - 1) * g.K;
    /* segment 0 is combined 1, 2, ..., n-1, 0: not rank order */
    s->flags = SCC_SCHED_F_COMMUTATIVE;
    return 0;
}

int scc_sched_ring_reduce_scatter(scc_sched_t *s, int n, int rank, uint32_t nblocks_per_rank)
{
    ring_t g;
    int rc = ring_start(s, &g, n, rank, (uint64_t) n * nblocks_per_rank, 1);
    if (0 != rc) {
        return rc < 0 ? -1 : 0;
    }
    ring_emit_rs(s, &g, 0);
    s->nrounds = (uint32_t) (n - 1) * g.K;
    s->flags = SCC_SCHED_F_COMMUTATIVE;
    return 0;
}

int scc_sched_ring_allgather(scc_sched_t *s, int n, int rank, uint32_t nblocks_per_rank)
{
    ring_t g;
    int rc = ring_start(s, &g, n, rank, (uint64_t) n * nblocks_per_rank, 1);
    if (0 != rc) {
        return rc < 0 ? -1 : 0;
    }
    ring_emit_ag(s, &g, 0);
    s->nrounds = (uint32_t) (n - 1) * g.K;
    return 0;
}

int scc_sched_pairwise_alltoall(scc_sched_t *s, int n, int rank, uint32_t k)
{
    scc_sched_reset(s);
    if (n < 1 || rank < 0 || rank >= n || (uint64_t) n * k > UINT32_MAX / 4) {
        return -1;
    }
    for (int i = 1; i < n; ++i) {
        uint32_t dst = (uint32_t) ((rank + i) % n), src = (uint32_t) ((rank - i + n) % n);
        for (uint32_t j = 0; j < k; ++j) {
            uint32_t tag = (uint32_t) (i - 1) * k + j;
            /* block by block, send then receive: nobody holds more than one slot of a step */
            scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_INPUT, -1, tag, tag, dst * k + j, 1, 1);
            scc_sched_push(s, SCC_STEP_RECV, 0, (int) src, tag, tag, src * k + j, 1, 0);
        }
    }
    s->nrounds = (uint32_t) (n - 1) * k;
    return 0;
}
