/* scc_bench.c: OSU-style latency benchmark of the collectives coll/scc serves -- barrier-
 * separated timed iterations, per-iteration maximum over ranks, median/min/max over iterations,
 * every result checked outside the timed region, algorithms optionally forced through MPI_T.
 *
 * Method, per (collective, algorithm, root, size):
 *   1. inputs filled with a pattern, outputs poisoned, one untimed call, every output element
 *      and the guard zones around both buffers checked;
 *   2. a few probe iterations measure the cost of one iteration; the number of timed iterations
 *      follows from the time budget per size (-t), within the bounds of -n (or fixed by -i);
 *   3. warm-up iterations, then the timed ones: each iteration re-stamps a few input elements
 *      per block with the iteration number (so stale data cannot pass), calls MPI_Barrier,
 *      times the collective alone, then checks the stamped output elements (all with -C);
 *   4. rank 0 takes, per iteration, the maximum time over ranks and reports over iterations
 *      the median (primary), min, max and the spread (p90 - p10) / median.
 * Bookkeeping (iteration counts, times, failure counts) moves by point-to-point messages only,
 * so a broken collective cannot corrupt the measurement of another.  A wrong result marks its
 * line WRONG and makes the program exit 1.
 *
 * -F p makes every call persistent (its request made at the measurement's first call, each
 * iteration times MPI_Start and MPI_Wait), -F i nonblocking (the call and MPI_Wait).
 *
 * By default the ten collectives coll/scc served first (bcast .. reduce_scatter_block); named
 * with -c also gatherv, scatterv, allgatherv, reduce_scatter, scan, exscan and alltoallw, in
 * uniform layouts.  Sizes, inputs and expected values: scc_bench_colls.c; the measurement and
 * MPI_T: scc_bench_measure.c; this file: options and main.
 *
 * Output on rank 0, one line per measurement (lines starting with '#' are comments):
 *   collective alg root bytes median_us min_us max_us spread_pct iterations status
 * alg is "auto" unless algorithms are forced (-a); root is "-" for unrooted collectives.
 *
 * "memcpy" and "xcopy" (only when -c names them) are no collectives but the floors of one,
 * timed and checked as the collectives are, in the same run on the same buffers: with memcpy
 * every process copies its send buffer into its receive buffer; with xcopy every process
 * copies into its receive buffer what its right neighbour has just written to shared memory
 * (a copy from one core to another, which any collective moving data between processes makes;
 * on a machine whose cores are sometimes farther apart it shows which case a run met). */
#include "scc_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ options and state */

int rank, nprocs;
static int want_coll[C_COUNT];
static size_t sizes[MAX_SIZES];
static int nsizes;
static int roots[MAX_ROOTS], nroots = 1;
const char *alg_list;
int fixed_iters, fixed_warmup = -1, min_iters = 10, max_iters = 1000;
double budget = 0.2;
int check_all;
int form = FORM_B;
int paired = -1;
int any_wrong;

int32_t *sbuf, *rbuf;
char *xmine, *xright;
static size_t buf_elems;

void die(const char *msg)
{
    fprintf(stderr, "scc_bench: %s\n", msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

/* ------------------------------------------------------------ main */

static size_t parse_bytes(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || v < 0) {
        return (size_t) -1;
    }
    if ('k' == *end || 'K' == *end) {
        v *= 1024, end++;
    } else if ('m' == *end || 'M' == *end) {
        v *= 1024 * 1024, end++;
    }
    return '\0' == *end ? (size_t) v : (size_t) -1;
}

static void usage(void)
{
    if (0 == rank) {
        fprintf(stderr,
"usage: scc_bench [options]\n"
"  -c LIST   collectives, comma-separated (default: all of bcast,barrier,reduce,allreduce,\n"
"            alltoall,alltoallv,gather,scatter,allgather,reduce_scatter_block); named only:\n"
"            gatherv,scatterv,allgatherv,reduce_scatter,scan,exscan,alltoallw (uniform\n"
"            counts, contiguous displacements); memcpy: each process copies its buffer of\n"
"            that size, the floor of a copy; xcopy: each copies what its right neighbour\n"
"            just wrote to shared memory\n"
"  -m MIN:MAX  sizes in bytes, powers of two from MIN to MAX (default 4:4M)\n"
"  -s LIST   sizes in bytes, comma-separated, K and M suffixes (multiples of 4)\n"
"  -r LIST   roots of bcast, reduce, gather, scatter, gatherv, scatterv, comma-separated;\n"
"            'last' = np-1 (default 0)\n"
"  -a LIST   force these coll/scc algorithms through MPI_T, one after the other ('auto' is\n"
"            the component's own choice; 'all': auto and every algorithm each collective\n"
"            offers, fallback included); default: only auto, without MPI_T\n"
"  -t SEC    time budget of the timed iterations per measurement (default 0.2)\n"
"  -n MIN:MAX  bounds of the adaptive iteration count (default 10:1000)\n"
"  -i N      exactly N timed iterations;  -w N  exactly N warm-up iterations\n"
"  -C        check every output element after every iteration (default: stamped ones)\n"
"  -F FORM   b: blocking calls (default); i: nonblocking, each waited for (MPI_Wait);\n"
"            p: persistent, made at a measurement's first call, then MPI_Start and MPI_Wait\n"
"  -P FORM   paired, i or p: each measurement alternates blocks of blocking calls and of\n"
"            FORM in this one launch; prints both medians and FORM / blocking block by\n"
"            block (median, quartiles): what a form costs, free of the launch's state\n");
    }
}

static int parse_args(int argc, char **argv)
{
    int opt, have_colls = 0;
    char *tok, *save, *dup;
    size_t lo = 4, hi = 4u << 20;

    while ((opt = getopt(argc, argv, "c:m:s:r:a:t:n:i:w:CF:P:h")) != -1) {
        switch (opt) {
        case 'c':
            dup = strdup(optarg);
            for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                int found = 0;
                for (int c = 0; c < C_COUNT; ++c) {
                    if (0 == strcmp(tok, coll_names[c])) {
                        want_coll[c] = found = 1;
                    }
                }
                if (!found) {
                    if (0 == rank) fprintf(stderr, "scc_bench: unknown collective '%s'\n", tok);
                    return -1;
                }
            }
            free(dup);
            have_colls = 1;
            break;
        case 'm':
            {
                char a[32], b[32];
                if (2 != sscanf(optarg, "%31[^:]:%31s", a, b)) return -1;
                lo = parse_bytes(a);
                hi = parse_bytes(b);
            }
            if (lo < 4 || hi < lo || hi == (size_t) -1) return -1;
            nsizes = 0;
            for (size_t s = lo; s <= hi && nsizes < MAX_SIZES; s *= 2) {
                sizes[nsizes++] = s;
            }
            break;
        case 's':
            nsizes = 0;
            dup = strdup(optarg);
            for (tok = strtok_r(dup, ",", &save); tok && nsizes < MAX_SIZES; tok = strtok_r(NULL, ",", &save)) {
                sizes[nsizes++] = parse_bytes(tok);
            }
            free(dup);
            break;
        case 'r':
            nroots = 0;
            dup = strdup(optarg);
            for (tok = strtok_r(dup, ",", &save); tok && nroots < MAX_ROOTS; tok = strtok_r(NULL, ",", &save)) {
                roots[nroots++] = 0 == strcmp(tok, "last") ? nprocs - 1 : atoi(tok);
            }
            free(dup);
            break;
        case 'a': alg_list = optarg; break;
        case 't': budget = atof(optarg); break;
        case 'n':
            if (2 != sscanf(optarg, "%d:%d", &min_iters, &max_iters) || min_iters < 1 || max_iters < min_iters) return -1;
            break;
        case 'i': fixed_iters = atoi(optarg); if (fixed_iters < 1) return -1; break;
        case 'w': fixed_warmup = atoi(optarg); if (fixed_warmup < 0) return -1; break;
        case 'C': check_all = 1; break;
        case 'F':
            form = 'b' == optarg[0] ? FORM_B : 'i' == optarg[0] ? FORM_I : 'p' == optarg[0] ? FORM_P : -1;
            if (form < 0 || '\0' != optarg[1]) return -1;
            break;
        case 'P':
            paired = 'i' == optarg[0] ? FORM_I : 'p' == optarg[0] ? FORM_P : -1;
            if (paired < 0 || '\0' != optarg[1]) return -1;
            break;
        default: return -1;
        }
    }
    if (optind < argc || (paired >= 0 && FORM_B != form)) {
        return -1;      /* (-P pairs its form with blocking calls: no -F beside it) */
    }
    if (!have_colls) {
        for (int c = 0; c < C_DEFAULT_COUNT; ++c) want_coll[c] = 1;
    }
    if (0 == nsizes) {
        for (size_t s = lo; s <= hi; s *= 2) sizes[nsizes++] = s;
    }
    for (int i = 0; i < nsizes; ++i) {
        if (sizes[i] == (size_t) -1 || sizes[i] < 4 || sizes[i] % 4 || sizes[i] / 4 > (size_t) 1 << 30) {
            if (0 == rank) fprintf(stderr, "scc_bench: sizes must be multiples of 4 bytes, at least 4\n");
            return -1;
        }
    }
    for (int i = 0; i < nroots; ++i) {
        if (roots[i] < 0 || roots[i] >= nprocs) {
            if (0 == rank) fprintf(stderr, "scc_bench: root %d out of range (np %d)\n", roots[i], nprocs);
            return -1;
        }
    }
    return 0;
}

/* Every measurement of collective coll on communicator comm. */
static void run_collective(int coll, MPI_Comm comm, const char *alg)
{
    meas_t m = { .coll = coll, .comm = comm };
    char name[MPI_MAX_OBJECT_NAME];
    /* the name shows in coll/scc's verbose reports (calls per algorithm) */
    snprintf(name, sizeof(name), "scc_bench %s %s", coll_names[coll], alg);
    MPI_Comm_set_name(comm, name);
    if (C_BARRIER == coll) {
        m.c = 0;
        measure(&m, alg);
        return;
    }
    for (int r = 0; r < (is_rooted(coll) ? nroots : 1); ++r) {
        for (int s = 0; s < nsizes; ++s) {
            m.root = is_rooted(coll) ? roots[r] : 0;
            m.c = sizes[s] / sizeof(int32_t);
            layouts_set(m.c);
            measure(&m, alg);
        }
    }
}

int main(int argc, char **argv)
{
    size_t maxc = 0;
    int provided;
    MPI_Win xwin = MPI_WIN_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (parse_args(argc, argv)) {
        usage();
        MPI_Finalize();
        return 2;
    }
    for (int s = 0; s < nsizes; ++s) {
        maxc = sizes[s] / 4 > maxc ? sizes[s] / 4 : maxc;
    }
    buf_elems = maxc * (size_t) nprocs;
    sbuf = guarded_alloc(buf_elems);
    rbuf = guarded_alloc(buf_elems);
    layouts_alloc();
    if (want_coll[C_XCOPY]) {
        /* xcopy: a buffer of the largest size per process in memory all of them share */
        MPI_Comm node;
        int nn;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        MPI_Comm_size(node, &nn);
        if (nn != nprocs) {
            if (0 == rank) {
                printf("# xcopy: the processes do not share one node's memory: not measured\n");
            }
            want_coll[C_XCOPY] = 0;
        } else {
            MPI_Aint sz;
            int du;
            MPI_Win_allocate_shared((MPI_Aint) (maxc * sizeof(int32_t)), 1, MPI_INFO_NULL, node,
                                    &xmine, &xwin);
            MPI_Win_shared_query(xwin, (rank + 1) % nprocs, &sz, &du, &xright);
        }
        MPI_Comm_free(&node);
    }
    /* the algorithm variables, and coll_scc_setup_calls (bench_comm) */
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);

    /* before any measurement: can every algorithm variable to be forced be written? */
    for (int coll = 0; coll < C_COUNT && NULL != alg_list; ++coll) {
        alg_t algs[MAX_ALGS];
        char pname[96];
        int na, saved = 0, others = 0;
        if (!want_coll[coll] || is_floor(coll)) {
            continue;
        }
        na = algorithms_of(coll, algs);
        snprintf(pname, sizeof(pname), "coll_scc_%s_algorithm", coll_names[coll]);
        cvar_read(pname, &saved);
        for (int a = 0; a < na; ++a) {
            others += algs[a].value != saved;
        }
        if (others && cvar_write(pname, saved)) {
            if (0 == rank) {
                fprintf(stderr, "scc_bench: %s cannot be written through MPI_T in this build of "
                        "coll/scc; force one algorithm per run with --mca %s NAME instead\n",
                        pname, pname);
            }
            die("cannot force algorithms");
        }
    }

    if (0 == rank) {
        printf("# scc_bench: np %d, %d sizes %zu..%zu bytes, budget %.3f s per size, "
               "iterations %d..%d%s%s\n", nprocs, nsizes, sizes[0], sizes[nsizes - 1], budget,
               fixed_iters ? fixed_iters : min_iters, fixed_iters ? fixed_iters : max_iters,
               check_all ? ", every element checked" : "",
               FORM_I == form ? ", nonblocking calls" : FORM_P == form ? ", persistent calls" : "");
        if (paired >= 0) {
            printf("# paired: blocks of blocking and %s calls alternating; per block the mean "
                   "of the slowest rank's time per call (its lower 90%%); medians over blocks\n",
                   FORM_I == paired ? "nonblocking" : "persistent");
            printf("# %-18s %-10s %4s %9s %11s %11s %7s %7s %7s %6s %s\n", "collective", "alg",
                   "root", "bytes", "blocking_us", FORM_I == paired ? "nonblock_us" : "persist_us",
                   "ratio", "q1", "q3", "iters", "status");
        } else {
            printf("# %-18s %-10s %4s %9s %11s %11s %11s %7s %6s %s\n", "collective", "alg",
                   "root", "bytes", "median_us", "min_us", "max_us", "spread%", "iters", "status");
        }
        fflush(stdout);
    }

    for (int coll = 0; coll < C_COUNT; ++coll) {
        if (!want_coll[coll]) {
            continue;
        }
        if (NULL == alg_list || is_floor(coll)) {
            MPI_Comm comm;
            bench_comm(&comm);
            run_collective(coll, comm, "auto");
            MPI_Comm_free(&comm);
            continue;
        }
        alg_t algs[MAX_ALGS];
        int na = algorithms_of(coll, algs), saved = 0;
        char pname[96];
        snprintf(pname, sizeof(pname), "coll_scc_%s_algorithm", coll_names[coll]);
        if (0 == na && 0 == rank) {
            printf("# %s: none of the algorithms '%s' serves it\n", coll_names[coll], alg_list);
        }
        cvar_read(pname, &saved);
        for (int a = 0; a < na; ++a) {
            MPI_Comm comm;
            int rc = algs[a].value == saved ? 0 : cvar_write(pname, algs[a].value);
            if (rc) {
                if (0 == rank) {
                    fprintf(stderr, "scc_bench: cannot set %s=%s through MPI_T (error %d): this "
                            "build of coll/scc does not let MPI_T write it; force one algorithm "
                            "per run with --mca %s %s instead\n", pname, algs[a].name, rc, pname,
                            algs[a].name);
                }
                die("cannot force algorithms");
            }
            /* a new communicator: the component reads the choice when it sets one up */
            bench_comm(&comm);
            run_collective(coll, comm, algs[a].name);
            MPI_Comm_free(&comm);
        }
        cvar_write(pname, saved);
    }

    if (0 == rank) {
        printf("# results: %s\n", any_wrong ? "WRONG (see FAIL lines on stderr)" : "all correct");
        fflush(stdout);
    }
    if (MPI_WIN_NULL != xwin) {
        MPI_Win_free(&xwin);
    }
    guarded_free(sbuf);
    guarded_free(rbuf);
    layouts_free();
    MPI_T_finalize();
    MPI_Finalize();
    return any_wrong ? 1 : 0;
}

