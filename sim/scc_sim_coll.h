/* scc_sim_coll.h: the replay driver -- one collective call, its schedules as the component builds them, its modeled time. */
#ifndef SCC_SIM_COLL_H
#define SCC_SIM_COLL_H

#include "coll_scc_sched.h"
#include "coll_scc_select.h"
#include "scc_sim_engine.h"
#include "scc_sim_model.h"
#include "scc_sim_params.h"

/* Algorithms: the component's (scc_alg_t: JIA, DOPL, NOCMSG, NOCMSG_FANIN, TREE)
 * and the simulator's baselines after them. */
enum {
    SCC_SIM_LINEAR = SCC_ALG_COUNT,  /* RCCE-style linear */
    SCC_SIM_BINOMIAL,                /* MPICH / RCKMPI binomial trees */
    SCC_SIM_PAIRWISE,                /* pairwise-exchange alltoall */
    SCC_SIM_THESIS_CUBE,             /* Pichler's Cube code as written (scc_sim_thesis.h) */
    SCC_SIM_THESIS_CUBE_NOROOT,      /* the same without the redundant root receives */
    SCC_SIM_ALG_END
};

const char *scc_sim_alg_name(int alg);
int scc_sim_alg_from_name(const char *s);
/* Nonzero if the simulator can run algorithm alg for collective coll. */
int scc_sim_alg_serves(scc_coll_t coll, int alg);

/* One collective call to model. */
typedef struct scc_sim_case {
    scc_coll_t coll;           /* bcast, reduce, allreduce, barrier or alltoall */
    int alg;
    int n;                     /* ranks: the first n cores of the mesh; 0 = all */
    int root;
    double bytes;              /* per rank; alltoall: per pair */
    double block_bytes;        /* 0: the plan's (one transport slot) */
    uint32_t chunks_per_part;  /* DOPL; 0: 4 */
    int fanout[8], nlevels;    /* TREE; nlevels 0: the component's scc_tree_fanout_auto(n) */
    long max_blocks;           /* beyond this many blocks (or passes) extrapolate from two
                                  shorter runs; 0: never */
    int rcce_order;            /* blocking sends (RCCE): within a round, a rank sends first
                                  iff its rank is below the reader's, else receives first */
} scc_sim_case_t;

/* What the driver derived for a case: the arguments the generators get. */
typedef struct scc_sim_plan {
    double block_bytes;
    uint32_t nblocks;
    double total_bytes;        /* bytes the block mapping covers (alltoall: n*n*block) */
    uint32_t chunks_per_part;
    int fanout[8], nlevels;
    int passes;                /* alltoall: the schedule runs once per slice of each pair block */
    double footprint;          /* private bytes a rank touches (for the cache model) */
} scc_sim_plan_t;

typedef struct scc_sim_out {
    double t;                  /* modeled time: the last rank finished */
    double t_root;             /* the root finished */
    int extrapolated;          /* t comes from two shorter runs */
    scc_sim_plan_t plan;
    long gets, pieces;
    double link_busy_max, link_wait, port_wait;
    int failed;                /* deadlock or broken rule */
} scc_sim_out_t;

/* Places n ranks on the mesh of p and derives the plan. */
int scc_sim_plan(const scc_sim_params_t *p, const scc_sim_case_t *c, int n, scc_sim_plan_t *plan);

/* Geometry the component's generators take, built from the mesh. */
typedef struct scc_sim_geom {
    scc_sim_mesh_t mesh;
    scc_tiles_t tiles;
    scc_grid_t grid;
    int *grid_at, *grid_row, *grid_col;
} scc_sim_geom_t;
int scc_sim_geom_init(scc_sim_geom_t *g, const scc_sim_params_t *p, const scc_sim_case_t *c, int n);
void scc_sim_geom_free(scc_sim_geom_t *g);

/* Fills s with rank's schedule: the generator and the arguments the component
 * would use for this case and plan.  Returns 0 or -1. */
int scc_sim_build(const scc_sim_case_t *c, const scc_sim_plan_t *plan, const scc_sim_geom_t *g,
                  int rank, int nblocks_override, scc_sched_t *s);

/* Models one call.  Returns 0, or -1 when the schedule could not run. */
int scc_sim_run_case(const scc_sim_params_t *p, const scc_sim_case_t *c, scc_sim_out_t *out);

/* Same, keeping the engine's per-rank result (hashes of the replayed steps)
 * without extrapolation; res must be freed with scc_sim_result_free. */
int scc_sim_run_case_full(const scc_sim_params_t *p, const scc_sim_case_t *c, scc_sim_out_t *out,
                          scc_sim_result_t *res);

#endif /* SCC_SIM_COLL_H */
