/* scc_sim_main.c: command line of the mesh simulator (see sim/README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_cc_coll.h"
#include "scc_sim_cluster.h"
#include "scc_sim_coll.h"
#include "scc_sim_exp.h"
#include "scc_sim_exp_cc.h"
#include "scc_sim_out.h"

static void usage(void)
{
    fprintf(stderr,
            "usage: scc_sim [-p FILE] [-s NAME=VALUE]... [-o DIR] COMMAND\n"
            "  params                          print the parameters in effect\n"
            "  run COLL ALG BYTES [root=R] [n=N] [block=B] [cpp=C] [fanout=K] [maxb=M] [rcce=0|1]\n"
            "                                  model one call (COLL: bcast reduce allreduce barrier\n"
            "                                  alltoall; ALG: jia dopl nocmsg nocmsg_fanin tree\n"
            "                                  linear binomial pairwise thesis_cube\n"
            "                                  thesis_cube_noroot; alltoall BYTES per pair)\n"
            "  pichler [fit]                   seeds/000 tables (fit: calibrate the DOPL costs first)\n"
            "  patil                           seeds/003 ratios at 48 cores\n"
            "  roots                           NoC_Msg bcast for every root\n"
            "  scale [SIDE [SUFFIX]]           meshes up to SIDE x SIDE tiles (default 32); files\n"
            "                                  scale<SUFFIX>.md, thresholds<SUFFIX>.md, ...\n"
            "  crun COLL INTER BYTES [nodes=N] [cores=C] [root=R] [fanout=K] [nocma=1] [block=B]\n"
            "       [maxb=M] [first=1]         model one call across nodes (COLL: bcast reduce\n"
            "                                  allreduce barrier; INTER: binomial tree jia dopl\n"
            "                                  ring butterfly dissem; first=1: leaders combine\n"
            "                                  their node first; -p sim/params/cluster.conf)\n"
            "  cluster [EMULATED]              the cluster study: cluster.md, thresholds_cluster.md;\n"
            "                                  EMULATED: a file of parameters over -p's for the\n"
            "                                  emulated test bed (sim/params/cluster-emulated.conf)\n"
            "  cc SB.conf PHI.conf [-s ...]    the cache-coherent study (seeds/004): cc.md,\n"
            "                                  cc_*.dat (sim/params/sandybridge.conf, xeonphi.conf)\n"
            "  ccrun CONF COLL:ALG N BYTES [packages=P] [radix=M] [fanout=K1,K2,..]\n"
            "                                  one call on the cache-coherent model (ALG: tree\n"
            "                                  direct jia dopl binomial chain binary | dissem\n"
            "                                  direct tree bruck recdbl paper | butterfly ring\n"
            "                                  tree direct recdbl tring rabenseifner redbcast)\n"
            "  all                             pichler, patil, roots, scale\n");
}

/* The collective named s, SCC_COLL_COUNT if none is. */
static scc_coll_t coll_of(const char *s)
{
    for (int k = 0; k < SCC_COLL_COUNT; ++k) {
        if (0 == strcmp(s, scc_coll_name((scc_coll_t) k))) {
            return (scc_coll_t) k;
        }
    }
    return SCC_COLL_COUNT;
}

static int cmd_run(const scc_sim_params_t *p, int argc, char **argv)
{
    scc_sim_case_t c;
    scc_sim_out_t o;
    char b1[32], b2[32];
    int rc;

    if (argc < 3) {
        usage();
        return 2;
    }
    memset(&c, 0, sizeof(c));
    c.coll = coll_of(argv[0]);
    c.alg = scc_sim_alg_from_name(argv[1]);
    c.bytes = atof(argv[2]);
    if (SCC_COLL_COUNT == c.coll || c.alg < 0) {
        fprintf(stderr, "scc_sim: unknown collective or algorithm\n");
        return 2;
    }
    for (int i = 3; i < argc; ++i) {
        const char *v = strchr(argv[i], '=');
        if (NULL == v) {
            usage();
            return 2;
        }
        v++;
        if (0 == strncmp(argv[i], "root=", 5)) {
            c.root = atoi(v);
        } else if (0 == strncmp(argv[i], "n=", 2)) {
            c.n = atoi(v);
        } else if (0 == strncmp(argv[i], "block=", 6)) {
            c.block_bytes = atof(v);
        } else if (0 == strncmp(argv[i], "cpp=", 4)) {
            c.chunks_per_part = (uint32_t) atoi(v);
        } else if (0 == strncmp(argv[i], "fanout=", 7)) {
            c.fanout[0] = atoi(v);
            c.nlevels = 1;
        } else if (0 == strncmp(argv[i], "maxb=", 5)) {
            c.max_blocks = atol(v);
        } else if (0 == strncmp(argv[i], "rcce=", 5)) {
            c.rcce_order = atoi(v);
        } else {
            usage();
            return 2;
        }
    }
    rc = scc_sim_run_case(p, &c, &o);
    printf("%s %s %.0f B on %d ranks: %s (root %s)%s%s; blocks %u x %.0f B, passes %d, gets %ld, "
           "link wait %.0f ns, port wait %.0f ns\n",
           scc_coll_name(c.coll), scc_sim_alg_name(c.alg), c.bytes,
           c.n ? c.n : (int) (p->X * p->Y * p->K), scc_sim_fmt_time(o.t, b1, sizeof(b1)),
           scc_sim_fmt_time(o.t_root, b2, sizeof(b2)), o.extrapolated ? ", extrapolated" : "",
           o.failed ? ", FAILED" : "", o.plan.nblocks, o.plan.block_bytes, o.plan.passes, o.gets,
           o.link_wait, o.port_wait);
    return rc ? 1 : 0;
}

static int cmd_crun(const scc_sim_params_t *p, int argc, char **argv)
{
    scc_sim_ccase_t c;
    scc_sim_cluster_t cl;
    scc_sim_cout_t o;
    int nodes = 16, cores = 1, rc;
    char b1[32], b2[32];

    if (argc < 3) {
        usage();
        return 2;
    }
    memset(&c, 0, sizeof(c));
    c.coll = coll_of(argv[0]);
    c.inter = SCC_INTER_COUNT;
    c.fanout = 2;
    for (int k = 0; k < SCC_INTER_COUNT; ++k) {
        if (0 == strcmp(argv[1], scc_inter_name((scc_inter_t) k))) {
            c.inter = (scc_inter_t) k;
        }
    }
    c.bytes = atof(argv[2]);
    if (SCC_COLL_COUNT == c.coll || SCC_INTER_COUNT == c.inter) {
        fprintf(stderr, "scc_sim: unknown collective or schedule between nodes\n");
        return 2;
    }
    for (int i = 3; i < argc; ++i) {
        const char *v = strchr(argv[i], '=');
        if (NULL == v) {
            usage();
            return 2;
        }
        v++;
        if (0 == strncmp(argv[i], "nodes=", 6)) {
            nodes = atoi(v);
        } else if (0 == strncmp(argv[i], "cores=", 6)) {
            cores = atoi(v);
        } else if (0 == strncmp(argv[i], "root=", 5)) {
            c.root = atoi(v);
        } else if (0 == strncmp(argv[i], "fanout=", 7)) {
            c.fanout = atoi(v);
        } else if (0 == strncmp(argv[i], "nocma=", 6)) {
            c.no_cma = atoi(v);
        } else if (0 == strncmp(argv[i], "block=", 6)) {
            c.block_bytes = atof(v);
        } else if (0 == strncmp(argv[i], "maxb=", 5)) {
            c.max_blocks = atol(v);
        } else if (0 == strncmp(argv[i], "first=", 6)) {
            c.node_first = atoi(v);
        } else {
            usage();
            return 2;
        }
    }
    if (0 != scc_sim_cluster_init(&cl, nodes, cores)) {
        fprintf(stderr, "scc_sim: bad cluster %d x %d\n", nodes, cores);
        return 2;
    }
    rc = scc_sim_cluster_run(p, &cl, &c, &o);
    printf("%s %s %.0f B on %d nodes x %d (grid %dx%d): %s (root %s)%s%s; blocks %u x %.0f B, "
           "reads %ld\n", scc_coll_name(c.coll), scc_inter_name(c.inter), c.bytes, nodes, cores,
           cl.nd.C, cl.nd.R, scc_sim_fmt_time(o.t, b1, sizeof(b1)),
           scc_sim_fmt_time(o.t_root, b2, sizeof(b2)), o.extrapolated ? ", extrapolated" : "",
           o.failed ? ", FAILED" : "", o.nblocks, o.block_bytes, o.gets);
    scc_sim_cluster_free(&cl);
    return rc ? 1 : 0;
}

/* ccrun CONF COLL:ALG N BYTES [packages=P] [radix=M] [fanout=K1,K2,..] */
static int cmd_ccrun(int argc, char **argv, char **sets, int nsets)
{
    scc_cc_params_t cp;
    scc_cc_case_t c;
    scc_cc_out_t o;
    char b1[32], b2[32];

    if (argc < 4) {
        usage();
        return 2;
    }
    scc_cc_params_default(&cp);
    if (0 != scc_cc_params_load(&cp, argv[0])) {
        return 2;
    }
    for (int i = 0; i < nsets; ++i) {
        if (0 != scc_cc_params_assign(&cp, sets[i])) {
            return 2;
        }
    }
    memset(&c, 0, sizeof(c));
    c.alg = scc_cc_alg_from_name(argv[1]);
    c.n = atoi(argv[2]);
    c.bytes = atof(argv[3]);
    c.packages = 1;
    if (c.alg < 0 || c.n < 1) {
        fprintf(stderr, "scc_sim: unknown schedule %s (e.g. bcast:tree) or bad n\n", argv[1]);
        return 2;
    }
    for (int i = 4; i < argc; ++i) {
        const char *v = strchr(argv[i], '=');
        if (NULL == v) {
            usage();
            return 2;
        }
        v++;
        if (0 == strncmp(argv[i], "packages=", 9)) {
            c.packages = atoi(v);
        } else if (0 == strncmp(argv[i], "radix=", 6)) {
            c.radix = atoi(v);
        } else if (0 == strncmp(argv[i], "fanout=", 7)) {
            for (c.nlevels = 0; *v && c.nlevels < 8; ++c.nlevels) {
                c.fanout[c.nlevels] = atoi(v);
                v = strchr(v, ',');
                if (NULL == v) {
                    c.nlevels++;
                    break;
                }
                v++;
            }
        } else {
            usage();
            return 2;
        }
    }
    if (0 != scc_cc_run(&cp, &c, &o) || o.failed) {
        fprintf(stderr, "scc_sim: %s failed on %d cores\n", argv[1], c.n);
        return 1;
    }
    printf("%s %.0f B on %d cores, %d package(s): %s (rank 0 %s); %ld messages, %ld reads\n",
           argv[1], c.bytes, c.n, c.packages, scc_sim_fmt_time(o.t, b1, sizeof(b1)),
           scc_sim_fmt_time(o.t_rank0, b2, sizeof(b2)), o.messages, o.reads);
    return 0;
}

/* cc SB.conf PHI.conf: both presets, then the -s settings over each */
static int cmd_cc(int argc, char **argv, char **sets, int nsets, const char *dir)
{
    scc_cc_params_t sb, phi;

    if (argc < 2) {
        usage();
        return 2;
    }
    scc_cc_params_default(&sb);
    scc_cc_params_default(&phi);
    if (0 != scc_cc_params_load(&sb, argv[0]) || 0 != scc_cc_params_load(&phi, argv[1])) {
        return 2;
    }
    for (int i = 0; i < nsets; ++i) {
        if (0 != scc_cc_params_assign(&sb, sets[i]) || 0 != scc_cc_params_assign(&phi, sets[i])) {
            return 2;
        }
    }
    return scc_sim_exp_cc(&sb, &phi, dir) ? 1 : 0;
}

int main(int argc, char **argv)
{
    scc_sim_params_t p;
    const char *dir = ".";
    char *sets[64];
    int i = 1, nsets = 0;

    scc_sim_params_default(&p);
    for (; i < argc && '-' == argv[i][0]; ++i) {
        if (0 == strcmp(argv[i], "-p") && i + 1 < argc) {
            if (0 != scc_sim_params_load(&p, argv[++i])) {
                return 2;
            }
        } else if (0 == strcmp(argv[i], "-s") && i + 1 < argc) {
            /* the cache-coherent commands take their own parameters */
            sets[nsets++] = argv[++i];
            if (nsets >= 64) {
                usage();
                return 2;
            }
        } else if (0 == strcmp(argv[i], "-o") && i + 1 < argc) {
            dir = argv[++i];
        } else {
            usage();
            return 2;
        }
    }
    if (i >= argc) {
        usage();
        return 2;
    }
    if (0 == strcmp(argv[i], "cc")) {
        return cmd_cc(argc - i - 1, argv + i + 1, sets, nsets, dir);
    }
    if (0 == strcmp(argv[i], "ccrun")) {
        return cmd_ccrun(argc - i - 1, argv + i + 1, sets, nsets);
    }
    for (int k = 0; k < nsets; ++k) {
        if (0 != scc_sim_params_assign(&p, sets[k])) {
            return 2;
        }
    }
    if (0 == strcmp(argv[i], "params")) {
        scc_sim_params_print(&p, stdout);
        return 0;
    }
    if (0 == strcmp(argv[i], "run")) {
        return cmd_run(&p, argc - i - 1, argv + i + 1);
    }
    if (0 == strcmp(argv[i], "cluster")) {
        /* the emulated test bed: the same parameters, then the file's */
        scc_sim_params_t em = p;
        if (i + 1 < argc && 0 != scc_sim_params_load(&em, argv[i + 1])) {
            return 2;
        }
        return scc_sim_exp_cluster(&p, i + 1 < argc ? &em : NULL, dir) ? 1 : 0;
    }
    if (0 == strcmp(argv[i], "crun")) {
        return cmd_crun(&p, argc - i - 1, argv + i + 1);
    }
    if (0 == strcmp(argv[i], "pichler")) {
        return scc_sim_exp_pichler(&p, dir, i + 1 < argc && 0 == strcmp(argv[i + 1], "fit")) ? 1 : 0;
    }
    if (0 == strcmp(argv[i], "patil")) {
        return scc_sim_exp_patil(&p, dir) ? 1 : 0;
    }
    if (0 == strcmp(argv[i], "roots")) {
        return scc_sim_exp_roots(&p, dir) ? 1 : 0;
    }
    if (0 == strcmp(argv[i], "scale")) {
        return scc_sim_exp_scale(&p, dir, i + 1 < argc ? atoi(argv[i + 1]) : 32,
                                 i + 2 < argc ? argv[i + 2] : "") ? 1 : 0;
    }
    if (0 == strcmp(argv[i], "all")) {
        int rc = scc_sim_exp_pichler(&p, dir, 0);
        rc |= scc_sim_exp_patil(&p, dir);
        rc |= scc_sim_exp_roots(&p, dir);
        rc |= scc_sim_exp_scale(&p, dir, 32, "");
        return rc ? 1 : 0;
    }
    usage();
    return 2;
}
