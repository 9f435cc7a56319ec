/* coll_scc_hwloc.c: a cpuset's place in an hwloc topology; hwloc and C only. */
#include "coll_scc_hwloc.h"

#include "coll_scc_topo.h"

void scc_hwloc_locate(hwloc_topology_t topo, hwloc_const_cpuset_t set, int32_t *loc)
{
    hwloc_obj_t obj, numa;

    loc[SCC_LOC_CORE] = loc[SCC_LOC_PU] = loc[SCC_LOC_PACKAGE] = -1;
    loc[SCC_LOC_NUMA] = loc[SCC_LOC_CACHE] = -1;
    loc[SCC_LOC_BOUND] = !hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(topo), set);
    obj = hwloc_get_obj_covering_cpuset(topo, set);
    if (NULL != obj && HWLOC_OBJ_PU == obj->type) {
        loc[SCC_LOC_PU] = (int32_t) obj->logical_index;
    }
    /* from the smallest object holding the set upwards: an SMT sibling's core is the core */
    for (hwloc_obj_t o = obj; NULL != o; o = o->parent) {
        if (HWLOC_OBJ_CORE == o->type && loc[SCC_LOC_CORE] < 0) {
            loc[SCC_LOC_CORE] = (int32_t) o->logical_index;
        } else if (HWLOC_OBJ_PACKAGE == o->type && loc[SCC_LOC_PACKAGE] < 0) {
            loc[SCC_LOC_PACKAGE] = (int32_t) o->logical_index;
        } else if (hwloc_obj_type_is_cache(o->type) && loc[SCC_LOC_CACHE] < 0
                   && hwloc_get_nbobjs_inside_cpuset_by_type(topo, o->cpuset, HWLOC_OBJ_CORE) > 1) {
            loc[SCC_LOC_CACHE] = (int32_t) ((o->depth & 0xff) << 20 | (o->logical_index & 0xfffff));
        }
    }
    /* NUMA nodes hang beside the tree (memory children): the first whose CPUs hold the set */
    for (numa = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, NULL); NULL != numa;
         numa = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, numa)) {
        if (NULL != numa->cpuset && hwloc_bitmap_isincluded(set, numa->cpuset)) {
            loc[SCC_LOC_NUMA] = (int32_t) numa->logical_index;
            break;
        }
    }
}
