/* coll_scc_xport.h: a transport as the executor and the algorithms use it -- the state of
 * one communicator's attachment, its capabilities, and the operations that go through its
 * table (coll_scc_xport_ops.h): begin, send, recv, recv_reduce, expose, read, end and the
 * receives posted ahead.  The slot engine under shm and mpb is coll_scc_xport_slots.h, the
 * pml's own functions coll_scc_xport_pml.h, the strict checker coll_scc_strict.h.
 *
 * A message is named by (call, tag): the 64-bit count of collective calls on the
 * communicator and a 32-bit tag; every member counts its calls alike.  A call that goes
 * wrong on some members still ends on all of them (coll_scc_drain.c). */
#ifndef MCA_COLL_SCC_XPORT_H
#define MCA_COLL_SCC_XPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "coll_scc_compat.h"
#include "coll_scc_members.h"
#include "coll_scc_nodes.h"
#include "coll_scc_select.h"
#include "coll_scc_xport_ops.h"
#include "coll_scc_xport_pool.h"

BEGIN_C_DECLS

struct ompi_op_t;
struct ompi_datatype_t;
struct scc_fiber;

#define SCC_LINE 64                 /* bytes between independently written words */
#define SCC_MPB_LINE 32             /* the SCC's cache line: the unit of its buffers' writes */
#define SCC_INLINE_MAX 32           /* payload that travels inside the header line */
#define SCC_CMA_MIN_PROBE (-2)      /* coll_scc_cma_min: by the probe (the default) */
#define SCC_CMA_MIN 8192            /* coll_scc_cma_min -1: single copy from here; */
#define SCC_CMA_MIN_OVER 131072     /*   processes outnumber the cores: from here, */
#define SCC_CMA_A2A_MIN_OVER 32768  /*   and from here for blocks per peer */
#define SCC_CMA_REDUCE_MAX 524288   /* coll_scc_cma_reduce_min -2: reductions up to here */
#define SCC_PML_AHEAD 4             /* pml receives posted ahead of their steps */
#define SCC_BAR_LINES 8             /* barrier flags per rank (rounds of dissemination) */

/* coll_scc_transport: which operations table attach picks (NONE: auto) */
typedef enum {
    SCC_XPORT_NONE = 0,
    SCC_XPORT_SHM,
    SCC_XPORT_MPB,
    SCC_XPORT_PML
} scc_xport_kind_t;

/* Algorithms that need shared memory (direct reads, flag lines, slot lists): bit (1 << alg) */
#define SCC_ALGS_NEED_SHARED ((1u << SCC_ALG_FLAT) | (1u << SCC_ALG_DISSEM))

struct scc_strict;

typedef struct scc_xport {
    const scc_xport_ops_t *ops;     /* the transport's operations (NULL until attached) */
    unsigned caps;                  /* SCC_XPORT_CAP_*: what this attachment does */
    int rank, size;
    int nslots;                     /* >= SCC_SCHED_TAG_WINDOW */
    size_t slot_size;               /* payload bytes of one slot */
    size_t pipe;                    /* pieces of pipelined messages (<= slot_size) */
    size_t region_size;             /* bytes of one rank's region */
    char **region;                  /* size entries: each rank's region in this process */
    pid_t *pids;                    /* CMA: each rank's pid */
    size_t cma_min;                 /* messages from this size on go single-copy */
    size_t cma_a2a_min;             /* the same, per-peer blocks: gather, scatter, alltoall(v) */
    size_t cma_gather_min;          /*   and where one reader takes them all (gather(v)) */
    bool cma_table;                 /* alltoallv(w): send buffers exposed, each block read
                                       single copy unless it fits the slot beside the table */
    size_t cma_reduce_min;          /* direct reductions: single copy from this size on */
    size_t cma_reduce_max;          /*   up to this one */
    size_t cma_least;               /* the least of these: no call is tried from it on */
    uint64_t cma_reads;             /* single-copy reads this rank made (verbose 2) */
    bool yield;                     /* oversubscribed: yield while waiting */
    bool over;                      /* every rank yields (agreed at attach) */
    unsigned spin;                  /* polls before progressing (and yielding) */
    bool invalidate;                /* SCC: MPBT lines (invalidate before reads, flush writes) */
    volatile uint32_t *wcb;         /* SCC: my line written to flush the write-combining buffer */
    size_t ack_off, ack_stride;     /* where the ack lines start in a region, bytes of one */
    size_t slot_off;                /* where the data slots start in a region */
    uint64_t call;                  /* executor calls so far (same on every rank) */
    uint32_t *expected;             /* nslots: reads my slot must count before reuse (mod 2^32) */
    uint32_t *acked;                /* nslots: reads my readers had counted when I last looked */
    uint32_t *acks;                 /* size x nslots: reads I counted of each peer's slots */
    struct scc_strict *strict;      /* the strict emulation's checker, or NULL */
    struct scc_fiber *fiber;        /* the running call is a task's (coll_scc_task.c): its
                                       waits stop the task instead of spinning, after */
    unsigned fiber_spin;            /*   this many polls (a task its caller waits for) */
    struct scc_try *trying;         /* the running call is tried on its caller's stack, its
                                       effects held back (coll_scc_xport_try.h) */
    bool try_able;                  /* calls may be tried here (set at attach: read beside
                                       the words above at every nonblocking call) */
    struct scc_try_replay *replay;  /* what an abandoned try let out, its task skips (NULL
                                       until a try first lets something out) */
    int nreplay;                    /*   entries left to skip */
    uint64_t cma_pending;           /* bitmask of my slots holding CMA descriptors */
    uint64_t bar_epoch;             /* barriers so far */
    void *backing;                  /* backend data (mapping, names) */
    const char *desc;               /* what the verbose output calls it */
    const char **pv;                /* size pointers: scratch for the algorithms */
    struct scc_later { int peer, slot; uint64_t call; } *later; /* acks owed (release_later) */
    int nlater;
    int bar_radix, bar_rounds;      /* dissemination barrier: peers per round, rounds */
    struct scc_pool_entry *pool;    /* my slots' pages under the process's budget, or NULL */
    bool pool_used;                 /* a call ran since the pool last looked (second chance) */
    bool cold;                      /* they were given back (or never taken): warm them
                                       before a message goes in (scc_slot_wr) */
    /* the running call as this rank sees it (coll_scc_drain.c; cleared by scc_xport_end):
       shape goes into every header it publishes; with shape_check its first message must
       carry the same (else met holds the one it carried); fail, once set, is the call's
       first error here: the rank goes on without data, publishing poison */
    uint64_t shape, met;
    bool shape_check;
    int fail;
    void *bounce;                   /* single-copy reductions read into this */
    size_t bounce_bytes;
    /* several nodes: offnode[r] != 0 when r is on another node than this process (NULL when
       every member is on this one); over shared memory remote is the same (messages with
       those go over the pml, the regions of this node's processes only are mapped), NULL
       for the pml transport (every message goes over the pml) */
    uint8_t *offnode;
    const uint8_t *remote;
    int nlocal, lrank;              /* processes on my node, my index among them */
    uint64_t traffic[2][2];         /* messages received, [peer off my node][by the pml] */
    /* pml: point-to-point messages on the communicator */
    struct ompi_communicator_t *comm;
    const scc_members_t *mb;        /* the members as the module passed them (messages) */
    int pml_tag;                    /* the running call's own tag (scc_pml_begin) */
    uint64_t pml_tag_call;          /* the call it was reserved for */
    struct ompi_request_t **reqs;   /* sends posted in the running call */
    int nreqs, reqs_cap;
    bool send_copy;                 /* the running schedule changes blocks it just sent */
    struct scc_pml_copy {           /* messages sent from copies (send_copy), kept */
        void *buf;
        size_t cap;
    } *copies;
    int ncopies, copies_cap;
    struct scc_pml_ahead {          /* receives posted ahead of their steps */
        struct ompi_request_t *req;
        void *buf;                  /* a reduction's message lands here */
        size_t cap;
        int busy;
    } ahead[SCC_PML_AHEAD];
    /* a broadcast's shape over the pml (coll_scc_xport_pml.c): the call in which my shape
       went to reader r (shape_at[r]) and in which peer's came to me (shape_at[size + peer]) */
    uint64_t *shape_at;
    uint64_t shape_word;            /* what my shape messages of the running call carry */
    struct scc_pml_first {          /* a first message taken before its step */
        uint64_t call;
        int peer;                   /* -1: none */
        size_t len;                 /* its data, after the shape */
        char *buf;
    } first[2];
} scc_xport_t;

/* True when every member's region is mapped here (no pml, no other node): the direct
 * algorithms and the flag barriers need that. */
static inline bool scc_xport_shared_all(const scc_xport_t *x)
{
    return 0 != (x->caps & SCC_XPORT_CAP_SHARED);
}

/* True when messages with peer go over the pml: with shared memory on several nodes, the
 * peers on other nodes; with the pml transport, all. */
static inline bool scc_xport_by_pml(const scc_xport_t *x, int peer)
{
    return 0 != (x->caps & SCC_XPORT_CAP_PML) && (NULL == x->remote || x->remote[peer]);
}

/* True when every peer is reached over the pml (it sends from the buffer it is given until
 * the call ends). */
static inline bool scc_xport_all_pml(const scc_xport_t *x)
{
    return 0 != (x->caps & SCC_XPORT_CAP_PML) && NULL == x->remote;
}

/* True when readers copy large messages from their sender's memory (process_vm_readv works
 * between all members on a node). */
static inline bool scc_xport_single_copy(const scc_xport_t *x)
{
    return 0 != (x->caps & SCC_XPORT_CAP_SINGLE_COPY);
}

/* ------------------------------------------------------------ calls */

/* Bytes of the pieces a pipelined message of `bytes` moves in through the slots: about 16
 * of them, at least `least` (the pipe size, or more where each piece costs more
 * synchronisation), at most a slot.  Larger messages take larger pieces: fewer hand-offs for
 * the same overlap (README, Tuning).  Every rank gets the same from the same bytes. */
static inline size_t scc_xport_piece(const scc_xport_t *x, size_t bytes, size_t least)
{
    size_t p = bytes / 16;

    least = least < x->slot_size ? least : x->slot_size;
    p = p < least ? least : (p > x->slot_size ? x->slot_size : p);
    return p < SCC_LINE ? p : p & ~(size_t) (SCC_LINE - 1);
}

/* Where the call count of a new transport starts (coll_scc_call_base, 0: a test
 * hook to cross 2^32 calls quickly); scc_xport_first_call applies it. */
extern uint64_t mca_coll_scc_call_base;
void scc_xport_first_call(scc_xport_t *x);

/* A call over the pml gets a tag of its own (coll_scc_xport_pml.c). */
void scc_pml_begin(scc_xport_t *x);

/* Starts a collective call: all ranks call it for the same calls.  Acks owed from
 * earlier calls are settled in this one: at its first wait (idle time), else at its end. */
static inline void scc_xport_begin(scc_xport_t *x)
{
    if (OPAL_UNLIKELY(0 == x->call)) {
        scc_xport_first_call(x);
    }
    if (NULL != x->pool) {
        struct scc_xport *owing = __atomic_load_n(&scc_pool_owing, __ATOMIC_RELAXED);
        x->pool_used = true;
        if (OPAL_UNLIKELY(mca_coll_scc_threads
                          || 0 != __atomic_load_n(&scc_pool_retry, __ATOMIC_RELAXED)
                          || (NULL != owing && x != owing))) {
            scc_pool_begin(x);
        }
    }
    x->call++;
    if (OPAL_UNLIKELY(x->caps & SCC_XPORT_CAP_PML)) {
        scc_pml_begin(x);
    }
}

/* target = src1 op src2 for count elements (target may be src2). */
void scc_reduce3(struct ompi_op_t *op, const void *src1, const void *src2, void *target,
                 size_t count, struct ompi_datatype_t *dtype);
/* acc = p[0] op (p[1] op (... op p[n-1])) over count elements (acc may be p[n-1]). */
void scc_combine(struct ompi_op_t *op, const char **p, int n, char *acc, size_t count,
                 struct ompi_datatype_t *dtype);

/* ------------------------------------------------------------ operations */

/* What the executor and the algorithms call: each goes through the attached transport's
 * table (coll_scc_xport_ops.h). */

/* Publishes len bytes from buf as message tag for nreaders readers.  stable:
 * buf stays unchanged until scc_xport_end(), so large messages may be read
 * from it directly (single copy).  readers: who they are (the pml transport
 * sends to each; the others may pass NULL).  After x->fail the message is poison (buf is
 * not read, may be NULL). */
static inline int scc_xport_send(scc_xport_t *x, uint32_t tag, const void *buf, size_t len,
                                 int nreaders, bool stable, const int *readers)
{
    return x->ops->send(x, tag, buf, len, nreaders, stable, readers);
}

/* Receives message tag of peer into buf (len bytes expected).  After x->fail it only
 * takes the message (buf may be NULL); a poisoned message returns its class; with
 * x->shape_check, a first message of another shape is left where it is
 * (SCC_ERR_RESHAPE). */
static inline int scc_xport_recv(scc_xport_t *x, int peer, uint32_t tag, void *buf, size_t len)
{
    return x->ops->recv(x, peer, tag, buf, len);
}

/* Receives message tag of peer and combines: target = msg op (input ? input : target).
 * After x->fail, and for poison, as scc_xport_recv. */
static inline int scc_xport_recv_reduce(scc_xport_t *x, int peer, uint32_t tag, void *target,
                                        const void *input, size_t count,
                                        struct ompi_datatype_t *dtype, struct ompi_op_t *op)
{
    return x->ops->recv_reduce(x, peer, tag, target, input, count, dtype, op);
}

/* Exposes len bytes at buf (unchanged until scc_xport_end) as message tag for
 * nreaders single-copy readers; needs scc_xport_single_copy.  extra (extra_len <=
 * slot_size bytes) travels in the slot beside it. */
static inline int scc_xport_expose(scc_xport_t *x, uint32_t tag, const void *buf, size_t len,
                                   int nreaders, const void *extra, size_t extra_len)
{
    return x->ops->expose(x, tag, buf, len, nreaders, extra, extra_len);
}

/* Copies len bytes at offset off of an exposed message (header h of peer) into dst. */
static inline int scc_xport_read(scc_xport_t *x, int peer, const struct scc_msg_hdr *h, size_t off,
                                 void *dst, size_t len)
{
    return x->ops->read(x, peer, h, off, dst, len);
}

/* Ends a call: waits until readers are done with whatever they read from my memory,
 * settles acks owed from earlier calls, and fetches what the next call will look at.
 * Returns the call's failure here (x->fail, 0 for none) and clears it and the shape. */
static inline int scc_xport_end(scc_xport_t *x)
{
    return x->ops->end(x);
}

/* Receives posted ahead of their steps from peers over the pml (scc_xport_by_pml), at most
 * SCC_PML_AHEAD at once.  scc_xport_post posts len bytes from peer into buf (NULL: into a
 * buffer of its own, for a reduction) and returns its handle, or -1 when it cannot (then
 * do not post ahead); scc_xport_wait_one waits for it and checks the length, and with
 * target combines it: target = msg op (input ? input : target), count elements;
 * scc_xport_cancel drops it. */
static inline int scc_xport_post(scc_xport_t *x, int peer, void *buf, size_t len)
{
    return x->ops->post(x, peer, buf, len);
}

static inline int scc_xport_wait_one(scc_xport_t *x, int handle, int peer, size_t len,
                                     void *target, const void *input, size_t count,
                                     struct ompi_datatype_t *dtype, struct ompi_op_t *op)
{
    return x->ops->wait_one(x, handle, peer, len, target, input, count, dtype, op);
}

static inline void scc_xport_cancel(scc_xport_t *x, int handle)
{
    x->ops->cancel(x, handle);
}

/* ------------------------------------------------------------ setup */

/* Attaches the communicator to a transport (agreeing with all members through
 * the fallback module); returns OMPI_SUCCESS, or an error after which no rank
 * uses the component on this communicator. */
int mca_coll_scc_xport_attach(const scc_members_t *mb, scc_xport_t **out);
void mca_coll_scc_xport_detach(scc_xport_t **xp);

/* A shared mapping of bytes for all members, created by rank 0 (memfd or a
 * mode-0600 file) and attached by the others; agreed among all members.  Each
 * rank then reserves the pages of [my_off, my_off + my_len) itself, so they
 * are local to it.  Returns OMPI_SUCCESS everywhere or an error everywhere. */
int mca_coll_scc_segment_attach(const scc_members_t *mb, size_t bytes, size_t my_off,
                                size_t my_len, const char *what, void **base);
/* The same with several nodes (nd): one segment per node, made by its lowest rank, of
 * bytes for that node's processes; the agreements still span every member.  A memfd
 * reserves only the first my_hot bytes of my part (the rest when first touched); a file,
 * whose directory may fill up, all my_len.  memfd (may be NULL): which one it is. */
int mca_coll_scc_segment_attach_nodes(const scc_members_t *mb, const scc_nodes_t *nd,
                                      size_t bytes, size_t my_off, size_t my_len, size_t my_hot,
                                      const char *what, void **base, bool *memfd);
void mca_coll_scc_segment_detach(void *base, size_t bytes);

int mca_coll_scc_xport_register_params(void);

END_C_DECLS

#endif /* MCA_COLL_SCC_XPORT_H */
