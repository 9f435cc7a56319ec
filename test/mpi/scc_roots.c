/* scc_roots.c: broadcasts and reductions whose root moves to the next rank at every call, for
 * many rounds over all ranks, checked element by element; prints the time per call.
 *
 *   scc_roots [-s BYTES] [-r ROUNDS] [-c bcast,reduce] [-z K] [-q]
 *
 * -z K: the size cycles too, over BYTES, 2 BYTES, ..., K BYTES (call i: (i % K + 1) BYTES),
 *       so that even 2 ranks ask for many plans in turn.
 * -q: no data written or checked, only timed.
 *
 * The component keeps one plan per (collective, algorithm, root, blocks): however many
 * rounds run, a communicator makes each plan once (its verbose 2 report says how many). */
#include <unistd.h>

#include "scc_test.h"

int main(int argc, char **argv)
{
    size_t bytes = 65536;
    int rounds = 4, rank, size, opt, rc, quiet = 0, ksizes = 1;
    const char *colls = "bcast,reduce";

    tb_prog = "scc_roots";
    while ((opt = getopt(argc, argv, "s:r:c:z:q")) != -1) {
        if ('z' == opt) ksizes = atoi(optarg) > 0 ? atoi(optarg) : 1;
        if ('q' == opt) quiet = 1;
        if ('s' == opt) bytes = (size_t) atol(optarg);
        else if ('r' == opt) rounds = atoi(optarg);
        else if ('c' == opt) colls = optarg;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    size_t count = bytes / sizeof(int32_t) * (size_t) ksizes;
    int32_t *buf = tb_alloc(count * sizeof(int32_t));
    int32_t *out = tb_alloc(count * sizeof(int32_t));
    int32_t *want = malloc(count * sizeof(int32_t) + 1);

    memset(buf, 0, count * sizeof(int32_t));

    for (int c = 0; c < 2; ++c) {
        const char *name = 0 == c ? "bcast" : "reduce";
        double t0, t;
        if (NULL == strstr(colls, name)) {
            continue;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (int i = 0; i < rounds * size; ++i) {
            int root = i % size, salt = i % 7;
            count = bytes / sizeof(int32_t) * (size_t) (i % ksizes + 1);
            if (quiet) {
                if (0 == c) {
                    MPI_Bcast(buf, (int) count, MPI_INT32_T, root, MPI_COMM_WORLD);
                } else {
                    MPI_Reduce(buf, out, (int) count, MPI_INT32_T, MPI_SUM, root,
                               MPI_COMM_WORLD);
                }
            } else if (0 == c) {
                for (size_t k = 0; k < count; ++k) {
                    buf[k] = rank == root ? tb_val(root, k, salt) : -1;
                }
                MPI_Bcast(buf, (int) count, MPI_INT32_T, root, MPI_COMM_WORLD);
                tb_case();
                for (size_t k = 0; k < count; ++k) {
                    if (buf[k] != tb_val(root, k, salt)) {
                        tb_fail("bcast %d from root %d: element %zu is %d", i, root, k, buf[k]);
                        break;
                    }
                }
            } else {
                for (size_t k = 0; k < count; ++k) {
                    buf[k] = tb_val(rank, k, salt);
                    out[k] = -1;
                }
                MPI_Reduce(buf, out, (int) count, MPI_INT32_T, MPI_SUM, root, MPI_COMM_WORLD);
                if (rank == root) {
                    tb_case();
                    for (size_t k = 0; k < count; ++k) {
                        want[k] = 0;
                        for (int r = 0; r < size; ++r) {
                            want[k] += tb_val(r, k, salt);
                        }
                        if (out[k] != want[k]) {
                            tb_fail("reduce %d to root %d: element %zu is %d, expected %d", i,
                                    root, k, out[k], want[k]);
                            break;
                        }
                    }
                }
            }
        }
        t = (MPI_Wtime() - t0) / (rounds * size);
        count = bytes / sizeof(int32_t) * (size_t) ksizes;
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (0 == rank) {
            printf("scc_roots: %s of %zu bytes (x1..%d), root rotating over %d ranks, %d rounds: "
                   "%.2f us per call%s\n", name, bytes, ksizes, size, rounds, t * 1e6,
                   quiet ? "" : " (checks included)");
        }
    }
    tb_guards_ok(buf, "buf");
    tb_guards_ok(out, "out");
    tb_free(buf);
    tb_free(out);
    free(want);
    rc = tb_finish();
    MPI_Finalize();
    return rc;
}
