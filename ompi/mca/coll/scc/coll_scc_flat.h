/* coll_scc_flat.h: the direct algorithms of coll_scc_flat.c. */
#ifndef MCA_COLL_SCC_FLAT_H
#define MCA_COLL_SCC_FLAT_H

#include "coll_scc_exec.h"

BEGIN_C_DECLS

/* All buffers are contiguous bytes; reductions take contiguous element types.
 * In place: the input pointer equals the output (or the rank's block of it). */
int mca_coll_scc_bcast_flat(mca_coll_scc_module_t *m, char *buf, size_t bytes, int root);
int mca_coll_scc_reduce_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                             size_t count, struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                             int root);
int mca_coll_scc_allreduce_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                size_t count, struct ompi_datatype_t *dtype,
                                struct ompi_op_t *op);
int mca_coll_scc_reduce_scatter_block_flat(mca_coll_scc_module_t *m, const char *sbuf,
                                           char *rbuf, size_t rcount,
                                           struct ompi_datatype_t *dtype, struct ompi_op_t *op);
int mca_coll_scc_gather_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                             size_t bytes, int root);
int mca_coll_scc_scatter_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                              size_t bytes, int root);
int mca_coll_scc_allgather_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                size_t bytes);
int mca_coll_scc_alltoall_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                               size_t bytes);
/* per-peer byte counts and byte offsets */
int mca_coll_scc_alltoallv_flat(mca_coll_scc_module_t *m, const char *sbuf,
                                const size_t *sbytes, const size_t *soff, char *rbuf,
                                const size_t *rbytes, const size_t *roff);
/* acc = p[0] op (p[1] op (... op p[n-1])) over count elements (acc may be p[n-1]). */
void scc_combine(struct ompi_op_t *op, const char **p, int n, char *acc, size_t count,
                 struct ompi_datatype_t *dtype);
/* allreduce by reduce-scatter and allgather through the slots (coll_scc_rsag.c), where
 * mca_coll_scc_rsag_fits says the slots can hold its rounds */
bool mca_coll_scc_rsag_fits(const scc_xport_t *x, size_t count, size_t dtsize);
int mca_coll_scc_allreduce_rsag(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                size_t count, struct ompi_datatype_t *dtype,
                                struct ompi_op_t *op);
/* m-way dissemination barrier on per-rank flag lines (radix: x->bar_radix) */
int mca_coll_scc_barrier_dissem(mca_coll_scc_module_t *m);
/* a flag tree over the module's k-ary tree, rooted at rank 0 (which leaves first) */
int mca_coll_scc_barrier_tree(mca_coll_scc_module_t *m);
/* the radix the barrier uses for a requested one (0: all others in one round) */
int mca_coll_scc_barrier_radix(int n, int radix);

END_C_DECLS

#endif /* MCA_COLL_SCC_FLAT_H */
