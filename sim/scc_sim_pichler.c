/* scc_sim_pichler.c: seeds/000's Cube and DOPL cells, the model's runs of them, and the DOPL calibration. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_coll.h"
#include "scc_sim_exp.h"
#include "scc_sim_fit.h"
#include "scc_sim_model.h"
#include "scc_sim_out.h"
#include "scc_sim_pichler.h"

const double pich_sizes[PICH_NS] = { 50000, 190000, 1900000 };
const int pich_dopl_pipe[PICH_ND] = { 8192, 4096, 2048, 1024, 512, 256 };
const double pich_dopl_meas[PICH_ND][PICH_NS] = {
    { 0.001598654999626, 0.006509817000452, 0.109650387999570 },
    { 0.001059310999874, 0.005065019999996, 0.075469655999823 },
    { 0.000858949999947, 0.004445106000258, 0.065567735000289 },
    { 0.000925754000106, 0.004538215999976, 0.072228716999565 },
    { 0.001181749999579, 0.005174123000448, 0.083540251999623 },
    { 0.001639528999942, 0.006994272999804, 0.100209688999583 },
};
const int pich_cube_part[PICH_NC] = { 524288, 262144, 131072, 65536, 32768, 16384,
                                      8192,   4096,   2048,   1024,  512,   256 };
const double pich_cube_meas[PICH_NC][PICH_NS] = {
    { NAN, NAN, 0.827701 },           { NAN, NAN, 0.701350 },
    { NAN, 0.035007, 0.651371 },      { NAN, 0.026863, 0.638883 },
    { 0.006345, 0.024891, 0.618031 }, { 0.004690, 0.025908, 0.598216 },
    { 0.003882, 0.024354, 0.583514 }, { 0.003405, 0.025761, 0.572945 },
    { 0.003074, 0.026584, 0.571021 }, { 0.002984, 0.027664, 0.569693 },
    { 0.003050, 0.028557, 0.572382 }, { 0.003301, 0.030058, 0.577638 },
};

/* the component's Jia schedule in RCCE's order, blocking, timed at the root */
const pich_cube_t pich_cube_preset = { SCC_ALG_JIA, 1, 0 };

void scc_sim_rcce(scc_sim_params_t *q, const scc_sim_params_t *p, int blocking)
{
    *q = *p;
    q->window = 1;
    q->slot_bytes = p->mpb_bytes;
    q->sync = blocking ? SCC_SIM_SYNC_BLOCKING : SCC_SIM_SYNC_EAGER;
}

double pich_rcce_barrier(const scc_sim_params_t *p, int n)
{
    int X = (int) lrint(p->X), K = (int) lrint(p->K);
    double t = 0;
    for (int r = 1; r < n; ++r) {
        t += 2.0 * scc_sim_flag_ns(p, scc_sim_hops(X, 0, r / K));
    }
    return t;
}

double pich_dopl_time(const scc_sim_params_t *p, double bytes, int pipe, long maxb, int *failed)
{
    scc_sim_params_t q;
    scc_sim_case_t c;
    scc_sim_out_t o;

    scc_sim_rcce(&q, p, 0);
    memset(&c, 0, sizeof(c));
    c.coll = SCC_COLL_BCAST;
    c.alg = SCC_ALG_DOPL;
    c.root = 0;
    c.bytes = bytes;
    c.block_bytes = pipe;
    c.chunks_per_part = (uint32_t) (8192 / pipe);
    c.max_blocks = maxb;
    if (0 != scc_sim_run_case(&q, &c, &o) && failed) {
        *failed = 1;
    }
    /* timed on rank 0 from a barrier to after a trailing barrier: max finish + barrier */
    return o.t + pich_rcce_barrier(&q, (int) lrint(p->X * p->Y * p->K));
}

double pich_cube_time(const scc_sim_params_t *p, double bytes, int part, long maxb, int *failed,
                      const pich_cube_t *how)
{
    scc_sim_params_t q;
    scc_sim_case_t c;
    scc_sim_out_t o;

    scc_sim_rcce(&q, p, how->blocking);
    memset(&c, 0, sizeof(c));
    c.coll = SCC_COLL_BCAST;
    c.alg = how->alg;
    c.root = 0;
    c.bytes = bytes;
    c.block_bytes = part;
    c.max_blocks = maxb;
    /* the component's schedule gets a deadlock-free order for blocking sends
     * (eager sends with one buffer need it too); the thesis's code has its own */
    c.rcce_order = SCC_ALG_JIA == how->alg;
    if (0 != scc_sim_run_case(&q, &c, &o) && failed) {
        *failed = 1;
    }
    /* the thesis timed the root only, no trailing barrier (seeds/000 §10.5) */
    return how->at_last ? o.t : o.t_root;
}

void pich_eval_dopl(const scc_sim_params_t *p, long maxb, pich_table_t *t)
{
    for (int i = 0; i < PICH_ND; ++i) {
        for (int s = 0; s < PICH_NS; ++s) {
            t->dopl[i][s] = pich_dopl_time(p, pich_sizes[s], pich_dopl_pipe[i], maxb, &t->failed) * 1e-9;
        }
    }
}

void pich_eval_cube(const scc_sim_params_t *p, long maxb, const pich_cube_t *how, pich_table_t *t)
{
    for (int i = 0; i < PICH_NC; ++i) {
        for (int s = 0; s < PICH_NS; ++s) {
            t->cube[i][s] = isnan(pich_cube_meas[i][s])
                                ? NAN
                                : pich_cube_time(p, pich_sizes[s], pich_cube_part[i], maxb, &t->failed, how)
                                      * 1e-9;
        }
    }
}

pich_errs_t pich_errs(const double m[][PICH_NS], const double (*meas)[PICH_NS], int rows)
{
    pich_errs_t r = { 0, INFINITY, -INFINITY, 0, 0 };
    for (int i = 0; i < rows; ++i) {
        for (int s = 0; s < PICH_NS; ++s) {
            if (!isnan(meas[i][s])) {
                double l = log(m[i][s] / meas[i][s]), d = m[i][s] / meas[i][s] - 1;
                r.rms += l * l;
                r.lo = fmin(r.lo, d);
                r.hi = fmax(r.hi, d);
                r.in25 += fabs(d) <= 0.25;
                r.n++;
            }
        }
    }
    r.rms = r.n ? sqrt(r.rms / r.n) : 0;
    return r;
}

double pich_ratio(const double d[][PICH_NS], const double c[][PICH_NS], int s)
{
    return c[PICH_CUBE_CHOSEN][s] / d[PICH_DOPL_CHOSEN][s];
}

/* ---------------------------------------------------------------- calibration */

/* The fitted costs: per-message overhead o and per-byte copy cost g, each
 * split 1:2 between put and get (only the sums are identifiable: notes/
 * scc-model-feasibility.md), the cache miss cost, the effective cache, and
 * (a variant) the extra per-hop cost. */
static void apply(scc_sim_params_t *p, const double *x, int dim)
{
    double o = exp(x[0]), g = exp(x[1]);
    p->o_put = o / 3;
    p->o_get = 2 * o / 3;
    p->put_ns_b = g / 3;
    p->get_ns_b = 2 * g / 3;
    p->mem_ns_b = exp(x[2]);
    p->cache_bytes = exp(x[3]);
    if (dim > 4) {
        p->hop_line_ns = exp(x[4]);
    }
}

typedef struct fitarg {
    scc_sim_params_t base;
    int dim, evals;
} fitarg_t;

static double dopl_cost(const double *x, void *arg)
{
    fitarg_t *a = arg;
    scc_sim_params_t p = a->base;
    pich_table_t t;
    double e = 0;

    memset(&t, 0, sizeof(t));
    apply(&p, x, a->dim);
    pich_eval_dopl(&p, PICH_FIT_MAX_BLOCKS, &t);
    for (int i = 0; i < PICH_ND; ++i) {
        for (int s = 0; s < PICH_NS; ++s) {
            double l = log(t.dopl[i][s] / pich_dopl_meas[i][s]);
            e += l * l;
        }
    }
    a->evals++;
    return t.failed ? 1e9 : e;
}

/* The error surface has several minima: the fit starts from p's costs and
 * (starts = 2) from a fixed neutral point, restarts each simplex until a
 * restart gains nothing, and keeps the better.  Inside the fit runs are
 * extrapolated beyond PICH_FIT_MAX_BLOCKS. */
double pich_fit_dopl(scc_sim_params_t *p, int starts, int free_hop, int *evals)
{
    /* o, g, mem, cache, hop: the hop start is the routers' own 2 x 4 cycles */
    static const double neutral[5] = { 3000, 6.0, 8.0, 135000, 7.5 };
    double best[5] = { 0, 0, 0, 0, 0 }, ebest = INFINITY;
    int dim = free_hop ? 5 : 4;
    fitarg_t a;

    a.base = *p;
    a.dim = dim;
    a.evals = 0;
    for (int start = 0; start < starts; ++start) {
        double x[5], step[5] = { 0.3, 0.3, 0.3, 0.3, 0.5 }, e;
        x[0] = log(start ? neutral[0] : p->o_put + p->o_get);
        x[1] = log(start ? neutral[1] : p->put_ns_b + p->get_ns_b);
        x[2] = log(start ? neutral[2] : p->mem_ns_b);
        x[3] = log(start ? neutral[3] : p->cache_bytes);
        x[4] = log(start || p->hop_line_ns <= 0 ? neutral[4] : p->hop_line_ns);
        e = scc_sim_minimize(dopl_cost, &a, x, step, dim, 600, 1e-6);
        for (int r = 0; r < 4; ++r) {
            double e2 = scc_sim_minimize(dopl_cost, &a, x, step, dim, 600, 1e-6);
            int done = e - e2 < 1e-6;
            e = e2 < e ? e2 : e;
            if (done) {
                break;
            }
        }
        if (e < ebest) {
            ebest = e;
            memcpy(best, x, sizeof(best));
        }
    }
    apply(p, best, dim);
    *evals = a.evals;
    return sqrt(ebest / (PICH_ND * PICH_NS));
}

/* ---------------------------------------------------------------- output */

void pich_write_table(FILE *f, const double m[][PICH_NS], const double (*meas)[PICH_NS], const int *blk,
                      int rows, const char *what)
{
    char b1[32], b2[32], b3[32];
    pich_errs_t e = pich_errs(m, meas, rows);
    fprintf(f, "| %s (B) | 50 kB thesis | model | err | 190 kB thesis | model | err | 1.9 MB thesis | model | err |\n", what);
    fprintf(f, "|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < rows; ++i) {
        fprintf(f, "| %d |", blk[i]);
        for (int s = 0; s < PICH_NS; ++s) {
            if (isnan(meas[i][s])) {
                fprintf(f, " X | | |");
                continue;
            }
            fprintf(f, " %s | %s | %s |", scc_sim_fmt_time(meas[i][s] * 1e9, b1, sizeof(b1)),
                    scc_sim_fmt_time(m[i][s] * 1e9, b2, sizeof(b2)),
                    scc_sim_fmt_err(m[i][s], meas[i][s], b3, sizeof(b3)));
        }
        fprintf(f, "\n");
    }
    fprintf(f, "\n%d cells: rms log error %.3f, errors %+.0f%% .. %+.0f%%, %d of %d within +-25%%.\n", e.n,
            e.rms, 100 * e.lo, 100 * e.hi, e.in25, e.n);
}
