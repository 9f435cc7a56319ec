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
    const size_t n = (size_t) m->size;
    const bool flat = SCC_ALG_FLAT == alg, in_place = m->rank == root && MPI_IN_PLACE == rbuf;
    scc_view_t view;        /* the root's of sbuf, a reader's of rbuf */
    char *data, *out = NULL;
    ptrdiff_t lb;
    size_t rsize = 0;
    bool packed = false;    /* (the root's part, packed aside: a schedule's) */
    bool own = false;       /* (the root's part copied by itself) */
    int rc, r, self = OMPI_SUCCESS;

    mca_coll_scc_running(m, SCC_COLL_SCATTER, alg);
    if (0 == bytes) {
        mca_coll_scc_count(m, SCC_COLL_SCATTER, alg);
        return OMPI_SUCCESS;
    }
    /* the root's parts packed, a reader's unpacked, piece by piece where the direct
       algorithm sends them so (the schedules forward whole blocks: packed first) */
    data = m->rank == root ? scc_view_begin(m, &view, true, sbuf, (size_t) scount * n, sdtype,
                                            bytes * n)
                           : scc_view_begin(m, &view, false, rbuf, (size_t) rcount, rdtype,
                                            bytes);
    if (NULL == data) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
    }
    if (!in_place) {
        ompi_datatype_type_size(rdtype, &rsize);
    }
    if (m->rank != root) {
        out = data;
    } else if (!in_place && rsize * (size_t) rcount != bytes) {
        self = MPI_ERR_TRUNCATE;    /* (my part of another size than its place: not copied) */
    } else if (!in_place && flat && (view.lazy || !scc_dtype_contig(rdtype, rcount, &lb))) {
        own = true;     /* my part straight into its place, after the others' (below) */
    } else if (!in_place) {
        out = scc_view_out(m, rbuf, (size_t) rcount, rdtype, bytes, &packed);
        if (NULL == out) {
            (void) scc_view_end(&view, 0);
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
        }
    }
    if (m->rank == root && !flat) {
        scc_view_ready(m->xp, &view, bytes * n);
    }
    rc = flat ? mca_coll_scc_scatter_flat(m, m->rank == root ? data : NULL, out, bytes, root,
                                          &view)
              : mca_coll_scc_rooted_parts_sched(m, SCC_COLL_SCATTER, alg,
                                                m->rank == root ? data : NULL, out, bytes, NULL,
                                                root);
    /* (a reader's pieces not yet unpacked: all, or none after an error) */
    r = scc_view_end(&view, OMPI_SUCCESS == rc ? bytes : 0);
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        scc_xport_forget(m->xp);    /* (a pack that failed before: not the next call's) */
        return rc;
    }
    if (own) {
        /* (one copy, not a pack, a copy and an unpack; the readers went on meanwhile) */
        ptrdiff_t ext;
        ompi_datatype_type_extent(sdtype, &ext);
        self = scc_dtype_copy((const char *) sbuf + (ptrdiff_t) root * scount * ext, scount,
                              sdtype, rbuf, rcount, rdtype, bytes);
    }
    if (OMPI_SUCCESS == rc && OMPI_SUCCESS == r && packed) {
        r = scc_view_out_done(rbuf, (size_t) rcount, rdtype, out, bytes, true);
    }
    mca_coll_scc_count(m, SCC_COLL_SCATTER, alg);
    rc = OMPI_SUCCESS == rc ? r : rc;
    return OMPI_SUCCESS == rc ? self : rc;
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
