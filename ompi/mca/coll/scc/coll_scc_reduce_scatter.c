/* coll_scc_reduce_scatter.c: MPI_Reduce_scatter: choose an algorithm, or hand the call to
 * the fallback.  The algorithms are reduce_scatter_block's, with a block per rank of its own
 * count (every rank knows them all: the standard has rcounts the same everywhere). */
#include <string.h>

#include "coll_scc.h"
#include "coll_scc_exec.h"
#include "coll_scc_reduction.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_reduce_scatter_run(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t alg,
                                    const void *sbuf, void *rbuf, size_t total, ptrdiff_t lb,
                                    size_t rcount, const size_t *at,
                                    struct ompi_datatype_t *dtype, struct ompi_op_t *op)
{
    scc_reduction_t r;

    /* bytes, not count: a zero-size datatype moves nothing either */
    if (0 == total) {
        mca_coll_scc_count(m, c, alg);
        return OMPI_SUCCESS;
    }
    r.in = (const char *) sbuf + lb;
    if (MPI_IN_PLACE == sbuf) {
        /* the input is in rbuf, whose start receives the result: work from a copy */
        char *copy = mca_coll_scc_scratch(m, SCC_SCRATCH_IN, total);
        if (NULL == copy) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                            "there is no memory for a copy of the input");
        }
        memcpy(copy, (char *) rbuf + lb, total);
        r.in = copy;
    }
    r.out = (char *) rbuf + lb;
    r.count = rcount;
    r.at = at;
    r.dtype = dtype;
    r.op = op;
    r.root = 0;
    return mca_coll_scc_reduction(m, c, alg, SCC_ALG_AUTO != mca_coll_scc_config.force[c], &r);
}

int mca_coll_scc_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                                struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    const int n = m->size;
    size_t dtsize, total, *at;
    ptrdiff_t lb;
    scc_alg_t alg;
    int rc;

    if (OPAL_UNLIKELY(!mca_coll_scc_ready(m, comm))) {
        goto fallback;
    }
    /* where each rank's block starts, in elements */
    at = mca_coll_scc_scratch(m, SCC_SCRATCH_ARGS, ((size_t) n + 1) * sizeof(size_t));
    if (NULL == at) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                        "there is no memory for its block offsets");
    }
    at[0] = 0;
    for (int i = 0; i < n; ++i) {
        at[i + 1] = at[i] + (size_t) rcounts[i];
    }
    ompi_datatype_type_size(dtype, &dtsize);
    total = dtsize * at[n];
    /* the table by the whole vector's bytes: the same on every rank */
    alg = mca_coll_scc_reduction_pick(m, SCC_COLL_REDUCE_SCATTER, dtype, at[n], total, &lb);
    if (SCC_ALG_FALLBACK == alg) {
        goto fallback;
    }
    rc = mca_coll_scc_reduce_scatter_run(m, SCC_COLL_REDUCE_SCATTER, alg, sbuf, rbuf, total,
                                         lb, 0, at, dtype, op);
    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        return rc;
    }

fallback:
    mca_coll_scc_count(m, SCC_COLL_REDUCE_SCATTER, SCC_ALG_FALLBACK);
    return SCC_FALLBACK(m, reduce_scatter, sbuf, rbuf, rcounts, dtype, op, comm);
}
