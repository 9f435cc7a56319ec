/* coll_scc_barrier.c: MPI_Barrier: decide and run it (a persistent one decides once), or hand
 * the call to the fallback. */
#include "coll_scc.h"
#include "coll_scc_flat.h"
#include "coll_scc_xport.h"
#include "coll_scc_run.h"

/* nocmsg_fanin lets processes leave before all have arrived: never chosen by the table, only
 * forced (coll_scc_barrier_algorithm, MPI_T).  Said loudly, once per process, by the rank 0
 * of the first communicator it runs on. */
static void scc_warn_fanin(mca_coll_scc_module_t *m)
{
    static int warned;

    if (0 == __atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED) && 0 == m->rank) {
        mca_coll_scc_show_help("barrier-fanin", m->cid, m->name);
    }
}

scc_alg_t mca_coll_scc_barrier_decide(mca_coll_scc_module_t *m)
{
    scc_alg_t alg = mca_coll_scc_pick(m, SCC_COLL_BARRIER, 0);

    /* the flag tree and dissemination need one shared memory (flag lines); across nodes
       both are schedules (coll_scc_sched_hier.c).  Over point-to-point messages the NoC_Msg
       barrier's schedule runs instead of the tree: the count names what ran */
    if (SCC_ALG_TREE == alg && SCC_TOPO_NODES != m->topo.kind
        && !(NULL != m->children && scc_xport_shared_all(m->xp))) {
        alg = SCC_ALG_NOCMSG;
    }
    return alg;
}

int mca_coll_scc_barrier_go(mca_coll_scc_module_t *m, scc_alg_t alg)
{
    int rc;

    mca_coll_scc_running(m, SCC_COLL_BARRIER, alg);
    if (SCC_ALG_TREE == alg && SCC_TOPO_NODES != m->topo.kind) {
        mca_coll_scc_count(m, SCC_COLL_BARRIER, alg);
        return mca_coll_scc_barrier_tree(m);
    }
    if (SCC_ALG_DISSEM == alg && SCC_TOPO_NODES != m->topo.kind) {
        mca_coll_scc_count(m, SCC_COLL_BARRIER, alg);
        return mca_coll_scc_barrier_dissem(m);
    }
    if (OPAL_UNLIKELY(SCC_ALG_NOCMSG_FANIN == alg)) {
        scc_warn_fanin(m);
    }
    rc = mca_coll_scc_barrier_sched(m, alg);
    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        mca_coll_scc_count(m, SCC_COLL_BARRIER, alg);
    }
    return rc;
}

int mca_coll_scc_barrier(struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_BARRIER, barrier, mca_coll_scc_barrier_decide(m),
                      mca_coll_scc_barrier_go(m, alg), comm);
}
