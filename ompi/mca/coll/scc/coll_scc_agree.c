/* coll_scc_agree.c: decisions every member of a communicator takes alike -- agreements through
 * the fallback module -- and the fault-injection hook (coll_scc_fail_setup) that tests them. */
#include <stdlib.h>
#include <string.h>

#include "coll_scc_component.h"
#include "coll_scc_agree.h"

#include "opal/mca/base/mca_base_var.h"

/* "<rank>:<step>[@<call>],...": the steps that fail on purpose, and where */
static char *scc_fail_setup = NULL;
bool mca_coll_scc_faults = false;

int mca_coll_scc_agree_register_params(void)
{
    scc_fail_setup = "";
    (void) mca_base_component_var_register(mca_coll_scc_config.version,
        "fail_setup",
        "Testing only: a comma-separated list of <communicator rank>:<step>[@<call>]; that rank "
        "of every communicator set up fails that step as if memory or a mapping were missing "
        "(steps: topo, children, xport, mpb, device, claim, segment, buffers, cma, pml and "
        "plans at setup, where every member must then decline alike; killed: the rank that "
        "made a segment file kills itself with SIGKILL before anyone attached; at calls: plan "
        "when a call needs a new plan, scratch when it asks for a scratch buffer -- with "
        "@<call>, in the communicator's <call>-th collective only (counting from 1) -- where "
        "every member must still end the call, with its error or with the job's end naming "
        "the cause)",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, MCA_BASE_VAR_FLAG_INTERNAL, OPAL_INFO_LVL_9,
        MCA_BASE_VAR_SCOPE_READONLY, &scc_fail_setup);
    mca_coll_scc_faults = NULL != scc_fail_setup && '\0' != *scc_fail_setup;
    return OMPI_SUCCESS;
}

/* The entry of the list that names this rank and step: at setup (call 0), one without
 * @<call>; at a call, one without or with that call's number. */
static bool scc_fault_named(const scc_members_t *mb, const char *step, uint64_t call)
{
    const char *p = scc_fail_setup;
    size_t len = strlen(step);

    while (NULL != p && '\0' != *p) {
        char *end;
        long r = strtol(p, &end, 10);
        if (end != p && ':' == *end && r == mb->rank && 0 == strncmp(end + 1, step, len)) {
            const char *after = end + 1 + len;
            if (',' == *after || '\0' == *after) {
                return true;
            }
            if ('@' == *after && call > 0 && strtoull(after + 1, &end, 10) == call
                && (',' == *end || '\0' == *end)) {
                return true;
            }
        }
        p = strchr(p, ',');
        p = NULL != p ? p + 1 : NULL;
    }
    return false;
}

static bool scc_fault_fires(const scc_members_t *mb, const char *step, uint64_t call)
{
    static int fired;   /* said once per process at verbose 1 (plans fail per call) */

    if (!scc_fault_named(mb, step, call)) {
        return false;
    }
    SCC_VERBOSE(0 == __atomic_fetch_add(&fired, 1, __ATOMIC_RELAXED) ? 1 : 3,
                "coll:scc: comm %u (%s) size %d: rank %d: %s fails here "
                "(coll_scc_fail_setup)", mb->cid, mb->name, mb->size, mb->rank, step);
    return true;
}

bool mca_coll_scc_fault(const scc_members_t *mb, const char *step)
{
    if (OPAL_LIKELY(!mca_coll_scc_faults)) {
        return false;
    }
    return scc_fault_fires(mb, step, mb->ops->call(mb->owner));
}

int mca_coll_scc_agree(const scc_members_t *mb, int mine)
{
    int all = 0;
    if (OMPI_SUCCESS != mb->ops->allreduce(mb->owner, &mine, &all, MPI_INT, MPI_MIN)) {
        return 0;
    }
    return all;
}

int mca_coll_scc_agree_first(const scc_members_t *mb, bool ok)
{
    int mine = ok ? mb->size : mb->rank, first = 0;
    if (OMPI_SUCCESS != mb->ops->allreduce(mb->owner, &mine, &first, MPI_INT, MPI_MIN)) {
        return 0;
    }
    return first < mb->size ? first : -1;
}

unsigned mca_coll_scc_agree_mask(const scc_members_t *mb, unsigned mine)
{
    unsigned all = 0;
    if (OMPI_SUCCESS != mb->ops->allreduce(mb->owner, &mine, &all, MPI_UNSIGNED, MPI_BAND)) {
        return 0;
    }
    return all;
}
