/* coll_scc_sched_hier.h: hierarchical schedules for processes on several nodes -- pure C.
 *
 * Each node is a tile: its leader (the root on the root's node, else the node's lowest
 * rank) takes part in a schedule between the nodes' leaders (binomial, k-ary tree, Jia,
 * DOPL on the node grid, ring, butterfly, dissemination), and the node's other processes
 * are served by their leader alone, one hop inside the node:
 *   bcast      the leader forwards each block to its node as soon as it has it (a message
 *              of the same blocks right after the step that brought them), so the node's
 *              copy of block k overlaps the transfer of block k+1 between nodes;
 *   reduce     every process sends each block to its leader, which combines them (in rank
 *              order) before the block's first step between leaders;
 *   allreduce  the same reduction into the leaders, the leaders' allreduce (ring or
 *              butterfly), then each block back to the node;
 *   barrier    signals to the leader, the leaders' barrier, a signal back.
 * The steps between leaders keep their generator's order; their tags are doubled and a
 * leader's message to its node takes the odd tag after the step that brought its blocks
 * (broadcasts), or tags after all of the leader's others (allreduce, barrier), so every
 * rank still publishes in increasing tag order.  A process that is not a leader replays its
 * leader's schedule to learn the tags of what it receives.  Messages between nodes go over
 * the network (no slot limit); those inside a node through its shared memory.
 * Reductions say SCC_SCHED_F_COMMUTATIVE: nodes need not hold consecutive ranks. */
#ifndef MCA_COLL_SCC_SCHED_HIER_H
#define MCA_COLL_SCC_SCHED_HIER_H

#include "coll_scc_nodes.h"
#include "coll_scc_sched.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The schedule between the nodes' leaders */
typedef enum {
    SCC_INTER_BINOMIAL = 0, /* bcast, reduce, barrier */
    SCC_INTER_TREE,         /* bcast, reduce: k-ary, fanout/nlevels */
    SCC_INTER_JIA,          /* bcast */
    SCC_INTER_DOPL,         /* bcast, on the node grid, chunks_per_part */
    SCC_INTER_RING,         /* allreduce, allgather */
    SCC_INTER_BUTTERFLY,    /* allreduce */
    SCC_INTER_DISSEM,       /* barrier; allgather (Bruck) */
    SCC_INTER_COUNT
} scc_inter_t;

typedef struct scc_hier {
    const scc_nodes_t *nodes;
    scc_inter_t inter;
    const int *fanout;          /* SCC_INTER_TREE */
    int nlevels;
    uint32_t chunks_per_part;   /* SCC_INTER_DOPL */
} scc_hier_t;

const char *scc_inter_name(scc_inter_t i);

/* Each fills s for `rank` (a communicator rank of h->nodes) and returns 0, or -1 on bad
 * input, an inter schedule that cannot serve the collective, or no memory. */
int scc_sched_hier_bcast(scc_sched_t *s, const scc_hier_t *h, int rank, int root,
                         uint32_t nblocks);
int scc_sched_hier_reduce(scc_sched_t *s, const scc_hier_t *h, int rank, int root,
                          uint32_t nblocks);
int scc_sched_hier_allreduce(scc_sched_t *s, const scc_hier_t *h, int rank, uint32_t nblocks);
int scc_sched_hier_barrier(scc_sched_t *s, const scc_hier_t *h, int rank);
/* Allgather with leader aggregation: each leader gathers its node's parts, the leaders
 * exchange the nodes' parts (a message per run of consecutive ranks of a node) around a ring
 * (h->inter SCC_INTER_RING, N - 1 steps) or by Bruck's dissemination (SCC_INTER_DISSEM,
 * ceil(log2 N) rounds), and each leader forwards every part to its node as it arrives.  With
 * parts of two blocks or more the first exchange, which carries the leader's own node, sends
 * each part as soon as the leader has it, a message per part.  Rank r's blocks are
 * [r k, (r + 1) k), in place in work. */
int scc_sched_hier_allgather(scc_sched_t *s, const scc_hier_t *h, int rank,
                             uint32_t nblocks_per_rank);
/* Gather and scatter with leader aggregation (coll_scc_sched_hier_parts.c): each process's
 * k blocks go to (come from) its leader -- the root on the root's node -- and the leaders
 * move whole subtrees of nodes along a binomial tree rooted at the root's node: parts of one
 * block a message per run of consecutive ranks, larger parts (k >= 2) a message per part,
 * passed on as it arrives.  Rank r's blocks are [r k, (r + 1) k).  Gather: a process sends
 * its part from its input, a leader's own part is in place in its work before the call,
 * the root ends with every part in work.  Scatter: the root sends from its input (its own
 * part is not moved), every other process ends with its part in work.  A leader that is not
 * the root holds its subtree's parts in its work: scc_sched_hier_span. */
int scc_sched_hier_gather(scc_sched_t *s, const scc_nodes_t *nd, int rank, int root,
                          uint32_t nblocks_per_rank);
int scc_sched_hier_scatter(scc_sched_t *s, const scc_nodes_t *nd, int rank, int root,
                           uint32_t nblocks_per_rank);
/* Alltoall with leader aggregation, on pair lists (coll_scc_sched.h): each process sends all
 * its pairs to its leader (the node's lowest rank) in one message; the leaders exchange, in
 * step i (1..N-1) with the leaders of nodes J + i and J - i, every pair from one node to the
 * other in one message; each leader then sends each of its processes every pair for it.  A
 * message between nodes per pair of nodes, against one per pair of processes.  n <= 65535. */
int scc_sched_hier_alltoall(scc_sched_t *s, const scc_nodes_t *nd, int rank);
/* The ranks [*first, *last] whose parts leader `rank` holds in a gather or scatter rooted at
 * root: those of the nodes of its subtree (all nodes at the root). */
void scc_sched_hier_span(const scc_nodes_t *nd, int rank, int root, int *first, int *last);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COLL_SCC_SCHED_HIER_H */
