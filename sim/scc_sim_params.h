/* scc_sim_params.h: the parameters of the mesh model, and how they are read from a file. */
#ifndef SCC_SIM_PARAMS_H
#define SCC_SIM_PARAMS_H

#include <stdio.h>

/* How long a transfer keeps the links of its route (and an MPB port). */
enum {
    SCC_SIM_HOLD_LINE = 0,     /* per 32-byte line packet: its lines interleave with other
                                  transfers' and it waits only when the link is saturated */
    SCC_SIM_HOLD_TRANSFER = 1  /* for the whole transfer: one reading of seeds/003 §1.5's
                                  "exclusive router and link access" */
};

/* What the private memory of a rank costs. */
enum {
    SCC_SIM_CACHE_FOOTPRINT = 0, /* every access misses in the fraction 1 - cache/footprint */
    SCC_SIM_CACHE_STATE = 1      /* from the state of the buffer: a first touch misses in that
                                    fraction, a re-touch only if more than `cache` bytes were
                                    touched since (LRU stack distance) */
};

/* When a SEND lets its core go on. */
enum {
    SCC_SIM_SYNC_EAGER = 0,    /* after the put: publish and go (the component's transports) */
    SCC_SIM_SYNC_BLOCKING = 1  /* after every reader consumed it (RCCE_send) */
};

/* All times are ns.  Every field is a double so that one table can read, print
 * and fit them; integer-valued fields are rounded where they are used. */
typedef struct scc_sim_params {
    /* geometry (facts) */
    double X, Y, K;            /* tiles along x, tiles along y, cores per tile */
    double mpb_bytes;          /* message-passing buffer per core */
    double line_bytes;         /* every MPB access moves whole lines */
    /* clocks and network (facts) */
    double core_mhz;
    double mesh_mhz;
    double router_cycles;      /* mesh cycles per router a packet crosses */
    double hop_line_ns;        /* a remote line read's extra ns per hop beyond its routers'
                                  (0 in the preset; a variant of the Cube study) */
    double link_bytes;         /* bytes a link moves per mesh cycle (flit width) */
    double header_flits;       /* flits of header per line-sized packet */
    double link_hold;          /* SCC_SIM_HOLD_* */
    double port_cycles_line;   /* mesh cycles the MPB port of a tile is busy per line */
    double port_hold;          /* SCC_SIM_HOLD_*: a port serves a transfer per line or whole */
    /* transport */
    double window;             /* messages a sender may have published and not consumed */
    double slot_bytes;         /* largest message sent in one piece; 0 = mpb_bytes / window */
    double sync;               /* SCC_SIM_SYNC_* */
    /* per-core costs (assumed or fitted) */
    double o_put;              /* per message (piece) at the sender: flags, bookkeeping */
    double o_get;              /* per message (piece) at the reader */
    double put_ns_b;           /* private memory -> own MPB, per byte, cache hit */
    double get_ns_b;           /* MPB on the same tile -> private memory, per byte, cache hit */
    double mem_ns_b;           /* extra per byte of private memory that misses the cache */
    double cache_bytes;        /* effective private cache */
    double cache_model;        /* SCC_SIM_CACHE_* */
    double mem_overlap;        /* SCC_SIM_OVERLAP_* of a non-blocking copy's misses (a
                                  blocking one, sync = 1, always takes them in turn) */
    double reduce_ns_b;        /* reduction arithmetic per byte of operand */
    double flag_ns;            /* a flag write seen by its poller, excluding router hops */
    /* within a tile, single copy (process_vm_readv): the reader copies straight from the
       sender's buffer, the sender copies nothing; 0 in the SCC preset (no single copy) */
    double cma_min;            /* messages of this size and more go single copy; 0 = never */
    double cma_ns_b;           /* a single-copy read, ns per byte (instead of get_ns_b) */
    double cma_o_get;          /* a single-copy read's extra reader overhead (a system call) */
    /* a cluster: each tile is a node, messages between tiles cross a network (net = 1);
       each node has one network port, one message in and one out at a time */
    double net;                /* 0: the mesh; 1: tiles are nodes on a network */
    double net_lat_ns;         /* one-way latency of a message */
    double net_ns_b;           /* a port's time per byte (1 / bandwidth) */
    double net_gap_ns;         /* a port's time per message beyond its bytes */
    double net_o_send;         /* sender core per message (one per reader on another node) */
    double net_o_recv;         /* reader core per message */
    double net_eager;          /* larger messages move once the reader is there (rendezvous) */
} scc_sim_params_t;

/* The SCC preset built into the program (the file sim/params/scc.conf repeats it
 * with the provenance of every number). */
void scc_sim_params_default(scc_sim_params_t *p);

/* Sets one parameter from "name=value" or (name, value).  Returns 0, or -1 with
 * a message on stderr. */
int scc_sim_params_set(scc_sim_params_t *p, const char *name, const char *value);
int scc_sim_params_assign(scc_sim_params_t *p, const char *assignment);

/* Reads "name = value" lines ('#' starts a comment).  Returns 0 or -1. */
int scc_sim_params_load(scc_sim_params_t *p, const char *path);

/* Writes every parameter as "name = value  # description". */
void scc_sim_params_print(const scc_sim_params_t *p, FILE *f);

/* Access by name for the fitter; NULL if unknown. */
double *scc_sim_params_field(scc_sim_params_t *p, const char *name);

/* Derived quantities. */
double scc_sim_hop_ns(const scc_sim_params_t *p);    /* one router crossed, one way */
double scc_sim_slot(const scc_sim_params_t *p);      /* bytes of one piece */

#endif /* SCC_SIM_PARAMS_H */
