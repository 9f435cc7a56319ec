/* coll_scc_plan.c: a rank's plans -- its schedule of each (collective, algorithm, root,
 * blocks) -- made once and kept.
 *
 * The plans that depend on the communicator only (barrier, alltoall pair lists) are made at
 * setup, where the members agree on them.  A plan that depends on the call (a root, a
 * number of blocks: any message size) is made by the first call that needs it, by each rank
 * alone: a call never agrees on a plan, so the sets of two ranks may differ (a call that
 * failed early on one, an erroneous broadcast whose receivers looked up another size, or
 * the root's as they rejoined it) and nothing follows from that -- a miss only costs this
 * rank a generation.  Whether a schedule exists depends on its key alone, the same on
 * every rank; a plan this rank has no memory for ends the job, as the others already run
 * it (coll_scc_drain.c).  The limits are sized by the communicator, so roots rotating over
 * all ranks never evict each other.  (Making every size at setup cannot be done: blocks
 * have no bound.  A hit costs a hash lookup and one store.) */
#include <string.h>

#include "coll_scc_agree.h"
#include "coll_scc_exec.h"
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
    scc_plan_entry_t **bucket;
    uint32_t mask;                          /* buckets - 1 (a power of two) */
    uint64_t clock;                         /* lookups so far: a hit costs one store */
    scc_plan_entry_t **held;                /* the evictable plans (max_held of them) */
    uint32_t nheld, max_held;
    uint64_t blocks;                        /* their weight */
    uint64_t made_setup, made_calls, refused;
};

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
    mca_coll_scc_plan_clear(&e->plan);
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

    /* the blocks of collectives moving a part per rank are per rank: up to n times as
       many steps */
    e->weight = (uint64_t) e->nblocks
                    * (SCC_COLL_ALLGATHER == c || SCC_COLL_REDUCE_SCATTER_BLOCK == c
                               || SCC_COLL_GATHER == c || SCC_COLL_SCATTER == c
                               || SCC_COLL_ALLTOALL == c
                           ? n
                           : 1)
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

/* A plan this rank does not hold: made here, alone (no agreement: see above). */
static __attribute__((noinline)) const scc_plan_t *
scc_plan_miss(mca_coll_scc_module_t *m, scc_coll_t c, scc_alg_t a, int root, uint32_t nblocks)
{
    struct scc_plan_set *ps = m->plans;
    scc_plan_entry_t *e = calloc(1, sizeof(*e));
    int made = NULL != e ? mca_coll_scc_plan_make(m, c, a, root, nblocks, &e->plan)
                         : SCC_PLAN_NOMEM;

    if (SCC_PLAN_MADE != made) {
        free(e);
        ps->refused++;
        if (SCC_PLAN_NOMEM == made) {
            (void) mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                            "there is no memory for its schedule");
        }
        SCC_VERBOSE(1 == ps->refused ? 1 : 3, "coll:scc: comm %u (%s) size %d: %s:%s plan "
                    "(root %d, %u blocks) declined: no such schedule; the call goes to "
                    "another algorithm", m->cid, m->name, m->size, scc_coll_name(c),
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
                   && !mca_coll_scc_fault(&m->members, "plans") ? 1u << 31 : 0;
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
            if (NULL != made[nmade]
                && SCC_PLAN_MADE == mca_coll_scc_plan_make(m, c, a, root, 0, &made[nmade]->plan)) {
                mine |= 1u << nmade;
            }
            made_c[nmade] = c;
            made_a[nmade] = a;
            made_root[nmade++] = root;
        }
    }
    /* a plan some member could not make is dropped by all (a call asks again); a set some
       member could not make declines the communicator */
    all = mca_coll_scc_agree_mask(&m->members, mine);
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

    if (NULL == ps || mca_coll_scc_config.verbose < 2) {
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
