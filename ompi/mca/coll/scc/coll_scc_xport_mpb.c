/* coll_scc_xport_mpb.c: the SCC's message-passing buffers -- mapped from the device, from an
 * ordinary file that emulates it, or from a private emulated chip -- as a transport.
 *
 * Each rank uses the buffer of its own core (the topology's rank -> core: the probed core
 * ids, or in an emulation a mesh place or the MPI_COMM_WORLD rank), so a communicator in
 * any rank order finds each member's lines where that member's core has them. */
#include "coll_scc_component.h"
#include "coll_scc_topo.h"
#include "coll_scc_agree.h"
#include "coll_scc_mpb.h"
#include "coll_scc_xport.h"
#include "coll_scc_xport_pml.h"
#include "coll_scc_xport_slots.h"
#include "coll_scc_sched.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opal/util/show_help.h"

/* The SCC (coll_scc_mesh.h): 6 x 4 tiles, 2 cores per tile, 16 KB of MPB per tile. */

typedef struct scc_mpb_backing {
    void *base;
    size_t bytes;
    size_t core_size;
    int core;               /* my core */
    bool device;            /* a device or file shared beyond this communicator */
    bool claimed;
    uint64_t token;
    char desc[128];         /* x->desc: the transport and my core */
} scc_mpb_backing_t;

/* Writes the owner line of my core's buffer, under the core's lock, if it holds `from` (or
 * a claim of a process that no longer exists, when take_stale); true when it did. */
static bool scc_mpb_owner_swap(scc_xport_t *x, scc_mpb_backing_t *b, uint64_t from,
                               uint64_t to, bool take_stale)
{
    volatile uint64_t *owner = &scc_ctrl(x, x->rank)->owner.v;
    scc_mpb_lock_t lock;
    bool done = false;
    uint64_t seen;

    if (0 != mca_coll_scc_mpb_lock(&lock, mca_coll_scc_config.mpb_device, b->core,
                                   b->core_size)) {
        return false;
    }
    seen = scc_load(x, owner);
    if (seen == from || (take_stale && (pid_t) (seen >> 32) > 0
                         && 0 != kill((pid_t) (seen >> 32), 0) && ESRCH == errno)) {
        scc_flag_set(x, owner, to);
        done = true;
    }
    mca_coll_scc_mpb_unlock(&lock);
    return done;
}

static void scc_mpb_detach(scc_xport_t *x)
{
    scc_mpb_backing_t *b = x->backing;
    if (NULL == b) {
        return;
    }
    if (b->claimed) {
        (void) scc_mpb_owner_swap(x, b, b->token, 0, false);
    }
    mca_coll_scc_strict_detach(x);
    x->invalidate = false;      /* shared memory may stand in now: no MPBT lines there */
    x->wcb = NULL;
    if (b->device) {
        munmap(b->base, b->bytes);
    } else {
        mca_coll_scc_segment_detach(b->base, b->bytes);
    }
    free(b);
    x->backing = NULL;
}

/* Claims my core's buffer for this communicator: one communicator at a time may use a
 * core's MPB (a claim left by a process that no longer exists is taken over). */
static bool scc_mpb_claim(scc_xport_t *x, scc_mpb_backing_t *b)
{
    return scc_mpb_owner_swap(x, b, 0, b->token, true);
}

/* A fresh claim starts from clean lines, each cleared by its one writer: my control lines
 * and headers (the owner line aside), and my ack line in every member's buffer. */
static void scc_mpb_clear(scc_xport_t *x)
{
    size_t skip = sizeof(scc_counter_t);
    memset(scc_wr(x, x->region[x->rank] + skip, x->ack_off - skip), 0, x->ack_off - skip);
    for (int r = 0; r < x->size; ++r) {
        memset(scc_wr(x, scc_ackline(x, r, x->rank), x->ack_stride), 0, x->ack_stride);
    }
    scc_mpb_flush(x);
}

/* The chip's cores: 48, or in an emulation enough rows of tiles for the highest core. */
static int scc_mpb_chip_cores(const int *core, int n, bool emulate, int *highest)
{
    int cores = SCC_CHIP_X * SCC_CHIP_Y * SCC_CHIP_K;
    *highest = -1;
    for (int r = 0; r < n; ++r) {
        *highest = core[r] > *highest ? core[r] : *highest;
    }
    while (emulate && cores <= *highest) {
        cores += SCC_CHIP_X * SCC_CHIP_K;
    }
    return cores;
}

/* Maps the device (or the file standing for it) in every process. */
static int scc_mpb_map_device(scc_mpb_backing_t *b, const char *path, size_t bytes)
{
    struct stat st;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        return errno;
    }
    if (0 == fstat(fd, &st) && S_ISREG(st.st_mode) && (size_t) st.st_size < bytes) {
        close(fd);
        return EFBIG;
    }
    b->base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (MAP_FAILED == b->base) {
        b->base = NULL;
        return errno;
    }
    b->bytes = bytes;
    b->device = true;
    return 0;
}

/* Why the buffers cannot serve comm (NULL: they can, as far as the cores go). */
static const char *scc_mpb_unusable(const scc_members_t *mb, int highest, int chip_cores)
{
    if (NULL == mb->topo->core) {
        return NULL != mb->topo->core_how ? mb->topo->core_how : "no core for every rank";
    }
    return highest >= chip_cores ? "a core beyond the SCC's 48" : NULL;
}

static int scc_mpb_attach(scc_xport_t *x, const scc_members_t *mb)
{
    struct ompi_communicator_t *comm = mb->comm;
    mca_coll_scc_config_t *cs = &mca_coll_scc_config;
    const bool emulate = SCC_MPB_EMULATE_OFF != cs->mpb_emulate;
    const bool strict = SCC_MPB_EMULATE_STRICT == cs->mpb_emulate;
    /* the strict emulation keeps to the chip's 8 KB whatever coll_scc_mpb_core_size says */
    size_t core_size = strict || cs->mpb_core_size <= 0 ? SCC_MPB_CORE_BYTES
                                                        : (size_t) cs->mpb_core_size;
    const int *core = mb->topo->core;
    int chip_cores = 0, highest = -1;
    size_t ctrl, chip_bytes, bytes;
    scc_mpb_backing_t *b = NULL;
    const char *why = NULL;
    char *view;
    int ok = 1, err = 0, first;

    /* Each step below ends in an agreement that every member reaches, whatever failed on
       it: all use the buffers or none does (the caller then attaches shared memory). */
    x->nslots = cs->mpb_nslots < SCC_SCHED_TAG_WINDOW ? SCC_SCHED_TAG_WINDOW : cs->mpb_nslots;
    if (x->nslots > 64) {
        x->nslots = 64;
    }
    ctrl = scc_xport_layout(x, SCC_MPB_LINE);
    if (core_size < ctrl + (size_t) x->nslots * 256) {
        mca_coll_scc_show_help_once(x->rank, "mpb-too-small", core_size, x->nslots, ctrl);
        ok = 0;
    }
    x->slot_size = ok ? (core_size - ctrl) / x->nslots / SCC_MPB_LINE * SCC_MPB_LINE : 0;
    x->region_size = core_size;
    if (NULL != core) {
        chip_cores = scc_mpb_chip_cores(core, x->size, emulate, &highest);
    }
    why = scc_mpb_unusable(mb, highest, chip_cores);
    if (NULL != why) {
        SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: mpb transport not usable (%s)",
                    SCC_COMM_CID(comm), SCC_COMM_NAME(comm), x->size, why);
        ok = 0;
    }
    chip_bytes = (size_t) chip_cores * core_size;
    bytes = chip_bytes + (strict ? mca_coll_scc_strict_bytes(chip_bytes) : 0);
    if (ok) {
        b = calloc(1, sizeof(*b));
    }
    ok = ok && NULL != b && !mca_coll_scc_fault(mb, "mpb");
    if (!mca_coll_scc_agree(mb, ok)) {
        free(b);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    b->token = ((uint64_t) getpid() << 32) | (SCC_COMM_CID(comm) + 1u);
    b->core = core[x->rank];
    b->core_size = core_size;
    if (emulate) {
        int rc = mca_coll_scc_segment_attach(mb, bytes, (size_t) b->core * core_size,
                                             core_size, "emulated SCC message-passing buffers",
                                             &b->base);
        if (OMPI_SUCCESS != rc) {
            free(b);
            return rc;
        }
        b->bytes = bytes;
        snprintf(b->desc, sizeof(b->desc), "mpb (emulated SCC%s), rank %d on core %d (%s)",
                 strict ? ", strict" : "", x->rank, b->core, mb->topo->core_how);
    } else {
        err = scc_mpb_map_device(b, cs->mpb_device, bytes);
        if (0 == err && mca_coll_scc_fault(mb, "device")) {
            munmap(b->base, b->bytes);
            b->base = NULL;
            err = ENOMEM;
        }
        /* a device missing on one process is missing on all: the lowest says it */
        first = mca_coll_scc_agree_first(mb, 0 == err);
        if (0 != err && first == x->rank) {
            mca_coll_scc_show_help_once(0, "mpb-device", cs->mpb_device, bytes,
                                        strerror(err), SCC_COMM_CID(comm), SCC_COMM_NAME(comm));
        }
        if (first >= 0) {
            if (0 == err) {
                munmap(b->base, b->bytes);
            }
            free(b);
            return OMPI_ERR_NOT_AVAILABLE;
        }
        snprintf(b->desc, sizeof(b->desc), "mpb (SCC message-passing buffers), rank %d on "
                 "core %d (%s)", x->rank, b->core, mb->topo->core_how);
#if defined(SCC_P54C)
        x->invalidate = true;
#endif
    }
    x->desc = b->desc;
    x->backing = b;
    x->ops = &mca_coll_scc_xport_mpb_ops;
    view = b->base;
    if (strict) {
        /* every write from here on goes through the checker */
        int rc = mca_coll_scc_strict_attach(x, b->base, chip_bytes, core_size, core,
                                            chip_cores, &view);
        if (!mca_coll_scc_agree(mb, OMPI_SUCCESS == rc)) {
            return OMPI_ERR_NOT_AVAILABLE;
        }
    }
    for (int r = 0; r < x->size; ++r) {
        x->region[r] = view + (size_t) core[r] * core_size;
    }
    x->wcb = (volatile uint32_t *) &scc_ctrl(x, x->rank)->wcb.v;

    /* a device is shared by every communicator: claim my core's buffer (detach gives a
       claim back, whatever the others did) */
    if (b->device) {
        b->claimed = scc_mpb_claim(x, b);
        ok = b->claimed && !mca_coll_scc_fault(mb, "claim");
        if (!mca_coll_scc_agree(mb, ok)) {
            SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: the message-passing buffers of "
                        "some cores are in use by another communicator", SCC_COMM_CID(comm),
                        SCC_COMM_NAME(comm), x->size);
            return OMPI_ERR_NOT_AVAILABLE;
        }
        scc_mpb_clear(x);
        if (!mca_coll_scc_agree(mb, 1)) {
            return OMPI_ERR_NOT_AVAILABLE;
        }
    }
    return OMPI_SUCCESS;
}

/* The SCC's message-passing buffers (or a file that emulates them): the slot engine at each
 * core's place in the chip's buffers; one chip, no single copy between its cores. */
const scc_xport_ops_t mca_coll_scc_xport_mpb_ops = {
    .name = "mpb",
    .caps = SCC_XPORT_CAP_SHARED,
    .attach = scc_mpb_attach,
    .detach = scc_mpb_detach,
    .send = scc_slot_send,
    .recv = scc_slot_recv,
    .recv_reduce = scc_slot_recv_reduce,
    .end = scc_slot_end,
};
