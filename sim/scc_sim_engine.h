/* scc_sim_engine.h: the event engine -- replays every rank's step list on the mesh model, or
 * (params net = 1) on nodes of a network, each node a tile. */
#ifndef SCC_SIM_ENGINE_H
#define SCC_SIM_ENGINE_H

#include <stdint.h>

#include "coll_scc_sched.h"
#include "scc_sim_params.h"

/* One rank's program: the steps a generator produced for it, unchanged. */
typedef struct scc_sim_prog {
    const scc_step_t *steps;
    long nsteps;
    const uint32_t *list;      /* block list of SCC_STEP_F_LIST steps */
    long list_len;
    int tile;                  /* where the rank sits (net: its node) */
    double footprint;          /* private bytes the rank touches in the call (cache model) */
} scc_sim_prog_t;

typedef struct scc_sim_job {
    int n;                     /* ranks */
    int X, Y;                  /* tiles of the mesh the routes run on */
    const scc_sim_prog_t *progs;
    double block_bytes;        /* block b covers [b*bs, min((b+1)*bs, total)) */
    double total_bytes;
    int passes;                /* run each program this many times, one pass after another; 0 = 1 */
    int copy;                  /* every message within a tile is copied through a slot, never
                                  read single copy (the executor's reductions that fit a slot) */
} scc_sim_job_t;

typedef struct scc_sim_result {
    double t_max;              /* when the last rank finished */
    double *t_end;             /* n: when each rank finished (allocated by the engine) */
    uint64_t *hash;            /* n: hash of the steps each rank executed, in order */
    long *executed;            /* n: steps each rank executed */
    int deadlock;              /* ranks that never finished (0 = none) */
    int error;                 /* a schedule rule was broken (message on stderr) */
    long gets;                 /* message reads */
    long pieces;               /* pieces moved (a message bigger than a slot moves in several) */
    double bytes;              /* bytes read */
    double link_busy_max;      /* ns the busiest link was held */
    double link_wait;          /* ns transfers waited for links */
    double port_wait;          /* ns transfers waited for MPB ports */
    double missed;             /* private-memory bytes that missed the cache */
} scc_sim_result_t;

/* Runs the job.  Returns 0 when every rank finished and no rule was broken. */
int scc_sim_engine_run(const scc_sim_params_t *p, const scc_sim_job_t *job, scc_sim_result_t *res);
void scc_sim_result_free(scc_sim_result_t *res);

/* The hash the engine keeps per rank, over the steps in execution order: start
 * from SCC_SIM_HASH0 and fold in each step (and its list entries). */
#define SCC_SIM_HASH0 UINT64_C(1469598103934665603)
uint64_t scc_sim_step_hash(uint64_t h, const scc_step_t *st, const uint32_t *list, long list_len);

/* Bytes a step moves under the job's block mapping. */
double scc_sim_step_bytes(const scc_sim_job_t *job, const scc_sim_prog_t *prog, const scc_step_t *st);

#endif /* SCC_SIM_ENGINE_H */
