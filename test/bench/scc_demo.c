/* scc_demo.c: the main job -- a few common collectives timed over a few sizes,
 * with a correctness check of every result, as any MPI program would run them. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITERS 200

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* Median over iterations of the slowest rank's time, in microseconds. */
static double timed(int which, void *a, void *b, int count, MPI_Comm comm, int *bad)
{
    double t[ITERS];
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int it = -10; it < ITERS; ++it) {
        int *ia = a, *ib = b;
        for (int i = 0; i < count; ++i) {
            ia[i] = rank + i;
        }
        MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        switch (which) {
        case 0: MPI_Bcast(a, count, MPI_INT, 0, comm); break;
        case 1: MPI_Allreduce(a, b, count, MPI_INT, MPI_SUM, comm); break;
        case 2: MPI_Reduce(a, b, count, MPI_INT, MPI_SUM, 0, comm); break;
        default: MPI_Barrier(comm); break;
        }
        double dt = MPI_Wtime() - t0, mx;
        MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, comm);
        if (it >= 0) {
            t[it] = mx * 1e6;
        }
        for (int i = 0; i < count; ++i) {
            int want = 0 == which ? i : size * (size - 1) / 2 + size * i;
            int got = 0 == which ? ia[i] : ib[i];
            if ((1 == which || (2 == which && 0 == rank) || 0 == which) && got != want) {
                (*bad)++;
                break;
            }
        }
    }
    qsort(t, ITERS, sizeof(double), cmp_double);
    return t[ITERS / 2];
}

int main(int argc, char **argv)
{
    static const char *names[] = { "bcast", "allreduce", "reduce", "barrier" };
    static const int counts[] = { 1, 256, 16384, 262144 };
    int rank, size, bad = 0, allbad;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *a = malloc(262144 * sizeof(int)), *b = malloc(262144 * sizeof(int));
    if (0 == rank) {
        printf("%-10s %12s %14s\n", "collective", "bytes", "median us");
    }
    for (int w = 0; w < 4; ++w) {
        for (int c = 0; c < 4; ++c) {
            if (3 == w && c > 0) {
                break;
            }
            double us = timed(w, a, b, 3 == w ? 0 : counts[c], MPI_COMM_WORLD, &bad);
            if (0 == rank) {
                printf("%-10s %12zu %14.2f\n", names[w], 3 == w ? 0 : counts[c] * sizeof(int), us);
            }
        }
    }
    MPI_Allreduce(&bad, &allbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("results: %s\n", allbad ? "WRONG" : "all correct");
    }
    free(a);
    free(b);
    MPI_Finalize();
    return allbad ? 1 : 0;
}
