/* coll_scc_xport_pool.c: the budget of slot pages a process keeps committed over all its
 * communicators (coll_scc_xport_pool.h says how). */
#include "coll_scc_component.h"
#include "coll_scc_xport.h"
#include "coll_scc_xport_slots.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* One pooled transport */
typedef struct scc_pool_entry {
    scc_xport_t *x;
    struct scc_pool_entry *prev, *next;
    char *slots;                /* its slots' whole pages in my region */
    size_t bytes;
    uint64_t given_back;        /* times its pages went back to the kernel */
    int busy;                   /* MPI_THREAD_MULTIPLE: 1 a call runs on it, 2 the pool works on
                                   it (another thread), 0 neither */
} scc_pool_entry_t;

static struct {
    pthread_mutex_t lock;       /* the list and the bytes: communicators of several threads */
    scc_pool_entry_t *head;
    scc_pool_entry_t *hand;     /* where the last search for a victim stopped (a clock) */
    size_t warm;                /* bytes of slots counted as taken */
    bool broken;                /* the kernel refused to take pages back: no more tries */
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Read at every call (scc_pool_enter): the transport that last ended a call still owing
 * acknowledgements, and the calls to let pass before trying again to keep the budget. */
struct scc_xport *scc_pool_owing = NULL;
int scc_pool_retry = 0;
bool mca_coll_scc_threads = false;

size_t scc_pool_budget(void)
{
    return (size_t) mca_coll_scc_config.shm_resident;
}

uint64_t scc_pool_given_back(const scc_xport_t *x)
{
    uint64_t n = 0;
    if (NULL != x->pool) {
        pthread_mutex_lock(&pool.lock);
        n = x->pool->given_back;
        pthread_mutex_unlock(&pool.lock);
    }
    return n;
}

size_t scc_pool_warm_bytes(void)
{
    size_t warm;
    pthread_mutex_lock(&pool.lock);
    warm = pool.warm;
    pthread_mutex_unlock(&pool.lock);
    return warm;
}

/* Another thread's call may be running on e: take e only when none is (true), and leave it
 * with scc_pool_release.  One thread: nothing else runs, e is free. */
static bool scc_pool_take(scc_pool_entry_t *e)
{
    int idle = 0;
    return !mca_coll_scc_threads
           || __atomic_compare_exchange_n(&e->busy, &idle, 2, false, __ATOMIC_ACQUIRE,
                                          __ATOMIC_RELAXED);
}

static void scc_pool_release(scc_pool_entry_t *e)
{
    if (mca_coll_scc_threads) {
        __atomic_store_n(&e->busy, 0, __ATOMIC_RELEASE);
    }
}

void scc_pool_add(scc_xport_t *x, char *slots, size_t bytes)
{
    scc_pool_entry_t *e;

    if (0 == scc_pool_budget() || 0 == bytes || NULL == (e = calloc(1, sizeof(*e)))) {
        return;   /* unbounded (or no room to say so): the slots stay as they are */
    }
    e->x = x;
    e->slots = slots;
    e->bytes = bytes;
    pthread_mutex_lock(&pool.lock);
    e->next = pool.head;
    if (NULL != pool.head) {
        pool.head->prev = e;
    }
    pool.head = e;
    pthread_mutex_unlock(&pool.lock);
    x->pool = e;
    x->cold = true;   /* a memfd's untouched pages: nothing taken yet */
}

void scc_pool_remove(scc_xport_t *x)
{
    scc_pool_entry_t *e = x->pool;

    if (NULL == e) {
        return;
    }
    pthread_mutex_lock(&pool.lock);   /* no other thread works on e while this is held */
    if (NULL != e->prev) {
        e->prev->next = e->next;
    } else {
        pool.head = e->next;
    }
    if (NULL != e->next) {
        e->next->prev = e->prev;
    }
    if (!x->cold) {
        pool.warm -= e->bytes;
    }
    if (pool.hand == e) {
        pool.hand = e->next;
    }
    if (__atomic_load_n(&scc_pool_owing, __ATOMIC_RELAXED) == x) {
        __atomic_store_n(&scc_pool_owing, NULL, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&pool.lock);
    x->pool = NULL;
    free(e);
}

/* True when every message e's owner put in its slots was read by all its readers. */
static bool scc_pool_idle(scc_pool_entry_t *e)
{
    scc_xport_t *y = e->x;
    if (0 != y->cma_pending) {
        return false;
    }
    for (int s = 0; s < y->nslots; ++s) {
        if (!scc_xport_slot_free(y, s)) {
            return false;
        }
    }
    return true;
}

/* The next communicator whose slot pages can go back, other than x: idle (its readers are
 * done) and not used since the hand last passed it (a second chance, as a clock keeps the
 * pages of the least recently used); taken (scc_pool_take), or NULL.  With the lock held. */
static scc_pool_entry_t *scc_pool_victim(scc_xport_t *x)
{
    int steps = 0, n = 0;

    for (scc_pool_entry_t *e = pool.head; NULL != e; e = e->next) {
        n++;
    }
    /* twice round: the first pass may only clear the marks of use */
    for (scc_pool_entry_t *e = pool.hand; steps < 2 * n; ++steps) {
        if (NULL == e) {
            e = pool.head;
        }
        pool.hand = e->next;
        if (e->x != x && !e->x->cold) {
            if (e->x->pool_used) {
                e->x->pool_used = false;
            } else if (scc_pool_take(e)) {
                if (scc_pool_idle(e)) {
                    return e;
                }
                scc_pool_release(e);
            }
        }
        e = e->next;
    }
    return NULL;
}

/* Gives idle communicators' slot pages back until the budget holds (or none is left to
 * give); with the lock held. */
static void scc_pool_trim(scc_xport_t *x)
{
    __atomic_store_n(&scc_pool_retry, 0, __ATOMIC_RELAXED);
    while (pool.warm > scc_pool_budget() && !pool.broken) {
        scc_pool_entry_t *v = scc_pool_victim(x);
        if (NULL == v) {
            /* every other one still has readers (acknowledging at their next call): over
               budget until then, tried again some calls later */
            __atomic_store_n(&scc_pool_retry, 8, __ATOMIC_RELAXED);
            return;
        }
        if (0 != madvise(v->slots, v->bytes, MADV_REMOVE)) {
            SCC_VERBOSE(1, "coll:scc: slot pages cannot be given back (%s): "
                        "coll_scc_shm_resident no longer bounds them", strerror(errno));
            pool.broken = true;
        } else {
            v->x->cold = true;
            v->given_back++;
            pool.warm -= v->bytes;
        }
        scc_pool_release(v);
    }
}

void scc_pool_warm(scc_xport_t *x)
{
    scc_pool_entry_t *e = x->pool;

    x->cold = false;
    if (NULL == e) {
        return;
    }
    pthread_mutex_lock(&pool.lock);
    pool.warm += e->bytes;
    scc_pool_trim(x);
    pthread_mutex_unlock(&pool.lock);
}

void scc_pool_begin(scc_xport_t *x)
{
    scc_pool_entry_t *e = x->pool;
    scc_xport_t *o;

    if (mca_coll_scc_threads) {
        int idle = 0;
        /* the pool may be looking at x for a moment (another thread's trim); 1 is this
           thread's own mark (one thread at a time calls on a communicator) left by a call
           that did not end */
        while (!__atomic_compare_exchange_n(&e->busy, &idle, 1, false, __ATOMIC_ACQUIRE,
                                            __ATOMIC_RELAXED) && 1 != idle) {
            idle = 0;
            scc_cpu_relax();
        }
    }
    /* over budget since a communicator found no other idle: another may be by now */
    if (OPAL_UNLIKELY(0 != __atomic_load_n(&scc_pool_retry, __ATOMIC_RELAXED))
        && 0 == __atomic_sub_fetch(&scc_pool_retry, 1, __ATOMIC_RELAXED)) {
        pthread_mutex_lock(&pool.lock);
        scc_pool_trim(x);
        pthread_mutex_unlock(&pool.lock);
    }
    /* what I owe on the communicator I used before this one: its senders may want its slots
       back for another, and I may not call on it again for a long time */
    o = __atomic_load_n(&scc_pool_owing, __ATOMIC_RELAXED);
    if (NULL != o && o != x) {
        pthread_mutex_lock(&pool.lock);
        o = scc_pool_owing;
        if (NULL != o && o != x && scc_pool_take(o->pool)) {
            scc_xport_flush_later(o, false);
            scc_pool_release(o->pool);
            __atomic_store_n(&scc_pool_owing, NULL, __ATOMIC_RELAXED);
        }
        pthread_mutex_unlock(&pool.lock);
    }
}

void scc_pool_end(scc_xport_t *x)
{
    __atomic_store_n(&x->pool->busy, 0, __ATOMIC_RELEASE);
}
