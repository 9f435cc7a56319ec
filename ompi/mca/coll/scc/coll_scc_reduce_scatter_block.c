/* coll_scc_reduce_scatter_block.c: MPI_Reduce_scatter_block: reduce_scatter's decision and run
 * (coll_scc_reduce_scatter.c) with blocks of one count, or the fallback. */
#include "coll_scc.h"
#include "coll_scc_reduction.h"

int mca_coll_scc_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                                      struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                      struct ompi_communicator_t *comm,
                                      mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    scc_reduction_call_t call;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_REDUCE_SCATTER_BLOCK, reduce_scatter_block,
                      mca_coll_scc_reduce_scatter_decide(m, SCC_COLL_REDUCE_SCATTER_BLOCK, sbuf,
                                                         rbuf, rcount, NULL, dtype, op, &call),
                      mca_coll_scc_reduce_scatter_go(m, &call, NULL),
                      sbuf, rbuf, rcount, dtype, op, comm);
}
