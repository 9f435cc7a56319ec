/* coll_scc_allgather.c: MPI_Allgather: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"

int mca_coll_scc_allgather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                           void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    (void) mca_coll_scc_ready(m, comm);
    mca_coll_scc_count(m, SCC_COLL_ALLGATHER, SCC_ALG_FALLBACK);
    return m->prev_allgather.fn(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, m->prev_allgather.module);
}
