/* coll_scc_xport_slots.h: the slot engine under the shm and mpb transports -- message slots in
 * per-rank buffers (the "MPB"), sequence-numbered flags, and waits that progress and yield.
 * The transports' own files and the direct algorithms on shared memory (coll_scc_flat*.c,
 * the pair lists) use it; the executor's steps go through the operations (coll_scc_xport.h).
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
 * no header left untouched for 2^32 calls matches a later wait.
 *
 * Every line has one writer, as the SCC requires (it has no atomic read-modify-write on
 * its buffers): a region's owner writes its control lines, headers and slots, and each
 * reader writes one ack line in every region -- per slot, how many of that slot's
 * messages it has read.  A sender reuses a slot only when its readers' counts add up to
 * the readers of every message it put there.  Nothing is ever reset.
 *
 * A call that goes wrong on some members still ends on all of them, with every message
 * read and acknowledged (coll_scc_drain.c): a header also carries the call's shape as its
 * sender sees it (a broadcast's receivers meet the root's there), and a member whose call
 * failed goes through the rest of it without data, its messages marked poisoned.
 */
#ifndef MCA_COLL_SCC_XPORT_SLOTS_H
#define MCA_COLL_SCC_XPORT_SLOTS_H

#include <sched.h>

#include "coll_scc_fiber.h"
#include "coll_scc_strict.h"
#include "coll_scc_trace.h"
#include "coll_scc_xport.h"
#include "coll_scc_xport_order.h"
#include "coll_scc_xport_try.h"
#include "opal/runtime/opal_progress.h"

BEGIN_C_DECLS

/* How a message's payload travels */
enum {
    SCC_MSG_INLINE = 1,     /* in the header line itself */
    SCC_MSG_SLOT,           /* in the sender's data slot */
    SCC_MSG_CMA,            /* in the sender's own memory: read with process_vm_readv */
    SCC_MSG_POISON          /* none: the sender's call failed (its MPI error class in the
                               kind's upper bits, SCC_MSG_POISON_CLASS) */
};

#define SCC_MSG_POISON_CLASS(kind) ((int) ((kind) >> 8))

/* A slot header: one line, written only by the region's owner. */
typedef struct scc_msg_hdr {
    volatile uint64_t id;           /* written last: the message is complete */
    uint64_t len;
    uint32_t kind;
    volatile uint32_t call_hi;      /* the call's upper 32 bits (id holds the lower) */
    uint64_t addr;                  /* SCC_MSG_CMA: address in the sender; else the shape */
    uint8_t data[SCC_INLINE_MAX];   /* inline payload; SCC_MSG_CMA: the shape first */
} __attribute__((aligned(SCC_LINE))) scc_msg_hdr_t;

_Static_assert(sizeof(scc_msg_hdr_t) == SCC_LINE, "a slot header is one line");

/* An id no message has: a writer withdraws a header's id with it (tags stay below
 * 2^32 - 1: the executors bound them well below). */
#define SCC_MSG_ID_NONE UINT64_MAX

/* A flag line, written by one writer. */
typedef struct scc_counter {
    volatile uint64_t v;
} __attribute__((aligned(SCC_LINE))) scc_counter_t;

/* A line of words, one per size class of large allgather parts, written by one writer. */
typedef struct scc_ways_line {
    volatile uint64_t w[8];
} __attribute__((aligned(SCC_LINE))) scc_ways_line_t;

_Static_assert(sizeof(scc_ways_line_t) == SCC_LINE, "the ways are one line");

/* The control part at the start of every rank's region. */
typedef struct scc_region_ctrl {
    scc_counter_t owner;            /* mpb: the communicator that claimed this core's buffer */
    scc_counter_t pid;              /* the owning process */
    scc_counter_t probe;            /* address of its CMA probe word */
    scc_counter_t wcb;              /* SCC: written to flush the write-combining buffer */
    scc_ways_line_t ways;           /* rank 0's: the way of large allgather parts per size
                                       class (coll_scc_learn.h) */
    scc_counter_t bar[SCC_BAR_LINES];
    /* followed by nslots headers, an ack line per member, then the data slots */
} scc_region_ctrl_t;

/* ------------------------------------------------------------ layout */

static inline scc_region_ctrl_t *scc_ctrl(const scc_xport_t *x, int r)
{
    return (scc_region_ctrl_t *) x->region[r];
}

/* Word b of rank r's ways line (rank 0 writes, every rank reads). */
static inline uint64_t scc_xport_ways(const scc_xport_t *x, int r, int b)
{
    return scc_load(x, &scc_ctrl(x, r)->ways.w[b]);
}

static inline scc_msg_hdr_t *scc_hdr(const scc_xport_t *x, int r, int slot)
{
    return (scc_msg_hdr_t *) (x->region[r] + sizeof(scc_region_ctrl_t)) + slot;
}

/* reader's ack line in writer's region: a 32-bit count per slot (only reader writes it) */
static inline volatile uint32_t *scc_ackline(const scc_xport_t *x, int writer, int reader)
{
    return (volatile uint32_t *) (x->region[writer] + x->ack_off + (size_t) reader * x->ack_stride);
}

static inline char *scc_slot_data(const scc_xport_t *x, int r, int slot)
{
    return x->region[r] + x->slot_off + slot * x->slot_size;
}

/* Where to write len bytes of a message into my slot: its pages count again (the pool). */
static inline char *scc_slot_wr(scc_xport_t *x, int slot, size_t len);

/* Bytes of one reader's ack line(s): a count per slot, in whole lines of `line` bytes. */
static inline size_t scc_ack_stride(int nslots, size_t line)
{
    return (nslots * sizeof(uint32_t) + line - 1) / line * line;
}

/* Lays out x's regions (x->nslots, x->size set) for lines of `line` bytes; returns the
 * bytes of control before the data slots. */
static inline size_t scc_xport_layout(scc_xport_t *x, size_t line)
{
    x->ack_off = sizeof(scc_region_ctrl_t) + x->nslots * sizeof(scc_msg_hdr_t);
    x->ack_stride = scc_ack_stride(x->nslots, line);
    x->slot_off = x->ack_off + (size_t) x->size * x->ack_stride;
    return x->slot_off;
}

/* ------------------------------------------------------------ memory order */

/* Where to write len bytes of a region at p. */
static inline void *scc_wr(const scc_xport_t *x, const volatile void *p, size_t len)
{
    if (OPAL_UNLIKELY(NULL != x->strict)) {
        return mca_coll_scc_strict_wr(x, p, len);
    }
    return (void *) (uintptr_t) p;
}

static inline char *scc_slot_wr(scc_xport_t *x, int slot, size_t len)
{
    if (OPAL_UNLIKELY(x->cold)) {
        scc_pool_warm(x);
    }
    return (char *) scc_wr(x, scc_slot_data(x, x->rank, slot), len);
}

/* Makes my message in slot's header h visible: its id, written last (a reader that sees it
 * sees the whole message), then the write-combining flush; nreaders more reads to count. */
static inline void scc_publish_id(scc_xport_t *x, scc_msg_hdr_t *h, int slot, uint64_t id,
                                  int nreaders)
{
    x->expected[slot] += (uint32_t) nreaders;
    scc_store64(&((scc_msg_hdr_t *) scc_wr(x, h, sizeof(*h)))->id, id);
    scc_mpb_flush(x);
}

/* Sets my flag *p (a line of my region only I write) to v and sends it on its way. */
static inline void scc_flag_set(const scc_xport_t *x, volatile uint64_t *p, uint64_t v)
{
    if (OPAL_UNLIKELY(NULL != x->trying) && !x->trying->flags_now) {
        scc_try_log_flag(x->trying, p, v);
        return;
    }
    scc_store64((volatile uint64_t *) scc_wr(x, p, sizeof(*p)), v);
    scc_mpb_flush(x);
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
    if (OPAL_UNLIKELY(NULL != x->trying)) {
        scc_try_wait_turn(x->trying, spins);    /* (or the try is abandoned) */
        scc_cpu_relax();
        return;
    }
    if (OPAL_UNLIKELY(NULL != x->fiber)) {
        /* a task: the progress loop that resumed it goes on (and resumes it again); when
           its caller waits for it (MPI_Wait resumes it again and again), it polls a little
           first, as a blocking call would, rather than a progress loop's turn per poll */
        if (*spins < x->fiber_spin) {
            ++*spins;
            scc_cpu_relax();
            return;
        }
        scc_fiber_yield(x->fiber);
        *spins = 0;
        return;
    }
    /* the peer is most often running and about to write: spin a little first */
    if (++*spins < x->spin) {
        scc_cpu_relax();
        return;
    }
    if (x->yield) {
        /* oversubscribed: progress and yield on alternate turns, so that what progress
           brought is seen before the core is given away */
        if (*spins & 1) {
            opal_progress();
        } else {
            scc_yield();
        }
        return;
    }
    if (0 == (*spins & 15)) {
        opal_progress();
    }
}

/* Counts me as the reader of the messages I deferred (scc_xport_release_later);
 * only_old: only those of earlier calls. */
void scc_xport_flush_later(scc_xport_t *x, bool only_old);

/* Counts one more message read from peer's slot in my ack line there (not flushed), at
 * once: scc_ack_put, unless a try holds it back. */
static inline void scc_ack_write(scc_xport_t *x, int peer, int slot)
{
    uint32_t v = ++x->acks[(size_t) peer * x->nslots + slot];
    volatile uint32_t *line = scc_ackline(x, peer, x->rank);
    scc_store32((volatile uint32_t *) scc_wr(x, &line[slot], sizeof(uint32_t)), v);
}

static inline void scc_ack_put(scc_xport_t *x, int peer, int slot)
{
    if (OPAL_UNLIKELY(NULL != x->trying)) {
        scc_try_log_ack(x->trying, peer, slot);
        return;
    }
    scc_ack_write(x, peer, slot);
}

/* Adds up what my readers counted of each of my slots into x->acked. */
void scc_xport_ack_scan(scc_xport_t *x);

/* True when every message put in my slot was read by all its readers (counts wrap at
 * 2^32, far beyond the reads outstanding at once). */
static inline bool scc_xport_slot_free(scc_xport_t *x, int slot)
{
    if ((int32_t) (x->acked[slot] - x->expected[slot]) >= 0) {
        return true;
    }
    scc_xport_ack_scan(x);
    return (int32_t) (x->acked[slot] - x->expected[slot]) >= 0;
}

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
    if (scc_load(x, p) == want) {
        return;
    }
    SCC_TRACE_T0(t0);
    while (scc_load(x, p) != want) {
        scc_xport_idle(x, &spins);
    }
    SCC_TRACE_ADD(t0, SCC_PH_WAIT, 0);
}

/* Waits until *p >= want. */
static inline void scc_wait_ge(scc_xport_t *x, volatile uint64_t *p, uint64_t want)
{
    unsigned spins = 0;
    if (scc_load(x, p) >= want) {
        return;
    }
    SCC_TRACE_T0(t0);
    while (scc_load(x, p) < want) {
        scc_xport_idle(x, &spins);
    }
    SCC_TRACE_ADD(t0, SCC_PH_WAIT, 0);
}

/* Waits until the readers of my slot's messages are done with them. */
static inline void scc_xport_wait_readers(scc_xport_t *x, int slot)
{
    unsigned spins = 0;
    if (scc_xport_slot_free(x, slot)) {
        return;
    }
    SCC_TRACE_T0(t0);
    while (!scc_xport_slot_free(x, slot)) {
        scc_xport_idle(x, &spins);
    }
    SCC_TRACE_ADD(t0, SCC_PH_WAIT, 0);
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
    return scc_load32(&h->call_hi) == scc_msg_call_hi(x)
           && scc_load64(&h->id) == scc_msg_id(x, tag);
}

/* The slot of message tag: consecutive tags use consecutive slots, and each
 * call starts one slot further, so a call rarely waits for the last one's readers.
 * (The lower half of the call is enough: the slot only has to be the same on every
 * rank, and a 32-bit division costs less.) */
static inline int scc_slot_of(const scc_xport_t *x, uint32_t tag)
{
    return (int) ((tag + (uint32_t) x->call) % (uint32_t) x->nslots);
}

/* While a rank waits long for its first message of a call whose shape it checks: true when
 * some message of the call on this node, or across nodes over the pml, says another shape
 * (x->met then holds it) -- the message this rank waits for may never come
 * (coll_scc_xport.c; why: coll_scc_drain.c). */
bool scc_xport_shape_stuck(scc_xport_t *x, unsigned *turns);

/* A message of len bytes written or found: a try counts them (coll_scc_xport_try.h). */
static inline void scc_xport_try_bytes(const scc_xport_t *x, size_t len)
{
    if (OPAL_UNLIKELY(NULL != x->trying)) {
        scc_try_bytes(x->trying, len);
    }
}

static inline scc_msg_hdr_t *scc_xport_found(const scc_xport_t *x, scc_msg_hdr_t *h)
{
    if (OPAL_UNLIKELY(NULL != x->trying)) {
        scc_try_found(x->trying, h->len);
    }
    return h;
}

/* Waits for message tag of peer and returns its header (payload not consumed yet).  NULL
 * only while x->shape_check: the call has another shape (scc_xport_shape_stuck). */
static inline scc_msg_hdr_t *scc_xport_wait(scc_xport_t *x, int peer, uint32_t tag)
{
    scc_msg_hdr_t *h = scc_hdr(x, peer, scc_slot_of(x, tag));
    unsigned spins = 0, turns = 0;
    if (scc_hdr_is(x, h, tag)) {
        return scc_xport_found(x, h);
    }
    SCC_TRACE_T0(t0);
    while (!scc_hdr_is(x, h, tag)) {
        if (OPAL_UNLIKELY(x->shape_check) && scc_xport_shape_stuck(x, &turns)) {
            return NULL;
        }
        scc_xport_idle(x, &spins);
    }
    SCC_TRACE_ADD(t0, SCC_PH_WAIT, 0);
    return scc_xport_found(x, h);
}

/* Message tag of peer if it has arrived, else NULL: never waits. */
static inline scc_msg_hdr_t *scc_xport_test(const scc_xport_t *x, int peer, uint32_t tag)
{
    scc_msg_hdr_t *h = scc_hdr(x, peer, scc_slot_of(x, tag));
    return scc_hdr_is(x, h, tag) ? scc_xport_found(x, h) : NULL;
}

/* Waits for message a or b of peer, whichever comes first (a is looked at first), and
 * returns its tag: where a message of the call may come another way (scatterv's erroneous
 * calls), its reader waits for both. */
static inline uint32_t scc_xport_wait_either(scc_xport_t *x, int peer, uint32_t a, uint32_t b)
{
    unsigned spins = 0;
    if (NULL != scc_xport_test(x, peer, a)) {
        return a;
    }
    SCC_TRACE_T0(t0);
    while (NULL == scc_xport_test(x, peer, a) && NULL == scc_xport_test(x, peer, b)) {
        scc_xport_idle(x, &spins);
    }
    SCC_TRACE_ADD(t0, SCC_PH_WAIT, 0);
    return NULL != scc_xport_test(x, peer, a) ? a : b;
}

/* Counts me as a reader of the message in peer's slot: after this the sender may reuse it. */
static inline void scc_xport_release(scc_xport_t *x, int peer, uint32_t tag)
{
    scc_ack_put(x, peer, scc_slot_of(x, tag));
    scc_mpb_flush(x);
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

/* Tries (coll_scc_xport_try.h).  True when a call on x may be tried (the shm transport on one
 * node, no other thread, no failed or checked call). */
static inline bool scc_try_possible(const scc_xport_t *x)
{
    return NULL != x && x->try_able && NULL == x->strict && NULL == x->fiber
           && NULL == x->trying && 0 == x->fail && !x->shape_check;
}
/* Whether x's transport, the thread level and coll_scc_nbc_try let calls be tried (at attach:
 * x->try_able). */
bool scc_try_able(const scc_xport_t *x);
/* Starts a try on x: saves what an abandoned try restores (acks owed from earlier calls stay
 * owed, as in a blocking call), and holds back x's effects from here on. */
void scc_try_start(scc_xport_t *x, scc_try_t *t);
/* The try reached its end: its log goes out in order, x runs untried again. */
void scc_try_commit(scc_xport_t *x);

/* The slot engine's operations (coll_scc_xport.c), in the tables of shm and mpb. */
int scc_slot_send(scc_xport_t *x, uint32_t tag, const void *buf, size_t len, int nreaders,
                  bool stable, const int *readers);
int scc_slot_recv(scc_xport_t *x, int peer, uint32_t tag, void *buf, size_t len);
int scc_slot_recv_reduce(scc_xport_t *x, int peer, uint32_t tag, void *target,
                         const void *input, size_t count, struct ompi_datatype_t *dtype,
                         struct ompi_op_t *op);
int scc_slot_expose(scc_xport_t *x, uint32_t tag, const void *buf, size_t len, int nreaders,
                    const void *extra, size_t extra_len);
int scc_slot_read(scc_xport_t *x, int peer, const scc_msg_hdr_t *h, size_t off, void *dst,
                  size_t len);
int scc_slot_end(scc_xport_t *x);

/* Copies len bytes at addr in peer's memory into buf (single copy: process_vm_readv). */
int scc_cma_read(scc_xport_t *x, int peer, uint64_t addr, void *buf, size_t len);

END_C_DECLS

#endif /* MCA_COLL_SCC_XPORT_SLOTS_H */
