/* coll_scc_flat_scan.c: MPI_Scan and MPI_Exscan -- the direct algorithm through the slots,
 * the pipelined chain in rank order (the ring cut open between n-1 and 0), and across nodes
 * the direct algorithm within each node's runs of ranks, the runs made whole one by one.
 *
 * Both combine in rank order: the result at rank r is x0 op (x1 op (... op xr)), and
 * ompi_op_reduce(op, src, tgt) computes tgt = src op tgt, so the left operand is always the
 * lower rank's.  Non-commutative operations are right by construction. */
#include <string.h>

#include "coll_scc_flat.h"

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

/* Elements per piece: whole elements, at least one (an element fits a slot: the entry
 * point checks), the same on every rank from the same count. */
static size_t scc_scan_per(const scc_xport_t *x, size_t count, size_t dtsize)
{
    size_t per = scc_xport_piece(x, count * dtsize, x->pipe) / dtsize;
    return per > 0 ? per : 1;
}

/* Direct: every rank but the last publishes each piece of its input for the ranks after
 * it; rank r reads the pieces of ranks 0..r (exclusive: 0..r-1) straight from their slots
 * and combines them in rank order.  Rank r combines r pieces: for few ranks and small
 * messages, where one hand-off per piece is what counts. */
int mca_coll_scc_scan_flat(mca_coll_scc_module_t *m, const char *in, char *out, size_t count,
                           struct ompi_datatype_t *dtype, struct ompi_op_t *op, bool exclusive)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    const int readers = n - 1 - me, nin = exclusive ? me : me + 1;
    size_t dtsize, per;
    int rc = OMPI_SUCCESS;

    ompi_datatype_type_size(dtype, &dtsize);
    per = scc_scan_per(x, count, dtsize);
    scc_xport_begin(x);
    for (size_t first = 0, k = 0; first < count; first += per, ++k) {
        size_t cnt = scc_min(per, count - first), off = first * dtsize;
        uint32_t tag = (uint32_t) k;

        /* a copy in my slot: in place, my result may overwrite my input below */
        if (readers > 0) {
            scc_xport_note(x, &rc, scc_xport_send(x, tag, in + off, cnt * dtsize, readers,
                                                  false, NULL));
        }
        if (0 == nin) {
            continue;   /* exscan at rank 0: its rbuf is left as it is */
        }
        for (int i = 0; i < nin; ++i) {
            x->pv[i] = i == me ? in + off : scc_xport_data(x, i, tag, scc_xport_wait(x, i, tag));
        }
        /* scan: the last operand is my input, which out may alias (scc_combine allows it) */
        if (OMPI_SUCCESS == rc) {
            scc_combine(op, x->pv, nin, out + off, cnt, dtype);
        }
        scc_release_read(x, nin, me, tag, count <= per);
    }
    return scc_xport_result(rc, scc_xport_end(x));
}

/* The chain: rank r receives the prefix of ranks 0..r-1 piece by piece from r - 1,
 * combines its own input and passes the new prefix on to r + 1 while the next piece
 * comes in.  One combine per element and rank, every message to a neighbour: the large
 * messages' algorithm on one node, and what crosses nodes (over any transport: every
 * send names its reader).  Messages go from buffers that stay unchanged until the call
 * ends (the pml sends from them). */
int mca_coll_scc_scan_ring(mca_coll_scc_module_t *m, const char *in, char *out, size_t count,
                           struct ompi_datatype_t *dtype, struct ompi_op_t *op, bool exclusive)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank, prev = me - 1;
    int next = me + 1;
    size_t dtsize, per, npieces;
    char *nxt = NULL;
    int rc = OMPI_SUCCESS;

    ompi_datatype_type_size(dtype, &dtsize);
    per = scc_scan_per(x, count, dtsize);
    npieces = (count + per - 1) / per;
    /* tags far below the transport's reserved ids (the same on every rank) */
    if (npieces >= UINT32_MAX / 4) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    /* exscan between the ends: what I pass on (prefix op mine) is not my result */
    if (exclusive && me > 0 && me < n - 1) {
        nxt = mca_coll_scc_scratch(m, 0, count * dtsize + 1);
        if (NULL == nxt) {
            (void) mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    scc_xport_begin(x);
    for (size_t k = 0; k < npieces; ++k) {
        size_t first = k * per, cnt = scc_min(per, count - first), off = first * dtsize;
        size_t len = cnt * dtsize;
        uint32_t tag = (uint32_t) k;
        const char *pass = NULL;

        if (0 == me) {
            /* scan: my result is my input; exscan: my rbuf is left as it is */
            if (!exclusive && out != in) {
                SCC_TRACED(SCC_PH_COPY, len, memcpy(out + off, in + off, len));
            }
            pass = in + off;
        } else if (!exclusive) {
            /* out = prefix op mine */
            scc_xport_note(x, &rc, scc_xport_recv_reduce(x, prev, tag, out + off, in + off,
                                                         cnt, dtype, op));
            pass = out + off;
        } else if (NULL == nxt) {
            /* the last rank of an exscan: the prefix is the result */
            scc_xport_note(x, &rc, scc_xport_recv(x, prev, tag, out + off, len));
        } else {
            /* in place my input is in out: keep it aside before the prefix lands there */
            if (in == out) {
                SCC_TRACED(SCC_PH_COPY, len, memcpy(nxt + off, in + off, len));
            }
            scc_xport_note(x, &rc, scc_xport_recv(x, prev, tag, out + off, len));
            if (OMPI_SUCCESS == rc) {
                scc_reduce3(op, out + off, in == out ? nxt + off : in + off, nxt + off, cnt,
                            dtype);
            }
            pass = nxt + off;
        }
        if (me < n - 1) {
            scc_xport_note(x, &rc, scc_xport_send(x, tag, pass, len, 1, true, &next));
        }
    }
    return scc_xport_result(rc, scc_xport_end(x));
}

/* Across nodes: the ranks fall into runs of consecutive ranks on one node (a node each when
 * every node holds consecutive ranks).  Piece by piece, each run scans its inputs directly
 * (every rank reads the run's lower ranks' inputs from their slots), then the runs' results
 * are made whole along the runs in rank order: the last rank of a run has the inclusive
 * result of the ranks up to it, which is what every rank of the next run lacks, so it sends
 * it to each of them (over the pml: another node), and each combines it in front of its own
 * run's result.  A message between nodes per run boundary and piece; within a node no chain.
 * The pieces pipeline: run s combines piece k while run s + 1 waits for it. */
int mca_coll_scc_scan_leaders(mca_coll_scc_module_t *m, const char *in, char *out, size_t count,
                              struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                              bool exclusive)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    const int *node_of = m->topo.nodes.node_of;
    int lo = me, hi = me, next_hi;
    size_t dtsize, per, npieces;
    int *ranks;
    const char **pv;
    char *fwd = NULL, *keep = NULL, *stage;
    int rc = OMPI_SUCCESS;

    if (SCC_TOPO_NODES != m->topo.kind) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    ompi_datatype_type_size(dtype, &dtsize);
    per = scc_scan_per(x, count, dtsize);
    npieces = (count + per - 1) / per;
    if (npieces >= UINT32_MAX / 8) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    /* my run [lo, hi] and the next one's end */
    while (lo > 0 && node_of[lo - 1] == node_of[me]) {
        --lo;
    }
    while (hi < n - 1 && node_of[hi + 1] == node_of[me]) {
        ++hi;
    }
    next_hi = hi + 1;
    while (next_hi < n - 1 && node_of[next_hi + 1] == node_of[hi + 1]) {
        ++next_hi;
    }
    /* the operands (the pml transport has no x->pv); readers are consecutive ranks: slices
       of 0, 1, ..., n - 1 name them; pieces of the run's lower ranks that come over the pml
       (the pml transport) are staged */
    pv = mca_coll_scc_scratch(m, 2, (size_t) n * (sizeof(char *) + sizeof(int)));
    ranks = NULL != pv ? (int *) (pv + n) : NULL;
    stage = mca_coll_scc_scratch(m, 1, (size_t) (me - lo + 1) * per * dtsize);
    /* the last rank of a run sends the next run its inclusive result: an exscan's is not
       its own, and needs its input, which in place the result overwrites */
    if (exclusive && me == hi && hi < n - 1) {
        fwd = mca_coll_scc_scratch(m, 0, count * dtsize + 1);
    }
    /* the pml sends from the buffer it is given until the call ends: in place, my input for
       the run goes from a copy (my result overwrites it) */
    if (scc_xport_all_pml(x) && in == out && hi > me) {
        keep = mca_coll_scc_scratch(m, 0, count * dtsize + 1);
    }
    if (NULL == ranks || NULL == stage || (exclusive && me == hi && hi < n - 1 && NULL == fwd)
        || (scc_xport_all_pml(x) && in == out && hi > me && NULL == keep)) {
        (void) mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (int i = 0; i < n; ++i) {
        ranks[i] = i;
    }
    scc_xport_begin(x);
    for (size_t k = 0; k < npieces; ++k) {
        size_t first = k * per, cnt = scc_min(per, count - first), off = first * dtsize;
        size_t len = cnt * dtsize;
        const int nin = exclusive ? me - lo : me - lo + 1;
        uint32_t tag = (uint32_t) (2 * k);

        /* the run's direct scan: my input for the run's ranks after me */
        if (hi > me) {
            if (NULL != keep) {
                SCC_TRACED(SCC_PH_COPY, len, memcpy(keep + off, in + off, len));
            }
            scc_xport_note(x, &rc, scc_xport_send(x, tag, (NULL != keep ? keep : in) + off, len,
                                                  hi - me, false, ranks + me + 1));
        }
        if (NULL != fwd) {
            SCC_TRACED(SCC_PH_COPY, len, memcpy(fwd + off, in + off, len));
        }
        for (int i = 0; i < nin; ++i) {
            int r = lo + i;
            if (r == me) {
                pv[i] = in + off;
            } else if (scc_xport_by_pml(x, r)) {
                char *p = stage + (size_t) i * per * dtsize;
                scc_xport_note(x, &rc, scc_xport_recv(x, r, tag, p, len));
                pv[i] = p;
            } else {
                pv[i] = scc_xport_data(x, r, tag, scc_xport_wait(x, r, tag));
            }
        }
        if (OMPI_SUCCESS == rc && nin > 0) {
            scc_combine(op, pv, nin, out + off, cnt, dtype);
        }
        for (int i = 0; i < nin; ++i) {
            if (lo + i != me && !scc_xport_by_pml(x, lo + i)) {
                scc_xport_release(x, lo + i, tag);
            }
        }
        /* the ranks before my run, from the previous run's last rank, in front */
        if (lo > 0) {
            if (nin > 0) {
                scc_xport_note(x, &rc, scc_xport_recv_reduce(x, lo - 1, tag + 1, out + off, NULL,
                                                             cnt, dtype, op));
            } else {
                scc_xport_note(x, &rc, scc_xport_recv(x, lo - 1, tag + 1, out + off, len));
            }
        }
        if (me != hi || hi == n - 1) {
            continue;
        }
        /* my inclusive result for the next run (exscan: my result, if any, then my input) */
        if (NULL != fwd && me > 0 && OMPI_SUCCESS == rc) {
            SCC_TRACED(SCC_PH_COMBINE, len,
                       ompi_op_reduce(op, out + off, fwd + off, cnt, dtype));
        }
        scc_xport_note(x, &rc, scc_xport_send(x, tag + 1, (NULL != fwd ? fwd : out) + off, len,
                                              next_hi - hi, true, ranks + hi + 1));
    }
    return scc_xport_result(rc, scc_xport_end(x));
}
