#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
typedef struct { char c[10]; short s[10]; int i[10]; long l[10]; float f[10]; double d[10]; } mix_t;
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, n; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &n);
    int count = argc > 1 ? atoi(argv[1]) : 100000, reps = argc > 2 ? atoi(argv[2]) : 5;
    int bl[6] = {10,10,10,10,10,10}; MPI_Aint disp[6] = {offsetof(mix_t,c),offsetof(mix_t,s),offsetof(mix_t,i),offsetof(mix_t,l),offsetof(mix_t,f),offsetof(mix_t,d)};
    MPI_Datatype ty[6] = {MPI_CHAR,MPI_SHORT,MPI_INT,MPI_LONG,MPI_FLOAT,MPI_DOUBLE}, t;
    MPI_Type_create_struct(6, bl, disp, ty, &t); MPI_Type_commit(&t);
    mix_t *s = calloc(count, sizeof(mix_t)), *r = calloc((size_t) count * n, sizeof(mix_t));
    const char *names[4] = {"bcast", "gather", "scatter", "allgather"};
    for (int c = 0; c < 4; ++c) {
        double best = 1e9, sum = 0;
        for (int k = 0; k < reps; ++k) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (c == 0) MPI_Bcast(s, count, t, 0, MPI_COMM_WORLD);
            if (c == 1) MPI_Gather(s, count, t, r, count, t, 0, MPI_COMM_WORLD);
            if (c == 2) MPI_Scatter(r, count, t, s, count, t, 0, MPI_COMM_WORLD);
            if (c == 3) MPI_Allgather(s, count, t, r, count, t, MPI_COMM_WORLD);
            double dt = MPI_Wtime() - t0, mx;
            MPI_Reduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (mx < best) best = mx;
            sum += mx;
        }
        if (!rank) printf("%-9s best %7.1f ms mean %7.1f ms\n", names[c], best * 1e3, sum / reps * 1e3);
    }
    MPI_Finalize();
    return 0;
}
