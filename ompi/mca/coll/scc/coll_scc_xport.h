/* coll_scc_xport.h: the transports under the executor -- message slots in per-rank
 * buffers (the "MPB"), sequence-numbered flags, and waits that progress and yield.
 *
 * Every rank owns a region: control lines and nslots data slots of slot_size
 * bytes.  A message is published by its sender into its own region (local put)
 * and read by its readers from there (remote get), as on the SCC's message
 * passing buffers.  The shm backend places the regions in one shared segment
 * per communicator; the mpb backend at each core's place in the SCC's MPB (a
 * device file, or an ordinary file that emulates it); both share this engine.
 *
 * A message is named by (call, tag): the 64-bit count of collective calls on the
 * communicator and a 32-bit tag.  A slot's header carries it as two words: id,
 * (call mod 2^32) << 32 | tag, written last by its one writer, and call_hi, the
 * call's upper half (see scc_hdr_is for the order that keeps the pair whole), so
 * no header left untouched for 2^32 calls matches a later wait.  Readers count
 * themselves in the slot's ack line; a sender reuses a slot only when all readers
 * of the previous message there have counted themselves.  Nothing is ever reset.
 */
#ifndef MCA_COLL_SCC_XPORT_H
#define MCA_COLL_SCC_XPORT_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "coll_scc_compat.h"
#include "coll_scc_nodes.h"
#include "coll_scc_param.h"
#include "coll_scc_select.h"
#include "opal/runtime/opal_progress.h"

BEGIN_C_DECLS

struct ompi_op_t;
struct ompi_datatype_t;
struct mca_coll_scc_module_t;

#define SCC_LINE 64                 /* bytes between independently written words */
#define SCC_INLINE_MAX 32           /* payload that travels inside the header line */
#define SCC_CMA_MIN 8192            /* coll_scc_cma_min auto: single copy from here; */
#define SCC_CMA_MIN_OVER 131072     /*   processes outnumber the cores: from here, */
#define SCC_CMA_A2A_MIN_OVER 32768  /*   and from here for blocks per peer */
#define SCC_BAR_LINES 8             /* barrier flags per rank (rounds of dissemination) */

typedef enum {
    SCC_XPORT_NONE = 0,
    SCC_XPORT_SHM,
    SCC_XPORT_MPB,
    SCC_XPORT_PML
} scc_xport_kind_t;

/* Algorithms that need shared memory (direct reads, flag lines, slot lists): bit (1 << alg) */
#define SCC_ALGS_NEED_SHARED ((1u << SCC_ALG_FLAT) | (1u << SCC_ALG_DISSEM))

/* How a message's payload travels */
enum {
    SCC_MSG_INLINE = 1,     /* in the header line itself */
    SCC_MSG_SLOT,           /* in the sender's data slot */
    SCC_MSG_CMA             /* in the sender's own memory: read with process_vm_readv */
};

/* A slot header: one line, written only by the region's owner. */
typedef struct scc_msg_hdr {
    volatile uint64_t id;           /* written last: the message is complete */
    uint64_t len;
    uint32_t kind;
    volatile uint32_t call_hi;      /* the call's upper 32 bits (id holds the lower) */
    uint64_t addr;                  /* SCC_MSG_CMA: address in the sender */
    uint8_t data[SCC_INLINE_MAX];
} __attribute__((aligned(SCC_LINE))) scc_msg_hdr_t;

_Static_assert(sizeof(scc_msg_hdr_t) == SCC_LINE, "a slot header is one line");

/* An id no message has: a writer withdraws a header's id with it (tags stay below
 * 2^32 - 1: the executors bound them well below). */
#define SCC_MSG_ID_NONE UINT64_MAX

/* A counter line written by many (atomic add) or by one (flags). */
typedef struct scc_counter {
    volatile uint64_t v;
} __attribute__((aligned(SCC_LINE))) scc_counter_t;

/* The control part at the start of every rank's region. */
typedef struct scc_region_ctrl {
    scc_counter_t owner;            /* mpb: the communicator that claimed this core's buffer */
    scc_counter_t pid;              /* the owning process */
    scc_counter_t probe;            /* address of its CMA probe word */
    scc_counter_t bar[SCC_BAR_LINES];
    /* followed by nslots headers, nslots ack counters, then the data slots */
} scc_region_ctrl_t;

typedef struct scc_xport {
    scc_xport_kind_t kind;
    int rank, size;
    int nslots;                     /* >= SCC_SCHED_TAG_WINDOW */
    size_t slot_size;               /* payload bytes of one slot */
    size_t pipe;                    /* pieces of pipelined messages (<= slot_size) */
    size_t region_size;             /* bytes of one rank's region */
    char **region;                  /* size entries: each rank's region in this process */
    pid_t *pids;                    /* CMA: each rank's pid */
    bool cma;                       /* process_vm_readv works between all members */
    size_t cma_min;                 /* messages from this size on go single-copy */
    size_t cma_a2a_min;             /* the same, per-peer blocks: gather, scatter, alltoall(v) */
    size_t cma_reduce_min;          /* direct reductions: single copy from this size on */
    bool yield;                     /* oversubscribed: yield while waiting */
    unsigned spin;                  /* polls before progressing (and yielding) */
    bool invalidate;                /* SCC: invalidate MPBT lines in L1 before reading */
    uint64_t call;                  /* executor calls so far (same on every rank) */
    uint64_t *expected;             /* nslots: acks my slot must reach before reuse */
    uint64_t cma_pending;           /* bitmask of my slots holding CMA descriptors */
    uint64_t bar_epoch;             /* barriers so far */
    void *backing;                  /* backend data (mapping, names) */
    void (*detach)(struct scc_xport *x);
    const char *desc;               /* what the verbose output calls it */
    const char **pv;                /* size pointers: scratch for the algorithms */
    struct scc_later { int peer, slot; uint64_t call; } *later; /* acks owed (release_later) */
    int nlater;
    int bar_radix, bar_rounds;      /* dissemination barrier: peers per round, rounds */
    void *bounce;                   /* single-copy reductions read into this */
    size_t bounce_bytes;
    /* several nodes: remote[r] != 0 when r is on another node than this process (messages
       with it go over the pml, the regions of this node's processes only are mapped);
       NULL when every member is on this node */
    uint8_t *remote;
    int nlocal, lrank;              /* processes on my node, my index among them */
    uint64_t traffic[2][2];         /* messages received, [peer off my node][by the pml] */
    /* pml: point-to-point messages on the communicator */
    struct ompi_communicator_t *comm;
    int pml_tag;                    /* the collective tag of the running call */
    struct ompi_request_t **reqs;   /* sends posted in the running call */
    int nreqs, reqs_cap;
} scc_xport_t;

/* True when every member's region is mapped here (no pml, no other node): the direct
 * algorithms and the flag barriers need that. */
static inline bool scc_xport_shared_all(const scc_xport_t *x)
{
    return SCC_XPORT_PML != x->kind && NULL == x->remote;
}

/* True when messages with peer go over the pml. */
static inline bool scc_xport_by_pml(const scc_xport_t *x, int peer)
{
    return SCC_XPORT_PML == x->kind || (NULL != x->remote && x->remote[peer]);
}

/* ------------------------------------------------------------ layout */

static inline scc_region_ctrl_t *scc_ctrl(const scc_xport_t *x, int r)
{
    return (scc_region_ctrl_t *) x->region[r];
}

static inline scc_msg_hdr_t *scc_hdr(const scc_xport_t *x, int r, int slot)
{
    return (scc_msg_hdr_t *) (x->region[r] + sizeof(scc_region_ctrl_t)) + slot;
}

static inline scc_counter_t *scc_ack(const scc_xport_t *x, int r, int slot)
{
    return (scc_counter_t *) (x->region[r] + sizeof(scc_region_ctrl_t)
                              + x->nslots * sizeof(scc_msg_hdr_t)) + slot;
}

static inline char *scc_slot_data(const scc_xport_t *x, int r, int slot)
{
    return x->region[r] + sizeof(scc_region_ctrl_t)
           + x->nslots * (sizeof(scc_msg_hdr_t) + sizeof(scc_counter_t)) + slot * x->slot_size;
}

/* Bytes of control before the slots of a region with nslots slots. */
static inline size_t scc_region_ctrl_bytes(int nslots)
{
    return sizeof(scc_region_ctrl_t) + nslots * (sizeof(scc_msg_hdr_t) + sizeof(scc_counter_t));
}

/* ------------------------------------------------------------ memory order */

#if defined(SCC_P54C)
/* On the SCC's P54C cores, MPB lines are typed MPBT: drop them from L1 so the
 * next read sees what another core wrote (CL1INVMB, opcode 0f 0a). */
static inline void scc_mpb_invalidate(void)
{
    __asm__ volatile(".byte 0x0f, 0x0a" ::: "memory");
}
#else
static inline void scc_mpb_invalidate(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
#endif

static inline uint64_t scc_load(const scc_xport_t *x, volatile uint64_t *p)
{
    if (OPAL_UNLIKELY(x->invalidate)) {
        scc_mpb_invalidate();
    }
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void scc_store(volatile uint64_t *p, uint64_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline void scc_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("pause" ::: "memory");
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/* One turn of a wait loop: spin briefly, then progress Open MPI (other
 * requests of the process must not starve) and give the core away when the
 * node is oversubscribed. */
static inline void scc_pause(const scc_xport_t *x, unsigned *spins)
{
    /* the peer is most often running and about to write: spin a little first */
    if (++*spins < x->spin) {
        scc_cpu_relax();
        return;
    }
    if (0 == (*spins & 15) || x->yield) {
        opal_progress();
    }
    if (x->yield) {
        scc_yield();
    }
}

/* Counts me as the reader of the messages I deferred (scc_xport_release_later);
 * only_old: only those of earlier calls. */
void scc_xport_flush_later(scc_xport_t *x, bool only_old);

/* One idle turn of every wait loop (settling owed acks first). */
static inline void scc_xport_idle(scc_xport_t *x, unsigned *spins)
{
    if (x->nlater > 0) {
        scc_xport_flush_later(x, false);
    }
    scc_pause(x, spins);
}

/* Waits until *p == want (settling owed acks while there is time). */
static inline void scc_wait_eq(scc_xport_t *x, volatile uint64_t *p, uint64_t want)
{
    unsigned spins = 0;
    while (scc_load(x, p) != want) {
        scc_xport_idle(x, &spins);
    }
}

/* Waits until *p >= want. */
static inline void scc_wait_ge(scc_xport_t *x, volatile uint64_t *p, uint64_t want)
{
    unsigned spins = 0;
    while (scc_load(x, p) < want) {
        scc_xport_idle(x, &spins);
    }
}

/* The header words of message tag of this call: id (the call's lower half and the tag)
 * and call_hi. */
static inline uint64_t scc_msg_id(const scc_xport_t *x, uint32_t tag)
{
    return ((uint64_t) (uint32_t) x->call << 32) | tag;
}

static inline uint32_t scc_msg_call_hi(const scc_xport_t *x)
{
    return (uint32_t) (x->call >> 32);
}

/* True when header h holds message tag of this call.  call_hi is read first: a writer
 * withdraws the id (SCC_MSG_ID_NONE) before it changes call_hi (scc_claim_slot), so a
 * reader that sees the new call_hi then sees the withdrawn id or the new one -- never
 * the id of a message 2^32 calls old beside it.  The id, read with acquire, is the
 * word written last: seeing it, the reader sees the whole message. */
static inline bool scc_hdr_is(const scc_xport_t *x, scc_msg_hdr_t *h, uint32_t tag)
{
    if (OPAL_UNLIKELY(x->invalidate)) {
        scc_mpb_invalidate();
    }
    return __atomic_load_n(&h->call_hi, __ATOMIC_ACQUIRE) == scc_msg_call_hi(x)
           && __atomic_load_n(&h->id, __ATOMIC_ACQUIRE) == scc_msg_id(x, tag);
}

/* The slot of message tag: consecutive tags use consecutive slots, and each
 * call starts one slot further, so a call rarely waits for the last one's readers.
 * (The lower half of the call is enough: the slot only has to be the same on every
 * rank, and a 32-bit division costs less.) */
static inline int scc_slot_of(const scc_xport_t *x, uint32_t tag)
{
    return (int) ((tag + (uint32_t) x->call) % (uint32_t) x->nslots);
}

/* ------------------------------------------------------------ messages */

/* Where the call count of a new transport starts (coll_scc_call_base, 0: a test
 * hook to cross 2^32 calls quickly); scc_xport_first_call applies it. */
extern uint64_t mca_coll_scc_call_base;
void scc_xport_first_call(scc_xport_t *x);

/* Starts a collective call: all ranks call it for the same calls.  Acks owed from
 * earlier calls are settled in this one: at its first wait (idle time), else at its end. */
static inline void scc_xport_begin(scc_xport_t *x)
{
    if (OPAL_UNLIKELY(0 == x->call)) {
        scc_xport_first_call(x);
    }
    x->call++;
}

/* Publishes len bytes from buf as message tag for nreaders readers.  stable:
 * buf stays unchanged until scc_xport_end(), so large messages may be read
 * from it directly (single copy).  readers: who they are (the pml transport
 * sends to each; the others may pass NULL). */
int scc_xport_send(scc_xport_t *x, uint32_t tag, const void *buf, size_t len, int nreaders,
                   bool stable, const int *readers);

/* Waits for message tag of peer and returns its header (payload not consumed yet). */
static inline scc_msg_hdr_t *scc_xport_wait(scc_xport_t *x, int peer, uint32_t tag)
{
    scc_msg_hdr_t *h = scc_hdr(x, peer, scc_slot_of(x, tag));
    unsigned spins = 0;
    while (!scc_hdr_is(x, h, tag)) {
        scc_xport_idle(x, &spins);
    }
    return h;
}

/* Message tag of peer if it has arrived, else NULL: never waits. */
static inline scc_msg_hdr_t *scc_xport_test(const scc_xport_t *x, int peer, uint32_t tag)
{
    scc_msg_hdr_t *h = scc_hdr(x, peer, scc_slot_of(x, tag));
    return scc_hdr_is(x, h, tag) ? h : NULL;
}

/* Counts me as a reader of the message in peer's slot: after this the sender may reuse it. */
static inline void scc_xport_release(scc_xport_t *x, int peer, uint32_t tag)
{
    __atomic_fetch_add(&scc_ack(x, peer, scc_slot_of(x, tag))->v, 1, __ATOMIC_RELEASE);
}

/* Counts me as a reader of that message at my next call on this communicator
 * (or my next wait), off the critical path of this one.  Only for a message in
 * shared memory (not single-copy: its sender waits at the end of its call) whose
 * sender publishes nothing more in that call. */
static inline void scc_xport_release_later(scc_xport_t *x, int peer, uint32_t tag)
{
    if (x->nlater == x->size) {
        scc_xport_flush_later(x, false);
    }
    x->later[x->nlater].peer = peer;
    x->later[x->nlater].slot = scc_slot_of(x, tag);
    x->later[x->nlater].call = x->call;
    x->nlater++;
}

/* Done with peer's message tag (header h): its sender waits for the readers of a buffer it
 * exposed in place, so that is acknowledged now; a slot copy can wait (release_later). */
static inline void scc_xport_release_read(scc_xport_t *x, int peer, uint32_t tag,
                                          const scc_msg_hdr_t *h)
{
    if (SCC_MSG_CMA == h->kind) {
        scc_xport_release(x, peer, tag);
    } else {
        scc_xport_release_later(x, peer, tag);
    }
}

/* The payload of a message in shared memory (inline or slot; not CMA). */
static inline const char *scc_xport_data(const scc_xport_t *x, int peer, uint32_t tag,
                                         scc_msg_hdr_t *h)
{
    return SCC_MSG_INLINE == h->kind ? (const char *) h->data
                                     : scc_slot_data(x, peer, scc_slot_of(x, tag));
}

/* Claims my slot for message tag (waiting for its previous readers) and returns
 * where to write its len bytes (NULL if they do not fit); then publish it. */
char *scc_xport_send_slot(scc_xport_t *x, uint32_t tag, size_t len);
void scc_xport_send_publish(scc_xport_t *x, uint32_t tag, size_t len, int nreaders);

/* Exposes len bytes at buf (unchanged until scc_xport_end) as message tag for
 * nreaders single-copy readers; needs x->cma.  extra (extra_len <= slot_size
 * bytes) travels in the slot beside it. */
int scc_xport_expose(scc_xport_t *x, uint32_t tag, const void *buf, size_t len, int nreaders,
                     const void *extra, size_t extra_len);

/* Copies len bytes at offset off of an exposed message (header h of peer) into dst. */
int scc_xport_read(scc_xport_t *x, int peer, const scc_msg_hdr_t *h, size_t off, void *dst,
                   size_t len);

/* Receives message tag of peer into buf (len bytes expected). */
int scc_xport_recv(scc_xport_t *x, int peer, uint32_t tag, void *buf, size_t len);

/* Receives message tag of peer and combines: target = msg op (input ? input : target). */
int scc_xport_recv_reduce(scc_xport_t *x, int peer, uint32_t tag, void *target,
                          const void *input, size_t count, struct ompi_datatype_t *dtype,
                          struct ompi_op_t *op);

/* Ends a call: waits until readers are done with whatever they read from my memory,
 * settles acks owed from earlier calls, and fetches what the next call will look at. */
void scc_xport_end(scc_xport_t *x);

/* target = src1 op src2 for count elements (target may be src2). */
void scc_reduce3(struct ompi_op_t *op, const void *src1, const void *src2, void *target,
                 size_t count, struct ompi_datatype_t *dtype);

/* ------------------------------------------------------------ setup */

/* Attaches the communicator to a transport (agreeing with all members through
 * the fallback module); returns OMPI_SUCCESS, or an error after which no rank
 * uses the component on this communicator. */
int mca_coll_scc_xport_attach(struct mca_coll_scc_module_t *m, struct ompi_communicator_t *comm);
void mca_coll_scc_xport_detach(struct mca_coll_scc_module_t *m);

/* A shared mapping of bytes for all members, created by rank 0 (memfd or a
 * mode-0600 file) and attached by the others; agreed among all members.  Each
 * rank then reserves the pages of [my_off, my_off + my_len) itself, so they
 * are local to it.  Returns OMPI_SUCCESS everywhere or an error everywhere. */
int mca_coll_scc_segment_attach(struct mca_coll_scc_module_t *m, struct ompi_communicator_t *comm,
                                size_t bytes, size_t my_off, size_t my_len, const char *what,
                                void **base);
/* The same with several nodes (nd): one segment per node, made by its lowest rank, of
 * bytes for that node's processes; the agreements still span every member. */
int mca_coll_scc_segment_attach_nodes(struct mca_coll_scc_module_t *m,
                                      struct ompi_communicator_t *comm, const scc_nodes_t *nd,
                                      size_t bytes, size_t my_off, size_t my_len,
                                      const char *what, void **base);
void mca_coll_scc_segment_detach(void *base, size_t bytes);
/* All members agree on a flag (the minimum over the communicator, 0 on error). */
int mca_coll_scc_agree(struct mca_coll_scc_module_t *m, struct ompi_communicator_t *comm, int mine);

/* Backends: each fills x (regions, detach) or returns an error. */
int mca_coll_scc_xport_shm_attach(scc_xport_t *x, struct mca_coll_scc_module_t *m,
                                  struct ompi_communicator_t *comm);
int mca_coll_scc_xport_mpb_attach(scc_xport_t *x, struct mca_coll_scc_module_t *m,
                                  struct ompi_communicator_t *comm);
int mca_coll_scc_xport_pml_attach(scc_xport_t *x, struct mca_coll_scc_module_t *m,
                                  struct ompi_communicator_t *comm);

/* The pml transport's messages (coll_scc_xport_pml.c): the engine's functions
 * hand their calls here when x->kind is SCC_XPORT_PML. */
int scc_pml_send(scc_xport_t *x, const void *buf, size_t len, int nreaders, const int *readers);
/* Several nodes: the readers on other nodes get the message over the pml; returns how many
 * readers are on this node (the slot's share), or a negative error. */
int scc_pml_send_remote(scc_xport_t *x, const void *buf, size_t len, int nreaders,
                        const int *readers);
int scc_pml_recv(scc_xport_t *x, int peer, void *buf, size_t len);
int scc_pml_recv_reduce(scc_xport_t *x, int peer, void *target, const void *input, size_t count,
                        struct ompi_datatype_t *dtype, struct ompi_op_t *op);
void scc_pml_end(scc_xport_t *x);

int mca_coll_scc_xport_register_params(void);

END_C_DECLS

#endif /* MCA_COLL_SCC_XPORT_H */
