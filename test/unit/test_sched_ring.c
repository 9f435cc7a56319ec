/* test_sched_ring.c: butterfly allreduce and ring allreduce/allgather/reduce-scatter, replayed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coll_scc_sched.h"
#include "sched_replay.h"
#include "unit.h"

typedef enum { BUTTERFLY, RING_ALLREDUCE, RING_REDUCE_SCATTER, RING_ALLGATHER } alg_t;

static const char *alg_name[] = { "butterfly", "ring allreduce", "ring reduce-scatter",
                                  "ring allgather" };

typedef struct ring_arg {
    alg_t alg;
    int n;
    uint32_t nb;         /* blocks, or blocks per rank for reduce-scatter and allgather */
} ring_arg_t;

static int gen(scc_sched_t *s, int rank, const void *ctx)
{
    const ring_arg_t *a = ctx;
    switch (a->alg) {
    case BUTTERFLY:
        return scc_sched_butterfly_allreduce(s, a->n, rank, a->nb);
    case RING_ALLREDUCE:
        return scc_sched_ring_allreduce(s, a->n, rank, a->nb);
    case RING_REDUCE_SCATTER:
        return scc_sched_ring_reduce_scatter(s, a->n, rank, a->nb);
    default:
        return scc_sched_ring_allgather(s, a->n, rank, a->nb);
    }
}

static long nruns, nsteps_total;

static int floor_log2(int n)
{
    int q = 0;
    while ((2L << q) <= n) {
        ++q;
    }
    return q;
}

/* the model of each algorithm, computed independently of the generators */
typedef struct model {
    uint32_t rounds, flags;
    long msgs;
    int depth;           /* reductions: depth of every result's expression tree */
} model_t;

static model_t model(alg_t alg, int n, uint32_t nb)
{
    model_t m = { 0, 0, 0, 0 };
    if (n == 1 || nb == 0) {
        return m;
    }
    if (alg == BUTTERFLY) {
        int q = floor_log2(n), P = 1 << q, extra = n - P;
        m.rounds = nb * (uint32_t) (q + (extra ? 2 : 0));
        /* P ranks swap q times, every extra rank's blocks go in and come back */
        m.msgs = (long) nb * ((long) P * q + 2L * extra);
        m.depth = q + (extra ? 1 : 0);
        m.flags = SCC_SCHED_F_COMMUTATIVE | SCC_SCHED_F_SEND_COPY;
        return m;
    }
    uint64_t total = alg == RING_ALLREDUCE ? nb : (uint64_t) n * nb;
    uint32_t K = (uint32_t) ((total + n - 1) / n);
    int phases = alg == RING_ALLREDUCE ? 2 : 1;
    m.rounds = (uint32_t) phases * (uint32_t) (n - 1) * K;
    /* each phase moves every block over n - 1 links */
    m.msgs = (long) phases * (long) (n - 1) * (long) total;
    m.depth = alg == RING_ALLGATHER ? 0 : n - 1;
    m.flags = alg == RING_ALLGATHER ? 0 : SCC_SCHED_F_COMMUTATIVE;
    return m;
}

static void check(alg_t alg, int n, uint32_t nb, int in_place)
{
    static const replay_kind_t kinds[] = { REPLAY_ALLREDUCE, REPLAY_ALLREDUCE,
                                           REPLAY_REDUCE_SCATTER, REPLAY_ALLGATHER };
    ring_arg_t a = { alg, n, nb };
    uint32_t blocks = (alg == RING_REDUCE_SCATTER || alg == RING_ALLGATHER) ? (uint32_t) n * nb
                                                                           : nb;
    /* the butterfly has no root: every rank is compared with rank 0 as an expression
       tree; the ring allreduce must even equal the list and tree of rank 0 (a copy) */
    int root = alg == BUTTERFLY ? -1 : 0;
    replay_opts_t o = { kinds[alg], n, root, blocks, 1, 1, 0, in_place };
    replay_result_t res;
    model_t m = model(alg, n, nb);

    nruns++;
    if (!replay_run(&o, gen, &a, &res)) {
        CHECK(0, "%s n=%d nb=%u%s: %s", alg_name[alg], n, nb, in_place ? " in place" : "",
              res.why);
        return;
    }
    nsteps_total += res.nsteps;
    CHECK(res.nrounds == m.rounds, "%s n=%d nb=%u: %u rounds, model %u", alg_name[alg], n, nb,
          res.nrounds, m.rounds);
    CHECK(res.nmsgs == m.msgs, "%s n=%d nb=%u: %ld messages, model %ld", alg_name[alg], n, nb,
          res.nmsgs, m.msgs);
    CHECK(res.ntransfers == res.nmsgs, "%s n=%d nb=%u: %ld transfers of %ld messages",
          alg_name[alg], n, nb, res.ntransfers, res.nmsgs);
    CHECK(res.flags == m.flags, "%s n=%d nb=%u: flags %u, model %u", alg_name[alg], n, nb,
          res.flags, m.flags);
    CHECK(res.redundant == 0, "%s n=%d nb=%u: %ld redundant blocks", alg_name[alg], n, nb,
          res.redundant);
    if (alg != RING_ALLGATHER && nb > 0 && n > 1) {
        CHECK(res.result_depth == m.depth, "%s n=%d nb=%u: result trees of depth %d, model %d",
              alg_name[alg], n, nb, res.result_depth, m.depth);
    }
}

/* each rank's steps, from the segment model: the ring spreads the work evenly */
static void check_ring_balance(int n, uint32_t nb)
{
    uint32_t base = nb / (uint32_t) n, extra = nb % (uint32_t) n;
    for (int r = 0; r < n; ++r) {
        scc_sched_t s;
        memset(&s, 0, sizeof(s));
        CHECK(scc_sched_ring_allreduce(&s, n, r, nb) == 0, "sizing n=%d", n);
        /* rank r sends every segment but r+1 in one phase, every segment but r in the
           other, and receives as many: 4 nb - 2|r| - |r-1| - |r+1| steps */
#define SEG(g) ((long) base + ((uint32_t) (((g) % n + n) % n) < extra ? 1 : 0))
        long want = n == 1 || nb == 0 ? 0 : 4L * nb - 2 * SEG(r) - SEG(r - 1) - SEG(r + 1);
#undef SEG
        CHECK(s.nsteps == want, "ring allreduce n=%d nb=%u rank %d: %ld steps, want %ld", n, nb,
              r, s.nsteps, want);
    }
}

static void check_bad_input(void)
{
    scc_sched_t s;
    memset(&s, 0, sizeof(s));
    CHECK(scc_sched_butterfly_allreduce(&s, 0, 0, 1) == -1, "n = 0");
    CHECK(scc_sched_butterfly_allreduce(&s, 4, 4, 1) == -1, "rank out of range");
    CHECK(scc_sched_ring_allreduce(&s, 4, -1, 1) == -1, "negative rank");
    CHECK(scc_sched_ring_allgather(&s, 3, 3, 1) == -1, "rank out of range");
    CHECK(scc_sched_ring_reduce_scatter(&s, 0, 0, 1) == -1, "n = 0");
    /* block ids and rounds must fit 32 bits */
    CHECK(scc_sched_ring_allgather(&s, 1000, 0, 5000000) == -1, "n k beyond 32 bits");
    CHECK(scc_sched_ring_reduce_scatter(&s, 65536, 1, 65536) == -1, "n k = 2^32");
    CHECK(scc_sched_butterfly_allreduce(&s, 3, 0, UINT32_MAX / 2) == -1, "3 nb rounds");
    CHECK(scc_sched_ring_allreduce(&s, 5, 0, UINT32_MAX) == -1, "2 (n-1) K rounds overflow");
    /* n == 1 and nothing to move: no steps */
    CHECK(scc_sched_butterfly_allreduce(&s, 1, 0, 5) == 0 && s.nsteps == 0 && s.flags == 0,
          "n = 1");
    CHECK(scc_sched_ring_allreduce(&s, 7, 3, 0) == 0 && s.nsteps == 0 && s.nrounds == 0,
          "no blocks");
}

/* A few exact schedules, to pin the shapes down beyond what replay proves. */
static void check_shapes(void)
{
    scc_step_t buf[64];
    scc_sched_t s = { buf, 64, 0, NULL, 0, 0, 0, 0 };

    /* n = 3, one block: rank 2 folds into 0, 0 and 1 swap, 0 hands back to 2 */
    CHECK(scc_sched_butterfly_allreduce(&s, 3, 0, 1) == 0 && s.nsteps == 4, "n=3 rank 0");
    CHECK(buf[0].kind == SCC_STEP_RECV_REDUCE && buf[0].peer == 2 &&
          (buf[0].flags & SCC_STEP_F_INPUT) && buf[0].round == 0, "fold in");
    CHECK(buf[1].kind == SCC_STEP_SEND && buf[1].flags == 0 && buf[1].round == 1 &&
          buf[2].kind == SCC_STEP_RECV_REDUCE && buf[2].peer == 1 && buf[2].flags == 0,
          "swap from work");
    CHECK(buf[3].kind == SCC_STEP_SEND && buf[3].round == 2 && buf[3].nreaders == 1, "fold out");
    CHECK(scc_sched_butterfly_allreduce(&s, 3, 1, 1) == 0 && s.nsteps == 2 &&
          buf[0].kind == SCC_STEP_SEND && (buf[0].flags & SCC_STEP_F_INPUT) && buf[0].tag == 1 &&
          buf[1].peer == 0 && (buf[1].flags & SCC_STEP_F_INPUT), "n=3 rank 1 swaps its input");
    /* n = 8, two blocks: partners 1, 2, 4 in that order */
    CHECK(scc_sched_butterfly_allreduce(&s, 8, 5, 2) == 0 && s.nsteps == 12, "n=8");
    CHECK(buf[1].peer == 4 && buf[3].peer == 4 && buf[5].peer == 7 && buf[9].peer == 1 &&
          buf[11].block == 1 && buf[11].round == 5, "n=8 partners");
    /* ring of 3 ranks, 6 blocks: segments of 2; rank 1 sends segment 0 first, from input */
    CHECK(scc_sched_ring_allreduce(&s, 3, 1, 6) == 0 && s.nrounds == 8, "ring n=3");
    CHECK(buf[0].kind == SCC_STEP_SEND && buf[0].block == 0 && (buf[0].flags & SCC_STEP_F_INPUT),
          "ring: first send");
    CHECK(buf[1].kind == SCC_STEP_RECV_REDUCE && buf[1].block == 4 && buf[1].peer == 0,
          "ring: segment 2 from the left");
    /* reduce-scatter ends with the own segment, allgather starts with it */
    CHECK(scc_sched_ring_reduce_scatter(&s, 4, 2, 1) == 0 && s.nsteps == 6 &&
          buf[5].kind == SCC_STEP_RECV_REDUCE && buf[5].block == 2, "rs: last is my block");
    CHECK(scc_sched_ring_allgather(&s, 4, 2, 1) == 0 && buf[0].kind == SCC_STEP_SEND &&
          buf[0].block == 2, "ag: first send is my block");
}

int main(void)
{
    clock_t t0 = clock();
    static const uint32_t big_nbs[] = { 16, 33 };
    static const int big_ns[] = { 100, 127, 128, 129 };

    for (int n = 1; n <= 64; ++n) {
        for (uint32_t nb = 0; nb <= 9; ++nb) {
            for (int alg = 0; alg < 4; ++alg) {
                check((alg_t) alg, n, nb, 0);
            }
            check(BUTTERFLY, n, nb, 1);
            check(RING_ALLREDUCE, n, nb, 1);
            check(RING_REDUCE_SCATTER, n, nb, 1);
            check_ring_balance(n, nb);
        }
        for (int i = 0; i < 2; ++i) {
            check(BUTTERFLY, n, big_nbs[i], 0);
            check(RING_ALLREDUCE, n, big_nbs[i] * 4, 0);
            check(RING_ALLREDUCE, n, big_nbs[i] * 4, 1);
            if (n <= 16) {
                check(RING_REDUCE_SCATTER, n, big_nbs[i], 0);
                check(RING_ALLGATHER, n, big_nbs[i], 0);
            }
        }
    }
    for (int i = 0; i < 4; ++i) {
        static const uint32_t nbs[] = { 0, 1, 2, 5 };
        for (int k = 0; k < 4; ++k) {
            for (int alg = 0; alg < 4; ++alg) {
                check((alg_t) alg, big_ns[i], nbs[k], 0);
            }
        }
        check(BUTTERFLY, big_ns[i], 3, 1);
        check(RING_ALLREDUCE, big_ns[i], 300, 1);
    }
    for (int n = 200; n <= 1100; n += 300) {
        check(BUTTERFLY, n, 2, 0); /* 200, 500, 800, 1100 */
    }
    check(BUTTERFLY, 1024, 1, 0);
    check_bad_input();
    check_shapes();

    printf("test_sched_ring: %ld schedules replayed, %ld steps, %.2f s\n", nruns, nsteps_total,
           (double) (clock() - t0) / CLOCKS_PER_SEC);
    return unit_finish("test_sched_ring");
}
