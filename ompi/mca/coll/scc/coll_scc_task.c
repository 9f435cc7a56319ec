/* coll_scc_task.c: the engine of nonblocking and persistent collectives -- tasks queued per
 * communicator, resumed from Open MPI's progress loop, their requests. */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_task.h"
#include "coll_scc_xport.h"
#include "opal/runtime/opal_progress.h"

int mca_coll_scc_task_stack = 256 * 1024;

/* Modules with tasks queued, and the lock of every queue (a progress call that finds it
 * taken leaves the turn to the thread holding it). */
static mca_coll_scc_module_t *scc_active;
static volatile int scc_lock_word;
static bool scc_registered;

/* The thread holding the lock (threads; 0 when none) and how deep: a progress call made
 * inside a task (ob1's probe of the pml transport progresses Open MPI) may start a
 * collective -- the agreement of a new communicator's id, a step of MPI_Comm_idup -- whose
 * entry takes the lock again in the thread that holds it. */
static pthread_t scc_lock_owner;
static int scc_lock_depth;

/* Tasks started by a progress call inside a task, and queued (verbose 2 at the end). */
static uint64_t scc_nested;

/* Tasks ended and released, kept with their stacks for the next calls. */
#define SCC_TASK_CACHE 64
static mca_coll_scc_task_t *scc_cache[SCC_TASK_CACHE];
static int scc_ncache;

/* The same word without atomics when one thread calls MPI: then it only keeps a progress
 * call made inside a task (a fallback's start may progress) from resuming the running task. */
static inline bool scc_trylock(void)
{
    if (!opal_using_threads()) {
        if (scc_lock_word) {
            return false;
        }
        scc_lock_word = 1;
        scc_lock_depth = 1;
        return true;
    }
    if (0 != __atomic_exchange_n(&scc_lock_word, 1, __ATOMIC_ACQUIRE)) {
        return false;
    }
    scc_lock_owner = pthread_self();
    scc_lock_depth = 1;
    return true;
}

/* True when the calling thread holds the lock (one thread: whenever it is taken).  The
 * owner is cleared before the word is: another thread's id or 0 is never taken for mine. */
static inline bool scc_lock_mine(void)
{
    return 0 != __atomic_load_n(&scc_lock_word, __ATOMIC_ACQUIRE)
           && (!opal_using_threads()
               || pthread_equal(__atomic_load_n(&scc_lock_owner, __ATOMIC_RELAXED),
                                pthread_self()));
}

bool mca_coll_scc_task_lock_held(void)
{
    return scc_lock_mine();
}

static inline void scc_lock(void)
{
    if (OPAL_UNLIKELY(scc_lock_mine())) {
        scc_lock_depth++;
        return;
    }
    while (!scc_trylock()) {
        sched_yield();
    }
}

static inline void scc_unlock(void)
{
    if (--scc_lock_depth > 0) {
        return;
    }
    __atomic_store_n(&scc_lock_owner, (pthread_t) 0, __ATOMIC_RELAXED);
    __atomic_store_n(&scc_lock_word, 0, __ATOMIC_RELEASE);
}

static void scc_task_construct(mca_coll_scc_task_t *t)
{
    memset(&t->fiber, 0, sizeof(t->fiber));
    t->m = NULL;
    t->comm = NULL;
    t->next = NULL;
    t->queued = t->freed = t->retained = false;
    t->kept = NULL;
    t->kept_bytes = 0;
}

static void scc_task_destruct(mca_coll_scc_task_t *t)
{
    scc_fiber_fini(&t->fiber);
    free(t->kept);
}

OBJ_CLASS_INSTANCE(mca_coll_scc_task_t, ompi_coll_base_nbc_request_t, scc_task_construct,
                   scc_task_destruct);

/* ------------------------------------------------------------ the cache */

/* Keeps an ended task and its stack for the next calls, if there is room (the lock held). */
static bool scc_task_cache_put(mca_coll_scc_task_t *t)
{
    if (scc_ncache < SCC_TASK_CACHE) {
        scc_cache[scc_ncache++] = t;
        return true;
    }
    return false;
}

/* Gives a task back: its request is finished, the task and its stack go to the cache. */
static void scc_task_release(mca_coll_scc_task_t *t)
{
    bool kept;

    if (t->retained) {
        t->retained = false;
        OBJ_RELEASE(t->comm);
    }
    OMPI_REQUEST_FINI(&t->super.super);
    scc_lock();
    kept = scc_task_cache_put(t);
    scc_unlock();
    if (!kept) {
        OBJ_RELEASE(t);
    }
}

/* ------------------------------------------------------------ running */

static void scc_task_body(void *arg)
{
    mca_coll_scc_task_t *t = (mca_coll_scc_task_t *) arg;
    t->rc = t->run(t);
    mca_coll_scc_scratch_return(t->m);
}

/* A cycle count where one is cheap (x86's time-stamp counter), else 0. */
static inline uint64_t scc_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#else
    return 0;
#endif
}

/* Resumed again within this many cycles (about a microsecond): its caller is waiting for it
 * (MPI_Wait's loop), not testing it between computations (MPI_Test). */
#define SCC_TASK_HOT 3000
#define SCC_TASK_START_SPIN 8

/* Polls of a task its caller waits for between two progress turns: a blocking call's
 * wait progresses Open MPI once per 16 polls (scc_pause); so does the task, so that
 * MPI_Wait sees the peer as soon as the blocking call would.  Oversubscribed: one poll, the
 * core goes to the peer at once. */
#define SCC_TASK_HOT_SPIN 16

/* Runs t until it waits or ends (the lock held).  The clock is read only when it is resumed
 * again (reading it costs tens of nanoseconds on some machines): a call that ends at once
 * never reads it. */
static void scc_task_resume(mca_coll_scc_task_t *t)
{
    mca_coll_scc_module_t *m = t->m;
    scc_xport_t *x = m->xp;
    bool first = 0 == t->last, hot = false;

    if (!first) {
        uint64_t now = scc_ticks();
        hot = now - t->last < SCC_TASK_HOT;
        t->last = now | 1;      /* (without a cycle counter: never hot, never first again) */
    }
    m->cur_fiber = &t->fiber;
    m->form = t->form;
    if (NULL != x) {
        x->fiber = &t->fiber;
        /* (at its start a few polls: a peer that is there answers within them) */
        x->fiber_spin = hot ? (x->yield ? x->spin : SCC_TASK_HOT_SPIN)
                            : (first ? SCC_TASK_START_SPIN : 0);
    }
    scc_fiber_resume(&t->fiber);
    x = m->xp;      /* (the task may have set the communicator up) */
    if (NULL != x) {
        x->fiber = NULL;
    }
    m->form = SCC_FORM_B;
    m->cur_fiber = NULL;
    if (first && !t->fiber.done) {
        t->last = scc_ticks() | 1;      /* (never 0: 0 is "not resumed yet") */
    }
}

/* Advances m's queue: its head runs until it waits; each task that ends goes onto *done and
 * the next one starts at once (the lock held). */
static void scc_task_advance(mca_coll_scc_module_t *m, mca_coll_scc_task_t **done)
{
    mca_coll_scc_task_t *t;

    while (NULL != (t = m->q_head)) {
        scc_task_resume(t);
        if (!t->fiber.done) {
            return;
        }
        /* (release: a blocking call waiting for an empty queue then sees the task done) */
        __atomic_store_n(&m->q_head, t->next, __ATOMIC_RELEASE);
        if (NULL == m->q_head) {
            m->q_tail = NULL;
        }
        t->next = *done;
        *done = t;
    }
}

/* Ends the requests of tasks that ended (the lock not held: a release may free the
 * communicator).  Returns how many. */
static int scc_task_finish(mca_coll_scc_task_t *done)
{
    int n = 0;

    while (NULL != done) {
        mca_coll_scc_task_t *t = done;
        done = t->next;
        t->next = NULL;
        t->queued = false;
        t->super.super.req_status.MPI_ERROR = t->rc;
        n++;
        if (t->freed) {
            /* freed while it ran: nobody waits for it */
            t->freed = false;
            scc_task_release(t);
            continue;
        }
        ompi_request_complete(&t->super.super, true);
    }
    return n;
}

/* Takes the modules whose queues are empty off the active list (the lock held). */
static void scc_task_prune(void)
{
    mca_coll_scc_module_t **p = &scc_active;
    while (NULL != *p) {
        mca_coll_scc_module_t *m = *p;
        if (NULL == m->q_head) {
            *p = m->q_next;
            m->q_next = NULL;
            m->q_listed = false;
        } else {
            p = &m->q_next;
        }
    }
}

/* Open MPI's progress loop: every queue's head advances once. */
static int scc_task_progress(void)
{
    mca_coll_scc_task_t *done = NULL;

    if (NULL == __atomic_load_n(&scc_active, __ATOMIC_RELAXED) || !scc_trylock()) {
        return 0;
    }
    for (mca_coll_scc_module_t *m = scc_active; NULL != m; m = m->q_next) {
        scc_task_advance(m, &done);
    }
    scc_task_prune();
    scc_unlock();
    return scc_task_finish(done);
}

static int scc_task_free(ompi_request_t **req);
static int scc_task_cancel(ompi_request_t *req, int complete);
static int scc_task_start(size_t count, ompi_request_t **reqs);

/* Makes t's request, for a persistent task at its init, for a nonblocking one when it did
 * not end at its start (a call whose peers were there never makes one). */
static void scc_task_request_init(mca_coll_scc_task_t *t, bool persistent)
{
    ompi_request_t *r = &t->super.super;

    OMPI_REQUEST_INIT(r, persistent);
    r->req_type = OMPI_REQUEST_COLL;
    r->req_mpi_object.comm = t->comm;
    r->req_free = scc_task_free;
    r->req_cancel = scc_task_cancel;
    r->req_start = persistent ? scc_task_start : NULL;
    r->req_status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->req_status.MPI_TAG = MPI_ANY_TAG;
    r->req_status.MPI_ERROR = OMPI_SUCCESS;
    r->req_status._cancelled = 0;
    if (!persistent) {
        r->req_state = OMPI_REQUEST_ACTIVE;
    }
    /* (a task from the cache: what the MPI layer retained through it was let go) */
    memset(&t->super.cb, 0, sizeof(t->super.cb));
    t->super.req_complete_cb_data = NULL;
    memset(&t->super.data, 0, sizeof(t->super.data));
}

/* Queues t on its communicator; the first of the queue starts at once.  A nonblocking
 * task (eager) that ends there is not completed: it goes back to the cache and true is
 * returned with its code in *rc (its caller returns the empty request); else its request is
 * made and the task keeps its communicator until its end. */
static bool scc_task_enqueue(mca_coll_scc_task_t *t, bool eager, int *rc)
{
    mca_coll_scc_module_t *m = t->m;
    mca_coll_scc_task_t *done = NULL, *quiet = NULL;
    bool ended = false, nested;

    t->queued = true;
    t->last = 0;
    t->next = NULL;
    t->rc = OMPI_SUCCESS;
    scc_fiber_start(&t->fiber, scc_task_body, t);
    /* (started inside a task, from a progress call there: only queued, the progress loop
       runs it -- a task does not run inside another) */
    nested = scc_lock_mine();
    scc_lock();
    scc_nested += nested;
    if (NULL == m->q_tail) {
        m->q_head = m->q_tail = t;
    } else {
        m->q_tail->next = t;
        m->q_tail = t;
    }
    if (m->q_head == t && !nested) {
        /* nothing before it on this communicator: it runs to its first wait now, and a
           call whose peers are there already ends before the request is returned */
        scc_task_advance(m, &done);
    }
    if (NULL != m->q_head && !m->q_listed) {
        /* (only a queue left waiting needs the progress loop) */
        m->q_listed = true;
        m->q_next = scc_active;
        __atomic_store_n(&scc_active, m, __ATOMIC_RELEASE);
    } else if (NULL == m->q_head && m->q_listed) {
        scc_task_prune();
    }
    if (!eager && done == t) {
        /* a persistent start that ended alone: its request is complete before MPI_Start
           returns, so nobody can wait on it yet (the standard forbids waiting for a request
           being started): no signal to send */
        done = t->next;
        t->next = NULL;
        quiet = t;
    } else if (eager && done == t) {
        /* (t was the queue's last: it ended alone; nobody else has seen it, and its request
           was never made) */
        done = NULL;
        ended = true;
        *rc = t->rc;
        t->queued = false;
        if (scc_task_cache_put(t)) {
            t = NULL;
        }
    } else {
        /* (under the lock: no other thread can end it before its request is made and the
           reference taken) */
        if (eager) {
            scc_task_request_init(t, false);
        }
        if (!t->retained) {
            t->retained = true;
            OBJ_RETAIN(t->comm);
        }
    }
    scc_unlock();
    if (ended && NULL != t) {
        OBJ_RELEASE(t);     /* (no room in the cache) */
    }
    if (NULL != quiet) {
        /* (the lock not held, as scc_task_finish: a completion callback may call MPI) */
        quiet->queued = false;
        quiet->super.super.req_status.MPI_ERROR = quiet->rc;
        ompi_request_complete(&quiet->super.super, false);
    }
    (void) scc_task_finish(done);
    return ended;
}

void mca_coll_scc_task_drain(mca_coll_scc_module_t *m)
{
    while (NULL != __atomic_load_n(&m->q_head, __ATOMIC_ACQUIRE)) {
        opal_progress();
    }
}

int mca_coll_scc_task_await(mca_coll_scc_module_t *m, int rc)
{
    scc_fiber_t *f = m->cur_fiber;

    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    while (!REQUEST_COMPLETE(m->task_sub)) {
        scc_fiber_yield(f);
    }
    rc = m->task_sub->req_status.MPI_ERROR;
    (void) ompi_request_free(&m->task_sub);
    return rc;
}

/* ------------------------------------------------------------ requests */

static int scc_task_free(ompi_request_t **req)
{
    mca_coll_scc_task_t *t = (mca_coll_scc_task_t *) *req;

    *req = MPI_REQUEST_NULL;
    if (t->queued) {
        t->freed = true;    /* released when it ends */
        return OMPI_SUCCESS;
    }
    scc_task_release(t);
    return OMPI_SUCCESS;
}

static int scc_task_cancel(ompi_request_t *req, int complete)
{
    return MPI_ERR_REQUEST;     /* a collective cannot be cancelled */
}

static int scc_task_start(size_t count, ompi_request_t **reqs)
{
    for (size_t i = 0; i < count; ++i) {
        mca_coll_scc_task_t *t = (mca_coll_scc_task_t *) reqs[i];
        if (OMPI_REQUEST_ACTIVE == t->super.super.req_state) {
            return MPI_ERR_REQUEST;     /* started again before it ended */
        }
        t->super.super.req_state = OMPI_REQUEST_ACTIVE;
        t->super.super.req_complete = REQUEST_PENDING;
        t->super.super.req_status.MPI_ERROR = OMPI_SUCCESS;
        if (NULL != t->try_start && t->try_start(t)) {
            /* ended on its caller's stack: complete before MPI_Start returns, as a start
               that ends alone in its task (nobody can wait on it yet: no signal) */
            t->super.super.req_status.MPI_ERROR = t->rc;
            ompi_request_complete(&t->super.super, false);
            continue;
        }
        (void) scc_task_enqueue(t, false, NULL);
    }
    return OMPI_SUCCESS;
}

/* A task from the cache, or a new one with its stack. */
mca_coll_scc_task_t *mca_coll_scc_task_new(void)
{
    mca_coll_scc_task_t *t = NULL;

    scc_lock();
    if (scc_ncache > 0) {
        t = scc_cache[--scc_ncache];
    }
    if (!scc_registered) {
        scc_registered = OPAL_SUCCESS == opal_progress_register(scc_task_progress);
    }
    scc_unlock();
    if (NULL != t) {
        return t;
    }
    if (!scc_registered) {
        return NULL;    /* (no progress: a task would never end) */
    }
    t = OBJ_NEW(mca_coll_scc_task_t);
    if (NULL != t && 0 != scc_fiber_init(&t->fiber, (size_t) mca_coll_scc_task_stack)) {
        OBJ_RELEASE(t);
        t = NULL;
    }
    return t;
}

void mca_coll_scc_task_keep(mca_coll_scc_task_t *t, int n, unsigned what)
{
    scc_task_args_t *a = &t->a;
    const int **ints[4] = { what & SCC_KEEP_SC ? &a->scounts : NULL,
                            what & SCC_KEEP_SD ? &a->sdispls : NULL,
                            what & SCC_KEEP_RC ? &a->rcounts : NULL,
                            what & SCC_KEEP_RD ? &a->rdispls : NULL };
    struct ompi_datatype_t *const **dts[2] = { what & SCC_KEEP_ST ? &a->sdts : NULL,
                                               what & SCC_KEEP_RT ? &a->rdts : NULL };
    const int k = 4, l = what & (SCC_KEEP_ST | SCC_KEEP_RT) ? 2 : 0;
    /* (the datatypes' pointers first: their alignment) */
    size_t dbytes = (size_t) l * (size_t) n * sizeof(struct ompi_datatype_t *);
    size_t need = dbytes + (size_t) k * (size_t) n * sizeof(int);
    struct ompi_datatype_t **d;
    int *v;

    if (0 == what) {
        return;     /* (a gatherv's or scatterv's other ranks) */
    }
    if (need > t->kept_bytes) {
        void *p = realloc(t->kept, need);
        if (NULL == p) {
            return;
        }
        t->kept = p;
        t->kept_bytes = need;
    }
    d = (struct ompi_datatype_t **) t->kept;
    for (int i = 0; i < l; ++i, d += n) {
        if (NULL != dts[i] && NULL != *dts[i]) {
            memcpy(d, *dts[i], (size_t) n * sizeof(*d));
            *dts[i] = d;
        }
    }
    v = (int *) ((char *) t->kept + dbytes);
    for (int i = 0; i < k; ++i, v += n) {
        if (NULL != ints[i] && NULL != *ints[i]) {
            memcpy(v, *ints[i], (size_t) n * sizeof(int));
            *ints[i] = v;
        }
    }
}

int mca_coll_scc_task_post(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm,
                           mca_coll_scc_task_t *t, scc_task_run_fn_t run, int form,
                           scc_task_try_fn_t try_start, ompi_request_t **request)
{
    int rc = OMPI_SUCCESS;

    t->m = m;
    t->comm = comm;
    t->run = run;
    t->try_start = try_start;
    t->form = form;
    t->decided = false;
    t->freed = false;
    if (SCC_FORM_INIT == form) {
        scc_task_request_init(t, true);
        t->retained = true;
        OBJ_RETAIN(comm);
        *request = &t->super.super;
        return OMPI_SUCCESS;
    }
    *request = &t->super.super;
    if (scc_task_enqueue(t, true, &rc)) {
        /* ended before its return (its peers were there): no request to wait for, as
           the MPI layer and libnbc answer a call with nothing to do */
        *request = &ompi_request_empty;
        return rc;
    }
    return OMPI_SUCCESS;
}

void mca_coll_scc_task_close(uint64_t *nested)
{
    *nested = scc_nested;
    if (scc_registered) {
        (void) opal_progress_unregister(scc_task_progress);
        scc_registered = false;
    }
    while (scc_ncache > 0) {
        mca_coll_scc_task_t *t = scc_cache[--scc_ncache];
        OBJ_RELEASE(t);     /* (a macro: its argument is evaluated more than once) */
    }
}
