/* coll_scc_alltoallw.c: MPI_Alltoallw: alltoallv's algorithms, each block packed with its own
 * datatype where it is not contiguous (coll_scc_alltoallv.c), or the fallback. */
#include "coll_scc.h"

int mca_coll_scc_alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                           struct ompi_datatype_t *const *sdtypes, void *rbuf,
                           const int *rcounts, const int *rdispls,
                           struct ompi_datatype_t *const *rdtypes,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_ALLTOALLW, alltoallw,
                      mca_coll_scc_pick(m, SCC_COLL_ALLTOALLW, 0),
                      mca_coll_scc_alltoallvw(m, SCC_COLL_ALLTOALLW, alg, sbuf, scounts, sdispls,
                                              NULL, sdtypes, rbuf, rcounts, rdispls, NULL,
                                              rdtypes),
                      sbuf, scounts, sdispls, sdtypes, rbuf, rcounts, rdispls, rdtypes, comm);
}
