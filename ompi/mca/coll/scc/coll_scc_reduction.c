/* coll_scc_reduction.c: what the reductions share (MPI_Reduce, MPI_Allreduce,
 * MPI_Reduce_scatter(_block), MPI_Scan, MPI_Exscan) -- which calls the component can take,
 * the decision of a call (made once for a persistent one), and the schedule or a rank-ordered
 * algorithm (the direct one on one node, the leaders' across nodes). */
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
    /* two processes: the table's pipelined tree gives way to the direct reduce where that
       reads the other's input whole, single copy (coll_scc_flat.c); a forced one stays */
    if (SCC_ALG_TREE == alg && SCC_COLL_REDUCE == c && 2 == m->size
        && SCC_ALG_AUTO == mca_coll_scc_config.force[c]
        && 0 == (m->unavail & (1u << SCC_ALG_FLAT)) && scc_single_copy_reduce(m->xp, bytes)) {
        alg = SCC_ALG_FLAT;
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

/* Elements of the whole result that go to rank i (its block of a reduce_scatter, all
 * of it to a reduce's root), from element *first */
static size_t scc_ordered_part(scc_coll_t c, const scc_reduction_t *r, size_t count, int i,
                               size_t *first)
{
    size_t cnt = SCC_COLL_REDUCE == c && i == r->root ? count : 0;

    *first = 0;
    if (SCC_COLL_REDUCE_SCATTER == c || SCC_COLL_REDUCE_SCATTER_BLOCK == c) {
        scc_rs_block(r->count, r->at, i, first, &cnt);
    }
    return cnt;
}

/* Across nodes in rank order (leaders): the schedules combine in an order of their own
 * (SCC_SCHED_F_COMMUTATIVE), but the scans' leaders combine in rank order by construction,
 * so the inclusive scan leaves x0 op x1 op ... op x(n-1) at rank n - 1, which then goes where
 * the call wants it: to every rank by the broadcast's schedule (allreduce), to the root or
 * each rank's block to it by the pairwise exchange with one sender (reduce, reduce_scatter).
 * Any operation; every rank computes its own prefix on the way, unused. */
static int scc_reduction_ordered(mca_coll_scc_module_t *m, scc_coll_t c, const scc_reduction_t *r)
{
    const int n = m->size, me = m->rank, last = n - 1;
    const bool blocks = SCC_COLL_REDUCE_SCATTER == c || SCC_COLL_REDUCE_SCATTER_BLOCK == c;
    size_t dtsize, count, first, cnt, *v;
    char *all;
    int rc, rc2;

    if (SCC_TOPO_NODES != m->topo.kind) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    ompi_datatype_type_size(r->dtype, &dtsize);
    count = !blocks ? r->count : NULL != r->at ? r->at[n] : r->count * (size_t) n;
    /* the whole result lands in out where that holds it (allreduce; reduce at its root) */
    all = SCC_COLL_ALLREDUCE == c || (SCC_COLL_REDUCE == c && me == last && me == r->root)
              ? r->out : mca_coll_scc_scratch(m, SCC_SCRATCH_OUT, count * dtsize + 1);
    if (NULL == all) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
    }
    rc = mca_coll_scc_scan_leaders(m, r->in, all, count, r->dtype, r->op, false);
    if (SCC_COLL_ALLREDUCE == c) {
        rc2 = mca_coll_scc_bcast_sched(m, SCC_ALG_TREE, all, count * dtsize, last);
        return OMPI_SUCCESS == rc ? rc2 : rc;
    }
    /* per rank: bytes sent, their offsets, bytes received, their offsets: rank n - 1, the
       only sender, sends each rank its part (its own it copies, unless it is there) */
    v = mca_coll_scc_scratch(m, 0, 4 * (size_t) n * sizeof(size_t));
    if (NULL == v) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
    }
    for (int i = 0; i < n; ++i) {
        cnt = scc_ordered_part(c, r, count, i, &first) * dtsize;
        v[i] = me == last && all != r->out ? cnt : 0;
        v[n + i] = first * dtsize;
        v[2 * n + i] = 0;
        v[3 * n + i] = 0;
    }
    if (all != r->out) {
        v[2 * n + last] = scc_ordered_part(c, r, count, me, &first) * dtsize;
    }
    rc2 = mca_coll_scc_alltoallv_sched(m, SCC_ALG_RING, all, v, v + n, r->out, v + 2 * n,
                                       v + 3 * n);
    return OMPI_SUCCESS == rc ? rc2 : rc;
}

int mca_coll_scc_reduction(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t alg, bool forced,
                           const scc_reduction_t *r)
{
    int rc;

    if (SCC_ALG_FLAT != alg && SCC_ALG_LEADERS != alg) {
        rc = scc_reduction_run(m, c, alg, r);
        if (OMPI_ERR_NOT_AVAILABLE != rc) {
            mca_coll_scc_count(m, c, alg);
            return rc;
        }
        /* the schedule cannot take this operation (not commutative): a forced algorithm
           declines, the table's choice gives way to a rank-ordered one -- the direct one on
           one node, the leaders' across nodes */
        if (forced) {
            return OMPI_ERR_NOT_AVAILABLE;
        }
        alg = SCC_TOPO_NODES == m->topo.kind ? SCC_ALG_LEADERS : SCC_ALG_FLAT;
        if (m->unavail & (1u << alg)) {
            return OMPI_ERR_NOT_AVAILABLE;
        }
    }
    if (SCC_ALG_LEADERS == alg) {
        rc = scc_reduction_ordered(m, c, r);
        if (OMPI_ERR_NOT_AVAILABLE != rc) {
            mca_coll_scc_count(m, c, alg);
        }
        return rc;
    }
    mca_coll_scc_count(m, c, alg);
    return scc_reduction_run(m, c, alg, r);
}

/* (inlined into the blocking call; a persistent start calls it through the function below) */
static inline __attribute__((always_inline)) scc_alg_t
scc_reduction_decide(mca_coll_scc_module_t *m, scc_coll_t c, const void *sbuf, void *rbuf,
                     int count, struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
                     scc_reduction_call_t *call)
{
    scc_reduction_t *r = &call->r;
    size_t dtsize;
    ptrdiff_t lb;

    ompi_datatype_type_size(dtype, &dtsize);
    call->c = c;
    call->bytes = dtsize * (size_t) count;
    call->alg = mca_coll_scc_reduction_pick(m, c, dtype, (size_t) count, call->bytes, &lb);
    /* (read once: a persistent start keeps what MPI_T said at its decision) */
    call->forced = SCC_ALG_AUTO != mca_coll_scc_config.force[c];
    if (SCC_ALG_FALLBACK == call->alg || 0 == call->bytes) {
        return call->alg;   /* (no data to point at) */
    }
    /* in place: the input is the result buffer (exscan's rank 0 only reads it; sbuf stays
       MPI_IN_PLACE for the fallback) */
    r->in = (const char *) (MPI_IN_PLACE == sbuf ? rbuf : sbuf) + lb;
    r->out = SCC_COLL_REDUCE != c || m->rank == root ? (char *) rbuf + lb : NULL;
    r->count = (size_t) count;
    r->at = NULL;
    r->dtype = dtype;
    r->op = op;
    r->root = root;
    return call->alg;
}

/* scan and exscan: both algorithms combine in rank order, so any operation is taken (no
 * commutativity check) */
static int scc_reduction_scan(mca_coll_scc_module_t *m, const scc_reduction_call_t *call)
{
    const scc_reduction_t *r = &call->r;
    const bool exclusive = SCC_COLL_EXSCAN == call->c;

    switch (call->alg) {
    case SCC_ALG_FLAT:
        return mca_coll_scc_scan_flat(m, r->in, r->out, r->count, r->dtype, r->op, exclusive);
    case SCC_ALG_LEADERS:
        return mca_coll_scc_scan_leaders(m, r->in, r->out, r->count, r->dtype, r->op,
                                         exclusive);
    default:
        return mca_coll_scc_scan_ring(m, r->in, r->out, r->count, r->dtype, r->op, exclusive);
    }
}

static inline __attribute__((always_inline)) int
scc_reduction_go(mca_coll_scc_module_t *m, const scc_reduction_call_t *call)
{
    int rc;

    mca_coll_scc_running(m, call->c, call->alg);
#if defined(SCC_TRACE) && SCC_TRACE
    m->cur_bytes = call->bytes;
#endif
    /* bytes, not count: a zero-size datatype moves nothing either */
    if (0 == call->bytes) {
        mca_coll_scc_count(m, call->c, call->alg);
        return OMPI_SUCCESS;
    }
    if (SCC_COLL_SCAN != call->c && SCC_COLL_EXSCAN != call->c) {
        return mca_coll_scc_reduction(m, call->c, call->alg, call->forced, &call->r);
    }
    rc = scc_reduction_scan(m, call);
    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        mca_coll_scc_count(m, call->c, call->alg);
    }
    return rc;
}

int mca_coll_scc_reduction_call(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm,
                                scc_coll_t c, const void *sbuf, void *rbuf, int count,
                                struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root)
{
    scc_reduction_call_t call;
    int rc;

    if (OPAL_UNLIKELY(!mca_coll_scc_ready(m, comm))
        || SCC_ALG_FALLBACK
               == scc_reduction_decide(m, c, sbuf, rbuf, count, dtype, op, root, &call)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    rc = scc_reduction_go(m, &call);
    mca_coll_scc_scratch_return(m);
    return rc;
}

scc_alg_t mca_coll_scc_reduction_decide(mca_coll_scc_module_t *m, scc_coll_t c, const void *sbuf,
                                        void *rbuf, int count, struct ompi_datatype_t *dtype,
                                        struct ompi_op_t *op, int root,
                                        scc_reduction_call_t *call)
{
    return scc_reduction_decide(m, c, sbuf, rbuf, count, dtype, op, root, call);
}

int mca_coll_scc_reduction_go(mca_coll_scc_module_t *m, const scc_reduction_call_t *call)
{
    return scc_reduction_go(m, call);
}
