/* coll_scc_run.c: the schedule-based algorithms of each collective (Jia, DOPL, NoC_Msg,
 * trees): block sizes, buffers, and the executor over the module's transport. */
#include <string.h>

#include "coll_scc_run.h"
#include "coll_scc_flat.h"
#include "coll_scc_sched_hier.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

/* Across nodes every message between nodes pays a network latency (and a handshake once
 * past the pml's eager size): blocks of coll_scc_nodes_block where the node's own readers
 * take them single-copy (larger than a slot), for messages of 4 slots or more.  Below, a
 * block of the whole message costs the handshake without a pipeline to hide it: the pieces
 * stay (4 nodes of 1, 64 KB: allreduce 131 against 175 us, reduce 59 against 97). */
static size_t scc_nodes_block(const scc_xport_t *x, size_t bytes, size_t bs)
{
    size_t nb = (size_t) mca_coll_scc_config.nodes_block;
    if (NULL != x->remote && scc_xport_single_copy(x) && bytes > bs && bs < nb
        && bytes >= 4 * x->slot_size) {
        bs = bytes < nb ? bytes : nb;
    }
    return bs;
}

/* Pieces through the slots of a schedule's message: oversubscribed, a process that waits
 * for a piece gives its core away, and fewer, larger pieces measured faster (README, Tuning);
 * with a core each, the pipe size overlaps best. */
static size_t scc_sched_piece(const scc_xport_t *x, size_t bytes)
{
    return x->over ? scc_xport_piece(x, bytes, x->pipe) : x->pipe;
}

/* Block bytes of a broadcast: a slot, or a single-copy block where that works. */
size_t mca_coll_scc_bcast_block(const scc_xport_t *x, scc_alg_t a, size_t bytes)
{
    mca_coll_scc_config_t *cs = &mca_coll_scc_config;
    size_t bs = scc_sched_piece(x, bytes);
    if (scc_xport_single_copy(x) && bytes >= x->cma_min && cs->cma_block > 0) {
        bs = (size_t) cs->cma_block;
    }
    bs = scc_nodes_block(x, bytes, bs);
    if (SCC_ALG_DOPL == a && !scc_xport_single_copy(x)) {
        /* a whole part (dopl_chunks blocks) travels as one message: it must fit a slot, on
           every rank alike (coll_scc_dopl_chunks is 1..64, slots 64 bytes or more) */
        return x->slot_size / (size_t) cs->dopl_chunks;
    }
    return bs < SCC_LINE ? SCC_LINE : bs;
}

/* One collective call that runs plan p once over buffers b (b->work NULL: the call goes
 * on without data, x->fail). */
static int scc_run_call(mca_coll_scc_module_t *m, const scc_plan_t *p, scc_exec_buf_t *b)
{
    int rc;

    scc_xport_begin(m->xp);
    rc = mca_coll_scc_exec(m, p, b, 0);
    return scc_xport_result(rc, scc_xport_end(m->xp));
}

static inline uint32_t scc_nblocks(size_t bytes, size_t bs)
{
    return (uint32_t) ((bytes + bs - 1) / bs);
}

int mca_coll_scc_bcast_sched(mca_coll_scc_module_t *m, scc_alg_t a, char *buf, size_t bytes,
                             int root)
{
    scc_xport_t *x = m->xp;
    size_t bs = mca_coll_scc_bcast_block(x, a, bytes);
    const scc_plan_t *p;
    scc_exec_buf_t b;
    int rc;

    if ((bytes + bs - 1) / bs > UINT32_MAX / 4) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    p = mca_coll_scc_plan(m, SCC_COLL_BCAST, a, root, scc_nblocks(bytes, bs));
    if (NULL == p) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    memset(&b, 0, sizeof(b));
    b.work = buf;
    b.input = buf;
    b.total = bytes;
    b.bs = bs;
    /* a rank never changes a block a message of its own still carries */
    b.stable = true;
    rc = scc_run_call(m, p, &b);
    return rc;
}

/* Block bytes of a reduction: whole elements in one pipeline piece (or one slot).  Where
 * coll_scc_cma_min turns single copy on, medium reductions move in 64 KB blocks -- single
 * copy where the slots are smaller (one copy instead of two), through the slots where they
 * hold a block (64 KB slots, the default: on the Intel guest of 2026-11-29 single-copy blocks
 * measured no faster, test/bench/results/2026-11-29-own-comm); from 256 KB on, copies into
 * the slots on the sender's core overlap the receiver's reductions on its own, which
 * measured faster on the Intel VM. */
#define SCC_REDUCE_CMA_BLOCK 65536
#define SCC_REDUCE_CMA_MAX (256 * 1024)

static size_t scc_reduce_block(const scc_xport_t *x, size_t dtsize, size_t total, bool big)
{
    size_t bs = scc_sched_piece(x, total);

    bs = dtsize <= bs ? bs : x->slot_size;
    if (big && scc_xport_single_copy(x) && total >= x->cma_min && total < SCC_REDUCE_CMA_MAX
        && bs < SCC_REDUCE_CMA_BLOCK) {
        bs = SCC_REDUCE_CMA_BLOCK;
    }
    if (big) {
        bs = scc_nodes_block(x, total, bs);
    }
    return bs / dtsize * dtsize;
}

/* Plans reduction c of b->total bytes (parts of b->part bytes per rank when b->part is
 * set) and sets b->bs and b->stable; NULL when the schedule cannot take op. */
static const scc_plan_t *scc_reduce_blocks(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a,
                                           int root, scc_exec_buf_t *b)
{
    size_t unit = b->part ? b->part : b->total;
    size_t limit = UINT32_MAX / 4 / (size_t) (b->part ? m->size : 1);
    const scc_plan_t *p;

    for (int big = 1; big >= 0; --big) {
        b->bs = scc_reduce_block(m->xp, b->dtsize, b->total, big);
        if (0 == b->bs || (unit + b->bs - 1) / b->bs > limit) {
            return NULL;
        }
        p = mca_coll_scc_plan(m, c, a, root, scc_nblocks(unit, b->bs));
        /* the tree decides the order of the operands: rank order, or a commutative op */
        if (NULL == p || ((p->s.flags & SCC_SCHED_F_COMMUTATIVE) && !ompi_op_is_commute(b->op))) {
            return NULL;
        }
        if (b->bs <= m->xp->slot_size) {
            b->stable = false;
            return p;
        }
        /* blocks beyond a slot are read in place: only where a rank never changes a
           block its message still carries (a butterfly does) */
        if (!(p->s.flags & SCC_SCHED_F_SEND_COPY)) {
            b->stable = true;
            return p;
        }
    }
    return NULL;
}

/* Prepares the buffers of a reduction; NULL plan when the schedule cannot take op. */
static const scc_plan_t *scc_reduce_plan(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a,
                                         int root, size_t count, struct ompi_datatype_t *dtype,
                                         struct ompi_op_t *op, scc_exec_buf_t *b)
{
    memset(b, 0, sizeof(*b));
    ompi_datatype_type_size(dtype, &b->dtsize);
    b->total = count * b->dtsize;
    b->dtype = dtype;
    b->op = op;
    return scc_reduce_blocks(m, c, a, root, b);
}

int mca_coll_scc_reduce_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                              char *rbuf, size_t count, struct ompi_datatype_t *dtype,
                              struct ompi_op_t *op, int root)
{
    scc_xport_t *x = m->xp;
    const scc_plan_t *p;
    scc_exec_buf_t b;
    int rc;

    p = scc_reduce_plan(m, SCC_COLL_REDUCE, a, root, count, dtype, op, &b);
    if (NULL == p) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    b.input = sbuf;
    b.work = x->rank == root ? rbuf : mca_coll_scc_scratch(m, 0, b.total + 1);
    if (NULL == b.work) {
        (void) mca_coll_scc_call_failed(m->xp, true, SCC_ERR_NO_MEM,
                                        "there is no memory for its partial results");
        b.input = NULL;
    }
    rc = scc_run_call(m, p, &b);
    return rc;
}

int mca_coll_scc_allreduce_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                                 char *rbuf, size_t count, struct ompi_datatype_t *dtype,
                                 struct ompi_op_t *op)
{
    scc_xport_t *x = m->xp;
    const scc_plan_t *p, *q = NULL;
    scc_exec_buf_t b;
    int rc, root = SCC_ALG_NOCMSG == a ? m->center : 0;

    /* NoC_Msg, the butterfly and the ring are allreduce schedules; a tree reduces to
       rank 0 and broadcasts back */
    p = scc_reduce_plan(m, SCC_ALG_TREE == a ? SCC_COLL_REDUCE : SCC_COLL_ALLREDUCE, a, root,
                        count, dtype, op, &b);
    if (NULL != p && SCC_ALG_TREE == a) {
        q = mca_coll_scc_plan(m, SCC_COLL_BCAST, a, root, scc_nblocks(b.total, b.bs));
    }
    if (NULL == p || (SCC_ALG_TREE == a && NULL == q)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    b.input = sbuf;
    b.work = rbuf;
    scc_xport_begin(x);
    rc = mca_coll_scc_exec(m, p, &b, 0);
    if (0 == p->s.nsteps && sbuf != rbuf) {
        memcpy(rbuf, sbuf, b.total);
    }
    if (NULL != q) {
        /* the broadcast's tags follow the reduction's (block b: tag b); after an error it
           goes on without data all the same (x->fail) */
        int r = mca_coll_scc_exec(m, q, &b, scc_nblocks(b.total, b.bs));
        rc = OMPI_SUCCESS == rc ? r : rc;
    }
    return scc_xport_result(rc, scc_xport_end(x));
}

/* The plan of collective c that moves a part of `bytes` per rank -- or, at not NULL, part i
 * bytes [at[i], at[i + 1]), bytes the largest: as many blocks each, a shorter part's last ones
 * empty (cut as a broadcast's) -- and its buffers: parts in input, parts arriving in work.
 * NULL: cannot. */
static const scc_plan_t *scc_parts_plan(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a,
                                        int root, size_t bytes, const size_t *at,
                                        const char *input, char *work, scc_exec_buf_t *b)
{
    size_t bs = mca_coll_scc_bcast_block(m->xp, a, bytes);

    if ((bytes + bs - 1) / bs > UINT32_MAX / 4 / (size_t) m->size) {
        return NULL;
    }
    memset(b, 0, sizeof(*b));
    b->input = input;
    b->work = work;
    b->total = NULL != at ? at[m->size] : bytes * (size_t) m->size;
    b->bs = bs;
    b->part = bytes;
    b->part_at = at;
    b->kpart = scc_nblocks(bytes, bs);
    /* nothing is written after it is held (allgather, gather, scatter), the input never
       (alltoall): blocks may be read in place */
    b->stable = true;
    return mca_coll_scc_plan(m, c, a, root, b->kpart);
}

/* Where part i of b's parts starts, and its bytes */
static inline size_t scc_buf_part_off(const scc_exec_buf_t *b, int i)
{
    return NULL != b->part_at ? b->part_at[i] : (size_t) i * b->part;
}

static inline size_t scc_buf_part_len(const scc_exec_buf_t *b, int i)
{
    return scc_buf_part_off(b, i + 1) - scc_buf_part_off(b, i);
}

int mca_coll_scc_allgather_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                                 char *rbuf, size_t bytes, const size_t *at)
{
    scc_exec_buf_t b;
    const scc_plan_t *p = scc_parts_plan(m, SCC_COLL_ALLGATHER, a, 0, bytes, at, rbuf, rbuf,
                                         &b);
    char *mine;

    if (NULL == p) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    mine = rbuf + scc_buf_part_off(&b, m->rank);
    if (sbuf != mine && scc_buf_part_len(&b, m->rank) > 0) {
        memcpy(mine, sbuf, scc_buf_part_len(&b, m->rank));
    }
    return scc_run_call(m, p, &b);
}

int mca_coll_scc_rooted_parts_sched(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a,
                                    const char *in, char *out, size_t bytes, const size_t *at,
                                    int root)
{
    const scc_nodes_t *nd = &m->topo.nodes;
    const bool gather = SCC_COLL_GATHER == c;
    const int me = m->rank;
    scc_exec_buf_t b;
    const scc_plan_t *p;
    char *mine = NULL;
    size_t len;
    int lo, hi, rc;

    if (SCC_TOPO_NODES != m->topo.kind
        || NULL == (p = scc_parts_plan(m, c, a, root, bytes, at, NULL, NULL, &b))) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    len = scc_buf_part_len(&b, me);
    if (me == root) {
        /* the n parts; my own is not moved */
        b.input = in;
        b.work = gather ? out : NULL;
        mine = (gather ? out : (char *) in) + scc_buf_part_off(&b, me);
        if (gather && in != mine && len > 0) {
            memcpy(mine, in, len);
        } else if (!gather && NULL != out && out != mine && len > 0) {
            memcpy(out, mine, len);
        }
    } else if (me == scc_nodes_leader(nd, nd->node_of[me], root)) {
        /* a leader stages its subtree's parts, its own among them */
        scc_sched_hier_span(nd, me, root, &lo, &hi);
        b.work_at = scc_buf_part_off(&b, lo);
        b.work = mca_coll_scc_scratch(m, 0, scc_buf_part_off(&b, hi + 1) - b.work_at + 1);
        if (NULL == b.work) {
            (void) mca_coll_scc_call_failed(m->xp, true, SCC_ERR_NO_MEM,
                                            "there is no memory for its subtree's parts");
        } else {
            mine = b.work + (scc_buf_part_off(&b, me) - b.work_at);
            if (gather && len > 0) {
                memcpy(mine, in, len);
            }
        }
    } else {
        /* my part alone */
        b.input = in;
        b.input_at = scc_buf_part_off(&b, me);
        b.work = out;
        b.work_at = b.input_at;
    }
    rc = scc_run_call(m, p, &b);
    if (OMPI_SUCCESS == rc && !gather && me != root && NULL != mine && len > 0) {
        memcpy(out, mine, len);   /* a leader's part of the scatter, from its stage */
    }
    return rc;
}

int mca_coll_scc_reduce_scatter_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                                      char *rbuf, size_t rcount, const size_t *at,
                                      struct ompi_datatype_t *dtype, struct ompi_op_t *op)
{
    const int n = m->size;
    size_t part, first, cnt;
    size_t *part_at = NULL;
    const scc_plan_t *p;
    scc_exec_buf_t b;
    int rc;

    memset(&b, 0, sizeof(b));
    ompi_datatype_type_size(dtype, &b.dtsize);
    part = rcount * b.dtsize;
    b.total = part * (size_t) n;
    if (NULL != at) {
        /* uneven blocks: the ring's parts in bytes, as many blocks each as the largest */
        part_at = mca_coll_scc_scratch(m, 1, ((size_t) n + 1) * sizeof(size_t));
        if (NULL == part_at) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
        }
        part = 0;
        for (int i = 0; i <= n; ++i) {
            part_at[i] = at[i] * b.dtsize;
            if (i > 0 && part_at[i] - part_at[i - 1] > part) {
                part = part_at[i] - part_at[i - 1];
            }
        }
        b.total = part_at[n];
        b.part_at = part_at;
    }
    b.part = part;
    b.dtype = dtype;
    b.op = op;
    p = scc_reduce_blocks(m, SCC_COLL_REDUCE_SCATTER_BLOCK, a, 0, &b);
    if (NULL == p) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    b.kpart = scc_nblocks(part, b.bs);
    b.input = sbuf;
    b.work = mca_coll_scc_scratch(m, 0, b.total + 1);
    if (NULL == b.work) {
        (void) mca_coll_scc_call_failed(m->xp, true, SCC_ERR_NO_MEM,
                                        "there is no memory for its partial results");
        b.input = NULL;
    }
    rc = scc_run_call(m, p, &b);
    /* my block of the result */
    scc_rs_block(rcount, at, m->rank, &first, &cnt);
    if (OMPI_SUCCESS == rc && cnt > 0) {
        memcpy(rbuf, (0 == p->s.nsteps ? sbuf : b.work) + first * b.dtsize, cnt * b.dtsize);
    }
    return rc;
}

int mca_coll_scc_barrier_sched(mca_coll_scc_module_t *m, scc_alg_t a)
{
    const scc_plan_t *p = mca_coll_scc_plan(m, SCC_COLL_BARRIER, a, m->center, 0);
    scc_exec_buf_t b;
    int rc;

    if (NULL == p) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    memset(&b, 0, sizeof(b));
    b.bs = 1;
    /* signals of no bytes: a buffer all the same (memcpy of 0 bytes wants one) */
    b.work = (char *) &b.bs;
    b.input = b.work;
    rc = scc_run_call(m, p, &b);
    return rc;
}
