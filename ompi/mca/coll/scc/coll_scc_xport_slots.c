/* coll_scc_xport_slots.c: the slot engine's out-of-line parts (coll_scc_xport_slots.h) --
 * the readers' acks of my slots summed, and the acks I deferred settled -- shared by the
 * transports' files below the generic one (coll_scc_xport.c). */
#include "coll_scc_component.h"
#include "coll_scc_xport.h"
#include "coll_scc_xport_slots.h"

#include <string.h>

void scc_xport_ack_scan(scc_xport_t *x)
{
    uint32_t sum[64] = { 0 };   /* nslots <= 64 */

    if (OPAL_UNLIKELY(x->invalidate)) {
        scc_mpb_invalidate();
    }
    for (int r = 0; r < x->size; ++r) {
        const volatile uint32_t *line = scc_ackline(x, x->rank, r);
        if (r == x->rank) {
            continue;
        }
        for (int slot = 0; slot < x->nslots; ++slot) {
            sum[slot] += scc_load32(&line[slot]);
        }
    }
    memcpy(x->acked, sum, x->nslots * sizeof(uint32_t));
}

void scc_xport_flush_later(scc_xport_t *x, bool only_old)
{
    scc_try_t *t = x->trying;
    /* in a try, the first t->nlater are earlier calls' reads: out now (any time is right
       for them), the try's own are held back (its task reads them again) */
    int earlier = NULL != t ? t->nlater : 0, keep = 0;

    for (int i = 0; i < x->nlater; ++i) {
        if (only_old && x->later[i].call == x->call) {
            x->later[keep++] = x->later[i];
            continue;
        }
        if (i < earlier) {
            scc_ack_write(x, x->later[i].peer, x->later[i].slot);
        } else {
            scc_ack_put(x, x->later[i].peer, x->later[i].slot);
        }
    }
    x->nlater = keep;
    if (NULL != t) {
        t->nlater = 0;      /* (what is kept is the try's: those of its call) */
    }
    scc_mpb_flush(x);
}
