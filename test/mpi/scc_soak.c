/* scc_soak.c: communicators made, used and freed in a loop, for leaks and stale state.
 *
 * Every iteration makes a duplicate of MPI_COMM_WORLD and a split of it (two halves, ranks
 * reversed; on odd iterations split from the duplicate instead of from the world), runs every
 * collective the component serves on both -- bcast, barrier, reduce, allreduce, alltoall,
 * alltoallv, gather, scatter, allgather, reduce_scatter_block -- with the message size and
 * the root changing from one iteration to the next, checks every result element by element,
 * and frees them (in either order); a communicator made at the start ("soak keep") works
 * between the steps of every iteration and stays right throughout.
 *
 * After the warm-up iterations and at the end each process measures its resident memory
 * (VmRSS, VmHWM of /proc/self/status), its heap in use (mallinfo2) and its open file
 * descriptors (/proc/self/fd), and prints, per rank,
 *     soak-mem: rank R iterations N rss A B bound X hwm A B heap A B bound Y fds A B
 * (N: iterations between the two measurements, A and B the two measurements, X and Y what
 * the growth must stay below: SOAK_*_SLACK + N * SOAK_*_PER_ITER); soak.sh asserts from it.
 * The communicators are named ("soak dup I", "soak split I C", "soak keep") before their
 * first collective, so that the component's verbose reports tell which ones it served.
 *
 * Usage: scc_soak [-t seconds] [-n max_iterations] [-w warmup_iterations] [-o dir]
 *   stops after the first iteration that ends past the time limit (default 60 s) or after
 *   max_iterations (default no limit); the warm-up lasts the first fifth of the time limit,
 *   at least warmup_iterations (default 10; exactly that many with -n); rank 0 decides, the
 *   others follow.  -o: each process writes its output to dir/out.PID (see below). */
#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "scc_meminfo.h"
#include "scc_test.h"

/* The bounds on growth after the warm-up: a fixed part for what grows once (Open MPI's free
 * lists, the allocator's arenas: 10 to 20 KB of heap, up to 100 KB of RSS measured here)
 * and a part per iteration, half a page of RSS and 256 bytes of heap: a leak of a page per
 * iteration exceeds the RSS bound after 128 iterations, one of 1 KB the heap bound after 86. */
#define SOAK_RSS_SLACK 256        /* kB */
#define SOAK_RSS_PER_ITER 2       /* kB */
#define SOAK_HEAP_SLACK 65536     /* bytes */
#define SOAK_HEAP_PER_ITER 256    /* bytes */

static const int counts[] = { 1, 7, 300, 3000, 20000 };   /* ints: up to 80 KB per block */
#define NCOUNTS ((int) (sizeof(counts) / sizeof(counts[0])))

typedef struct {
    long rss, hwm, heap, fds;
} usage_t;

static long status_kb(const char *key)
{
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    FILE *f = fopen("/proc/self/status", "r");
    if (NULL == f) {
        return -1;
    }
    while (fgets(line, sizeof(line), f)) {
        if (0 == strncmp(line, key, n) && ':' == line[n]) {
            v = strtol(line + n + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return v;
}

static usage_t measure(void)
{
    usage_t u;
    DIR *d;
    struct dirent *e;

    u.rss = status_kb("VmRSS");
    u.hwm = status_kb("VmHWM");
    u.heap = scc_heap_bytes(0);
    u.fds = -1;
    if (NULL != (d = opendir("/proc/self/fd"))) {
        u.fds = 0;
        while (NULL != (e = readdir(d))) {
            u.fds += '.' != e->d_name[0];
        }
        closedir(d);
        u.fds -= 1;   /* the directory's own descriptor */
    }
    return u;
}

/* Small values: sums over any number of ranks fit an int. */
static inline int val(int r, size_t i, int salt)
{
    return (int) ((uint32_t) tb_val(r, i, salt) & 0xffffu);
}

static void check(const int *got, size_t n, const char *what, int it, int (*want)(size_t, const void *),
                  const void *ctx)
{
    tb_case();
    for (size_t i = 0; i < n; ++i) {
        int w = want(i, ctx);
        if (got[i] != w) {
            tb_fail("iteration %d: %s: element %zu is %d, expected %d", it, what, i, got[i], w);
            return;
        }
    }
}

typedef struct {
    int rank, size, root, count, salt;
    int *wrank;          /* world rank of each rank of the communicator: the data's owner */
    const int *vcount, *vdispl;
} ctx_t;

static int w_bcast(size_t i, const void *p)
{
    const ctx_t *c = p;
    return val(c->wrank[c->root], i, c->salt);
}

static int w_sum(size_t i, const void *p)
{
    const ctx_t *c = p;
    int s = 0;
    for (int r = 0; r < c->size; ++r) {
        s += val(c->wrank[r], i, c->salt);
    }
    return s;
}

static int w_gathered(size_t i, const void *p)
{
    const ctx_t *c = p;
    return val(c->wrank[i / c->count], i % c->count, c->salt);
}

static int w_scattered(size_t i, const void *p)
{
    const ctx_t *c = p;
    return val(c->wrank[c->root], (size_t) c->rank * c->count + i, c->salt);
}

static int w_a2a(size_t i, const void *p)
{
    const ctx_t *c = p;
    int src = (int) (i / c->count);
    return val(c->wrank[src], (size_t) c->rank * c->count + i % c->count, c->salt);
}

static int w_rsb(size_t i, const void *p)
{
    const ctx_t *c = p;
    int s = 0;
    for (int r = 0; r < c->size; ++r) {
        s += val(c->wrank[r], (size_t) c->rank * c->count + i, c->salt);
    }
    return s;
}

/* alltoallv: rank s sends vc(s, d) elements to rank d */
static int vc(int s, int d, int count)
{
    return (count * (1 + (s + 2 * d) % 3)) / 2 + (s + d) % 2;
}

static int w_a2av(size_t i, const void *p)
{
    const ctx_t *c = p;
    int src = 0;
    while (src + 1 < c->size && (size_t) c->vdispl[src + 1] <= i) {
        ++src;
    }
    return val(c->wrank[src], (size_t) c->rank * 1000003u + (i - c->vdispl[src]), c->salt);
}

/* Every collective the component serves on comm, checked. */
static void exercise(MPI_Comm comm, const char *name, int it)
{
    ctx_t c;
    char what[160];
    MPI_Group g, wg;
    int wme;

    MPI_Comm_rank(comm, &c.rank);
    MPI_Comm_size(comm, &c.size);
    MPI_Comm_rank(MPI_COMM_WORLD, &wme);
    int n = c.size;
    size_t cnt = (size_t) counts[it % NCOUNTS];
    c.count = (int) cnt;
    c.root = it % n;
    c.salt = it;
    c.wrank = malloc(n * sizeof(int));
    int *idx = malloc(n * sizeof(int));
    for (int r = 0; r < n; ++r) {
        idx[r] = r;
    }
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(g, n, idx, wg, c.wrank);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    int *a = tb_alloc(cnt * n * sizeof(int) * 2);
    int *b = tb_alloc(cnt * n * sizeof(int) * 2);

    /* bcast */
    for (size_t i = 0; i < cnt; ++i) {
        a[i] = c.rank == c.root ? val(wme, i, c.salt) : -1;
    }
    MPI_Bcast(a, c.count, MPI_INT, c.root, comm);
    snprintf(what, sizeof(what), "%s bcast count %zu root %d", name, cnt, c.root);
    check(a, cnt, what, it, w_bcast, &c);

    MPI_Barrier(comm);

    /* reduce, allreduce */
    for (size_t i = 0; i < cnt; ++i) {
        a[i] = val(wme, i, c.salt);
    }
    memset(b, 0, cnt * sizeof(int));
    MPI_Reduce(a, b, c.count, MPI_INT, MPI_SUM, c.root, comm);
    if (c.rank == c.root) {
        snprintf(what, sizeof(what), "%s reduce count %zu root %d", name, cnt, c.root);
        check(b, cnt, what, it, w_sum, &c);
    }
    memset(b, 0, cnt * sizeof(int));
    MPI_Allreduce(a, b, c.count, MPI_INT, MPI_SUM, comm);
    snprintf(what, sizeof(what), "%s allreduce count %zu", name, cnt);
    check(b, cnt, what, it, w_sum, &c);

    /* gather, allgather: a holds this rank's block */
    memset(b, 0, cnt * n * sizeof(int));
    MPI_Gather(a, c.count, MPI_INT, b, c.count, MPI_INT, c.root, comm);
    if (c.rank == c.root) {
        snprintf(what, sizeof(what), "%s gather count %zu root %d", name, cnt, c.root);
        check(b, cnt * n, what, it, w_gathered, &c);
    }
    memset(b, 0, cnt * n * sizeof(int));
    MPI_Allgather(a, c.count, MPI_INT, b, c.count, MPI_INT, comm);
    snprintf(what, sizeof(what), "%s allgather count %zu", name, cnt);
    check(b, cnt * n, what, it, w_gathered, &c);

    /* scatter */
    for (size_t i = 0; i < cnt * n; ++i) {
        b[i] = c.rank == c.root ? val(wme, i, c.salt) : -1;
    }
    memset(a, 0, cnt * sizeof(int));
    MPI_Scatter(b, c.count, MPI_INT, a, c.count, MPI_INT, c.root, comm);
    snprintf(what, sizeof(what), "%s scatter count %zu root %d", name, cnt, c.root);
    check(a, cnt, what, it, w_scattered, &c);

    /* alltoall, reduce_scatter_block: a holds n blocks */
    for (size_t i = 0; i < cnt * n; ++i) {
        a[i] = val(wme, i, c.salt);
    }
    memset(b, 0, cnt * n * sizeof(int));
    MPI_Alltoall(a, c.count, MPI_INT, b, c.count, MPI_INT, comm);
    snprintf(what, sizeof(what), "%s alltoall count %zu", name, cnt);
    check(b, cnt * n, what, it, w_a2a, &c);
    memset(b, 0, cnt * sizeof(int));
    MPI_Reduce_scatter_block(a, b, c.count, MPI_INT, MPI_SUM, comm);
    snprintf(what, sizeof(what), "%s reduce_scatter_block count %zu", name, cnt);
    check(b, cnt, what, it, w_rsb, &c);

    /* alltoallv: uneven counts, block d of a for rank d */
    {
        int *sc = malloc(4 * n * sizeof(int)), *sd = sc + n, *rc = sc + 2 * n, *rd = sc + 3 * n;
        int so = 0, ro = 0;
        for (int d = 0; d < n; ++d) {
            sc[d] = vc(c.rank, d, c.count);
            sd[d] = so;
            so += sc[d];
            rc[d] = vc(d, c.rank, c.count);
            rd[d] = ro;
            ro += rc[d];
        }
        for (int d = 0; d < n; ++d) {
            for (int k = 0; k < sc[d]; ++k) {
                a[sd[d] + k] = val(wme, (size_t) d * 1000003u + k, c.salt);
            }
        }
        memset(b, 0, (size_t) ro * sizeof(int));
        MPI_Alltoallv(a, sc, sd, MPI_INT, b, rc, rd, MPI_INT, comm);
        c.vcount = rc;
        c.vdispl = rd;
        snprintf(what, sizeof(what), "%s alltoallv count %zu", name, cnt);
        check(b, (size_t) ro, what, it, w_a2av, &c);
        free(sc);
    }

    snprintf(what, sizeof(what), "%s iteration %d", name, it);
    tb_guards_ok(a, what);
    tb_guards_ok(b, what);
    tb_free(a);
    tb_free(b);
    free(idx);
    free(c.wrank);
}

/* The long-lived communicator's work between steps: an allreduce and a bcast, checked. */
static int keep_value(int r, int it, int step)
{
    return (r + 1) * 7 + it * 13 + step;
}

static void keep_work(MPI_Comm keep, int it, int step)
{
    int rank, size, v, sum = 0, want = 0, b[3];
    MPI_Comm_rank(keep, &rank);
    MPI_Comm_size(keep, &size);
    v = keep_value(rank, it, step);
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, keep);
    for (int r = 0; r < size; ++r) {
        want += keep_value(r, it, step);
    }
    tb_case();
    if (sum != want) {
        tb_fail("iteration %d: soak keep allreduce (step %d) is %d, expected %d", it, step, sum,
                want);
    }
    b[0] = it;
    b[1] = step;
    b[2] = rank == size - 1 ? want : -1;
    MPI_Bcast(b, 3, MPI_INT, size - 1, keep);
    tb_case();
    if (b[0] != it || b[1] != step || b[2] != want) {
        tb_fail("iteration %d: soak keep bcast (step %d) wrong", it, step);
    }
}

int main(int argc, char **argv)
{
    int rank, size, opt, it, stop = 0, warmup = 10, bad_usage = 0;
    const char *outdir = NULL;
    long max_it = -1;
    double limit = 60, t0;
    MPI_Comm keep;
    usage_t u0 = { 0 }, u1;

    tb_prog = "scc_soak";
    while ((opt = getopt(argc, argv, "t:n:w:o:")) != -1) {
        switch (opt) {
        case 't': limit = atof(optarg); break;
        case 'n': max_it = atol(optarg); break;
        case 'w': warmup = atoi(optarg); break;
        case 'o': outdir = optarg; break;
        default: bad_usage = 1; break;
        }
    }
    if (NULL != outdir && 0 != tb_output_to(outdir)) {
        return 2;
    }
#ifdef M_MMAP_THRESHOLD
    /* A fixed threshold: glibc would otherwise raise it to the size of the largest buffer
     * freed, and later buffers of that size would grow the heap once, by up to a megabyte,
     * whenever that happens -- a step the RSS bound would take for a leak. */
    mallopt(M_MMAP_THRESHOLD, 64 * 1024);
#endif
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (bad_usage) {
        if (0 == rank) {
            fprintf(stderr, "usage: scc_soak [-t seconds] [-n max_iterations] [-w warmup] [-o dir]\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* who made what in /dev/shm (soak.sh): the processes and the job (Open MPI 4.1 names
     * its segments by the job id in hexadecimal) */
    {
        int pid = (int) getpid(), *pids = malloc(size * sizeof(int));
        const char *job = getenv("OMPI_MCA_ess_base_jobid");
        MPI_Gather(&pid, 1, MPI_INT, pids, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (0 == rank) {
            printf("scc_soak: pids");
            for (int r = 0; r < size; ++r) {
                printf(" %d", pids[r]);
            }
            printf("\n");
            if (NULL != job) {
                printf("scc_soak: job %lx\n", strtoul(job, NULL, 10));
            }
            fflush(stdout);
        }
        free(pids);
    }

    MPI_Comm_dup(MPI_COMM_WORLD, &keep);
    MPI_Comm_set_name(keep, "soak keep");
    t0 = MPI_Wtime();
    for (it = 0; !stop; ++it) {
        MPI_Comm d, s;
        char dn[64], sn[64];
        int color = rank % 2;

        if (it == warmup) {
            MPI_Barrier(keep);
            u0 = measure();
        }
        keep_work(keep, it, 0);
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        snprintf(dn, sizeof(dn), "soak dup %d", it);
        MPI_Comm_set_name(d, dn);
        MPI_Comm_split(it % 2 ? d : MPI_COMM_WORLD, color, size - rank, &s);
        snprintf(sn, sizeof(sn), "soak split %d %d", it, color);
        MPI_Comm_set_name(s, sn);
        keep_work(keep, it, 1);
        exercise(d, dn, it);
        keep_work(keep, it, 2);
        exercise(s, sn, it);
        keep_work(keep, it, 3);
        if (it % 2) {
            MPI_Comm_free(&d);
            MPI_Comm_free(&s);
        } else {
            MPI_Comm_free(&s);
            MPI_Comm_free(&d);
        }
        keep_work(keep, it, 4);
        /* rank 0 decides whether to go on and where the warm-up ends (its first fifth of the
         * time, at least -w iterations), the others follow (over the kept communicator) */
        if (0 == rank) {
            double t = MPI_Wtime() - t0;
            if (it + 1 > warmup) {
                stop = (max_it > 0 && it + 1 >= max_it) || t > limit;
            } else if (it + 1 == warmup && max_it <= 0 && t < limit / 5) {
                ++warmup;   /* warm up longer */
            }
        }
        {
            int st[2] = { stop, warmup };
            MPI_Bcast(st, 2, MPI_INT, 0, keep);
            stop = st[0];
            warmup = st[1];
        }
    }
    MPI_Barrier(keep);
    u1 = measure();
    MPI_Comm_free(&keep);

    {
        long n = it - warmup;
        long rss_bound = SOAK_RSS_SLACK + n * SOAK_RSS_PER_ITER;
        long heap_bound = SOAK_HEAP_SLACK + n * SOAK_HEAP_PER_ITER;
        char line[400];
        snprintf(line, sizeof(line),
                 "soak-mem: rank %d iterations %ld rss %ld %ld bound %ld hwm %ld %ld"
                 " heap %ld %ld bound %ld fds %ld %ld",
                 rank, n, u0.rss, u1.rss, rss_bound, u0.hwm, u1.hwm, u0.heap, u1.heap,
                 heap_bound, u0.fds, u1.fds);
        /* rank by rank, so that the lines do not interleave */
        for (int r = 0; r < size; ++r) {
            if (r == rank) {
                printf("%s\n", line);
                fflush(stdout);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
        if (0 == rank) {
            printf("scc_soak: %d iterations (%d warm-up) in %.1f s, %d processes\n", it, warmup,
                   MPI_Wtime() - t0, size);
            fflush(stdout);
        }
    }
    opt = tb_finish();
    MPI_Finalize();
    return opt;
}
