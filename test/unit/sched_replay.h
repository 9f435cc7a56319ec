/* sched_replay.h: replays all ranks' schedules of a collective together on a simulated transport */
#ifndef SCC_SCHED_REPLAY_H
#define SCC_SCHED_REPLAY_H

#include <stdint.h>

#include "coll_scc_sched.h"

/* What the schedule is meant to achieve; it decides the contents tracked and the final check. */
typedef enum {
    REPLAY_BCAST,      /* the root's blocks reach every rank */
    REPLAY_REDUCE,     /* every contribution reaches the root's blocks exactly once */
    REPLAY_ALLREDUCE,  /* ... and every rank ends with the root's (identical) result;
                          root < 0: no root, every rank ends with rank 0's result */
    REPLAY_BARRIER,    /* zero-block signals: who knows whom has entered */
    REPLAY_ALLTOALL,   /* pair blocks (src*n+dst): rank r ends holding (*, r) */
    REPLAY_REDUCE_SCATTER, /* k = nblocks / n blocks per rank: rank r's input holds all
                          nblocks, its work ends with blocks [r k, (r+1) k) reduced */
    REPLAY_ALLGATHER,  /* k = nblocks / n: rank r starts with blocks [r k, (r+1) k) in
                          work and ends with all of them */
    REPLAY_GATHER,     /* k = nblocks / n: rank r's blocks [r k, (r+1) k) are in its input
                          and in its work; the root ends with all of them in work */
    REPLAY_SCATTER     /* k = nblocks / n: the root's input holds all blocks; every other
                          rank r ends with [r k, (r+1) k) in work */
} replay_kind_t;

/* Generates rank's schedule; ctx carries the algorithm's other arguments. */
typedef int (*replay_gen_t)(scc_sched_t *s, int rank, const void *ctx);

typedef struct replay_opts {
    replay_kind_t kind;
    int n;
    int root;           /* bcast, reduce, allreduce (barrier: unused) */
    uint32_t nblocks;   /* bcast, reduce, allreduce */
    int one_port;       /* check <= 1 send and <= 1 receive per rank and round */
    int tight_rounds;   /* check that the last round used is nrounds - 1 */
    int keep_flows;     /* record every transfer (for link loads and test vectors) */
    int in_place;       /* reductions: input and work are one buffer (MPI_IN_PLACE) */
    const int *node_of; /* n: the node of each rank, or NULL (one node).  A message with no
                           reader on its sender's node goes over the network: it takes no
                           slot (point-to-point messages queue without limit) */
} replay_opts_t;

/* One message as one reader consumed it. */
typedef struct replay_flow {
    uint32_t round;
    int src, dst;
    uint32_t block, nblocks;   /* for list messages: offset and length in the sender's list */
} replay_flow_t;

typedef struct replay_result {
    int ok;                  /* every check passed */
    char why[600];           /* the first failure */
    uint32_t nrounds;        /* common to all ranks */
    uint32_t flags;          /* common to all ranks */
    long nsteps, nmsgs, ntransfers;
    long redundant;          /* bcast/alltoall: blocks received that the rank already held */
    long root_recvs;         /* receive steps at the root */
    int barrier_complete;    /* barrier: every rank, when done, knew that every rank had entered */
    int result_depth;        /* reductions: deepest expression tree of a result block */
    replay_flow_t *flows;
    long nflows;
} replay_result_t;

/* Generates every rank's schedule, checks the message rules, replays them with
 * SCC_SCHED_TAG_WINDOW slots per sender and checks the outcome.  Returns res->ok. */
int replay_run(const replay_opts_t *o, replay_gen_t gen, const void *ctx, replay_result_t *res);
void replay_free(replay_result_t *res);

/* Largest number of transfers of the given round that cross one directed link
 * of an X x Y tile mesh under X-Y routing (x first, then y); tx/ty give each
 * rank's tile.  Transfers inside a tile cross no link. */
int replay_xy_maxload(const replay_result_t *res, const int *tx, const int *ty, int X, int Y,
                      uint32_t round);

/* Prints every rank's steps (debugging aid). */
void replay_dump(int n, replay_gen_t gen, const void *ctx);

#endif /* SCC_SCHED_REPLAY_H */
