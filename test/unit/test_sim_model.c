/* test_sim_model.c: the mesh model and its event engine on cases computed by hand. */
#include <math.h>
#include <string.h>

#include "scc_sim_base.h"
#include "scc_sim_engine.h"
#include "scc_sim_fit.h"
#include "scc_sim_model.h"
#include "scc_sim_thesis.h"
#include "unit.h"

#define NEAR(a, b) (fabs((double) (a) - (double) (b)) < 1e-6 * (1.0 + fabs((double) (b))))

/* Round numbers so that every expected time below is exact: a router is 4 ns,
 * a remote line costs 8 ns per hop (there and back) = 0.25 ns/B per hop. */
static void simple_params(scc_sim_params_t *p)
{
    scc_sim_params_default(p);
    p->mesh_mhz = 1000;
    p->router_cycles = 4;
    p->line_bytes = 32;
    p->link_bytes = 16;
    p->header_flits = 1;
    p->port_cycles_line = 0;
    p->o_put = 100;
    p->o_get = 200;
    p->put_ns_b = 1;
    p->get_ns_b = 2;
    p->mem_ns_b = 10;
    p->cache_bytes = 1e12;
    p->reduce_ns_b = 0.5;
    p->flag_ns = 50;
    p->window = 4;
    p->slot_bytes = 8192;
    p->sync = SCC_SIM_SYNC_EAGER;
    p->link_hold = SCC_SIM_HOLD_LINE;
    p->port_hold = SCC_SIM_HOLD_LINE;
    p->cache_model = SCC_SIM_CACHE_STATE;
    p->mem_overlap = 1;
}

typedef struct {
    scc_step_t steps[64];
    int n;
} prog_buf_t;

static void add(prog_buf_t *b, int kind, int peer, uint32_t tag, uint32_t block, uint32_t nblocks,
                int nreaders)
{
    scc_step_t *s = &b->steps[b->n++];
    memset(s, 0, sizeof(*s));
    s->kind = (uint8_t) kind;
    s->peer = peer;
    s->tag = tag;
    s->block = block;
    s->nblocks = nblocks;
    s->nreaders = (uint16_t) nreaders;
}

/* footprint: private bytes of each rank's buffer (0: all of it cached) */
static double footprint;

static double run(const scc_sim_params_t *p, int n, int X, int Y, const int *tiles, prog_buf_t *b,
                  double block_bytes, double total, scc_sim_result_t *res)
{
    scc_sim_prog_t progs[16];
    scc_sim_job_t job = { 0 };
    memset(progs, 0, sizeof(progs));
    for (int r = 0; r < n; ++r) {
        progs[r].steps = b[r].steps;
        progs[r].nsteps = b[r].n;
        progs[r].tile = tiles[r];
        progs[r].footprint = footprint;
    }
    job.n = n;
    job.X = X;
    job.Y = Y;
    job.progs = progs;
    job.block_bytes = block_bytes;
    job.total_bytes = total;
    job.passes = 1;
    CHECK(0 == scc_sim_engine_run(p, &job, res), "engine failed");
    return res->t_max;
}

/* Geometry and routes. */
static void test_geometry(void)
{
    int links[16], k;
    /* 6x4 mesh: tile 0 is (0,0), tile 23 is (5,3): 8 hops, x first */
    CHECK(8 == scc_sim_hops(6, 0, 23), "hops %d", scc_sim_hops(6, 0, 23));
    k = scc_sim_route(6, 0, 23, links);
    CHECK(8 == k, "route length %d", k);
    CHECK(links[0] == scc_sim_link(0, SCC_SIM_EAST) && links[4] == scc_sim_link(4, SCC_SIM_EAST),
          "route starts east along row 0");
    CHECK(links[5] == scc_sim_link(5, SCC_SIM_NORTH) && links[7] == scc_sim_link(17, SCC_SIM_NORTH),
          "route then climbs column 5");
    /* the way back is not the same links (X-Y asymmetry, seeds/003 §1.4) */
    k = scc_sim_route(6, 23, 0, links);
    CHECK(8 == k && links[0] == scc_sim_link(23, SCC_SIM_WEST), "back: west first");
    CHECK(0 == scc_sim_route(6, 7, 7, links), "same tile: no link");
}

/* One transfer over h hops: put, flag, get. */
static void test_one_transfer(void)
{
    scc_sim_params_t p;
    scc_sim_result_t res;
    prog_buf_t b[2];
    int tiles[2] = { 0, 0 };
    double m = 1024, t;

    simple_params(&p);
    for (int h = 0; h <= 5; ++h) {
        double expect;
        memset(b, 0, sizeof(b));
        tiles[1] = h;  /* a 6x1 row: tile h is h hops away */
        add(&b[0], SCC_STEP_SEND, -1, 0, 0, 1, 1);
        add(&b[1], SCC_STEP_RECV, 0, 0, 0, 1, 0);
        t = run(&p, 2, 6, 1, tiles, b, m, m, &res);
        /* put: 100 + 1024*1; flag: 50 + 4h; get: 200 + 1024*(2 + 0.25h) */
        expect = (100 + 1024.0) + (50 + 4.0 * h) + (200 + 1024 * (2 + 0.25 * h));
        CHECK(NEAR(t, expect), "h=%d: %.3f, expected %.3f", h, t, expect);
        CHECK(NEAR(res.t_end[0], 100 + 1024.0), "eager sender leaves after its put");
        CHECK(1 == res.gets && res.bytes == m, "one get of m bytes");
        scc_sim_result_free(&res);
        /* 16 ns more per line and hop: 0.5 ns/B per hop on the get, flags unchanged */
        p.hop_line_ns = 16;
        t = run(&p, 2, 6, 1, tiles, b, m, m, &res);
        CHECK(NEAR(t, expect + 1024 * 0.5 * h), "h=%d, hop_line_ns 16: %.3f", h, t);
        scc_sim_result_free(&res);
        p.hop_line_ns = 0;
    }

    /* a partial line costs a whole line; a cache miss costs mem_ns_b more per byte */
    memset(b, 0, sizeof(b));
    tiles[1] = 1;
    add(&b[0], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[1], SCC_STEP_RECV_REDUCE, 0, 0, 0, 1, 0);
    t = run(&p, 2, 6, 1, tiles, b, 40, 40, &res);
    CHECK(NEAR(t, (100 + 64.0) + (50 + 4) + (200 + 64 * (2 + 0.25 + 0.5))),
          "40 B move as 64 B; the reduce adds 0.5 ns/B: %.3f", t);
    scc_sim_result_free(&res);

    /* blocking send: the sender waits for the reader's acknowledgement */
    p.sync = SCC_SIM_SYNC_BLOCKING;
    memset(b, 0, sizeof(b));
    tiles[1] = 2;
    add(&b[0], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[1], SCC_STEP_RECV, 0, 0, 0, 1, 0);
    t = run(&p, 2, 6, 1, tiles, b, m, m, &res);
    CHECK(NEAR(res.t_end[0], res.t_end[1] + 50 + 8),
          "blocking sender done when the ack is seen: %.3f vs %.3f", res.t_end[0], res.t_end[1]);
    CHECK(NEAR(t, res.t_end[0]), "the sender is last");
    scc_sim_result_free(&res);
}

/* Two transfers sharing a link: the second waits for the first. */
static void test_shared_link(void)
{
    scc_sim_params_t p;
    scc_sim_result_t res;
    prog_buf_t b[4];
    int tiles[4] = { 0, 1, 2, 3 };   /* a 4x1 row */
    double m = 2048, vis, get2, t;

    simple_params(&p);
    /* 0 -> 2 uses links 0E, 1E; 1 -> 3 uses 1E, 2E: they share 1E */
    memset(b, 0, sizeof(b));
    add(&b[0], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[2], SCC_STEP_RECV, 0, 0, 0, 1, 0);
    add(&b[1], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[3], SCC_STEP_RECV, 1, 0, 0, 1, 0);
    vis = (100 + 2048.0) + (50 + 8);            /* both published and flagged at once */
    get2 = 200 + 2048 * (2 + 0.5);              /* a get over 2 hops */

    /* per-line holding: a link moves a line packet (2 data + 1 header flits,
     * 3 ns) while the get reads a line every 80 ns, so the two interleave on
     * 1E and neither waits; 1E carried 2 x 64 lines x 3 ns */
    p.link_hold = SCC_SIM_HOLD_LINE;
    t = run(&p, 4, 4, 1, tiles, b, m, m, &res);
    CHECK(NEAR(res.t_end[2], vis + get2), "first reader does not wait: %.3f", res.t_end[2]);
    CHECK(NEAR(res.t_end[3], vis + get2), "nor the second: %.3f", res.t_end[3]);
    CHECK(NEAR(res.link_wait, 0) && NEAR(res.link_busy_max, 2 * 192), "link wait %.3f, busiest %.3f",
          res.link_wait, res.link_busy_max);
    CHECK(NEAR(t, vis + get2), "t %.3f", t);
    scc_sim_result_free(&res);

    /* a saturated link: 1/4 B per cycle makes a line 128 + 1 flits, 64 lines
     * 8256 ns, more than the get's 5120 ns of reads.  The first get is link-
     * bound; the second's lines share 1E behind the first's: 2 x 8256 */
    p.link_bytes = 0.25;
    t = run(&p, 4, 4, 1, tiles, b, m, m, &res);
    CHECK(NEAR(res.t_end[2], vis + 200 + 8256), "link-bound get: %.3f", res.t_end[2]);
    CHECK(NEAR(res.t_end[3], vis + 200 + 2 * 8256), "second behind it on 1E: %.3f", res.t_end[3]);
    CHECK(NEAR(t, vis + 200 + 2 * 8256), "t %.3f", t);
    scc_sim_result_free(&res);
    p.link_bytes = 16;

    /* transfer hold (seeds/003 exclusive links): the second one's data waits
     * until the first one's data is in; its overhead (200 ns) overlaps */
    p.link_hold = SCC_SIM_HOLD_TRANSFER;
    t = run(&p, 4, 4, 1, tiles, b, m, m, &res);
    CHECK(NEAR(res.t_end[3], vis + 2 * get2 - 200), "second get after the first: %.3f", res.t_end[3]);
    CHECK(NEAR(t, vis + 2 * get2 - 200), "t %.3f", t);
    scc_sim_result_free(&res);

    /* opposite directions share no directed link: 0 -> 2 and 3 -> 1 */
    memset(b, 0, sizeof(b));
    add(&b[0], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[2], SCC_STEP_RECV, 0, 0, 0, 1, 0);
    add(&b[3], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[1], SCC_STEP_RECV, 3, 0, 0, 1, 0);
    t = run(&p, 4, 4, 1, tiles, b, m, m, &res);
    CHECK(NEAR(t, vis + get2) && NEAR(res.link_wait, 0), "no shared link, no wait: %.3f", t);
    scc_sim_result_free(&res);

    /* core contention: two readers of one MPB.  Per line, a port busy 2
     * cycles per line (128 ns for 64 lines) interleaves both gets: no wait */
    p.port_cycles_line = 2;
    p.link_hold = SCC_SIM_HOLD_LINE;
    p.link_bytes = 1e9;
    p.header_flits = 0;
    memset(b, 0, sizeof(b));
    add(&b[0], SCC_STEP_SEND, -1, 0, 0, 1, 2);
    add(&b[1], SCC_STEP_RECV, 0, 0, 0, 1, 0);
    add(&b[2], SCC_STEP_RECV, 0, 0, 0, 1, 0);
    {
        int tl[3] = { 1, 0, 2 };                /* readers west and east of the sender */
        double pub = 100 + 2048.0;              /* the put's 128 ns on the port fit its 2048 ns */
        double g = 200 + 2048 * 2.25;           /* a get over 1 hop */
        t = run(&p, 3, 4, 1, tl, b, m, m, &res);
        CHECK(NEAR(res.t_end[1], pub + 54 + g) && NEAR(res.t_end[2], pub + 54 + g),
              "readers %.3f %.3f", res.t_end[1], res.t_end[2]);
        CHECK(res.port_wait < 1e-3 && res.link_wait < 1e-3, "port wait %.3f", res.port_wait);
        scc_sim_result_free(&res);

        /* a saturated port, 100 cycles per line = 6400 ns per transfer: the put
         * is port-bound (100 + 6400), then the readers' lines queue behind */
        p.port_cycles_line = 100;
        t = run(&p, 3, 4, 1, tl, b, m, m, &res);
        CHECK(NEAR(res.t_end[1], 6500 + 54 + 200 + 6400), "reader 1 port-bound %.3f", res.t_end[1]);
        CHECK(NEAR(res.t_end[2], 6500 + 54 + 200 + 2 * 6400), "reader 2 behind it %.3f", res.t_end[2]);
        scc_sim_result_free(&res);
        p.port_cycles_line = 2;

        /* the port held for whole transfers: reader 2's data waits for reader
         * 1's data phase (its 200 ns overhead overlaps) */
        p.port_hold = SCC_SIM_HOLD_TRANSFER;
        t = run(&p, 3, 4, 1, tl, b, m, m, &res);
        CHECK(NEAR(res.t_end[1], pub + 54 + g), "reader 1 %.3f", res.t_end[1]);
        CHECK(NEAR(res.t_end[2], pub + 54 + g + (g - 200)), "reader 2 after reader 1's data %.3f",
              res.t_end[2]);
        CHECK(NEAR(res.port_wait, g - 200), "port wait %.3f", res.port_wait);
        scc_sim_result_free(&res);
    }
}

/* A pipeline of k chunks over m hops: 0 -> 1 -> ... -> m, one tile apart. */
static void test_pipeline(void)
{
    scc_sim_params_t p;
    scc_sim_result_t res;
    static prog_buf_t b[8];
    int tiles[8];
    double c = 1024;

    simple_params(&p);
    for (int m = 1; m <= 6; ++m) {
        for (int k = 1; k <= 12; k += 11) {
            double put = 100 + c, get = 200 + c * 2.25, f = 54, expect, t;
            memset(b, 0, sizeof(b));
            for (int r = 0; r <= m; ++r) {
                tiles[r] = r;
                for (int blk = 0; blk < k; ++blk) {
                    if (r > 0) {
                        add(&b[r], SCC_STEP_RECV, r - 1, (uint32_t) blk, (uint32_t) blk, 1, 0);
                    }
                    if (r < m) {
                        add(&b[r], SCC_STEP_SEND, -1, (uint32_t) blk, (uint32_t) blk, 1, 1);
                    }
                }
            }
            t = run(&p, m + 1, 7, 1, tiles, b, c, c * k, &res);
            /* chunk 0 crosses m stages; each middle stage then delivers one
             * chunk per (get + put) */
            expect = put + (m - 1) * (f + get + put) + f + get + (k - 1) * (m > 1 ? get + put : put > get ? put : get);
            CHECK(NEAR(t, expect), "m=%d k=%d: %.3f, expected %.3f", m, k, t, expect);
            CHECK(res.gets == (long) m * k, "m=%d k=%d: %ld gets", m, k, res.gets);
            scc_sim_result_free(&res);
        }
    }
}

/* A message bigger than a slot streams through the sender's MPB. */
static void test_stream(void)
{
    scc_sim_params_t p;
    scc_sim_result_t res;
    prog_buf_t b[2];
    int tiles[2] = { 0, 1 };
    double t;

    simple_params(&p);
    p.window = 1;
    p.slot_bytes = 1024;
    memset(b, 0, sizeof(b));
    add(&b[0], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[1], SCC_STEP_RECV, 0, 0, 0, 1, 0);
    /* 2048 B = two pieces through one slot: put, flag, get, ack, put, flag, get */
    t = run(&p, 2, 6, 1, tiles, b, 2048, 2048, &res);
    {
        double put = 100 + 1024.0, get = 200 + 1024 * 2.25, f = 54;
        CHECK(NEAR(t, put + f + get + f + put + f + get), "stream of 2 pieces: %.3f", t);
        CHECK(NEAR(res.t_end[0], put + f + get + f + put), "sender leaves after its last put");
        CHECK(2 == res.pieces, "2 pieces, %ld", res.pieces);
    }
    scc_sim_result_free(&res);
}

/* The window: a sender with window 1 publishes its second message only once
 * the first is consumed. */
static void test_window(void)
{
    scc_sim_params_t p;
    scc_sim_result_t res;
    prog_buf_t b[2];
    int tiles[2] = { 0, 1 };
    double t, put = 100 + 1024.0, get = 200 + 1024 * 2.25, f = 54;

    simple_params(&p);
    p.window = 1;
    memset(b, 0, sizeof(b));
    add(&b[0], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[0], SCC_STEP_SEND, -1, 1, 1, 1, 1);
    add(&b[1], SCC_STEP_RECV, 0, 0, 0, 1, 0);
    add(&b[1], SCC_STEP_RECV, 0, 1, 1, 1, 0);
    t = run(&p, 2, 6, 1, tiles, b, 1024, 2048, &res);
    CHECK(NEAR(t, put + f + get + f + put + f + get), "window 1: %.3f", t);
    scc_sim_result_free(&res);
    p.window = 2;
    t = run(&p, 2, 6, 1, tiles, b, 1024, 2048, &res);
    CHECK(NEAR(t, put + f + get + get), "window 2: the second is there already: %.3f", t);
    scc_sim_result_free(&res);
}

/* The engine reports deadlocks and reads of messages nobody sends. */
static void test_failures(void)
{
    scc_sim_params_t p;
    scc_sim_result_t res;
    prog_buf_t b[2];
    int tiles[2] = { 0, 1 };
    scc_sim_prog_t progs[2];
    scc_sim_job_t job = { 0 };

    simple_params(&p);
    p.sync = SCC_SIM_SYNC_BLOCKING;
    fprintf(stderr, "test_sim_model: the deadlock and missing-message reports that follow are expected\n");
    memset(b, 0, sizeof(b));
    /* both send first with blocking sends: a deadlock */
    add(&b[0], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[0], SCC_STEP_RECV, 1, 0, 0, 1, 0);
    add(&b[1], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[1], SCC_STEP_RECV, 0, 0, 0, 1, 0);
    memset(progs, 0, sizeof(progs));
    for (int r = 0; r < 2; ++r) {
        progs[r].steps = b[r].steps;
        progs[r].nsteps = b[r].n;
        progs[r].tile = tiles[r];
    }
    job.n = 2;
    job.X = 6;
    job.Y = 1;
    job.progs = progs;
    job.block_bytes = 64;
    job.total_bytes = 64;
    job.passes = 1;
    CHECK(0 != scc_sim_engine_run(&p, &job, &res) && 2 == res.deadlock, "deadlock seen: %d",
          res.deadlock);
    scc_sim_result_free(&res);
    /* eager sends: the same program completes */
    p.sync = SCC_SIM_SYNC_EAGER;
    CHECK(0 == scc_sim_engine_run(&p, &job, &res) && 0 == res.deadlock, "eager exchange runs");
    scc_sim_result_free(&res);
    /* a read of a tag never sent */
    b[1].steps[1].tag = 7;
    CHECK(0 != scc_sim_engine_run(&p, &job, &res) && res.error, "missing message seen");
    scc_sim_result_free(&res);
}

/* Baselines: every message read once, as many as the algorithm moves. */
static void test_baselines(void)
{
    scc_sim_params_t p;
    scc_step_t steps[4096];
    uint32_t list[4096];
    scc_sched_t s = { steps, 4096, 0, list, 4096, 0, 0, 0 };
    int n = 13;
    long sends = 0, recvs = 0;

    simple_params(&p);
    for (int r = 0; r < n; ++r) {
        CHECK(0 == scc_sim_binomial_bcast(&s, n, r, 5, 3) && scc_sched_fits(&s), "binomial bcast");
        for (long i = 0; i < s.nsteps; ++i) {
            sends += steps[i].kind == SCC_STEP_SEND;
            recvs += steps[i].kind == SCC_STEP_RECV;
        }
    }
    CHECK(sends == 3 * (n - 1) && recvs == 3 * (n - 1), "binomial bcast moves k(n-1): %ld %ld", sends,
          recvs);
    sends = recvs = 0;
    for (int r = 0; r < n; ++r) {
        CHECK(0 == scc_sim_pairwise_alltoall(&s, n, r) && scc_sched_fits(&s), "pairwise");
        for (long i = 0; i < s.nsteps; ++i) {
            sends += steps[i].kind == SCC_STEP_SEND;
            recvs += steps[i].kind == SCC_STEP_RECV;
        }
    }
    CHECK(sends == (long) n * (n - 1) && recvs == sends, "pairwise moves n(n-1)");
}

/* Pichler's Cube code as written (scc_sim_thesis.h): the root's redundant
 * receive on a blocking chain timed by hand (its transfers: test_sim_replay). */
static void test_thesis_cube(void)
{
    scc_sim_params_t p;
    scc_sim_result_t res;
    prog_buf_t b[3];
    int tiles[3] = { 0, 0, 0 };

    /* n = 3 (pair {1, 2}), k = 2 blocks of 64 B on one tile, blocking sends:
     * put 164, flag 50, get 328 ns.  r0: 0>1:b0; r1: 0>2:b1, then 1>0:b0 (the
     * redundant one, rank 0 sends first: 0 < In = 2); r2: 1>2:b0, 2>1:b1.
     * 0>1 consumed at 592; 0>2 put 592..756, got 806..1134, ack 1184; 1>0 put
     * 542..706, got 1184..1512 (root done), ack 1562; 1>2 put ..1726, got
     * 1776..2104; 2>1 put ..2268, got 2318..2646, ack 2696. */
    simple_params(&p);
    p.sync = SCC_SIM_SYNC_BLOCKING;
    p.window = 1;
    for (int rr = 1; rr >= 0; --rr) {
        for (int r = 0; r < 3; ++r) {
            scc_sched_t s = { b[r].steps, 64, 0, NULL, 0, 0, 0, 0 };
            CHECK(0 == scc_sim_thesis_cube_bcast(&s, 3, r, 0, 2, rr) && scc_sched_fits(&s), "n=3");
            b[r].n = (int) s.nsteps;
        }
        run(&p, 3, 1, 1, tiles, b, 64, 128, &res);
        /* without it the root is done at 1184; 1>2 is got 1134..1462, 2>1 put ..1626, got 1676..2004 */
        CHECK(NEAR(res.t_end[0], rr ? 1512 : 1184), "root_recv %d: root done at %.1f", rr, res.t_end[0]);
        CHECK(NEAR(res.t_max, rr ? 2696 : 2054), "root_recv %d: last at %.1f", rr, res.t_max);
        scc_sim_result_free(&res);
    }
}

/* The cache state of a buffer: first touches miss in the fraction
 * 1 - cache/footprint, re-touches as deep as they sit in the LRU stack. */
static void test_cache_state(void)
{
    scc_sim_params_t p;
    scc_sim_cache_t c;

    simple_params(&p);
    p.cache_bytes = 1000;
    scc_sim_cache_init(&c, &p, 4000);
    CHECK(NEAR(scc_sim_cache_touch(&c, 1, 100), 75), "first touch: 3/4 of 100 B miss");
    CHECK(NEAR(scc_sim_cache_touch(&c, 2, 500), 375), "first touch: 375 of 500 B");
    CHECK(NEAR(scc_sim_cache_touch(&c, 1, 100), 0), "500 B touched since: still cached");
    CHECK(NEAR(scc_sim_cache_touch(&c, 3, 850), 637.5), "first touch of 850 B");
    /* block 1 sits under 850 B: its lines 850..950 deep, beyond 1000 none */
    CHECK(NEAR(scc_sim_cache_touch(&c, 1, 100), 0), "850 + 100 <= 1000: cached");
    CHECK(NEAR(scc_sim_cache_touch(&c, 4, 950), 712.5), "first touch of 950 B");
    /* block 1 now 950 deep: of its 100 B, 50 lie beyond 1000 */
    CHECK(NEAR(scc_sim_cache_touch(&c, 1, 100), 50), "half evicted");
    /* block 2 was touched 2000 B ago: gone */
    CHECK(NEAR(scc_sim_cache_touch(&c, 2, 500), 500), "evicted block misses whole");
    for (uint64_t k = 10; k < 2000; ++k) {
        scc_sim_cache_touch(&c, k, 1);  /* the table grows and keeps its entries */
    }
    CHECK(NEAR(scc_sim_cache_touch(&c, 1999, 1), 0) && NEAR(scc_sim_cache_touch(&c, 2, 500), 500),
          "after growing");
    scc_sim_cache_free(&c);
    scc_sim_cache_init(&c, &p, 1000);
    CHECK(NEAR(scc_sim_cache_touch(&c, 1, 100), 0), "a buffer that fits: no first-touch miss");
    scc_sim_cache_free(&c);
}

/* Private-memory misses of a transfer, blocking and not: rank 0 sends block 0
 * (1024 B), rank 1 gets it (one hop) and forwards it to rank 2 (one hop).
 * The buffer is twice the cache: a first touch misses half, 512 B x 10 ns. */
static void test_overlap(void)
{
    scc_sim_params_t p;
    scc_sim_result_t res;
    prog_buf_t b[3];
    int tiles[3] = { 0, 1, 2 };
    double m = 1024, mem = 5120, mpb_put = 1024, mpb_get = 1024 * 2.25, f = 54;

    simple_params(&p);
    p.cache_bytes = 1024;
    footprint = 2048;
    memset(b, 0, sizeof(b));
    add(&b[0], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[1], SCC_STEP_RECV, 0, 0, 0, 1, 0);
    add(&b[1], SCC_STEP_SEND, -1, 0, 0, 1, 1);
    add(&b[2], SCC_STEP_RECV, 1, 0, 0, 1, 0);

    /* blocking (RCCE): each copy takes its MPB side, then its misses; the
     * forward re-reads a block still cached (no miss) */
    p.sync = SCC_SIM_SYNC_BLOCKING;
    run(&p, 3, 3, 1, tiles, b, m, m, &res);
    {
        double pub0 = 100 + mpb_put + mem, got1 = pub0 + f + 200 + mpb_get + mem;
        double pub1 = got1 + 100 + mpb_put, got2 = pub1 + f + 200 + mpb_get + mem;
        CHECK(NEAR(res.t_end[2], got2), "blocking chain %.3f, expected %.3f", res.t_end[2], got2);
        CHECK(NEAR(res.t_end[0], got1 + f), "sender waits for the ack");
        CHECK(NEAR(res.missed, 3 * 512), "three first-touch halves missed: %.1f", res.missed);
    }
    scc_sim_result_free(&res);

    /* non-blocking, mem_overlap 1: a copy streams its misses beside its MPB
     * side and takes the longer (here the misses) */
    p.sync = SCC_SIM_SYNC_EAGER;
    run(&p, 3, 3, 1, tiles, b, m, m, &res);
    {
        double pub0 = 100 + mem, got1 = pub0 + f + 200 + mem;
        double pub1 = got1 + 100 + mpb_put, got2 = pub1 + f + 200 + mem;
        CHECK(NEAR(res.t_end[0], pub0), "eager sender leaves after its put %.3f", res.t_end[0]);
        CHECK(NEAR(res.t_end[1], pub1) && NEAR(res.t_end[2], got2), "overlapped %.3f %.3f, expected %.3f %.3f",
              res.t_end[1], res.t_end[2], pub1, got2);
    }
    scc_sim_result_free(&res);

    /* mem_overlap 2: rank 1's get returns after its MPB side, its writes drain
     * behind; the forward starts at once; rank 1 is done when they are out */
    p.mem_overlap = 2;
    run(&p, 3, 3, 1, tiles, b, m, m, &res);
    {
        double pub0 = 100 + mem, ds1 = pub0 + f + 200;
        CHECK(NEAR(res.t_end[1], ds1 + mem), "drained at %.3f", res.t_end[1]);
        CHECK(NEAR(res.t_end[2], ds1 + mpb_get + 100 + mpb_put + f + 200 + mem),
              "forward before the drain: %.3f", res.t_end[2]);
    }
    scc_sim_result_free(&res);

    /* mem_overlap 0: in turn, as blocking, but the sender does not wait */
    p.mem_overlap = 0;
    run(&p, 3, 3, 1, tiles, b, m, m, &res);
    CHECK(NEAR(res.t_end[0], 100 + mpb_put + mem), "sender %.3f", res.t_end[0]);
    scc_sim_result_free(&res);

    /* the old cost model: every access misses 1 - cache/footprint, the
     * forward's re-read too */
    p.cache_model = SCC_SIM_CACHE_FOOTPRINT;
    run(&p, 3, 3, 1, tiles, b, m, m, &res);
    CHECK(NEAR(res.missed, 4 * 512), "four halves missed: %.1f", res.missed);
    scc_sim_result_free(&res);
    footprint = 0;
}

/* The calibration's minimiser finds known minima. */
static double quad(const double *x, void *arg)
{
    (void) arg;
    return (x[0] - 3) * (x[0] - 3) + 10 * (x[1] + 1) * (x[1] + 1) + (x[2] - 0.5) * (x[2] - 0.5) + 2;
}

static double rosen(const double *x, void *arg)
{
    (void) arg;
    return 100 * (x[1] - x[0] * x[0]) * (x[1] - x[0] * x[0]) + (1 - x[0]) * (1 - x[0]);
}

static void test_minimize(void)
{
    double x[3] = { 0, 0, 0 }, step[3] = { 1, 1, 1 }, f;
    f = scc_sim_minimize(quad, NULL, x, step, 3, 2000, 1e-12);
    CHECK(fabs(f - 2) < 1e-6 && fabs(x[0] - 3) < 1e-3 && fabs(x[1] + 1) < 1e-3 && fabs(x[2] - 0.5) < 1e-3,
          "quadratic: f %.6f at (%.4f %.4f %.4f)", f, x[0], x[1], x[2]);
    x[0] = -1.2;
    x[1] = 1;
    f = scc_sim_minimize(rosen, NULL, x, step, 2, 5000, 1e-14);
    CHECK(f < 1e-6 && fabs(x[0] - 1) < 1e-2 && fabs(x[1] - 1) < 2e-2, "Rosenbrock: f %g at (%g %g)", f,
          x[0], x[1]);
}

int main(void)
{
    test_geometry();
    test_one_transfer();
    test_shared_link();
    test_cache_state();
    test_overlap();
    test_pipeline();
    test_stream();
    test_window();
    test_failures();
    test_baselines();
    test_thesis_cube();
    test_minimize();
    return unit_finish("test_sim_model");
}
