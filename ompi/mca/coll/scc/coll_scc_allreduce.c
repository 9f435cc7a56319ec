/* coll_scc_allreduce.c: MPI_Allreduce: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"

int mca_coll_scc_allreduce(const void *sbuf, void *rbuf, int count,
                           struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    (void) mca_coll_scc_ready(m, comm);
    mca_coll_scc_count(m, SCC_COLL_ALLREDUCE, SCC_ALG_FALLBACK);
    return m->prev_allreduce.fn(sbuf, rbuf, count, dtype, op, comm, m->prev_allreduce.module);
}
