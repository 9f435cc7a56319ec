/* coll_scc_xport_mpb.c: the SCC's message-passing buffers -- mapped from the device, from an
 * ordinary file that emulates it, or from a private emulated chip -- as a transport. */
#include "coll_scc.h"
#include "coll_scc_agree.h"
#include "coll_scc_xport.h"
#include "coll_scc_sched.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opal/util/show_help.h"

/* The SCC: 6 x 4 tiles, 2 cores per tile, 16 KB of MPB per tile. */
#define SCC_CHIP_X 6
#define SCC_CHIP_Y 4
#define SCC_CHIP_K 2
#define SCC_MPB_LINE 32     /* the SCC's cache line */

typedef struct scc_mpb_backing {
    void *base;
    size_t bytes;
    bool device;            /* a device or file shared beyond this communicator */
    bool claimed;
    uint64_t token;
} scc_mpb_backing_t;

/* The core whose buffer a rank uses: its place in RCCE's numbering
 * (2 * (x + 6 * y) + z), which is the rank itself when ranks follow core ids. */
static int scc_mpb_core_of(mca_coll_scc_module_t *m, int rank)
{
    return rank;
}

static void scc_mpb_detach(scc_xport_t *x)
{
    scc_mpb_backing_t *b = x->backing;
    if (NULL == b) {
        return;
    }
    if (b->claimed) {
        uint64_t mine = b->token;
        __atomic_compare_exchange_n(&scc_ctrl(x, x->rank)->owner.v, &mine, 0, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    if (b->device) {
        munmap(b->base, b->bytes);
    } else {
        mca_coll_scc_segment_detach(b->base, b->bytes);
    }
    free(b);
    x->backing = NULL;
}

/* Claims my core's buffer for this communicator: one communicator at a time may
 * use a core's MPB (a claim left by a process that no longer exists is taken over). */
static bool scc_mpb_claim(scc_xport_t *x, scc_mpb_backing_t *b)
{
    volatile uint64_t *owner = &scc_ctrl(x, x->rank)->owner.v;
    uint64_t seen = 0;

    if (__atomic_compare_exchange_n(owner, &seen, b->token, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
        return true;
    }
    pid_t holder = (pid_t) (seen >> 32);
    if (holder > 0 && 0 != kill(holder, 0) && ESRCH == errno) {
        return __atomic_compare_exchange_n(owner, &seen, b->token, false, __ATOMIC_ACQ_REL,
                                           __ATOMIC_ACQUIRE);
    }
    return false;
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

int mca_coll_scc_xport_mpb_attach(scc_xport_t *x, mca_coll_scc_module_t *m,
                                  struct ompi_communicator_t *comm)
{
    mca_coll_scc_component_t *cs = &mca_coll_scc_component;
    size_t core_size = cs->mpb_core_size > 0 ? (size_t) cs->mpb_core_size : 8192;
    int chip_cores = SCC_CHIP_X * SCC_CHIP_Y * SCC_CHIP_K;
    size_t ctrl, bytes;
    scc_mpb_backing_t *b = NULL;
    int ok = 1, err = 0;

    /* Each step below ends in an agreement that every member reaches, whatever failed on
       it: all use the buffers or none does (the caller then attaches shared memory). */
    x->kind = SCC_XPORT_MPB;
    x->nslots = cs->mpb_nslots < SCC_SCHED_TAG_WINDOW ? SCC_SCHED_TAG_WINDOW : cs->mpb_nslots;
    if (x->nslots > 64) {
        x->nslots = 64;
    }
    ctrl = scc_region_ctrl_bytes(x->nslots);
    if (core_size < ctrl + (size_t) x->nslots * 256) {
        mca_coll_scc_show_help("mpb-too-small", core_size, x->nslots, ctrl);
        ok = 0;
    }
    x->slot_size = ok ? (core_size - ctrl) / x->nslots / SCC_MPB_LINE * SCC_MPB_LINE : 0;
    x->region_size = core_size;
    /* an emulated chip grows by rows of tiles when a communicator is larger than 48 */
    if (cs->mpb_emulate) {
        while (chip_cores < x->size) {
            chip_cores += SCC_CHIP_X * SCC_CHIP_K;
        }
    } else if (x->size > chip_cores) {
        SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: more processes than the SCC's %d cores, "
                    "mpb transport not usable", SCC_COMM_CID(comm), SCC_COMM_NAME(comm), x->size,
                    chip_cores);
        ok = 0;
    }
    bytes = (size_t) chip_cores * core_size;
    if (ok) {
        b = calloc(1, sizeof(*b));
    }
    ok = ok && NULL != b && !mca_coll_scc_fault(m, "mpb");
    if (!mca_coll_scc_agree(m, comm, ok)) {
        free(b);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    b->token = ((uint64_t) getpid() << 32) | (SCC_COMM_CID(comm) + 1u);
    if (cs->mpb_emulate) {
        int me = scc_mpb_core_of(m, x->rank);
        int rc = mca_coll_scc_segment_attach(m, comm, bytes, me * core_size, core_size,
                                             "emulated SCC message-passing buffers", &b->base);
        if (OMPI_SUCCESS != rc) {
            free(b);
            return rc;
        }
        b->bytes = bytes;
        x->desc = "mpb (emulated SCC)";
    } else {
        err = scc_mpb_map_device(b, cs->mpb_device, bytes);
        if (0 == err && mca_coll_scc_fault(m, "device")) {
            munmap(b->base, b->bytes);
            b->base = NULL;
            err = ENOMEM;
        }
        if (0 != err) {
            mca_coll_scc_show_help("mpb-device", cs->mpb_device, bytes,
                                   strerror(err), SCC_COMM_CID(comm), SCC_COMM_NAME(comm));
        }
        if (!mca_coll_scc_agree(m, comm, 0 == err)) {
            if (0 == err) {
                munmap(b->base, b->bytes);
            }
            free(b);
            return OMPI_ERR_NOT_AVAILABLE;
        }
        x->desc = "mpb (SCC message-passing buffers)";
#if defined(SCC_P54C)
        x->invalidate = true;
#endif
    }
    for (int r = 0; r < x->size; ++r) {
        x->region[r] = (char *) b->base + (size_t) scc_mpb_core_of(m, r) * core_size;
    }
    x->backing = b;
    x->detach = scc_mpb_detach;

    /* a device is shared by every communicator: claim my core's buffer (detach gives a
       claim back, whatever the others did) */
    if (b->device) {
        b->claimed = scc_mpb_claim(x, b);
        ok = b->claimed && !mca_coll_scc_fault(m, "claim");
        if (!mca_coll_scc_agree(m, comm, ok)) {
            SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: the message-passing buffers of "
                        "some cores are in use by another communicator", SCC_COMM_CID(comm),
                        SCC_COMM_NAME(comm), x->size);
            return OMPI_ERR_NOT_AVAILABLE;
        }
        /* a fresh claim starts from clean slots: headers and acks of earlier users go */
        memset(x->region[x->rank] + sizeof(scc_counter_t), 0,
               scc_region_ctrl_bytes(x->nslots) - sizeof(scc_counter_t));
        if (!mca_coll_scc_agree(m, comm, 1)) {
            return OMPI_ERR_NOT_AVAILABLE;
        }
    }
    return OMPI_SUCCESS;
}
