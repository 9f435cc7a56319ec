/* coll_scc_reduce.c: MPI_Reduce: decide and run it (coll_scc_reduction.c), or hand the call
 * to the fallback. */
#include "coll_scc.h"
#include "coll_scc_reduction.h"

int mca_coll_scc_reduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                        struct ompi_op_t *op, int root, struct ompi_communicator_t *comm,
                        mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    int rc = mca_coll_scc_reduction_call(m, comm, SCC_COLL_REDUCE, sbuf, rbuf, count, dtype, op,
                                         root);

    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_REDUCE, SCC_ALG_FALLBACK);
    return SCC_FALLBACK(m, reduce, sbuf, rbuf, count, dtype, op, root, comm);
}
