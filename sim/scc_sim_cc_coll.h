/* scc_sim_cc_coll.h: collectives on the cache-coherent model -- the component's schedules, tuned's, seeds/004's. */
#ifndef SCC_SIM_CC_COLL_H
#define SCC_SIM_CC_COLL_H

#include "coll_scc_select.h"
#include "scc_sim_cc.h"

/* Who runs a schedule: the component, Open MPI's tuned, or seeds/004's paper. */
enum { SCC_CC_BY_SCC = 0, SCC_CC_BY_TUNED, SCC_CC_BY_PAPER };

typedef enum {
    /* bcast */
    SCC_CC_BC_TREE = 0,   /* k-ary tree, per-level fan-outs (scc_sched_tree_bcast) */
    SCC_CC_BC_DIRECT,     /* every reader from the root: the tree with one level */
    SCC_CC_BC_JIA,        /* scc_sched_jia_bcast */
    SCC_CC_BC_DOPL,       /* scc_sched_dopl_bcast on the domains grid (packages x cores) */
    SCC_CC_BC_BINOMIAL,   /* tuned: binomial (scc_sched_binomial_bcast) */
    SCC_CC_BC_CHAIN,      /* tuned: pipelined chain (the tree with fan-out 1) */
    SCC_CC_BC_BINARY,     /* tuned: pipelined binary tree */
    /* barrier */
    SCC_CC_BAR_DISSEM,    /* the component's m-way dissemination on flag lines (radix) */
    SCC_CC_BAR_DIRECT,    /* the same with radix n - 1, the component's default */
    SCC_CC_BAR_FTREE,     /* the component's flag tree over its k-ary tree */
    SCC_CC_BAR_BRUCK,     /* tuned: Bruck / 2-way dissemination (scc_sched_dissem_barrier) */
    SCC_CC_BAR_RECDBL,    /* tuned: recursive doubling */
    SCC_CC_BAR_PAPER,     /* seeds/004 Fig. 4.3: ceil(log_m n) rounds, acks (radix) */
    /* allreduce */
    SCC_CC_AR_BUTTERFLY,  /* scc_sched_butterfly_allreduce */
    SCC_CC_AR_RING,       /* scc_sched_ring_allreduce */
    SCC_CC_AR_TREE,       /* the k-ary tree reduce, then its bcast */
    SCC_CC_AR_DIRECT,     /* reduce-scatter and allgather straight from every peer */
    SCC_CC_AR_RECDBL,     /* tuned: recursive doubling (the butterfly's schedule) */
    SCC_CC_AR_TRING,      /* tuned: ring (the same schedule as the component's) */
    SCC_CC_AR_RABEN,      /* tuned: Rabenseifner (recursive halving, recursive doubling) */
    SCC_CC_AR_REDBCAST,   /* tuned: binomial reduce, then binomial bcast */
    SCC_CC_ALG_COUNT
} scc_cc_alg_t;

const char *scc_cc_alg_name(int alg);
int scc_cc_alg_from_name(const char *s);
int scc_cc_alg_by(int alg);          /* SCC_CC_BY_* */
scc_coll_t scc_cc_alg_coll(int alg);

typedef struct scc_cc_case {
    int alg;
    int n, packages;
    double bytes;             /* bcast, allreduce: the message */
    int fanout[8], nlevels;   /* trees; nlevels 0: the component's scc_tree_fanout_auto */
    int radix;                /* dissemination: peers per round */
} scc_cc_case_t;

/* Models one call.  Returns 0, or -1 (no such schedule here, or it failed). */
int scc_cc_run(const scc_cc_params_t *p, const scc_cc_case_t *c, scc_cc_out_t *out);

/* The schedule of one rank (exposed for the unit tests). */
int scc_cc_build(const scc_cc_params_t *p, const scc_cc_case_t *c, int rank, scc_sched_t *s,
                 double *block_bytes);

#endif /* SCC_SIM_CC_COLL_H */
