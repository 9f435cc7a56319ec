/* coll_scc_xport_try.c: a call tried on its caller's stack -- its abandon
 * (coll_scc_xport_try.h, where its log is, inline; its start and commit are the slot
 * engine's, coll_scc_xport.c). */
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
