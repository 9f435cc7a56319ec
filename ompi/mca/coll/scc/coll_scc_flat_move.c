/* coll_scc_flat_move.c: the direct exchanges, alltoall and alltoallv, and the arrivals
 * that every direct algorithm moving data without combining it takes (coll_scc_flat_parts.c):
 * each rank takes its peers' blocks as they arrive, through the slots or single-copy from
 * the sender's own buffer. */
#include "coll_scc_flat.h"

#include <string.h>

#include "ompi/datatype/ompi_datatype.h"

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

/* A rank with no part sends nothing: taken already. */
static void scc_arrivals_skip(scc_arrivals_t *a, int i)
{
    a->hdrs[i] = (scc_msg_hdr_t *) a;
    a->left--;
}

int scc_take_arrivals(scc_xport_t *x, uint32_t tag, size_t off, char *dst,
                      const scc_parts_t *parts, size_t cap, bool more, uint64_t *single)
{
    scc_arrivals_t a;
    int i, rc = OMPI_SUCCESS;

    scc_arrivals_init(&a, x, tag);
    for (i = 0; i < x->size; ++i) {
        if (i != x->rank && 0 == scc_part_len(parts, i)) {
            scc_arrivals_skip(&a, i);
        }
    }
    while ((i = scc_arrivals_next(x, &a)) >= 0) {
        scc_msg_hdr_t *h = a.hdrs[i];
        size_t len = scc_part_len(parts, i), want = scc_min(len, cap);
        char *to = dst + scc_part_off(parts, i);
        if (SCC_MSG_CMA == h->kind && NULL != single && i < SCC_WAY_RANKS) {
            /* (also after an error: no piece of it is to be waited for) */
            single[i / 64] |= (uint64_t) 1 << (i % 64);
        }
        if (OMPI_SUCCESS != rc) {
            /* still acknowledge, so that no sender waits forever */
        } else if (SCC_MSG_CMA == h->kind) {
            rc = scc_xport_read(x, i, h, off, to, len);
        } else if (h->kind >= SCC_MSG_POISON) {
            rc = SCC_MSG_POISON_CLASS(h->kind);
        } else if (h->len < off + want) {
            rc = MPI_ERR_TRUNCATE;
        } else {
            SCC_TRACED(SCC_PH_COPY, want, memcpy(to, scc_xport_data(x, i, tag, h) + off, want));
        }
        if (SCC_MSG_CMA != h->kind && (more || len > cap)) {
            /* its next message (piece) may need this slot in this call */
            scc_xport_release(x, i, tag);
        } else {
            scc_xport_release_read(x, i, a.tag, h);
        }
    }
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
            const scc_parts_t p = { NULL, NULL, bytes };
            rc = scc_take_arrivals(x, 0, (size_t) me * bytes, rbuf, &p, SIZE_MAX, false, NULL);
        }
    } else if (bytes <= x->slot_size && n <= x->nslots) {
        /* every block fits a slot and every peer gets a slot of its own: all go out at
           once (tag: the peer), then each rank takes its blocks as they arrive -- nobody
           waits for one peer at a time (oversubscribed, each handover of the rounds below
           waits for a process to be scheduled: 8 processes on 2 cores, 16 KB blocks, 54
           against 146-197 us) */
        SCC_TRACED(SCC_PH_COPY, bytes,
                   memcpy(rbuf + (size_t) me * bytes, sbuf + (size_t) me * bytes, bytes));
        for (int j = 1; j < n && OMPI_SUCCESS == rc; ++j) {
            int d = (me + j) % n;
            rc = scc_xport_send(x, (uint32_t) d, sbuf + (size_t) d * bytes, bytes, 1, false,
                                NULL);
        }
        if (OMPI_SUCCESS == rc) {
            const scc_parts_t p = { NULL, NULL, bytes };
            rc = scc_take_arrivals(x, (uint32_t) me, 0, rbuf, &p, SIZE_MAX, false, NULL);
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
    /* my block to myself is mine alone to get wrong: the exchange with the others goes on */
    const int self = rbytes[me] != sbytes[me] ? MPI_ERR_TRUNCATE : OMPI_SUCCESS;

    /* a rank with nothing to send may pass no buffer */
    if (OMPI_SUCCESS == self && sbytes[me] > 0) {
        memcpy(rbuf + roff[me], sbuf + soff[me], sbytes[me]);
    }
    scc_xport_begin(x);
    if (scc_xport_single_copy(x) && x->cma_table
        && (size_t) n * 2 * sizeof(uint64_t) <= x->slot_size) {
        /* my send buffer in place, with each reader's (offset, length) beside it in my
           slot; blocks below the single-copy size are copied into the slot after that table while
           they fit (offset marked SCC_IN_SLOT), so small ones take no system call, and where
           every peer can have a slot of its own the others that fit one go as messages of
           their own (SCC_OWN_SLOT; 8 processes on 2 cores, 16 KB: a reader's turn per block
           rather than a single-copy read whose sender waits for it) */
        const size_t tbytes = (size_t) n * 2 * sizeof(uint64_t);
        const bool own = n <= x->nslots;
        uint64_t *table = mca_coll_scc_scratch(m, 1, x->slot_size);
        size_t extent = 0, used = tbytes;
        if (NULL == table) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
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
            } else if (d != me && own && sbytes[d] < x->cma_a2a_min
                       && sbytes[d] <= x->slot_size) {
                table[2 * d] = SCC_OWN_SLOT;
                scc_xport_note(x, &rc, scc_xport_send(x, scc_a2av_own_tag(me, d, n),
                                                      sbuf + soff[d], sbytes[d], 1, false,
                                                      NULL));
            } else if (soff[d] + sbytes[d] > extent) {
                extent = soff[d] + sbytes[d];
            }
        }
        if (extent > 0) {
            scc_xport_note(x, &rc, scc_xport_expose(x, 0, sbuf, extent, n - 1, table, used));
        } else {
            /* all of it in the slots: no reader to wait for at the end */
            scc_xport_note(x, &rc, scc_xport_send(x, 0, table, used, n - 1, false, NULL));
        }
        scc_arrivals_t a;
        int i;
        scc_arrivals_init(&a, x, 0);
        while ((i = scc_arrivals_next(x, &a)) >= 0) {
            const scc_msg_hdr_t *h = a.hdrs[i];
            const char *data = scc_xport_data(x, i, 0, a.hdrs[i]);
            const uint64_t *t = (const uint64_t *) data;
            const uint32_t otag = scc_a2av_own_tag(i, me, n);
            if (h->kind >= SCC_MSG_POISON) {
                /* its sender failed: its table says nothing, but a block it sent me as a
                   message of its own went out before it, and its slot must come free */
                scc_xport_note(x, &rc, SCC_MSG_POISON_CLASS(h->kind));
                if (own && NULL != scc_xport_test(x, i, otag)) {
                    (void) scc_xport_recv(x, i, otag, rbuf + roff[i], rbytes[i]);
                }
            } else if (t[2 * me] & SCC_OWN_SLOT) {
                /* taken even after an error, for the same reason (a block of another
                   length is dropped: MPI_ERR_TRUNCATE) */
                scc_xport_note(x, &rc, scc_xport_recv(x, i, otag, rbuf + roff[i], rbytes[i]));
            } else if (OMPI_SUCCESS != rc) {
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
    return OMPI_SUCCESS != rc ? rc : self;
}

/* Tag of piece j of my block for peer p in the in-place exchange: the first pieces sent at
 * once take tags 0..n-1 (the peer), the rest these, unique per pair within a call (they
 * wrap far above any slot count, below the transport's reserved ids). */
static inline uint32_t scc_inplace_tag(int n, size_t j, int p)
{
    const size_t span = (SCC_A2AV_TAG_SPAN - (size_t) n) / (size_t) n - 1;
    return (uint32_t) ((size_t) n + (j % span) * (size_t) n + (size_t) p);
}

/* Largest message of the in-place exchange over the pml: a block goes whole below it. */
#define SCC_INPLACE_PML_PIECE ((size_t) 1 << 30)

int mca_coll_scc_alltoallv_inplace(mca_coll_scc_module_t *m, char *buf, const size_t *bytes,
                                   const size_t *off)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    /* (the same on every rank: there are slots, and every peer on the node can have one) */
    const bool first = !scc_xport_all_pml(x) && n <= x->nslots;
    /* over the pml each round is a call of its own: a message sent from a copy (its place
       is overwritten right after) holds that copy until its call ends */
    const bool rounds = 0 != (x->caps & SCC_XPORT_CAP_PML);
    const bool copy = x->send_copy;
    size_t j0 = 0;
    int rc = OMPI_SUCCESS;

    x->send_copy = true;
    scc_xport_begin(x);
    if (first) {
        /* every block's first piece to a peer on this node leaves at once (its slot holds the
           copy), then each rank takes its peers' as they arrive */
        size_t *len = mca_coll_scc_scratch(m, 1, (size_t) n * sizeof(size_t));
        if (NULL == len) {
            x->send_copy = copy;
            scc_xport_end(x);
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
        }
        j0 = 1;
        for (int d = 0; d < n; ++d) {
            len[d] = d != me && !scc_xport_by_pml(x, d) ? scc_min(x->slot_size, bytes[d]) : 0;
            if (len[d] > 0) {
                scc_xport_note(x, &rc, scc_xport_send(x, (uint32_t) d, buf + off[d], len[d], 1,
                                                      false, &d));
            }
        }
        const scc_parts_t p = { len, off, 0 };
        scc_xport_note(x, &rc, scc_take_arrivals(x, (uint32_t) me, 0, buf, &p, SIZE_MAX, true,
                                                 NULL));
    }
    /* round k: rank r swaps with (k - r) mod n, which swaps with r; idle with itself */
    for (int k = 0; k < n; ++k) {
        const int p = ((k - me) % n + n) % n;
        const bool pml = scc_xport_by_pml(x, p);
        const size_t piece = pml ? SCC_INPLACE_PML_PIECE : x->slot_size;
        if (rounds && k > 0) {
            rc = scc_xport_result(rc, scc_xport_end(x));
            scc_xport_begin(x);
            scc_xport_note(x, &rc, rc);    /* (after a failure the rest goes without data) */
        }
        if (p == me) {
            continue;
        }
        for (size_t j = pml ? 0 : j0; j * piece < bytes[p]; ++j) {
            /* this piece leaves before the peer's lands on it */
            const size_t at = off[p] + j * piece, len = scc_min(piece, bytes[p] - j * piece);
            scc_xport_note(x, &rc, scc_xport_send(x, scc_inplace_tag(n, j, p), buf + at, len, 1,
                                                  false, &p));
            scc_xport_note(x, &rc, scc_xport_recv(x, p, scc_inplace_tag(n, j, me), buf + at,
                                                  len));
        }
    }
    x->send_copy = copy;
    return scc_xport_result(rc, scc_xport_end(x));
}
