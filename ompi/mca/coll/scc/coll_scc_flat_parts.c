/* coll_scc_flat_parts.c: the direct gather, scatter and allgather, for parts of any size at
 * any offset (the v-variants; the fixed-size ones are the case of equal parts): each rank
 * takes its peers' parts as they arrive, through the slots or single-copy from the sender's
 * own buffer. */
#include "coll_scc_flat.h"
#include "coll_scc_drain.h"

#include <string.h>
#include <time.h>

#include "ompi/datatype/ompi_datatype.h"

/* scatterv's table: a reader's entry is (where, length); where is an offset in the root's
 * exposed buffer, or one of these */
#define SCC_PART_PIECES (1ull << 62)   /* in pieces after the table (tags below) */
#define SCC_PART_MORE (1ull << 61)     /* (any entry) the root sends pieces in this call */
#define SCC_PART_ALONE (1ull << 60)    /* sent alone (tag 1 + d), after the table */
#define SCC_PART_WHERE (~(SCC_IN_SLOT | SCC_PART_PIECES | SCC_PART_MORE | SCC_PART_ALONE))

/* Pieces of a part that travels through the slots: piece k of rank d's part is tag
 * base + k * n + d. */
static inline uint32_t scc_piece_tag(uint32_t base, size_t k, int n, int d)
{
    return base + (uint32_t) (k * (size_t) n + (size_t) d);
}

/* Sends pieces from..npieces of len bytes at buf (tags base + k * n + d); after an error
 * the rest go as poison (x->fail), so that the reader does not wait for them. */
static int scc_send_pieces(scc_xport_t *x, uint32_t base, int d, size_t from, const char *buf,
                           size_t len, scc_view_t *v)
{
    int rc = OMPI_SUCCESS;
    for (size_t k = from, off = from * x->slot_size; off < len; ++k, off += x->slot_size) {
        scc_view_ready(x, v, off + x->slot_size);   /* (v: packed as it goes) */
        scc_xport_note(x, &rc, scc_xport_send(x, scc_piece_tag(base, k, x->size, d), buf + off,
                                              scc_min(x->slot_size, len - off), 1, false,
                                              NULL));
    }
    return rc;
}

/* Receives pieces from..npieces of len bytes from peer into buf, which lies at byte at of
 * view v (unpacked as they come: the view is there already); after an error the rest is
 * still taken, so that the sender does not wait for its slots. */
static int scc_recv_pieces(scc_xport_t *x, int peer, uint32_t base, int d, size_t from,
                           char *buf, size_t len, scc_view_t *v, size_t at)
{
    int rc = OMPI_SUCCESS;
    for (size_t k = from, off = from * x->slot_size; off < len; ++k, off += x->slot_size) {
        scc_xport_note(x, &rc, scc_xport_recv(x, peer, scc_piece_tag(base, k, x->size, d),
                                              buf + off, scc_min(x->slot_size, len - off)));
        if (OMPI_SUCCESS == rc) {
            scc_view_to(v, at + scc_min(off + x->slot_size, len));
        }
    }
    return rc;
}

/* Whether rank i's part came single copy (its bit in single, noted from its first header;
 * beyond SCC_WAY_RANKS the size rule every sender keeps to there). */
static inline bool scc_came_single(const uint64_t *single, int i, bool rule)
{
    return i < SCC_WAY_RANKS ? 0 != (single[i / 64] & ((uint64_t) 1 << (i % 64))) : rule;
}

/* ------------------------------------------------------------ gather(v) */

/* Every sender publishes its part single-copy or in slot pieces (tags k, one sender per
 * slot region); the root takes the first of each as they arrive, the rest in rank order,
 * each unpacked piece by piece where its view is not contiguous.  A sender whose own view
 * is not contiguous sends pieces where the rule says single copy (it would pack the whole
 * part first, and the root would read it whole, then unpack it: three passes over memory
 * where pieces make one, in cache), and so does a sender whose call failed (its poisoned
 * pieces then end the root's wait): the root learns the way from the first header. */
int mca_coll_scc_gatherv_flat(mca_coll_scc_module_t *m, const char *sbuf, size_t sbytes,
                              char *rbuf, const scc_parts_t *parts, int root, scc_view_t *v)
{
    scc_xport_t *x = m->xp;
    int rc = OMPI_SUCCESS;

    scc_xport_begin(x);
    if (x->rank != root) {
        if (0 == sbytes) {
            /* nothing to publish: the root knows */
        } else if (scc_single_copy_gather(x, sbytes)
                   && ((0 == x->fail && (NULL == v || !v->lazy))
                       || x->rank >= SCC_WAY_RANKS)) {
            scc_view_ready(x, v, sbytes);
            scc_xport_note(x, &rc, scc_xport_expose(x, 0, sbuf, sbytes, 1, NULL, 0));
        } else {
            rc = scc_send_pieces(x, 0, 0, 0, sbuf, sbytes, v);
        }
    } else {
        size_t mine = scc_part_len(parts, root);
        char *at = rbuf + scc_part_off(parts, root);
        uint64_t single[SCC_WAY_RANKS / 64] = { 0 };
        if (NULL != sbuf && sbytes != mine) {
            rc = MPI_ERR_TRUNCATE;
        }
        /* (the senders' first, then my own part: a sender read single copy goes on at
           once, not after my copy too) */
        scc_xport_note(x, &rc,
                       scc_take_arrivals(x, 0, 0, rbuf, parts, x->slot_size, false, single));
        if (OMPI_SUCCESS == rc && NULL != sbuf && sbuf != at && mine > 0) {
            SCC_TRACED(SCC_PH_COPY, mine, memcpy(at, sbuf, mine));
        }
        for (int i = 0; i < x->size; ++i) {
            size_t len = scc_part_len(parts, i);
            if (i != root && len > x->slot_size
                && !scc_came_single(single, i, scc_single_copy_gather(x, len))) {
                scc_xport_note(x, &rc,
                               scc_recv_pieces(x, i, 0, 0, 1, rbuf + scc_part_off(parts, i), len,
                                               v, scc_part_off(parts, i)));
            }
            /* (v: the parts lie in rank order, those before i are complete: unpacked
               while the next ones arrive; the root's own, without sbuf, is there) */
            if (i == root && NULL == sbuf) {
                scc_view_skip(v, scc_part_off(parts, i) + len);
            } else {
                scc_view_to(v, scc_part_off(parts, i) + len);
            }
        }
    }
    return scc_xport_result(rc, scc_xport_end(x));
}

/* ------------------------------------------------------------ scatter(v) */

/* Copies the parts that travel beside the table to their place after it at dst. */
static void scc_scatterv_inline(char *dst, const uint64_t *table, int n, const char *sbuf,
                                const scc_parts_t *parts)
{
    for (int d = 0; d < n; ++d) {
        if (table[2 * d] & SCC_IN_SLOT) {
            SCC_TRACED(SCC_PH_COPY, table[2 * d + 1],
                       memcpy(dst + (table[2 * d] & SCC_PART_WHERE),
                              sbuf + scc_part_off(parts, d), table[2 * d + 1]));
        }
    }
}

/* Equal parts (every rank knows it: MPI_Scatter) that all fit one slot need no table: the
 * root's buffer is the message, each reads its part at its rank's place. */
static inline bool scc_scatter_packed(const scc_xport_t *x, const scc_parts_t *parts)
{
    return NULL == parts->len && parts->each * (size_t) x->size <= x->slot_size
           && !scc_single_copy_blocks(x, parts->each);
}

/* Parts up to this many bytes travel to their reader alone (tag 1 + d): no table to build
 * and read, and a part of up to SCC_INLINE_MAX bytes rides in the header line the reader
 * waits on -- the eager send of a point-to-point scatterv.  Root and reader decide by the
 * part's size, which both know; an empty part sends nothing.  A reader whose count puts its
 * part on the other side than the root's (the caller's error) waits for both ways. */
#define SCC_SCATTERV_DIRECT_MAX 512

static inline bool scc_scatterv_direct(const scc_xport_t *x, size_t len)
{
    return len > 0 && len <= scc_min(x->slot_size, SCC_SCATTERV_DIRECT_MAX)
           && !scc_single_copy_blocks(x, len);
}

/* The parts that go alone, after anything else the root sends in the call (with the
 * table): where every message of the call has a slot of its own (n + 1 <= nslots), the
 * reader's ack waits for its next call (scc_flat_recv_single). */
static int scc_scatterv_alone(scc_xport_t *x, const char *sbuf, const scc_parts_t *parts)
{
    int rc = OMPI_SUCCESS;
    for (int d = 0; d < x->size; ++d) {
        size_t len = d != x->rank ? scc_part_len(parts, d) : 0;
        if (scc_scatterv_direct(x, len)) {
            scc_xport_note(x, &rc, scc_xport_send(x, scc_piece_tag(1, 0, x->size, d),
                                                  sbuf + scc_part_off(parts, d), len, 1, false,
                                                  NULL));
        }
    }
    return rc;
}

/* Piece k of rank d's part (tag base + k * n + d), packed first where v is not contiguous. */
static int scc_scatterv_piece(scc_xport_t *x, scc_view_t *v, const char *sbuf,
                              const scc_parts_t *parts, int d, size_t k, uint32_t base)
{
    size_t at = scc_part_off(parts, d) + k * x->slot_size;
    size_t len = scc_min(x->slot_size, scc_part_len(parts, d) - k * x->slot_size);

    scc_view_ready_at(x, v, at, at + len);
    return scc_xport_send(x, scc_piece_tag(base, k, x->size, d), sbuf + at, len, 1, false,
                          NULL);
}

/* A reader knows its own part's size, not where it lies: small parts go alone (above);
 * for the others the root publishes a table, an entry per rank (the parts sent alone
 * marked), in one message (tag 0) with the parts that fit beside it, which every rank with
 * a part reads (a small part's reader, to learn that its part went alone: a count on the
 * other side of the cutoff, the caller's error, ends the call all the same); large parts
 * are read single-copy from the root's buffer (exposed with the table) or come in pieces
 * (tags 1 + n + k * n + d: never a tag of a part alone).  Where the table does not fit a
 * slot, every part comes in pieces (tags 1 + k * n + d). */
static int scc_scatterv_give(scc_xport_t *x, mca_coll_scc_module_t *m, const char *sbuf,
                             const scc_parts_t *parts, scc_view_t *v)
{
    const int n = x->size, me = x->rank;
    const size_t tbytes = (size_t) n * 2 * sizeof(uint64_t);
    size_t used = tbytes, lo = SIZE_MAX, hi = 0, pieces = 0;
    uint64_t *table;
    int rc = OMPI_SUCCESS, readers = 0, large = 0;

    if (scc_scatter_packed(x, parts)) {
        scc_view_ready(x, v, parts->each * (size_t) n);
        return scc_xport_send(x, 0, sbuf, parts->each * (size_t) n, n - 1, false, NULL);
    }
    if (tbytes <= x->slot_size) {
        for (int d = 0; d < n; ++d) {
            size_t len = d != me ? scc_part_len(parts, d) : 0;
            readers += len > 0;
            large += len > 0 && !scc_scatterv_direct(x, len);
        }
        if (0 == large) {
            scc_view_ready(x, v, SIZE_MAX);
            return scc_scatterv_alone(x, sbuf, parts);
        }
    }
    if (tbytes > x->slot_size) {
        for (size_t k = 0;; ++k) {
            bool any = false;
            for (int d = 0; d < n; ++d) {
                size_t len = scc_part_len(parts, d), off = k * x->slot_size;
                if (d != me && off < len) {
                    any = true;
                    scc_xport_note(x, &rc, scc_scatterv_piece(x, v, sbuf, parts, d, k, 1));
                }
            }
            if (!any) {
                break;
            }
        }
        return rc;
    }
    table = mca_coll_scc_scratch(m, 1, x->slot_size);
    if (NULL == table) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
    }
    for (int d = 0; d < n; ++d) {
        size_t len = d != me ? scc_part_len(parts, d) : 0, off = scc_part_off(parts, d);
        table[2 * d] = scc_scatterv_direct(x, len) ? SCC_PART_ALONE : 0;   /* (sent last) */
        table[2 * d + 1] = len;
        if (0 == len || table[2 * d]) {
            continue;
        }
        if (scc_single_copy_blocks(x, len) && (NULL == v || !v->lazy)) {
            /* (a view not contiguous sends pieces, packed one by one: exposed, it would be
               packed whole first, and read whole, then unpacked) */
            table[2 * d] = off;
            lo = scc_min(lo, off);
            hi = off + len > hi ? off + len : hi;
        } else if (used + len <= x->slot_size) {
            table[2 * d] = SCC_IN_SLOT | used;
            used += len;
        } else {
            table[2 * d] = SCC_PART_PIECES;
            pieces = scc_max(pieces, scc_npieces(x, len));
        }
    }
    for (int d = 0; d < n; ++d) {
        if (table[2 * d + 1] > 0
            && 0 == (table[2 * d] & (SCC_IN_SLOT | SCC_PART_PIECES | SCC_PART_ALONE))) {
            table[2 * d] -= lo;     /* single copy: from the start of what is exposed */
        }
        if (pieces > 0) {
            table[2 * d] |= SCC_PART_MORE;
        }
    }
    {
        /* parts beside the table, exposed or alone: all of them packed first; else the
           pieces are, one by one */
        bool whole = 0 != hi || used > tbytes;
        for (int d = 0; d < n && !whole; ++d) {
            whole = 0 != (table[2 * d] & SCC_PART_ALONE);
        }
        if (whole) {
            scc_view_ready(x, v, SIZE_MAX);
        }
    }
    if (0 == hi && 0 == x->fail) {
        /* the table and the small parts straight into my slot */
        char *dst = scc_xport_send_slot(x, 0, used);
        memcpy(dst, table, tbytes);
        scc_scatterv_inline(dst, table, n, sbuf, parts);
        scc_xport_send_publish(x, 0, used, readers);
    } else {
        scc_scatterv_inline((char *) table, table, n, sbuf, parts);
        scc_xport_note(x, &rc, hi > 0 ? scc_xport_expose(x, 0, sbuf + lo, hi - lo, readers,
                                                         table, used)
                                      : scc_xport_send(x, 0, table, used, readers, false, NULL));
    }
    /* piece-major: every reader gets its first piece before anyone its second */
    for (size_t k = 0; k < pieces; ++k) {
        for (int d = 0; d < n; ++d) {
            size_t len = table[2 * d + 1], off = k * x->slot_size;
            if ((table[2 * d] & SCC_PART_PIECES) && off < len) {
                scc_xport_note(x, &rc, scc_scatterv_piece(x, v, sbuf, parts, d, k, 1 + n));
            }
        }
    }
    scc_xport_note(x, &rc, scc_scatterv_alone(x, sbuf, parts));
    return rc;
}

/* A reader's part by the root's table (header h, tag 0; NULL: gone).  The table counts
 * every rank the root has a part for; a reader it does not count (the root has none for it:
 * the caller's error) must not acknowledge it, and trusts no entry once the table is gone (a
 * root past the call reuses the slot: the entry read, the header read again says). */
static int scc_scatterv_by_table(scc_xport_t *x, int root, scc_msg_hdr_t *h, char *rbuf,
                                 size_t rbytes, scc_view_t *v)
{
    const int n = x->size, me = x->rank;
    const uint64_t *t;
    uint64_t where, len;
    int rc = OMPI_SUCCESS;

    if (NULL == h) {
        return MPI_ERR_TRUNCATE;
    }
    if (h->kind >= SCC_MSG_POISON) {
        scc_xport_release(x, root, 0);
        return SCC_MSG_POISON_CLASS(h->kind);
    }
    t = (const uint64_t *) scc_xport_data(x, root, 0, h);
    where = ((const volatile uint64_t *) t)[2 * me];
    len = ((const volatile uint64_t *) t)[2 * me + 1];
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (0 == len || !scc_hdr_is(x, h, 0)) {
        return MPI_ERR_TRUNCATE;
    }
    if (where & SCC_PART_ALONE) {
        /* the root sends it after the table, maybe in the table's slot: acknowledged now
           (of another length where my count is not small) */
        scc_xport_release(x, root, 0);
        return scc_xport_recv(x, root, scc_piece_tag(1, 0, n, me), rbuf, rbytes);
    }
    if (len != rbytes) {
        rc = MPI_ERR_TRUNCATE;
    } else if (where & SCC_IN_SLOT) {
        SCC_TRACED(SCC_PH_COPY, len, memcpy(rbuf, (const char *) t + (where & SCC_PART_WHERE),
                                            len));
    } else if (0 == (where & SCC_PART_PIECES) && len > 0) {
        rc = scc_xport_read(x, root, h, where & SCC_PART_WHERE, rbuf, len);
    }
    if (where & SCC_PART_MORE) {
        /* the root's pieces may need this slot in this call */
        scc_xport_release(x, root, 0);
    } else {
        scc_xport_release_read(x, root, 0, h);
    }
    if (where & SCC_PART_PIECES) {
        if (OMPI_SUCCESS == rc) {
            rc = scc_recv_pieces(x, root, 1 + n, me, 0, rbuf, len, v, 0);
        } else {
            /* the root sends them all the same: take them without data */
            for (size_t k = 0, off = 0; off < len; ++k, off += x->slot_size) {
                uint32_t tag = scc_piece_tag(1 + n, k, n, me);
                if (NULL != scc_xport_wait(x, root, tag)) {
                    scc_xport_release(x, root, tag);
                }
            }
        }
    }
    return rc;
}

static int scc_scatterv_take(scc_xport_t *x, int root, const scc_parts_t *parts, char *rbuf,
                             size_t rbytes, scc_view_t *v)
{
    const int n = x->size, me = x->rank;
    const uint32_t alone = scc_piece_tag(1, 0, n, me);
    scc_msg_hdr_t *h;
    int rc = OMPI_SUCCESS;

    if (scc_scatter_packed(x, parts)) {
        h = scc_xport_wait(x, root, 0);
        if (NULL == h) {
            return SCC_ERR_RESHAPE;
        }
        if (h->kind >= SCC_MSG_POISON) {
            rc = SCC_MSG_POISON_CLASS(h->kind);
        } else if (h->len != parts->each * (size_t) n || rbytes != parts->each) {
            rc = MPI_ERR_TRUNCATE;
        } else {
            SCC_TRACED(SCC_PH_COPY, rbytes,
                       memcpy(rbuf, scc_xport_data(x, root, 0, h) + (size_t) me * rbytes,
                              rbytes));
        }
        scc_xport_release_read(x, root, 0, h);
        return rc;
    }

    if (0 == rbytes) {
        return OMPI_SUCCESS;    /* nothing comes */
    }
    if ((size_t) n * 2 * sizeof(uint64_t) > x->slot_size) {
        return scc_recv_pieces(x, root, 1, me, 0, rbuf, rbytes, v, 0);
    }
    /* my part alone, or the table: the one my count says, or the other where the root's
       part is on the other side of the cutoff; the table goes first, and a part alone after
       it has its reader counted there */
    if (scc_scatterv_direct(x, rbytes)) {
        if (0 == scc_xport_wait_either(x, root, alone, 0)) {
            return scc_scatterv_by_table(x, root, scc_xport_test(x, root, 0), rbuf, rbytes, v);
        }
        h = scc_xport_test(x, root, 0);
        if (OPAL_UNLIKELY(NULL != h)) {
            return scc_scatterv_by_table(x, root, h, rbuf, rbytes, v);
        }
        return n + 1 <= x->nslots ? scc_flat_recv_single(x, root, alone, rbuf, rbytes)
                                  : scc_xport_recv(x, root, alone, rbuf, rbytes);
    }
    if (alone == scc_xport_wait_either(x, root, 0, alone)
        && NULL == scc_xport_test(x, root, 0)) {
        return scc_xport_recv(x, root, alone, rbuf, rbytes);    /* (of another length) */
    }
    return scc_scatterv_by_table(x, root, scc_xport_test(x, root, 0), rbuf, rbytes, v);
}

int mca_coll_scc_scatterv_flat(mca_coll_scc_module_t *m, const char *sbuf,
                               const scc_parts_t *parts, char *rbuf, size_t rbytes, int root,
                               scc_view_t *v)
{
    scc_xport_t *x = m->xp;
    int rc;

    scc_xport_begin(x);
    if (x->rank == root) {
        const char *mine = sbuf + scc_part_off(parts, root);
        rc = scc_scatterv_give(x, m, sbuf, parts, v);
        if (NULL != rbuf && rbytes != scc_part_len(parts, root)) {
            rc = OMPI_SUCCESS == rc ? MPI_ERR_TRUNCATE : rc;
        } else if (NULL != rbuf && rbuf != mine && rbytes > 0) {
            SCC_TRACED(SCC_PH_COPY, rbytes, memcpy(rbuf, mine, rbytes));
        }
    } else {
        rc = scc_scatterv_take(x, root, parts, rbuf, rbytes, v);
    }
    return scc_xport_result(rc, scc_xport_end(x));
}

/* ------------------------------------------------------------ allgather(v) */

/* How this call's parts go: by coll_scc_cma_min's rule, or -- where single copy works,
 * every process has a core of its own and a part has 128 KB or more -- every such part the
 * same way, the faster so far (coll_scc_cma_adapt, coll_scc_learn.c): rank 0 times the
 * blocking calls and publishes the faster way per size class in its ways line. */
typedef struct scc_ag_way {
    int learnt;                     /* -1: the rule; else the way of parts from SCC_LEARN_MIN */
    int bucket;                     /* the call's class */
    uint64_t word;                  /* its word, as read before the call */
    size_t bytes;                   /* all parts' bytes (timed) */
    bool timed;                     /* rank 0 times this call */
} scc_ag_way_t;

_Static_assert(SCC_LEARN_BUCKETS <= sizeof(scc_ways_line_t) / sizeof(uint64_t),
               "a word per size class in the ways line");

static void scc_allgather_way(mca_coll_scc_module_t *m, const scc_parts_t *parts,
                              scc_ag_way_t *w)
{
    const scc_xport_t *x = m->xp;
    const int n = x->size;
    size_t biggest = 0;

    w->learnt = -1;
    w->timed = false;
    w->bytes = 0;
    if (!scc_single_copy_learnt(x)) {
        return;
    }
    if (NULL == parts->len) {
        biggest = parts->each;      /* (allgather: every part alike) */
        w->bytes = parts->each * (size_t) n;
    }
    for (int i = 0; NULL != parts->len && i < n; ++i) {
        size_t len = scc_part_len(parts, i);
        biggest = len > biggest ? len : biggest;
        w->bytes += len;
    }
    if (biggest < SCC_LEARN_MIN || scc_single_copy(x, biggest)) {
        return;     /* (the rule sends the largest single copy: it decides) */
    }
    if (OPAL_UNLIKELY(m->trying)) {
        /* (a tried call, coll_scc_xport_try.h, must not count its class's call: its task
           does, and every rank counts alike) */
        scc_try_abort(m->xp);
    }
    w->bucket = scc_learn_bucket(biggest);
    w->word = scc_xport_ways(x, 0, w->bucket);
    w->learnt = scc_learn_way(&m->learn, w->bucket, w->word, &w->timed);
    /* (a nonblocking call's time holds what its caller did before waiting) */
    w->timed = w->timed && 0 == x->rank && SCC_FORM_B == m->form;
}

/* The way rank i's part of len bytes goes (true: single copy). */
static bool scc_allgather_single(const scc_xport_t *x, const scc_ag_way_t *w, int i, size_t len)
{
    if (0 == len || !scc_xport_single_copy(x)) {
        return false;
    }
    if (scc_single_copy(x, len)) {
        return true;    /* (coll_scc_cma_min's rule) */
    }
    if (2 == mca_coll_scc_config.cma_adapt && x->size <= SCC_WAY_RANKS) {
        return 1 == i % 2;      /* (tests: senders of both ways in one call) */
    }
    return w->learnt >= 0 && len >= SCC_LEARN_MIN && SCC_WAY_SINGLE == w->learnt;
}

static inline uint64_t scc_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* Everyone knows every part's size: a part is exposed single-copy or sent in slot pieces
 * (tag k), as its sender chose and its first header says; everyone takes the first of every
 * part as they arrive, then piece k of every part before piece k + 1 of any. */
int mca_coll_scc_allgatherv_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                 const scc_parts_t *parts)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    const size_t mine = scc_part_len(parts, me);
    char *at = rbuf + scc_part_off(parts, me);
    uint64_t single[SCC_WAY_RANKS / 64] = { 0 }, t0 = 0;
    size_t pieces = 0;
    scc_ag_way_t w;
    bool cma;
    int rc = OMPI_SUCCESS;

    scc_allgather_way(m, parts, &w);
    cma = scc_allgather_single(x, &w, me, mine);
    if (w.timed) {
        t0 = scc_now_ns();
    }
    scc_xport_begin(x);
    if (cma) {
        /* readers read my part from the caller's send buffer (stable for the call) and my
           own copy into rbuf overlaps their reads */
        scc_xport_note(x, &rc, scc_xport_expose(x, 0, sbuf, mine, n - 1, NULL, 0));
        if (sbuf != at) {
            SCC_TRACED(SCC_PH_COPY, mine, memcpy(at, sbuf, mine));
        }
    } else if (mine > 0) {
        if (sbuf != at) {
            SCC_TRACED(SCC_PH_COPY, mine, memcpy(at, sbuf, mine));
        }
        scc_xport_note(x, &rc, scc_xport_send(x, 0, at, scc_min(x->slot_size, mine), n - 1,
                                              false, NULL));
    }
    scc_xport_note(x, &rc, scc_take_arrivals(x, 0, 0, rbuf, parts, x->slot_size, false, single));
    for (int i = 0; i < n; ++i) {
        size_t len = scc_part_len(parts, i);
        if (!(i == me ? cma : scc_came_single(single, i, scc_single_copy(x, len)))) {
            pieces = scc_max(pieces, scc_npieces(x, len));
        }
    }
    for (size_t k = 1; k < pieces; ++k) {
        size_t off = k * x->slot_size;
        if (off < mine && !cma) {
            scc_xport_note(x, &rc, scc_xport_send(x, (uint32_t) k, at + off,
                                                  scc_min(x->slot_size, mine - off), n - 1,
                                                  false, NULL));
        }
        for (int j = 1; j < n; ++j) {
            int i = (me + j) % n;
            size_t len = scc_part_len(parts, i);
            if (off < len && !scc_came_single(single, i, scc_single_copy(x, len))) {
                scc_xport_note(x, &rc, scc_xport_recv(x, i, (uint32_t) k,
                                                      rbuf + scc_part_off(parts, i) + off,
                                                      scc_min(x->slot_size, len - off)));
            }
        }
    }
    rc = scc_xport_result(rc, scc_xport_end(x));
    if (w.timed) {
        /* (written before my part of the class's next call is published: see
           scc_learn_word) */
        uint64_t word = scc_learn_note(&m->learn, w.bucket, w.learnt, w.bytes,
                                       scc_now_ns() - t0, w.word);
        if (word != w.word) {
            scc_flag_set(x, &scc_ctrl(x, 0)->ways.w[w.bucket], word);
        }
    }
    if (mine > 0 && scc_xport_single_copy(x)) {
        m->learn.taken[cma ? SCC_WAY_SINGLE : SCC_WAY_SLOTS]++;    /* (the verbose report) */
    }
    return rc;
}
