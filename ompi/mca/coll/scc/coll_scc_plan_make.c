/* coll_scc_plan_make.c: one rank's plan of a (collective, algorithm, root, blocks): the
 * schedule's generator for the communicator's topology, and what the transport needs beside
 * the steps (each send's readers, receives to post early, pair-list locations). */
#include <string.h>

#include "coll_scc_agree.h"
#include "coll_scc_exec.h"
#include "coll_scc_sched_hier.h"
#include "coll_scc_xport.h"

/* Across nodes: the hierarchical schedules, an algorithm naming what the leaders run between
 * nodes (tree: binomial; dissem, jia, dopl, ring: those), NoC_Msg on the nodes as tiles,
 * and the rings of allgather and reduce_scatter_block over all ranks. */
static int scc_generate_nodes(mca_coll_scc_module_t *m, int me, scc_coll_t c, scc_alg_t a,
                              int root, uint32_t nblocks, scc_sched_t *s)
{
    const scc_topo_t *t = &m->topo;
    scc_hier_t h;

    memset(&h, 0, sizeof(h));
    h.nodes = &t->nodes;
    h.fanout = m->fanout;
    h.nlevels = m->nlevels;
    h.chunks_per_part = (uint32_t) mca_coll_scc_config.dopl_chunks;
    switch (a) {
    case SCC_ALG_TREE: h.inter = SCC_INTER_BINOMIAL; break;
    case SCC_ALG_JIA: h.inter = SCC_INTER_JIA; break;
    case SCC_ALG_DOPL: h.inter = SCC_INTER_DOPL; break;
    case SCC_ALG_RING: h.inter = SCC_INTER_RING; break;
    case SCC_ALG_BUTTERFLY: h.inter = SCC_INTER_BUTTERFLY; break;
    case SCC_ALG_DISSEM:
    case SCC_ALG_BRUCK: h.inter = SCC_INTER_DISSEM; break;
    default: h.inter = SCC_INTER_COUNT; break;
    }
    switch (c) {
    case SCC_COLL_BCAST:
        return SCC_ALG_NOCMSG == a ? scc_sched_nocmsg_bcast(s, &t->tiles, me, root, nblocks)
                                   : scc_sched_hier_bcast(s, &h, me, root, nblocks);
    case SCC_COLL_REDUCE:
        return SCC_ALG_NOCMSG == a ? scc_sched_nocmsg_reduce(s, &t->tiles, me, root, nblocks)
                                   : scc_sched_hier_reduce(s, &h, me, root, nblocks);
    case SCC_COLL_ALLREDUCE:
        return SCC_ALG_NOCMSG == a ? scc_sched_nocmsg_allreduce(s, &t->tiles, me, root, nblocks)
                                   : scc_sched_hier_allreduce(s, &h, me, nblocks);
    case SCC_COLL_BARRIER:
        if (SCC_ALG_NOCMSG == a || SCC_ALG_NOCMSG_FANIN == a) {
            return scc_sched_nocmsg_barrier(s, &t->tiles, me, root, SCC_ALG_NOCMSG_FANIN == a);
        }
        return scc_sched_hier_barrier(s, &h, me);
    case SCC_COLL_ALLGATHER:
        /* the ring or Bruck's rounds between the leaders, each node's parts gathered and
           spread by its own */
        return SCC_ALG_RING == a || SCC_ALG_BRUCK == a ? scc_sched_hier_allgather(s, &h, me,
                                                                                  nblocks)
                                                       : -1;
    case SCC_COLL_REDUCE_SCATTER_BLOCK:
        return SCC_ALG_RING == a ? scc_sched_ring_reduce_scatter(s, m->size, me, nblocks) : -1;
    case SCC_COLL_ALLTOALL:
        return SCC_ALG_LEADERS == a ? scc_sched_hier_alltoall(s, &t->nodes, me) : -1;
    case SCC_COLL_GATHER:
        return SCC_ALG_TREE == a ? scc_sched_hier_gather(s, &t->nodes, me, root, nblocks) : -1;
    case SCC_COLL_SCATTER:
        return SCC_ALG_TREE == a ? scc_sched_hier_scatter(s, &t->nodes, me, root, nblocks) : -1;
    default:
        return -1;
    }
}

/* Runs the generator of (c, a) for rank me into s; returns its result. */
static int scc_generate(mca_coll_scc_module_t *m, int me, scc_coll_t c, scc_alg_t a, int root,
                        uint32_t nblocks, scc_sched_t *s)
{
    const scc_topo_t *t = &m->topo;
    const int n = m->size;
    const int chunks = mca_coll_scc_config.dopl_chunks;

    if (SCC_TOPO_NODES == t->kind) {
        return scc_generate_nodes(m, me, c, a, root, nblocks, s);
    }
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

/* Over the pml: which receives from another node may be posted before their step -- a
 * RECV whose blocks no earlier step touched (nothing of this rank's is still being sent
 * from there), and every RECV_REDUCE (it lands in a buffer of its own). */
static int scc_mark_early(const scc_xport_t *x, scc_plan_t *p)
{
    uint32_t top = 0;
    uint8_t *early, *touched;

    for (long i = 0; i < p->s.nsteps; ++i) {
        const scc_step_t *st = &p->s.steps[i];
        if (st->flags & SCC_STEP_F_LIST) {
            return 0;   /* pair lists never cross nodes */
        }
        top = st->block + st->nblocks > top ? st->block + st->nblocks : top;
    }
    early = calloc(p->s.nsteps + 1, 1);
    touched = calloc((size_t) top + 1, 1);
    if (NULL == early || NULL == touched) {
        free(early);
        free(touched);
        return -1;
    }
    for (long i = 0; i < p->s.nsteps; ++i) {
        const scc_step_t *st = &p->s.steps[i];
        bool fresh = true;
        for (uint32_t b = st->block; b < st->block + st->nblocks; ++b) {
            fresh = fresh && !touched[b];
            touched[b] = 1;
        }
        early[i] = SCC_STEP_SEND != st->kind && scc_xport_by_pml(x, st->peer)
                   && (SCC_STEP_RECV_REDUCE == st->kind || fresh);
    }
    free(touched);
    p->early = early;
    return 0;
}

void mca_coll_scc_plan_clear(scc_plan_t *p)
{
    free((void *) p->early);
    free(p->s.steps);
    free(p->s.list);
    free((void *) p->loc);
    free((void *) p->readers_at);
    free((void *) p->readers);
    free((void *) p->stage_pair);
    memset(p, 0, sizeof(*p));
}

/* Generates s for rank me: counts first, then fills.  0, or SCC_PLAN_NONE when the
 * schedule does not exist, or -1. */
static int scc_generate_all(mca_coll_scc_module_t *m, int me, scc_coll_t c, scc_alg_t a,
                            int root, uint32_t nblocks, scc_sched_t *s)
{
    memset(s, 0, sizeof(*s));
    if (0 != scc_generate(m, me, c, a, root, nblocks, s)) {
        return SCC_PLAN_NONE;
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

/* Sorts a schedule's SEND step indices by tag (one call at a time: plans are made under
 * the set's agreement, never by two threads on one communicator at once). */
static __thread const scc_sched_t *scc_sends_by_tag;

static int scc_cmp_send_tag(const void *a, const void *b)
{
    uint32_t ta = scc_sends_by_tag->steps[*(const long *) a].tag;
    uint32_t tb = scc_sends_by_tag->steps[*(const long *) b].tag;
    return ta < tb ? -1 : ta > tb;
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
    /* across nodes a rank's tags rise within each memory, not over both: search by tag */
    scc_sends_by_tag = &p->s;
    qsort(sends, (size_t) nsends, sizeof(long), scc_cmp_send_tag);
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

/* The pml transport posts a send per reader and completes them at the end of the call:
 * room for a call of two plans (an allreduce's reduce and bcast) is made with the plan, so
 * a call never allocates there. */
static int scc_reserve_sends(scc_xport_t *x, const scc_plan_t *p)
{
    long need = 0;
    for (long i = 0; i < p->s.nsteps; ++i) {
        if (SCC_STEP_SEND == p->s.steps[i].kind) {
            need += p->s.steps[i].nreaders;
        }
    }
    need *= 2;
    if (need > x->reqs_cap) {
        struct ompi_request_t **r = realloc(x->reqs, (size_t) need * sizeof(*r));
        if (NULL == r) {
            return -1;
        }
        x->reqs = r;
        x->reqs_cap = (int) need;
    }
    return 0;
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

int mca_coll_scc_plan_make(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a, int root,
                           uint32_t nblocks, scc_plan_t *p)
{
    bool pml = !scc_xport_shared_all(m->xp);
    int rc;

    memset(p, 0, sizeof(*p));
    rc = scc_generate_all(m, m->rank, c, a, root, nblocks, &p->s);
    if (0 == rc
        && ((p->s.list_len > 0 && (0 != scc_locate_pairs(m, p)
                                   || 0 != scc_list_bounds(m, c, a, root, nblocks, p)))
            || (pml && (0 != scc_find_readers(m, c, a, root, nblocks, p)
                        || 0 != scc_reserve_sends(m->xp, p) || 0 != scc_mark_early(m->xp, p)))
            || mca_coll_scc_fault(&m->members, "plan"))) {
        rc = -1;
    }
    if (0 != rc) {
        mca_coll_scc_plan_clear(p);
        return SCC_PLAN_NONE == rc ? SCC_PLAN_NONE : SCC_PLAN_NOMEM;
    }
    return SCC_PLAN_MADE;
}

