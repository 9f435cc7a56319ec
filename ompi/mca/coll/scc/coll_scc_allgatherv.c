/* coll_scc_allgatherv.c: MPI_Allgatherv: choose an algorithm, or hand the call to the
 * fallback.
 *
 * Every rank knows every part's size, but the choice must not hang on which: the table's
 * choice for no particular size, as the other v-variants.  The direct algorithm takes the
 * parts by their counts and displacements; across nodes the leaders aggregate them as
 * allgather's Bruck does, each part by its own size (coll_scc_run_vnodes.c); the pairwise
 * exchange (where one part dwarfs the others, or forced: ring) is alltoallv's with the same
 * block for every peer. */
#include <string.h>

#include "coll_scc.h"
#include "coll_scc_blocks.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_allgatherv_go(mca_coll_scc_module_t *m, scc_alg_t alg, const void *sbuf,
                               int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                               const int *rcounts, const int *displs,
                               struct ompi_datatype_t *rdtype)
{
    const int n = m->size, me = m->rank;
    size_t size, mine, sbytes, *v;
    const char *in;
    char *out;
    scc_blocks_t r;
    int rc, self = OMPI_SUCCESS;

    mca_coll_scc_running(m, SCC_COLL_ALLGATHERV, alg);
    /* per peer: bytes sent, their offsets, bytes received, their offsets (the pairwise
       exchange's arrays; the direct algorithm's parts are the received ones), and room for
       the leaders' layout of the parts (n + 1) */
    v = mca_coll_scc_scratch(m, SCC_SCRATCH_ARGS, (5 * (size_t) n + 1) * sizeof(size_t));
    if (NULL == v) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                        "there is no memory for its byte counts");
    }
    ompi_datatype_type_size(rdtype, &size);
    for (int i = 0; i < n; ++i) {
        v[2 * n + i] = size * (size_t) rcounts[i];
    }
    scc_blocks_init(&r, rbuf, rcounts, displs, rdtype);
    /* (a direct view is NULL where a NULL buffer has no part: a packed one then) */
    out = r.contig ? scc_blocks_direct(&r, n, v + 2 * n, v + 3 * n) : NULL;
    if (NULL == out) {
        out = scc_blocks_packed(m, SCC_SCRATCH_OUT, &r, n, v + 2 * n, v + 3 * n, false);
    }
    if (r.contig) {
        /* parts that would overlap in the receive buffer (the caller's error, seen alike by
           every rank): nothing moves */
        int *idx = mca_coll_scc_scratch(m, SCC_SCRATCH_IN, (size_t) n * sizeof(int));
        if (NULL == idx) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
        }
        if (scc_blocks_overlap(n, v + 2 * n, v + 3 * n, idx)) {
            mca_coll_scc_count(m, SCC_COLL_ALLGATHERV, alg);
            return MPI_ERR_ARG;
        }
    }
    if (NULL == out) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
    }
    mine = v[2 * n + me];
    sbytes = mine;
    if (MPI_IN_PLACE != sbuf) {
        ompi_datatype_type_size(sdtype, &size);
        sbytes = size * (size_t) scount;
    }
    if (MPI_IN_PLACE == sbuf || sbytes != mine) {
        /* my part is (or, of another size than its place -- the caller's error -- stands
           for what is) in its place of the receive buffer */
        self = sbytes != mine ? MPI_ERR_TRUNCATE : OMPI_SUCCESS;
        in = out + v[3 * n + me];
        if (!r.contig && OMPI_SUCCESS != scc_block_pack(&r, me, mine, (char *) in)) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
        }
    } else if (mine > 0 && NULL == (in = scc_view_in(m, sbuf, (size_t) scount, sdtype, mine))) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
    } else if (0 == mine) {
        in = out + v[3 * n + me];
    }
    if (SCC_ALG_BRUCK == alg && SCC_TOPO_NODES != m->topo.kind) {
        /* (forced) the leaders' schedules run across nodes only */
        return OMPI_ERR_NOT_AVAILABLE;
    }
    if (SCC_ALG_FLAT == alg) {
        const scc_parts_t parts = { v + 2 * n, v + 3 * n, 0 };
        rc = mca_coll_scc_allgatherv_flat(m, in, out, &parts);
    } else if (SCC_ALG_BRUCK == alg
               && OMPI_ERR_NOT_AVAILABLE != (rc = mca_coll_scc_allgatherv_parts(
                                                 m, v + 2 * n, v + 3 * n, v + 4 * n, in, out))) {
        /* served by the leaders */
    } else {
        /* my part to every peer, from in; to myself only where it is not in place (where
           the leaders do not serve: this) */
        alg = SCC_ALG_BRUCK == alg ? SCC_ALG_RING : alg;
        for (int d = 0; d < n; ++d) {
            v[d] = mine;
            v[n + d] = 0;
        }
        if (in == out + v[3 * n + me]) {
            v[me] = 0;
        }
        rc = mca_coll_scc_alltoallv_sched(m, alg, in, v, v + n, out, v + 2 * n, v + 3 * n);
    }
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_ALLGATHERV, alg);
    if (OMPI_SUCCESS == rc && !r.contig) {
        rc = scc_blocks_unpack(&r, n, v + 2 * n, v + 3 * n, out, -1);
    }
    return OMPI_SUCCESS != rc ? rc : self;
}

int mca_coll_scc_allgatherv(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                            void *rbuf, const int *rcounts, const int *displs,
                            struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                            mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_ALLGATHERV, allgatherv,
                      mca_coll_scc_pick(m, SCC_COLL_ALLGATHERV, 0),
                      mca_coll_scc_allgatherv_go(m, alg, sbuf, scount, sdtype, rbuf, rcounts,
                                                 displs, rdtype),
                      sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype, comm);
}
