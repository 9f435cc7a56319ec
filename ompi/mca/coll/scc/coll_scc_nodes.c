/* coll_scc_nodes.c: processes grouped by node, nodes on a grid (pure C). */
#include <stdlib.h>
#include <string.h>

#include "coll_scc_nodes.h"

void scc_nodes_dims_auto(int k, int *C, int *R)
{
    int best_c = k > 0 ? k : 1, best_r = 1;

    for (int r = 1; r * r <= k; ++r) {
        int c = (k + r - 1) / r;
        /* squarer first, then fewer holes */
        if (c - r < best_c - best_r
            || (c - r == best_c - best_r && c * r < best_c * best_r)) {
            best_c = c;
            best_r = r;
        }
    }
    *C = best_c;
    *R = best_r;
}

void scc_nodes_free(scc_nodes_t *nd)
{
    free(nd->node_of);
    free(nd->local_of);
    free(nd->first);
    free(nd->members);
    free(nd->grid_at);
    free(nd->grid_row);
    free(nd->grid_col);
    memset(nd, 0, sizeof(*nd));
}

int scc_nodes_build(scc_nodes_t *nd, int n, const int *key, int C, int R)
{
    int *count;

    memset(nd, 0, sizeof(*nd));
    if (n < 1 || NULL == key || C < 0 || R < 0 || (0 == C) != (0 == R)) {
        return -1;
    }
    nd->n = n;
    nd->node_of = malloc(n * sizeof(int));
    nd->local_of = malloc(n * sizeof(int));
    nd->members = malloc(n * sizeof(int));
    nd->first = malloc((n + 1) * sizeof(int));
    count = calloc(n + 1, sizeof(int));
    if (NULL == nd->node_of || NULL == nd->local_of || NULL == nd->members
        || NULL == nd->first || NULL == count) {
        free(count);
        scc_nodes_free(nd);
        return -2;
    }
    /* a node is numbered when its lowest rank is met; O(n * nodes), once per communicator */
    for (int r = 0; r < n; ++r) {
        int node = -1;
        for (int q = 0; q < r && node < 0; ++q) {
            if (key[q] == key[r]) {
                node = nd->node_of[q];
            }
        }
        if (node < 0) {
            node = nd->nnodes++;
        }
        nd->node_of[r] = node;
        nd->local_of[r] = count[node]++;
        if (count[node] > nd->maxper) {
            nd->maxper = count[node];
        }
    }
    nd->first[0] = 0;
    for (int i = 0; i < nd->nnodes; ++i) {
        nd->first[i + 1] = nd->first[i] + count[i];
    }
    for (int r = 0; r < n; ++r) {
        nd->members[nd->first[nd->node_of[r]] + nd->local_of[r]] = r;
    }
    free(count);

    if (0 == C) {
        scc_nodes_dims_auto(nd->nnodes, &C, &R);
    }
    if ((long) C * R < nd->nnodes) {
        scc_nodes_free(nd);
        return -1;
    }
    nd->C = C;
    nd->R = R;
    nd->grid_at = malloc((size_t) C * R * sizeof(int));
    nd->grid_row = malloc(nd->nnodes * sizeof(int));
    nd->grid_col = malloc(nd->nnodes * sizeof(int));
    if (NULL == nd->grid_at || NULL == nd->grid_row || NULL == nd->grid_col) {
        scc_nodes_free(nd);
        return -2;
    }
    for (int cell = 0; cell < C * R; ++cell) {
        nd->grid_at[cell] = cell < nd->nnodes ? cell : -1;
    }
    for (int i = 0; i < nd->nnodes; ++i) {
        nd->grid_row[i] = i / C;
        nd->grid_col[i] = i % C;
    }
    nd->grid.R = R;
    nd->grid.C = C;
    nd->grid.n = nd->nnodes;
    nd->grid.at = nd->grid_at;
    nd->grid.row = nd->grid_row;
    nd->grid.col = nd->grid_col;
    return 0;
}

void scc_nodes_positions(const scc_nodes_t *nd, int *pos)
{
    for (int r = 0; r < nd->n; ++r) {
        pos[r] = nd->node_of[r] * nd->maxper + nd->local_of[r];
    }
}
