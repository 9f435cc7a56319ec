/* coll_scc_flat.h: the direct algorithms of coll_scc_flat.c. */
#ifndef MCA_COLL_SCC_FLAT_H
#define MCA_COLL_SCC_FLAT_H

#include "coll_scc_exec.h"

BEGIN_C_DECLS

/* buf: the contiguous bytes of the message at every rank */
int mca_coll_scc_bcast_flat(mca_coll_scc_module_t *m, char *buf, size_t bytes, int root);

END_C_DECLS

#endif /* MCA_COLL_SCC_FLAT_H */
