/* coll_scc_rsag.c: the direct allreduce through the slots -- a reduce-scatter and an
 * allgather, pipelined in rounds.  Rank r owns segment r of the vector; in round k every rank
 * publishes piece k of each other rank's segment, combines piece k of its own segment from all
 * of them straight into a slot of its own, and every rank copies that result into its output.
 * Each rank combines 1/n of the vector once, where the slots' fallback (scc_reduce_slots)
 * has every rank combine all of it. */
#include <string.h>

#include "coll_scc_flat.h"

#include "ompi/datatype/ompi_datatype.h"

/* Element range [first, first + cnt) of piece k of rank i's segment (cnt may be 0). */
static inline void scc_rsag_piece(size_t count, int n, int i, size_t per, size_t k,
                                  size_t *first, size_t *cnt)
{
    size_t lo = count * (size_t) i / (size_t) n, hi = count * (size_t) (i + 1) / (size_t) n;
    size_t a = lo + k * per;

    *first = a < hi ? a : hi;
    *cnt = a < hi ? (hi - a < per ? hi - a : per) : 0;
}

/* Elements of a piece: a round has two exchanges, so pieces of twice the pipe size at least. */
static inline size_t scc_rsag_per(const scc_xport_t *x, size_t count, size_t dtsize)
{
    return scc_xport_piece(x, count * dtsize, 2 * x->pipe) / dtsize;
}

bool mca_coll_scc_rsag_fits(const scc_xport_t *x, size_t count, size_t dtsize)
{
    size_t per = scc_rsag_per(x, count, dtsize);
    /* one round's n messages in n distinct slots, and its tags far below 2^32 */
    return per > 0 && x->size <= x->nslots && count / (size_t) x->size / per + 1
                                                   < (UINT32_MAX / 4) / (size_t) x->size;
}

int mca_coll_scc_allreduce_rsag(mca_coll_scc_module_t *m, const char *sbuf, char *rbuf,
                                size_t count, struct ompi_datatype_t *dtype,
                                struct ompi_op_t *op)
{
    scc_xport_t *x = m->xp;
    const int n = x->size, me = x->rank;
    size_t dtsize, per, rounds, first, cnt;
    int rc = OMPI_SUCCESS;

    ompi_datatype_type_size(dtype, &dtsize);
    /* pieces of whole elements, the same on every rank: the largest segment sets the rounds */
    per = scc_rsag_per(x, count, dtsize);
    rounds = ((count + n - 1) / (size_t) n + per - 1) / per;
    for (size_t k = 0; k < rounds && OMPI_SUCCESS == rc; ++k) {
        uint32_t base = (uint32_t) (k * (size_t) n);
        char *acc;

        /* my piece k of the others' segments, one reader each */
        for (int j = 1; j < n && OMPI_SUCCESS == rc; ++j) {
            int d = (me + j) % n;
            scc_rsag_piece(count, n, d, per, k, &first, &cnt);
            rc = scc_xport_send(x, base + (uint32_t) d, sbuf + first * dtsize, cnt * dtsize, 1,
                                false, NULL);
        }
        if (OMPI_SUCCESS != rc) {
            break;
        }
        /* piece k of my segment from everyone, in rank order, into my slot */
        scc_rsag_piece(count, n, me, per, k, &first, &cnt);
        acc = scc_xport_send_slot(x, base + (uint32_t) me, cnt * dtsize);
        for (int i = 0; i < n; ++i) {
            if (i == me) {
                x->pv[i] = sbuf + first * dtsize;
            } else {
                scc_msg_hdr_t *h = scc_xport_wait(x, i, base + (uint32_t) me);
                if (h->len != cnt * dtsize) {
                    rc = MPI_ERR_TRUNCATE;
                }
                x->pv[i] = scc_xport_data(x, i, base + (uint32_t) me, h);
            }
        }
        if (OMPI_SUCCESS == rc && cnt > 0) {
            scc_combine(op, x->pv, n, acc, cnt, dtype);
        }
        scc_xport_send_publish(x, base + (uint32_t) me, cnt * dtsize, n - 1);
        for (int i = 0; i < n; ++i) {
            if (i != me) {
                scc_xport_release(x, i, base + (uint32_t) me);
            }
        }
        /* in place, my input piece was read above before this overwrites it */
        if (OMPI_SUCCESS == rc && cnt > 0) {
            SCC_TRACED(SCC_PH_COPY, cnt * dtsize,
                       memcpy(rbuf + first * dtsize, acc, cnt * dtsize));
        }
        /* the others' results of round k */
        for (int j = 1; j < n && OMPI_SUCCESS == rc; ++j) {
            int i = (me + j) % n;
            scc_rsag_piece(count, n, i, per, k, &first, &cnt);
            rc = scc_xport_recv(x, i, base + (uint32_t) i, rbuf + first * dtsize, cnt * dtsize);
        }
    }
    return rc;
}
