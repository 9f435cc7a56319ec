/* coll_scc_xport_pool.c: the budget of slot pages a process keeps committed over all its
 * communicators (coll_scc_xport_pool.h says how). */
#include "coll_scc.h"
#include "coll_scc_xport.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ompi/runtime/mpiruntime.h"

/* One pooled transport */
typedef struct scc_pool_entry {
    scc_xport_t *x;
    struct scc_pool_entry *prev, *next;
    char *slots;                /* its slots' whole pages in my region */
    size_t bytes;
    uint64_t stamp;             /* when its last call began (the pool's clock) */
    uint64_t given_back;        /* times its pages went back to the kernel */
    int busy;                   /* MPI_THREAD_MULTIPLE: 1 a call runs on it, 2 the pool works on
                                   it (another thread), 0 neither */
} scc_pool_entry_t;

static struct {
    pthread_mutex_t lock;       /* the list and the bytes: communicators of several threads */
    scc_pool_entry_t *head;
    size_t warm;                /* bytes of slots counted as taken */
    uint64_t clock;             /* calls begun (approximate across threads: an order, no more) */
    scc_pool_entry_t *owing;    /* the last to end a call owing acknowledgements */
    uint64_t retry;             /* over budget with nothing idle: try again from this call */
    bool broken;                /* the kernel refused to take pages back: no more tries */
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER, .retry = UINT64_MAX };

size_t scc_pool_budget(void)
{
    return (size_t) mca_coll_scc_component.shm_resident;
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
    return !ompi_mpi_thread_multiple
           || __atomic_compare_exchange_n(&e->busy, &idle, 2, false, __ATOMIC_ACQUIRE,
                                          __ATOMIC_RELAXED);
}

static void scc_pool_release(scc_pool_entry_t *e)
{
    if (ompi_mpi_thread_multiple) {
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
    if (pool.owing == e) {
        pool.owing = NULL;
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

/* Gives the least recently used idle communicators' slot pages back until the budget holds
 * (or none is left to give); with the lock held. */
static void scc_pool_trim(scc_xport_t *x)
{
    __atomic_store_n(&pool.retry, UINT64_MAX, __ATOMIC_RELAXED);
    while (pool.warm > scc_pool_budget() && !pool.broken) {
        scc_pool_entry_t *lru = NULL;
        for (scc_pool_entry_t *e = pool.head; NULL != e; e = e->next) {
            if (e->x != x && !e->x->cold && (NULL == lru || e->stamp < lru->stamp)
                && scc_pool_take(e)) {
                if (scc_pool_idle(e)) {
                    if (NULL != lru) {
                        scc_pool_release(lru);
                    }
                    lru = e;
                } else {
                    scc_pool_release(e);
                }
            }
        }
        if (NULL == lru) {
            /* every other one still has readers (acknowledging at their next call):
               over budget until then, tried again at the calls that begin meanwhile */
            __atomic_store_n(&pool.retry, pool.clock + 8, __ATOMIC_RELAXED);
            return;
        }
        if (0 != madvise(lru->slots, lru->bytes, MADV_REMOVE)) {
            SCC_VERBOSE(1, "coll:scc: slot pages cannot be given back (%s): "
                        "coll_scc_shm_resident no longer bounds them", strerror(errno));
            pool.broken = true;
        } else {
            lru->x->cold = true;
            lru->given_back++;
            pool.warm -= lru->bytes;
        }
        scc_pool_release(lru);
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
    scc_pool_entry_t *e = x->pool, *o;
    uint64_t now = __atomic_load_n(&pool.clock, __ATOMIC_RELAXED) + 1;

    if (ompi_mpi_thread_multiple) {
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
    __atomic_store_n(&pool.clock, now, __ATOMIC_RELAXED);
    e->stamp = now;
    /* over budget since a communicator found no other idle: another may be by now */
    if (OPAL_UNLIKELY(now >= __atomic_load_n(&pool.retry, __ATOMIC_RELAXED))) {
        pthread_mutex_lock(&pool.lock);
        scc_pool_trim(x);
        pthread_mutex_unlock(&pool.lock);
    }
    /* what I owe on the communicator I used before this one: its senders may want its slots
       back for another, and I may not call on it again for a long time */
    o = __atomic_load_n(&pool.owing, __ATOMIC_RELAXED);
    if (OPAL_UNLIKELY(NULL != o && o != e)) {
        pthread_mutex_lock(&pool.lock);
        o = pool.owing;
        if (NULL != o && o != e && scc_pool_take(o)) {
            scc_xport_flush_later(o->x, false);
            scc_pool_release(o);
            pool.owing = NULL;
        }
        pthread_mutex_unlock(&pool.lock);
    }
}

void scc_pool_end(scc_xport_t *x)
{
    scc_pool_entry_t *e = x->pool;

    if (x->nlater > 0) {
        __atomic_store_n(&pool.owing, e, __ATOMIC_RELAXED);
    }
    if (ompi_mpi_thread_multiple) {
        __atomic_store_n(&e->busy, 0, __ATOMIC_RELEASE);
    }
}
