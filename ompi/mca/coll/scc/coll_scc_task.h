/* coll_scc_task.h: nonblocking and persistent collectives -- a collective in flight is a task:
 * the blocking call's own code with its arguments, running on a fiber of its own (so it
 * stops at any wait and resumes there), queued on its communicator and advanced by Open
 * MPI's progress loop.
 *
 * Ordering: MPI matches a communicator's collectives in the order each process starts them,
 * blocking or not.  A communicator's tasks run one after the other in that order (the
 * transport's calls, tags and slots stay those of one call at a time), tasks of different
 * communicators interleave at their waits, and a blocking call first finishes the tasks
 * started before it.  Nonblocking calls count towards a communicator's setup as blocking
 * ones do (coll_scc_setup_calls): before it they go to the fallback's functions, the call
 * that sets up is a task.  A task whose call the component declines runs the fallback's
 * nonblocking function at its turn and waits for its request without blocking progress; so
 * do the setup's agreements inside a task.
 */
#ifndef MCA_COLL_SCC_TASK_H
#define MCA_COLL_SCC_TASK_H

#include "coll_scc.h"
#include "coll_scc_fiber.h"
#include "coll_scc_reduction.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/request/request.h"

BEGIN_C_DECLS

/* A collective's arguments, as many as the widest one takes. */
typedef struct scc_task_args {
    const void *sbuf;
    void *rbuf;
    int scount, rcount;
    const int *scounts, *sdispls, *rcounts, *rdispls;
    struct ompi_datatype_t *sdt, *rdt;
    struct ompi_datatype_t *const *sdts, *const *rdts;
    struct ompi_op_t *op;
    int root;
} scc_task_args_t;

struct mca_coll_scc_task;
typedef int (*scc_task_run_fn_t)(struct mca_coll_scc_task *t);
/* A persistent start run first on its caller's stack: true when it ended there (its code in
 * t->rc), false when it goes on as the task (coll_scc_icolls.c). */
typedef bool (*scc_task_try_fn_t)(struct mca_coll_scc_task *t);

/* The request is Open MPI's request of nonblocking collectives: the MPI layer keeps the
 * user's datatypes and operation alive through it (ompi_coll_base_retain_*). */
typedef struct mca_coll_scc_task {
    ompi_coll_base_nbc_request_t super;
    scc_fiber_t fiber;
    mca_coll_scc_module_t *m;
    struct ompi_communicator_t *comm;
    scc_task_run_fn_t run;          /* the blocking call on a */
    scc_task_try_fn_t try_start;    /* persistent: each start tried first (NULL: a task) */
    scc_task_args_t a;
    int form;                       /* SCC_FORM_I or SCC_FORM_INIT */
    bool decided;                   /* persistent: decided at a start, call holds it */
    scc_reduction_call_t call;      /*   (a reduction's decision; the others': call.alg, .bytes) */
    int rc;
    uint64_t last;                  /* when it was last resumed (cycles; 0: unknown) */
    bool queued;                    /* started and not ended */
    bool freed;                     /* freed by the user while queued: release at its end */
    bool retained;                  /* holds a reference on comm (a task that outlives its call) */
    void *kept;                     /* the call's argument arrays (mca_coll_scc_task_keep) */
    size_t kept_bytes;              /*   (its size: kept with the task in the cache) */
    struct mca_coll_scc_task *next; /* its communicator's queue */
} mca_coll_scc_task_t;

OBJ_CLASS_DECLARATION(mca_coll_scc_task_t);

/* A task to fill (its arguments a) and post; NULL: out of memory. */
mca_coll_scc_task_t *mca_coll_scc_task_new(void);

/* Starts (SCC_FORM_I) or makes inactive (SCC_FORM_INIT) the task t (from
 * mca_coll_scc_task_new, its arguments filled) running run for the module's communicator;
 * its request in *request -- a nonblocking call that ended at once answers the empty
 * request, and its error code.  A persistent one's starts first call try_start (NULL:
 * none). */
int mca_coll_scc_task_post(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm,
                           mca_coll_scc_task_t *t, scc_task_run_fn_t run, int form,
                           scc_task_try_fn_t try_start, ompi_request_t **request);

/* The argument arrays of a v-collective significant at a rank: send counts, displacements,
 * datatypes (alltoallw), receive ones. */
enum { SCC_KEEP_SC = 1, SCC_KEEP_SD = 2, SCC_KEEP_ST = 4, SCC_KEEP_RC = 8, SCC_KEEP_RD = 16,
       SCC_KEEP_RT = 32 };

/* Copies the argument arrays `what` (of n entries each) of t's arguments into t and points its
 * arguments there.  The MPI standard has the caller keep them unchanged until the call
 * completes, but Open MPI's libnbc reads them at the call and callers rely on that (mpi4py
 * 3.1 frees them at once).  Where no memory is left they stay the caller's. */
void mca_coll_scc_task_keep(mca_coll_scc_task_t *t, int n, unsigned what);

/* True when a nonblocking (persistent: its init) call becomes a task; false: it goes to the
 * fallback's function (what it started runs in the order of the calls either way: a call
 * goes there only when no task of the communicator is queued).  Counts the call towards
 * setup as a blocking one is counted. */
static inline bool mca_coll_scc_task_takes(mca_coll_scc_module_t *m, bool persistent)
{
    /* (inline: every nonblocking call asks, and a call after a context switch finds
       code elsewhere cold) */
    if (NULL != __atomic_load_n(&m->q_head, __ATOMIC_ACQUIRE)) {
        return true;    /* after the tasks before it, in the order of the calls */
    }
    switch (m->state) {
    case SCC_STATE_ACTIVE:
        return true;
    case SCC_STATE_DECLINED:
        return false;
    default:
        /* before setup: a call counts towards it as a blocking one does; the call that
           sets up is a task (the setup's agreements then wait without blocking) */
        if (!persistent && m->lazy_calls < (uint64_t) mca_coll_scc_config.setup_calls) {
            m->lazy_calls++;
            return false;
        }
        return true;
    }
}

/* Finishes the engine (component close): the progress function goes, cached tasks too;
 * *nested: how many tasks a progress call inside a task started (queued, not run there). */
void mca_coll_scc_task_close(uint64_t *nested);

/* Stack bytes of a task's fiber (coll_scc_task_stack). */
extern int mca_coll_scc_task_stack;

END_C_DECLS

#endif /* MCA_COLL_SCC_TASK_H */
