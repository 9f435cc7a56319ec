/* coll_scc_agree.h: decisions every member of a communicator takes alike, and the
 * fault-injection hook that tests them (coll_scc_fail_setup). */
#ifndef MCA_COLL_SCC_AGREE_H
#define MCA_COLL_SCC_AGREE_H

#include "coll_scc.h"

BEGIN_C_DECLS

/* All members agree on a set of flags: the bitwise AND over the communicator (0 on error).
 * (mca_coll_scc_agree, coll_scc_xport.h, agrees on one flag: the minimum.) */
unsigned mca_coll_scc_agree_mask(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm,
                                 unsigned mine);

/* All members agree whether each is ok: the lowest rank that is not (it alone tells the user
 * why, where all would tell the same), or -1 when all are (0 on error). */
int mca_coll_scc_agree_first(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm,
                             bool ok);

/* True when coll_scc_fail_setup names this rank of m's communicator and step (at a call:
 * with no call number, or this call's): the caller then fails that step here, as an
 * allocation or a mapping would.  Testing only: an empty parameter costs one compare. */
bool mca_coll_scc_fault(const mca_coll_scc_module_t *m, const char *step);

/* coll_scc_fail_setup names something */
extern bool mca_coll_scc_faults;

int mca_coll_scc_agree_register_params(void);

/* What members tell each other at setup, through the fallback (inside a task: its
 * nonblocking functions, so a setup that a nonblocking call starts never blocks): every
 * member's `bytes` bytes gathered in rank order, or the root's. */
int mca_coll_scc_agree_allgather(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm,
                                 const void *mine, void *all, int bytes);
int mca_coll_scc_agree_bcast(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm,
                             void *buf, int bytes, int root);

END_C_DECLS

#endif /* MCA_COLL_SCC_AGREE_H */
