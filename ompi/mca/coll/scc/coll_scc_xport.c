/* coll_scc_xport.c: the slot engine shared by the shm and mpb transports -- their send, recv,
 * recv_reduce, expose, read and end operations (coll_scc_xport_attach.c picks a transport). */
#include "coll_scc_component.h"
#include "coll_scc_mpb.h"
#include "coll_scc_drain.h"
#include "coll_scc_lease.h"
#include "coll_scc_xport.h"
#include "coll_scc_xport_pml.h"
#include "coll_scc_xport_slots.h"
#include "coll_scc_xport_try.h"
#include "coll_scc_sched.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/util/show_help.h"

/* ------------------------------------------------------------ messages */

uint64_t mca_coll_scc_call_base = 0;

/* Waits until my slot's previous message was read by all its readers. */
static inline scc_msg_hdr_t *scc_claim_slot(scc_xport_t *x, int slot)
{
    scc_msg_hdr_t *h = scc_hdr(x, x->rank, slot);
    uint32_t hi = scc_msg_call_hi(x);

    if (OPAL_UNLIKELY(NULL != x->trying)
        && 0 != ((x->trying->held | x->trying->out) >> slot & 1)) {
        /* (its message of this call is held back there, or out: its task reads it back) */
        scc_try_abort(x);
    }
    scc_xport_wait_readers(x, slot);
    x->cma_pending &= ~(1ull << slot);
    /* the old id goes before the call's upper half shows (scc_hdr_is); written, never read:
       my reader polls this line, and a read would fetch it from the reader's cache just
       before the message's writes take it back -- a line transfer more per message */
    scc_msg_hdr_t *w = scc_wr(x, h, sizeof(*h));
    scc_store64(&w->id, SCC_MSG_ID_NONE);
    scc_store32(&w->call_hi, hi);
    return h;
}

/* Lets my message (slot, id) out during x's try t and notes it on the replay list, which its
 * task skips if the try is abandoned; false where the list has no room (or none could be
 * allocated): the message stays held back. */
static inline bool scc_try_let_out(scc_xport_t *x, scc_try_t *t, int slot, uint64_t id,
                                   int nreaders)
{
    scc_try_replay_t *r = x->replay;

    if (OPAL_UNLIKELY(NULL == r)) {
        if (NULL == (r = malloc(sizeof(*r)))) {
            return false;
        }
        x->replay = r;
    }
    if (0 == x->nreplay) {
        r->n = 0;
    } else if (x->nreplay == SCC_TRY_LOG) {
        return false;
    }
    scc_publish_id(x, scc_hdr(x, x->rank, slot), slot, id, nreaders);
    r->e[r->n].slot = slot;
    r->e[r->n].id = id;
    r->n++;
    x->nreplay++;
    t->out |= 1ull << slot;
    return true;
}

/* Publishes message tag in my slot's header h: the old id withdrawn (a rank that looks at
 * headers of the call, scc_xport_shape_stuck, never takes the new fields for the old
 * message's), the fields with the call's shape, then (scc_publish_id) the id, written last: a
 * reader that sees it sees the whole message; then the write-combining flush.  (The slot's
 * last message was read by all its readers: nobody waits for the old id.)  A try lets the
 * message out at once, as a blocking call does, where its task could skip it (replayable:
 * sent from a buffer, coll_scc_xport_try.h) and nothing of the call before it is held back;
 * else it logs the id, which goes out at the try's next wait or the first peer's message it
 * finds where it can, else at its end. */
static inline void scc_publish(scc_xport_t *x, scc_msg_hdr_t *h, int slot, uint32_t tag,
                               size_t len, uint32_t kind, const void *addr, int nreaders,
                               bool replayable)
{
    if (OPAL_UNLIKELY(NULL != x->trying) && SCC_MSG_CMA == kind) {
        scc_try_abort(x);   /* (its sender would wait for the readers at the end) */
    }
    scc_msg_hdr_t *w = scc_wr(x, h, sizeof(*h));

    scc_store64(&w->id, SCC_MSG_ID_NONE);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    w->len = len;
    w->kind = kind;
    if (SCC_MSG_CMA == kind) {
        w->addr = (uint64_t) (uintptr_t) addr;
        memcpy(w->data, &x->shape, sizeof(x->shape));
        x->cma_pending |= 1ull << slot;
    } else {
        w->addr = x->shape;
    }
    if (OPAL_UNLIKELY(NULL != x->trying)) {
        /* (its id now: a call in rounds begins the transport again before the end).  Out
           at once rather than at the try's next wait: its peer may be there already, or
           come while this rank goes on (np 2, 8 B-512 B, paired blocks: iallreduce 1.11-1.25
           of the blocking call -> 1.04-1.09, iallgather 1.21-1.27 -> 1.06-1.14) */
        scc_try_t *t = x->trying;
        uint64_t id = scc_msg_id(x, tag);
        if (!(replayable && 0 == t->held && 0 == t->nflags
              && scc_try_let_out(x, t, slot, id, nreaders))) {
            scc_try_log_publish(t, slot, id, nreaders, replayable);
        }
        return;
    }
    scc_publish_id(x, h, slot, scc_msg_id(x, tag), nreaders);
}

/* ------------------------------------------------------------ tries (coll_scc_xport_try.h) */

/* (scc_try_t's publish_early: reached through the try, so that the transports' wait loops
   need not link to the slot engine) */
static void scc_try_publish_early(scc_xport_t *x)
{
    scc_try_t *t = x->trying;
    int kept = 0, i;
    bool stop = false;

    /* out in their order, up to the first that must stay (a flag, a message written in
       place: its task would write it there again; nothing overtakes them: readers may
       count on the order of a call's messages) or the replay's room; the acks stay held
       back (a read acknowledged could not be read again by the task) */
    for (i = 0; i < t->n; ++i) {
        const scc_try_op_t *op = &t->log[i];
        if (SCC_TRY_FLAG == op->what || (SCC_TRY_PUBLISH == op->what && !op->replayable)) {
            stop = true;
        }
        if (!stop && SCC_TRY_PUBLISH == op->what
            && scc_try_let_out(x, t, op->slot, op->id, op->peer)) {
            t->held &= ~(1ull << op->slot);
            continue;
        }
        stop = stop || SCC_TRY_PUBLISH == op->what;    /* (no room left) */
        t->log[kept++] = *op;
    }
    t->n = kept;
}

/* A try starts while messages of an earlier one were not skipped by its task: an internal
 * error, said once, and the rest of the replay dropped. */
static void scc_try_replay_left(scc_xport_t *x)
{
    static bool said = false;

    if (!said) {
        said = true;
        opal_output(0, "coll:scc: internal error: comm %u rank %d: a nonblocking call's task "
                    "did not send again %d of the messages its try sent; please report it",
                    SCC_COMM_CID(x->comm), x->rank, x->nreplay);
    }
    x->nreplay = 0;
}

void scc_try_start(scc_xport_t *x, scc_try_t *t)
{
    /* the acks earlier calls owe stay owed: the call settles them at its first wait or its
       end, as a blocking one does (settled here, they were lines more for a call that
       comes cold, after a context switch) -- an abandoned try keeps them, drops its own */
    t->nlater = x->nlater;
    t->spin = x->yield ? SCC_TRY_SPIN_OVER : SCC_TRY_SPIN;
    t->x = x;
#define SCC_TRY_SAVE(f) SCC_TRY_COPY(t, x, f)
    SCC_TRY_SAVED(SCC_TRY_SAVE)
#undef SCC_TRY_SAVE
    memcpy(t->traffic, x->traffic, sizeof(t->traffic));
    t->held = t->out = 0;
    t->bytes = 0;
    t->flags_now = false;
    t->n = t->nflags = 0;
    t->publish_early = scc_try_publish_early;
    if (OPAL_UNLIKELY(x->nreplay > 0)) {
        scc_try_replay_left(x);
    }
    x->trying = t;
}

void scc_try_commit(scc_xport_t *x)
{
    scc_try_t *t = x->trying;

    x->trying = NULL;
    for (int i = 0; i < t->n; ++i) {
        const scc_try_op_t *op = &t->log[i];
        switch (op->what) {
        case SCC_TRY_PUBLISH:
            scc_publish_id(x, scc_hdr(x, x->rank, op->slot), op->slot, op->id, op->peer);
            break;
        case SCC_TRY_ACK:
            scc_ack_put(x, op->peer, op->slot);
            break;
        case SCC_TRY_FLAG:
            scc_flag_set(x, op->flag, op->value);
            break;
        }
    }
    scc_mpb_flush(x);
    x->nreplay = 0;     /* (the call ended: nothing of it is run again) */
}

/* True when my message (slot, id) went out in the call's abandoned try: its task skips it
 * (the claim of the slot, the copy, the publish). */
static bool scc_try_replayed(scc_xport_t *x, int slot, uint64_t id)
{
    scc_try_replay_t *r = x->replay;

    for (int i = 0; i < r->n; ++i) {
        if (slot == r->e[i].slot && id == r->e[i].id) {
            r->e[i].slot = -1;
            x->nreplay--;
            return true;
        }
    }
    return false;
}

/* My message (slot, tag) of a task whose try let it out: skipped. */
static inline bool scc_skip_replayed(scc_xport_t *x, int slot, uint32_t tag)
{
    return OPAL_UNLIKELY(x->nreplay > 0) && scc_try_replayed(x, slot, scc_msg_id(x, tag));
}

/* A message without data for the readers of tag: my call failed (x->fail). */
static void scc_publish_poison(scc_xport_t *x, uint32_t tag, size_t len, int nreaders)
{
    int slot = scc_slot_of(x, tag);
    if (scc_skip_replayed(x, slot, tag)) {
        return;     /* (out before the call failed here, with its data: read as it is) */
    }
    scc_msg_hdr_t *h = scc_claim_slot(x, slot);
    int cls = x->fail > 0 ? x->fail : MPI_ERR_OTHER;

    scc_publish(x, h, slot, tag, len, SCC_MSG_POISON | (uint32_t) cls << 8, NULL, nreaders,
                false);
}

void scc_xport_first_call(scc_xport_t *x)
{
    x->call = mca_coll_scc_call_base;
    if (0 != x->call) {
        SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d: calls counted from %llu "
                    "(coll_scc_call_base)", SCC_COMM_CID(x->comm), SCC_COMM_NAME(x->comm),
                    x->rank, x->size, (unsigned long long) x->call);
    }
    if (OPAL_UNLIKELY(NULL != x->strict)) {
        mca_coll_scc_strict_first_call(x);
    }
}

int scc_slot_expose(scc_xport_t *x, uint32_t tag, const void *buf, size_t len, int nreaders,
                    const void *extra, size_t extra_len)
{
    if (OPAL_UNLIKELY(0 != x->fail)) {
        scc_publish_poison(x, tag, len, nreaders);
        return OMPI_SUCCESS;
    }
    int slot = scc_slot_of(x, tag);
    scc_msg_hdr_t *h = scc_claim_slot(x, slot);

    if (extra_len > 0) {
        memcpy(scc_slot_wr(x, slot, extra_len), extra, extra_len);
    }
    scc_publish(x, h, slot, tag, len, SCC_MSG_CMA, buf, nreaders, false);
    return OMPI_SUCCESS;
}

char *scc_xport_send_slot(scc_xport_t *x, uint32_t tag, size_t len)
{
    int slot = scc_slot_of(x, tag);
    scc_xport_try_bytes(x, len);
    scc_msg_hdr_t *h = scc_claim_slot(x, slot);
    if (len <= SCC_INLINE_MAX) {
        return scc_wr(x, h->data, SCC_INLINE_MAX);
    }
    return len <= x->slot_size ? scc_slot_wr(x, slot, len) : NULL;
}

void scc_xport_send_publish(scc_xport_t *x, uint32_t tag, size_t len, int nreaders)
{
    int slot = scc_slot_of(x, tag);
    scc_publish(x, scc_hdr(x, x->rank, slot), slot, tag, len,
                len <= SCC_INLINE_MAX ? SCC_MSG_INLINE : SCC_MSG_SLOT, NULL, nreaders, false);
}

int scc_slot_send(scc_xport_t *x, uint32_t tag, const void *buf, size_t len, int nreaders,
                  bool stable, const int *readers)
{
    if (OPAL_UNLIKELY(NULL != x->remote)) {
        /* other nodes' readers get it over the pml, this node's through the slot */
        nreaders = scc_pml_send_remote(x, buf, len, nreaders, readers);
        if (nreaders <= 0) {
            return nreaders;
        }
    }
    if (OPAL_UNLIKELY(0 != x->fail)) {
        scc_publish_poison(x, tag, len, nreaders);
        return OMPI_SUCCESS;
    }
    int slot = scc_slot_of(x, tag);
    if (scc_skip_replayed(x, slot, tag)) {
        return OMPI_SUCCESS;
    }
    scc_xport_try_bytes(x, len);
    scc_msg_hdr_t *h = scc_claim_slot(x, slot);
    uint32_t kind;

    if (len <= SCC_INLINE_MAX) {
        if (len > 0) {
            memcpy(scc_wr(x, h->data, len), buf, len);
        }
        kind = SCC_MSG_INLINE;
    } else if (stable && scc_xport_single_copy(x)
               && (len >= x->cma_min || len > x->slot_size)) {
        kind = SCC_MSG_CMA;
    } else if (len <= x->slot_size) {
        SCC_TRACED(SCC_PH_COPY, len,
                   memcpy(scc_slot_wr(x, slot, len), buf, len));
        kind = SCC_MSG_SLOT;
    } else {
        return OMPI_ERR_BAD_PARAM;
    }
    scc_publish(x, h, slot, tag, len, kind, buf, nreaders, true);
    return OMPI_SUCCESS;
}

/* Looks at the node's headers (coll_scc_drain.c) and, across nodes, the pml's first messages
 * (coll_scc_xport_pml.c): the two parts of the transport this rank waits on. */
bool scc_xport_shape_stuck(scc_xport_t *x, unsigned *turns)
{
    if (!scc_shape_turn(turns)) {
        return false;
    }
    /* several nodes: the first message may come from another node instead */
    return scc_shape_scan(x) || (NULL != x->remote && scc_pml_shape_probe(x));
}

int scc_cma_read(scc_xport_t *x, int peer, uint64_t addr, void *buf, size_t len)
{
    size_t done = 0;
    if (OPAL_UNLIKELY(NULL != x->trying)) {
        scc_try_abort(x);   /* (single copy is for large messages: no try's business) */
    }
    SCC_TRACE_T0(t0);
    x->cma_reads++;
    while (done < len) {
        struct iovec local = { (char *) buf + done, len - done };
        struct iovec remote = { (void *) (uintptr_t) (addr + done), len - done };
        ssize_t n = process_vm_readv(x->pids[peer], &local, 1, &remote, 1, 0);
        if (n <= 0) {
            if (n < 0 && EINTR == errno) {
                continue;
            }
            return OMPI_ERROR;
        }
        done += (size_t) n;
    }
    SCC_TRACE_ADD(t0, SCC_PH_READ, len);
    return OMPI_SUCCESS;
}

/* The payload of a waited-for message, read into bounce when it is not in shared memory. */
static const void *scc_payload(scc_xport_t *x, int peer, uint32_t tag, scc_msg_hdr_t *h,
                               void *bounce, int *rc)
{
    *rc = OMPI_SUCCESS;
    switch (h->kind) {
    case SCC_MSG_INLINE:
        return h->data;
    case SCC_MSG_SLOT:
        return scc_slot_data(x, peer, scc_slot_of(x, tag));
    default:
        *rc = scc_cma_read(x, peer, h->addr, bounce, h->len);
        return bounce;
    }
}

int scc_xport_take(scc_xport_t *x, int peer, uint32_t tag, scc_msg_hdr_t *h, bool *done)
{
    *done = false;
    if (OPAL_UNLIKELY(x->shape_check)) {
        if (NULL == h || scc_hdr_shape(h) != x->shape) {
            if (NULL != h) {
                x->met = scc_hdr_shape(h);
            }
            return SCC_ERR_RESHAPE;
        }
        x->shape_check = false;
    }
    if (OPAL_UNLIKELY(NULL != x->trying) && SCC_MSG_CMA == h->kind) {
        scc_try_abort(x);   /* (before its reader leases a buffer for it) */
    }
    if (OPAL_UNLIKELY(h->kind >= SCC_MSG_POISON || 0 != x->fail)) {
        *done = true;
        scc_xport_release(x, peer, tag);
        return h->kind >= SCC_MSG_POISON ? SCC_MSG_POISON_CLASS(h->kind) : OMPI_SUCCESS;
    }
    return OMPI_SUCCESS;
}

int scc_slot_recv(scc_xport_t *x, int peer, uint32_t tag, void *buf, size_t len)
{
    if (OPAL_UNLIKELY(scc_xport_by_pml(x, peer))) {
        return scc_pml_recv(x, peer, buf, len);
    }
    scc_msg_hdr_t *h = scc_xport_wait(x, peer, tag);
    bool done;
    int rc = scc_xport_take(x, peer, tag, h, &done);

    if (OPAL_UNLIKELY(OMPI_SUCCESS != rc || done)) {
        return rc;
    }
    x->traffic[NULL != x->offnode && x->offnode[peer]][0]++;
    if (OPAL_UNLIKELY(h->len != len)) {
        rc = MPI_ERR_TRUNCATE;
    } else if (SCC_MSG_CMA == h->kind) {
        rc = scc_cma_read(x, peer, h->addr, buf, len);
    } else if (len > 0) {
        SCC_TRACED(SCC_PH_COPY, len, memcpy(buf, scc_xport_data(x, peer, tag, h), len));
    }
    scc_xport_release(x, peer, tag);
    return rc;
}

int scc_slot_read(scc_xport_t *x, int peer, const scc_msg_hdr_t *h, size_t off, void *dst,
                  size_t len)
{
    if (OPAL_UNLIKELY(h->kind >= SCC_MSG_POISON)) {
        return SCC_MSG_POISON_CLASS(h->kind);
    }
    if (OPAL_UNLIKELY(off + len > h->len)) {
        return MPI_ERR_TRUNCATE;
    }
    return 0 == len ? OMPI_SUCCESS : scc_cma_read(x, peer, h->addr + off, dst, len);
}

int scc_slot_recv_reduce(scc_xport_t *x, int peer, uint32_t tag, void *target,
                         const void *input, size_t count, struct ompi_datatype_t *dtype,
                         struct ompi_op_t *op)
{
    if (OPAL_UNLIKELY(scc_xport_by_pml(x, peer))) {
        return scc_pml_recv_reduce(x, peer, target, input, count, dtype, op);
    }
    scc_msg_hdr_t *h = scc_xport_wait(x, peer, tag);
    size_t dtsize, lent = 0;
    void *bounce = NULL;
    const void *src;
    bool done;
    int rc = scc_xport_take(x, peer, tag, h, &done);

    if (OPAL_UNLIKELY(OMPI_SUCCESS != rc || done)) {
        return rc;
    }
    x->traffic[NULL != x->offnode && x->offnode[peer]][0]++;
    ompi_datatype_type_size(dtype, &dtsize);
    if (OPAL_UNLIKELY(h->len != count * dtsize)) {
        scc_xport_release(x, peer, tag);
        return MPI_ERR_TRUNCATE;
    }
    if (SCC_MSG_CMA == h->kind) {
        /* read into the bounce buffer, or one lent for this block where it is larger */
        bounce = h->len <= x->bounce_bytes ? x->bounce : scc_lease(h->len, &lent);
        if (NULL == bounce) {
            scc_xport_release(x, peer, tag);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    src = scc_payload(x, peer, tag, h, bounce, &rc);
    if (OMPI_SUCCESS == rc && count > 0) {
        if (NULL != input) {
            scc_reduce3(op, src, input, target, count, dtype);
        } else {
            SCC_TRACED(SCC_PH_COMBINE, count * dtsize,
                       ompi_op_reduce(op, (void *) src, target, count, dtype));
        }
    }
    scc_xport_release(x, peer, tag);
    if (lent > 0) {
        scc_unlease(bounce, lent);
    }
    return rc;
}

int scc_slot_end(scc_xport_t *x)
{
    int fail = x->fail;

    scc_xport_forget(x);
    if (OPAL_UNLIKELY(NULL != x->remote)) {
        scc_pml_end(x);
    }
    /* a sender may wait for these in a later call: they cannot stay owed past this one */
    if (x->nlater > 0) {
        scc_xport_flush_later(x, true);
    }
    for (int slot = 0; x->cma_pending && slot < x->nslots; ++slot) {
        if (x->cma_pending & (1ull << slot)) {
            scc_xport_wait_readers(x, slot);
            x->cma_pending &= ~(1ull << slot);
        }
    }
    if (NULL != x->pool) {
        /* this process's next call on another communicator settles what it owes here */
        if (x->nlater > 0 && x != __atomic_load_n(&scc_pool_owing, __ATOMIC_RELAXED)) {
            __atomic_store_n(&scc_pool_owing, x, __ATOMIC_RELAXED);
        }
        if (OPAL_UNLIKELY(mca_coll_scc_threads)) {
            scc_pool_end(x);
        }
    }
    return fail;
}
