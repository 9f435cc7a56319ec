/* scc_sim_model.h: the mesh model -- tiles, X-Y routes, and what one transfer costs. */
#ifndef SCC_SIM_MODEL_H
#define SCC_SIM_MODEL_H

#include "scc_sim_params.h"

/* Directions of a tile's outgoing links. */
enum { SCC_SIM_EAST = 0, SCC_SIM_WEST, SCC_SIM_NORTH, SCC_SIM_SOUTH };

/* Ranks on a mesh of X x Y tiles with K cores each, numbered as the SCC numbers
 * its cores (seeds/003 §1.7): rank = tile * K + core, tile = y * X + x. */
typedef struct scc_sim_mesh {
    int X, Y, K;
    int n;          /* ranks placed: the first n cores */
    int *tile_of;   /* n */
    int *core_of;   /* n */
    int *at;        /* X*Y*K: rank or -1 */
} scc_sim_mesh_t;

int scc_sim_mesh_init(scc_sim_mesh_t *m, int X, int Y, int K, int n);
void scc_sim_mesh_free(scc_sim_mesh_t *m);

static inline int scc_sim_tile_x(int X, int tile) { return tile % X; }
static inline int scc_sim_tile_y(int X, int tile) { return tile / X; }

/* Links between tiles crossed from tile a to tile b (0 on one tile). */
int scc_sim_hops(int X, int a, int b);

/* Directed link leaving tile t in direction dir. */
static inline int scc_sim_link(int t, int dir) { return t * 4 + dir; }

/* The X-Y route from tile a to tile b: x first, then y.  Writes the links into
 * links[] (room for X+Y entries) and returns how many. */
int scc_sim_route(int X, int a, int b, int *links);

/* Fraction of private-memory bytes that miss the effective cache when a rank
 * touches footprint bytes in one call. */
double scc_sim_miss(const scc_sim_params_t *p, double footprint);

/* Core time of a put of bytes from private memory into the own MPB. */
double scc_sim_put_ns(const scc_sim_params_t *p, double bytes, double miss);
/* Core time of a get of bytes from an MPB hops away into private memory,
 * reduced into the local operand when reduce is set. */
double scc_sim_get_ns(const scc_sim_params_t *p, double bytes, int hops, double miss, int reduce);
/* From a flag write to the moment its poller hops away sees it. */
double scc_sim_flag_ns(const scc_sim_params_t *p, int hops);
/* Time a link is busy with the flits of bytes. */
double scc_sim_link_ns(const scc_sim_params_t *p, double bytes);
/* Time a tile's MPB port is busy with bytes. */
double scc_sim_port_ns(const scc_sim_params_t *p, double bytes);
/* Bytes rounded up to whole MPB lines. */
double scc_sim_lines(const scc_sim_params_t *p, double bytes);

#endif /* SCC_SIM_MODEL_H */
