/* scc_sim_coll.c: builds every rank's schedule with the component's generators (or a baseline) and replays it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_base.h"
#include "scc_sim_coll.h"
#include "scc_sim_thesis.h"

static const char *const sim_alg_names[] = { "linear", "binomial", "pairwise", "thesis_cube",
                                              "thesis_cube_noroot" };

const char *scc_sim_alg_name(int alg)
{
    if (alg >= 0 && alg < SCC_ALG_COUNT) {
        return scc_alg_name((scc_alg_t) alg);
    }
    if (alg >= SCC_SIM_LINEAR && alg < SCC_SIM_ALG_END) {
        return sim_alg_names[alg - SCC_SIM_LINEAR];
    }
    return "?";
}

int scc_sim_alg_from_name(const char *s)
{
    for (int a = SCC_SIM_LINEAR; a < SCC_SIM_ALG_END; ++a) {
        if (0 == strcmp(s, sim_alg_names[a - SCC_SIM_LINEAR])) {
            return a;
        }
    }
    return scc_alg_from_name(s);
}

int scc_sim_alg_serves(scc_coll_t coll, int alg)
{
    switch (coll) {
    case SCC_COLL_BCAST:
        return alg == SCC_ALG_JIA || alg == SCC_ALG_DOPL || alg == SCC_ALG_NOCMSG
               || alg == SCC_ALG_TREE || alg == SCC_SIM_LINEAR || alg == SCC_SIM_BINOMIAL
               || alg == SCC_SIM_THESIS_CUBE || alg == SCC_SIM_THESIS_CUBE_NOROOT;
    case SCC_COLL_REDUCE:
        return alg == SCC_ALG_NOCMSG || alg == SCC_ALG_TREE || alg == SCC_SIM_LINEAR
               || alg == SCC_SIM_BINOMIAL;
    case SCC_COLL_ALLREDUCE:
        return alg == SCC_ALG_NOCMSG || alg == SCC_SIM_LINEAR || alg == SCC_SIM_BINOMIAL;
    case SCC_COLL_BARRIER:
        return alg == SCC_ALG_NOCMSG || alg == SCC_ALG_NOCMSG_FANIN || alg == SCC_SIM_LINEAR
               || alg == SCC_SIM_BINOMIAL;
    case SCC_COLL_ALLTOALL:
        return alg == SCC_ALG_NOCMSG || alg == SCC_SIM_LINEAR || alg == SCC_SIM_PAIRWISE;
    default:
        return 0;
    }
}

/* ---------------------------------------------------------------- plan */

int scc_sim_plan(const scc_sim_params_t *p, const scc_sim_case_t *c, int n, scc_sim_plan_t *plan)
{
    double slot = scc_sim_slot(p);
    double bs = c->block_bytes > 0 ? c->block_bytes : slot;

    memset(plan, 0, sizeof(*plan));
    plan->passes = 1;
    plan->chunks_per_part = c->chunks_per_part ? c->chunks_per_part : 4;
    if (c->nlevels > 0) {
        plan->nlevels = c->nlevels;
        memcpy(plan->fanout, c->fanout, sizeof(plan->fanout));
    } else {
        /* the component's own choice for n processes */
        plan->nlevels = scc_tree_fanout_auto(n, plan->fanout);
    }
    switch (c->coll) {
    case SCC_COLL_BCAST:
    case SCC_COLL_REDUCE:
    case SCC_COLL_ALLREDUCE:
        plan->block_bytes = bs;
        plan->nblocks = c->bytes > 0 ? (uint32_t) ceil(c->bytes / bs) : 0;
        plan->total_bytes = c->bytes;
        plan->footprint = (SCC_COLL_BCAST == c->coll ? 1.0 : 2.0) * c->bytes;
        return 0;
    case SCC_COLL_BARRIER:
        plan->block_bytes = 0;
        plan->nblocks = 0;
        plan->total_bytes = 0;
        plan->footprint = 0;
        return 0;
    case SCC_COLL_ALLTOALL:
        /* one block per (src, dst) pair; passes are set once the schedules are known */
        plan->block_bytes = c->bytes;
        plan->nblocks = (uint32_t) n * (uint32_t) n;
        plan->total_bytes = (double) n * n * c->bytes;
        plan->footprint = 2.0 * n * c->bytes;
        return 0;
    default:
        return -1;
    }
}

/* ---------------------------------------------------------------- geometry */

int scc_sim_geom_init(scc_sim_geom_t *g, const scc_sim_params_t *p, const scc_sim_case_t *c, int n)
{
    int X = (int) lrint(p->X), Y = (int) lrint(p->Y), K = (int) lrint(p->K);
    int R, C;

    memset(g, 0, sizeof(*g));
    if (0 != scc_sim_mesh_init(&g->mesh, X, Y, K, n)) {
        return -1;
    }
    g->tiles.X = X;
    g->tiles.Y = Y;
    g->tiles.K = K;
    g->tiles.n = n;
    g->tiles.at = g->mesh.at;
    g->tiles.tile_of = g->mesh.tile_of;
    g->tiles.core_of = g->mesh.core_of;

    /* DOPL's grid is Pichler's processor map (seeds/000 §3.2) for any mesh: one
     * row per (tile row, core), one column per tile column, so that both
     * dimensions run between neighbours. */
    R = K * Y;
    C = X;
    g->grid_at = malloc(sizeof(int) * R * C);
    g->grid_row = malloc(sizeof(int) * n);
    g->grid_col = malloc(sizeof(int) * n);
    if (!g->grid_at || !g->grid_row || !g->grid_col) {
        scc_sim_geom_free(g);
        return -1;
    }
    for (int i = 0; i < R * C; ++i) {
        g->grid_at[i] = -1;
    }
    for (int r = 0; r < n; ++r) {
        int t = g->mesh.tile_of[r], z = g->mesh.core_of[r];
        int row = scc_sim_tile_y(X, t) * K + z, col = scc_sim_tile_x(X, t);
        g->grid_at[row * C + col] = r;
        g->grid_row[r] = row;
        g->grid_col[r] = col;
    }
    g->grid.R = R;
    g->grid.C = C;
    g->grid.n = n;
    g->grid.at = g->grid_at;
    g->grid.row = g->grid_row;
    g->grid.col = g->grid_col;
    (void) c;
    return 0;
}

void scc_sim_geom_free(scc_sim_geom_t *g)
{
    scc_sim_mesh_free(&g->mesh);
    free(g->grid_at);
    free(g->grid_row);
    free(g->grid_col);
    g->grid_at = g->grid_row = g->grid_col = NULL;
}

/* ---------------------------------------------------------------- schedules */

int scc_sim_build(const scc_sim_case_t *c, const scc_sim_plan_t *plan, const scc_sim_geom_t *g,
                  int rank, int nblocks_override, scc_sched_t *s)
{
    int n = g->mesh.n, root = c->root;
    uint32_t nb = nblocks_override >= 0 ? (uint32_t) nblocks_override : plan->nblocks;

    switch (c->coll) {
    case SCC_COLL_BCAST:
        switch (c->alg) {
        case SCC_ALG_JIA:
            return scc_sched_jia_bcast(s, n, rank, root, nb);
        case SCC_ALG_DOPL:
            return scc_sched_dopl_bcast(s, &g->grid, rank, root, nb, plan->chunks_per_part);
        case SCC_ALG_NOCMSG:
            return scc_sched_nocmsg_bcast(s, &g->tiles, rank, root, nb);
        case SCC_ALG_TREE:
            return scc_sched_tree_bcast(s, n, rank, root, plan->fanout, plan->nlevels, nb);
        case SCC_SIM_LINEAR:
            return scc_sim_linear_bcast(s, n, rank, root, nb);
        case SCC_SIM_BINOMIAL:
            return scc_sim_binomial_bcast(s, n, rank, root, nb);
        case SCC_SIM_THESIS_CUBE:
        case SCC_SIM_THESIS_CUBE_NOROOT:
            return scc_sim_thesis_cube_bcast(s, n, rank, root, nb, SCC_SIM_THESIS_CUBE == c->alg);
        }
        break;
    case SCC_COLL_REDUCE:
        switch (c->alg) {
        case SCC_ALG_NOCMSG:
            return scc_sched_nocmsg_reduce(s, &g->tiles, rank, root, nb);
        case SCC_ALG_TREE:
            return scc_sched_tree_reduce(s, n, rank, root, plan->fanout, plan->nlevels, nb);
        case SCC_SIM_LINEAR:
            return scc_sim_linear_reduce(s, n, rank, root, nb);
        case SCC_SIM_BINOMIAL:
            return scc_sim_binomial_reduce(s, n, rank, root, nb);
        }
        break;
    case SCC_COLL_ALLREDUCE:
        switch (c->alg) {
        case SCC_ALG_NOCMSG:
            return scc_sched_nocmsg_allreduce(s, &g->tiles, rank, root, nb);
        case SCC_SIM_LINEAR:
            return scc_sim_linear_allreduce(s, n, rank, root, nb);
        case SCC_SIM_BINOMIAL:
            return scc_sim_binomial_allreduce(s, n, rank, root, nb);
        }
        break;
    case SCC_COLL_BARRIER:
        switch (c->alg) {
        case SCC_ALG_NOCMSG:
            return scc_sched_nocmsg_barrier(s, &g->tiles, rank, root, 0);
        case SCC_ALG_NOCMSG_FANIN:
            return scc_sched_nocmsg_barrier(s, &g->tiles, rank, root, 1);
        case SCC_SIM_LINEAR:
            return scc_sim_linear_barrier(s, n, rank, root);
        case SCC_SIM_BINOMIAL:
            return scc_sim_binomial_barrier(s, n, rank, root);
        }
        break;
    case SCC_COLL_ALLTOALL:
        switch (c->alg) {
        case SCC_ALG_NOCMSG:
            return scc_sched_nocmsg_alltoall(s, &g->tiles, rank);
        case SCC_SIM_LINEAR:
            return scc_sim_linear_alltoall(s, n, rank);
        case SCC_SIM_PAIRWISE:
            return scc_sim_pairwise_alltoall(s, n, rank);
        }
        break;
    default:
        break;
    }
    return -1;
}

/* Every rank's schedule, grown until it fits. */
typedef struct scheds {
    int n;
    scc_sched_t *s;
    scc_sim_prog_t *progs;
} scheds_t;

static void scheds_free(scheds_t *S)
{
    if (S->s) {
        for (int r = 0; r < S->n; ++r) {
            free(S->s[r].steps);
            free(S->s[r].list);
        }
    }
    free(S->s);
    free(S->progs);
    S->s = NULL;
    S->progs = NULL;
}

static int scheds_build(scheds_t *S, const scc_sim_case_t *c, const scc_sim_plan_t *plan,
                        const scc_sim_geom_t *g, int nblocks)
{
    int n = g->mesh.n;

    S->n = n;
    S->s = calloc((size_t) n, sizeof(scc_sched_t));
    S->progs = calloc((size_t) n, sizeof(scc_sim_prog_t));
    if (!S->s || !S->progs) {
        return -1;
    }
    for (int r = 0; r < n; ++r) {
        scc_sched_t *s = &S->s[r];
        for (int tries = 0; tries < 3; ++tries) {
            if (0 != scc_sim_build(c, plan, g, r, nblocks, s)) {
                fprintf(stderr, "scc_sim: %s %s: the generator refused rank %d of %d\n",
                        scc_coll_name(c->coll), scc_sim_alg_name(c->alg), r, n);
                return -1;
            }
            if (scc_sched_fits(s)) {
                break;
            }
            if (s->nsteps > s->cap) {
                free(s->steps);
                s->cap = s->nsteps;
                s->steps = malloc(sizeof(scc_step_t) * s->cap);
            }
            if (s->list_len > s->list_cap) {
                free(s->list);
                s->list_cap = s->list_len;
                s->list = malloc(sizeof(uint32_t) * s->list_cap);
            }
            if ((s->cap && !s->steps) || (s->list_cap && !s->list)) {
                return -1;
            }
        }
        if (!scc_sched_fits(s)) {
            return -1;
        }
        S->progs[r].steps = s->steps;
        S->progs[r].nsteps = s->nsteps;
        S->progs[r].list = s->list;
        S->progs[r].list_len = s->list_len;
        S->progs[r].tile = g->mesh.tile_of[r];
    }
    return 0;
}

/* Blocking sends (RCCE_send) deadlock unless partners agree on an order: as
 * Pichler's code does for n = 2^q and for one-process units (seeds/000 §2.2,
 * §2.3; its pairs order by role: scc_sim_thesis.c), within a round a rank
 * first sends to readers above it, then receives, then sends to readers below it.  Only the
 * order inside a round changes; Jia's rounds have no in-round forwarding. */
static int rcce_reorder(scheds_t *S)
{
    int n = S->n;
    long **dest = calloc((size_t) n, sizeof(long *));
    uint32_t **tags = calloc((size_t) n, sizeof(uint32_t *));
    long *ns = calloc((size_t) n, sizeof(long));
    int rc = 0;

    if (!dest || !tags || !ns) {
        rc = -1;
        goto out;
    }
    for (int r = 0; r < n; ++r) {
        const scc_sim_prog_t *pr = &S->progs[r];
        tags[r] = malloc(sizeof(uint32_t) * (pr->nsteps + 1));
        dest[r] = malloc(sizeof(long) * (pr->nsteps + 1));
        if (!tags[r] || !dest[r]) {
            rc = -1;
            goto out;
        }
        for (long i = 0; i < pr->nsteps; ++i) {
            if (SCC_STEP_SEND == pr->steps[i].kind) {
                dest[r][ns[r]] = n;
                tags[r][ns[r]++] = pr->steps[i].tag;
            }
        }
    }
    for (int q = 0; q < n; ++q) {
        const scc_sim_prog_t *pr = &S->progs[q];
        for (long i = 0; i < pr->nsteps; ++i) {
            const scc_step_t *st = &pr->steps[i];
            int s = st->peer;
            long lo = 0, hi;
            if (SCC_STEP_SEND == st->kind || s < 0 || s >= n) {
                continue;
            }
            hi = ns[s];
            while (lo < hi) {
                long mid = (lo + hi) / 2;
                if (tags[s][mid] < st->tag) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            if (lo < ns[s] && tags[s][lo] == st->tag && q < dest[s][lo]) {
                dest[s][lo] = q;
            }
        }
    }
    for (int r = 0; r < n; ++r) {
        scc_step_t *steps = (scc_step_t *) S->progs[r].steps;
        long nsteps = S->progs[r].nsteps, k = 0;
        for (long i = 0; i < nsteps;) {
            long j = i;
            int key[64], m = 0, ok = 1, last_send_key = -1;
            scc_step_t tmp[64];
            while (j < nsteps && steps[j].round == steps[i].round) {
                j++;
            }
            if (j - i > 64) {
                ok = 0;
            }
            for (long a = i; ok && a < j; ++a, ++m) {
                key[m] = 1;
            }
            if (ok) {
                long kk = k;
                for (long a = i; a < j; ++a) {
                    if (SCC_STEP_SEND == steps[a].kind) {
                        key[a - i] = r < dest[r][kk++] ? 0 : 2;
                        /* sends keep their order (tags must rise) */
                        if (key[a - i] < last_send_key) {
                            ok = 0;
                        }
                        last_send_key = key[a - i];
                    }
                }
            }
            if (ok) {
                int out_i = 0;
                for (int want = 0; want <= 2; ++want) {
                    for (long a = i; a < j; ++a) {
                        if (key[a - i] == want) {
                            tmp[out_i++] = steps[a];
                        }
                    }
                }
                memcpy(&steps[i], tmp, sizeof(scc_step_t) * (size_t) (j - i));
            }
            for (long a = i; a < j; ++a) {
                if (SCC_STEP_SEND == steps[a].kind) {
                    k++;
                }
            }
            i = j;
        }
    }
out:
    for (int r = 0; r < n; ++r) {
        if (dest) {
            free(dest[r]);
        }
        if (tags) {
            free(tags[r]);
        }
    }
    free(dest);
    free(tags);
    free(ns);
    return rc;
}

/* Largest message of the schedules, in list entries (alltoall). */
static long max_entries(const scheds_t *S)
{
    long m = 0;
    for (int r = 0; r < S->n; ++r) {
        for (long i = 0; i < S->progs[r].nsteps; ++i) {
            const scc_step_t *st = &S->progs[r].steps[i];
            if (SCC_STEP_SEND == st->kind && (long) st->nblocks > m) {
                m = st->nblocks;
            }
        }
    }
    return m;
}

static int run_engine(const scc_sim_params_t *p, const scc_sim_case_t *c, const scc_sim_geom_t *g,
                      const scheds_t *S, double block_bytes, double total_bytes, int passes,
                      double footprint, scc_sim_out_t *out, scc_sim_result_t *keep)
{
    scc_sim_job_t job = { 0 };
    scc_sim_result_t res;
    int rc;

    for (int r = 0; r < S->n; ++r) {
        S->progs[r].footprint = footprint;
    }
    job.n = S->n;
    job.X = g->mesh.X;
    job.Y = g->mesh.Y;
    job.progs = S->progs;
    job.block_bytes = block_bytes;
    job.total_bytes = total_bytes;
    job.passes = passes;
    rc = scc_sim_engine_run(p, &job, &res);
    out->t = res.t_max;
    out->t_root = (c->root >= 0 && c->root < S->n) ? res.t_end[c->root] : res.t_max;
    out->gets = res.gets;
    out->pieces = res.pieces;
    out->link_busy_max = res.link_busy_max;
    out->link_wait = res.link_wait;
    out->port_wait = res.port_wait;
    out->failed = 0 != rc;
    if (keep) {
        *keep = res;
    } else {
        scc_sim_result_free(&res);
    }
    return rc;
}

static int run_case(const scc_sim_params_t *p, const scc_sim_case_t *c, scc_sim_out_t *out,
                    scc_sim_result_t *keep)
{
    int n = c->n > 0 ? c->n : (int) lrint(p->X * p->Y * p->K);
    scc_sim_geom_t g;
    scc_sim_plan_t plan;
    scheds_t S;
    int rc = -1;

    memset(out, 0, sizeof(*out));
    memset(&S, 0, sizeof(S));
    if (!scc_sim_alg_serves(c->coll, c->alg) || 0 != scc_sim_plan(p, c, n, &plan)
        || c->root < 0 || c->root >= n) {
        out->failed = 1;
        return -1;
    }
    if (0 != scc_sim_geom_init(&g, p, c, n)) {
        out->failed = 1;
        return -1;
    }

    if (SCC_COLL_ALLTOALL == c->coll) {
        /* every message must fit a slot: cut each pair block into passes */
        double slot = scc_sim_slot(p), blk;
        long passes;
        if (0 != scheds_build(&S, c, &plan, &g, -1)) {
            goto out;
        }
        if (c->block_bytes > 0) {
            passes = (long) ceil(c->bytes / c->block_bytes);
        } else {
            /* the fewest slices that fit the largest message into one slot */
            long e = max_entries(&S);
            passes = (long) ceil(e * c->bytes / slot);
            while (passes < (long) c->bytes && e * ceil(c->bytes / (double) passes) > slot) {
                passes++;
            }
        }
        if (passes > (long) c->bytes) {
            passes = (long) c->bytes;  /* a slice is at least one byte */
        }
        if (passes < 1) {
            passes = 1;
        }
        blk = c->bytes > 0 ? ceil(c->bytes / (double) passes) : 0;
        plan.passes = (int) passes;
        plan.block_bytes = blk;
        plan.total_bytes = (double) n * n * blk;
        if (!keep && c->max_blocks > 0 && passes > c->max_blocks) {
            long k2 = c->max_blocks, k1 = k2 / 2;
            scc_sim_out_t o1, o2;
            memset(&o1, 0, sizeof(o1));
            memset(&o2, 0, sizeof(o2));
            rc = run_engine(p, c, &g, &S, blk, plan.total_bytes, (int) k1, plan.footprint, &o1, NULL);
            rc |= run_engine(p, c, &g, &S, blk, plan.total_bytes, (int) k2, plan.footprint, &o2, NULL);
            *out = o2;
            out->t = o2.t + (double) (passes - k2) * (o2.t - o1.t) / (double) (k2 - k1);
            out->t_root = o2.t_root + (double) (passes - k2) * (o2.t_root - o1.t_root) / (double) (k2 - k1);
            out->extrapolated = 1;
        } else {
            rc = run_engine(p, c, &g, &S, blk, plan.total_bytes, (int) passes, plan.footprint, out, keep);
        }
        goto out;
    }

    if (!keep && c->max_blocks > 0 && (long) plan.nblocks > c->max_blocks) {
        /* pipelines are linear in their block count after the fill: fit the
         * line through two shorter runs of full blocks */
        long unit = SCC_ALG_DOPL == c->alg ? plan.chunks_per_part : 1;
        long k2 = (c->max_blocks / unit) * unit, k1 = ((k2 / 2) / unit) * unit;
        scc_sim_out_t o1, o2;
        scheds_t S1;
        memset(&S1, 0, sizeof(S1));
        memset(&o1, 0, sizeof(o1));
        memset(&o2, 0, sizeof(o2));
        if (k1 < 1 || 0 != scheds_build(&S1, c, &plan, &g, (int) k1)
            || (c->rcce_order && 0 != rcce_reorder(&S1))) {
            scheds_free(&S1);
            goto out;
        }
        rc = run_engine(p, c, &g, &S1, plan.block_bytes, plan.block_bytes * k1, 1, plan.footprint,
                        &o1, NULL);
        scheds_free(&S1);
        if (0 != scheds_build(&S, c, &plan, &g, (int) k2)
            || (c->rcce_order && 0 != rcce_reorder(&S))) {
            rc = -1;
            goto out;
        }
        rc |= run_engine(p, c, &g, &S, plan.block_bytes, plan.block_bytes * k2, 1, plan.footprint,
                         &o2, NULL);
        *out = o2;
        out->t = o2.t + (double) ((long) plan.nblocks - k2) * (o2.t - o1.t) / (double) (k2 - k1);
        out->t_root = o2.t_root
                      + (double) ((long) plan.nblocks - k2) * (o2.t_root - o1.t_root) / (double) (k2 - k1);
        out->extrapolated = 1;
        out->failed = o1.failed || o2.failed;
    } else {
        if (0 != scheds_build(&S, c, &plan, &g, -1) || (c->rcce_order && 0 != rcce_reorder(&S))) {
            goto out;
        }
        rc = run_engine(p, c, &g, &S, plan.block_bytes, plan.total_bytes, 1, plan.footprint, out,
                        keep);
    }
out:
    out->plan = plan;
    if (rc != 0) {
        out->failed = 1;
    }
    scheds_free(&S);
    scc_sim_geom_free(&g);
    return rc;
}

int scc_sim_run_case(const scc_sim_params_t *p, const scc_sim_case_t *c, scc_sim_out_t *out)
{
    return run_case(p, c, out, NULL);
}

int scc_sim_run_case_full(const scc_sim_params_t *p, const scc_sim_case_t *c, scc_sim_out_t *out,
                          scc_sim_result_t *res)
{
    return run_case(p, c, out, res);
}
