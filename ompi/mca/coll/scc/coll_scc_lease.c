/* coll_scc_lease.c: large buffers lent for a call from those the process keeps over all its
 * communicators (coll_scc_lease.h). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "coll_scc_lease.h"

/* Buffers the process keeps while no call uses them: the largest, at most this many (a call
 * leases up to 7 scratch buffers, its messages' copies and a block read). */
#define SCC_LEASE_IDLE 8
/* ... of at most this many bytes together (a buffer that would pass it is freed), and each
 * for at most SCC_LEASE_IDLE_NS: one freed when a buffer comes back after that (a call's
 * gigabyte is not kept for the rest of the job, while calls that come back to back find
 * their pages touched -- in a virtual machine a first touch costs more than the copy: a
 * 64 MB bound freed the 108 MB of a struct gather at every call, 15 times slower) */
#define SCC_LEASE_IDLE_BYTES ((size_t) 1 << 30)
#define SCC_LEASE_IDLE_NS 2000000000ull

static struct {
    void *ptr;
    size_t bytes;
    uint64_t since;                 /* when it came back */
} scc_idle[SCC_LEASE_IDLE];
static int scc_nidle;
static size_t scc_idle_bytes;
static uint64_t scc_lent, scc_fresh;     /* buffers lent, of them new (scc_lease_close) */
static pthread_mutex_t scc_idle_lock = PTHREAD_MUTEX_INITIALIZER;

/* A buffer of at least `bytes`: the smallest idle one that fits, else a new one (an idle one
 * too small is freed for it, so that the idle ones do not pile up in small sizes). */
void *scc_lease(size_t bytes, size_t *got)
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
    if (best < 0 && SCC_LEASE_IDLE == scc_nidle) {
        best = small;               /* (full: the smallest makes way) */
    }
    if (best >= 0) {
        p = scc_idle[best].ptr;
        *got = scc_idle[best].bytes;
        scc_idle_bytes -= *got;
        scc_idle[best] = scc_idle[--scc_nidle];
    }
    scc_lent++;
    scc_fresh += NULL == p || *got < bytes;
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

static uint64_t scc_lease_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

/* Gives a leased buffer back: kept idle, unless the idle ones are as many as kept and none is
 * smaller (then it is freed; else the smallest is), or it would take the idle ones past
 * SCC_LEASE_IDLE_BYTES; idle ones older than SCC_LEASE_IDLE_NS are freed. */
void scc_unlease(void *p, size_t bytes)
{
    void *drop = p, *old[SCC_LEASE_IDLE];
    const uint64_t now = scc_lease_now();
    int at, nold = 0;

    pthread_mutex_lock(&scc_idle_lock);
    for (int i = 0; i < scc_nidle; ++i) {
        /* (another thread may have given one back after my clock read) */
        if (now > scc_idle[i].since && now - scc_idle[i].since > SCC_LEASE_IDLE_NS) {
            old[nold++] = scc_idle[i].ptr;
            scc_idle_bytes -= scc_idle[i].bytes;
            scc_idle[i--] = scc_idle[--scc_nidle];
        }
    }
    at = scc_nidle;
    if (SCC_LEASE_IDLE == scc_nidle) {
        at = 0;
        for (int i = 1; i < scc_nidle; ++i) {
            at = scc_idle[i].bytes < scc_idle[at].bytes ? i : at;
        }
        at = scc_idle[at].bytes < bytes ? at : -1;
    }
    if (at >= 0 && scc_idle_bytes - (at < scc_nidle ? scc_idle[at].bytes : 0) + bytes
                       > SCC_LEASE_IDLE_BYTES) {
        at = -1;
    }
    if (at >= 0) {
        if (at < scc_nidle) {
            drop = scc_idle[at].ptr;
            scc_idle_bytes -= scc_idle[at].bytes;
        } else {
            drop = NULL;
            scc_nidle++;
        }
        scc_idle[at].ptr = p;
        scc_idle[at].bytes = bytes;
        scc_idle[at].since = now;
        scc_idle_bytes += bytes;
    }
    pthread_mutex_unlock(&scc_idle_lock);
    free(drop);
    while (nold > 0) {
        free(old[--nold]);
    }
}

bool scc_lease_room(void **buf, size_t *cap, size_t len)
{
    void *p;
    size_t got = len;

    if (len <= *cap) {
        return true;
    }
    p = len <= SCC_LEASE_MIN ? realloc(*buf, len) : scc_lease(len, &got);
    if (NULL == p) {
        return false;
    }
    if (len > SCC_LEASE_MIN) {
        /* (any buffer of malloc's may go back: the idle ones are only freed) */
        if (*cap > SCC_LEASE_MIN) {
            scc_unlease(*buf, *cap);
        } else {
            free(*buf);
        }
    }
    *buf = p;
    *cap = got;
    return true;
}

void scc_lease_end(void **buf, size_t *cap)
{
    if (*cap > SCC_LEASE_MIN) {
        scc_unlease(*buf, *cap);
        *buf = NULL;
        *cap = 0;
    }
}

void scc_lease_close(uint64_t *lent, uint64_t *fresh)
{
    *lent = scc_lent;
    *fresh = scc_fresh;
    pthread_mutex_lock(&scc_idle_lock);
    for (int i = 0; i < scc_nidle; ++i) {
        free(scc_idle[i].ptr);
    }
    scc_nidle = 0;
    scc_idle_bytes = 0;
    pthread_mutex_unlock(&scc_idle_lock);
}
