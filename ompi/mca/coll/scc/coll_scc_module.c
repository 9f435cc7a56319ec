/* coll_scc_module.c: comm_query, enable (saving every collective's fallback), disable (the
 * setup of a communicator, its teardown and its report: coll_scc_setup.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_scc.h"
#include "coll_scc_agree.h"
#include "coll_scc_exec.h"
#include "coll_scc_flat.h"
#include "coll_scc_param.h"
#include "coll_scc_persist.h"
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
    m->persistent_home = false;
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
    m->ncalls = 0;
    m->calls = mca_coll_scc_config.verbose >= 2 ? calloc(SCC_FORMS, sizeof(*m->calls)) : NULL;
    m->q_head = m->q_tail = NULL;
    m->cur_fiber = NULL;
    m->form = SCC_FORM_B;
    m->task_sub = NULL;
    m->q_next = NULL;
    m->q_listed = false;
    m->trying = false;
    memset(m->tries, 0, sizeof(m->tries));
    memset(m->tries_replayed, 0, sizeof(m->tries_replayed));
    m->counted = NULL;
    m->try_ncalls = 0;
    m->xp = NULL;
    memset(m->scratch, 0, sizeof(m->scratch));
    m->leases = 0;
    m->plans = NULL;
    m->children = NULL;
    m->nlevels = 0;
    m->center = 0;
    m->unavail = 0;
    m->cur_bytes = 0;
    m->trace = NULL;
    memset(&m->topo, 0, sizeof(m->topo));
    memset(&m->select, 0, sizeof(m->select));
    memset(&m->learn, 0, sizeof(m->learn));
}

/* Normally disable has torn down already (see coll_scc_compat.h); a module whose enable
 * failed, or that was never installed, is only destructed. */
static void scc_module_destruct(mca_coll_scc_module_t *m)
{
    if (m->persistent_home) {
        mca_coll_scc_persistent_home_gone();
    }
    if (!m->disabled) {
        mca_coll_scc_report_calls(m);
    }
    mca_coll_scc_trace_report(m);
    mca_coll_scc_xport_detach(&m->xp);
    mca_coll_scc_plans_free(m);
    free(m->children);
    mca_coll_scc_scratch_free(m);
    free(m->calls);
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
    /* (MPI_Init's thread level, kept: Open MPI's flag may change after) */
    mca_coll_scc_threads = enable_mpi_threads;
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
