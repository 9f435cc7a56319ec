/* coll_scc_xport_pml.c: the schedules over Open MPI's point-to-point layer -- for
 * communicators shared memory cannot serve, and as a baseline for the other transports. */
#include <string.h>

#include "coll_scc_component.h"
#include "coll_scc_agree.h"
#include "coll_scc_drain.h"
#include "coll_scc_lease.h"
#include "coll_scc_xport.h"
#include "coll_scc_xport_pml.h"
#include "coll_scc_xport_slots.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/pml/pml.h"
#include "ompi/op/op.h"
#include "ompi/request/request.h"

/* Data up to this many bytes goes with a broadcast's shape in one message (a first message
 * is received into a buffer of this size plus the shape before its length is known): with
 * the shape, 256 bytes, what btls send inline (vader's max_inline_send; past it the
 * measured latency of a message doubled, where a shape of its own added 15-40 %). */
#define SCC_PML_SHAPE_INLINE 248

/* A buffer of len bytes a message can go from until the call ends (small ones kept, large
 * ones lent for the call). */
static char *scc_pml_copy(scc_xport_t *x, size_t len)
{
    struct scc_pml_copy *c;

    if (x->ncopies == x->copies_cap) {
        int cap = 2 * x->copies_cap + 8;
        struct scc_pml_copy *p = realloc(x->copies, cap * sizeof(*p));
        if (NULL == p) {
            return NULL;
        }
        memset(p + x->copies_cap, 0, (cap - x->copies_cap) * sizeof(*p));
        x->copies = p;
        x->copies_cap = cap;
    }
    c = &x->copies[x->ncopies];
    if (!scc_lease_room((void **) &c->buf, &c->cap, len)) {
        return NULL;
    }
    x->ncopies++;
    return c->buf;
}

/* A broadcast over the pml carries the call's shape as the slot headers do (coll_scc_drain.c):
 * a sender's first message of the call to each reader starts with its shape (8 bytes) and
 * the data when it has at most SCC_PML_SHAPE_INLINE bytes, else it is the shape alone and
 * the data follows.  Sends reader's: true when the data went along (*joined: the message,
 * made once for all readers). */
static int scc_pml_shape_send(scc_xport_t *x, int reader, const void *buf, size_t len,
                              char **joined, bool *with)
{
    int rc;

    x->shape_at[reader] = x->call;
    *with = 0 == x->fail && len > 0 && len <= SCC_PML_SHAPE_INLINE;
    if (*with && NULL == *joined && NULL != (*joined = scc_pml_copy(x, len + 8))) {
        memcpy(*joined, &x->shape, 8);
        memcpy(*joined + 8, buf, len);
    }
    *with = *with && NULL != *joined;
    x->shape_word = x->shape;
    rc = MCA_PML_CALL(isend(*with ? (void *) *joined : (void *) &x->shape_word,
                            *with ? len + 8 : 8, MPI_BYTE, reader, x->pml_tag,
                            MCA_PML_BASE_SEND_STANDARD, x->comm, &x->reqs[x->nreqs]));
    x->nreqs += OMPI_SUCCESS == rc;
    return rc;
}

/* A message to each reader, posted without waiting: the schedules never change a
 * block a message of theirs still carries, and the call ends by completing them.  A plan
 * reserves the requests of its sends when it is made (coll_scc_plan_make.c), so the realloc
 * below is a safety net: its failure is this member's alone, an MPI error
 * (coll_scc_exec.h, SCC_ERR_NO_MEM).  remote_only: to the readers on other nodes only; where
 * the schedule asks for copies, one copy serves them all. */
static int scc_pml_isend(scc_xport_t *x, const void *buf, size_t len, int nreaders,
                         const int *readers, bool remote_only)
{
    char *joined = NULL;

    /* (a broadcast may send its shape to each reader first) */
    if (x->nreqs + 2 * nreaders > x->reqs_cap) {
        int cap = 2 * (x->nreqs + 2 * nreaders) + 16;
        ompi_request_t **r = realloc(x->reqs, cap * sizeof(*r));
        if (NULL == r) {
            return MPI_ERR_NO_MEM;
        }
        x->reqs = r;
        x->reqs_cap = cap;
    }
    if (x->send_copy && len > 0 && nreaders > 0 && 0 == x->fail) {
        /* the schedule changes the block right after sending it (a butterfly): the message
           goes from a copy, kept until the call ends */
        char *c = scc_pml_copy(x, len);
        if (NULL == c) {
            return MPI_ERR_NO_MEM;
        }
        memcpy(c, buf, len);
        buf = c;
    }
    if (OPAL_UNLIKELY(0 != x->fail)) {
        /* poison: a message of another length, no data */
        static const char byte = 0;
        buf = &byte;
        len = SCC_PML_POISON_LEN(len);
    }
    for (int i = 0; i < nreaders; ++i) {
        bool with = false;
        int rc;
        if (remote_only && !x->remote[readers[i]]) {
            continue;
        }
        if (OPAL_UNLIKELY(0 != x->shape) && x->shape_at[readers[i]] != x->call) {
            rc = scc_pml_shape_send(x, readers[i], buf, len, &joined, &with);
            if (OMPI_SUCCESS != rc || with) {
                if (OMPI_SUCCESS != rc) {
                    return rc;
                }
                continue;
            }
        }
        rc = MCA_PML_CALL(isend((void *) buf, len, MPI_BYTE, readers[i], x->pml_tag,
                                MCA_PML_BASE_SEND_STANDARD, x->comm, &x->reqs[x->nreqs]));
        if (OMPI_SUCCESS != rc) {
            return rc;
        }
        x->nreqs++;
    }
    return OMPI_SUCCESS;
}

int scc_pml_send(scc_xport_t *x, const void *buf, size_t len, int nreaders, const int *readers)
{
    if (NULL == readers && nreaders > 0) {
        return OMPI_ERR_BAD_PARAM;
    }
    return scc_pml_isend(x, buf, len, nreaders, readers, false);
}

int scc_pml_send_remote(scc_xport_t *x, const void *buf, size_t len, int nreaders,
                        const int *readers)
{
    int local = 0, rc;

    if (NULL == readers && nreaders > 0) {
        return OMPI_ERR_BAD_PARAM;
    }
    for (int i = 0; i < nreaders; ++i) {
        local += !x->remote[readers[i]];
    }
    if (local < nreaders) {
        rc = scc_pml_isend(x, buf, len, nreaders, readers, true);
        if (OMPI_SUCCESS != rc) {
            return rc < 0 ? rc : OMPI_ERROR;
        }
    }
    return local;
}

/* Waits for a request the way the transport waits for a flag: acks owed to this node's
 * senders are settled meanwhile (one of them may wait for them before it can go on), Open
 * MPI progresses, and the core is given away when the node is oversubscribed. */
static int scc_pml_wait(scc_xport_t *x, struct ompi_request_t **req, ompi_status_public_t *st)
{
    unsigned spins = 0;
    while (!REQUEST_COMPLETE(*req)) {
        scc_xport_idle(x, &spins);
    }
    return ompi_request_wait(req, st);
}

/* ------------------------------------------------------------ shapes */

/* A reader takes a peer's first message of a broadcast (see scc_pml_shape_send) before its
 * first step with that peer: the shape, and the data that came along, kept in x->first
 * until the step.  One that checks its first message (x->shape_check) takes whichever
 * first message comes, from any peer over the pml or from its node's headers: a count that
 * differs from the root's may have picked another algorithm, whose first peer never sends
 * to it.  Taken, a peer's first message is never taken again in the call (shape_at), and a
 * rejoin (the same call) finds what came along still kept. */

int scc_pml_shape_alloc(scc_xport_t *x)
{
    x->shape_at = calloc(2 * (size_t) x->size, sizeof(*x->shape_at));
    x->first[0].buf = malloc(2 * (SCC_PML_SHAPE_INLINE + 8));
    x->first[0].peer = x->first[1].peer = -1;
    x->first[1].buf = NULL != x->first[0].buf ? x->first[0].buf + SCC_PML_SHAPE_INLINE + 8
                                              : NULL;
    return NULL != x->shape_at && NULL != x->first[0].buf ? OMPI_SUCCESS
                                                          : OMPI_ERR_OUT_OF_RESOURCE;
}

/* What came along with peer's first message of the call, still to be taken, or NULL. */
static struct scc_pml_first *scc_pml_first_of(scc_xport_t *x, int peer)
{
    for (int i = 0; i < 2; ++i) {
        if (x->first[i].peer == peer && x->first[i].call == x->call) {
            return &x->first[i];
        }
    }
    return NULL;
}

/* Takes peer's first message (there, or to come); true when its shape differs from mine
 * while I check it (x->met then holds it).  At most two are kept at once: one taken while
 * waiting for another peer's, and that one, whose step comes next. */
static bool scc_pml_shape_recv(scc_xport_t *x, int peer)
{
    struct scc_pml_first *f = x->first[0].call == x->call && x->first[0].peer >= 0
                                  ? &x->first[1] : &x->first[0];
    struct ompi_request_t *req;
    ompi_status_public_t st;
    uint64_t shape;
    size_t got;

    x->shape_at[x->size + peer] = x->call;
    f->peer = -1;
    if (OMPI_SUCCESS != MCA_PML_CALL(irecv(f->buf, SCC_PML_SHAPE_INLINE + 8, MPI_BYTE, peer,
                                           x->pml_tag, x->comm, &req))
        || OMPI_SUCCESS != scc_pml_wait(x, &req, &st) || (got = st._ucount) < 8) {
        return false;   /* as the pml fails, the data's receive will too */
    }
    memcpy(&shape, f->buf, 8);
    if (got > 8) {
        f->call = x->call;
        f->peer = peer;
        f->len = got - 8;
    }
    if (!x->shape_check || shape == x->shape) {
        x->shape_check = false;
        return false;
    }
    x->shape_check = false;
    x->met = shape;
    return true;
}

bool scc_pml_shape_probe(scc_xport_t *x)
{
    ompi_status_public_t st;
    int flag = 0;

    /* while I check my first message, every message of the call is a first one */
    if (OMPI_SUCCESS != MCA_PML_CALL(iprobe(MPI_ANY_SOURCE, x->pml_tag, x->comm, &flag, &st))
        || !flag) {
        return false;
    }
    return scc_pml_shape_recv(x, st.MPI_SOURCE);
}

/* Before my first message of a broadcast from peer: its shape (SCC_ERR_RESHAPE: the call
 * has another than mine, x->met). */
static int scc_pml_shape_take(scc_xport_t *x, int peer)
{
    unsigned spins = 0, turns = 0;

    while (x->shape_check) {
        if (scc_pml_shape_probe(x)
            /* the pml was probed just now: the node's headers are left */
            || (NULL != x->remote && x->shape_check && scc_shape_turn(&turns)
                && scc_shape_scan(x))) {
            return SCC_ERR_RESHAPE;
        }
        if (x->shape_check) {
            scc_xport_idle(x, &spins);
        }
    }
    if (x->shape_at[x->size + peer] != x->call) {
        (void) scc_pml_shape_recv(x, peer);
    }
    return OMPI_SUCCESS;
}

/* True when my next message from peer in this broadcast is a first one, or came along with
 * it: it is not to be received ahead of its step. */
static inline bool scc_pml_shape_pending(scc_xport_t *x, int peer)
{
    return OPAL_UNLIKELY(0 != x->shape)
           && (x->shape_at[x->size + peer] != x->call || NULL != scc_pml_first_of(x, peer));
}

/* Peer's message, in a broadcast: its shape taken first, and the data that came with it
 * (*done: the message is taken; its result returned). */
static int scc_pml_shape_data(scc_xport_t *x, int peer, void *buf, size_t len, bool *done)
{
    struct scc_pml_first *f;

    *done = false;
    if (x->shape_at[x->size + peer] != x->call
        && SCC_ERR_RESHAPE == scc_pml_shape_take(x, peer)) {
        *done = true;
        return SCC_ERR_RESHAPE;
    }
    if (NULL == (f = scc_pml_first_of(x, peer))) {
        return OMPI_SUCCESS;
    }
    *done = true;
    f->peer = -1;
    x->traffic[NULL != x->offnode && x->offnode[peer]][1]++;
    if (OPAL_UNLIKELY(0 != x->fail)) {
        return OMPI_SUCCESS;
    }
    if (f->len != len) {
        return MPI_ERR_TRUNCATE;
    }
    memcpy(buf, f->buf + 8, len);
    return OMPI_SUCCESS;
}

/* ------------------------------------------------------------ messages */

int scc_pml_recv(scc_xport_t *x, int peer, void *buf, size_t len)
{
    ompi_status_public_t st;
    struct ompi_request_t *req;
    size_t got;
    int rc;

    if (OPAL_UNLIKELY(0 != x->shape)) {
        bool done;
        rc = scc_pml_shape_data(x, peer, buf, len, &done);
        if (done) {
            return rc;
        }
    }
    if (OPAL_UNLIKELY(0 != x->fail)) {
        /* my call failed: the message is only taken, into the bounce buffer, or where
           memory is missing (what made the call fail, perhaps) a drain buffer of the
           process's, whose bytes nobody reads (a receive that truncates a large message is
           not safe with every btl: single-copy gets read it whole) */
        static char drain[65536];
        void *into = scc_lease_room((void **) &x->bounce, &x->bounce_bytes, len) ? x->bounce
                                                                                  : drain;
        size_t room = into == drain ? sizeof(drain) : x->bounce_bytes;
        rc = MCA_PML_CALL(irecv(into, len <= room ? len : 0, MPI_BYTE, peer, x->pml_tag,
                                x->comm, &req));
        if (OMPI_SUCCESS == rc) {
            (void) scc_pml_wait(x, &req, &st);
        }
        return OMPI_SUCCESS;
    }
    rc = MCA_PML_CALL(irecv(buf, len, MPI_BYTE, peer, x->pml_tag, x->comm, &req));
    if (OMPI_SUCCESS == rc) {
        rc = scc_pml_wait(x, &req, &st);
    }
    x->traffic[NULL != x->offnode && x->offnode[peer]][1]++;
    if (OMPI_SUCCESS == rc) {
        /* a shorter message than the schedule expects is as wrong as a longer one */
        got = (size_t) st._ucount;
        rc = got == len ? OMPI_SUCCESS : MPI_ERR_TRUNCATE;
    }
    return rc;
}

int scc_pml_recv_reduce(scc_xport_t *x, int peer, void *target, const void *input, size_t count,
                        struct ompi_datatype_t *dtype, struct ompi_op_t *op)
{
    size_t dtsize, len;
    int rc;

    ompi_datatype_type_size(dtype, &dtsize);
    len = count * dtsize;
    if (OPAL_UNLIKELY(0 != x->fail)) {
        return scc_pml_recv(x, peer, NULL, len);
    }
    /* (blocks are at most a slot: the buffer is lent for the call, kept where it is
       small; without memory, the message is taken without data and this member's call
       fails) */
    if (!scc_lease_room((void **) &x->bounce, &x->bounce_bytes, len)) {
        (void) mca_coll_scc_call_failed(x, true, MPI_ERR_NO_MEM,
                                        "there is no memory for a block to combine");
        return scc_pml_recv(x, peer, NULL, len);
    }
    rc = scc_pml_recv(x, peer, x->bounce, len);
    if (OMPI_SUCCESS == rc && count > 0) {
        if (NULL != input) {
            scc_reduce3(op, x->bounce, input, target, count, dtype);
        } else {
            ompi_op_reduce(op, x->bounce, target, count, dtype);
        }
    }
    return rc;
}

int scc_pml_post(scc_xport_t *x, int peer, void *buf, size_t len)
{
    int slot = -1;
    struct scc_pml_ahead *a;

    for (int i = 0; i < SCC_PML_AHEAD && slot < 0; ++i) {
        slot = x->ahead[i].busy ? -1 : i;
    }
    /* (a broadcast's first message from peer comes after its shape: scc_pml_recv) */
    if (slot < 0 || 0 != x->fail || scc_pml_shape_pending(x, peer)) {
        return -1;
    }
    a = &x->ahead[slot];
    if (NULL == buf) {
        if (!scc_lease_room((void **) &a->buf, &a->cap, len)) {
            return -1;
        }
        buf = a->buf;
    }
    if (OMPI_SUCCESS != MCA_PML_CALL(irecv(buf, len, MPI_BYTE, peer, x->pml_tag, x->comm,
                                           &a->req))) {
        return -1;
    }
    a->busy = 1;
    return slot;
}

int scc_pml_complete(scc_xport_t *x, int slot, int peer, size_t len, void *target,
                     const void *input, size_t count, struct ompi_datatype_t *dtype,
                     struct ompi_op_t *op)
{
    struct scc_pml_ahead *a = &x->ahead[slot];
    ompi_status_public_t st;
    int rc = scc_pml_wait(x, &a->req, &st);

    a->busy = 0;
    x->traffic[NULL != x->offnode && x->offnode[peer]][1]++;
    if (OPAL_UNLIKELY(0 != x->fail)) {
        return OMPI_SUCCESS;    /* taken; my call failed meanwhile */
    }
    if (OMPI_SUCCESS == rc && (size_t) st._ucount != len) {
        rc = MPI_ERR_TRUNCATE;
    }
    if (OMPI_SUCCESS == rc && NULL != target && count > 0) {
        if (NULL != input) {
            scc_reduce3(op, a->buf, input, target, count, dtype);
        } else {
            ompi_op_reduce(op, a->buf, target, count, dtype);
        }
    }
    return rc;
}

void scc_pml_cancel(scc_xport_t *x, int slot)
{
    struct scc_pml_ahead *a = &x->ahead[slot];
    if (a->busy) {
        (void) ompi_request_cancel(a->req);
        /* (waited for as the transport waits, stopping a task: Open MPI's progress entered
           under the task lock could start a collective -- a communicator's next id being
           agreed -- whose entry would wait for that lock) */
        (void) scc_pml_wait(x, &a->req, MPI_STATUS_IGNORE);
        a->busy = 0;
    }
}

/* Every call gets a tag of its own, reserved where Open MPI's nonblocking collectives take
 * theirs (every member reserves at the same calls, as it does for those): a message an
 * erroneous call left behind can never match a later call.  A call started again
 * (scc_xport_again) keeps its tag. */
void scc_pml_begin(scc_xport_t *x)
{
    if (x->pml_tag_call != x->call) {
        x->pml_tag = scc_coll_reserve_tag(x->comm);
        x->pml_tag_call = x->call;
    }
}

void scc_pml_end(scc_xport_t *x)
{
    for (int i = 0; i < x->nreqs; ++i) {
        (void) scc_pml_wait(x, &x->reqs[i], MPI_STATUS_IGNORE);
    }
    x->nreqs = 0;
    for (int i = 0; i < x->ncopies; ++i) {
        scc_lease_end(&x->copies[i].buf, &x->copies[i].cap);
    }
    x->ncopies = 0;
    for (int i = 0; i < SCC_PML_AHEAD; ++i) {
        if (!x->ahead[i].busy) {
            scc_lease_end(&x->ahead[i].buf, &x->ahead[i].cap);
        }
    }
    scc_lease_end(&x->bounce, &x->bounce_bytes);
}

static int scc_pml_attach(scc_xport_t *x, const scc_members_t *mb)
{
    struct ompi_communicator_t *comm = mb->comm;
    x->desc = "pml (point-to-point)";
    x->comm = comm;
    /* blocks are cut as for shared memory; no slots, no single copy */
    x->slot_size = mca_coll_scc_config.shm_slot_size > SCC_LINE
                       ? (size_t) mca_coll_scc_config.shm_slot_size : SCC_LINE;
    x->nslots = SCC_SCHED_TAG_WINDOW;
    x->pipe = x->slot_size;
    x->yield = SCC_YIELD_WHEN_IDLE();
    x->spin = 1;
    /* (reductions receive a block, at most a slot, into a bounce buffer lent for the call:
       coll_scc_lease.h) */
    if (OMPI_SUCCESS != scc_pml_shape_alloc(x) || mca_coll_scc_fault(mb, "pml")) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return OMPI_SUCCESS;
}

/* The operations over the pml: each message a point-to-point one (the call's own tag),
 * the slot engine's tag and nreaders are not needed. */
static int scc_pml_op_send(scc_xport_t *x, uint32_t tag, const void *buf, size_t len,
                           int nreaders, bool stable, const int *readers)
{
    (void) tag;
    (void) stable;
    return scc_pml_send(x, buf, len, nreaders, readers);
}

static int scc_pml_op_recv(scc_xport_t *x, int peer, uint32_t tag, void *buf, size_t len)
{
    (void) tag;
    return scc_pml_recv(x, peer, buf, len);
}

static int scc_pml_op_recv_reduce(scc_xport_t *x, int peer, uint32_t tag, void *target,
                                  const void *input, size_t count,
                                  struct ompi_datatype_t *dtype, struct ompi_op_t *op)
{
    (void) tag;
    return scc_pml_recv_reduce(x, peer, target, input, count, dtype, op);
}

static int scc_pml_op_end(scc_xport_t *x)
{
    int fail = x->fail;

    scc_xport_forget(x);
    scc_pml_end(x);
    return fail;
}

const scc_xport_ops_t mca_coll_scc_xport_pml_ops = {
    .name = "pml",
    .caps = SCC_XPORT_CAP_PML,
    .attach = scc_pml_attach,
    .send = scc_pml_op_send,
    .recv = scc_pml_op_recv,
    .recv_reduce = scc_pml_op_recv_reduce,
    .end = scc_pml_op_end,
    .post = scc_pml_post,
    .wait_one = scc_pml_complete,
    .cancel = scc_pml_cancel,
};
