/* test_sim_cluster.c: the simulator's cluster model on cases computed by hand -- messages over
 * the network through single-port nodes (eager and rendezvous, no slot window), and the
 * component's hierarchical bcast replayed on 4 nodes of 1 core and on 2 nodes of 2. */
#include <math.h>
#include <string.h>

#include "scc_sim_cluster.h"
#include "scc_sim_engine.h"
#include "scc_sim_model.h"
#include "unit.h"

#define NEAR(a, b) (fabs((double) (a) - (double) (b)) < 1e-6 * (1.0 + fabs((double) (b))))

/* Round numbers: a message of m bytes holds a port 100 + m/2 ns and arrives 1000 ns after it
 * leaves; an isend costs its core 50 ns, a receive 70.  Inside a node: put 10 + 0.1 ns/B,
 * get 20 + 0.2 ns/B, flags 5 ns, 64-byte lines, no memory contention, every access hits. */
static void cluster_params(scc_sim_params_t *p)
{
    scc_sim_params_default(p);
    p->net = 1;
    p->net_lat_ns = 1000;
    p->net_ns_b = 0.5;
    p->net_gap_ns = 100;
    p->net_o_send = 50;
    p->net_o_recv = 70;
    p->net_eager = 1e12;
    p->line_bytes = 64;
    p->mesh_mhz = 1000;
    p->router_cycles = 0;
    p->port_cycles_line = 0;
    p->o_put = 10;
    p->o_get = 20;
    p->put_ns_b = 0.1;
    p->get_ns_b = 0.2;
    p->flag_ns = 5;
    p->mem_ns_b = 0;
    p->cache_bytes = 1e15;
    p->cache_model = SCC_SIM_CACHE_FOOTPRINT;
    p->reduce_ns_b = 0.25;
    p->slot_bytes = 16384;
    p->window = 4;
    p->cma_min = 0;
}

typedef struct {
    scc_step_t steps[16];
    int n;
} prog_buf_t;

static void add(prog_buf_t *b, int kind, int peer, uint32_t tag, int nreaders)
{
    scc_step_t *s = &b->steps[b->n++];
    memset(s, 0, sizeof(*s));
    s->kind = (uint8_t) kind;
    s->peer = peer;
    s->tag = tag;
    s->nblocks = 1;
    s->nreaders = (uint16_t) nreaders;
}

/* n ranks, rank r on node node[r] (nodes on a row), blocks of m bytes. */
static double run(const scc_sim_params_t *p, int n, const int *node, prog_buf_t *b, double m,
                  scc_sim_result_t *res)
{
    scc_sim_prog_t progs[8];
    scc_sim_job_t job = { 0 };

    memset(progs, 0, sizeof(progs));
    for (int r = 0; r < n; ++r) {
        progs[r].steps = b[r].steps;
        progs[r].nsteps = b[r].n;
        progs[r].tile = node[r];
    }
    job.n = n;
    job.X = 4;
    job.Y = 1;
    job.progs = progs;
    job.block_bytes = m;
    job.total_bytes = 16 * m;
    CHECK(0 == scc_sim_engine_run(p, &job, res), "engine failed");
    return res->t_max;
}

/* One message of 1000 bytes from node 0 to node 1; then the same as a rendezvous. */
static void test_one_message(void)
{
    scc_sim_params_t p;
    scc_sim_result_t res;
    prog_buf_t b[2];
    int node[2] = { 0, 1 };
    double t;

    cluster_params(&p);
    memset(b, 0, sizeof(b));
    add(&b[0], SCC_STEP_SEND, -1, 0, 1);
    add(&b[1], SCC_STEP_RECV, 0, 0, 0);
    t = run(&p, 2, node, b, 1000, &res);
    /* isend 50, port 100 + 500, latency 1000, receive 70 */
    CHECK(NEAR(t, 1720), "one message: %.3f, expected 1720", t);
    CHECK(NEAR(res.t_end[0], 650), "the sender waits for its isend to leave: %.3f", res.t_end[0]);
    CHECK(1 == res.gets && 0 == res.pieces, "one network read, no slot piece");
    scc_sim_result_free(&res);

    /* rendezvous: the request arrives at 1050 (the reader waits from 0), the answer at 2050,
       then the data: 2050 + 600 + 1000 = 3650, received 3720; the sender is done at 2650 */
    p.net_eager = 0;
    t = run(&p, 2, node, b, 1000, &res);
    CHECK(NEAR(t, 3720), "rendezvous: %.3f, expected 3720", t);
    CHECK(NEAR(res.t_end[0], 2650), "rendezvous sender: %.3f, expected 2650", res.t_end[0]);
    scc_sim_result_free(&res);

    /* a late reader: a reduction waits for the message, then combines it (0.25 ns/B) */
    p.net_eager = 1e12;
    b[1].steps[0].kind = SCC_STEP_RECV_REDUCE;
    t = run(&p, 2, node, b, 1000, &res);
    CHECK(NEAR(t, 1720 + 250), "reduce: %.3f, expected 1970", t);
    scc_sim_result_free(&res);
}

/* Two messages through one port: one sender's port to two nodes, two senders into one. */
static void test_one_port(void)
{
    scc_sim_params_t p;
    scc_sim_result_t res;
    prog_buf_t b[3];
    int node[3] = { 0, 1, 2 };
    double t;

    cluster_params(&p);
    /* one message, readers on nodes 1 and 2: isends at 50 and 100; the second leaves when the
       first is out, at 650: arrives 2250 */
    memset(b, 0, sizeof(b));
    add(&b[0], SCC_STEP_SEND, -1, 0, 2);
    add(&b[1], SCC_STEP_RECV, 0, 0, 0);
    add(&b[2], SCC_STEP_RECV, 0, 0, 0);
    t = run(&p, 3, node, b, 1000, &res);
    CHECK(NEAR(res.t_end[1], 1720), "first reader: %.3f, expected 1720", res.t_end[1]);
    CHECK(NEAR(res.t_end[2], 2320), "second reader: %.3f, expected 2320", res.t_end[2]);
    CHECK(NEAR(res.t_end[0], 1250), "sender: %.3f, expected 1250", res.t_end[0]);
    CHECK(NEAR(t, 2320), "t_max %.3f", t);
    scc_sim_result_free(&res);

    /* nodes 0 and 1 send to node 2 at 50: the second waits for node 2's port, free to receive
       at 1650, so it leaves at 650 and arrives at 2250 */
    memset(b, 0, sizeof(b));
    add(&b[0], SCC_STEP_SEND, -1, 0, 1);
    add(&b[1], SCC_STEP_SEND, -1, 0, 1);
    add(&b[2], SCC_STEP_RECV, 0, 0, 0);
    add(&b[2], SCC_STEP_RECV, 1, 0, 0);
    t = run(&p, 3, node, b, 1000, &res);
    CHECK(NEAR(t, 2320), "two into one port: %.3f, expected 2320", t);
    CHECK(NEAR(res.t_end[0], 650) && NEAR(res.t_end[1], 1250), "senders %.3f %.3f",
          res.t_end[0], res.t_end[1]);
    scc_sim_result_free(&res);
}

/* Six signals to another node take no slot: the sender posts them all at once (a window of 4
 * slots would hold the fifth until the reader consumed the first, at 1720). */
static void test_no_window(void)
{
    scc_sim_params_t p;
    scc_sim_result_t res;
    prog_buf_t b[2];
    int node[2] = { 0, 1 };

    cluster_params(&p);
    memset(b, 0, sizeof(b));
    for (uint32_t k = 0; k < 6; ++k) {
        add(&b[0], SCC_STEP_SEND, -1, k, 1);
        b[0].steps[k].nblocks = 0;
        add(&b[1], SCC_STEP_RECV, 0, k, 0);
        b[1].steps[k].nblocks = 0;
    }
    run(&p, 2, node, b, 1000, &res);
    /* posted at 50 .. 300, leaving at 50, 150, ..., 550 (100 each): the last out at 650 and in
       at 1650 */
    CHECK(NEAR(res.t_end[0], 650), "sender: %.3f, expected 650", res.t_end[0]);
    CHECK(NEAR(res.t_end[1], 1720), "reader: %.3f, expected 1720", res.t_end[1]);
    scc_sim_result_free(&res);
}

/* The component's hierarchical binomial bcast of 1000 bytes (one block), root 0. */
static void test_hier_bcast(void)
{
    scc_sim_params_t p;
    scc_sim_cluster_t cl;
    scc_sim_ccase_t c;
    scc_sim_cout_t o;
    int copy;

    cluster_params(&p);
    memset(&c, 0, sizeof(c));
    c.coll = SCC_COLL_BCAST;
    c.inter = SCC_INTER_BINOMIAL;
    c.bytes = 1000;
    CHECK(8192 == scc_sim_cluster_block(&c, &copy) && !copy, "the component's block");

    /* 4 nodes of 1: the root's one message reads at nodes 1 and 2 (1720, 2320 as above);
       node 1 sends on to node 3 at 1770: 1770 + 600 + 1000 + 70 = 3440 */
    CHECK(0 == scc_sim_cluster_init(&cl, 4, 1), "4 nodes");
    CHECK(0 == scc_sim_cluster_run(&p, &cl, &c, &o), "4x1 runs");
    CHECK(NEAR(o.t, 3440), "4x1: %.3f, expected 3440", o.t);
    CHECK(NEAR(o.t_root, 1250), "4x1 root: %.3f, expected 1250", o.t_root);
    CHECK(1 == o.nblocks && 3 == o.gets, "4x1: %u blocks, %ld reads", o.nblocks, o.gets);
    scc_sim_cluster_free(&cl);

    /* 2 nodes of 2: the root's isend (50), then its put for rank 1: 50 + 10 + 1024 * 0.1 =
       162.4, read after the flag: 167.4 + 20 + 1024 * 0.2 = 392.2; node 1's leader receives
       at 1720, puts until 1832.4, rank 3 reads until 2062.2 */
    CHECK(0 == scc_sim_cluster_init(&cl, 2, 2), "2 nodes");
    CHECK(0 == scc_sim_cluster_run(&p, &cl, &c, &o), "2x2 runs");
    CHECK(NEAR(o.t, 2062.2), "2x2: %.3f, expected 2062.2", o.t);
    CHECK(NEAR(o.t_root, 650), "2x2 root: %.3f, expected 650", o.t_root);
    /* two blocks: the leaders' tags interleave between the memories (network 0, 1; node
       2, 3), which the engine takes */
    c.block_bytes = 500;
    CHECK(0 == scc_sim_cluster_run(&p, &cl, &c, &o) && 2 == o.nblocks, "2x2, two blocks");
    scc_sim_cluster_free(&cl);
}

int main(void)
{
    test_one_message();
    test_one_port();
    test_no_window();
    test_hier_bcast();
    return unit_finish("test_sim_cluster");
}
