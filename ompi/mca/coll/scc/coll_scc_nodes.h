/* coll_scc_nodes.h: the processes of a communicator grouped by node, and the nodes placed on
 * a grid -- pure C, no Open MPI include (the schedules, the unit tests and the simulator use
 * it).  A node is a tile of the mesh: its processes are its cores. */
#ifndef MCA_COLL_SCC_NODES_H
#define MCA_COLL_SCC_NODES_H

#include "coll_scc_sched.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct scc_nodes {
    int n;              /* processes */
    int nnodes;
    int *node_of;       /* n: node index; nodes are numbered in the order of their lowest rank */
    int *local_of;      /* n: index of the process within its node, in rank order */
    int *first;         /* nnodes + 1: where each node's processes start in members */
    int *members;       /* n: the ranks of node 0, then node 1, ..., each in rank order */
    int maxper;         /* processes on the fullest node */
    int C, R;           /* the node grid: C columns, R rows; node i at (i % C, i / C) */
    scc_grid_t grid;    /* the same grid as DOPL takes it: cell = node index, -1 a hole */
    int *grid_at, *grid_row, *grid_col;
} scc_nodes_t;

/* Groups n processes by node: key[r] is the same for processes of one node and differs
 * between nodes (any ints).  C x R: the node grid, 0 x 0 for near-square (C >= R, as few
 * holes as can be).  Returns 0, -1 when the grid has fewer cells than there are nodes or
 * the input is bad, -2 when out of memory (nd is then empty: scc_nodes_free is safe). */
int scc_nodes_build(scc_nodes_t *nd, int n, const int *key, int C, int R);
void scc_nodes_free(scc_nodes_t *nd);

/* The near-square grid for k nodes: C columns >= R rows, C * R >= k, C - R smallest. */
void scc_nodes_dims_auto(int k, int *C, int *R);

/* The process that stands for node `node` in a collective rooted at root: the root on its
 * own node, else the node's lowest rank.  root < 0: the lowest rank everywhere. */
static inline int scc_nodes_leader(const scc_nodes_t *nd, int node, int root)
{
    if (root >= 0 && nd->node_of[root] == node) {
        return root;
    }
    return nd->members[nd->first[node]];
}

/* Where each rank sits on the nodes' mesh for scc_mesh_build: tile = node index (the node
 * grid's own numbering), core = the rank's index within its node: pos[r] = node * maxper +
 * local. */
void scc_nodes_positions(const scc_nodes_t *nd, int *pos);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COLL_SCC_NODES_H */
