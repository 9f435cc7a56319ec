/* coll_scc_flat_barrier.c: the barriers on flag lines -- the m-way dissemination barrier
 * and the flag tree whose root leaves first. */
#include "coll_scc_flat.h"

/* ------------------------------------------------------------ barrier */

/* The radix actually used: enough rounds must fit the flag lines. */
int mca_coll_scc_barrier_radix(int n, int radix)
{
    if (radix < 1 || radix > n - 1) {
        radix = n > 1 ? n - 1 : 1;
    }
    for (;;) {
        long reach = 1;
        for (int k = 0; k < SCC_BAR_LINES && reach < n; ++k) {
            reach *= radix + 1;
        }
        if (reach >= n) {
            return radix;
        }
        radix++;
    }
}

int mca_coll_scc_barrier_dissem(mca_coll_scc_module_t *m)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank, radix = x->bar_radix;
    uint64_t epoch = ++x->bar_epoch;

    /* a barrier waits anyway: settle owed acks now */
    if (x->nlater > 0) {
        scc_xport_flush_later(x, false);
    }
    for (long k = 0, dist = 1; dist < n; ++k, dist *= radix + 1) {
        scc_flag_set(x, &scc_ctrl(x, me)->bar[k].v, epoch);
        for (int j = 1; j <= radix && j * dist < n; ++j) {
            int peer = (int) ((me - j * dist % n + n) % n);
            scc_wait_ge(x, &scc_ctrl(x, peer)->bar[k].v, epoch);
        }
    }
    return OMPI_SUCCESS;
}

/* A flag tree (seeds/004): each rank waits for its children's arrival flags, raises
 * its own, then waits for its parent's release and releases its children.  The root
 * (rank 0) leaves first. */
int mca_coll_scc_barrier_tree(mca_coll_scc_module_t *m)
{
    scc_xport_t *x = m->xp;
    const int me = x->rank;
    uint64_t epoch = ++x->bar_epoch;
    const int parent = m->bar_parent, nchild = m->bar_nchild;

    if (x->nlater > 0) {
        scc_xport_flush_later(x, false);
    }
    for (int i = 0; i < nchild; ++i) {
        scc_wait_ge(x, &scc_ctrl(x, m->children[i])->bar[0].v, epoch);
    }
    if (parent >= 0) {
        scc_flag_set(x, &scc_ctrl(x, me)->bar[0].v, epoch);
        scc_wait_ge(x, &scc_ctrl(x, parent)->bar[1].v, epoch);
    }
    scc_flag_set(x, &scc_ctrl(x, me)->bar[1].v, epoch);
    return OMPI_SUCCESS;
}
