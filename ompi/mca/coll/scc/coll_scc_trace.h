/* coll_scc_trace.h: the per-phase trace of collective calls -- where a call's time goes
 * (single-copy reads, flag waits, combines, copies, page faults).  Compiled in with
 * `configure --enable-trace` (SCC_TRACE), switched on per process with coll_scc_trace; in an
 * ordinary build every macro below is empty and nothing is measured. */
#ifndef MCA_COLL_SCC_TRACE_H
#define MCA_COLL_SCC_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a traced interval was spent on. */
typedef enum {
    SCC_PH_READ = 0,    /* process_vm_readv of a peer's memory */
    SCC_PH_WAIT,        /* polling a flag: a message, readers, a barrier line */
    SCC_PH_COMBINE,     /* the reduction operation */
    SCC_PH_COPY,        /* memcpy of data: into or out of slots, between buffers */
    SCC_PH_COUNT
} scc_phase_t;

/* The running call's sums. */
typedef struct scc_trace_call {
    uint64_t ns[SCC_PH_COUNT];
    uint64_t bytes[SCC_PH_COUNT];
    uint64_t ops[SCC_PH_COUNT];
} scc_trace_call_t;

#if defined(SCC_TRACE) && SCC_TRACE

#include <time.h>

/* The call being traced on this thread, NULL when none is. */
extern __thread scc_trace_call_t *mca_coll_scc_trace_cur;

static inline uint64_t scc_trace_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

static inline void scc_trace_add(uint64_t t0, scc_phase_t ph, size_t bytes)
{
    scc_trace_call_t *c = mca_coll_scc_trace_cur;
    c->ns[ph] += scc_trace_now() - t0;
    c->bytes[ph] += bytes;
    c->ops[ph]++;
}

#define SCC_TRACE_T0(t) uint64_t t = NULL != mca_coll_scc_trace_cur ? scc_trace_now() : 0
#define SCC_TRACE_ADD(t, ph, bytes)                                              \
    do {                                                                         \
        if (NULL != mca_coll_scc_trace_cur) {                                    \
            scc_trace_add((t), (ph), (bytes));                                   \
        }                                                                        \
    } while (0)

#else

#define SCC_TRACE_T0(t)
#define SCC_TRACE_ADD(t, ph, bytes) do { } while (0)

#endif

/* Runs stmt as one interval of phase ph over bytes. */
#define SCC_TRACED(ph, bytes, stmt)                                              \
    do {                                                                         \
        SCC_TRACE_T0(scc_t0_);                                                   \
        stmt;                                                                    \
        SCC_TRACE_ADD(scc_t0_, (ph), (bytes));                                   \
    } while (0)

/* coll_scc_trace.c: the parameter and whether it is on; the module's wrapped entry points and
 * its summary (coll_scc_trace_entry.c) are declared in coll_scc.h (they are the module's). */
int mca_coll_scc_trace_register_params(void);
/* True when calls on new communicators are traced (a trace build with coll_scc_trace set). */
bool mca_coll_scc_trace_enabled(void);

#endif /* MCA_COLL_SCC_TRACE_H */
