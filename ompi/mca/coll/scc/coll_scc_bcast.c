/* coll_scc_bcast.c: MPI_Bcast: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"

int mca_coll_scc_bcast(void *buff, int count, struct ompi_datatype_t *dtype, int root,
                       struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    (void) mca_coll_scc_ready(m, comm);
    mca_coll_scc_count(m, SCC_COLL_BCAST, SCC_ALG_FALLBACK);
    return m->prev_bcast.fn(buff, count, dtype, root, comm, m->prev_bcast.module);
}
