/* coll_scc_drain.h: a call that goes wrong on some members still ends on all of them
 * (coll_scc_drain.c): the call's shape in every header, poison after a failure, the job's
 * end where nobody can be told. */
#ifndef MCA_COLL_SCC_DRAIN_H
#define MCA_COLL_SCC_DRAIN_H

#include <string.h>

#include "coll_scc_component.h"
#include "coll_scc_xport.h"
#include "coll_scc_xport_slots.h"

BEGIN_C_DECLS

/* ------------------------------------------------------------ transport */

/* What the shape of a header says (see scc_publish); read it from a message known to be
 * there (scc_hdr_is, or the id read again after it: coll_scc_drain.c). */
static inline uint64_t scc_hdr_shape(const scc_msg_hdr_t *h)
{
    uint64_t v;
    if (SCC_MSG_CMA == h->kind) {
        memcpy(&v, h->data, sizeof(v));
        return v;
    }
    return h->addr;
}

/* Idle turns of a wait before its first look at the node's headers; then it looks after
 * twice as many each time: a look reads every header of the node, too much for each turn
 * of a wait that is only long. */
#define SCC_SHAPE_SCAN_FIRST 1024u

/* True at the turns of a long wait that look for another shape (scc_xport_shape_stuck). */
static inline bool scc_shape_turn(unsigned *turns)
{
    unsigned t = ++*turns;
    return t >= SCC_SHAPE_SCAN_FIRST && 0 == (t & (t - 1));
}

/* The node's part: true when a header of the call on my node says another shape than mine
 * (x->met then holds it). */
bool scc_shape_scan(scc_xport_t *x);

/* Internal: a broadcast receiver's first message of the call says another shape than its
 * own (x->met); nothing of the call was consumed (coll_scc_bcast.c rejoins). */
#define SCC_ERR_RESHAPE (OPAL_ERR_MAX - 1000)

/* A step's result r: the call's first error stays in *rc, and from the first one on the
 * rest of the call goes without data (x->fail). */
static inline void scc_xport_note(scc_xport_t *x, int *rc, int r)
{
    if (OPAL_UNLIKELY(OMPI_SUCCESS != r)) {
        *rc = OMPI_SUCCESS == *rc ? r : *rc;
        x->fail = 0 != x->fail ? x->fail : r;
    }
}

/* The call as the runners return it: a reshape (nothing taken: the call starts again),
 * else the first error the call met, else their own. */
static inline int scc_xport_result(int rc, int fail)
{
    return 0 != fail && SCC_ERR_RESHAPE != rc ? fail : rc;
}

/* Takes header h of peer's message tag (scc_xport_wait's result): SCC_ERR_RESHAPE when the
 * call has another shape than mine (the message stays, x->met says which); else
 * OMPI_SUCCESS with *done false when the caller is to read it -- or, after my own failure
 * or for a poisoned message, *done true: acknowledged here, and the poison's class. */
int scc_xport_take(scc_xport_t *x, int peer, uint32_t tag, scc_msg_hdr_t *h, bool *done);

/* A call whose shape or failure was set goes to the fallback before it began: nothing of
 * it stays for the next one. */
static inline void scc_xport_forget(scc_xport_t *x)
{
    x->shape = 0;
    x->shape_check = false;
    x->fail = 0;
}

/* The call that just ended goes on under another shape: the next scc_xport_begin starts
 * it again -- the same call, the same pml tag (a rejoin, coll_scc_bcast.c). */
static inline void scc_xport_again(scc_xport_t *x)
{
    x->call--;
}

/* Poison over the pml: a message of another length than its reader expects (none, or a
 * byte where it expects none), which the reader takes as MPI_ERR_TRUNCATE */
#define SCC_PML_POISON_LEN(len) ((len) > 0 ? (size_t) 0 : (size_t) 1)

/* ------------------------------------------------------------ calls */

/* This member cannot take part in its call with data (what: the cause, for the message;
 * rc: its error).  drain: the algorithm goes through the call without data (x->fail is
 * set: the transport publishes poison and only takes what it receives) and the call
 * returns rc; else the job ends here with a message (coll_scc_drain.c). */
int mca_coll_scc_call_failed(scc_xport_t *x, bool drain, int rc, const char *what);
#define SCC_WHY_PACK "there is no memory for a packed copy of the data"
#define SCC_WHY_SCRATCH "there is no memory for its scratch buffer"

/* A broadcast's shape (the transport's x->shape): its algorithm and bytes, never 0. */
static inline uint64_t scc_shape(scc_alg_t a, size_t bytes)
{
    return (uint64_t) a << 56 | ((uint64_t) bytes & ((1ull << 56) - 1));
}

static inline scc_alg_t scc_shape_alg(uint64_t shape)
{
    return (scc_alg_t) (shape >> 56);
}

static inline size_t scc_shape_bytes(uint64_t shape)
{
    return (size_t) (shape & ((1ull << 56) - 1));
}

END_C_DECLS

#endif /* MCA_COLL_SCC_DRAIN_H */
