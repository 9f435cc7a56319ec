/* scc_bench_measure.c: one measurement of scc_bench -- the untimed checked call, the probe
 * that sizes the iteration count, warm-up, timed iterations, the slowest rank per iteration
 * and the statistics rank 0 prints -- with its bookkeeping by point-to-point messages, the
 * guarded buffers, the check of barrier semantics and the forcing of coll/scc's algorithms
 * through MPI_T. */
#include "scc_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GUARD 64                 /* bytes of guard zone on each side of a buffer */
#define GUARD_BYTE 0xA5
#define PROBES 5                 /* iterations that measure what one costs */

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

int32_t *guarded_alloc(size_t elems)
{
    void *p = NULL;
    size_t bytes = 4096 + elems * sizeof(int32_t) + 4096;
    if (0 != posix_memalign(&p, 4096, bytes)) {
        die("out of memory");
    }
    memset(p, 0, bytes);              /* touch every page before timing */
    memset((char *) p + 4096 - GUARD, GUARD_BYTE, GUARD);
    return (int32_t *) (void *) ((char *) p + 4096);
}

void guarded_free(int32_t *b)
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
    stamp_inputs(m, it + 1);
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

/* Sorts v; its median. */
static double median_of(double *v, int n)
{
    qsort(v, (size_t) n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* After a measurement's calls: its guard zones checked, the wrong outputs of all ranks
 * summed into *bad (every rank). */
static void measurement_end(const meas_t *m, long *bad)
{
    if (!guards_ok(sbuf, m->sn) || !guards_ok(rbuf, m->rn)) {
        fprintf(stderr, "scc_bench: rank %d: FAIL: %s %zu bytes: guard zone overwritten\n",
                rank, coll_names[m->coll], m->c * sizeof(int32_t));
        ++*bad;
    }
    ctl_sum(bad);
    if (*bad) {
        any_wrong = 1;
    }
}

/* A result line's first columns: collective, algorithm, root, bytes. */
static void print_what(const meas_t *m, const char *alg)
{
    char rootstr[16];
    snprintf(rootstr, sizeof(rootstr), is_rooted(m->coll) ? "%d" : "-", m->root);
    printf("%-20s %-10s %4s %9zu ", coll_names[m->coll], alg, rootstr,
           C_BARRIER == m->coll ? (size_t) 0 : m->c * sizeof(int32_t));
}

#define PAIR_BLOCKS 11            /* blocks of each form in a paired measurement (-P) */

/* The mean of v's lower 90 %: a call's time comes in the timer's ticks (tens of ns here),
 * which a median keeps and a mean smooths; the top tenth (a process that lost the
 * processor) left out. */
static double trimmed_mean(double *v, int n)
{
    int keep = n - n / 10;
    double sum = 0;
    qsort(v, (size_t) n, sizeof(double), cmp_double);
    for (int i = 0; i < keep; ++i) {
        sum += v[i];
    }
    return sum / keep;
}

/* -P: PAIR_BLOCKS blocks of each form, blocking first in even blocks and last in odd ones;
 * a block's time is the trimmed mean over its calls of the slowest rank's.  plan: the
 * iterations (split over the blocks of a form) and the warm-up (of each form). */
static void measure_paired(meas_t *m, const char *alg, const int *plan, long *bad)
{
    const int forms[2] = { FORM_B, paired };
    int per = plan[0] / PAIR_BLOCKS, it = PROBES;
    double *t, med[2][PAIR_BLOCKS], ratio[PAIR_BLOCKS];

    per = per < 5 ? 5 : per;
    t = malloc((size_t) per * sizeof(double) + 1);
    for (int f = 0; f < 2; ++f) {
        form = forms[f];
        for (int i = 0; i < plan[1]; ++i) {
            iteration(m, it++, bad);
        }
    }
    for (int b = 0; b < PAIR_BLOCKS; ++b) {
        for (int k = 0; k < 2; ++k) {
            int f = b % 2 ? 1 - k : k;
            form = forms[f];
            for (int i = 0; i < per; ++i) {
                t[i] = iteration(m, it++, bad);
            }
            ctl_max(t, per);
            med[f][b] = 0 == rank ? trimmed_mean(t, per) : 0;
        }
        ratio[b] = med[0][b] > 0 ? med[1][b] / med[0][b] : 0;
    }
    form = FORM_B;
    measurement_end(m, bad);
    if (0 == rank) {
        double r = median_of(ratio, PAIR_BLOCKS);
        print_what(m, alg);
        printf("%11.3f %11.3f %7.2f %7.2f %7.2f %6d %s\n",
               median_of(med[0], PAIR_BLOCKS) * 1e6, median_of(med[1], PAIR_BLOCKS) * 1e6, r,
               ratio[PAIR_BLOCKS / 4], ratio[PAIR_BLOCKS - 1 - PAIR_BLOCKS / 4],
               2 * per * PAIR_BLOCKS, *bad ? "WRONG" : "ok");
        fflush(stdout);
    }
    free(t);
    run_coll_end();
}

/* One measurement of m (its coll, root, block and communicator set), printed by rank 0. */
void measure(meas_t *m, const char *alg)
{
    static int measurement;
    long bad = 0;
    int plan[2];                      /* iterations, warm-up */
    double *t;

    /* 1. one untimed call on poisoned outputs, checked element by element */
    sizes_of(m);
    prepare(m, 1000000 + 7 * ++measurement);
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

    if (paired >= 0) {
        measure_paired(m, alg, plan, &bad);
        return;
    }

    /* 3. warm-up and timed iterations */
    t = malloc((size_t) plan[0] * sizeof(double) + 1);
    for (int i = 0; i < plan[1]; ++i) {
        iteration(m, PROBES + i, &bad);
    }
    for (int i = 0; i < plan[0]; ++i) {
        t[i] = iteration(m, PROBES + plan[1] + i, &bad);
    }

    /* 4. per iteration the slowest rank; over iterations median, min, max, spread */
    ctl_max(t, plan[0]);
    measurement_end(m, &bad);
    if (0 == rank) {
        int n = plan[0];
        double med = median_of(t, n);
        double p10 = t[(n - 1) / 10], p90 = t[(n - 1) - (n - 1) / 10];
        print_what(m, alg);
        printf("%11.3f %11.3f %11.3f %7.1f %6d %s\n", med * 1e6, t[0] * 1e6, t[n - 1] * 1e6,
               med > 0 ? 100.0 * (p90 - p10) / med : 0.0, n, bad ? "WRONG" : "ok");
        fflush(stdout);
    }
    free(t);
    run_coll_end();
}

/* ------------------------------------------------------------ MPI_T: forcing algorithms */

static int cvar_handle(const char *name, MPI_T_cvar_handle *h)
{
    int idx, count;
    if (MPI_SUCCESS != MPI_T_cvar_get_index(name, &idx)) {
        return -1;
    }
    return MPI_SUCCESS == MPI_T_cvar_handle_alloc(idx, NULL, h, &count) ? 0 : -1;
}

int cvar_read(const char *name, int *v)
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
void bench_comm(MPI_Comm *comm)
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
int cvar_write(const char *name, int v)
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
int algorithms_of(int coll, alg_t *out)
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

