/* coll_scc_xport_try.c: a call tried on its caller's stack -- the log of what it holds back,
 * and its abandon (coll_scc_xport_try.h; its start and commit are the slot engine's,
 * coll_scc_xport.c). */
#include <string.h>

#include "coll_scc_xport_slots.h"
#include "coll_scc_xport_try.h"

void scc_try_abort(scc_xport_t *x)
{
    scc_try_t *t = x->trying;

    x->trying = NULL;
#define SCC_TRY_RESTORE(f) SCC_TRY_COPY(x, t, f)
    SCC_TRY_SAVED(SCC_TRY_RESTORE)
#undef SCC_TRY_RESTORE
    memcpy(x->traffic, t->traffic, sizeof(t->traffic));
    /* the reads it made are read again by the task: their acks owed are dropped, those
       earlier calls owe kept (the first t->nlater, unless settled in the try) */
    x->nlater = t->nlater;
    SCC_TRY_LONGJMP(t->env);
}

static scc_try_op_t *scc_try_next(scc_xport_t *x)
{
    scc_try_t *t = x->trying;
    if (t->n == SCC_TRY_LOG) {
        scc_try_abort(x);
    }
    return &t->log[t->n++];
}

void scc_try_log_publish(scc_xport_t *x, int slot, uint64_t id, int nreaders, bool replayable)
{
    scc_try_op_t *op = scc_try_next(x);
    op->what = SCC_TRY_PUBLISH;
    op->replayable = replayable;
    op->slot = slot;
    op->peer = nreaders;
    op->id = id;
    x->trying->held |= 1ull << slot;
}

void scc_try_log_ack(scc_xport_t *x, int peer, int slot)
{
    scc_try_op_t *op = scc_try_next(x);
    op->what = SCC_TRY_ACK;
    op->peer = peer;
    op->slot = slot;
}

void scc_try_log_flag(scc_xport_t *x, volatile uint64_t *p, uint64_t v)
{
    scc_try_op_t *op = scc_try_next(x);
    op->what = SCC_TRY_FLAG;
    op->flag = p;
    op->value = v;
    x->trying->nflags++;
}
