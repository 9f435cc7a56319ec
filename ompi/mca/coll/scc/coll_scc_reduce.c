/* coll_scc_reduce.c: MPI_Reduce: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"
#include "coll_scc_reduction.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_reduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                        struct ompi_op_t *op, int root, struct ompi_communicator_t *comm,
                        mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    size_t dtsize, bytes;
    ptrdiff_t lb;
    scc_reduction_t r;
    scc_alg_t alg;
    int rc;

    if (OPAL_UNLIKELY(!mca_coll_scc_ready(m, comm))) {
        goto fallback;
    }
    ompi_datatype_type_size(dtype, &dtsize);
    bytes = dtsize * (size_t) count;
    alg = mca_coll_scc_reduction_pick(m, SCC_COLL_REDUCE, dtype, (size_t) count, bytes, &lb);
    if (SCC_ALG_FALLBACK == alg) {
        goto fallback;
    }
    /* bytes, not count: a zero-size datatype moves nothing either */
    if (0 == bytes) {
        mca_coll_scc_count(m, SCC_COLL_REDUCE, alg);
        return OMPI_SUCCESS;
    }
    /* in place: the input is the result buffer (sbuf stays MPI_IN_PLACE for the fallback) */
    r.in = (const char *) (MPI_IN_PLACE == sbuf ? rbuf : sbuf) + lb;
    r.out = m->rank == root ? (char *) rbuf + lb : NULL;
    r.count = (size_t) count;
    r.at = NULL;
    r.dtype = dtype;
    r.op = op;
    r.root = root;
    rc = mca_coll_scc_reduction(m, SCC_COLL_REDUCE, alg, &r);
    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        return rc;
    }

fallback:
    mca_coll_scc_count(m, SCC_COLL_REDUCE, SCC_ALG_FALLBACK);
    return SCC_FALLBACK(m, reduce, sbuf, rbuf, count, dtype, op, root, comm);
}
