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
    scc_view_t view;        /* a sender's of sbuf, the root's of rbuf */
    const char *in = NULL;
    char *out = NULL;
    int rc, r, self = OMPI_SUCCESS;

    mca_coll_scc_running(m, SCC_COLL_GATHER, alg);
    if (0 == bytes) {
        mca_coll_scc_count(m, SCC_COLL_GATHER, alg);
        return OMPI_SUCCESS;
    }
    if (m->rank == root) {
        out = scc_view_begin(m, &view, false, rbuf, (size_t) rcount * n, rdtype, bytes * n);
        if (NULL == out) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
        }
        if (MPI_IN_PLACE == sbuf) {
            in = out + (size_t) root * bytes;
            if (view.lazy) {
                ptrdiff_t ext;
                ompi_datatype_type_extent(rdtype, &ext);
                rc = scc_dtype_pack((char *) rbuf + (ptrdiff_t) root * rcount * ext,
                                    (size_t) rcount, rdtype, (char *) in, bytes);
                if (OMPI_SUCCESS != rc) {
                    (void) scc_view_end(&view, 0);
                    return mca_coll_scc_call_failed(m->xp, false, rc, "packing the data failed");
                }
            }
        } else if (view.lazy && SCC_ALG_FLAT == alg) {
            /* my part straight into its place (one copy, not a pack, a copy and an
               unpack); the direct algorithm skips it */
            ptrdiff_t ext;
            ompi_datatype_type_extent(rdtype, &ext);
            /* (a part of another size than its place: MPI_ERR_TRUNCATE after the call, as
               the direct algorithm answers it) */
            self = scc_dtype_copy(sbuf, scount, sdtype,
                                  (char *) rbuf + (ptrdiff_t) root * rcount * ext, rcount,
                                  rdtype, bytes);
        } else {
            in = scc_view_in(m, sbuf, (size_t) scount, sdtype, bytes);
        }
    } else {
        in = scc_view_begin(m, &view, true, sbuf, (size_t) scount, sdtype, bytes);
        if (SCC_ALG_FLAT != alg) {
            scc_view_ready(m->xp, &view, bytes);    /* (the schedules forward whole blocks) */
        }
    }
    if (NULL == in && !(m->rank == root && view.lazy && SCC_ALG_FLAT == alg)) {
        if (m->rank == root) {
            (void) scc_view_end(&view, 0);
        }
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
    }
    rc = SCC_ALG_FLAT == alg ? mca_coll_scc_gather_flat(m, in, out, bytes, root, &view)
                             : mca_coll_scc_rooted_parts_sched(m, SCC_COLL_GATHER, alg, in, out,
                                                               bytes, NULL, root);
    /* (the root's parts that arrived and are not yet unpacked: all, or none after an error) */
    r = scc_view_end(&view, OMPI_SUCCESS == rc ? bytes * n : 0);
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        scc_xport_forget(m->xp);    /* (a pack that failed before: not the next call's) */
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_GATHER, alg);
    rc = OMPI_SUCCESS == rc ? r : rc;
    return OMPI_SUCCESS == rc ? self : rc;
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
