/* coll_scc_exec.c: runs a schedule's steps over the module's transport (blocks to bytes,
 * copies, reductions, alltoall pair lists), keeps the schedules of recent calls, and the
 * module's reusable scratch buffers. */
#include <string.h>

#include "coll_scc_exec.h"

/* ------------------------------------------------------------ vectors */

int mca_coll_scc_exec(mca_coll_scc_module_t *m, const scc_plan_t *p, const scc_exec_buf_t *b,
                      uint32_t tagbase)
{
    const scc_sched_t *s = &p->s;
    scc_xport_t *x = m->xp;
    int rc = OMPI_SUCCESS;

    for (long i = 0; i < s->nsteps && OMPI_SUCCESS == rc; ++i) {
        const scc_step_t *st = &s->steps[i];
        size_t off = (size_t) st->block * b->bs, len = 0;

        if (b->kpart > 0) {
            /* n parts of `part` bytes, each cut into kpart blocks (ring steps move one) */
            uint32_t pr = st->block / b->kpart, pc = st->block % b->kpart;
            size_t in = (size_t) pc * b->bs;
            off = (size_t) pr * b->part + in;
            len = 0 == st->nblocks || in >= b->part ? 0
                  : (b->part - in < b->bs ? b->part - in : b->bs);
        } else if (off < b->total) {
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
                                st->nreaders, b->stable,
                                NULL != p->readers ? p->readers + p->readers_at[i] : NULL);
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

/* Where pair list entry i lives at this rank. */
static inline char *scc_pair_at(const scc_plan_t *p, const scc_exec_pairs_t *b, long i)
{
    uint32_t pair = p->s.list[i], n = (uint32_t) b->n;
    int32_t loc = p->loc[i];
    if (SCC_LOC_IN == loc) {
        return (char *) b->input + b->in_off[pair % n];
    }
    if (SCC_LOC_OUT == loc) {
        return b->output + b->out_off[pair / n];
    }
    return b->stage + b->stage_off[loc];
}

/* Bytes of piece k of a pair of `size` bytes. */
static inline size_t scc_piece_len(size_t size, size_t k, size_t piece)
{
    size_t off = k * piece;
    return off >= size ? 0 : (size - off < piece ? size - off : piece);
}

int mca_coll_scc_exec_pairs(mca_coll_scc_module_t *m, const scc_plan_t *p,
                            const scc_exec_pairs_t *b, uint32_t tagbase, size_t k, size_t piece)
{
    scc_xport_t *x = m->xp;
    const scc_sched_t *s = &p->s;
    int rc = OMPI_SUCCESS;

    for (long i = 0; i < s->nsteps && OMPI_SUCCESS == rc; ++i) {
        const scc_step_t *st = &s->steps[i];
        uint32_t tag = tagbase + st->tag;
        size_t bytes = 0, at = 0;

        /* both sides know every pair's size: the message is the pairs' pieces, in order */
        for (uint32_t j = 0; j < st->nblocks; ++j) {
            bytes += scc_piece_len(scc_pair_size(b, s->list[st->block + j]), k, piece);
        }
        if (SCC_STEP_SEND == st->kind) {
            char *slot = scc_xport_send_slot(x, tag, bytes);
            if (NULL == slot) {
                rc = OMPI_ERR_BAD_PARAM;
                break;
            }
            for (uint32_t j = 0; j < st->nblocks; ++j) {
                long e = st->block + j;
                size_t len = scc_piece_len(scc_pair_size(b, s->list[e]), k, piece);
                memcpy(slot + at, scc_pair_at(p, b, e) + k * piece, len);
                at += len;
            }
            scc_xport_send_publish(x, tag, bytes, st->nreaders);
        } else {
            scc_msg_hdr_t *h = scc_xport_wait(x, st->peer, tag);
            const char *data = scc_xport_data(x, st->peer, tag, h);
            if (h->len != bytes) {
                rc = MPI_ERR_TRUNCATE;
            } else {
                for (uint32_t j = 0; j < st->nblocks; ++j) {
                    long e = st->block + j;
                    size_t len = scc_piece_len(scc_pair_size(b, s->list[e]), k, piece);
                    memcpy(scc_pair_at(p, b, e) + k * piece, data + at, len);
                    at += len;
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

/* Runs the generator of (c, a) for rank me into s; returns its result. */
static int scc_generate(mca_coll_scc_module_t *m, int me, scc_coll_t c, scc_alg_t a, int root,
                        uint32_t nblocks, scc_sched_t *s)
{
    const scc_topo_t *t = &m->topo;
    const int n = m->size;
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
        switch (a) {
        case SCC_ALG_NOCMSG: return scc_sched_nocmsg_allreduce(s, &t->tiles, me, root, nblocks);
        case SCC_ALG_BUTTERFLY: return scc_sched_butterfly_allreduce(s, n, me, nblocks);
        case SCC_ALG_RING: return scc_sched_ring_allreduce(s, n, me, nblocks);
        default: return -1;
        }
    case SCC_COLL_ALLGATHER:
        return SCC_ALG_RING == a ? scc_sched_ring_allgather(s, n, me, nblocks) : -1;
    case SCC_COLL_REDUCE_SCATTER_BLOCK:
        return SCC_ALG_RING == a ? scc_sched_ring_reduce_scatter(s, n, me, nblocks) : -1;
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
    free((void *) e->plan.readers_at);
    free((void *) e->plan.readers);
    free((void *) e->plan.stage_pair);
    memset(e, 0, sizeof(*e));
}

/* Generates s for rank me: counts first, then fills. */
static int scc_generate_all(mca_coll_scc_module_t *m, int me, scc_coll_t c, scc_alg_t a,
                            int root, uint32_t nblocks, scc_sched_t *s)
{
    memset(s, 0, sizeof(*s));
    if (0 != scc_generate(m, me, c, a, root, nblocks, s)) {
        return -1;
    }
    s->steps = malloc((s->nsteps + 1) * sizeof(scc_step_t));
    s->list = malloc((s->list_len + 1) * sizeof(uint32_t));
    if (NULL == s->steps || NULL == s->list) {
        return -1;
    }
    s->cap = s->nsteps;
    s->list_cap = s->list_len;
    scc_sched_reset(s);
    if (0 != scc_generate(m, me, c, a, root, nblocks, s) || !scc_sched_fits(s)) {
        return -1;
    }
    return 0;
}

/* Point-to-point messages go to named readers: replay every other rank's schedule
 * and note, for each of my SENDs, who receives it (a sender's tags are unique and
 * increase along its SENDs). */
static int scc_find_readers(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a, int root,
                            uint32_t nblocks, scc_plan_t *p)
{
    int32_t *at = calloc(p->s.nsteps + 1, sizeof(int32_t));
    long *sends = malloc((p->s.nsteps + 1) * sizeof(long)), nsends = 0, total = 0;
    int *filled = calloc(p->s.nsteps + 1, sizeof(int)), *readers = NULL, rc = -1;
    scc_sched_t other;

    memset(&other, 0, sizeof(other));
    if (NULL == at || NULL == sends || NULL == filled) {
        goto out;
    }
    for (long i = 0; i < p->s.nsteps; ++i) {
        if (SCC_STEP_SEND == p->s.steps[i].kind) {
            at[i] = (int32_t) total;
            total += p->s.steps[i].nreaders;
            sends[nsends++] = i;
        }
    }
    readers = malloc((total + 1) * sizeof(int));
    if (NULL == readers) {
        goto out;
    }
    for (int r = 0; r < m->size; ++r) {
        if (r == m->rank) {
            continue;
        }
        if (0 != scc_generate_all(m, r, c, a, root, nblocks, &other)) {
            goto out;
        }
        for (long j = 0; j < other.nsteps; ++j) {
            const scc_step_t *o = &other.steps[j];
            long lo = 0, hi = nsends;
            if (SCC_STEP_SEND == o->kind || o->peer != m->rank) {
                continue;
            }
            while (lo < hi) {
                long mid = (lo + hi) / 2;
                if (p->s.steps[sends[mid]].tag < o->tag) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            if (lo < nsends && p->s.steps[sends[lo]].tag == o->tag) {
                long i = sends[lo];
                if (filled[i] < p->s.steps[i].nreaders) {
                    readers[at[i] + filled[i]++] = r;
                }
            }
        }
        free(other.steps);
        free(other.list);
        memset(&other, 0, sizeof(other));
    }
    p->readers_at = at;
    p->readers = readers;
    at = NULL;
    readers = NULL;
    rc = 0;
out:
    free(other.steps);
    free(other.list);
    free(at);
    free(sends);
    free(filled);
    free(readers);
    return rc;
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

/* Pair lists: every rank must cut the pairs' blocks into the same pieces, so the
 * longest list and the largest tag are taken over all ranks' schedules. */
static int scc_list_bounds(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a, int root,
                           uint32_t nblocks, scc_plan_t *p)
{
    scc_sched_t other;

    p->maxlist = 1;
    p->maxtag = 0;
    for (int r = 0; r < m->size; ++r) {
        int rc = scc_generate_all(m, r, c, a, root, nblocks, &other);
        for (long j = 0; 0 == rc && j < other.nsteps; ++j) {
            if (other.steps[j].nblocks > p->maxlist) {
                p->maxlist = other.steps[j].nblocks;
            }
            if (other.steps[j].tag > p->maxtag) {
                p->maxtag = other.steps[j].tag;
            }
        }
        free(other.steps);
        free(other.list);
        if (0 != rc) {
            return -1;
        }
    }
    return 0;
}

/* Alltoall lists: where each listed pair lives at this rank.  A pair passing
 * through keeps one staging slot: the first entry that names it assigns it. */
static int scc_locate_pairs(mca_coll_scc_module_t *m, scc_plan_t *p)
{
    const uint32_t n = (uint32_t) m->size, me = (uint32_t) m->rank;
    int32_t *loc = malloc((p->s.list_len + 1) * sizeof(int32_t));
    uint32_t *stage_pair = malloc((p->s.list_len + 1) * sizeof(uint32_t));

    if (NULL == loc || NULL == stage_pair) {
        free(loc);
        free(stage_pair);
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
            if (j < i) {
                loc[i] = loc[j];
            } else {
                stage_pair[p->nstage] = pair;
                loc[i] = p->nstage++;
            }
        }
    }
    p->loc = loc;
    p->stage_pair = stage_pair;
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
    e = victim;
    scc_cache_clear(e);
    if (0 != scc_generate_all(m, m->rank, c, a, root, nblocks, &e->plan.s)
        || (e->plan.s.list_len > 0 && (0 != scc_locate_pairs(m, &e->plan)
                                       || 0 != scc_list_bounds(m, c, a, root, nblocks,
                                                               &e->plan)))
        || (SCC_XPORT_PML == m->xp->kind
            && 0 != scc_find_readers(m, c, a, root, nblocks, &e->plan))) {
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
