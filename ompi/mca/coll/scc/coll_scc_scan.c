/* coll_scc_scan.c: MPI_Scan and MPI_Exscan, served by the fallback until an algorithm of
 * the component serves it (the table's only choice for it). */
#include "coll_scc.h"

int mca_coll_scc_scan(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                      struct ompi_op_t *op, struct ompi_communicator_t *comm,
                      mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    /* the call counts toward setup as every collective does (all members make it) */
    if (OPAL_LIKELY(mca_coll_scc_ready(m, comm))) {
        (void) mca_coll_scc_pick(m, SCC_COLL_SCAN, 0);
    }
    mca_coll_scc_count(m, SCC_COLL_SCAN, SCC_ALG_FALLBACK);
    return m->prev_scan.fn(sbuf, rbuf, count, dtype, op, comm, m->prev_scan.module);
}

int mca_coll_scc_exscan(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                        struct ompi_op_t *op, struct ompi_communicator_t *comm,
                        mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    /* the call counts toward setup as every collective does (all members make it) */
    if (OPAL_LIKELY(mca_coll_scc_ready(m, comm))) {
        (void) mca_coll_scc_pick(m, SCC_COLL_EXSCAN, 0);
    }
    mca_coll_scc_count(m, SCC_COLL_EXSCAN, SCC_ALG_FALLBACK);
    return m->prev_exscan.fn(sbuf, rbuf, count, dtype, op, comm, m->prev_exscan.module);
}
