/* test_sim_replay.c: the simulator replays exactly the schedules the component's generators produce. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_sched.h"
#include "scc_sim_base.h"
#include "scc_sim_coll.h"
#include "scc_sim_thesis.h"
#include "unit.h"

/* The component's transport: SCC_SCHED_TAG_WINDOW messages of one slot each
 * in an 8 KB MPB; the driver cuts messages into blocks of one slot. */
#define MPB 8192
#define SLOT (MPB / SCC_SCHED_TAG_WINDOW)

typedef struct tcase {
    scc_coll_t coll;
    int alg;
    int X, Y, K, n;
    int root;
    double bytes;
} tcase_t;

/* The geometry, built here from the SCC numbering (rank = tile * K + core,
 * tile = y * X + x), independently of the driver. */
typedef struct geo {
    int *at, *tile_of, *core_of, *gat, *grow, *gcol;
    scc_tiles_t tiles;
    scc_grid_t grid;
} geo_t;

static void geo_init(geo_t *g, const tcase_t *c)
{
    int cores = c->X * c->Y * c->K, R = c->K * c->Y, C = c->X;
    g->at = malloc(sizeof(int) * cores);
    g->tile_of = malloc(sizeof(int) * c->n);
    g->core_of = malloc(sizeof(int) * c->n);
    g->gat = malloc(sizeof(int) * R * C);
    g->grow = malloc(sizeof(int) * c->n);
    g->gcol = malloc(sizeof(int) * c->n);
    for (int i = 0; i < cores; ++i) {
        g->at[i] = i < c->n ? i : -1;
    }
    for (int i = 0; i < R * C; ++i) {
        g->gat[i] = -1;
    }
    for (int r = 0; r < c->n; ++r) {
        int t = r / c->K, z = r % c->K, x = t % c->X, y = t / c->X;
        g->tile_of[r] = t;
        g->core_of[r] = z;
        /* DOPL: Pichler's processor map, a row per (tile row, core) */
        g->grow[r] = y * c->K + z;
        g->gcol[r] = x;
        g->gat[g->grow[r] * C + x] = r;
    }
    g->tiles = (scc_tiles_t) { c->X, c->Y, c->K, c->n, g->at, g->tile_of, g->core_of };
    g->grid = (scc_grid_t) { R, C, c->n, g->gat, g->grow, g->gcol };
}

static void geo_free(geo_t *g)
{
    free(g->at);
    free(g->tile_of);
    free(g->core_of);
    free(g->gat);
    free(g->grow);
    free(g->gcol);
}

/* The generator call the component makes for this case. */
static int generate(const tcase_t *c, const geo_t *g, int rank, scc_sched_t *s)
{
    uint32_t nb = c->bytes > 0 ? (uint32_t) ((c->bytes + SLOT - 1) / SLOT) : 0;
    int n = c->n, root = c->root, fan[8], nlev = scc_tree_fanout_auto(c->n, fan);

    switch (c->coll) {
    case SCC_COLL_BCAST:
        switch (c->alg) {
        case SCC_ALG_JIA: return scc_sched_jia_bcast(s, n, rank, root, nb);
        case SCC_ALG_DOPL: return scc_sched_dopl_bcast(s, &g->grid, rank, root, nb, 4);
        case SCC_ALG_NOCMSG: return scc_sched_nocmsg_bcast(s, &g->tiles, rank, root, nb);
        case SCC_ALG_TREE: return scc_sched_tree_bcast(s, n, rank, root, fan, nlev, nb);
        case SCC_SIM_LINEAR: return scc_sim_linear_bcast(s, n, rank, root, nb);
        case SCC_SIM_BINOMIAL: return scc_sim_binomial_bcast(s, n, rank, root, nb);
        }
        break;
    case SCC_COLL_REDUCE:
        switch (c->alg) {
        case SCC_ALG_NOCMSG: return scc_sched_nocmsg_reduce(s, &g->tiles, rank, root, nb);
        case SCC_ALG_TREE: return scc_sched_tree_reduce(s, n, rank, root, fan, nlev, nb);
        case SCC_SIM_LINEAR: return scc_sim_linear_reduce(s, n, rank, root, nb);
        case SCC_SIM_BINOMIAL: return scc_sim_binomial_reduce(s, n, rank, root, nb);
        }
        break;
    case SCC_COLL_ALLREDUCE:
        switch (c->alg) {
        case SCC_ALG_NOCMSG: return scc_sched_nocmsg_allreduce(s, &g->tiles, rank, root, nb);
        case SCC_SIM_LINEAR: return scc_sim_linear_allreduce(s, n, rank, root, nb);
        case SCC_SIM_BINOMIAL: return scc_sim_binomial_allreduce(s, n, rank, root, nb);
        }
        break;
    case SCC_COLL_BARRIER:
        switch (c->alg) {
        case SCC_ALG_NOCMSG: return scc_sched_nocmsg_barrier(s, &g->tiles, rank, root, 0);
        case SCC_ALG_NOCMSG_FANIN: return scc_sched_nocmsg_barrier(s, &g->tiles, rank, root, 1);
        case SCC_SIM_LINEAR: return scc_sim_linear_barrier(s, n, rank, root);
        case SCC_SIM_BINOMIAL: return scc_sim_binomial_barrier(s, n, rank, root);
        }
        break;
    case SCC_COLL_ALLTOALL:
        switch (c->alg) {
        case SCC_ALG_NOCMSG: return scc_sched_nocmsg_alltoall(s, &g->tiles, rank);
        case SCC_SIM_LINEAR: return scc_sim_linear_alltoall(s, n, rank);
        case SCC_SIM_PAIRWISE: return scc_sim_pairwise_alltoall(s, n, rank);
        }
        break;
    default:
        break;
    }
    return -1;
}

static long ncases, nsteps_checked;

static void check_case(const tcase_t *c)
{
    scc_sim_params_t p;
    scc_sim_case_t sc;
    scc_sim_out_t out;
    scc_sim_result_t res;
    geo_t g;
    static scc_step_t steps[1 << 16];
    static uint32_t list[1 << 16];
    scc_sched_t s = { steps, 1 << 16, 0, list, 1 << 16, 0, 0, 0 };
    long recvs = 0;
    int rc;

    scc_sim_params_default(&p);
    p.X = c->X;
    p.Y = c->Y;
    p.K = c->K;
    p.mpb_bytes = MPB;
    memset(&sc, 0, sizeof(sc));
    sc.coll = c->coll;
    sc.alg = c->alg;
    sc.n = c->n;
    sc.root = c->root;
    sc.bytes = c->bytes;
    rc = scc_sim_run_case_full(&p, &sc, &out, &res);
    CHECK(0 == rc && !out.failed && 0 == res.deadlock,
          "%s %s %dx%dx%d n=%d root %d %.0f B: the replay did not complete", scc_coll_name(c->coll),
          scc_sim_alg_name(c->alg), c->X, c->Y, c->K, c->n, c->root, c->bytes);
    if (0 != rc) {
        scc_sim_result_free(&res);
        return;
    }
    CHECK(SCC_COLL_ALLTOALL == c->coll || 1 == out.plan.passes, "one pass");
    geo_init(&g, c);
    for (int r = 0; r < c->n; ++r) {
        uint64_t h = SCC_SIM_HASH0;
        CHECK(0 == generate(c, &g, r, &s) && scc_sched_fits(&s), "generator, rank %d", r);
        for (int pass = 0; pass < out.plan.passes; ++pass) {
            for (long i = 0; i < s.nsteps; ++i) {
                h = scc_sim_step_hash(h, &s.steps[i], s.list, s.list_len);
                recvs += SCC_STEP_SEND != s.steps[i].kind;
            }
        }
        CHECK(h == res.hash[r] && res.executed[r] == s.nsteps * out.plan.passes,
              "%s %s n=%d: rank %d replayed %ld steps, not the %ld the generator made (or others)",
              scc_coll_name(c->coll), scc_sim_alg_name(c->alg), c->n, r, res.executed[r],
              s.nsteps * out.plan.passes);
        nsteps_checked += s.nsteps;
    }
    CHECK(recvs == out.gets, "every receive step is one get: %ld vs %ld", recvs, out.gets);
    CHECK(out.t > 0 || 0 == recvs, "time passes");
    geo_free(&g);
    scc_sim_result_free(&res);
    ncases++;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *) a, y = *(const long *) b;
    return (x > y) - (x < y);
}

#define KEY(round, from, to, blk) ((((long) (round) * 1024 + (from)) * 1024 + (to)) * 1024 + (blk))

/* The transfers of a Cube schedule from root 0, sorted keys (round, from, to,
 * block); every RECV matched by its sender's SEND.  which: 0 the component's
 * Jia, 1 Pichler's code without root receives, 2 as written.  Returns how many. */
static long cube_transfers(int which, int n, uint32_t k, long *key, long cap)
{
    enum { STEPS = 256 };
    scc_step_t *st = malloc(sizeof(scc_step_t) * STEPS * (size_t) n);
    long *ns = calloc((size_t) n, sizeof(long)), m = 0, sends = 0;

    for (int r = 0; st && ns && r < n; ++r) {
        scc_sched_t s = { st + STEPS * r, STEPS, 0, NULL, 0, 0, 0, 0 };
        int rc = which ? scc_sim_thesis_cube_bcast(&s, n, r, 0, k, which == 2)
                       : scc_sched_jia_bcast(&s, n, r, 0, k);
        CHECK(0 == rc && scc_sched_fits(&s), "cube %d n=%d rank %d", which, n, r);
        ns[r] = s.nsteps;
    }
    for (int r = 0; st && ns && r < n; ++r) {
        for (long i = 0; i < ns[r]; ++i) {
            const scc_step_t *x = &st[STEPS * r + i];
            int found = 0;
            if (SCC_STEP_SEND == x->kind) {
                sends++;
                continue;
            }
            for (long j = 0; j < ns[x->peer]; ++j) {
                const scc_step_t *o = &st[STEPS * x->peer + j];
                found |= SCC_STEP_SEND == o->kind && o->tag == x->tag && o->block == x->block;
            }
            CHECK(found && m < cap, "cube %d n=%d: %d reads (%d, %u), not sent", which, n, r, x->peer,
                  x->tag);
            if (m < cap) {
                key[m++] = KEY(x->round, x->peer, r, x->block);
            }
        }
    }
    CHECK(sends == m, "cube %d n=%d: %ld sends, %ld receives", which, n, sends, m);
    qsort(key, (size_t) m, sizeof(long), cmp_long);
    free(st);
    free(ns);
    return m;
}

/* Pichler's code (notes/seed-000-pichler.md §2.2, §2.5, §2.6): the transfers of
 * its small cases as "round:from>to:block", and at 48 ranks the component's
 * Jia transfers plus, as written, one into the root in each round j >= q. */
static void check_thesis_cube(void)
{
    /* n = 6, k = 3: the clean schedule of §2.6; as written 2:1>0:0 and 3:2>0:1 too */
    static const char *clean6 = "0:0>1:0 1:0>2:1 1:1>3:0 2:0>4:2 2:2>3:1 2:3>5:0 "
                                "3:0>5:2 3:1>4:0 3:3>1:1 3:4>3:2 3:5>2:0 4:1>4:1 4:2>5:1 4:4>1:2 4:5>2:2";
    static const char *code6 = "0:0>1:0 1:0>2:1 1:1>3:0 2:0>4:2 2:1>0:0 2:2>3:1 2:3>5:0 "
                               "3:0>5:2 3:1>4:0 3:2>0:1 3:3>1:1 3:4>3:2 3:5>2:0 4:1>4:1 4:2>5:1 4:4>1:2 4:5>2:2";
    /* n = 8, k = 2: Figure 7; a power of two has no root receive either way */
    static const char *fig7 = "0:0>1:0 1:0>2:1 1:1>3:0 2:0>4:1 2:1>5:0 2:2>6:1 2:3>7:0 "
                              "3:0>1:1 3:2>3:1 3:3>2:0 3:4>5:1 3:5>4:0 3:6>7:1 3:7>6:0";
    const struct { int n, k, which; const char *want; } small[] = {
        { 6, 3, 1, clean6 }, { 6, 3, 2, code6 }, { 8, 2, 1, fig7 }, { 8, 2, 2, fig7 },
    };
    static const uint32_t ks[] = { 1, 2, 13, 47 };
    long a[4096], b[4096];

    for (int i = 0; i < 4; ++i) {
        char got[1024];
        size_t off = 0;
        long m = cube_transfers(small[i].which, small[i].n, (uint32_t) small[i].k, a, 4096);
        got[0] = '\0';
        for (long j = 0; j < m && off < sizeof(got); ++j) {
            off += (size_t) snprintf(got + off, sizeof(got) - off, "%s%ld:%ld>%ld:%ld", j ? " " : "",
                                     a[j] >> 30, (a[j] >> 20) & 1023, (a[j] >> 10) & 1023, a[j] & 1023);
        }
        CHECK(0 == strcmp(got, small[i].want), "n=%d k=%d code %d: %s", small[i].n, small[i].k, small[i].which, got);
    }
    for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); ++i) {
        long mj = cube_transfers(0, 48, ks[i], a, 4096), mc = cube_transfers(1, 48, ks[i], b, 4096);
        long extra = 0, j = 0;
        CHECK(mj == mc && 0 == memcmp(a, b, sizeof(long) * (size_t) mj),
              "k=%u: Pichler's order moves the component's transfers", ks[i]);
        mc = cube_transfers(2, 48, ks[i], b, 4096);
        for (long x = 0; x < mc; ++x) {
            if (j < mj && a[j] == b[x]) {
                j++;
                continue;
            }
            /* the extra one: round r >= q = 5 brings block r - 5 to the root */
            extra++;
            CHECK(((b[x] >> 10) & 1023) == 0 && (b[x] & 1023) == (b[x] >> 30) - 5,
                  "k=%u: extra transfer %ld:%ld>%ld:%ld", ks[i], b[x] >> 30, (b[x] >> 20) & 1023,
                  (b[x] >> 10) & 1023, b[x] & 1023);
        }
        CHECK(j == mj && extra == (long) ks[i] - 1, "k=%u: %ld extra transfers into the root", ks[i], extra);
    }
}

int main(void)
{
    static const struct { int X, Y, K, n; } meshes[] = {
        { 6, 4, 2, 48 },   /* the SCC */
        { 4, 3, 2, 24 },
        { 5, 3, 1, 15 },
    };
    static const double sizes[] = { 0, 1, 2048, 5000, 40000 };
    static const int bcast_algs[] = { SCC_ALG_JIA, SCC_ALG_DOPL, SCC_ALG_NOCMSG, SCC_ALG_TREE,
                                      SCC_SIM_LINEAR, SCC_SIM_BINOMIAL };
    static const int reduce_algs[] = { SCC_ALG_NOCMSG, SCC_ALG_TREE, SCC_SIM_LINEAR, SCC_SIM_BINOMIAL };
    static const int allreduce_algs[] = { SCC_ALG_NOCMSG, SCC_SIM_LINEAR, SCC_SIM_BINOMIAL };
    static const int barrier_algs[] = { SCC_ALG_NOCMSG, SCC_ALG_NOCMSG_FANIN, SCC_SIM_LINEAR,
                                        SCC_SIM_BINOMIAL };
    static const int a2a_algs[] = { SCC_ALG_NOCMSG, SCC_SIM_LINEAR, SCC_SIM_PAIRWISE };

    /* the simulated transport is the component's */
    {
        scc_sim_params_t p;
        scc_sim_params_default(&p);
        CHECK(p.window == SCC_SCHED_TAG_WINDOW, "window %g", p.window);
        CHECK(scc_sim_slot(&p) == SLOT, "slot %g", scc_sim_slot(&p));
    }
    for (size_t m = 0; m < sizeof(meshes) / sizeof(meshes[0]); ++m) {
        int n = meshes[m].n;
        int roots[2] = { 0, (n * 2) / 3 };
        for (int ri = 0; ri < 2; ++ri) {
            for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); ++si) {
                tcase_t c = { SCC_COLL_BCAST, 0, meshes[m].X, meshes[m].Y, meshes[m].K, n,
                              roots[ri], sizes[si] };
                for (size_t a = 0; a < sizeof(bcast_algs) / sizeof(bcast_algs[0]); ++a) {
                    c.coll = SCC_COLL_BCAST;
                    c.alg = bcast_algs[a];
                    check_case(&c);
                }
                for (size_t a = 0; a < sizeof(reduce_algs) / sizeof(reduce_algs[0]); ++a) {
                    c.coll = SCC_COLL_REDUCE;
                    c.alg = reduce_algs[a];
                    check_case(&c);
                }
                for (size_t a = 0; a < sizeof(allreduce_algs) / sizeof(allreduce_algs[0]); ++a) {
                    c.coll = SCC_COLL_ALLREDUCE;
                    c.alg = allreduce_algs[a];
                    check_case(&c);
                }
            }
            for (size_t a = 0; a < sizeof(barrier_algs) / sizeof(barrier_algs[0]); ++a) {
                tcase_t c = { SCC_COLL_BARRIER, barrier_algs[a], meshes[m].X, meshes[m].Y,
                              meshes[m].K, n, roots[ri], 0 };
                check_case(&c);
            }
        }
        for (size_t a = 0; a < sizeof(a2a_algs) / sizeof(a2a_algs[0]); ++a) {
            static const double pair[] = { 8, 700, 3000 };
            for (int k = 0; k < 3; ++k) {
                tcase_t c = { SCC_COLL_ALLTOALL, a2a_algs[a], meshes[m].X, meshes[m].Y, meshes[m].K,
                              n, 0, pair[k] };
                check_case(&c);
            }
        }
    }
    check_thesis_cube();
    printf("test_sim_replay: %ld cases, %ld generated steps compared\n", ncases, nsteps_checked);
    return unit_finish("test_sim_replay");
}
