/* coll_scc_scratch.c: the scratch buffers of a call.
 *
 * A module keeps small scratch buffers (up to SCC_SCRATCH_KEEP bytes each) for its own calls,
 * so that a small call takes no lock and allocates nothing.  Larger ones are leased for the
 * call from buffers the process keeps over all its communicators, and go back to them when
 * the call ends (mca_coll_scc_scratch_return): memory then grows with the calls in flight,
 * not with the number of communicators that once moved a large message, and a large
 * buffer's pages, touched once, serve every communicator after it. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_agree.h"
#include "coll_scc_exec.h"

/* Buffers the process keeps while no call uses them: the largest, at most this many (a call
 * uses up to SCC_NSCRATCH at once). */
#define SCC_SCRATCH_IDLE 8

static struct {
    void *ptr;
    size_t bytes;
} scc_idle[SCC_SCRATCH_IDLE];
static int scc_nidle;
static pthread_mutex_t scc_idle_lock = PTHREAD_MUTEX_INITIALIZER;

/* A buffer of at least `bytes`: the smallest idle one that fits, else a new one (an idle one
 * too small is freed for it, so that the idle ones do not pile up in small sizes). */
static void *scc_lease(size_t bytes, size_t *got)
{
    int best = -1, small = -1;
    void *p = NULL, *drop = NULL;

    pthread_mutex_lock(&scc_idle_lock);
    for (int i = 0; i < scc_nidle; ++i) {
        if (scc_idle[i].bytes >= bytes) {
            if (best < 0 || scc_idle[i].bytes < scc_idle[best].bytes) {
                best = i;
            }
        } else if (small < 0 || scc_idle[i].bytes < scc_idle[small].bytes) {
            small = i;
        }
    }
    if (best < 0 && SCC_SCRATCH_IDLE == scc_nidle) {
        best = small;               /* (full: the smallest makes way) */
    }
    if (best >= 0) {
        p = scc_idle[best].ptr;
        *got = scc_idle[best].bytes;
        scc_idle[best] = scc_idle[--scc_nidle];
    }
    pthread_mutex_unlock(&scc_idle_lock);
    if (NULL != p && *got < bytes) {
        drop = p;
        p = NULL;
    }
    free(drop);
    if (NULL == p) {
        p = malloc(bytes);
        *got = bytes;
    }
    return p;
}

/* Gives a leased buffer back: kept idle, unless the idle ones are as many as kept and none is
 * smaller (then it is freed; else the smallest is). */
static void scc_unlease(void *p, size_t bytes)
{
    void *drop = p;
    int at;

    pthread_mutex_lock(&scc_idle_lock);
    at = scc_nidle;
    if (SCC_SCRATCH_IDLE == scc_nidle) {
        at = 0;
        for (int i = 1; i < scc_nidle; ++i) {
            at = scc_idle[i].bytes < scc_idle[at].bytes ? i : at;
        }
        at = scc_idle[at].bytes < bytes ? at : -1;
    }
    if (at >= 0) {
        drop = at < scc_nidle ? scc_idle[at].ptr : NULL;
        scc_nidle += at == scc_nidle;
        scc_idle[at].ptr = p;
        scc_idle[at].bytes = bytes;
    }
    pthread_mutex_unlock(&scc_idle_lock);
    free(drop);
}

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
    if (s->ptr == s->own && bytes <= SCC_SCRATCH_KEEP) {
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

void mca_coll_scc_scratch_close(void)
{
    pthread_mutex_lock(&scc_idle_lock);
    for (int i = 0; i < scc_nidle; ++i) {
        free(scc_idle[i].ptr);
    }
    scc_nidle = 0;
    pthread_mutex_unlock(&scc_idle_lock);
}
