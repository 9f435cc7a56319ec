/* coll_scc_reduction.c: what MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter(_block) share --
 * which calls the component can take, and the schedule or the rank-ordered direct algorithm. */
#include "coll_scc_reduction.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"

scc_alg_t mca_coll_scc_reduction_pick(mca_coll_scc_module_t *m, scc_coll_t c,
                                      struct ompi_datatype_t *dtype, size_t count, size_t bytes,
                                      ptrdiff_t *lb)
{
    size_t dtsize;
    scc_alg_t alg = mca_coll_scc_pick(m, c, bytes);

    ompi_datatype_type_size(dtype, &dtsize);
    /* no data (zero-size elements too): served as is, nothing to combine.  Else the
       algorithms combine elements where they lie: contiguous types only, and an element
       must fit a message.  The standard has count and datatype the same on every rank
       (a user operation sees the datatype's layout), so every rank decides alike */
    *lb = 0;
    if (SCC_ALG_FALLBACK == alg || 0 == bytes) {
        return alg;
    }
    /* and an operation sees elements at their origin: where the data starts past it
       (lb != 0, only a user operation on a derived type), the algorithms' pointers to
       the data would be taken for origins */
    if (!scc_dtype_contig(dtype, count, lb) || 0 != *lb || dtsize > m->xp->slot_size) {
        return SCC_ALG_FALLBACK;
    }
    return alg;
}

/* The algorithm alg (a schedule or the direct one) on prepared buffers. */
static int scc_reduction_run(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t alg,
                             const scc_reduction_t *r)
{
    switch (c) {
    case SCC_COLL_REDUCE:
        return SCC_ALG_FLAT == alg
                   ? mca_coll_scc_reduce_flat(m, r->in, r->out, r->count, r->dtype, r->op, r->root)
                   : mca_coll_scc_reduce_sched(m, alg, r->in, r->out, r->count, r->dtype, r->op,
                                               r->root);
    case SCC_COLL_ALLREDUCE:
        return SCC_ALG_FLAT == alg
                   ? mca_coll_scc_allreduce_flat(m, r->in, r->out, r->count, r->dtype, r->op)
                   : mca_coll_scc_allreduce_sched(m, alg, r->in, r->out, r->count, r->dtype,
                                                  r->op);
    default:
        /* reduce_scatter_block and reduce_scatter: one code, blocks of count or at */
        return SCC_ALG_FLAT == alg
                   ? mca_coll_scc_reduce_scatter_flat(m, r->in, r->out, r->count, r->at,
                                                      r->dtype, r->op)
                   : mca_coll_scc_reduce_scatter_sched(m, alg, r->in, r->out, r->count, r->at,
                                                       r->dtype, r->op);
    }
}

int mca_coll_scc_reduction(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t alg,
                           const scc_reduction_t *r)
{
    int rc;

    if (SCC_ALG_FLAT != alg) {
        rc = scc_reduction_run(m, c, alg, r);
        if (OMPI_ERR_NOT_AVAILABLE != rc) {
            mca_coll_scc_count(m, c, alg);
            return rc;
        }
        /* the schedule cannot take this operation (not commutative): a forced algorithm
           declines, the table's choice gives way to the rank-ordered direct one */
        if ((m->unavail & (1u << SCC_ALG_FLAT))
            || SCC_ALG_AUTO != mca_coll_scc_config.force[c]) {
            return OMPI_ERR_NOT_AVAILABLE;
        }
        alg = SCC_ALG_FLAT;
    }
    mca_coll_scc_count(m, c, alg);
    return scc_reduction_run(m, c, alg, r);
}
