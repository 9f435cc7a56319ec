/* scc_sim_cluster.h: the cluster driver -- one collective call on nodes of c processes, the
 * component's hierarchical schedules (coll_scc_sched_hier.h) as it builds them, its modeled
 * time on a network of single-port nodes. */
#ifndef SCC_SIM_CLUSTER_H
#define SCC_SIM_CLUSTER_H

#include "coll_scc_nodes.h"
#include "coll_scc_sched_hier.h"
#include "coll_scc_select.h"
#include "scc_sim_params.h"

/* N nodes of c processes, ranks node by node (rank r on node r / c), the nodes on the
 * component's near-square grid (DOPL's). */
typedef struct scc_sim_cluster {
    int nodes, cores;
    scc_nodes_t nd;
} scc_sim_cluster_t;

int scc_sim_cluster_init(scc_sim_cluster_t *cl, int nodes, int cores);
void scc_sim_cluster_free(scc_sim_cluster_t *cl);

/* One call.  bcast: inter binomial, tree, jia or dopl; reduce: binomial or tree; allreduce:
 * ring or butterfly between the leaders, or binomial / tree as the component runs its
 * "tree" allreduce (a reduce to rank 0, then a bcast from it, each hierarchical); barrier:
 * dissem or binomial. */
typedef struct scc_sim_ccase {
    scc_coll_t coll;
    scc_inter_t inter;
    int fanout;                /* SCC_INTER_TREE: the fan-out at every level */
    int root;
    double bytes;              /* per rank */
    int no_cma;                /* the node's single copy does not work: the component's
                                  blocks without it (coll_scc_run.c) */
    double block_bytes;        /* 0: the component's */
    long max_blocks;           /* beyond this many blocks extrapolate from two shorter runs
                                  (rings: in whole turns); 0: never */
    int node_first;            /* a what-if, not the component's: each leader combines all of
                                  its node's blocks before its first step between nodes (the
                                  generator interleaves them, block by block, where needed) */
} scc_sim_ccase_t;

typedef struct scc_sim_cout {
    double t;                  /* the last rank finished */
    double t_root;
    double block_bytes;
    uint32_t nblocks;
    int extrapolated;
    long gets;                 /* messages read (network and node) */
    int failed;
} scc_sim_cout_t;

/* The component's block size for a call (coll_scc_run.c, restated: its executor's choice is
 * not a pure function the simulator could call); *copy: intra-node messages go through
 * slots, never single copy. */
double scc_sim_cluster_block(const scc_sim_ccase_t *c, int *copy);

/* Models one call.  Returns 0, or -1 when the schedule could not run (out->failed). */
int scc_sim_cluster_run(const scc_sim_params_t *p, const scc_sim_cluster_t *cl,
                        const scc_sim_ccase_t *c, scc_sim_cout_t *out);

#endif /* SCC_SIM_CLUSTER_H */
