/* coll_scc_scratch.c: the scratch buffers of a call.
 *
 * A module keeps small scratch buffers (up to SCC_LEASE_MIN bytes each) for its own calls,
 * so that a small call takes no lock and allocates nothing.  Larger ones are leased for the
 * call (coll_scc_lease.h) and go back when the call ends (mca_coll_scc_scratch_return). */
#include <stdlib.h>
#include <string.h>

#include "coll_scc_agree.h"
#include "coll_scc_exec.h"
#include "coll_scc_lease.h"

void *mca_coll_scc_scratch(mca_coll_scc_module_t *m, int which, size_t bytes)
{
    scc_scratch_t *s = &m->scratch[which];
    void *p;
    size_t got;

    if (OPAL_UNLIKELY(mca_coll_scc_faults) && mca_coll_scc_fault(&m->members, "scratch")) {
        return NULL;
    }
    if (OPAL_LIKELY(bytes <= s->bytes)) {
        return s->ptr;
    }
    if (s->ptr == s->own && bytes <= SCC_LEASE_MIN) {
        /* the module's own, grown */
        if (NULL == (p = realloc(s->own, bytes))) {
            return NULL;
        }
        s->ptr = s->own = p;
        s->bytes = s->own_bytes = bytes;
        return p;
    }
    if (NULL == (p = scc_lease(bytes, &got))) {
        return NULL;
    }
    if (NULL != s->ptr) {
        /* (what the call put there stays, as a grown buffer keeps it) */
        memcpy(p, s->ptr, s->bytes);
        if (s->ptr != s->own) {
            scc_unlease(s->ptr, s->bytes);
        } else {
            m->leases++;
        }
    } else {
        m->leases++;
    }
    s->ptr = p;
    s->bytes = got;
    return p;
}

void mca_coll_scc_scratch_return_leased(mca_coll_scc_module_t *m)
{
    for (int i = 0; i < SCC_NSCRATCH; ++i) {
        scc_scratch_t *s = &m->scratch[i];
        if (s->ptr != s->own) {
            scc_unlease(s->ptr, s->bytes);
            s->ptr = s->own;
            s->bytes = s->own_bytes;
        }
    }
    m->leases = 0;
}

void mca_coll_scc_scratch_free(mca_coll_scc_module_t *m)
{
    mca_coll_scc_scratch_return(m);
    for (int i = 0; i < SCC_NSCRATCH; ++i) {
        free(m->scratch[i].own);
    }
    memset(m->scratch, 0, sizeof(m->scratch));
}
