/* scc_sim_exp_pichler.c: the report on seeds/000's Cube and DOPL tables: calibration with provenance, tables, shapes, clocks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_coll.h"
#include "scc_sim_exp.h"
#include "scc_sim_model.h"
#include "scc_sim_out.h"
#include "scc_sim_pichler.h"


/* Shape statistics of a table (thesis or model). */
typedef struct shape {
    double ratio[PICH_NS];        /* Cube(4 KB) / DOPL(2 KB) */
    int dopl_best[PICH_NS];       /* chunk of the fastest DOPL */
    double dopl_ends[PICH_NS];    /* min(T(8 KB), T(256 B)) / T(best) */
    double cube_flat[PICH_NS];    /* max/min of Cube over 1..8 KB blocks */
} shape_t;

static void shapes(const double d[PICH_ND][PICH_NS], const double c[PICH_NC][PICH_NS], shape_t *sh)
{
    for (int s = 0; s < PICH_NS; ++s) {
        int b = 0;
        double lo = INFINITY, hi = 0;
        sh->ratio[s] = c[PICH_CUBE_CHOSEN][s] / d[PICH_DOPL_CHOSEN][s];
        for (int i = 1; i < PICH_ND; ++i) {
            if (d[i][s] < d[b][s]) {
                b = i;
            }
        }
        sh->dopl_best[s] = pich_dopl_pipe[b];
        sh->dopl_ends[s] = fmin(d[0][s], d[PICH_ND - 1][s]) / d[b][s];
        for (int i = 0; i < PICH_NC; ++i) {
            if (pich_cube_part[i] >= 1024 && pich_cube_part[i] <= 8192) {
                lo = fmin(lo, c[i][s]);
                hi = fmax(hi, c[i][s]);
            }
        }
        sh->cube_flat[s] = hi / lo;
    }
}

static void write_shapes(FILE *f, const pich_table_t *t)
{
    shape_t th, mo;
    char b[32];
    int ok;
    shapes(pich_dopl_meas, pich_cube_meas, &th);
    shapes(t->dopl, t->cube, &mo);
    fprintf(f, "| criterion (notes/scc-model-feasibility.md) | size | thesis | model | holds |\n");
    fprintf(f, "|---|---|---|---|---|\n");
    for (int s = 0; s < PICH_NS; ++s) {
        scc_sim_fmt_bytes(pich_sizes[s], b, sizeof(b));
        fprintf(f, "| DOPL faster than Cube (Cube 4 KB / DOPL 2 KB) | %s | %.2f | %.2f | %s |\n", b,
                th.ratio[s], mo.ratio[s], mo.ratio[s] > 1 ? "yes" : "no");
    }
    ok = mo.ratio[0] < mo.ratio[1] && mo.ratio[1] < mo.ratio[2];
    fprintf(f, "| Cube/DOPL rises with size | all | %.2f < %.2f < %.2f | %.2f < %.2f < %.2f | %s |\n",
            th.ratio[0], th.ratio[1], th.ratio[2], mo.ratio[0], mo.ratio[1], mo.ratio[2], ok ? "yes" : "no");
    for (int s = 0; s < PICH_NS; ++s) {
        scc_sim_fmt_bytes(pich_sizes[s], b, sizeof(b));
        fprintf(f, "| DOPL optimum at 1-2 KB chunks | %s | %d | %d | %s |\n", b, th.dopl_best[s],
                mo.dopl_best[s], (mo.dopl_best[s] == 1024 || mo.dopl_best[s] == 2048) ? "yes" : "no");
        fprintf(f, "| DOPL 8 KB and 256 B chunks >= 1.4x the optimum | %s | %.2f | %.2f | %s |\n", b,
                th.dopl_ends[s], mo.dopl_ends[s], mo.dopl_ends[s] >= 1.4 ? "yes" : "no");
        fprintf(f, "| Cube flat over 1-8 KB blocks (max/min <= 1.3) | %s | %.2f | %.2f | %s |\n", b,
                th.cube_flat[s], mo.cube_flat[s], mo.cube_flat[s] <= 1.3 ? "yes" : "no");
    }
}

static void write_dat(const char *dir, const pich_table_t *t, const pich_table_t *alt)
{
    FILE *f = scc_sim_open(dir, "pichler_dopl.dat");
    if (f) {
        fprintf(f, "# chunk thesis_50k model_50k thesis_190k model_190k thesis_1.9M model_1.9M (ms)\n");
        for (int i = 0; i < PICH_ND; ++i) {
            fprintf(f, "%d", pich_dopl_pipe[i]);
            for (int s = 0; s < PICH_NS; ++s) {
                fprintf(f, " %g %g", pich_dopl_meas[i][s] * 1e3, t->dopl[i][s] * 1e3);
            }
            fprintf(f, "\n");
        }
        fclose(f);
    }
    f = scc_sim_open(dir, "pichler_cube.dat");
    if (f) {
        fprintf(f, "# block, per size: thesis model model_links_held_per_transfer (ms; NaN: X)\n");
        for (int i = 0; i < PICH_NC; ++i) {
            fprintf(f, "%d", pich_cube_part[i]);
            for (int s = 0; s < PICH_NS; ++s) {
                fprintf(f, " %g %g %g", pich_cube_meas[i][s] * 1e3, t->cube[i][s] * 1e3,
                        alt->cube[i][s] * 1e3);
            }
            fprintf(f, "\n");
        }
        fclose(f);
    }
}

/* Every value of the model with where it comes from. */
static void write_calibration(FILE *f, const scc_sim_params_t *p, double err, int evals)
{
    fprintf(f, "| parameter | value | kind | source |\n|---|---|---|---|\n");
    fprintf(f, "| tiles, cores per tile | %gx%g, %g | fact | "
               "seeds/000 §1 (L124, L131), seeds/003 §1.1 (L198) |\n", p->X, p->Y, p->K);
    fprintf(f, "| MPB per core | %g B | fact | seeds/000 §1 (L277: RCCE's 8 KB), seeds/003 §1.2 (L200) |\n",
            p->mpb_bytes);
    fprintf(f, "| MPB line | %g B | fact | "
               "RCCE moves whole 32-byte lines (RCCE_send.c, notes/seed-003-patil.md §3.9) |\n", p->line_bytes);
    fprintf(f, "| router latency, link width | %g mesh cycles, %g B/cycle | fact | seeds/003 §1.4 (L204) |\n",
            p->router_cycles, p->link_bytes);
    fprintf(f, "| mesh clock | %g MHz | **assumed** | seeds/000 §4.1 (L409) raised it from 800 to 1066 MHz "
               "for its ping-pong only; the tables' clocks are not stated (seeds/003 §1.6 ran at 1066). "
               "Sets the per-hop term and flit and port times; see \"Clocks\" |\n", p->mesh_mhz);
    fprintf(f, "| core clock | %g MHz | **assumed** | seeds/000 L409 (533 -> 800 MHz for the ping-pong); "
               "enters no modeled cost: every core cost below is fitted in ns |\n", p->core_mhz);
    fprintf(f, "| remote line read | +%.3f ns/B per hop | derived | "
               "a line's request and response cross each router (2 x %g mesh cycles) |\n",
            2 * scc_sim_hop_ns(p) / p->line_bytes, p->router_cycles);
    fprintf(f, "| extra per-hop cost of a remote read | %g ns per line and hop | assumed | the routers' "
               "cycles only; seeds/000's ping-pong finds the farthest core \"way\" slower (L409) without "
               "numbers; the Cube study fits it on DOPL and sweeps it |\n", p->hop_line_ns);
    fprintf(f, "| link and port holding | per 32-byte line | assumed | a remote read is a request and a "
               "response packet per line (seeds/003 L204: 2 message classes); links and ports "
               "interleave packets |\n");
    fprintf(f, "| header flits, MPB port | %g per packet, %g mesh cycles per line | assumed | |\n",
            p->header_flits, p->port_cycles_line);
    fprintf(f, "| flag latency | %g ns + hops | assumed | a remote line write and a poll |\n", p->flag_ns);
    fprintf(f, "| RCCE transport | one %g B buffer, blocking sends (Cube) | fact | "
               "seeds/000 §2.3-2.4, L214-216, L277 |\n", p->mpb_bytes);
    fprintf(f, "| RCCE barrier in the DOPL timing | %.1f us | derived | "
               "root reads 47 flags, writes 47 flags (seeds/003 §4.4) |\n",
            pich_rcce_barrier(p, (int) lrint(p->X * p->Y * p->K)) / 1e3);
    fprintf(f, "| cache state at a call's start | cache/footprint of the buffer resident | derived | "
               "the benchmarks read and rewrite the whole buffer between calls (seeds/000 §10.5, §10.7) |\n");
    fprintf(f, "| cache replacement | LRU by bytes touched; reads and writes allocate | assumed | |\n");
    fprintf(f, "| overlap of private-memory misses | %s | assumed | "
               "the mechanism studied (issue 16); the DOPL table prefers it (below) |\n",
            lrint(p->mem_overlap) == 1 ? "non-blocking copies: side by side with the MPB side; blocking: in turn"
                                       : "see mem_overlap");
    fprintf(f, "| per-message overhead o = o_put + o_get | %.0f ns (%.0f + %.0f) | **fitted** | "
               "the 18 DOPL cells; split 1:2 assumed |\n", p->o_put + p->o_get, p->o_put, p->o_get);
    fprintf(f, "| copy cost g = put + get | %.2f ns/B (%.2f + %.2f) | **fitted** | "
               "the 18 DOPL cells; split 1:2 assumed |\n",
            p->put_ns_b + p->get_ns_b, p->put_ns_b, p->get_ns_b);
    fprintf(f, "| private memory miss | %.2f ns/B | **fitted** | the 18 DOPL cells |\n", p->mem_ns_b);
    fprintf(f, "| effective private cache | %.0f B | **fitted** | "
               "the 18 DOPL cells (the L2 is 256 KB, seeds/000 L131) |\n", p->cache_bytes);
    fprintf(f, "| reduction arithmetic | %g ns/B | assumed | no seed measures it (not used here) |\n",
            p->reduce_ns_b);
    fprintf(f, "\nFit: Nelder-Mead on the sum of squared log errors of the 18 DOPL cells (seeds/000 §6.3),\n"
               "from two starting points with restarts, %d evaluations of the 18 cells, rms log error %.3f\n"
               "(runs extrapolated beyond %d blocks while fitting). No parameter is fitted on, and no\n"
               "choice is made by, the 30 cells of the Cube table: they are the test.\n",
            evals, err, PICH_FIT_MAX_BLOCKS);
}

static void write_intro(FILE *f)
{
    fprintf(f, "# seeds/000 tuning tables on the model\n\n");
    fprintf(f, "48 cores on 6x4 tiles, root 0. DOPL (iRCCE in the thesis) runs on the model's RCCE\n"
               "transport without blocking: one 8 KB buffer per core, a send waits until the previous\n"
               "one is consumed; time = last rank done + one RCCE barrier (the thesis timed dopl() and a\n"
               "trailing barrier). Cube (blocking RCCE_send/recv) runs with blocking sends in a\n"
               "deadlock-free order (within a round, send first iff the reader's rank is higher, the rule\n"
               "of Pichler's code for its one-process units); time = the root's (the thesis timed the root\n"
               "only). Both replay the component's own schedules with block = the thesis's chunk or part\n"
               "size (the Cube study also runs Pichler's Cube code as written). Runs beyond %d blocks are\n"
               "extrapolated from %d and %d blocks (checked at the end).\n\n",
               PICH_MAX_BLOCKS, PICH_MAX_BLOCKS / 2, PICH_MAX_BLOCKS);
    fprintf(f, "Private memory: a copy's reads (put) and writes (get) of the user buffer miss the cache\n"
               "as the buffer's state says (a first touch in the fraction 1 - cache/footprint, a re-touch\n"
               "when more than `cache` bytes were touched since). A blocking transfer takes the misses\n"
               "after its MPB side; a non-blocking copy streams them beside it and takes the longer.\n"
               "Links and MPB ports carry each transfer per 32-byte line packet, interleaved.\n\n");
}

/* The preset at the assumed clocks and at the SCC's default, each fitted on DOPL. */
static void write_clocks(FILE *f, const scc_sim_params_t *pc, const pich_table_t *tc)
{
    fprintf(f, "seeds/000 gives its clocks only for the ping-pong (L409: core 533 -> 800, mesh 800 -> 1066\n"
               "MHz); the SCC's default is core 533 / mesh 800 MHz. No modeled cost depends on the core\n"
               "clock (the core costs are fitted in ns); the mesh clock sets the per-hop term and the\n"
               "flit and port times. The preset at both, each fitted on the DOPL table:\n\n");
    fprintf(f, "| core / mesh MHz | per hop | o | g | miss | cache | DOPL rms (range) | Cube rms (range) "
               "| within +-25%% | Cube/DOPL 50 kB | 190 kB | 1.9 MB |\n");
    fprintf(f, "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < 2; ++k) {
        pich_errs_t d = pich_errs(tc[k].dopl, pich_dopl_meas, PICH_ND), c = pich_errs(tc[k].cube, pich_cube_meas, PICH_NC);
        fprintf(f, "| %g / %g%s | %.3f ns/B | %.0f ns | %.2f ns/B | %.2f ns/B | %.0f B "
                   "| %.3f (%+.0f .. %+.0f%%) | %.3f (%+.0f .. %+.0f%%) | %d | %.2f | %.2f | %.2f |\n",
                pc[k].core_mhz, pc[k].mesh_mhz, k ? "" : " (preset)",
                2 * scc_sim_hop_ns(&pc[k]) / pc[k].line_bytes,
                pc[k].o_put + pc[k].o_get, pc[k].put_ns_b + pc[k].get_ns_b, pc[k].mem_ns_b, pc[k].cache_bytes,
                d.rms, 100 * d.lo, 100 * d.hi, c.rms, 100 * c.lo, 100 * c.hi, c.in25,
                tc[k].cube[PICH_CUBE_CHOSEN][0] / tc[k].dopl[PICH_DOPL_CHOSEN][0],
                tc[k].cube[PICH_CUBE_CHOSEN][1] / tc[k].dopl[PICH_DOPL_CHOSEN][1],
                tc[k].cube[PICH_CUBE_CHOSEN][2] / tc[k].dopl[PICH_DOPL_CHOSEN][2]);
    }
    fprintf(f, "\n`results/scc-fitted-mesh800.conf` holds the second fit; `run-all.sh` repeats the 48-rank\n"
               "scale study with it (`scale_mesh800.md`, `thresholds_mesh800.md`).\n");

}

int scc_sim_exp_pichler(scc_sim_params_t *p, const char *dir, int fit)
{
    static const double clocks[][2] = { { 800, 1066 }, { 533, 800 } };  /* core, mesh MHz */
    scc_sim_params_t pc[2];
    pich_table_t t, transfer, tc[2];
    double err = 0;
    int evals = 0, ev, failed = 0;
    FILE *f, *conf;
    char b1[32], b2[32];

    /* the preset, fitted or as given */
    if (fit) {
        err = pich_fit_dopl(p, 2, 0, &evals);
    }
    memset(&t, 0, sizeof(t));
    pich_eval_dopl(p, PICH_MAX_BLOCKS, &t);
    pich_eval_cube(p, PICH_MAX_BLOCKS, &pich_cube_preset, &t);
    failed |= t.failed;
    if (!fit) {
        err = pich_errs(t.dopl, pich_dopl_meas, PICH_ND).rms;
    }
    /* the clocks: the preset's, and the SCC's default (core 533, mesh 800 MHz) refitted */
    for (int k = 0; k < 2; ++k) {
        pc[k] = *p;
        pc[k].core_mhz = clocks[k][0];
        pc[k].mesh_mhz = clocks[k][1];
        memset(&tc[k], 0, sizeof(tc[k]));
        if (k > 0) {
            pich_fit_dopl(&pc[k], 1, 0, &ev);
        }
        pich_eval_dopl(&pc[k], PICH_MAX_BLOCKS, &tc[k]);
        pich_eval_cube(&pc[k], PICH_MAX_BLOCKS, &pich_cube_preset, &tc[k]);
        failed |= tc[k].failed;
    }

    f = scc_sim_open(dir, "pichler.md");
    conf = scc_sim_open(dir, "scc-fitted.conf");
    if (NULL == f || NULL == conf) {
        return -1;
    }
    fprintf(conf, "# SCC preset as fitted by `scc_sim pichler fit` (see pichler.md)\n");
    scc_sim_params_print(p, conf);
    fclose(conf);
    conf = scc_sim_open(dir, "scc-fitted-mesh800.conf");
    if (conf) {
        fprintf(conf, "# the preset refitted at the SCC's default clocks, core 533 / mesh 800 MHz "
                      "(pichler.md, Clocks)\n");
        scc_sim_params_print(&pc[1], conf);
        fclose(conf);
    }

    write_intro(f);
    fprintf(f, "## Calibration\n\n");
    write_calibration(f, p, err, evals);

    fprintf(f, "\n## DOPL chunk size (part 8 KB), thesis §6.3 -- fitted\n\n");
    pich_write_table(f, t.dopl, pich_dopl_meas, pich_dopl_pipe, PICH_ND, "chunk");
    fprintf(f, "\n## Cube (Jia) block size, thesis §5.5 -- predicted, nothing fitted on it\n\n");
    pich_write_table(f, t.cube, pich_cube_meas, pich_cube_part, PICH_NC, "block");
    fprintf(f, "\n## Shapes\n\n");
    write_shapes(f, &t);

    fprintf(f, "\n## Why is Cube slow?\n\n");
    failed |= 0 != pich_cube_study(f, p, &t, dir, &transfer);

    fprintf(f, "\n## Clocks\n\n");
    write_clocks(f, pc, tc);

    /* extrapolation check on the longest cells */
    {
        double ex = pich_dopl_time(p, pich_sizes[2], 256, 0, &failed);
        double ap = pich_dopl_time(p, pich_sizes[2], 256, PICH_MAX_BLOCKS, &failed);
        double cx = pich_cube_time(p, pich_sizes[2], 256, 0, &failed, &pich_cube_preset);
        double cp = pich_cube_time(p, pich_sizes[2], 256, PICH_MAX_BLOCKS, &failed, &pich_cube_preset);
        fprintf(f, "\n## Extrapolation check\n\n| cell | full run | extrapolated | difference |\n|---|---|---|---|\n");
        fprintf(f, "| DOPL 1.9 MB, 256 B chunks (7422 blocks) | %s | %s | %+.2f%% |\n",
                scc_sim_fmt_time(ex, b1, 32), scc_sim_fmt_time(ap, b2, 32), 100 * (ap / ex - 1));
        fprintf(f, "| Cube 1.9 MB, 256 B blocks (7422 blocks) | %s | %s | %+.2f%% |\n",
                scc_sim_fmt_time(cx, b1, 32), scc_sim_fmt_time(cp, b2, 32), 100 * (cp / cx - 1));
    }
    fclose(f);
    write_dat(dir, &t, &transfer);
    return failed ? -1 : 0;
}
