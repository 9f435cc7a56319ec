/* scc_ways.c: large allgather and allgatherv parts, many calls in a row, each checked -- for
 * the choice between single copy and the slots that rank 0 learns from the calls' times and
 * every rank follows (coll_scc_cma_adapt; colls.sh reads the verbose reports).
 *
 *   scc_ways [CALLS]
 * CALLS (default 200) calls of each: MPI_Allgather of 256 KB per process, MPI_Allgatherv with
 * parts of 144 KB + 40 KB * rank at displacements in reversed rank order, and the same in
 * place; then MPI_Iallgather of 256 KB. */
#include "scc_test.h"

#define BIG (256 * 1024)

static void fill(int32_t *p, size_t n, int r, int salt)
{
    for (size_t i = 0; i < n; ++i) {
        p[i] = tb_val(r, i, salt);
    }
}

/* Part r of count elements at displ must hold rank r's values of salt. */
static void check_part(const int32_t *p, size_t count, int r, int salt, const char *what, int k)
{
    for (size_t i = 0; i < count; ++i) {
        if (p[i] != tb_val(r, i, salt)) {
            tb_fail("%s call %d: rank %d's part wrong at element %zu", what, k, r, i);
            return;
        }
    }
}

int main(int argc, char **argv)
{
    int rank, n, calls;
    int *cnt, *dsp;
    size_t total = 0;
    int32_t *in, *out;

    MPI_Init(&argc, &argv);
    tb_prog = "scc_ways";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    calls = argc > 1 ? atoi(argv[1]) : 200;
    cnt = malloc(sizeof(int) * (size_t) n);
    dsp = malloc(sizeof(int) * (size_t) n);
    if (NULL == cnt || NULL == dsp) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int r = n - 1; r >= 0; --r) {
        cnt[r] = (144 * 1024 + 40 * 1024 * r) / 4;
        dsp[r] = (int) total;
        total += (size_t) cnt[r];
    }
    if (total < (size_t) n * BIG / 4) {
        total = (size_t) n * BIG / 4;
    }
    in = tb_alloc((size_t) BIG + (size_t) cnt[n - 1] * 4);
    out = tb_alloc(total * 4);

    for (int k = 0; k < calls; ++k) {
        tb_case();
        fill(in, BIG / 4, rank, k);
        MPI_Allgather(in, BIG / 4, MPI_INT32_T, out, BIG / 4, MPI_INT32_T, MPI_COMM_WORLD);
        for (int r = 0; r < n; ++r) {
            check_part(out + (size_t) r * BIG / 4, BIG / 4, r, k, "allgather", k);
        }
        tb_case();
        fill(in, (size_t) cnt[rank], rank, -k);
        MPI_Allgatherv(in, cnt[rank], MPI_INT32_T, out, cnt, dsp, MPI_INT32_T, MPI_COMM_WORLD);
        for (int r = 0; r < n; ++r) {
            check_part(out + dsp[r], (size_t) cnt[r], r, -k, "allgatherv", k);
        }
        tb_case();
        fill(out + dsp[rank], (size_t) cnt[rank], rank, k + 7);
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out, cnt, dsp, MPI_INT32_T,
                       MPI_COMM_WORLD);
        for (int r = 0; r < n; ++r) {
            check_part(out + dsp[r], (size_t) cnt[r], r, k + 7, "allgatherv in place", k);
        }
    }
    for (int k = 0; k < calls / 4; ++k) {
        MPI_Request req;
        tb_case();
        fill(in, BIG / 4, rank, 3 * k);
        MPI_Iallgather(in, BIG / 4, MPI_INT32_T, out, BIG / 4, MPI_INT32_T, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int r = 0; r < n; ++r) {
            check_part(out + (size_t) r * BIG / 4, BIG / 4, r, 3 * k, "iallgather", k);
        }
    }
    tb_guards_ok(in, "send buffer");
    tb_guards_ok(out, "receive buffer");
    tb_free(in);
    tb_free(out);
    free(cnt);
    free(dsp);
    {
        int rc = tb_finish();
        MPI_Finalize();
        return rc;
    }
}
