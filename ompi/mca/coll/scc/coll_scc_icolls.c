/* coll_scc_icolls.c: the nonblocking (MPI_Ibcast) and persistent (MPI_Bcast_init) form of
 * every collective the component serves: each is its blocking call run as a task
 * (coll_scc_task.c), so it takes the same table, algorithms and transports.  A persistent
 * reduction or barrier decides at its first start that finds the communicator set up (a
 * communicator set up stays so) and only runs that decision at every start after it. */
#include "coll_scc_task.h"

#define SCC_UNPAREN(...) __VA_ARGS__
typedef struct ompi_datatype_t scc_dt_t;

/* The nonblocking and the persistent entry point of collective `name`, whose task runs
 * scc_run_##name: PARAMS are the blocking call's parameters before the communicator, ARGS
 * their names, FILL saves them into the task's arguments a. */
#define SCC_ENTRIES_OF(name, PARAMS, ARGS, FILL)                                 \
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
        if (NULL == (t = mca_coll_scc_task_new())) {                             \
            return OMPI_ERR_OUT_OF_RESOURCE;                                     \
        }                                                                        \
        a = &t->a;                                                               \
        FILL                                                                     \
        return mca_coll_scc_task_post(m, comm, t, scc_run_##name, SCC_FORM_I, request); \
    }                                                                            \
    int mca_coll_scc_##name##_init(SCC_UNPAREN PARAMS, struct ompi_communicator_t *comm, \
                                   struct ompi_info_t *info, ompi_request_t **request, \
                                   mca_coll_base_module_t *module)               \
    {                                                                            \
        mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;             \
        mca_coll_scc_task_t *t;                                                  \
        scc_task_args_t *a;                                                      \
        if (!mca_coll_scc_task_takes(m, true)) {                                 \
            return m->prev_##name##_init.fn(SCC_UNPAREN ARGS, comm, info, request, \
                                            m->prev_##name##_init.module);       \
        }                                                                        \
        if (NULL == (t = mca_coll_scc_task_new())) {                             \
            return OMPI_ERR_OUT_OF_RESOURCE;                                     \
        }                                                                        \
        a = &t->a;                                                               \
        FILL                                                                     \
        return mca_coll_scc_task_post(m, comm, t, scc_run_##name, SCC_FORM_INIT, request); \
    }

/* The same, for a task that runs the blocking call on a (RUN: its arguments read back from
 * a) */
#define SCC_FORMS_OF(name, PARAMS, ARGS, RUN, FILL)                              \
    static int scc_run_##name(mca_coll_scc_task_t *t)                           \
    {                                                                            \
        scc_task_args_t *a = &t->a;                                              \
        return mca_coll_scc_##name(SCC_UNPAREN RUN, t->comm, &t->m->super);      \
    }                                                                            \
    SCC_ENTRIES_OF(name, PARAMS, ARGS, FILL)

/* A persistent reduction's start: its decision, made at the first start that can (false:
 * the fallback serves it) */
static bool scc_decided_reduction(mca_coll_scc_task_t *t, scc_coll_t c)
{
    scc_task_args_t *a = &t->a;

    if (!t->decided) {
        if (!mca_coll_scc_ready(t->m, t->comm)) {
            return false;
        }
        (void) mca_coll_scc_reduction_decide(t->m, c, a->sbuf, a->rbuf, a->scount, a->sdt,
                                             a->op, a->root, &t->call);
        t->decided = true;
    }
    return SCC_ALG_FALLBACK != t->call.alg;
}

/* A reduction of one vector (reduce, allreduce, scan, exscan: c): nonblocking, the blocking
 * call; persistent, its decision run, or the fallback's blocking call waited for as a task
 * waits.  RUN: as SCC_FORMS_OF */
#define SCC_FORMS_DECIDED(name, c, PARAMS, ARGS, RUN, FILL)                     \
    static int scc_run_##name(mca_coll_scc_task_t *t)                           \
    {                                                                            \
        scc_task_args_t *a = &t->a;                                              \
        int rc;                                                                  \
        if (SCC_FORM_INIT != t->form) {                                          \
            return mca_coll_scc_##name(SCC_UNPAREN RUN, t->comm, &t->m->super);  \
        }                                                                        \
        if (scc_decided_reduction(t, c)                                          \
            && OMPI_ERR_NOT_AVAILABLE != (rc = mca_coll_scc_reduction_go(t->m, &t->call))) { \
            return rc;                                                           \
        }                                                                        \
        t->call.alg = SCC_ALG_FALLBACK;     /* (the same at every start after) */ \
        mca_coll_scc_count(t->m, c, SCC_ALG_FALLBACK);                           \
        return SCC_FALLBACK(t->m, name, SCC_UNPAREN RUN, t->comm);               \
    }                                                                            \
    SCC_ENTRIES_OF(name, PARAMS, ARGS, FILL)

SCC_FORMS_OF(bcast,
             (void *buff, int count, scc_dt_t *dtype, int root),
             (buff, count, dtype, root),
             (a->rbuf, a->scount, a->sdt, a->root),
             a->rbuf = buff; a->scount = count; a->sdt = dtype; a->root = root;)

SCC_FORMS_DECIDED(reduce, SCC_COLL_REDUCE,
                  (const void *sbuf, void *rbuf, int count, scc_dt_t *dtype,
                   struct ompi_op_t *op, int root),
                  (sbuf, rbuf, count, dtype, op, root),
                  (a->sbuf, a->rbuf, a->scount, a->sdt, a->op, a->root),
                  a->sbuf = sbuf; a->rbuf = rbuf; a->scount = count; a->sdt = dtype;
                  a->op = op; a->root = root;)

/* The reductions without a root: allreduce, scan, exscan (decided once when persistent),
 * reduce_scatter_block (its count is each rank's block) */
#define SCC_REDUCTION_PARAMS                                                     \
    (const void *sbuf, void *rbuf, int count, scc_dt_t *dtype, struct ompi_op_t *op)
#define SCC_REDUCTION_ARGS (sbuf, rbuf, count, dtype, op)
#define SCC_REDUCTION_RUN (a->sbuf, a->rbuf, a->scount, a->sdt, a->op)
#define SCC_REDUCTION_FILL                                                       \
    a->sbuf = sbuf; a->rbuf = rbuf; a->scount = count; a->sdt = dtype; a->op = op; a->root = 0;
#define SCC_FORMS_REDUCTION(name, c)                                             \
    SCC_FORMS_DECIDED(name, c, SCC_REDUCTION_PARAMS, SCC_REDUCTION_ARGS, SCC_REDUCTION_RUN, \
                      SCC_REDUCTION_FILL)
SCC_FORMS_REDUCTION(allreduce, SCC_COLL_ALLREDUCE)
SCC_FORMS_REDUCTION(scan, SCC_COLL_SCAN)
SCC_FORMS_REDUCTION(exscan, SCC_COLL_EXSCAN)
SCC_FORMS_OF(reduce_scatter_block, SCC_REDUCTION_PARAMS, SCC_REDUCTION_ARGS, SCC_REDUCTION_RUN,
             SCC_REDUCTION_FILL)

SCC_FORMS_OF(reduce_scatter,
             (const void *sbuf, void *rbuf, const int *rcounts, scc_dt_t *dtype,
              struct ompi_op_t *op),
             (sbuf, rbuf, rcounts, dtype, op),
             (a->sbuf, a->rbuf, a->rcounts, a->sdt, a->op),
             a->sbuf = sbuf; a->rbuf = rbuf; a->rcounts = rcounts; a->sdt = dtype; a->op = op;)

/* Blocks of one size from every rank to every rank (alltoall, allgather) */
#define SCC_FORMS_BLOCKS(name)                                                   \
    SCC_FORMS_OF(name,                                                           \
                 (const void *sbuf, int scount, scc_dt_t *sdtype, void *rbuf, int rcount, \
                  scc_dt_t *rdtype),                                             \
                 (sbuf, scount, sdtype, rbuf, rcount, rdtype),                   \
                 (a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt),       \
                 a->sbuf = sbuf; a->scount = scount; a->sdt = sdtype; a->rbuf = rbuf; \
                 a->rcount = rcount; a->rdt = rdtype;)
SCC_FORMS_BLOCKS(alltoall)
SCC_FORMS_BLOCKS(allgather)

/* The same with a root (gather, scatter) */
#define SCC_FORMS_ROOTED(name)                                                   \
    SCC_FORMS_OF(name,                                                           \
                 (const void *sbuf, int scount, scc_dt_t *sdtype, void *rbuf, int rcount, \
                  scc_dt_t *rdtype, int root),                                   \
                 (sbuf, scount, sdtype, rbuf, rcount, rdtype, root),             \
                 (a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->root), \
                 a->sbuf = sbuf; a->scount = scount; a->sdt = sdtype; a->rbuf = rbuf; \
                 a->rcount = rcount; a->rdt = rdtype; a->root = root;)
SCC_FORMS_ROOTED(gather)
SCC_FORMS_ROOTED(scatter)

SCC_FORMS_OF(gatherv,
             (const void *sbuf, int scount, scc_dt_t *sdtype, void *rbuf, const int *rcounts,
              const int *displs, scc_dt_t *rdtype, int root),
             (sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype, root),
             (a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts, a->rdispls, a->rdt, a->root),
             a->sbuf = sbuf; a->scount = scount; a->sdt = sdtype; a->rbuf = rbuf;
             a->rcounts = rcounts; a->rdispls = displs; a->rdt = rdtype; a->root = root;)

SCC_FORMS_OF(scatterv,
             (const void *sbuf, const int *scounts, const int *displs, scc_dt_t *sdtype,
              void *rbuf, int rcount, scc_dt_t *rdtype, int root),
             (sbuf, scounts, displs, sdtype, rbuf, rcount, rdtype, root),
             (a->sbuf, a->scounts, a->sdispls, a->sdt, a->rbuf, a->rcount, a->rdt, a->root),
             a->sbuf = sbuf; a->scounts = scounts; a->sdispls = displs; a->sdt = sdtype;
             a->rbuf = rbuf; a->rcount = rcount; a->rdt = rdtype; a->root = root;)

SCC_FORMS_OF(allgatherv,
             (const void *sbuf, int scount, scc_dt_t *sdtype, void *rbuf, const int *rcounts,
              const int *displs, scc_dt_t *rdtype),
             (sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype),
             (a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts, a->rdispls, a->rdt),
             a->sbuf = sbuf; a->scount = scount; a->sdt = sdtype; a->rbuf = rbuf;
             a->rcounts = rcounts; a->rdispls = displs; a->rdt = rdtype;)

SCC_FORMS_OF(alltoallv,
             (const void *sbuf, const int *scounts, const int *sdispls, scc_dt_t *sdtype,
              void *rbuf, const int *rcounts, const int *rdispls, scc_dt_t *rdtype),
             (sbuf, scounts, sdispls, sdtype, rbuf, rcounts, rdispls, rdtype),
             (a->sbuf, a->scounts, a->sdispls, a->sdt, a->rbuf, a->rcounts, a->rdispls, a->rdt),
             a->sbuf = sbuf; a->scounts = scounts; a->sdispls = sdispls; a->sdt = sdtype;
             a->rbuf = rbuf; a->rcounts = rcounts; a->rdispls = rdispls; a->rdt = rdtype;)

SCC_FORMS_OF(alltoallw,
             (const void *sbuf, const int *scounts, const int *sdispls,
              scc_dt_t *const *sdtypes, void *rbuf, const int *rcounts, const int *rdispls,
              scc_dt_t *const *rdtypes),
             (sbuf, scounts, sdispls, sdtypes, rbuf, rcounts, rdispls, rdtypes),
             (a->sbuf, a->scounts, a->sdispls, a->sdts, a->rbuf, a->rcounts, a->rdispls,
              a->rdts),
             a->sbuf = sbuf; a->scounts = scounts; a->sdispls = sdispls; a->sdts = sdtypes;
             a->rbuf = rbuf; a->rcounts = rcounts; a->rdispls = rdispls; a->rdts = rdtypes;)

/* barrier: no arguments before the communicator; persistent, decided once */
static int scc_run_barrier(mca_coll_scc_task_t *t)
{
    mca_coll_scc_module_t *m = t->m;
    int rc;

    if (SCC_FORM_INIT != t->form) {
        return mca_coll_scc_barrier(t->comm, &m->super);
    }
    if (!t->decided && mca_coll_scc_ready(m, t->comm)) {
        t->call.alg = mca_coll_scc_barrier_decide(m);
        t->decided = true;
    }
    if (t->decided && SCC_ALG_FALLBACK != t->call.alg
        && OMPI_ERR_NOT_AVAILABLE != (rc = mca_coll_scc_barrier_go(m, t->call.alg))) {
        return rc;
    }
    t->call.alg = SCC_ALG_FALLBACK;
    mca_coll_scc_count(m, SCC_COLL_BARRIER, SCC_ALG_FALLBACK);
    return SCC_FALLBACK(m, barrier, t->comm);
}

int mca_coll_scc_ibarrier(struct ompi_communicator_t *comm, ompi_request_t **request,
                          mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    mca_coll_scc_task_t *t;

    if (!mca_coll_scc_task_takes(m, false)) {
        return m->prev_ibarrier.fn(comm, request, m->prev_ibarrier.module);
    }
    if (NULL == (t = mca_coll_scc_task_new())) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return mca_coll_scc_task_post(m, comm, t, scc_run_barrier, SCC_FORM_I, request);
}

int mca_coll_scc_barrier_init(struct ompi_communicator_t *comm, struct ompi_info_t *info,
                              ompi_request_t **request, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    mca_coll_scc_task_t *t;

    if (!mca_coll_scc_task_takes(m, true)) {
        return m->prev_barrier_init.fn(comm, info, request, m->prev_barrier_init.module);
    }
    if (NULL == (t = mca_coll_scc_task_new())) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return mca_coll_scc_task_post(m, comm, t, scc_run_barrier, SCC_FORM_INIT, request);
}
