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

/* Receives the one message a sender publishes in this call into buf; the ack waits
 * for my next call (or wait), off this call's critical path. */
int scc_flat_recv_single(scc_xport_t *x, int peer, uint32_t tag, void *buf, size_t len)
{
    scc_msg_hdr_t *h = scc_xport_wait(x, peer, tag);
    if (OPAL_UNLIKELY(NULL == h)) {
        return SCC_ERR_RESHAPE;     /* the call has another shape (x->shape_check) */
    }
    if (OPAL_UNLIKELY(h->len != len || h->kind >= SCC_MSG_CMA)) {
        /* not a single shared-memory message of that length: the general path */
        return scc_xport_recv(x, peer, tag, buf, len);
    }
    SCC_TRACED(SCC_PH_COPY, len, memcpy(buf, scc_xport_data(x, peer, tag, h), len));
    scc_xport_release_later(x, peer, tag);
    return OMPI_SUCCESS;
}

/* ------------------------------------------------------------ bcast */

/* The messages of a direct broadcast of `bytes`: one exposed single-copy, else pieces of
 * this many bytes (one when they all fit) -- the same on every rank from the same bytes. */
static size_t scc_bcast_flat_piece(const scc_xport_t *x, size_t bytes)
{
    return scc_single_copy(x, bytes) ? bytes : scc_xport_piece(x, bytes, x->pipe);
}

/* The root: the readers copy a piece while the root copies the next.  After a failure
 * (x->fail, buf NULL) the same messages go as poison. */
static int scc_bcast_flat_give(scc_xport_t *x, const char *buf, size_t bytes, scc_view_t *v)
{
    const size_t piece = scc_bcast_flat_piece(x, bytes);
    uint32_t tag = 0;
    int rc = OMPI_SUCCESS;

    if (scc_single_copy(x, bytes)) {
        scc_view_ready(x, v, bytes);
        return scc_xport_expose(x, 0, buf, bytes, x->size - 1, NULL, 0);
    }
    for (size_t off = 0; off < bytes; off += piece, ++tag) {
        scc_view_ready(x, v, off + piece);
        /* (after an error the rest goes as poison) */
        scc_xport_note(x, &rc, scc_xport_send(x, tag, NULL != buf ? buf + off : NULL,
                                              scc_min(bytes - off, piece), x->size - 1, false,
                                              NULL));
    }
    return rc;
}

/* A reader: every message of the root's `bytes` (the call's shape) is taken and
 * acknowledged; the first `cap` bytes land in buf (all of them, but in a rejoin whose root
 * sends more than this rank's count; none after x->fail).  SCC_ERR_RESHAPE when the first
 * message says the root's call has another shape (nothing taken). */
static int scc_bcast_flat_take(scc_xport_t *x, int root, char *buf, size_t bytes, size_t cap,
                               scc_view_t *v)
{
    const size_t piece = scc_bcast_flat_piece(x, bytes);
    uint32_t tag = 0;
    int rc = OMPI_SUCCESS;

    for (size_t off = 0; off < bytes; off += piece, ++tag) {
        const size_t len = scc_min(bytes - off, piece);
        const size_t keep = off < cap ? scc_min(len, cap - off) : 0;
        scc_msg_hdr_t *h = scc_xport_wait(x, root, tag);
        bool done;
        int r = scc_xport_take(x, root, tag, h, &done);

        if (SCC_ERR_RESHAPE == r) {
            return r;
        }
        if (!done) {
            if (SCC_MSG_CMA == h->kind) {
                r = scc_xport_read(x, root, h, 0, buf + off, keep);
            } else if (h->len != len) {
                r = MPI_ERR_TRUNCATE;
            } else if (keep > 0) {
                SCC_TRACED(SCC_PH_COPY, keep,
                           memcpy(buf + off, scc_xport_data(x, root, tag, h), keep));
            }
            if (len == bytes && SCC_MSG_CMA != h->kind) {
                scc_xport_release_later(x, root, tag);  /* the root's only message */
            } else {
                scc_xport_release(x, root, tag);
            }
            scc_view_to(v, off + keep);     /* (unpacked while the root sends the next) */
        }
        scc_xport_note(x, &rc, r);   /* (after an error the rest is only taken) */
    }
    return rc;
}

int mca_coll_scc_bcast_flat(mca_coll_scc_module_t *m, char *buf, size_t bytes, size_t cap,
                            int root, scc_view_t *v)
{
    scc_xport_t *x = m->xp;
    int rc;

    scc_xport_begin(x);
    rc = x->rank == root ? scc_bcast_flat_give(x, buf, bytes, v)
                         : scc_bcast_flat_take(x, root, buf, bytes, cap, v);
    return scc_xport_result(rc, scc_xport_end(x));
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
                /* the others read my published copies and combine: none can be told */
                rc = mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
            } else {
                SCC_TRACED(SCC_PH_COPY, cnt * dtsize, memcpy(keep, sbuf + off, cnt * dtsize));
                x->pv[me] = keep;
            }
        }
        if (OMPI_SUCCESS == rc) {
            scc_combine(op, x->pv, n, out + off, cnt, dtype);
        }
        scc_release_read(x, n, me, tag, count <= per);
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

    if (0 == cnt) {
        return OMPI_SUCCESS;    /* a reduce_scatter's empty block */
    }
    ompi_datatype_type_size(dtype, &dtsize);
    per = scc_min(cnt, (size_t) 65536 / dtsize + 1);
    bounce = mca_coll_scc_scratch(m, 2, 2 * per * dtsize);
    if (NULL == bounce) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
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

/* Two processes, single copy: the other's exposed input (tag 0) combined with mine into
 * rbuf.  Where the other's input may be the first operand (it is the last rank's, or op
 * commutes) and rbuf is not my input, it is read whole into rbuf and the other let go at
 * once -- it waits for no combine, as tuned's linear reduce lets its sender go -- then mine
 * is combined into it; else piece by piece through the bounce (scc_rs_cma). */
static int scc_pull_pair(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf, size_t count,
                         struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                         scc_msg_hdr_t **hdrs)
{
    scc_xport_t *x = m->xp;
    const int peer = 1 - x->rank;
    size_t dtsize;
    int rc;

    if (sbuf == rbuf || (peer < x->rank && !ompi_op_is_commute(op))) {
        rc = scc_rs_cma(m, sbuf, 0, count, rbuf, dtype, op, hdrs);
        scc_release_all(x, 0, hdrs);
        return rc;
    }
    ompi_datatype_type_size(dtype, &dtsize);
    rc = scc_xport_read(x, peer, hdrs[peer], 0, rbuf, count * dtsize);
    scc_release_all(x, 0, hdrs);
    if (OMPI_SUCCESS == rc && count > 0) {
        SCC_TRACED(SCC_PH_COMBINE, count * dtsize,
                   ompi_op_reduce(op, (void *) sbuf, rbuf, count, dtype));
    }
    return rc;
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
        int rmin = mca_coll_scc_config.rsag_min;
        if (rmin > 0 && count * dtsize >= (size_t) rmin
            && mca_coll_scc_rsag_fits(x, count, dtsize)) {
            rc = mca_coll_scc_allreduce_rsag(m, sbuf, rbuf, count, dtype, op);
        } else {
            rc = scc_reduce_slots(m, sbuf, rbuf, count, dtype, op, -1);
        }
        scc_xport_end(x);
        return rc;
    }
    if (2 == x->size && sbuf != rbuf) {
        /* two processes: each reads the other's input whole and combines it with its own,
           both in the same order (the same result) -- a reduce-scatter's halves would cost
           each a read of the other's fresh half besides.  In place, my input is my result:
           the other may still be reading it */
        scc_xport_expose(x, 0, sbuf, count * dtsize, 1, NULL, 0);
        scc_wait_all(x, 0, hdrs);
        rc = scc_pull_pair(m, sbuf, rbuf, count, dtype, op, hdrs);
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
    if (2 == x->size) {
        /* two processes: the root reads the other's input whole and combines it, as
           tuned's linear reduce does without its copy of the whole message; the other's
           half of a reduce-scatter would cost the root a read of its fresh result */
        rc = OMPI_SUCCESS;
        if (x->rank != root) {
            scc_xport_expose(x, 0, sbuf, count * dtsize, 1, NULL, 0);
        } else {
            scc_wait_all(x, 0, hdrs);
            rc = scc_pull_pair(m, sbuf, rbuf, count, dtype, op, hdrs);
        }
        scc_xport_end(x);
        return rc;
    }
    /* reduce-scatter into my segment (at the root: in rbuf) ... */
    scc_segment(count, x->size, x->rank, &first, &cnt);
    seg = x->rank == root ? rbuf + first * dtsize : mca_coll_scc_scratch(m, 0, cnt * dtsize + 1);
    if (NULL == seg) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
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

int mca_coll_scc_reduce_scatter_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                     size_t rcount, const size_t *at,
                                     struct ompi_datatype_t *dtype, struct ompi_op_t *op)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    size_t dtsize, total, mine, mcnt, most = rcount;
    scc_msg_hdr_t **hdrs = (scc_msg_hdr_t **) x->pv;
    int rc = OMPI_SUCCESS;

    ompi_datatype_type_size(dtype, &dtsize);
    total = (NULL != at ? at[n] : rcount * (size_t) n) * dtsize;
    scc_rs_block(rcount, at, me, &mine, &mcnt);
    scc_xport_begin(x);
    if (scc_single_copy_reduce(x, total)) {
        scc_xport_expose(x, 0, sbuf, total, n - 1, NULL, 0);
        scc_wait_all(x, 0, hdrs);
        rc = scc_rs_cma(m, sbuf, mine, mcnt, rbuf, dtype, op, hdrs);
        scc_release_all(x, 0, hdrs);
        scc_xport_end(x);
        return rc;
    }
    if (total <= x->slot_size) {
        /* one message each: everyone publishes its whole input and combines its own block
           of all of them, as small allreduces do */
        size_t off = mine * dtsize;
        rc = scc_xport_send(x, 0, sbuf, total, n - 1, false, NULL);
        for (int i = 0; i < n && OMPI_SUCCESS == rc; ++i) {
            x->pv[i] = (i == me ? sbuf : scc_xport_data(x, i, 0, scc_xport_wait(x, i, 0))) + off;
        }
        if (OMPI_SUCCESS == rc) {
            if (mcnt > 0) {
                scc_combine(op, x->pv, n, rbuf, mcnt, dtype);
            }
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
       copy, released at once, then combined in the fixed order.  Blocks of fewer pieces
       than the largest skip their steps past the end, on both sides alike. */
    if (NULL != at) {
        most = 0;
        for (int i = 0; i < n; ++i) {
            most = at[i + 1] - at[i] > most ? at[i + 1] - at[i] : most;
        }
    }
    size_t per = x->slot_size / dtsize, npieces = (most + per - 1) / per;
    char *stage = mca_coll_scc_scratch(m, 0, (size_t) n * per * dtsize);
    if (NULL == stage) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
    }
    for (size_t k = 0; k < npieces && OMPI_SUCCESS == rc; ++k) {
        size_t first = k * per, cnt = first < mcnt ? scc_min(per, mcnt - first) : 0;
        uint32_t tag = (uint32_t) (k * n + me);
        for (int j = 1; j < n && OMPI_SUCCESS == rc; ++j) {
            int b = (me + j) % n, i = (me - j + n) % n;
            size_t bfirst, bcnt;
            scc_rs_block(rcount, at, b, &bfirst, &bcnt);
            if (first < bcnt) {
                rc = scc_xport_send(x, (uint32_t) (k * n + b), sbuf + (bfirst + first) * dtsize,
                                    scc_min(per, bcnt - first) * dtsize, 1, false, NULL);
            }
            if (OMPI_SUCCESS == rc && cnt > 0) {
                rc = scc_xport_recv(x, i, tag, stage + (size_t) i * per * dtsize, cnt * dtsize);
            }
        }
        if (0 == cnt) {
            continue;
        }
        for (int i = 0; i < n; ++i) {
            x->pv[i] = i == me ? sbuf + (mine + first) * dtsize
                               : stage + (size_t) i * per * dtsize;
        }
        if (OMPI_SUCCESS == rc) {
            scc_combine(op, x->pv, n, rbuf + first * dtsize, cnt, dtype);
        }
    }
    scc_xport_end(x);
    return rc;
}
