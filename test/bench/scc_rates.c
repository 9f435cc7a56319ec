/* scc_rates.c: the rates a collective's floor is made of, on this machine -- what two processes
 * can copy and combine per second, and how that changes when the data was just written by the
 * other core or is read with process_vm_readv (single copy).  The model of the floor of each
 * collective (README, "Measured here") multiplies the bytes a process must copy and combine by
 * these.  Run with 2 processes (more are idle), bound to cores:
 *
 *     mpirun -np 2 --bind-to core build/test/bench/scc_rates [-m MIN:MAX] [-i ITERS]
 *
 * Per size (bytes), the median over iterations, in microseconds and GB/s:
 *   copy    rank 0 copies a buffer it holds into another (memcpy; the data stays in cache)
 *   copy2   both ranks do so at once
 *   xcopy   rank 0 copies out of shared memory that rank 1 has just written (a cross-core read)
 *   op      rank 0 combines two buffers it holds (MPI_Reduce_local, MPI_INT, MPI_SUM)
 *   xop     the same with one operand just written by rank 1 in shared memory
 *   cma     rank 0 reads rank 1's buffer with process_vm_readv */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum { R_COPY, R_COPY2, R_XCOPY, R_OP, R_XOP, R_CMA, R_COUNT };
static const char *const names[R_COUNT] = { "copy", "copy2", "xcopy", "op", "xop", "cma" };

static int rank;
static char *a, *b, *shm;
static pid_t peer_pid;
static uint64_t peer_a;
static MPI_Comm pair;              /* ranks 0 and 1 */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

static int cmp(const void *x, const void *y)
{
    double p = *(const double *) x, q = *(const double *) y;
    return (p > q) - (p < q);
}

/* One timed operation k on n bytes (rank 0's time; rank 1 prepares or joins). */
static double once(int k, size_t n, int it)
{
    double t0, t = 0;

    if ((R_XCOPY == k || R_XOP == k) && 1 == rank) {
        memset(shm, it, n);             /* the lines are rank 1's, modified, when rank 0 reads */
    }
    MPI_Barrier(pair);
    t0 = now();
    if (0 == rank || R_COPY2 == k) {
        struct iovec l = { b, n }, r = { (void *) (uintptr_t) peer_a, n };
        switch (k) {
        case R_COPY:
        case R_COPY2: memcpy(b, a, n); break;
        case R_XCOPY: memcpy(b, shm, n); break;
        case R_OP: MPI_Reduce_local(a, b, (int) (n / 4), MPI_INT, MPI_SUM); break;
        case R_XOP: MPI_Reduce_local(shm, b, (int) (n / 4), MPI_INT, MPI_SUM); break;
        case R_CMA:
            if (process_vm_readv(peer_pid, &l, 1, &r, 1, 0) != (ssize_t) n) {
                fprintf(stderr, "scc_rates: process_vm_readv failed\n");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            break;
        }
        t = now() - t0;
    }
    return t;
}

int main(int argc, char **argv)
{
    size_t lo = 65536, hi = 4u << 20;
    int iters = 200, opt, np;
    uint64_t mine[2], theirs[2] = { 0, 0 };
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    while ((opt = getopt(argc, argv, "m:i:")) != -1) {
        if ('m' == opt) {
            unsigned long x, y;
            if (2 != sscanf(optarg, "%lu:%lu", &x, &y) || x < 64 || y < x) {
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            lo = x, hi = y;
        } else if ('i' == opt) {
            iters = atoi(optarg) > 0 ? atoi(optarg) : iters;
        } else {
            if (0 == rank) fprintf(stderr, "usage: scc_rates [-m MIN:MAX] [-i ITERS]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (np < 2) {
        if (0 == rank) fprintf(stderr, "scc_rates: run it with 2 processes\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
    if (rank >= 2) {
        /* idle: only the first two measure */
        MPI_Finalize();
        return 0;
    }
    if (posix_memalign((void **) &a, 4096, hi) || posix_memalign((void **) &b, 4096, hi)) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(a, 1, hi);
    memset(b, 2, hi);
    MPI_Win_allocate_shared(0 == rank ? (MPI_Aint) hi : 0, 1, MPI_INFO_NULL, pair, &shm, &win);
    {
        MPI_Aint sz;
        int du;
        MPI_Win_shared_query(win, 0, &sz, &du, &shm);
    }
    mine[0] = (uint64_t) getpid();
    mine[1] = (uint64_t) (uintptr_t) a;
    MPI_Sendrecv(mine, 2, MPI_UINT64_T, 1 - rank, 0, theirs, 2, MPI_UINT64_T, 1 - rank, 0, pair,
                 MPI_STATUS_IGNORE);
    peer_pid = (pid_t) theirs[0];
    peer_a = theirs[1];
    if (0 == rank) {
        printf("# scc_rates: median of %d iterations; us, then GB/s\n# %8s", iters, "bytes");
        for (int k = 0; k < R_COUNT; ++k) printf(" %9s", names[k]);
        printf("\n");
    }
    for (size_t n = lo; n <= hi; n *= 2) {
        double med[R_COUNT], *t = malloc(sizeof(double) * (size_t) iters);
        for (int k = 0; k < R_COUNT; ++k) {
            for (int i = 0; i < iters; ++i) {
                t[i] = once(k, n, i);
            }
            qsort(t, (size_t) iters, sizeof(double), cmp);
            med[k] = t[iters / 2] * 1e6;
        }
        if (0 == rank) {
            printf("%10zu", n);
            for (int k = 0; k < R_COUNT; ++k) printf(" %9.2f", med[k]);
            printf("\n%10s", "GB/s");
            for (int k = 0; k < R_COUNT; ++k) printf(" %9.1f", (double) n / med[k] / 1e3);
            printf("\n");
            fflush(stdout);
        }
        free(t);
    }
    MPI_Win_free(&win);
    MPI_Comm_free(&pair);
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
