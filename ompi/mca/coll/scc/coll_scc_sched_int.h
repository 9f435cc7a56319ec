/* coll_scc_sched_int.h: helpers shared by the schedule generators (pure C, not for executors). */
#ifndef MCA_COLL_SCC_SCHED_INT_H
#define MCA_COLL_SCC_SCHED_INT_H

#include "coll_scc_sched.h"

/* One rank's place in a spanning tree, as the generic tree emitters need it. */
typedef struct scc_tree_node {
    int parent;            /* communicator rank of the parent, -1 at the root */
    int depth;             /* edges from the root to this rank */
    int tree_depth;        /* largest depth of any rank in the tree */
    int nchildren;
    const int *children;   /* communicator ranks, in the order this rank combines them */
} scc_tree_node_t;

/* Pipelined broadcast down the tree: block b travels as message tag0 + b; a rank
 * at depth d receives it in round round0 + b + d - 1 and sends it to all its
 * children as one message in round round0 + b + d.  The root's data is in place. */
void scc_sched_tree_emit_bcast(scc_sched_t *s, const scc_tree_node_t *t, uint32_t nblocks,
                               uint32_t tag0, uint32_t round0);

/* Pipelined reduction up the tree, the time mirror of the broadcast: a rank at
 * depth d sends block b (tag tag0 + b) in round round0 + b + (D - d), after
 * combining its children's messages in the order of t->children. */
void scc_sched_tree_emit_reduce(scc_sched_t *s, const scc_tree_node_t *t, uint32_t nblocks,
                                uint32_t tag0, uint32_t round0);

/* Zero-block signals: fan-in to the root (rounds round0 .. round0 + D - 1) and
 * fan-out from it (rounds round0 .. round0 + D - 1). */
void scc_sched_tree_emit_fanin(scc_sched_t *s, const scc_tree_node_t *t, uint32_t tag,
                               uint32_t round0);
void scc_sched_tree_emit_fanout(scc_sched_t *s, const scc_tree_node_t *t, uint32_t tag,
                                uint32_t round0);

/* Children of a whole tree, for checks that walk it. */
typedef struct scc_tree_walk {
    int (*nchildren)(const void *ctx, int rank);
    int (*child)(const void *ctx, int rank, int i);
    const void *ctx;
} scc_tree_walk_t;

/* Nonzero when the reduction emitted by scc_sched_tree_emit_reduce over this tree
 * combines the n contributions in rank order (0 op 1 op ... op n-1), so that a
 * non-commutative operation is safe. */
int scc_sched_tree_rank_ordered(const scc_tree_walk_t *w, int n, int root);

/* Nonzero when m is a well-formed tile mesh (every rank placed once, in range). */
int scc_tiles_ok(const scc_tiles_t *m);

/* Generates into freshly allocated storage: counts (f on an empty schedule), allocates,
 * fills (f again).  0, or -1 when f fails or memory is short (t is then empty). */
typedef int (*scc_gen_fn_t)(scc_sched_t *s, const void *ctx);
int scc_sched_gen_alloc(scc_sched_t *t, scc_gen_fn_t f, const void *ctx);
void scc_sched_release(scc_sched_t *t);

#endif /* MCA_COLL_SCC_SCHED_INT_H */
