/* coll_scc_mpb_strict.c: the strict emulation of the SCC's message-passing buffers
 * (coll_scc_mpb_emulate strict) -- the chip's rules, checked where an emulation can see them.
 *
 * - The regions point into a read-only view of the emulated chip, so the only way to write
 *   a buffer is scc_wr(), which returns the writable alias: a stray store or an atomic
 *   operation on a buffer faults, and the fault handler below names the line.
 * - scc_wr() records, in a table beside the chip, the writer of every 32-byte line it
 *   touches; a second writer of a line aborts the job naming the line, both writers and
 *   the collective.  A write must also stay within one core's 8 KB.
 * The transport's loads and stores are those of the chip's build (plain ones: x86 makes no
 * difference between the two), and nothing of the MPB path does read-modify-write. */
#include "coll_scc_component.h"
#include "coll_scc_mpb.h"
#include "coll_scc_xport_slots.h"

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ompi/runtime/mpiruntime.h"

int mca_coll_scc_strict_test = 0;

typedef struct scc_strict {
    char *view;                 /* read-only: where the regions point */
    char *alias;                /* the same pages, writable */
    size_t chip_bytes, core_size;
    uint32_t *writer;           /* per line: 1 + the rank that writes it, 0: none yet */
    int *rank_at;               /* core -> rank of this communicator, or -1 */
    int ncores;
    const int *core;            /* rank -> core */
    const scc_xport_t *x;
    struct scc_strict *next;    /* the process's checkers, for the fault handler */
} scc_strict_t;

static scc_strict_t *all_strict;
static pthread_mutex_t strict_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction old_segv;
static bool handler_set;

size_t mca_coll_scc_strict_bytes(size_t chip_bytes)
{
    size_t page = (size_t) sysconf(_SC_PAGESIZE);
    size_t table = chip_bytes / SCC_MPB_LINE * sizeof(uint32_t);
    return (table + page - 1) / page * page;
}

/* What the bytes at offset o of a core's buffer are for. */
static void scc_strict_what(const scc_xport_t *x, size_t o, char *buf, size_t len)
{
    static const char *const ctrl[] = { "owner line", "pid line", "probe line", "wcb line",
                                        "ways line" };

    if (o < offsetof(scc_region_ctrl_t, bar)) {
        snprintf(buf, len, "its %s", ctrl[o / sizeof(scc_counter_t)]);
    } else if (o < sizeof(scc_region_ctrl_t)) {
        snprintf(buf, len, "its barrier flag %zu",
                 (o - offsetof(scc_region_ctrl_t, bar)) / sizeof(scc_counter_t));
    } else if (o < x->ack_off) {
        snprintf(buf, len, "the header of its slot %zu",
                 (o - sizeof(scc_region_ctrl_t)) / sizeof(scc_msg_hdr_t));
    } else if (o < x->slot_off) {
        snprintf(buf, len, "the ack line of rank %zu", (o - x->ack_off) / x->ack_stride);
    } else if (o < x->slot_off + (size_t) x->nslots * x->slot_size) {
        snprintf(buf, len, "data of its slot %zu", (o - x->slot_off) / x->slot_size);
    } else {
        snprintf(buf, len, "bytes past its slots");
    }
}

/* One line for the user: where line l is and what was running. */
static void scc_strict_where(const scc_strict_t *s, size_t l, char *buf, size_t len)
{
    const scc_xport_t *x = s->x;
    size_t off = l * SCC_MPB_LINE, o = off % s->core_size;
    int core = (int) (off / s->core_size);
    char what[80];

    scc_strict_what(x, o, what, sizeof(what));
    snprintf(buf, len, "comm %u (%s), %s (%s) call %llu: line %zu (core %d of rank %d, "
             "bytes %zu..%zu of its buffer: %s)", x->mb->cid, x->mb->name,
             scc_coll_name(*x->mb->cur_coll), scc_alg_name(*x->mb->cur_alg),
             (unsigned long long) x->call, l, core, s->rank_at[core], o, o + SCC_MPB_LINE - 1,
             what);
}

static void scc_strict_abort(const scc_xport_t *x, const char *msg)
{
    fprintf(stderr, "coll:scc: strict MPB emulation: %s\n", msg);
    fflush(stderr);
    ompi_mpi_abort(x->comm, 1);
}

/* Line l already has writer `first`; I am writing it too. */
static void scc_strict_violation(const scc_strict_t *s, size_t l, int first)
{
    char where[400], msg[600];
    scc_strict_where(s, l, where, sizeof(where));
    snprintf(msg, sizeof(msg), "%s written by rank %d (core %d) and by rank %d (core %d): "
             "the SCC allows one writer per line", where, first, s->core[first], s->x->rank,
             s->core[s->x->rank]);
    scc_strict_abort(s->x, msg);
}

void *mca_coll_scc_strict_wr(const scc_xport_t *x, const volatile void *p, size_t len)
{
    scc_strict_t *s = x->strict;
    size_t off = (size_t) ((uintptr_t) p - (uintptr_t) s->view);
    const uint32_t me = (uint32_t) x->rank + 1;

    if (off >= s->chip_bytes || len > s->chip_bytes - off
        || (len > 0 && off / s->core_size != (off + len - 1) / s->core_size)) {
        char msg[200];
        snprintf(msg, sizeof(msg), "comm %u (%s): rank %d writes %zu bytes at %p, not within "
                 "one core's %zu bytes of buffer", x->mb->cid, x->mb->name, x->rank, len,
                 (const void *) p, s->core_size);
        scc_strict_abort(x, msg);
    }
    for (size_t l = off / SCC_MPB_LINE; len > 0 && l <= (off + len - 1) / SCC_MPB_LINE; ++l) {
        uint32_t seen = __atomic_load_n(&s->writer[l], __ATOMIC_RELAXED);
        if (seen == me) {
            continue;
        }
        if (0 == seen && __atomic_compare_exchange_n(&s->writer[l], &seen, me, false,
                                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            continue;
        }
        scc_strict_violation(s, l, (int) seen - 1);
    }
    return s->alias + off;
}

/* A write that faulted in a read-only view went around scc_wr(): a plain store or an atomic
 * operation on a buffer.  Other faults go to the handler that was there before. */
static void scc_strict_fault(int sig, siginfo_t *si, void *uc)
{
    uintptr_t a = (uintptr_t) si->si_addr;

    for (scc_strict_t *s = all_strict; NULL != s; s = s->next) {
        if (a >= (uintptr_t) s->view && a - (uintptr_t) s->view < s->chip_bytes) {
            char where[400], msg[600];
            int n;
            scc_strict_where(s, (a - (uintptr_t) s->view) / SCC_MPB_LINE, where, sizeof(where));
            n = snprintf(msg, sizeof(msg), "coll:scc: strict MPB emulation: %s written by rank "
                         "%d (core %d) other than through the transport's stores (an atomic "
                         "operation or a stray write): the SCC has no atomics on its buffers\n",
                         where, s->x->rank, s->core[s->x->rank]);
            if (n > 0) {
                ssize_t w = write(STDERR_FILENO, msg, (size_t) n < sizeof(msg) ? (size_t) n
                                                                             : sizeof(msg) - 1);
                (void) w;
            }
            _exit(1);
        }
    }
    (void) sig;
    (void) uc;
    sigaction(SIGSEGV, &old_segv, NULL);   /* not ours: the fault repeats there */
}

int mca_coll_scc_strict_attach(scc_xport_t *x, char *base,
                               size_t chip_bytes, size_t core_size, const int *core,
                               int ncores, char **view)
{
    scc_strict_t *s = calloc(1, sizeof(*s));
    void *v = MAP_FAILED;

    if (NULL != s) {
        s->rank_at = malloc(ncores * sizeof(int));
        /* a second mapping of the same pages, read-only */
        v = mremap(base, 0, chip_bytes, MREMAP_MAYMOVE);
    }
    if (NULL == s || NULL == s->rank_at || MAP_FAILED == v
        || 0 != mprotect(v, chip_bytes, PROT_READ)) {
        SCC_VERBOSE(1, "coll:scc: comm %u (%s) rank %d: strict MPB emulation unavailable "
                    "(no read-only view of the buffers)", x->mb->cid, x->mb->name, x->rank);
        if (MAP_FAILED != v) {
            munmap(v, chip_bytes);
        }
        if (NULL != s) {
            free(s->rank_at);
        }
        free(s);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    s->view = v;
    s->alias = base;
    s->chip_bytes = chip_bytes;
    s->core_size = core_size;
    s->writer = (uint32_t *) (base + chip_bytes);
    s->ncores = ncores;
    s->core = core;
    s->x = x;
    for (int c = 0; c < ncores; ++c) {
        s->rank_at[c] = -1;
    }
    for (int r = 0; r < x->size; ++r) {
        s->rank_at[core[r]] = r;
    }
    pthread_mutex_lock(&strict_lock);
    s->next = all_strict;
    all_strict = s;
    if (!handler_set) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = scc_strict_fault;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        handler_set = 0 == sigaction(SIGSEGV, &sa, &old_segv);
    }
    pthread_mutex_unlock(&strict_lock);
    x->strict = s;
    *view = v;
    return OMPI_SUCCESS;
}

void mca_coll_scc_strict_detach(scc_xport_t *x)
{
    scc_strict_t *s = x->strict;

    if (NULL == s) {
        return;
    }
    pthread_mutex_lock(&strict_lock);
    for (scc_strict_t **p = &all_strict; NULL != *p; p = &(*p)->next) {
        if (*p == s) {
            *p = s->next;
            break;
        }
    }
    pthread_mutex_unlock(&strict_lock);
    munmap(s->view, s->chip_bytes);
    free(s->rank_at);
    free(s);
    x->strict = NULL;
}

void mca_coll_scc_strict_first_call(scc_xport_t *x)
{
    if (x->size < 2 || 1 != x->rank || 0 == mca_coll_scc_strict_test) {
        return;
    }
    if (1 == mca_coll_scc_strict_test) {
        /* a line of rank 0: its pid line, which it wrote at attach */
        scc_flag_set(x, &scc_ctrl(x, 0)->pid.v, 0);
    } else {
        /* an atomic operation on a line of my own, around the transport's stores */
        __atomic_fetch_add(&scc_ctrl(x, 1)->bar[SCC_BAR_LINES - 1].v, 1, __ATOMIC_SEQ_CST);
    }
}
