/* scc_churn.c: what communicators cost when they come and go or pile up (issue 21) -- a
 * dup/allreduce/free loop, the same with MPI_Comm_split, and many live communicators.
 *
 * Modes (-m, comma-separated, run in the order given):
 *   churn  iterations of (MPI_Comm_dup of MPI_COMM_WORLD, one 8-byte MPI_Allreduce,
 *          MPI_Comm_free), after a few untimed ones; time per iteration.
 *   split  the same with MPI_Comm_split (PARTS colours by rank modulo PARTS, keys reversed so
 *          the new ranks differ from the world's) instead of MPI_Comm_dup.
 *   live   a reference communicator is made and used USES times, and its steady latency
 *          timed; then COMMS communicators are made (each used once as it is made), all kept
 *          alive and used USES times in all (round robin over them); rank 0 reads Shmem of
 *          /proc/meminfo before and after (all alive) and once more after freeing them; the
 *          steady latency is timed on SAMPLE of them spread over the range.  They are named
 *          "scc_churn live I" (the reference "scc_churn live ref") once the uses are done.
 * Every allreduce sums int64 values that change with every call and is checked: a wrong sum
 * prints a FAIL line (from the rank that saw it) and makes the program exit 1.
 *
 * Times are the maximum over ranks of each rank's own time.  Output of rank 0, one line per
 * mode (key=value; lines starting with '#' are comments):
 *   churn np=N iters=I us_per_iter=T
 *   split np=N parts=P iters=I us_per_iter=T
 *   live np=N comms=K uses=U shmem_kb=S shmem_kb_per_comm=S/K shmem_left_kb=L us_per_comm=T
 *        dup_us=D use_us=E allreduce_us=A allreduce_min_us=.. allreduce_max_us=.. base_us=B
 *        free_us=F
 * (one line) where us_per_comm is making one communicator and its first call, dup_us the
 * making alone, use_us a call of the later rounds, allreduce_us the median steady latency
 * over the sampled live communicators (min, max beside it), base_us that of the reference.
 * At the end every rank prints "# rank=R comms=C": the communicators of 2 or more processes
 * it made, which churn.sh compares with the component's "selected" lines. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../mpi/scc_meminfo.h"

static int rank, nprocs;
static int iters = 200, warmup = 10, parts = 1;
static int ncomms = 1000, uses = 64, reps = 200, nsample = 16;
static long nfail;
static long multi_comms;     /* communicators of 2+ processes made here (see the header) */
static int64_t salt;         /* advances with every call on every rank alike */

static void usage(void)
{
    fprintf(stderr,
"usage: scc_churn [-m churn,split,live] [options]\n"
"  -m LIST   modes, comma-separated, in order (default churn,split,live)\n"
"  -n N      timed iterations of churn and split (default 200);  -w N  untimed first (10)\n"
"  -p N      split: colours (rank modulo N; default 1, one communicator of all)\n"
"  -k N      live: communicators kept alive (default 1000)\n"
"  -u N      live: calls on each, the first as it is made (default 64)\n"
"  -r N      live: calls of each steady-latency loop (default 200)\n"
"  -s N      live: communicators whose steady latency is timed (default 16)\n");
}

/* One checked 8-byte allreduce on c: members contribute their world rank + 1 + salt, so the
 * sum is base (the members' world ranks + 1, summed) + csize * salt. */
static void checked_allreduce(MPI_Comm c, int64_t base, int csize, const char *what)
{
    int64_t in = rank + 1 + salt, out = -1, want = base + (int64_t) csize * salt;

    MPI_Allreduce(&in, &out, 1, MPI_INT64_T, MPI_SUM, c);
    if (out != want && nfail++ < 5) {
        printf("FAIL %s np=%d rank=%d call=%lld got=%lld want=%lld\n", what, nprocs, rank,
               (long long) salt, (long long) out, (long long) want);
        fflush(stdout);
    }
    ++salt;
}

static double max_over_ranks(double v)
{
    double m;

    MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

static void run_churn(int split)
{
    const char *what = split ? "split" : "churn";
    int color = rank % parts, csize = 0;
    int64_t base = 0;
    double t0 = 0;

    for (int r = 0; r < nprocs; ++r) {
        if (!split || r % parts == color) {
            base += r + 1;
            ++csize;
        }
    }
    for (int i = -warmup; i < iters; ++i) {
        MPI_Comm c;
        int n;

        if (0 == i) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        if (split) {
            MPI_Comm_split(MPI_COMM_WORLD, color, nprocs - rank, &c);
        } else {
            MPI_Comm_dup(MPI_COMM_WORLD, &c);
        }
        MPI_Comm_size(c, &n);
        if (n != csize && nfail++ < 5) {
            printf("FAIL %s np=%d rank=%d size=%d want=%d\n", what, nprocs, rank, n, csize);
        }
        multi_comms += n > 1;
        checked_allreduce(c, base, csize, what);
        MPI_Comm_free(&c);
    }
    double t = max_over_ranks(MPI_Wtime() - t0);
    if (0 == rank) {
        if (split) {
            printf("split np=%d parts=%d iters=%d us_per_iter=%.2f\n", nprocs, parts, iters,
                   1e6 * t / iters);
        } else {
            printf("churn np=%d iters=%d us_per_iter=%.2f\n", nprocs, iters, 1e6 * t / iters);
        }
        fflush(stdout);
    }
}

/* Steady latency of c in microseconds: reps back-to-back calls, maximum over ranks. */
static double steady_us(MPI_Comm c, int64_t base)
{
    MPI_Barrier(c);
    double t0 = MPI_Wtime();
    for (int r = 0; r < reps; ++r) {
        checked_allreduce(c, base, nprocs, "live");
    }
    return 1e6 * max_over_ranks(MPI_Wtime() - t0) / reps;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static void run_live(void)
{
    int64_t base = (int64_t) nprocs * (nprocs + 1) / 2;
    MPI_Comm ref, *cs = malloc(sizeof(MPI_Comm) * ncomms);
    int ns = nsample < ncomms ? nsample : ncomms;
    double *lat = malloc(sizeof(double) * (ns > 0 ? ns : 1));
    double tdup = 0, t0, tmake, tuse, tfree, base_us;
    long shm0, shm1, shm2;

    if (NULL == cs || NULL == lat) {
        fprintf(stderr, "scc_churn: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* the latency a communicator has when it is one of few, to hold the live ones against */
    MPI_Comm_dup(MPI_COMM_WORLD, &ref);
    multi_comms += nprocs > 1;
    for (int u = 0; u < uses; ++u) {
        checked_allreduce(ref, base, nprocs, "live");
    }
    base_us = steady_us(ref, base);

    MPI_Barrier(MPI_COMM_WORLD);
    shm0 = 0 == rank ? scc_shmem_kb() : 0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int i = 0; i < ncomms; ++i) {
        double td = MPI_Wtime();
        MPI_Comm_dup(MPI_COMM_WORLD, &cs[i]);
        tdup += MPI_Wtime() - td;
        multi_comms += nprocs > 1;
        checked_allreduce(cs[i], base, nprocs, "live");
    }
    tmake = MPI_Wtime() - t0;
    /* round robin, as objects that each own a communicator take turns */
    t0 = MPI_Wtime();
    for (int u = 1; u < uses; ++u) {
        for (int i = 0; i < ncomms; ++i) {
            checked_allreduce(cs[i], base, nprocs, "live");
        }
    }
    tuse = MPI_Wtime() - t0;
    tmake = max_over_ranks(tmake);
    tdup = max_over_ranks(tdup);
    tuse = max_over_ranks(tuse);
    MPI_Barrier(MPI_COMM_WORLD);
    shm1 = 0 == rank ? scc_shmem_kb() : 0;
    /* untimed: the names mark these in the component's report of who served the calls */
    MPI_Comm_set_name(ref, "scc_churn live ref");
    for (int i = 0; i < ncomms; ++i) {
        char name[MPI_MAX_OBJECT_NAME];
        snprintf(name, sizeof(name), "scc_churn live %d", i);
        MPI_Comm_set_name(cs[i], name);
    }

    for (int j = 0; j < ns; ++j) {
        /* spread over the range: the first, the last and evenly between */
        int i = ns > 1 ? (int) ((long) j * (ncomms - 1) / (ns - 1)) : 0;
        lat[j] = steady_us(cs[i], base);
    }
    qsort(lat, ns, sizeof(double), cmp_double);

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int i = 0; i < ncomms; ++i) {
        MPI_Comm_free(&cs[i]);
    }
    tfree = max_over_ranks(MPI_Wtime() - t0);
    MPI_Barrier(MPI_COMM_WORLD);
    /* the reference still lives, as it did at the first reading */
    shm2 = 0 == rank ? scc_shmem_kb() : 0;
    MPI_Comm_free(&ref);

    if (0 == rank) {
        long added = shm0 >= 0 && shm1 >= 0 ? shm1 - shm0 : -1;
        double med = ns < 1 ? 0 : ns % 2 ? lat[ns / 2] : (lat[ns / 2 - 1] + lat[ns / 2]) / 2;
        printf("live np=%d comms=%d uses=%d shmem_kb=%ld shmem_kb_per_comm=%.1f "
               "shmem_left_kb=%ld us_per_comm=%.2f dup_us=%.2f use_us=%.2f allreduce_us=%.2f "
               "allreduce_min_us=%.2f allreduce_max_us=%.2f base_us=%.2f free_us=%.2f\n",
               nprocs, ncomms, uses, added, ncomms > 0 ? (double) added / ncomms : 0.0,
               shm0 >= 0 && shm2 >= 0 ? shm2 - shm0 : -1, 1e6 * tmake / ncomms,
               1e6 * tdup / ncomms,
               uses > 1 ? 1e6 * tuse / ((double) ncomms * (uses - 1)) : 0.0, med,
               ns > 0 ? lat[0] : 0.0, ns > 0 ? lat[ns - 1] : 0.0, base_us,
               1e6 * tfree / ncomms);
        fflush(stdout);
    }
    free(lat);
    free(cs);
}

/* A positive count from an option; exits on anything else. */
static int count_arg(int opt, const char *s, int min)
{
    char *end;
    long v = strtol(s, &end, 10);

    if ('\0' == *s || '\0' != *end || v < min || v > 100000000) {
        if (0 == rank) {
            fprintf(stderr, "scc_churn: -%c wants a number >= %d, not '%s'\n", opt, min, s);
        }
        MPI_Finalize();
        exit(2);
    }
    return (int) v;
}

int main(int argc, char **argv)
{
    const char *modes = "churn,split,live";
    char *list, *tok, *save;
    int opt;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    while ((opt = getopt(argc, argv, "m:n:w:p:k:u:r:s:h")) != -1) {
        switch (opt) {
        case 'm': modes = optarg; break;
        case 'n': iters = count_arg(opt, optarg, 1); break;
        case 'w': warmup = count_arg(opt, optarg, 0); break;
        case 'p': parts = count_arg(opt, optarg, 1); break;
        case 'k': ncomms = count_arg(opt, optarg, 1); break;
        case 'u': uses = count_arg(opt, optarg, 1); break;
        case 'r': reps = count_arg(opt, optarg, 1); break;
        case 's': nsample = count_arg(opt, optarg, 1); break;
        default:
            if (0 == rank) usage();
            MPI_Finalize();
            return 'h' == opt ? 0 : 2;
        }
    }
    /* all modes are checked before any runs, so a typo costs no run */
    list = strdup(modes);
    for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "churn") && strcmp(tok, "split") && strcmp(tok, "live")) {
            if (0 == rank) fprintf(stderr, "scc_churn: unknown mode '%s'\n", tok);
            MPI_Finalize();
            return 2;
        }
    }
    free(list);
    list = strdup(modes);
    for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (0 == strcmp(tok, "live")) {
            run_live();
        } else {
            run_churn(0 == strcmp(tok, "split"));
        }
    }
    free(list);

    printf("# rank=%d comms=%ld\n", rank, multi_comms);
    long fails = nfail, total;
    MPI_Allreduce(&fails, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank && total > 0) {
        printf("FAIL %ld wrong results\n", total);
    }
    MPI_Finalize();
    return total > 0 ? 1 : 0;
}
