/* coll_scc_icolls.c: the nonblocking (MPI_Ibcast) and persistent (MPI_Bcast_init) form of
 * every collective the component serves: each is its blocking call run as a task
 * (coll_scc_task.c), so it takes the same table, algorithms and transports.  A persistent
 * one decides at its first start that finds the communicator set up (a communicator set up
 * stays so) and only runs that decision at every start after it. */
#include "coll_scc_persist.h"
#include "coll_scc_task.h"
#include "coll_scc_xport_slots.h"

#include "ompi/datatype/ompi_datatype.h"

#define SCC_UNPAREN(...) __VA_ARGS__

/* True when a nonblocking call or a persistent start may first be tried on its caller's
 * stack (coll_scc_xport_try.h): nothing started before it on the communicator, which is set
 * up. */
static inline bool scc_try_takes(mca_coll_scc_module_t *m)
{
    return SCC_STATE_ACTIVE == m->state && NULL == m->q_head && NULL == m->cur_fiber
           && scc_try_possible(m->xp);
}

/* Before a tried call of form (SCC_FORM_I, SCC_FORM_INIT: its counters') -- its
 * SCC_TRY_SETJMP returned 0: its transport holds back what it does (a barrier's flags
 * excepted: flags_now). */
static inline void scc_try_enter(mca_coll_scc_module_t *m, scc_try_t *tr, bool flags_now,
                                 int form)
{
    scc_try_start(m->xp, tr);
    tr->flags_now = flags_now;
    m->try_ncalls = m->ncalls;
    m->trying = true;
    m->form = form;
}

/* After it: ended (its held-back effects go out), or abandoned (what it leased goes back,
 * its count is undone -- its task counts it and skips what the try let out; the transport
 * restored itself). */
static inline void scc_try_leave(mca_coll_scc_module_t *m, const scc_try_t *tr, bool ended)
{
    const bool persistent = SCC_FORM_INIT == m->form;

    m->trying = false;
    m->form = SCC_FORM_B;
    if (ended) {
        scc_try_commit(m->xp);
    } else {
        mca_coll_scc_scratch_return(m);
        if (m->ncalls != m->try_ncalls) {
            m->ncalls = m->try_ncalls;
            if (NULL != m->counted) {
                --*m->counted;
            }
        }
    }
    m->tries[persistent][!ended]++;
    m->tries_replayed[persistent] += !ended && 0 != tr->out;
}

/* CALL of form FORM tried on its caller's stack where KEEPS and the communicator allow:
 * ENDED (which returns) runs with its code in rc where it ended there; else the try is
 * undone and the code after goes on to the task. */
#define SCC_TRIED(m, KEEPS, FLAGS_NOW, FORM, CALL, ENDED)                        \
    if ((KEEPS) && scc_try_takes(m)) {                                           \
        scc_try_t tr;                                                            \
        if (0 == SCC_TRY_SETJMP(tr.env)) {                                       \
            int rc;                                                              \
            scc_try_enter((m), &tr, (FLAGS_NOW), (FORM));                        \
            rc = (CALL);                                                         \
            scc_try_leave((m), &tr, true);                                       \
            ENDED;                                                               \
        }                                                                        \
        scc_try_leave((m), &tr, false);                                          \
    }

/* A nonblocking entry's try of CALL, its blocking call: returns from the entry where the
 * call ended (its request the empty one, as a task's that ends at its start), else goes on
 * to the task. */
#define SCC_TRY(m, request, KEEPS, FLAGS_NOW, CALL)                              \
    SCC_TRIED(m, KEEPS, FLAGS_NOW, SCC_FORM_I, CALL,                             \
              *(request) = &ompi_request_empty; return rc)

/* A persistent start's run, its leases given back as the task's end does. */
static inline int scc_run_returned(mca_coll_scc_task_t *t)
{
    int rc = t->run(t);
    mca_coll_scc_scratch_return(t->m);
    return rc;
}

/* A persistent start tried on its caller's stack, as a nonblocking call is (its decision at
 * the first start made there too): true when it ended there (its code in t->rc). */
static inline bool scc_try_task_as(mca_coll_scc_task_t *t, bool flags_now)
{
    SCC_TRIED(t->m, true, flags_now, SCC_FORM_INIT, scc_run_returned(t),
              t->rc = rc; return true)
    return false;
}

static bool scc_try_task(mca_coll_scc_task_t *t)
{
    return scc_try_task_as(t, false);
}

/* (a barrier's flags raised at once: mca_coll_scc_ibarrier) */
static bool scc_try_task_flags_now(mca_coll_scc_task_t *t)
{
    return scc_try_task_as(t, true);
}

typedef struct ompi_datatype_t scc_dt_t;

/* Posts persistent task t (NULL: there was no memory for it) on m's communicator comm, the
 * one made for it where own is not NULL (the request then holds it). */
static int scc_init_post(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm,
                         struct ompi_communicator_t *own, mca_coll_scc_task_t *t,
                         scc_task_run_fn_t run, scc_task_try_fn_t try_start,
                         ompi_request_t **request)
{
    int rc = NULL == t ? OMPI_ERR_OUT_OF_RESOURCE
                       : mca_coll_scc_task_post(m, comm, t, run, SCC_FORM_INIT, try_start,
                                                request);
    mca_coll_scc_persistent_own_free(&own);
    return rc;
}

/* The nonblocking and the persistent entry point of collective `name`, whose task runs
 * scc_run_##name: PARAMS are the blocking call's parameters before the communicator, ARGS
 * their names, FILL saves them into the task's arguments a. */
#define SCC_ENTRIES_OF(name, KEEPS, PARAMS, ARGS, FILL)                          \
    int mca_coll_scc_i##name(SCC_UNPAREN PARAMS, struct ompi_communicator_t *comm, \
                             ompi_request_t **request, mca_coll_base_module_t *module) \
    {                                                                            \
        mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;             \
        mca_coll_scc_task_t *t;                                                  \
        scc_task_args_t *a;                                                      \
        if (!mca_coll_scc_task_takes(m, false)) {                                \
            return m->prev_i##name.fn(SCC_UNPAREN ARGS, comm, request,           \
                                      m->prev_i##name.module);                   \
        }                                                                        \
        SCC_TRY(m, request, KEEPS, false,                                        \
                mca_coll_scc_##name(SCC_UNPAREN ARGS, comm, module))             \
        if (NULL == (t = mca_coll_scc_task_new())) {                             \
            return OMPI_ERR_OUT_OF_RESOURCE;                                     \
        }                                                                        \
        a = &t->a;                                                               \
        FILL                                                                     \
        return mca_coll_scc_task_post(m, comm, t, scc_run_##name, SCC_FORM_I, NULL, request); \
    }                                                                            \
    int mca_coll_scc_##name##_init(SCC_UNPAREN PARAMS, struct ompi_communicator_t *comm, \
                                   struct ompi_info_t *info, ompi_request_t **request, \
                                   mca_coll_base_module_t *module)               \
    {                                                                            \
        mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;             \
        struct ompi_communicator_t *own;                                         \
        mca_coll_scc_task_t *t;                                                  \
        scc_task_args_t *a;                                                      \
        int rc = mca_coll_scc_persistent_home(&m, &comm, info,                   \
                                              SCC_PERSISTENT_SLOT(name), &own); \
        if (OMPI_ERR_NOT_AVAILABLE == rc) {                                      \
            return m->prev_##name##_init.fn(SCC_UNPAREN ARGS, comm, info, request, \
                                            m->prev_##name##_init.module);       \
        } else if (OMPI_SUCCESS != rc) {                                         \
            return rc;                                                           \
        }                                                                        \
        if (NULL != (t = mca_coll_scc_task_new())) {                             \
            a = &t->a;                                                           \
            FILL                                                                 \
        }                                                                        \
        return scc_init_post(m, comm, own, t, scc_run_##name,                    \
                             (KEEPS) ? scc_try_task : NULL, request);            \
    }

/* Keeps the argument arrays `what` of t (mca_coll_scc_task_keep). */
static inline void scc_keep(mca_coll_scc_task_t *t, struct ompi_communicator_t *comm,
                            unsigned what)
{
    mca_coll_scc_task_keep(t, ompi_comm_size(comm), what);
}

/* A call that writes its output where its input is (MPI_IN_PLACE of reduce and the scans)
 * would start over as a task from input a try may have changed: not tried. */
#define SCC_KEEPS_INPUT (MPI_IN_PLACE != sbuf)

/* Alltoall(v, w) and the reduce-scatters are not tried: ialltoall at np 2, tried with its
 * messages out at once, 0.42-0.49 us at 1-64 B against 0.48-0.56 as a task, but 0.92-1.44 at
 * 1-4 KB against 0.76-1.19 (medians of 3 launches).  The allreduce and the allgathers are:
 * the first rank's message goes out as it sends it, its peers answer within the polls. */
#define SCC_TRY_NEVER false

/* A call is tried only when small: count elements of dt, per member of the communicator
 * (every rank's block) or once.  A large one would be abandoned at its first message
 * (coll_scc_xport_try.h: SCC_TRY_BYTES) and start as a task a little later than its
 * peers, which a pipeline of slot pieces pays for (a 1 MB gather at 2 processes: 70-90
 * against 45-60 us); its task's start is a few percent of it. */
static inline size_t scc_bytes_of(int count, scc_dt_t *dt)
{
    size_t bytes;
    ompi_datatype_type_size(dt, &bytes);
    return bytes * (size_t) count;
}

/* ... and none whose messages move single copy: exposing its buffer would abandon the try
 * (np 2 bound, ireduce and ibcast of 8 KB, paired with the blocking call in one launch:
 * 1.18-1.30 of it tried first, 1.10-1.16 at 8196 bytes, never tried). */
static inline bool scc_try_small(const mca_coll_scc_module_t *m,
                                 struct ompi_communicator_t *comm, int count, scc_dt_t *dt,
                                 bool per_rank)
{
    const size_t bytes = scc_bytes_of(count, dt);
    return bytes * (per_rank ? (size_t) ompi_comm_size(comm) : 1) <= SCC_TRY_BYTES
           && (NULL == m->xp || bytes < m->xp->cma_least);
}

/* A persistent start: decides at the first start that finds the communicator set up (decide
 * fills t->call), then runs the decision (go); OMPI_ERR_NOT_AVAILABLE: the fallback serves it
 * (at every start after too). */
typedef void (*scc_decide_fn_t)(mca_coll_scc_task_t *t, scc_coll_t c);
typedef int (*scc_go_fn_t)(mca_coll_scc_task_t *t);
static inline int scc_start_decided(mca_coll_scc_task_t *t, scc_coll_t c, scc_decide_fn_t decide,
                                    scc_go_fn_t go)
{
    int rc;

    if (!t->decided && mca_coll_scc_ready(t->m, t->comm)) {
        decide(t, c);
        t->decided = true;
    }
    if (!t->decided || SCC_ALG_FALLBACK == t->call.alg) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    rc = go(t);
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        t->call.alg = SCC_ALG_FALLBACK;
    }
    return rc;
}

/* A collective decided once when persistent (c; scc_decide_##name and scc_go_##name):
 * nonblocking, the blocking call; persistent, its decision run, or the fallback (its
 * nonblocking call, waited for as a task waits).  RUN: the blocking call's arguments read
 * back from the task's a. */
#define SCC_FORMS_DECIDED(name, c, KEEPS, PARAMS, ARGS, RUN, FILL)              \
    static int scc_run_##name(mca_coll_scc_task_t *t)                           \
    {                                                                            \
        scc_task_args_t *a = &t->a;                                              \
        int rc;                                                                  \
        if (SCC_FORM_INIT != t->form) {                                          \
            return mca_coll_scc_##name(SCC_UNPAREN RUN, t->comm, &t->m->super);  \
        }                                                                        \
        rc = scc_start_decided(t, c, scc_decide_##name, scc_go_##name);          \
        if (OMPI_ERR_NOT_AVAILABLE != rc) {                                      \
            return rc;                                                           \
        }                                                                        \
        mca_coll_scc_count(t->m, c, SCC_ALG_FALLBACK);                           \
        return SCC_FALLBACK(t->m, name, SCC_UNPAREN RUN, t->comm);               \
    }                                                                            \
    SCC_ENTRIES_OF(name, KEEPS, PARAMS, ARGS, FILL)

/* The reductions of one vector: one decision (coll_scc_reduction.c) */
static void scc_decide_reduction(mca_coll_scc_task_t *t, scc_coll_t c)
{
    scc_task_args_t *a = &t->a;
    (void) mca_coll_scc_reduction_decide(t->m, c, a->sbuf, a->rbuf, a->scount, a->sdt, a->op,
                                         a->root, &t->call);
}

static int scc_go_reduction(mca_coll_scc_task_t *t)
{
    return mca_coll_scc_reduction_go(t->m, &t->call);
}

#define scc_decide_reduce scc_decide_reduction
#define scc_decide_allreduce scc_decide_reduction
#define scc_decide_scan scc_decide_reduction
#define scc_decide_exscan scc_decide_reduction
#define scc_go_reduce scc_go_reduction
#define scc_go_allreduce scc_go_reduction
#define scc_go_scan scc_go_reduction
#define scc_go_exscan scc_go_reduction

/* The reduce-scatters: reduce_scatter_block's count is a block's (a->scount), reduce_scatter's
 * blocks a->rcounts */
static void scc_decide_reduce_scatters(mca_coll_scc_task_t *t, scc_coll_t c)
{
    scc_task_args_t *a = &t->a;
    (void) mca_coll_scc_reduce_scatter_decide(t->m, c, a->sbuf, a->rbuf, a->scount, a->rcounts,
                                              a->sdt, a->op, &t->call);
}

static int scc_go_reduce_scatters(mca_coll_scc_task_t *t)
{
    return mca_coll_scc_reduce_scatter_go(t->m, &t->call, t->a.rcounts);
}

#define scc_decide_reduce_scatter scc_decide_reduce_scatters
#define scc_decide_reduce_scatter_block scc_decide_reduce_scatters
#define scc_go_reduce_scatter scc_go_reduce_scatters
#define scc_go_reduce_scatter_block scc_go_reduce_scatters

/* The broadcast and the block collectives: a decision from one count's bytes -- the
 * broadcast's, the receive count of alltoall and allgather, the root's side of gather and
 * scatter (mca_coll_scc_decide_rooted) */
static void scc_decide_bcast(mca_coll_scc_task_t *t, scc_coll_t c)
{
    t->call.alg = mca_coll_scc_decide_bytes(t->m, c, t->a.scount, t->a.sdt, &t->call.bytes);
}

static void scc_decide_blocks(mca_coll_scc_task_t *t, scc_coll_t c)
{
    t->call.alg = mca_coll_scc_decide_bytes(t->m, c, t->a.rcount, t->a.rdt, &t->call.bytes);
}

static void scc_decide_rooted(mca_coll_scc_task_t *t, scc_coll_t c)
{
    scc_task_args_t *a = &t->a;
    t->call.alg = mca_coll_scc_decide_rooted(t->m, c, a->root, a->scount, a->sdt, a->rcount,
                                             a->rdt, &t->call.bytes);
}

#define scc_decide_alltoall scc_decide_blocks
#define scc_decide_allgather scc_decide_blocks
#define scc_decide_gather scc_decide_rooted
#define scc_decide_scatter scc_decide_rooted

static int scc_go_bcast(mca_coll_scc_task_t *t)
{
    return mca_coll_scc_bcast_go(t->m, t->call.alg, t->call.bytes, t->a.rbuf, t->a.scount,
                                 t->a.sdt, t->a.root);
}

/* (the go of each block collective, on the task's arguments; the rooted ones add the root
 * after an empty argument) */
#define SCC_GO_BLOCKS(name, ...)                                                 \
    static int scc_go_##name(mca_coll_scc_task_t *t)                            \
    {                                                                            \
        scc_task_args_t *a = &t->a;                                              \
        return mca_coll_scc_##name##_go(t->m, t->call.alg, t->call.bytes, a->sbuf, a->scount, \
                                        a->sdt, a->rbuf, a->rcount, a->rdt __VA_ARGS__); \
    }
SCC_GO_BLOCKS(alltoall, )
SCC_GO_BLOCKS(allgather, )
SCC_GO_BLOCKS(gather, , a->root)
SCC_GO_BLOCKS(scatter, , a->root)

/* The v-variants and alltoallw: the table's choice for no particular size */
static void scc_decide_v(mca_coll_scc_task_t *t, scc_coll_t c)
{
    t->call.alg = mca_coll_scc_pick(t->m, c, 0);
}

#define scc_decide_gatherv scc_decide_v
#define scc_decide_scatterv scc_decide_v
#define scc_decide_allgatherv scc_decide_v
#define scc_decide_alltoallv scc_decide_v
#define scc_decide_alltoallw scc_decide_v

static int scc_go_gatherv(mca_coll_scc_task_t *t)
{
    scc_task_args_t *a = &t->a;
    return mca_coll_scc_gatherv_go(t->m, t->call.alg, a->sbuf, a->scount, a->sdt, a->rbuf,
                                   a->rcounts, a->rdispls, a->rdt, a->root);
}

static int scc_go_scatterv(mca_coll_scc_task_t *t)
{
    scc_task_args_t *a = &t->a;
    return mca_coll_scc_scatterv_go(t->m, t->call.alg, a->sbuf, a->scounts, a->sdispls, a->sdt,
                                    a->rbuf, a->rcount, a->rdt, a->root);
}

static int scc_go_allgatherv(mca_coll_scc_task_t *t)
{
    scc_task_args_t *a = &t->a;
    return mca_coll_scc_allgatherv_go(t->m, t->call.alg, a->sbuf, a->scount, a->sdt, a->rbuf,
                                      a->rcounts, a->rdispls, a->rdt);
}

/* (alltoallv: one datatype a side, alltoallw one per block) */
static int scc_go_alltoallv(mca_coll_scc_task_t *t)
{
    scc_task_args_t *a = &t->a;
    return mca_coll_scc_alltoallvw(t->m, SCC_COLL_ALLTOALLV, t->call.alg, a->sbuf, a->scounts,
                                   a->sdispls, a->sdt, NULL, a->rbuf, a->rcounts, a->rdispls,
                                   a->rdt, NULL);
}

static int scc_go_alltoallw(mca_coll_scc_task_t *t)
{
    scc_task_args_t *a = &t->a;
    return mca_coll_scc_alltoallvw(t->m, SCC_COLL_ALLTOALLW, t->call.alg, a->sbuf, a->scounts,
                                   a->sdispls, NULL, a->sdts, a->rbuf, a->rcounts, a->rdispls,
                                   NULL, a->rdts);
}

static void scc_decide_barrier(mca_coll_scc_task_t *t, scc_coll_t c)
{
    (void) c;
    t->call.alg = mca_coll_scc_barrier_decide(t->m);
}

static int scc_go_barrier(mca_coll_scc_task_t *t)
{
    return mca_coll_scc_barrier_go(t->m, t->call.alg);
}

SCC_FORMS_DECIDED(bcast, SCC_COLL_BCAST, scc_try_small(m, comm, count, dtype, false),
                  (void *buff, int count, scc_dt_t *dtype, int root),
                  (buff, count, dtype, root),
                  (a->rbuf, a->scount, a->sdt, a->root),
                  a->rbuf = buff; a->scount = count; a->sdt = dtype; a->root = root;)

/* (a root reads every rank's contribution, a try counts them: coll_scc_xport_try.h) */
SCC_FORMS_DECIDED(reduce, SCC_COLL_REDUCE,
                  SCC_KEEPS_INPUT
                      && scc_try_small(m, comm, count, dtype, ompi_comm_rank(comm) == root),
                  (const void *sbuf, void *rbuf, int count, scc_dt_t *dtype,
                   struct ompi_op_t *op, int root),
                  (sbuf, rbuf, count, dtype, op, root),
                  (a->sbuf, a->rbuf, a->scount, a->sdt, a->op, a->root),
                  a->sbuf = sbuf; a->rbuf = rbuf; a->scount = count; a->sdt = dtype;
                  a->op = op; a->root = root;)

/* The reductions without a root: allreduce, scan, exscan, reduce_scatter_block (its count is
 * each rank's block) */
#define SCC_REDUCTION_PARAMS                                                     \
    (const void *sbuf, void *rbuf, int count, scc_dt_t *dtype, struct ompi_op_t *op)
#define SCC_REDUCTION_ARGS (sbuf, rbuf, count, dtype, op)
#define SCC_REDUCTION_RUN (a->sbuf, a->rbuf, a->scount, a->sdt, a->op)
#define SCC_REDUCTION_FILL                                                       \
    a->sbuf = sbuf; a->rbuf = rbuf; a->scount = count; a->sdt = dtype; a->op = op; a->root = 0;
#define SCC_FORMS_REDUCTION(name, c, KEEPS)                                      \
    SCC_FORMS_DECIDED(name, c, KEEPS, SCC_REDUCTION_PARAMS, SCC_REDUCTION_ARGS,  \
                      SCC_REDUCTION_RUN, SCC_REDUCTION_FILL)
/* (every rank reads every contribution it combines: n of them counted in a try; np 2, an
   8 KB iallreduce tried, abandoned at its second message, 1.32x the blocking call against
   1.07 started as a task) */
#define SCC_KEEPS_SMALL_VECTOR (SCC_KEEPS_INPUT && scc_try_small(m, comm, count, dtype, true))
/* An allreduce from coll_scc_rsag_min bytes publishes its segment's result where it
 * combined it (coll_scc_rsag.c): its task could not skip it, and a try holding it back is
 * abandoned at its next wait -- np 2, 4 KB: 9 tries in 10, 1.4x the blocking call against
 * 1.08 as a task from the start. */
static inline bool scc_try_not_rsag(int count, scc_dt_t *dt)
{
    return mca_coll_scc_config.rsag_min <= 0
           || scc_bytes_of(count, dt) < (size_t) mca_coll_scc_config.rsag_min;
}
SCC_FORMS_REDUCTION(allreduce, SCC_COLL_ALLREDUCE,
                    SCC_KEEPS_SMALL_VECTOR && scc_try_not_rsag(count, dtype))
SCC_FORMS_REDUCTION(scan, SCC_COLL_SCAN, SCC_KEEPS_SMALL_VECTOR)
SCC_FORMS_REDUCTION(exscan, SCC_COLL_EXSCAN, SCC_KEEPS_SMALL_VECTOR)
SCC_FORMS_DECIDED(reduce_scatter_block, SCC_COLL_REDUCE_SCATTER_BLOCK, SCC_TRY_NEVER,
                  SCC_REDUCTION_PARAMS,
                  SCC_REDUCTION_ARGS, SCC_REDUCTION_RUN, SCC_REDUCTION_FILL)

SCC_FORMS_DECIDED(reduce_scatter, SCC_COLL_REDUCE_SCATTER, SCC_TRY_NEVER,
                  (const void *sbuf, void *rbuf, const int *rcounts, scc_dt_t *dtype,
                   struct ompi_op_t *op),
                  (sbuf, rbuf, rcounts, dtype, op),
                  (a->sbuf, a->rbuf, a->rcounts, a->sdt, a->op),
                  a->sbuf = sbuf; a->rbuf = rbuf; a->rcounts = rcounts; a->sdt = dtype;
                  a->op = op; a->scount = 0; scc_keep(t, comm, SCC_KEEP_RC);)

/* Blocks of one size from every rank to every rank (alltoall, allgather) */
#define SCC_FORMS_BLOCKS(name, c, KEEPS)                                         \
    SCC_FORMS_DECIDED(name, c, KEEPS,                                            \
                      (const void *sbuf, int scount, scc_dt_t *sdtype, void *rbuf, int rcount, \
                       scc_dt_t *rdtype),                                        \
                      (sbuf, scount, sdtype, rbuf, rcount, rdtype),              \
                      (a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt),  \
                      a->sbuf = sbuf; a->scount = scount; a->sdt = sdtype; a->rbuf = rbuf; \
                      a->rcount = rcount; a->rdt = rdtype;)
SCC_FORMS_BLOCKS(alltoall, SCC_COLL_ALLTOALL, SCC_TRY_NEVER)
SCC_FORMS_BLOCKS(allgather, SCC_COLL_ALLGATHER, scc_try_small(m, comm, rcount, rdtype, true))

/* The same with a root (gather, scatter; KEEPS: a block is small) */
#define SCC_FORMS_ROOTED(name, c, KEEPS)                                         \
    SCC_FORMS_DECIDED(name, c, KEEPS,                                            \
                      (const void *sbuf, int scount, scc_dt_t *sdtype, void *rbuf, int rcount, \
                       scc_dt_t *rdtype, int root),                              \
                      (sbuf, scount, sdtype, rbuf, rcount, rdtype, root),        \
                      (a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->root), \
                      a->sbuf = sbuf; a->scount = scount; a->sdt = sdtype; a->rbuf = rbuf; \
                      a->rcount = rcount; a->rdt = rdtype; a->root = root;)
/* (the side significant at every rank: the send side of a gather but at a root in place) */
SCC_FORMS_ROOTED(gather, SCC_COLL_GATHER,
                 MPI_IN_PLACE == sbuf ? scc_try_small(m, comm, rcount, rdtype, true)
                                      : scc_try_small(m, comm, scount, sdtype, true))
SCC_FORMS_ROOTED(scatter, SCC_COLL_SCATTER,
                 MPI_IN_PLACE == rbuf ? scc_try_small(m, comm, scount, sdtype, true)
                                      : scc_try_small(m, comm, rcount, rdtype, true))

SCC_FORMS_DECIDED(gatherv, SCC_COLL_GATHERV, true,
                  (const void *sbuf, int scount, scc_dt_t *sdtype, void *rbuf, const int *rcounts,
                   const int *displs, scc_dt_t *rdtype, int root),
                  (sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype, root),
                  (a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts, a->rdispls, a->rdt, a->root),
                  a->sbuf = sbuf; a->scount = scount; a->sdt = sdtype; a->rbuf = rbuf;
                  a->rcounts = rcounts; a->rdispls = displs; a->rdt = rdtype; a->root = root;
                  scc_keep(t, comm, root == ompi_comm_rank(comm) ? SCC_KEEP_RC | SCC_KEEP_RD : 0);)

SCC_FORMS_DECIDED(scatterv, SCC_COLL_SCATTERV, true,
                  (const void *sbuf, const int *scounts, const int *displs, scc_dt_t *sdtype,
                   void *rbuf, int rcount, scc_dt_t *rdtype, int root),
                  (sbuf, scounts, displs, sdtype, rbuf, rcount, rdtype, root),
                  (a->sbuf, a->scounts, a->sdispls, a->sdt, a->rbuf, a->rcount, a->rdt, a->root),
                  a->sbuf = sbuf; a->scounts = scounts; a->sdispls = displs; a->sdt = sdtype;
                  a->rbuf = rbuf; a->rcount = rcount; a->rdt = rdtype; a->root = root;
                  scc_keep(t, comm, root == ompi_comm_rank(comm) ? SCC_KEEP_SC | SCC_KEEP_SD : 0);)

SCC_FORMS_DECIDED(allgatherv, SCC_COLL_ALLGATHERV, true,
                  (const void *sbuf, int scount, scc_dt_t *sdtype, void *rbuf, const int *rcounts,
                   const int *displs, scc_dt_t *rdtype),
                  (sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype),
                  (a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts, a->rdispls, a->rdt),
                  a->sbuf = sbuf; a->scount = scount; a->sdt = sdtype; a->rbuf = rbuf;
                  a->rcounts = rcounts; a->rdispls = displs; a->rdt = rdtype;
                  scc_keep(t, comm, SCC_KEEP_RC | SCC_KEEP_RD);)

SCC_FORMS_DECIDED(alltoallv, SCC_COLL_ALLTOALLV, SCC_TRY_NEVER,
                  (const void *sbuf, const int *scounts, const int *sdispls, scc_dt_t *sdtype,
                   void *rbuf, const int *rcounts, const int *rdispls, scc_dt_t *rdtype),
                  (sbuf, scounts, sdispls, sdtype, rbuf, rcounts, rdispls, rdtype),
                  (a->sbuf, a->scounts, a->sdispls, a->sdt, a->rbuf, a->rcounts, a->rdispls,
                   a->rdt),
                  a->sbuf = sbuf; a->scounts = scounts; a->sdispls = sdispls; a->sdt = sdtype;
                  a->rbuf = rbuf; a->rcounts = rcounts; a->rdispls = rdispls; a->rdt = rdtype;
                  scc_keep(t, comm, (MPI_IN_PLACE == sbuf ? 0 : SCC_KEEP_SC | SCC_KEEP_SD)
                                        | SCC_KEEP_RC | SCC_KEEP_RD);)

SCC_FORMS_DECIDED(alltoallw, SCC_COLL_ALLTOALLW, SCC_TRY_NEVER,
                  (const void *sbuf, const int *scounts, const int *sdispls,
                   scc_dt_t *const *sdtypes, void *rbuf, const int *rcounts, const int *rdispls,
                   scc_dt_t *const *rdtypes),
                  (sbuf, scounts, sdispls, sdtypes, rbuf, rcounts, rdispls, rdtypes),
                  (a->sbuf, a->scounts, a->sdispls, a->sdts, a->rbuf, a->rcounts, a->rdispls,
                   a->rdts),
                  a->sbuf = sbuf; a->scounts = scounts; a->sdispls = sdispls; a->sdts = sdtypes;
                  a->rbuf = rbuf; a->rcounts = rcounts; a->rdispls = rdispls; a->rdts = rdtypes;
                  scc_keep(t, comm,
                           (MPI_IN_PLACE == sbuf ? 0 : SCC_KEEP_SC | SCC_KEEP_SD | SCC_KEEP_ST)
                               | SCC_KEEP_RC | SCC_KEEP_RD | SCC_KEEP_RT);)

/* barrier: no arguments before the communicator; persistent, decided once */
static int scc_run_barrier(mca_coll_scc_task_t *t)
{
    int rc;

    if (SCC_FORM_INIT != t->form) {
        return mca_coll_scc_barrier(t->comm, &t->m->super);
    }
    rc = scc_start_decided(t, SCC_COLL_BARRIER, scc_decide_barrier, scc_go_barrier);
    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        return rc;
    }
    mca_coll_scc_count(t->m, SCC_COLL_BARRIER, SCC_ALG_FALLBACK);
    return SCC_FALLBACK(t->m, barrier, t->comm);
}

int mca_coll_scc_ibarrier(struct ompi_communicator_t *comm, ompi_request_t **request,
                          mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    mca_coll_scc_task_t *t;

    if (!mca_coll_scc_task_takes(m, false)) {
        return m->prev_ibarrier.fn(comm, request, m->prev_ibarrier.module);
    }
    /* Tried with its flags raised at once: held back, each rank's try would wait for the
     * others' (none ever ended).  Raised early they say no more than the truth -- this
     * rank has arrived -- and an abandoned try's task raises them again with the same
     * values (its epoch restored), so a peer that saw them meanwhile saw what the task
     * writes. */
    SCC_TRY(m, request, true, true, mca_coll_scc_barrier(comm, module))
    if (NULL == (t = mca_coll_scc_task_new())) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return mca_coll_scc_task_post(m, comm, t, scc_run_barrier, SCC_FORM_I, NULL, request);
}

int mca_coll_scc_barrier_init(struct ompi_communicator_t *comm, struct ompi_info_t *info,
                              ompi_request_t **request, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    struct ompi_communicator_t *own;
    int rc = mca_coll_scc_persistent_home(&m, &comm, info, SCC_PERSISTENT_SLOT(barrier),
                                          &own);

    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        return m->prev_barrier_init.fn(comm, info, request, m->prev_barrier_init.module);
    } else if (OMPI_SUCCESS != rc) {
        return rc;
    }
    return scc_init_post(m, comm, own, mca_coll_scc_task_new(), scc_run_barrier,
                         scc_try_task_flags_now, request);
}
