/* topo_place.c: real machines' topologies (test/topologies, a .synth file each) and the
 * placements mpirun makes on them, placed with the component's own code (coll_scc_hwloc.c
 * reads each process's cpuset, coll_scc_domains.c lays out the rows). */
#include <stdio.h>
#include <string.h>

#include "coll_scc_hwloc.h"
#include "coll_scc_topo.h"
#include "topo_place.h"

#ifndef SCC_TOPO_DIR
#define SCC_TOPO_DIR "test/topologies"
#endif

const char *const topo_place_how_name[] = {
    "by core", "by hwthread", "per L3", "per package", "unbound", "rank 0 on two packages"
};

hwloc_topology_t topo_place_load(const char *name)
{
    char path[512], line[512], desc[512] = "";
    hwloc_topology_t t;
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s.synth", SCC_TOPO_DIR, name);
    f = fopen(path, "r");
    if (NULL == f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    while (NULL != fgets(line, sizeof(line), f)) {
        if ('#' != line[0] && strspn(line, " \t\r\n") < strlen(line)) {
            snprintf(desc, sizeof(desc), "%s", line);
        }
    }
    fclose(f);
    desc[strcspn(desc, "\r\n")] = '\0';
    if (0 != hwloc_topology_init(&t)) {
        return NULL;
    }
    if (0 != hwloc_topology_set_synthetic(t, desc) || 0 != hwloc_topology_load(t)) {
        fprintf(stderr, "%s: hwloc does not take \"%s\"\n", name, desc);
        hwloc_topology_destroy(t);
        return NULL;
    }
    return t;
}

/* The cpuset of rank r under `how` (ppr: processes per L3 cache, on its first cores);
 * returns -1 where there is no object to bind to. */
static int bind_of(hwloc_topology_t t, how_t how, int ppr, int r, hwloc_bitmap_t set)
{
    int npack = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
    hwloc_obj_t o = NULL;

    switch (how) {
    case BY_CORE:
        o = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, r);
        break;
    case BY_PU:
        o = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, r);
        break;
    case PPR_L3: {
        hwloc_obj_t l3 = hwloc_get_obj_by_type(t, HWLOC_OBJ_L3CACHE, r / ppr);
        o = NULL == l3 ? NULL : hwloc_get_obj_inside_cpuset_by_type(t, l3->cpuset,
                                                                     HWLOC_OBJ_CORE, r % ppr);
        break;
    }
    case BY_PACKAGE:
        /* --map-by package --bind-to package: round robin over the packages */
        o = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, r % npack);
        break;
    case UNBOUND:
        o = hwloc_get_root_obj(t);
        break;
    case TWO_PACKAGES:
        /* rank 0 on the first core of both packages, the others by core after it */
        if (0 == r) {
            hwloc_obj_t last = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, npack - 1);
            hwloc_bitmap_copy(set, hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, 0)->cpuset);
            hwloc_bitmap_or(set, set,
                            hwloc_get_obj_inside_cpuset_by_type(t, last->cpuset, HWLOC_OBJ_CORE,
                                                                0)->cpuset);
            return 0;
        }
        o = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, r);
        break;
    }
    if (NULL == o) {
        fprintf(stderr, "rank %d has no object to bind to\n", r);
        hwloc_bitmap_zero(set);
        return -1;
    }
    hwloc_bitmap_copy(set, o->cpuset);
    return 0;
}

int topo_place(hwloc_topology_t t, how_t how, int ppr, int n, int want, scc_domains_t *got,
               scc_mesh_dims_t *d, scc_mesh_t *m, scc_select_topo_t *st)
{
    static int32_t locs[TOPO_PLACE_MAXN * SCC_LOC_COUNT];
    hwloc_bitmap_t set;
    int pos[TOPO_PLACE_MAXN];
    int rc, bad = 0;

    if (n < 1 || n > TOPO_PLACE_MAXN || NULL == (set = hwloc_bitmap_alloc())) {
        return -1;
    }
    for (int r = 0; r < n; ++r) {
        int32_t *loc = locs + (size_t) r * SCC_LOC_COUNT;
        bad |= bind_of(t, how, ppr, r, set);
        scc_hwloc_locate(t, set, loc);
    }
    hwloc_bitmap_free(set);
    rc = scc_domains_place(n, locs, want, got, d, pos);
    if (rc < 0 || bad) {
        return -1;
    }
    if (rc > 0 ? SCC_MESH_OK != scc_mesh_build(m, d, n, pos, NULL)
               : SCC_MESH_OK != scc_mesh_build_flat(m, n)) {
        return -1;
    }
    st->kind = rc > 0 ? SCC_TOPO_DOMAINS : SCC_TOPO_FLAT;
    st->n = n;
    st->grid_ok = m->grid_tail_only;
    st->maxper = 0;
    return rc > 0;
}
