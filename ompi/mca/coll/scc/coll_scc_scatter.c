/* coll_scc_scatter.c: MPI_Scatter: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"

int mca_coll_scc_scatter(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                         void *rbuf, int rcount, struct ompi_datatype_t *rdtype, int root,
                         struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    (void) mca_coll_scc_ready(m, comm);
    mca_coll_scc_count(m, SCC_COLL_SCATTER, SCC_ALG_FALLBACK);
    return m->prev_scatter.fn(sbuf, scount, sdtype, rbuf, rcount, rdtype, root, comm, m->prev_scatter.module);
}
