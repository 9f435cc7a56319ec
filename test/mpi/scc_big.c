/* scc_big.c: messages far beyond the transport's buffers (256 MB by default), and
 * communicators created and freed in loops while collectives run on them.
 *
 * Usage: scc_big [-s megabytes] [-l loops] */
#include <dirent.h>
#include <unistd.h>

#include "scc_test.h"

/* Open descriptors and mapped regions of this process: what a communicator holds. */
static void held(int *fds, int *maps)
{
    DIR *d = opendir("/proc/self/fd");
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    *fds = *maps = 0;
    while (NULL != d && NULL != readdir(d)) {
        (*fds)++;
    }
    while (NULL != f && NULL != fgets(line, sizeof(line), f)) {
        (*maps)++;
    }
    if (d) {
        closedir(d);
    }
    if (f) {
        fclose(f);
    }
}

/* Every int of a large vector, checked against its expected value. */
static void check_vec(const int *v, size_t n, int (*want)(size_t, int), int arg,
                      const char *what)
{
    tb_case();
    for (size_t i = 0; i < n; ++i) {
        if (v[i] != want(i, arg)) {
            tb_fail("%s: element %zu is %d, expected %d", what, i, v[i], want(i, arg));
            return;
        }
    }
}

static int nprocs;

static int w_bcast(size_t i, int root)
{
    return (int) (i * 2654435761u) ^ root;
}

static int w_sum(size_t i, int unused)
{
    long s = 0;
    for (int r = 0; r < nprocs; ++r) {
        s += (int) ((i + (size_t) r * 7) & 0xffff);
    }
    return (int) s;
}

int main(int argc, char **argv)
{
    size_t mb = 256, n;
    int loops = 300, rank, opt, rc;
    int *a, *b;
    char what[128];

    tb_prog = "scc_big";
    while ((opt = getopt(argc, argv, "s:l:")) != -1) {
        if ('s' == opt) {
            mb = (size_t) atol(optarg);
        } else if ('l' == opt) {
            loops = atoi(optarg);
        }
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    /* one vector of mb megabytes: broadcast, then summed with allreduce and reduce */
    n = (mb << 20) / sizeof(int);
    a = tb_alloc(n * sizeof(int));
    b = tb_alloc(n * sizeof(int));
    for (int root = 0; root < nprocs && root < 2; ++root) {
        for (size_t i = 0; i < n; ++i) {
            a[i] = rank == root ? w_bcast(i, root) : -1;
        }
        MPI_Bcast(a, (int) n, MPI_INT, root, MPI_COMM_WORLD);
        snprintf(what, sizeof(what), "bcast of %zu MB from %d", mb, root);
        check_vec(a, n, w_bcast, root, what);
    }
    for (size_t i = 0; i < n; ++i) {
        a[i] = (int) ((i + (size_t) rank * 7) & 0xffff);
    }
    MPI_Allreduce(a, b, (int) n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    snprintf(what, sizeof(what), "allreduce of %zu MB", mb);
    check_vec(b, n, w_sum, 0, what);
    memset(b, 0, n * sizeof(int));
    MPI_Reduce(a, b, (int) n, MPI_INT, MPI_SUM, nprocs - 1, MPI_COMM_WORLD);
    if (rank == nprocs - 1) {
        snprintf(what, sizeof(what), "reduce of %zu MB", mb);
        check_vec(b, n, w_sum, 0, what);
    }
    tb_guards_ok(a, "big a");
    tb_guards_ok(b, "big b");
    tb_free(a);
    tb_free(b);

    /* communicators in loops: each one set up, used and released */
    int fds0, maps0, fds1, maps1;
    {
        /* one round first, so lazily made things of Open MPI exist before counting */
        MPI_Comm c;
        int v = 0;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Bcast(&v, 1, MPI_INT, 0, c);
        MPI_Comm_free(&c);
    }
    held(&fds0, &maps0);
    for (int it = 0; it < loops; ++it) {
        MPI_Comm dup, half;
        int v = it, s = 0;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_split(dup, rank % 2, -rank, &half);
        MPI_Bcast(&v, 1, MPI_INT, it % nprocs, dup);
        MPI_Allreduce(&rank, &s, 1, MPI_INT, MPI_SUM, half);
        tb_case();
        if (v != it) {
            tb_fail("loop %d: bcast on a fresh communicator gave %d", it, v);
        }
        {
            int half_size, want = 0;
            MPI_Comm_size(half, &half_size);
            for (int r = rank % 2; r < nprocs; r += 2) {
                want += r;
            }
            tb_case();
            if (s != want) {
                tb_fail("loop %d: allreduce on a split communicator gave %d, expected %d", it,
                        s, want);
            }
        }
        MPI_Comm_free(&half);
        MPI_Comm_free(&dup);
    }
    held(&fds1, &maps1);
    tb_case();
    if (fds1 > fds0 + 2 || maps1 > maps0 + 8) {
        tb_fail("%d communicators created and freed: descriptors %d -> %d, mappings %d -> %d",
                2 * loops, fds0, fds1, maps0, maps1);
    }
    rc = tb_finish();
    MPI_Finalize();
    return rc;
}
