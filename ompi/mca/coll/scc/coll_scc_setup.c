/* coll_scc_setup.c: a communicator set up (topology, table, trees, transport, plans: all
 * members agreeing at each step), lazily after coll_scc_setup_calls calls; its teardown and
 * what it served.  Under the entry points, which call it; the module (coll_scc_module.c)
 * installs them. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_scc.h"
#include "coll_scc_agree.h"
#include "coll_scc_exec.h"
#include "coll_scc_flat.h"
#include "coll_scc_param.h"
#include "coll_scc_record.h"
#include "coll_scc_trace.h"
#include "coll_scc_xport.h"

#include "ompi/communicator/communicator.h"
#include "ompi/group/group.h"
#include "ompi/proc/proc.h"
#include "opal/util/show_help.h"

/* Reports what the component served on this communicator. */
void mca_coll_scc_report_calls(mca_coll_scc_module_t *m)
{
    static const char *const pre[SCC_FORMS] = { "", "i", "" };
    static const char *const post[SCC_FORMS] = { "", "", "_init" };
    char line[4096];
    size_t len = 0;

    if (mca_coll_scc_config.verbose < 2 || m->rank < 0) {
        return;
    }
    line[0] = '\0';
    for (int f = 0; NULL != m->calls && f < SCC_FORMS; ++f) {
        for (int c = 0; c < SCC_COLL_COUNT; ++c) {
            for (int a = 0; a < SCC_ALG_COUNT; ++a) {
                if (0 != m->calls[f][c][a] && len < sizeof(line)) {
                    len += snprintf(line + len, sizeof(line) - len, " %s%s%s:%s=%llu",
                                    pre[f], scc_coll_name((scc_coll_t) c), post[f],
                                    scc_alg_name((scc_alg_t) a),
                                    (unsigned long long) m->calls[f][c][a]);
                }
            }
        }
    }
    SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d calls:%s%s", m->cid, m->name,
                m->rank, m->size,
                len ? line : NULL != m->calls ? " none"
                : " not counted (coll_scc_verbose was below 2 when it was made)",
                SCC_STATE_LAZY != m->state || 0 == m->lazy_calls ? ""
                : " (not set up: fewer calls than coll_scc_setup_calls)");
    for (int p = 0; p < 2; ++p) {
        if (0 != m->tries[p][0] + m->tries[p][1]) {
            SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d: %s ended on their "
                        "caller's stack %llu, tried there and run as tasks %llu (%llu of them "
                        "skipping what their try had sent) (coll_scc_nbc_try)", m->cid, m->name,
                        m->rank, m->size, p ? "persistent starts" : "nonblocking calls",
                        (unsigned long long) m->tries[p][0], (unsigned long long) m->tries[p][1],
                        (unsigned long long) m->tries_replayed[p]);
        }
    }
    if (NULL != m->xp) {
        /* which way each message this rank received came: its own node's memory or the
           pml, from its node or another (tests check that nothing took the wrong way) */
        const uint64_t (*t)[2] = (const uint64_t (*)[2]) m->xp->traffic;
        SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d received: on-node %llu by "
                    "shm %llu by pml, off-node %llu by pml %llu by shm", m->cid, m->name,
                    m->rank, m->size, (unsigned long long) t[0][0],
                    (unsigned long long) t[0][1], (unsigned long long) t[1][1],
                    (unsigned long long) t[1][0]);
        if (0 != m->xp->cma_reads) {
            SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d: single-copy reads %llu",
                        m->cid, m->name, m->rank, m->size,
                        (unsigned long long) m->xp->cma_reads);
        }
        if (0 != m->learn.taken[SCC_WAY_SINGLE] + m->learn.taken[SCC_WAY_SLOTS]) {
            SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d: allgather parts sent "
                        "single-copy %llu times, through the slots %llu (coll_scc_cma_adapt "
                        "%d)", m->cid, m->name, m->rank, m->size,
                        (unsigned long long) m->learn.taken[SCC_WAY_SINGLE],
                        (unsigned long long) m->learn.taken[SCC_WAY_SLOTS],
                        mca_coll_scc_config.cma_adapt);
        }
        if (NULL != m->xp->pool) {
            SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d: slot pages given back %llu "
                        "times (coll_scc_shm_resident %zu bytes per process)%s", m->cid, m->name,
                        m->rank, m->size, (unsigned long long) scc_pool_given_back(m->xp),
                        scc_pool_budget(),
                        mca_coll_scc_threads ? ", the pool locked for MPI_THREAD_MULTIPLE" : "");
        }
    }
}



/* The trees' fan-out per level: the parameter; else for many cores the model's shapes by
 * process count (coll_scc_select_many.c), below that seeds/004's by size.  The rule
 * (coll_scc_param.c, told once at open) keeps each fan-out within the children array. */
static void scc_setup_trees(mca_coll_scc_module_t *m)
{
    scc_select_params_t p;
    scc_select_topo_t st;

    m->nlevels = scc_param_fanout(mca_coll_scc_config.tree_fanout, m->fanout,
                                  (int) (sizeof(m->fanout) / sizeof(m->fanout[0])),
                                  SCC_TREE_MAX_CHILDREN, NULL, 0);
    if (0 == m->nlevels) {
        mca_coll_scc_topo_select_input(&m->topo, 0, &st, &p);
        m->nlevels = scc_select_fanout(&st, &p, m->fanout);
    }
    if (0 == m->nlevels) {
        m->nlevels = scc_tree_fanout_auto(m->size, m->fanout);
    }
}

/* The dissemination barrier's radix: the parameter, or 1 for many cores. */
static int scc_setup_radix(mca_coll_scc_module_t *m)
{
    scc_select_params_t p;
    scc_select_topo_t st;

    mca_coll_scc_topo_select_input(&m->topo, 0, &st, &p);
    return mca_coll_scc_barrier_radix(m->size, scc_select_barrier_radix(&st, &p));
}

/* Every member declines the communicator at the same agreement, with the same words. */
static bool scc_setup_declined(mca_coll_scc_module_t *m, const char *why, const char *detail)
{
    SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: declined (%s%s%s); the fallback serves "
                "every collective", m->cid, m->name, m->size, why, NULL != detail ? ": " : "",
                NULL != detail ? detail : "");
    m->state = SCC_STATE_DECLINED;
    return false;
}

bool mca_coll_scc_setup(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm)
{
    char cma[160] = "off", red[112] = "";
    bool ok;
    int rc;

    /* Every member reaches the agreements below in the same order whatever failed on it,
     * and all serve the communicator or all decline it: a member that went its own way
     * would leave the others waiting in a collective it never joins. */
    m->state = SCC_STATE_DECLINED;
    /* the name may have been set since enable */
    snprintf(m->name, sizeof(m->name), "%s", SCC_COMM_NAME(comm));
    /* topology and algorithm table (coll_scc_topo.c): one location exchange per
     * communicator; a bad mesh description gives a flat topology, not a failure */
    ok = OMPI_SUCCESS == mca_coll_scc_topo_build(&m->members, &m->topo)
         && !mca_coll_scc_fault(&m->members, "topo");
    if (!ok) {
        SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: rank %d: topology: %s", m->cid,
                    m->name, m->size, m->rank, m->topo.note);
    }
    scc_setup_trees(m);
    m->children = calloc(SCC_TREE_MAX_CHILDREN, sizeof(int));
    if (NULL == m->children || mca_coll_scc_fault(&m->members, "children")) {
        SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: rank %d: no memory for the trees",
                    m->cid, m->name, m->size, m->rank);
        free(m->children);
        m->children = NULL;
        ok = false;
    } else {
        /* (the shape is the communicator's for good: the barrier does not make it again) */
        m->bar_parent = scc_tree_parent(m->rank, m->size, m->fanout, m->nlevels);
        m->bar_nchild = scc_tree_children(m->rank, m->size, m->fanout, m->nlevels,
                                          m->children, SCC_TREE_MAX_CHILDREN);
    }
    /* a member whose topology failed would build another table */
    if (!mca_coll_scc_agree(&m->members, ok)) {
        return scc_setup_declined(m, "topology or trees not set up on every member", NULL);
    }
    m->center = scc_tiles_center(&m->topo.tiles);

    rc = mca_coll_scc_xport_attach(&m->members, &m->xp);
    if (OMPI_SUCCESS != rc) {
        return scc_setup_declined(m, "no transport", opal_strerror(rc));
    }
    if (scc_xport_single_copy(m->xp) && m->xp->cma_min < SIZE_MAX) {
        snprintf(cma, sizeof(cma), "on from %zu bytes (blocks per peer from %zu%s)",
                 m->xp->cma_min, m->xp->cma_a2a_min,
                 SCC_CMA_MIN_PROBE == mca_coll_scc_config.cma_min
                     ? ": measured fast, coll_scc_cma_min -2" : "");
    } else if (scc_single_copy_learnt(m->xp)) {
        snprintf(cma, sizeof(cma), "where timed calls find it faster (coll_scc_cma_adapt)");
    } else if (scc_xport_single_copy(m->xp) && m->xp->cma_a2a_min < SIZE_MAX) {
        char gathers[64] = "";
        if (m->xp->cma_table) {
            snprintf(gathers, sizeof(gathers), ", gathers from %zu and alltoallv too",
                     m->xp->cma_gather_min);
        }
        snprintf(cma, sizeof(cma), "for blocks per peer from %zu bytes%s (coll_scc_cma_over_min)",
                 m->xp->cma_a2a_min, gathers);
    }
    if (scc_xport_single_copy(m->xp) && m->xp->cma_reduce_min < SIZE_MAX) {
        if (m->xp->cma_reduce_max < SIZE_MAX) {
            snprintf(red, sizeof(red), ", reductions single-copy from %zu to %zu bytes "
                     "(coll_scc_cma_reduce_min -2)", m->xp->cma_reduce_min,
                     m->xp->cma_reduce_max);
        } else {
            snprintf(red, sizeof(red), ", reductions single-copy from %zu bytes",
                     m->xp->cma_reduce_min);
        }
    }
    SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: transport %s, %d slots of %zu bytes per "
                "rank, single copy %s%s, %s while waiting", SCC_COMM_CID(comm),
                SCC_COMM_NAME(comm), m->size, m->xp->desc, m->xp->nslots, m->xp->slot_size,
                cma, red, m->xp->yield ? "yield" : "spin");
    if (NULL != m->xp->pool) {
        /* README, Many communicators: what this communicator adds to the node's memory */
        size_t page = (size_t) sysconf(_SC_PAGESIZE);
        size_t hot = (m->xp->slot_off + page - 1) / page * page;
        SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: shared memory per rank %zu bytes of "
                    "control now, %zu of slots once a message needs them; this process keeps "
                    "at most %zu bytes of slots over all its communicators "
                    "(coll_scc_shm_resident), %zu now", m->cid, m->name, m->size,
                    hot, m->xp->region_size - hot, scc_pool_budget(), scc_pool_warm_bytes());
    }
    m->xp->bar_radix = scc_setup_radix(m);
    /* the table: what the topology asks for, among what the transport can run */
    if (SCC_TOPO_NODES == m->topo.kind) {
        /* across nodes the schedules run over both memories; the dissemination barrier
           is a schedule there too */
        m->unavail = 1u << SCC_ALG_FLAT;
    } else {
        m->unavail = scc_xport_shared_all(m->xp) ? 0 : SCC_ALGS_NEED_SHARED;
    }
    /* (scc_select_build adds what the topology cannot run, collective by collective) */
    mca_coll_scc_topo_table(&m->topo, m->unavail, &m->select);
    /* the plans only the communicator decides (barrier, alltoall); the others come with
       the first call that needs them */
    rc = mca_coll_scc_plans_setup(m, comm);
    if (OMPI_SUCCESS != rc) {
        mca_coll_scc_xport_detach(&m->xp);
        return scc_setup_declined(m, "plans not set up on every member", NULL);
    }
    /* topology and table, verbose 1, and the shapes its trees and dissemination run with */
    mca_coll_scc_topo_report(&m->members, &m->select, m->xp->desc);
    if (mca_coll_scc_config.verbose >= 1 && 0 == m->rank) {
        char line[64] = "";
        for (int l = 0; l < m->nlevels; ++l) {
            size_t used = strlen(line);
            snprintf(line + used, sizeof(line) - used, "%s%d", l ? "," : "", m->fanout[l]);
        }
        SCC_VERBOSE(1, "coll:scc: comm %u (%s)   trees %s; dissemination radix %d", m->cid,
                    m->name, line, m->xp->bar_radix);
    }
    m->state = SCC_STATE_ACTIVE;
    return true;
}

bool mca_coll_scc_setup_lazy(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm)
{
    /* (a persistent collective's own communicator: made to be started again and again) */
    if (!m->persistent_home && m->lazy_calls < (uint64_t) mca_coll_scc_config.setup_calls) {
        m->lazy_calls++;
        return false;
    }
    if (0 != m->lazy_calls) {
        snprintf(m->name, sizeof(m->name), "%s", SCC_COMM_NAME(comm));
        SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d: set up at call %llu "
                    "(coll_scc_setup_calls %d)", m->cid, m->name, m->rank, m->size,
                    (unsigned long long) m->lazy_calls + 1, mca_coll_scc_config.setup_calls);
    }
    if (!mca_coll_scc_setup(m, comm)) {
        return false;
    }
    if (mca_coll_scc_in_task(m)) {
        m->xp->fiber = m->cur_fiber;    /* set up by a task: the call's waits stop it */
    }
    return true;
}

void mca_coll_scc_teardown(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm)
{
    mca_coll_scc_report_calls(m);
    mca_coll_scc_trace_report(m);   /* the per-phase trace, when on */
    mca_coll_scc_plans_report(m);   /* plans made and held, verbose 2 */
    mca_coll_scc_xport_detach(&m->xp);
    mca_coll_scc_plans_free(m);
    m->state = SCC_STATE_DECLINED;
}
