/* coll_scc_alltoallw.c: MPI_Alltoallw, served by the fallback until an algorithm of
 * the component serves it (the table's only choice for it). */
#include "coll_scc.h"

int mca_coll_scc_alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                           struct ompi_datatype_t *const *sdtypes, void *rbuf,
                           const int *rcounts, const int *rdispls,
                           struct ompi_datatype_t *const *rdtypes,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    /* the call counts toward setup as every collective does (all members make it) */
    if (OPAL_LIKELY(mca_coll_scc_ready(m, comm))) {
        (void) mca_coll_scc_pick(m, SCC_COLL_ALLTOALLW, 0);
    }
    mca_coll_scc_count(m, SCC_COLL_ALLTOALLW, SCC_ALG_FALLBACK);
    return m->prev_alltoallw.fn(sbuf, scounts, sdispls, sdtypes, rbuf, rcounts, rdispls, rdtypes, comm, m->prev_alltoallw.module);
}
