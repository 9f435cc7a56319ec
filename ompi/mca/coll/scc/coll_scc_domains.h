/* coll_scc_domains.h: the hwloc "domains x cores" grid of a communicator from its processes'
 * locations (package, NUMA node, shared cache, core); pure C.
 *
 * No Open MPI include: the unit tests lay out hundreds of processes of real machines'
 * topologies with this very code.
 */
#ifndef MCA_COLL_SCC_DOMAINS_H
#define MCA_COLL_SCC_DOMAINS_H

#include <stddef.h>
#include <stdint.h>

#include "coll_scc_mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What laying out by domains gave */
typedef struct scc_domains {
    int level;           /* the scc_topo_domain_t whose domains are the rows (when placed) */
    int distinct;        /* how many domains of that level the processes occupy */
    int unknown_levels;  /* levels skipped because a process spans several of their domains */
} scc_domains_t;

/* Lays out n processes as rows of domains by cores: locs holds SCC_LOC_COUNT int32 per
 * process (coll_scc_topo.h), want is coll_scc_domains (auto: of package, NUMA node and
 * shared cache, the level that splits the processes into two or more domains with the
 * fewest rows + columns, the coarser on a tie; none; or a level).  A level is usable when
 * every process lies within one of its domains.  Returns 1 with d and
 * pos[n] set (as scc_mesh_place_domains), 0 when no level serves, -1 out of memory. */
int scc_domains_place(int n, const int32_t *locs, int want, scc_domains_t *out,
                      scc_mesh_dims_t *d, int *pos);

/* "package", "numa", "cache", "none" or "auto" */
const char *scc_domains_level_name(int level);

/* The leader of each row of a placement's grid (the rank in its first column; in a domains
 * grid the process on the domain's lowest core) as "0 8 16 24" into buf; rows beyond the
 * first 64 are left out with " ...".  Returns what snprintf returns. */
int scc_domains_leaders(const scc_mesh_t *m, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COLL_SCC_DOMAINS_H */
