/* test_select.c: names, the collective/algorithm validity table, and the per-communicator
 * selection table (for many cores: test_select_many.c). */
#include <stdint.h>
#include <string.h>

#include "coll_scc_select.h"
#include "unit.h"

static void test_names(void)
{
    for (int a = 0; a < SCC_ALG_COUNT; ++a) {
        CHECK(scc_alg_from_name(scc_alg_name((scc_alg_t) a)) == a, "alg %d", a);
    }
    CHECK(scc_alg_from_name("nonsense") == -1, "unknown name");
    for (int c = 0; c < SCC_COLL_COUNT; ++c) {
        CHECK(scc_alg_valid((scc_coll_t) c, SCC_ALG_AUTO), "auto valid for %d", c);
        CHECK(scc_alg_valid((scc_coll_t) c, SCC_ALG_FALLBACK), "fallback valid for %d", c);
        CHECK(strcmp(scc_coll_name((scc_coll_t) c), "?") != 0, "name of %d", c);
    }
    CHECK(scc_alg_valid(SCC_COLL_BCAST, SCC_ALG_FLAT), "flat is a bcast");
    CHECK(scc_alg_valid(SCC_COLL_BARRIER, SCC_ALG_DISSEM), "dissem is a barrier");
    CHECK(!scc_alg_valid(SCC_COLL_REDUCE, SCC_ALG_DOPL), "dopl is not a reduce");
    CHECK(!scc_alg_valid(SCC_COLL_BARRIER, SCC_ALG_JIA), "jia is not a barrier");

    CHECK(!scc_alg_valid(SCC_COLL_COUNT, SCC_ALG_AUTO), "out of range collective");
}

static scc_select_topo_t topo(scc_topo_kind_t kind, int n, int grid_ok)
{
    scc_select_topo_t t;
    t.kind = kind;
    t.n = n;
    t.grid_ok = grid_ok;
    t.maxper = SCC_TOPO_NODES == kind ? 2 : 0;
    return t;
}

/* A table is well formed: ascending ranges, an open last one, valid algorithms, and
 * the hot-path lookup agrees with a plain scan at every boundary. */
static void check_table(const scc_select_table_t *t, const char *what)
{
    for (int c = 0; c < SCC_COLL_COUNT; ++c) {
        const scc_select_entry_t *e = &t->coll[c];
        CHECK(e->nranges >= 1 && e->nranges <= SCC_SELECT_MAX_RANGES, "%s: %d ranges", what,
              e->nranges);
        CHECK(SIZE_MAX == e->max[SCC_SELECT_MAX_RANGES - 1], "%s: open last range", what);
        for (int i = 0; i < e->nranges; ++i) {
            size_t probes[3];
            int np = 0;
            CHECK(scc_alg_valid((scc_coll_t) c, (scc_alg_t) e->alg[i]) && SCC_ALG_AUTO != e->alg[i],
                  "%s: %s range %d runs %s", what, scc_coll_name((scc_coll_t) c), i,
                  scc_alg_name((scc_alg_t) e->alg[i]));
            if (i > 0) {
                CHECK(e->max[i] > e->max[i - 1], "%s: ranges ascend", what);
                CHECK(e->alg[i] != e->alg[i - 1], "%s: neighbours differ", what);
                probes[np++] = e->max[i - 1] + 1;
            } else {
                probes[np++] = 0;
            }
            probes[np++] = e->max[i];
            for (int k = 0; k < np; ++k) {
                CHECK(scc_select(t, (scc_coll_t) c, probes[k]) == e->alg[i],
                      "%s: %s at %zu", what, scc_coll_name((scc_coll_t) c), probes[k]);
            }
        }
    }
}

static void test_defaults(void)
{
    scc_select_params_t p;
    scc_select_table_t t;
    scc_select_topo_t tp;
    char buf[256];

    scc_select_params_default(&p);

    /* flat: direct for what fits a line, pipelined trees beyond; reductions likewise;
       allreduce direct, trees, direct again from direct_min; the flag-tree barrier */
    tp = topo(SCC_TOPO_FLAT, 8, 1);
    scc_select_build(&t, &tp, &p);
    check_table(&t, "flat");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_BCAST, 0), "flat bcast 0");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_BCAST, p.line_max), "flat bcast line_max");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_BCAST, p.line_max + 1), "flat bcast tree");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_BCAST, SIZE_MAX), "flat bcast huge");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_BARRIER, 0), "flat barrier");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_REDUCE, p.line_max), "flat reduce small");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_REDUCE, 1 << 20), "flat reduce large");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_ALLREDUCE, p.tree_max), "flat allreduce small");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_ALLREDUCE, p.tree_max + 1),
          "flat allreduce medium");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_ALLREDUCE, p.direct_min),
          "flat allreduce large");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_ALLTOALL, 100), "flat alltoall");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_ALLGATHER, 1 << 20), "flat allgather");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_GATHERV, 0)
          && SCC_ALG_FLAT == scc_select(&t, SCC_COLL_SCATTERV, 0)
          && SCC_ALG_FLAT == scc_select(&t, SCC_COLL_ALLGATHERV, 0), "flat v-variants");
    scc_select_format(&t, SCC_COLL_BCAST, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "<=56 flat | >56 tree"), "format \"%s\"", buf);
    scc_select_format(&t, SCC_COLL_BARRIER, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "tree"), "format \"%s\"", buf);

    /* two processes: one exchange, the direct algorithms throughout */
    tp = topo(SCC_TOPO_FLAT, 2, 1);
    scc_select_build(&t, &tp, &p);
    check_table(&t, "pair");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_BCAST, 1 << 20), "pair bcast");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_ALLREDUCE, 1 << 16), "pair allreduce");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_REDUCE, 1 << 16), "pair reduce: pipelined");

    /* mesh: NoC_Msg, DOPL for large broadcasts when the grid allows */
    tp = topo(SCC_TOPO_MESH, 48, 1);
    scc_select_build(&t, &tp, &p);
    check_table(&t, "mesh");
    CHECK(SCC_ALG_NOCMSG == scc_select(&t, SCC_COLL_BCAST, 0), "mesh bcast small");
    CHECK(SCC_ALG_NOCMSG == scc_select(&t, SCC_COLL_BCAST, p.dopl_min - 1), "mesh bcast below");
    CHECK(SCC_ALG_DOPL == scc_select(&t, SCC_COLL_BCAST, p.dopl_min), "mesh bcast dopl");
    for (int c = SCC_COLL_BARRIER; c <= SCC_COLL_ALLTOALLV; ++c) {
        CHECK(SCC_ALG_NOCMSG == scc_select(&t, (scc_coll_t) c, 64), "mesh %s is nocmsg",
              scc_coll_name((scc_coll_t) c));
    }
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_GATHER, 64), "mesh gather flat");
    tp = topo(SCC_TOPO_MESH, 13, 0);
    scc_select_build(&t, &tp, &p);
    check_table(&t, "mesh with holes");
    CHECK(SCC_ALG_NOCMSG == scc_select(&t, SCC_COLL_BCAST, 1 << 20), "holes: no dopl");

    /* reduce_scatter, scan, exscan, alltoallw: direct on one node (scans: the chain from
       scan_ring_min, but for two processes), nocmsg's alltoallw on a mesh, across nodes the
       ring and the pairwise exchange; without shared memory the scans' chain */
    tp = topo(SCC_TOPO_FLAT, 4, 1);
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_REDUCE_SCATTER, 1 << 20)
          && SCC_ALG_FLAT == scc_select(&t, SCC_COLL_ALLTOALLW, 1 << 20), "flat rs, a2aw");
    for (int c = SCC_COLL_SCAN; c <= SCC_COLL_EXSCAN; ++c) {
        CHECK(SCC_ALG_FLAT == scc_select(&t, (scc_coll_t) c, p.scan_ring_min - 1)
              && SCC_ALG_RING == scc_select(&t, (scc_coll_t) c, p.scan_ring_min),
              "flat %s: direct, then the chain", scc_coll_name((scc_coll_t) c));
    }
    tp = topo(SCC_TOPO_FLAT, 2, 1);
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_SCAN, 1 << 20), "pair scan direct");
    p.unavailable = (1u << SCC_ALG_FLAT) | (1u << SCC_ALG_DISSEM);
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_RING == scc_select(&t, SCC_COLL_EXSCAN, 0)
          && SCC_ALG_FALLBACK == scc_select(&t, SCC_COLL_REDUCE_SCATTER, 0),
          "no shared memory: the scans' chain, reduce_scatter to the fallback");
    p.unavailable = 0;
    tp = topo(SCC_TOPO_MESH, 48, 1);
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_NOCMSG == scc_select(&t, SCC_COLL_ALLTOALLW, 64), "mesh alltoallw nocmsg");
    tp = topo(SCC_TOPO_NODES, 8, 1);
    scc_select_build(&t, &tp, &p);
    for (int c = SCC_COLL_REDUCE_SCATTER; c <= SCC_COLL_ALLTOALLW; ++c) {
        scc_alg_t want = SCC_COLL_SCAN == c || SCC_COLL_EXSCAN == c ? SCC_ALG_LEADERS
                                                                    : SCC_ALG_RING;
        CHECK(want == scc_select(&t, (scc_coll_t) c, 64), "nodes %s %s",
              scc_coll_name((scc_coll_t) c), scc_alg_name(want));
    }
    tp = topo(SCC_TOPO_FLAT, 4, 1);
    p.force[SCC_COLL_SCAN] = SCC_ALG_LEADERS;
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_FALLBACK == scc_select(&t, SCC_COLL_SCAN, 64), "one node: leaders' scan forced");
    p.force[SCC_COLL_SCAN] = SCC_ALG_AUTO;

    /* nodes: the schedules between node leaders; Bruck's allgather there only */
    tp = topo(SCC_TOPO_NODES, 8, 1);
    scc_select_build(&t, &tp, &p);
    check_table(&t, "nodes");
    CHECK(SCC_ALG_BRUCK == scc_select(&t, SCC_COLL_ALLGATHER, p.nodes_allgather_ring_min - 1),
          "nodes allgather below the ring: bruck");
    CHECK(SCC_ALG_RING == scc_select(&t, SCC_COLL_ALLGATHER, p.nodes_allgather_ring_min),
          "nodes allgather ring");
    CHECK(SCC_ALG_BUTTERFLY == scc_select(&t, SCC_COLL_ALLREDUCE, p.nodes_tree_min - 1)
          && SCC_ALG_TREE == scc_select(&t, SCC_COLL_ALLREDUCE, p.nodes_tree_min),
          "nodes allreduce butterfly, then trees");
    CHECK(SCC_ALG_DISSEM == scc_select(&t, SCC_COLL_BARRIER, 0), "nodes barrier dissem");
    p.force[SCC_COLL_ALLGATHER] = SCC_ALG_BRUCK;
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_BRUCK == scc_select(&t, SCC_COLL_ALLGATHER, 1 << 20), "nodes: bruck forced");
    tp = topo(SCC_TOPO_FLAT, 8, 1);
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_FALLBACK == scc_select(&t, SCC_COLL_ALLGATHER, 64),
          "one node: bruck forced is the fallback");
    CHECK((scc_select_topo_unavailable(SCC_TOPO_FLAT, SCC_COLL_ALLGATHER) & (1u << SCC_ALG_BRUCK))
          && (scc_select_topo_unavailable(SCC_TOPO_MESH, SCC_COLL_ALLGATHER)
              & (1u << SCC_ALG_BRUCK))
          && !(scc_select_topo_unavailable(SCC_TOPO_NODES, SCC_COLL_ALLGATHER)
               & (1u << SCC_ALG_BRUCK)),
          "bruck unavailable but across nodes (the forced path reads it too)");
    p.force[SCC_COLL_ALLGATHER] = SCC_ALG_AUTO;
    /* gather and scatter: the leaders' tree across nodes; forced on one node, the fallback
       (bcast's tree stays) */
    tp = topo(SCC_TOPO_NODES, 8, 1);
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_GATHER, 8)
          && SCC_ALG_TREE == scc_select(&t, SCC_COLL_SCATTER, 1 << 20), "nodes: gather tree");
    CHECK(SCC_ALG_LEADERS == scc_select(&t, SCC_COLL_ALLTOALL, p.nodes_alltoall_pairwise_min - 1)
          && SCC_ALG_RING == scc_select(&t, SCC_COLL_ALLTOALL, p.nodes_alltoall_pairwise_min)
          && SCC_ALG_RING == scc_select(&t, SCC_COLL_ALLTOALLV, 0),
          "nodes: alltoall through the leaders for small blocks, then pairwise");
    for (int c = SCC_COLL_GATHERV; c <= SCC_COLL_ALLGATHERV; ++c) {
        scc_alg_t want = SCC_COLL_ALLGATHERV == c ? SCC_ALG_BRUCK : SCC_ALG_TREE;
        CHECK(want == scc_select(&t, (scc_coll_t) c, 0)
              && 1 == t.coll[c].nranges && scc_alg_valid((scc_coll_t) c, SCC_ALG_FLAT)
              && scc_alg_valid((scc_coll_t) c, SCC_ALG_RING)
              && (scc_select_topo_unavailable(SCC_TOPO_FLAT, (scc_coll_t) c) & (1u << want)),
              "nodes: %s by %s", scc_coll_name((scc_coll_t) c), scc_alg_name(want));
    }
    CHECK(SCC_ALG_RING == scc_select(&t, SCC_COLL_REDUCE_SCATTER_BLOCK, 64),
          "nodes: reduce_scatter_block ring");
    tp.maxper = 1;
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_RING == scc_select(&t, SCC_COLL_ALLTOALL, 8),
          "one process per node: alltoall pairwise, nothing to aggregate");
    tp.maxper = 2;
    p.force[SCC_COLL_GATHER] = SCC_ALG_TREE;
    p.force[SCC_COLL_BCAST] = SCC_ALG_TREE;
    tp = topo(SCC_TOPO_FLAT, 8, 1);
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_FALLBACK == scc_select(&t, SCC_COLL_GATHER, 64)
          && SCC_ALG_TREE == scc_select(&t, SCC_COLL_BCAST, 64),
          "one node: gather tree forced is the fallback, bcast tree is not");
    p.force[SCC_COLL_ALLTOALL] = SCC_ALG_LEADERS;
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_FALLBACK == scc_select(&t, SCC_COLL_ALLTOALL, 8),
          "one node: leaders forced is the fallback");
    p.force[SCC_COLL_ALLTOALL] = SCC_ALG_AUTO;
    p.force[SCC_COLL_GATHER] = SCC_ALG_AUTO;
    p.force[SCC_COLL_BCAST] = SCC_ALG_AUTO;

    /* domains: as flat, and DOPL on the domain grid for large broadcasts (below
       many_min: test_select_many.c has the many-core table) */
    tp = topo(SCC_TOPO_DOMAINS, 12, 1);
    scc_select_build(&t, &tp, &p);
    check_table(&t, "domains");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_BCAST, p.dopl_min - 1), "domains bcast tree");
    CHECK(SCC_ALG_DOPL == scc_select(&t, SCC_COLL_BCAST, p.dopl_min), "domains bcast dopl");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_BARRIER, 0), "domains barrier");
    p.dopl_min = 100000;
    scc_select_build(&t, &tp, &p);
    check_table(&t, "domains, late dopl");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_BCAST, 99999), "domains tree below dopl_min");
    CHECK(SCC_ALG_DOPL == scc_select(&t, SCC_COLL_BCAST, 100000), "domains dopl_min");
}

static void test_params(void)
{
    scc_select_params_t p;
    scc_select_table_t t;
    scc_select_topo_t tp = topo(SCC_TOPO_MESH, 48, 1);
    char buf[256];

    /* forced choices */
    scc_select_params_default(&p);
    p.force[SCC_COLL_BCAST] = SCC_ALG_JIA;
    p.force[SCC_COLL_REDUCE] = SCC_ALG_DOPL;       /* not a reduce: ignored */
    p.force[SCC_COLL_BARRIER] = SCC_ALG_FALLBACK;
    scc_select_build(&t, &tp, &p);
    check_table(&t, "forced");
    CHECK(SCC_ALG_JIA == scc_select(&t, SCC_COLL_BCAST, 0)
          && SCC_ALG_JIA == scc_select(&t, SCC_COLL_BCAST, SIZE_MAX) && t.coll[SCC_COLL_BCAST].forced,
          "forced jia everywhere");
    CHECK(SCC_ALG_NOCMSG == scc_select(&t, SCC_COLL_REDUCE, 10) && !t.coll[SCC_COLL_REDUCE].forced,
          "invalid force ignored");
    CHECK(SCC_ALG_FALLBACK == scc_select(&t, SCC_COLL_BARRIER, 0), "forced fallback");
    scc_select_format(&t, SCC_COLL_BCAST, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "jia (forced)"), "format \"%s\"", buf);

    /* algorithms that cannot run become the fallback */
    scc_select_params_default(&p);
    p.unavailable = (1u << SCC_ALG_DOPL) | (1u << SCC_ALG_FLAT);
    scc_select_build(&t, &tp, &p);
    check_table(&t, "unavailable, mesh");
    CHECK(SCC_ALG_FALLBACK == scc_select(&t, SCC_COLL_BCAST, p.dopl_min), "no dopl: fallback");
    CHECK(SCC_ALG_NOCMSG == scc_select(&t, SCC_COLL_BCAST, 0), "nocmsg stays");
    tp = topo(SCC_TOPO_FLAT, 4, 1);
    scc_select_build(&t, &tp, &p);
    check_table(&t, "unavailable, flat");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_BCAST, 1), "no flat: a tree instead");
    CHECK(SCC_ALG_FALLBACK == scc_select(&t, SCC_COLL_GATHER, 1), "no flat gather: fallback");
    CHECK(SCC_ALG_RING == scc_select(&t, SCC_COLL_GATHERV, 0)
          && SCC_ALG_RING == scc_select(&t, SCC_COLL_ALLGATHERV, 0),
          "no flat: the v-variants by the pairwise exchange");
    p.unavailable |= 1u << SCC_ALG_TREE;
    scc_select_build(&t, &tp, &p);
    check_table(&t, "no flat, no tree");
    CHECK(SCC_ALG_FALLBACK == scc_select(&t, SCC_COLL_BCAST, 1), "no flat, no tree: fallback");
    p.unavailable &= ~(1u << SCC_ALG_TREE);
    scc_select_build(&t, &tp, &p);
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_BCAST, 100), "tree stays");
    p.unavailable = ~0u;
    scc_select_build(&t, &tp, &p);
    check_table(&t, "nothing available");
    for (int c = 0; c < SCC_COLL_COUNT; ++c) {
        CHECK(1 == t.coll[c].nranges && SCC_ALG_FALLBACK == t.coll[c].alg[0],
              "nothing available: %s falls back", scc_coll_name((scc_coll_t) c));
    }

    /* thresholds out of order: empty ranges vanish */
    scc_select_params_default(&p);
    p.line_max = 10000;
    p.tree_max = 100;
    scc_select_build(&t, &tp, &p);
    check_table(&t, "line above tree");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_BCAST, 5000), "flat to 10000");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_BCAST, 10001), "tree after");
    CHECK(SCC_ALG_FLAT == scc_select(&t, SCC_COLL_ALLREDUCE, 100), "allreduce flat to 100");
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_ALLREDUCE, 101), "allreduce tree after");
    CHECK(2 == t.coll[SCC_COLL_BCAST].nranges, "two bcast ranges");

    /* every combination of a few thresholds gives a well-formed table */
    {
        const size_t v[] = { 0, 1, 56, 4096, 8192, 65536, SIZE_MAX / 2 };
        const int nv = (int) (sizeof(v) / sizeof(v[0]));
        for (int a = 0; a < nv; ++a) {
            for (int b = 0; b < nv; ++b) {
                for (int c = 0; c < nv; ++c) {
                    for (int k = 0; k < SCC_TOPO_COUNT; ++k) {
                        scc_select_params_default(&p);
                        p.line_max = v[a];
                        p.tree_max = v[b];
                        p.direct_min = v[c];
                        p.dopl_min = v[(a + b + c) % nv];
                        tp = topo((scc_topo_kind_t) k, 8, (a + c) % 2);
                        scc_select_build(&t, &tp, &p);
                        check_table(&t, "sweep");
                    }
                }
            }
        }
    }

    /* format: truncation keeps a terminated string and reports the length needed */
    scc_select_params_default(&p);
    scc_select_build(&t, &tp, &p);
    {
        char small[8];
        int need = scc_select_format(&t, SCC_COLL_ALLREDUCE, small, sizeof(small));
        int full = scc_select_format(&t, SCC_COLL_ALLREDUCE, buf, sizeof(buf));
        CHECK(need == full && full == (int) strlen(buf), "needed %d, full %d", need, full);
        CHECK(strlen(small) == sizeof(small) - 1 && 0 == strncmp(small, buf, sizeof(small) - 1),
              "truncated \"%s\"", small);
    }
}

void test_select_many(long *checks, long *failures);

int main(void)
{
    test_names();
    test_defaults();
    test_params();
    /* many cores: against the model's maps and on real machines (test_select_many.c) */
    test_select_many(&unit_checks, &unit_failures);
    return unit_finish("test_select");
}
