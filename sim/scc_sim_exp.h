/* scc_sim_exp.h: the simulator's experiments -- each writes markdown tables and gnuplot data into a directory. */
#ifndef SCC_SIM_EXP_H
#define SCC_SIM_EXP_H

#include "coll_scc_select.h"
#include "scc_sim_params.h"

/* seeds/000 §5.5 and §6.3: Cube block sizes and DOPL chunk sizes, model beside
 * thesis.  With fit set, first calibrates the DOPL costs (p is updated). */
int scc_sim_exp_pichler(scc_sim_params_t *p, const char *dir, int fit);
/* seeds/003 §5: NoC_Msg against linear and binomial baselines at 48 cores. */
int scc_sim_exp_patil(const scc_sim_params_t *p, const char *dir);
/* NoC_Msg bcast for every root on the mesh of p. */
int scc_sim_exp_roots(const scc_sim_params_t *p, const char *dir);
/* Every algorithm on meshes up to max_side tiles a side, 8 B .. 16 MB: crossovers and
 * thresholds, into scale<suffix>.md, thresholds<suffix>.md, scale<suffix>_<coll>.dat. */
int scc_sim_exp_scale(const scc_sim_params_t *p, const char *dir, int max_side, const char *suffix);

/* The cluster study (sim/params/cluster.conf): the schedules between nodes for 16 .. 1024
 * nodes of 1, 8, 32 cores, 8 B .. 16 MB, into cluster.md, thresholds_cluster.md and
 * cluster_<coll>.dat; with emulated (or NULL), issue 14's test bed on those parameters. */
int scc_sim_exp_cluster(const scc_sim_params_t *p, const scc_sim_params_t *emulated,
                        const char *dir);

/* Modeled time of one call on the first n ranks of p's mesh (all when 0),
 * extrapolated beyond 256 blocks; NAN (and *failed set) when it cannot run. */
double scc_sim_exp_time(const scc_sim_params_t *p, scc_coll_t coll, int alg, int root, double bytes,
                        int *failed);

/* The thesis's transports on the model: RCCE (blocking sends through one
 * 8 KB buffer) and iRCCE (the same buffer, non-blocking). */
void scc_sim_rcce(scc_sim_params_t *q, const scc_sim_params_t *p, int blocking);

#endif /* SCC_SIM_EXP_H */
