/* coll_scc_barrier.c: MPI_Barrier: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"

int mca_coll_scc_barrier(struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    (void) mca_coll_scc_ready(m, comm);
    mca_coll_scc_count(m, SCC_COLL_BARRIER, SCC_ALG_FALLBACK);
    return m->prev_barrier.fn(comm, m->prev_barrier.module);
}
