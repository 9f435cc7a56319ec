/* coll_scc_component.c: the component structure, its MCA parameters and its open/close (the
 * values they set: coll_scc_config.c). */
#include "coll_scc.h"
#include "coll_scc_trace.h"
#include "coll_scc_agree.h"
#include "coll_scc_lease.h"
#include "coll_scc_mpb.h"
#include "coll_scc_param.h"
#include "coll_scc_record.h"
#include "coll_scc_task.h"
#include "coll_scc_xport_slots.h"

#include <dlfcn.h>
#include <libgen.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/util/show_help.h"

/* The component's only exported symbol is mca_coll_scc_component (Open MPI looks it up by
 * name); the build hides every other one (-fvisibility=hidden, configure.ac).  Visible here
 * too where the installation's DECLSPEC macros expand to nothing. */
#define SCC_EXPORT __attribute__((visibility("default")))

static int scc_open(void);
static int scc_close(void);

SCC_EXPORT mca_coll_scc_component_t mca_coll_scc_component = {
    .super = {
        .collm_version = {
            SCC_COLL_BASE_VERSION,
            .mca_component_name = "scc",
            MCA_BASE_MAKE_VERSION(component, 0, 1, 0),
            .mca_open_component = scc_open,
            .mca_close_component = scc_close,
            .mca_register_component_params = mca_coll_scc_register_params,
        },
        .collm_data = {
            MCA_BASE_METADATA_PARAM_NONE
        },
        .collm_init_query = mca_coll_scc_init_query,
        .collm_comm_query = mca_coll_scc_comm_query,
    },
};

/* Help messages live in help-coll-scc.txt beside the component's own .so. */
static void scc_add_help_dir(void)
{
    Dl_info info;
    char *path;

    if (0 == dladdr((void *) &mca_coll_scc_component, &info) || NULL == info.dli_fname) {
        return;
    }
    path = strdup(info.dli_fname);
    if (NULL != path) {
        opal_show_help_add_dir(dirname(path));
        free(path);
    }
}

/* One parameter changed: MPI_COMM_WORLD's rank 0 says so, once per job (every process
 * changes it alike); outside a job (ompi_info), this process. */
static void scc_param_changed(const char *name, const char *given, const char *used,
                              const char *why)
{
    if (!scc_rte_ready() || 0 == OMPI_PROC_MY_NAME->vpid) {
        mca_coll_scc_show_help("param-value", name, given, why, name, used);
    }
}

/* coll_scc_setup_calls' default (README, Resident: what setup costs against what a call
 * saves) */
#define SCC_SETUP_CALLS_DEFAULT 32

/* Bytes of payload the mpb transport wants per slot at least (coll_scc_xport_mpb.c). */
#define SCC_MPB_MIN_SLOT 256

/* The byte thresholds of the selection table: the component's field and its default's in
 * scc_select_params_t (both of the parameter's name), and what the threshold decides. */
typedef struct scc_bytes_param {
    const char *name;
    size_t at, dflt_at;
    const char *desc;
} scc_bytes_param_t;

#define SCC_BYTES(f, desc) \
    { #f, offsetof(mca_coll_scc_config_t, f), offsetof(scc_select_params_t, f), desc }

static const scc_bytes_param_t scc_bytes_params[] = {
    SCC_BYTES(line_max,
        "Flat topologies of more than two processes: bcast and reduce of up to this many "
        "bytes use the direct algorithms (the message travels in the flag's line), larger "
        "ones the pipelined trees; unless set, no direct range from coll_scc_many_min "
        "processes on"),
    SCC_BYTES(tree_max,
        "Flat topologies of more than two processes: allreduce of up to this many bytes "
        "uses the direct algorithm (every rank combines everyone's data), larger ones trees; "
        "unless set, not used from coll_scc_many_min processes on (the butterfly instead)"),
    SCC_BYTES(direct_min,
        "Flat topologies of more than two processes: allreduce of this many bytes or more "
        "uses the direct reduce-scatter + allgather (single copy); from coll_scc_tree_max "
        "to here, trees; unless set, from coll_scc_many_min processes on the direct algorithm "
        "follows the butterfly (coll_scc_butterfly_max)"),
    SCC_BYTES(dopl_min,
        "Mesh and domain topologies: broadcasts of this many bytes or more use DOPL "
        "(smaller ones NoC_Msg on a mesh, trees on domains); unless set, no DOPL on domains "
        "of coll_scc_many_min processes or more"),
    SCC_BYTES(nodes_jia_min,
        "Communicators across nodes: broadcasts of this many bytes or more run Jia's "
        "multiple-message schedule between the nodes' leaders, smaller ones a binomial "
        "tree (each leader forwards every block to its node as it arrives)"),
    SCC_BYTES(nodes_tree_min,
        "Communicators across nodes: allreduce below this many bytes reduces within each "
        "node, runs a butterfly (recursive doubling) between the nodes' leaders and hands "
        "the result back; from here it reduces and broadcasts by binomial trees between the "
        "leaders"),
    SCC_BYTES(nodes_ring_min,
        "Communicators across nodes: allreduce of this many bytes or more reduces within "
        "each node, runs a ring between the nodes' leaders and hands the result back; "
        "smaller ones reduce and broadcast by binomial trees between the leaders"),
    SCC_BYTES(nodes_allgather_ring_min,
        "Communicators across nodes: allgather of this many bytes per process or more "
        "passes the nodes' parts round a ring of the nodes' leaders; smaller ones exchange "
        "them by Bruck's dissemination (ceil(log2 nodes) rounds instead of nodes - 1)"),
    SCC_BYTES(nodes_alltoall_pairwise_min,
        "Communicators across nodes: alltoall with blocks of this many bytes or more runs "
        "the pairwise exchange (a message per pair of processes); smaller blocks go "
        "through the nodes' leaders (each leader gathers its node's blocks and sends "
        "another node's leader all of them for its node in one message)"),
    SCC_BYTES(butterfly_max,
        "One node of coll_scc_many_min processes or more: allreduce of up to this many bytes "
        "runs the butterfly (recursive doubling), larger ones the direct reduce-scatter + "
        "allgather; unless set, 16384 from 128 processes on (README, Many cores)"),
    SCC_BYTES(scan_ring_min,
        "Communicators within one node of more than two processes: scan and exscan of this "
        "many bytes or more pass the prefix piece by piece along the ranks (one combine per "
        "element and process); smaller ones read every lower rank's input directly"),
};

#define SCC_BYTES_COUNT (sizeof(scc_bytes_params) / sizeof(scc_bytes_params[0]))

static size_t *scc_bytes_at(mca_coll_scc_config_t *cs, size_t at)
{
    return (size_t *) ((char *) cs + at);
}

static size_t scc_bytes_dflt(const scc_select_params_t *d, size_t dflt_at)
{
    return *(const size_t *) ((const char *) d + dflt_at);
}

/* The parameters whose value the many-core defaults leave as the user set it
 * (coll_scc_select_many.c), by name; the bit of name (0: none). */
static const struct {
    const char *name;
    uint32_t bit;
} scc_given[] = {
    { "line_max", SCC_GIVEN_LINE_MAX }, { "tree_max", SCC_GIVEN_TREE_MAX },
    { "direct_min", SCC_GIVEN_DIRECT_MIN }, { "dopl_min", SCC_GIVEN_DOPL_MIN },
    { "butterfly_max", SCC_GIVEN_BUTTERFLY_MAX }, { "barrier_radix", SCC_GIVEN_BARRIER_RADIX },
};

static uint32_t scc_given_bit(const char *name)
{
    for (size_t i = 0; i < sizeof(scc_given) / sizeof(scc_given[0]); ++i) {
        if (0 == strcmp(name, scc_given[i].name)) {
            return scc_given[i].bit;
        }
    }
    return 0;
}

/* Those set from any source but the default (the command line, the environment, a file). */
static uint32_t scc_given_mask(void)
{
    uint32_t mask = 0;

    for (size_t i = 0; i < sizeof(scc_given) / sizeof(scc_given[0]); ++i) {
        const mca_base_var_t *v = NULL;
        int idx = mca_base_var_find("ompi", "coll", "scc", scc_given[i].name);
        if (idx >= 0 && OPAL_SUCCESS == mca_base_var_get(idx, &v) && NULL != v
            && MCA_BASE_VAR_SOURCE_DEFAULT != v->mbv_source) {
            mask |= scc_given[i].bit;
        }
    }
    return mask;
}

/* Applies the rules of coll_scc_param.c to the values Open MPI read when the parameters
 * were registered: from here on the component uses the values that come out, the same on
 * every process given the same values (they are also what the configuration records
 * compare).  Before this, a dopl_chunks of 0 divided by zero, a fan-out above 64 overran
 * the tree's children and slot counts outside the proved ones could deadlock. */
static void scc_check_params(void)
{
    mca_coll_scc_config_t *cs = &mca_coll_scc_config;
    int *const field[SCC_PARAM_COUNT] = {
        [SCC_PARAM_BARRIER_RADIX] = &cs->barrier_radix,
        [SCC_PARAM_DOPL_CHUNKS] = &cs->dopl_chunks,
        [SCC_PARAM_CMA_BLOCK] = &cs->cma_block,
        [SCC_PARAM_SHM_SLOT_SIZE] = &cs->shm_slot_size,
        [SCC_PARAM_SHM_NSLOTS] = &cs->shm_nslots,
        [SCC_PARAM_MPB_CORE_SIZE] = &cs->mpb_core_size,
        [SCC_PARAM_MPB_NSLOTS] = &cs->mpb_nslots,
        [SCC_PARAM_SPIN] = &cs->spin,
        [SCC_PARAM_PIPE_SIZE] = &cs->pipe_size,
        [SCC_PARAM_PIPE_SIZE_OVER] = &cs->pipe_size_over,
        [SCC_PARAM_CMA] = &cs->cma,
        [SCC_PARAM_CMA_MIN] = &cs->cma_min,
        [SCC_PARAM_CMA_REDUCE_MIN] = &cs->cma_reduce_min,
        [SCC_PARAM_CMA_OVER_MIN] = &cs->cma_over_min,
        [SCC_PARAM_NODES_BLOCK] = &cs->nodes_block,
        [SCC_PARAM_RSAG_MIN] = &cs->rsag_min,
        [SCC_PARAM_INPLACE_COPY_MAX] = &cs->inplace_copy_max,
        [SCC_PARAM_SETUP_CALLS] = &cs->setup_calls,
        [SCC_PARAM_SHM_RESIDENT] = &cs->shm_resident,
        [SCC_PARAM_MPB_STRICT_TEST] = &mca_coll_scc_strict_test,
        [SCC_PARAM_TASK_STACK] = &mca_coll_scc_task_stack,
        [SCC_PARAM_MANY_MIN] = &cs->many_min,
        [SCC_PARAM_CMA_ADAPT] = &cs->cma_adapt,
        [SCC_PARAM_NBC_TRY] = &cs->nbc_try,
        [SCC_PARAM_PERSISTENT_ORDERED] = &cs->persistent_ordered,
        [SCC_PARAM_PERSISTENT_COMMS] = &cs->persistent_comms,
    };
    char why[320], given[64], used[64], name[64];
    int fanout[8], n, C, R;
    const char *grid;
    scc_select_params_t d;

    for (int i = 0; i < SCC_PARAM_COUNT; ++i) {
        long v = scc_param_fix(&scc_param_rules[i], *field[i], why, sizeof(why));
        if (v != *field[i]) {
            snprintf(given, sizeof(given), "%d", *field[i]);
            snprintf(used, sizeof(used), "%ld", v);
            scc_param_changed(scc_param_rules[i].name, given, used, why);
            *field[i] = (int) v;
        }
    }
    /* per slot a header and a count in each of the chip's 48 readers' ack lines (whose
       rounding to whole lines costs a line each at most) */
    n = scc_param_mpb_nslots(cs->mpb_core_size, cs->mpb_nslots,
                             sizeof(scc_region_ctrl_t) + SCC_CHIP_CORES * SCC_MPB_LINE,
                             sizeof(scc_msg_hdr_t) + SCC_CHIP_CORES * sizeof(uint32_t),
                             SCC_MPB_MIN_SLOT);
    if (n != cs->mpb_nslots) {
        snprintf(why, sizeof(why), "%d slots of %d bytes or more and their control do not "
                 "fit coll_scc_mpb_core_size = %d", cs->mpb_nslots, SCC_MPB_MIN_SLOT,
                 cs->mpb_core_size);
        snprintf(given, sizeof(given), "%d", cs->mpb_nslots);
        snprintf(used, sizeof(used), "%d", n);
        scc_param_changed("coll_scc_mpb_nslots", given, used, why);
        cs->mpb_nslots = n;
    }
    /* the modules parse the string again, alike (scc_setup_trees): only the message here */
    n = scc_param_fanout(cs->tree_fanout, fanout, 8, SCC_TREE_MAX_CHILDREN, why, sizeof(why));
    if ('\0' != why[0]) {
        used[0] = '\0';
        for (int i = 0; i < n; ++i) {
            size_t l = strlen(used);
            snprintf(used + l, sizeof(used) - l, "%s%d", i ? "," : "", fanout[i]);
        }
        scc_param_changed("coll_scc_tree_fanout", cs->tree_fanout, n ? used : "auto", why);
    }
    /* likewise the nodes' grid (mca_coll_scc_topo_nodes): before, 4294967298x1 was read as
       2x1 and 65536x65536 asked for a grid array of 16 GB */
    grid = mca_coll_scc_topo_nodes_grid();
    (void) scc_param_grid(grid, SCC_MESH_MAX_POSITIONS, &C, &R, why, sizeof(why));
    if ('\0' != why[0]) {
        scc_param_changed("coll_scc_nodes", grid, "auto", why);
    }
    /* Open MPI reads a negative byte threshold as a huge one, which took an algorithm's
       whole range without a word */
    scc_select_params_default(&d);
    cs->given = scc_given_mask();
    for (size_t i = 0; i < SCC_BYTES_COUNT; ++i) {
        const scc_bytes_param_t *b = &scc_bytes_params[i];
        size_t *v = scc_bytes_at(cs, b->at);
        size_t u = scc_param_bytes(*v, scc_bytes_dflt(&d, b->dflt_at), why, sizeof(why));
        if ('\0' != why[0]) {
            snprintf(name, sizeof(name), "coll_scc_%s", b->name);
            snprintf(given, sizeof(given), "%zu", *v);
            snprintf(used, sizeof(used), "%zu", u);
            scc_param_changed(name, given, used, why);
            *v = u;
            /* a value that gives way to the default is as good as not set */
            cs->given &= ~scc_given_bit(b->name);
        }
    }
    /* a count that wrapped to 0 would start again from the base (scc_xport_begin) */
    if (mca_coll_scc_call_base > UINT64_MAX / 2) {
        snprintf(given, sizeof(given), "%llu", (unsigned long long) mca_coll_scc_call_base);
        snprintf(used, sizeof(used), "%llu", (unsigned long long) (UINT64_MAX / 2));
        scc_param_changed("coll_scc_call_base", given, used, "above 2^63 - 1");
        mca_coll_scc_call_base = UINT64_MAX / 2;
    }
}

static int scc_open(void)
{
    mca_coll_scc_config.output = opal_output_open(NULL);
    opal_output_set_verbosity(mca_coll_scc_config.output, mca_coll_scc_config.verbose);
    scc_add_help_dir();
    scc_check_params();
    /* publish this process's location before MPI_Init's modex fence */
    (void) mca_coll_scc_topo_open();
    return OMPI_SUCCESS;
}

static int scc_close(void)
{
    uint64_t lent, fresh, nested;

    mca_coll_scc_task_close(&nested);
    if (nested > 0) {
        SCC_VERBOSE(2, "coll:scc: process %d: %llu collectives started by a progress call "
                    "inside a task, queued for the progress loop", (int) getpid(),
                    (unsigned long long) nested);
    }
    scc_lease_close(&lent, &fresh);
    if (lent > 0) {
        SCC_VERBOSE(2, "coll:scc: process %d: %llu buffers lent for calls, %llu of them new",
                    (int) getpid(), (unsigned long long) lent, (unsigned long long) fresh);
    }
    mca_coll_scc_topo_close();
    mca_coll_scc_topo_nodes_close();
    mca_coll_scc_record_close();
    if (mca_coll_scc_config.output >= 0) {
        opal_output_close(mca_coll_scc_config.output);
        mca_coll_scc_config.output = -1;
    }
    return OMPI_SUCCESS;
}

/* One enumerator per collective: "auto", "fallback" and the algorithms that can run it. */
static mca_base_var_enum_t *scc_alg_enum(scc_coll_t c)
{
    mca_base_var_enum_value_t values[SCC_ALG_COUNT + 1];
    mca_base_var_enum_t *e = NULL;
    char name[64];
    int n = 0;

    for (int a = 0; a < SCC_ALG_COUNT; ++a) {
        if (scc_alg_valid(c, (scc_alg_t) a)) {
            values[n].value = a;
            values[n].string = scc_alg_name((scc_alg_t) a);
            n++;
        }
    }
    values[n].value = 0;
    values[n].string = NULL;
    snprintf(name, sizeof(name), "coll_scc_%s_algorithms", scc_coll_name(c));
    if (OPAL_SUCCESS != mca_base_var_enum_create(name, values, &e)) {
        return NULL;
    }
    return e;
}

/* A byte threshold of the selection table, READONLY at level 5, set to its default. */
static void scc_reg_bytes(const scc_bytes_param_t *b, const scc_select_params_t *d)
{
    size_t *storage = scc_bytes_at(&mca_coll_scc_config, b->at);
    char desc[768];

    snprintf(desc, sizeof(desc), "%s; 0 to %zu bytes (a larger value, which is what a negative "
             "one becomes, gives way to the default)", b->desc, (size_t) SCC_PARAM_BYTES_MAX);
    *storage = scc_bytes_dflt(d, b->dflt_at);
    (void) mca_base_component_var_register(mca_coll_scc_config.version, b->name,
                                           desc, MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0, 0,
                                           OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                           storage);
}

int mca_coll_scc_register_params(void)
{
    mca_base_component_t *c = &mca_coll_scc_component.super.collm_version;
    mca_coll_scc_config_t *cs = &mca_coll_scc_config;
    scc_select_params_t d;

    /* every layer registers its parameters (and the record its modex) on it */
    cs->version = c;

    cs->priority = 40;
    (void) mca_base_component_var_register(c, "priority",
        "Priority of the scc coll component (tuned's default is 30, so 40 selects scc "
        "on communicators it accepts; a negative priority declines every communicator)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6,
        MCA_BASE_VAR_SCOPE_READONLY, &cs->priority);

    cs->verbose = 0;
    (void) mca_base_component_var_register(c, "verbose",
        "Verbosity of the scc coll component: 0 silent, 1 one line per communicator "
        "(selected or declined and why) and its topology and algorithm table, 2 also the "
        "calls served per algorithm when a communicator is freed, up to 100 for debugging",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6,
        MCA_BASE_VAR_SCOPE_LOCAL, &cs->verbose);

    for (int i = 0; i < SCC_COLL_COUNT; ++i) {
        char pname[64], desc[512];
        mca_base_var_enum_t *e = scc_alg_enum((scc_coll_t) i);
        snprintf(pname, sizeof(pname), "%s_algorithm", scc_coll_name((scc_coll_t) i));
        snprintf(desc, sizeof(desc),
                 "Algorithm for MPI_%s: auto (the selection table decides), fallback (the "
                 "module Open MPI would otherwise use) or one of the algorithms listed; a "
                 "forced algorithm that cannot serve a call falls back.  Writable through "
                 "MPI_T (the same value on every process, between collectives)",
                 scc_mpi_name((scc_coll_t) i));
        cs->force[i] = SCC_ALG_AUTO;
        (void) mca_base_component_var_register(c, pname, desc, MCA_BASE_VAR_TYPE_INT, e, 0,
                                               MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
                                               MCA_BASE_VAR_SCOPE_ALL_EQ, &cs->force[i]);
        if (NULL != e) {
            OBJ_RELEASE(e);
        }
    }
    scc_select_params_default(&d);
    mca_coll_scc_reg_int("barrier_radix",
        "Peers each process waits for per round of the dissemination barrier (seeds/004's m); "
        "0 waits for all others in one round (0 to 1048576); unless set, 1 on one node of "
        "coll_scc_many_min processes or more",
        OPAL_INFO_LVL_6, &cs->barrier_radix, 0);
    mca_coll_scc_reg_int("many_min",
        "One node (flat or hwloc domains topology) of this many processes or more takes the "
        "cache-coherent model's defaults (README, Many cores) for every threshold, fan-out "
        "and radix not set explicitly: trees instead of the direct bcast and reduce, no DOPL, "
        "the butterfly allreduce to coll_scc_butterfly_max, the 2-way dissemination barrier; "
        "below, the defaults measured at 2 to 8 processes; 0 never (0 to 1048576)",
        OPAL_INFO_LVL_5, &cs->many_min, d.many_min);

    /* thresholds of the selection table (defaults: scc_select_params_default) */
    for (size_t i = 0; i < SCC_BYTES_COUNT; ++i) {
        scc_reg_bytes(&scc_bytes_params[i], &d);
    }
    if (OMPI_SUCCESS != mca_coll_scc_topo_register_params()
        || OMPI_SUCCESS != mca_coll_scc_topo_nodes_register_params()) {
        return OMPI_ERROR;
    }
    cs->tree_fanout = "auto";
    (void) mca_base_component_var_register(c, "tree_fanout",
        "Fan-out of the k-ary trees per level from the root, e.g. \"4,4,3\" (seeds/004's "
        "k1 >= k2 >= ...; deeper levels repeat the last; up to 8 levels of 1 to 64); auto: "
        "all others in one level up to 8 processes, then 4,3 (to 16), 5,5 (to 30), 4,4,3; "
        "on one node of coll_scc_many_min processes or more the model's shapes: 4,3 (16-23), "
        "4,4,3 (24-39), 5,4,2 (40-55), 4,4,3 (56-79), 5,4,4 (80-111), 5,5,4 (112-159), "
        "7,6,4 (160-223), 4,4,4,3 (224 on)",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
        &cs->tree_fanout);
    mca_coll_scc_reg_int("dopl_chunks",
        "DOPL: pipeline chunks per part (the thesis: parts of 8 KB in chunks of 2 KB, 4); "
        "1 to 64",
        OPAL_INFO_LVL_6, &cs->dopl_chunks, 4);
    mca_coll_scc_reg_int("nodes_block",
        "Communicators across nodes: block bytes of the pipelined schedules where the "
        "processes of a node read each other single-copy (each block crossing nodes is one "
        "message: larger blocks pay fewer network latencies and handshakes, smaller ones "
        "overlap more): 65536 to 1073741824",
        OPAL_INFO_LVL_6, &cs->nodes_block, 524288);
    mca_coll_scc_reg_int("cma_block",
        "Block bytes of the pipelined broadcasts (Jia, DOPL, NoC_Msg, trees) when blocks move "
        "single-copy (messages of at least coll_scc_cma_min bytes): 4096 to 1073741824; 0 "
        "keeps slot-sized blocks",
        OPAL_INFO_LVL_6, &cs->cma_block, 262144);
    mca_coll_scc_reg_int("rsag_min",
        "The direct allreduce through the slots (where it does not go single-copy): from this "
        "many bytes a reduce-scatter and an allgather in pipelined rounds, each rank combining "
        "its 1/n of the vector; below, every rank combines all of it (0: never)",
        OPAL_INFO_LVL_6, &cs->rsag_min, 4096);
    mca_coll_scc_reg_int("inplace_copy_max",
        "An alltoall in place sends from a copy of its blocks (its buffer receives while peers "
        "still read): up to this many bytes in all; a larger one swaps its blocks pair by pair "
        "with no copy (flat, ring) or goes to the fallback (nocmsg, leaders) (0: every one; 0 "
        "to 2147483647)",
        OPAL_INFO_LVL_6, &cs->inplace_copy_max, 1 << 30);
    mca_coll_scc_reg_int("setup_calls",
        "Collective calls a communicator leaves to the fallback before the component sets it "
        "up (its topology, transport and plans): a communicator made, used fewer times and "
        "freed costs what it costs without the component; 0 sets up at the first call "
        "(0 to 2147483647)",
        OPAL_INFO_LVL_5, &cs->setup_calls, SCC_SETUP_CALLS_DEFAULT);
    mca_coll_scc_reg_int("task_stack",
        "Stack bytes of each nonblocking or persistent collective in flight (its blocking "
        "code runs on a stack of its own, reserved, touched only as deep as it goes): 65536 "
        "to 67108864, in pages",
        OPAL_INFO_LVL_9, &mca_coll_scc_task_stack, 262144);
    mca_coll_scc_reg_int("nbc_try",
        "A nonblocking call, and a persistent one's start, first runs on its caller's stack, "
        "its messages sent as it goes, its acknowledgements and flags held back: where every "
        "peer it waits for answers within a few polls it ends before it returns, without a "
        "task; at a wait that is not answered it starts over as a task that skips what it sent "
        "(1, the default); 0: always a task",
        OPAL_INFO_LVL_6, &cs->nbc_try, 1);
    mca_coll_scc_reg_int("persistent_ordered",
        "MPI-4.0 matches persistent collectives by the order of their inits, so their starts "
        "may come in any order (also among the other collectives); the component matches a "
        "communicator's calls by their order, so a persistent collective runs on its "
        "communicator only where its starts are asserted to keep it (the info key "
        "mpi_assert_strict_persistent_collective_ordering true, of MPI 4.1, on the init or "
        "the communicator), the others each on a communicator its init makes for it (0, the "
        "default; see coll_scc_persistent_comms); 1: every program of the job starts them in "
        "the same order on every process (each on its communicator, none made)",
        OPAL_INFO_LVL_5, &cs->persistent_ordered, 0);
    mca_coll_scc_reg_int("persistent_comms",
        "Communicators a process keeps for persistent collectives whose starts are not "
        "asserted in order (coll_scc_persistent_ordered): an init makes one while every member "
        "of its communicator keeps fewer (agreed at the init), else its request is the "
        "fallback's; the communicators' ids are few under some transports (Open MPI's ob1 "
        "has 65535, the OFI MTL a few thousand). 0: none, every such request the fallback's",
        OPAL_INFO_LVL_5, &cs->persistent_comms, 256);
    (void) mca_coll_scc_agree_register_params();
    (void) mca_coll_scc_trace_register_params();
    return mca_coll_scc_xport_register_params();
}
