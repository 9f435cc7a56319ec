/* coll_scc_sched.h: pure schedules -- who sends which blocks to whom, in which order.
 *
 * No Open MPI include may appear here or in coll_scc_sched_*.c: the component,
 * the unit tests and the mesh simulator all run this same code.
 *
 * A schedule is, for one rank of one collective call, a list of steps in the
 * order that rank must execute them.  Data is cut into blocks (the executor
 * maps a block to bytes: block b of a vector covers [b*bs, min((b+1)*bs, total))).
 *
 * Message model ("local put, remote get", as on the SCC's message-passing
 * buffers): a SEND publishes a message under a tag for nreaders readers; each
 * reader names it by (peer, tag).  Rules every generator keeps, which the
 * transports rely on:
 *   - a rank publishes its messages in increasing tag order;
 *   - a reader consumes the messages of one sender in increasing tag order;
 *   - no two messages of one sender in one call share a tag;
 *   - the schedule completes when each sender may have at most
 *     SCC_SCHED_TAG_WINDOW messages published and not yet consumed by all
 *     their readers (a transport holds that many per sender in slots: tags
 *     need not be consecutive, so publishing tag t waits until the message
 *     last published in slot t % SCC_SCHED_TAG_WINDOW is consumed).  The unit
 *     tests replay every schedule under exactly that constraint;
 *   - a rank never overwrites a block while a message of its own that carries
 *     it is unread, so a transport may read a message from the sender's buffer;
 *     except in a schedule that says SCC_SCHED_F_SEND_COPY (a butterfly's swap
 *     sends its partial and then combines into it): the executor must then have
 *     the transport copy each message when it is published.
 * Steps carry the round they belong to; rounds are what the papers count.
 * A message and its readers carry the same round.
 *
 * Buffers.  Broadcasts: the root's blocks are in place (its SENDs need no
 * flag); other ranks RECV into the work buffer and send from it.  Reductions:
 * a leaf SENDs from the input (SCC_STEP_F_INPUT); an inner rank's first
 * RECV_REDUCE of a block computes work = msg op input (SCC_STEP_F_INPUT), the
 * next ones work = msg op work, and it SENDs from work; the root's result is in
 * work.  A rank with no steps in a reduction (the root when n == 1) must copy
 * input to output itself.  Allreduces without a root (butterfly, ring) leave the
 * same result in every rank's work.  Allgather: each rank's own blocks are in
 * place in work before the call, the others arrive there.  Reduce-scatter: the
 * input holds every rank's blocks, a rank's own reduced blocks end in work at
 * their place (the executor copies them out).  Zero-block messages
 * (nblocks == 0) are signals.
 * Alltoall lists pair ids src*n + dst: pair (a, b) lives in the input (block b)
 * when a == rank, in the output (block a) when b == rank, and in scratch space
 * otherwise; no step moves a rank's own pair (rank, rank): the executor copies it.
 *
 * Generators allocate temporaries (O(n) or O(grid)); call them when a
 * communicator is set up and keep their output.
 */
#ifndef MCA_COLL_SCC_SCHED_H
#define MCA_COLL_SCC_SCHED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A transport must keep at least this many messages per sender in flight. */
#define SCC_SCHED_TAG_WINDOW 4

typedef enum {
    SCC_STEP_SEND = 1,     /* publish blocks as message tag, for nreaders readers      */
    SCC_STEP_RECV,         /* wait for message (peer, tag), copy into the blocks       */
    SCC_STEP_RECV_REDUCE   /* wait for message (peer, tag), blocks = msg op blocks     */
} scc_step_kind_t;

/* Step flags */
#define SCC_STEP_F_INPUT 0x01 /* the local operand is the caller's input buffer:
                                 SEND sends from it; RECV_REDUCE computes
                                 work = msg op input (first touch of those blocks) */
#define SCC_STEP_F_LIST  0x02 /* block/nblocks index the schedule's block list,
                                 not a range of consecutive blocks               */
#define SCC_STEP_F_LOCAL 0x04 /* hierarchical schedules: a SEND from a node's leader to
                                 the other processes of its node                 */

typedef struct scc_step {
    uint8_t  kind;      /* scc_step_kind_t */
    uint8_t  flags;     /* SCC_STEP_F_* */
    uint16_t nreaders;  /* SEND: readers that will consume this message */
    int32_t  peer;      /* RECV*: the sender (communicator rank) */
    uint32_t tag;       /* message id at the sender, unique within the call */
    uint32_t round;     /* round of the algorithm this step belongs to */
    uint32_t block;     /* first block (or offset into the block list) */
    uint32_t nblocks;   /* number of blocks (or list entries) */
} scc_step_t;

/* An output buffer for a generator.  Generators append with scc_sched_push();
 * when steps is full they keep counting, so the caller can size the array from
 * nsteps and run the generator again.  Same for the block list. */
typedef struct scc_sched {
    scc_step_t *steps;
    long        cap;       /* capacity of steps */
    long        nsteps;    /* steps the schedule has (may exceed cap) */
    uint32_t   *list;      /* block lists for SCC_STEP_F_LIST steps (may be NULL) */
    long        list_cap;
    long        list_len;
    uint32_t    nrounds;   /* rounds of the whole algorithm (same on every rank) */
    uint32_t    flags;     /* SCC_SCHED_F_* */
} scc_sched_t;

#define SCC_SCHED_F_COMMUTATIVE 0x1 /* reduction order is not rank order: needs a commutative op */
#define SCC_SCHED_F_SEND_COPY   0x2 /* a rank may change a block right after publishing it: the
                                       transport must copy each message when it is published
                                       (slots: stable = false; pt2pt: a bounce buffer), never
                                       read it later from the rank's buffer */

static inline void scc_sched_reset(scc_sched_t *s)
{
    s->nsteps = 0;
    s->list_len = 0;
    s->nrounds = 0;
    s->flags = 0;
}

/* Returns nonzero when everything generated fitted. */
static inline int scc_sched_fits(const scc_sched_t *s)
{
    return s->nsteps <= s->cap && s->list_len <= s->list_cap;
}

static inline void scc_sched_push(scc_sched_t *s, scc_step_kind_t kind, int flags,
                                  int peer, uint32_t tag, uint32_t round,
                                  uint32_t block, uint32_t nblocks, int nreaders)
{
    if (s->nsteps < s->cap) {
        scc_step_t *st = &s->steps[s->nsteps];
        st->kind = (uint8_t) kind;
        st->flags = (uint8_t) flags;
        st->nreaders = (uint16_t) nreaders;
        st->peer = peer;
        st->tag = tag;
        st->round = round;
        st->block = block;
        st->nblocks = nblocks;
    }
    s->nsteps++;
}

/* Appends one entry to the block list; returns its index. */
static inline uint32_t scc_sched_list_push(scc_sched_t *s, uint32_t v)
{
    if (s->list_len < s->list_cap) {
        s->list[s->list_len] = v;
    }
    return (uint32_t) s->list_len++;
}

/* ---------------------------------------------------------------- */
/* Geometry inputs                                                   */

/* A 2D grid of processes for DOPL: R rows x C columns, row-major.  at[r*C+c]
 * is the communicator rank at (r, c) or -1 for a hole; row[]/col[] give each
 * rank's cell.  A partial last row is a grid whose tail cells are -1. */
typedef struct scc_grid {
    int R, C;
    int n;              /* ranks placed */
    const int *at;      /* R*C */
    const int *row;     /* n */
    const int *col;     /* n */
} scc_grid_t;

/* A mesh of tiles for NoC_Msg: X columns x Y rows of tiles, K cores per tile.
 * tile_of[rank] = y*X + x, core_of[rank] = z; at[(y*X+x)*K + z] = rank or -1. */
typedef struct scc_tiles {
    int X, Y, K;
    int n;
    const int *at;       /* X*Y*K */
    const int *tile_of;  /* n */
    const int *core_of;  /* n */
} scc_tiles_t;

/* ---------------------------------------------------------------- */
/* Generators.  Each fills s for rank `rank` and returns 0, or -1 on bad input
 * (or when out of memory).  nblocks counts the blocks of the message (0 is
 * allowed: nothing moves).  n == 1 gives no steps. */

/* Jia's multiple-message broadcast on n ranks (any n >= 1, any root):
 * nblocks + ceil(log2 n) - 1 rounds, <= 1 send and <= 1 receive per rank per
 * round, no traffic into the root, tag = round.  Every non-root receives every
 * block exactly once; a round only sends blocks held before it, and each
 * rank's send of a round precedes its receive. */
int scc_sched_jia_bcast(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks);

/* DOPL (dimension-ordered pipelined broadcast) on a grid.  The message is cut
 * into parts of chunks_per_part blocks (a block is one pipeline chunk, one
 * message); the tail -> head hand-back of a line is one message of the whole
 * part.  P = ceil(nblocks/chunks_per_part) parts take P + 1 rounds when both
 * dimensions are longer than 1; dimensions of length 1 are dropped (one line,
 * P rounds).  Holes anywhere work: cells that cannot join the lines through the
 * root's row and column hang off a neighbour and get each part in the round it
 * does; a full grid has none, nor has a partial last row (of 2+ cells, 3+ rows)
 * unless the root sits in it or above one of its holes.  Tags are not consecutive. */
int scc_sched_dopl_bcast(scc_sched_t *s, const scc_grid_t *g, int rank, int root,
                         uint32_t nblocks, uint32_t chunks_per_part);

/* NoC_Msg on a tile mesh: a tree over tile leaders (in each tile the core with
 * the root's z, else its lowest core), one intra-tile hop, chunked and
 * pipelined (one block = one chunk, tag = block).  The tile tree is the
 * thesis's row-first dimension-ordered tree wherever it fits the present tiles,
 * else another shortest-path tree of 1-hop links (row-first parent preferred,
 * then column-first); tiles with no present path to the root (holes) hang off
 * the nearest tile.  A rank at depth d of a tree of depth D handles block b in
 * round b + d (bcast) or b + D - d (reduce): nblocks + D - 1 rounds.  Parents
 * combine children in a fixed order (tile-mates by z, then the tiles above,
 * below, left, right), so results repeat bit for bit; s->flags says
 * SCC_SCHED_F_COMMUTATIVE unless that order is rank order. */
int scc_sched_nocmsg_bcast(scc_sched_t *s, const scc_tiles_t *m, int rank, int root,
                           uint32_t nblocks);
int scc_sched_nocmsg_reduce(scc_sched_t *s, const scc_tiles_t *m, int rank, int root,
                            uint32_t nblocks);
/* reduce to root then broadcast from it: tags nblocks + b and rounds after those of
 * the reduction (2 (nblocks + D - 1) rounds); every rank ends with the same bits */
int scc_sched_nocmsg_allreduce(scc_sched_t *s, const scc_tiles_t *m, int rank, int root,
                               uint32_t nblocks);
/* barrier: zero-block fan-in to root (tag 0) then fan-out (tag 1), 2D rounds;
 * fanin_only gives the thesis's variant, which is NOT a barrier (D rounds) */
int scc_sched_nocmsg_barrier(scc_sched_t *s, const scc_tiles_t *m, int rank, int root,
                             int fanin_only);
/* alltoall: column stage then row stage.  Block ids are pairs src*n + dst; steps
 * use SCC_STEP_F_LIST.  A rank starts with blocks (rank, *) and ends with (*, rank).
 * Pair (s, d) goes up or down s's column to d's row, to the core of s's lane
 * there (else that tile's lowest core), then along the row to d; pairs in one
 * column or one row go straight, and so does a pair whose stop tile is empty.
 * Round |dy| of the column stage (0 inside a tile), Y - 1 + |dx| of the row
 * stage: X + Y - 1 rounds, some possibly empty.  n <= 65535. */
int scc_sched_nocmsg_alltoall(scc_sched_t *s, const scc_tiles_t *m, int rank);

/* Trees on a flat set (seeds/004): a k-ary tree with per-level fan-outs
 * fanout[0] >= fanout[1] >= ... (levels beyond nlevels use the last fan-out;
 * any fan-outs >= 1 work), numbered breadth-first, root relabelled to vrank 0
 * (vrank = (rank - root + n) % n).  Bcast is pipelined by block (tag = block);
 * reduce sends one message per block to the parent, which combines its children
 * in increasing vrank order.  nblocks + depth - 1 rounds. */
int scc_sched_tree_bcast(scc_sched_t *s, int n, int rank, int root, const int *fanout,
                         int nlevels, uint32_t nblocks);
int scc_sched_tree_reduce(scc_sched_t *s, int n, int rank, int root, const int *fanout,
                          int nlevels, uint32_t nblocks);

/* Binomial trees (vrank v = (rank - root + n) % n; v's parent clears its highest bit, its
 * children are v + 2^j for 2^j > v), depth = the set bits of v: for processes far apart,
 * where every message costs a latency.  Pipelined by block as the k-ary trees above (a
 * rank sends each block to all its children as one message; tag = block); the reduction
 * combines children nearest first and says SCC_SCHED_F_COMMUTATIVE unless that is rank
 * order.  The barrier: zero-block fan-in to vrank 0 (tag 0), then fan-out (tag 1). */
int scc_sched_binomial_bcast(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks);
int scc_sched_binomial_reduce(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks);
int scc_sched_binomial_barrier(scc_sched_t *s, int n, int rank);

/* Dissemination barrier: in round k (tag k) each rank signals rank + 2^k and waits for
 * rank - 2^k (mod n): ceil(log2 n) rounds of zero-block messages with one reader. */
int scc_sched_dissem_barrier(scc_sched_t *s, int n, int rank);

/* Allreduce on a flat set by recursive doubling (seeds/002's HypercubeReduce), any
 * n: with P = 2^q <= n < 2P, ranks P..n-1 fold their input into rank - P, the P
 * ranks swap partials across dimensions 0, 1, ..., q-1 (send mine, combine the
 * partner's into it), then hand the result back to rank + P.  One block per
 * message, blocks in order within each phase, tag = round: q nblocks rounds when
 * n == P, (q + 2) nblocks otherwise; one send and one receive per rank per
 * round.  Partners combine the same two partials in opposite operand order, so
 * s->flags says SCC_SCHED_F_COMMUTATIVE (every rank then ends with the same bits:
 * a op b == b op a for a commutative op, and every rank's result is the same
 * tree of depth q + (n != P) up to operand order) and SCC_SCHED_F_SEND_COPY
 * (with copied messages, input may be work: in place). */
int scc_sched_butterfly_allreduce(scc_sched_t *s, int n, int rank, uint32_t nblocks);

/* Pipelined rings (the ring goes rank -> rank + 1 mod n).  The blocks are cut
 * into n segments of consecutive blocks (segment g: g * base + min(g, extra),
 * base + (g < extra) blocks, base = total / n, extra = total % n); a ring step
 * moves one segment per rank, one block per message, in K = ceil(total / n)
 * rounds (block j of the segment in round step * K + j; tag = round), one send
 * and one receive per rank per round.
 *
 * Reduce-scatter: in step i rank r sends segment r-i-1 (from its input in step
 * 0) and combines segment r-i-2 from r-1 into work (F_INPUT: each arrives once),
 * so segment g is combined in the order g+1, g+2, ..., g and ends reduced at
 * rank g: (n-1) K rounds, SCC_SCHED_F_COMMUTATIVE.
 * Allgather: rank r starts with segment r in work; in step i it sends segment
 * r-i and receives segment r-i-1 from r-1: (n-1) K rounds.
 *
 * scc_sched_ring_allreduce: reduce-scatter then allgather of nblocks blocks,
 * 2 (n-1) K rounds, tags of the allgather after those of the reduce-scatter;
 * each segment is reduced once and copied, so every rank ends with the same
 * bits.  SCC_SCHED_F_COMMUTATIVE (n >= 2).  Never sends a block it later
 * changes before that message is read, so input may be work (in place).
 * scc_sched_ring_reduce_scatter / _allgather: rank r's blocks are
 * [r k, (r+1) k), k = nblocks_per_rank (segment r); the reduce-scatter's input
 * may be its work too.  An executor must map block r k + j to the bytes of
 * piece j of rank r's part when a part is not k whole blocks. */
int scc_sched_ring_allreduce(scc_sched_t *s, int n, int rank, uint32_t nblocks);
int scc_sched_ring_reduce_scatter(scc_sched_t *s, int n, int rank, uint32_t nblocks_per_rank);
int scc_sched_ring_allgather(scc_sched_t *s, int n, int rank, uint32_t nblocks_per_rank);

/* Alltoall by pairwise exchange: in step i (1..n-1) rank r sends its part for r + i and
 * receives the part of r - i (mod n), block by block (k blocks per part: rank d's part is
 * blocks [d k, (d+1) k) of the input, rank s's arrives at [s k, (s+1) k) of work; tag =
 * round = (i - 1) k + j).  Each message has one reader; every pair is one message per
 * block, so it runs over any transport, across nodes too.  A rank's own part is not moved.
 * The component runs this exchange without a plan (coll_scc_run.c, scc_pairwise: pieces by
 * each pair's own size, so alltoallv too, and the pieces for other nodes sent first); this
 * schedule is its model, replayed in the unit tests under the slots' window. */
int scc_sched_pairwise_alltoall(scc_sched_t *s, int n, int rank, uint32_t k);

/* Tree shape helpers shared by the executor's fast paths and the schedules, in
 * vranks.  scc_tree_parent: the parent, -1 for vrank 0, -2 on bad input.
 * scc_tree_children: the number of children (consecutive vranks, stored up to
 * cap), -1 on bad input. */
int scc_tree_parent(int vrank, int n, const int *fanout, int nlevels);
/* The fan-outs the component uses when none is given, by size (seeds/004's
 * shapes): all in one level up to 8 processes, then 4,3 (16), 5,5 (30), 4,4,3.
 * Writes at most 3 levels; returns their number. */
int scc_tree_fanout_auto(int n, int *fanout);
/* The root of rootless collectives on tiles (allreduce, barrier): the lowest rank
 * of the present tile nearest the middle of the mesh, which shortens the tree. */
int scc_tiles_center(const scc_tiles_t *m);
int scc_tree_children(int vrank, int n, const int *fanout, int nlevels, int *children, int cap);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COLL_SCC_SCHED_H */
