/* coll_scc_allgatherv.c: MPI_Allgatherv, served by the fallback until an algorithm of
 * the component serves it (the table's only choice for it). */
#include "coll_scc.h"

int mca_coll_scc_allgatherv(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                            void *rbuf, const int *rcounts, const int *displs,
                            struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                            mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    /* the call counts toward setup as every collective does (all members make it) */
    if (OPAL_LIKELY(mca_coll_scc_ready(m, comm))) {
        (void) mca_coll_scc_pick(m, SCC_COLL_ALLGATHERV, 0);
    }
    mca_coll_scc_count(m, SCC_COLL_ALLGATHERV, SCC_ALG_FALLBACK);
    return m->prev_allgatherv.fn(sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype, comm, m->prev_allgatherv.module);
}
