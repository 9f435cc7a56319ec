/* coll_scc_flat.h: the direct algorithms (coll_scc_flat.c: bcast and the reductions;
 * coll_scc_flat_move.c: alltoall(v); coll_scc_flat_parts.c: gather(v), scatter(v),
 * allgather(v); coll_scc_flat_barrier.c). */
#ifndef MCA_COLL_SCC_FLAT_H
#define MCA_COLL_SCC_FLAT_H

#include "coll_scc_exec.h"

BEGIN_C_DECLS

/* All buffers are contiguous bytes; reductions take contiguous element types.
 * In place: the input pointer equals the output (or the rank's block of it).
 * bcast: of the `bytes` the root sends, the first `cap` land in a reader's buf (bytes, but
 * where a reader rejoins a root that sends more than its count: coll_scc_bcast.c); buf
 * may be NULL after a failure (x->fail, coll_scc_drain.c); v (or NULL): buf's view, packed
 * or unpacked piece by piece. */
int mca_coll_scc_bcast_flat(mca_coll_scc_module_t *m, char *buf, size_t bytes, size_t cap,
                            int root, scc_view_t *v);
int mca_coll_scc_reduce_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                             size_t count, struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                             int root);
int mca_coll_scc_allreduce_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                size_t count, struct ompi_datatype_t *dtype,
                                struct ompi_op_t *op);
/* reduce_scatter(_block): rank i's block is elements [at[i], at[i + 1]) of the vector (n + 1
 * entries), or, at NULL, rcount elements from i * rcount (scc_rs_block) */
int mca_coll_scc_reduce_scatter_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                     size_t rcount, const size_t *at,
                                     struct ompi_datatype_t *dtype, struct ompi_op_t *op);
/* Each rank's part of a gather(v), scatter(v) or allgather(v): len[i] bytes at byte offset
 * off[i] of the buffer of all parts; len NULL: every part `each` bytes, part i at i * each. */
typedef struct scc_parts {
    const size_t *len, *off;
    size_t each;
} scc_parts_t;

static inline size_t scc_part_len(const scc_parts_t *p, int i)
{
    return NULL != p->len ? p->len[i] : p->each;
}

static inline size_t scc_part_off(const scc_parts_t *p, int i)
{
    return NULL != p->off ? p->off[i] : (size_t) i * p->each;
}

/* (coll_scc_flat_parts.c) gatherv: every rank but the root gives sbytes from sbuf; the
 * root's parts (rbuf, parts) -- its own from sbuf, NULL in place.  scatterv: the root's
 * parts (sbuf, parts: equal ones, len NULL, only where every rank passes them alike), each
 * rank's part into rbuf (rbytes; NULL at the root in place).  allgatherv: sbuf (this rank's part, may be in rbuf) to all parts of
 * rbuf.  Every rank calls them, whatever its part's size. */
int mca_coll_scc_gatherv_flat(mca_coll_scc_module_t *m, const char *sbuf, size_t sbytes,
                              char *rbuf, const scc_parts_t *parts, int root, scc_view_t *v);
int mca_coll_scc_scatterv_flat(mca_coll_scc_module_t *m, const char *sbuf,
                               const scc_parts_t *parts, char *rbuf, size_t rbytes, int root,
                               scc_view_t *v);
int mca_coll_scc_allgatherv_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                 const scc_parts_t *parts);

/* the same with parts of `bytes` each; v (or NULL): a sender's view of sbuf, packed piece
 * by piece, or the root's of rbuf, unpacked as each rank's part is complete */
static inline int mca_coll_scc_gather_flat(mca_coll_scc_module_t *m, const char *sbuf,
                                           char *rbuf, size_t bytes, int root, scc_view_t *v)
{
    const scc_parts_t p = { NULL, NULL, bytes };
    return mca_coll_scc_gatherv_flat(m, sbuf, bytes, rbuf, &p, root, v);
}

/* (v, or NULL: the root's view of sbuf, packed piece by piece, or a reader's of rbuf,
   unpacked as its pieces come) */
static inline int mca_coll_scc_scatter_flat(mca_coll_scc_module_t *m, const char *sbuf,
                                            char *rbuf, size_t bytes, int root, scc_view_t *v)
{
    const scc_parts_t p = { NULL, NULL, bytes };
    return mca_coll_scc_scatterv_flat(m, sbuf, &p, rbuf, bytes, root, v);
}

static inline int mca_coll_scc_allgather_flat(mca_coll_scc_module_t *m, const char *sbuf,
                                              char *rbuf, size_t bytes)
{
    const scc_parts_t p = { NULL, NULL, bytes };
    return mca_coll_scc_allgatherv_flat(m, sbuf, rbuf, &p);
}
int mca_coll_scc_alltoall_flat(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                               size_t bytes);
/* per-peer byte counts and byte offsets */
int mca_coll_scc_alltoallv_flat(mca_coll_scc_module_t *m, const char *sbuf,
                                const size_t *sbytes, const size_t *soff, char *rbuf,
                                const size_t *rbytes, const size_t *roff);
/* In place (the blocks to send are the receive buffer's), over any transport, holding no
 * copy of the blocks: each piece leaves before its peer's lands there (flat and ring) */
int mca_coll_scc_alltoallv_inplace(mca_coll_scc_module_t *m, char *buf, const size_t *bytes,
                                   const size_t *off);
/* scan (exclusive: exscan) in rank order (coll_scc_flat_scan.c): direct through the slots,
 * or the pipelined chain, which runs over any transport */
int mca_coll_scc_scan_flat(mca_coll_scc_module_t *m, const char *in, char *out, size_t count,
                           struct ompi_datatype_t *dtype, struct ompi_op_t *op, bool exclusive);
int mca_coll_scc_scan_ring(mca_coll_scc_module_t *m, const char *in, char *out, size_t count,
                           struct ompi_datatype_t *dtype, struct ompi_op_t *op, bool exclusive);
/* across nodes: direct within each run of consecutive ranks on a node, the runs' results
 * made whole from one run to the next */
int mca_coll_scc_scan_leaders(mca_coll_scc_module_t *m, const char *in, char *out, size_t count,
                              struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                              bool exclusive);
/* allreduce by reduce-scatter and allgather through the slots (coll_scc_rsag.c), where
 * mca_coll_scc_rsag_fits says the slots can hold its rounds */
bool mca_coll_scc_rsag_fits(const scc_xport_t *x, size_t count, size_t dtsize);
int mca_coll_scc_allreduce_rsag(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                size_t count, struct ompi_datatype_t *dtype,
                                struct ompi_op_t *op);
/* m-way dissemination barrier on per-rank flag lines (radix: x->bar_radix) */
int mca_coll_scc_barrier_dissem(mca_coll_scc_module_t *m);
/* a flag tree over the module's k-ary tree, rooted at rank 0 (which leaves first) */
int mca_coll_scc_barrier_tree(mca_coll_scc_module_t *m);
/* the radix the barrier uses for a requested one (0: all others in one round) */
int mca_coll_scc_barrier_radix(int n, int radix);

/* ---- between coll_scc_flat*.c: when a message moves single-copy, pieces */

/* Messages of this many bytes move single-copy (they are read in place). */
static inline bool scc_single_copy(const scc_xport_t *x, size_t bytes)
{
    return scc_xport_single_copy(x) && bytes >= x->cma_min;
}

/* The same for exchanges of one block per peer (gather, scatter, alltoall(v)): nobody waits
 * on the whole of one rank's message, so single copy pays from smaller blocks when the
 * processes share cores (coll_scc_cma_min auto). */
static inline bool scc_single_copy_blocks(const scc_xport_t *x, size_t bytes)
{
    return scc_xport_single_copy(x) && bytes >= x->cma_a2a_min;
}

/* The same for a gather's blocks, all read by its root. */
static inline bool scc_single_copy_gather(const scc_xport_t *x, size_t bytes)
{
    return scc_xport_single_copy(x) && bytes >= x->cma_gather_min;
}

/* Ranks whose way (single copy or slots) a reader can note: above, every sender keeps to
 * the size rule, which its readers know. */
#define SCC_WAY_RANKS 512

/* Large allgather(v) parts take the way rank 0's timed calls find faster (coll_scc_cma_adapt
 * 1, coll_scc_flat_parts.c): where single copy works, every process has a core and a reader
 * can note each part's way.  The same on every rank (all agreed at attach). */
static inline bool scc_single_copy_learnt(const scc_xport_t *x)
{
    return 1 == mca_coll_scc_config.cma_adapt && scc_xport_single_copy(x) && !x->over
           && x->size <= SCC_WAY_RANKS;
}

/* Reductions: between these sizes the direct algorithms read single-copy what they
 * combine (two processes: everything, else a reduce-scatter's block); else everyone's data
 * through the slots. */
static inline bool scc_single_copy_reduce(const scc_xport_t *x, size_t bytes)
{
    return scc_xport_single_copy(x) && bytes >= x->cma_reduce_min
           && bytes <= x->cma_reduce_max;
}

/* alltoallv: a table offset that points into the sender's slot, not its buffer */
#define SCC_IN_SLOT (1ull << 63)
/* alltoallv: a block sent as a message of its own (tag scc_a2av_own_tag), not read from the
   sender's buffer */
#define SCC_OWN_SLOT (1ull << 62)
static inline uint32_t scc_a2av_own_tag(int from, int to, int n)
{
    return 1 + (uint32_t) ((to - from - 1 + n) % n);
}
/* alltoallv's pairwise rounds: piece numbers as tags wrap here (below the transport's
   reserved ids, far above any slot count) */
#define SCC_A2AV_TAG_SPAN (1ull << 31)

static inline size_t scc_min(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* First element and count of rank i's block of a reduce_scatter (see above). */
static inline void scc_rs_block(size_t rcount, const size_t *at, int i, size_t *first,
                                size_t *cnt)
{
    *first = NULL != at ? at[i] : rcount * (size_t) i;
    *cnt = NULL != at ? at[i + 1] - at[i] : rcount;
}

static inline size_t scc_max(size_t a, size_t b)
{
    return a > b ? a : b;
}

/* Releases message tag of ranks 0..n-1 but me, once read; after the call where it is their
 * only message of the call (only), else now (the sender reuses the slot for a later piece). */
static inline void scc_release_read(scc_xport_t *x, int n, int me, uint32_t tag, bool only)
{
    for (int i = 0; i < n; ++i) {
        if (i == me) {
            continue;
        }
        if (only) {
            scc_xport_release_later(x, i, tag);
        } else {
            scc_xport_release(x, i, tag);
        }
    }
}

/* Number of slot-sized pieces of a message (0 for an empty one). */
static inline size_t scc_npieces(const scc_xport_t *x, size_t bytes)
{
    return (bytes + x->slot_size - 1) / x->slot_size;
}

/* Receives the one message a sender publishes in this call into buf (the ack waits for the
 * next call, off this call's critical path); any other message through the general path. */
int scc_flat_recv_single(scc_xport_t *x, int peer, uint32_t tag, void *buf, size_t len);

/* Takes message tag of every other rank i with a part (scc_part_len > 0), as they arrive:
 * the part's bytes from offset off of the message (at most cap of a slot message: the rest
 * comes in more pieces) to dst + scc_part_off(i).  more: the senders publish more in this
 * call (each message is acknowledged at once, not at the next call).  single (NULL: not
 * asked): bit i set where rank i's part came single-copy, for i < SCC_WAY_RANKS. */
int scc_take_arrivals(scc_xport_t *x, uint32_t tag, size_t off, char *dst,
                      const scc_parts_t *parts, size_t cap, bool more, uint64_t *single);


END_C_DECLS

#endif /* MCA_COLL_SCC_FLAT_H */
