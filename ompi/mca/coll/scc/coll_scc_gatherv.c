/* coll_scc_gatherv.c: MPI_Gatherv: choose an algorithm, or hand the call to the fallback.
 *
 * Only the root knows every part's size, so the choice depends on none: the table's choice
 * for no particular size.  The direct algorithm takes the parts by the root's counts and
 * displacements; across nodes the leaders aggregate the parts, each by its own size
 * (coll_scc_run_vnodes.c); the pairwise exchange (where one part dwarfs the others, or
 * forced: ring) is alltoallv's with one receiver. */
#include "coll_scc.h"
#include "coll_scc_blocks.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_gatherv_go(mca_coll_scc_module_t *m, scc_alg_t alg, const void *sbuf,
                            int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                            const int *rcounts, const int *displs,
                            struct ompi_datatype_t *rdtype, int root)
{
    const int n = m->size, me = m->rank;
    const bool in_place = me == root && MPI_IN_PLACE == sbuf;
    size_t size, mine = 0, *v;
    const char *in = NULL;
    char *out = NULL;
    scc_blocks_t r = { .contig = true };
    int rc, self = OMPI_SUCCESS;

    mca_coll_scc_running(m, SCC_COLL_GATHERV, alg);
    /* per peer: bytes sent, their offsets, bytes received, their offsets (the pairwise
       exchange's arrays; the direct algorithm's parts are the received ones), and room for
       the leaders' layout of the parts (n + 1) */
    v = mca_coll_scc_scratch(m, SCC_SCRATCH_ARGS, (5 * (size_t) n + 1) * sizeof(size_t));
    if (NULL == v) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                        "there is no memory for its byte counts");
    }
    if (!in_place) {
        ompi_datatype_type_size(sdtype, &size);
        mine = size * (size_t) scount;
    }
    for (int i = 0; i < 4 * n; ++i) {
        v[i] = 0;
    }
    v[root] = mine;
    if (me == root) {
        int *idx = mca_coll_scc_scratch(m, SCC_SCRATCH_IN, (size_t) n * sizeof(int));
        ompi_datatype_type_size(rdtype, &size);
        for (int i = 0; i < n; ++i) {
            v[2 * n + i] = size * (size_t) rcounts[i];
        }
        scc_blocks_init(&r, rbuf, rcounts, displs, rdtype);
        out = r.contig ? scc_blocks_direct(&r, n, v + 2 * n, v + 3 * n) : NULL;
        if (NULL == idx) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
        }
        if (r.contig && scc_blocks_overlap(n, v + 2 * n, v + 3 * n, idx)) {
            /* parts that would overlap in the receive buffer (the caller's error): taken, as
               their senders wait for that, into a scratch copy that is never unpacked */
            self = MPI_ERR_ARG;
            out = NULL;
        }
        if (NULL == out) {
            /* (also where a NULL buffer has no part: its direct view is NULL) */
            out = scc_blocks_packed(m, SCC_SCRATCH_OUT, &r, n, v + 2 * n, v + 3 * n, false);
        }
        if (NULL == out) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
        }
        if (in_place || mine != v[2 * n + root]) {
            /* in place, my part stays where it is; a part of another size than its place
               (the caller's error) moves neither */
            self = in_place || OMPI_SUCCESS != self ? self : MPI_ERR_TRUNCATE;
            v[root] = v[2 * n + root] = 0;
            mine = 0;
        }
    }
    if (mine > 0 && NULL == (in = scc_view_in(m, sbuf, (size_t) scount, sdtype, mine))) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
    }
    if (SCC_ALG_TREE == alg && SCC_TOPO_NODES != m->topo.kind) {
        /* (forced) the leaders' schedules run across nodes only */
        return OMPI_ERR_NOT_AVAILABLE;
    }
    if (SCC_ALG_FLAT == alg) {
        const scc_parts_t parts = { v + 2 * n, v + 3 * n, 0 };
        rc = mca_coll_scc_gatherv_flat(m, in, mine, out, &parts, root, NULL);
    } else if (SCC_ALG_TREE == alg
               && OMPI_ERR_NOT_AVAILABLE != (rc = mca_coll_scc_rootedv_parts(
                                                 m, SCC_COLL_GATHERV, v + 2 * n, v + 3 * n,
                                                 v + 4 * n, in, out, mine, root, &self))) {
        /* the leaders aggregated */
    } else {
        alg = SCC_ALG_TREE == alg ? SCC_ALG_RING : alg;
        rc = mca_coll_scc_alltoallv_sched(m, alg, in, v, v + n, out, v + 2 * n, v + 3 * n);
    }
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_GATHERV, alg);
    if (OMPI_SUCCESS == rc && OMPI_SUCCESS == self && me == root && !r.contig) {
        rc = scc_blocks_unpack(&r, n, v + 2 * n, v + 3 * n, out, -1);
    }
    return OMPI_SUCCESS != rc ? rc : self;
}

int mca_coll_scc_gatherv(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                         void *rbuf, const int *rcounts, const int *displs,
                         struct ompi_datatype_t *rdtype, int root,
                         struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_GATHERV, gatherv,
                      mca_coll_scc_pick(m, SCC_COLL_GATHERV, 0),
                      mca_coll_scc_gatherv_go(m, alg, sbuf, scount, sdtype, rbuf, rcounts,
                                              displs, rdtype, root),
                      sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype, root, comm);
}
