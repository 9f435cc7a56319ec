/* coll_scc_exec.c: runs a plan's steps over the module's transport (blocks to bytes,
 * copies, reductions, alltoall pair lists). */
#include <string.h>

#include "coll_scc_agree.h"
#include "coll_scc_exec.h"

/* ------------------------------------------------------------ vectors */

/* Where block blk starts when the buffer is n parts of kpart blocks (blk may be the end):
 * a part shorter than kpart blocks ends in empty ones. */
static inline size_t scc_kpart_at(const scc_exec_buf_t *b, uint32_t blk)
{
    uint32_t pr = blk / b->kpart, pc = blk % b->kpart;
    size_t in = (size_t) pc * b->bs;
    if (NULL != b->part_at) {
        size_t lo = b->part_at[pr];
        /* (the end: pr is n, pc 0) */
        return 0 == in ? lo : lo + (in < b->part_at[pr + 1] - lo ? in : b->part_at[pr + 1] - lo);
    }
    return (size_t) pr * b->part + (in < b->part ? in : b->part);
}

/* The bytes [*off, *off + *len) of step st's blocks. */
static inline void scc_step_bytes(const scc_exec_buf_t *b, const scc_step_t *st, size_t *off,
                                  size_t *len)
{
    *off = (size_t) st->block * b->bs;
    *len = 0;
    if (b->kpart > 0) {
        /* n parts of `part` bytes, each cut into kpart blocks: consecutive blocks tile
           the buffer, so a range of them is one range of bytes */
        *off = scc_kpart_at(b, st->block);
        *len = 0 == st->nblocks ? 0 : scc_kpart_at(b, st->block + st->nblocks) - *off;
    } else if (*off < b->total) {
        *len = (size_t) st->nblocks * b->bs;
        if (*len > b->total - *off) {
            *len = b->total - *off;
        }
    } else {
        *off = b->total;
    }
}

/* Byte off of the message in work, in input (NULL: a call that goes on without data) */
static inline char *scc_work_at(const scc_exec_buf_t *b, size_t off)
{
    return NULL != b->work ? b->work + (off - b->work_at) : NULL;
}

static inline const char *scc_input_at(const scc_exec_buf_t *b, size_t off)
{
    return NULL != b->input ? b->input + (off - b->input_at) : NULL;
}

/* Receives over the pml posted ahead of their steps (p->early), so that a message from
 * another node travels while this rank works on earlier steps.  Posting is this rank's
 * own business (the messages match in the order of the steps either way), so a buffer it
 * cannot have simply ends the look-ahead. */
typedef struct scc_ahead {
    long next;                      /* the next step to consider posting */
    long step[SCC_PML_AHEAD];       /* posted steps, in order */
    int slot[SCC_PML_AHEAD];
    int head, n;
} scc_ahead_t;

static void scc_ahead_fill(scc_xport_t *x, const scc_plan_t *p, const scc_exec_buf_t *b,
                           scc_ahead_t *a, long now)
{
    if (a->next < now) {
        a->next = now;
    }
    while (a->n < SCC_PML_AHEAD && a->next < p->s.nsteps) {
        const scc_step_t *st = &p->s.steps[a->next];
        size_t off, len;
        int slot;

        if (SCC_STEP_SEND == st->kind || !scc_xport_by_pml(x, st->peer)) {
            a->next++;
            continue;
        }
        if (!p->early[a->next]) {
            return;     /* a receive that must wait for its step: nothing behind it either */
        }
        scc_step_bytes(b, st, &off, &len);
        slot = scc_xport_post(x, st->peer, SCC_STEP_RECV == st->kind ? scc_work_at(b, off) : NULL,
                              len);
        if (slot < 0) {
            return;
        }
        a->step[(a->head + a->n) % SCC_PML_AHEAD] = a->next;
        a->slot[(a->head + a->n) % SCC_PML_AHEAD] = slot;
        a->n++;
        a->next++;
    }
}

/* Step i of plan p (a receive posted ahead is completed). */
static int scc_exec_step(scc_xport_t *x, const scc_plan_t *p, const scc_exec_buf_t *b,
                         uint32_t tagbase, long i, scc_ahead_t *ahead)
{
    const scc_step_t *st = &p->s.steps[i];
    size_t off, len;

    scc_step_bytes(b, st, &off, &len);
    if (NULL != p->early) {
        scc_ahead_fill(x, p, b, ahead, i);
        if (ahead->n > 0 && ahead->step[ahead->head] == i) {
            int slot = ahead->slot[ahead->head];
            ahead->head = (ahead->head + 1) % SCC_PML_AHEAD;
            ahead->n--;
            return scc_xport_wait_one(x, slot, st->peer, len,
                                      SCC_STEP_RECV_REDUCE == st->kind ? scc_work_at(b, off)
                                                                       : NULL,
                                      (st->flags & SCC_STEP_F_INPUT) ? scc_input_at(b, off)
                                                                     : NULL,
                                      b->dtsize > 0 ? len / b->dtsize : 0, b->dtype, b->op);
        }
    }
    switch (st->kind) {
    case SCC_STEP_SEND:
        return scc_xport_send(x, tagbase + st->tag,
                              (st->flags & SCC_STEP_F_INPUT) ? scc_input_at(b, off)
                                                             : scc_work_at(b, off), len,
                              st->nreaders, b->stable,
                              NULL != p->readers ? p->readers + p->readers_at[i] : NULL);
    case SCC_STEP_RECV:
        return scc_xport_recv(x, st->peer, tagbase + st->tag, scc_work_at(b, off), len);
    case SCC_STEP_RECV_REDUCE:
        return scc_xport_recv_reduce(x, st->peer, tagbase + st->tag, scc_work_at(b, off),
                                     (st->flags & SCC_STEP_F_INPUT) ? scc_input_at(b, off)
                                                                    : NULL,
                                     len / b->dtsize, b->dtype, b->op);
    default:
        return OMPI_ERR_BAD_PARAM;
    }
}

int mca_coll_scc_exec(mca_coll_scc_module_t *m, const scc_plan_t *p, const scc_exec_buf_t *b,
                      uint32_t tagbase)
{
    const scc_sched_t *s = &p->s;
    scc_xport_t *x = m->xp;
    scc_ahead_t ahead = { 0 };
    int rc = OMPI_SUCCESS;

    x->send_copy = 0 != (s->flags & SCC_SCHED_F_SEND_COPY);
    /* an error does not stop the schedule: the rest runs without data, its messages
       poisoned (x->fail), so every peer's schedule ends and no message stays behind */
    for (long i = 0; i < s->nsteps; ++i) {
        int r = scc_exec_step(x, p, b, tagbase, i, &ahead);
        if (OPAL_UNLIKELY(SCC_ERR_RESHAPE == r)) {
            rc = r;     /* nothing taken: the caller runs the call as the root does */
            break;
        }
        scc_xport_note(x, &rc, r);
    }
    x->send_copy = false;
    /* only a reshape leaves receives posted ahead: the call starts again */
    while (ahead.n > 0) {
        scc_xport_cancel(x, ahead.slot[ahead.head]);
        ahead.head = (ahead.head + 1) % SCC_PML_AHEAD;
        ahead.n--;
    }
    return rc;
}

/* ------------------------------------------------------------ pair lists */

/* Where pair list entry i lives at this rank. */
static inline char *scc_pair_at(const scc_plan_t *p, const scc_exec_pairs_t *b, long i)
{
    uint32_t pair = p->s.list[i], n = (uint32_t) b->n;
    int32_t loc = p->loc[i];
    if (SCC_LOC_IN == loc) {
        return (char *) b->input + b->in_off[pair % n];
    }
    if (SCC_LOC_OUT == loc) {
        return b->output + b->out_off[pair / n];
    }
    return b->stage + b->stage_off[loc];
}

/* Bytes of piece k of a pair of `size` bytes. */
static inline size_t scc_piece_len(size_t size, size_t k, size_t piece)
{
    size_t off = k * piece;
    return off >= size ? 0 : (size - off < piece ? size - off : piece);
}

/* Packs (send) or unpacks the pieces of a list step's pairs to or from msg. */
static void scc_pairs_copy(const scc_plan_t *p, const scc_exec_pairs_t *b, const scc_step_t *st,
                           char *msg, bool pack, size_t k, size_t piece)
{
    size_t at = 0;
    for (uint32_t j = 0; j < st->nblocks; ++j) {
        long e = st->block + j;
        size_t len = scc_piece_len(scc_pair_size(b, p->s.list[e]), k, piece);
        char *pair = scc_pair_at(p, b, e) + k * piece;
        SCC_TRACED(SCC_PH_COPY, len, memcpy(pack ? msg + at : pair, pack ? pair : msg + at, len));
        at += len;
    }
}

/* One step of a pair list (piece k), its message `bytes` long. */
static int scc_pairs_step(scc_xport_t *x, const scc_plan_t *p, const scc_exec_pairs_t *b,
                          long i, uint32_t tag, size_t bytes, char *bounce, size_t k,
                          size_t piece)
{
    const scc_step_t *st = &p->s.steps[i];
    const int *readers = NULL != p->readers ? p->readers + p->readers_at[i] : NULL;
    scc_msg_hdr_t *h;
    bool done;
    int rc;

    if (OPAL_UNLIKELY(0 != x->fail)) {
        /* without data: poison out, messages only taken */
        return SCC_STEP_SEND == st->kind
                   ? scc_xport_send(x, tag, NULL, bytes, st->nreaders, false, readers)
                   : scc_xport_recv(x, st->peer, tag, NULL, bytes);
    }
    if (NULL != bounce) {
        if (SCC_STEP_SEND == st->kind) {
            scc_pairs_copy(p, b, st, bounce, true, k, piece);
            return scc_xport_send(x, tag, bounce, bytes, st->nreaders, false, readers);
        }
        rc = scc_xport_recv(x, st->peer, tag, bounce, bytes);
        if (OMPI_SUCCESS == rc) {
            scc_pairs_copy(p, b, st, bounce, false, k, piece);
        }
        return rc;
    }
    if (SCC_STEP_SEND == st->kind) {
        char *slot = scc_xport_send_slot(x, tag, bytes);
        if (NULL == slot) {
            x->fail = OMPI_ERR_BAD_PARAM;
            return scc_xport_send(x, tag, NULL, bytes, st->nreaders, false, readers);
        }
        scc_pairs_copy(p, b, st, slot, true, k, piece);
        scc_xport_send_publish(x, tag, bytes, st->nreaders);
        return OMPI_SUCCESS;
    }
    h = scc_xport_wait(x, st->peer, tag);
    rc = scc_xport_take(x, st->peer, tag, h, &done);
    if (done) {
        return rc;
    }
    if (h->len != bytes) {
        rc = MPI_ERR_TRUNCATE;
    } else {
        scc_pairs_copy(p, b, st, (char *) scc_xport_data(x, st->peer, tag, h), false, k, piece);
    }
    scc_xport_release(x, st->peer, tag);
    return rc;
}

int mca_coll_scc_exec_pairs(mca_coll_scc_module_t *m, const scc_plan_t *p,
                            const scc_exec_pairs_t *b, uint32_t tagbase, size_t k, size_t piece)
{
    scc_xport_t *x = m->xp;
    const scc_sched_t *s = &p->s;
    /* across nodes (the plan names each message's readers) a message is packed aside and
       goes by the transport's own send and receive, over the pml to another node */
    char *bounce = NULL != p->readers ? mca_coll_scc_scratch(m, SCC_SCRATCH_BOUNCE,
                                                             x->slot_size + 1)
                                      : NULL;
    int rc = OMPI_SUCCESS;

    if (NULL != p->readers && NULL == bounce) {
        rc = mca_coll_scc_call_failed(m->xp, true, SCC_ERR_NO_MEM,
                                      "there is no memory for a message buffer");
    }
    x->send_copy = NULL != bounce;
    /* as the executor: an error does not stop the lists, the rest goes without data */
    for (long i = 0; i < s->nsteps; ++i) {
        const scc_step_t *st = &s->steps[i];
        size_t bytes = 0;

        /* both sides know every pair's size: the message is the pairs' pieces, in order */
        for (uint32_t j = 0; j < st->nblocks; ++j) {
            bytes += scc_piece_len(scc_pair_size(b, s->list[st->block + j]), k, piece);
        }
        scc_xport_note(x, &rc, scc_pairs_step(x, p, b, i, tagbase + st->tag, bytes, bounce, k,
                                              piece));
    }
    x->send_copy = false;
    return rc;
}
