/* scc_big.c: messages far beyond the transport's buffers (256 MB by default), and
 * communicators created and freed in loops while collectives run on them; with -c, first
 * an allgather whose whole buffer counts more elements than an int holds and an alltoallv
 * in place of 1 GB, neither copying its buffer; with -i, first alltoalls and alltoallvs in
 * place of 256 KB and 4 MB in all (coll_scc_inplace_copy_max between them).
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

/* Peak resident size from now on: the kernel's mark set back to what is resident. */
static void peak_reset(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (NULL != f) {
        fputs("5", f);
        fclose(f);
    }
}

/* Peak resident size since peak_reset, in KB (0 where it cannot be read). */
static long peak_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = 0;
    while (NULL != f && NULL != fgets(line, sizeof(line), f)) {
        if (1 == sscanf(line, "VmHWM: %ld", &kb)) {
            break;
        }
    }
    if (NULL != f) {
        fclose(f);
    }
    return kb;
}

/* Elements of the block ranks r and d exchange in the v-forms below: the same from both
 * sides, uneven across pairs. */
static size_t v_count(size_t count, int r, int d)
{
    return count / 2 + (size_t) ((r + d) % 3) * (count / 4);
}

#define V_GAP 16    /* ints between two blocks, left alone by the call */

/* MPI_Alltoall, MPI_Ialltoall, MPI_Alltoallv and MPI_Ialltoallv in place, of about `total`
 * bytes of ints per rank (the v-forms' blocks uneven, in reverse rank order with gaps):
 * every block right, the gaps and guards whole. */
static void in_place_alltoall(int rank, size_t total)
{
    const size_t count = total / sizeof(int) / (size_t) nprocs;
    size_t room = 0;
    int *cnt = tb_alloc((size_t) nprocs * sizeof(int)), *dsp = tb_alloc((size_t) nprocs * sizeof(int));
    for (int d = nprocs - 1; d >= 0; --d) {
        dsp[d] = (int) room;
        cnt[d] = (int) v_count(count, rank, d);
        room += (size_t) cnt[d] + V_GAP;
    }
    int *buf = tb_alloc((room > count * (size_t) nprocs ? room : count * (size_t) nprocs)
                        * sizeof(int));
    static const char *const names[] = { "alltoall", "ialltoall", "alltoallv", "ialltoallv" };
    MPI_Request req;
    char what[128];

    for (int form = 0; form < 4; ++form) {
        const bool v = form >= 2;
        for (int r = 0; r < nprocs; ++r) {
            int *at = v ? buf + dsp[r] : buf + (size_t) r * count;
            for (size_t i = 0; i < (v ? (size_t) cnt[r] + V_GAP : count); ++i) {
                at[i] = tb_val(rank, i, r);
            }
        }
        req = MPI_REQUEST_NULL;
        switch (form) {
        case 0:
            MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (int) count, MPI_INT,
                         MPI_COMM_WORLD);
            break;
        case 1:
            MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (int) count, MPI_INT,
                          MPI_COMM_WORLD, &req);
            break;
        case 2:
            MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, cnt, dsp, MPI_INT,
                          MPI_COMM_WORLD);
            break;
        default:
            MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, cnt, dsp, MPI_INT,
                           MPI_COMM_WORLD, &req);
        }
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        snprintf(what, sizeof(what), "%s in place of %zu bytes", names[form], total);
        tb_case();
        for (int r = 0; r < nprocs; ++r) {
            const int *at = v ? buf + dsp[r] : buf + (size_t) r * count;
            const size_t got = v ? (size_t) cnt[r] : count;
            size_t i;
            for (i = 0; i < got && at[i] == tb_val(r, i, rank); ++i) {
            }
            for (; v && i >= got && i < got + V_GAP && at[i] == tb_val(rank, i, r); ++i) {
            }
            if (i < got + (v ? V_GAP : 0)) {
                tb_fail("%s: element %zu of rank %d's block (of %zu) is %d", what, i, r, got,
                        at[i]);
                break;
            }
        }
    }
    tb_guards_ok(buf, "in-place alltoall");
    tb_free(buf);
    tb_free(cnt);
    tb_free(dsp);
}

/* MPI_Alltoallv and MPI_Ialltoallv in place of 1 GB of bytes per rank: right, and no copy
 * of the buffer made on the way (the peak resident size from the allocation on within the
 * buffer and 256 MB). */
static void in_place_big(int rank)
{
    const size_t block = ((size_t) 1 << 30) / (size_t) nprocs;
    int *cnt = tb_alloc((size_t) nprocs * sizeof(int)), *dsp = tb_alloc((size_t) nprocs * sizeof(int));
    unsigned char *buf;
    MPI_Request req;

    peak_reset();
    buf = tb_alloc(block * (size_t) nprocs);
    for (int r = 0; r < nprocs; ++r) {
        cnt[r] = (int) block;
        dsp[r] = (int) (block * (size_t) r);
    }
    for (int form = 0; form < 2; ++form) {
        for (size_t i = 0; i < block * (size_t) nprocs; ++i) {
            buf[i] = w_block(i % block, rank * nprocs + (int) (i / block));
        }
        req = MPI_REQUEST_NULL;
        0 == form ? MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, cnt, dsp,
                                  MPI_BYTE, MPI_COMM_WORLD)
                  : MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, cnt, dsp,
                                   MPI_BYTE, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        tb_case();
        for (int r = 0; r < nprocs; ++r) {
            size_t i;
            const int from = r * nprocs + rank;
            for (i = 0; i < block && buf[block * (size_t) r + i] == w_block(i, from); ++i) {
            }
            if (i < block) {
                tb_fail("%s in place of %d x %zu bytes: byte %zu of rank %d's block is %d, "
                        "expected %d", form ? "ialltoallv" : "alltoallv", nprocs, block, i, r,
                        buf[block * (size_t) r + i], w_block(i, from));
                break;
            }
        }
    }
    tb_case();
    if ((size_t) peak_kb() * 1024 > block * (size_t) nprocs + ((size_t) 256 << 20)) {
        tb_fail("alltoallv in place of %zu bytes: peak resident size %ld KB, more than the "
                "buffer and 256 MB (a copy of it was made)", block * (size_t) nprocs, peak_kb());
    }
    tb_guards_ok(buf, "in-place alltoallv");
    tb_free(buf);
    tb_free(cnt);
    tb_free(dsp);
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
        in_place_big(rank);
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
