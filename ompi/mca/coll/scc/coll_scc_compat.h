/* coll_scc_compat.h: every difference between Open MPI 4.1 and 5.0 the component meets, in one
 * place.
 *
 * The component builds from one source tree against Open MPI 4.1 (coll API
 * 2.0.0, module 2.3.0) and 5.0 (coll API 2.4.0).  Every difference between the
 * two that the component meets lives in this header; no other file tests
 * OMPI_MAJOR_VERSION.  When you need an Open MPI internal that is not the same
 * in both series, add a helper here (one #if, both branches) and a line to the
 * table below; build against both (README: "Open MPI series").
 *
 * What differs (4.1.4 | 5.0.7), and what the component's code uses instead:
 *
 *   component version  SCC_COLL_BASE_VERSION
 *                      MCA_COLL_BASE_VERSION_2_0_0 | MCA_COLL_BASE_VERSION_2_4_0
 *   component type     scc_coll_component_t (and scc_coll_comm_query_fn_t)
 *                      mca_coll_base_component_2_0_0_t | mca_coll_base_component_2_4_0_t
 *   component export   SCC_MODULE_DECLSPEC extern mca_coll_scc_component_t mca_coll_scc_component;
 *                      OMPI_MODULE_DECLSPEC | OMPI_DECLSPEC (5.0 has no OMPI_MODULE_DECLSPEC)
 *   module type        mca_coll_base_module_t, the unversioned name, in both
 *                      (= mca_coll_base_module_2_3_0_t | mca_coll_base_module_2_4_0_t).
 *                      Its last fields differ (ft_event | coll_agree, coll_iagree): the base
 *                      constructor zeroes them; leave them alone.
 *   communicator index scc_comm_cid(comm), also SCC_COMM_CID(comm)
 *                      ompi_comm_get_cid(): c_contextid | ompi_comm_get_local_cid(): c_index.
 *                      This process's number for the communicator (messages, verbose output,
 *                      ompi_comm_lookup).  In 5.0 processes of one communicator may number it
 *                      differently (MPI_Comm_create_from_group): never a shared name.
 *   communicator uid   scc_comm_uid(comm), SCC_COMM_UID_FMT / SCC_COMM_UID_ARGS(u)
 *                      {0, c_contextid} | c_contextid = {cid_base, cid_sub}.
 *                      The same on every process of the communicator: name shared state with
 *                      it (with the job and node: ids are reused after MPI_Comm_free).
 *   communicator name  scc_comm_name(comm), also SCC_COMM_NAME(comm): never NULL
 *                      c_name is char[MPI_MAX_OBJECT_NAME] | char *, NULL until named
 *   fallback           SCC_COLL_SAVE(comm, coll, fn, module), SCC_COLL_PROVIDE(module, coll, fn),
 *                      SCC_COLL_WITHDRAW(module, coll): the same protocol in both (below)
 *   datatype retention scc_retain_datatypes_w(req, stypes, rtypes, use_topo)
 *                      no use_topo: topology counts on every topology communicator | use_topo
 *   collective tags    SCC_COLL_TAG(BCAST), SCC_COLL_TAG(ALLREDUCE), ...
 *                      the blocking tags are -10..-26 in both, but the ranges after them
 *                      (nonblocking base, FT agreement, UCC, HCOLL) were renumbered in 5.0:
 *                      name tags through the macros, never by number; a call's own tag:
 *                      scc_coll_reserve_tag(comm), ompi_coll_base_nbc_reserve_tags in both
 *   threads in use     opal_using_threads() in both; opal/threads/thread_usage.h |
 *                      opal/mca/threads/thread_usage.h (included here)
 *   idle progress      scc_yield_when_idle() (also SCC_YIELD_WHEN_IDLE()), scc_yield()
 *                      opal_progress_yield_when_idle in both; sched_yield() | opal_thread_yield()
 *   runtime up         scc_rte_ready(): false where no job runs (ompi_info opens components)
 *                      ompi_rte_initialized | a valid job id (5.0 sets ompi_rte_initialized
 *                      only after the frameworks are open)
 *   hwloc topology     scc_ompi_topology(): opal_hwloc_topology in both, loaded on demand
 *   imposed topology   scc_ompi_topo_file(): opal_hwloc_base_topo_file in both
 *   launcher binding   scc_launch_cpuset(buf, len): PMIX_CPUSET of this process in both
 *   file cleanup       scc_register_cleanup(path): the runtime removes the file when the process
 *                      ends: opal_pmix.register_cleanup | PMIx_Job_control_nb with
 *                      PMIX_REGISTER_CLEANUP
 *   host name          scc_proc_hostname(proc, buf, len): opal_get_proc_hostname() in both;
 *                      the runtime's string (proc_hostname) | a copy to free
 *   modex              scc_modex_send(component, data, size), scc_modex_recv(component, proc,
 *                      data, size): OPAL_MODEX_SEND/RECV in both, scope OPAL_PMIX_LOCAL |
 *                      PMIX_LOCAL; opal/mca/pmix/pmix.h | pmix-internal.h.  Both series open
 *                      the coll components before MPI_Init's modex fence, so data sent at
 *                      component open reaches the local peers.
 *   libraries          configure's OMPI_LIBS: -lmpi -lopen-rte -lopen-pal | -lmpi -lopen-pal;
 *                      5.0's headers include pmix.h (configure's PMIX_CPPFLAGS) and, on Debian
 *                      13, headers only the source tree has (configure --with-ompi-source)
 *
 * How the coll framework of 4.1 and of 5.0 uses a module (base/coll_base_comm_select.c,
 * coll_base_comm_unselect.c; identical in both series apart from names):
 *   1. comm_query returns a module whose coll_<name> pointers are set for the collectives it
 *      serves (SCC_COLL_PROVIDE), and a priority.
 *   2. Modules are enabled in increasing priority.  When enable(module, comm) runs,
 *      comm->c_coll holds the functions the lower-priority modules installed: save the ones
 *      the module may hand calls to (SCC_COLL_SAVE, with OBJ_RETAIN of the module).  enable
 *      may still clear a coll_<name> pointer (SCC_COLL_WITHDRAW): that collective then goes
 *      straight to the saved function.  A failing enable drops the module.
 *   3. After enable succeeds the framework copies every non-NULL coll_<name> of the module
 *      into comm->c_coll and retains the module once per function.  The module does not
 *      install itself in 4.1 or 5.0 (the MCA_COLL_INSTALL_API / MCA_COLL_SAVE_API protocol,
 *      where enable installs and disable restores, is Open MPI main's coll API 3.0.0 and is
 *      in no 5.0.x release up to 5.0.10).
 *   4. When the communicator is freed, mca_coll_base_comm_unselect() calls the
 *      coll_module_disable of the module installed for each function, once per function (so
 *      a module serving ten collectives is disabled ten times), then releases it.  The
 *      communicator is still valid during disable: detach from shared resources there, make
 *      it idempotent, and release the saved modules in the destructor.
 */
#ifndef MCA_COLL_SCC_COMPAT_H
#define MCA_COLL_SCC_COMPAT_H

#include "ompi_config.h"

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/hwloc/base/base.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/proc.h"
#include "ompi/runtime/mpiruntime.h"
#if OMPI_MAJOR_VERSION == 4
#include "opal/mca/pmix/pmix.h"
#include "opal/threads/thread_usage.h"
#else
#include "opal/mca/pmix/pmix-internal.h"
#include "opal/mca/threads/thread_usage.h"
#endif
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/mca/coll/base/coll_tags.h"

/* Exactly one of these is defined (to 1): test with #if or #ifdef, here only. */
#if OMPI_MAJOR_VERSION == 4 && OMPI_MINOR_VERSION == 1
#define SCC_OMPI_4 1
#elif OMPI_MAJOR_VERSION == 5 && OMPI_MINOR_VERSION == 0
#define SCC_OMPI_5 1
#else
#error "coll/scc supports Open MPI 4.1 and 5.0"
#endif

/* configure checked the series against the coll API; check again where it matters */
#if SCC_OMPI_4 && !defined(MCA_COLL_BASE_VERSION_2_0_0)
#error "Open MPI 4.1 headers without coll API 2.0.0"
#endif
#if SCC_OMPI_5 && !defined(MCA_COLL_BASE_VERSION_2_4_0)
#error "Open MPI 5.0 headers without coll API 2.4.0"
#endif

/* ---------------------------------------------------------------- component */

#if SCC_OMPI_4
#define SCC_MODULE_DECLSPEC OMPI_MODULE_DECLSPEC
#define SCC_COLL_BASE_VERSION MCA_COLL_BASE_VERSION_2_0_0
typedef mca_coll_base_component_2_0_0_t scc_coll_component_t;
typedef mca_coll_base_component_comm_query_2_0_0_fn_t scc_coll_comm_query_fn_t;
#else
#define SCC_MODULE_DECLSPEC OMPI_DECLSPEC
#define SCC_COLL_BASE_VERSION MCA_COLL_BASE_VERSION_2_4_0
typedef mca_coll_base_component_2_4_0_t scc_coll_component_t;
typedef mca_coll_base_component_comm_query_2_4_0_fn_t scc_coll_comm_query_fn_t;
#endif

/* ---------------------------------------------------------------- communicator */

/* This process's index of the communicator (not shared between processes in 5.0). */
static inline uint32_t scc_comm_cid(const struct ompi_communicator_t *comm)
{
#if SCC_OMPI_4
    return ompi_comm_get_cid((struct ompi_communicator_t *) comm);
#else
    return ompi_comm_get_local_cid(comm);
#endif
}

/* An identity every process of the communicator shares while it exists. */
typedef struct scc_comm_uid {
    uint64_t hi, lo;
} scc_comm_uid_t;

#define SCC_COMM_UID_FMT "%016llx%016llx"
#define SCC_COMM_UID_ARGS(u) (unsigned long long) (u).hi, (unsigned long long) (u).lo

static inline scc_comm_uid_t scc_comm_uid(const struct ompi_communicator_t *comm)
{
    scc_comm_uid_t u;
#if SCC_OMPI_4
    u.hi = 0;
    u.lo = comm->c_contextid;
#else
    u.hi = comm->c_contextid.cid_base;
    u.lo = comm->c_contextid.cid_sub.u64;
#endif
    return u;
}

static inline bool scc_comm_uid_equal(scc_comm_uid_t a, scc_comm_uid_t b)
{
    return a.hi == b.hi && a.lo == b.lo;
}

/* The communicator's name, never NULL. */
static inline const char *scc_comm_name(const struct ompi_communicator_t *comm)
{
#if SCC_OMPI_4
    return comm->c_name;
#else
    return NULL != comm->c_name ? comm->c_name : "";
#endif
}

/* The first names of these helpers, kept for code written against them. */
#define SCC_COMM_CID(comm) scc_comm_cid(comm)
#define SCC_COMM_NAME(comm) scc_comm_name(comm)

/* ---------------------------------------------------------------- enable / fallback */

/* Reads the function and module comm->c_coll holds for collective `coll` (a bare name:
 * bcast, allreduce, ...) into fn_out/module_out, without retaining the module. */
#define SCC_COLL_SAVE(comm, coll, fn_out, module_out)                            \
    do {                                                                         \
        (fn_out) = (comm)->c_coll->coll_##coll;                                  \
        (module_out) = (comm)->c_coll->coll_##coll##_module;                     \
    } while (0)

/* In comm_query: the module serves `coll` with fn (the framework installs it after enable). */
#define SCC_COLL_PROVIDE(module, coll, fn) ((module)->coll_##coll = (fn))

/* In enable: the module does not serve `coll` on this communicator after all. */
#define SCC_COLL_WITHDRAW(module, coll) ((module)->coll_##coll = NULL)

/* ---------------------------------------------------------------- nonblocking requests */

/* Keeps the derived datatypes of a vector collective alive until the request completes.
 * use_topo: the vectors have one entry per neighbour of a topology (neighbourhood
 * collectives) rather than per process; 4.1 decides that from the communicator alone. */
static inline int scc_retain_datatypes_w(ompi_request_t *req, ompi_datatype_t *const stypes[],
                                         ompi_datatype_t *const rtypes[], bool use_topo)
{
#if SCC_OMPI_4
    (void) use_topo;
    return ompi_coll_base_retain_datatypes_w(req, stypes, rtypes);
#else
    return ompi_coll_base_retain_datatypes_w(req, stypes, rtypes, use_topo);
#endif
}

/* ---------------------------------------------------------------- tags */

/* The point-to-point tag of a blocking collective (NAME in capitals: BCAST, ALLREDUCE, ...).
 * A blocking collective owns its tag on a communicator while it runs, in both series. */
#define SCC_COLL_TAG(NAME) (MCA_COLL_BASE_TAG_##NAME)

#define SCC_COLL_TAG_FIRST MCA_COLL_BASE_TAG_ALLGATHER
#define SCC_COLL_TAG_LAST MCA_COLL_BASE_TAG_SCATTERV

_Static_assert(SCC_COLL_TAG_FIRST == -10 && SCC_COLL_TAG_LAST == -26
               && SCC_COLL_TAG(BCAST) == -17 && SCC_COLL_TAG(ALLREDUCE) == -12,
               "the blocking collective tags moved: check every use of SCC_COLL_TAG");

/* A tag of the communicator's own for one call, from the range Open MPI's nonblocking
 * collectives take theirs from (ompi_coll_base_nbc_reserve_tags in both series): every
 * member must reserve at the same calls. */
static inline int scc_coll_reserve_tag(struct ompi_communicator_t *comm)
{
    return ompi_coll_base_nbc_reserve_tags(comm, 1);
}

/* ---------------------------------------------------------------- progress */

/* True when Open MPI decided that waiting processes should yield the core (oversubscribed
 * node, or mpi_yield_when_idle set); read it after MPI_Init, never cache it at open. */
static inline bool scc_yield_when_idle(void)
{
    return opal_progress_yield_when_idle;
}

#define SCC_YIELD_WHEN_IDLE() scc_yield_when_idle()

/* Yields the core the way opal_progress() does in this series. */
static inline void scc_yield(void)
{
#if SCC_OMPI_4
    (void) sched_yield();
#else
    opal_thread_yield();
#endif
}

/* ---------------------------------------------------------------- runtime services */

/* True in a process of an MPI job from component open on; false in ompi_info. */
static inline bool scc_rte_ready(void)
{
#if SCC_OMPI_4
    return ompi_rte_initialized;
#else
    return OPAL_JOBID_INVALID != opal_process_info.my_name.jobid;
#endif
}

/* Asks the runtime to remove the file at path when this process ends, however it ends (its
 * daemon does it, after a SIGKILL too); false where the runtime cannot. */
static inline bool scc_register_cleanup(char *path)
{
#if SCC_OMPI_4
    return NULL != opal_pmix.register_cleanup
           && OPAL_SUCCESS == opal_pmix.register_cleanup(path, false, false, false);
#else
    pmix_info_t info;
    pmix_status_t rc;
    PMIX_INFO_LOAD(&info, PMIX_REGISTER_CLEANUP, path, PMIX_STRING);
    rc = PMIx_Job_control_nb(NULL, 0, &info, 1, NULL, NULL);
    PMIX_INFO_DESTRUCT(&info);
    return PMIX_SUCCESS == rc;
#endif
}

/* The hwloc topology Open MPI loaded (loading it if it has not yet), or NULL. */
static inline hwloc_topology_t scc_ompi_topology(void)
{
    if (NULL == opal_hwloc_topology) {
        (void) opal_hwloc_base_get_topology();
    }
    return opal_hwloc_topology;
}

/* The topology file Open MPI was told to use instead of this machine's (hwloc_base_topo_file),
 * or NULL.  4.1's processes read it themselves; 5.0's launcher (PRRTE) keeps the parameter
 * and hands its topology over PMIx, so a process cannot tell: NULL there (coll_scc_binding
 * launcher still takes the launcher's record). */
static inline const char *scc_ompi_topo_file(void)
{
#if SCC_OMPI_4
    return NULL == opal_hwloc_base_topo_file || '\0' == opal_hwloc_base_topo_file[0]
           ? NULL : opal_hwloc_base_topo_file;
#else
    return NULL;
#endif
}

/* Where the launcher bound this process, as it recorded it at launch: a list of PU os indexes
 * ("2-3") into buf and 1, or 0 when it did not bind it.  PMIX_CPUSET of this process in both
 * (5.0 keeps it in opal_process_info.cpuset; 4.1's opal_process_info.cpuset is the operating
 * system's binding when the launcher did not bind). */
static inline int scc_launch_cpuset(char *buf, size_t len)
{
    const char *c;
#if SCC_OMPI_4
    char *val = NULL;
    int rc;

    OPAL_MODEX_RECV_VALUE(rc, OPAL_PMIX_CPUSET, &OPAL_PROC_MY_NAME, &val, OPAL_STRING);
    if (OPAL_SUCCESS != rc || NULL == val) {
        free(val);
        return 0;
    }
    c = val;
#else
    c = opal_process_info.cpuset;
    if (NULL == c || !opal_process_info.proc_is_bound) {
        return 0;
    }
#endif
    /* PMIx may prefix the list with its format ("hwloc:0-3") */
    if (NULL != strchr(c, ':') && (c[0] < '0' || c[0] > '9')) {
        c = strchr(c, ':') + 1;
    }
    snprintf(buf, len, "%s", c);
#if SCC_OMPI_4
    free(val);
#endif
    return 1;
}

/* Publishes data of `component` to every process of the job (before the modex fence). */
static inline int scc_modex_send(const mca_base_component_t *component, const void *data,
                                 size_t size)
{
    int rc;
#if SCC_OMPI_4
    OPAL_MODEX_SEND(rc, OPAL_PMIX_GLOBAL, component, data, size);
#else
    OPAL_MODEX_SEND(rc, PMIX_GLOBAL, component, data, size);
#endif
    return rc;
}

/* Reads what `name` published for `component`; *data is malloc'ed (free it), NULL when
 * absent. */
static inline int scc_modex_recv(const mca_base_component_t *component,
                                 const opal_process_name_t *name, void **data, size_t *size)
{
    int rc;
    *data = NULL;
    *size = 0;
    OPAL_MODEX_RECV(rc, component, name, data, size);
    return rc;
}

/* The host name of `proc` into buf (len bytes, always terminated); "an unknown host" when
 * the runtime does not know it.  4.1 lends its own string, 5.0 hands back a copy. */
static inline const char *scc_proc_hostname(const opal_proc_t *proc, char *buf, size_t len)
{
    char *h = NULL == proc ? NULL : opal_get_proc_hostname(proc);
    snprintf(buf, len, "%s", NULL == h || 0 == strcmp(h, "unknown") ? "an unknown host" : h);
#if SCC_OMPI_5
    free(h);
#endif
    return buf;
}

#endif /* MCA_COLL_SCC_COMPAT_H */
