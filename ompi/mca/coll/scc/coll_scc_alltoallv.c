/* coll_scc_alltoallv.c: MPI_Alltoallv: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"

int mca_coll_scc_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                           struct ompi_datatype_t *sdtype, void *rbuf, const int *rcounts,
                           const int *rdispls, struct ompi_datatype_t *rdtype,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    (void) mca_coll_scc_ready(m, comm);
    mca_coll_scc_count(m, SCC_COLL_ALLTOALLV, SCC_ALG_FALLBACK);
    return m->prev_alltoallv.fn(sbuf, scounts, sdispls, sdtype, rbuf, rcounts, rdispls, rdtype, comm, m->prev_alltoallv.module);
}
