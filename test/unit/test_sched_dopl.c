/* test_sched_dopl.c: DOPL on every grid up to 8 x 8 with every root, partial rows and holes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_sched.h"
#include "sched_replay.h"
#include "unit.h"

typedef struct grid_buf {
    int at[64], row[64], col[64];
    scc_grid_t g;
} grid_buf_t;

typedef struct dopl_arg {
    const scc_grid_t *g;
    int root;
    uint32_t nblocks, cpp;
} dopl_arg_t;

static int gen_dopl(scc_sched_t *s, int rank, const void *ctx)
{
    const dopl_arg_t *a = ctx;
    return scc_sched_dopl_bcast(s, a->g, rank, a->root, a->nblocks, a->cpp);
}

/* Ranks numbered row-major over the present cells of mask (1 = present). */
static void make_grid(grid_buf_t *b, int R, int C, const unsigned char *mask)
{
    int n = 0;
    for (int x = 0; x < R * C; ++x) {
        if (mask[x]) {
            b->at[x] = n;
            b->row[n] = x / C;
            b->col[n] = x % C;
            n++;
        } else {
            b->at[x] = -1;
        }
    }
    b->g.R = R;
    b->g.C = C;
    b->g.n = n;
    b->g.at = b->at;
    b->g.row = b->row;
    b->g.col = b->col;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t) (rng_state >> 16);
}

static long nruns, nsteps_total, nfull, nholes;

/* Replays one broadcast; expect_rounds < 0 means "P or P+1". */
static void check_one(const scc_grid_t *g, int root, uint32_t nb, uint32_t cpp, long expect_rounds,
                      const char *what)
{
    dopl_arg_t a = { g, root, nb, cpp };
    replay_opts_t o = { REPLAY_BCAST, g->n, root, nb, 0, 1, 0 };
    replay_result_t res;
    long P = (nb + cpp - 1) / cpp;

    nruns++;
    if (!replay_run(&o, gen_dopl, &a, &res)) {
        CHECK(0, "%s %dx%d n=%d root=%d nb=%u cpp=%u: %s", what, g->R, g->C, g->n, root, nb, cpp,
              res.why);
        return;
    }
    nsteps_total += res.nsteps;
    if (expect_rounds >= 0) {
        CHECK(res.nrounds == expect_rounds,
              "%s %dx%d n=%d root=%d nb=%u cpp=%u: %u rounds, want %ld", what, g->R, g->C, g->n,
              root, nb, cpp, res.nrounds, expect_rounds);
    } else {
        CHECK(g->n == 1 || P == 0 || res.nrounds == P || res.nrounds == P + 1,
              "%s %dx%d n=%d root=%d nb=%u cpp=%u: %u rounds for %ld parts", what, g->R, g->C, g->n,
              root, nb, cpp, res.nrounds, P);
    }
    CHECK(res.root_recvs == 0, "%s: %ld receives at the root", what, res.root_recvs);
    CHECK(res.redundant == 0, "%s %dx%d n=%d root=%d nb=%u cpp=%u: %ld blocks received twice",
          what, g->R, g->C, g->n, root, nb, cpp, res.redundant);
    CHECK(res.ntransfers == (long) nb * (g->n - 1) || cpp > 1,
          "%s: %ld transfers for %u blocks", what, res.ntransfers, nb);
}

/* Per-round parts of every cell on a full grid match the closed form of notes §3.5. */
static void check_closed_form(int R, int C, int r0, int c0, uint32_t P)
{
    unsigned char mask[64];
    grid_buf_t b;
    memset(mask, 1, sizeof(mask));
    make_grid(&b, R, C, mask);
    int root = b.at[r0 * C + c0];
    dopl_arg_t a = { &b.g, root, P, 1 };
    for (int rank = 0; rank < b.g.n; ++rank) {
        scc_sched_t s = { 0 };
        scc_step_t steps[512];
        s.steps = steps;
        s.cap = 512;
        CHECK(gen_dopl(&s, rank, &a) == 0 && scc_sched_fits(&s), "closed form: generate");
        int r = b.row[rank], c = b.col[rank];
        for (uint32_t i = 0; i <= P; ++i) {
            int dim = i % 2;
            int src_line = dim == 0 ? c == c0 : r == r0;
            int head = dim == 0 ? r == r0 : c == c0;
            int pos = dim == 0 ? (r - r0 + R) % R : (c - c0 + C) % C;
            int len = dim == 0 ? R : C;
            long want_recv = -1, want_send = -1, want_wrap = -1;
            if (src_line) {
                long part = i < P ? i : P - 1;
                want_recv = head ? -1 : part;
                want_send = pos == len - 1 ? -1 : part;
            } else {
                if (!head && i >= 1) want_recv = i - 1;
                if (pos != len - 1 && i >= 1) want_send = i - 1;
                if (pos == len - 1 && i >= 2) want_wrap = i - 2;
                if (head && i >= 2) want_recv = i - 2;
            }
            long got_recv = -1, got_send = -1, got_wrap = -1;
            for (long k = 0; k < s.nsteps; ++k) {
                if (steps[k].round != i) continue;
                if (steps[k].kind == SCC_STEP_RECV) got_recv = steps[k].block;
                else if (pos == len - 1 && !src_line) got_wrap = steps[k].block;
                else got_send = steps[k].block;
            }
            CHECK(got_recv == want_recv && got_send == want_send && got_wrap == want_wrap,
                  "closed form %dx%d src (%d,%d) P=%u cell (%d,%d) round %u: recv %ld send %ld wrap"
                  " %ld, want %ld %ld %ld", R, C, r0, c0, P, r, c, i, got_recv, got_send, got_wrap,
                  want_recv, want_send, want_wrap);
        }
    }
}

int main(void)
{
    /* (blocks, chunks per part): 0..4 parts of one chunk (hand-backs in both dimensions
       from 4 parts on), and parts longer than the transport's window with a short last part */
    static const uint32_t sizes[][2] = { { 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 },
                                         { 13, 6 }, { 5, 2 } };
    unsigned char mask[64];
    grid_buf_t b;

    /* every R x C up to 8 x 8, full and with a partial last row, every root */
    for (int R = 1; R <= 8; ++R) {
        for (int C = 1; C <= 8; ++C) {
            for (int m = 1; m <= C; ++m) {
                if (R == 1 && m < C) {
                    continue;
                }
                for (int x = 0; x < R * C; ++x) {
                    mask[x] = x < (R - 1) * C + m;
                }
                make_grid(&b, R, C, mask);
                const int full = m == C;
                for (int root = 0; root < b.g.n; ++root) {
                    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); ++si) {
                        {
                            uint32_t nb = sizes[si][0], cpp = sizes[si][1];
                            long P = (nb + cpp - 1) / cpp;
                            long want = -1;
                            if (b.g.n == 1 || nb == 0) {
                                want = 0;
                            } else if (full) {
                                want = (R > 1 && C > 1) ? P + 1 : P;
                            } else if (R >= 3 && m >= 2 && b.row[root] < R - 1 && b.col[root] < m) {
                                want = P + 1; /* the partial row joins the pipelines */
                            }
                            check_one(&b.g, root, nb, cpp, want, full ? "full" : "partial");
                            nfull += full;
                        }
                    }
                }
            }
        }
    }

    /* holes anywhere: random masks with a fixed seed */
    for (int t = 0; t < 600; ++t) {
        int R = 1 + (int) (rnd() % 8), C = 1 + (int) (rnd() % 8);
        int density = 30 + (int) (rnd() % 70), n = 0;
        for (int x = 0; x < R * C; ++x) {
            mask[x] = (int) (rnd() % 100) < density;
            n += mask[x];
        }
        if (n == 0) {
            mask[rnd() % (R * C)] = 1;
        }
        make_grid(&b, R, C, mask);
        int root = (int) (rnd() % b.g.n);
        uint32_t nb = 1 + rnd() % 12, cpp = 1 + rnd() % 4;
        check_one(&b.g, root, nb, cpp, -1, "holes");
        nholes++;
    }

    /* the closed form of the thesis's schedule on full grids */
    check_closed_form(3, 4, 0, 0, 5);
    check_closed_form(4, 3, 2, 1, 4);
    check_closed_form(2, 2, 1, 1, 3);
    check_closed_form(5, 6, 3, 5, 6);

    /* bad input */
    {
        scc_sched_t s = { 0 };
        memset(mask, 1, sizeof(mask));
        make_grid(&b, 3, 3, mask);
        CHECK(scc_sched_dopl_bcast(&s, &b.g, 0, 9, 4, 2) == -1, "root out of range");
        CHECK(scc_sched_dopl_bcast(&s, &b.g, 0, 0, 4, 0) == -1, "zero chunks per part");
        b.at[4] = 7; /* inconsistent map */
        CHECK(scc_sched_dopl_bcast(&s, &b.g, 0, 0, 4, 2) == -1, "inconsistent grid");
    }

    printf("test_sched_dopl: %ld broadcasts replayed (%ld on full grids, %ld with random holes), "
           "%ld steps\n", nruns, nfull, nholes, nsteps_total);
    return unit_finish("test_sched_dopl");
}
