/* scc_sim_exp_cluster.c: the cluster study -- which schedule between nodes wins where, for 16 ..
 * 1024 nodes of 1, 8 and 32 cores and 8 B .. 16 MB; crossovers and suggested thresholds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scc_sim_exp.h"
#include "scc_sim_exp_cluster.h"
#include "scc_sim_out.h"

/* Nodes x cores: powers of two, where binomial trees and Jia are at their best, 48 and 768
 * between them, and 3 and 6 for small jobs.  1024 x 32 (32768 processes) is left out: its
 * replays hold ~13 GB of steps and take tens of minutes. */
static const int cfgs[][2] = { { 3, 8 },    { 6, 8 },    { 16, 1 },  { 16, 8 },  { 16, 32 },
                               { 48, 1 },   { 48, 8 },   { 64, 1 },  { 64, 8 },  { 64, 32 },
                               { 256, 1 },  { 256, 8 },  { 256, 32 }, { 768, 1 }, { 1024, 1 },
                               { 1024, 8 } };
#define NCFG ((int) (sizeof(cfgs) / sizeof(cfgs[0])))
#define NSZ SCC_CL_NSZ
#define MAXA SCC_CL_MAXA
#define NSPEC SCC_CL_NSPEC

const double scc_cl_sizes[SCC_CL_NSZ] = { 8,      32,      128,     512,     2048,    8192,
                                          32768,  131072,  524288,  2097152, 8388608, 16777216 };

/* The component's defaults across nodes (coll_scc_select.c) */
#define JIA_MIN_NOW 65536.0
#define RING_MIN_NOW 262144.0

const scc_cl_spec_t scc_cl_specs[SCC_CL_NSPEC] = {
    { SCC_COLL_BCAST,
      { { SCC_INTER_BINOMIAL, 0, 0, "binomial", 1 }, { SCC_INTER_JIA, 0, 0, "jia", 1 },
        { SCC_INTER_DOPL, 0, 0, "dopl", 1 }, { SCC_INTER_TREE, 2, 0, "tree2", 0 },
        { SCC_INTER_TREE, 4, 0, "tree4", 0 }, { SCC_INTER_TREE, 8, 0, "tree8", 0 } }, 6 },
    { SCC_COLL_ALLREDUCE,
      { { SCC_INTER_BINOMIAL, 0, 0, "binomial", 1 }, { SCC_INTER_RING, 0, 0, "ring", 1 },
        { SCC_INTER_RING, 0, 1, "ring*", 0 }, { SCC_INTER_BUTTERFLY, 0, 0, "butterfly", 0 } },
      4 },
    { SCC_COLL_BARRIER,
      { { SCC_INTER_DISSEM, 0, 0, "dissem", 1 }, { SCC_INTER_BINOMIAL, 0, 0, "binomial", 1 } },
      2 },
};
enum { BC = 0, AR = 1, BAR = 2 };
enum { BC_BINOMIAL, BC_JIA, BC_DOPL, BC_TREE2, BC_TREE4, BC_TREE8 };
enum { AR_BINOMIAL, AR_RING, AR_RING1, AR_BUTTERFLY };

/* times[spec][cfg][alg][size], ns (NAN: not run) */
static double T[NSPEC][NCFG][MAXA][NSZ];

static int cfg_nodes(int k) { return cfgs[k][0]; }
static int cfg_cores(int k) { return cfgs[k][1]; }

double scc_cl_run(const scc_sim_params_t *p, const scc_sim_cluster_t *cl, scc_coll_t coll,
                  const scc_cl_alg_t *a, double bytes, int no_cma, int *failed)
{
    scc_sim_ccase_t c;
    scc_sim_cout_t o;

    memset(&c, 0, sizeof(c));
    c.coll = coll;
    c.inter = a->inter;
    c.fanout = a->fanout > 0 ? a->fanout : 2;
    c.node_first = a->first;
    c.bytes = bytes;
    /* the ring as generated stalls by an amount that is not linear in its blocks (the
       extrapolation check): always a full run */
    c.max_blocks = SCC_INTER_RING == a->inter && !a->first ? 0 : SCC_CL_MAXB;
    c.no_cma = no_cma;
    if (0 != scc_sim_cluster_run(p, cl, &c, &o)) {
        *failed = 1;
        return NAN;
    }
    return o.t;
}

int scc_cl_fastest(const scc_cl_spec_t *sp, double t[][NSZ], int s, unsigned mask)
{
    int best = -1;
    for (int a = 0; a < sp->na; ++a) {
        /* within 2% is a tie, kept by the first listed: no model is closer than that, and
           extrapolated runs differ by up to 0.5% from full ones */
        if ((mask >> a & 1) && !isnan(t[a][s]) && (best < 0 || t[a][s] < 0.98 * t[best][s])) {
            best = a;
        }
    }
    return best;
}

/* Size where a and b cross between sizes i-1 and i (log-log; at an end of the interval when
 * b was ahead, within the tie, already at i-1). */
static double crossing(const double *ta, const double *tb, int i)
{
    double d0 = log(ta[i - 1] / tb[i - 1]), d1 = log(ta[i] / tb[i]);
    double l0 = log(scc_cl_sizes[i - 1]), l1 = log(scc_cl_sizes[i]);
    double f = d0 == d1 ? 1 : d0 / (d0 - d1);
    return exp(l0 + (l1 - l0) * (f < 0 ? 0 : f > 1 ? 1 : f));
}

void scc_cl_ranges(FILE *f, const scc_cl_spec_t *sp, double t[][NSZ], unsigned mask)
{
    int cur = -1;
    char b[32];
    for (int s = 0; s < NSZ; ++s) {
        int best = scc_cl_fastest(sp, t, s, mask);
        if (best < 0) {
            continue;
        }
        if (cur >= 0 && t[cur][s] <= t[best][s] / 0.98) {
            best = cur;     /* a tie keeps the range going */
        }
        if (cur < 0) {
            fprintf(f, " %s", sp->a[best].name);
        } else if (best != cur) {
            fprintf(f, " < %s < %s", scc_sim_fmt_bytes(round(crossing(t[cur], t[best], s)), b,
                                                       sizeof(b)), sp->a[best].name);
        }
        cur = best;
    }
}

/* A choice of lo below min and hi from it, at size s. */
static double pick(double t[][NSZ], int lo, int hi, double min, int s)
{
    return scc_cl_sizes[s] >= min ? t[hi][s] : t[lo][s];
}

/* Worst and geometric-mean ratio, over every configuration and size, of choosing lo below
 * min and hi from it, against the faster of the two. */
static void loss(int si, int lo, int hi, double min, double *worst, double *mean)
{
    double sum = 0;
    int k = 0;
    *worst = 1;
    for (int cfg = 0; cfg < NCFG; ++cfg) {
        double (*t)[NSZ] = T[si][cfg];
        for (int s = 0; s < NSZ; ++s) {
            double r;
            if (isnan(t[lo][s]) || isnan(t[hi][s])) {
                continue;
            }
            r = pick(t, lo, hi, min, s) / fmin(t[lo][s], t[hi][s]);
            *worst = r > *worst ? r : *worst;
            sum += log(r);
            k++;
        }
    }
    *mean = k ? exp(sum / k) : 1;
}

/* A threshold between two schedules: lo below it, hi from it. */
typedef struct pair {
    int si, lo, hi;
    double now;          /* today's default, or 0 */
    const char *what;
} pair_t;

/* For each pair, the loss of every candidate threshold (the sizes run, today's, never) and
 * the one that keeps the worst loss smallest, then the mean. */
static void suggest(FILE *th, const pair_t *pr, int np)
{
    char b[32];
    double best[8], bw[8], bm[8];

    fprintf(th, "Worst / geometric-mean ratio to the faster of the two, over every configuration "
                "and size, for each threshold (the lower schedule below it, the other from it):\n\n"
                "| from |");
    for (int i = 0; i < np; ++i) {
        fprintf(th, " %s < %s |", scc_cl_specs[pr[i].si].a[pr[i].lo].name,
                scc_cl_specs[pr[i].si].a[pr[i].hi].name);
        best[i] = bw[i] = bm[i] = INFINITY;
    }
    fprintf(th, "\n|---|");
    for (int i = 0; i < np; ++i) {
        fprintf(th, "---|");
    }
    fprintf(th, "\n");
    for (int c = 0; c <= NSZ + 1; ++c) {
        double min = c < NSZ ? scc_cl_sizes[c] : c == NSZ ? pr[0].now : INFINITY;
        if (c == NSZ && pr[0].now <= 0) {
            continue;
        }
        fprintf(th, "| %s%s |", isinf(min) ? "never" : scc_sim_fmt_bytes(min, b, sizeof(b)),
                c == NSZ ? " (today)" : "");
        for (int i = 0; i < np; ++i) {
            double w, m;
            if (c == NSZ && pr[i].now != pr[0].now) {
                fprintf(th, " |");
                continue;
            }
            loss(pr[i].si, pr[i].lo, pr[i].hi, min, &w, &m);
            fprintf(th, " %.2f / %.2f |", w, m);
            if (c != NSZ && (w < bw[i] - 1e-9 || (w < bw[i] + 1e-9 && m < bm[i] - 1e-9))) {
                best[i] = min;
                bw[i] = w;
                bm[i] = m;
            }
        }
        fprintf(th, "\n");
    }
    fprintf(th, "\n");
    for (int i = 0; i < np; ++i) {
        fprintf(th, "- %s: **%s from %s** (worst %.2f, mean %.2f)\n", pr[i].what,
                scc_cl_specs[pr[i].si].a[pr[i].hi].name,
                isinf(best[i]) ? "never" : scc_sim_fmt_bytes(best[i], b, sizeof(b)), bw[i], bm[i]);
    }
    fprintf(th, "\n");
}

static void table(FILE *f, FILE *dat, int si, int cfg)
{
    const scc_cl_spec_t *sp = &scc_cl_specs[si];
    double (*t)[NSZ] = T[si][cfg];
    const double now = BC == si ? JIA_MIN_NOW : RING_MIN_NOW;
    char b[2][32];

    fprintf(f, "\n### %d nodes x %d cores\n\n| bytes |", cfg_nodes(cfg), cfg_cores(cfg));
    fprintf(dat, "# %d nodes x %d cores; ns\nbytes", cfg_nodes(cfg), cfg_cores(cfg));
    for (int a = 0; a < sp->na; ++a) {
        fprintf(f, " %s |", sp->a[a].name);
        fprintf(dat, " %s", sp->a[a].name);
    }
    fprintf(f, " fastest | today / fastest |\n|---|");
    fprintf(dat, " fastest\n");
    for (int a = 0; a <= sp->na + 1; ++a) {
        fprintf(f, "---|");
    }
    fprintf(f, "\n");
    for (int s = 0; s < NSZ; ++s) {
        int best = scc_cl_fastest(sp, t, s, ~0u);
        fprintf(f, "| %s |", scc_sim_fmt_bytes(scc_cl_sizes[s], b[0], 32));
        fprintf(dat, "%g", scc_cl_sizes[s]);
        for (int a = 0; a < sp->na; ++a) {
            fprintf(f, " %s |", scc_sim_fmt_time(t[a][s], b[1], 32));
            fprintf(dat, " %g", t[a][s]);
        }
        /* today: binomial, then Jia (bcast) or the ring (allreduce), both index 1 */
        fprintf(f, " %s | %.2f |\n", best >= 0 ? sp->a[best].name : "-",
                best >= 0 ? pick(t, 0, 1, now, s) / t[best][s] : NAN);
        fprintf(dat, " %g\n", best >= 0 ? t[best][s] : NAN);
    }
    fprintf(dat, "\n\n");
}

/* An algorithm against the faster of lo and hi: cells where it is the fastest of all, and
 * its largest gain. */
static void wins(FILE *th, int si, int a, int lo, int hi)
{
    const scc_cl_spec_t *sp = &scc_cl_specs[si];
    double gain = 1, at = 0;
    int cells = 0, gcfg = 0;
    char b[32];

    for (int cfg = 0; cfg < NCFG; ++cfg) {
        double (*t)[NSZ] = T[si][cfg];
        for (int s = 0; s < NSZ; ++s) {
            double ref = fmin(t[lo][s], t[hi][s]);
            cells += scc_cl_fastest(sp, t, s, ~0u) == a;
            if (!isnan(t[a][s]) && ref / t[a][s] > gain) {
                gain = ref / t[a][s];
                at = scc_cl_sizes[s];
                gcfg = cfg;
            }
        }
    }
    fprintf(th, "| %s | %d of %d | ", sp->a[a].name, cells, NCFG * NSZ);
    if (gain > 1) {
        fprintf(th, "%.2f (%d nodes x %d, %s) |\n", gain, cfg_nodes(gcfg), cfg_cores(gcfg),
                scc_sim_fmt_bytes(at, b, sizeof(b)));
    } else {
        fprintf(th, "never faster |\n");
    }
}

static void intro(FILE *f, FILE *th, const scc_sim_params_t *p)
{
    fprintf(f, "# Schedules between nodes on a cluster (`scc_sim cluster`)\n\n"
               "The cluster preset, sim/params/cluster.conf: network ASSUMED (latency %g ns, %g ns/B "
               "per node port = %.1f GB/s, %g ns per message at a port, isend %g ns and receive %g ns "
               "on the core, rendezvous above %g B; one message in and one out at a time per node); "
               "inside a node the component's shared memory (single copy from %g B, costs measured "
               "here). The component's hierarchical schedules (coll_scc_sched_hier.c) and its "
               "blocks: bcast 8 KiB, 256 KiB (single copy) from 8 KiB; reductions 8 KiB, 64 KiB from "
               "8 KiB to 256 KiB (not the butterfly's). Ranks node by node, root rank 0. Pipelines "
               "longer than %d blocks are extrapolated (rings: from N and 2N blocks; checked below).\n\n"
               "bcast: binomial, jia, dopl (the near-square node grid, 4 blocks a part) between the "
               "leaders; treeK: a K-ary tree, not reachable across nodes today (the component's "
               "`tree` runs the binomial tree there). allreduce: binomial = the component's `tree` "
               "(a reduce to rank 0, then a bcast, both hierarchical); ring as generated; ring* = "
               "the same ring with each leader combining its whole node before its first step "
               "between nodes (a what-if: the generator combines block by block where the ring "
               "first needs them); butterfly, which the component declines across nodes (its "
               "messages must be copies). today: the component's selection (bcast jia from %g B, "
               "allreduce ring from %g B); today / fastest: what it loses.\n",
            p->net_lat_ns, p->net_ns_b, 1.0 / p->net_ns_b, p->net_gap_ns, p->net_o_send,
            p->net_o_recv, p->net_eager, p->cma_min, SCC_CL_MAXB, JIA_MIN_NOW, RING_MIN_NOW);
    fprintf(th, "# Thresholds across nodes (`scc_sim cluster`, cluster preset)\n\n"
                "Modeled with sim/params/cluster.conf: the network is assumed (%g ns latency, "
                "%.1f GB/s per node port), not measured. Crossovers: log-log interpolation between "
                "the sizes run, bytes per rank; the tables behind them are in cluster.md.\n",
            p->net_lat_ns, 1.0 / p->net_ns_b);
}

static int write_out(const scc_sim_params_t *p, const scc_sim_params_t *em, const char *dir)
{
    static const pair_t bc[] = {
        { BC, BC_BINOMIAL, BC_JIA, JIA_MIN_NOW, "`coll_scc_nodes_jia_min`" },
        { BC, BC_TREE4, BC_JIA, 0, "a 4-ary tree between nodes (not selectable today) below" },
        { BC, BC_TREE8, BC_JIA, 0, "an 8-ary tree between nodes (not selectable today) below" },
    };
    static const pair_t ar[] = {
        { AR, AR_BINOMIAL, AR_RING, RING_MIN_NOW, "`coll_scc_nodes_ring_min`, the ring as generated" },
        { AR, AR_BINOMIAL, AR_RING1, 0, "`coll_scc_nodes_ring_min` once leaders combine their node first" },
        { AR, AR_BUTTERFLY, AR_BINOMIAL, 0, "the butterfly (declined today) below" },
    };
    FILE *f = scc_sim_open(dir, "cluster.md"), *th = scc_sim_open(dir, "thresholds_cluster.md");
    char b[2][32];
    int rc = 0;

    if (!f || !th) {
        return -1;
    }
    intro(f, th, p);
    for (int si = BC; si <= AR; ++si) {
        const scc_cl_spec_t *sp = &scc_cl_specs[si];
        char name[64];
        FILE *dat;
        unsigned comp = 0;
        for (int a = 0; a < sp->na; ++a) {
            comp |= (unsigned) sp->a[a].comp << a;
        }
        snprintf(name, sizeof(name), "cluster_%s.dat", scc_coll_name(sp->coll));
        if (NULL == (dat = scc_sim_open(dir, name))) {
            return -1;
        }
        fprintf(f, "\n## %s\n", scc_coll_name(sp->coll));
        fprintf(th, "\n## %s\n\n| nodes | cores | the component's schedules | all |\n"
                    "|---|---|---|---|\n", scc_coll_name(sp->coll));
        for (int cfg = 0; cfg < NCFG; ++cfg) {
            table(f, dat, si, cfg);
            fprintf(th, "| %d | %d |", cfg_nodes(cfg), cfg_cores(cfg));
            scc_cl_ranges(th, sp, T[si][cfg], comp);
            fprintf(th, " |");
            scc_cl_ranges(th, sp, T[si][cfg], ~0u);
            fprintf(th, " |\n");
        }
        fclose(dat);
        fprintf(th, "\n");
        suggest(th, BC == si ? bc : ar, 3);
        fprintf(th, "Against the faster of %s and %s:\n\n| schedule | cells where fastest of all "
                    "| largest gain (faster of the two / it) |\n|---|---|---|\n",
                sp->a[0].name, sp->a[1].name);
        for (int a = 2; a < sp->na; ++a) {
            wins(th, si, a, 0, 1);
        }
    }
    {
        FILE *dat = scc_sim_open(dir, "cluster_barrier.dat");
        if (NULL == dat) {
            return -1;
        }
        fprintf(f, "\n## barrier\n\n| nodes | cores | dissem | binomial | binomial / dissem |\n"
                   "|---|---|---|---|---|\n");
        fprintf(th, "\n## barrier\n\n| nodes | cores | dissem | binomial | binomial / dissem |\n"
                    "|---|---|---|---|---|\n");
        for (int cfg = 0; cfg < NCFG; ++cfg) {
            double d = T[BAR][cfg][0][0], bi = T[BAR][cfg][1][0];
            for (int k = 0; k < 2; ++k) {
                fprintf(k ? th : f, "| %d | %d | %s | %s | %.2f |\n", cfg_nodes(cfg),
                        cfg_cores(cfg), scc_sim_fmt_time(d, b[0], 32),
                        scc_sim_fmt_time(bi, b[1], 32), bi / d);
            }
        }
        /* one gnuplot block per number of cores, by nodes */
        static const int cores[] = { 1, 8, 32 };
        for (int k = 0; k < 3; ++k) {
            const int c = cores[k];
            fprintf(dat, "# %d cores\nnodes dissem binomial\n", c);
            for (int cfg = 0; cfg < NCFG; ++cfg) {
                if (cfg_cores(cfg) == c) {
                    fprintf(dat, "%d %g %g\n", cfg_nodes(cfg), T[BAR][cfg][0][0],
                            T[BAR][cfg][1][0]);
                }
            }
            fprintf(dat, "\n\n");
        }
        fclose(dat);
    }
    rc = scc_cl_variants(p, em, f);
    fclose(f);
    fclose(th);
    return rc;
}

int scc_sim_exp_cluster(const scc_sim_params_t *p, const scc_sim_params_t *emulated,
                        const char *dir)
{
    int failed = 0;

    for (int cfg = 0; cfg < NCFG; ++cfg) {
        scc_sim_cluster_t cl;
        clock_t c0 = clock();
        if (0 != scc_sim_cluster_init(&cl, cfg_nodes(cfg), cfg_cores(cfg))) {
            return -1;
        }
        for (int si = 0; si < NSPEC; ++si) {
            const scc_cl_spec_t *sp = &scc_cl_specs[si];
            for (int a = 0; a < MAXA; ++a) {
                for (int s = 0; s < NSZ; ++s) {
                    T[si][cfg][a][s] = NAN;
                }
            }
            for (int a = 0; a < sp->na; ++a) {
                for (int s = 0; s < (BAR == si ? 1 : NSZ); ++s) {
                    T[si][cfg][a][s] = scc_cl_run(p, &cl, sp->coll, &sp->a[a],
                                                  BAR == si ? 0 : scc_cl_sizes[s], 0, &failed);
                }
            }
        }
        scc_sim_cluster_free(&cl);
        fprintf(stderr, "scc_sim cluster: %d nodes x %d cores: %.1f s\n", cfg_nodes(cfg),
                cfg_cores(cfg), (double) (clock() - c0) / CLOCKS_PER_SEC);
    }
    if (0 != write_out(p, emulated, dir)) {
        return -1;
    }
    return failed ? -1 : 0;
}
