/* scc_big.c: messages far beyond the transport's buffers (256 MB by default), and
 * communicators created and freed in loops while collectives run on them; with -c, first
 * an allgather whose whole buffer counts more elements than an int holds; with -i, first
 * alltoalls in place of 256 KB and 4 MB in all (coll_scc_inplace_copy_max between them).
 *
 * Usage: scc_big [-s megabytes] [-l loops] [-c] [-i] */
#include <dirent.h>
#include <stdbool.h>
#include <sys/resource.h>
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

/* Byte i of rank r's block. */
static unsigned char w_block(size_t i, int r)
{
    return (unsigned char) ((i * 131 + (size_t) r * 29 + (i >> 20)) & 0xff);
}

/* MPI_Allgather, then MPI_Iallgather, in place, of MPI_BYTE blocks whose sum passes
 * INT32_MAX (each count an int, the buffer's is not): the data right, and no copy of the
 * buffer made on the way -- the process's peak resident size stays within its buffer and
 * a margin (a contiguous buffer is used where it is, whatever its count). */
static void big_count(int rank)
{
    const size_t block = ((size_t) INT32_MAX / (size_t) nprocs) + 1;
    const size_t total = block * (size_t) nprocs;
    unsigned char *buf = tb_alloc(total);
    MPI_Request req;
    struct rusage ru;
    char what[128];

    for (int form = 0; form < 2; ++form) {
        memset(buf, 0xee, total);
        for (size_t i = 0; i < block; ++i) {
            buf[(size_t) rank * block + i] = w_block(i, rank);
        }
        req = MPI_REQUEST_NULL;     /* (the blocking form's wait returns at once) */
        0 == form ? MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (int) block,
                                  MPI_BYTE, MPI_COMM_WORLD)
                  : MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (int) block,
                                   MPI_BYTE, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        snprintf(what, sizeof(what), "%s of %d x %zu bytes", form ? "iallgather" : "allgather",
                 nprocs, block);
        tb_case();
        for (int r = 0; r < nprocs; ++r) {
            size_t i;
            for (i = 0; i < block && buf[(size_t) r * block + i] == w_block(i, r); ++i) {
            }
            if (i < block) {
                tb_fail("%s: byte %zu of rank %d's block is %d, expected %d", what, i, r,
                        buf[(size_t) r * block + i], w_block(i, r));
                break;
            }
        }
    }
    tb_guards_ok(buf, "big count");
    getrusage(RUSAGE_SELF, &ru);
    tb_case();
    if ((size_t) ru.ru_maxrss * 1024 > total + ((size_t) 512 << 20)) {
        tb_fail("allgather of %zu bytes in all: peak resident size %ld KB, more than the "
                "buffer and 512 MB (a copy of it was made)", total, ru.ru_maxrss);
    }
    tb_free(buf);
}

/* MPI_Alltoall and MPI_Ialltoall in place, of `total` bytes of ints per rank: every block
 * right, the guards whole. */
static void in_place_alltoall(int rank, size_t total)
{
    const size_t count = total / sizeof(int) / (size_t) nprocs;
    int *buf = tb_alloc(count * (size_t) nprocs * sizeof(int));
    MPI_Request req;
    char what[128];

    for (int form = 0; form < 2; ++form) {
        for (int r = 0; r < nprocs; ++r) {
            for (size_t i = 0; i < count; ++i) {
                buf[(size_t) r * count + i] = tb_val(rank, i, r);
            }
        }
        req = MPI_REQUEST_NULL;
        0 == form ? MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (int) count, MPI_INT,
                                 MPI_COMM_WORLD)
                  : MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (int) count, MPI_INT,
                                  MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        snprintf(what, sizeof(what), "%s in place of %zu bytes", form ? "ialltoall" : "alltoall",
                 total);
        tb_case();
        for (int r = 0; r < nprocs; ++r) {
            size_t i;
            for (i = 0; i < count && buf[(size_t) r * count + i] == tb_val(r, i, rank); ++i) {
            }
            if (i < count) {
                tb_fail("%s: element %zu of rank %d's block is %d, expected %d", what, i, r,
                        buf[(size_t) r * count + i], tb_val(r, i, rank));
                break;
            }
        }
    }
    tb_guards_ok(buf, "in-place alltoall");
    tb_free(buf);
}

int main(int argc, char **argv)
{
    size_t mb = 256, n;
    int loops = 300, rank, opt, rc;
    bool count_big = false, in_place = false;
    int *a, *b;
    char what[128];

    tb_prog = "scc_big";
    while ((opt = getopt(argc, argv, "s:l:ci")) != -1) {
        if ('i' == opt) {
            in_place = true;
        } else if ('c' == opt) {
            count_big = true;
        } else if ('s' == opt) {
            mb = (size_t) atol(optarg);
        } else if ('l' == opt) {
            loops = atoi(optarg);
        }
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (count_big) {
        big_count(rank);
    }
    if (in_place) {
        in_place_alltoall(rank, (size_t) 256 << 10);
        in_place_alltoall(rank, (size_t) 4 << 20);
    }

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
