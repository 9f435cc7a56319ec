/* coll_scc_sched_tree.c: k-ary trees of seeds/004 and the pipelined tree emitters they share. */
#include <stdlib.h>

#include "coll_scc_sched.h"
#include "coll_scc_sched_int.h"

/* ---------------------------------------------------------------- */
/* Generic emitters                                                  */

void scc_sched_tree_emit_bcast(scc_sched_t *s, const scc_tree_node_t *t, uint32_t nblocks,
                               uint32_t tag0, uint32_t round0)
{
    for (uint32_t b = 0; b < nblocks; ++b) {
        uint32_t r = round0 + b + (uint32_t) t->depth;
        if (t->parent >= 0) {
            scc_sched_push(s, SCC_STEP_RECV, 0, t->parent, tag0 + b, r - 1, b, 1, 0);
        }
        if (t->nchildren > 0) {
            scc_sched_push(s, SCC_STEP_SEND, 0, -1, tag0 + b, r, b, 1, t->nchildren);
        }
    }
}

void scc_sched_tree_emit_reduce(scc_sched_t *s, const scc_tree_node_t *t, uint32_t nblocks,
                                uint32_t tag0, uint32_t round0)
{
    uint32_t up = (uint32_t) (t->tree_depth - t->depth); /* rounds after the deepest leaves */
    for (uint32_t b = 0; b < nblocks; ++b) {
        uint32_t r = round0 + b + up;
        for (int i = 0; i < t->nchildren; ++i) {
            /* the first child meets the caller's input: work = msg op input */
            scc_sched_push(s, SCC_STEP_RECV_REDUCE, i == 0 ? SCC_STEP_F_INPUT : 0,
                           t->children[i], tag0 + b, r - 1, b, 1, 0);
        }
        if (t->parent >= 0) {
            scc_sched_push(s, SCC_STEP_SEND, t->nchildren == 0 ? SCC_STEP_F_INPUT : 0, -1,
                           tag0 + b, r, b, 1, 1);
        }
    }
}

void scc_sched_tree_emit_fanin(scc_sched_t *s, const scc_tree_node_t *t, uint32_t tag,
                               uint32_t round0)
{
    uint32_t r = round0 + (uint32_t) (t->tree_depth - t->depth);
    for (int i = 0; i < t->nchildren; ++i) {
        scc_sched_push(s, SCC_STEP_RECV, 0, t->children[i], tag, r - 1, 0, 0, 0);
    }
    if (t->parent >= 0) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, tag, r, 0, 0, 1);
    }
}

void scc_sched_tree_emit_fanout(scc_sched_t *s, const scc_tree_node_t *t, uint32_t tag,
                                uint32_t round0)
{
    uint32_t r = round0 + (uint32_t) t->depth;
    if (t->parent >= 0) {
        scc_sched_push(s, SCC_STEP_RECV, 0, t->parent, tag, r - 1, 0, 0, 0);
    }
    if (t->nchildren > 0) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, tag, r, 0, 0, t->nchildren);
    }
}

/* order(v) = order(c[m-1]) ... order(c[0]) v, as the emitted reduction combines them */
static int walk_in_order(const scc_tree_walk_t *w, int v, int *next, int budget)
{
    if (budget <= 0) {
        return 0; /* deeper than n: not a tree */
    }
    for (int i = w->nchildren(w->ctx, v) - 1; i >= 0; --i) {
        if (!walk_in_order(w, w->child(w->ctx, v, i), next, budget - 1)) {
            return 0;
        }
    }
    return v == (*next)++;
}

int scc_sched_tree_rank_ordered(const scc_tree_walk_t *w, int n, int root)
{
    int next = 0;
    return walk_in_order(w, root, &next, n) && next == n;
}

/* ---------------------------------------------------------------- */
/* k-ary trees with per-level fan-outs, BFS numbering, root = vrank 0 */

static int fanout_ok(int n, const int *fanout, int nlevels)
{
    if (n < 1 || fanout == NULL || nlevels < 1) {
        return 0;
    }
    for (int i = 0; i < nlevels; ++i) {
        if (fanout[i] < 1) {
            return 0;
        }
    }
    return 1;
}

static long level_fanout(const int *fanout, int nlevels, int level)
{
    return fanout[level < nlevels ? level : nlevels - 1];
}

/* Level of vrank v; *start = first vrank of that level, *count = its capacity
 * (capped at n: the capacity only matters while it is below n), *prev = first
 * vrank of the level above. */
static int tree_level(int v, int n, const int *fanout, int nlevels, long *start, long *count,
                      long *prev)
{
    long st = 0, cnt = 1, pst = 0;
    int level = 0;
    while (v >= st + cnt) {
        pst = st;
        st += cnt;
        cnt *= level_fanout(fanout, nlevels, level);
        if (cnt > n) {
            cnt = n;
        }
        level++;
    }
    *start = st;
    *count = cnt;
    *prev = pst;
    return level;
}

int scc_tree_parent(int vrank, int n, const int *fanout, int nlevels)
{
    long st, cnt, pst;
    if (!fanout_ok(n, fanout, nlevels) || vrank < 0 || vrank >= n) {
        return -2;
    }
    if (vrank == 0) {
        return -1;
    }
    int level = tree_level(vrank, n, fanout, nlevels, &st, &cnt, &pst);
    return (int) (pst + (vrank - st) / level_fanout(fanout, nlevels, level - 1));
}

int scc_tree_children(int vrank, int n, const int *fanout, int nlevels, int *children, int cap)
{
    long st, cnt, pst;
    if (!fanout_ok(n, fanout, nlevels) || vrank < 0 || vrank >= n || cap < 0) {
        return -1;
    }
    int level = tree_level(vrank, n, fanout, nlevels, &st, &cnt, &pst);
    long f = level_fanout(fanout, nlevels, level);
    long first = st + cnt + (vrank - st) * f;
    int m = 0;
    for (long c = first; c < first + f && c < n; ++c, ++m) {
        if (m < cap) {
            children[m] = (int) c;
        }
    }
    return m;
}

/* Depth of the whole tree: the level of vrank n-1. */
static int tree_depth(int n, const int *fanout, int nlevels)
{
    long st, cnt, pst;
    return tree_level(n - 1, n, fanout, nlevels, &st, &cnt, &pst);
}

typedef struct kary_ctx {
    int n, root, nlevels;
    const int *fanout;
} kary_ctx_t;

static int kary_nchildren(const void *ctx, int rank)
{
    const kary_ctx_t *k = ctx;
    int v = (rank - k->root + k->n) % k->n;
    return scc_tree_children(v, k->n, k->fanout, k->nlevels, NULL, 0);
}

static int kary_child(const void *ctx, int rank, int i)
{
    const kary_ctx_t *k = ctx;
    int v = (rank - k->root + k->n) % k->n;
    long st, cnt, pst;
    int level = tree_level(v, k->n, k->fanout, k->nlevels, &st, &cnt, &pst);
    long first = st + cnt + (v - st) * level_fanout(k->fanout, k->nlevels, level);
    return (int) ((first + i + k->root) % k->n);
}

/* Fills t (children in increasing vrank order) for rank; *childbuf is malloc'd. */
static int kary_node(scc_tree_node_t *t, int **childbuf, int n, int rank, int root,
                     const int *fanout, int nlevels)
{
    long st, cnt, pst;
    int v = (rank - root + n) % n;
    int m = scc_tree_children(v, n, fanout, nlevels, NULL, 0);
    int *ch = malloc(sizeof(int) * (size_t) (m > 0 ? m : 1));
    if (ch == NULL) {
        return -1;
    }
    scc_tree_children(v, n, fanout, nlevels, ch, m);
    for (int i = 0; i < m; ++i) {
        ch[i] = (ch[i] + root) % n;
    }
    int p = scc_tree_parent(v, n, fanout, nlevels);
    t->parent = p < 0 ? -1 : (p + root) % n;
    t->depth = tree_level(v, n, fanout, nlevels, &st, &cnt, &pst);
    t->tree_depth = tree_depth(n, fanout, nlevels);
    t->nchildren = m;
    t->children = ch;
    *childbuf = ch;
    return 0;
}

static int tree_args_ok(int n, int rank, int root, const int *fanout, int nlevels)
{
    return fanout_ok(n, fanout, nlevels) && rank >= 0 && rank < n && root >= 0 && root < n;
}

int scc_sched_tree_bcast(scc_sched_t *s, int n, int rank, int root, const int *fanout,
                         int nlevels, uint32_t nblocks)
{
    scc_tree_node_t t;
    int *ch;
    scc_sched_reset(s);
    if (!tree_args_ok(n, rank, root, fanout, nlevels) ||
        (uint64_t) nblocks + (uint64_t) n > UINT32_MAX) {
        return -1;
    }
    if (n == 1 || nblocks == 0) {
        return 0;
    }
    if (kary_node(&t, &ch, n, rank, root, fanout, nlevels) != 0) {
        return -1;
    }
    scc_sched_tree_emit_bcast(s, &t, nblocks, 0, 0);
    s->nrounds = nblocks + (uint32_t) t.tree_depth - 1;
    free(ch);
    return 0;
}

int scc_sched_tree_reduce(scc_sched_t *s, int n, int rank, int root, const int *fanout,
                          int nlevels, uint32_t nblocks)
{
    scc_tree_node_t t;
    int *ch;
    scc_sched_reset(s);
    if (!tree_args_ok(n, rank, root, fanout, nlevels) ||
        (uint64_t) nblocks + (uint64_t) n > UINT32_MAX) {
        return -1;
    }
    if (n == 1 || nblocks == 0) {
        return 0;
    }
    if (kary_node(&t, &ch, n, rank, root, fanout, nlevels) != 0) {
        return -1;
    }
    scc_sched_tree_emit_reduce(s, &t, nblocks, 0, 0);
    s->nrounds = nblocks + (uint32_t) t.tree_depth - 1;
    free(ch);

    kary_ctx_t k = { n, root, nlevels, fanout };
    scc_tree_walk_t w = { kary_nchildren, kary_child, &k };
    if (!scc_sched_tree_rank_ordered(&w, n, root)) {
        s->flags |= SCC_SCHED_F_COMMUTATIVE;
    }
    return 0;
}

int scc_tree_fanout_auto(int n, int *fanout)
{
    static const int f16[] = { 4, 3 }, f30[] = { 5, 5 }, f60[] = { 4, 4, 3 };
    const int *f = f60;
    int k = 3;

    if (n <= 8) {
        fanout[0] = n - 1 > 0 ? n - 1 : 1;
        return 1;
    }
    if (n <= 16) {
        f = f16;
        k = 2;
    } else if (n <= 30) {
        f = f30;
        k = 2;
    }
    for (int i = 0; i < k; ++i) {
        fanout[i] = f[i];
    }
    return k;
}

int scc_tiles_center(const scc_tiles_t *m)
{
    int best = 0, bestd = -1;

    if (NULL == m || NULL == m->tile_of || m->X <= 0) {
        return 0;
    }
    for (int r = 0; r < m->n; ++r) {
        int x = m->tile_of[r] % m->X, y = m->tile_of[r] / m->X;
        int d = abs(2 * x - (m->X - 1)) + abs(2 * y - (m->Y - 1));
        if (bestd < 0 || d < bestd) {
            bestd = d;
            best = r;
        }
    }
    return best;
}

/* ---------------------------------------------------------------- */
/* Binomial trees (vrank v's parent clears v's highest bit; its children are v + 2^j for
 * 2^j > v), for few processes far apart: the depth is the number of set bits of v. */

typedef struct binomial_ctx {
    int n, root;
} binomial_ctx_t;

static int binomial_children_v(int v, int n, int *ch, int cap)
{
    int m = 0;
    for (long d = 1; d < n; d <<= 1) {
        if (d > v && v + d < n) {
            if (m < cap) {
                ch[m] = (int) (v + d);
            }
            m++;
        }
    }
    return m;
}

static int binomial_nchildren(const void *ctx, int rank)
{
    const binomial_ctx_t *b = ctx;
    return binomial_children_v((rank - b->root + b->n) % b->n, b->n, NULL, 0);
}

static int binomial_child(const void *ctx, int rank, int i)
{
    const binomial_ctx_t *b = ctx;
    int ch[32];
    binomial_children_v((rank - b->root + b->n) % b->n, b->n, ch, 32);
    return (ch[i] + b->root) % b->n;
}

static int popcount_int(int v)
{
    int c = 0;
    for (; v > 0; v &= v - 1) {
        c++;
    }
    return c;
}

/* Fills t for rank (children nearest first); *childbuf holds them (up to 31). */
static void binomial_node(scc_tree_node_t *t, int *childbuf, int n, int rank, int root)
{
    int v = (rank - root + n) % n, depth = 0;
    int m = binomial_children_v(v, n, childbuf, 32);

    for (int i = 0; i < m; ++i) {
        childbuf[i] = (childbuf[i] + root) % n;
    }
    for (int u = 0; u < n; ++u) {
        int c = popcount_int(u);
        depth = c > depth ? c : depth;
    }
    if (v > 0) {
        int h = 1;
        while (h * 2 <= v) {
            h *= 2;
        }
        t->parent = (v - h + root) % n;
    } else {
        t->parent = -1;
    }
    t->depth = popcount_int(v);
    t->tree_depth = depth;
    t->nchildren = m;
    t->children = childbuf;
}

static int binomial_args_ok(int n, int rank, int root, uint32_t nblocks)
{
    return n >= 1 && rank >= 0 && rank < n && root >= 0 && root < n
           && (uint64_t) nblocks + (uint64_t) n <= UINT32_MAX;
}

/* Resets s and fills t for a pipelined binomial schedule: -1 bad input, 0 nothing to do,
 * 1 steps to emit. */
static int binomial_prep(scc_sched_t *s, scc_tree_node_t *t, int *ch, int n, int rank, int root,
                         uint32_t nblocks)
{
    scc_sched_reset(s);
    if (!binomial_args_ok(n, rank, root, nblocks)) {
        return -1;
    }
    if (n == 1 || nblocks == 0) {
        return 0;
    }
    binomial_node(t, ch, n, rank, root);
    s->nrounds = nblocks + (uint32_t) t->tree_depth - 1;
    return 1;
}

int scc_sched_binomial_bcast(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks)
{
    scc_tree_node_t t;
    int ch[32], rc = binomial_prep(s, &t, ch, n, rank, root, nblocks);

    if (rc > 0) {
        scc_sched_tree_emit_bcast(s, &t, nblocks, 0, 0);
    }
    return rc < 0 ? -1 : 0;
}

int scc_sched_binomial_reduce(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks)
{
    scc_tree_node_t t;
    binomial_ctx_t b = { n, root };
    scc_tree_walk_t w = { binomial_nchildren, binomial_child, &b };
    int ch[32], rc = binomial_prep(s, &t, ch, n, rank, root, nblocks);

    if (rc > 0) {
        scc_sched_tree_emit_reduce(s, &t, nblocks, 0, 0);
        if (!scc_sched_tree_rank_ordered(&w, n, root)) {
            s->flags |= SCC_SCHED_F_COMMUTATIVE;
        }
    }
    return rc < 0 ? -1 : 0;
}

int scc_sched_binomial_barrier(scc_sched_t *s, int n, int rank)
{
    scc_tree_node_t t;
    int ch[32];

    scc_sched_reset(s);
    if (!binomial_args_ok(n, rank, 0, 0)) {
        return -1;
    }
    if (n == 1) {
        return 0;
    }
    binomial_node(&t, ch, n, rank, 0);
    scc_sched_tree_emit_fanin(s, &t, 0, 0);
    scc_sched_tree_emit_fanout(s, &t, 1, (uint32_t) t.tree_depth);
    s->nrounds = 2 * (uint32_t) t.tree_depth;
    return 0;
}

/* ---------------------------------------------------------------- */
/* Dissemination barrier: in round k each rank signals rank + 2^k and waits for rank - 2^k. */

int scc_sched_dissem_barrier(scc_sched_t *s, int n, int rank)
{
    uint32_t k = 0;

    scc_sched_reset(s);
    if (n < 1 || rank < 0 || rank >= n) {
        return -1;
    }
    for (long d = 1; d < n; d <<= 1, ++k) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, k, k, 0, 0, 1);
        scc_sched_push(s, SCC_STEP_RECV, 0, (int) ((rank - d + n) % n), k, k, 0, 0, 0);
    }
    s->nrounds = k;
    return 0;
}
