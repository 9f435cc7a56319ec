/* in-place alltoallv latency: per block size, median of 7 reps of (iters calls) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp(const void *a, const void *b) { double x = *(const double *) a, y = *(const double *) b; return x < y ? -1 : x > y; }
int main(int argc, char **argv)
{
    int rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int v = argc > 1 && argv[1][0] == 'v';
    int *cnt = malloc(n * sizeof(int)), *dsp = malloc(n * sizeof(int));
    for (size_t b = 8; b <= (1u << 20); b *= 8) {
        size_t ints = b / 4;
        int *buf = malloc(ints * n * 4 + 64);
        for (int i = 0; i < n; ++i) { cnt[i] = (int) ints; dsp[i] = (int) (i * ints); }
        memset(buf, 1, ints * n * 4);
        int iters = b <= 4096 ? 2000 : b <= 65536 ? 200 : 20;
        double t[7];
        for (int r = 0; r < 7; ++r) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < iters; ++i) {
                if (v) MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
                else MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (int) ints, MPI_INT, MPI_COMM_WORLD);
            }
            t[r] = (MPI_Wtime() - t0) / iters * 1e6;
        }
        double m;
        qsort(t, 7, sizeof(double), cmp);
        MPI_Allreduce(&t[3], &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (0 == rank) printf("%s np %d block %7zu B: %9.2f us (min %.2f max %.2f)\n", v ? "alltoallv" : "alltoall", n, b, m, t[0], t[6]);
        free(buf);
    }
    MPI_Finalize();
    return 0;
}
