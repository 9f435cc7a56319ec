/* coll_scc_run.h: the schedule-based algorithms of coll_scc_run.c. */
#ifndef MCA_COLL_SCC_RUN_H
#define MCA_COLL_SCC_RUN_H

#include "coll_scc_exec.h"

BEGIN_C_DECLS

/* Block bytes of a broadcast's schedule (and of the pairwise exchange's pieces): a slot,
 * or a single-copy block where that works (coll_scc_run.c). */
size_t mca_coll_scc_bcast_block(const scc_xport_t *x, scc_alg_t a, size_t bytes);

/* Each returns OMPI_ERR_NOT_AVAILABLE, before any data moved and on every rank
 * alike, when the algorithm cannot serve the call (the caller then uses another). */
int mca_coll_scc_bcast_sched(mca_coll_scc_module_t *m, scc_alg_t a, char *buf, size_t bytes,
                             int root);
int mca_coll_scc_reduce_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                              char *rbuf, size_t count, struct ompi_datatype_t *dtype,
                              struct ompi_op_t *op, int root);
int mca_coll_scc_allreduce_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                                 char *rbuf, size_t count, struct ompi_datatype_t *dtype,
                                 struct ompi_op_t *op);
int mca_coll_scc_barrier_sched(mca_coll_scc_module_t *m, scc_alg_t a);
/* Parts of `bytes` per rank, or (at not NULL) part i bytes [at[i], at[i + 1]) of the
 * buffers, bytes the largest part (every rank passes the same at).  The ring or the leaders:
 * rbuf holds the n parts (sbuf may be this rank's part of it) */
int mca_coll_scc_allgather_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                                 char *rbuf, size_t bytes, const size_t *at);
/* gather (c SCC_COLL_GATHER) or scatter across nodes: the root's n parts are its out (gather)
 * or in (scatter), every other process gives its own part as in (gather) or out (scatter);
 * out may be NULL at a scatter's root (in place) */
int mca_coll_scc_rooted_parts_sched(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a,
                                    const char *in, char *out, size_t bytes, const size_t *at,
                                    int root);
/* blocks of rcount, or per rank as at says (mca_coll_scc_reduce_scatter_flat) */
int mca_coll_scc_reduce_scatter_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                                      char *rbuf, size_t rcount, const size_t *at,
                                      struct ompi_datatype_t *dtype, struct ompi_op_t *op);
/* The v-variants across nodes through the leaders (coll_scc_run_vnodes.c), each part by its
 * own size: bytes[i] at off[i] of the parts' buffer, at n + 1 entries of room for where they
 * lie end to end.  gatherv (c SCC_COLL_GATHERV) or scatterv: the root's parts are its out
 * (gatherv) or in (scatterv), its own part in (gatherv) or out (scatterv, NULL in place);
 * every other process gives or takes mine bytes at in or out (bytes and off: the root's
 * only).  One broadcast first, from the root, of where the parts lie.  *self: this rank's
 * own error.  allgatherv: every rank's bytes and off, its own part at in.
 * OMPI_ERR_NOT_AVAILABLE, on every rank alike (gatherv, scatterv: after the broadcast),
 * where one part is more than twice the mean: the pairwise exchange serves those. */
int mca_coll_scc_rootedv_parts(mca_coll_scc_module_t *m, scc_coll_t c, const size_t *bytes,
                               const size_t *off, size_t *at, const char *in, char *out,
                               size_t mine, int root, int *self);
int mca_coll_scc_allgatherv_parts(mca_coll_scc_module_t *m, const size_t *bytes,
                                  const size_t *off, size_t *at, const char *in, char *out);
int mca_coll_scc_alltoall_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                                char *rbuf, size_t bytes);
/* per-peer byte counts and byte offsets, as the direct alltoallv takes them */
int mca_coll_scc_alltoallv_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                                 const size_t *sbytes, const size_t *soff, char *rbuf,
                                 const size_t *rbytes, const size_t *roff);

END_C_DECLS

#endif /* MCA_COLL_SCC_RUN_H */
