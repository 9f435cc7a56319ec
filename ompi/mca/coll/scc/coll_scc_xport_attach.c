/* coll_scc_xport_attach.c: attaching a communicator to a transport -- its operations table
 * (shm, mpb or pml, from coll_scc_transport and the topology), what the attachment can do
 * (capabilities, single copy, waits), agreed by every member. */
#include "coll_scc_component.h"
#include "coll_scc_agree.h"
#include "coll_scc_topo.h"
#include "coll_scc_xport.h"
#include "coll_scc_xport_pml.h"
#include "coll_scc_xport_slots.h"

#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* A word whose value every process knows: reading it from a peer proves CMA works. */
static volatile uint64_t scc_cma_probe_word = 0x5343432d434d4121ull;

/* The next rank after r on my node (r itself when it is alone there). */
static int scc_next_local(const scc_xport_t *x, int r)
{
    for (int i = 1; i <= x->size; ++i) {
        int q = (r + i) % x->size;
        if (NULL == x->remote || !x->remote[q]) {
            return q;
        }
    }
    return r;
}

/* Checks that I can read my right neighbour's memory (on my node) with process_vm_readv. */
static bool scc_cma_works(scc_xport_t *x)
{
    int peer = scc_next_local(x, x->rank);
    uint64_t v = 0;
    uint64_t addr;

    if (peer == x->rank) {
        return true;    /* alone on my node: nobody to read */
    }
    addr = scc_load(x, &scc_ctrl(x, peer)->probe.v);
    if (0 == addr) {
        return false;
    }
    return OMPI_SUCCESS == scc_cma_read(x, peer, addr, &v, sizeof(v))
           && v == scc_cma_probe_word;
}

static double scc_probe_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

/* Whether single copy takes at most 3.5 times what a copy within memory does here,
 * measured once per process (process_vm_readv of 64 KB from itself against memcpy, the best
 * of 5: about 50 us).  Through the slots a message is copied twice, the reader's copy
 * across cores; where single copy is that much slower than a copy (an AMD EPYC guest: 4-8
 * times, 13-16 GB/s against 60-130) the slots win at every size, where it is not (an Intel
 * Xeon guest: 2.0-3.3 times, 1 process in 30 above 3 when its job starts) single copy wins
 * from 8-32 KB (OSU at 2 processes, against tuned: bcast 64 KB 0.84 against 1.54 through the
 * slots, alltoall 128 KB 0.91 against 1.50).  The bound lies between the two machines: one
 * member above it turns single copy off for the communicator. */
static bool scc_cma_fast(void)
{
    static int fast = -1;   /* (a race measures twice, alike) */
    const size_t len = 65536;
    double best_cma = 1e30, best_copy = 1e30;
    char *a, *b;

    if (fast >= 0) {
        return fast > 0;
    }
    a = malloc(2 * len);
    if (NULL == a) {
        return false;
    }
    b = a + len;
    memset(a, 1, 2 * len);
    for (int i = 0; i < 5; ++i) {
        struct iovec to = { b, len }, from = { a, len };
        double t0 = scc_probe_ns(), t1, t2;
        if ((ssize_t) len != process_vm_readv(getpid(), &to, 1, &from, 1, 0)) {
            best_cma = 1e30;
            break;
        }
        t1 = scc_probe_ns();
        memcpy(b, a, len);
        __asm__ __volatile__("" : : "r"(b) : "memory");
        t2 = scc_probe_ns();
        best_cma = t1 - t0 < best_cma ? t1 - t0 : best_cma;
        best_copy = t2 - t1 < best_copy ? t2 - t1 : best_copy;
    }
    free(a);
    fast = best_cma <= 3.5 * best_copy;
    SCC_VERBOSE(2, "coll:scc: process %d: single copy measured: process_vm_readv of %zu bytes "
                "%.1f us, memcpy %.1f us: %s (coll_scc_cma_min -2)", (int) getpid(), len,
                best_cma / 1e3, best_copy / 1e3, fast ? "fast" : "slow");
    return fast > 0;
}

/* Whether this communicator's processes on my node are twice the cores they may run on, or
 * more (the cores: those of my affinity, which a container's limit narrows too). */
static bool scc_crowded(const scc_xport_t *x)
{
    /* counted once per process: sysconf reads a file, and communicators are made by the
       thousand (a race only counts twice alike) */
    static long cpus = 0;

    if (0 == cpus) {
        cpu_set_t set;
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        if (0 == sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0
            && (n <= 0 || CPU_COUNT(&set) < n)) {
            n = CPU_COUNT(&set);
        }
        cpus = n > 0 ? n : -1;
    }
    return cpus > 0 && x->nlocal >= 2 * cpus;
}

static void scc_xport_free(scc_xport_t *x)
{
    if (NULL != x->ops && NULL != x->ops->detach) {
        x->ops->detach(x);
    }
    free(x->region);
    free(x->pids);
    free(x->expected);
    free(x->acked);
    free(x->acks);
    free(x->pv);
    free(x->later);
    free(x->replay);
    free(x->bounce);
    free(x->reqs);
    for (int i = 0; i < SCC_PML_AHEAD; ++i) {
        free(x->ahead[i].buf);
    }
    for (int i = 0; i < x->copies_cap; ++i) {
        free(x->copies[i].buf);
    }
    free(x->copies);
    free(x->offnode);
    free(x->shape_at);
    free(x->first[0].buf);     /* (both entries) */
    free(x);
}

int mca_coll_scc_xport_attach(const scc_members_t *mb, scc_xport_t **out)
{
    struct ompi_communicator_t *comm = mb->comm;
    mca_coll_scc_config_t *cs = &mca_coll_scc_config;
    scc_xport_t *x = calloc(1, sizeof(*x));
    int rc, pipe, kind = cs->transport;
    bool cma, ok, single;
    unsigned agreed;

    /* Every member reaches each agreement below, in the same order, whatever failed on it:
       all attach or none does (coll_scc_agree.c) */
    const scc_nodes_t *nd = SCC_TOPO_NODES == mb->topo->kind ? &mb->topo->nodes : NULL;

    if (NULL != x) {
        x->rank = ompi_comm_rank(comm);
        x->size = ompi_comm_size(comm);
        x->call = 0;
        x->comm = comm;
        x->mb = mb;
        x->region = calloc(x->size, sizeof(char *));
        x->pids = calloc(x->size, sizeof(pid_t));
        x->nlocal = x->size;
        x->lrank = x->rank;
        if (NULL != nd) {
            /* several nodes: shared memory within mine, the pml to the others */
            x->offnode = calloc(x->size, 1);
            for (int r = 0; NULL != x->offnode && r < x->size; ++r) {
                x->offnode[r] = nd->node_of[r] != nd->node_of[x->rank];
            }
            x->remote = x->offnode;
            x->nlocal = nd->first[nd->node_of[x->rank] + 1] - nd->first[nd->node_of[x->rank]];
            x->lrank = nd->local_of[x->rank];
        }
        /* what this attachment does, as the slot engine's backends map it: the whole
           communicator in shared memory, or this node's processes with the pml to the
           others (the pml transport: the pml alone; single copy once agreed, below) */
        x->caps = NULL != x->remote ? SCC_XPORT_CAP_PML : SCC_XPORT_CAP_SHARED;
    }
    ok = NULL != x && NULL != x->region && NULL != x->pids && (NULL == nd || NULL != x->offnode)
         && !mca_coll_scc_fault(mb, "xport");
    if (!mca_coll_scc_agree(mb, ok)) {
        if (NULL != x) {
            scc_xport_free(x);
        }
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (SCC_XPORT_NONE == kind) {
        kind = cs->mpb_emulate ? SCC_XPORT_MPB : SCC_XPORT_SHM;
    }
    /* each backend returns the same on every member; the message-passing buffers fall
       back to shared memory */
    rc = OMPI_ERR_NOT_AVAILABLE;
    if (SCC_XPORT_MPB == kind && NULL != nd) {
        /* message-passing buffers belong to one chip */
        SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: processes on %d nodes: shared memory "
                    "within each node instead of message-passing buffers", SCC_COMM_CID(comm),
                    SCC_COMM_NAME(comm), x->size, nd->nnodes);
        kind = SCC_XPORT_SHM;
    }
    if (SCC_XPORT_PML == kind) {
        rc = mca_coll_scc_xport_pml_ops.attach(x, mb);
        if (!mca_coll_scc_agree(mb, OMPI_SUCCESS == rc)) {
            scc_xport_free(x);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        x->ops = &mca_coll_scc_xport_pml_ops;
        x->caps = SCC_XPORT_CAP_PML;
        x->remote = NULL;       /* every peer over the pml (offnode: for the counts) */
        x->cma_least = SIZE_MAX;    /* (no single copy) */
        *out = x;
        return OMPI_SUCCESS;
    }
    if (SCC_XPORT_MPB == kind) {
        rc = mca_coll_scc_xport_mpb_ops.attach(x, mb);
        if (OMPI_SUCCESS != rc) {
            /* (a backend sets x->ops once it holds something its detach gives back) */
            if (NULL != x->ops) {
                x->ops->detach(x);
                x->ops = NULL;
            }
            SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: message-passing buffers "
                        "unavailable, using shared memory", SCC_COMM_CID(comm),
                        SCC_COMM_NAME(comm), x->size);
        }
    }
    if (OMPI_SUCCESS != rc) {
        rc = mca_coll_scc_xport_shm_ops.attach(x, mb);
    }
    if (OMPI_SUCCESS != rc) {
        scc_xport_free(x);
        return rc;
    }
    x->expected = calloc(x->nslots, sizeof(uint32_t));
    x->acked = calloc(x->nslots, sizeof(uint32_t));
    x->acks = calloc((size_t) x->size * x->nslots, sizeof(uint32_t));
    x->pv = calloc(x->size, sizeof(char *));
    x->later = calloc(x->size, sizeof(*x->later));

    /* single copy: publish my pid and where my probe word is, then try the neighbour's */
    scc_flag_set(x, &scc_ctrl(x, x->rank)->pid.v, (uint64_t) getpid());
    scc_flag_set(x, &scc_ctrl(x, x->rank)->probe.v, (uint64_t) (uintptr_t) &scc_cma_probe_word);
    ok = NULL != x->expected && NULL != x->acked && NULL != x->acks && NULL != x->pv
         && NULL != x->later && !mca_coll_scc_fault(mb, "buffers");
    if (!mca_coll_scc_agree(mb, ok)) {
        scc_xport_free(x);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (int r = 0; r < x->size; ++r) {
        if (!scc_xport_by_pml(x, r)) {
            x->pids[r] = (pid_t) scc_load(x, &scc_ctrl(x, r)->pid.v);
        }
    }
    /* the SCC has no single copy between cores: its buffers are the only way */
    single = 0 != (x->ops->caps & SCC_XPORT_CAP_SINGLE_COPY);
    cma = cs->cma != 0 && single && scc_cma_works(x) && !mca_coll_scc_fault(mb, "cma");
    /* (with it, in the same agreement: whether single copy is fast on every member) */
    agreed = mca_coll_scc_agree_mask(mb, (cma ? 1u : 0u)
                                         | (cma && (SCC_CMA_MIN_PROBE == cs->cma_min
                                                    || SCC_CMA_MIN_PROBE == cs->cma_reduce_min)
                                            && scc_cma_fast() && !mca_coll_scc_fault(mb, "cmafast")
                                                ? 2u : 0u));
    cma = 0 != (agreed & 1u);
    if (1 == cs->cma && !cma && single) {
        mca_coll_scc_show_help_once(x->rank, "cma-unavailable", SCC_COMM_CID(comm),
                                    SCC_COMM_NAME(comm));
        scc_xport_free(x);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    if (cma) {
        x->caps |= SCC_XPORT_CAP_SINGLE_COPY;
    }
    x->yield = SCC_YIELD_WHEN_IDLE();
    /* what depends on it must be the same on every rank: all must say so */
    x->over = mca_coll_scc_agree(mb, x->yield);
    if (-1 == cs->cma_min) {
        /* as measured on an Intel VM where single copy was fast: oversubscribed, a
           root that exposes its buffer waits for readers that are often not running,
           while copies through the slots let it go on: those won up to 128 KB; where each
           peer moves its own block (gather, scatter, alltoall) nobody waits on one whole
           message, and single copy won from 32 KB.  Every rank must take the same path. */
        bool over = cma && x->over;
        x->cma_min = over ? SCC_CMA_MIN_OVER : SCC_CMA_MIN;
        x->cma_a2a_min = over ? SCC_CMA_A2A_MIN_OVER : SCC_CMA_MIN;
    } else if (cs->cma_min > 0) {
        x->cma_min = x->cma_a2a_min = (size_t) cs->cma_min;
    } else {
        /* never by the size rule; oversubscribed, a process that shares a core moves each
           block per peer in one turn rather than handing over slot by slot -- a gather's
           root, which reads every block itself, only where the processes are twice the
           cores or more (with fewer, its writers filling slots beside it win) and from
           twice the size (at 128 KB its writers still won: 65 against 85-99 us at 8) */
        bool over = cma && x->over && cs->cma_over_min > 0;   /* (the same everywhere) */
        bool crowded = over && mca_coll_scc_agree(mb, scc_crowded(x));
        x->cma_min = SIZE_MAX;
        x->cma_a2a_min = over ? (size_t) cs->cma_over_min : SIZE_MAX;
        /* alltoallv's table reads every block that misses the slot single copy, whatever
           its size: it lost, as the gathers, at 3 processes on 2 cores (4 KB-64 KB 1.5-2.8x
           the slots) and won from twice the cores */
        x->cma_gather_min = crowded ? 2 * x->cma_a2a_min : SIZE_MAX;   /* (at most 2 INT_MAX) */
        x->cma_table = crowded;
    }
    if (cs->cma_min > 0 || -1 == cs->cma_min) {
        /* (the size rule: gathers and alltoallv as the other blocks per peer) */
        x->cma_gather_min = x->cma_a2a_min;
        x->cma_table = x->cma_a2a_min < SIZE_MAX;
    } else if (SCC_CMA_MIN_PROBE == cs->cma_min && 0 != (agreed & 2u) && !x->over) {
        /* the probe's rule, where every process has a core: single copy from 8 KB but for
           alltoallv's table; oversubscribed, as never (a root that exposes its buffer waits
           for readers not running).  A gather's root reads every block itself: it lost to
           tuned while it copied its own block first (its senders waited for that too),
           and wins since it reads theirs first (np 2 bound, OSU, medians of 5: 32 KB-1 MB
           0.89-0.96 of tuned, through the slots 1.10-1.71) */
        x->cma_min = x->cma_a2a_min = x->cma_gather_min = SCC_CMA_MIN;
    }
    x->cma_reduce_min = cs->cma_reduce_min > 0 ? (size_t) cs->cma_reduce_min : SIZE_MAX;
    x->cma_reduce_max = SIZE_MAX;
    if (SCC_CMA_MIN_PROBE == cs->cma_reduce_min && 0 != (agreed & 2u) && !x->over
        && 2 == x->size && NULL == x->remote) {
        /* the probe's rule for reductions: two processes, each with a core, where single
           copy is fast -- the root reads the other's input whole (coll_scc_flat.c), as
           tuned's linear reduce does, instead of both copying through slot lines that
           move between the cores (np 2 bound, an Intel Xeon guest, reduce 16 KB-512 KB
           0.5-0.7 of the slots' time); from 1 MB the slots' two copiers win again */
        x->cma_reduce_min = SCC_CMA_MIN;
        x->cma_reduce_max = SCC_CMA_REDUCE_MAX;
    }
    x->cma_least = SIZE_MAX;
    if (cma) {
        const size_t mins[4] = { x->cma_min, x->cma_a2a_min, x->cma_gather_min,
                                 x->cma_reduce_min };
        for (int i = 0; i < 4; ++i) {
            x->cma_least = mins[i] < x->cma_least ? mins[i] : x->cma_least;
        }
    }
    if (NULL != x->remote) {
        /* messages to other nodes are posted and completed at the end of the call; a
           reduction's block from another node lands in a bounce buffer lent for the call
           (coll_scc_lease.h: one kept per communicator, 512 KB, made memory grow with them) */
        x->desc = "shm within each node, pml between nodes";
        if (!mca_coll_scc_agree(mb, OMPI_SUCCESS == scc_pml_shape_alloc(x))) {
            scc_xport_free(x);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    pipe = x->over ? cs->pipe_size_over : cs->pipe_size;
    x->pipe = pipe >= SCC_LINE && (size_t) pipe < x->slot_size ? (size_t) pipe : x->slot_size;
    /* oversubscribed, the peer a process waits for is often not running: yield at once */
    x->spin = x->yield ? 1 : (cs->spin > 0 ? (unsigned) cs->spin : 1);
    x->try_able = scc_try_able(x);
    x->cma_reads = 0;       /* (the calls' reads: not the check's) */
    *out = x;
    return OMPI_SUCCESS;
}

void mca_coll_scc_xport_detach(scc_xport_t **xp)
{
    if (NULL != *xp) {
        scc_xport_free(*xp);
        *xp = NULL;
    }
}
