/* coll_scc_reduce_scatter.c: MPI_Reduce_scatter, served by the fallback until an algorithm of
 * the component serves it (the table's only choice for it). */
#include "coll_scc.h"

int mca_coll_scc_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                                struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    /* the call counts toward setup as every collective does (all members make it) */
    if (OPAL_LIKELY(mca_coll_scc_ready(m, comm))) {
        (void) mca_coll_scc_pick(m, SCC_COLL_REDUCE_SCATTER, 0);
    }
    mca_coll_scc_count(m, SCC_COLL_REDUCE_SCATTER, SCC_ALG_FALLBACK);
    return m->prev_reduce_scatter.fn(sbuf, rbuf, rcounts, dtype, op, comm, m->prev_reduce_scatter.module);
}
