/* coll_scc_exec.c: runs a schedule's steps over the module's transport (blocks to bytes,
 * copies, reductions, alltoall pair lists), keeps the schedules of recent calls, and the
 * module's reusable scratch buffers. */
#include <string.h>

#include "coll_scc_exec.h"

/* ------------------------------------------------------------ vectors */

int mca_coll_scc_exec(mca_coll_scc_module_t *m, const scc_sched_t *s, const scc_exec_buf_t *b,
                      uint32_t tagbase)
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
            rc = scc_xport_send(x, tagbase + st->tag,
                                ((st->flags & SCC_STEP_F_INPUT) ? b->input : b->work) + off, len,
                                st->nreaders, b->stable);
            break;
        case SCC_STEP_RECV:
            rc = scc_xport_recv(x, st->peer, tagbase + st->tag, b->work + off, len);
            break;
        case SCC_STEP_RECV_REDUCE:
            rc = scc_xport_recv_reduce(x, st->peer, tagbase + st->tag, b->work + off,
                                       (st->flags & SCC_STEP_F_INPUT) ? b->input + off : NULL,
                                       len / b->dtsize, b->dtype, b->op);
            break;
        default:
            rc = OMPI_ERR_BAD_PARAM;
        }
    }
    return rc;
}

/* ------------------------------------------------------------ pair lists */

/* Where piece [off, off+len) of pair list entry i lives at this rank. */
static inline char *scc_pair_at(const scc_plan_t *p, const scc_exec_pairs_t *b, long i,
                                size_t off)
{
    uint32_t pair = p->s.list[i], n = (uint32_t) b->n;
    int32_t loc = p->loc[i];
    if (SCC_LOC_IN == loc) {
        return (char *) b->input + (size_t) (pair % n) * b->pair_bytes + off;
    }
    if (SCC_LOC_OUT == loc) {
        return b->output + (size_t) (pair / n) * b->pair_bytes + off;
    }
    return b->stage + (size_t) loc * b->pair_bytes + off;
}

int mca_coll_scc_exec_pairs(mca_coll_scc_module_t *m, const scc_plan_t *p,
                            const scc_exec_pairs_t *b, uint32_t tagbase, size_t off, size_t len)
{
    scc_xport_t *x = m->xp;
    const scc_sched_t *s = &p->s;
    int rc = OMPI_SUCCESS;

    for (long i = 0; i < s->nsteps && OMPI_SUCCESS == rc; ++i) {
        const scc_step_t *st = &s->steps[i];
        uint32_t tag = tagbase + st->tag;
        size_t bytes = (size_t) st->nblocks * len;

        if (SCC_STEP_SEND == st->kind) {
            char *slot = scc_xport_send_slot(x, tag, bytes);
            if (NULL == slot) {
                rc = OMPI_ERR_BAD_PARAM;
                break;
            }
            for (uint32_t k = 0; k < st->nblocks; ++k) {
                memcpy(slot + k * len, scc_pair_at(p, b, st->block + k, off), len);
            }
            scc_xport_send_publish(x, tag, bytes, st->nreaders);
        } else {
            scc_msg_hdr_t *h = scc_xport_wait(x, st->peer, tag);
            const char *data = scc_xport_data(x, st->peer, tag, h);
            if (h->len != bytes) {
                rc = MPI_ERR_TRUNCATE;
            } else {
                for (uint32_t k = 0; k < st->nblocks; ++k) {
                    memcpy(scc_pair_at(p, b, st->block + k, off), data + k * len, len);
                }
            }
            scc_xport_release(x, st->peer, tag);
        }
    }
    return rc;
}

/* ------------------------------------------------------------ schedule cache */

#define SCC_CACHE_SIZE 8

/* A schedule generated for one (collective, algorithm, root, blocks) of this rank. */
typedef struct scc_sched_cache {
    int coll, alg, root;
    uint32_t nblocks;
    uint64_t used;              /* LRU stamp; 0: empty */
    scc_plan_t plan;
} scc_sched_cache_t;

/* Runs the generator of (c, a) into s; returns its result. */
static int scc_generate(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a, int root,
                        uint32_t nblocks, scc_sched_t *s)
{
    const scc_topo_t *t = &m->topo;
    const int n = m->size, me = m->rank;
    const int chunks = mca_coll_scc_component.dopl_chunks;

    switch (c) {
    case SCC_COLL_BCAST:
        switch (a) {
        case SCC_ALG_JIA: return scc_sched_jia_bcast(s, n, me, root, nblocks);
        case SCC_ALG_DOPL: return scc_sched_dopl_bcast(s, &t->grid, me, root, nblocks, chunks);
        case SCC_ALG_NOCMSG: return scc_sched_nocmsg_bcast(s, &t->tiles, me, root, nblocks);
        case SCC_ALG_TREE:
            return scc_sched_tree_bcast(s, n, me, root, m->fanout, m->nlevels, nblocks);
        default: return -1;
        }
    case SCC_COLL_REDUCE:
        switch (a) {
        case SCC_ALG_NOCMSG: return scc_sched_nocmsg_reduce(s, &t->tiles, me, root, nblocks);
        case SCC_ALG_TREE:
            return scc_sched_tree_reduce(s, n, me, root, m->fanout, m->nlevels, nblocks);
        default: return -1;
        }
    case SCC_COLL_ALLREDUCE:
        return SCC_ALG_NOCMSG == a ? scc_sched_nocmsg_allreduce(s, &t->tiles, me, root, nblocks)
                                   : -1;
    case SCC_COLL_BARRIER:
        return scc_sched_nocmsg_barrier(s, &t->tiles, me, root, SCC_ALG_NOCMSG_FANIN == a);
    case SCC_COLL_ALLTOALL:
        return SCC_ALG_NOCMSG == a ? scc_sched_nocmsg_alltoall(s, &t->tiles, me) : -1;
    default:
        return -1;
    }
}

static void scc_cache_clear(scc_sched_cache_t *e)
{
    free(e->plan.s.steps);
    free(e->plan.s.list);
    free((void *) e->plan.loc);
    memset(e, 0, sizeof(*e));
}

void mca_coll_scc_sched_cache_free(mca_coll_scc_module_t *m)
{
    if (NULL != m->cache) {
        for (int i = 0; i < SCC_CACHE_SIZE; ++i) {
            scc_cache_clear(&m->cache[i]);
        }
        free(m->cache);
        m->cache = NULL;
    }
}

/* Alltoall lists: where each listed pair lives at this rank.  A pair passing
 * through keeps one staging slot: the first entry that names it assigns it. */
static int scc_locate_pairs(mca_coll_scc_module_t *m, scc_plan_t *p)
{
    const uint32_t n = (uint32_t) m->size, me = (uint32_t) m->rank;
    int32_t *loc = malloc((p->s.list_len + 1) * sizeof(int32_t));

    if (NULL == loc) {
        return -1;
    }
    p->nstage = 0;
    for (long i = 0; i < p->s.list_len; ++i) {
        uint32_t pair = p->s.list[i];
        if (pair / n == me) {
            loc[i] = SCC_LOC_IN;
        } else if (pair % n == me) {
            loc[i] = SCC_LOC_OUT;
        } else {
            long j = 0;
            while (j < i && p->s.list[j] != pair) {
                ++j;
            }
            loc[i] = j < i ? loc[j] : p->nstage++;
        }
    }
    p->loc = loc;
    return 0;
}

const scc_plan_t *mca_coll_scc_plan(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a,
                                    int root, uint32_t nblocks)
{
    static uint64_t clock = 0;
    scc_sched_cache_t *e, *victim;

    if (NULL == m->cache) {
        m->cache = calloc(SCC_CACHE_SIZE, sizeof(scc_sched_cache_t));
        if (NULL == m->cache) {
            return NULL;
        }
    }
    victim = &m->cache[0];
    for (int i = 0; i < SCC_CACHE_SIZE; ++i) {
        e = &m->cache[i];
        if (e->used && e->coll == (int) c && e->alg == (int) a && e->root == root
            && e->nblocks == nblocks) {
            e->used = ++clock;
            return &e->plan;
        }
        if (e->used < victim->used) {
            victim = e;
        }
    }
    /* generate: count first, then fill */
    e = victim;
    scc_cache_clear(e);
    if (0 != scc_generate(m, c, a, root, nblocks, &e->plan.s)) {
        return NULL;
    }
    e->plan.s.steps = malloc((e->plan.s.nsteps + 1) * sizeof(scc_step_t));
    e->plan.s.list = malloc((e->plan.s.list_len + 1) * sizeof(uint32_t));
    if (NULL == e->plan.s.steps || NULL == e->plan.s.list) {
        scc_cache_clear(e);
        return NULL;
    }
    e->plan.s.cap = e->plan.s.nsteps;
    e->plan.s.list_cap = e->plan.s.list_len;
    scc_sched_reset(&e->plan.s);
    if (0 != scc_generate(m, c, a, root, nblocks, &e->plan.s) || !scc_sched_fits(&e->plan.s)
        || (e->plan.s.list_len > 0 && 0 != scc_locate_pairs(m, &e->plan))) {
        scc_cache_clear(e);
        return NULL;
    }
    e->coll = c;
    e->alg = a;
    e->root = root;
    e->nblocks = nblocks;
    e->used = ++clock;
    return &e->plan;
}

/* ------------------------------------------------------------ scratch */

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
