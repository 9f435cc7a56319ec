/* coll_scc_plan.c: a communicator's plans -- this rank's schedule of each (collective,
 * algorithm, root, blocks) -- made once, agreed by every member, and kept.
 *
 * The plans that depend on the communicator only (barrier, alltoall pair lists) are made at
 * setup.  A plan that depends on the call (a root, a number of blocks: any message size) is
 * made by the first call that needs it.  Every member makes the same calls, holds the same
 * plans and evicts the same ones (the limits count plans and blocks, never bytes, which
 * differ from rank to rank), so all members miss at the same call: they agree there, and a
 * plan one member could not make (out of memory) sends every member the same way.  The
 * limits are sized by the communicator, so roots rotating over all ranks never evict
 * each other.  (Making every size at setup cannot be done: blocks have no bound.  A hit
 * costs a hash lookup and one store; only a miss pays for a generation and one allreduce.) */
#include <string.h>

#include "coll_scc_agree.h"
#include "coll_scc_exec.h"
#include "coll_scc_sched_hier.h"
#include "coll_scc_xport.h"

/* Plans held beyond the pinned ones: every root of two rooted collectives at two sizes */
#define SCC_PLAN_MAX(n) (4u * (uint32_t) (n) + 16u)
/* Blocks the held plans cover together: a plan's memory grows with its blocks */
#define SCC_PLAN_MAX_BLOCKS (1u << 16)
/* Hash buckets at most (a huge communicator's set chains more, it does not grow them) */
#define SCC_PLAN_MAX_BUCKETS 4096u

typedef struct scc_plan_entry {
    struct scc_plan_entry *chain;           /* next in its hash bucket */
    uint64_t key;                           /* collective, algorithm, root */
    uint32_t nblocks;
    int32_t at;                             /* index in the set's held[]; -1: pinned */
    uint64_t used;                          /* the set's clock at its last use */
    uint64_t weight;                        /* blocks it counts against the limit */
    scc_plan_t plan;
} scc_plan_entry_t;

struct scc_plan_set {
    struct ompi_communicator_t *comm;       /* where the members agree */
    scc_plan_entry_t **bucket;
    uint32_t mask;                          /* buckets - 1 (a power of two) */
    uint64_t clock;                         /* lookups so far: a hit costs one store */
    scc_plan_entry_t **held;                /* the evictable plans (max_held of them) */
    uint32_t nheld, max_held;
    uint64_t blocks;                        /* their weight */
    uint64_t made_setup, made_calls, refused;
};

/* ------------------------------------------------------------ generation */

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
    h.chunks_per_part = (uint32_t) mca_coll_scc_component.dopl_chunks;
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
        return SCC_ALG_RING == a ? scc_sched_pairwise_alltoall(s, m->size, me, nblocks) : -1;
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
    const int chunks = mca_coll_scc_component.dopl_chunks;

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
        if (SCC_ALG_RING == a) {
            return scc_sched_pairwise_alltoall(s, n, me, nblocks);
        }
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

static void scc_plan_clear(scc_plan_t *p)
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

/* Makes this rank's plan of (c, a, root, nblocks) into p; false when it cannot (p cleared). */
static bool scc_plan_make(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a, int root,
                          uint32_t nblocks, scc_plan_t *p)
{
    bool pml = !scc_xport_shared_all(m->xp);

    memset(p, 0, sizeof(*p));
    if (0 != scc_generate_all(m, m->rank, c, a, root, nblocks, &p->s)
        || (p->s.list_len > 0 && (0 != scc_locate_pairs(m, p)
                                  || 0 != scc_list_bounds(m, c, a, root, nblocks, p)))
        || (pml && (0 != scc_find_readers(m, c, a, root, nblocks, p)
                    || 0 != scc_reserve_sends(m->xp, p) || 0 != scc_mark_early(m->xp, p)))
        || mca_coll_scc_fault(m, "plan")) {
        scc_plan_clear(p);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------ the set */

static inline uint64_t scc_plan_key(scc_coll_t c, scc_alg_t a, int root)
{
    return ((uint64_t) c << 40) | ((uint64_t) a << 32) | (uint32_t) root;
}

static inline uint32_t scc_plan_hash(const struct scc_plan_set *ps, uint64_t key,
                                     uint32_t nblocks)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull ^ (uint64_t) nblocks * 0xc2b2ae3d27d4eb4full;
    h ^= h >> 29;
    return (uint32_t) (h >> 16) & ps->mask;
}

static void scc_entry_free(scc_plan_entry_t *e)
{
    scc_plan_clear(&e->plan);
    free(e);
}

/* Drops the least recently used plan, but never the last used one: a call may hold it
 * while it asks for a second plan (an allreduce's reduce, then its bcast).  Only a miss
 * with the set full gets here, so a scan is cheap beside the plan it makes room for. */
static bool scc_evict_one(struct scc_plan_set *ps)
{
    scc_plan_entry_t *v, **pp;

    if (ps->nheld < 2) {
        return false;
    }
    v = ps->held[0];
    for (uint32_t i = 1; i < ps->nheld; ++i) {
        if (ps->held[i]->used < v->used) {
            v = ps->held[i];
        }
    }
    for (pp = &ps->bucket[scc_plan_hash(ps, v->key, v->nblocks)]; *pp != v; pp = &(*pp)->chain) {
    }
    *pp = v->chain;
    ps->held[v->at] = ps->held[--ps->nheld];
    ps->held[v->at]->at = v->at;
    ps->blocks -= v->weight;
    scc_entry_free(v);
    return true;
}

/* Adds e (key and nblocks set) to the set: pinned, or as the last used, after evicting what
 * the limits ask for (counts of plans and blocks, the same on every member). */
static void scc_plan_insert(struct scc_plan_set *ps, scc_plan_entry_t *e, bool pinned, int n)
{
    uint32_t h = scc_plan_hash(ps, e->key, e->nblocks);
    scc_coll_t c = (scc_coll_t) (e->key >> 40);

    /* the rings' blocks are per rank: n times as many steps */
    e->weight = (uint64_t) e->nblocks
                    * (SCC_COLL_ALLGATHER == c || SCC_COLL_REDUCE_SCATTER_BLOCK == c ? n : 1)
                + 1;
    e->used = ++ps->clock;
    e->at = -1;
    if (!pinned) {
        while ((ps->nheld + 1 > ps->max_held || ps->blocks + e->weight > SCC_PLAN_MAX_BLOCKS)
               && scc_evict_one(ps)) {
        }
        e->at = (int32_t) ps->nheld;
        ps->held[ps->nheld++] = e;
        ps->blocks += e->weight;
    }
    e->chain = ps->bucket[h];
    ps->bucket[h] = e;
}

/* A plan not held: every member misses here alike (same calls, same plans held, same
 * evictions), makes it, and agrees; NULL on every member when one could not make it. */
static __attribute__((noinline)) const scc_plan_t *
scc_plan_miss(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a, int root, uint32_t nblocks)
{
    struct scc_plan_set *ps = m->plans;
    scc_plan_entry_t *e = calloc(1, sizeof(*e));
    bool ok = NULL != e && scc_plan_make(m, c, a, root, nblocks, &e->plan);

    if (!mca_coll_scc_agree(m, ps->comm, ok)) {
        if (NULL != e) {
            scc_entry_free(e);
        }
        ps->refused++;
        SCC_VERBOSE(1 == ps->refused ? 1 : 3, "coll:scc: comm %u (%s) size %d: %s:%s plan "
                    "(root %d, %u blocks) declined: not made on every member; the call goes "
                    "to another algorithm", m->cid, m->name, m->size, scc_coll_name(c),
                    scc_alg_name(a), root, nblocks);
        return NULL;
    }
    e->key = scc_plan_key(c, a, root);
    e->nblocks = nblocks;
    scc_plan_insert(ps, e, false, m->size);
    ps->made_calls++;
    SCC_VERBOSE(3, "coll:scc: comm %u (%s) size %d: rank %d made plan %s:%s root %d blocks %u "
                "(%u held)", m->cid, m->name, m->size, m->rank, scc_coll_name(c),
                scc_alg_name(a), root, nblocks, ps->nheld);
    return &e->plan;
}

const scc_plan_t *mca_coll_scc_plan(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a,
                                    int root, uint32_t nblocks)
{
    struct scc_plan_set *ps = m->plans;
    const uint64_t key = scc_plan_key(c, a, root);

    for (scc_plan_entry_t *e = ps->bucket[scc_plan_hash(ps, key, nblocks)]; NULL != e;
         e = e->chain) {
        if (e->key == key && e->nblocks == nblocks) {
            e->used = ++ps->clock;
            return &e->plan;
        }
    }
    return scc_plan_miss(m, c, a, root, nblocks);
}

/* ------------------------------------------------------------ setup, teardown */

/* The plan, if any, that algorithm a of collective c runs from whatever the call: its key
 * (the entry points' choices: coll_scc_barrier.c, coll_scc_run.c); false for none. */
static bool scc_plan_fixed(const mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a,
                           scc_coll_t *kc, scc_alg_t *ka, int *root)
{
    bool pml = !scc_xport_shared_all(m->xp);

    *kc = c;
    *ka = a;
    *root = 0;
    switch (c) {
    case SCC_COLL_BARRIER:
        *root = m->center;
        if (SCC_TOPO_NODES == m->topo.kind) {
            /* across nodes every barrier is a schedule */
            return SCC_ALG_FALLBACK != a && SCC_ALG_AUTO != a;
        }
        /* the flag tree needs shared memory: over pml the NoC_Msg schedule serves it */
        *ka = SCC_ALG_TREE == a && pml ? SCC_ALG_NOCMSG : a;
        return SCC_ALG_NOCMSG == *ka || SCC_ALG_NOCMSG_FANIN == *ka;
    case SCC_COLL_ALLTOALL:
    case SCC_COLL_ALLTOALLV:
        *kc = SCC_COLL_ALLTOALL;
        return SCC_ALG_NOCMSG == a && !pml;
    default:
        return false;
    }
}

int mca_coll_scc_plans_setup(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm)
{
    static const scc_coll_t fixed[] = { SCC_COLL_BARRIER, SCC_COLL_ALLTOALL,
                                        SCC_COLL_ALLTOALLV };
    struct scc_plan_set *ps = calloc(1, sizeof(*ps));
    scc_plan_entry_t *made[32];
    scc_coll_t made_c[32];
    scc_alg_t made_a[32];
    int made_root[32], nmade = 0;
    uint32_t nbuckets = 16;
    unsigned mine, all;

    if (NULL != ps) {
        ps->comm = comm;
        ps->max_held = SCC_PLAN_MAX(m->size);
        while (nbuckets < 2 * ps->max_held && nbuckets < SCC_PLAN_MAX_BUCKETS) {
            nbuckets *= 2;
        }
        ps->mask = nbuckets - 1;
        ps->bucket = calloc(nbuckets, sizeof(*ps->bucket));
        ps->held = calloc(ps->max_held, sizeof(*ps->held));
    }
    /* bit 31: the set itself; bit i: the i-th plan below (the table's algorithms) */
    mine = NULL != ps && NULL != ps->bucket && NULL != ps->held
                   && !mca_coll_scc_fault(m, "plans") ? 1u << 31 : 0;
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); ++i) {
        const scc_select_entry_t *row = &m->select.coll[fixed[i]];
        for (int k = 0; k < row->nranges && nmade < 31; ++k) {
            scc_coll_t c;
            scc_alg_t a;
            int root, dup = 0;
            if (!scc_plan_fixed(m, fixed[i], (scc_alg_t) row->alg[k], &c, &a, &root)) {
                continue;
            }
            for (int j = 0; j < nmade; ++j) {
                dup |= made_c[j] == c && made_a[j] == a;
            }
            if (dup) {
                continue;
            }
            made[nmade] = 0 != mine ? calloc(1, sizeof(scc_plan_entry_t)) : NULL;
            if (NULL != made[nmade] && scc_plan_make(m, c, a, root, 0, &made[nmade]->plan)) {
                mine |= 1u << nmade;
            }
            made_c[nmade] = c;
            made_a[nmade] = a;
            made_root[nmade++] = root;
        }
    }
    /* a plan some member could not make is dropped by all (a call asks again); a set some
       member could not make declines the communicator */
    all = mca_coll_scc_agree_mask(m, comm, mine);
    for (int j = 0; j < nmade; ++j) {
        if (NULL == made[j]) {
            continue;
        }
        if ((all & (1u << 31)) && (all & (1u << j))) {
            made[j]->key = scc_plan_key(made_c[j], made_a[j], made_root[j]);
            made[j]->nblocks = 0;
            scc_plan_insert(ps, made[j], true, m->size);
            ps->made_setup++;
        } else {
            scc_entry_free(made[j]);
        }
    }
    m->plans = ps;
    if (!(all & (1u << 31))) {
        mca_coll_scc_plans_free(m);
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    return OMPI_SUCCESS;
}

void mca_coll_scc_plans_report(const mca_coll_scc_module_t *m)
{
    const struct scc_plan_set *ps = m->plans;

    if (NULL == ps || mca_coll_scc_component.verbose < 2) {
        return;
    }
    SCC_VERBOSE(2, "coll:scc: comm %u (%s) size %d: rank %d plans: %llu at setup, %llu at "
                "calls, %llu declined, %u held", m->cid, m->name, m->size, m->rank,
                (unsigned long long) ps->made_setup, (unsigned long long) ps->made_calls,
                (unsigned long long) ps->refused, ps->nheld);
}

void mca_coll_scc_plans_free(mca_coll_scc_module_t *m)
{
    struct scc_plan_set *ps = m->plans;

    if (NULL == ps) {
        return;
    }
    for (uint32_t i = 0; NULL != ps->bucket && i <= ps->mask; ++i) {
        scc_plan_entry_t *e = ps->bucket[i];
        while (NULL != e) {
            scc_plan_entry_t *next = e->chain;
            scc_entry_free(e);
            e = next;
        }
    }
    free(ps->bucket);
    free(ps->held);
    free(ps);
    m->plans = NULL;
}
