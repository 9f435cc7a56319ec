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
    int algs[9];
    int fanout[9];     /* TREE: the fan-out at every level */
    int nalgs;
    int max_side;      /* largest mesh side this collective runs on */
} spec_t;

#define T SCC_ALG_TREE
static const spec_t specs[] = {
    { SCC_COLL_BCAST, { SCC_ALG_NOCMSG, SCC_ALG_DOPL, SCC_ALG_JIA, T, T, T, SCC_SIM_BINOMIAL, SCC_SIM_LINEAR },
      { 0, 0, 0, 2, 4, 8, 0, 0 }, 8, 32 },
    { SCC_COLL_REDUCE, { SCC_ALG_NOCMSG, T, T, T, SCC_SIM_BINOMIAL, SCC_SIM_LINEAR }, { 0, 2, 4, 8, 0, 0 }, 6,
      32 },
    { SCC_COLL_ALLREDUCE, { SCC_ALG_NOCMSG, SCC_SIM_BINOMIAL, SCC_SIM_LINEAR }, { 0 }, 3, 32 },
    { SCC_COLL_BARRIER, { SCC_ALG_NOCMSG, SCC_ALG_NOCMSG_FANIN, SCC_SIM_BINOMIAL, SCC_SIM_LINEAR }, { 0 }, 4,
      32 },
    /* n^2 messages: 16x16 tiles (512 ranks) keeps the run in minutes */
    { SCC_COLL_ALLTOALL, { SCC_ALG_NOCMSG, SCC_SIM_PAIRWISE, SCC_SIM_LINEAR }, { 0 }, 3, 16 },
};
#undef T

/* "tree4" for a tree of fan-out 4, else the algorithm's name */
static const char *name_of(const spec_t *sp, int a)
{
    static char buf[9][16];
    if (SCC_ALG_TREE == sp->algs[a]) {
        snprintf(buf[a], sizeof(buf[a]), "tree%d", sp->fanout[a]);
        return buf[a];
    }
    return scc_sim_alg_name(sp->algs[a]);
}
#define NSPEC ((int) (sizeof(specs) / sizeof(specs[0])))

static double run(const scc_sim_params_t *p, scc_coll_t coll, int alg, int fanout, int root,
                  double bytes, int *failed)
{
    scc_sim_case_t c;
    scc_sim_out_t o;

    memset(&c, 0, sizeof(c));
    c.coll = coll;
    c.alg = alg;
    if (fanout > 0) {
        c.fanout[0] = fanout;
        c.nlevels = 1;
    }
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

/* Writes the fastest algorithm by size range among algs[] with mask bit set,
 * with the interpolated crossover sizes. */
static void ranges(FILE *th, const spec_t *sp, double t[][NSZ], int nsz, unsigned mask)
{
    int cur = -1;
    char b[32];
    for (int s = 0; s < nsz; ++s) {
        int best = -1;
        for (int a = 0; a < sp->nalgs; ++a) {
            if ((mask >> a & 1) && !isnan(t[a][s]) && (best < 0 || t[a][s] < t[best][s])) {
                best = a;
            }
        }
        if (best < 0) {
            continue;
        }
        if (cur < 0) {
            fprintf(th, " %s", name_of(sp, best));
        } else if (best != cur) {
            double x = crossing(t[cur], t[best], s);
            fprintf(th, " < %s < %s", scc_sim_fmt_bytes(round(x), b, sizeof(b)),
                    name_of(sp, best));
        }
        cur = best;
    }
}

static int is_component(int alg)
{
    return alg < SCC_ALG_COUNT && alg != SCC_ALG_NOCMSG_FANIN;
}

int scc_sim_exp_scale(const scc_sim_params_t *p, const char *dir, int max_side, const char *suffix)
{
    char fname[128], tname[128];
    FILE *f, *th;
    int failed = 0;
    char b[4][32];

    snprintf(fname, sizeof(fname), "scale%s.md", suffix);
    snprintf(tname, sizeof(tname), "thresholds%s.md", suffix);
    f = scc_sim_open(dir, fname);
    th = scc_sim_open(dir, tname);
    if (!f || !th) {
        return -1;
    }
    fprintf(f, "# Every algorithm on meshes up to %dx%d tiles\n\n", max_side, max_side);
    fprintf(f, "SCC costs (fitted on seeds/000's DOPL table; mesh at %g MHz), %g cores per tile, the\n"
               "component's transport (%g slots of %g B per core), links held %s, private memory\n"
               "costed from the buffers' cache state. Root: the central tile's first core. Bytes: per rank;\n"
               "alltoall: each rank's whole send buffer (n blocks of bytes/n). Pipelines longer than %d\n"
               "blocks are extrapolated from runs of %d and %d blocks. nocmsg_fanin is the thesis's\n"
               "fan-in-only barrier, not an MPI barrier: listed, never chosen.\n",
            p->mesh_mhz, p->K, p->window, scc_sim_slot(p),
            lrint(p->link_hold) == SCC_SIM_HOLD_TRANSFER ? "for whole transfers" : "per line packet",
            MAXB, MAXB / 2, MAXB);
    fprintf(th, "# Crossovers and suggested thresholds (links held %s, mesh at %g MHz)\n\n",
            lrint(p->link_hold) == SCC_SIM_HOLD_TRANSFER ? "for whole transfers" : "per line packet",
            p->mesh_mhz);
    fprintf(th, "For each collective and mesh, by size range: the fastest of the component's algorithms\n"
                "(the selection this suggests), then the fastest of all, the simulator's baselines\n"
                "(linear, binomial, pairwise) included. Crossovers are modeled sizes (log-log\n"
                "interpolation between the sizes run); bytes per rank (alltoall: the whole send buffer).\n\n");

    for (int si = 0; si < NSPEC; ++si) {
        const spec_t *sp = &specs[si];
        char name[64];
        FILE *dat;
        snprintf(name, sizeof(name), "scale%s_%s.dat", suffix, scc_coll_name(sp->coll));
        dat = scc_sim_open(dir, name);
        if (NULL == dat) {
            return -1;
        }
        fprintf(f, "\n## %s\n", scc_coll_name(sp->coll));
        fprintf(th, "## %s\n\n| mesh | ranks | component's algorithms | all, baselines included |\n"
                    "|---|---|---|---|\n", scc_coll_name(sp->coll));
        for (int mi = 0; mi < NMESH; ++mi) {
            int X = sides[mi][0], Y = sides[mi][1];
            int K = (int) lrint(p->K), n = X * Y * K;
            int root = ((Y - 1) / 2 * X + X / 2) * K;
            int bar = SCC_COLL_BARRIER == sp->coll, a2a = SCC_COLL_ALLTOALL == sp->coll;
            int nsz = bar ? 1 : NSZ;
            double t[9][NSZ];
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
                fprintf(f, " %s |", name_of(sp, a));
                if (!bar || 0 == mi) {
                    fprintf(dat, " %s", name_of(sp, a));
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
                    t[a][s] = run(&q, sp->coll, sp->algs[a], sp->fanout[a], root,
                                  a2a ? floor(bytes / n) : bytes, &failed);
                    if (!isnan(t[a][s]) && sp->algs[a] != SCC_ALG_NOCMSG_FANIN
                        && (best[s] < 0 || t[a][s] < t[best[s]][s])) {
                        best[s] = a;
                    }
                }
                fprintf(f, "| %s |", bar ? "0" : scc_sim_fmt_bytes(bytes, b[0], 32));
                fprintf(dat, "%g", bar ? (double) n : bytes);  /* barrier: plotted over ranks */
                for (int a = 0; a < sp->nalgs; ++a) {
                    fprintf(f, " %s |", scc_sim_fmt_time(t[a][s], b[1], 32));
                    fprintf(dat, " %g", t[a][s]);
                }
                fprintf(f, " %s |\n", best[s] >= 0 ? name_of(sp, best[s]) : "-");
                fprintf(dat, "\n");
            }
            if (!bar) {
                fprintf(dat, "\n\n");  /* one gnuplot index per mesh */
            }

            /* fastest by size range, with interpolated crossovers */
            {
                unsigned comp = 0, all = 0;
                for (int a = 0; a < sp->nalgs; ++a) {
                    comp |= (unsigned) is_component(sp->algs[a]) << a;
                    all |= (unsigned) (sp->algs[a] != SCC_ALG_NOCMSG_FANIN) << a;
                }
                fprintf(th, "| %dx%d | %d |", X, Y, n);
                if (bar) {
                    for (int k = 0; k < 2; ++k) {
                        int bi = -1;
                        for (int a = 0; a < sp->nalgs; ++a) {
                            if (((k ? all : comp) >> a & 1) && (bi < 0 || t[a][0] < t[bi][0])) {
                                bi = a;
                            }
                        }
                        fprintf(th, " %s (%s) |", name_of(sp, bi),
                                scc_sim_fmt_time(t[bi][0], b[0], 32));
                    }
                    fprintf(th, "\n");
                    continue;
                }
                ranges(th, sp, t, nsz, comp);
                fprintf(th, " |");
                ranges(th, sp, t, nsz, all);
                fprintf(th, " |\n");
            }
        }
        fprintf(th, "\n");
        fclose(dat);
    }
    /* is T(blocks) a line beyond 128 blocks?  4 MiB = 2048 blocks on 16x16 tiles */
    if (max_side >= 16) {
        static const struct { scc_coll_t coll; int alg, fanout; } chk[] = {
            { SCC_COLL_BCAST, SCC_ALG_NOCMSG, 0 }, { SCC_COLL_BCAST, SCC_ALG_DOPL, 0 },
            { SCC_COLL_BCAST, SCC_ALG_JIA, 0 },    { SCC_COLL_BCAST, SCC_ALG_TREE, 4 },
            { SCC_COLL_BCAST, SCC_SIM_BINOMIAL, 0 }, { SCC_COLL_REDUCE, SCC_ALG_NOCMSG, 0 },
            { SCC_COLL_REDUCE, SCC_ALG_TREE, 4 },  { SCC_COLL_ALLREDUCE, SCC_ALG_NOCMSG, 0 },
        };
        scc_sim_params_t q = *p;
        int root = (7 * 16 + 8) * (int) lrint(p->K);
        q.X = q.Y = 16;
        fprintf(f, "\n## Extrapolation check\n\n4 MiB (2048 blocks) on 16x16 tiles, full run against the line through 64 and 128 blocks:\n\n");
        fprintf(f, "| collective | algorithm | full run | extrapolated | difference |\n|---|---|---|---|---|\n");
        for (size_t i = 0; i < sizeof(chk) / sizeof(chk[0]); ++i) {
            scc_sim_case_t c;
            scc_sim_out_t o1, o2;
            memset(&c, 0, sizeof(c));
            c.coll = chk[i].coll;
            c.alg = chk[i].alg;
            c.root = root;
            c.bytes = 4194304;
            if (chk[i].fanout) {
                c.fanout[0] = chk[i].fanout;
                c.nlevels = 1;
            }
            failed |= 0 != scc_sim_run_case(&q, &c, &o1);
            c.max_blocks = MAXB;
            failed |= 0 != scc_sim_run_case(&q, &c, &o2);
            fprintf(f, "| %s | %s%s | %s | %s | %+.1f%% |\n", scc_coll_name(c.coll), scc_sim_alg_name(c.alg),
                    chk[i].fanout ? "4" : "", scc_sim_fmt_time(o1.t, b[0], 32),
                    scc_sim_fmt_time(o2.t, b[1], 32), 100 * (o2.t / o1.t - 1));
        }
    }
    fclose(f);
    fclose(th);
    return failed ? -1 : 0;
}
