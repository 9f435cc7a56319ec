/* coll_scc_bcast.c: MPI_Bcast: choose an algorithm, or hand the call to the fallback; a
 * receiver whose count is not the root's joins the call as the root runs it.
 *
 * Each rank picks the algorithm, its blocks and its plan from its own bytes, and only the
 * root's are right.  A receiver finds the root's shape (algorithm and bytes) in its first
 * message of the call, or, when that message never comes, in any message of the call on
 * its node (coll_scc_drain.c); before it took anything, it starts the call again as the
 * root runs it.  So an erroneous broadcast ends on every member and leaves nothing behind:
 * receivers with more room than the root sends get the root's bytes and succeed (as the
 * pml lets a shorter message through, and tuned with it), those with less keep what fits
 * and return MPI_ERR_TRUNCATE.  Over the pml the first message to each reader carries the
 * shape (coll_scc_xport_pml.c). */
#include "coll_scc.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include <string.h>

#include "ompi/datatype/ompi_datatype.h"

/* Algorithm a for `bytes` from root; the first `cap` of them land in data (NULL: the call
 * goes on without data, x->fail). */
static int scc_bcast_run(mca_coll_scc_module_t *m, scc_alg_t a, char *data, size_t bytes,
                         size_t cap, int root, scc_view_t *v)
{
    if (SCC_ALG_FLAT == a) {
        return mca_coll_scc_bcast_flat(m, data, bytes, cap, root, v);
    }
    if (m->rank == root) {
        scc_view_ready(m->xp, v, bytes);    /* (the schedules forward whole blocks) */
    }
    return mca_coll_scc_bcast_sched(m, a, data, bytes, root);
}

/* My first message said the root broadcasts another shape (x->met): the call again, as the
 * root runs it, into data where the root's bytes fit, else (a schedule forwards whole
 * blocks) into scratch, of which my `bytes` are kept.  *ran: the algorithm that ran; *got:
 * the bytes of data it filled. */
static int scc_bcast_rejoin(mca_coll_scc_module_t *m, char *data, size_t bytes, int root,
                            scc_alg_t *ran, size_t *got)
{
    scc_xport_t *x = m->xp;
    const uint64_t shape = x->met;
    const scc_alg_t a = scc_shape_alg(shape);
    const size_t total = scc_shape_bytes(shape);
    char *buf = data;
    int rc;

    SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d: MPI_Bcast of %zu bytes where "
                "root %d sends %zu: runs the root's %s", m->cid, m->name, m->rank, m->size,
                bytes, root, total, scc_alg_name(a));
    scc_xport_again(x);
    x->shape = shape;
    if (NULL == data) {
        /* my packed copy was missing already */
        (void) mca_coll_scc_call_failed(m->xp, true, SCC_ERR_NO_MEM, SCC_WHY_PACK);
    } else if (SCC_ALG_FLAT != a && total > bytes) {
        /* (no schedule of a broadcast uses scratch 0) */
        buf = mca_coll_scc_scratch(m, 0, total);
        if (NULL == buf) {
            (void) mca_coll_scc_call_failed(m->xp, true, SCC_ERR_NO_MEM,
                                            "there is no memory for the root's data");
        }
    }
    *ran = a;
    *got = bytes < total ? bytes : total;
    rc = scc_bcast_run(m, a, buf, total, *got, root, NULL);
    if (OMPI_SUCCESS == rc && buf != data) {
        memcpy(data, buf, bytes);
    }
    return OMPI_SUCCESS == rc && total > bytes ? MPI_ERR_TRUNCATE : rc;
}

/* (inlined into the blocking call; a persistent start calls it through the function below) */
static inline __attribute__((always_inline)) int
scc_bcast_go(mca_coll_scc_module_t *m, scc_alg_t alg, size_t bytes, void *buff, int count,
             struct ompi_datatype_t *dtype, int root)
{
    size_t got = bytes;
    scc_view_t view;
    char *data;
    int rc;

    mca_coll_scc_running(m, SCC_COLL_BCAST, alg);
    if (0 == bytes) {
        /* no message at all: a rank whose count is 0 (the same, empty, type signature as a
           zero-size type's) never reaches a component -- the MPI layer returns */
        mca_coll_scc_count(m, SCC_COLL_BCAST, alg);
        return OMPI_SUCCESS;
    }
    /* my messages say what I run; a receiver checks that its first one says the same */
    m->xp->shape = scc_shape(alg, bytes);
    m->xp->shape_check = m->rank != root;
    /* the root reads its data, the others write theirs, packed or unpacked as the pieces
       go; without a packed copy the call goes on without data here (every member still
       ends it) */
    data = scc_view_begin(m, &view, m->rank == root, buff, (size_t) count, dtype, bytes);
    if (NULL == data) {
        (void) mca_coll_scc_call_failed(m->xp, true, SCC_ERR_NO_MEM, SCC_WHY_PACK);
    }
    rc = scc_bcast_run(m, alg, data, bytes, bytes, root, &view);
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        scc_xport_forget(m->xp);
        (void) scc_view_end(&view, 0);
        return rc;
    }
    if (SCC_ERR_RESHAPE == rc) {
        rc = scc_bcast_rejoin(m, data, bytes, root, &alg, &got);
    }
    mca_coll_scc_count(m, SCC_COLL_BCAST, alg);
    {
        /* (a reader's last pieces, or all where the call failed: what arrived) */
        int r = scc_view_end(&view, OMPI_SUCCESS == rc || MPI_ERR_TRUNCATE == rc ? got : 0);
        rc = OMPI_SUCCESS == rc ? r : rc;
    }
    return rc;
}

int mca_coll_scc_bcast_go(mca_coll_scc_module_t *m, scc_alg_t alg, size_t bytes, void *buff,
                          int count, struct ompi_datatype_t *dtype, int root)
{
    return scc_bcast_go(m, alg, bytes, buff, count, dtype, root);
}

int mca_coll_scc_bcast(void *buff, int count, struct ompi_datatype_t *dtype, int root,
                       struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_BCAST, bcast,
                      mca_coll_scc_decide_bytes(m, SCC_COLL_BCAST, count, dtype, &bytes),
                      scc_bcast_go(m, alg, bytes, buff, count, dtype, root),
                      buff, count, dtype, root, comm);
}
