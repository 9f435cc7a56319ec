/* scc_sim_exp_cluster_var.c: the cluster study's checks -- the assumed network varied, the
 * emulated test bed (nodes on this machine over loopback TCP), the extrapolation. */
#include <math.h>
#include <string.h>

#include "scc_sim_exp_cluster.h"
#include "scc_sim_out.h"

#define NSZ SCC_CL_NSZ

/* One variant of the preset: a parameter set to a value (none: the preset), or the node's
 * single copy off. */
typedef struct variant {
    const char *what, *param;
    double value;
    int no_cma;
} variant_t;

static const variant_t variants[] = {
    { "the preset", NULL, 0, 0 },
    { "latency 0.75 us", "net_lat_ns", 750, 0 },
    { "latency 3 us", "net_lat_ns", 3000, 0 },
    { "isend and receive 1 us each", NULL, 1000, 0 },
    { "25 Gb/s", "net_ns_b", 0.32, 0 },
    { "400 Gb/s", "net_ns_b", 0.02, 0 },
    { "eager up to 64 KiB", "net_eager", 65536, 0 },
    { "no single copy in the nodes (8 KiB blocks)", NULL, 0, 1 },
};
#define NVAR ((int) (sizeof(variants) / sizeof(variants[0])))

/* The configurations the variants run on: nodes x cores */
static const int vcfg[][2] = { { 256, 1 }, { 64, 8 } };

static void sweep(const scc_sim_params_t *q, const scc_sim_cluster_t *cl, int si, int no_cma,
                  double t[][NSZ], int *failed)
{
    const scc_cl_spec_t *sp = &scc_cl_specs[si];
    for (int a = 0; a < SCC_CL_MAXA; ++a) {
        for (int s = 0; s < NSZ; ++s) {
            t[a][s] = a < sp->na ? scc_cl_run(q, cl, sp->coll, &sp->a[a], scc_cl_sizes[s], no_cma,
                                              failed)
                                 : NAN;
        }
    }
}

static int sensitivity(const scc_sim_params_t *p, FILE *f)
{
    double t[SCC_CL_MAXA][NSZ];
    int failed = 0;

    fprintf(f, "\n## The assumptions varied\n\n"
               "The network of the preset is assumed. The fastest schedule by size range with one "
               "assumption changed at a time (every schedule compared, the component's or not):\n\n"
               "| variant | nodes x cores | bcast | allreduce |\n|---|---|---|---|\n");
    for (int c = 0; c < (int) (sizeof(vcfg) / sizeof(vcfg[0])); ++c) {
        scc_sim_cluster_t cl;
        if (0 != scc_sim_cluster_init(&cl, vcfg[c][0], vcfg[c][1])) {
            return -1;
        }
        for (int v = 0; v < NVAR; ++v) {
            scc_sim_params_t q = *p;
            if (NULL != variants[v].param) {
                *scc_sim_params_field(&q, variants[v].param) = variants[v].value;
            } else if (variants[v].value > 0) {
                q.net_o_send = q.net_o_recv = variants[v].value;
            }
            fprintf(f, "| %s | %d x %d |", variants[v].what, vcfg[c][0], vcfg[c][1]);
            for (int si = 0; si < 2; ++si) {
                sweep(&q, &cl, si, variants[v].no_cma, t, &failed);
                scc_cl_ranges(f, &scc_cl_specs[si], t, ~0u);
                fprintf(f, " |");
            }
            fprintf(f, "\n");
        }
        scc_sim_cluster_free(&cl);
    }
    return failed ? -1 : 0;
}

/* The test bed of issue 14 on the model: 2 nodes x 2, 4 x 1, 3 x 2. */
static int testbed(const scc_sim_params_t *em, FILE *f)
{
    static const int tb[][2] = { { 2, 2 }, { 4, 1 }, { 3, 2 } };
    static const struct { int si; double bytes; } cells[] = {
        { 0, 8 }, { 0, 65536 }, { 1, 8 }, { 1, 65536 },
    };
    char b[32];
    int failed = 0;

    fprintf(f, "\n## The emulated test bed\n\n"
               "Nodes emulated on this machine (issue 14's test bed): loopback TCP between them "
               "(latency %g ns, %g ns/B, isend and receive %g ns each, eager up to %g B: "
               "sim/params/cluster-emulated.conf, measured here under load), the preset's shared "
               "memory inside. The model gives every process a core, the test bed runs 4 to 6 "
               "processes on 2 cores, and the loopback was measured under load: an indication "
               "for compare.sh, not a prediction.\n\n"
               "| nodes x cores | collective | bytes | each schedule between the nodes |\n"
               "|---|---|---|---|\n",
            em->net_lat_ns, em->net_ns_b, em->net_o_send, em->net_eager);
    for (int c = 0; c < (int) (sizeof(tb) / sizeof(tb[0])); ++c) {
        scc_sim_cluster_t cl;
        if (0 != scc_sim_cluster_init(&cl, tb[c][0], tb[c][1])) {
            return -1;
        }
        for (int k = 0; k < (int) (sizeof(cells) / sizeof(cells[0])); ++k) {
            const scc_cl_spec_t *sp = &scc_cl_specs[cells[k].si];
            fprintf(f, "| %d x %d | %s | %s |", tb[c][0], tb[c][1], scc_coll_name(sp->coll),
                    scc_sim_fmt_bytes(cells[k].bytes, b, sizeof(b)));
            for (int a = 0; a < sp->na; ++a) {
                double t = scc_cl_run(em, &cl, sp->coll, &sp->a[a], cells[k].bytes, 0, &failed);
                fprintf(f, "%s %s %s", a ? "," : "", sp->a[a].name,
                        scc_sim_fmt_time(t, b, sizeof(b)));
            }
            fprintf(f, " |\n");
        }
        scc_sim_cluster_free(&cl);
    }
    return failed ? -1 : 0;
}

/* Full runs against the line through two shorter ones, at 64 nodes x 8. */
static int extrapolation(const scc_sim_params_t *p, FILE *f)
{
    static const struct { scc_coll_t coll; scc_inter_t inter; int first, no_cma; double bytes; } chk[] = {
        { SCC_COLL_ALLREDUCE, SCC_INTER_BINOMIAL, 0, 0, 4194304 },
        { SCC_COLL_ALLREDUCE, SCC_INTER_BUTTERFLY, 0, 0, 4194304 },
        { SCC_COLL_ALLREDUCE, SCC_INTER_RING, 0, 0, 4194304 },
        { SCC_COLL_ALLREDUCE, SCC_INTER_RING, 1, 0, 4194304 },
        { SCC_COLL_BCAST, SCC_INTER_JIA, 0, 1, 4194304 },
        { SCC_COLL_BCAST, SCC_INTER_DOPL, 0, 1, 4194304 },
    };
    scc_sim_cluster_t cl;
    char b[2][32];
    int rc = 0;

    if (0 != scc_sim_cluster_init(&cl, 64, 8)) {
        return -1;
    }
    fprintf(f, "\n## Extrapolation check\n\n64 nodes x 8 cores, 4 MiB in 8 KiB blocks (DOPL: 4 "
               "KiB), the full run against the line through %d and %d blocks (rings: 64 and 128):\n\n"
               "| collective | schedule | full run | extrapolated | difference |\n|---|---|---|---|---|\n",
            SCC_CL_MAXB / 2, SCC_CL_MAXB);
    for (size_t i = 0; i < sizeof(chk) / sizeof(chk[0]); ++i) {
        scc_sim_ccase_t c;
        scc_sim_cout_t o1, o2;
        memset(&c, 0, sizeof(c));
        c.coll = chk[i].coll;
        c.inter = chk[i].inter;
        c.node_first = chk[i].first;
        c.no_cma = chk[i].no_cma;
        c.bytes = chk[i].bytes;
        rc |= scc_sim_cluster_run(p, &cl, &c, &o1);
        c.max_blocks = SCC_CL_MAXB;
        rc |= scc_sim_cluster_run(p, &cl, &c, &o2);
        fprintf(f, "| %s | %s%s | %s | %s | %+.2f%% |\n", scc_coll_name(c.coll),
                scc_inter_name(c.inter), c.node_first ? "*" : "", scc_sim_fmt_time(o1.t, b[0], 32),
                scc_sim_fmt_time(o2.t, b[1], 32), 100 * (o2.t / o1.t - 1));
    }
    scc_sim_cluster_free(&cl);
    return rc;
}

int scc_cl_variants(const scc_sim_params_t *p, const scc_sim_params_t *emulated, FILE *f)
{
    int rc = sensitivity(p, f);
    if (NULL != emulated) {
        rc |= testbed(emulated, f);
    }
    return rc | extrapolation(p, f);
}
