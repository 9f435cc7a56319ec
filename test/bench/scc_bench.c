/* scc_bench.c: OSU-style latency benchmark of the ten collectives coll/scc serves -- barrier-
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
 * Sizes are bytes of MPI_INT data per process and call, as OSU and IMB count them: the buffer
 * (bcast), the vector (reduce, allreduce), the block per peer (alltoall, alltoallv) or per rank
 * (gather, scatter, allgather, and the block each rank receives in reduce_scatter_block).
 * Reductions are MPI_SUM.  MPI_IN_PLACE is never used.
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
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { C_BCAST, C_BARRIER, C_REDUCE, C_ALLREDUCE, C_ALLTOALL, C_ALLTOALLV, C_GATHER, C_SCATTER,
       C_ALLGATHER, C_REDUCE_SCATTER_BLOCK, C_MEMCPY, C_XCOPY, C_COUNT };

static const char *const coll_names[C_COUNT] = {
    "bcast", "barrier", "reduce", "allreduce", "alltoall", "alltoallv", "gather", "scatter",
    "allgather", "reduce_scatter_block", "memcpy", "xcopy"
};

#define MAX_SIZES 64
#define MAX_ROOTS 64
#define MAX_ALGS 32
#define GUARD 64                 /* bytes of guard zone on each side of a buffer */
#define GUARD_BYTE 0xA5
#define POISON ((int32_t) 0xA5A5A5A5)   /* never a pattern value (those are in [0, 1e6)) */
#define TAG_CTL 7001
#define PROBES 5                 /* iterations that measure what one costs */

/* ------------------------------------------------------------ options and state */

static int rank, nprocs;
static int want_coll[C_COUNT];
static size_t sizes[MAX_SIZES];
static int nsizes;
static int roots[MAX_ROOTS], nroots = 1;
static const char *alg_list;          /* -a: NULL (component decides), "all" or a list */
static int fixed_iters, fixed_warmup = -1, min_iters = 10, max_iters = 1000;
static double budget = 0.2;           /* seconds of timed iterations per measurement */
static int check_all;                 /* -C: check every output element every iteration */
static int any_wrong;

/* Buffers: page-aligned, with GUARD bytes of guard zone before and after the used part. */
static int32_t *sbuf, *rbuf;
static char *xmine, *xright;          /* xcopy: my shared buffer, my right neighbour's */
static size_t buf_elems;
static int *counts, *displs;          /* alltoallv: equal blocks, as OSU's osu_alltoallv */

/* The pattern: what rank q holds at input element e.  Elements at the stamp positions of
 * each block (first, middle, last) carry the salt of the current iteration, the others the
 * base salt of the measurement. */
static int base_salt, stamp_salt;
static size_t blk;                    /* elements per block */

static int32_t pattern(int q, size_t e, int salt)
{
    uint32_t x = (uint32_t) q * 0x9E3779B1u ^ (uint32_t) e * 0x85EBCA77u ^ (uint32_t) salt * 0xC2B2AE3Du;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    x *= 0x297A2D39u;
    x ^= x >> 15;
    return (int32_t) (x % 1000000u);  /* sums over up to 2000 ranks fit in an int */
}

static int is_stamp(size_t k)
{
    return 0 == k || blk / 2 == k || blk - 1 == k;
}

static int32_t src(int q, size_t e)
{
    return pattern(q, e, is_stamp(e % blk) ? stamp_salt : base_salt);
}

static void die(const char *msg)
{
    fprintf(stderr, "scc_bench: %s\n", msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

/* ------------------------------------------------------------ bookkeeping (point to point) */

/* v[i] = max over ranks of v[i], on rank 0. */
static void ctl_max(double *v, int n)
{
    if (0 == rank) {
        double *t = malloc((size_t) n * sizeof(double) + 1);
        for (int p = 1; p < nprocs; ++p) {
            MPI_Recv(t, n, MPI_DOUBLE, p, TAG_CTL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < n; ++i) {
                v[i] = t[i] > v[i] ? t[i] : v[i];
            }
        }
        free(t);
    } else {
        MPI_Send(v, n, MPI_DOUBLE, 0, TAG_CTL, MPI_COMM_WORLD);
    }
}

/* *v = sum over ranks of *v, on every rank. */
static void ctl_sum(long *v)
{
    if (0 == rank) {
        for (int p = 1; p < nprocs; ++p) {
            long t;
            MPI_Recv(&t, 1, MPI_LONG, p, TAG_CTL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            *v += t;
        }
        for (int p = 1; p < nprocs; ++p) {
            MPI_Send(v, 1, MPI_LONG, p, TAG_CTL, MPI_COMM_WORLD);
        }
    } else {
        MPI_Send(v, 1, MPI_LONG, 0, TAG_CTL, MPI_COMM_WORLD);
        MPI_Recv(v, 1, MPI_LONG, 0, TAG_CTL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* rank 0's v[0..n) to every rank. */
static void ctl_share(int *v, int n)
{
    if (0 == rank) {
        for (int p = 1; p < nprocs; ++p) {
            MPI_Send(v, n, MPI_INT, p, TAG_CTL, MPI_COMM_WORLD);
        }
    } else {
        MPI_Recv(v, n, MPI_INT, 0, TAG_CTL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* ------------------------------------------------------------ buffers and guards */

static int32_t *guarded_alloc(size_t elems)
{
    void *p;
    size_t bytes = 4096 + elems * sizeof(int32_t) + 4096;
    if (0 != posix_memalign(&p, 4096, bytes)) {
        die("out of memory");
    }
    memset(p, 0, bytes);              /* touch every page before timing */
    memset((char *) p + 4096 - GUARD, GUARD_BYTE, GUARD);
    return (int32_t *) (void *) ((char *) p + 4096);
}

static void guarded_free(int32_t *b)
{
    if (NULL != b) {
        free((char *) b - 4096);
    }
}

static void set_guard_after(int32_t *b, size_t elems)
{
    memset((char *) (b + elems), GUARD_BYTE, GUARD);
}

static int guards_ok(int32_t *b, size_t elems)
{
    const unsigned char *before = (const unsigned char *) b - GUARD;
    const unsigned char *after = (const unsigned char *) (b + elems);
    for (int i = 0; i < GUARD; ++i) {
        if (before[i] != GUARD_BYTE || after[i] != GUARD_BYTE) {
            return 0;
        }
    }
    return 1;
}

/* ------------------------------------------------------------ the collectives */

typedef struct {
    int coll, root;
    size_t c;                         /* elements per block */
    size_t sn, rn;                    /* elements used in sbuf and rbuf */
    MPI_Comm comm;
} meas_t;

static int is_rooted(int coll)
{
    return C_BCAST == coll || C_REDUCE == coll || C_GATHER == coll || C_SCATTER == coll;
}

static void sizes_of(meas_t *m)
{
    size_t c = m->c, n = (size_t) nprocs;
    switch (m->coll) {
    case C_BCAST:     m->sn = 0;     m->rn = c;     break;  /* the buffer is rbuf everywhere */
    case C_BARRIER:   m->sn = 0;     m->rn = 0;     break;
    case C_REDUCE:
    case C_ALLREDUCE: m->sn = c;     m->rn = c;     break;
    case C_ALLTOALL:
    case C_ALLTOALLV: m->sn = n * c; m->rn = n * c; break;
    case C_GATHER:
    case C_ALLGATHER: m->sn = c;     m->rn = n * c; break;
    case C_MEMCPY:
    case C_XCOPY:     m->sn = c;     m->rn = c;     break;
    case C_SCATTER:
    case C_REDUCE_SCATTER_BLOCK: m->sn = n * c; m->rn = c; break;
    }
}

/* Whether this rank's input matters (and so is filled and stamped). */
static int has_input(const meas_t *m)
{
    if (C_BCAST == m->coll || C_SCATTER == m->coll) {
        return rank == m->root;
    }
    return C_BARRIER != m->coll;
}

/* Whether this rank's output is defined (and so is checked). */
static int has_output(const meas_t *m)
{
    if (C_REDUCE == m->coll || C_GATHER == m->coll) {
        return rank == m->root;
    }
    return C_BARRIER != m->coll;
}

static int32_t *input_of(const meas_t *m)
{
    return C_BCAST == m->coll ? rbuf : sbuf;
}

static size_t input_elems(const meas_t *m)
{
    return C_BCAST == m->coll ? m->c : m->sn;
}

/* The value output element o of this rank must hold. */
static int32_t expected(const meas_t *m, size_t o)
{
    size_t c = m->c, b = o / c, k = o % c;
    int32_t sum = 0;
    switch (m->coll) {
    case C_BCAST:
        return src(m->root, o);
    case C_REDUCE:
    case C_ALLREDUCE:
        for (int q = 0; q < nprocs; ++q) {
            sum += src(q, o);
        }
        return sum;
    case C_ALLTOALL:
    case C_ALLTOALLV:                   /* block b came from rank b, its block for me */
        return src((int) b, (size_t) rank * c + k);
    case C_GATHER:
    case C_ALLGATHER:
        return src((int) b, k);
    case C_SCATTER:
        return src(m->root, (size_t) rank * c + k);
    case C_REDUCE_SCATTER_BLOCK:
        for (int q = 0; q < nprocs; ++q) {
            sum += src(q, (size_t) rank * c + k);
        }
        return sum;
    case C_MEMCPY:
        return src(rank, o);
    case C_XCOPY:
        return src((rank + 1) % nprocs, o);
    }
    return 0;
}

static void run_coll(const meas_t *m)
{
    int c = (int) m->c;
    switch (m->coll) {
    case C_BCAST:
        MPI_Bcast(rbuf, c, MPI_INT, m->root, m->comm);
        break;
    case C_BARRIER:
        MPI_Barrier(m->comm);
        break;
    case C_REDUCE:
        MPI_Reduce(sbuf, rbuf, c, MPI_INT, MPI_SUM, m->root, m->comm);
        break;
    case C_ALLREDUCE:
        MPI_Allreduce(sbuf, rbuf, c, MPI_INT, MPI_SUM, m->comm);
        break;
    case C_ALLTOALL:
        MPI_Alltoall(sbuf, c, MPI_INT, rbuf, c, MPI_INT, m->comm);
        break;
    case C_ALLTOALLV:
        MPI_Alltoallv(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, m->comm);
        break;
    case C_GATHER:
        MPI_Gather(sbuf, c, MPI_INT, rbuf, c, MPI_INT, m->root, m->comm);
        break;
    case C_SCATTER:
        MPI_Scatter(sbuf, c, MPI_INT, rbuf, c, MPI_INT, m->root, m->comm);
        break;
    case C_ALLGATHER:
        MPI_Allgather(sbuf, c, MPI_INT, rbuf, c, MPI_INT, m->comm);
        break;
    case C_REDUCE_SCATTER_BLOCK:
        MPI_Reduce_scatter_block(sbuf, rbuf, c, MPI_INT, MPI_SUM, m->comm);
        break;
    case C_MEMCPY:
        memcpy(rbuf, sbuf, (size_t) c * sizeof(int32_t));
        break;
    case C_XCOPY:
        memcpy(rbuf, xright, (size_t) c * sizeof(int32_t));
        break;
    }
}

/* Writes the stamp positions of every input block with the current stamp salt. */
static void stamp_inputs(const meas_t *m)
{
    int32_t *in = input_of(m);
    size_t n = input_elems(m);
    if (!has_input(m)) {
        return;
    }
    for (size_t b0 = 0; b0 < n; b0 += m->c) {
        in[b0] = src(rank, b0);
        in[b0 + m->c / 2] = src(rank, b0 + m->c / 2);
        in[b0 + m->c - 1] = src(rank, b0 + m->c - 1);
    }
}

/* Whether output element o holds what it must; reports the first few that do not. */
static int check_one(const meas_t *m, size_t o, long bad, int report)
{
    int32_t want = expected(m, o);
    if (rbuf[o] == want) {
        return 1;
    }
    if (report && bad < 3) {
        char root[24] = "";
        if (is_rooted(m->coll)) {
            snprintf(root, sizeof(root), " root %d", m->root);
        }
        fprintf(stderr, "scc_bench: rank %d: FAIL: %s%s %zu bytes: element %zu is %d, expected "
                "%d\n", rank, coll_names[m->coll], root, m->c * sizeof(int32_t), o,
                (int) rbuf[o], (int) want);
    }
    return 0;
}

/* Number of wrong output elements (at the stamp positions of each block, or all of them). */
static long check_outputs(const meas_t *m, int all, int report)
{
    long bad = 0;
    if (!has_output(m)) {
        return 0;
    }
    if (all) {
        for (size_t o = 0; o < m->rn; ++o) {
            bad += !check_one(m, o, bad, report);
        }
        return bad;
    }
    for (size_t b0 = 0; b0 < m->rn; b0 += m->c) {
        bad += !check_one(m, b0, bad, report);
        bad += !check_one(m, b0 + m->c / 2, bad, report);
        bad += !check_one(m, b0 + m->c - 1, bad, report);
    }
    return bad;
}

/* ------------------------------------------------------------ barrier semantics */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* A barrier lets nobody out before the last process came in: the last rank comes 20 ms
 * late, and every rank must leave after the moment it entered.  The times are of the
 * system's real-time clock, the same for all processes of a node (and within the precision
 * of clock synchronisation across nodes, hence a 2 ms tolerance). */
static long check_barrier(MPI_Comm comm)
{
    int late = nprocs - 1;
    double late_in = 0, out;
    if (nprocs < 2) {
        return 0;
    }
    MPI_Barrier(comm);
    if (rank == late) {
        usleep(20000);
        late_in = wall();
    }
    MPI_Barrier(comm);
    out = wall();
    if (rank == late) {
        for (int p = 0; p < nprocs; ++p) {
            if (p != late) {
                MPI_Send(&late_in, 1, MPI_DOUBLE, p, TAG_CTL, MPI_COMM_WORLD);
            }
        }
    } else {
        MPI_Recv(&late_in, 1, MPI_DOUBLE, late, TAG_CTL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (out < late_in - 0.002) {
        fprintf(stderr, "scc_bench: rank %d: FAIL: barrier released it %.1f ms before the last "
                "rank came in\n", rank, (late_in - out) * 1e3);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ one measurement */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* xcopy: writes my input to my shared buffer, the lines mine when my left neighbour copies
 * them (the caller's barrier follows). */
static void xcopy_publish(const meas_t *m)
{
    if (C_XCOPY == m->coll) {
        memcpy(xmine, sbuf, m->c * sizeof(int32_t));
    }
}

/* One timed iteration (returns this rank's time of the collective); counts wrong outputs. */
static double iteration(const meas_t *m, int it, long *bad)
{
    double t0, t;
    stamp_salt = it + 1;
    stamp_inputs(m);
    xcopy_publish(m);
    MPI_Barrier(m->comm);
    t0 = MPI_Wtime();
    run_coll(m);
    t = MPI_Wtime() - t0;
    if (C_XCOPY == m->coll) {
        MPI_Barrier(m->comm);         /* read before my neighbour writes the next */
    }
    *bad += check_outputs(m, check_all, *bad < 3);
    return t;
}

static void measure(meas_t *m, const char *alg)
{
    static int measurement;
    long bad = 0;
    int plan[2];                      /* iterations, warm-up */
    double *t;

    sizes_of(m);
    base_salt = stamp_salt = 1000000 + 7 * ++measurement;
    blk = m->c ? m->c : 1;

    /* 1. one untimed call on poisoned outputs, checked element by element */
    if (has_input(m)) {
        int32_t *in = input_of(m);
        for (size_t e = 0; e < input_elems(m); ++e) {
            in[e] = src(rank, e);
        }
    }
    if (has_output(m) && !(C_BCAST == m->coll && rank == m->root)) {
        for (size_t o = 0; o < m->rn; ++o) {
            rbuf[o] = POISON;
        }
    }
    set_guard_after(sbuf, m->sn);
    set_guard_after(rbuf, m->rn);
    if (C_BARRIER == m->coll) {
        bad += check_barrier(m->comm);
    } else {
        if (C_XCOPY == m->coll) {
            xcopy_publish(m);
            MPI_Barrier(m->comm);
        }
        run_coll(m);
        if (C_XCOPY == m->coll) {
            MPI_Barrier(m->comm);
        }
        bad += check_outputs(m, 1, 1);
    }

    /* 2. probe: what one iteration costs with its barrier and checks (the median of a few,
     *    as one of them may have lost the processor) */
    double pt[PROBES], probe;
    for (int i = 0; i < PROBES; ++i) {
        double p0 = now();
        iteration(m, i, &bad);
        pt[i] = now() - p0;
    }
    qsort(pt, PROBES, sizeof(double), cmp_double);
    probe = pt[PROBES / 2];
    ctl_max(&probe, 1);
    if (0 == rank) {
        int it = fixed_iters ? fixed_iters : (int) (budget / (probe > 1e-9 ? probe : 1e-9));
        if (!fixed_iters) {
            it = it < min_iters ? min_iters : it > max_iters ? max_iters : it;
        }
        plan[0] = it;
        plan[1] = fixed_warmup >= 0 ? fixed_warmup : it / 5 < 2 ? 2 : it / 5 > 200 ? 200 : it / 5;
    }
    ctl_share(plan, 2);

    /* 3. warm-up and timed iterations */
    t = malloc((size_t) plan[0] * sizeof(double) + 1);
    for (int i = 0; i < plan[1]; ++i) {
        iteration(m, PROBES + i, &bad);
    }
    for (int i = 0; i < plan[0]; ++i) {
        t[i] = iteration(m, PROBES + plan[1] + i, &bad);
    }
    if (!guards_ok(sbuf, m->sn) || !guards_ok(rbuf, m->rn)) {
        fprintf(stderr, "scc_bench: rank %d: FAIL: %s %zu bytes: guard zone overwritten\n",
                rank, coll_names[m->coll], m->c * sizeof(int32_t));
        bad++;
    }

    /* 4. per iteration the slowest rank; over iterations median, min, max, spread */
    ctl_max(t, plan[0]);
    ctl_sum(&bad);
    if (bad) {
        any_wrong = 1;
    }
    if (0 == rank) {
        int n = plan[0];
        char rootstr[16];
        qsort(t, (size_t) n, sizeof(double), cmp_double);
        double med = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
        double p10 = t[(n - 1) / 10], p90 = t[(n - 1) - (n - 1) / 10];
        snprintf(rootstr, sizeof(rootstr), is_rooted(m->coll) ? "%d" : "-", m->root);
        printf("%-20s %-10s %4s %9zu %11.3f %11.3f %11.3f %7.1f %6d %s\n", coll_names[m->coll],
               alg, rootstr, C_BARRIER == m->coll ? (size_t) 0 : m->c * sizeof(int32_t),
               med * 1e6, t[0] * 1e6, t[n - 1] * 1e6, med > 0 ? 100.0 * (p90 - p10) / med : 0.0,
               n, bad ? "WRONG" : "ok");
        fflush(stdout);
    }
    free(t);
}

/* ------------------------------------------------------------ MPI_T: forcing algorithms */

typedef struct {
    char name[32];
    int value;
} alg_t;

static int cvar_handle(const char *name, MPI_T_cvar_handle *h)
{
    int idx, count;
    if (MPI_SUCCESS != MPI_T_cvar_get_index(name, &idx)) {
        return -1;
    }
    return MPI_SUCCESS == MPI_T_cvar_handle_alloc(idx, NULL, h, &count) ? 0 : -1;
}

static int cvar_read(const char *name, int *v)
{
    MPI_T_cvar_handle h;
    if (cvar_handle(name, &h)) {
        return -1;
    }
    int rc = MPI_T_cvar_read(h, v);
    MPI_T_cvar_handle_free(&h);
    return MPI_SUCCESS == rc ? 0 : -1;
}

/* A new communicator for a collective's runs: past the calls coll/scc leaves to the fallback
 * before it sets a communicator up (coll_scc_setup_calls, where the component is loaded), so
 * that every timed call -- and every probe -- meets the communicator in its steady state. */
static void bench_comm(MPI_Comm *comm)
{
    int calls = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, comm);
    if (0 != cvar_read("coll_scc_setup_calls", &calls)) {
        calls = 0;
    }
    for (int i = 0; i < calls; ++i) {
        MPI_Barrier(*comm);
    }
}

/* Writes and reads back; returns the MPI_T error code (0 on success). */
static int cvar_write(const char *name, int v)
{
    MPI_T_cvar_handle h;
    int back = -1, rc;
    if (cvar_handle(name, &h)) {
        return -1;
    }
    rc = MPI_T_cvar_write(h, &v);
    if (MPI_SUCCESS == rc) {
        MPI_T_cvar_read(h, &back);
        rc = back == v ? 0 : -2;
    }
    MPI_T_cvar_handle_free(&h);
    return rc;
}

static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n) {
        if ((p == list || ',' == p[-1]) && (',' == p[n] || '\0' == p[n])) {
            return 1;
        }
    }
    return 0;
}

/* The algorithms of coll to run: from the enumerator of coll_scc_<coll>_algorithm. */
static int algorithms_of(int coll, alg_t *out)
{
    char pname[96], ename[64];
    int idx, nitems, verbosity, bind, scope, nlen = sizeof(pname), dlen = 0, elen = sizeof(ename);
    int n = 0;
    MPI_Datatype dt;
    MPI_T_enum en;

    snprintf(pname, sizeof(pname), "coll_scc_%s_algorithm", coll_names[coll]);
    if (MPI_SUCCESS != MPI_T_cvar_get_index(pname, &idx)) {
        if (0 == rank) {
            fprintf(stderr, "scc_bench: no MPI_T variable %s: is coll/scc loaded (--mca "
                    "mca_base_component_path, --mca coll scc,...)?\n", pname);
        }
        die("cannot force algorithms");
    }
    if (MPI_SUCCESS != MPI_T_cvar_get_info(idx, pname, &nlen, &verbosity, &dt, &en, NULL, &dlen,
                                           &bind, &scope) || MPI_T_ENUM_NULL == en) {
        die("the algorithm variable has no enumerator");
    }
    MPI_T_enum_get_info(en, &nitems, ename, &elen);
    for (int i = 0; i < nitems && n < MAX_ALGS; ++i) {
        int len = sizeof(out[n].name);
        MPI_T_enum_get_item(en, i, &out[n].value, out[n].name, &len);
        /* nocmsg_fanin is not an MPI barrier (nobody waits for the last one): never timed */
        if (0 == strcmp(out[n].name, "nocmsg_fanin")) {
            continue;
        }
        if (listed(alg_list, "all") || listed(alg_list, out[n].name)) {
            n++;
        }
    }
    return n;
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
"            alltoall,alltoallv,gather,scatter,allgather,reduce_scatter_block); memcpy, named\n"
"            only: each process copies its buffer of that size, the floor of a copy; xcopy,\n"
"            named only: each copies what its right neighbour just wrote to shared memory\n"
"  -m MIN:MAX  sizes in bytes, powers of two from MIN to MAX (default 4:4M)\n"
"  -s LIST   sizes in bytes, comma-separated, K and M suffixes (multiples of 4)\n"
"  -r LIST   roots of bcast, reduce, gather, scatter, comma-separated; 'last' = np-1 (default 0)\n"
"  -a LIST   force these coll/scc algorithms through MPI_T, one after the other ('auto' is\n"
"            the component's own choice; 'all': auto and every algorithm each collective\n"
"            offers, fallback included); default: only auto, without MPI_T\n"
"  -t SEC    time budget of the timed iterations per measurement (default 0.2)\n"
"  -n MIN:MAX  bounds of the adaptive iteration count (default 10:1000)\n"
"  -i N      exactly N timed iterations;  -w N  exactly N warm-up iterations\n"
"  -C        check every output element after every iteration (default: stamped ones)\n");
    }
}

static int parse_args(int argc, char **argv)
{
    int opt, have_colls = 0;
    char *tok, *save, *dup;
    size_t lo = 4, hi = 4u << 20;

    while ((opt = getopt(argc, argv, "c:m:s:r:a:t:n:i:w:Ch")) != -1) {
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
        default: return -1;
        }
    }
    if (optind < argc) {
        return -1;
    }
    if (!have_colls) {
        for (int c = 0; c < C_MEMCPY; ++c) want_coll[c] = 1;
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
            if (C_ALLTOALLV == coll) {
                for (int p = 0; p < nprocs; ++p) {
                    counts[p] = (int) m.c;
                    displs[p] = (int) (m.c * (size_t) p);
                }
            }
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
    counts = malloc((size_t) nprocs * sizeof(int));
    displs = malloc((size_t) nprocs * sizeof(int));
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
        if (!want_coll[coll] || coll >= C_MEMCPY) {
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
               "iterations %d..%d%s\n", nprocs, nsizes, sizes[0], sizes[nsizes - 1], budget,
               fixed_iters ? fixed_iters : min_iters, fixed_iters ? fixed_iters : max_iters,
               check_all ? ", every element checked" : "");
        printf("# %-18s %-10s %4s %9s %11s %11s %11s %7s %6s %s\n", "collective", "alg", "root",
               "bytes", "median_us", "min_us", "max_us", "spread%", "iters", "status");
        fflush(stdout);
    }

    for (int coll = 0; coll < C_COUNT; ++coll) {
        if (!want_coll[coll]) {
            continue;
        }
        if (NULL == alg_list || coll >= C_MEMCPY) {
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
    free(counts);
    free(displs);
    MPI_T_finalize();
    MPI_Finalize();
    return any_wrong ? 1 : 0;
}
