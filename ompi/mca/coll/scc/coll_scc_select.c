/* coll_scc_select.c: names of collectives and algorithms, and which algorithm serves which collective. */
#include <string.h>

#include "coll_scc_select.h"

static const char *const coll_names[SCC_COLL_COUNT] = {
    "bcast", "barrier", "reduce", "allreduce", "alltoall", "alltoallv",
    "gather", "scatter", "allgather", "reduce_scatter_block"
};

static const char *const mpi_names[SCC_COLL_COUNT] = {
    "Bcast", "Barrier", "Reduce", "Allreduce", "Alltoall", "Alltoallv",
    "Gather", "Scatter", "Allgather", "Reduce_scatter_block"
};

static const char *const alg_names[SCC_ALG_COUNT] = {
    "auto", "fallback", "line", "tree", "flat", "jia", "dopl", "nocmsg",
    "ring", "butterfly", "dissem", "nocmsg_fanin"
};

static const char *const topo_names[SCC_TOPO_COUNT] = { "flat", "mesh", "domains" };

#define BIT(a) (1u << (a))

/* Algorithms each collective can run (auto and fallback always). */
static const uint32_t valid_algs[SCC_COLL_COUNT] = {
    [SCC_COLL_BCAST] = BIT(SCC_ALG_FLAT),
    [SCC_COLL_BARRIER] = BIT(SCC_ALG_DISSEM),
    [SCC_COLL_REDUCE] = BIT(SCC_ALG_FLAT),
    [SCC_COLL_ALLREDUCE] = BIT(SCC_ALG_FLAT),
    [SCC_COLL_ALLTOALL] = BIT(SCC_ALG_FLAT),
    [SCC_COLL_ALLTOALLV] = BIT(SCC_ALG_FLAT),
    [SCC_COLL_GATHER] = BIT(SCC_ALG_FLAT),
    [SCC_COLL_SCATTER] = BIT(SCC_ALG_FLAT),
    [SCC_COLL_ALLGATHER] = BIT(SCC_ALG_FLAT),
    [SCC_COLL_REDUCE_SCATTER_BLOCK] = BIT(SCC_ALG_FLAT),
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
