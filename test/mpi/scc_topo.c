/* scc_topo.c: collectives on named communicators (world, halves, reversed) for the topology tests.
 *
 * An ordinary MPI program.  topo.sh runs it under different mesh descriptions
 * and reads coll/scc's verbose output to see which topology and algorithms each
 * communicator got; the program itself checks that the results are right.
 */
#include "scc_test.h"

/* A broadcast of a few sizes and an allreduce, checked element by element. */
static void exercise(MPI_Comm comm)
{
    static const int counts[] = { 1, 100, 5000 };
    int rank, size;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Barrier(comm);
    for (int k = 0; k < 3; ++k) {
        const int n = counts[k], root = (k + 1) % size;
        int32_t *buf = tb_alloc(n * sizeof(int32_t));
        int32_t *sum = tb_alloc(n * sizeof(int32_t));

        for (int i = 0; i < n; ++i) {
            buf[i] = (rank == root) ? tb_val(root, i, k) : -1;
            sum[i] = tb_val(rank, i, k);
        }
        MPI_Bcast(buf, n, MPI_INT32_T, root, comm);
        MPI_Allreduce(MPI_IN_PLACE, sum, n, MPI_INT32_T, MPI_SUM, comm);
        tb_cases += 2;
        for (int i = 0; i < n; ++i) {
            int32_t want = 0;
            for (int r = 0; r < size; ++r) {
                want += tb_val(r, i, k);
            }
            if (buf[i] != tb_val(root, i, k)) {
                tb_fail("bcast of %d from %d: element %d is %d", n, root, i, (int) buf[i]);
                break;
            }
            if (sum[i] != want) {
                tb_fail("allreduce of %d: element %d is %d, expected %d", n, i, (int) sum[i],
                        (int) want);
                break;
            }
        }
        tb_guards_ok(buf, "bcast buffer");
        tb_guards_ok(sum, "allreduce buffer");
        tb_free(buf);
        tb_free(sum);
    }
}

int main(int argc, char **argv)
{
    int rank, size, rc;
    MPI_Comm half, rev;

    tb_prog = "scc_topo";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    exercise(MPI_COMM_WORLD);
    /* a subset: even and odd world ranks */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_set_name(half, rank % 2 ? "odd" : "even");
    exercise(half);
    /* every rank, in reverse order */
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
    MPI_Comm_set_name(rev, "reversed");
    exercise(rev);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);

    rc = tb_finish();
    MPI_Finalize();
    return rc;
}
