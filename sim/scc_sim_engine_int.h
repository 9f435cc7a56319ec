/* scc_sim_engine_int.h: the event engine's state, shared by its mesh part (scc_sim_engine.c)
 * and its network part (scc_sim_engine_net.c); not for the drivers. */
#ifndef SCC_SIM_ENGINE_INT_H
#define SCC_SIM_ENGINE_INT_H

#include "scc_sim_engine.h"
#include "scc_sim_model.h"

/* A published message (one SEND step of one pass). */
typedef struct msg {
    double t_pub;        /* sender finished the put of the first piece */
    double t_cons;       /* every reader done and its acknowledgement seen by the sender */
    double t_send_end;   /* streamed message: sender's last put done */
    double bytes;
    double rd_b;         /* the sender's private read misses, ns per byte of the message */
    int32_t left;        /* readers still to read; -1 while unpublished */
    int32_t waiters;     /* first reader waiting for publication (chained by rank.next_wait) */
    int32_t cons_waiter; /* the sender, when it waits for this message to be consumed */
    uint8_t stream;      /* bigger than a slot: sender and reader stream it piece by piece */
    uint8_t wake_send_end; /* the waiting sender resumes at t_send_end, not t_cons */
    uint8_t cma;         /* single copy: the readers copy from the sender's buffer */
} msg_t;

typedef struct rank {
    long pc;             /* step index over all passes */
    long nsent;          /* messages published so far, all passes */
    double t;            /* the core is free from t */
    int next_wait;
    int done;
    long nsends;         /* SEND steps in one pass */
    long *slot_last;     /* per transport slot (tag % window): last message published there */
    uint32_t *tags;      /* tags of the SEND steps of one pass, increasing */
    long *order;         /* the SEND steps by tag (net: tags rise within each memory only) */
    msg_t *msgs;         /* nsends * passes */
    /* net: who reads each SEND (rd_at[i] .. rd_at[i+1] in rd, by rank) and, per pass and
       reader on another node, when its isend was posted and when the message arrived */
    long *rd_at;
    int *rd;
    uint16_t *nlocal;    /* per SEND: readers on the sender's node (through a slot) */
    long *src;           /* per step of one pass: the SEND a RECV reads (-1: none) */
    double *net_post, *net_arr;  /* passes * rd_at[nsends]; arrival < 0: not booked yet */
    double net_done;     /* when the last of its network sends left its node */
} rank_t;

typedef struct ev {
    double t;
    uint64_t seq;
    int r;
} ev_t;

typedef struct engine {
    const scc_sim_params_t *p;
    const scc_sim_job_t *job;
    scc_sim_result_t *res;
    rank_t *ranks;
    int passes;
    double slot;
    int window;
    int net;             /* tiles are nodes on a network */
    ev_t *heap;
    long nheap, capheap;
    uint64_t seq;
    double *link_free, *link_busy, *port_free;
    double *net_out, *net_in; /* per tile (node): when its network port is free each way */
    double *mem_free;    /* n: when each rank's private-memory path is free */
    scc_sim_cache_t *cache; /* n: the state of each rank's buffers */
    int *route, *back;   /* a get's route (data) and its way back (requests) */
} engine_t;

/* Schedules rank r to run at t. */
void scc_sim_engine_push(engine_t *e, int r, double t);

/* The SEND of sender with this tag (an index into its SEND steps of one pass), or -1. */
long scc_sim_engine_find(const engine_t *e, int sender, uint32_t tag);

/* scc_sim_engine_setup.c: rank r's state (its SENDs by tag, its messages).  Returns 0 or -1
 * (message on stderr). */
int scc_sim_engine_setup_rank(engine_t *e, int r);
void scc_sim_engine_free_rank(rank_t *R);
/* net: builds each rank's readers per SEND and checks that tags rise within each memory
 * (slots on the node, the network).  Returns 0 or -1 (message on stderr). */
int scc_sim_net_setup(engine_t *e);
/* net: the sender's isends for the readers of SEND i (pass) on other nodes, posted from t;
 * messages up to net_eager are booked at once.  Returns when the core is done posting. */
double scc_sim_net_send(engine_t *e, int r, long i, int pass, double bytes, double t);
/* net: rank r reads SEND i of sender s (pass) from the network at t.  Returns when its
 * core is done with it, or a negative time -t2: come back at t2 (not there yet). */
double scc_sim_net_recv(engine_t *e, int r, int s, long i, int pass, double bytes, int reduce,
                        double t);

#endif /* SCC_SIM_ENGINE_INT_H */
