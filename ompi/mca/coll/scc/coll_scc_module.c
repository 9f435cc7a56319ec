/* coll_scc_module.c: comm_query, enable (saving every collective's fallback), disable, setup,
 * teardown. */
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

static void scc_module_construct(mca_coll_scc_module_t *m)
{
    m->state = SCC_STATE_LAZY;
    m->lazy_calls = 0;
    m->disabled = false;
    m->rank = -1;
    m->size = 0;
    m->cid = 0;
    m->uid.hi = m->uid.lo = 0;
    m->name[0] = '\0';
#define SCC_PREV_CLEAR(name, id)                                                 \
    m->prev_##name.fn = NULL;                                                    \
    m->prev_##name.module = NULL;                                                \
    m->prev_i##name.fn = NULL;                                                   \
    m->prev_i##name.module = NULL;                                               \
    m->prev_##name##_init.fn = NULL;                                             \
    m->prev_##name##_init.module = NULL;
    SCC_FOREACH_COLL(SCC_PREV_CLEAR)
#undef SCC_PREV_CLEAR
    memset(m->calls, 0, sizeof(m->calls));
    m->q_head = m->q_tail = NULL;
    m->cur_fiber = NULL;
    m->form = SCC_FORM_B;
    m->task_sub = NULL;
    m->q_next = NULL;
    m->q_listed = false;
    m->xp = NULL;
    memset(m->scratch, 0, sizeof(m->scratch));
    m->plans = NULL;
    m->children = NULL;
    m->nlevels = 0;
    m->center = 0;
    m->unavail = 0;
    m->cur_bytes = 0;
    m->trace = NULL;
    memset(&m->topo, 0, sizeof(m->topo));
    memset(&m->select, 0, sizeof(m->select));
}

/* Reports what the component served on this communicator. */
static void scc_report_calls(mca_coll_scc_module_t *m)
{
    static const char *const pre[SCC_FORMS] = { "", "i", "" };
    static const char *const post[SCC_FORMS] = { "", "", "_init" };
    char line[4096];
    size_t len = 0;

    if (mca_coll_scc_config.verbose < 2 || m->rank < 0) {
        return;
    }
    line[0] = '\0';
    for (int f = 0; f < SCC_FORMS; ++f) {
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
                m->rank, m->size, len ? line : " none",
                SCC_STATE_LAZY != m->state || 0 == m->lazy_calls ? ""
                : " (not set up: fewer calls than coll_scc_setup_calls)");
    if (NULL != m->xp) {
        /* which way each message this rank received came: its own node's memory or the
           pml, from its node or another (tests check that nothing took the wrong way) */
        const uint64_t (*t)[2] = (const uint64_t (*)[2]) m->xp->traffic;
        SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d received: on-node %llu by "
                    "shm %llu by pml, off-node %llu by pml %llu by shm", m->cid, m->name,
                    m->rank, m->size, (unsigned long long) t[0][0],
                    (unsigned long long) t[0][1], (unsigned long long) t[1][1],
                    (unsigned long long) t[1][0]);
        if (NULL != m->xp->pool) {
            SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d: slot pages given back %llu "
                        "times (coll_scc_shm_resident %zu bytes per process)", m->cid, m->name,
                        m->rank, m->size, (unsigned long long) scc_pool_given_back(m->xp),
                        scc_pool_budget());
        }
    }
}

/* Normally disable has torn down already (see coll_scc_compat.h); a module whose enable
 * failed, or that was never installed, is only destructed. */
static void scc_module_destruct(mca_coll_scc_module_t *m)
{
    if (!m->disabled) {
        scc_report_calls(m);
    }
    mca_coll_scc_trace_report(m);
    mca_coll_scc_xport_detach(&m->xp);
    mca_coll_scc_plans_free(m);
    free(m->children);
    for (int i = 0; i < SCC_NSCRATCH; ++i) {
        free(m->scratch[i].ptr);
    }
    mca_coll_scc_topo_free(&m->topo);
#define SCC_PREV_RELEASE(name, id)                                               \
    if (NULL != m->prev_##name.module) {                                         \
        OBJ_RELEASE(m->prev_##name.module);                                      \
    }                                                                            \
    if (NULL != m->prev_i##name.module) {                                        \
        OBJ_RELEASE(m->prev_i##name.module);                                     \
    }                                                                            \
    if (NULL != m->prev_##name##_init.module) {                                  \
        OBJ_RELEASE(m->prev_##name##_init.module);                               \
    }
    SCC_FOREACH_COLL(SCC_PREV_RELEASE)
#undef SCC_PREV_RELEASE
}

OBJ_CLASS_INSTANCE(mca_coll_scc_module_t, mca_coll_base_module_t,
                   scc_module_construct, scc_module_destruct);

int mca_coll_scc_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    return OMPI_SUCCESS;
}

/* Saves the function Open MPI selected so far for every collective, so that
 * whatever the component does not serve runs exactly as without it. */
static int scc_module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    const char *missing = NULL;

#define SCC_PREV_SAVE(name, id)                                                  \
    SCC_COLL_SAVE(comm, name, m->prev_##name.fn, m->prev_##name.module);         \
    if (NULL == m->prev_##name.fn || NULL == m->prev_##name.module) {            \
        m->prev_##name.fn = NULL;                                                \
        m->prev_##name.module = NULL;                                            \
        if (NULL == missing) {                                                   \
            missing = #name;                                                     \
        }                                                                        \
    } else {                                                                     \
        OBJ_RETAIN(m->prev_##name.module);                                       \
    }
    SCC_FOREACH_COLL(SCC_PREV_SAVE)
#undef SCC_PREV_SAVE

    /* the nonblocking and persistent forms: where no other module has one, this module
       leaves that form alone (a call before setup would have nowhere to go) */
#define SCC_PREV_SAVE_FORM(form)                                                 \
    SCC_COLL_SAVE(comm, form, m->prev_##form.fn, m->prev_##form.module);         \
    if (NULL == m->prev_##form.fn || NULL == m->prev_##form.module) {            \
        m->prev_##form.fn = NULL;                                                \
        m->prev_##form.module = NULL;                                            \
        SCC_COLL_WITHDRAW(module, form);                                         \
    } else {                                                                     \
        OBJ_RETAIN(m->prev_##form.module);                                       \
    }
#define SCC_PREV_SAVE_FORMS(name, id)                                            \
    SCC_PREV_SAVE_FORM(i##name)                                                  \
    SCC_PREV_SAVE_FORM(name##_init)
    SCC_FOREACH_COLL(SCC_PREV_SAVE_FORMS)
#undef SCC_PREV_SAVE_FORMS
#undef SCC_PREV_SAVE_FORM

    if (NULL != missing) {
        mca_coll_scc_show_help_once(ompi_comm_rank(comm), "no-fallback", SCC_COMM_CID(comm),
                                    SCC_COMM_NAME(comm), missing);
        SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: declined (no other module provides %s)",
                    SCC_COMM_CID(comm), SCC_COMM_NAME(comm), ompi_comm_size(comm), missing);
        return OMPI_ERR_NOT_FOUND;
    }
    m->rank = ompi_comm_rank(comm);
    m->size = ompi_comm_size(comm);
    m->cid = SCC_COMM_CID(comm);
    mca_coll_scc_members_fill(m, comm);
    m->uid = scc_comm_uid(comm);
    snprintf(m->name, sizeof(m->name), "%s", SCC_COMM_NAME(comm));
    SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: selected", m->cid, m->name, m->size);
    SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d uid " SCC_COMM_UID_FMT, m->cid,
                m->name, m->rank, m->size, SCC_COMM_UID_ARGS(m->uid));
    return OMPI_SUCCESS;
}

/* The framework calls this when the communicator is freed, once for every collective the
 * module is installed for; the first call tears down. */
static int scc_module_disable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    if (m->disabled) {
        return OMPI_SUCCESS;
    }
    m->disabled = true;
    /* the name is final now (5.0 names derived communicators after enabling them) */
    snprintf(m->name, sizeof(m->name), "%s", SCC_COMM_NAME(comm));
    mca_coll_scc_teardown(m, comm);
    return OMPI_SUCCESS;
}

mca_coll_base_module_t *mca_coll_scc_comm_query(struct ompi_communicator_t *comm, int *priority)
{
    mca_coll_scc_module_t *m;
    const char *why = NULL;
    char differs[400];
    int size = ompi_comm_size(comm);

    /* every test below gives the same answer on every member: the records agree first, so
       the parameters the others read are the same everywhere */
    if (OMPI_COMM_IS_INTER(comm)) {
        why = "intercommunicator";
    } else if (size < 2) {
        why = "single process";
    } else if (!mca_coll_scc_record_agree(comm, differs, sizeof(differs))) {
        why = differs;
    } else if (mca_coll_scc_config.priority < 0) {
        why = "negative priority";
    }
    if (NULL != why) {
        SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: declined (%s)", SCC_COMM_CID(comm),
                    SCC_COMM_NAME(comm), size, why);
        return NULL;
    }

    m = OBJ_NEW(mca_coll_scc_module_t);
    if (NULL == m) {
        return NULL;
    }
    *priority = mca_coll_scc_config.priority;
    m->super.coll_module_enable = scc_module_enable;
    m->super.coll_module_disable = scc_module_disable;
#define SCC_SET_FN(name, id)                                                     \
    SCC_COLL_PROVIDE(&m->super, name, mca_coll_scc_##name);                      \
    SCC_COLL_PROVIDE(&m->super, i##name, mca_coll_scc_i##name);                  \
    SCC_COLL_PROVIDE(&m->super, name##_init, mca_coll_scc_##name##_init);
    SCC_FOREACH_COLL(SCC_SET_FN)
#undef SCC_SET_FN
    if (mca_coll_scc_trace_enabled()) {
        mca_coll_scc_trace_install(m);
    }
    return &m->super;
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
    char cma[80] = "off";
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
        snprintf(cma, sizeof(cma), "on from %zu bytes (blocks per peer from %zu)", m->xp->cma_min,
                 m->xp->cma_a2a_min);
    }
    SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: transport %s, %d slots of %zu bytes per "
                "rank, single copy %s, %s while waiting", SCC_COMM_CID(comm),
                SCC_COMM_NAME(comm), m->size, m->xp->desc, m->xp->nslots, m->xp->slot_size,
                cma, m->xp->yield ? "yield" : "spin");
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
    if (m->lazy_calls < (uint64_t) mca_coll_scc_config.setup_calls) {
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
    if (NULL != m->cur_fiber) {
        m->xp->fiber = m->cur_fiber;    /* set up by a task: the call's waits stop it */
    }
    return true;
}

void mca_coll_scc_teardown(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm)
{
    scc_report_calls(m);
    mca_coll_scc_trace_report(m);   /* the per-phase trace, when on */
    mca_coll_scc_plans_report(m);   /* plans made and held, verbose 2 */
    mca_coll_scc_xport_detach(&m->xp);
    mca_coll_scc_plans_free(m);
    m->state = SCC_STATE_DECLINED;
}
