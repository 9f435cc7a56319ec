/* coll_scc_trace.c: the per-phase trace's parameter and the running call's sums that the
 * layers add to (coll_scc_trace.h); the entry points that set them up and the summary are
 * the module's (coll_scc_trace_entry.c). */
#include "coll_scc_component.h"
#include "coll_scc_trace.h"

#include "opal/mca/base/mca_base_var.h"

static int scc_trace_param = 0;

int mca_coll_scc_trace_register_params(void)
{
    scc_trace_param = 0;
    (void) mca_base_component_var_register(mca_coll_scc_config.version,
        "trace",
        "Per-phase trace of every collective call (a build configured with --enable-trace "
        "only): 1 sums, per communicator, collective and message size, the time of a call "
        "spent in single-copy reads, flag waits, combines and copies, and its page faults, and "
        "prints them per process when the communicator is freed; 0 off",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_LOCAL,
        &scc_trace_param);
    return OMPI_SUCCESS;
}

#if defined(SCC_TRACE) && SCC_TRACE

__thread scc_trace_call_t *mca_coll_scc_trace_cur = NULL;

bool mca_coll_scc_trace_enabled(void)
{
    return scc_trace_param > 0;
}

#else

bool mca_coll_scc_trace_enabled(void)
{
    static int told;
    if (scc_trace_param > 0 && 0 == told++) {
        SCC_VERBOSE(0, "coll:scc: coll_scc_trace is set, but this build has no trace "
                    "(configure --enable-trace)");
    }
    return false;
}

#endif
