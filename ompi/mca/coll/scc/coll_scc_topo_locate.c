/* coll_scc_topo_locate.c: this process's place in the hwloc topology Open MPI uses -- its
 * binding (the operating system's, or the launcher's record where the topology is imposed)
 * read as core, PU, package, NUMA node and shared cache. */
#include "coll_scc_component.h"

#include <stdio.h>
#include <string.h>

#include <hwloc.h>

#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"

#include "coll_scc_hwloc.h"
#include "coll_scc_topo.h"

enum { BIND_AUTO = 0, BIND_OS, BIND_LAUNCHER };

static int p_binding = BIND_AUTO;      /* coll_scc_binding */

static const mca_base_var_enum_value_t binding_values[] = {
    { BIND_AUTO, "auto" }, { BIND_OS, "os" }, { BIND_LAUNCHER, "launcher" }, { 0, NULL }
};

int mca_coll_scc_topo_locate_register_params(void)
{
    mca_base_var_enum_t *e = NULL;

    (void) mca_base_var_enum_create("coll_scc_binding", binding_values, &e);
    (void) mca_base_component_var_register(mca_coll_scc_config.version,
        "binding",
        "Where a process's binding comes from: os (the CPUs the operating system lets it run "
        "on), launcher (the cpuset mpirun recorded for it when it mapped and bound it; "
        "\"not bound\" when it did not bind it), or auto (launcher when Open MPI's topology "
        "is imposed from a file, hwloc_base_topo_file, whose CPUs are not this machine's; "
        "else os)",
        MCA_BASE_VAR_TYPE_INT, e, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &p_binding);
    if (NULL != e) {
        OBJ_RELEASE(e);
    }
    return OMPI_SUCCESS;
}

/* The binding into set; from_launcher says whose.  Returns 0, or -1 with note set. */
static int read_binding(hwloc_topology_t topo, hwloc_bitmap_t set, bool *from_launcher,
                        char *note, size_t len)
{
    int source = p_binding;
    char list[512];
    int rc;

    if (BIND_AUTO == source) {
        /* an imposed topology's CPUs are not this machine's: the operating system's binding
           would name the wrong cores (or, not bound, this machine's few CPUs as one core) */
        source = NULL != scc_ompi_topo_file() ? BIND_LAUNCHER : BIND_OS;
    }
    *from_launcher = BIND_LAUNCHER == source;
    if (BIND_OS == source) {
        if (0 != hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) || hwloc_bitmap_iszero(set)) {
            snprintf(note, len, "binding unknown (hwloc cannot read it)");
            return -1;
        }
        return 0;
    }
    rc = scc_launch_cpuset(list, sizeof(list));
    if (0 == rc) {
        hwloc_bitmap_copy(set, hwloc_topology_get_allowed_cpuset(topo));
        return 0;
    }
    if (hwloc_bitmap_list_sscanf(set, list) < 0
        || !hwloc_bitmap_intersects(set, hwloc_topology_get_complete_cpuset(topo))) {
        snprintf(note, len, "binding unknown (launcher record \"%.40s\" not in the topology)",
                 list);
        return -1;
    }
    return 0;
}

void mca_coll_scc_topo_locate(hwloc_topology_t topo, int32_t *loc, char *note, size_t len)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    bool launcher = false;
    const char *whose;

    if (NULL == set) {
        snprintf(note, len, "binding unknown (out of memory)");
        return;
    }
    if (0 != read_binding(topo, set, &launcher, note, len)) {
        hwloc_bitmap_free(set);
        return;
    }
    whose = launcher ? " (launcher's record)" : "";
    scc_hwloc_locate(topo, set, loc);
    if (!loc[SCC_LOC_BOUND]) {
        snprintf(note, len, "not bound%s", whose);
    } else if (loc[SCC_LOC_CORE] < 0) {
        snprintf(note, len, "bound to more than one core%s", whose);
    } else {
        snprintf(note, len, "bound to core %d%s", (int) loc[SCC_LOC_CORE], whose);
    }
    hwloc_bitmap_free(set);
}
