/* test_topologies.c: the domains grid, its leaders and the table on real machines' topologies
 * (test/topologies, a .synth file each) at up to 256 processes, with the component's own code
 * (coll_scc_hwloc.c reads each process's cpuset, coll_scc_domains.c lays out the rows).
 *
 * Each process's cpuset is what mpirun binds it to for a mapping: by core, by hardware
 * thread, N per L3 cache, a whole package, nothing (unbound), or two packages at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "topo_place.h"
#include "unit.h"

/* Places n processes as the component does and describes the grid:
 * "domains RxC (N LEVEL domains), grid RxC[ with holes]; leaders L0 L1 ..." or "flat". */
static void place(hwloc_topology_t t, how_t how, int ppr, int n, int want, char *out,
                  size_t len, scc_select_table_t *table)
{
    scc_domains_t got;
    scc_mesh_dims_t d;
    scc_mesh_t m;
    scc_select_params_t p;
    scc_select_topo_t st;
    char leaders[512];
    int rc = topo_place(t, how, ppr, n, want, &got, &d, &m, &st);

    CHECK(rc >= 0, "%d %s: not placed", n, topo_place_how_name[how]);
    if (rc < 0) {
        snprintf(out, len, "not placed");
        memset(table, 0, sizeof(*table));
        return;
    }
    if (rc > 0) {
        scc_domains_leaders(&m, leaders, sizeof(leaders));
        snprintf(out, len, "domains %dx%d (%d %s domains), grid %dx%d%s; leaders %s", d.Y, d.X,
                 got.distinct, scc_domains_level_name(got.level), m.R, m.C,
                 m.grid_tail_only ? "" : " with holes", leaders);
    } else {
        snprintf(out, len, "flat, %d levels spanned", got.unknown_levels);
    }
    scc_select_params_default(&p);
    scc_select_build(table, &st, &p);
    scc_mesh_free(&m);
}

typedef struct {
    const char *topo;
    how_t how;
    int ppr, n, want;
    const char *expect;
} case_t;

#define AUTO SCC_TOPO_DOM_AUTO
#define PKG SCC_TOPO_DOM_PACKAGE
#define NUMA SCC_TOPO_DOM_NUMA
#define CACHE SCC_TOPO_DOM_CACHE

#define how_name topo_place_how_name

static const case_t cases[] = {
    /* EPYC 7763 NPS4: 2 packages x 4 NUMA x 2 L3 of 8 cores, SMT2 */
    /* auto: NUMA (8 + 16) and L3 (16 + 8) make the squarest grids; the coarser wins */
    { "epyc-7763-2p-nps4", BY_CORE, 0, 128, AUTO,
      "domains 8x16 (8 numa domains), grid 8x16; leaders 0 16 32 48 64 80 96 112" },
    { "epyc-7763-2p-nps4", BY_CORE, 0, 128, PKG,
      "domains 2x64 (2 package domains), grid 2x64; leaders 0 64" },
    { "epyc-7763-2p-nps4", BY_CORE, 0, 128, NUMA,
      "domains 8x16 (8 numa domains), grid 8x16; leaders 0 16 32 48 64 80 96 112" },
    { "epyc-7763-2p-nps4", BY_CORE, 0, 128, CACHE,
      "domains 16x8 (16 cache domains), grid 16x8; "
      "leaders 0 8 16 24 32 40 48 56 64 72 80 88 96 104 112 120" },
    { "epyc-7763-2p-nps4", BY_CORE, 0, 16, AUTO,
      "domains 2x8 (2 cache domains), grid 2x8; leaders 0 8" },
    { "epyc-7763-2p-nps4", BY_CORE, 0, 32, AUTO,
      "domains 4x8 (4 cache domains), grid 4x8; leaders 0 8 16 24" },
    { "epyc-7763-2p-nps4", BY_CORE, 0, 32, NUMA,
      "domains 2x16 (2 numa domains), grid 2x16; leaders 0 16" },
    /* SMT siblings are two processes on one core: the core is still the core */
    { "epyc-7763-2p-nps4", BY_PU, 0, 256, AUTO,
      "domains 16x16 (16 cache domains), grid 16x16; "
      "leaders 0 16 32 48 64 80 96 112 128 144 160 176 192 208 224 240" },
    { "epyc-7763-2p-nps4", PPR_L3, 2, 32, CACHE,
      "domains 16x2 (16 cache domains), grid 16x2; "
      "leaders 0 2 4 6 8 10 12 14 16 18 20 22 24 26 28 30" },
    { "epyc-7763-2p-nps4", BY_PACKAGE, 0, 4, AUTO,
      "domains 2x2 (2 package domains), grid 2x2; leaders 0 1" },
    { "epyc-7763-2p-nps4", BY_PACKAGE, 0, 4, NUMA, "flat, 1 levels spanned" },
    { "epyc-7763-2p-nps4", UNBOUND, 0, 16, AUTO, "flat, 3 levels spanned" },
    { "epyc-7763-2p-nps4", TWO_PACKAGES, 0, 16, AUTO, "flat, 3 levels spanned" },
    /* EPYC 7742 NPS1: 2 packages x 16 L3 of 4 cores */
    { "epyc-7742-2p-nps1", BY_CORE, 0, 128, NUMA,
      "domains 2x64 (2 numa domains), grid 2x64; leaders 0 64" },
    { "epyc-7742-2p-nps1", BY_CORE, 0, 128, CACHE,
      "domains 32x4 (32 cache domains), grid 32x4; leaders 0 4 8 12 16 20 24 28 32 36 40 44 "
      "48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120 124" },
    { "epyc-7742-2p-nps1", BY_CORE, 0, 16, AUTO,
      "domains 4x4 (4 cache domains), grid 4x4; leaders 0 4 8 12" },
    /* Xeon 8280 SNC2: the L3 is the package's, NUMA halves it */
    { "xeon-8280-2p-snc2", BY_CORE, 0, 56, AUTO,
      "domains 4x14 (4 numa domains), grid 4x14; leaders 0 14 28 42" },
    { "xeon-8280-2p-snc2", BY_CORE, 0, 56, PKG,
      "domains 2x28 (2 package domains), grid 2x28; leaders 0 28" },
    { "xeon-8280-2p-snc2", BY_CORE, 0, 56, NUMA,
      "domains 4x14 (4 numa domains), grid 4x14; leaders 0 14 28 42" },
    { "xeon-8280-2p-snc2", BY_CORE, 0, 56, CACHE,
      "domains 2x28 (2 cache domains), grid 2x28; leaders 0 28" },
    { "xeon-8280-2p-snc2", BY_CORE, 0, 16, AUTO,
      "domains 2x14 (2 numa domains), grid 2x14; leaders 0 14" },
    { "xeon-8280-2p-snc2", BY_PU, 0, 112, AUTO,
      "domains 4x28 (4 numa domains), grid 4x28; leaders 0 28 56 84" },
    /* Xeon Phi 7250: 34 tiles of 2 cores (shared L2), SMT4 */
    { "xeon-phi-7250", BY_CORE, 0, 68, AUTO,
      "domains 34x2 (34 cache domains), grid 34x2; leaders 0 2 4 6 8 10 12 14 16 18 20 22 24 "
      "26 28 30 32 34 36 38 40 42 44 46 48 50 52 54 56 58 60 62 64 66" },
    { "xeon-phi-7250", BY_PU, 0, 256, AUTO,
      "domains 32x8 (32 cache domains), grid 32x8; leaders 0 8 16 24 32 40 48 56 64 72 80 88 "
      "96 104 112 120 128 136 144 152 160 168 176 184 192 200 208 216 224 232 240 248" },
    { "xeon-phi-7250", BY_CORE, 0, 16, AUTO,
      "domains 8x2 (8 cache domains), grid 8x2; leaders 0 2 4 6 8 10 12 14" },
    /* Graviton3: one package, one NUMA node, one L3: no level splits */
    { "graviton3-64", BY_CORE, 0, 64, AUTO, "flat, 0 levels spanned" },
    { "graviton3-64", BY_CORE, 0, 64, CACHE,
      "domains 1x64 (1 cache domains), grid 1x64; leaders 0" },
    /* Xeon E5-2670: 2 packages of 8 cores, SMT2 */
    { "xeon-e5-2670-2p", BY_CORE, 0, 16, AUTO,
      "domains 2x8 (2 package domains), grid 2x8; leaders 0 8" },
    { "xeon-e5-2670-2p", BY_PU, 0, 32, AUTO,
      "domains 2x16 (2 package domains), grid 2x16; leaders 0 16" },
    { "xeon-e5-2670-2p", BY_CORE, 0, 8, AUTO, "flat, 0 levels spanned" },
    { "xeon-e5-2670-2p", BY_CORE, 0, 12, AUTO,
      "domains 2x8 (2 package domains), grid 2x8; leaders 0 8" },
};

int main(void)
{
    const char *loaded = "";
    hwloc_topology_t t = NULL;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        const case_t *c = &cases[i];
        scc_select_table_t table;
        char got[1024], row[256];

        if (0 != strcmp(loaded, c->topo)) {
            if (NULL != t) {
                hwloc_topology_destroy(t);
            }
            t = topo_place_load(c->topo);
            CHECK(NULL != t, "%s: not loaded", c->topo);
            loaded = c->topo;
        }
        if (NULL == t) {
            continue;
        }
        place(t, c->how, c->ppr, c->n, c->want, got, sizeof(got), &table);
        CHECK(0 == strcmp(got, c->expect), "%s, %d %s, domains %s:\n  got  %s\n  want %s",
              c->topo, c->n, how_name[c->how], scc_domains_level_name(c->want), got, c->expect);
        /* the table: DOPL on a domains grid without holes below the many-core count (16),
           never on a flat set (test_select proves the many-core tables) */
        scc_select_format(&table, SCC_COLL_BCAST, row, sizeof(row));
        CHECK((NULL != strstr(row, "dopl")) == (0 == strncmp(got, "domains", 7)
                                                && NULL == strstr(got, "holes") && c->n < 16),
              "%s, %d %s: bcast row \"%s\" for %s", c->topo, c->n, how_name[c->how], row, got);
        printf("%-18s %3d %-22s %-7s %s\n%42s bcast %s\n", c->topo, c->n, how_name[c->how],
               scc_domains_level_name(c->want), got, "", row);
    }
    if (NULL != t) {
        hwloc_topology_destroy(t);
    }
    return unit_finish("test_topologies");
}
