/* test_sched_hier.c: hierarchical schedules on nodes (each node a tile): every placement of
 * processes on nodes tried here, every root, every schedule between leaders, replayed with
 * messages between nodes off the slots; traffic between nodes only between leaders, and
 * inside a node only to or from its leader.  Also the binomial trees and the dissemination
 * barrier alone, and the node grouping and grid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_nodes.h"
#include "coll_scc_sched_hier.h"
#include "sched_replay.h"
#include "unit.h"

enum { K_BCAST, K_REDUCE, K_ALLREDUCE, K_BARRIER, K_ALLGATHER, K_GATHER, K_SCATTER, K_ALLTOALL };

static const char *const knames[] = { "bcast", "reduce", "allreduce", "barrier", "allgather",
                                      "gather", "scatter", "alltoall" };

/* the collectives with a root */
static int rooted(int kind)
{
    return K_BCAST == kind || K_REDUCE == kind || K_GATHER == kind || K_SCATTER == kind;
}

/* one part per rank */
static int per_rank(int kind)
{
    return K_ALLGATHER == kind || K_GATHER == kind || K_SCATTER == kind;
}

typedef struct harg {
    scc_hier_t h;
    int kind, root;
    uint32_t nb;
} harg_t;

static int gen_hier(scc_sched_t *s, int rank, const void *ctx)
{
    const harg_t *a = ctx;
    switch (a->kind) {
    case K_BCAST: return scc_sched_hier_bcast(s, &a->h, rank, a->root, a->nb);
    case K_REDUCE: return scc_sched_hier_reduce(s, &a->h, rank, a->root, a->nb);
    case K_ALLREDUCE: return scc_sched_hier_allreduce(s, &a->h, rank, a->nb);
    case K_ALLGATHER: return scc_sched_hier_allgather(s, &a->h, rank, a->nb);
    case K_GATHER: return scc_sched_hier_gather(s, a->h.nodes, rank, a->root, a->nb);
    case K_SCATTER: return scc_sched_hier_scatter(s, a->h.nodes, rank, a->root, a->nb);
    case K_ALLTOALL: return scc_sched_hier_alltoall(s, a->h.nodes, rank);
    default: return scc_sched_hier_barrier(s, &a->h, rank);
    }
}

static long nreplays, nsteps_total;

/* rank's steps of a's schedule (no block list: the hierarchical ones use none) into s,
 * allocated: count, allocate, fill; 0 or the generator's error */
static int gen_steps(scc_sched_t *s, int rank, const harg_t *a)
{
    memset(s, 0, sizeof(*s));
    if (0 != gen_hier(s, rank, a)) {
        return -1;
    }
    s->steps = malloc((s->nsteps + 1) * sizeof(scc_step_t));
    s->list = malloc(sizeof(uint32_t));
    s->cap = s->nsteps;
    s->list_cap = 0;
    return gen_hier(s, rank, a);
}

/* Every step crosses nodes only between leaders, and stays in a node only with its leader. */
static void check_hierarchy(const harg_t *a)
{
    const scc_nodes_t *nd = a->h.nodes;
    const int root = rooted(a->kind) ? a->root : -1;
    scc_sched_t s;

    for (int r = 0; r < nd->n; ++r) {
        int lo = r, hi = r;
        if (0 != gen_steps(&s, r, a)) {
            CHECK(0, "rank %d: generator failed", r);
            return;
        }
        if ((K_GATHER == a->kind || K_SCATTER == a->kind) && r != root) {
            /* what the executor gives them: a member its own part, a leader its span */
            if (r == scc_nodes_leader(nd, nd->node_of[r], root)) {
                scc_sched_hier_span(nd, r, root, &lo, &hi);
            }
        } else {
            lo = 0;
            hi = nd->n - 1;
        }
        for (long i = 0; i < s.nsteps; ++i) {
            const scc_step_t *st = &s.steps[i];
            int p = st->peer, me_lead, p_lead;
            CHECK((st->flags & SCC_STEP_F_LIST)
                      || (st->block >= (uint32_t) lo * a->nb
                          && st->block + st->nblocks <= (uint32_t) (hi + 1) * a->nb),
                  "%s rank %d: blocks %u+%u outside its parts %d..%d", knames[a->kind], r,
                  st->block, st->nblocks, lo, hi);
            if (SCC_STEP_SEND == st->kind) {
                continue;
            }
            me_lead = r == scc_nodes_leader(nd, nd->node_of[r], root);
            p_lead = p == scc_nodes_leader(nd, nd->node_of[p], root);
            if (nd->node_of[p] != nd->node_of[r]) {
                CHECK(me_lead && p_lead, "rank %d reads %d of another node: not both leaders",
                      r, p);
            } else {
                CHECK(me_lead != p_lead, "rank %d reads %d of its node: not via the leader",
                      r, p);
            }
        }
        free(s.steps);
        free(s.list);
    }
}

/* Allgather between leaders: the ring's leader hears from one other leader in N - 1 steps,
 * Bruck's from ceil(log2 N) distinct leaders (the rounds that make it the faster for few
 * bytes). */
static void check_allgather_peers(const harg_t *a)
{
    const scc_nodes_t *nd = a->h.nodes;
    const int N = nd->nnodes;
    int lg = 0, want, got = 0, seen[64];
    scc_sched_t s;

    while ((1 << lg) < N) lg++;
    want = N < 2 ? 0 : SCC_INTER_DISSEM == a->h.inter ? lg : 1;
    memset(seen, 0, sizeof(seen));
    if (N > 64 || 0 != gen_steps(&s, 0, a)) {
        return;
    }
    for (long i = 0; i < s.nsteps; ++i) {
        const scc_step_t *st = &s.steps[i];
        if (SCC_STEP_RECV == st->kind && nd->node_of[st->peer] != nd->node_of[0]
            && !seen[nd->node_of[st->peer]]) {
            seen[nd->node_of[st->peer]] = 1;
            got++;
        }
    }
    CHECK(got == want, "allgather %s, %d nodes: hears from %d leaders, not %d",
          scc_inter_name(a->h.inter), N, got, want);
    free(s.steps);
    free(s.list);
}

/* Alltoall: a leader hears from each other node once (its leader: every pair of the two
 * nodes in one message), and a process that is not a leader sends one message. */
static void check_alltoall_aggregated(const harg_t *a)
{
    const scc_nodes_t *nd = a->h.nodes;
    scc_sched_t s;

    for (int r = 0; r < nd->n; ++r) {
        const int leader = r == scc_nodes_leader(nd, nd->node_of[r], -1);
        long off = 0, sends = 0;
        if (0 != gen_steps(&s, r, a)) {
            CHECK(0, "alltoall rank %d: generator failed", r);
            return;
        }
        for (long i = 0; i < s.nsteps; ++i) {
            off += SCC_STEP_SEND != s.steps[i].kind
                   && nd->node_of[s.steps[i].peer] != nd->node_of[r];
            sends += SCC_STEP_SEND == s.steps[i].kind;
        }
        CHECK(leader ? off == nd->nnodes - 1 : off == 0 && sends == 1,
              "alltoall rank %d (%s): %ld receives from other nodes, %ld sends", r,
              leader ? "leader" : "member", off, sends);
        free(s.steps);
        free(s.list);
    }
}

static void run(const harg_t *a, const char *what)
{
    replay_opts_t o;
    replay_result_t res;
    static const replay_kind_t kinds[] = { REPLAY_BCAST, REPLAY_REDUCE, REPLAY_ALLREDUCE,
                                           REPLAY_BARRIER, REPLAY_ALLGATHER, REPLAY_GATHER,
                                           REPLAY_SCATTER, REPLAY_ALLTOALL };

    memset(&o, 0, sizeof(o));
    memset(&res, 0, sizeof(res));
    o.kind = kinds[a->kind];
    o.n = a->h.nodes->n;
    o.root = rooted(a->kind) ? a->root : -1;
    o.nblocks = per_rank(a->kind) ? a->nb * (uint32_t) o.n : a->nb;
    o.node_of = a->h.nodes->node_of;
    nreplays++;
    if (!replay_run(&o, gen_hier, a, &res)) {
        CHECK(0, "%s %s n %d nodes %d root %d blocks %u: %s", what,
              scc_inter_name(a->h.inter), o.n, a->h.nodes->nnodes, a->root, a->nb, res.why);
    } else {
        CHECK(K_BARRIER != a->kind || res.barrier_complete, "%s: barrier incomplete", what);
        CHECK(K_BCAST != a->kind || 0 == res.redundant, "%s: %ld redundant blocks", what,
              res.redundant);
        nsteps_total += res.nsteps;
    }
    replay_free(&res);
    check_hierarchy(a);
    if (K_ALLTOALL == a->kind) {
        check_alltoall_aggregated(a);
    }
    if (K_ALLGATHER == a->kind) {
        check_allgather_peers(a);
    }
}

/* The layouts of n processes on nodes: key[r] names r's node. */
static int layout(int which, int n, int *key)
{
    switch (which) {
    case 0: /* two per node, by slot */
        for (int r = 0; r < n; ++r) key[r] = r / 2;
        return 1;
    case 1: /* round robin over 3 nodes */
        for (int r = 0; r < n; ++r) key[r] = r % 3;
        return n >= 3;
    case 2: /* uneven: 3 + 1 + 3 + 1 ... */
        for (int r = 0; r < n; ++r) key[r] = (r / 4) * 2 + (r % 4 == 3);
        return 1;
    case 3: /* one process per node */
        for (int r = 0; r < n; ++r) key[r] = r;
        return 1;
    case 4: /* scattered keys: node = r*7 mod 5 */
        for (int r = 0; r < n; ++r) key[r] = 100 + (r * 7) % 5;
        return n >= 5;
    default:
        return 0;
    }
}

static void check_nodes(void)
{
    int key[12] = { 5, 5, 9, 5, 9, 1, 1, 1, 9, 5, 2, 2 }, C, R, pos[12];
    scc_nodes_t nd;

    CHECK(0 == scc_nodes_build(&nd, 12, key, 0, 0), "build");
    CHECK(4 == nd.nnodes, "nodes %d", nd.nnodes);
    CHECK(0 == nd.node_of[0] && 1 == nd.node_of[2] && 2 == nd.node_of[5] && 3 == nd.node_of[10],
          "nodes numbered by lowest rank");
    CHECK(0 == nd.local_of[0] && 2 == nd.local_of[3] && 3 == nd.local_of[9], "local index");
    CHECK(4 == nd.maxper && 2 == nd.C && 2 == nd.R, "maxper %d grid %dx%d", nd.maxper, nd.C,
          nd.R);
    CHECK(9 == nd.members[nd.first[0] + 3] && 8 == nd.members[nd.first[1] + 2], "members");
    CHECK(3 == scc_nodes_leader(&nd, 0, 3) && 0 == scc_nodes_leader(&nd, 0, 2)
          && 2 == scc_nodes_leader(&nd, 1, -1), "leaders");
    scc_nodes_positions(&nd, pos);
    CHECK(pos[9] == 0 * 4 + 3 && pos[11] == 3 * 4 + 1, "positions");
    scc_nodes_free(&nd);
    CHECK(-1 == scc_nodes_build(&nd, 12, key, 3, 1), "a 3x1 grid cannot hold 4 nodes");
    CHECK(0 == scc_nodes_build(&nd, 12, key, 4, 1) && 4 == nd.C && 1 == nd.R, "4x1");
    scc_nodes_free(&nd);
    for (int k = 1; k <= 200; ++k) {
        scc_nodes_dims_auto(k, &C, &R);
        CHECK(C >= R && C * R >= k && (C - 1) * R < k + R, "dims of %d: %dx%d", k, C, R);
    }
    scc_nodes_dims_auto(6, &C, &R);
    CHECK(3 == C && 2 == R, "6 nodes: %dx%d", C, R);
}

/* The binomial trees and the dissemination barrier on their own. */
typedef struct farg {
    int kind, n, root;
    uint32_t nb;
} farg_t;

static int gen_flat(scc_sched_t *s, int rank, const void *ctx)
{
    const farg_t *a = ctx;
    switch (a->kind) {
    case 0: return scc_sched_binomial_bcast(s, a->n, rank, a->root, a->nb);
    case 1: return scc_sched_binomial_reduce(s, a->n, rank, a->root, a->nb);
    case 2: return scc_sched_binomial_barrier(s, a->n, rank);
    default: return scc_sched_dissem_barrier(s, a->n, rank);
    }
}

static void check_flat(void)
{
    static const replay_kind_t kinds[] = { REPLAY_BCAST, REPLAY_REDUCE, REPLAY_BARRIER,
                                           REPLAY_BARRIER };
    for (int n = 1; n <= 40; ++n) {
        for (int kind = 0; kind < 4; ++kind) {
            for (int root = 0; root < n; root += (kind >= 2 ? n : 1)) {
                farg_t a = { kind, n, root, kind < 2 ? 3u : 0u };
                replay_opts_t o;
                replay_result_t res;
                memset(&o, 0, sizeof(o));
                memset(&res, 0, sizeof(res));
                o.kind = kinds[kind];
                o.n = n;
                o.root = kind < 2 ? root : -1;
                o.nblocks = a.nb;
                nreplays++;
                CHECK(replay_run(&o, gen_flat, &a, &res), "kind %d n %d root %d: %s", kind, n,
                      root, res.why);
                CHECK(kind < 2 || res.barrier_complete, "kind %d n %d: incomplete", kind, n);
                if (3 == kind && n > 1) {
                    int lg = 0;
                    while ((1 << lg) < n) lg++;
                    CHECK(res.nrounds == (uint32_t) lg, "dissem n %d: %u rounds", n,
                          res.nrounds);
                }
                replay_free(&res);
            }
        }
    }
}

int main(void)
{
    static const int fan2[] = { 2 };
    static const struct {
        int kind;
        scc_inter_t inter;
    } combos[] = {
        { K_BCAST, SCC_INTER_BINOMIAL }, { K_BCAST, SCC_INTER_TREE }, { K_BCAST, SCC_INTER_JIA },
        { K_BCAST, SCC_INTER_DOPL }, { K_REDUCE, SCC_INTER_BINOMIAL },
        { K_REDUCE, SCC_INTER_TREE }, { K_ALLREDUCE, SCC_INTER_RING },
        { K_ALLREDUCE, SCC_INTER_BUTTERFLY }, { K_BARRIER, SCC_INTER_DISSEM },
        { K_BARRIER, SCC_INTER_BINOMIAL }, { K_ALLGATHER, SCC_INTER_RING },
        { K_ALLGATHER, SCC_INTER_DISSEM }, { K_GATHER, SCC_INTER_BINOMIAL },
        { K_SCATTER, SCC_INTER_BINOMIAL }, { K_ALLTOALL, SCC_INTER_RING },
    };
    static const uint32_t blocks[] = { 1, 2, 5, 13 };
    int key[64];

    check_nodes();
    check_flat();
    for (int n = 1; n <= 24; ++n) {
        for (int lay = 0; lay < 5; ++lay) {
            scc_nodes_t nd;
            if (!layout(lay, n, key) || 0 != scc_nodes_build(&nd, n, key, 0, 0)) {
                continue;
            }
            for (size_t c = 0; c < sizeof(combos) / sizeof(combos[0]); ++c) {
                harg_t a;
                memset(&a, 0, sizeof(a));
                a.h.nodes = &nd;
                a.h.inter = combos[c].inter;
                a.h.fanout = fan2;
                a.h.nlevels = 1;
                a.h.chunks_per_part = 2;
                a.kind = combos[c].kind;
                for (size_t bi = 0; bi < sizeof(blocks) / sizeof(blocks[0]); ++bi) {
                    a.nb = K_BARRIER == a.kind || K_ALLTOALL == a.kind ? 0 : blocks[bi];
                    for (int root = 0; root < n; ++root) {
                        a.root = root;
                        run(&a, knames[a.kind]);
                        if (!rooted(a.kind)) {
                            break;  /* rootless */
                        }
                    }
                    if (K_BARRIER == a.kind || K_ALLTOALL == a.kind) {
                        break;
                    }
                }
            }
            scc_nodes_free(&nd);
        }
    }
    printf("test_sched_hier: %ld replays, %ld steps\n", nreplays, nsteps_total);
    return unit_finish("test_sched_hier");
}
