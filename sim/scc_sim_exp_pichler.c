/* scc_sim_exp_pichler.c: seeds/000's Cube and DOPL tuning tables on the model, the calibration, and the Cube question. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_coll.h"
#include "scc_sim_exp.h"
#include "scc_sim_fit.h"
#include "scc_sim_model.h"
#include "scc_sim_out.h"

/* seeds/000 §4.2 and §4.3 (notes/seed-000-pichler.md): minimum times in
 * seconds, 48 cores, root 0.  NAN: the block is larger than the message. */
#define NS 3
#define ND 6
#define NC 12
static const double sizes[NS] = { 50000, 190000, 1900000 };
static const int dopl_pipe[ND] = { 8192, 4096, 2048, 1024, 512, 256 };
static const double dopl_meas[ND][NS] = {
    { 0.001598654999626, 0.006509817000452, 0.109650387999570 },
    { 0.001059310999874, 0.005065019999996, 0.075469655999823 },
    { 0.000858949999947, 0.004445106000258, 0.065567735000289 },
    { 0.000925754000106, 0.004538215999976, 0.072228716999565 },
    { 0.001181749999579, 0.005174123000448, 0.083540251999623 },
    { 0.001639528999942, 0.006994272999804, 0.100209688999583 },
};
static const int cube_part[NC] = { 524288, 262144, 131072, 65536, 32768, 16384,
                                   8192,   4096,   2048,   1024,  512,   256 };
static const double cube_meas[NC][NS] = {
    { NAN, NAN, 0.827701 },           { NAN, NAN, 0.701350 },
    { NAN, 0.035007, 0.651371 },      { NAN, 0.026863, 0.638883 },
    { 0.006345, 0.024891, 0.618031 }, { 0.004690, 0.025908, 0.598216 },
    { 0.003882, 0.024354, 0.583514 }, { 0.003405, 0.025761, 0.572945 },
    { 0.003074, 0.026584, 0.571021 }, { 0.002984, 0.027664, 0.569693 },
    { 0.003050, 0.028557, 0.572382 }, { 0.003301, 0.030058, 0.577638 },
};
#define CUBE_CHOSEN 7   /* 4096, the thesis's choice */
#define DOPL_CHOSEN 2   /* 2048 */

/* Extrapolate runs longer than this many blocks (checked in the report);
 * the fit's many runs use shorter ones. */
#define PICH_MAX_BLOCKS 512
#define FIT_MAX_BLOCKS 128

void scc_sim_rcce(scc_sim_params_t *q, const scc_sim_params_t *p, int blocking)
{
    *q = *p;
    q->window = 1;
    q->slot_bytes = p->mpb_bytes;
    q->sync = blocking ? SCC_SIM_SYNC_BLOCKING : SCC_SIM_SYNC_EAGER;
}

/* RCCE_barrier: rank 0 reads every rank's flag, then writes every release
 * flag (seeds/003 §4.4); the DOPL timings include one (seeds/000 §5). */
static double rcce_barrier(const scc_sim_params_t *p, int n)
{
    int X = (int) lrint(p->X), K = (int) lrint(p->K);
    double t = 0;
    for (int r = 1; r < n; ++r) {
        t += 2.0 * scc_sim_flag_ns(p, scc_sim_hops(X, 0, r / K));
    }
    return t;
}

static double dopl_time(const scc_sim_params_t *p, double bytes, int pipe, long maxb, int *failed)
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
    return o.t + rcce_barrier(&q, (int) lrint(p->X * p->Y * p->K));
}

static double cube_time(const scc_sim_params_t *p, double bytes, int part, long maxb, int *failed,
                        int blocking)
{
    scc_sim_params_t q;
    scc_sim_case_t c;
    scc_sim_out_t o;

    scc_sim_rcce(&q, p, blocking);
    memset(&c, 0, sizeof(c));
    c.coll = SCC_COLL_BCAST;
    c.alg = SCC_ALG_JIA;
    c.root = 0;
    c.bytes = bytes;
    c.block_bytes = part;
    c.max_blocks = maxb;
    c.rcce_order = 1;  /* the thesis's order; eager sends with one buffer need it too */
    if (0 != scc_sim_run_case(&q, &c, &o) && failed) {
        *failed = 1;
    }
    /* timed on the root only, no trailing barrier (seeds/000 §10.5) */
    return o.t_root;
}

typedef struct table {
    double dopl[ND][NS];
    double cube[NC][NS];
    int failed;
} table_t;

static void eval_dopl(const scc_sim_params_t *p, long maxb, table_t *t)
{
    for (int i = 0; i < ND; ++i) {
        for (int s = 0; s < NS; ++s) {
            t->dopl[i][s] = dopl_time(p, sizes[s], dopl_pipe[i], maxb, &t->failed) * 1e-9;
        }
    }
}

static void eval_cube(const scc_sim_params_t *p, long maxb, int blocking, table_t *t)
{
    for (int i = 0; i < NC; ++i) {
        for (int s = 0; s < NS; ++s) {
            t->cube[i][s] = isnan(cube_meas[i][s])
                                ? NAN
                                : cube_time(p, sizes[s], cube_part[i], maxb, &t->failed, blocking) * 1e-9;
        }
    }
}

/* ---------------------------------------------------------------- calibration */

/* The fitted costs: per-message overhead o and per-byte copy cost g, each
 * split 1:2 between put and get (only the sums are identifiable: notes/
 * scc-model-feasibility.md), the cache miss cost and the effective cache. */
static void apply(scc_sim_params_t *p, const double *x)
{
    double o = exp(x[0]), g = exp(x[1]);
    p->o_put = o / 3;
    p->o_get = 2 * o / 3;
    p->put_ns_b = g / 3;
    p->get_ns_b = 2 * g / 3;
    p->mem_ns_b = exp(x[2]);
    p->cache_bytes = exp(x[3]);
}

typedef struct fitarg {
    scc_sim_params_t base;
    int evals;
} fitarg_t;

static double dopl_cost(const double *x, void *arg)
{
    fitarg_t *a = arg;
    scc_sim_params_t p = a->base;
    table_t t;
    double e = 0;

    memset(&t, 0, sizeof(t));
    apply(&p, x);
    eval_dopl(&p, FIT_MAX_BLOCKS, &t);
    for (int i = 0; i < ND; ++i) {
        for (int s = 0; s < NS; ++s) {
            double l = log(t.dopl[i][s] / dopl_meas[i][s]);
            e += l * l;
        }
    }
    a->evals++;
    return t.failed ? 1e9 : e;
}

static double rms_log(const double m[][NS], const double (*meas)[NS], int rows)
{
    double e = 0;
    int k = 0;
    for (int i = 0; i < rows; ++i) {
        for (int s = 0; s < NS; ++s) {
            if (!isnan(meas[i][s])) {
                double l = log(m[i][s] / meas[i][s]);
                e += l * l;
                k++;
            }
        }
    }
    return k ? sqrt(e / k) : 0;
}

/* Fits the DOPL costs of p (in place); returns the rms log error.  The error
 * surface has several minima: the fit starts from p's costs and from a fixed
 * neutral point, restarts each simplex until a restart gains nothing, and
 * keeps the better.  Inside the fit runs are extrapolated beyond FIT_MAX_BLOCKS. */
static double fit_dopl(scc_sim_params_t *p, int *evals)
{
    static const double neutral[4] = { 3000, 6.0, 8.0, 135000 };  /* o, g, mem, cache */
    double best[4], ebest = INFINITY;
    fitarg_t a;

    a.base = *p;
    a.evals = 0;
    for (int start = 0; start < 2; ++start) {
        double x[4], step[4] = { 0.3, 0.3, 0.3, 0.3 }, e;
        x[0] = log(start ? neutral[0] : p->o_put + p->o_get);
        x[1] = log(start ? neutral[1] : p->put_ns_b + p->get_ns_b);
        x[2] = log(start ? neutral[2] : p->mem_ns_b);
        x[3] = log(start ? neutral[3] : p->cache_bytes);
        e = scc_sim_minimize(dopl_cost, &a, x, step, 4, 600, 1e-6);
        for (int r = 0; r < 4; ++r) {
            double e2 = scc_sim_minimize(dopl_cost, &a, x, step, 4, 600, 1e-6);
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
    apply(p, best);
    *evals = a.evals;
    return sqrt(ebest / (ND * NS));
}

/* ---------------------------------------------------------------- report */

static void write_dopl(FILE *f, const table_t *t)
{
    char b1[32], b2[32], b3[32];
    fprintf(f, "| chunk (B) | 50 kB thesis | model | err | 190 kB thesis | model | err | 1.9 MB thesis | model | err |\n");
    fprintf(f, "|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < ND; ++i) {
        fprintf(f, "| %d |", dopl_pipe[i]);
        for (int s = 0; s < NS; ++s) {
            fprintf(f, " %s | %s | %s |", scc_sim_fmt_time(dopl_meas[i][s] * 1e9, b1, sizeof(b1)),
                    scc_sim_fmt_time(t->dopl[i][s] * 1e9, b2, sizeof(b2)),
                    scc_sim_fmt_err(t->dopl[i][s], dopl_meas[i][s], b3, sizeof(b3)));
        }
        fprintf(f, "\n");
    }
}

static void write_cube(FILE *f, const table_t *t)
{
    char b1[32], b2[32], b3[32];
    fprintf(f, "| block (B) | 50 kB thesis | model | err | 190 kB thesis | model | err | 1.9 MB thesis | model | err |\n");
    fprintf(f, "|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < NC; ++i) {
        fprintf(f, "| %d |", cube_part[i]);
        for (int s = 0; s < NS; ++s) {
            if (isnan(cube_meas[i][s])) {
                fprintf(f, " X | | |");
                continue;
            }
            fprintf(f, " %s | %s | %s |", scc_sim_fmt_time(cube_meas[i][s] * 1e9, b1, sizeof(b1)),
                    scc_sim_fmt_time(t->cube[i][s] * 1e9, b2, sizeof(b2)),
                    scc_sim_fmt_err(t->cube[i][s], cube_meas[i][s], b3, sizeof(b3)));
        }
        fprintf(f, "\n");
    }
}

/* Shape statistics of a table (thesis or model). */
typedef struct shape {
    double ratio[NS];        /* Cube(4 KB) / DOPL(2 KB) */
    int dopl_best[NS];       /* chunk of the fastest DOPL */
    double dopl_ends[NS];    /* min(T(8 KB), T(256 B)) / T(best) */
    double cube_flat[NS];    /* max/min of Cube over 1..8 KB blocks */
} shape_t;

static void shapes(const double d[ND][NS], const double c[NC][NS], shape_t *sh)
{
    for (int s = 0; s < NS; ++s) {
        int b = 0;
        double lo = INFINITY, hi = 0;
        sh->ratio[s] = c[CUBE_CHOSEN][s] / d[DOPL_CHOSEN][s];
        for (int i = 1; i < ND; ++i) {
            if (d[i][s] < d[b][s]) {
                b = i;
            }
        }
        sh->dopl_best[s] = dopl_pipe[b];
        sh->dopl_ends[s] = fmin(d[0][s], d[ND - 1][s]) / d[b][s];
        for (int i = 0; i < NC; ++i) {
            if (cube_part[i] >= 1024 && cube_part[i] <= 8192) {
                lo = fmin(lo, c[i][s]);
                hi = fmax(hi, c[i][s]);
            }
        }
        sh->cube_flat[s] = hi / lo;
    }
}

static void write_shapes(FILE *f, const table_t *t)
{
    shape_t th, mo;
    char b[32];
    int ok;
    shapes(dopl_meas, cube_meas, &th);
    shapes(t->dopl, t->cube, &mo);
    fprintf(f, "| criterion (notes/scc-model-feasibility.md) | size | thesis | model | holds |\n");
    fprintf(f, "|---|---|---|---|---|\n");
    for (int s = 0; s < NS; ++s) {
        scc_sim_fmt_bytes(sizes[s], b, sizeof(b));
        fprintf(f, "| DOPL faster than Cube (Cube 4 KB / DOPL 2 KB) | %s | %.2f | %.2f | %s |\n", b,
                th.ratio[s], mo.ratio[s], mo.ratio[s] > 1 ? "yes" : "no");
    }
    ok = mo.ratio[0] < mo.ratio[1] && mo.ratio[1] < mo.ratio[2];
    fprintf(f, "| Cube/DOPL rises with size | all | %.2f < %.2f < %.2f | %.2f < %.2f < %.2f | %s |\n",
            th.ratio[0], th.ratio[1], th.ratio[2], mo.ratio[0], mo.ratio[1], mo.ratio[2], ok ? "yes" : "no");
    for (int s = 0; s < NS; ++s) {
        scc_sim_fmt_bytes(sizes[s], b, sizeof(b));
        fprintf(f, "| DOPL optimum at 1-2 KB chunks | %s | %d | %d | %s |\n", b, th.dopl_best[s],
                mo.dopl_best[s], (mo.dopl_best[s] == 1024 || mo.dopl_best[s] == 2048) ? "yes" : "no");
        fprintf(f, "| DOPL 8 KB and 256 B chunks >= 1.4x the optimum | %s | %.2f | %.2f | %s |\n", b,
                th.dopl_ends[s], mo.dopl_ends[s], mo.dopl_ends[s] >= 1.4 ? "yes" : "no");
        fprintf(f, "| Cube flat over 1-8 KB blocks (max/min <= 1.3) | %s | %.2f | %.2f | %s |\n", b,
                th.cube_flat[s], mo.cube_flat[s], mo.cube_flat[s] <= 1.3 ? "yes" : "no");
    }
}

static void write_dat(const char *dir, const table_t *t, const table_t *alt)
{
    FILE *f = scc_sim_open(dir, "pichler_dopl.dat");
    if (f) {
        fprintf(f, "# chunk thesis_50k model_50k thesis_190k model_190k thesis_1.9M model_1.9M (ms)\n");
        for (int i = 0; i < ND; ++i) {
            fprintf(f, "%d", dopl_pipe[i]);
            for (int s = 0; s < NS; ++s) {
                fprintf(f, " %g %g", dopl_meas[i][s] * 1e3, t->dopl[i][s] * 1e3);
            }
            fprintf(f, "\n");
        }
        fclose(f);
    }
    f = scc_sim_open(dir, "pichler_cube.dat");
    if (f) {
        fprintf(f, "# block, per size: thesis model model_other_link_hold (ms; NaN: X)\n");
        for (int i = 0; i < NC; ++i) {
            fprintf(f, "%d", cube_part[i]);
            for (int s = 0; s < NS; ++s) {
                fprintf(f, " %g %g %g", cube_meas[i][s] * 1e3, t->cube[i][s] * 1e3,
                        alt->cube[i][s] * 1e3);
            }
            fprintf(f, "\n");
        }
        fclose(f);
    }
}

static void write_calibration(FILE *f, const scc_sim_params_t *p, double err, int evals)
{
    fprintf(f, "| parameter | value | source |\n|---|---|---|\n");
    fprintf(f, "| tiles, cores per tile | %gx%g, %g | fact: seeds/000 §1, seeds/003 §1.1 |\n", p->X, p->Y, p->K);
    fprintf(f, "| MPB per core | %g B | fact: seeds/000 §1 (RCCE's 8 KB), seeds/003 §1.2 |\n", p->mpb_bytes);
    fprintf(f, "| MPB line | %g B | fact: seeds/003 §3.9 (RCCE moves 32 B lines) |\n", p->line_bytes);
    fprintf(f, "| core, mesh clock | %g MHz, %g MHz | fact: seeds/000 §4.1, seeds/003 §1.6 |\n", p->core_mhz, p->mesh_mhz);
    fprintf(f, "| router latency | %g mesh cycles | fact: seeds/003 §1.4 |\n", p->router_cycles);
    fprintf(f, "| link width | %g B/cycle | fact: seeds/003 §1.4 |\n", p->link_bytes);
    fprintf(f, "| remote line read | +%.3f ns/B per hop | derived: a line crosses each router there and back (2 x %g cycles) |\n",
            2 * scc_sim_hop_ns(p) / p->line_bytes, p->router_cycles);
    fprintf(f, "| header flits, MPB port | %g per line, %g cycles per line | assumed |\n", p->header_flits, p->port_cycles_line);
    fprintf(f, "| flag latency | %g ns + hops | assumed (a remote line write and a poll) |\n", p->flag_ns);
    fprintf(f, "| RCCE barrier in the DOPL timing | %.1f us | derived: root reads 47 flags, writes 47 flags |\n",
            rcce_barrier(p, (int) lrint(p->X * p->Y * p->K)) / 1e3);
    fprintf(f, "| per-message overhead o = o_put + o_get | %.0f ns (%.0f + %.0f) | **fitted** to the 18 DOPL cells; split 1:2 assumed |\n",
            p->o_put + p->o_get, p->o_put, p->o_get);
    fprintf(f, "| copy cost g = put + get | %.2f ns/B (%.2f + %.2f) | **fitted** to the 18 DOPL cells; split 1:2 assumed |\n",
            p->put_ns_b + p->get_ns_b, p->put_ns_b, p->get_ns_b);
    fprintf(f, "| private memory miss | %.2f ns/B | **fitted** to the 18 DOPL cells |\n", p->mem_ns_b);
    fprintf(f, "| effective private cache | %.0f B | **fitted** to the 18 DOPL cells (the L2 is 256 KB) |\n", p->cache_bytes);
    fprintf(f, "| reduction arithmetic | %g ns/B | assumed (no seed measures it) |\n", p->reduce_ns_b);
    fprintf(f, "\nFit: Nelder-Mead on the sum of squared log errors of the 18 DOPL cells (seeds/000 §6.3),\n"
               "from two starting points with restarts, %d evaluations of the 18 cells, rms log error %.3f\n"
               "(runs extrapolated beyond %d blocks while fitting). The Cube table (27 cells) is not\n"
               "fitted: it is the test.\n",
            evals, err, FIT_MAX_BLOCKS);
}

/* The readings of "links and buffers serve one transfer at a time" the Cube
 * study compares; each is calibrated on the DOPL table before Cube is run. */
typedef struct variant {
    int link_hold, port_hold;
    const char *name;
} variant_t;

static const variant_t variants[] = {
    { SCC_SIM_HOLD_PACKET, SCC_SIM_HOLD_PACKET, "links and MPB ports held for the flits / lines (wormhole)" },
    { SCC_SIM_HOLD_TRANSFER, SCC_SIM_HOLD_PACKET,
      "links held for the whole transfer (seeds/003 §1.5), MPB ports for the lines" },
    { SCC_SIM_HOLD_TRANSFER, SCC_SIM_HOLD_TRANSFER, "links and MPB ports held for the whole transfer" },
};
#define NV ((int) (sizeof(variants) / sizeof(variants[0])))

int scc_sim_exp_pichler(scc_sim_params_t *p, const char *dir, int fit)
{
    scc_sim_params_t pv[NV];
    table_t t[NV], eager;
    double err[NV];
    int evals[NV], primary = -1, other, failed = 0;
    FILE *f, *conf;
    char b1[32], b2[32];

    for (int v = 0; v < NV; ++v) {
        if (lrint(p->link_hold) == variants[v].link_hold && lrint(p->port_hold) == variants[v].port_hold) {
            primary = v;
        }
    }
    if (primary < 0) {
        fprintf(stderr, "scc_sim: pichler: link_hold/port_hold of the preset is not a studied variant\n");
        return -1;
    }
    other = 0 == primary ? 1 : 0;
    for (int v = 0; v < NV; ++v) {
        pv[v] = *p;
        pv[v].link_hold = variants[v].link_hold;
        pv[v].port_hold = variants[v].port_hold;
        memset(&t[v], 0, sizeof(t[v]));
        evals[v] = 0;
        if (fit || v != primary) {
            err[v] = fit_dopl(&pv[v], &evals[v]);
        }
        eval_dopl(&pv[v], PICH_MAX_BLOCKS, &t[v]);
        eval_cube(&pv[v], PICH_MAX_BLOCKS, 1, &t[v]);
        if (!fit && v == primary) {
            err[v] = rms_log(t[v].dopl, dopl_meas, ND);
        }
        failed |= t[v].failed;
    }
    *p = pv[primary];
    memset(&eager, 0, sizeof(eager));
    eval_cube(p, PICH_MAX_BLOCKS, 0, &eager);
    memcpy(eager.dopl, t[primary].dopl, sizeof(eager.dopl));
    failed |= eager.failed;

    f = scc_sim_open(dir, "pichler.md");
    conf = scc_sim_open(dir, "scc-fitted.conf");
    if (NULL == f || NULL == conf) {
        return -1;
    }
    fprintf(conf, "# SCC preset as fitted by `scc_sim pichler fit` (see pichler.md)\n");
    scc_sim_params_print(p, conf);
    fclose(conf);

    fprintf(f, "# seeds/000 tuning tables on the model\n\n");
    fprintf(f, "48 cores on 6x4 tiles, root 0. DOPL (iRCCE in the thesis) runs on the model's RCCE\n"
               "transport without blocking: one 8 KB buffer per core, a send waits until the previous\n"
               "one is consumed; time = last rank done + one RCCE barrier (the thesis timed dopl() and a\n"
               "trailing barrier). Cube (blocking RCCE_send/recv) runs with blocking sends in the\n"
               "thesis's order (within a round, send first iff the reader's rank is higher); time = the\n"
               "root's (the thesis timed the root only). Both replay the component's own schedules with\n"
               "block = the thesis's chunk or part size. Runs beyond %d blocks are extrapolated from %d and\n"
               "%d blocks (checked at the end).\n\n", PICH_MAX_BLOCKS, PICH_MAX_BLOCKS / 2, PICH_MAX_BLOCKS);
    fprintf(f, "## Calibration\n\n");
    write_calibration(f, p, err[primary], evals[primary]);
    fprintf(f, "\nContention: %s. Of the readings below this one fits both tables best.\n",
            variants[primary].name);

    fprintf(f, "\n## DOPL chunk size (part 8 KB), thesis §6.3 -- fitted\n\n");
    write_dopl(f, &t[primary]);
    fprintf(f, "\nrms log error %.3f.\n", rms_log(t[primary].dopl, dopl_meas, ND));
    fprintf(f, "\n## Cube (Jia) block size, thesis §5.5 -- predicted, not fitted\n\n");
    write_cube(f, &t[primary]);
    fprintf(f, "\nrms log error %.3f.\n", rms_log(t[primary].cube, cube_meas, NC));

    fprintf(f, "\n## Shapes\n\n");
    write_shapes(f, &t[primary]);

    fprintf(f, "\n## Why is Cube slow?\n\n");
    fprintf(f, "What the thesis's own numbers say (arithmetic on §5.5 and §6.3, no model):\n\n");
    fprintf(f, "| size | Cube ns per byte, 256 B blocks | 4 KB blocks | 32 KB blocks | rounds at 256 B / 4 KB | DOPL ns per byte, 2 KB chunks |\n");
    fprintf(f, "|---|---|---|---|---|---|\n");
    for (int s = 0; s < NS; ++s) {
        double k256 = ceil(sizes[s] / 256), k4 = ceil(sizes[s] / 4096);
        fprintf(f, "| %s | %.0f | %.0f | %.0f | %.0f / %.0f | %.1f |\n",
                scc_sim_fmt_bytes(sizes[s], b1, sizeof(b1)), cube_meas[11][s] / sizes[s] * 1e9,
                cube_meas[7][s] / sizes[s] * 1e9, cube_meas[4][s] / sizes[s] * 1e9, k256 + 5, k4 + 5,
                dopl_meas[2][s] / sizes[s] * 1e9);
    }
    fprintf(f, "\nCube's time per byte hardly depends on the block size (256 B to 32 KB: 16 to 128 times as\n"
               "many messages and rounds for about the same time), so its excess is not per message, per\n"
               "round or per hop latency: it is per byte. And it grows with the message size alone: 50 kB\n"
               "in 256 B blocks runs %.0f rounds yet costs half as much per byte as 190 kB in 4 KB blocks\n"
               "(%.0f rounds). At 1.9 MB Cube moves data at %.0f ns/B; the model's copy cost (put + get) is\n"
               "%.1f ns/B, so the chip behaves as if its %d transfers per round ran one after another.\n\n",
            ceil(50000.0 / 256) + 5, ceil(190000.0 / 4096) + 5, cube_meas[7][2] / sizes[2] * 1e9,
            p->put_ns_b + p->get_ns_b, (int) lrint(p->X * p->Y * p->K) - 1);
    fprintf(f, "Candidate physics on the model. Each reading of \"links and buffers serve one transfer at\n"
               "a time\" is calibrated on the DOPL table first, then predicts Cube:\n\n");
    fprintf(f, "| variant | DOPL rms log err (fitted) | Cube rms log err | Cube/DOPL 50 kB | 190 kB | 1.9 MB |\n");
    fprintf(f, "|---|---|---|---|---|---|\n");
    fprintf(f, "| thesis | | | %.2f | %.2f | %.2f |\n", cube_meas[CUBE_CHOSEN][0] / dopl_meas[DOPL_CHOSEN][0],
            cube_meas[CUBE_CHOSEN][1] / dopl_meas[DOPL_CHOSEN][1],
            cube_meas[CUBE_CHOSEN][2] / dopl_meas[DOPL_CHOSEN][2]);
    for (int v = 0; v <= NV; ++v) {
        const table_t *tv = v < NV ? &t[v] : &eager;
        fprintf(f, "| %s%s | %.3f | %.3f | %.2f | %.2f | %.2f |\n",
                v < NV ? variants[v].name : "the preset, but Cube's sends do not block (same order, one buffer)",
                v == primary ? " **(preset)**" : "", rms_log(tv->dopl, dopl_meas, ND),
                rms_log(tv->cube, cube_meas, NC), tv->cube[CUBE_CHOSEN][0] / tv->dopl[DOPL_CHOSEN][0],
                tv->cube[CUBE_CHOSEN][1] / tv->dopl[DOPL_CHOSEN][1],
                tv->cube[CUBE_CHOSEN][2] / tv->dopl[DOPL_CHOSEN][2]);
    }
    fprintf(f, "\nCube table under \"%s\":\n\n", variants[other].name);
    write_cube(f, &t[other]);
    fprintf(f, "\nWhat remains unexplained, thesis Cube/DOPL ratio over the preset's: ");
    for (int s = 0; s < NS; ++s) {
        double r0 = cube_meas[CUBE_CHOSEN][s] / dopl_meas[DOPL_CHOSEN][s];
        fprintf(f, "%s %.2fx%s", scc_sim_fmt_bytes(sizes[s], b2, sizeof(b2)),
                r0 / (t[primary].cube[CUBE_CHOSEN][s] / t[primary].dopl[DOPL_CHOSEN][s]),
                s + 1 < NS ? ", " : ".\n");
    }

    /* extrapolation check on the longest cells */
    {
        double ex = dopl_time(p, sizes[2], 256, 0, &failed), ap = dopl_time(p, sizes[2], 256, PICH_MAX_BLOCKS, &failed);
        double cx = cube_time(p, sizes[2], 256, 0, &failed, 1), cp = cube_time(p, sizes[2], 256, PICH_MAX_BLOCKS, &failed, 1);
        fprintf(f, "\n## Extrapolation check\n\n| cell | full run | extrapolated | difference |\n|---|---|---|---|\n");
        fprintf(f, "| DOPL 1.9 MB, 256 B chunks (7422 blocks) | %s | %s | %+.2f%% |\n",
                scc_sim_fmt_time(ex, b1, 32), scc_sim_fmt_time(ap, b2, 32), 100 * (ap / ex - 1));
        fprintf(f, "| Cube 1.9 MB, 256 B blocks (7422 blocks) | %s | %s | %+.2f%% |\n",
                scc_sim_fmt_time(cx, b1, 32), scc_sim_fmt_time(cp, b2, 32), 100 * (cp / cx - 1));
    }
    fclose(f);
    write_dat(dir, &t[primary], &t[other]);
    return failed ? -1 : 0;
}
