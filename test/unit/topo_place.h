/* topo_place.h: real machines' topologies (test/topologies) and the placements mpirun makes
 * on them, for the unit tests (test_topologies: the grids; test_select: the tables). */
#ifndef SCC_TOPO_PLACE_H
#define SCC_TOPO_PLACE_H

#include <hwloc.h>

#include "coll_scc_domains.h"
#include "coll_scc_mesh.h"
#include "coll_scc_select.h"
#include "coll_scc_topo.h"

#define TOPO_PLACE_MAXN 272

/* How mpirun binds rank r */
typedef enum { BY_CORE, BY_PU, PPR_L3, BY_PACKAGE, UNBOUND, TWO_PACKAGES } how_t;

extern const char *const topo_place_how_name[];

/* Loads SCC_TOPO_DIR/NAME.synth (its one line that is not a comment); NULL, and why on
 * stderr, if it cannot. */
hwloc_topology_t topo_place_load(const char *name);

/* Places n processes bound as `how` says (ppr: processes per L3 cache) as the component
 * does: fills the mesh m (flat, or the domains grid), got and the selection's view st;
 * returns 1 for a domains grid, 0 for flat, -1 on failure (why on stderr). */
int topo_place(hwloc_topology_t t, how_t how, int ppr, int n, int want, scc_domains_t *got,
               scc_mesh_dims_t *d, scc_mesh_t *m, scc_select_topo_t *st);

#endif /* SCC_TOPO_PLACE_H */
