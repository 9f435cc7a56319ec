/* coll_scc_scatter.c: MPI_Scatter: decide and run it (a persistent one decides once),
 * or hand the call to the fallback. */
#include "coll_scc.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_scatter_go(mca_coll_scc_module_t *m, scc_alg_t alg, size_t bytes,
                            const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                            void *rbuf, int rcount, struct ompi_datatype_t *rdtype, int root)
{
    size_t n = (size_t) m->size;
    const char *in = NULL;
    char *out = NULL;
    bool packed = false;
    int rc;

    mca_coll_scc_running(m, SCC_COLL_SCATTER, alg);
    if (0 == bytes) {
        mca_coll_scc_count(m, SCC_COLL_SCATTER, alg);
        return OMPI_SUCCESS;
    }
    if (m->rank == root) {
        in = scc_view_in(m, sbuf, (size_t) scount * n, sdtype, bytes * n);
        if (NULL == in) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
        }
    }
    if (m->rank != root || MPI_IN_PLACE != rbuf) {
        out = scc_view_out(m, rbuf, (size_t) rcount, rdtype, bytes, &packed);
        if (NULL == out) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
        }
    }
    rc = SCC_ALG_FLAT == alg ? mca_coll_scc_scatter_flat(m, in, out, bytes, root)
                             : mca_coll_scc_rooted_parts_sched(m, SCC_COLL_SCATTER, alg, in, out,
                                                               bytes, NULL, root);
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_SCATTER, alg);
    if (OMPI_SUCCESS == rc && NULL != out) {
        rc = scc_view_out_done(rbuf, (size_t) rcount, rdtype, out, bytes, packed);
    }
    return rc;
}

int mca_coll_scc_scatter(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                         void *rbuf, int rcount, struct ompi_datatype_t *rdtype, int root,
                         struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_SCATTER, scatter,
                      mca_coll_scc_decide_rooted(m, SCC_COLL_SCATTER, root, scount, sdtype, rcount,
                                                 rdtype, &bytes),
                      mca_coll_scc_scatter_go(m, alg, bytes, sbuf, scount, sdtype, rbuf, rcount,
                                              rdtype, root),
                      sbuf, scount, sdtype, rbuf, rcount, rdtype, root, comm);
}
