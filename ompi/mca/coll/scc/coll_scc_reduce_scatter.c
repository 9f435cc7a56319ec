/* coll_scc_reduce_scatter.c: MPI_Reduce_scatter, and what MPI_Reduce_scatter_block shares
 * with it: decide and run it (a persistent one decides once), or hand the call to the
 * fallback.  The algorithms are reduce_scatter_block's, with a block per rank of its own
 * count (every rank knows them all: the standard has rcounts the same everywhere). */
#include <string.h>

#include "coll_scc.h"
#include "coll_scc_exec.h"
#include "coll_scc_reduction.h"

#include "ompi/datatype/ompi_datatype.h"

scc_alg_t mca_coll_scc_reduce_scatter_decide(mca_coll_scc_module_t *m, scc_coll_t c,
                                             const void *sbuf, void *rbuf, int rcount,
                                             const int *rcounts, struct ompi_datatype_t *dtype,
                                             struct ompi_op_t *op, scc_reduction_call_t *call)
{
    const int n = m->size;
    scc_reduction_t *r = &call->r;
    size_t dtsize, count = 0;
    ptrdiff_t lb;

    ompi_datatype_type_size(dtype, &dtsize);
    if (SCC_COLL_REDUCE_SCATTER == c) {
        for (int i = 0; i < n; ++i) {
            count += (size_t) rcounts[i];
        }
    } else {
        count = (size_t) rcount * (size_t) n;
    }
    call->c = c;
    call->bytes = dtsize * count;
    /* the table by the whole vector's bytes (reduce_scatter) or a block's: the same on every
       rank */
    call->alg = mca_coll_scc_reduction_pick(m, c, dtype, count,
                                            SCC_COLL_REDUCE_SCATTER == c ? call->bytes
                                                                         : dtsize * (size_t) rcount,
                                            &lb);
    /* (read once: a persistent start keeps what MPI_T said at its decision) */
    call->forced = SCC_ALG_AUTO != mca_coll_scc_config.force[c];
    /* in place, the input is in rbuf, whose start receives the result: the run works from a
       copy of it (r->in NULL) */
    r->in = MPI_IN_PLACE == sbuf ? NULL : (const char *) sbuf + lb;
    r->out = (char *) rbuf + lb;
    r->count = SCC_COLL_REDUCE_SCATTER == c ? 0 : (size_t) rcount;
    r->at = NULL;
    r->dtype = dtype;
    r->op = op;
    r->root = 0;
    return call->alg;
}

int mca_coll_scc_reduce_scatter_go(mca_coll_scc_module_t *m, const scc_reduction_call_t *call,
                                   const int *rcounts)
{
    const int n = m->size;
    scc_reduction_t r = call->r;

    mca_coll_scc_running(m, call->c, call->alg);
    /* bytes, not count: a zero-size datatype moves nothing either */
    if (0 == call->bytes) {
        mca_coll_scc_count(m, call->c, call->alg);
        return OMPI_SUCCESS;
    }
    if (SCC_COLL_REDUCE_SCATTER == call->c) {
        /* where each rank's block starts, in elements */
        size_t *at = mca_coll_scc_scratch(m, SCC_SCRATCH_ARGS, ((size_t) n + 1) * sizeof(size_t));
        if (NULL == at) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                            "there is no memory for its block offsets");
        }
        at[0] = 0;
        for (int i = 0; i < n; ++i) {
            at[i + 1] = at[i] + (size_t) rcounts[i];
        }
        r.at = at;
    }
    if (NULL == r.in) {
        char *copy = mca_coll_scc_scratch(m, SCC_SCRATCH_IN, call->bytes);
        if (NULL == copy) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                            "there is no memory for a copy of the input");
        }
        memcpy(copy, r.out, call->bytes);
        r.in = copy;
    }
    return mca_coll_scc_reduction(m, call->c, call->alg, call->forced, &r);
}

int mca_coll_scc_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                                struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    scc_reduction_call_t call;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_REDUCE_SCATTER, reduce_scatter,
                      mca_coll_scc_reduce_scatter_decide(m, SCC_COLL_REDUCE_SCATTER, sbuf, rbuf,
                                                         0, rcounts, dtype, op, &call),
                      mca_coll_scc_reduce_scatter_go(m, &call, rcounts),
                      sbuf, rbuf, rcounts, dtype, op, comm);
}
