/* coll_scc_flat.c: the direct ("flat") algorithms -- every rank reads what it needs straight
 * from the rank that has it: small messages through the sender's message slots, large ones
 * single-copy (process_vm_readv) from the sender's own buffer where the kernel allows it.
 *
 * Reductions combine the n contributions of an element in one fixed order,
 * v0 op (v1 op (... op v(n-1))), whichever rank computes it: results are the
 * same on every rank and from run to run, and non-commutative operations are
 * right as well. */
#include "coll_scc_flat.h"

#include <string.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

/* Messages of this many bytes move single-copy (they are read in place). */
static inline bool scc_single_copy(const scc_xport_t *x, size_t bytes)
{
    return x->cma && bytes >= x->cma_min;
}

/* The same for exchanges of one block per peer (gather, scatter, alltoall(v)): nobody waits
 * on the whole of one rank's message, so single copy pays from smaller blocks when the
 * processes share cores (coll_scc_cma_min auto). */
static inline bool scc_single_copy_blocks(const scc_xport_t *x, size_t bytes)
{
    return x->cma && bytes >= x->cma_a2a_min;
}

/* Reductions: from this many bytes on, the direct algorithms reduce-scatter what
 * they read single-copy; below, everyone's data through the slots. */
static inline bool scc_single_copy_reduce(const scc_xport_t *x, size_t bytes)
{
    return x->cma && bytes >= x->cma_reduce_min;
}

/* alltoallv: a table offset that points into the sender's slot, not its buffer */
#define SCC_IN_SLOT (1ull << 63)
/* alltoallv's pairwise rounds: piece numbers as tags wrap here (below the transport's
   reserved ids, far above any slot count) */
#define SCC_A2AV_TAG_SPAN (1ull << 31)

static inline size_t scc_min(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* Number of slot-sized pieces of a message (0 for an empty one). */
static inline size_t scc_npieces(const scc_xport_t *x, size_t bytes)
{
    return (bytes + x->slot_size - 1) / x->slot_size;
}

void scc_combine(struct ompi_op_t *op, const char **p, int n, char *acc, size_t count,
                 struct ompi_datatype_t *dtype)
{
    size_t sz;

    ompi_datatype_type_size(dtype, &sz);
    if (1 == n) {
        if (acc != p[0]) {
            SCC_TRACED(SCC_PH_COPY, count * sz, memcpy(acc, p[0], count * sz));
        }
        return;
    }
    scc_reduce3(op, p[n - 2], p[n - 1], acc, count, dtype);
    for (int i = n - 3; i >= 0; --i) {
        SCC_TRACED(SCC_PH_COMBINE, count * sz,
                   ompi_op_reduce(op, (void *) p[i], acc, count, dtype));
    }
}

/* Receives the one message a sender publishes in this call into buf; the ack waits
 * for my next call (or wait), off this call's critical path. */
static int scc_recv_single(scc_xport_t *x, int peer, uint32_t tag, void *buf, size_t len)
{
    scc_msg_hdr_t *h = scc_xport_wait(x, peer, tag);
    if (OPAL_UNLIKELY(h->len != len || SCC_MSG_CMA == h->kind)) {
        /* not a single shared-memory message of that length: the general path */
        return scc_xport_recv(x, peer, tag, buf, len);
    }
    SCC_TRACED(SCC_PH_COPY, len, memcpy(buf, scc_xport_data(x, peer, tag, h), len));
    scc_xport_release_later(x, peer, tag);
    return OMPI_SUCCESS;
}

/* ------------------------------------------------------------ bcast */

int mca_coll_scc_bcast_flat(mca_coll_scc_module_t *m, char *buf, size_t bytes, int root)
{
    scc_xport_t *x = m->xp;
    size_t piece = scc_xport_piece(x, bytes, x->pipe);
    int rc = OMPI_SUCCESS;

    scc_xport_begin(x);
    if (scc_single_copy(x, bytes)) {
        if (x->rank == root) {
            rc = scc_xport_expose(x, 0, buf, bytes, x->size - 1, NULL, 0);
        } else {
            scc_msg_hdr_t *h = scc_xport_wait(x, root, 0);
            rc = scc_xport_read(x, root, h, 0, buf, bytes);
            scc_xport_release(x, root, 0);
        }
    } else if (bytes <= piece) {
        if (x->rank == root) {
            rc = scc_xport_send(x, 0, buf, bytes, x->size - 1, false, NULL);
        } else {
            rc = scc_recv_single(x, root, 0, buf, bytes);
        }
    } else {
        /* pieces: the readers copy one while the root copies the next */
        uint32_t tag = 0;
        for (size_t off = 0; off < bytes && OMPI_SUCCESS == rc; off += piece, ++tag) {
            size_t len = scc_min(bytes - off, piece);
            if (x->rank == root) {
                rc = scc_xport_send(x, tag, buf + off, len, x->size - 1, false, NULL);
            } else {
                rc = scc_xport_recv(x, root, tag, buf + off, len);
            }
        }
    }
    scc_xport_end(x);
    return rc;
}

/* ------------------------------------------------------------ reductions through slots */

/* Every rank publishes its data chunk by chunk; ranks in `who` (all, or only the root)
 * combine all n contributions of each chunk into out.  root < 0: everyone combines. */
static int scc_reduce_slots(mca_coll_scc_module_t *m, const char *sbuf, char *out, size_t count,
                            struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    size_t dtsize, per;
    int rc = OMPI_SUCCESS;
    bool combine = root < 0 || root == me;

    ompi_datatype_type_size(dtype, &dtsize);
    per = (dtsize <= x->pipe ? x->pipe : x->slot_size) / dtsize;
    for (size_t first = 0, c = 0; first < count && OMPI_SUCCESS == rc; first += per, ++c) {
        size_t cnt = scc_min(per, count - first), off = first * dtsize;
        uint32_t tag = (uint32_t) c;
        if (root != me) {
            rc = scc_xport_send(x, tag, sbuf + off, cnt * dtsize, root < 0 ? n - 1 : 1, false,
                                NULL);
        }
        if (!combine) {
            continue;
        }
        for (int i = 0; i < n; ++i) {
            if (i == me) {
                /* my own contribution: the copy I published (out may alias sbuf) */
                x->pv[i] = root < 0
                               ? scc_xport_data(x, me, tag, scc_hdr(x, me, scc_slot_of(x, tag)))
                               : sbuf + off;
            } else {
                x->pv[i] = scc_xport_data(x, i, tag, scc_xport_wait(x, i, tag));
            }
        }
        if (root == me && sbuf == out && me < n - 1) {
            /* in place at the root: keep its own chunk before the sum overwrites it */
            char *keep = mca_coll_scc_scratch(m, 1, cnt * dtsize);
            if (NULL == keep) {
                rc = SCC_ERR_NO_MEM;
            } else {
                SCC_TRACED(SCC_PH_COPY, cnt * dtsize, memcpy(keep, sbuf + off, cnt * dtsize));
                x->pv[me] = keep;
            }
        }
        if (OMPI_SUCCESS == rc) {
            scc_combine(op, x->pv, n, out + off, cnt, dtype);
        }
        for (int i = 0; i < n; ++i) {
            if (i == me) {
                continue;
            }
            if (count <= per) {
                scc_xport_release_later(x, i, tag);   /* their only message of the call */
            } else {
                scc_xport_release(x, i, tag);
            }
        }
    }
    return rc;
}

/* ------------------------------------------------------------ reductions single-copy */

/* First and count of the elements of segment i when count elements are cut into n. */
static inline void scc_segment(size_t count, int n, int i, size_t *first, size_t *cnt)
{
    size_t lo = count * (size_t) i / (size_t) n, hi = count * (size_t) (i + 1) / (size_t) n;
    *first = lo;
    *cnt = hi - lo;
}

/* Reduce-scatter, single copy: every rank exposes its input (tag 0) and combines
 * elements [first, first+cnt) of all inputs into out, in pieces that stay in cache. */
static int scc_rs_cma(mca_coll_scc_module_t *m, const char *sbuf, size_t first, size_t cnt,
                      char *out, struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                      scc_msg_hdr_t **hdrs)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    size_t dtsize, per;
    char *bounce;
    int rc = OMPI_SUCCESS;

    ompi_datatype_type_size(dtype, &dtsize);
    per = scc_min(cnt, (size_t) 65536 / dtsize + 1);
    bounce = mca_coll_scc_scratch(m, 2, 2 * per * dtsize);
    if (NULL == bounce) {
        return SCC_ERR_NO_MEM;
    }
    for (size_t done = 0; done < cnt && OMPI_SUCCESS == rc; done += per) {
        size_t k = scc_min(per, cnt - done), off = (first + done) * dtsize, len = k * dtsize;
        char *acc = out + done * dtsize;
        char *mine = NULL;

        if (sbuf == out - first * dtsize || sbuf + off == acc) {
            /* my input and my result overlap: keep my piece before it is overwritten */
            mine = bounce + len;
            SCC_TRACED(SCC_PH_COPY, len, memcpy(mine, sbuf + off, len));
        }
        /* acc = v(n-1), then v(i) op acc downwards */
        if (n - 1 == me) {
            if (acc != sbuf + off) {
                SCC_TRACED(SCC_PH_COPY, len, memcpy(acc, mine ? mine : sbuf + off, len));
            }
        } else {
            rc = scc_xport_read(x, n - 1, hdrs[n - 1], off, acc, len);
        }
        for (int i = n - 2; i >= 0 && OMPI_SUCCESS == rc; --i) {
            const char *src;
            if (i == me) {
                src = mine ? mine : sbuf + off;
            } else {
                rc = scc_xport_read(x, i, hdrs[i], off, bounce, len);
                src = bounce;
            }
            SCC_TRACED(SCC_PH_COMBINE, len, ompi_op_reduce(op, (void *) src, acc, k, dtype));
        }
    }
    return rc;
}

/* Waits for every peer's exposed input (tag) and keeps their headers in hdrs. */
static void scc_wait_all(scc_xport_t *x, uint32_t tag, scc_msg_hdr_t **hdrs)
{
    for (int i = 0; i < x->size; ++i) {
        hdrs[i] = i == x->rank ? NULL : scc_xport_wait(x, i, tag);
    }
}

/* Done with every peer's message tag (scc_xport_release_read). */
static void scc_release_all(scc_xport_t *x, uint32_t tag, scc_msg_hdr_t **hdrs)
{
    for (int i = 0; i < x->size; ++i) {
        if (i != x->rank) {
            scc_xport_release_read(x, i, tag, hdrs[i]);
        }
    }
}

/* Waits until my readers are done with what I exposed (before I overwrite it). */
static void scc_wait_readers(scc_xport_t *x, uint32_t tag)
{
    scc_xport_wait_readers(x, scc_slot_of(x, tag));
}

int mca_coll_scc_allreduce_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                size_t count, struct ompi_datatype_t *dtype,
                                struct ompi_op_t *op)
{
    scc_xport_t *x = m->xp;
    size_t dtsize, first, cnt;
    scc_msg_hdr_t **hdrs = (scc_msg_hdr_t **) x->pv;
    int rc;

    ompi_datatype_type_size(dtype, &dtsize);
    scc_xport_begin(x);
    if (!scc_single_copy_reduce(x, count * dtsize)) {
        int rmin = mca_coll_scc_component.rsag_min;
        if (rmin > 0 && count * dtsize >= (size_t) rmin
            && mca_coll_scc_rsag_fits(x, count, dtsize)) {
            rc = mca_coll_scc_allreduce_rsag(m, sbuf, rbuf, count, dtype, op);
        } else {
            rc = scc_reduce_slots(m, sbuf, rbuf, count, dtype, op, -1);
        }
        scc_xport_end(x);
        return rc;
    }
    /* reduce-scatter: I combine my segment of everyone's input into my rbuf */
    scc_segment(count, x->size, x->rank, &first, &cnt);
    scc_xport_expose(x, 0, sbuf, count * dtsize, x->size - 1, NULL, 0);
    scc_wait_all(x, 0, hdrs);
    rc = scc_rs_cma(m, sbuf, first, cnt, rbuf + first * dtsize, dtype, op, hdrs);
    scc_release_all(x, 0, hdrs);
    if (sbuf == rbuf) {
        scc_wait_readers(x, 0);
    }
    /* allgather: everyone reads the others' segments */
    scc_xport_expose(x, 1, rbuf, count * dtsize, x->size - 1, NULL, 0);
    scc_wait_all(x, 1, hdrs);
    for (int i = 0; i < x->size && OMPI_SUCCESS == rc; ++i) {
        if (i != x->rank) {
            scc_segment(count, x->size, i, &first, &cnt);
            rc = scc_xport_read(x, i, hdrs[i], first * dtsize, rbuf + first * dtsize,
                                cnt * dtsize);
        }
    }
    scc_release_all(x, 1, hdrs);
    scc_xport_end(x);
    return rc;
}

int mca_coll_scc_reduce_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                             size_t count, struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                             int root)
{
    scc_xport_t *x = m->xp;
    size_t dtsize, first, cnt;
    scc_msg_hdr_t **hdrs = (scc_msg_hdr_t **) x->pv;
    char *seg;
    int rc;

    ompi_datatype_type_size(dtype, &dtsize);
    scc_xport_begin(x);
    if (!scc_single_copy_reduce(x, count * dtsize)) {
        rc = scc_reduce_slots(m, sbuf, rbuf, count, dtype, op, root);
        scc_xport_end(x);
        return rc;
    }
    /* reduce-scatter into my segment (at the root: in rbuf) ... */
    scc_segment(count, x->size, x->rank, &first, &cnt);
    seg = x->rank == root ? rbuf + first * dtsize : mca_coll_scc_scratch(m, 0, cnt * dtsize + 1);
    if (NULL == seg) {
        scc_xport_end(x);
        return SCC_ERR_NO_MEM;
    }
    scc_xport_expose(x, 0, sbuf, count * dtsize, x->size - 1, NULL, 0);
    scc_wait_all(x, 0, hdrs);
    rc = scc_rs_cma(m, sbuf, first, cnt, seg, dtype, op, hdrs);
    scc_release_all(x, 0, hdrs);
    /* ... then the root gathers the segments */
    if (x->rank != root) {
        scc_xport_expose(x, 1, seg, cnt * dtsize, 1, NULL, 0);
    } else {
        if (sbuf == rbuf) {
            scc_wait_readers(x, 0);
        }
        for (int i = 0; i < x->size && OMPI_SUCCESS == rc; ++i) {
            if (i != root) {
                scc_msg_hdr_t *h = scc_xport_wait(x, i, 1);
                scc_segment(count, x->size, i, &first, &cnt);
                rc = scc_xport_read(x, i, h, 0, rbuf + first * dtsize, cnt * dtsize);
                scc_xport_release(x, i, 1);
            }
        }
    }
    scc_xport_end(x);
    return rc;
}

int mca_coll_scc_reduce_scatter_block_flat(mca_coll_scc_module_t *m, const char *sbuf,
                                           char *rbuf, size_t rcount,
                                           struct ompi_datatype_t *dtype, struct ompi_op_t *op)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    size_t dtsize, total;
    scc_msg_hdr_t **hdrs = (scc_msg_hdr_t **) x->pv;
    int rc = OMPI_SUCCESS;

    ompi_datatype_type_size(dtype, &dtsize);
    total = rcount * dtsize * (size_t) n;
    scc_xport_begin(x);
    if (scc_single_copy_reduce(x, total)) {
        scc_xport_expose(x, 0, sbuf, total, n - 1, NULL, 0);
        scc_wait_all(x, 0, hdrs);
        rc = scc_rs_cma(m, sbuf, rcount * (size_t) me, rcount, rbuf, dtype, op, hdrs);
        scc_release_all(x, 0, hdrs);
        scc_xport_end(x);
        return rc;
    }
    if (total <= x->slot_size) {
        /* one message each: everyone publishes its whole input and combines its own block
           of all of them, as small allreduces do */
        size_t off = (size_t) me * rcount * dtsize;
        rc = scc_xport_send(x, 0, sbuf, total, n - 1, false, NULL);
        for (int i = 0; i < n && OMPI_SUCCESS == rc; ++i) {
            x->pv[i] = (i == me ? sbuf : scc_xport_data(x, i, 0, scc_xport_wait(x, i, 0))) + off;
        }
        if (OMPI_SUCCESS == rc) {
            scc_combine(op, x->pv, n, rbuf, rcount, dtype);
            for (int i = 0; i < n; ++i) {
                if (i != me) {
                    scc_xport_release_later(x, i, 0);  /* their only message of the call */
                }
            }
        }
        scc_xport_end(x);
        return rc;
    }
    /* through slots: rank b combines block b; piece k of block b travels under tag
       k * n + b in pairwise steps (send to me + j, receive from me - j) into a staging
       copy, released at once, then combined in the fixed order */
    size_t per = x->slot_size / dtsize, npieces = (rcount + per - 1) / per;
    char *stage = mca_coll_scc_scratch(m, 0, (size_t) n * per * dtsize);
    if (NULL == stage) {
        scc_xport_end(x);
        return SCC_ERR_NO_MEM;
    }
    for (size_t k = 0; k < npieces && OMPI_SUCCESS == rc; ++k) {
        size_t first = k * per, cnt = scc_min(per, rcount - first);
        uint32_t tag = (uint32_t) (k * n + me);
        for (int j = 1; j < n && OMPI_SUCCESS == rc; ++j) {
            int b = (me + j) % n, i = (me - j + n) % n;
            rc = scc_xport_send(x, (uint32_t) (k * n + b),
                                sbuf + ((size_t) b * rcount + first) * dtsize, cnt * dtsize, 1,
                                false, NULL);
            if (OMPI_SUCCESS == rc) {
                rc = scc_xport_recv(x, i, tag, stage + (size_t) i * per * dtsize, cnt * dtsize);
            }
        }
        for (int i = 0; i < n; ++i) {
            x->pv[i] = i == me ? sbuf + ((size_t) me * rcount + first) * dtsize
                               : stage + (size_t) i * per * dtsize;
        }
        if (OMPI_SUCCESS == rc) {
            scc_combine(op, x->pv, n, rbuf + first * dtsize, cnt, dtype);
        }
    }
    scc_xport_end(x);
    return rc;
}

/* ------------------------------------------------------------ data movement */

/* Messages tag of every other rank, taken in the order they arrive, so that a sender that
 * has not run yet (oversubscribed) holds up nobody behind it.  hdrs[i]: rank i's header once
 * taken (x->pv); the scan goes on after the last one found, so a call in which all have
 * arrived costs one pass. */
typedef struct scc_arrivals {
    scc_msg_hdr_t **hdrs;
    uint32_t tag;
    int left, next;
} scc_arrivals_t;

static void scc_arrivals_init(scc_arrivals_t *a, scc_xport_t *x, uint32_t tag)
{
    a->hdrs = (scc_msg_hdr_t **) x->pv;
    a->tag = tag;
    a->left = x->size - 1;
    a->next = (x->rank + 1) % x->size;
    for (int i = 0; i < x->size; ++i) {
        a->hdrs[i] = NULL;
    }
}

/* The next rank whose message has arrived (waiting for one), or -1 when all are taken. */
static int scc_arrivals_next(scc_xport_t *x, scc_arrivals_t *a)
{
    unsigned spins = 0;
    SCC_TRACE_T0(t0);

    if (0 == a->left) {
        return -1;
    }
    for (;;) {
        for (int k = 0; k < x->size; ++k) {
            int i = (a->next + k) % x->size;
            if (i != x->rank && NULL == a->hdrs[i]
                && NULL != (a->hdrs[i] = scc_xport_test(x, i, a->tag))) {
                a->next = (i + 1) % x->size;
                a->left--;
                if (spins > 0) {
                    SCC_TRACE_ADD(t0, SCC_PH_WAIT, 0);
                }
                return i;
            }
        }
        scc_xport_idle(x, &spins);
    }
}

/* Copies len bytes from offset off of each rank i's message to dst + i * len, as they
 * arrive. */
static int scc_take_arrivals(scc_xport_t *x, uint32_t tag, size_t off, char *dst, size_t len)
{
    scc_arrivals_t a;
    int i, rc = OMPI_SUCCESS;

    scc_arrivals_init(&a, x, tag);
    while ((i = scc_arrivals_next(x, &a)) >= 0) {
        char *to = dst + (size_t) i * len;
        if (OMPI_SUCCESS != rc) {
            /* still acknowledge, so that no sender waits forever */
        } else if (SCC_MSG_CMA == a.hdrs[i]->kind) {
            rc = scc_xport_read(x, i, a.hdrs[i], off, to, len);
        } else {
            SCC_TRACED(SCC_PH_COPY, len,
                       memcpy(to, scc_xport_data(x, i, tag, a.hdrs[i]) + off, len));
        }
        scc_xport_release_read(x, i, a.tag, a.hdrs[i]);
    }
    return rc;
}

int mca_coll_scc_gather_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                             size_t bytes, int root)
{
    scc_xport_t *x = m->xp;
    int rc = OMPI_SUCCESS;

    scc_xport_begin(x);
    if (x->rank != root) {
        if (scc_single_copy_blocks(x, bytes)) {
            rc = scc_xport_expose(x, 0, sbuf, bytes, 1, NULL, 0);
        } else {
            for (size_t k = 0, off = 0; off < bytes && OMPI_SUCCESS == rc;
                 ++k, off += x->slot_size) {
                rc = scc_xport_send(x, (uint32_t) k, sbuf + off,
                                    scc_min(x->slot_size, bytes - off), 1, false, NULL);
            }
        }
    } else {
        if (NULL != sbuf && sbuf != rbuf + (size_t) root * bytes) {
            SCC_TRACED(SCC_PH_COPY, bytes, memcpy(rbuf + (size_t) root * bytes, sbuf, bytes));
        }
        if (scc_single_copy_blocks(x, bytes) || bytes <= x->slot_size) {
            rc = scc_take_arrivals(x, 0, 0, rbuf, bytes);
        } else {
            for (int i = 0; i < x->size && OMPI_SUCCESS == rc; ++i) {
                char *dst = rbuf + (size_t) i * bytes;
                for (size_t k = 0, off = 0; i != root && off < bytes && OMPI_SUCCESS == rc;
                     ++k, off += x->slot_size) {
                    rc = scc_xport_recv(x, i, (uint32_t) k, dst + off,
                                        scc_min(x->slot_size, bytes - off));
                }
            }
        }
    }
    scc_xport_end(x);
    return rc;
}

int mca_coll_scc_scatter_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                              size_t bytes, int root)
{
    scc_xport_t *x = m->xp;
    const int n = x->size;
    size_t total = bytes * (size_t) n;
    int rc = OMPI_SUCCESS;

    scc_xport_begin(x);
    if (scc_single_copy_blocks(x, bytes) || total <= x->slot_size) {
        /* one message holds everything: each reads its part */
        if (x->rank == root) {
            rc = scc_single_copy_blocks(x, bytes)
                     ? scc_xport_expose(x, 0, sbuf, total, n - 1, NULL, 0)
                     : scc_xport_send(x, 0, sbuf, total, n - 1, false, NULL);
            if (NULL != rbuf && rbuf != sbuf + (size_t) root * bytes) {
                SCC_TRACED(SCC_PH_COPY, bytes, memcpy(rbuf, sbuf + (size_t) root * bytes, bytes));
            }
        } else {
            scc_msg_hdr_t *h = scc_xport_wait(x, root, 0);
            if (SCC_MSG_CMA == h->kind) {
                rc = scc_xport_read(x, root, h, (size_t) x->rank * bytes, rbuf, bytes);
            } else if (h->len != total) {
                rc = MPI_ERR_TRUNCATE;
            } else {
                SCC_TRACED(SCC_PH_COPY, bytes,
                           memcpy(rbuf, scc_xport_data(x, root, 0, h)
                                            + (size_t) x->rank * bytes, bytes));
            }
            scc_xport_release_read(x, root, 0, h);
        }
    } else {
        /* piece k for rank d: tag k * n + d, sent piece-major */
        size_t npieces = scc_npieces(x, bytes);
        for (size_t k = 0; k < npieces && OMPI_SUCCESS == rc; ++k) {
            size_t off = k * x->slot_size, len = scc_min(x->slot_size, bytes - off);
            if (x->rank == root) {
                for (int d = 0; d < n && OMPI_SUCCESS == rc; ++d) {
                    if (d != root) {
                        rc = scc_xport_send(x, (uint32_t) (k * n + d),
                                            sbuf + (size_t) d * bytes + off, len, 1, false, NULL);
                    }
                }
            } else {
                rc = scc_xport_recv(x, root, (uint32_t) (k * n + x->rank), rbuf + off, len);
            }
        }
        if (x->rank == root && NULL != rbuf && rbuf != sbuf + (size_t) root * bytes) {
            SCC_TRACED(SCC_PH_COPY, bytes, memcpy(rbuf, sbuf + (size_t) root * bytes, bytes));
        }
    }
    scc_xport_end(x);
    return rc;
}

int mca_coll_scc_allgather_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                size_t bytes)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    int rc = OMPI_SUCCESS;

    scc_xport_begin(x);
    if (scc_single_copy(x, bytes)) {
        /* readers read my block from the caller's send buffer (stable for the call) and
           my own copy into rbuf overlaps their reads */
        scc_xport_expose(x, 0, sbuf, bytes, n - 1, NULL, 0);
        if (sbuf != rbuf + (size_t) me * bytes) {
            SCC_TRACED(SCC_PH_COPY, bytes, memcpy(rbuf + (size_t) me * bytes, sbuf, bytes));
        }
        rc = scc_take_arrivals(x, 0, 0, rbuf, bytes);
    } else {
        if (sbuf != rbuf + (size_t) me * bytes) {
            SCC_TRACED(SCC_PH_COPY, bytes, memcpy(rbuf + (size_t) me * bytes, sbuf, bytes));
        }
        /* pieces: everyone reads piece k of every rank before piece k + 1 of any */
        size_t npieces = scc_npieces(x, bytes);
        for (size_t k = 0; k < npieces && OMPI_SUCCESS == rc; ++k) {
            size_t off = k * x->slot_size, len = scc_min(x->slot_size, bytes - off);
            rc = scc_xport_send(x, (uint32_t) k, rbuf + (size_t) me * bytes + off, len, n - 1,
                                false, NULL);
            for (int j = 1; j < n && OMPI_SUCCESS == rc; ++j) {
                int i = (me + j) % n;
                char *dst = rbuf + (size_t) i * bytes + off;
                rc = 1 == npieces ? scc_recv_single(x, i, (uint32_t) k, dst, len)
                                  : scc_xport_recv(x, i, (uint32_t) k, dst, len);
            }
        }
    }
    scc_xport_end(x);
    return rc;
}

int mca_coll_scc_alltoall_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                               size_t bytes)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    size_t total = bytes * (size_t) n;
    int rc = OMPI_SUCCESS;

    const bool single = scc_single_copy_blocks(x, bytes);

    scc_xport_begin(x);
    if (single || total <= x->slot_size) {
        /* everyone publishes its whole send buffer; each reads its block from each */
        if (single) {
            rc = scc_xport_expose(x, 0, sbuf, total, n - 1, NULL, 0);
        } else {
            rc = scc_xport_send(x, 0, sbuf, total, n - 1, false, NULL);
        }
        SCC_TRACED(SCC_PH_COPY, bytes,
                   memcpy(rbuf + (size_t) me * bytes, sbuf + (size_t) me * bytes, bytes));
        if (OMPI_SUCCESS == rc) {
            rc = scc_take_arrivals(x, 0, (size_t) me * bytes, rbuf, bytes);
        }
    } else {
        /* piece k of my block for rank d: tag k * n + d.  Step j sends to me + j and
           receives from me - j, so no rank ever has more than one message unread by a
           rank that waits for it (a round of n - 1 sends could exceed the slots) */
        size_t npieces = scc_npieces(x, bytes);
        SCC_TRACED(SCC_PH_COPY, bytes,
                   memcpy(rbuf + (size_t) me * bytes, sbuf + (size_t) me * bytes, bytes));
        for (size_t k = 0; k < npieces && OMPI_SUCCESS == rc; ++k) {
            size_t off = k * x->slot_size, len = scc_min(x->slot_size, bytes - off);
            for (int j = 1; j < n && OMPI_SUCCESS == rc; ++j) {
                int d = (me + j) % n, i = (me - j + n) % n;
                rc = scc_xport_send(x, (uint32_t) (k * n + d), sbuf + (size_t) d * bytes + off,
                                    len, 1, false, NULL);
                if (OMPI_SUCCESS == rc) {
                    rc = scc_xport_recv(x, i, (uint32_t) (k * n + me),
                                        rbuf + (size_t) i * bytes + off, len);
                }
            }
        }
    }
    scc_xport_end(x);
    return rc;
}

int mca_coll_scc_alltoallv_flat(mca_coll_scc_module_t *m, const char *sbuf,
                                const size_t *sbytes, const size_t *soff, char *rbuf,
                                const size_t *rbytes, const size_t *roff)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    int rc = OMPI_SUCCESS;

    if (rbytes[me] != sbytes[me]) {
        return MPI_ERR_TRUNCATE;
    }
    if (sbytes[me] > 0) {   /* a rank with nothing to send may pass no buffer */
        memcpy(rbuf + roff[me], sbuf + soff[me], sbytes[me]);
    }
    scc_xport_begin(x);
    if (x->cma && x->cma_a2a_min < SIZE_MAX
        && (size_t) n * 2 * sizeof(uint64_t) <= x->slot_size) {
        /* my send buffer in place, with each reader's (offset, length) beside it in my
           slot; blocks below the single-copy size are copied into the slot after that table while
           they fit (offset marked SCC_IN_SLOT), so small ones take no system call */
        const size_t tbytes = (size_t) n * 2 * sizeof(uint64_t);
        uint64_t *table = mca_coll_scc_scratch(m, 1, x->slot_size);
        size_t extent = 0, used = tbytes;
        if (NULL == table) {
            scc_xport_end(x);
            return SCC_ERR_NO_MEM;
        }
        for (int d = 0; d < n; ++d) {
            table[2 * d] = soff[d];
            table[2 * d + 1] = sbytes[d];
            if (d != me && sbytes[d] < x->cma_a2a_min && used + sbytes[d] <= x->slot_size) {
                if (sbytes[d] > 0) {
                    memcpy((char *) table + used, sbuf + soff[d], sbytes[d]);
                }
                table[2 * d] = SCC_IN_SLOT | used;
                used += sbytes[d];
            } else if (soff[d] + sbytes[d] > extent) {
                extent = soff[d] + sbytes[d];
            }
        }
        if (extent > 0) {
            rc = scc_xport_expose(x, 0, sbuf, extent, n - 1, table, used);
        } else {
            /* all of it in the slot: no reader to wait for at the end */
            rc = scc_xport_send(x, 0, table, used, n - 1, false, NULL);
        }
        scc_arrivals_t a;
        int i;
        scc_arrivals_init(&a, x, 0);
        while ((i = scc_arrivals_next(x, &a)) >= 0) {
            const char *data = scc_xport_data(x, i, 0, a.hdrs[i]);
            const uint64_t *t = (const uint64_t *) data;
            if (OMPI_SUCCESS != rc) {
                /* acknowledge the rest all the same */
            } else if (t[2 * me + 1] != rbytes[i]) {
                rc = MPI_ERR_TRUNCATE;
            } else if (t[2 * me] & SCC_IN_SLOT) {
                memcpy(rbuf + roff[i], data + (t[2 * me] & ~SCC_IN_SLOT), rbytes[i]);
            } else {
                rc = scc_xport_read(x, i, a.hdrs[i], t[2 * me], rbuf + roff[i], rbytes[i]);
            }
            scc_xport_release_read(x, i, a.tag, a.hdrs[i]);
        }
    } else {
        /* pairwise rounds: in round r I send to me + r and receive from me - r.  Each
           round is a call of its own on the transport (every rank runs all n - 1), so
           a piece is named by (round, piece number) for any n and no stale message of
           another round can match.  Piece numbers wrap at SCC_A2AV_TAG_SPAN: safe, as
           the slot of piece k has held a piece of the same pair with another number
           since piece k - SCC_A2AV_TAG_SPAN, read by the same reader (the span is far
           above the slot count). */
        for (int r = 1; r < n && OMPI_SUCCESS == rc; ++r) {
            int d = (me + r) % n, s = (me - r + n) % n;
            size_t sp = scc_npieces(x, sbytes[d]), rp = scc_npieces(x, rbytes[s]);
            if (r > 1) {
                scc_xport_end(x);
                scc_xport_begin(x);
            }
            for (size_t k = 0; k < sp || k < rp; ++k) {
                size_t off = k * x->slot_size;
                uint32_t tag = (uint32_t) (k % SCC_A2AV_TAG_SPAN);
                if (k < sp && OMPI_SUCCESS == rc) {
                    rc = scc_xport_send(x, tag, sbuf + soff[d] + off,
                                        scc_min(x->slot_size, sbytes[d] - off), 1, false, NULL);
                }
                if (k < rp && OMPI_SUCCESS == rc) {
                    rc = scc_xport_recv(x, s, tag, rbuf + roff[s] + off,
                                        scc_min(x->slot_size, rbytes[s] - off));
                }
            }
        }
    }
    scc_xport_end(x);
    return rc;
}

/* ------------------------------------------------------------ barrier */

/* The radix actually used: enough rounds must fit the flag lines. */
int mca_coll_scc_barrier_radix(int n, int radix)
{
    if (radix < 1 || radix > n - 1) {
        radix = n > 1 ? n - 1 : 1;
    }
    for (;;) {
        long reach = 1;
        for (int k = 0; k < SCC_BAR_LINES && reach < n; ++k) {
            reach *= radix + 1;
        }
        if (reach >= n) {
            return radix;
        }
        radix++;
    }
}

int mca_coll_scc_barrier_dissem(mca_coll_scc_module_t *m)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank, radix = x->bar_radix;
    uint64_t epoch = ++x->bar_epoch;

    /* a barrier waits anyway: settle owed acks now */
    if (x->nlater > 0) {
        scc_xport_flush_later(x, false);
    }
    for (long k = 0, dist = 1; dist < n; ++k, dist *= radix + 1) {
        scc_flag_set(x, &scc_ctrl(x, me)->bar[k].v, epoch);
        for (int j = 1; j <= radix && j * dist < n; ++j) {
            int peer = (int) ((me - j * dist % n + n) % n);
            scc_wait_ge(x, &scc_ctrl(x, peer)->bar[k].v, epoch);
        }
    }
    return OMPI_SUCCESS;
}

/* A flag tree (seeds/004): each rank waits for its children's arrival flags, raises
 * its own, then waits for its parent's release and releases its children.  The root
 * (rank 0) leaves first. */
int mca_coll_scc_barrier_tree(mca_coll_scc_module_t *m)
{
    scc_xport_t *x = m->xp;
    const int me = x->rank;
    uint64_t epoch = ++x->bar_epoch;
    int parent = scc_tree_parent(me, x->size, m->fanout, m->nlevels);
    int nchild = scc_tree_children(me, x->size, m->fanout, m->nlevels, m->children,
                                   SCC_TREE_MAX_CHILDREN);

    if (x->nlater > 0) {
        scc_xport_flush_later(x, false);
    }
    for (int i = 0; i < nchild; ++i) {
        scc_wait_ge(x, &scc_ctrl(x, m->children[i])->bar[0].v, epoch);
    }
    if (parent >= 0) {
        scc_flag_set(x, &scc_ctrl(x, me)->bar[0].v, epoch);
        scc_wait_ge(x, &scc_ctrl(x, parent)->bar[1].v, epoch);
    }
    scc_flag_set(x, &scc_ctrl(x, me)->bar[1].v, epoch);
    return OMPI_SUCCESS;
}
