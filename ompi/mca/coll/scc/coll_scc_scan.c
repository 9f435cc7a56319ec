/* coll_scc_scan.c: MPI_Scan and MPI_Exscan: decide and run them (coll_scc_reduction.c: both
 * algorithms combine in rank order, any operation is taken), or hand the call to the
 * fallback. */
#include "coll_scc.h"
#include "coll_scc_reduction.h"

int mca_coll_scc_scan(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                      struct ompi_op_t *op, struct ompi_communicator_t *comm,
                      mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    int rc = mca_coll_scc_reduction_call(m, comm, SCC_COLL_SCAN, sbuf, rbuf, count, dtype, op,
                                         0);

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
    int rc = mca_coll_scc_reduction_call(m, comm, SCC_COLL_EXSCAN, sbuf, rbuf, count, dtype,
                                         op, 0);

    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_EXSCAN, SCC_ALG_FALLBACK);
    return SCC_FALLBACK(m, exscan, sbuf, rbuf, count, dtype, op, comm);
}
