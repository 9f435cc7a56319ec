/* test_sched_tree.c: k-ary trees with per-level fan-outs (seeds/004): shape, bcast, reduce. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_sched.h"
#include "sched_replay.h"
#include "unit.h"

typedef struct tree_arg {
    int n, root, nlevels, reduce;
    const int *fanout;
    uint32_t nb;
} tree_arg_t;

static int gen_tree(scc_sched_t *s, int rank, const void *ctx)
{
    const tree_arg_t *a = ctx;
    if (a->reduce) {
        return scc_sched_tree_reduce(s, a->n, rank, a->root, a->fanout, a->nlevels, a->nb);
    }
    return scc_sched_tree_bcast(s, a->n, rank, a->root, a->fanout, a->nlevels, a->nb);
}

typedef struct shape {
    int nlevels;
    int fanout[4];
} shape_t;

static const shape_t shapes[] = {
    { 1, { 1 } },        { 1, { 2 } },          { 1, { 3 } },     { 1, { 7 } },
    { 2, { 5, 5 } },     { 3, { 4, 4, 3 } },    { 3, { 3, 3, 2 } }, { 2, { 6, 5 } },
    { 2, { 2, 1 } },     { 2, { 1, 3 } },       { 1, { 1000 } },
};
#define NSHAPES ((int) (sizeof(shapes) / sizeof(shapes[0])))

/* depth of a BFS-numbered tree of n nodes, from the level capacities */
static int model_depth(int n, const shape_t *sh)
{
    long first = 0, cap = 1;
    int level = 0;
    while (first + cap < n) {
        first += cap;
        cap *= sh->fanout[level < sh->nlevels ? level : sh->nlevels - 1];
        level++;
    }
    return level;
}

static long nruns, nsteps_total;

static void check_shape_helpers(int n, const shape_t *sh)
{
    int *seen = calloc((size_t) n, sizeof(int)), ch[1024];
    int depth = model_depth(n, sh), maxlevel = 0;
    for (int v = 0; v < n; ++v) {
        int m = scc_tree_children(v, n, sh->fanout, sh->nlevels, ch, 1024);
        CHECK(m >= 0 && m <= 1024, "children count %d", m);
        for (int i = 0; i < m && i < 1024; ++i) {
            CHECK(ch[i] > v && ch[i] < n, "child %d of %d out of range", ch[i], v);
            CHECK(i == 0 || ch[i] == ch[i - 1] + 1, "children of %d not consecutive", v);
            CHECK(scc_tree_parent(ch[i], n, sh->fanout, sh->nlevels) == v,
                  "n=%d: parent of %d is not %d", n, ch[i], v);
            seen[ch[i]]++;
        }
        /* levels: a node's depth is its parent's + 1 */
        int d = 0;
        for (int u = v; u != 0; u = scc_tree_parent(u, n, sh->fanout, sh->nlevels)) {
            d++;
            if (d > n) {
                break;
            }
        }
        if (d > maxlevel) {
            maxlevel = d;
        }
    }
    CHECK(scc_tree_parent(0, n, sh->fanout, sh->nlevels) == -1, "root has no parent");
    for (int v = 1; v < n; ++v) {
        CHECK(seen[v] == 1, "n=%d: vrank %d is a child %d times", n, v, seen[v]);
    }
    CHECK(maxlevel == depth, "n=%d: depth %d, model %d", n, maxlevel, depth);
    free(seen);
}

static void check_sched(int n, int root, const shape_t *sh, int reduce, uint32_t nb)
{
    tree_arg_t a = { n, root, sh->nlevels, reduce, sh->fanout, nb };
    replay_opts_t o = { reduce ? REPLAY_REDUCE : REPLAY_BCAST, n, root, nb, !reduce, 1, 0 };
    replay_result_t res;
    long want = (n == 1 || nb == 0) ? 0 : nb + model_depth(n, sh) - 1;

    nruns++;
    if (!replay_run(&o, gen_tree, &a, &res)) {
        CHECK(0, "%s n=%d root=%d shape %d nb=%u: %s", reduce ? "reduce" : "bcast", n, root,
              sh->fanout[0], nb, res.why);
        return;
    }
    nsteps_total += res.nsteps;
    CHECK(res.nrounds == want, "%s n=%d nb=%u: %u rounds, want %ld", reduce ? "reduce" : "bcast",
          n, nb, res.nrounds, want);
    CHECK(res.ntransfers == (long) nb * (n - 1), "%s n=%d: %ld transfers",
          reduce ? "reduce" : "bcast", n, res.ntransfers);
    CHECK(reduce || res.root_recvs == 0, "bcast: the root receives");
    if (reduce && n >= 2 && nb > 0) {
        /* the root combines its own input last: never rank order when it is rank 0 */
        if (root == 0) {
            CHECK(res.flags & SCC_SCHED_F_COMMUTATIVE, "reduce n=%d root 0 must be marked", n);
        }
        if (n == 2 && root == 1) {
            CHECK(res.flags == 0, "reduce n=2 root 1 is in rank order");
        }
    }
}

int main(void)
{
    for (int si = 0; si < NSHAPES; ++si) {
        const shape_t *sh = &shapes[si];
        for (int n = 1; n <= 200; ++n) {
            check_shape_helpers(n, sh);
        }
        for (int n = 1; n <= 64; ++n) {
            for (int root = 0; root < n; ++root) {
                if (n > 20 && root % 7 != 3 && root != 0 && root != n - 1) {
                    continue;
                }
                static const uint32_t nbs[] = { 0, 1, 4 };
                for (int k = 0; k < 3; ++k) {
                    check_sched(n, root, sh, 0, nbs[k]);
                    check_sched(n, root, sh, 1, nbs[k]);
                }
            }
        }
    }

    /* Table B.1 trees are capacity-tight: (6,5) holds 37 in 2 levels, (4,4,3) holds 69 in 3 */
    {
        const shape_t t65 = { 2, { 6, 5 } }, t443 = { 3, { 4, 4, 3 } };
        CHECK(model_depth(37, &t65) == 2 && model_depth(38, &t65) == 3, "(6,5) capacity");
        CHECK(model_depth(69, &t443) == 3 && model_depth(70, &t443) == 4, "(4,4,3) capacity");
        int ch[8];
        CHECK(scc_tree_children(0, 37, t65.fanout, 2, ch, 8) == 6 && ch[5] == 6, "(6,5) root");
        CHECK(scc_tree_children(6, 37, t65.fanout, 2, ch, 8) == 5 && ch[4] == 36, "(6,5) last");
        CHECK(scc_tree_parent(36, 37, t65.fanout, 2) == 6, "(6,5) parent of 36");
    }

    /* bad input */
    {
        const int zero[1] = { 0 }, two[1] = { 2 };
        int ch[4];
        scc_sched_t s = { 0 };
        CHECK(scc_tree_parent(0, 4, zero, 1) == -2, "zero fan-out");
        CHECK(scc_tree_parent(4, 4, two, 1) == -2, "vrank out of range");
        CHECK(scc_tree_children(0, 4, two, 0, ch, 4) == -1, "no levels");
        CHECK(scc_sched_tree_bcast(&s, 4, 0, 4, two, 1, 3) == -1, "root out of range");
        CHECK(scc_sched_tree_reduce(&s, 4, 0, 0, zero, 1, 3) == -1, "zero fan-out");
    }

    printf("test_sched_tree: %ld schedules replayed, %ld steps\n", nruns, nsteps_total);
    return unit_finish("test_sched_tree");
}
