/* coll_scc_alltoall.c: MPI_Alltoall: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"

int mca_coll_scc_alltoall(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                          void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    (void) mca_coll_scc_ready(m, comm);
    mca_coll_scc_count(m, SCC_COLL_ALLTOALL, SCC_ALG_FALLBACK);
    return m->prev_alltoall.fn(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, m->prev_alltoall.module);
}
