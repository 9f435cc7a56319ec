/* coll_scc_reduce_scatter_block.c: MPI_Reduce_scatter_block: choose an algorithm, or hand the
 * call to the fallback. */
#include "coll_scc.h"
#include "coll_scc_exec.h"
#include "coll_scc_reduction.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                                      struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                      struct ompi_communicator_t *comm,
                                      mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    size_t dtsize, total;
    ptrdiff_t lb;
    scc_alg_t alg;
    int rc;

    if (OPAL_UNLIKELY(!mca_coll_scc_ready(m, comm))) {
        goto fallback;
    }
    ompi_datatype_type_size(dtype, &dtsize);
    total = dtsize * (size_t) rcount * (size_t) m->size;
    alg = mca_coll_scc_reduction_pick(m, SCC_COLL_REDUCE_SCATTER_BLOCK, dtype,
                                      (size_t) rcount * m->size, dtsize * (size_t) rcount, &lb);
    if (SCC_ALG_FALLBACK == alg) {
        goto fallback;
    }
    rc = mca_coll_scc_reduce_scatter_run(m, SCC_COLL_REDUCE_SCATTER_BLOCK, alg, sbuf, rbuf,
                                         total, lb, (size_t) rcount, NULL, dtype, op);
    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        return rc;
    }

fallback:
    mca_coll_scc_count(m, SCC_COLL_REDUCE_SCATTER_BLOCK, SCC_ALG_FALLBACK);
    return SCC_FALLBACK(m, reduce_scatter_block, sbuf, rbuf, rcount, dtype, op, comm);
}
