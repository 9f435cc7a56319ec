/* scc_sim_exp_cube.c: why seeds/000's Cube is slow -- readings and mechanisms, each calibrated on DOPL alone. */
#include <math.h>
#include <string.h>

#include "scc_sim_coll.h"
#include "scc_sim_model.h"
#include "scc_sim_out.h"
#include "scc_sim_pichler.h"

/* A reading of the model.  fit: 0 keeps the preset's costs (only Cube's
 * schedule or timing changes, so the DOPL cells do not), 1 refits the DOPL
 * costs, 2 refits them with the extra per-hop cost free. */
typedef struct variant {
    int link_hold, cache_model, mem_overlap;
    int fit;
    pich_cube_t cube;
    const char *name;
    int slow_clocks;  /* Cube's cells at the SCC's default clocks, DOPL's at the preset's */
} variant_t;

#define JIA_RCCE { SCC_ALG_JIA, 1, 0 }
#define CODE { SCC_SIM_THESIS_CUBE, 1, 0 }
#define LINE SCC_SIM_HOLD_LINE
#define STATE SCC_SIM_CACHE_STATE

static const variant_t variants[] = {
    { LINE, STATE, 1, 0, JIA_RCCE,
      "**preset**: links and ports per line; cache state; non-blocking copies overlap their misses" },
    { LINE, STATE, 0, 1, JIA_RCCE, "the same, no copy overlaps its misses" },
    { LINE, STATE, 2, 1, JIA_RCCE,
      "the same, a non-blocking get's writes drain behind the pipeline (one get in flight)" },
    { SCC_SIM_HOLD_TRANSFER, STATE, 1, 1, JIA_RCCE, "the preset, links held for whole transfers (old reading)" },
    { LINE, SCC_SIM_CACHE_FOOTPRINT, 0, 1, JIA_RCCE,
      "per line; old cost model (every access misses 1 - C/S, in turn)" },
    { SCC_SIM_HOLD_TRANSFER, SCC_SIM_CACHE_FOOTPRINT, 0, 1, JIA_RCCE,
      "old preset: links per transfer, old cost model" },
    { LINE, STATE, 1, 0, { SCC_ALG_JIA, 0, 0 },
      "the preset, but Cube's sends do not block (same order, one buffer)" },
    { LINE, STATE, 1, 0, CODE,
      "the preset, Cube as Pichler's code runs it: the code's round order, the root's redundant receives" },
    { LINE, STATE, 1, 0, { SCC_SIM_THESIS_CUBE_NOROOT, 1, 0 },
      "the preset, the code's round order without the root's redundant receives" },
    { LINE, STATE, 1, 0, { SCC_ALG_JIA, 1, 1 }, "the preset, Cube timed when the last rank is done, not the root" },
    { LINE, STATE, 1, 2, JIA_RCCE, "the preset, an extra per-hop cost fitted on DOPL" },
    { LINE, STATE, 1, 0, JIA_RCCE,
      "the preset, Cube's table at core 533 / mesh 800 MHz and DOPL's at 800 / 1066 (core costs x 1.5)", 1 },
};
#define NV ((int) (sizeof(variants) / sizeof(variants[0])))
#define V_TRANSFER 3  /* the old link reading, kept for the plot and the scale study */
#define V_CODE 7      /* Pichler's code as written */

/* Extra per-hop costs of the sweep, ns per line and hop (the routers' own
 * round trip is 2 x 4 cycles = 7.5 ns at 1066 MHz). */
static const double hop_sweep[] = { 0, 15, 30, 60, 120, 240 };
#define NH ((int) (sizeof(hop_sweep) / sizeof(hop_sweep[0])))

static void variant_params(scc_sim_params_t *q, const scc_sim_params_t *p, const variant_t *v)
{
    *q = *p;
    q->link_hold = v->link_hold;
    q->port_hold = SCC_SIM_HOLD_LINE;
    q->cache_model = v->cache_model;
    q->mem_overlap = v->mem_overlap;
}

static void write_row(FILE *f, const char *name, const char *extra, const pich_table_t *t)
{
    pich_errs_t d = pich_errs(t->dopl, pich_dopl_meas, PICH_ND), c = pich_errs(t->cube, pich_cube_meas, PICH_NC);
    fprintf(f, "| %s%s | %.3f (%+.0f .. %+.0f%%) | %.3f (%+.0f .. %+.0f%%) | %d | %.2f | %.2f | %.2f |\n", name,
            extra, d.rms, 100 * d.lo, 100 * d.hi, c.rms, 100 * c.lo, 100 * c.hi, c.in25,
            pich_ratio(t->dopl, t->cube, 0), pich_ratio(t->dopl, t->cube, 1), pich_ratio(t->dopl, t->cube, 2));
}

/* Cube's time split as rounds x (a + block x b) at each size, least squares
 * on relative errors over the block sizes (rounds = blocks + 5 at 48 ranks). */
static void split_ab(const double c[PICH_NC][PICH_NS], int s, double *a, double *b)
{
    double s11 = 0, s12 = 0, s22 = 0, y1 = 0, y2 = 0;
    for (int i = 0; i < PICH_NC; ++i) {
        double k, R, B, w;
        if (isnan(pich_cube_meas[i][s])) {
            continue;
        }
        k = ceil(pich_sizes[s] / pich_cube_part[i]);
        R = k + 5;
        B = fmin(pich_cube_part[i], pich_sizes[s]);
        w = 1.0 / (c[i][s] * c[i][s]);
        s11 += w * R * R;
        s12 += w * R * R * B;
        s22 += w * R * B * R * B;
        y1 += w * R * c[i][s];
        y2 += w * R * B * c[i][s];
    }
    *a = (s22 * y1 - s12 * y2) / (s11 * s22 - s12 * s12);
    *b = (s11 * y2 - s12 * y1) / (s11 * s22 - s12 * s12);
}

static void write_split(FILE *f, const scc_sim_params_t *p, const pich_table_t *t)
{
    char b1[32];
    fprintf(f, "Each Cube time split into rounds x (a + block x b) (least squares on relative errors over\n"
               "the block sizes; rounds = blocks + 5), thesis (arithmetic on §5.5, no model) beside the\n"
               "preset. b is what a round costs per byte of its block, a what it costs per message; the\n"
               "miss fraction is a first touch's (1 - cache/size):\n\n");
    fprintf(f, "| size | first-touch miss | thesis a | thesis b | model a | model b | b thesis / model |\n"
               "|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < PICH_NS; ++s) {
        double at, bt, am, bm;
        split_ab(pich_cube_meas, s, &at, &bt);
        split_ab(t->cube, s, &am, &bm);
        fprintf(f, "| %s | %.2f | %.1f us | %.0f ns/B | %.1f us | %.0f ns/B | %.2f |\n",
                scc_sim_fmt_bytes(pich_sizes[s], b1, sizeof(b1)), scc_sim_miss(p, pich_sizes[s]), at * 1e6,
                bt * 1e9, am * 1e6, bm * 1e9, bt / bm);
    }
}

/* The extra per-hop cost at fixed values, the DOPL costs refitted at each. */
static int write_hop_sweep(FILE *f, const scc_sim_params_t *p)
{
    int failed = 0, ev;
    fprintf(f, "\nAn extra cost per line and hop of a remote read, fixed at each value, the DOPL costs\n"
               "refitted (o, g: the fitted per-message and per-byte costs):\n\n");
    fprintf(f, "| extra per hop | o | g | DOPL rms (range) | Cube rms (range) | within +-25%% "
               "| Cube/DOPL 50 kB | 190 kB | 1.9 MB |\n|---|---|---|---|---|---|---|---|---|\n");
    for (int h = 0; h < NH; ++h) {
        scc_sim_params_t q = *p;
        pich_table_t t;
        pich_errs_t d, c;
        memset(&t, 0, sizeof(t));
        q.hop_line_ns = hop_sweep[h];
        if (hop_sweep[h] != p->hop_line_ns) {
            pich_fit_dopl(&q, 1, 0, &ev);
        }
        pich_eval_dopl(&q, PICH_MAX_BLOCKS, &t);
        pich_eval_cube(&q, PICH_MAX_BLOCKS, &pich_cube_preset, &t);
        failed |= t.failed;
        d = pich_errs(t.dopl, pich_dopl_meas, PICH_ND);
        c = pich_errs(t.cube, pich_cube_meas, PICH_NC);
        fprintf(f, "| %.0f ns/line (%.2f ns/B) | %.0f ns | %.2f ns/B | %.3f (%+.0f .. %+.0f%%) "
                   "| %.3f (%+.0f .. %+.0f%%) | %d | %.2f | %.2f | %.2f |\n",
                hop_sweep[h], hop_sweep[h] / q.line_bytes, q.o_put + q.o_get, q.put_ns_b + q.get_ns_b, d.rms,
                100 * d.lo, 100 * d.hi, c.rms, 100 * c.lo, 100 * c.hi, c.in25, pich_ratio(t.dopl, t.cube, 0),
                pich_ratio(t.dopl, t.cube, 1), pich_ratio(t.dopl, t.cube, 2));
    }
    return failed;
}

int pich_cube_study(FILE *f, const scc_sim_params_t *p, const pich_table_t *t, const char *dir,
                    pich_table_t *transfer)
{
    scc_sim_params_t pv[NV];
    pich_table_t tv[NV];
    int failed = 0, ev;
    char b1[32], extra[96];
    FILE *conf;

    /* each reading calibrated on the DOPL table (or sharing the preset's), then Cube */
    for (int v = 0; v < NV; ++v) {
        variant_params(&pv[v], p, &variants[v]);
        memset(&tv[v], 0, sizeof(tv[v]));
        if (variants[v].fit) {
            pich_fit_dopl(&pv[v], 1, variants[v].fit == 2, &ev);
        }
        if (0 == v) {
            tv[v] = *t;
            continue;
        }
        if (variants[v].fit) {
            pich_eval_dopl(&pv[v], PICH_MAX_BLOCKS, &tv[v]);
        } else {
            memcpy(tv[v].dopl, t->dopl, sizeof(tv[v].dopl));
        }
        if (variants[v].slow_clocks) {
            /* the tables' clocks are not stated (seeds/000 L409): every core cost
             * scaled with the core clock, the mesh at its default */
            scc_sim_params_t q = pv[v];
            double k = q.core_mhz / 533;
            q.o_put *= k;
            q.o_get *= k;
            q.put_ns_b *= k;
            q.get_ns_b *= k;
            q.core_mhz = 533;
            q.mesh_mhz = 800;
            pich_eval_cube(&q, PICH_MAX_BLOCKS, &variants[v].cube, &tv[v]);
        } else {
            pich_eval_cube(&pv[v], PICH_MAX_BLOCKS, &variants[v].cube, &tv[v]);
        }
        failed |= tv[v].failed;
    }
    *transfer = tv[V_TRANSFER];
    conf = scc_sim_open(dir, "scc-fitted-transfer.conf");
    if (conf) {
        fprintf(conf, "# the preset with links held for whole transfers, refitted (pichler.md)\n");
        scc_sim_params_print(&pv[V_TRANSFER], conf);
        fclose(conf);
    }

    write_split(f, p, t);
    fprintf(f, "\nEach reading below is calibrated on the DOPL table first (its own fit, or the preset's\n"
               "when only Cube's schedule or timing changes), then predicts the 30 Cube cells:\n\n");
    fprintf(f, "| reading | DOPL rms log err (range) | Cube rms log err (range) | Cube cells within +-25%% "
               "| Cube/DOPL 50 kB | 190 kB | 1.9 MB |\n");
    fprintf(f, "|---|---|---|---|---|---|---|\n");
    fprintf(f, "| thesis | | | 30 | %.2f | %.2f | %.2f |\n", pich_ratio(pich_dopl_meas, pich_cube_meas, 0),
            pich_ratio(pich_dopl_meas, pich_cube_meas, 1), pich_ratio(pich_dopl_meas, pich_cube_meas, 2));
    for (int v = 0; v < NV; ++v) {
        extra[0] = '\0';
        if (variants[v].fit == 2) {
            snprintf(extra, sizeof(extra), " (fitted: %.2g ns per line and hop)", pv[v].hop_line_ns);
        }
        write_row(f, variants[v].name, extra, &tv[v]);
    }
    {
        /* how far the code as written moves each cell from the component's schedule */
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < PICH_NC; ++i) {
            for (int s = 0; s < PICH_NS; ++s) {
                if (!isnan(pich_cube_meas[i][s])) {
                    lo = fmin(lo, tv[V_CODE].cube[i][s] / t->cube[i][s] - 1);
                    hi = fmax(hi, tv[V_CODE].cube[i][s] / t->cube[i][s] - 1);
                }
            }
        }
        fprintf(f, "\nPichler's code as written against the preset's schedule, cell by cell: %+.1f%% .. %+.1f%%.\n",
                100 * lo, 100 * hi);
    }
    failed |= write_hop_sweep(f, p);

    fprintf(f, "\nCube table as Pichler's code runs it (its round order, the root's redundant receives), the\n"
               "preset's costs:\n\n");
    pich_write_table(f, tv[V_CODE].cube, pich_cube_meas, pich_cube_part, PICH_NC, "block");
    fprintf(f, "\nCube table with links held for whole transfers (the old reading), its own DOPL fit:\n\n");
    pich_write_table(f, tv[V_TRANSFER].cube, pich_cube_meas, pich_cube_part, PICH_NC, "block");
    fprintf(f, "\nWhat remains, thesis Cube/DOPL ratio over the preset's: ");
    for (int s = 0; s < PICH_NS; ++s) {
        fprintf(f, "%s %.2fx%s", scc_sim_fmt_bytes(pich_sizes[s], b1, sizeof(b1)),
                pich_ratio(pich_dopl_meas, pich_cube_meas, s) / pich_ratio(t->dopl, t->cube, s),
                s + 1 < PICH_NS ? ", " : ".\n");
    }
    return failed ? -1 : 0;
}
