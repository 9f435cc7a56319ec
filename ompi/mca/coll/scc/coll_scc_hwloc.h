/* coll_scc_hwloc.h: a cpuset's place in an hwloc topology (core, PU, package, NUMA node,
 * shared cache); hwloc and C only, no Open MPI include (the unit tests use it on the
 * topologies of test/topologies). */
#ifndef MCA_COLL_SCC_HWLOC_H
#define MCA_COLL_SCC_HWLOC_H

#include <stdint.h>

#include <hwloc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills loc[SCC_LOC_BOUND .. SCC_LOC_CACHE] (coll_scc_topo.h) for a process bound to set:
 * bound when set is not all the topology's allowed PUs; the core, PU, package, NUMA node
 * and shared cache (the deepest cache that more than one core shares; its depth is kept in
 * bits 20 and up, for caches of several levels number separately) that contain set, -1
 * where set spans several.  The other fields of loc are left alone. */
void scc_hwloc_locate(hwloc_topology_t topo, hwloc_const_cpuset_t set, int32_t *loc);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COLL_SCC_HWLOC_H */
