/* coll_scc_scatterv.c: MPI_Scatterv, served by the fallback until an algorithm of
 * the component serves it (the table's only choice for it). */
#include "coll_scc.h"

int mca_coll_scc_scatterv(const void *sbuf, const int *scounts, const int *displs,
                          struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                          struct ompi_datatype_t *rdtype, int root,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    /* the call counts toward setup as every collective does (all members make it) */
    if (OPAL_LIKELY(mca_coll_scc_ready(m, comm))) {
        (void) mca_coll_scc_pick(m, SCC_COLL_SCATTERV, 0);
    }
    mca_coll_scc_count(m, SCC_COLL_SCATTERV, SCC_ALG_FALLBACK);
    return m->prev_scatterv.fn(sbuf, scounts, displs, sdtype, rbuf, rcount, rdtype, root, comm, m->prev_scatterv.module);
}
