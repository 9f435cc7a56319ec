/* coll_scc_topo_int.h: what the placement's files (coll_scc_topo.c, coll_scc_topo_user.c) share;
 * not for other files. */
#ifndef MCA_COLL_SCC_TOPO_INT_H
#define MCA_COLL_SCC_TOPO_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "opal/mca/base/mca_base_var_enum.h"

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

/* Registers the string or enum parameter coll_scc_<name> (READONLY); enums at OPAL_INFO_LVL_4. */
void mca_coll_scc_topo_reg_string(const char *name, const char *desc, int level, char **storage,
                                  const char *dflt);
void mca_coll_scc_topo_reg_enum(const char *name, const char *desc,
                                const mca_base_var_enum_value_t *v, int *storage, int dflt);

/* Shows a per-communicator help message once per process and topic (a SHOWN_* bit), from the
 * communicator's rank 0: true when the caller is to show it. */
bool mca_coll_scc_topo_shown_once(int comm_rank, unsigned bit);
#define SHOWN_PLACE   0x1u
#define SHOWN_UNBOUND 0x2u
#define SHOWN_CORE    0x4u
#define SHOWN_DUP     0x8u

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
