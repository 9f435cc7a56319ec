/* coll_scc_learn.h: which way a large part moves -- single copy (process_vm_readv from the
 * sender's buffer) or pieces through the slots -- learnt from the calls' own times.  Pure C
 * (no Open MPI include).
 *
 * Which is faster depends on the machine and, on a virtual one, on where its cores sit at the
 * moment: on the development guest the same pair of cores copies through shared memory at
 * 33 GB/s for minutes and 50-85 for others, while process_vm_readv stays near 20-30.  A fixed
 * size rule (coll_scc_cma_min) is right in one phase only, so a sender times its calls by the
 * way it took and takes the faster one, trying the other every SCC_LEARN_EXPLORE calls.
 * Every rank takes the same way in a call (one rank taking single copy while another takes
 * the slots was slower than either): rank 0 times the calls and tells the faster way in a
 * line of its own; the others read it.  Readers follow each part's header all the same, so a
 * call in which ranks disagree (a change read late) is slower, never wrong.
 */
#ifndef MCA_COLL_SCC_LEARN_H
#define MCA_COLL_SCC_LEARN_H

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define SCC_LEARN_MIN 131072        /* parts from here on are learnt (below: the slots) */
#define SCC_LEARN_BUCKETS 8         /* by size: [128 KB, 256 KB), ... [16 MB, ...) */
#define SCC_LEARN_EXPLORE 64        /* every 64th call of a size tries the way not taken */
#define SCC_LEARN_KEEP 5            /* a way's cost: the median of its last 5 calls */
#define SCC_LEARN_MARGIN 1.1f       /* the other way must be 10 % faster to take over */

enum { SCC_WAY_SLOTS = 0, SCC_WAY_SINGLE = 1, SCC_WAYS };

typedef struct scc_learn {
    uint32_t calls[SCC_LEARN_BUCKETS];                          /* every rank */
    /* the rank that times (rank 0): its calls' ns per byte by way, how many */
    float last[SCC_LEARN_BUCKETS][SCC_WAYS][SCC_LEARN_KEEP];
    uint32_t samples[SCC_LEARN_BUCKETS][SCC_WAYS];
    uint64_t best;                                              /* bit b: single copy */
    uint64_t taken[SCC_WAYS];                                   /* calls per way (report) */
} scc_learn_t;

/* The size class of a call whose largest part has bytes (>= SCC_LEARN_MIN). */
int scc_learn_bucket(size_t bytes);

/* The way of this call of class b, where the faster one is best as the timing rank said
 * (bit b of its scc_learn_t.best; the slots until single copy is SCC_LEARN_MARGIN faster):
 * each way for SCC_LEARN_KEEP + 1 calls at first, then the faster but every
 * SCC_LEARN_EXPLORE-th call.  The same
 * on every rank: each counts the calls of each class alike (every one sees every call's part
 * sizes). */
int scc_learn_way(scc_learn_t *l, int b, uint64_t best);

/* The timing rank: the call of class b that moved bytes by way took ns nanoseconds.  Returns
 * the best ways now (l->best). */
uint64_t scc_learn_note(scc_learn_t *l, int b, int way, size_t bytes, uint64_t ns);

#if defined(__cplusplus)
}
#endif

#endif /* MCA_COLL_SCC_LEARN_H */
