/* coll_scc_agree.h: decisions every member of a communicator takes alike, and the
 * fault-injection hook that tests them (coll_scc_fail_setup). */
#ifndef MCA_COLL_SCC_AGREE_H
#define MCA_COLL_SCC_AGREE_H

#include "coll_scc_compat.h"
#include "coll_scc_members.h"

BEGIN_C_DECLS

/* All members agree on a flag: the minimum over the communicator (0 on error). */
int mca_coll_scc_agree(const scc_members_t *mb, int mine);

/* All members agree on a set of flags: the bitwise AND over the communicator (0 on error). */
unsigned mca_coll_scc_agree_mask(const scc_members_t *mb, unsigned mine);

/* All members agree whether each is ok: the lowest rank that is not (it alone tells the user
 * why, where all would tell the same), or -1 when all are (0 on error). */
int mca_coll_scc_agree_first(const scc_members_t *mb, bool ok);

/* True when coll_scc_fail_setup names this rank of mb's communicator and step (at a call:
 * with no call number, or this call's): the caller then fails that step here, as an
 * allocation or a mapping would.  Testing only: an empty parameter costs one compare. */
bool mca_coll_scc_fault(const scc_members_t *mb, const char *step);

/* coll_scc_fail_setup names something */
extern bool mca_coll_scc_faults;

int mca_coll_scc_agree_register_params(void);

/* What members tell each other at setup: every member's `bytes` bytes gathered in rank
 * order, or the root's (mb->ops: through the fallback). */
static inline int mca_coll_scc_agree_allgather(const scc_members_t *mb, const void *mine,
                                               void *all, int bytes)
{
    return mb->ops->allgather(mb->owner, mine, all, bytes);
}

static inline int mca_coll_scc_agree_bcast(const scc_members_t *mb, void *buf, int bytes,
                                           int root)
{
    return mb->ops->bcast(mb->owner, buf, bytes, root);
}

END_C_DECLS

#endif /* MCA_COLL_SCC_AGREE_H */
