/* coll_scc_sched_hier.c: hierarchical schedules -- the nodes' leaders run a schedule between
 * nodes, each node's other processes are served in one hop by their leader (pure C). */
#include <stdlib.h>
#include <string.h>

#include "coll_scc_sched_hier.h"
#include "coll_scc_sched_int.h"

enum { OP_BCAST, OP_REDUCE, OP_ALLREDUCE, OP_BARRIER };

static const char *const inter_names[SCC_INTER_COUNT] = {
    "binomial", "tree", "jia", "dopl", "ring", "butterfly", "dissem"
};

const char *scc_inter_name(scc_inter_t i)
{
    return (i >= 0 && i < SCC_INTER_COUNT) ? inter_names[i] : "?";
}

/* The schedule between leaders for leader (node) L; lroot: the root's node. */
static int inter_gen(scc_sched_t *s, const scc_hier_t *h, int op, int L, int lroot,
                     uint32_t nblocks)
{
    const int N = h->nodes->nnodes;

    switch (op) {
    case OP_BCAST:
        switch (h->inter) {
        case SCC_INTER_BINOMIAL: return scc_sched_binomial_bcast(s, N, L, lroot, nblocks);
        case SCC_INTER_TREE:
            return scc_sched_tree_bcast(s, N, L, lroot, h->fanout, h->nlevels, nblocks);
        case SCC_INTER_JIA: return scc_sched_jia_bcast(s, N, L, lroot, nblocks);
        case SCC_INTER_DOPL:
            return scc_sched_dopl_bcast(s, &h->nodes->grid, L, lroot, nblocks,
                                        h->chunks_per_part);
        default: return -1;
        }
    case OP_REDUCE:
        switch (h->inter) {
        case SCC_INTER_BINOMIAL: return scc_sched_binomial_reduce(s, N, L, lroot, nblocks);
        case SCC_INTER_TREE:
            return scc_sched_tree_reduce(s, N, L, lroot, h->fanout, h->nlevels, nblocks);
        default: return -1;
        }
    case OP_ALLREDUCE:
        switch (h->inter) {
        case SCC_INTER_RING: return scc_sched_ring_allreduce(s, N, L, nblocks);
        case SCC_INTER_BUTTERFLY: return scc_sched_butterfly_allreduce(s, N, L, nblocks);
        default: return -1;
        }
    case OP_BARRIER:
        switch (h->inter) {
        case SCC_INTER_DISSEM: return scc_sched_dissem_barrier(s, N, L);
        case SCC_INTER_BINOMIAL: return scc_sched_binomial_barrier(s, N, L);
        default: return -1;
        }
    default:
        return -1;
    }
}

void scc_sched_release(scc_sched_t *t)
{
    free(t->steps);
    free(t->list);
    memset(t, 0, sizeof(*t));
}

int scc_sched_gen_alloc(scc_sched_t *t, scc_gen_fn_t f, const void *ctx)
{
    memset(t, 0, sizeof(*t));
    if (0 != f(t, ctx)) {
        return -1;
    }
    t->steps = malloc((t->nsteps + 1) * sizeof(scc_step_t));
    t->list = malloc((t->list_len + 1) * sizeof(uint32_t));
    if (NULL == t->steps || NULL == t->list) {
        scc_sched_release(t);
        return -1;
    }
    t->cap = t->nsteps;
    t->list_cap = t->list_len;
    scc_sched_reset(t);
    if (0 != f(t, ctx) || !scc_sched_fits(t)) {
        scc_sched_release(t);
        return -1;
    }
    return 0;
}

typedef struct hctx {
    const scc_hier_t *h;
    int op, rank, root;
    uint32_t nblocks;
} hctx_t;

static int inter_fn(scc_sched_t *s, const void *ctx)
{
    const hctx_t *c = ctx;
    const scc_nodes_t *nd = c->h->nodes;
    return inter_gen(s, c->h, c->op, nd->node_of[c->rank],
                     c->root >= 0 ? nd->node_of[c->root] : 0, c->nblocks);
}

/* The leader combines block b of each of its node's other processes, in rank order: the
 * k-th block it combines travels as tag k in round k (the others send in that order). */
static void local_reduce(scc_sched_t *s, const scc_nodes_t *nd, int node, int leader,
                         uint32_t b, uint32_t k)
{
    int first = 1;
    for (int i = nd->first[node]; i < nd->first[node + 1]; ++i) {
        int r = nd->members[i];
        if (r != leader) {
            scc_sched_push(s, SCC_STEP_RECV_REDUCE, first ? SCC_STEP_F_INPUT : 0, r, k, k, b,
                           1, 0);
            first = 0;
        }
    }
}

/* The steps of a leader (c->rank is one).  Its own messages to its node take tags after the
 * largest of its schedule between nodes, in the order it sends them: those take slots in
 * the node's shared memory, the others go over the network, where each pair's messages
 * arrive in the order they were sent (coll_scc_sched.h). */
static int leader_steps(scc_sched_t *s, const hctx_t *c)
{
    const scc_nodes_t *nd = c->h->nodes;
    const int node = nd->node_of[c->rank];
    const int nloc = nd->first[node + 1] - nd->first[node] - 1;
    const int reducing = OP_REDUCE == c->op || OP_ALLREDUCE == c->op;
    const int bcast = OP_BCAST == c->op;
    /* rounds: the node's contributions, then the leaders' rounds, then back to the node */
    const uint32_t pre = reducing ? c->nblocks : OP_BARRIER == c->op ? 1 : 0;
    unsigned char *done = NULL;
    uint32_t next = 0, post, nred = 0, red_upto = 0;
    int rc = -1;
    scc_sched_t t;

    if (0 != scc_sched_gen_alloc(&t, inter_fn, c)) {
        return -1;
    }
    done = calloc((size_t) c->nblocks + 1, 1);
    if (NULL == done) {
        goto out;
    }
    for (long i = 0; i < t.nsteps; ++i) {
        next = t.steps[i].tag + 1 > next ? t.steps[i].tag + 1 : next;
    }
    if (OP_BARRIER == c->op) {
        for (int i = nd->first[node]; i < nd->first[node + 1]; ++i) {
            if (nd->members[i] != c->rank) {
                scc_sched_push(s, SCC_STEP_RECV, 0, nd->members[i], 0, 0, 0, 0, 0);
            }
        }
    }
    if (OP_ALLREDUCE == c->op && nloc > 0) {
        /* an allreduce between leaders (a ring) needs blocks out of order and in every
           round: combining each just before its first step would stall the whole ring on
           every leader's node in turn (the cluster simulator: 2.68 s against 36.5 ms at 256
           nodes of 32, 16 MB); the node's blocks are combined first */
        while (red_upto < c->nblocks) {
            local_reduce(s, nd, node, c->rank, red_upto, nred++);
            done[red_upto++] = 1;
        }
    }
    for (long i = 0; i < t.nsteps; ++i) {
        const scc_step_t *st = &t.steps[i];
        int peer = st->peer, flags = st->flags;

        if (flags & SCC_STEP_F_LIST || (uint64_t) st->block + st->nblocks > c->nblocks) {
            goto out;
        }
        if (SCC_STEP_SEND != st->kind) {
            peer = scc_nodes_leader(nd, peer, c->root);
        }
        if (reducing && nloc > 0) {
            /* the node's contributions first (up to the step's last block: the others send
               in block order); the block's partial is then in work */
            while (red_upto < st->block + st->nblocks) {
                local_reduce(s, nd, node, c->rank, red_upto, nred++);
                done[red_upto++] = 1;
            }
            flags &= ~SCC_STEP_F_INPUT;
        }
        scc_sched_push(s, (scc_step_kind_t) st->kind, flags, peer, st->tag, pre + st->round,
                       st->block, st->nblocks, st->nreaders);
        if (bcast && nloc > 0 && (SCC_STEP_SEND != st->kind || c->rank == c->root)) {
            /* what this step brought (or, at the root, first sent) goes on to the node */
            uint32_t lo = st->block, hi = st->block + st->nblocks;
            while (lo < hi && done[lo]) {
                lo++;
            }
            while (hi > lo && done[hi - 1]) {
                hi--;
            }
            for (uint32_t b = lo; b < hi; ++b) {
                if (done[b]) {
                    goto out;   /* new blocks in pieces: no generator here does that */
                }
                done[b] = 1;
            }
            if (hi > lo) {
                scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_LOCAL, -1, next++,
                               pre + st->round + 1, lo, hi - lo, nloc);
            }
        }
    }
    post = pre + t.nrounds;
    if (bcast && nloc > 0) {
        /* blocks no step between nodes carried (a single node): in runs, after the rest */
        for (uint32_t b = 0; b < c->nblocks;) {
            uint32_t e = b;
            while (e < c->nblocks && !done[e]) {
                done[e++] = 1;
            }
            if (e > b) {
                scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_LOCAL, -1, next++, post, b, e - b,
                               nloc);
                b = e;
            } else {
                b++;
            }
        }
    }
    if (reducing && nloc > 0) {
        while (red_upto < c->nblocks) {
            local_reduce(s, nd, node, c->rank, red_upto++, nred++);
        }
    }
    if (OP_ALLREDUCE == c->op && nloc > 0) {
        for (uint32_t b = 0; b < c->nblocks; ++b) {
            scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_LOCAL, -1, next++, post + b, b, 1,
                           nloc);
        }
    }
    if (OP_BARRIER == c->op && nloc > 0) {
        scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_LOCAL, -1, next++, post, 0, 0, nloc);
    }
    s->flags |= t.flags | (reducing ? SCC_SCHED_F_COMMUTATIVE : 0);
    s->nrounds = post + (OP_ALLREDUCE == c->op ? c->nblocks : OP_REDUCE == c->op ? 0 : 1);
    rc = 0;
out:
    free(done);
    scc_sched_release(&t);
    return rc;
}

static int leader_fn(scc_sched_t *s, const void *ctx)
{
    scc_sched_reset(s);
    return leader_steps(s, ctx);
}

/* The steps of a process that is not its node's leader: what it sends its leader and what
 * it receives from it, with the tags and rounds of the leader's own schedule. */
static int member_steps(scc_sched_t *s, const hctx_t *c)
{
    const scc_nodes_t *nd = c->h->nodes;
    const int leader = scc_nodes_leader(nd, nd->node_of[c->rank], c->root);
    hctx_t lc = *c;
    scc_sched_t t;

    if (OP_BARRIER == c->op) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, 0, 0, 0, 0, 1);
    }
    lc.rank = leader;
    if (0 != scc_sched_gen_alloc(&t, leader_fn, &lc)) {
        return -1;
    }
    for (long i = 0; i < t.nsteps; ++i) {
        const scc_step_t *st = &t.steps[i];
        if (SCC_STEP_RECV_REDUCE == st->kind && st->peer == c->rank) {
            scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_INPUT, -1, st->tag, st->round,
                           st->block, 1, 1);
        }
    }
    for (long i = 0; i < t.nsteps; ++i) {
        const scc_step_t *st = &t.steps[i];
        if (SCC_STEP_SEND == st->kind && (st->flags & SCC_STEP_F_LOCAL)) {
            scc_sched_push(s, SCC_STEP_RECV, 0, leader, st->tag, st->round, st->block,
                           st->nblocks, 0);
        }
    }
    s->flags |= t.flags;
    s->nrounds = t.nrounds;
    scc_sched_release(&t);
    return 0;
}

static int hier(scc_sched_t *s, const scc_hier_t *h, int op, int rank, int root,
                uint32_t nblocks)
{
    const scc_nodes_t *nd = NULL != h ? h->nodes : NULL;
    hctx_t c = { h, op, rank, root, nblocks };

    scc_sched_reset(s);
    if (NULL == nd || nd->n < 1 || nd->nnodes < 1 || rank < 0 || rank >= nd->n
        || root >= nd->n || (root < 0 && (OP_BCAST == op || OP_REDUCE == op))
        || (uint64_t) nblocks > UINT32_MAX / 4) {
        return -1;
    }
    if (1 == nd->n || (OP_BARRIER != op && 0 == nblocks)) {
        return 0;
    }
    if (rank == scc_nodes_leader(nd, nd->node_of[rank], root)) {
        return leader_steps(s, &c);
    }
    return member_steps(s, &c);
}

int scc_sched_hier_bcast(scc_sched_t *s, const scc_hier_t *h, int rank, int root,
                         uint32_t nblocks)
{
    return hier(s, h, OP_BCAST, rank, root, nblocks);
}

int scc_sched_hier_reduce(scc_sched_t *s, const scc_hier_t *h, int rank, int root,
                          uint32_t nblocks)
{
    return hier(s, h, OP_REDUCE, rank, root, nblocks);
}

int scc_sched_hier_allreduce(scc_sched_t *s, const scc_hier_t *h, int rank, uint32_t nblocks)
{
    return hier(s, h, OP_ALLREDUCE, rank, -1, nblocks);
}

int scc_sched_hier_barrier(scc_sched_t *s, const scc_hier_t *h, int rank)
{
    return hier(s, h, OP_BARRIER, rank, -1, 0);
}
