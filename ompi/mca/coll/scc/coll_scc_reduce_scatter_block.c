/* coll_scc_reduce_scatter_block.c: MPI_Reduce_scatter_block: choose an algorithm, or hand the
 * call to the fallback. */
#include <string.h>

#include "coll_scc.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

int mca_coll_scc_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                                      struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                      struct ompi_communicator_t *comm,
                                      mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    size_t dtsize, bytes, total;
    ptrdiff_t lb;
    const char *in;
    scc_alg_t alg;
    int rc;

    if (OPAL_UNLIKELY(!mca_coll_scc_ready(m, comm))) {
        goto fallback;
    }
    ompi_datatype_type_size(dtype, &dtsize);
    bytes = dtsize * (size_t) rcount;
    total = bytes * (size_t) m->size;
    alg = mca_coll_scc_pick(m, SCC_COLL_REDUCE_SCATTER_BLOCK, bytes);
    if (SCC_ALG_FALLBACK == alg || !scc_dtype_contig(dtype, (size_t) rcount * m->size, &lb)
        || dtsize > m->xp->slot_size) {
        goto fallback;
    }
    if (0 == bytes) {
        mca_coll_scc_count(m, SCC_COLL_REDUCE_SCATTER_BLOCK, alg);
        return OMPI_SUCCESS;
    }
    in = (const char *) sbuf + lb;
    if (MPI_IN_PLACE == sbuf) {
        /* the input is in rbuf, which receives the result: work from a copy */
        char *copy = mca_coll_scc_scratch(m, SCC_SCRATCH_IN, total);
        if (NULL == copy) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        memcpy(copy, (char *) rbuf + lb, total);
        in = copy;
    }
    if (SCC_ALG_FLAT != alg) {
        rc = mca_coll_scc_reduce_scatter_block_sched(m, alg, in, (char *) rbuf + lb,
                                                     (size_t) rcount, dtype, op);
        if (OMPI_ERR_NOT_AVAILABLE != rc) {
            mca_coll_scc_count(m, SCC_COLL_REDUCE_SCATTER_BLOCK, alg);
            return rc;
        }
        if ((m->unavail & (1u << SCC_ALG_FLAT))
            || SCC_ALG_AUTO != mca_coll_scc_component.force[SCC_COLL_REDUCE_SCATTER_BLOCK]) {
            goto fallback;
        }
        alg = SCC_ALG_FLAT;
    }
    mca_coll_scc_count(m, SCC_COLL_REDUCE_SCATTER_BLOCK, alg);
    return mca_coll_scc_reduce_scatter_block_flat(m, in, (char *) rbuf + lb, (size_t) rcount,
                                                  dtype, op);

fallback:
    mca_coll_scc_count(m, SCC_COLL_REDUCE_SCATTER_BLOCK, SCC_ALG_FALLBACK);
    return m->prev_reduce_scatter_block.fn(sbuf, rbuf, rcount, dtype, op, comm,
                                           m->prev_reduce_scatter_block.module);
}
