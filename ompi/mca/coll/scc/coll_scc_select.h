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
    SCC_COLL_COUNT
} scc_coll_t;

/* Algorithms.  Not every algorithm serves every collective: see scc_alg_valid(). */
typedef enum {
    SCC_ALG_AUTO = 0,      /* (parameter value) let the table decide */
    SCC_ALG_FALLBACK,      /* the module Open MPI would have used */
    SCC_ALG_LINE,          /* one-cache-line flag protocol for tiny messages */
    SCC_ALG_TREE,          /* k-ary trees of seeds/004 */
    SCC_ALG_FLAT,          /* direct: every rank reads what it needs from its peers */
    SCC_ALG_JIA,           /* Jia's hypercube multiple-message broadcast */
    SCC_ALG_DOPL,          /* dimension-ordered pipelined broadcast */
    SCC_ALG_NOCMSG,        /* NoC_Msg mesh collectives */
    SCC_ALG_RING,          /* pipelined ring */
    SCC_ALG_BUTTERFLY,     /* recursive doubling, seeds/002 */
    SCC_ALG_DISSEM,        /* m-way dissemination barrier, seeds/004 */
    SCC_ALG_NOCMSG_FANIN,  /* the thesis's fan-in-only barrier: NOT an MPI barrier */
    SCC_ALG_COUNT
} scc_alg_t;

/* How the processes of a communicator are laid out. */
typedef enum {
    SCC_TOPO_FLAT = 0,     /* a set of processes without a useful geometry */
    SCC_TOPO_MESH,         /* an SCC chip or a mesh the user described */
    SCC_TOPO_DOMAINS,      /* a grid built from hwloc domains x cores per domain */
    SCC_TOPO_COUNT
} scc_topo_kind_t;

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
