/* coll_scc_alltoallv.c: MPI_Alltoallv, and what MPI_Alltoallw shares with it: choose an
 * algorithm, or hand the call to the fallback.
 *
 * Counts, datatypes and layouts differ between ranks (and, in alltoallw, between blocks);
 * only the byte count of each pair's block is the same on both sides.  So the choice
 * depends on none of them, and a rank whose blocks are not all contiguous packs (or
 * unpacks) its blocks itself, each with its own datatype: every rank runs the same
 * algorithm on byte counts and byte offsets, whatever its own layout. */
#include <string.h>

#include "coll_scc.h"
#include "coll_scc_blocks.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"

/* Both collectives on their two sides (s: in place, r's blocks) by alg;
 * OMPI_ERR_NOT_AVAILABLE: the fallback serves the call (decided before any data moved, on
 * every rank alike). */
static int scc_alltoall_blocks(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t alg,
                               bool in_place, scc_blocks_t *s, scc_blocks_t *r)
{
    const int n = m->size;
    const bool lean = in_place && (SCC_ALG_FLAT == alg || SCC_ALG_RING == alg);
    size_t *v;
    const char *in;
    char *out;
    int rc;

    mca_coll_scc_running(m, c, alg);
    /* byte counts and offsets: send, send offsets, receive, receive offsets */
    v = mca_coll_scc_scratch(m, SCC_SCRATCH_ARGS, 4 * (size_t) n * sizeof(size_t));
    if (NULL == v) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                        "there is no memory for its byte counts");
    }
    for (int i = 0; i < n; ++i) {
        size_t ssize, rsize;
        ompi_datatype_type_size(scc_block_dt(s, i), &ssize);
        ompi_datatype_type_size(scc_block_dt(r, i), &rsize);
        v[i] = (size_t) s->counts[i] * ssize;
        v[2 * n + i] = (size_t) r->counts[i] * rsize;
    }
    /* in place, the direct and pairwise exchanges send each piece before its peer's lands
       there; the pair lists (a pair may pass through a third rank) send from a copy.  (A
       direct view may be NULL: a NULL buffer whose blocks are all empty.) */
    if (r->contig) {
        out = scc_blocks_direct(r, n, v + 2 * n, v + 3 * n);
    } else if (NULL == (out = scc_blocks_packed(m, SCC_SCRATCH_OUT, r, n, v + 2 * n, v + 3 * n,
                                                lean))) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                        "there is no memory for a copy of the blocks");
    }
    if (lean) {
        in = NULL;
    } else if (s->contig && !in_place) {
        in = scc_blocks_direct(s, n, v, v + n);
    } else if (NULL == (in = scc_blocks_packed(m, SCC_SCRATCH_IN, s, n, v, v + n, true))) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                        "there is no memory for a copy of the blocks");
    }
    rc = lean ? mca_coll_scc_alltoallv_inplace(m, out, v + 2 * n, v + 3 * n)
         : SCC_ALG_FLAT == alg
             ? mca_coll_scc_alltoallv_flat(m, in, v, v + n, out, v + 2 * n, v + 3 * n)
             : mca_coll_scc_alltoallv_sched(m, alg, in, v, v + n, out, v + 2 * n, v + 3 * n);
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        return rc;
    }
    mca_coll_scc_count(m, c, alg);
    if (OMPI_SUCCESS == rc && !r->contig) {
        rc = scc_blocks_unpack(r, n, v + 2 * n, v + 3 * n, out, -1);
    }
    return rc;
}

int mca_coll_scc_alltoallvw(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t alg,
                            const void *sbuf, const int *scounts, const int *sdispls,
                            struct ompi_datatype_t *sdt, struct ompi_datatype_t *const *sdts,
                            void *rbuf, const int *rcounts, const int *rdispls,
                            struct ompi_datatype_t *rdt, struct ompi_datatype_t *const *rdts)
{
    const bool in_place = MPI_IN_PLACE == sbuf;
    scc_blocks_t s, r;

    /* in place: the blocks to send are the receive buffer's, described by its arguments */
    if (NULL != rdts) {
        scc_blocks_init_w(&r, m->size, rbuf, rcounts, rdispls, rdts);
    } else {
        scc_blocks_init(&r, rbuf, rcounts, rdispls, rdt);
    }
    if (in_place) {
        s = r;
    } else if (NULL != sdts) {
        scc_blocks_init_w(&s, m->size, sbuf, scounts, sdispls, sdts);
    } else {
        scc_blocks_init(&s, sbuf, scounts, sdispls, sdt);
    }
    return scc_alltoall_blocks(m, c, alg, in_place, &s, &r);
}

int mca_coll_scc_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                           struct ompi_datatype_t *sdtype, void *rbuf, const int *rcounts,
                           const int *rdispls, struct ompi_datatype_t *rdtype,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    /* nothing rank-local may decide: the table's choice for no particular size */
    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_ALLTOALLV, alltoallv,
                      mca_coll_scc_pick(m, SCC_COLL_ALLTOALLV, 0),
                      mca_coll_scc_alltoallvw(m, SCC_COLL_ALLTOALLV, alg, sbuf, scounts, sdispls,
                                              sdtype, NULL, rbuf, rcounts, rdispls, rdtype, NULL),
                      sbuf, scounts, sdispls, sdtype, rbuf, rcounts, rdispls, rdtype, comm);
}
