/* scc_xport.c: stresses the transport under the collectives: messages of 0 bytes to several MB,
 * thousands of back-to-back calls (sequence numbers, slot reuse), two communicators used in
 * interleaved order and, with -t, from two threads at once (two communicators set up by
 * their first collectives in the two threads, then two set up before).
 *
 * Usage: scc_xport [-n backtoback] [-m maxbytes] [-t] */
#include <pthread.h>
#include <unistd.h>

#include "scc_test.h"

static int backtoback = 3000;
static size_t maxbytes = 4u << 20;

/* Broadcast len bytes from root on comm and check them; salt varies the data. */
static void bcast_check(MPI_Comm comm, size_t len, int root, int salt, const char *what)
{
    int rank;
    unsigned char *b = tb_alloc(len + 1);
    MPI_Comm_rank(comm, &rank);
    for (size_t i = 0; i < len; ++i) {
        b[i] = rank == root ? tb_byte(root, i, salt) : 0;
    }
    MPI_Bcast(b, (int) len, MPI_BYTE, root, comm);
    tb_case();
    for (size_t i = 0; i < len; ++i) {
        if (b[i] != tb_byte(root, i, salt)) {
            tb_fail("%s: %zu bytes from root %d: byte %zu is %u, expected %u", what, len, root,
                    i, b[i], tb_byte(root, i, salt));
            break;
        }
    }
    tb_guards_ok(b, what);
    tb_free(b);
}

static void sizes_and_roots(MPI_Comm comm, const char *what)
{
    static const size_t fixed[] = { 0, 1, 31, 32, 33, 63, 64, 65, 1000, 1727, 1728, 1729, 4095,
                                    4096, 8192, 16383, 16384, 16385, 3 * 16384 + 5, 32767, 32768,
                                    100000, 1 << 20 };
    int size;
    MPI_Comm_size(comm, &size);
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); ++i) {
        if (fixed[i] <= maxbytes) {
            for (int root = 0; root < size; root += size > 8 ? size / 4 : 1) {
                bcast_check(comm, fixed[i], root, (int) i, what);
            }
        }
    }
    for (size_t len = 2u << 20; len <= maxbytes; len *= 2) {
        bcast_check(comm, len + 3, size - 1, 7, what);
    }
}

/* Many small calls in a row: every message id and slot is reused many times. */
static void back_to_back(MPI_Comm comm, const char *what)
{
    int rank, size, bad = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int it = 0; it < backtoback; ++it) {
        int v[3] = { it, it * 7, -it };
        int root = it % size;
        if (rank != root) {
            v[0] = v[1] = v[2] = -1;
        }
        MPI_Bcast(v, 3, MPI_INT, root, comm);
        if (v[0] != it || v[1] != it * 7 || v[2] != -it) {
            bad++;
        }
    }
    tb_case();
    if (bad) {
        tb_fail("%s: %d of %d back-to-back broadcasts wrong", what, bad, backtoback);
    }
}

/* Two communicators in interleaved order (a collective on one between those on the other). */
static void interleaved(MPI_Comm a, MPI_Comm b)
{
    for (int it = 0; it < 200; ++it) {
        int size;
        MPI_Comm_size(a, &size);
        bcast_check(a, 17 + it % 5 * 20000, it % size, it, "interleaved A");
        bcast_check(b, 40000 - it % 3 * 10000, (it + 1) % size, it + 1, "interleaved B");
    }
}

struct thread_arg {
    MPI_Comm comm;
    const char *name;
};

static void *thread_main(void *p)
{
    struct thread_arg *a = p;
    back_to_back(a->comm, a->name);
    sizes_and_roots(a->comm, a->name);
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = 0, provided, rank, rc, opt;
    MPI_Comm a, b;

    tb_prog = "scc_xport";
    while ((opt = getopt(argc, argv, "n:m:t")) != -1) {
        if ('n' == opt) {
            backtoback = atoi(optarg);
        } else if ('m' == opt) {
            maxbytes = (size_t) atol(optarg);
        } else if ('t' == opt) {
            threads = 1;
        }
    }
    MPI_Init_thread(&argc, &argv, threads ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (threads && provided < MPI_THREAD_MULTIPLE) {
        if (0 == rank) {
            printf("scc_xport: MPI_THREAD_MULTIPLE not provided\n");
        }
        MPI_Finalize();
        return 77;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);

    sizes_and_roots(MPI_COMM_WORLD, "world");
    back_to_back(MPI_COMM_WORLD, "world back-to-back");
    interleaved(a, b);
    if (threads) {
        /* c and d see their first collective (and so their lazy setup) in the two threads
           at once; a and b are set up already */
        pthread_t t[4];
        MPI_Comm c, d;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        {
            struct thread_arg ta[4] = { { c, "thread C (new)" }, { d, "thread D (new)" },
                                        { a, "thread A" }, { b, "thread B" } };
            for (int round = 0; round < 2; ++round) {
                for (int i = 0; i < 2; ++i) {
                    pthread_create(&t[i], NULL, thread_main, &ta[2 * round + i]);
                }
                for (int i = 0; i < 2; ++i) {
                    pthread_join(t[i], NULL);
                }
            }
        }
        MPI_Comm_free(&c);
        MPI_Comm_free(&d);
    }
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    rc = tb_finish();
    MPI_Finalize();
    return rc;
}
