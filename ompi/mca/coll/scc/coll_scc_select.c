/* coll_scc_select.c: names of collectives and algorithms, which algorithm can serve which
 * collective, and the per-communicator selection table. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "coll_scc_select.h"

static const char *const coll_names[SCC_COLL_COUNT] = {
    "bcast", "barrier", "reduce", "allreduce", "alltoall", "alltoallv",
    "gather", "scatter", "allgather", "reduce_scatter_block",
    "gatherv", "scatterv", "allgatherv", "reduce_scatter", "scan", "exscan", "alltoallw"
};

static const char *const mpi_names[SCC_COLL_COUNT] = {
    "Bcast", "Barrier", "Reduce", "Allreduce", "Alltoall", "Alltoallv",
    "Gather", "Scatter", "Allgather", "Reduce_scatter_block",
    "Gatherv", "Scatterv", "Allgatherv", "Reduce_scatter", "Scan", "Exscan", "Alltoallw"
};

static const char *const alg_names[SCC_ALG_COUNT] = {
    "auto", "fallback", "tree", "flat", "jia", "dopl", "nocmsg",
    "ring", "butterfly", "dissem", "nocmsg_fanin", "bruck", "leaders"
};

static const char *const topo_names[SCC_TOPO_COUNT] = { "flat", "mesh", "domains", "nodes" };

#define BIT(a) (1u << (a))

/* Algorithms each collective can run (auto and fallback always). */
static const uint32_t valid_algs[SCC_COLL_COUNT] = {
    [SCC_COLL_BCAST] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_TREE) | BIT(SCC_ALG_JIA) | BIT(SCC_ALG_DOPL)
                       | BIT(SCC_ALG_NOCMSG),
    [SCC_COLL_BARRIER] = BIT(SCC_ALG_DISSEM) | BIT(SCC_ALG_TREE) | BIT(SCC_ALG_NOCMSG)
                         | BIT(SCC_ALG_NOCMSG_FANIN),
    /* leaders: across nodes, the scans' leaders in rank order, then the result moved
       (coll_scc_reduction.c) */
    [SCC_COLL_REDUCE] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_TREE) | BIT(SCC_ALG_NOCMSG)
                        | BIT(SCC_ALG_LEADERS),
    [SCC_COLL_ALLREDUCE] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_TREE) | BIT(SCC_ALG_NOCMSG)
                           | BIT(SCC_ALG_BUTTERFLY) | BIT(SCC_ALG_RING) | BIT(SCC_ALG_LEADERS),
    [SCC_COLL_ALLTOALL] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_NOCMSG) | BIT(SCC_ALG_RING)
                          | BIT(SCC_ALG_LEADERS),
    [SCC_COLL_ALLTOALLV] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_NOCMSG) | BIT(SCC_ALG_RING),
    [SCC_COLL_GATHER] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_TREE),
    [SCC_COLL_SCATTER] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_TREE),
    [SCC_COLL_ALLGATHER] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_RING) | BIT(SCC_ALG_BRUCK),
    [SCC_COLL_REDUCE_SCATTER_BLOCK] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_RING)
                                      | BIT(SCC_ALG_LEADERS),
    [SCC_COLL_REDUCE_SCATTER] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_RING) | BIT(SCC_ALG_LEADERS),
    [SCC_COLL_SCAN] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_RING) | BIT(SCC_ALG_LEADERS),
    [SCC_COLL_EXSCAN] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_RING) | BIT(SCC_ALG_LEADERS),
    [SCC_COLL_ALLTOALLW] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_NOCMSG) | BIT(SCC_ALG_RING),
    /* ring: the v-variants as alltoallv's pairwise exchange; tree, bruck: across nodes, each
       part by its own size */
    [SCC_COLL_GATHERV] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_RING) | BIT(SCC_ALG_TREE),
    [SCC_COLL_SCATTERV] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_RING) | BIT(SCC_ALG_TREE),
    [SCC_COLL_ALLGATHERV] = BIT(SCC_ALG_FLAT) | BIT(SCC_ALG_RING) | BIT(SCC_ALG_BRUCK),
};

const char *scc_coll_name(scc_coll_t c)
{
    return (c >= 0 && c < SCC_COLL_COUNT) ? coll_names[c] : "?";
}

const char *scc_mpi_name(scc_coll_t c)
{
    return (c >= 0 && c < SCC_COLL_COUNT) ? mpi_names[c] : "?";
}

const char *scc_alg_name(scc_alg_t a)
{
    return (a >= 0 && a < SCC_ALG_COUNT) ? alg_names[a] : "?";
}

const char *scc_topo_name(scc_topo_kind_t k)
{
    return (k >= 0 && k < SCC_TOPO_COUNT) ? topo_names[k] : "?";
}

int scc_alg_from_name(const char *s)
{
    for (int a = 0; a < SCC_ALG_COUNT; ++a) {
        if (0 == strcmp(s, alg_names[a])) {
            return a;
        }
    }
    return -1;
}

int scc_alg_valid(scc_coll_t c, scc_alg_t a)
{
    if (c < 0 || c >= SCC_COLL_COUNT || a < 0 || a >= SCC_ALG_COUNT) {
        return 0;
    }
    if (SCC_ALG_AUTO == a || SCC_ALG_FALLBACK == a) {
        return 1;
    }
    return 0 != (valid_algs[c] & BIT(a));
}

/* ---------------------------------------------------------------- the table */

/* Defaults, to be tuned by test/bench: a 64-byte line less its sequence flag;
 * trees while a message is a few 8 KB buffers; DOPL from one SCC part (8 KB,
 * seeds/000 §6.3) on; the ring where bandwidth dominates. */
void scc_select_params_default(scc_select_params_t *p)
{
    for (int c = 0; c < SCC_COLL_COUNT; ++c) {
        p->force[c] = SCC_ALG_AUTO;
    }
    p->line_max = 56;
    p->tree_max = 8192;
    p->direct_min = 1048576;
    p->dopl_min = 8192;
    /* sim/results/thresholds_cluster.md: the smallest worst loss over 3..1024 nodes (Jia,
       ring); the butterfly's blocks are copies of at most a slot (64 KB), so beyond two it
       pays a latency per slot (README, Clusters: measured on emulated nodes) */
    p->nodes_jia_min = 32768;
    p->nodes_tree_min = 131072;
    p->nodes_ring_min = 2097152;
    p->nodes_allgather_ring_min = 1048576;
    /* emulated nodes (README, Clusters): the leaders' alltoall 0.4-0.7 of the pairwise
       exchange to 4 KB at 2 x 2 and 2 x 3; at 8 KB a 2 x 3 step no longer fits one slot */
    p->nodes_alltoall_pairwise_min = 8192;
    /* README, Tuning: the chain passes the direct reads where rank n-1's n combines cost
       more than n - 1 hand-offs of a piece */
    p->scan_ring_min = 65536;
    /* the defaults above were measured at 2 to 8 processes; from 16 on the cache-coherent
       model's maps decide (sim/results/cc.md, README: Many cores) */
    p->many_min = 16;
    /* the butterfly against the direct allreduce on the model, 2-32 KiB (README: Many cores) */
    p->butterfly_max = 8192;
    p->barrier_radix = 0;
    p->given = 0;
    p->unavailable = 0;
}

/* Appends range (previous max, max] running alg: empty ranges vanish, equal
 * neighbours merge, unavailable algorithms become the fallback. */
static void add_range(scc_select_entry_t *e, const scc_select_params_t *p, size_t max,
                      scc_alg_t alg)
{
    int last = e->nranges - 1;

    /* without shared memory the direct algorithms give way to schedules */
    if (SCC_ALG_FLAT == alg && (p->unavailable & BIT(SCC_ALG_FLAT))
        && !(p->unavailable & BIT(SCC_ALG_TREE)) && e->coll < SCC_COLL_ALLTOALL
        && e->coll != SCC_COLL_BARRIER) {
        alg = SCC_ALG_TREE;
    } else if (SCC_ALG_FLAT == alg && (p->unavailable & BIT(SCC_ALG_FLAT))
               && (SCC_COLL_SCAN == e->coll || SCC_COLL_EXSCAN == e->coll
                   || SCC_COLL_GATHERV == e->coll || SCC_COLL_SCATTERV == e->coll
                   || SCC_COLL_ALLGATHERV == e->coll)) {
        /* the scans' chain and the v-variants' pairwise exchange run over any transport */
        alg = SCC_ALG_RING;
    } else if (SCC_ALG_DISSEM == alg && (p->unavailable & BIT(SCC_ALG_DISSEM))
               && !(p->unavailable & BIT(SCC_ALG_NOCMSG))) {
        alg = SCC_ALG_NOCMSG;
    }
    if (alg != SCC_ALG_FALLBACK && (p->unavailable & BIT(alg))) {
        alg = SCC_ALG_FALLBACK;
    }
    if (last >= 0 && max <= e->max[last]) {
        return;
    }
    if (last >= 0 && e->alg[last] == (uint8_t) alg) {
        e->max[last] = max;
        return;
    }
    if (e->nranges == SCC_SELECT_MAX_RANGES) {
        /* cannot happen with the rules below; keep the table well formed */
        e->max[last] = max;
        return;
    }
    e->max[e->nranges] = max;
    e->alg[e->nranges] = (uint8_t) alg;
    e->nranges++;
}

/* The automatic choice for collective c on a placement. */
/* The last size below a "from this size on" threshold. */
static size_t below(size_t min)
{
    return min > 0 ? min - 1 : 0;
}

/* Several nodes: the hierarchical schedules (each node a tile, its leader the one process
 * that talks to other nodes); what needs one shared memory for all goes to the fallback. */
static void node_ranges(scc_select_entry_t *e, scc_coll_t c, const scc_select_topo_t *topo,
                        const scc_select_params_t *p)
{
    switch (c) {
    case SCC_COLL_BCAST:
        add_range(e, p, below(p->nodes_jia_min), SCC_ALG_TREE);
        add_range(e, p, SIZE_MAX, SCC_ALG_JIA);
        break;
    case SCC_COLL_BARRIER:
        add_range(e, p, SIZE_MAX, SCC_ALG_DISSEM);
        break;
    case SCC_COLL_REDUCE:
        add_range(e, p, SIZE_MAX, SCC_ALG_TREE);
        break;
    case SCC_COLL_ALLREDUCE:
        add_range(e, p, below(p->nodes_tree_min), SCC_ALG_BUTTERFLY);
        add_range(e, p, below(p->nodes_ring_min), SCC_ALG_TREE);
        add_range(e, p, SIZE_MAX, SCC_ALG_RING);
        break;
    case SCC_COLL_ALLGATHER:
        add_range(e, p, below(p->nodes_allgather_ring_min), SCC_ALG_BRUCK);
        add_range(e, p, SIZE_MAX, SCC_ALG_RING);
        break;
    case SCC_COLL_ALLTOALL:
        /* small blocks: one message per pair of nodes (nothing to gather with one process
           per node); then the pairwise exchange */
        if (topo->maxper > 1) {
            add_range(e, p, below(p->nodes_alltoall_pairwise_min), SCC_ALG_LEADERS);
        }
        add_range(e, p, SIZE_MAX, SCC_ALG_RING);
        break;
    case SCC_COLL_ALLGATHERV:
        /* the leaders' Bruck, each part by its own size (the pairwise exchange where one
           dwarfs the others: coll_scc_run_vnodes.c) */
        add_range(e, p, SIZE_MAX, SCC_ALG_BRUCK);
        break;
    case SCC_COLL_REDUCE_SCATTER_BLOCK:
    case SCC_COLL_REDUCE_SCATTER:
    case SCC_COLL_ALLTOALLV:
    case SCC_COLL_ALLTOALLW:
        /* alltoallv, alltoallw: the pairwise exchange */
        add_range(e, p, SIZE_MAX, SCC_ALG_RING);
        break;
    case SCC_COLL_SCAN:
    case SCC_COLL_EXSCAN:
        /* each node's runs of ranks directly, their results passed on between nodes */
        add_range(e, p, SIZE_MAX, SCC_ALG_LEADERS);
        break;
    case SCC_COLL_GATHER:
    case SCC_COLL_SCATTER:
    case SCC_COLL_GATHERV:
    case SCC_COLL_SCATTERV:
        /* leader aggregation, the leaders' binomial tree (the v-variants: each part by its
           own size, the pairwise exchange where one dwarfs the others) */
        add_range(e, p, SIZE_MAX, SCC_ALG_TREE);
        break;
    default:
        add_range(e, p, SIZE_MAX, SCC_ALG_FALLBACK);
        break;
    }
}

/* Many cores on one node: the cache-coherent model's maps (sim/results/cc.md) -- trees
 * rather than the root's line read by every process, no DOPL (it never wins there), the
 * butterfly for small allreduces, the 2-way dissemination barrier.  A threshold the user
 * set keeps its range.  Returns 0 for the collectives the maps do not cover. */
static int many_ranges(scc_select_entry_t *e, scc_coll_t c, const scc_select_topo_t *topo,
                       const scc_select_params_t *p)
{
    const uint32_t g = p->given;

    switch (c) {
    case SCC_COLL_BCAST:
        if (g & SCC_GIVEN_LINE_MAX) {
            add_range(e, p, p->line_max, SCC_ALG_FLAT);
        }
        if ((g & SCC_GIVEN_DOPL_MIN) && topo->grid_ok && SCC_TOPO_DOMAINS == topo->kind) {
            add_range(e, p, below(p->dopl_min), SCC_ALG_TREE);
            add_range(e, p, SIZE_MAX, SCC_ALG_DOPL);
        } else {
            add_range(e, p, SIZE_MAX, SCC_ALG_TREE);
        }
        return 1;
    case SCC_COLL_REDUCE:
        /* the maps' allreduce: the tree's reduce beats every rank reading n - 1 lines */
        if (g & SCC_GIVEN_LINE_MAX) {
            add_range(e, p, p->line_max, SCC_ALG_FLAT);
        }
        add_range(e, p, SIZE_MAX, SCC_ALG_TREE);
        return 1;
    case SCC_COLL_ALLREDUCE:
        if (g & SCC_GIVEN_TREE_MAX) {
            add_range(e, p, p->tree_max, SCC_ALG_FLAT);
        }
        if (scc_select_butterfly_max(topo, p) > 0) {
            add_range(e, p, scc_select_butterfly_max(topo, p), SCC_ALG_BUTTERFLY);
        }
        /* either given says where the trees end or begin: they come back between */
        if (g & (SCC_GIVEN_DIRECT_MIN | SCC_GIVEN_TREE_MAX)) {
            add_range(e, p, below(p->direct_min), SCC_ALG_TREE);
        }
        add_range(e, p, SIZE_MAX, SCC_ALG_FLAT);
        return 1;
    case SCC_COLL_BARRIER:
        add_range(e, p, SIZE_MAX, SCC_ALG_DISSEM);
        return 1;
    default:
        return 0;
    }
}

static void auto_ranges(scc_select_entry_t *e, scc_coll_t c, const scc_select_topo_t *topo,
                        const scc_select_params_t *p)
{
    if (SCC_TOPO_NODES == topo->kind) {
        node_ranges(e, c, topo, p);
        return;
    }
    if (scc_select_many(topo, p) && many_ranges(e, c, topo, p)) {
        return;
    }
    const int mesh = (SCC_TOPO_MESH == topo->kind);
    const int grid = (SCC_TOPO_MESH == topo->kind || SCC_TOPO_DOMAINS == topo->kind)
                     && topo->grid_ok;
    /* two processes: one exchange; the direct algorithms are the whole story */
    const int pair = topo->n <= 2;

    switch (c) {
    case SCC_COLL_BCAST:
        if (mesh) {
            add_range(e, p, below(p->dopl_min), SCC_ALG_NOCMSG);
            add_range(e, p, SIZE_MAX, grid ? SCC_ALG_DOPL : SCC_ALG_NOCMSG);
        } else if (pair) {
            add_range(e, p, SIZE_MAX, SCC_ALG_FLAT);
        } else {
            /* measured (README, Tuning): pipelined trees beat Jia and the direct reads
               from the root above a line; domains of a machine take DOPL when large */
            add_range(e, p, p->line_max, SCC_ALG_FLAT);
            if (grid && SCC_TOPO_DOMAINS == topo->kind) {
                add_range(e, p, below(p->dopl_min), SCC_ALG_TREE);
                add_range(e, p, SIZE_MAX, SCC_ALG_DOPL);
            } else {
                add_range(e, p, SIZE_MAX, SCC_ALG_TREE);
            }
        }
        break;
    case SCC_COLL_BARRIER:
        /* the flag tree lets the root out first: a broadcast after it finds its
           readers still arriving (README, Tuning) */
        add_range(e, p, SIZE_MAX, mesh ? SCC_ALG_NOCMSG : SCC_ALG_TREE);
        break;
    case SCC_COLL_REDUCE:
        if (mesh) {
            add_range(e, p, SIZE_MAX, SCC_ALG_NOCMSG);
        } else {
            add_range(e, p, p->line_max, SCC_ALG_FLAT);
            add_range(e, p, SIZE_MAX, SCC_ALG_TREE);
        }
        break;
    case SCC_COLL_ALLREDUCE:
        if (mesh) {
            add_range(e, p, SIZE_MAX, SCC_ALG_NOCMSG);
        } else if (pair) {
            add_range(e, p, SIZE_MAX, SCC_ALG_FLAT);
        } else {
            add_range(e, p, p->tree_max, SCC_ALG_FLAT);
            add_range(e, p, below(p->direct_min), SCC_ALG_TREE);
            add_range(e, p, SIZE_MAX, SCC_ALG_FLAT);
        }
        break;
    case SCC_COLL_ALLTOALL:
    case SCC_COLL_ALLTOALLV:
    case SCC_COLL_ALLTOALLW:
        add_range(e, p, SIZE_MAX, mesh ? SCC_ALG_NOCMSG : SCC_ALG_FLAT);
        break;
    case SCC_COLL_GATHER:
    case SCC_COLL_SCATTER:
    case SCC_COLL_ALLGATHER:
    case SCC_COLL_REDUCE_SCATTER_BLOCK:
    case SCC_COLL_REDUCE_SCATTER:
    case SCC_COLL_GATHERV:
    case SCC_COLL_SCATTERV:
    case SCC_COLL_ALLGATHERV:
        add_range(e, p, SIZE_MAX, SCC_ALG_FLAT);
        break;
    case SCC_COLL_SCAN:
    case SCC_COLL_EXSCAN:
        /* two processes: one hand-off either way */
        add_range(e, p, pair ? SIZE_MAX : below(p->scan_ring_min), SCC_ALG_FLAT);
        add_range(e, p, SIZE_MAX, SCC_ALG_RING);
        break;
    default:
        add_range(e, p, SIZE_MAX, SCC_ALG_FALLBACK);
        break;
    }
}

uint32_t scc_select_topo_unavailable(scc_topo_kind_t kind, scc_coll_t c)
{
    /* Bruck's allgather, the leaders' alltoall and the trees of gather and scatter run
       between node leaders only */
    if (SCC_TOPO_NODES == kind) {
        return 0;
    }
    return BIT(SCC_ALG_BRUCK) | BIT(SCC_ALG_LEADERS)
           | (SCC_COLL_GATHER == c || SCC_COLL_SCATTER == c || SCC_COLL_GATHERV == c
              || SCC_COLL_SCATTERV == c ? BIT(SCC_ALG_TREE) : 0);
}

void scc_select_build(scc_select_table_t *t, const scc_select_topo_t *topo,
                      const scc_select_params_t *params)
{
    scc_select_params_t pp = *params;
    const scc_select_params_t *p = &pp;

    memset(t, 0, sizeof(*t));
    for (int c = 0; c < SCC_COLL_COUNT; ++c) {
        scc_select_entry_t *e = &t->coll[c];
        int f = p->force[c];

        pp.unavailable = params->unavailable | scc_select_topo_unavailable(topo->kind,
                                                                           (scc_coll_t) c);
        e->coll = (uint8_t) c;
        if (f != SCC_ALG_AUTO && scc_alg_valid((scc_coll_t) c, (scc_alg_t) f)) {
            add_range(e, p, SIZE_MAX, (scc_alg_t) f);
            e->forced = 1;
        } else {
            auto_ranges(e, (scc_coll_t) c, topo, p);
        }
        /* the last range is open-ended; unused slots repeat it */
        e->max[e->nranges - 1] = SIZE_MAX;
        for (int i = e->nranges; i < SCC_SELECT_MAX_RANGES; ++i) {
            e->max[i] = SIZE_MAX;
            e->alg[i] = e->alg[e->nranges - 1];
        }
    }
}

int scc_select_format(const scc_select_table_t *t, scc_coll_t c, char *buf, size_t len)
{
    const scc_select_entry_t *e = &t->coll[c];
    size_t used = 0;
    int n;

#define SCC_FMT(...)                                                             \
    do {                                                                         \
        n = snprintf(buf + (used < len ? used : len), used < len ? len - used : 0, __VA_ARGS__); \
        used += (n > 0 ? (size_t) n : 0);                                        \
    } while (0)

    if (len > 0) {
        buf[0] = '\0';
    }
    for (int i = 0; i < e->nranges; ++i) {
        const char *alg = scc_alg_name((scc_alg_t) e->alg[i]);
        const char *sep = i ? " | " : "";
        if (1 == e->nranges) {
            SCC_FMT("%s", alg);
        } else if (0 == i) {
            SCC_FMT("<=%zu %s", e->max[i], alg);
        } else if (i == e->nranges - 1) {
            SCC_FMT("%s>%zu %s", sep, e->max[i - 1], alg);
        } else {
            SCC_FMT("%s%zu..%zu %s", sep, e->max[i - 1] + 1, e->max[i], alg);
        }
    }
    if (e->forced) {
        SCC_FMT(" (forced)");
    }
#undef SCC_FMT
    return (int) used;
}
