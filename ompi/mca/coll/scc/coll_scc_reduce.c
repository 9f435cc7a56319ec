/* coll_scc_reduce.c: MPI_Reduce: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"

int mca_coll_scc_reduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                        struct ompi_op_t *op, int root, struct ompi_communicator_t *comm,
                        mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    (void) mca_coll_scc_ready(m, comm);
    mca_coll_scc_count(m, SCC_COLL_REDUCE, SCC_ALG_FALLBACK);
    return m->prev_reduce.fn(sbuf, rbuf, count, dtype, op, root, comm, m->prev_reduce.module);
}
