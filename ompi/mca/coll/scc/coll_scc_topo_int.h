/* coll_scc_topo_int.h: what the placement's files (coll_scc_topo.c, coll_scc_topo_user.c) share;
 * not for other files. */
#ifndef MCA_COLL_SCC_TOPO_INT_H
#define MCA_COLL_SCC_TOPO_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "coll_scc_topo.h"

struct ompi_communicator_t;

static inline const char *str_or_empty(const char *s)
{
    return NULL == s ? "" : s;
}

/* field of rank r in the exchanged locations (SCC_LOC_COUNT int32 per rank) */
static inline int loc_of(const int32_t *locs, int r, int field)
{
    return (int) locs[(size_t) r * SCC_LOC_COUNT + field];
}

/* coll_scc_topo_user.c: the mesh the user describes.  _given: coll_scc_mesh is set; _parse
 * reads and parses it once (callers hold the topology's lock); _outcome is what parsing gave,
 * for the configuration record ("" no mesh, "ok", or the fault); _place places comm on it
 * (keys and pos: n ints of scratch), true when it did, else t->note says why. */
int mca_coll_scc_topo_user_register_params(void);
bool mca_coll_scc_topo_user_given(void);
void mca_coll_scc_topo_user_parse(void);
const char *mca_coll_scc_topo_user_outcome(void);
bool mca_coll_scc_topo_user_place(struct ompi_communicator_t *comm, const int32_t *locs, int *keys,
                                  int *pos, scc_topo_t *t);
void mca_coll_scc_topo_user_close(void);

#endif /* MCA_COLL_SCC_TOPO_INT_H */
