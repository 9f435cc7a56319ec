/* coll_scc_reduce.c: MPI_Reduce: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"
#include "coll_scc_flat.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

int mca_coll_scc_reduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                        struct ompi_op_t *op, int root, struct ompi_communicator_t *comm,
                        mca_coll_base_module_t *module)
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
    alg = mca_coll_scc_pick(m, SCC_COLL_REDUCE, bytes);
    /* reductions work on the elements in place: contiguous types only */
    if (SCC_ALG_FLAT != alg || !scc_dtype_contig(dtype, (size_t) count, &lb)
        || dtsize > m->xp->slot_size) {
        goto fallback;
    }
    mca_coll_scc_count(m, SCC_COLL_REDUCE, alg);
    if (0 == bytes) {
        return OMPI_SUCCESS;
    }
    if (MPI_IN_PLACE == sbuf) {
        sbuf = rbuf;
    }
    return mca_coll_scc_reduce_flat(m, (const char *) sbuf + lb,
                                    m->rank == root ? (char *) rbuf + lb : NULL, (size_t) count,
                                    dtype, op, root);

fallback:
    mca_coll_scc_count(m, SCC_COLL_REDUCE, SCC_ALG_FALLBACK);
    return m->prev_reduce.fn(sbuf, rbuf, count, dtype, op, root, comm, m->prev_reduce.module);
}
