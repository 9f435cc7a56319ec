/* coll_scc_gather.c: MPI_Gather: decide and run it (a persistent one decides once),
 * or hand the call to the fallback. */
#include "coll_scc.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_gather_go(mca_coll_scc_module_t *m, scc_alg_t alg, size_t bytes,
                           const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                           void *rbuf, int rcount, struct ompi_datatype_t *rdtype, int root)
{
    size_t n = (size_t) m->size;
    const char *in = NULL;
    char *out = NULL;
    bool packed = false;
    int rc;

    mca_coll_scc_running(m, SCC_COLL_GATHER, alg);
    if (0 == bytes) {
        mca_coll_scc_count(m, SCC_COLL_GATHER, alg);
        return OMPI_SUCCESS;
    }
    if (m->rank == root) {
        out = scc_view_out(m, rbuf, (size_t) rcount * n, rdtype, bytes * n, &packed);
        if (NULL == out) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
        }
        if (MPI_IN_PLACE == sbuf) {
            in = out + (size_t) root * bytes;
            if (packed) {
                ptrdiff_t ext;
                ompi_datatype_type_extent(rdtype, &ext);
                rc = scc_dtype_pack((char *) rbuf + (ptrdiff_t) root * rcount * ext,
                                    (size_t) rcount, rdtype, (char *) in, bytes);
                if (OMPI_SUCCESS != rc) {
                    return mca_coll_scc_call_failed(m->xp, false, rc, "packing the data failed");
                }
            }
        }
    }
    if (NULL == in) {
        in = scc_view_in(m, sbuf, (size_t) scount, sdtype, bytes);
        if (NULL == in) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
        }
    }
    rc = SCC_ALG_FLAT == alg ? mca_coll_scc_gather_flat(m, in, out, bytes, root)
                             : mca_coll_scc_rooted_parts_sched(m, SCC_COLL_GATHER, alg, in, out,
                                                               bytes, NULL, root);
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_GATHER, alg);
    if (OMPI_SUCCESS == rc && m->rank == root) {
        rc = scc_view_out_done(rbuf, (size_t) rcount * n, rdtype, out, bytes * n, packed);
    }
    return rc;
}

int mca_coll_scc_gather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                        void *rbuf, int rcount, struct ompi_datatype_t *rdtype, int root,
                        struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_GATHER, gather,
                      mca_coll_scc_decide_rooted(m, SCC_COLL_GATHER, root, scount, sdtype, rcount,
                                                 rdtype, &bytes),
                      mca_coll_scc_gather_go(m, alg, bytes, sbuf, scount, sdtype, rbuf, rcount,
                                             rdtype, root),
                      sbuf, scount, sdtype, rbuf, rcount, rdtype, root, comm);
}
