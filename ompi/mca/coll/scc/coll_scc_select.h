/* coll_scc_select.h: which algorithm runs a collective -- pure C, no Open MPI include. */
#ifndef MCA_COLL_SCC_SELECT_H
#define MCA_COLL_SCC_SELECT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The collectives the component serves. */
typedef enum {
    SCC_COLL_BCAST = 0,
    SCC_COLL_BARRIER,
    SCC_COLL_REDUCE,
    SCC_COLL_ALLREDUCE,
    SCC_COLL_ALLTOALL,
    SCC_COLL_ALLTOALLV,
    SCC_COLL_GATHER,
    SCC_COLL_SCATTER,
    SCC_COLL_ALLGATHER,
    SCC_COLL_REDUCE_SCATTER_BLOCK,
    SCC_COLL_GATHERV,
    SCC_COLL_SCATTERV,
    SCC_COLL_ALLGATHERV,
    SCC_COLL_REDUCE_SCATTER,
    SCC_COLL_SCAN,
    SCC_COLL_EXSCAN,
    SCC_COLL_ALLTOALLW,
    SCC_COLL_COUNT
} scc_coll_t;

/* Algorithms.  Not every algorithm serves every collective: see scc_alg_valid(). */
typedef enum {
    SCC_ALG_AUTO = 0,      /* (parameter value) let the table decide */
    SCC_ALG_FALLBACK,      /* the module Open MPI would have used */
    SCC_ALG_TREE,          /* k-ary trees of seeds/004 */
    SCC_ALG_FLAT,          /* direct: every rank reads what it needs from its peers */
    SCC_ALG_JIA,           /* Jia's hypercube multiple-message broadcast */
    SCC_ALG_DOPL,          /* dimension-ordered pipelined broadcast */
    SCC_ALG_NOCMSG,        /* NoC_Msg mesh collectives */
    SCC_ALG_RING,          /* pipelined ring */
    SCC_ALG_BUTTERFLY,     /* recursive doubling, seeds/002 */
    SCC_ALG_DISSEM,        /* m-way dissemination barrier, seeds/004 */
    SCC_ALG_NOCMSG_FANIN,  /* the thesis's fan-in-only barrier: NOT an MPI barrier */
    SCC_ALG_BRUCK,         /* allgather across nodes: Bruck's dissemination between leaders */
    SCC_ALG_LEADERS,       /* across nodes: alltoall by each node's leader; the scans and
                              reductions in rank order */
    SCC_ALG_COUNT
} scc_alg_t;

/* How the processes of a communicator are laid out. */
typedef enum {
    SCC_TOPO_FLAT = 0,     /* a set of processes without a useful geometry */
    SCC_TOPO_MESH,         /* an SCC chip or a mesh the user described */
    SCC_TOPO_DOMAINS,      /* a grid built from hwloc domains x cores per domain */
    SCC_TOPO_NODES,        /* processes on several nodes: each node a tile (hierarchical) */
    SCC_TOPO_COUNT
} scc_topo_kind_t;

/* ---------------------------------------------------------------- */
/* The selection table: built once per communicator, read on every call. */

/* Ranges of message sizes per collective (the last one is open-ended). */
#define SCC_SELECT_MAX_RANGES 4

/* What the table is built from: thresholds and forced choices (MCA parameters). */
typedef struct scc_select_params {
    int force[SCC_COLL_COUNT];  /* scc_alg_t; SCC_ALG_AUTO lets the table decide */
    size_t line_max;            /* flat: up to this many bytes, the direct algorithms
                                   (the message fits the flag's cache line) */
    size_t tree_max;            /* flat: up to this, trees (bcast, reduce, allreduce) */
    size_t direct_min;          /* flat, more than two processes: allreduce from this size
                                   on runs the direct reduce-scatter + allgather (trees below) */
    size_t dopl_min;            /* mesh and domains: bcast from this on runs DOPL */
    size_t nodes_jia_min;       /* nodes: bcast from this on runs Jia between the leaders
                                   (binomial below) */
    size_t nodes_tree_min;      /* nodes: allreduce from this on reduces and broadcasts by
                                   binomial trees between the leaders (a butterfly below) */
    size_t nodes_ring_min;      /* nodes: allreduce from this on runs the ring between the
                                   leaders */
    size_t nodes_allgather_ring_min;    /* nodes: allgather from this on (bytes per rank)
                                   passes the parts round a ring of the leaders (Bruck below) */
    size_t nodes_alltoall_pairwise_min; /* nodes: alltoall from this on (bytes per block) runs
                                   the pairwise exchange (the leaders aggregate below) */
    size_t scan_ring_min;       /* one node: scan and exscan from this on run the pipelined
                                   chain in rank order (the direct algorithm below) */
    /* one node of many cores (README, Many cores; sim/results/cc.md): */
    int many_min;               /* flat and domains topologies of this many processes or
                                   more take the cache-coherent model's defaults for what
                                   the user did not set (given); 0 never */
    size_t butterfly_max;       /* many cores: allreduce up to this runs the butterfly
                                   (from 128 processes on 16384 unless given) */
    int barrier_radix;          /* coll_scc_barrier_radix (0: all others in one round) */
    uint32_t given;             /* SCC_GIVEN_* bits: parameters the user set, which keep
                                   their value at every process count */
    uint32_t unavailable;       /* bit (1 << alg): algorithms that cannot run on this
                                   communicator (not built, no transport): the table
                                   puts a schedule there instead of a direct algorithm
                                   (tree for flat, nocmsg for dissem), else the fallback */
} scc_select_params_t;

/* Parameters a user set (their source is not the default): the many-core defaults leave
 * them alone. */
#define SCC_GIVEN_LINE_MAX      (1u << 0)
#define SCC_GIVEN_TREE_MAX      (1u << 1)
#define SCC_GIVEN_DIRECT_MIN    (1u << 2)
#define SCC_GIVEN_DOPL_MIN      (1u << 3)
#define SCC_GIVEN_BUTTERFLY_MAX (1u << 4)
#define SCC_GIVEN_BARRIER_RADIX (1u << 5)

/* What the table needs to know of the communicator's placement. */
typedef struct scc_select_topo {
    scc_topo_kind_t kind;
    int n;                      /* processes */
    int grid_ok;                /* the DOPL grid has no holes but at the end of its last row */
    int maxper;                 /* nodes: processes on the fullest node */
} scc_select_topo_t;

typedef struct scc_select_entry {
    size_t max[SCC_SELECT_MAX_RANGES]; /* range i covers (max[i-1], max[i]]; unused ones SIZE_MAX */
    uint8_t alg[SCC_SELECT_MAX_RANGES];
    uint8_t nranges;
    uint8_t forced;             /* set by a coll_scc_<coll>_algorithm parameter */
    uint8_t coll;               /* the collective (scc_coll_t) this entry chooses for */
} scc_select_entry_t;

typedef struct scc_select_table {
    scc_select_entry_t coll[SCC_COLL_COUNT];
} scc_select_table_t;

/* The defaults the component registers (later benchmarks tune them). */
void scc_select_params_default(scc_select_params_t *p);

/* Algorithms collective c cannot run on a topology of this kind, whatever the transport
 * (bit 1 << alg): scc_select_build adds them to p->unavailable, forced ones go to the
 * fallback. */
uint32_t scc_select_topo_unavailable(scc_topo_kind_t kind, scc_coll_t c);

/* Fills t for a communicator of the given placement. */
void scc_select_build(scc_select_table_t *t, const scc_select_topo_t *topo,
                      const scc_select_params_t *p);

/* The algorithm for collective c with a message of `bytes` (the whole buffer
 * for bcast, reduce and allreduce; one process's block for the others; 0 for
 * barrier).  The hot path: three compares, no branch on the table's shape. */
static inline scc_alg_t scc_select(const scc_select_table_t *t, scc_coll_t c, size_t bytes)
{
    const scc_select_entry_t *e = &t->coll[c];
    int i = (bytes > e->max[0]) + (bytes > e->max[1]) + (bytes > e->max[2]);
    return (scc_alg_t) e->alg[i];
}

/* ---------------------------------------------------------------- */
/* Many cores on one node (coll_scc_select_many.c): the cache-coherent model's choices. */

/* Nonzero if the many-core defaults apply: one node (flat or domains), at least
 * p->many_min processes, many_min not 0. */
int scc_select_many(const scc_select_topo_t *topo, const scc_select_params_t *p);

/* The trees' fan-outs per level for many cores (sim/results/cc_fanouts.md): fills fanout
 * (up to 4 levels) and returns the number of levels; 0 where the many-core defaults do not
 * apply (the caller keeps scc_tree_fanout_auto's shapes). */
int scc_select_fanout(const scc_select_topo_t *topo, const scc_select_params_t *p,
                      int *fanout);

/* The dissemination barrier's radix to use (coll_scc_barrier_radix's meaning: 0 all others
 * in one round): 1 for many cores unless given, else p->barrier_radix. */
int scc_select_barrier_radix(const scc_select_topo_t *topo, const scc_select_params_t *p);

/* The largest allreduce the butterfly runs for many cores. */
size_t scc_select_butterfly_max(const scc_select_topo_t *topo, const scc_select_params_t *p);

/* Writes one collective's row as text, e.g. "<=8192 nocmsg | >8192 dopl";
 * returns the length it needed (snprintf's convention). */
int scc_select_format(const scc_select_table_t *t, scc_coll_t c, char *buf, size_t len);

const char *scc_coll_name(scc_coll_t c);
/* "Bcast", "Reduce_scatter_block": as in the MPI function names */
const char *scc_mpi_name(scc_coll_t c);
const char *scc_alg_name(scc_alg_t a);
const char *scc_topo_name(scc_topo_kind_t k);
/* Returns the algorithm named s (as printed by scc_alg_name), or -1. */
int scc_alg_from_name(const char *s);
/* Nonzero if algorithm a can run collective c. */
int scc_alg_valid(scc_coll_t c, scc_alg_t a);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COLL_SCC_SELECT_H */
