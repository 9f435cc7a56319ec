/* coll_scc_xport_try.h: a call tried on its caller's stack -- how a nonblocking collective
 * (or a persistent one's start) whose peers are already there ends before it returns,
 * without a task.
 *
 * A nonblocking call may not wait for its peers (one of them may first wait for this
 * process), and code on the caller's stack cannot stop at a wait and resume later: only a
 * task can (coll_scc_task.c).  But a call whose every wait is answered at once never stops.
 * So the call first runs here as its blocking code, with what other processes could act
 * on held back: the acknowledgements of what it read (a writer would reuse its slot) and the
 * flags it raises go into a log instead.  A wait answered within a few polls goes on; any
 * other wait abandons the try -- the transport's state is restored and the call starts
 * again from its beginning as a task.  A try that reaches its end makes the log visible in
 * its order (commit).  A barrier's flags are the exception (flags_now): raised at once, they
 * only say that this rank arrived, and its task raises the same again.
 *
 * Its messages go out as it sends them, as a blocking call's (their peers may be there and
 * waiting: the first process at an allreduce), each noted on the transport's replay list:
 * a task after an abandoned try runs the call again but skips the messages already out,
 * known by their slot and id (coll_scc_xport.c) -- the same call sends the same ones -- and
 * reads again what the try read (its acknowledgements never left).  A message written in
 * its slot in place (its task would write it there again while its readers read it), any
 * message after it or after a held-back flag (a call's messages never overtake each other:
 * readers may count on their order), or one beyond the replay list's room is held back in
 * the log, out at the next wait or peer's message found where it can be, else at a wait
 * it abandons the try.  A slot holding a message the try let out is not claimed again in
 * the try: its task reads its own messages back from their slots (a reduction's own
 * contribution), and the try would have overwritten one with a later piece of the call.
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

/* Polls a tried wait makes before the try is abandoned.  Where every process has a core,
 * its peer is running and about to write: a reduce's root waits for its children's
 * messages, sent within their own tries (when those held them to their ends, np 2 bound,
 * 256 B-4 KB: 8 polls kept 1 try in 1200, 32 kept 1190, 1.11-1.14x the blocking call ->
 * 1.02-1.05; a 4 KB scatter's reader 10 -> 1126, 1.25 -> 1.13-1.22).  Oversubscribed, a
 * peer that is not running does not answer polls: fewer (4 processes on 2 cores: the same
 * with 8 or 32).
 * Once the try has let messages out, as many: its peers are answering them (the first
 * process at an allreduce).  None while a flag is held back (a peer may wait for it: it
 * would wait for the try, then for the task). */
#define SCC_TRY_SPIN 32
#define SCC_TRY_SPIN_OVER 8
#define SCC_TRY_SPIN_OUT 32

/* Held-back effects a try may log (a small call logs a few). */
#define SCC_TRY_LOG 32

/* Bytes of messages a try may write and read: past them it is abandoned before it copies
 * (a 1 MB gather's sender would fill every slot, then wait, and its task copy it all again;
 * at this size the task's start is a few percent of the call: np 2, medians of 5 launches,
 * ibcast 8 KB 0.86 us tried against 0.98 as a task, 16 KB 1.72 against 1.48). */
#define SCC_TRY_BYTES 8192

/* Where an abandoned try goes back to.  GCC's and Clang's builtin pair keeps a few words
 * and makes no call (the function that sets it saves every register it needs itself);
 * libc's sigsetjmp writes a 200-byte buffer, lines a call just after a context switch finds
 * cold.  Elsewhere, sigsetjmp without the signal mask. */
#if defined(__GNUC__) && defined(__x86_64__)
typedef void *scc_try_env_t[5];
#define SCC_TRY_SETJMP(env) __builtin_setjmp(env)
#define SCC_TRY_LONGJMP(env) __builtin_longjmp((env), 1)
#else
typedef sigjmp_buf scc_try_env_t;
#define SCC_TRY_SETJMP(env) sigsetjmp((env), 0)
#define SCC_TRY_LONGJMP(env) siglongjmp((env), 1)
#endif

typedef struct scc_try_op {
    enum { SCC_TRY_PUBLISH, SCC_TRY_ACK, SCC_TRY_FLAG } what;
    int slot;                       /* publish: my slot; ack: the peer's */
    int peer;                       /* ack: whose slot; publish: readers */
    uint64_t id;                    /* publish: its id (the header's other fields are
                                       written), of the call it was published in */
    volatile uint64_t *flag;        /* flag: which, and its value */
    uint64_t value;
    bool replayable;                /* publish: its task can skip it (publish_early) */
} scc_try_op_t;

/* The transport's words a try saves at its start and an abandoned one restores (the
 * call's number, its barrier epoch, shape and failure; the received counts too). */
#define SCC_TRY_SAVED(COPY) \
    COPY(call) COPY(bar_epoch) COPY(shape) COPY(met) COPY(fail) COPY(shape_check)
#define SCC_TRY_COPY(to, from, f) (to)->f = (from)->f;

typedef struct scc_try {
    scc_try_env_t env;              /* where an abandoned try goes back to */
    struct scc_xport *x;
    /* the transport's state before the try, restored when it is abandoned */
    uint64_t call, bar_epoch, shape, met;
    int fail;
    bool shape_check;
    uint64_t traffic[2][2];
    unsigned spin;                  /* polls of a wait (SCC_TRY_SPIN, _OVER) */
    int nlater;                     /* acks owed from earlier calls, first in x->later (0
                                       once settled in the try) */
    uint64_t held;                  /* my slots holding a held-back message (bitmask) */
    uint64_t out;                   /* my slots holding a message it let out (bitmask) */
    size_t bytes;                   /* of the messages it wrote and read */
    bool flags_now;                 /* its flags are raised, not held back (a barrier) */
    int n;                          /* logged effects */
    int nflags;                     /*   of them flags */
    /* lets the messages held back out, in their order, up to the first their task could
       not skip (written in their slot), a held-back flag or the replay list's room; each
       goes onto x's replay list (the slot engine's) */
    void (*publish_early)(struct scc_xport *x);
    scc_try_op_t log[SCC_TRY_LOG];
} scc_try_t;

/* Whether a call on x may be tried, the start and the commit: the slot engine's
 * (coll_scc_xport_slots.h). */

/* Abandons x's try: its log dropped, x's state restored, back to its start (its
 * SCC_TRY_SETJMP returns 1). */
void scc_try_abort(struct scc_xport *x) __attribute__((noreturn));

/* The log (each abandons the try when it is full; inline: a reader logs one per message,
 * and a call after a context switch finds code elsewhere cold). */
static inline scc_try_op_t *scc_try_next(scc_try_t *t)
{
    if (OPAL_UNLIKELY(t->n == SCC_TRY_LOG)) {
        scc_try_abort(t->x);
    }
    return &t->log[t->n++];
}

static inline void scc_try_log_publish(scc_try_t *t, int slot, uint64_t id, int nreaders,
                                       bool replayable)
{
    scc_try_op_t *op = scc_try_next(t);
    op->what = SCC_TRY_PUBLISH;
    op->replayable = replayable;
    op->slot = slot;
    op->peer = nreaders;
    op->id = id;
    t->held |= 1ull << slot;
}

static inline void scc_try_log_ack(scc_try_t *t, int peer, int slot)
{
    scc_try_op_t *op = scc_try_next(t);
    op->what = SCC_TRY_ACK;
    op->peer = peer;
    op->slot = slot;
}

static inline void scc_try_log_flag(scc_try_t *t, volatile uint64_t *p, uint64_t v)
{
    scc_try_op_t *op = scc_try_next(t);
    op->what = SCC_TRY_FLAG;
    op->flag = p;
    op->value = v;
    t->nflags++;
}

/* A wait's turn during a try: held-back messages go out at its first turn, and one that
 * cannot abandons the try (its peers may be waiting for it); after t->spin or
 * SCC_TRY_SPIN_OUT polls (none while a flag is held back) the try is abandoned; the poll
 * itself is the wait loop's (scc_pause). */
static inline void scc_try_wait_turn(scc_try_t *t, unsigned *spins)
{
    if (OPAL_UNLIKELY(0 != t->held)) {
        t->publish_early(t->x);
        if (0 != t->held) {
            scc_try_abort(t->x);
        }
    }
    if (++*spins > (0 != t->nflags ? 0 : 0 != t->out ? SCC_TRY_SPIN_OUT : t->spin)) {
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

/* A peer's message of len bytes found without a wait: held-back messages go out first
 * where they can, as at a wait -- the peer may be waiting for them while this rank reads
 * and combines (the last rank at an allreduce would else keep its contribution to its end;
 * np 2, 8 B-2 KB, 33000 calls: the first rank's abandoned tries 4300 -> 1000-2000,
 * iallgather's 130-210 -> 11-65). */
static inline void scc_try_found(scc_try_t *t, size_t len)
{
    scc_try_bytes(t, len);
    if (0 != t->held) {
        t->publish_early(t->x);
    }
}

/* The messages a try let out and its task skips (slot and id; the transport's, allocated
 * at the first). */
typedef struct scc_try_replay {
    int n;                          /* entries (skipped ones: slot -1) */
    struct { int slot; uint64_t id; } e[SCC_TRY_LOG];
} scc_try_replay_t;

END_C_DECLS

#endif /* MCA_COLL_SCC_XPORT_TRY_H */
