/* scc_sim_exp_cluster.h: what the cluster study's two files share -- the schedules compared,
 * the sizes, one run, the fastest by size range. */
#ifndef SCC_SIM_EXP_CLUSTER_H
#define SCC_SIM_EXP_CLUSTER_H

#include <stdio.h>

#include "scc_sim_cluster.h"

#define SCC_CL_MAXB 128  /* longer pipelines are extrapolated from 64 and 128 blocks (rings: N, 2N) */
#define SCC_CL_NSZ 12    /* 8 B .. 16 MiB */
#define SCC_CL_MAXA 6

extern const double scc_cl_sizes[SCC_CL_NSZ];

typedef struct scc_cl_alg {
    scc_inter_t inter;
    int fanout, first;
    const char *name;
    int comp;            /* the component runs it between nodes (selected or forced) */
} scc_cl_alg_t;

typedef struct scc_cl_spec {
    scc_coll_t coll;
    scc_cl_alg_t a[SCC_CL_MAXA];
    int na;
} scc_cl_spec_t;

/* bcast, allreduce, barrier */
#define SCC_CL_NSPEC 3
extern const scc_cl_spec_t scc_cl_specs[SCC_CL_NSPEC];

/* One call's modeled time (NAN, *failed set, when it cannot run); no_cma: the node's single
 * copy does not work (the component's blocks without it). */
double scc_cl_run(const scc_sim_params_t *p, const scc_sim_cluster_t *cl, scc_coll_t coll,
                  const scc_cl_alg_t *a, double bytes, int no_cma, int *failed);
/* Index of the fastest algorithm in mask at size s, or -1. */
int scc_cl_fastest(const scc_cl_spec_t *sp, double t[][SCC_CL_NSZ], int s, unsigned mask);
/* The fastest in mask by size range, with the crossovers (log-log interpolation). */
void scc_cl_ranges(FILE *f, const scc_cl_spec_t *sp, double t[][SCC_CL_NSZ], unsigned mask);

/* scc_sim_exp_cluster_var.c: the preset's assumptions varied, the emulated test bed (params
 * `emulated` over p: NULL to skip), and the extrapolation checked; appended to f. */
int scc_cl_variants(const scc_sim_params_t *p, const scc_sim_params_t *emulated, FILE *f);

#endif /* SCC_SIM_EXP_CLUSTER_H */
