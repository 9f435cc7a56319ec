/* coll_scc_reduce_scatter_block.c: MPI_Reduce_scatter_block: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"

int mca_coll_scc_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                                      struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                      struct ompi_communicator_t *comm,
                                      mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    (void) mca_coll_scc_ready(m, comm);
    mca_coll_scc_count(m, SCC_COLL_REDUCE_SCATTER_BLOCK, SCC_ALG_FALLBACK);
    return m->prev_reduce_scatter_block.fn(sbuf, rbuf, rcount, dtype, op, comm, m->prev_reduce_scatter_block.module);
}
