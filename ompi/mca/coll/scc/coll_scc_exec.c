/* coll_scc_exec.c: runs a schedule's steps over the module's transport: blocks to bytes,
 * copies and reductions; and the module's reusable schedule and scratch buffers. */
#include "coll_scc_exec.h"

int mca_coll_scc_exec(mca_coll_scc_module_t *m, const scc_sched_t *s, const scc_exec_buf_t *b)
{
    scc_xport_t *x = m->xp;
    int rc = OMPI_SUCCESS;

    for (long i = 0; i < s->nsteps && OMPI_SUCCESS == rc; ++i) {
        const scc_step_t *st = &s->steps[i];
        size_t off = (size_t) st->block * b->bs, len = 0;

        if (off < b->total) {
            len = (size_t) st->nblocks * b->bs;
            if (len > b->total - off) {
                len = b->total - off;
            }
        } else {
            off = b->total;
        }
        switch (st->kind) {
        case SCC_STEP_SEND:
            rc = scc_xport_send(x, st->tag,
                                ((st->flags & SCC_STEP_F_INPUT) ? b->input : b->work) + off, len,
                                st->nreaders, b->stable);
            break;
        case SCC_STEP_RECV:
            rc = scc_xport_recv(x, st->peer, st->tag, b->work + off, len);
            break;
        case SCC_STEP_RECV_REDUCE:
            rc = scc_xport_recv_reduce(x, st->peer, st->tag, b->work + off,
                                       (st->flags & SCC_STEP_F_INPUT) ? b->input + off : NULL,
                                       len / b->dtsize, b->dtype, b->op);
            break;
        default:
            rc = OMPI_ERR_BAD_PARAM;
        }
    }
    scc_xport_end(x);
    return rc;
}

scc_sched_t *mca_coll_scc_sched_buf(mca_coll_scc_module_t *m, long nsteps, long nlist)
{
    scc_sched_t *s = &m->sched;
    if (nsteps > s->cap) {
        scc_step_t *p = realloc(s->steps, nsteps * sizeof(scc_step_t));
        if (NULL == p) {
            return NULL;
        }
        s->steps = p;
        s->cap = nsteps;
    }
    if (nlist > s->list_cap) {
        uint32_t *p = realloc(s->list, nlist * sizeof(uint32_t));
        if (NULL == p) {
            return NULL;
        }
        s->list = p;
        s->list_cap = nlist;
    }
    scc_sched_reset(s);
    return s;
}

void *mca_coll_scc_scratch(mca_coll_scc_module_t *m, int which, size_t bytes)
{
    if (bytes > m->scratch[which].bytes) {
        void *p = realloc(m->scratch[which].ptr, bytes);
        if (NULL == p) {
            return NULL;
        }
        m->scratch[which].ptr = p;
        m->scratch[which].bytes = bytes;
    }
    return m->scratch[which].ptr;
}
