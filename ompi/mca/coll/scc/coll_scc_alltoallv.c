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
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"

/* One side of the call: n blocks of counts[i] elements at displs[i] -- of dt, displacements
 * in its extents (alltoallv), or of dts[i], displacements in bytes (alltoallw). */
typedef struct scc_blocks {
    const char *buf;
    const int *counts, *displs;
    struct ompi_datatype_t *dt;
    struct ompi_datatype_t *const *dts;
    ptrdiff_t ext, lb;
    bool contig;                /* every block is contiguous bytes at its place plus its lb */
} scc_blocks_t;

static inline struct ompi_datatype_t *scc_block_dt(const scc_blocks_t *b, int i)
{
    return NULL != b->dts ? b->dts[i] : b->dt;
}

static inline const char *scc_block_at(const scc_blocks_t *b, int i)
{
    return b->buf + (ptrdiff_t) b->displs[i] * (NULL != b->dts ? 1 : b->ext);
}

/* Where block i's data starts past its place (its datatype's true lower bound) */
static inline ptrdiff_t scc_block_lb(const scc_blocks_t *b, int i)
{
    ptrdiff_t lb = b->lb;
    if (NULL != b->dts) {
        (void) scc_dtype_contig(b->dts[i], 2, &lb);
    }
    return lb;
}

static void scc_blocks_init(scc_blocks_t *b, int n, const void *buf, const int *counts,
                            const int *displs, struct ompi_datatype_t *dt,
                            struct ompi_datatype_t *const *dts)
{
    b->buf = buf;
    b->counts = counts;
    b->displs = displs;
    b->dt = dt;
    b->dts = dts;
    b->lb = 0;
    b->ext = 0;
    if (NULL == dts) {
        ompi_datatype_type_extent(dt, &b->ext);
        /* contiguous for 2 elements: no gap between consecutive ones either */
        b->contig = scc_dtype_contig(dt, 2, &b->lb);
        return;
    }
    b->contig = true;
    for (int i = 0; i < n && b->contig; ++i) {
        ptrdiff_t lb;
        b->contig = 0 == counts[i] || scc_dtype_contig(dts[i], 2, &lb);
    }
}

/* Offsets of the blocks in the user's buffer, relative to the lowest one (displacements
 * may be negative); returns that lowest block's address. */
static char *scc_blocks_direct(const scc_blocks_t *b, int n, const size_t *bytes, size_t *off)
{
    ptrdiff_t lo = 0;
    bool any = false;
    for (int i = 0; i < n; ++i) {
        ptrdiff_t at = scc_block_at(b, i) - b->buf + scc_block_lb(b, i);
        off[i] = (size_t) at;       /* (made relative below) */
        if (bytes[i] > 0 && (!any || at < lo)) {
            lo = at;
            any = true;
        }
    }
    for (int i = 0; i < n; ++i) {
        off[i] = bytes[i] > 0 ? (size_t) ((ptrdiff_t) off[i] - lo) : 0;
    }
    return (char *) b->buf + lo;
}

/* Offsets of the blocks packed one after the other into scratch `which`; with pack, the
 * blocks are copied there.  NULL on error. */
static char *scc_blocks_packed(mca_coll_scc_module_t *m, int which, const scc_blocks_t *b,
                               int n, const size_t *bytes, size_t *off, bool pack)
{
    size_t total = 0;
    char *p;
    for (int i = 0; i < n; ++i) {
        off[i] = total;
        total += bytes[i];
    }
    p = mca_coll_scc_scratch(m, which, total + 1);
    for (int i = 0; pack && NULL != p && i < n; ++i) {
        if (0 == bytes[i]) {
            continue;
        }
        if (b->contig) {
            memcpy(p + off[i], scc_block_at(b, i) + scc_block_lb(b, i), bytes[i]);
        } else if (OMPI_SUCCESS != scc_dtype_pack(scc_block_at(b, i), (size_t) b->counts[i],
                                                  scc_block_dt(b, i), p + off[i], bytes[i])) {
            return NULL;
        }
    }
    return p;
}

/* Both collectives on their two sides (s: in place, r's blocks); OMPI_ERR_NOT_AVAILABLE:
 * the fallback serves the call (decided before any data moved, on every rank alike). */
static int scc_alltoall_blocks(mca_coll_scc_module_t *m, scc_coll_t c, bool in_place,
                               scc_blocks_t *s, scc_blocks_t *r)
{
    const int n = m->size;
    size_t *v;
    const char *in;
    char *out;
    scc_alg_t alg;
    int rc;

    /* nothing rank-local may decide: the table's choice for no particular size */
    alg = mca_coll_scc_pick(m, c, 0);
    if (SCC_ALG_FALLBACK == alg) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    /* byte counts and offsets: send, send offsets, receive, receive offsets */
    v = mca_coll_scc_scratch(m, SCC_SCRATCH_ARGS, 4 * (size_t) n * sizeof(size_t));
    if (NULL == v) {
        return mca_coll_scc_call_failed(m, false, SCC_ERR_NO_MEM,
                                        "there is no memory for its byte counts");
    }
    for (int i = 0; i < n; ++i) {
        size_t ssize, rsize;
        ompi_datatype_type_size(scc_block_dt(s, i), &ssize);
        ompi_datatype_type_size(scc_block_dt(r, i), &rsize);
        v[i] = (size_t) s->counts[i] * ssize;
        v[2 * n + i] = (size_t) r->counts[i] * rsize;
    }
    /* in place, the receive buffer is overwritten while peers still read: send a copy.
       (A direct view may be NULL: a NULL buffer whose blocks are all empty.) */
    if (s->contig && !in_place) {
        in = scc_blocks_direct(s, n, v, v + n);
    } else if (NULL == (in = scc_blocks_packed(m, SCC_SCRATCH_IN, s, n, v, v + n, true))) {
        return mca_coll_scc_call_failed(m, false, SCC_ERR_NO_MEM,
                                        "there is no memory for a copy of the blocks");
    }
    if (r->contig) {
        out = scc_blocks_direct(r, n, v + 2 * n, v + 3 * n);
    } else if (NULL == (out = scc_blocks_packed(m, SCC_SCRATCH_OUT, r, n, v + 2 * n, v + 3 * n,
                                                false))) {
        return mca_coll_scc_call_failed(m, false, SCC_ERR_NO_MEM,
                                        "there is no memory for a copy of the blocks");
    }
    rc = SCC_ALG_FLAT == alg
             ? mca_coll_scc_alltoallv_flat(m, in, v, v + n, out, v + 2 * n, v + 3 * n)
             : mca_coll_scc_alltoallv_sched(m, alg, in, v, v + n, out, v + 2 * n, v + 3 * n);
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        return rc;
    }
    mca_coll_scc_count(m, c, alg);
    for (int i = 0; OMPI_SUCCESS == rc && !r->contig && i < n; ++i) {
        if (v[2 * n + i] > 0) {
            rc = scc_dtype_unpack((char *) scc_block_at(r, i), (size_t) r->counts[i],
                                  scc_block_dt(r, i), out + v[3 * n + i], v[2 * n + i]);
        }
    }
    return rc;
}

int mca_coll_scc_alltoallvw(mca_coll_scc_module_t *m, scc_coll_t c, const void *sbuf,
                            const int *scounts, const int *sdispls,
                            struct ompi_datatype_t *sdt, struct ompi_datatype_t *const *sdts,
                            void *rbuf, const int *rcounts, const int *rdispls,
                            struct ompi_datatype_t *rdt, struct ompi_datatype_t *const *rdts)
{
    const bool in_place = MPI_IN_PLACE == sbuf;
    scc_blocks_t s, r;

    /* in place: the blocks to send are the receive buffer's, described by its arguments */
    if (in_place) {
        scc_blocks_init(&s, m->size, rbuf, rcounts, rdispls, rdt, rdts);
    } else {
        scc_blocks_init(&s, m->size, sbuf, scounts, sdispls, sdt, sdts);
    }
    scc_blocks_init(&r, m->size, rbuf, rcounts, rdispls, rdt, rdts);
    return scc_alltoall_blocks(m, c, in_place, &s, &r);
}

int mca_coll_scc_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                           struct ompi_datatype_t *sdtype, void *rbuf, const int *rcounts,
                           const int *rdispls, struct ompi_datatype_t *rdtype,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    int rc;

    if (OPAL_LIKELY(mca_coll_scc_ready(m, comm))) {
        rc = mca_coll_scc_alltoallvw(m, SCC_COLL_ALLTOALLV, sbuf, scounts, sdispls, sdtype, NULL,
                                     rbuf, rcounts, rdispls, rdtype, NULL);
        if (OMPI_ERR_NOT_AVAILABLE != rc) {
            return rc;
        }
    }
    mca_coll_scc_count(m, SCC_COLL_ALLTOALLV, SCC_ALG_FALLBACK);
    return m->prev_alltoallv.fn(sbuf, scounts, sdispls, sdtype, rbuf, rcounts, rdispls, rdtype,
                                comm, m->prev_alltoallv.module);
}
