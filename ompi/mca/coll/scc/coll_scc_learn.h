/* coll_scc_learn.h: which way a large part moves -- single copy (process_vm_readv from the
 * sender's buffer) or pieces through the slots -- learnt from the calls' own times.  Pure C
 * (no Open MPI include).
 *
 * Which is faster depends on the machine and, on a virtual one, on where its cores sit at the
 * moment: on the development guest the same pair of cores copies through shared memory at
 * 33 GB/s for minutes and 50-85 for others, while process_vm_readv stays near 20-30.  A fixed
 * size rule (coll_scc_cma_min) is right in one phase only, so a sender times its calls by the
 * way it took and takes the faster one, trying the other now and then.  Every rank takes
 * the same way in a call (one rank taking single copy while another takes the slots was
 * slower than either): rank 0 times the calls and publishes the faster way in a line of its
 * own, every rank reads it.  Readers follow each part's header all the same: were ranks to
 * disagree, a call would be slower, never wrong.
 */
#ifndef MCA_COLL_SCC_LEARN_H
#define MCA_COLL_SCC_LEARN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define SCC_LEARN_MIN 131072        /* parts from here on are learnt (below: the slots) */
#define SCC_LEARN_BUCKETS 8         /* by size: [128 KB, 256 KB), ... [16 MB, ...) */
#define SCC_LEARN_EXPLORE 64        /* every 64th call of a size tries the way not taken */
#define SCC_LEARN_KEEP 5            /* a way's cost: the median of its last 5 timed calls */
#define SCC_LEARN_MARGIN 1.1f       /* the other way must be 10 % faster to take over */

enum { SCC_WAY_SLOTS = 0, SCC_WAY_SINGLE = 1, SCC_WAYS };

typedef struct scc_learn {
    uint32_t calls[SCC_LEARN_BUCKETS];                          /* every rank */
    /* the rank that times (rank 0): its calls' ns per byte by way, how many */
    float last[SCC_LEARN_BUCKETS][SCC_WAYS][SCC_LEARN_KEEP];
    uint32_t samples[SCC_LEARN_BUCKETS][SCC_WAYS];
    uint64_t taken[SCC_WAYS];                                   /* calls per way (report) */
} scc_learn_t;

/* The size class of a call whose largest part has bytes (>= SCC_LEARN_MIN). */
int scc_learn_bucket(size_t bytes);

/* A class's word, which the timing rank publishes and every rank reads before each call of
 * the class: the faster way for the calls counted from `from` on, and for those before.  A
 * change takes effect two calls after the call that found it, a call no rank can have begun
 * before the word changed (each needs the timing rank's part of the call between: that
 * part is published after the word).  0: the slots for every call. */
uint64_t scc_learn_word(int before, int after, uint32_t from);

/* The faster way a word gives for the call counted c. */
int scc_learn_word_way(uint64_t word, uint32_t c);

/* The way of this call of class b (the next of l->calls[b]), its word read: each way for
 * SCC_LEARN_KEEP + 1 calls at first, then the faster but two calls in every
 * SCC_LEARN_EXPLORE; *timed: whether its time says something of its way (not a way's first
 * call after the other: what the other left in the caches slows it).  The same on every rank:
 * each counts the calls of each class alike (every one sees every call's part sizes). */
int scc_learn_way(scc_learn_t *l, int b, uint64_t word, bool *timed);

/* The timing rank, after a timed call of class b (the last counted) that moved bytes by way
 * in ns nanoseconds, word what it read for it: the word to publish (word itself when
 * nothing changes). */
uint64_t scc_learn_note(scc_learn_t *l, int b, int way, size_t bytes, uint64_t ns,
                        uint64_t word);

#if defined(__cplusplus)
}
#endif

#endif /* MCA_COLL_SCC_LEARN_H */
