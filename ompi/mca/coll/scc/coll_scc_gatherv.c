/* coll_scc_gatherv.c: MPI_Gatherv, served by the fallback until an algorithm of
 * the component serves it (the table's only choice for it). */
#include "coll_scc.h"

int mca_coll_scc_gatherv(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                         void *rbuf, const int *rcounts, const int *displs,
                         struct ompi_datatype_t *rdtype, int root,
                         struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    /* the call counts toward setup as every collective does (all members make it) */
    if (OPAL_LIKELY(mca_coll_scc_ready(m, comm))) {
        (void) mca_coll_scc_pick(m, SCC_COLL_GATHERV, 0);
    }
    mca_coll_scc_count(m, SCC_COLL_GATHERV, SCC_ALG_FALLBACK);
    return m->prev_gatherv.fn(sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype, root, comm, m->prev_gatherv.module);
}
