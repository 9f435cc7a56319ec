/* scc_sim_model.h: the mesh model -- tiles, X-Y routes, and what one transfer costs. */
#ifndef SCC_SIM_MODEL_H
#define SCC_SIM_MODEL_H

#include <stdint.h>

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
 * touches footprint bytes in one call (also a first touch's miss fraction). */
double scc_sim_miss(const scc_sim_params_t *p, double footprint);

/* The cache state of one rank's buffers (cache_model = SCC_SIM_CACHE_STATE).
 * The seeds/000 benchmarks check and rewrite the whole buffer between calls, so
 * a call starts with cache/footprint of it resident: a block's first touch
 * misses in the fraction scc_sim_miss(footprint).  Afterwards the block is
 * resident until more than `cache` other bytes are touched (fully associative
 * LRU, counted in bytes).  Blocks are keys: (pass << 32) | block. */
typedef struct scc_sim_cache {
    double cache;              /* effective capacity, bytes */
    double cold;               /* miss fraction of a first touch */
    double clock;              /* bytes this rank touched so far */
    uint64_t *key;             /* open addressing, key + 1 (0 = empty) */
    double *last;              /* clock after the block's last touch */
    long cap, used;
} scc_sim_cache_t;

int scc_sim_cache_init(scc_sim_cache_t *c, const scc_sim_params_t *p, double footprint);
void scc_sim_cache_free(scc_sim_cache_t *c);
/* Touches bytes of block key (a read or a write; the SCC's L2 is assumed to
 * allocate on both) and returns how many of them missed. */
double scc_sim_cache_touch(scc_sim_cache_t *c, uint64_t key, double bytes);

/* Core time of a put of bytes into the own MPB: overhead and MPB writes (the
 * private-memory reads that miss are costed apart: scc_sim_mem_ns). */
double scc_sim_put_ns(const scc_sim_params_t *p, double bytes);
/* Core time of a get of bytes from an MPB hops away: overhead and remote line
 * reads (2 x router cycles per hop, plus hop_line_ns), plus the reduction when
 * reduce is set (private misses apart). */
double scc_sim_get_ns(const scc_sim_params_t *p, double bytes, int hops, int reduce);
/* Time the private memory needs for missed bytes. */
double scc_sim_mem_ns(const scc_sim_params_t *p, double missed);
/* From a flag write to the moment its poller hops away sees it. */
double scc_sim_flag_ns(const scc_sim_params_t *p, int hops);
/* Time a link is busy with the response packets of bytes (header + data flits
 * per line), and with their request packets (header flits per line). */
double scc_sim_link_ns(const scc_sim_params_t *p, double bytes);
double scc_sim_req_ns(const scc_sim_params_t *p, double bytes);
/* Time a tile's MPB port is busy with bytes. */
double scc_sim_port_ns(const scc_sim_params_t *p, double bytes);
/* Bytes rounded up to whole MPB lines. */
double scc_sim_lines(const scc_sim_params_t *p, double bytes);

/* A transfer's lines on a link or port held per line (SCC_SIM_HOLD_LINE): its
 * data phase [ds, de] needs w ns of the resource.  Lines of all transfers
 * interleave, so it ends no earlier than the resource can serve what was
 * booked before it plus its own w; *free_at books w.  Returns the end. */
double scc_sim_line_share(double *free_at, double ds, double de, double w);

/* How a copy overlaps the private-memory misses of its data with its MPB side. */
enum {
    SCC_SIM_OVERLAP_NONE = 0,  /* in turn: a blocking transfer (RCCE), or mem_overlap = 0 */
    SCC_SIM_OVERLAP_COPY = 1,  /* side by side within the copy: it takes the longer */
    SCC_SIM_OVERLAP_DRAIN = 2  /* a get's writes drain behind, one get's writes in flight */
};

/* A copy of the rank whose private-memory path is free at *mem_free: its MPB
 * side runs [ds, de] (already stretched by contention), its misses need mem
 * ns.  Returns when the core is done with it; *mem_free moves on. */
double scc_sim_private_done(double *mem_free, double ds, double de, double mem, int overlap);
/* Data time of a copy with MPB side a and misses m (no waiting). */
double scc_sim_overlap_ns(double a, double m, int overlap);

/* Per-line holding of a get's data phase [ds, de] of bytes: the sender's MPB
 * port (when port_hold is per line), the links of its route (response
 * packets, nl) and of the way back (requests, nb) when link_hold is per line.
 * link_busy accumulates each link's time.  Returns the stretched end. */
double scc_sim_line_shares(const scc_sim_params_t *p, double *port_free, double *link_free,
                           double *link_busy, const int *route, int nl, const int *back, int nb,
                           double ds, double de, double bytes);

/* Core time of a single-copy read (process_vm_readv) of bytes within a tile: overheads and
 * the copy, plus the reduction when reduce is set. */
double scc_sim_cma_get_ns(const scc_sim_params_t *p, double bytes, int reduce);

/* One message of bytes over the network, ready to leave at t, from a node whose port is
 * free to send from *out_free to one whose port is free to receive from *in_free.  A port
 * carries one message at a time each way: the message starts when the sender's port is free
 * and its receiver's will be when it arrives (lat later), holds both for gap + bytes * ns_b
 * and moves them on.  Returns when its last byte has arrived; *out_end: when the sender's
 * port is done with it (the send completes). */
double scc_sim_net_book(const scc_sim_params_t *p, double *out_free, double *in_free, double t,
                        double bytes, double *out_end);

#endif /* SCC_SIM_MODEL_H */
