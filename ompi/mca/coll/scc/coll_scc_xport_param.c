/* coll_scc_xport_param.c: the transports' MCA parameters (which transport, the shared-memory
 * slots, the SCC's buffers, pipelining, single copy, waiting). */
#include "coll_scc_component.h"
#include "coll_scc_mpb.h"
#include "coll_scc_xport.h"

#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"

int mca_coll_scc_xport_register_params(void)
{
    mca_base_component_t *c = mca_coll_scc_config.version;
    mca_coll_scc_config_t *cs = &mca_coll_scc_config;
    static const mca_base_var_enum_value_t xport_values[] = {
        { SCC_XPORT_NONE, "auto" }, { SCC_XPORT_SHM, "shm" }, { SCC_XPORT_MPB, "mpb" },
        { SCC_XPORT_PML, "pml" }, { 0, NULL }
    };
    static const mca_base_var_enum_value_t backing_values[] = {
        { 0, "auto" }, { 1, "memfd" }, { 2, "file" }, { 0, NULL }
    };
    static const mca_base_var_enum_value_t emulate_values[] = {
        { SCC_MPB_EMULATE_OFF, "off" }, { SCC_MPB_EMULATE_ON, "on" },
        { SCC_MPB_EMULATE_STRICT, "strict" }, { 0, NULL }
    };
    mca_base_var_enum_t *e;

    cs->transport = SCC_XPORT_NONE;
    mca_base_var_enum_create("coll_scc_transports", xport_values, &e);
    (void) mca_base_component_var_register(c, "transport",
        "Transport under the algorithms: auto (the SCC's message-passing buffers where the "
        "processes run on an SCC chip, else shared memory), shm (a shared-memory segment per "
        "communicator), mpb (the SCC's message-passing buffers, from coll_scc_mpb_device, "
        "or emulated with coll_scc_mpb_emulate) or pml (Open MPI's point-to-point messages: "
        "the schedule-based algorithms only, on any communicator, also across nodes)",
        MCA_BASE_VAR_TYPE_INT, e, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &cs->transport);
    OBJ_RELEASE(e);

    mca_coll_scc_reg_int("shm_slot_size",
        "Bytes of one message slot in a rank's shared-memory region: the largest piece a "
        "message moves in through shared memory (larger messages are cut into pieces or go "
        "single-copy, see coll_scc_cma_min): 64 to 67108864, a multiple of 64",
        OPAL_INFO_LVL_6, &cs->shm_slot_size, 65536);
    mca_coll_scc_reg_int("shm_nslots",
        "Message slots per rank in shared memory: how many messages a rank can have in "
        "flight (4 to 64, a multiple of 4)",
        OPAL_INFO_LVL_6, &cs->shm_nslots, 8);
    mca_coll_scc_reg_int("shm_resident",
        "Bytes of slot pages a process keeps over all its communicators on memfd segments: "
        "past this, a communicator whose slots a message needs again takes the pages of the "
        "least recently used one whose readers are done (0 to 2147483647; 0: no bound, each "
        "communicator keeps its slots' pages once it used them)",
        OPAL_INFO_LVL_6, &cs->shm_resident, 4 * 1024 * 1024);
    cs->shm_backing = 0;
    mca_base_var_enum_create("coll_scc_shm_backings", backing_values, &e);
    (void) mca_base_component_var_register(c, "shm_backing",
        "What backs the shared-memory segment: memfd (anonymous, never visible in the file "
        "system, gone with the last process even after SIGKILL), file (a mode-0600 file in "
        "coll_scc_shm_dir, unlinked as soon as every process attached), auto (memfd where "
        "the kernel allows it, else file)",
        MCA_BASE_VAR_TYPE_INT, e, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
        &cs->shm_backing);
    OBJ_RELEASE(e);
    cs->shm_dir = "/dev/shm";
    (void) mca_base_component_var_register(c, "shm_dir",
        "Directory of the segment file when coll_scc_shm_backing is file",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
        &cs->shm_dir);

    cs->mpb_device = "/dev/rckmpb";
    (void) mca_base_component_var_register(c, "mpb_device",
        "File that maps the SCC's message-passing buffers (24 tiles x 16 KB).  An ordinary "
        "file of that size (for example under /dev/shm) emulates an SCC chip on any host",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &cs->mpb_device);
    cs->mpb_emulate = SCC_MPB_EMULATE_OFF;
    mca_base_var_enum_create("coll_scc_mpb_emulations", emulate_values, &e);
    (void) mca_base_component_var_register(c, "mpb_emulate",
        "Emulate the SCC's message-passing buffers in private shared memory (one emulated "
        "chip per communicator, with the SCC's 8 KB per core and core numbering) so the mpb "
        "transport runs on any host: off (0), on (1), or strict: the chip's rules enforced "
        "(8 KB per core whatever coll_scc_mpb_core_size says, one writer per 32-byte line, "
        "no atomic operations on the buffers); a violation aborts the job naming the line, "
        "its writers and the collective",
        MCA_BASE_VAR_TYPE_INT, e, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &cs->mpb_emulate);
    OBJ_RELEASE(e);
    mca_coll_scc_strict_test = 0;
    (void) mca_base_component_var_register(c, "mpb_strict_test",
        "Testing: under coll_scc_mpb_emulate strict, rank 1 breaks a rule at each "
        "communicator's first call (1: writes a line of rank 0, 2: adds atomically to a line "
        "of its own), which must abort the job; 0 (the default) breaks none (0 to 2)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &mca_coll_scc_strict_test);
    mca_coll_scc_reg_int("mpb_core_size",
        "Bytes of message-passing buffer per core (the SCC has 8192; 4096 to 1048576, a "
        "multiple of 32)",
        OPAL_INFO_LVL_9, &cs->mpb_core_size, 8192);
    mca_coll_scc_reg_int("mpb_nslots",
        "Message slots per core in the message-passing buffer (4 to 64, a multiple of 4, "
        "as many as fit slots of 256 bytes or more)",
        OPAL_INFO_LVL_9, &cs->mpb_nslots, 4);

    mca_coll_scc_reg_int("spin",
        "Polls of a flag before a waiting process starts to progress Open MPI and, when the "
        "node is oversubscribed, to give its core away (0 to 16777216)",
        OPAL_INFO_LVL_9, &cs->spin, 64);

    mca_coll_scc_reg_int("pipe_size",
        "Bytes of the pieces a pipelined message moves in through the slots (broadcasts, "
        "reductions): smaller pieces overlap sender and receivers more, larger ones "
        "synchronize less.  The direct broadcast and allreduce (and, oversubscribed, the "
        "schedules) take a 16th of the message as a piece where that is more, up to a slot. "
        "64 to 67108864, at most the slot size (0: the slot size)",
        OPAL_INFO_LVL_6, &cs->pipe_size, 8192);
    mca_coll_scc_reg_int("pipe_size_over",
        "coll_scc_pipe_size where the processes outnumber the cores (mpi_yield_when_idle): a "
        "process waiting for a piece gives its core away, so fewer, larger pieces measured "
        "faster; same range",
        OPAL_INFO_LVL_6, &cs->pipe_size_over, 32768);

    mca_coll_scc_reg_int("cma",
        "Single-copy transfers of large messages with process_vm_readv (cross memory attach): "
        "-1 where the kernel allows it between all processes (checked once per "
        "communicator), 0 never, 1 always (the communicator is declined if it does not work)",
        OPAL_INFO_LVL_6, &cs->cma, -1);
    mca_coll_scc_reg_int("cma_min",
        "Messages of at least this many bytes move single-copy when the algorithm allows it "
        "(-2, the default: from 8192 where every process has a core and "
        "each finds, once, that process_vm_readv takes at most 3.5 times what memcpy does "
        "(an Intel Xeon guest: 2.0-3.3 times; an AMD EPYC one: 4-8 times, where the "
        "slots win at every size), else as 0; 0: never; -1: from 8192, and when the "
        "processes outnumber the cores from 131072, and from 32768 for blocks per peer: "
        "gather, scatter, alltoall, alltoallv)",
        OPAL_INFO_LVL_6, &cs->cma_min, SCC_CMA_MIN_PROBE);
    mca_coll_scc_reg_int("cma_reduce_min",
        "The direct reductions (allreduce, reduce, reduce_scatter_block) of at least this many "
        "bytes read single-copy what they combine -- at 2 processes the root reads the other's "
        "input whole (an allreduce: each reads the other's), at more each combines its block "
        "of all inputs (reduce-scatter); smaller ones go through the slots (-2, the default: "
        "from 8192 to 524288 bytes at 2 processes that each have a core, where the probe of "
        "coll_scc_cma_min finds single copy fast, else never; 0: never; else 4096 or more)",
        OPAL_INFO_LVL_6, &cs->cma_reduce_min, SCC_CMA_MIN_PROBE);
    mca_coll_scc_reg_int("cma_over_min",
        "Where coll_scc_cma_min is 0 and the processes outnumber the cores: blocks per peer "
        "(scatter, alltoall, alltoallv, scatterv) of at least this many bytes move "
        "single-copy, where single copy works (0: never); the blocks of a gather(v), whose "
        "root reads them all, from twice this and only where the processes are twice the "
        "cores.  Measured on the development machine at 3, 4 and 8 processes on 2 cores: "
        "each of the processes that share a core then moves its whole block in one turn, "
        "where the slots hand over every 64 KB (scatter 128 KB at 8 processes 21 against "
        "87 us, gather 1 MB 305 against 2396)",
        OPAL_INFO_LVL_6, &cs->cma_over_min, 131072);
    mca_coll_scc_reg_int("cma_adapt",
        "Allgather and allgatherv with a part of 128 KB or more, where single copy works, "
        "every process has a core of its own and coll_scc_cma_min leaves the part to the "
        "slots: 1 (the default) rank 0 times the blocking calls and every rank takes the "
        "faster of single copy and the slots (the other tried for two calls in every 64; it "
        "takes over when 10 % faster) -- which wins depends on the machine and, in a virtual one, on where its "
        "cores sit at the time; 0 coll_scc_cma_min's rule alone; 2 (tests) odd ranks' parts "
        "single copy, even ranks' the slots, also when oversubscribed",
        OPAL_INFO_LVL_6, &cs->cma_adapt, 1);

    mca_coll_scc_call_base = 0;
    (void) mca_base_component_var_register(c, "call_base",
        "Testing: the count of collective calls a new communicator's transport starts from "
        "(message ids hold it whole; a value near 4294967296 crosses 2^32 calls at once)",
        MCA_BASE_VAR_TYPE_UINT64_T, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &mca_coll_scc_call_base);
    return OMPI_SUCCESS;
}

