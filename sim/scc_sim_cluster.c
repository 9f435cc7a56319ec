/* scc_sim_cluster.c: builds every rank's hierarchical schedule with the component's generators
 * and arguments, and replays them on nodes joined by a network. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_cluster.h"
#include "scc_sim_engine.h"

/* The component's defaults that decide its blocks (restated; coll_scc_xport.c,
 * coll_scc_component.c, coll_scc_xport.h, coll_scc_run.c) */
#define CL_PIPE 8192            /* coll_scc_pipe_size */
#define CL_SLOT 16384           /* coll_scc_shm_slot_size */
#define CL_CMA_MIN 8192         /* SCC_CMA_MIN: single copy from here, cores not oversubscribed */
#define CL_CMA_BLOCK 262144     /* coll_scc_cma_block: a broadcast's blocks with single copy */
#define CL_DOPL_CHUNKS 4        /* coll_scc_dopl_chunks */
#define CL_RED_CMA_BLOCK 65536  /* SCC_REDUCE_CMA_BLOCK */
#define CL_RED_CMA_MAX 262144   /* SCC_REDUCE_CMA_MAX */

int scc_sim_cluster_init(scc_sim_cluster_t *cl, int nodes, int cores)
{
    int n = nodes * cores, *key, rc;

    memset(cl, 0, sizeof(*cl));
    if (nodes < 1 || cores < 1) {
        return -1;
    }
    key = malloc(sizeof(int) * n);
    if (NULL == key) {
        return -1;
    }
    for (int r = 0; r < n; ++r) {
        key[r] = r / cores;
    }
    rc = scc_nodes_build(&cl->nd, n, key, 0, 0);
    free(key);
    cl->nodes = nodes;
    cl->cores = cores;
    return 0 == rc ? 0 : -1;
}

void scc_sim_cluster_free(scc_sim_cluster_t *cl)
{
    scc_nodes_free(&cl->nd);
}

/* The component's "tree" allreduce: a reduce to rank 0, then a bcast from it. */
static int two_phase(const scc_sim_ccase_t *c)
{
    return SCC_COLL_ALLREDUCE == c->coll
           && (SCC_INTER_BINOMIAL == c->inter || SCC_INTER_TREE == c->inter);
}

double scc_sim_cluster_block(const scc_sim_ccase_t *c, int *copy)
{
    const int cma = !c->no_cma;
    double bs = CL_PIPE;

    if (SCC_COLL_BARRIER == c->coll) {
        *copy = 0;
        return 0;
    }
    if (SCC_COLL_BCAST == c->coll) {
        /* a broadcast's blocks are stable: single copy wherever it works */
        if (cma && c->bytes >= CL_CMA_MIN) {
            bs = CL_CMA_BLOCK;
        }
        if (SCC_INTER_DOPL == c->inter && !cma) {
            bs = CL_SLOT / CL_DOPL_CHUNKS;   /* a part must fit a slot */
        }
        *copy = !cma;
    } else {
        /* reductions: 64 KB single-copy blocks for medium sizes, unless the schedule changes
           a block right after sending it (the butterfly); slot-sized blocks are copied */
        if (cma && c->bytes >= CL_CMA_MIN && c->bytes < CL_RED_CMA_MAX
            && SCC_INTER_BUTTERFLY != c->inter) {
            bs = CL_RED_CMA_BLOCK;
        }
        *copy = !cma || bs <= CL_SLOT;
    }
    if (c->block_bytes > 0) {
        bs = c->block_bytes;
    }
    return bs;
}

static int gen(const scc_sim_cluster_t *cl, const scc_sim_ccase_t *c, int phase, int rank,
               uint32_t nb, scc_sched_t *s)
{
    scc_hier_t h;

    memset(&h, 0, sizeof(h));
    h.nodes = &cl->nd;
    h.inter = c->inter;
    h.fanout = &c->fanout;
    h.nlevels = 1;
    h.chunks_per_part = CL_DOPL_CHUNKS;
    switch (c->coll) {
    case SCC_COLL_BCAST: return scc_sched_hier_bcast(s, &h, rank, c->root, nb);
    case SCC_COLL_REDUCE: return scc_sched_hier_reduce(s, &h, rank, c->root, nb);
    case SCC_COLL_ALLREDUCE:
        if (two_phase(c)) {
            return 0 == phase ? scc_sched_hier_reduce(s, &h, rank, 0, nb)
                              : scc_sched_hier_bcast(s, &h, rank, 0, nb);
        }
        return scc_sched_hier_allreduce(s, &h, rank, nb);
    case SCC_COLL_BARRIER: return scc_sched_hier_barrier(s, &h, rank);
    default: return -1;
    }
}

/* Rank's schedule of one phase into freshly allocated storage, generated once into the
 * scratch schedule *w (grown and generated again only when it did not fit). */
static int gen_alloc(const scc_sim_cluster_t *cl, const scc_sim_ccase_t *c, int phase, int rank,
                     uint32_t nb, scc_sched_t *w, scc_sched_t *s)
{
    memset(s, 0, sizeof(*s));
    for (int tries = 0; tries < 2; ++tries) {
        scc_sched_reset(w);
        if (0 != gen(cl, c, phase, rank, nb, w)) {
            return -1;
        }
        if (scc_sched_fits(w)) {
            break;
        }
        free(w->steps);
        free(w->list);
        w->cap = 2 * w->nsteps + 16;
        w->list_cap = 2 * w->list_len + 16;
        w->steps = malloc(sizeof(scc_step_t) * w->cap);
        w->list = malloc(sizeof(uint32_t) * w->list_cap);
        if (!w->steps || !w->list) {
            w->cap = w->list_cap = 0;
            return -1;
        }
    }
    *s = *w;
    s->steps = malloc(sizeof(scc_step_t) * (w->nsteps + 1));
    s->list = malloc(sizeof(uint32_t) * (w->list_len + 1));
    if (!s->steps || !s->list || !scc_sched_fits(w)) {
        return -1;
    }
    memcpy(s->steps, w->steps, sizeof(scc_step_t) * w->nsteps);
    memcpy(s->list, w->list, sizeof(uint32_t) * w->list_len);
    s->cap = w->nsteps;
    s->list_cap = w->list_len;
    return 0;
}

static void scheds_free(scc_sched_t *s, int n)
{
    for (int r = 0; s && r < n; ++r) {
        free(s[r].steps);
        free(s[r].list);
    }
    free(s);
}

/* node_first: the leader's combining of its node's blocks (receive-reduces from its own
 * node) moved ahead of everything else, in their order. */
static int node_first(const scc_sim_cluster_t *cl, int r, scc_sched_t *s)
{
    const int *node_of = cl->nd.node_of;
    scc_step_t *v = malloc(sizeof(scc_step_t) * (s->nsteps + 1));
    long k = 0;

    if (NULL == v) {
        return -1;
    }
    for (int pass = 0; pass < 2; ++pass) {
        for (long i = 0; i < s->nsteps; ++i) {
            const scc_step_t *st = &s->steps[i];
            int mine = SCC_STEP_RECV_REDUCE == st->kind && node_of[st->peer] == node_of[r];
            if (mine == (0 == pass)) {
                v[k++] = *st;
            }
        }
    }
    free(s->steps);
    s->steps = v;
    return 0;
}

/* Every rank's steps of the call with nb blocks; a two-phase allreduce's bcast follows its
 * reduce on each rank, its tags after every tag of the reduce. */
static scc_sched_t *build(const scc_sim_cluster_t *cl, const scc_sim_ccase_t *c, uint32_t nb)
{
    const int n = cl->nd.n;
    scc_sched_t *s = calloc((size_t) n, sizeof(scc_sched_t)), w;
    uint32_t shift = 0;

    memset(&w, 0, sizeof(w));
    if (NULL == s) {
        return NULL;
    }
    for (int r = 0; r < n; ++r) {
        if (0 != gen_alloc(cl, c, 0, r, nb, &w, &s[r])) {
            fprintf(stderr, "scc_sim: cluster %s %s: the generator refused rank %d of %d\n",
                    scc_coll_name(c->coll), scc_inter_name(c->inter), r, n);
            goto fail;
        }
        for (long i = 0; i < s[r].nsteps; ++i) {
            shift = s[r].steps[i].tag + 1 > shift ? s[r].steps[i].tag + 1 : shift;
        }
        if (c->node_first && 0 != node_first(cl, r, &s[r])) {
            goto fail;
        }
    }
    for (int r = 0; two_phase(c) && r < n; ++r) {
        scc_sched_t b;
        scc_step_t *all;
        int ok = 0 == gen_alloc(cl, c, 1, r, nb, &w, &b);
        all = ok ? realloc(s[r].steps, sizeof(scc_step_t) * (s[r].nsteps + b.nsteps + 1)) : NULL;
        for (long i = 0; NULL != all && i < b.nsteps; ++i) {
            all[s[r].nsteps + i] = b.steps[i];
            all[s[r].nsteps + i].tag += shift;
            all[s[r].nsteps + i].round += s[r].nrounds;
        }
        free(b.steps);
        free(b.list);
        if (NULL == all) {
            goto fail;
        }
        s[r].steps = all;
        s[r].nsteps += b.nsteps;
    }
    free(w.steps);
    free(w.list);
    return s;
fail:
    free(w.steps);
    free(w.list);
    scheds_free(s, n);
    return NULL;
}

/* One replay of nb blocks of bs bytes (the last one partial when total says so). */
static int replay(const scc_sim_params_t *p, const scc_sim_cluster_t *cl,
                  const scc_sim_ccase_t *c, uint32_t nb, double bs, double total, int copy,
                  scc_sim_cout_t *out)
{
    const int n = cl->nd.n;
    scc_sched_t *s = build(cl, c, nb);
    scc_sim_prog_t *progs = calloc((size_t) n, sizeof(scc_sim_prog_t));
    scc_sim_job_t job = { 0 };
    scc_sim_result_t res;
    int rc = -1;

    if (NULL == s || NULL == progs) {
        goto out;
    }
    for (int r = 0; r < n; ++r) {
        progs[r].steps = s[r].steps;
        progs[r].nsteps = s[r].nsteps;
        progs[r].list = s[r].list;
        progs[r].list_len = s[r].list_len;
        progs[r].tile = cl->nd.node_of[r];      /* a node is a tile */
        progs[r].footprint = (SCC_COLL_BCAST == c->coll ? 1.0 : 2.0) * total;
    }
    job.n = n;
    job.X = cl->nd.C;
    job.Y = cl->nd.R;
    job.progs = progs;
    job.block_bytes = bs;
    job.total_bytes = total;
    job.passes = 1;
    job.copy = copy;
    rc = scc_sim_engine_run(p, &job, &res);
    out->t = res.t_max;
    out->t_root = c->root >= 0 && c->root < n ? res.t_end[c->root] : res.t_max;
    out->gets = res.gets;
    scc_sim_result_free(&res);
out:
    scheds_free(s, n);
    free(progs);
    return rc;
}

int scc_sim_cluster_run(const scc_sim_params_t *p, const scc_sim_cluster_t *cl,
                        const scc_sim_ccase_t *c, scc_sim_cout_t *out)
{
    int copy, rc;
    double bs = scc_sim_cluster_block(c, &copy);
    uint32_t nb = bs > 0 && c->bytes > 0 ? (uint32_t) ceil(c->bytes / bs) : 0;
    /* pipelines grow by the block, DOPL by the part, a ring by one block per leader */
    long unit = SCC_INTER_DOPL == c->inter ? CL_DOPL_CHUNKS
                : SCC_INTER_RING == c->inter ? cl->nodes : 1;
    long k2 = c->max_blocks / unit * unit, k1;

    memset(out, 0, sizeof(*out));
    out->block_bytes = bs;
    out->nblocks = nb;
    if (c->root < 0 || c->root >= cl->nd.n) {
        out->failed = 1;
        return -1;
    }
    k2 = k2 < 2 * unit ? 2 * unit : k2;
    k1 = k2 / 2 / unit * unit;
    if (c->max_blocks <= 0 || (long) nb <= k2) {
        rc = replay(p, cl, c, nb, bs, c->bytes, copy, out);
    } else {
        /* linear in the blocks after the fill: the line through two shorter runs */
        scc_sim_cout_t o1, o2;
        memset(&o1, 0, sizeof(o1));
        memset(&o2, 0, sizeof(o2));
        rc = replay(p, cl, c, (uint32_t) k1, bs, bs * k1, copy, &o1);
        rc |= replay(p, cl, c, (uint32_t) k2, bs, bs * k2, copy, &o2);
        out->t = o2.t + (double) ((long) nb - k2) * (o2.t - o1.t) / (double) (k2 - k1);
        out->t_root = o2.t_root
                      + (double) ((long) nb - k2) * (o2.t_root - o1.t_root) / (double) (k2 - k1);
        out->gets = o2.gets;
        out->extrapolated = 1;
    }
    out->failed = 0 != rc;
    return rc;
}
