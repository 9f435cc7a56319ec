/* coll_scc_run_pairs.c: alltoall and alltoallv by schedules -- the pair lists (NoC_Msg, the
 * leaders) and the pairwise exchange, over the module's transport. */
#include <string.h>

#include "coll_scc_run.h"
#include "coll_scc_flat.h"
#include "coll_scc_sched_hier.h"

#include "ompi/datatype/ompi_datatype.h"

/* Alltoall over pair lists: the schedule runs once per piece of the pairs' blocks,
 * each run under its own range of tags. */
#define SCC_PAIR_TAG_SPAN (1u << 16)

static int scc_pairs_run(mca_coll_scc_module_t *m, scc_alg_t a, scc_exec_pairs_t *b,
                         size_t maxsize, int fail)
{
    scc_xport_t *x = m->xp;
    const scc_plan_t *p = mca_coll_scc_plan(m, SCC_COLL_ALLTOALL, a, 0, 0);
    size_t piece, npieces, staged = 0, *stage_off;
    int rc = OMPI_SUCCESS;

    /* pair lists travel through slots, or packed over the pml between nodes' leaders */
    if (NULL == p || (!scc_xport_shared_all(x) && SCC_ALG_LEADERS != a)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    /* every rank cuts the blocks alike: by the longest list of any rank */
    piece = x->slot_size / p->maxlist;
    if (0 == piece) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    npieces = (maxsize + piece - 1) / piece;
    if (p->maxtag >= SCC_PAIR_TAG_SPAN || npieces > UINT32_MAX / SCC_PAIR_TAG_SPAN) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    /* fail: this rank goes through the lists without data (x->fail), as without the
       pairs passing through me, one after the other */
    if (OMPI_SUCCESS != fail) {
        rc = mca_coll_scc_call_failed(m->xp, true, fail,
                                      "a receive count differs from its sender's");
    }
    stage_off = mca_coll_scc_scratch(m, 1, ((size_t) p->nstage + 1) * sizeof(size_t));
    for (int j = 0; NULL != stage_off && j < p->nstage; ++j) {
        stage_off[j] = staged;
        staged += scc_pair_size(b, p->stage_pair[j]);
    }
    b->stage_off = stage_off;
    b->stage = NULL != stage_off ? mca_coll_scc_scratch(m, 0, staged + 1) : NULL;
    if (NULL == b->stage) {
        rc = mca_coll_scc_call_failed(m->xp, true, SCC_ERR_NO_MEM,
                                      "there is no memory for the pairs passing through");
    }
    scc_xport_begin(x);
    for (size_t k = 0; k < npieces; ++k) {
        int r = mca_coll_scc_exec_pairs(m, p, b, (uint32_t) k * SCC_PAIR_TAG_SPAN, k, piece);
        rc = OMPI_SUCCESS == rc ? r : rc;
    }
    return scc_xport_result(rc, scc_xport_end(x));
}

/* Pieces of a pair of `size` bytes in the pairwise exchange: a broadcast's blocks, at most
 * `most` of them (larger pieces past that: single copy within a node) -- a function of the
 * size alone, which both ends of the pair know. */
static size_t scc_pair_piece(const scc_xport_t *x, size_t size, uint32_t most)
{
    size_t bs = mca_coll_scc_bcast_block(x, SCC_ALG_RING, size);
    return (size + bs - 1) / bs > most ? (size + most - 1) / most : bs;
}

/* Alltoall(v) by pairwise exchange, over any transport, across nodes too: in step i (1..n-1)
 * rank r sends its part for r + i and receives the part of r - i (mod n), piece by piece, a
 * send and a receive in turn (a rank that waits for a slot of its reader has taken every
 * earlier piece of its own sender, so no cycle of waits forms).  Piece j of step i is tag
 * (i - 1) P + j: every sender's tags rise and each receiver knows them from the size it is
 * told.  No rank needs another's sizes, so the call agrees on nothing.  Across nodes the
 * pieces for other nodes all leave first (the pml queues them: no step waits on another
 * node's latency before its send) and the receives from other nodes are posted ahead. */
typedef struct scc_v_args {
    const char *sbuf;
    const size_t *sbytes, *soff, *rbytes, *roff;
    char *rbuf;
    uint32_t P;
} scc_v_args_t;

/* Piece j of the pair this rank sends to (send) or receives from peer: where its bytes are;
 * false past the pair's last piece. */
static bool scc_v_piece(const scc_xport_t *x, const scc_v_args_t *v, bool send, int peer,
                        size_t j, size_t *at, size_t *len)
{
    const size_t size = send ? v->sbytes[peer] : v->rbytes[peer];
    const size_t pc = scc_pair_piece(x, size, v->P);
    *at = j * pc;
    if (*at >= size) {
        return false;
    }
    *len = size - *at < pc ? size - *at : pc;
    *at += send ? v->soff[peer] : v->roff[peer];
    return true;
}

/* Posts receives from other nodes ahead, in the loop's order, from step *ai piece *aj on. */
static void scc_v_ahead(scc_xport_t *x, const scc_v_args_t *v, int n, int me, int *ai,
                        size_t *aj, int *slots, int head, int *nposted)
{
    while (*nposted < SCC_PML_AHEAD && *ai < n) {
        const int from = (me - *ai + n) % n;
        size_t at, len;
        int slot;
        if (!scc_xport_by_pml(x, from) || !scc_v_piece(x, v, false, from, *aj, &at, &len)) {
            (*ai)++;
            *aj = 0;
            continue;
        }
        if ((slot = scc_xport_post(x, from, v->rbuf + at, len)) < 0) {
            return;
        }
        slots[(head + *nposted) % SCC_PML_AHEAD] = slot;
        (*nposted)++;
        (*aj)++;
    }
}

static int scc_pairwise(mca_coll_scc_module_t *m, const char *sbuf, const size_t *sbytes,
                        const size_t *soff, char *rbuf, const size_t *rbytes,
                        const size_t *roff)
{
    scc_xport_t *x = m->xp;
    const int n = m->size, me = m->rank;
    const scc_v_args_t v = { sbuf, sbytes, soff, rbytes, roff, rbuf, UINT32_MAX / (uint32_t) n };
    int rc = OMPI_SUCCESS, slots[SCC_PML_AHEAD], head = 0, nposted = 0, ai = 1;
    size_t aj = 0, at, len;

    scc_xport_begin(x);
    scc_v_ahead(x, &v, n, me, &ai, &aj, slots, head, &nposted);
    /* an error does not stop the exchange: the rest goes without data (x->fail) */
    for (int i = 1; i < n; ++i) {
        const int to = (me + i) % n;
        for (size_t j = 0; scc_xport_by_pml(x, to) && scc_v_piece(x, &v, true, to, j, &at, &len);
             ++j) {
            scc_xport_note(x, &rc, scc_xport_send(x, (uint32_t) (i - 1) * v.P + (uint32_t) j,
                                                  sbuf + at, len, 1, true, &to));
        }
    }
    for (int i = 1; i < n; ++i) {
        const int to = (me + i) % n, from = (me - i + n) % n;
        bool out = !scc_xport_by_pml(x, to), in = true;
        for (size_t j = 0; out || in; ++j) {
            const uint32_t tag = (uint32_t) (i - 1) * v.P + (uint32_t) j;
            if (out && (out = scc_v_piece(x, &v, true, to, j, &at, &len))) {
                scc_xport_note(x, &rc, scc_xport_send(x, tag, sbuf + at, len, 1, true, &to));
            }
            if (!in || !(in = scc_v_piece(x, &v, false, from, j, &at, &len))) {
                continue;
            }
            if (!scc_xport_by_pml(x, from)) {
                scc_xport_note(x, &rc, scc_xport_recv(x, from, tag, rbuf + at, len));
                continue;
            }
            /* the oldest receive posted ahead is this one; none posted (after a failure):
               this one now, in the same order */
            scc_v_ahead(x, &v, n, me, &ai, &aj, slots, head, &nposted);
            if (0 == nposted) {
                scc_xport_note(x, &rc, scc_xport_recv(x, from, tag, rbuf + at, len));
                continue;
            }
            scc_xport_note(x, &rc, scc_xport_wait_one(x, slots[head], from, len, NULL, NULL,
                                                      0, NULL, NULL));
            head = (head + 1) % SCC_PML_AHEAD;
            nposted--;
        }
    }
    rc = scc_xport_result(rc, scc_xport_end(x));
    if (OMPI_SUCCESS == rc && sbytes[me] > 0) {
        memcpy(rbuf + roff[me], sbuf + soff[me], sbytes[me]);
    }
    return rc;
}

int mca_coll_scc_alltoall_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                                char *rbuf, size_t bytes)
{
    const int n = m->size;
    scc_exec_pairs_t b;
    size_t *off;
    int rc;

    /* every pair's offset, then every pair's size */
    off = mca_coll_scc_scratch(m, 2, 2 * (size_t) n * sizeof(size_t));
    if (NULL == off) {
        /* without the sizes nobody knows which messages to take */
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                        "there is no memory for the pairs' sizes");
    }
    for (int i = 0; i < n; ++i) {
        off[i] = (size_t) i * bytes;
        off[n + i] = bytes;
    }
    if (SCC_ALG_RING == a) {
        return scc_pairwise(m, sbuf, off + n, off, rbuf, off + n, off);
    }
    memset(&b, 0, sizeof(b));
    b.input = sbuf;
    b.output = rbuf;
    b.in_off = off;
    b.out_off = off;
    b.bytes = bytes;
    b.n = n;
    rc = scc_pairs_run(m, a, &b, bytes, OMPI_SUCCESS);
    if (OMPI_SUCCESS == rc) {
        memcpy(rbuf + (size_t) m->rank * bytes, sbuf + (size_t) m->rank * bytes, bytes);
    }
    return rc;
}

int mca_coll_scc_alltoallv_sched(mca_coll_scc_module_t *m, scc_alg_t a, const char *sbuf,
                                 const size_t *sbytes, const size_t *soff, char *rbuf,
                                 const size_t *rbytes, const size_t *roff)
{
    const int n = m->size, me = m->rank;
    uint64_t *row, *sizes, maxsize = 0;
    scc_exec_pairs_t b;
    int rc;

    if (SCC_ALG_RING == a) {
        return scc_pairwise(m, sbuf, sbytes, soff, rbuf, rbytes, roff);
    }

    if (!scc_xport_shared_all(m->xp) || NULL == mca_coll_scc_plan(m, SCC_COLL_ALLTOALL, a, 0, 0)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    /* a pair may pass through a third rank, which must know its size: every rank
       learns every rank's send sizes (one allgather of n numbers each) */
    sizes = mca_coll_scc_scratch(m, 2, ((size_t) n * n + n) * sizeof(uint64_t));
    if (NULL == sizes) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                        "there is no memory for the pairs' sizes");
    }
    row = sizes + (size_t) n * n;
    for (int d = 0; d < n; ++d) {
        row[d] = sbytes[d];
    }
    rc = mca_coll_scc_allgather_flat(m, (const char *) row, (char *) sizes,
                                     (size_t) n * sizeof(uint64_t));
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    for (int s = 0; s < n; ++s) {
        if (sizes[(size_t) s * n + me] != rbytes[s]) {
            /* the others run the lists all the same: this rank too, without data */
            rc = MPI_ERR_TRUNCATE;
        }
    }
    for (size_t i = 0; i < (size_t) n * n; ++i) {
        maxsize = sizes[i] > maxsize ? sizes[i] : maxsize;
    }
    memset(&b, 0, sizeof(b));
    b.input = sbuf;
    b.output = rbuf;
    b.in_off = soff;
    b.out_off = roff;
    b.sizes = sizes;
    b.n = n;
    rc = scc_pairs_run(m, a, &b, (size_t) maxsize, rc);
    if (OMPI_SUCCESS == rc && sbytes[me] > 0) {
        memcpy(rbuf + roff[me], sbuf + soff[me], sbytes[me]);
    }
    return rc;
}
