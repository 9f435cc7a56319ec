/* coll_scc_scatterv.c: MPI_Scatterv: choose an algorithm, or hand the call to the fallback.
 *
 * Only the root knows every part's size, so the choice depends on none: the table's choice
 * for no particular size.  The direct algorithm tells each reader where its part lies; the
 * leaders spread the parts across nodes, each by its own size (coll_scc_run_vnodes.c); the
 * pairwise exchange (where one part dwarfs the others, or forced: ring) is alltoallv's with
 * one sender. */
#include "coll_scc.h"
#include "coll_scc_blocks.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_scatterv_go(mca_coll_scc_module_t *m, scc_alg_t alg, const void *sbuf,
                             const int *scounts, const int *displs,
                             struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                             struct ompi_datatype_t *rdtype, int root)
{
    const int n = m->size, me = m->rank;
    const bool in_place = me == root && MPI_IN_PLACE == rbuf;
    size_t size, mine = 0, *v;
    const char *in = NULL;
    char *out = NULL;
    bool packed = false;
    int rc, self = OMPI_SUCCESS;

    mca_coll_scc_running(m, SCC_COLL_SCATTERV, alg);
    /* per peer: bytes sent, their offsets, bytes received, their offsets (the pairwise
       exchange's arrays; the direct algorithm's parts are the sent ones), and room for the
       leaders' layout of the parts (n + 1) */
    v = mca_coll_scc_scratch(m, SCC_SCRATCH_ARGS, (5 * (size_t) n + 1) * sizeof(size_t));
    if (NULL == v) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                        "there is no memory for its byte counts");
    }
    for (int i = 0; i < 4 * n; ++i) {
        v[i] = 0;
    }
    if (!in_place) {
        ompi_datatype_type_size(rdtype, &size);
        mine = size * (size_t) rcount;
        v[2 * n + root] = mine;
    }
    if (me == root) {
        scc_blocks_t s;
        ompi_datatype_type_size(sdtype, &size);
        for (int i = 0; i < n; ++i) {
            v[i] = size * (size_t) scounts[i];
        }
        if (in_place || mine != v[root]) {
            /* in place, my part stays where it is; a part of another size than its place
               (the caller's error) moves neither */
            self = in_place ? OMPI_SUCCESS : MPI_ERR_TRUNCATE;
            v[root] = v[2 * n + root] = 0;
            mine = 0;
        }
        scc_blocks_init(&s, sbuf, scounts, displs, sdtype);
        /* (a direct view is NULL where a NULL buffer has no part: a packed one then) */
        in = s.contig ? scc_blocks_direct(&s, n, v, v + n) : NULL;
        if (NULL == in) {
            in = scc_blocks_packed(m, SCC_SCRATCH_IN, &s, n, v, v + n, true);
        }
        if (NULL == in) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
        }
    }
    if (mine > 0
        && NULL == (out = scc_view_out(m, rbuf, (size_t) rcount, rdtype, mine, &packed))) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
    }
    if (SCC_ALG_TREE == alg && SCC_TOPO_NODES != m->topo.kind) {
        /* (forced) the leaders' schedules run across nodes only */
        return OMPI_ERR_NOT_AVAILABLE;
    }
    if (SCC_ALG_FLAT == alg) {
        const scc_parts_t parts = { v, v + n, 0 };
        rc = mca_coll_scc_scatterv_flat(m, in, &parts, out, mine, root, NULL);
    } else if (SCC_ALG_TREE == alg
               && OMPI_ERR_NOT_AVAILABLE != (rc = mca_coll_scc_rootedv_parts(
                                                 m, SCC_COLL_SCATTERV, v, v + n, v + 4 * n, in,
                                                 out, mine, root, &self))) {
        /* the leaders spread them */
    } else {
        alg = SCC_ALG_TREE == alg ? SCC_ALG_RING : alg;
        rc = mca_coll_scc_alltoallv_sched(m, alg, in, v, v + n, out, v + 2 * n, v + 3 * n);
    }
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_SCATTERV, alg);
    if (OMPI_SUCCESS == rc && mine > 0) {
        rc = scc_view_out_done(rbuf, (size_t) rcount, rdtype, out, mine, packed);
    }
    return OMPI_SUCCESS != rc ? rc : self;
}

int mca_coll_scc_scatterv(const void *sbuf, const int *scounts, const int *displs,
                          struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                          struct ompi_datatype_t *rdtype, int root,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_SCATTERV, scatterv,
                      mca_coll_scc_pick(m, SCC_COLL_SCATTERV, 0),
                      mca_coll_scc_scatterv_go(m, alg, sbuf, scounts, displs, sdtype, rbuf,
                                               rcount, rdtype, root),
                      sbuf, scounts, displs, sdtype, rbuf, rcount, rdtype, root, comm);
}
