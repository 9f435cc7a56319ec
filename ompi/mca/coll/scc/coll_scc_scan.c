/* coll_scc_scan.c: MPI_Scan and MPI_Exscan: choose an algorithm, or hand the call to the
 * fallback. */
#include "coll_scc.h"
#include "coll_scc_flat.h"
#include "coll_scc_reduction.h"

#include "ompi/datatype/ompi_datatype.h"

/* Both algorithms combine in rank order, so any operation is taken (no commutativity
 * check); the datatype rules are the other reductions'. */
static int scc_scan_call(mca_coll_scc_module_t *m, scc_coll_t c, const void *sbuf, void *rbuf,
                         int count, struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                         struct ompi_communicator_t *comm)
{
    const bool exclusive = SCC_COLL_EXSCAN == c;
    size_t dtsize, bytes;
    ptrdiff_t lb;
    const char *in;
    scc_alg_t alg;
    int rc;

    if (OPAL_UNLIKELY(!mca_coll_scc_ready(m, comm))) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    ompi_datatype_type_size(dtype, &dtsize);
    bytes = dtsize * (size_t) count;
    alg = mca_coll_scc_reduction_pick(m, c, dtype, (size_t) count, bytes, &lb);
    if (SCC_ALG_FALLBACK == alg) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    /* bytes, not count: a zero-size datatype moves nothing either */
    if (0 == bytes) {
        mca_coll_scc_count(m, c, alg);
        return OMPI_SUCCESS;
    }
    /* in place: the input is the result buffer (exscan's rank 0 only reads it) */
    in = (const char *) (MPI_IN_PLACE == sbuf ? rbuf : sbuf) + lb;
    switch (alg) {
    case SCC_ALG_FLAT:
        rc = mca_coll_scc_scan_flat(m, in, (char *) rbuf + lb, (size_t) count, dtype, op,
                                    exclusive);
        break;
    case SCC_ALG_LEADERS:
        rc = mca_coll_scc_scan_leaders(m, in, (char *) rbuf + lb, (size_t) count, dtype, op,
                                       exclusive);
        break;
    default:
        rc = mca_coll_scc_scan_ring(m, in, (char *) rbuf + lb, (size_t) count, dtype, op,
                                    exclusive);
        break;
    }
    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        mca_coll_scc_count(m, c, alg);
    }
    return rc;
}

int mca_coll_scc_scan(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                      struct ompi_op_t *op, struct ompi_communicator_t *comm,
                      mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    int rc = scc_scan_call(m, SCC_COLL_SCAN, sbuf, rbuf, count, dtype, op, comm);

    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_SCAN, SCC_ALG_FALLBACK);
    return SCC_FALLBACK(m, scan, sbuf, rbuf, count, dtype, op, comm);
}

int mca_coll_scc_exscan(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                        struct ompi_op_t *op, struct ompi_communicator_t *comm,
                        mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    int rc = scc_scan_call(m, SCC_COLL_EXSCAN, sbuf, rbuf, count, dtype, op, comm);

    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_EXSCAN, SCC_ALG_FALLBACK);
    return SCC_FALLBACK(m, exscan, sbuf, rbuf, count, dtype, op, comm);
}
