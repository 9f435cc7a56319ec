/* coll_scc_allreduce.c: MPI_Allreduce: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

int mca_coll_scc_allreduce(const void *sbuf, void *rbuf, int count,
                           struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    size_t dtsize, bytes;
    ptrdiff_t lb;
    const char *in;
    scc_alg_t alg;
    int rc;

    if (OPAL_UNLIKELY(!mca_coll_scc_ready(m, comm))) {
        goto fallback;
    }
    ompi_datatype_type_size(dtype, &dtsize);
    bytes = dtsize * (size_t) count;
    alg = mca_coll_scc_pick(m, SCC_COLL_ALLREDUCE, bytes);
    if (SCC_ALG_FALLBACK == alg || !scc_dtype_contig(dtype, (size_t) count, &lb)
        || dtsize > m->xp->slot_size) {
        goto fallback;
    }
    if (0 == bytes) {
        mca_coll_scc_count(m, SCC_COLL_ALLREDUCE, alg);
        return OMPI_SUCCESS;
    }
    /* in place: the input is the result buffer (sbuf stays MPI_IN_PLACE for the fallback) */
    in = (const char *) (MPI_IN_PLACE == sbuf ? rbuf : sbuf) + lb;
    if (SCC_ALG_FLAT != alg) {
        rc = mca_coll_scc_allreduce_sched(m, alg, in, (char *) rbuf + lb,
                                          (size_t) count, dtype, op);
        if (OMPI_ERR_NOT_AVAILABLE != rc) {
            mca_coll_scc_count(m, SCC_COLL_ALLREDUCE, alg);
            return rc;
        }
        /* the schedule cannot take this operation (not commutative): a forced
           algorithm declines, the table's choice gives way to the rank-ordered one */
        if ((m->unavail & (1u << SCC_ALG_FLAT))
            || SCC_ALG_AUTO != mca_coll_scc_component.force[SCC_COLL_ALLREDUCE]) {
            goto fallback;
        }
        alg = SCC_ALG_FLAT;
    }
    mca_coll_scc_count(m, SCC_COLL_ALLREDUCE, alg);
    return mca_coll_scc_allreduce_flat(m, in, (char *) rbuf + lb,
                                       (size_t) count, dtype, op);

fallback:
    mca_coll_scc_count(m, SCC_COLL_ALLREDUCE, SCC_ALG_FALLBACK);
    return m->prev_allreduce.fn(sbuf, rbuf, count, dtype, op, comm, m->prev_allreduce.module);
}
