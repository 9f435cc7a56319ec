/* coll_scc_component.h: the component and its settings, verbose output and help messages --
 * all the layers under the module may include this; none of them includes coll_scc.h. */
#ifndef MCA_COLL_SCC_COMPONENT_H
#define MCA_COLL_SCC_COMPONENT_H

#include "coll_scc_compat.h"

#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/util/output.h"

#include "coll_scc_select.h"

BEGIN_C_DECLS

/* The component's settings, its MCA parameters' values.  They live apart from the component
 * structure (coll_scc_config.c): that structure names the open, close and query functions,
 * which reach every layer, so a layer reading a setting from it would close a dependency
 * cycle through the whole component. */
typedef struct mca_coll_scc_config_t {
    /* the component's version block (parameters, modex), set when it registers */
    mca_base_component_t *version;
    int priority;
    int verbose;
    int output;                         /* opal_output stream */
    int force[SCC_COLL_COUNT];          /* coll_scc_<coll>_algorithm: scc_alg_t */
    /* selection thresholds in bytes (scc_select_params_t says what each is for) */
    size_t line_max, tree_max, direct_min, dopl_min;
    size_t nodes_jia_min, nodes_tree_min, nodes_ring_min, nodes_allgather_ring_min,
        nodes_alltoall_pairwise_min;    /* communicators across nodes */
    size_t scan_ring_min;
    size_t butterfly_max;               /* many cores: allreduce by the butterfly to here */
    int many_min;                       /* processes from which the many-core defaults hold */
    uint32_t given;                     /* SCC_GIVEN_*: thresholds the user set */
    int nodes_block;                        /* across nodes: block bytes, single copy within */
    int barrier_radix;                  /* peers per dissemination round, 0: all at once */
    char *tree_fanout;                  /* "auto" or fan-outs per level, "4,4,3" */
    int dopl_chunks;                    /* DOPL: pipeline chunks per part */
    int cma_block;                      /* schedules: block bytes when moving single-copy */
    int rsag_min;                       /* direct allreduce: pipelined rounds from here */
    int inplace_copy_max;               /* an in-place alltoall's copy of its blocks, at most */
    int setup_calls;                    /* calls a communicator leaves to the fallback
                                           before it is set up (coll_scc_module.c) */

    /* transports (coll_scc_xport.c) */
    int transport;                      /* scc_xport_kind_t, SCC_XPORT_NONE = auto */
    int shm_slot_size;
    int shm_nslots;
    int shm_backing;                    /* 0 auto, 1 memfd, 2 file */
    int shm_resident;                   /* bytes of slot pages a process keeps (0: no bound) */
    char *shm_dir;
    char *mpb_device;
    int mpb_emulate;
    int mpb_core_size;
    int mpb_nslots;
    int pipe_size;
    int pipe_size_over;                 /* the same when oversubscribed */
    int spin;
    int cma;                            /* -1 auto, 0 off, 1 required */
    int cma_min;
    int cma_reduce_min;
    int cma_over_min;                   /* cma_min 0, oversubscribed: blocks per peer from here */
    int cma_adapt;                      /* large allgather parts: 0 the rule, 1 learnt, 2 tests */
    int nbc_try;                        /* nonblocking calls tried on the caller's stack first */
    int persistent_ordered;             /* every persistent collective started in order */
    int persistent_comms;               /* communicators kept for persistent ones (at most) */
} mca_coll_scc_config_t;

extern mca_coll_scc_config_t mca_coll_scc_config;
extern const char *mca_coll_scc_component_version_string;

/* The component structure (coll_scc_component.c): for Open MPI, and for nothing under it. */
typedef struct mca_coll_scc_component_t {
    scc_coll_component_t super;
} mca_coll_scc_component_t;

SCC_MODULE_DECLSPEC extern mca_coll_scc_component_t mca_coll_scc_component;

/* Verbose output of the component */
#define SCC_VERBOSE(level, ...)                                                  \
    opal_output_verbose((level), mca_coll_scc_config.output, __VA_ARGS__)

/* Shows a message of help-coll-scc.txt (on stderr, from this process). */
void mca_coll_scc_show_help(const char *topic, ...);
/* The same for what every member meets alike (a setting, the machine): only a communicator's
 * rank 0 shows it (or the one the caller passes 0 for), and each process a topic once -- not
 * once per process and communicator. */
void mca_coll_scc_show_help_once(int comm_rank, const char *topic, ...);

/* Component and module functions */
int mca_coll_scc_init_query(bool enable_progress_threads, bool enable_mpi_threads);
int mca_coll_scc_register_params(void);
/* Registers the int parameter coll_scc_<name> (READONLY, at OPAL_INFO_LVL level) with default
 * dflt */
void mca_coll_scc_reg_int(const char *name, const char *desc, int level, int *storage, int dflt);
/* The same for a string parameter, and for an enum one (values v) at OPAL_INFO_LVL_4 */
void mca_coll_scc_reg_string(const char *name, const char *desc, int level, char **storage,
                             const char *dflt);
void mca_coll_scc_reg_enum(const char *name, const char *desc, const mca_base_var_enum_value_t *v,
                           int *storage, int dflt);

END_C_DECLS

#endif /* MCA_COLL_SCC_COMPONENT_H */
