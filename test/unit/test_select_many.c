/* test_select_many.c: the selection for many cores on one node against the cache-coherent
 * model's maps (sim/results: cc_fanouts.md, cc_*_{bcast,barrier,allreduce}.dat) and on real
 * machines' topologies (test/topologies) at 16 to 256 processes; user-set parameters win;
 * below 16 processes nothing changed.  Part of test_select (test_select.c calls it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_select.h"
#include "topo_place.h"
#include "unit.h"

#ifndef SCC_SIM_RESULTS
#define SCC_SIM_RESULTS "sim/results"
#endif

void test_select_many(long *checks, long *failures);

static const char *const presets[] = { "sandybridge", "xeonphi" };

static scc_select_topo_t one_node(int n, int packages)
{
    /* the maps' machines: one package a flat set, two a domains grid (packages x cores) */
    scc_select_topo_t t = { packages > 1 ? SCC_TOPO_DOMAINS : SCC_TOPO_FLAT, n, 1, 0 };
    return t;
}

static void shape_text(const int *f, int k, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int l = 0; l < k && o < len; ++l) {
        o += (size_t) snprintf(buf + o, len - o, "%s%d", l ? "," : "", f[l]);
    }
}

static void row(const scc_select_table_t *t, scc_coll_t c, char *buf, size_t len)
{
    scc_select_format(t, c, buf, len);
}

static FILE *open_map(const char *name)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", SCC_SIM_RESULTS, name);
    f = fopen(path, "r");
    CHECK(NULL != f, "cannot open %s", path);
    return f;
}

/* ---------------------------------------------------------------- against the maps */

/* cc_fanouts.md: "| cores | chosen | ..." -- the module's shape at every count mapped */
static void maps_fanouts(void)
{
    FILE *f = open_map("cc_fanouts.md");
    char line[2048], want[64], got[64];
    int n, rows = 0, fan[8];

    while (NULL != f && NULL != fgets(line, sizeof(line), f)) {
        scc_select_params_t p;
        if (2 != sscanf(line, "| %d | %63[0-9,] |", &n, want)) {
            continue;
        }
        scc_select_params_default(&p);
        for (int pk = 1; pk <= 2; ++pk) {
            scc_select_topo_t t = one_node(n, pk);
            shape_text(fan, scc_select_fanout(&t, &p, fan), got, sizeof(got));
            CHECK(0 == strcmp(got, want), "%d cores, %d packages: trees %s, the map's %s", n,
                  pk, got, want);
        }
        rows++;
    }
    CHECK(8 == rows, "cc_fanouts.md: %d shapes (16 to 256 cores: 8)", rows);
    if (NULL != f) {
        fclose(f);
    }
}

/* cc_<preset>_barrier.dat: "packages n best_radix ..." -- dissemination at the best radix */
static void maps_barrier(void)
{
    int rows = 0;

    for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); ++i) {
        char name[64], line[512];
        FILE *f;
        snprintf(name, sizeof(name), "cc_%s_barrier.dat", presets[i]);
        f = open_map(name);
        while (NULL != f && NULL != fgets(line, sizeof(line), f)) {
            int pk, n, m;
            scc_select_params_t p;
            scc_select_table_t t;
            scc_select_topo_t tp;
            if ('#' == line[0] || 3 != sscanf(line, "%d %d %d", &pk, &n, &m) || n < 16) {
                continue;
            }
            scc_select_params_default(&p);
            tp = one_node(n, pk);
            scc_select_build(&t, &tp, &p);
            CHECK(SCC_ALG_DISSEM == scc_select(&t, SCC_COLL_BARRIER, 0),
                  "%s %d packages %d cores: barrier %s", presets[i], pk, n,
                  scc_alg_name(scc_select(&t, SCC_COLL_BARRIER, 0)));
            CHECK(m == scc_select_barrier_radix(&tp, &p), "%s %d packages %d cores: radix %d, "
                  "the map's %d", presets[i], pk, n, scc_select_barrier_radix(&tp, &p), m);
            rows++;
        }
        if (NULL != f) {
            fclose(f);
        }
    }
    CHECK(32 == rows, "barrier maps: %d rows of 16+ cores (2 presets x 2 x 8)", rows);
}

/* cc_<preset>_allreduce.dat: "packages n bytes best_scc best_tuned butterfly ring tree
 * direct ..." -- the best of the component's schedules at the smallest and largest size,
 * within 1.75 of it in between (one threshold per count band: README, Many cores) */
static void maps_allreduce(void)
{
    int rows = 0;
    double worst = 0;

    for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); ++i) {
        char name[64], line[512];
        FILE *f;
        snprintf(name, sizeof(name), "cc_%s_allreduce.dat", presets[i]);
        f = open_map(name);
        while (NULL != f && NULL != fgets(line, sizeof(line), f)) {
            int pk, n, best = 0;
            double bytes, bs, bt, t[4], sel = 0;
            static const scc_alg_t algs[4] = { SCC_ALG_BUTTERFLY, SCC_ALG_RING, SCC_ALG_TREE,
                                               SCC_ALG_FLAT };
            scc_select_params_t p;
            scc_select_table_t tab;
            scc_select_topo_t tp;
            scc_alg_t a;
            if ('#' == line[0] || 9 != sscanf(line, "%d %d %lf %lf %lf %lf %lf %lf %lf", &pk,
                                              &n, &bytes, &bs, &bt, &t[0], &t[1], &t[2], &t[3])
                || n < 16) {
                continue;
            }
            scc_select_params_default(&p);
            tp = one_node(n, pk);
            scc_select_build(&tab, &tp, &p);
            a = scc_select(&tab, SCC_COLL_ALLREDUCE, (size_t) bytes);
            for (int k = 0; k < 4; ++k) {
                best = t[k] < t[best] ? k : best;
                sel = a == algs[k] ? t[k] : sel;
            }
            CHECK(sel > 0, "%s %d cores %.0f B: %s is no schedule of the map", presets[i], n,
                  bytes, scc_alg_name(a));
            if (8 == bytes || 1048576 == bytes) {
                CHECK(a == algs[best], "%s %d packages %d cores %.0f B: %s, the map's best %s",
                      presets[i], pk, n, bytes, scc_alg_name(a), scc_alg_name(algs[best]));
            }
            worst = sel / t[best] > worst ? sel / t[best] : worst;
            CHECK(sel <= 1.75 * t[best], "%s %d packages %d cores %.0f B: %s %.0f ns, the "
                  "map's best %s %.0f", presets[i], pk, n, bytes, scc_alg_name(a), sel,
                  scc_alg_name(algs[best]), t[best]);
            rows++;
        }
        if (NULL != f) {
            fclose(f);
        }
    }
    CHECK(224 == rows, "allreduce maps: %d rows of 16+ cores (2 x 2 x 8 x 7)", rows);
    printf("allreduce, 16-256 cores: the selection's time over the map's best at most %.2f\n",
           worst);
}

/* cc_<preset>_bcast.dat: "packages n bytes best_scc best_tuned tree_auto direct jia dopl
 * ..." -- the tree wherever the map's best is one; DOPL and Jia never win from 16 cores on.
 * The map's best is the direct bcast in 5 cells, all at 16 cores (64 B on every machine,
 * 4 MiB on one Sandy Bridge package), where one tree shape serves every size. */
static void maps_bcast(void)
{
    int rows = 0, direct = 0;

    for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); ++i) {
        char name[64], line[512], jia[32], dopl[32];
        FILE *f;
        snprintf(name, sizeof(name), "cc_%s_bcast.dat", presets[i]);
        f = open_map(name);
        while (NULL != f && NULL != fgets(line, sizeof(line), f)) {
            int pk, n;
            double bytes, bs, bt, tree, dir;
            scc_select_params_t p;
            scc_select_table_t tab;
            scc_select_topo_t tp;
            if ('#' == line[0] || 9 != sscanf(line, "%d %d %lf %lf %lf %lf %lf %31s %31s", &pk,
                                              &n, &bytes, &bs, &bt, &tree, &dir, jia, dopl)
                || n < 16) {
                continue;
            }
            scc_select_params_default(&p);
            tp = one_node(n, pk);
            scc_select_build(&tab, &tp, &p);
            CHECK(SCC_ALG_TREE == scc_select(&tab, SCC_COLL_BCAST, (size_t) bytes),
                  "%s %d packages %d cores %.0f B: %s", presets[i], pk, n, bytes,
                  scc_alg_name(scc_select(&tab, SCC_COLL_BCAST, (size_t) bytes)));
            CHECK(strcmp(dopl, "nan") == 0 || bs < atof(dopl), "%s %d cores: DOPL best",
                  presets[i], n);
            CHECK(bs < atof(jia), "%s %d cores %.0f B: Jia best", presets[i], n, bytes);
            if (dir <= bs) {
                direct++;
                CHECK(16 == n && (64 == bytes || 4194304 == bytes), "%s %d packages %d cores "
                      "%.0f B: the direct bcast is the map's best", presets[i], pk, n, bytes);
            }
            rows++;
        }
        if (NULL != f) {
            fclose(f);
        }
    }
    CHECK(256 == rows && 5 == direct, "bcast maps: %d rows of 16+ cores (2 x 2 x 8 x 8), "
          "%d where direct is best (5)", rows, direct);
}

/* ---------------------------------------------------------------- on real machines */

/* What the maps say for n processes on one node, written out (cc_fanouts.md's shapes by
 * count band; the butterfly to 8 KiB, to 16 KiB from 128 processes; dissemination with m = 1) */
static const char *want_shape(int n)
{
    return n < 24 ? "4,3" : n < 40 ? "4,4,3" : n < 56 ? "5,4,2" : n < 80 ? "4,4,3"
           : n < 112 ? "5,4,4" : n < 160 ? "5,5,4" : n < 224 ? "7,6,4" : "4,4,4,3";
}

static const char *want_allreduce(int n)
{
    return n < 128 ? "<=8192 butterfly | >8192 flat" : "<=16384 butterfly | >16384 flat";
}

static void expect_many(const char *what, const scc_select_topo_t *st,
                        const scc_select_params_t *p)
{
    scc_select_table_t t;
    char buf[256];
    int fan[8];

    scc_select_build(&t, st, p);
    row(&t, SCC_COLL_BCAST, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "tree"), "%s: bcast \"%s\"", what, buf);
    row(&t, SCC_COLL_REDUCE, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "tree"), "%s: reduce \"%s\"", what, buf);
    row(&t, SCC_COLL_BARRIER, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "dissem"), "%s: barrier \"%s\"", what, buf);
    row(&t, SCC_COLL_ALLREDUCE, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, want_allreduce(st->n)), "%s: allreduce \"%s\"", what, buf);
    /* what the maps do not cover keeps its rules */
    row(&t, SCC_COLL_ALLTOALL, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "flat"), "%s: alltoall \"%s\"", what, buf);
    shape_text(fan, scc_select_fanout(st, p, fan), buf, sizeof(buf));
    CHECK(0 == strcmp(buf, want_shape(st->n)), "%s: trees %s, want %s", what, buf,
          want_shape(st->n));
    CHECK(1 == scc_select_barrier_radix(st, p), "%s: radix %d", what,
          scc_select_barrier_radix(st, p));
}

static void machines(void)
{
    static const char *const names[] = { "epyc-7763-2p-nps4", "epyc-7742-2p-nps1",
                                         "xeon-8280-2p-snc2", "xeon-phi-7250", "graviton3-64",
                                         "xeon-e5-2670-2p" };
    static const int counts[] = { 16, 24, 32, 48, 56, 64, 96, 112, 128, 160, 192, 224, 256 };
    int placed = 0;

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
        hwloc_topology_t t = topo_place_load(names[i]);
        CHECK(NULL != t, "%s: not loaded", names[i]);
        if (NULL == t) {
            continue;
        }
        for (how_t how = BY_CORE; how <= BY_PU; how = (how_t) (how + 1)) {
            int cap = hwloc_get_nbobjs_by_type(t, BY_CORE == how ? HWLOC_OBJ_CORE
                                                                  : HWLOC_OBJ_PU);
            for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); ++k) {
                scc_select_params_t p;
                scc_select_topo_t st;
                scc_domains_t got;
                scc_mesh_dims_t d;
                scc_mesh_t m;
                char what[160];
                int rc;
                if (counts[k] > cap) {
                    continue;
                }
                rc = topo_place(t, how, 0, counts[k], SCC_TOPO_DOM_AUTO, &got, &d, &m, &st);
                snprintf(what, sizeof(what), "%s, %d %s (%s)", names[i], counts[k],
                         topo_place_how_name[how], rc > 0 ? "domains" : "flat");
                CHECK(rc >= 0, "%s: not placed", what);
                if (rc < 0) {
                    continue;
                }
                scc_select_params_default(&p);
                expect_many(what, &st, &p);
                placed++;
                scc_mesh_free(&m);
            }
        }
        /* not bound: a flat set, the same table */
        {
            scc_select_params_t p;
            scc_select_topo_t st;
            scc_domains_t got;
            scc_mesh_dims_t d;
            scc_mesh_t m;
            int rc = topo_place(t, UNBOUND, 0, 16, SCC_TOPO_DOM_AUTO, &got, &d, &m, &st);
            CHECK(0 == rc, "%s unbound: flat (%d)", names[i], rc);
            if (rc >= 0) {
                scc_select_params_default(&p);
                expect_many("unbound", &st, &p);
                scc_mesh_free(&m);
            }
        }
        hwloc_topology_destroy(t);
    }
    /* by core + by hardware thread: EPYC 7763 9 + 13, EPYC 7742 9 + 13, Xeon 8280 5 + 8,
       Xeon Phi 6 + 13, Graviton3 6 + 6, Xeon E5-2670 1 + 3 */
    CHECK(92 == placed, "%d placements of 16 to 256 processes", placed);
}

/* ---------------------------------------------------------------- what the user set wins */

static void given(void)
{
    scc_select_params_t p;
    scc_select_table_t t;
    scc_select_topo_t st = one_node(128, 2);
    char buf[256];
    int fan[8];

    scc_select_params_default(&p);
    p.given = SCC_GIVEN_LINE_MAX;
    scc_select_build(&t, &st, &p);
    row(&t, SCC_COLL_BCAST, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "<=56 flat | >56 tree"), "line_max given: bcast \"%s\"", buf);
    row(&t, SCC_COLL_REDUCE, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "<=56 flat | >56 tree"), "line_max given: reduce \"%s\"", buf);

    scc_select_params_default(&p);
    p.given = SCC_GIVEN_DOPL_MIN;
    scc_select_build(&t, &st, &p);
    row(&t, SCC_COLL_BCAST, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "<=8191 tree | >8191 dopl"), "dopl_min given: bcast \"%s\"", buf);

    scc_select_params_default(&p);
    p.given = SCC_GIVEN_TREE_MAX | SCC_GIVEN_DIRECT_MIN;
    scc_select_build(&t, &st, &p);
    row(&t, SCC_COLL_ALLREDUCE, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "<=8192 flat | 8193..16384 butterfly | 16385..1048575 tree | "
                           ">1048575 flat"), "tree_max, direct_min given: allreduce \"%s\"", buf);

    /* tree_max alone: trees above it, to direct_min's default */
    scc_select_params_default(&p);
    p.given = SCC_GIVEN_TREE_MAX;
    p.tree_max = 65536;
    scc_select_build(&t, &st, &p);
    row(&t, SCC_COLL_ALLREDUCE, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "<=65536 flat | 65537..1048575 tree | >1048575 flat"),
          "tree_max 65536 given: allreduce \"%s\"", buf);

    scc_select_params_default(&p);
    p.given = SCC_GIVEN_DIRECT_MIN;
    p.direct_min = 4096;
    scc_select_build(&t, &st, &p);
    row(&t, SCC_COLL_ALLREDUCE, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "<=4095 butterfly | >4095 flat"), "direct_min 4096 given: "
          "allreduce \"%s\"", buf);

    scc_select_params_default(&p);
    p.given = SCC_GIVEN_BUTTERFLY_MAX;
    p.butterfly_max = 8192;
    scc_select_build(&t, &st, &p);
    row(&t, SCC_COLL_ALLREDUCE, buf, sizeof(buf));
    CHECK(0 == strcmp(buf, "<=8192 butterfly | >8192 flat"), "butterfly_max given at 128: "
          "allreduce \"%s\"", buf);

    scc_select_params_default(&p);
    p.given = SCC_GIVEN_BARRIER_RADIX;
    CHECK(0 == scc_select_barrier_radix(&st, &p), "barrier_radix 0 given");
    p.barrier_radix = 3;
    CHECK(3 == scc_select_barrier_radix(&st, &p), "barrier_radix 3 given");

    /* a forced algorithm still wins */
    scc_select_params_default(&p);
    p.force[SCC_COLL_BARRIER] = SCC_ALG_TREE;
    scc_select_build(&t, &st, &p);
    CHECK(SCC_ALG_TREE == scc_select(&t, SCC_COLL_BARRIER, 0), "barrier forced to the tree");

    /* many_min 0, or above the count: the table of 2-8 processes */
    for (int mm = 0; mm <= 300; mm += 300) {
        scc_select_params_default(&p);
        p.many_min = mm;
        scc_select_build(&t, &st, &p);
        row(&t, SCC_COLL_BCAST, buf, sizeof(buf));
        CHECK(0 == strcmp(buf, "<=56 flat | 57..8191 tree | >8191 dopl"), "many_min %d: bcast "
              "\"%s\"", mm, buf);
        row(&t, SCC_COLL_BARRIER, buf, sizeof(buf));
        CHECK(0 == strcmp(buf, "tree"), "many_min %d: barrier \"%s\"", mm, buf);
        CHECK(0 == scc_select_fanout(&st, &p, fan), "many_min %d: seeds/004's trees", mm);
        CHECK(0 == scc_select_barrier_radix(&st, &p), "many_min %d: radix 0", mm);
    }
}

/* Below 16 processes (and on a mesh or across nodes at any count) the tables, trees and
 * radix are those of many_min 0, entry for entry: the defaults measured at 2-8 processes. */
static void unchanged(void)
{
    for (int kind = 0; kind < SCC_TOPO_COUNT; ++kind) {
        for (int n = 2; n <= 256; ++n) {
            for (int g = 0; g <= 1; ++g) {
                scc_select_topo_t st = { (scc_topo_kind_t) kind, n, g, SCC_TOPO_NODES == kind };
                scc_select_params_t p, old;
                scc_select_table_t t, t0;
                int fan[8];
                const int many = n >= 16 && (SCC_TOPO_FLAT == kind || SCC_TOPO_DOMAINS == kind);
                scc_select_params_default(&p);
                old = p;
                old.many_min = 0;
                scc_select_build(&t, &st, &p);
                scc_select_build(&t0, &st, &old);
                CHECK(many == (0 != memcmp(&t, &t0, sizeof(t))), "%s %d: table %s",
                      scc_topo_name((scc_topo_kind_t) kind), n, many ? "unchanged" : "changed");
                CHECK(many == (0 != scc_select_fanout(&st, &p, fan)), "%s %d: trees",
                      scc_topo_name((scc_topo_kind_t) kind), n);
                CHECK(many == scc_select_barrier_radix(&st, &p), "%s %d: radix",
                      scc_topo_name((scc_topo_kind_t) kind), n);
            }
        }
    }
}

void test_select_many(long *checks, long *failures)
{
    maps_fanouts();
    maps_barrier();
    maps_allreduce();
    maps_bcast();
    machines();
    given();
    unchanged();
    *checks += unit_checks;
    *failures += unit_failures;
}
