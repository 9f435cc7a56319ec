/* coll_scc_sched_nocmsg.c: NoC_Msg collectives (seeds/003) on a tile mesh with any holes --
 * the tree of tile leaders (bcast, reduce, allreduce, barrier); alltoall is in
 * coll_scc_sched_nocmsg_a2a.c. */
#include <stdlib.h>
#include <string.h>

#include "coll_scc_sched.h"
#include "coll_scc_sched_int.h"

/* The tree.  One leader per tile talks to the mesh: the core with the root's z
 * where the tile has it, else the lowest present core.  Leaders form a tree of
 * tiles built breadth-first from the root's tile over present tiles and 1-hop
 * links; a tile takes as parent, among the tiles one level up next to it, its
 * row-first parent (the thesis tree: along the root's row, then up and down the
 * columns), else its column-first parent, else any.  When the row-first tree
 * fits the present tiles this is exactly it; otherwise it is another
 * shortest-path tree of 1-hop links, so still free of link contention under X-Y
 * routing.  Tiles with no present path to the root (a communicator scattered
 * over the mesh) hang off the nearest reached tile by a multi-hop link.  The
 * other cores of a tile are children of its leader.  A parent combines its
 * children in a fixed order -- its tile-mates by z, then the tiles above, below,
 * left, right (then multi-hop ones by tile) -- so results are reproducible. */

typedef struct noc {
    const scc_tiles_t *m;
    int ntiles;
    int *leader;      /* per tile: leader rank, -1 for an empty tile */
    int *ptile;       /* per tile: parent tile, -1 at the root tile and for empty tiles */
    int *tdepth;      /* per tile: depth of its leader */
    int *parent;      /* per rank */
    int *depth;       /* per rank */
    int *cstart;      /* per rank: children are child[cstart[r] .. cstart[r+1]) */
    int *child;
    int tree_depth;
} noc_t;

static int tile_x(const noc_t *t, int tile)
{
    return tile % t->m->X;
}

static int tile_y(const noc_t *t, int tile)
{
    return tile / t->m->X;
}

static int sgn(int v)
{
    return (v > 0) - (v < 0);
}

int scc_tiles_ok(const scc_tiles_t *m)
{
    if (m == NULL || m->X < 1 || m->Y < 1 || m->K < 1 || m->n < 1 || m->at == NULL ||
        m->tile_of == NULL || m->core_of == NULL || (long) m->X * m->Y * m->K > (1L << 24)) {
        return 0;
    }
    int placed = 0;
    for (long i = 0; i < (long) m->X * m->Y * m->K; ++i) {
        if (m->at[i] < -1 || m->at[i] >= m->n) {
            return 0;
        }
        placed += m->at[i] >= 0;
    }
    if (placed != m->n) {
        return 0;
    }
    for (int r = 0; r < m->n; ++r) {
        if (m->tile_of[r] < 0 || m->tile_of[r] >= m->X * m->Y || m->core_of[r] < 0 ||
            m->core_of[r] >= m->K || m->at[m->tile_of[r] * m->K + m->core_of[r]] != r) {
            return 0;
        }
    }
    return 1;
}

static void noc_free(noc_t *t)
{
    free(t->leader);
    free(t->ptile);
    free(t->tdepth);
    free(t->parent);
    free(t->depth);
    free(t->cstart);
    free(t->child);
}

/* order of a child tile under its parent: up, down, left, right, then farther ones */
static long child_key(const noc_t *t, int parent, int tile)
{
    int dx = tile_x(t, tile) - tile_x(t, parent), dy = tile_y(t, tile) - tile_y(t, parent);
    if (dx == 0 && dy == 1) {
        return 0;
    }
    if (dx == 0 && dy == -1) {
        return 1;
    }
    if (dx == -1 && dy == 0) {
        return 2;
    }
    if (dx == 1 && dy == 0) {
        return 3;
    }
    return 4 + (long) tile;
}

static int noc_build(noc_t *t, const scc_tiles_t *m, int root)
{
    const int X = m->X, Y = m->Y, K = m->K, T = X * Y, n = m->n;
    int *front = NULL, *next = NULL, *order = NULL;
    int rc = -1;

    memset(t, 0, sizeof(*t));
    t->m = m;
    t->ntiles = T;
    t->leader = malloc(sizeof(int) * (size_t) T);
    t->ptile = malloc(sizeof(int) * (size_t) T);
    t->tdepth = malloc(sizeof(int) * (size_t) T);
    t->parent = malloc(sizeof(int) * (size_t) n);
    t->depth = malloc(sizeof(int) * (size_t) n);
    t->cstart = calloc((size_t) n + 1, sizeof(int));
    t->child = malloc(sizeof(int) * (size_t) n);
    front = malloc(sizeof(int) * (size_t) T);
    next = malloc(sizeof(int) * (size_t) T);
    order = malloc(sizeof(int) * (size_t) T);
    if (!t->leader || !t->ptile || !t->tdepth || !t->parent || !t->depth || !t->cstart ||
        !t->child || !front || !next || !order) {
        goto out;
    }

    const int rt = m->tile_of[root], zr = m->core_of[root];
    const int xr = rt % X, yr = rt / X;
    int left = 0;
    for (int tile = 0; tile < T; ++tile) {
        int l = m->at[tile * K + zr];
        for (int z = 0; z < K && l < 0; ++z) {
            l = m->at[tile * K + z];
        }
        t->leader[tile] = l;
        t->ptile[tile] = -1;
        t->tdepth[tile] = l >= 0 ? -1 : -2; /* -1: not reached yet, -2: empty */
        left += l >= 0;
    }

    /* breadth-first, level by level, over present tiles and 1-hop links */
    int nfront = 1, norder = 0;
    front[0] = rt;
    t->tdepth[rt] = 0;
    order[norder++] = rt;
    left--;
    while (left > 0) {
        while (nfront > 0 && left > 0) {
            int nnext = 0, level = t->tdepth[front[0]];
            for (int u = 0; u < T; ++u) {
                if (t->tdepth[u] != -1) {
                    continue;
                }
                int x = u % X, y = u / X, cand[6], nc = 0;
                /* row-first parent, column-first parent, then the four neighbours */
                if (y == yr) {
                    cand[nc++] = (x + sgn(xr - x)) + X * y;
                } else {
                    cand[nc++] = x + X * (y + sgn(yr - y));
                }
                if (x == xr) {
                    cand[nc++] = x + X * (y + sgn(yr - y));
                } else {
                    cand[nc++] = (x + sgn(xr - x)) + X * y;
                }
                if (y + 1 < Y) cand[nc++] = u + X;
                if (y > 0) cand[nc++] = u - X;
                if (x > 0) cand[nc++] = u - 1;
                if (x + 1 < X) cand[nc++] = u + 1;
                /* all candidates are 1-hop neighbours of u */
                for (int i = 0; i < nc; ++i) {
                    int p = cand[i];
                    if (t->tdepth[p] == level) {
                        t->ptile[u] = p;
                        next[nnext++] = u;
                        break;
                    }
                }
            }
            for (int i = 0; i < nnext; ++i) {
                t->tdepth[next[i]] = level + 1;
                order[norder++] = next[i];
            }
            left -= nnext;
            memcpy(front, next, sizeof(int) * (size_t) nnext);
            nfront = nnext;
        }
        if (left > 0) {
            /* no present path: the nearest reached tile takes it over several hops */
            int bu = -1, bp = -1, bd = 0;
            for (int u = 0; u < T; ++u) {
                if (t->tdepth[u] != -1) {
                    continue;
                }
                for (int p = 0; p < T; ++p) {
                    if (t->tdepth[p] < 0) {
                        continue;
                    }
                    int dist = abs(p % X - u % X) + abs(p / X - u / X);
                    if (bu < 0 || dist < bd) {
                        bu = u;
                        bp = p;
                        bd = dist;
                    }
                }
            }
            t->ptile[bu] = bp;
            t->tdepth[bu] = t->tdepth[bp] + 1;
            order[norder++] = bu;
            front[0] = bu;
            nfront = 1;
            left--;
        }
    }

    /* ranks: leaders under the parent tile's leader, mates under their leader */
    t->tree_depth = 0;
    for (int r = 0; r < n; ++r) {
        int tile = m->tile_of[r], l = t->leader[tile];
        if (r == l) {
            t->parent[r] = t->ptile[tile] >= 0 ? t->leader[t->ptile[tile]] : -1;
            t->depth[r] = t->tdepth[tile];
        } else {
            t->parent[r] = l;
            t->depth[r] = t->tdepth[tile] + 1;
        }
        if (t->depth[r] > t->tree_depth) {
            t->tree_depth = t->depth[r];
        }
        if (t->parent[r] >= 0) {
            t->cstart[t->parent[r] + 1]++;
        }
    }
    for (int r = 0; r < n; ++r) {
        t->cstart[r + 1] += t->cstart[r];
    }
    /* fill children in combining order: mates by z, then child tiles by direction */
    int *cur = malloc(sizeof(int) * (size_t) n);
    if (cur == NULL) {
        goto out;
    }
    for (int r = 0; r < n; ++r) {
        cur[r] = t->cstart[r];
    }
    for (int tile = 0; tile < T; ++tile) {
        int l = t->leader[tile];
        if (l < 0) {
            continue;
        }
        for (int z = 0; z < K; ++z) {
            int r = m->at[tile * K + z];
            if (r >= 0 && r != l) {
                t->child[cur[l]++] = r;
            }
        }
    }
    for (int i = 0; i < norder; ++i) {
        int tile = order[i], p = t->ptile[tile];
        if (p >= 0) {
            int l = t->leader[p];
            /* insertion by direction key among the tile children already placed */
            int pos = cur[l]++;
            while (pos > t->cstart[l] && m->tile_of[t->child[pos - 1]] != p &&
                   child_key(t, p, m->tile_of[t->child[pos - 1]]) > child_key(t, p, tile)) {
                t->child[pos] = t->child[pos - 1];
                pos--;
            }
            t->child[pos] = t->leader[tile];
        }
    }
    free(cur);
    rc = 0;
out:
    free(front);
    free(next);
    free(order);
    if (rc != 0) {
        noc_free(t);
    }
    return rc;
}

static void noc_node(const noc_t *t, int rank, scc_tree_node_t *node)
{
    node->parent = t->parent[rank];
    node->depth = t->depth[rank];
    node->tree_depth = t->tree_depth;
    node->nchildren = t->cstart[rank + 1] - t->cstart[rank];
    node->children = t->child + t->cstart[rank];
}

static int noc_nchildren(const void *ctx, int rank)
{
    const noc_t *t = ctx;
    return t->cstart[rank + 1] - t->cstart[rank];
}

static int noc_child(const void *ctx, int rank, int i)
{
    const noc_t *t = ctx;
    return t->child[t->cstart[rank] + i];
}

static uint32_t noc_reduce_flags(const noc_t *t, int root)
{
    scc_tree_walk_t w = { noc_nchildren, noc_child, t };
    return scc_sched_tree_rank_ordered(&w, t->m->n, root) ? 0 : SCC_SCHED_F_COMMUTATIVE;
}

static int noc_begin(scc_sched_t *s, noc_t *t, const scc_tiles_t *m, int rank, int root,
                     uint64_t nblocks)
{
    scc_sched_reset(s);
    if (!scc_tiles_ok(m) || rank < 0 || rank >= m->n || root < 0 || root >= m->n ||
        2 * (nblocks + (uint64_t) m->X * m->Y * m->K) > UINT32_MAX) {
        return -1;
    }
    return noc_build(t, m, root);
}

int scc_sched_nocmsg_bcast(scc_sched_t *s, const scc_tiles_t *m, int rank, int root,
                           uint32_t nblocks)
{
    noc_t t;
    scc_tree_node_t node;
    if (noc_begin(s, &t, m, rank, root, nblocks) != 0) {
        return -1;
    }
    if (nblocks > 0 && m->n > 1) {
        noc_node(&t, rank, &node);
        scc_sched_tree_emit_bcast(s, &node, nblocks, 0, 0);
        s->nrounds = nblocks + (uint32_t) t.tree_depth - 1;
    }
    noc_free(&t);
    return 0;
}

int scc_sched_nocmsg_reduce(scc_sched_t *s, const scc_tiles_t *m, int rank, int root,
                            uint32_t nblocks)
{
    noc_t t;
    scc_tree_node_t node;
    if (noc_begin(s, &t, m, rank, root, nblocks) != 0) {
        return -1;
    }
    if (nblocks > 0 && m->n > 1) {
        noc_node(&t, rank, &node);
        scc_sched_tree_emit_reduce(s, &node, nblocks, 0, 0);
        s->nrounds = nblocks + (uint32_t) t.tree_depth - 1;
        s->flags |= noc_reduce_flags(&t, root);
    }
    noc_free(&t);
    return 0;
}

int scc_sched_nocmsg_allreduce(scc_sched_t *s, const scc_tiles_t *m, int rank, int root,
                               uint32_t nblocks)
{
    noc_t t;
    scc_tree_node_t node;
    if (noc_begin(s, &t, m, rank, root, nblocks) != 0) {
        return -1;
    }
    if (nblocks > 0 && m->n > 1) {
        uint32_t half = nblocks + (uint32_t) t.tree_depth - 1;
        noc_node(&t, rank, &node);
        scc_sched_tree_emit_reduce(s, &node, nblocks, 0, 0);
        scc_sched_tree_emit_bcast(s, &node, nblocks, nblocks, half);
        s->nrounds = 2 * half;
        s->flags |= noc_reduce_flags(&t, root);
    }
    noc_free(&t);
    return 0;
}

int scc_sched_nocmsg_barrier(scc_sched_t *s, const scc_tiles_t *m, int rank, int root,
                             int fanin_only)
{
    noc_t t;
    scc_tree_node_t node;
    if (noc_begin(s, &t, m, rank, root, 0) != 0) {
        return -1;
    }
    if (m->n > 1) {
        uint32_t D = (uint32_t) t.tree_depth;
        noc_node(&t, rank, &node);
        scc_sched_tree_emit_fanin(s, &node, 0, 0);
        if (!fanin_only) {
            scc_sched_tree_emit_fanout(s, &node, 1, D);
        }
        s->nrounds = fanin_only ? D : 2 * D;
    }
    noc_free(&t);
    return 0;
}
