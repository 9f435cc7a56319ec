/* coll_scc.h: the coll/scc component and module types, and the entry points. */
#ifndef MCA_COLL_SCC_H
#define MCA_COLL_SCC_H

#include "coll_scc_component.h"

#include "opal/util/output.h"
#include "ompi/mca/coll/base/base.h"
#include "ompi/datatype/ompi_datatype.h"

#include "coll_scc_learn.h"
#include "coll_scc_members.h"
#include "coll_scc_select.h"
#include "coll_scc_sched.h"
#include "coll_scc_topo.h"
#include "coll_scc_xport_try.h"

BEGIN_C_DECLS

/* Every blocking collective the component intercepts, with its Open MPI name. */
#define SCC_FOREACH_COLL(X)                                                      \
    X(bcast, SCC_COLL_BCAST)                                                     \
    X(barrier, SCC_COLL_BARRIER)                                                 \
    X(reduce, SCC_COLL_REDUCE)                                                   \
    X(allreduce, SCC_COLL_ALLREDUCE)                                             \
    X(alltoall, SCC_COLL_ALLTOALL)                                               \
    X(alltoallv, SCC_COLL_ALLTOALLV)                                             \
    X(gather, SCC_COLL_GATHER)                                                   \
    X(scatter, SCC_COLL_SCATTER)                                                 \
    X(allgather, SCC_COLL_ALLGATHER)                                             \
    X(reduce_scatter_block, SCC_COLL_REDUCE_SCATTER_BLOCK)                       \
    X(gatherv, SCC_COLL_GATHERV)                                                 \
    X(scatterv, SCC_COLL_SCATTERV)                                               \
    X(allgatherv, SCC_COLL_ALLGATHERV)                                           \
    X(reduce_scatter, SCC_COLL_REDUCE_SCATTER)                                   \
    X(scan, SCC_COLL_SCAN)                                                       \
    X(exscan, SCC_COLL_EXSCAN)                                                   \
    X(alltoallw, SCC_COLL_ALLTOALLW)

/* Scratch buffers of a module: 0-2 for the algorithms, 3-4 for packed views of user data,
 * 5 for the entry points' own arrays, 6 for a pair-list message across nodes */
#define SCC_NSCRATCH 7
#define SCC_TREE_MAX_CHILDREN 64
#define SCC_SCRATCH_IN 3
#define SCC_SCRATCH_OUT 4
#define SCC_SCRATCH_ARGS 5
#define SCC_SCRATCH_BOUNCE 6
/* A scratch buffer: the module's own (ptr == own, up to SCC_LEASE_MIN bytes), or one leased
 * for the running call (coll_scc_scratch.c) */
typedef struct scc_scratch {
    void *ptr, *own;
    size_t bytes, own_bytes;
} scc_scratch_t;

/* Per-communicator state of the module */
typedef enum {
    SCC_STATE_LAZY = 0,   /* enabled, resources not set up yet (first call does it) */
    SCC_STATE_ACTIVE,     /* set up: the component serves collectives */
    SCC_STATE_DECLINED    /* set up failed or declined: everything goes to the fallback */
} scc_state_t;

#define SCC_PREV_FIELD(name, id)                                                 \
    struct {                                                                     \
        mca_coll_base_module_##name##_fn_t fn;                                   \
        mca_coll_base_module_t *module;                                          \
    } prev_##name;                                                               \
    struct {                                                                     \
        mca_coll_base_module_i##name##_fn_t fn;                                  \
        mca_coll_base_module_t *module;                                          \
    } prev_i##name;                                                              \
    struct {                                                                     \
        mca_coll_base_module_##name##_init_fn_t fn;                              \
        mca_coll_base_module_t *module;                                          \
    } prev_##name##_init;

/* The forms of a collective: blocking, nonblocking (MPI_Ibcast), persistent (MPI_Bcast_init);
 * each counted apart in the verbose report. */
enum { SCC_FORM_B = 0, SCC_FORM_I, SCC_FORM_INIT, SCC_FORMS };

typedef struct mca_coll_scc_module_t {
    mca_coll_base_module_t super;

    /* the functions (and their modules) Open MPI would have used */
    SCC_FOREACH_COLL(SCC_PREV_FIELD)

    scc_state_t state;
    uint64_t lazy_calls;                /* calls made before setup (served by the fallback) */
    bool disabled;                      /* coll_module_disable ran (it runs once per function) */
    bool persistent_home;               /* made for one persistent collective, its starts the
                                           only calls (coll_scc_persist.h) */
    int rank, size;
    unsigned cid;                       /* for the verbose reports */
    scc_comm_uid_t uid;                 /* the same on every process of the communicator */
    char name[64];
    scc_members_t members;              /* what the layers below know of it (passed down) */

    struct scc_xport *xp;               /* the transport, once set up */
    struct scc_plan_set *plans;         /* this rank's schedules (coll_scc_plan.c) */
    int fanout[8], nlevels;             /* k-ary trees: fan-out per level */
    int *children;                      /* SCC_TREE_MAX_CHILDREN: the flag tree's children of
                                           my rank (the barrier's, set at setup) */
    int bar_parent, bar_nchild;         /*   its parent (-1: the root) and their number */
    int center;                         /* root of rootless mesh collectives: mid-mesh */
    uint32_t unavail;                   /* bit (1 << alg): algorithms the transport cannot run */
    scc_scratch_t scratch[SCC_NSCRATCH]; /* temporary buffers (coll_scc_scratch.c) */
    int leases;                         /* of them, leased for the running call */

    /* where the members sit and which algorithm runs what (coll_scc_topo.c, set up once) */
    scc_topo_t topo;
    scc_select_table_t select;

    /* calls served: in all, and per form, collective and algorithm for the report of
       verbose >= 2 (NULL where the communicator was made at a lower level: 5 kB saved) */
    uint64_t ncalls;
    uint64_t (*calls)[SCC_COLL_COUNT][SCC_ALG_COUNT];
    /* nonblocking and persistent calls in flight (coll_scc_task.c): the queue of tasks in
       the order they were started, the one running now (NULL: a blocking call), its form,
       a request of the fallback it waits for; next module with tasks queued */
    struct mca_coll_scc_task *q_head, *q_tail;
    struct scc_fiber *cur_fiber;        /* the running task's fiber (its waits stop it) */
    int form;
    struct ompi_request_t *task_sub;
    struct mca_coll_scc_module_t *q_next;
    bool q_listed;
    /* a nonblocking call or a persistent start tried on its caller's stack is running
       (coll_scc_icolls.c); how many tries ended there and how many went on as tasks, of
       nonblocking calls [0] and of persistent starts [1] (verbose 2) */
    bool trying;
    uint64_t tries[2][2];
    uint64_t tries_replayed[2];         /*   tasks that skip what their try let out */
    uint64_t *counted;                  /* the counter the last call counted in (verbose 2) */
    uint64_t try_ncalls;                /* ncalls before the try (an abandoned one undoes) */
    /* the collective of the running call and the algorithm picked (diagnostics) */
    scc_coll_t cur_coll;
    scc_alg_t cur_alg;
    size_t cur_bytes;                   /* its bytes, as the table counts them (trace) */
    struct scc_trace *trace;            /* the per-phase trace, NULL when off */
    scc_learn_t learn;                  /* large allgather parts: which way is faster */
} mca_coll_scc_module_t;

OBJ_CLASS_DECLARATION(mca_coll_scc_module_t);

/* Makes the module of a communicator (coll_scc_module.c). */
mca_coll_base_module_t *mca_coll_scc_comm_query(struct ompi_communicator_t *comm, int *priority);

/* Fills m->members from m and comm (coll_scc_module_members.c), at enable. */
void mca_coll_scc_members_fill(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm);

/* The per-phase trace's entry points (coll_scc_trace_entry.c): installs the tracing entry points
 * in a module (comm_query, when enabled); prints the module's summary and frees its trace
 * (teardown). */
void mca_coll_scc_trace_install(mca_coll_scc_module_t *m);
void mca_coll_scc_trace_report(mca_coll_scc_module_t *m);

/* Sets the communicator up (coll_scc_setup.c); returns true when the component serves it
 * (false: every call goes to the fallback), the same on every member: each step's failure on
 * one member is agreed by all (coll_scc_agree.c). */
bool mca_coll_scc_setup(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm);

/* A call on a communicator not set up yet: the first coll_scc_setup_calls calls go to the
 * fallback (a communicator made, used a few times and freed costs what it costs without
 * the component), the next one sets it up.  Every member makes the same collective calls
 * in the same order, so every member counts alike and sets up at the same call. */
bool mca_coll_scc_setup_lazy(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm);

/* Releases what setup attached, while the communicator is still valid (from the module's
 * disable, once). */
void mca_coll_scc_teardown(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm);
/* Verbose 2: the calls the component served on the communicator, by form and algorithm. */
void mca_coll_scc_report_calls(mca_coll_scc_module_t *m);

/* A blocking call finishes the tasks started before it (coll_scc_task.c). */
void mca_coll_scc_task_drain(mca_coll_scc_module_t *m);

/* Inside a task: waits (stopping the task, never blocking progress) for the request a
 * fallback's nonblocking function made in m->task_sub (rc: what starting it returned). */
int mca_coll_scc_task_await(mca_coll_scc_module_t *m, int rc);

/* True when the calling thread holds the lock under which tasks run (coll_scc_task.c). */
bool mca_coll_scc_task_lock_held(void);

/* True when the caller runs in m's task: m->cur_fiber alone does not say, for with
 * MPI_THREAD_MULTIPLE another thread's progress may be running m's task while this thread
 * makes a blocking call on m's communicator (which then waits for that task); a task runs
 * only in the thread holding the lock, which sets and clears m->cur_fiber. */
static inline bool mca_coll_scc_in_task(const mca_coll_scc_module_t *m)
{
    return NULL != m->cur_fiber && mca_coll_scc_task_lock_held();
}

/* What Open MPI would have run for collective `name` with these arguments (the module and,
 * in a task, the request follow them): inside a task the fallback's nonblocking function,
 * waited for without blocking progress, else its blocking one. */
#define SCC_FALLBACK(m, name, ...)                                               \
    (OPAL_LIKELY(!mca_coll_scc_in_task(m)) || NULL == (m)->prev_i##name.fn       \
         ? (m)->prev_##name.fn(__VA_ARGS__, (m)->prev_##name.module)             \
         : mca_coll_scc_task_await((m), (m)->prev_i##name.fn(__VA_ARGS__, &(m)->task_sub, \
                                                            (m)->prev_i##name.module)))

/* The body of a blocking entry that decides and runs a call: DECIDE gives the algorithm (and
 * the byte count in `bytes`), GO runs it with `alg` and `bytes` -- unless the communicator is
 * not set up, the decision is the fallback or the algorithm cannot take the call (before any
 * data moved), when the fallback serves it with the entry's arguments (...). */
#define SCC_DECIDED_ENTRY(m, comm, c, name, DECIDE, GO, ...)                     \
    do {                                                                         \
        size_t bytes = 0;                                                        \
        scc_alg_t alg;                                                           \
        int rc_;                                                                 \
        if (OPAL_LIKELY(mca_coll_scc_ready((m), (comm)))                         \
            && SCC_ALG_FALLBACK != (alg = (DECIDE))                              \
            && (rc_ = (GO), mca_coll_scc_scratch_return((m)),                    \
                OMPI_ERR_NOT_AVAILABLE != rc_)) {                                \
            return rc_;                                                          \
        }                                                                        \
        (void) bytes;                                                            \
        mca_coll_scc_count((m), (c), SCC_ALG_FALLBACK);                          \
        return SCC_FALLBACK((m), name, __VA_ARGS__);                             \
    } while (0)

static inline bool mca_coll_scc_ready(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm)
{
    if (OPAL_UNLIKELY(NULL != m->q_head) && !mca_coll_scc_in_task(m)) {
        mca_coll_scc_task_drain(m);
    }
    if (OPAL_LIKELY(SCC_STATE_ACTIVE == m->state)) {
        return true;
    }
    if (SCC_STATE_DECLINED == m->state) {
        return false;
    }
    return mca_coll_scc_setup_lazy(m, comm);
}

/* The algorithm for a call: a forced one (MPI_T may change it at any time
 * between collectives), else the communicator's table. */
static inline scc_alg_t mca_coll_scc_pick(mca_coll_scc_module_t *m, scc_coll_t c, size_t bytes)
{
    int f = mca_coll_scc_config.force[c];
    m->cur_coll = c;
#if defined(SCC_TRACE) && SCC_TRACE
    m->cur_bytes = bytes;
#endif
    if (OPAL_UNLIKELY(SCC_ALG_AUTO != f)) {
        m->cur_alg = scc_alg_valid(c, (scc_alg_t) f) && !(m->unavail & (1u << f))
                         ? (scc_alg_t) f : SCC_ALG_FALLBACK;
    } else {
        m->cur_alg = scc_select(&m->select, c, bytes);
    }
    return m->cur_alg;
}

/* Names the call that runs alg, as the table's lookup does (a persistent start, decided
 * before, looks nothing up). */
static inline void mca_coll_scc_running(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t alg)
{
    m->cur_coll = c;
    m->cur_alg = alg;
}

/* A call's end: its leased scratch buffers go back to the process (coll_scc_scratch.c). */
void mca_coll_scc_scratch_return_leased(mca_coll_scc_module_t *m);
static inline void mca_coll_scc_scratch_return(mca_coll_scc_module_t *m)
{
    if (OPAL_UNLIKELY(0 != m->leases)) {
        mca_coll_scc_scratch_return_leased(m);
    }
}

static inline void mca_coll_scc_count(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a)
{
    if (SCC_ALG_FALLBACK == a && OPAL_UNLIKELY(m->trying)) {
        /* a tried call the fallback must serve: abandoned before anything is counted (the
           fallback runs in its task) */
        scc_try_abort(m->xp);
    }
    m->ncalls++;
    if (NULL != m->calls) {
        m->counted = &m->calls[m->form][c][a];
        ++*m->counted;
    }
}

/* Entry points */
int mca_coll_scc_bcast(void *buff, int count, struct ompi_datatype_t *dtype, int root,
                       struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
/* The algorithm for a call c of count elements of dtype (their bytes in *bytes; SCC_ALG_FALLBACK:
 * the fallback's): what the broadcast and the block collectives decide, once when
 * persistent. */
static inline scc_alg_t mca_coll_scc_decide_bytes(mca_coll_scc_module_t *m, scc_coll_t c,
                                                  int count, struct ompi_datatype_t *dtype,
                                                  size_t *bytes)
{
    size_t dtsize;

    ompi_datatype_type_size(dtype, &dtsize);
    *bytes = dtsize * (size_t) count;
    return mca_coll_scc_pick(m, c, *bytes);
}

/* The same for gather and scatter (c), from the root's side of a part: the root's receive
 * count in a gather, its send count in a scatter; the other ranks' other side. */
static inline scc_alg_t mca_coll_scc_decide_rooted(mca_coll_scc_module_t *m, scc_coll_t c,
                                                   int root, int scount,
                                                   struct ompi_datatype_t *sdtype, int rcount,
                                                   struct ompi_datatype_t *rdtype, size_t *bytes)
{
    const bool recv = (SCC_COLL_GATHER == c) == (root == m->rank);
    return mca_coll_scc_decide_bytes(m, c, recv ? rcount : scount, recv ? rdtype : sdtype,
                                     bytes);
}

/* Running such a decision (counted; OMPI_ERR_NOT_AVAILABLE: the fallback must serve it). */
int mca_coll_scc_bcast_go(mca_coll_scc_module_t *m, scc_alg_t alg, size_t bytes, void *buff,
                          int count, struct ompi_datatype_t *dtype, int root);
int mca_coll_scc_alltoall_go(mca_coll_scc_module_t *m, scc_alg_t alg, size_t bytes,
                             const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                             void *rbuf, int rcount, struct ompi_datatype_t *rdtype);
int mca_coll_scc_allgather_go(mca_coll_scc_module_t *m, scc_alg_t alg, size_t bytes,
                              const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                              void *rbuf, int rcount, struct ompi_datatype_t *rdtype);
int mca_coll_scc_gather_go(mca_coll_scc_module_t *m, scc_alg_t alg, size_t bytes,
                           const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                           void *rbuf, int rcount, struct ompi_datatype_t *rdtype, int root);
int mca_coll_scc_scatter_go(mca_coll_scc_module_t *m, scc_alg_t alg, size_t bytes,
                            const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                            void *rbuf, int rcount, struct ompi_datatype_t *rdtype, int root);
/* The v-variants' run by alg: the table's choice for no particular size (no rank knows every
 * part's size, or none may decide by them), decided once when persistent. */
int mca_coll_scc_gatherv_go(mca_coll_scc_module_t *m, scc_alg_t alg, const void *sbuf,
                            int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                            const int *rcounts, const int *displs,
                            struct ompi_datatype_t *rdtype, int root);
int mca_coll_scc_scatterv_go(mca_coll_scc_module_t *m, scc_alg_t alg, const void *sbuf,
                             const int *scounts, const int *displs,
                             struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                             struct ompi_datatype_t *rdtype, int root);
int mca_coll_scc_allgatherv_go(mca_coll_scc_module_t *m, scc_alg_t alg, const void *sbuf,
                               int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                               const int *rcounts, const int *displs,
                               struct ompi_datatype_t *rdtype);
int mca_coll_scc_barrier(struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
/* The barrier's algorithm here (SCC_ALG_FALLBACK: the fallback's), and running it (counted;
 * OMPI_ERR_NOT_AVAILABLE: the fallback must serve it) -- decided once by a persistent one. */
scc_alg_t mca_coll_scc_barrier_decide(mca_coll_scc_module_t *m);
int mca_coll_scc_barrier_go(mca_coll_scc_module_t *m, scc_alg_t alg);
int mca_coll_scc_reduce(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                        struct ompi_op_t *op, int root, struct ompi_communicator_t *comm,
                        mca_coll_base_module_t *module);
int mca_coll_scc_allreduce(const void *sbuf, void *rbuf, int count,
                           struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_scc_alltoall(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                          void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_scc_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                           struct ompi_datatype_t *sdtype, void *rbuf, const int *rcounts,
                           const int *rdispls, struct ompi_datatype_t *rdtype,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_scc_gather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                        void *rbuf, int rcount, struct ompi_datatype_t *rdtype, int root,
                        struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_scc_scatter(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                         void *rbuf, int rcount, struct ompi_datatype_t *rdtype, int root,
                         struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_scc_allgather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                           void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_scc_reduce_scatter_block(const void *sbuf, void *rbuf, int rcount,
                                      struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                      struct ompi_communicator_t *comm,
                                      mca_coll_base_module_t *module);
int mca_coll_scc_gatherv(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                         void *rbuf, const int *rcounts, const int *displs,
                         struct ompi_datatype_t *rdtype, int root,
                         struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_scc_scatterv(const void *sbuf, const int *scounts, const int *displs,
                          struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                          struct ompi_datatype_t *rdtype, int root,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_scc_allgatherv(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                            void *rbuf, const int *rcounts, const int *displs,
                            struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                            mca_coll_base_module_t *module);
int mca_coll_scc_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                                struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_scc_scan(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                      struct ompi_op_t *op, struct ompi_communicator_t *comm,
                      mca_coll_base_module_t *module);
int mca_coll_scc_exscan(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                        struct ompi_op_t *op, struct ompi_communicator_t *comm,
                        mca_coll_base_module_t *module);
int mca_coll_scc_alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                           struct ompi_datatype_t *const *sdtypes, void *rbuf,
                           const int *rcounts, const int *rdispls,
                           struct ompi_datatype_t *const *rdtypes,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
/* The nonblocking and persistent forms of every collective above (coll_scc_icolls.c):
 * mca_coll_scc_ibcast, mca_coll_scc_bcast_init, ... with Open MPI's signatures. */
#define SCC_FORMS_DECL(name, id)                                                 \
    extern __typeof__(*(mca_coll_base_module_i##name##_fn_t) 0) mca_coll_scc_i##name; \
    extern __typeof__(*(mca_coll_base_module_##name##_init_fn_t) 0) mca_coll_scc_##name##_init;
SCC_FOREACH_COLL(SCC_FORMS_DECL)
#undef SCC_FORMS_DECL

/* alltoallv (c SCC_COLL_ALLTOALLV: dt, displacements in its extents) and alltoallw (dts,
 * displacements in bytes) by alg (the table's choice for no particular size, decided once when
 * persistent) on a set-up module, counted; OMPI_ERR_NOT_AVAILABLE: the fallback serves */
int mca_coll_scc_alltoallvw(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t alg,
                            const void *sbuf, const int *scounts, const int *sdispls,
                            struct ompi_datatype_t *sdt, struct ompi_datatype_t *const *sdts,
                            void *rbuf, const int *rcounts, const int *rdispls,
                            struct ompi_datatype_t *rdt, struct ompi_datatype_t *const *rdts);

END_C_DECLS

#endif /* MCA_COLL_SCC_H */
