/* coll_scc_allreduce.c: MPI_Allreduce: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"
#include "coll_scc_flat.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

int mca_coll_scc_allreduce(const void *sbuf, void *rbuf, int count,
                           struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    size_t dtsize, bytes;
    ptrdiff_t lb;
    scc_alg_t alg;

    if (OPAL_UNLIKELY(!mca_coll_scc_ready(m, comm))) {
        goto fallback;
    }
    ompi_datatype_type_size(dtype, &dtsize);
    bytes = dtsize * (size_t) count;
    alg = mca_coll_scc_pick(m, SCC_COLL_ALLREDUCE, bytes);
    if (SCC_ALG_FLAT != alg || !scc_dtype_contig(dtype, (size_t) count, &lb)
        || dtsize > m->xp->slot_size) {
        goto fallback;
    }
    mca_coll_scc_count(m, SCC_COLL_ALLREDUCE, alg);
    if (0 == bytes) {
        return OMPI_SUCCESS;
    }
    if (MPI_IN_PLACE == sbuf) {
        sbuf = rbuf;
    }
    return mca_coll_scc_allreduce_flat(m, (const char *) sbuf + lb, (char *) rbuf + lb,
                                       (size_t) count, dtype, op);

fallback:
    mca_coll_scc_count(m, SCC_COLL_ALLREDUCE, SCC_ALG_FALLBACK);
    return m->prev_allreduce.fn(sbuf, rbuf, count, dtype, op, comm, m->prev_allreduce.module);
}
