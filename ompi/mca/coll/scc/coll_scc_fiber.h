/* coll_scc_fiber.h: code that runs on a stack of its own and stops at any point (a wait),
 * to be resumed later from where it stopped: what lets a collective written as one blocking
 * call run as a nonblocking or persistent one.  Pure C (no Open MPI include).
 *
 * A fiber is resumed by its owner (scc_fiber_resume) and runs until it yields
 * (scc_fiber_yield, from inside) or its function returns; resuming and yielding each cost a
 * register save and a stack switch (x86-64: a few nanoseconds, no system call).  One fiber
 * is resumed by one thread at a time; it may be resumed by another thread later.  The
 * floating-point control (rounding mode, exception masks) is not switched: code must not
 * yield between changing it and restoring it.
 */
#ifndef MCA_COLL_SCC_FIBER_H
#define MCA_COLL_SCC_FIBER_H

#include <stdbool.h>
#include <stddef.h>

#if defined(__cplusplus)
extern "C" {
#endif

typedef struct scc_fiber {
    void *sp;                       /* the fiber's stack pointer while it is stopped */
    void *back;                     /* its resumer's while it runs */
    char *map;                      /* the stack's mapping: a guard page, then the stack */
    size_t map_size;
    void (*fn)(void *);
    void *arg;
    bool done;                      /* fn returned: resume no more until started again */
    void *uctx;                     /* without the assembly switch: the ucontext pair */
    void *asan_fake;                /* AddressSanitizer: the fake stack of the side left, */
    const void *asan_back;          /*   the resumer's stack (bottom, size) */
    size_t asan_back_size;
    unsigned vg_id;                 /* valgrind's record of the stack */
} scc_fiber_t;

/* Maps a stack of at least stack_bytes (and a guard page below it).  0, or -1 (errno). */
int scc_fiber_init(scc_fiber_t *f, size_t stack_bytes);
void scc_fiber_fini(scc_fiber_t *f);

/* Makes f run fn(arg) from its start at the next resume (f not running). */
void scc_fiber_start(scc_fiber_t *f, void (*fn)(void *), void *arg);

/* Runs f until it yields or fn returns (then f->done). */
void scc_fiber_resume(scc_fiber_t *f);

/* From inside f: stops here; the next resume goes on from this point. */
void scc_fiber_yield(scc_fiber_t *f);

#if defined(__cplusplus)
}
#endif

#endif /* MCA_COLL_SCC_FIBER_H */
