/* coll_scc_param.h: the rules of the component's numeric MCA parameters (ranges, multiples,
 * tree fan-outs, byte thresholds, the nodes' grid) as pure functions of the value given.
 *
 * No Open MPI include: the unit tests check these alone.  Every process applies the same
 * rule to the same value, so the values in use are the same on every process wherever the
 * values given are (coll_scc_component.c applies them when the component opens). */
#ifndef MCA_COLL_SCC_PARAM_H
#define MCA_COLL_SCC_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Integer parameters with a rule, by index into scc_param_rules. */
typedef enum {
    SCC_PARAM_BARRIER_RADIX = 0,
    SCC_PARAM_DOPL_CHUNKS,
    SCC_PARAM_CMA_BLOCK,
    SCC_PARAM_SHM_SLOT_SIZE,
    SCC_PARAM_SHM_NSLOTS,
    SCC_PARAM_MPB_CORE_SIZE,
    SCC_PARAM_MPB_NSLOTS,
    SCC_PARAM_SPIN,
    SCC_PARAM_PIPE_SIZE,
    SCC_PARAM_PIPE_SIZE_OVER,
    SCC_PARAM_CMA,
    SCC_PARAM_CMA_MIN,
    SCC_PARAM_CMA_REDUCE_MIN,
    SCC_PARAM_CMA_OVER_MIN,
    SCC_PARAM_NODES_BLOCK,
    SCC_PARAM_RSAG_MIN,
    SCC_PARAM_SETUP_CALLS,
    SCC_PARAM_SHM_RESIDENT,
    SCC_PARAM_MPB_STRICT_TEST,
    SCC_PARAM_TASK_STACK,
    SCC_PARAM_MANY_MIN,
    SCC_PARAM_CMA_ADAPT,
    SCC_PARAM_NBC_TRY,
    SCC_PARAM_INPLACE_COPY_MAX,
    SCC_PARAM_PERSISTENT_ORDERED,
    SCC_PARAM_PERSISTENT_COMMS,
    SCC_PARAM_COUNT
} scc_param_id_t;

typedef struct scc_param_rule {
    const char *name;       /* the parameter's full name */
    long lo, hi;            /* the range: values outside become the nearer end */
    long keep;              /* a value below lo with a meaning of its own (0: off), else lo */
    long multiple;          /* rounded down to a multiple of this (lo and hi are multiples) */
    const char *why;        /* why the multiple (NULL: none) */
    bool keep_off;          /* 0 (off) has a meaning too, below lo: a negative value then
                               becomes keep, a positive one lo */
} scc_param_rule_t;

extern const scc_param_rule_t scc_param_rules[SCC_PARAM_COUNT];

/* The value rule r makes of v: v itself when r accepts it, else the nearest value it
 * accepts, and then what was wrong in why (len bytes; "" when v is kept). */
long scc_param_fix(const scc_param_rule_t *r, long v, char *why, size_t len);

/* The byte thresholds of the selection table are size_t: Open MPI reads -1 as 2^64 - 1.
 * No message reaches a quarter of the address space (2^62 bytes on 64 bits): a value above
 * it, which is what a negative one becomes, is refused. */
#define SCC_PARAM_BYTES_MAX (SIZE_MAX / 4 + 1)

/* The byte threshold a size_t parameter given v uses: v up to SCC_PARAM_BYTES_MAX, else
 * dflt, and then what was wrong in why (len bytes; "" when v is kept). */
size_t scc_param_bytes(size_t v, size_t dflt, char *why, size_t len);

/* The grid of coll_scc_nodes, "COLUMNSxROWS" (decimal, each 1 or more, at most maxtiles
 * tiles in all): returns 1 and sets *C and *R; else 0 and *C = *R = 0, the near-square grid,
 * which is what "auto" and "" ask for -- anything else is named in why (len bytes). */
int scc_param_grid(const char *spec, long maxtiles, int *C, int *R, char *why, size_t len);

/* SCC message-passing buffers: the largest multiple of 4 slots, at most nslots, that fit
 * core_size bytes with ctrl_base bytes of control before them, ctrl_per_slot per slot and
 * at least min_slot bytes of payload each (at least 4, given that 4 fit). */
int scc_param_mpb_nslots(long core_size, int nslots, size_t ctrl_base, size_t ctrl_per_slot,
                         size_t min_slot);

/* Tree fan-outs "K1,K2,...": fills fanout (up to maxlevels levels, each 1..maxfan) and
 * returns the number of levels; 0 for "auto", "" and a spec that is no list of positive
 * integers (the automatic shapes then).  A fan-out above maxfan becomes maxfan, levels
 * beyond maxlevels are dropped; why (len bytes) says what changed ("" when nothing). */
int scc_param_fanout(const char *spec, int *fanout, int maxlevels, int maxfan, char *why,
                     size_t len);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COLL_SCC_PARAM_H */
