/* coll_scc_sched_hier_parts.c: hierarchical schedules that move one part per rank --
 * allgather, gather, scatter: each node's leader gathers or spreads its node's parts, the
 * leaders move them between nodes, a message per run of consecutive ranks (pure C). */
#include <stdlib.h>
#include <string.h>

#include "coll_scc_sched_hier.h"
#include "coll_scc_sched_int.h"

/* Runs of consecutive ranks on node `node`: [lo[i], hi[i]]; returns their number. */
static int node_runs(const scc_nodes_t *nd, int node, int *lo, int *hi)
{
    int nr = 0;
    for (int i = nd->first[node]; i < nd->first[node + 1]; ++i) {
        int r = nd->members[i];
        if (nr > 0 && hi[nr - 1] + 1 == r) {
            hi[nr - 1] = r;
        } else {
            lo[nr] = hi[nr] = r;
            nr++;
        }
    }
    return nr;
}

/* The leader forwards node src's blocks to its node (one message per block) in `round`;
 * own: src is the leader's node (a process has its own blocks already). */
static void forward_node(scc_sched_t *s, const scc_nodes_t *nd, int rank, uint32_t k, int src,
                         int own, uint32_t round, int nloc, uint32_t *fwd, int *lo, int *hi)
{
    int nr = node_runs(nd, src, lo, hi);
    for (int q = 0; q < nr; ++q) {
        for (uint32_t b = (uint32_t) lo[q] * k; b < (uint32_t) (hi[q] + 1) * k; ++b) {
            int readers = own && (int) (b / k) != rank ? nloc - 1 : nloc;
            if (readers > 0) {
                scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_LOCAL, -1, (*fwd)++, round, b, 1,
                               readers);
            }
        }
    }
}

/* The parts of nodes first .. first + c - 1 (mod N) in one message per run of consecutive
 * ranks across them (nodes of consecutive ranks travel together): sent (peer -1, with flags)
 * or received from peer, tags tag0, tag0 + 1, ...; returns the number of messages. */
static uint32_t move_nodes(scc_sched_t *s, const scc_nodes_t *nd, uint32_t k, int first, int c,
                           int peer, int flags, uint32_t tag0, uint32_t round, int *lo, int *hi)
{
    const scc_step_kind_t kind = peer < 0 ? SCC_STEP_SEND : SCC_STEP_RECV;
    uint32_t nr = 0;
    int r0 = -1, r1 = -1;

    for (int o = 0; o <= c; ++o) {
        int n = o < c ? node_runs(nd, (first + o) % nd->nnodes, lo, hi) : 1;
        for (int q = 0; q < n; ++q) {
            if (o < c && r0 >= 0 && r1 + 1 == lo[q]) {
                r1 = hi[q];
                continue;
            }
            if (r0 >= 0) {
                scc_sched_push(s, kind, peer < 0 ? flags : 0, peer, tag0 + nr++, round,
                               (uint32_t) r0 * k, (uint32_t) (r1 - r0 + 1) * k, peer < 0);
            }
            if (o < c) {
                r0 = lo[q];
                r1 = hi[q];
            }
        }
    }
    return nr;
}

/* Leader aggregation: each leader gathers its node's parts (one message per block), the
 * leaders exchange the nodes' parts (one message per run of consecutive ranks), and each
 * leader forwards its own node's blocks and every node's it receives to its node (one
 * message per block, as the parts arrive).  Between the leaders, ring: in step i leader J
 * sends node J - i's parts to J + 1 and receives node J - i - 1's from J - 1 (N - 1 steps);
 * dissem (Bruck): in round t, d = 2^t, leader J sends the parts of nodes J .. J + c - 1 it
 * holds to J - d and receives those of J + d .. J + d + c - 1 from J + d, c = min(d, N - d)
 * (ceil(log2 N) rounds, the same bytes).  k blocks per rank; rank r's are [r k, (r+1) k). */
/* Node `node`'s parts received from peer a message each, in rank order (its leader's first:
 * the order they reach that leader), tags tag0, tag0 + 1, ... */
static void recv_parts(scc_sched_t *s, const scc_nodes_t *nd, uint32_t k, int node, int peer,
                       uint32_t tag0, uint32_t round)
{
    for (int i = nd->first[node]; i < nd->first[node + 1]; ++i) {
        scc_sched_push(s, SCC_STEP_RECV, 0, peer, tag0++, round, (uint32_t) nd->members[i] * k, k,
                       0);
    }
}

static int allgather_leader(scc_sched_t *s, const scc_nodes_t *nd, scc_inter_t inter, int rank,
                            uint32_t k, int *lo, int *hi)
{
    const int N = nd->nnodes, J = nd->node_of[rank];
    const int nloc = nd->first[J + 1] - nd->first[J] - 1;
    /* parts of two blocks or more: the first exchange, which carries my node's parts, sends
       each as soon as it is in (mine first), a message per part */
    const int piped = k >= 2 && N > 1;
    int R = piped ? nd->maxper : 1;
    uint32_t fwd, tag = 0, round = 2, t = 0;

    for (int j = 0; j < N; ++j) {
        int nr = node_runs(nd, j, lo, hi);
        R = nr > R ? nr : R;
    }
    fwd = (uint32_t) (N > 1 ? N - 1 : 0) * (uint32_t) R;    /* tags after the leaders' */
    if (piped) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, t++, round, (uint32_t) rank * k, k, 1);
    }
    for (int i = nd->first[J]; i < nd->first[J + 1]; ++i) {
        int m = nd->members[i];
        for (uint32_t j = 0; m != rank && j < k; ++j) {
            scc_sched_push(s, SCC_STEP_RECV, 0, m, j, 0, (uint32_t) m * k + j, 1, 0);
        }
        if (piped && m != rank) {
            scc_sched_push(s, SCC_STEP_SEND, 0, -1, t++, round, (uint32_t) m * k, k, 1);
        }
    }
    if (nloc > 0) {
        forward_node(s, nd, rank, k, J, 1, 2, nloc, &fwd, lo, hi);
    }
    if (SCC_INTER_DISSEM == inter) {
        for (int d = 1; d < N; d <<= 1, ++round) {
            const int c = d < N - d ? d : N - d;
            /* a send names no peer: its reader (J - d's leader) names it */
            const int from = scc_nodes_leader(nd, (J + d) % N, -1);
            if (piped && 1 == d) {
                recv_parts(s, nd, k, (J + 1) % N, from, tag, round);
            } else {
                move_nodes(s, nd, k, J, c, -1, 0, tag, round, lo, hi);
                move_nodes(s, nd, k, (J + d) % N, c, from, 0, tag, round, lo, hi);
            }
            for (int o = 0; nloc > 0 && o < c; ++o) {
                forward_node(s, nd, rank, k, (J + d + o) % N, 0, round + 1, nloc, &fwd, lo, hi);
            }
            tag += (uint32_t) (c * R);
        }
        s->nrounds = round + 1;
        return 0;
    }
    for (int step = 0; step < N - 1; ++step, ++round) {
        const int src = ((J - step - 1) % N + N) % N;
        const int prev = scc_nodes_leader(nd, (J - 1 + N) % N, -1);
        if (piped && 0 == step) {
            recv_parts(s, nd, k, src, prev, 0, round);
        } else {
            move_nodes(s, nd, k, ((J - step) % N + N) % N, 1, -1, 0, (uint32_t) (step * R),
                       round, lo, hi);
            move_nodes(s, nd, k, src, 1, prev, 0, (uint32_t) (step * R), round, lo, hi);
        }
        if (nloc > 0) {
            forward_node(s, nd, rank, k, src, 0, round + 1, nloc, &fwd, lo, hi);
        }
    }
    s->nrounds = (uint32_t) N + 2;
    return 0;
}

/* ceil(log2 x), x >= 1 */
static uint32_t log2_up(int x)
{
    uint32_t l = 0;
    while ((1 << l) < x) {
        l++;
    }
    return l;
}

/* The ranks of vrank v's subtree in the order a pipelining leader passes their parts on: the
 * leader, its node's others in rank order, then each child's subtree, nearest child first;
 * returns how many. */
static int subtree_order(const scc_nodes_t *nd, int R, int root, int v, int *out)
{
    const int N = nd->nnodes, J = (R + v) % N, L = scc_nodes_leader(nd, J, root);
    int c = 0;

    out[c++] = L;
    for (int i = nd->first[J]; i < nd->first[J + 1]; ++i) {
        if (nd->members[i] != L) {
            out[c++] = nd->members[i];
        }
    }
    for (int d = 1; d < N && !(v & d); d <<= 1) {
        if (v + d < N) {
            c += subtree_order(nd, R, root, v + d, out + c);
        }
    }
    return c;
}

/* Gather: the leaders' binomial tree in vranks v = (J - the root's node) mod N.  A leader
 * takes its node's parts (round 0), its children's subtrees, smallest first (child v + d in
 * round 1 + log2 d), and sends its own subtree -- nodes v .. v + d - 1, d its lowest bit --
 * to its parent in the round of d.  Its own part is in place in work (the executor puts it
 * there).  Parts of one block go as a message per run of consecutive ranks once all are in;
 * larger parts are pipelined, a message per part passed on as soon as it is in (its own
 * first), so the node's copies and the transfers between nodes overlap. */
static int gather_leader(scc_sched_t *s, const scc_nodes_t *nd, int rank, int root, uint32_t k,
                         int *lo, int *hi)
{
    const int N = nd->nnodes, J = nd->node_of[rank], R = nd->node_of[root];
    const int v = (J - R + N) % N;
    const uint32_t up = v > 0 ? 1 + log2_up(v & -v) : 0;   /* the round of my sends */
    uint32_t round = 1, tag = 0;

    if (k >= 2 && v > 0) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, tag++, up, (uint32_t) rank * k, k, 1);
    }
    for (int i = nd->first[J]; i < nd->first[J + 1]; ++i) {
        int m = nd->members[i];
        for (uint32_t j = 0; m != rank && j < k; ++j) {
            scc_sched_push(s, SCC_STEP_RECV, 0, m, j, 0, (uint32_t) m * k + j, 1, 0);
        }
        if (k >= 2 && v > 0 && m != rank) {
            scc_sched_push(s, SCC_STEP_SEND, 0, -1, tag++, up, (uint32_t) m * k, k, 1);
        }
    }
    for (int d = 1; d < N; d <<= 1, ++round) {
        const int u = v + d, from = u < N ? scc_nodes_leader(nd, (R + u) % N, root) : -1;
        if (v & d) {
            if (k < 2) {
                move_nodes(s, nd, k, J, d < N - v ? d : N - v, -1, 0, 0, round, lo, hi);
            }
            break;
        }
        if (u < N && k < 2) {
            move_nodes(s, nd, k, (R + u) % N, d < N - u ? d : N - u, from, 0, 0, round, lo, hi);
        }
        for (int q = 0, c = u < N && k >= 2 ? subtree_order(nd, R, root, u, lo) : 0; q < c; ++q) {
            scc_sched_push(s, SCC_STEP_RECV, 0, from, (uint32_t) q, round, (uint32_t) lo[q] * k,
                           k, 0);
            if (v > 0) {
                scc_sched_push(s, SCC_STEP_SEND, 0, -1, tag++, up, (uint32_t) lo[q] * k, k, 1);
            }
        }
    }
    s->nrounds = log2_up(N) + 1;
    return 0;
}

static int scatter_leader(scc_sched_t *s, const scc_nodes_t *nd, int rank, int root, uint32_t k,
                          int *lo, int *hi);

enum { PARTS_ALLGATHER, PARTS_GATHER, PARTS_SCATTER };

typedef struct pctx {
    const scc_nodes_t *nd;
    int op;
    scc_inter_t inter;
    int rank, root;
    uint32_t k;
    int *lo, *hi;
} pctx_t;

static int parts_leader(scc_sched_t *s, const pctx_t *c)
{
    switch (c->op) {
    case PARTS_GATHER: return gather_leader(s, c->nd, c->rank, c->root, c->k, c->lo, c->hi);
    case PARTS_SCATTER: return scatter_leader(s, c->nd, c->rank, c->root, c->k, c->lo, c->hi);
    default: return allgather_leader(s, c->nd, c->inter, c->rank, c->k, c->lo, c->hi);
    }
}

static int parts_leader_fn(scc_sched_t *s, const void *ctx)
{
    scc_sched_reset(s);
    return parts_leader(s, ctx);
}

/* Scatter, the gather's mirror: top down the same tree, the children's subtrees largest
 * first (child v + d in round log2_up(N) - 1 - log2 d), then the node's parts to their
 * processes (a message per block, the last round).  Parts of one block travel a message per
 * run of consecutive ranks of a child's subtree; larger parts a message each, in the order
 * subtree_order gives, and a leader passes each on as it arrives -- to its process or to the
 * child whose subtree holds it.  The root sends from its input; a leader learns its parent's
 * tags from the parent's schedule. */
static int scatter_leader(scc_sched_t *s, const scc_nodes_t *nd, int rank, int root, uint32_t k,
                          int *lo, int *hi)
{
    const int N = nd->nnodes, J = nd->node_of[rank], R = nd->node_of[root];
    const int v = (J - R + N) % N, in = rank == root ? SCC_STEP_F_INPUT : 0, piped = k >= 2;
    const uint32_t L = log2_up(N);
    uint32_t tag = 0;

    if (v > 0) {
        const int p = v - (v & -v), parent = scc_nodes_leader(nd, (R + p) % N, root);
        pctx_t pc = { nd, PARTS_SCATTER, SCC_INTER_BINOMIAL, parent, root, k, lo, hi };
        scc_sched_t t;
        if (0 != scc_sched_gen_alloc(&t, parts_leader_fn, &pc)) {
            return -1;
        }
        for (long i = 0; i < t.nsteps; ++i) {
            const scc_step_t *st = &t.steps[i];
            const int owner = (int) (st->block / k);
            const int vo = (nd->node_of[owner] - R + N) % N;
            if (SCC_STEP_SEND != st->kind || (st->flags & SCC_STEP_F_LOCAL) || vo < v
                || vo >= v + (v & -v)) {
                continue;   /* not for my subtree */
            }
            scc_sched_push(s, SCC_STEP_RECV, 0, parent, st->tag, st->round, st->block,
                           st->nblocks, 0);
            if (piped && vo > v) {
                /* on to the child whose subtree holds it: v + d, d the top bit of vo - v */
                int d = 1;
                while (2 * d <= vo - v) {
                    d *= 2;
                }
                scc_sched_push(s, SCC_STEP_SEND, 0, -1, tag++, L - 1 - log2_up(d), st->block, k,
                               1);
            }
            for (uint32_t j = 0; piped && vo == v && owner != rank && j < k; ++j) {
                scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_LOCAL, -1, tag++, L, st->block + j,
                               1, 1);
            }
        }
        scc_sched_release(&t);
    }
    for (int d = N > 1 && (!piped || 0 == v) ? 1 << (L - 1) : 0; d >= 1; d >>= 1) {
        /* my children's subtrees (the root's, or all of them when not pipelined) */
        const int u = v + d;
        if (u >= N || (v > 0 && d >= (v & -v))) {
            continue;
        }
        if (!piped) {
            tag += move_nodes(s, nd, k, (R + u) % N, d < N - u ? d : N - u, -1, in, tag,
                              L - 1 - log2_up(d), lo, hi);
        }
        for (int q = 0, c = piped ? subtree_order(nd, R, root, u, lo) : 0; q < c; ++q) {
            scc_sched_push(s, SCC_STEP_SEND, in, -1, tag++, L - 1 - log2_up(d),
                           (uint32_t) lo[q] * k, k, 1);
        }
    }
    for (int i = nd->first[J]; (!piped || 0 == v) && i < nd->first[J + 1]; ++i) {
        /* my node's parts (pipelined, a leader below the root sent them as they came) */
        int m = nd->members[i];
        for (uint32_t j = 0; m != rank && j < k; ++j) {
            scc_sched_push(s, SCC_STEP_SEND, in | SCC_STEP_F_LOCAL, -1, tag++, L,
                           (uint32_t) m * k + j, 1, 1);
        }
    }
    s->nrounds = L + 1;
    return 0;
}

/* A process that is not its node's leader sends its part to the leader (allgather, gather)
 * and receives what the leader's schedule sends it: every part but its own (allgather), its
 * own (scatter). */
static int parts_member(scc_sched_t *s, const pctx_t *c, int leader)
{
    const uint32_t mine = (uint32_t) c->rank * c->k;
    pctx_t lc = *c;
    scc_sched_t t;

    for (uint32_t j = 0; PARTS_SCATTER != c->op && j < c->k; ++j) {
        scc_sched_push(s, SCC_STEP_SEND, PARTS_GATHER == c->op ? SCC_STEP_F_INPUT : 0, -1, j, 0,
                       mine + j, 1, 1);
    }
    lc.rank = leader;
    if (0 != scc_sched_gen_alloc(&t, parts_leader_fn, &lc)) {
        return -1;
    }
    for (long i = 0; i < t.nsteps; ++i) {
        const scc_step_t *st = &t.steps[i];
        int own = st->block >= mine && st->block < mine + c->k;
        if (SCC_STEP_SEND == st->kind && (st->flags & SCC_STEP_F_LOCAL)
            && own == (PARTS_SCATTER == c->op)) {
            scc_sched_push(s, SCC_STEP_RECV, 0, leader, st->tag, st->round, st->block,
                           st->nblocks, 0);
        }
    }
    s->nrounds = t.nrounds;
    scc_sched_release(&t);
    return 0;
}

static int parts(scc_sched_t *s, const scc_nodes_t *nd, int op, scc_inter_t inter, int rank,
                 int root, uint32_t k)
{
    pctx_t c = { nd, op, inter, rank, root, k, NULL, NULL };
    int leader, rc;

    scc_sched_reset(s);
    if (NULL == nd || nd->n < 1 || rank < 0 || rank >= nd->n
        || (PARTS_ALLGATHER != op && (root < 0 || root >= nd->n))
        || (uint64_t) k * (uint64_t) nd->n > UINT32_MAX / 4) {
        return -1;
    }
    if (1 == nd->n || 0 == k) {
        return 0;
    }
    c.lo = malloc(nd->n * sizeof(int));
    c.hi = malloc(nd->n * sizeof(int));
    if (NULL == c.lo || NULL == c.hi) {
        free(c.lo);
        free(c.hi);
        return -1;
    }
    leader = scc_nodes_leader(nd, nd->node_of[rank], PARTS_ALLGATHER == op ? -1 : root);
    rc = rank == leader ? parts_leader(s, &c) : parts_member(s, &c, leader);
    free(c.lo);
    free(c.hi);
    return rc;
}

int scc_sched_hier_allgather(scc_sched_t *s, const scc_hier_t *h, int rank,
                             uint32_t nblocks_per_rank)
{
    const scc_inter_t inter = NULL != h && SCC_INTER_DISSEM == h->inter ? SCC_INTER_DISSEM
                                                                         : SCC_INTER_RING;
    return parts(s, NULL != h ? h->nodes : NULL, PARTS_ALLGATHER, inter, rank, -1,
                 nblocks_per_rank);
}

int scc_sched_hier_gather(scc_sched_t *s, const scc_nodes_t *nd, int rank, int root,
                          uint32_t nblocks_per_rank)
{
    return parts(s, nd, PARTS_GATHER, SCC_INTER_BINOMIAL, rank, root, nblocks_per_rank);
}

int scc_sched_hier_scatter(scc_sched_t *s, const scc_nodes_t *nd, int rank, int root,
                           uint32_t nblocks_per_rank)
{
    return parts(s, nd, PARTS_SCATTER, SCC_INTER_BINOMIAL, rank, root, nblocks_per_rank);
}

void scc_sched_hier_span(const scc_nodes_t *nd, int rank, int root, int *first, int *last)
{
    const int N = nd->nnodes, J = nd->node_of[rank], R = nd->node_of[root];
    const int v = (J - R + N) % N;
    const int c = 0 == v ? N : (v & -v) < N - v ? (v & -v) : N - v;

    *first = nd->n;
    *last = -1;
    for (int o = 0; o < c; ++o) {
        const int node = (J + o) % N;
        const int a = nd->members[nd->first[node]], b = nd->members[nd->first[node + 1] - 1];
        *first = a < *first ? a : *first;
        *last = b > *last ? b : *last;
    }
}

/* ------------------------------------------------------------ alltoall */

/* The ranks of a set for list_pairs: the one rank r >= 0, else node a's (a >= 0), else all. */
static int set_size(const scc_nodes_t *nd, int a, int r)
{
    return r >= 0 ? 1 : a >= 0 ? nd->first[a + 1] - nd->first[a] : nd->n;
}

static int set_at(const scc_nodes_t *nd, int a, int r, int i)
{
    return r >= 0 ? r : a >= 0 ? nd->members[nd->first[a] + i] : i;
}

/* The pairs (s, d), s != d, s of set (a, sa), d of set (b, db), s in rank order then d, onto
 * the list; returns how many. */
static uint32_t list_pairs(scc_sched_t *s, const scc_nodes_t *nd, int a, int sa, int b, int db)
{
    const int na = set_size(nd, a, sa), nb = set_size(nd, b, db);
    uint32_t c = 0;

    for (int i = 0; i < na; ++i) {
        const int src = set_at(nd, a, sa, i);
        for (int j = 0; j < nb; ++j) {
            const int dst = set_at(nd, b, db, j);
            if (src != dst) {
                scc_sched_list_push(s, (uint32_t) src * (uint32_t) nd->n + (uint32_t) dst);
                c++;
            }
        }
    }
    return c;
}

/* One pair-list step: the pairs of list_pairs(a, sa, b, db). */
static void pairs_step(scc_sched_t *s, const scc_nodes_t *nd, scc_step_kind_t kind, int peer,
                       uint32_t tag, uint32_t round, int a, int sa, int b, int db)
{
    uint32_t at = (uint32_t) s->list_len, c = list_pairs(s, nd, a, sa, b, db);
    scc_sched_push(s, kind, SCC_STEP_F_LIST, peer, tag, round, at, c,
                   SCC_STEP_SEND == kind ? 1 : 0);
}

int scc_sched_hier_alltoall(scc_sched_t *s, const scc_nodes_t *nd, int rank)
{
    int N, J, L;

    scc_sched_reset(s);
    if (NULL == nd || nd->n < 1 || rank < 0 || rank >= nd->n || nd->n > 65535) {
        return -1;
    }
    if (1 == nd->n) {
        return 0;
    }
    N = nd->nnodes;
    J = nd->node_of[rank];
    L = scc_nodes_leader(nd, J, -1);
    s->nrounds = (uint32_t) N + 1;
    if (rank != L) {
        /* everything of mine to the leader; everything for me from it, after the leader's
           N - 1 messages between nodes and those to the members before me */
        pairs_step(s, nd, SCC_STEP_SEND, -1, 0, 0, -1, rank, -1, -1);
        pairs_step(s, nd, SCC_STEP_RECV, L, (uint32_t) (N - 2 + nd->local_of[rank]),
                   (uint32_t) N, -1, -1, -1, rank);
        return 0;
    }
    for (int i = nd->first[J] + 1; i < nd->first[J + 1]; ++i) {
        pairs_step(s, nd, SCC_STEP_RECV, nd->members[i], 0, 0, -1, nd->members[i], -1, -1);
    }
    for (int i = 1; i < N; ++i) {
        const int to = (J + i) % N, from = (J - i + N) % N;
        pairs_step(s, nd, SCC_STEP_SEND, -1, (uint32_t) (i - 1), (uint32_t) i, J, -1, to, -1);
        pairs_step(s, nd, SCC_STEP_RECV, scc_nodes_leader(nd, from, -1), (uint32_t) (i - 1),
                   (uint32_t) i, from, -1, J, -1);
    }
    for (int i = nd->first[J] + 1; i < nd->first[J + 1]; ++i) {
        pairs_step(s, nd, SCC_STEP_SEND, -1, (uint32_t) (N - 2 + i - nd->first[J]), (uint32_t) N,
                   -1, -1, -1, nd->members[i]);
    }
    return 0;
}
