/* coll_scc_reduction.h: the shared part of the reduction entry points (coll_scc_reduction.c). */
#ifndef MCA_COLL_SCC_REDUCTION_H
#define MCA_COLL_SCC_REDUCTION_H

#include "coll_scc_exec.h"

BEGIN_C_DECLS

/* A reduction call on contiguous bytes: in (the input; the output in place), out
 * (where the result goes at this rank, NULL where it goes nowhere), count elements
 * (per rank's block for reduce_scatter_block; at, for reduce_scatter, gives each rank's block:
 * elements [at[i], at[i + 1]) of the vector, n + 1 entries -- NULL for blocks of count). */
typedef struct scc_reduction {
    const char *in;
    char *out;
    size_t count;
    const size_t *at;
    struct ompi_datatype_t *dtype;
    struct ompi_op_t *op;
    int root;
} scc_reduction_t;

/* A reduction decided: what a blocking call decides at every call, a persistent one at its
 * first start only (coll_scc_icolls.c). */
typedef struct scc_reduction_call {
    scc_coll_t c;
    scc_alg_t alg;                  /* SCC_ALG_FALLBACK: the fallback serves it */
    bool forced;                    /* alg was forced (it declines what it cannot take) */
    size_t bytes;                   /* as the table counts them (a reduce-scatter's: its whole
                                       vector, not the block the table counts); 0: nothing
                                       moves */
    scc_reduction_t r;
} scc_reduction_call_t;

/* Decides call c on the user's arguments (root: reduce's; the others pass 0): the table's
 * algorithm, the datatype's checks and where the data lies.  The same on every rank. */
scc_alg_t mca_coll_scc_reduction_decide(mca_coll_scc_module_t *m, scc_coll_t c, const void *sbuf,
                                        void *rbuf, int count, struct ompi_datatype_t *dtype,
                                        struct ompi_op_t *op, int root,
                                        scc_reduction_call_t *call);

/* Runs a decided call (not SCC_ALG_FALLBACK) and counts it; OMPI_ERR_NOT_AVAILABLE: the
 * fallback must serve it (before any data moved, on every rank alike). */
int mca_coll_scc_reduction_go(mca_coll_scc_module_t *m, const scc_reduction_call_t *call);

/* A blocking reduction of one vector: decided and run here, or OMPI_ERR_NOT_AVAILABLE
 * (its entry hands it to the fallback). */
int mca_coll_scc_reduction_call(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm,
                                scc_coll_t c, const void *sbuf, void *rbuf, int count,
                                struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root);

/* The algorithm for a reduction of count elements (bytes as the table counts them),
 * SCC_ALG_FALLBACK where the component cannot take the call; lb: where the data
 * starts in the user's buffers. */
scc_alg_t mca_coll_scc_reduction_pick(mca_coll_scc_module_t *m, scc_coll_t c,
                                      struct ompi_datatype_t *dtype, size_t count, size_t bytes,
                                      ptrdiff_t *lb);

/* Runs it (and counts the call); OMPI_ERR_NOT_AVAILABLE: the fallback must serve it
 * (before any data moved, on every rank alike).  forced: alg was forced, so a schedule that
 * cannot take the operation declines (the table's choice gives way to a rank-ordered one). */
int mca_coll_scc_reduction(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t alg, bool forced,
                           const scc_reduction_t *r);

/* reduce_scatter (rcounts: each rank's block) and reduce_scatter_block (blocks of rcount)
 * decided, as a reduction of one vector is (call->bytes: the whole vector's), and run
 * (counted; OMPI_ERR_NOT_AVAILABLE: the fallback must serve it) -- decided once by a
 * persistent one (coll_scc_reduce_scatter.c). */
scc_alg_t mca_coll_scc_reduce_scatter_decide(mca_coll_scc_module_t *m, scc_coll_t c,
                                             const void *sbuf, void *rbuf, int rcount,
                                             const int *rcounts, struct ompi_datatype_t *dtype,
                                             struct ompi_op_t *op, scc_reduction_call_t *call);
int mca_coll_scc_reduce_scatter_go(mca_coll_scc_module_t *m, const scc_reduction_call_t *call,
                                   const int *rcounts);

END_C_DECLS

#endif /* MCA_COLL_SCC_REDUCTION_H */
