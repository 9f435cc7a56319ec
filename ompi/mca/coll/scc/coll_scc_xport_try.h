/* coll_scc_xport_try.h: a call tried on its caller's stack -- how a nonblocking collective
 * whose peers are already there ends before it returns, without a task.
 *
 * A nonblocking call may not wait for its peers (one of them may first wait for this
 * process), and code on the caller's stack cannot stop at a wait and resume later: only a
 * task can (coll_scc_task.c).  But a call whose every wait is answered at once never stops.
 * So the call first runs here as its blocking code, with whatever other processes could
 * see held back: the messages it publishes, the acknowledgements of what it read, the
 * flags it raises go into a log instead.  A wait answered within a few polls goes on; any
 * other wait abandons the try -- nothing left this process, so the call starts again from
 * its beginning as a task, as if never tried.  A try that reaches its end makes the log
 * visible in its order (commit).  A barrier's flags are the exception (flags_now): raised at
 * once, they only say that this rank arrived, and its task raises the same again.
 *
 * What cannot be held back abandons the try as a wait does: exposing a buffer single-copy
 * (its sender waits for the readers at the end), reading one (a lent buffer may be held),
 * a slot whose held-back message the call would overwrite, a log that is full, and more
 * than SCC_TRY_BYTES of messages (a large call would copy its pieces twice, its task costs
 * little beside them: it starts as a task at once).  Only the shm transport on one node
 * tries (no pml message can be held back), never with threads calling concurrently or with
 * the strict checker.
 */
#ifndef MCA_COLL_SCC_XPORT_TRY_H
#define MCA_COLL_SCC_XPORT_TRY_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "coll_scc_compat.h"

BEGIN_C_DECLS

struct scc_xport;

/* Polls a tried wait makes before the try is abandoned, while it holds nothing back (a
 * broadcast's reader: the task it would become polls as many at its first resume, at the
 * task's cost); once it holds something back, none -- a peer may be waiting for it (a
 * scan's next rank), and the wait would be paid twice, in the try and in its task. */
#define SCC_TRY_SPIN 8

/* Held-back effects a try may log (a small call logs a few). */
#define SCC_TRY_LOG 32

/* Bytes of messages a try may write and read: past them it is abandoned before it copies
 * (a 1 MB gather's sender would fill every slot, then wait, and its task copy it all again;
 * at this size the task's start is a few percent of the call: np 2, medians of 5 launches,
 * ibcast 8 KB 0.86 us tried against 0.98 as a task, 16 KB 1.72 against 1.48). */
#define SCC_TRY_BYTES 8192

typedef struct scc_try_op {
    enum { SCC_TRY_PUBLISH, SCC_TRY_ACK, SCC_TRY_FLAG } what;
    int slot;                       /* publish: my slot; ack: the peer's */
    int peer;                       /* ack: whose slot; publish: readers */
    uint64_t id;                    /* publish: its id (the header's other fields are
                                       written), of the call it was published in */
    volatile uint64_t *flag;        /* flag: which, and its value */
    uint64_t value;
} scc_try_op_t;

/* The transport's words a try saves at its start and an abandoned one restores (the
 * call's number, its barrier epoch, shape and failure; the received counts too). */
#define SCC_TRY_SAVED(COPY) \
    COPY(call) COPY(bar_epoch) COPY(shape) COPY(met) COPY(fail) COPY(shape_check)
#define SCC_TRY_COPY(to, from, f) (to)->f = (from)->f;

typedef struct scc_try {
    sigjmp_buf env;                 /* where an abandoned try goes back to */
    struct scc_xport *x;
    /* the transport's state before the try, restored when it is abandoned */
    uint64_t call, bar_epoch, shape, met;
    int fail;
    bool shape_check;
    uint64_t traffic[2][2];
    uint64_t held;                  /* my slots holding a held-back message (bitmask) */
    size_t bytes;                   /* of the messages it wrote and read */
    bool flags_now;                 /* its flags are raised, not held back (a barrier) */
    int n;                          /* logged effects */
    scc_try_op_t log[SCC_TRY_LOG];
} scc_try_t;

/* Whether a call on x may be tried, the start and the commit: the slot engine's
 * (coll_scc_xport_slots.h). */

/* Abandons x's try: its log dropped, x's state restored, back to its start (siglongjmp:
 * its sigsetjmp returns 1). */
void scc_try_abort(struct scc_xport *x) __attribute__((noreturn));

/* The log (each abandons the try when it is full). */
void scc_try_log_publish(struct scc_xport *x, int slot, uint64_t id, int nreaders);
void scc_try_log_ack(struct scc_xport *x, int peer, int slot);
void scc_try_log_flag(struct scc_xport *x, volatile uint64_t *p, uint64_t v);

/* A wait's turn during a try: after SCC_TRY_SPIN polls (none once something is held back)
 * the try is abandoned; the poll itself is the wait loop's (scc_pause). */
static inline void scc_try_wait_turn(scc_try_t *t, unsigned *spins)
{
    if (++*spins > (0 == t->n ? SCC_TRY_SPIN : 0)) {
        scc_try_abort(t->x);
    }
}

/* A message of len bytes the try writes or reads: past SCC_TRY_BYTES, abandoned. */
static inline void scc_try_bytes(scc_try_t *t, size_t len)
{
    t->bytes += len;
    if (t->bytes > SCC_TRY_BYTES) {
        scc_try_abort(t->x);
    }
}

END_C_DECLS

#endif /* MCA_COLL_SCC_XPORT_TRY_H */
