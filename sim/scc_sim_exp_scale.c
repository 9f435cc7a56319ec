/* scc_sim_exp_scale.c: every algorithm on meshes up to 32x32 tiles, 8 B .. 16 MB; crossovers and thresholds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_coll.h"
#include "scc_sim_exp.h"
#include "scc_sim_out.h"

#define MAXB 128   /* longer pipelines are extrapolated from 64 and 128 blocks */

static const int sides[][2] = { { 6, 4 }, { 8, 8 }, { 16, 16 }, { 32, 32 } };
#define NMESH ((int) (sizeof(sides) / sizeof(sides[0])))
static const double sizes[] = { 8,      32,      128,     512,     2048,    8192,
                                32768,  131072,  524288,  2097152, 8388608, 16777216 };
#define NSZ ((int) (sizeof(sizes) / sizeof(sizes[0])))

typedef struct spec {
    scc_coll_t coll;
    int algs[8];
    int nalgs;
    int max_side;      /* largest mesh side this collective runs on */
} spec_t;

static const spec_t specs[] = {
    { SCC_COLL_BCAST, { SCC_ALG_NOCMSG, SCC_ALG_DOPL, SCC_ALG_JIA, SCC_ALG_TREE, SCC_SIM_BINOMIAL,
                        SCC_SIM_LINEAR }, 6, 32 },
    { SCC_COLL_REDUCE, { SCC_ALG_NOCMSG, SCC_ALG_TREE, SCC_SIM_BINOMIAL, SCC_SIM_LINEAR }, 4, 32 },
    { SCC_COLL_ALLREDUCE, { SCC_ALG_NOCMSG, SCC_SIM_BINOMIAL, SCC_SIM_LINEAR }, 3, 32 },
    { SCC_COLL_BARRIER, { SCC_ALG_NOCMSG, SCC_ALG_NOCMSG_FANIN, SCC_SIM_BINOMIAL, SCC_SIM_LINEAR }, 4,
      32 },
    /* n^2 messages: 16x16 tiles (512 ranks) keeps the run in minutes */
    { SCC_COLL_ALLTOALL, { SCC_ALG_NOCMSG, SCC_SIM_PAIRWISE, SCC_SIM_LINEAR }, 3, 16 },
};
#define NSPEC ((int) (sizeof(specs) / sizeof(specs[0])))

static double run(const scc_sim_params_t *p, scc_coll_t coll, int alg, int root, double bytes,
                  int *failed)
{
    scc_sim_case_t c;
    scc_sim_out_t o;

    memset(&c, 0, sizeof(c));
    c.coll = coll;
    c.alg = alg;
    c.root = root;
    c.bytes = bytes;
    c.max_blocks = MAXB;
    if (0 != scc_sim_run_case(p, &c, &o)) {
        *failed = 1;
        return NAN;
    }
    return o.t;
}

/* Size where the curves of a and b cross between sizes i-1 and i (log-log). */
static double crossing(const double *ta, const double *tb, int i)
{
    double d0 = log(ta[i - 1] / tb[i - 1]), d1 = log(ta[i] / tb[i]);
    double l0 = log(sizes[i - 1]), l1 = log(sizes[i]);
    if (d0 == d1) {
        return sizes[i];
    }
    return exp(l0 + (l1 - l0) * d0 / (d0 - d1));
}

int scc_sim_exp_scale(const scc_sim_params_t *p, const char *dir, int max_side)
{
    FILE *f = scc_sim_open(dir, "scale.md"), *th = scc_sim_open(dir, "thresholds.md");
    int failed = 0;
    char b[4][32];

    if (!f || !th) {
        return -1;
    }
    fprintf(f, "# Every algorithm on meshes up to %dx%d tiles\n\n", max_side, max_side);
    fprintf(f, "SCC costs (sim/params/scc.conf), %g cores per tile, the component's transport (%g slots\n"
               "of %g B per core). Root: the central tile's first core. Bytes: per rank; alltoall: each\n"
               "rank's whole send buffer (n blocks). Pipelines longer than %d blocks are extrapolated\n"
               "from runs of %d and %d blocks.\n",
            p->K, p->window, scc_sim_slot(p), MAXB, MAXB / 2, MAXB);
    fprintf(th, "# Crossovers and suggested thresholds\n\n");
    fprintf(th, "For each collective and mesh: the fastest algorithm by size range, and the modeled\n"
                "size where it hands over to the next (log-log interpolation between the sizes run).\n\n");

    for (int si = 0; si < NSPEC; ++si) {
        const spec_t *sp = &specs[si];
        char name[64];
        FILE *dat;
        snprintf(name, sizeof(name), "scale_%s.dat", scc_coll_name(sp->coll));
        dat = scc_sim_open(dir, name);
        if (NULL == dat) {
            return -1;
        }
        fprintf(f, "\n## %s\n", scc_coll_name(sp->coll));
        fprintf(th, "## %s\n\n| mesh | ranks | fastest by size |\n|---|---|---|\n", scc_coll_name(sp->coll));
        for (int mi = 0; mi < NMESH; ++mi) {
            int X = sides[mi][0], Y = sides[mi][1];
            int K = (int) lrint(p->K), n = X * Y * K;
            int root = ((Y - 1) / 2 * X + X / 2) * K;
            int bar = SCC_COLL_BARRIER == sp->coll, a2a = SCC_COLL_ALLTOALL == sp->coll;
            int nsz = bar ? 1 : NSZ;
            double t[8][NSZ];
            int best[NSZ];
            scc_sim_params_t q = *p;

            if (X > max_side || Y > max_side || X > sp->max_side) {
                continue;
            }
            q.X = X;
            q.Y = Y;
            fprintf(f, "\n### %dx%d tiles, %d ranks\n\n| bytes |", X, Y, n);
            /* a header row per gnuplot index (one, over ranks, for the barrier) */
            fprintf(dat, "# %dx%d tiles, %d ranks; ns per algorithm\n", X, Y, n);
            if (!bar || 0 == mi) {
                fprintf(dat, "%s", bar ? "ranks" : "bytes");
            }
            for (int a = 0; a < sp->nalgs; ++a) {
                fprintf(f, " %s |", scc_sim_alg_name(sp->algs[a]));
                if (!bar || 0 == mi) {
                    fprintf(dat, " %s", scc_sim_alg_name(sp->algs[a]));
                }
            }
            fprintf(f, " fastest |\n|---|");
            if (!bar || 0 == mi) {
                fprintf(dat, "\n");
            }
            for (int a = 0; a <= sp->nalgs; ++a) {
                fprintf(f, "---|");
            }
            fprintf(f, "\n");
            for (int s = 0; s < nsz; ++s) {
                double bytes = bar ? 0 : sizes[s];
                best[s] = -1;
                if (a2a && bytes / n < 1) {
                    for (int a = 0; a < sp->nalgs; ++a) {
                        t[a][s] = NAN;
                    }
                    continue;
                }
                for (int a = 0; a < sp->nalgs; ++a) {
                    t[a][s] = run(&q, sp->coll, sp->algs[a], root, a2a ? floor(bytes / n) : bytes,
                                  &failed);
                    if (!isnan(t[a][s]) && (best[s] < 0 || t[a][s] < t[best[s]][s])) {
                        best[s] = a;
                    }
                }
                fprintf(f, "| %s |", bar ? "0" : scc_sim_fmt_bytes(bytes, b[0], 32));
                fprintf(dat, "%g", bar ? (double) n : bytes);  /* barrier: plotted over ranks */
                for (int a = 0; a < sp->nalgs; ++a) {
                    fprintf(f, " %s |", scc_sim_fmt_time(t[a][s], b[1], 32));
                    fprintf(dat, " %g", t[a][s]);
                }
                fprintf(f, " %s |\n", best[s] >= 0 ? scc_sim_alg_name(sp->algs[best[s]]) : "-");
                fprintf(dat, "\n");
            }
            if (!bar) {
                fprintf(dat, "\n\n");  /* one gnuplot index per mesh */
            }

            /* fastest by size range, with interpolated crossovers */
            fprintf(th, "| %dx%d | %d |", X, Y, n);
            if (bar) {
                fprintf(th, " %s (%s) |\n", best[0] >= 0 ? scc_sim_alg_name(sp->algs[best[0]]) : "-",
                        best[0] >= 0 ? scc_sim_fmt_time(t[best[0]][0], b[0], 32) : "-");
                continue;
            }
            {
                int cur = -1;
                for (int s = 0; s < nsz; ++s) {
                    if (best[s] < 0) {
                        continue;
                    }
                    if (cur < 0) {
                        fprintf(th, " %s", scc_sim_alg_name(sp->algs[best[s]]));
                    } else if (best[s] != best[cur]) {
                        double x = crossing(t[best[cur]], t[best[s]], s);
                        fprintf(th, " < %s < %s", scc_sim_fmt_bytes(round(x), b[0], 32),
                                scc_sim_alg_name(sp->algs[best[s]]));
                    }
                    cur = s;
                }
                fprintf(th, " |\n");
            }
        }
        fprintf(th, "\n");
        fclose(dat);
    }
    fclose(f);
    fclose(th);
    return failed ? -1 : 0;
}
