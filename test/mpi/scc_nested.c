/* scc_nested.c: a collective that Open MPI's progress starts while a task runs, with one
 * thread.  Each round starts MPI_Comm_idup on one communicator, then an MPI_Ibcast on
 * another whose root comes late (it sleeps first): a receiver on another node then waits in
 * its task for the root's first message, probing the pml (ob1's probe progresses Open MPI
 * when nothing matches), and that progress runs the next step of the idup's communicator id
 * agreement -- an MPI_Iallreduce on the first communicator, started inside the task.  It is
 * queued for the progress loop (before, it waited for the task lock its own thread held:
 * the job hung).  The broadcast's data, the new communicator's allreduce and the request
 * of each are checked; nodes.sh reads the component's count of such starts from its verbose
 * report.
 *
 *   scc_nested [ROUNDS [LATE_US]]   (defaults 20 and 20000) */
#include "scc_test.h"

#define NBCAST 64

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 20, late = argc > 2 ? atoi(argv[2]) : 20000;
    int rank, size;
    MPI_Comm a, b;

    tb_prog = "scc_nested";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    MPI_Comm_set_name(a, "scc_nested bcast");
    MPI_Comm_set_name(b, "scc_nested idup");
    for (int r = 0; r < rounds; ++r) {
        int buf[NBCAST], v = rank + r, sum = -1, want = 0;
        MPI_Request req[2];
        MPI_Comm nc;

        MPI_Comm_idup(b, &nc, &req[0]);
        for (int i = 0; i < NBCAST; ++i) {
            buf[i] = 0 == rank ? tb_val(0, (size_t) i, r) : -1;
        }
        if (0 == rank) {
            usleep((useconds_t) late);
        }
        MPI_Ibcast(buf, NBCAST, MPI_INT, 0, a, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        tb_case();
        if (MPI_REQUEST_NULL != req[0] || MPI_REQUEST_NULL != req[1]) {
            tb_fail("round %d: a request not set to MPI_REQUEST_NULL by MPI_Waitall", r);
        }
        for (int i = 0; i < NBCAST; ++i) {
            if (buf[i] != tb_val(0, (size_t) i, r)) {
                tb_fail("round %d: ibcast element %d is %d, expected %d", r, i, buf[i],
                        tb_val(0, (size_t) i, r));
                break;
            }
        }
        /* the communicator the idup made works */
        tb_case();
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, nc);
        for (int p = 0; p < size; ++p) {
            want += p + r;
        }
        if (sum != want) {
            tb_fail("round %d: allreduce on the new communicator %d, expected %d", r, sum, want);
        }
        MPI_Comm_free(&nc);
    }
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    {
        int rc = tb_finish();
        MPI_Finalize();
        return rc;
    }
}
