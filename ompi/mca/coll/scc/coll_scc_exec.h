/* coll_scc_exec.h: the executor that runs a schedule over a transport, and the buffers it
 * works on. */
#ifndef MCA_COLL_SCC_EXEC_H
#define MCA_COLL_SCC_EXEC_H

#include "coll_scc.h"
#include "coll_scc_drain.h"
#include "coll_scc_sched.h"
#include "coll_scc_xport.h"
#include "opal/datatype/opal_convertor.h"

BEGIN_C_DECLS

/* The buffers a schedule's blocks live in. */
typedef struct scc_exec_buf {
    char *work;                     /* the working buffer: block b at work + b * bs */
    const char *input;              /* the caller's input (SCC_STEP_F_INPUT steps) */
    size_t total;                   /* bytes of the message */
    size_t bs;                      /* bytes of a block (the last one may be short) */
    struct ompi_datatype_t *dtype;  /* reductions: element type (contiguous) */
    struct ompi_op_t *op;
    size_t dtsize;
    bool stable;                    /* what is sent stays unchanged until the call ends */
    size_t part;                    /* kpart > 0: n parts of `part` bytes (one per rank), */
    uint32_t kpart;                 /*   each cut into kpart blocks of bs bytes */
    const size_t *part_at;          /* or, not NULL: part i is bytes [part_at[i],
                                       part_at[i + 1]), at most `part` (n + 1 entries) */
    size_t work_at, input_at;       /* where work's and input's first bytes sit in the
                                       message (a buffer of some parts only: gather, scatter) */
} scc_exec_buf_t;

/* A generated schedule of this rank, ready to run. */
typedef struct scc_plan {
    scc_sched_t s;
    const int32_t *loc;             /* pair lists: where entry i lives (below) */
    int nstage;                     /* pair lists: staging slots for passing pairs */
    const int32_t *readers_at;      /* pml: per step, where its readers start in readers */
    const int *readers;             /* pml: the ranks reading each SEND, step by step */
    const uint32_t *stage_pair;     /* pair lists: the pair each staging slot holds */
    uint32_t maxlist;               /* pair lists: the longest list of any rank's messages */
    uint32_t maxtag;                /* pair lists: the largest tag of any rank */
    const uint8_t *early;           /* over the pml: 1 where a receive from another node may
                                       be posted before its step (its blocks untouched
                                       before it, or a reduction's, which lands aside) */
} scc_plan_t;

#define SCC_LOC_IN (-1)             /* the input, block dst */
#define SCC_LOC_OUT (-2)            /* the output, block src; >= 0: a staging slot */

/* The buffers of a pair-list schedule (alltoall, alltoallv): pair (s, d) has
 * size(s, d) bytes; mine to send at input + in_off[d], mine received at
 * output + out_off[s], those passing through at stage + stage_off[slot]. */
typedef struct scc_exec_pairs {
    const char *input;
    char *output;
    char *stage;
    const size_t *in_off, *out_off, *stage_off;
    const uint64_t *sizes;          /* n x n bytes, row s; NULL: every pair has `bytes` */
    size_t bytes;
    int n;
} scc_exec_pairs_t;

/* Bytes of pair `pair` (s * n + d). */
static inline size_t scc_pair_size(const scc_exec_pairs_t *b, uint32_t pair)
{
    return NULL != b->sizes ? (size_t) b->sizes[pair] : b->bytes;
}

/* Runs this rank's schedule s over the module's transport; tags are offset by
 * tagbase (a call that runs several schedules keeps them apart). */
int mca_coll_scc_exec(mca_coll_scc_module_t *m, const scc_plan_t *p, const scc_exec_buf_t *b,
                      uint32_t tagbase);

/* Runs a pair-list schedule moving piece k (bytes [k * piece, (k + 1) * piece),
 * where the pair has them) of every pair's block. */
int mca_coll_scc_exec_pairs(mca_coll_scc_module_t *m, const scc_plan_t *p,
                            const scc_exec_pairs_t *b, uint32_t tagbase, size_t k, size_t piece);

/* The plan of (collective, algorithm, root, blocks) for this rank (coll_scc_plan.c): held
 * by this rank, else made now by it alone.  NULL where no such schedule exists (on every
 * member alike: it depends on the key only); a plan this rank has no memory for ends the
 * job (the others run it already). */
const scc_plan_t *mca_coll_scc_plan(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a,
                                    int root, uint32_t nblocks);
/* At setup, after the transport and the table: the plans set (agreed by all members) with
 * the plans the communicator alone decides; an error on every member alike. */
int mca_coll_scc_plans_setup(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm);
/* coll_scc_plan_make.c: makes this rank's plan of (c, a, root, nblocks) into p, alone;
 * SCC_PLAN_MADE, or (p then cleared) SCC_PLAN_NONE where the schedule does not exist for
 * that key (the same on every member), SCC_PLAN_NOMEM where this rank could not make it. */
enum { SCC_PLAN_MADE = 0, SCC_PLAN_NONE, SCC_PLAN_NOMEM };
int mca_coll_scc_plan_make(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a, int root,
                           uint32_t nblocks, scc_plan_t *p);
void mca_coll_scc_plan_clear(scc_plan_t *p);
/* Verbose 2: plans made at setup and at calls, declined, held. */
void mca_coll_scc_plans_report(const mca_coll_scc_module_t *m);
void mca_coll_scc_plans_free(mca_coll_scc_module_t *m);

/* Scratch buffer `which` (0..SCC_NSCRATCH-1) of at least `bytes` for the running call, what
 * it held kept when it grows (coll_scc_scratch.c); NULL where memory is missing. */
void *mca_coll_scc_scratch(mca_coll_scc_module_t *m, int which, size_t bytes);
/* The module's end: its own buffers freed. */
void mca_coll_scc_scratch_free(mca_coll_scc_module_t *m);

/* What a call returns when memory it needs at call time is missing (scratch buffers grow
 * with the message, so they cannot all be made at setup).  Only this member fails, and the
 * others are already inside the collective: agreeing would cost every call a round trip,
 * so the member goes through the call without data where the algorithm can (then the
 * call returns this, and every member whose data came through it its own error), else the
 * job ends naming the cause (mca_coll_scc_call_failed) -- never another algorithm that
 * the others would not run, never an early return that leaves them waiting. */
#define SCC_ERR_NO_MEM MPI_ERR_NO_MEM



/* Byte views of user data (coll_scc_dtype.c) */
bool scc_dtype_contig(struct ompi_datatype_t *dt, size_t count, ptrdiff_t *lb);
int scc_dtype_pack(const void *buf, size_t count, struct ompi_datatype_t *dt, void *out,
                   size_t bytes);
int scc_dtype_unpack(void *buf, size_t count, struct ompi_datatype_t *dt, const void *in,
                     size_t bytes);

/* The bytes of (buf, count, dt) to read: buf itself where contiguous, else a
 * packed copy in the module's input scratch.  NULL on error. */
const char *scc_view_in(mca_coll_scc_module_t *m, const void *buf, size_t count,
                        struct ompi_datatype_t *dt, size_t bytes);
/* A rank's own part from (sbuf, scount, sdt) into (rbuf, rcount, rdt) in one copy, both
 * `bytes` long; else MPI_ERR_TRUNCATE and nothing copied. */
int scc_dtype_copy(const void *sbuf, int scount, struct ompi_datatype_t *sdt, void *rbuf,
                   int rcount, struct ompi_datatype_t *rdt, size_t bytes);
/* Where to write the bytes of (buf, count, dt): buf itself where contiguous,
 * else the output scratch (*packed set; scc_view_out_done unpacks it). */
char *scc_view_out(mca_coll_scc_module_t *m, void *buf, size_t count, struct ompi_datatype_t *dt,
                   size_t bytes, bool *packed);
int scc_view_out_done(void *buf, size_t count, struct ompi_datatype_t *dt, const char *view,
                      size_t bytes, bool packed);

/* A byte view that packs (a sender's, in) or unpacks (a receiver's, out) as the call moves
 * its pieces, where the layout is not contiguous: the copies then overlap the transfer
 * instead of preceding and following it (a broadcast of a struct type: the root packs the
 * next piece while its readers take the last).  Contiguous, the buffer itself. */
typedef struct scc_view {
    char *bytes;            /* the view (NULL: no memory for it) */
    size_t len, done;       /* its bytes, of which [0, done) are packed or unpacked */
    bool lazy, in;
    bool seq;               /* in order from the start so far: [0, done) packed */
    int rc;                 /* the first error of the convertor */
    opal_convertor_t conv;  /* (lazy only) */
} scc_view_t;

/* The view of (buf, count, dt), `bytes` long; NULL where its scratch is missing. */
char *scc_view_begin(mca_coll_scc_module_t *m, scc_view_t *v, bool in, const void *buf,
                     size_t count, struct ompi_datatype_t *dt, size_t bytes);
void scc_view_step(scc_view_t *v, size_t upto);
/* in: bytes [0, upto) are packed; out: bytes [0, upto) have arrived, unpack them */
static inline void scc_view_to(scc_view_t *v, size_t upto)
{
    if (NULL != v && v->lazy && upto > v->done) {
        scc_view_step(v, upto);
    }
}
/* out: bytes [done, upto) are in the user buffer already (written there directly) */
void scc_view_skip(scc_view_t *v, size_t upto);
/* A sender's view: bytes [0, upto) packed; where packing failed, the rest of the call goes
 * as poison (x->fail), so that its readers fail too rather than take stale bytes. */
static inline void scc_view_ready(scc_xport_t *x, scc_view_t *v, size_t upto)
{
    scc_view_to(v, upto);
    if (NULL != v && OPAL_UNLIKELY(OMPI_SUCCESS != v->rc) && 0 == x->fail) {
        (void) mca_coll_scc_call_failed(x, true, v->rc, "packing the data failed");
    }
}
/* A sender's view taken out of order: bytes [from, to) packed (no longer [0, done): mix it
 * with scc_view_to only before it) */
void scc_view_range(scc_view_t *v, size_t from, size_t to);
static inline void scc_view_ready_at(scc_xport_t *x, scc_view_t *v, size_t from, size_t to)
{
    if (NULL != v && v->lazy) {
        scc_view_range(v, from, to);
        scc_view_ready(x, v, 0);    /* (its failure) */
    }
}
/* Ends the view: out, the first `upto` bytes arrived (the rest stays as it was); its error. */
int scc_view_end(scc_view_t *v, size_t upto);

END_C_DECLS

#endif /* MCA_COLL_SCC_EXEC_H */
