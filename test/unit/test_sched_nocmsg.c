/* test_sched_nocmsg.c: NoC_Msg on the 6x4x2 SCC (every size and root) and on meshes with holes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_sched.h"
#include "sched_replay.h"
#include "unit.h"

#define MAXSLOTS 512

typedef struct mesh_buf {
    int at[MAXSLOTS], tile_of[MAXSLOTS], core_of[MAXSLOTS];
    int tx[MAXSLOTS], ty[MAXSLOTS];   /* per rank, for routing */
    scc_tiles_t m;
} mesh_buf_t;

typedef enum { OP_BCAST, OP_REDUCE, OP_ALLREDUCE, OP_BARRIER, OP_FANIN, OP_ALLTOALL } op_t;

typedef struct noc_arg {
    const scc_tiles_t *m;
    op_t op;
    int root;
    uint32_t nb;
} noc_arg_t;

static int gen_noc(scc_sched_t *s, int rank, const void *ctx)
{
    const noc_arg_t *a = ctx;
    switch (a->op) {
    case OP_BCAST:
        return scc_sched_nocmsg_bcast(s, a->m, rank, a->root, a->nb);
    case OP_REDUCE:
        return scc_sched_nocmsg_reduce(s, a->m, rank, a->root, a->nb);
    case OP_ALLREDUCE:
        return scc_sched_nocmsg_allreduce(s, a->m, rank, a->root, a->nb);
    case OP_BARRIER:
        return scc_sched_nocmsg_barrier(s, a->m, rank, a->root, 0);
    case OP_FANIN:
        return scc_sched_nocmsg_barrier(s, a->m, rank, a->root, 1);
    default:
        return scc_sched_nocmsg_alltoall(s, a->m, rank);
    }
}

static void mesh_finish(mesh_buf_t *b, int X, int Y, int K, int n)
{
    b->m.X = X;
    b->m.Y = Y;
    b->m.K = K;
    b->m.n = n;
    b->m.at = b->at;
    b->m.tile_of = b->tile_of;
    b->m.core_of = b->core_of;
    for (int r = 0; r < n; ++r) {
        b->tx[r] = b->tile_of[r] % X;
        b->ty[r] = b->tile_of[r] / X;
    }
}

/* the SCC's RCCE numbering: rank r at tile x = (r%12)/2, y = r/12, core z = r%2 */
static void mesh_rcce(mesh_buf_t *b, int P)
{
    for (int i = 0; i < 48; ++i) {
        b->at[i] = -1;
    }
    for (int r = 0; r < P; ++r) {
        int x = (r % 12) / 2, y = r / 12, z = r % 2;
        b->tile_of[r] = y * 6 + x;
        b->core_of[r] = z;
        b->at[(y * 6 + x) * 2 + z] = r;
    }
    mesh_finish(b, 6, 4, 2, P);
}

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t) (rng_state >> 16);
}

/* a random subset of the X*Y*K slots, ranks in random order */
static void mesh_random(mesh_buf_t *b, int X, int Y, int K, int density)
{
    int slots = X * Y * K, n = 0, perm[MAXSLOTS];
    for (int i = 0; i < slots; ++i) {
        b->at[i] = (int) (rnd() % 100) < density ? 1 : -1;
        n += b->at[i] > 0;
    }
    if (n == 0) {
        b->at[rnd() % slots] = 1;
        n = 1;
    }
    for (int i = 0; i < n; ++i) {
        perm[i] = i;
    }
    for (int i = n - 1; i > 0; --i) {
        int j = (int) (rnd() % (i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 0, k = 0; i < slots; ++i) {
        if (b->at[i] > 0) {
            int r = perm[k++];
            b->at[i] = r;
            b->tile_of[r] = i / K;
            b->core_of[r] = i % K;
        }
    }
    mesh_finish(b, X, Y, K, n);
}

/* ---- an independent model of the tree the schedules must use ---- */

static int leader_of(const scc_tiles_t *m, int tile, int zr)
{
    int l = m->at[tile * m->K + zr];
    for (int z = 0; z < m->K && l < 0; ++z) {
        l = m->at[tile * m->K + z];
    }
    return l;
}

/* BFS distances between present tiles over 1-hop links; 1 if every present tile is reached */
static int tile_dist(const scc_tiles_t *m, int root_tile, int *dist)
{
    int T = m->X * m->Y, q[MAXSLOTS], h = 0, t = 0, ok = 1;
    for (int i = 0; i < T; ++i) {
        dist[i] = -1;
    }
    dist[root_tile] = 0;
    q[t++] = root_tile;
    while (h < t) {
        int u = q[h++], x = u % m->X, y = u / m->X;
        int nb[4] = { x > 0 ? u - 1 : -1, x + 1 < m->X ? u + 1 : -1, y > 0 ? u - m->X : -1,
                      y + 1 < m->Y ? u + m->X : -1 };
        for (int i = 0; i < 4; ++i) {
            if (nb[i] >= 0 && dist[nb[i]] < 0 && leader_of(m, nb[i], 0) >= 0) {
                dist[nb[i]] = dist[u] + 1;
                q[t++] = nb[i];
            }
        }
    }
    for (int i = 0; i < T; ++i) {
        if (leader_of(m, i, 0) >= 0 && dist[i] < 0) {
            ok = 0;
        }
    }
    return ok;
}

static int tree_depth_model(const scc_tiles_t *m, int root, int *connected)
{
    int dist[MAXSLOTS], D = 0;
    const int zr = m->core_of[root];
    *connected = tile_dist(m, m->tile_of[root], dist);
    for (int r = 0; r < m->n; ++r) {
        int t = m->tile_of[r];
        int d = dist[t] + (r != leader_of(m, t, zr));
        if (d > D) {
            D = d;
        }
    }
    return D;
}

static int sgn(int v)
{
    return (v > 0) - (v < 0);
}

/* the thesis's row-first tree fits when every present tile's row-first parent is present
   (on RCCE prefixes: when the root's row is full) */
static int rowfirst_fits(const mesh_buf_t *b, int root)
{
    const scc_tiles_t *m = &b->m;
    int fits = 1, ry = b->ty[root], rx = b->tx[root];
    for (int t = 0; t < m->X * m->Y; ++t) {
        int x = t % m->X, y = t / m->X;
        if (leader_of(m, t, 0) < 0 || (x == rx && y == ry)) {
            continue;
        }
        int p = y == ry ? (x + sgn(rx - x)) + m->X * y : x + m->X * (y + sgn(ry - y));
        fits &= leader_of(m, p, 0) >= 0;
    }
    return fits;
}

static long nruns, nsteps_total, n_multihop, n_rowfirst_checked;
static int worst_multihop_load;

/* Replays one collective with the checks every case shares. */
static int run(const mesh_buf_t *b, op_t op, int root, uint32_t nb, replay_result_t *res,
               const char *what)
{
    noc_arg_t a = { &b->m, op, root, nb };
    static const replay_kind_t kinds[] = { REPLAY_BCAST, REPLAY_REDUCE, REPLAY_ALLREDUCE,
                                           REPLAY_BARRIER, REPLAY_BARRIER, REPLAY_ALLTOALL };
    replay_opts_t o = { kinds[op], b->m.n, root, nb, op == OP_BCAST, op != OP_ALLTOALL, 1 };
    nruns++;
    if (!replay_run(&o, gen_noc, &a, res)) {
        CHECK(0, "%s op %d X%d Y%d K%d n=%d root=%d nb=%u: %s", what, op, b->m.X, b->m.Y, b->m.K,
              b->m.n, root, nb, res->why);
        replay_free(res);
        return 0;
    }
    nsteps_total += res->nsteps;
    return 1;
}

/* Tree collectives: rounds, leaders, links, and the row-first tree where it fits. */
static void check_tree_op(const mesh_buf_t *b, op_t op, int root, uint32_t nb, const char *what)
{
    replay_result_t res;
    const scc_tiles_t *m = &b->m;
    int connected;
    if (!run(b, op, root, nb, &res, what)) {
        return;
    }
    const int D = tree_depth_model(m, root, &connected);
    const int zr = m->core_of[root];
    long want;
    switch (op) {
    case OP_BCAST:
    case OP_REDUCE:
        want = (m->n == 1 || nb == 0) ? 0 : nb + D - 1;
        break;
    case OP_ALLREDUCE:
        want = (m->n == 1 || nb == 0) ? 0 : 2 * ((long) nb + D - 1);
        break;
    case OP_BARRIER:
        want = 2 * D;
        break;
    default:
        want = D;
    }
    if (connected) {
        CHECK(res.nrounds == want, "%s op %d n=%d root=%d nb=%u: %u rounds, want %ld (depth %d)",
              what, op, m->n, root, nb, res.nrounds, want, D);
    }
    if (op == OP_BARRIER) {
        CHECK(res.barrier_complete, "%s: barrier lets a rank leave early (n=%d root=%d)", what,
              m->n, root);
    }
    if (op == OP_FANIN && m->n > 1) {
        CHECK(!res.barrier_complete, "%s: fan-in only barrier should be unsafe (n=%d root=%d)",
              what, m->n, root);
    }
    if (op == OP_REDUCE && m->n == 2 && nb > 0) {
        /* the root combines the other rank's block with its own: rank order iff root is 1 */
        CHECK(((res.flags & SCC_SCHED_F_COMMUTATIVE) != 0) == (root == 0),
              "%s: commutative flag for n=2 root=%d: %u", what, root, res.flags);
    }

    /* only tile leaders cross tiles, between neighbour tiles, on distinct links per round */
    const int ry = b->ty[root], rx = b->tx[root];
    const int check_rowfirst = rowfirst_fits(b, root);
    for (long i = 0; i < res.nflows; ++i) {
        const replay_flow_t *f = &res.flows[i];
        int ts = m->tile_of[f->src], td = m->tile_of[f->dst];
        if (ts == td) {
            continue;
        }
        CHECK(f->src == leader_of(m, ts, zr) && f->dst == leader_of(m, td, zr),
              "%s: %d -> %d crosses tiles but is not leader to leader", what, f->src, f->dst);
        if (connected) {
            CHECK(abs(b->tx[f->src] - b->tx[f->dst]) + abs(b->ty[f->src] - b->ty[f->dst]) == 1,
                  "%s: %d -> %d is not a 1-hop link", what, f->src, f->dst);
        }
        if (check_rowfirst) {
            /* every link used is an edge of the thesis's tree, whichever way the data flows */
            int child = f->dst, parent = f->src;
            for (int pass = 0; pass < 2; ++pass) {
                int x = b->tx[child], y = b->ty[child], px, py;
                if (y == ry) {
                    px = x + sgn(rx - x);
                    py = y;
                } else {
                    px = x;
                    py = y + sgn(ry - y);
                }
                if (b->tx[parent] == px && b->ty[parent] == py && !(x == rx && y == ry)) {
                    break;
                }
                CHECK(pass == 0, "%s op %d: n=%d root=%d link (%d,%d)-(%d,%d) is not in the"
                      " row-first tree", what, op, m->n, root, b->tx[f->src], b->ty[f->src],
                      b->tx[f->dst], b->ty[f->dst]);
                child = f->src;
                parent = f->dst;
            }
        }
    }
    n_rowfirst_checked += check_rowfirst;
    for (uint32_t r = 0; r < res.nrounds; ++r) {
        int load = replay_xy_maxload(&res, b->tx, b->ty, m->X, m->Y, r);
        if (connected) {
            CHECK(load <= 1, "%s op %d n=%d root=%d: link load %d in round %u", what, op, m->n,
                  root, load, r);
        } else if (load > worst_multihop_load) {
            worst_multihop_load = load;
        }
    }
    n_multihop += !connected;
    replay_free(&res);
}

/* Alltoall: delivery, and the largest link load of each stage (tile-level and message-level). */
static void check_alltoall(const mesh_buf_t *b, const char *what, int report)
{
    replay_result_t res;
    const scc_tiles_t *m = &b->m;
    if (!run(b, OP_ALLTOALL, 0, 0, &res, what)) {
        return;
    }
    CHECK(res.nrounds == (m->n > 1 ? (uint32_t) (m->X + m->Y - 1) : 0), "%s: alltoall %u rounds",
          what, res.nrounds);
    CHECK(res.redundant == 0, "%s: alltoall delivers %ld pairs twice", what, res.redundant);
    if (report) {
        /* tile-level flows: one per (round, tile pair), as notes/seed-003 App. A counts them */
        replay_result_t tiles = res;
        replay_flow_t *tf = malloc(sizeof(replay_flow_t) * (size_t) (res.nflows + 1));
        int tpos_x[MAXSLOTS], tpos_y[MAXSLOTS];
        long nt = 0;
        for (int t = 0; t < m->X * m->Y; ++t) {
            tpos_x[t] = t % m->X;
            tpos_y[t] = t / m->X;
        }
        for (long i = 0; i < res.nflows; ++i) {
            replay_flow_t f = res.flows[i];
            f.src = m->tile_of[f.src];
            f.dst = m->tile_of[f.dst];
            long j;
            for (j = 0; j < nt; ++j) {
                if (tf[j].round == f.round && tf[j].src == f.src && tf[j].dst == f.dst) {
                    break;
                }
            }
            if (j == nt) {
                tf[nt++] = f;
            }
        }
        tiles.flows = tf;
        tiles.nflows = nt;
        printf("%s alltoall, max load of a directed link per stage (tile flows / messages):\n",
               what);
        for (uint32_t r = 0; r < res.nrounds; ++r) {
            int lt = replay_xy_maxload(&tiles, tpos_x, tpos_y, m->X, m->Y, r);
            int lm = replay_xy_maxload(&res, b->tx, b->ty, m->X, m->Y, r);
            long nmsg = 0;
            for (long i = 0; i < res.nflows; ++i) {
                nmsg += res.flows[i].round == r;
            }
            if (r < (uint32_t) m->Y) {
                printf("  column stage, distance %u: %d / %d  (%ld messages)\n", r, lt, lm, nmsg);
            } else {
                printf("  row stage, distance %u:    %d / %d  (%ld messages)\n", r - m->Y + 1, lt,
                       lm, nmsg);
            }
            if (m->X == 6 && m->Y == 4 && m->n == 48) {
                /* notes/seed-003 App. A: column distances 1,2,3 -> 1,2,1; row 1..5 -> 1,2,3,2,1 */
                static const int want[] = { 0, 1, 2, 1, 1, 2, 3, 2, 1 };
                CHECK(lt == want[r], "6x4 alltoall stage %u: tile load %d, notes say %d", r, lt,
                      want[r]);
            }
        }
        free(tf);
    }
    replay_free(&res);
}

int main(void)
{
    mesh_buf_t b;
    scc_sched_t s = { 0 };

    /* the SCC: every size 1..48 in RCCE order, every root */
    int rowfirst_broken = 0;
    for (int P = 1; P <= 48; ++P) {
        mesh_rcce(&b, P);
        for (int root = 0; root < P; ++root) {
            rowfirst_broken += !rowfirst_fits(&b, root);
            check_tree_op(&b, OP_BCAST, root, 1, "rcce");
            check_tree_op(&b, OP_BCAST, root, 4, "rcce");
            check_tree_op(&b, OP_REDUCE, root, 3, "rcce");
            check_tree_op(&b, OP_ALLREDUCE, root, 2, "rcce");
            check_tree_op(&b, OP_BARRIER, root, 0, "rcce");
            check_tree_op(&b, OP_FANIN, root, 0, "rcce");
        }
        check_tree_op(&b, OP_BCAST, 0, 0, "rcce");
        check_alltoall(&b, "rcce", P == 48);
    }

    /* notes/seed-003 App. A: the thesis's tree leaves a tile without a parent in 165 cases */
    CHECK(rowfirst_broken == 165, "row-first tree broken in %d (P, root) cases", rowfirst_broken);
    printf("rcce: the row-first tree does not fit %d of the 1176 (P, root) cases; the schedules"
           " used another shortest-path tree there\n", rowfirst_broken);

    /* depths of notes/seed-003 §3.2: corner root 8+1 rounds for one block, central root 5+1 */
    {
        replay_result_t res;
        mesh_rcce(&b, 48);
        if (run(&b, OP_BCAST, 0, 1, &res, "depth")) {
            CHECK(res.nrounds == 9, "corner root: %u rounds", res.nrounds);
            replay_free(&res);
        }
        if (run(&b, OP_BCAST, 18, 1, &res, "depth")) {
            CHECK(res.nrounds == 6, "central root: %u rounds", res.nrounds);
            replay_free(&res);
        }
        /* the fixed combining order at root 16, tile (2,1): mate, up, down, left, right */
        scc_step_t steps[64];
        scc_sched_t s16 = { steps, 64, 0, NULL, 0, 0, 0, 0 };
        const int want[5] = { 17, 28, 4, 14, 18 };
        CHECK(scc_sched_nocmsg_reduce(&s16, &b.m, 16, 16, 1) == 0 && s16.nsteps == 5,
              "root 16 reduce: %ld steps", s16.nsteps);
        for (int i = 0; i < 5 && i < s16.nsteps; ++i) {
            CHECK(steps[i].kind == SCC_STEP_RECV_REDUCE && steps[i].peer == want[i] &&
                  (i == 0) == ((steps[i].flags & SCC_STEP_F_INPUT) != 0),
                  "root 16 combines %d (flags %u) as #%d, want %d", steps[i].peer, steps[i].flags,
                  i, want[i]);
        }
        CHECK(s16.flags & SCC_SCHED_F_COMMUTATIVE, "NoC reduce on 48 is not in rank order");
    }

    /* holes: random subsets of several meshes, ranks in random order */
    static const int shapes[][3] = { { 6, 4, 2 }, { 6, 4, 2 }, { 3, 5, 3 }, { 8, 2, 1 },
                                     { 1, 1, 4 }, { 4, 4, 4 }, { 7, 3, 2 }, { 2, 6, 1 } };
    for (int t = 0; t < 240; ++t) {
        const int *sh = shapes[t % 8];
        mesh_random(&b, sh[0], sh[1], sh[2], 20 + (int) (rnd() % 80));
        int root = (int) (rnd() % b.m.n);
        uint32_t nb = 1 + rnd() % 5;
        check_tree_op(&b, OP_BCAST, root, nb, "holes");
        check_tree_op(&b, OP_REDUCE, root, nb, "holes");
        check_tree_op(&b, OP_ALLREDUCE, root, nb, "holes");
        check_tree_op(&b, OP_BARRIER, root, 0, "holes");
        check_alltoall(&b, "holes", 0);
    }
    /* a communicator scattered over the chip: every third slot */
    for (int i = 0; i < 48; ++i) {
        b.at[i] = -1;
    }
    {
        int n = 0;
        for (int i = 0; i < 48; i += 3) {
            b.at[i] = n;
            b.tile_of[n] = i / 2;
            b.core_of[n] = i % 2;
            n++;
        }
        mesh_finish(&b, 6, 4, 2, n);
        for (int root = 0; root < n; ++root) {
            check_tree_op(&b, OP_BCAST, root, 3, "scattered");
            check_tree_op(&b, OP_REDUCE, root, 3, "scattered");
            check_tree_op(&b, OP_BARRIER, root, 0, "scattered");
        }
        check_alltoall(&b, "scattered", 1);
    }

    /* bad input */
    mesh_rcce(&b, 48);
    CHECK(scc_sched_nocmsg_bcast(&s, &b.m, 48, 0, 1) == -1, "rank out of range");
    CHECK(scc_sched_nocmsg_reduce(&s, &b.m, 0, 48, 1) == -1, "root out of range");
    b.at[5] = 3;
    CHECK(scc_sched_nocmsg_alltoall(&s, &b.m, 0) == -1, "inconsistent mesh");

    printf("test_sched_nocmsg: %ld collectives replayed, %ld steps; row-first tree checked in %ld;"
           " %ld with tiles unreachable over 1-hop links (largest link load there %d)\n",
           nruns, nsteps_total, n_rowfirst_checked, n_multihop, worst_multihop_load);
    return unit_finish("test_sched_nocmsg");
}
