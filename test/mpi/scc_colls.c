/* scc_colls.c: every MPI collective on several communicators, checked element by element.
 *
 * An ordinary MPI program: it knows nothing of coll/scc.  The test scripts
 * run it with the component loaded and verbose, and check from the verbose
 * output that the component served the communicators. */
#include "scc_test.h"

static const int counts[] = { 0, 1, 3, 64, 1000, 33000 };
#define NCOUNTS ((int) (sizeof(counts) / sizeof(counts[0])))

static void check_ints(const int *got, size_t n, const char *what, int (*want)(size_t, void *),
                       void *ctx)
{
    tb_cases++;
    for (size_t i = 0; i < n; ++i) {
        int w = want(i, ctx);
        if (got[i] != w) {
            tb_fail("%s: element %zu is %d, expected %d", what, i, got[i], w);
            return;
        }
    }
}

struct ctx {
    int rank, size, root, count, salt, from;
};

static int want_bcast(size_t i, void *p)
{
    struct ctx *c = p;
    return tb_val(c->root, i, c->salt);
}

static int want_sum(size_t i, void *p)
{
    struct ctx *c = p;
    unsigned s = 0; /* wraps as MPI_SUM of int does here, without overflow */
    for (int r = 0; r < c->size; ++r) {
        s += (unsigned) tb_val(r, i, c->salt);
    }
    return (int) s;
}

/* block layouts: element i of the whole buffer, block b = i / count */
static int want_gathered(size_t i, void *p)
{
    struct ctx *c = p;
    return tb_val((int) (i / c->count), i % c->count, c->salt);
}

static int want_scattered(size_t i, void *p)
{
    struct ctx *c = p;
    return tb_val(c->root, c->rank * (size_t) c->count + i, c->salt);
}

static int want_a2a(size_t i, void *p)
{
    struct ctx *c = p;
    int src = (int) (i / c->count);
    return tb_val(src, c->rank * (size_t) c->count + i % c->count, c->salt);
}

static int want_scan(size_t i, void *p)
{
    struct ctx *c = p;
    unsigned s = 0; /* wraps as MPI_SUM of int does here, without overflow */
    for (int r = 0; r <= c->from; ++r) {
        s += (unsigned) tb_val(r, i, c->salt);
    }
    return (int) s;
}

static int want_rsb(size_t i, void *p)
{
    struct ctx *c = p;
    unsigned s = 0; /* wraps as MPI_SUM of int does here, without overflow */
    for (int r = 0; r < c->size; ++r) {
        s += (unsigned) tb_val(r, c->rank * (size_t) c->count + i, c->salt);
    }
    return (int) s;
}

static void fill(int *b, size_t n, int r, size_t off, int salt)
{
    for (size_t i = 0; i < n; ++i) {
        b[i] = tb_val(r, off + i, salt);
    }
}

static void test_comm(MPI_Comm comm, const char *name)
{
    struct ctx c;
    char what[128];
    MPI_Comm_rank(comm, &c.rank);
    MPI_Comm_size(comm, &c.size);
    int n = c.size;

    for (int ci = 0; ci < NCOUNTS; ++ci) {
        int count = counts[ci];
        size_t cnt = (size_t) count;
        c.count = count;
        int *a = tb_alloc(cnt * n * sizeof(int) + 1);
        int *b = tb_alloc(cnt * n * sizeof(int) + 1);
        int *cv = malloc(n * sizeof(int)), *dv = malloc(n * sizeof(int));
        for (int r = 0; r < n; ++r) {
            cv[r] = count;
            dv[r] = r * count;
        }
        for (int root = 0; root < n; root += (n > 4 ? 3 : 1)) {
            c.root = root;
            c.salt = ci * 100 + root;

            /* Bcast */
            fill(a, cnt, c.rank == root ? root : -1, 0, c.salt);
            MPI_Bcast(a, count, MPI_INT, root, comm);
            snprintf(what, sizeof(what), "%s bcast count %d root %d", name, count, root);
            check_ints(a, cnt, what, want_bcast, &c);

            /* Reduce, and Reduce in place */
            fill(a, cnt, c.rank, 0, c.salt);
            memset(b, 0, cnt * sizeof(int));
            MPI_Reduce(a, b, count, MPI_INT, MPI_SUM, root, comm);
            if (c.rank == root) {
                snprintf(what, sizeof(what), "%s reduce count %d root %d", name, count, root);
                check_ints(b, cnt, what, want_sum, &c);
                MPI_Reduce(MPI_IN_PLACE, a, count, MPI_INT, MPI_SUM, root, comm);
                snprintf(what, sizeof(what), "%s reduce in place count %d root %d", name, count, root);
                check_ints(a, cnt, what, want_sum, &c);
            } else {
                MPI_Reduce(a, NULL, count, MPI_INT, MPI_SUM, root, comm);
            }

            /* Gather / Gatherv */
            fill(a, cnt, c.rank, 0, c.salt);
            memset(b, 0, cnt * n * sizeof(int));
            MPI_Gather(a, count, MPI_INT, b, count, MPI_INT, root, comm);
            if (c.rank == root) {
                snprintf(what, sizeof(what), "%s gather count %d root %d", name, count, root);
                check_ints(b, cnt * n, what, want_gathered, &c);
            }
            memset(b, 0, cnt * n * sizeof(int));
            MPI_Gatherv(a, count, MPI_INT, b, cv, dv, MPI_INT, root, comm);
            if (c.rank == root) {
                snprintf(what, sizeof(what), "%s gatherv count %d root %d", name, count, root);
                check_ints(b, cnt * n, what, want_gathered, &c);
            }

            /* Scatter / Scatterv */
            if (c.rank == root) {
                fill(b, cnt * n, root, 0, c.salt);
            }
            memset(a, 0, cnt * sizeof(int));
            MPI_Scatter(b, count, MPI_INT, a, count, MPI_INT, root, comm);
            snprintf(what, sizeof(what), "%s scatter count %d root %d", name, count, root);
            check_ints(a, cnt, what, want_scattered, &c);
            memset(a, 0, cnt * sizeof(int));
            MPI_Scatterv(b, cv, dv, MPI_INT, a, count, MPI_INT, root, comm);
            snprintf(what, sizeof(what), "%s scatterv count %d root %d", name, count, root);
            check_ints(a, cnt, what, want_scattered, &c);
        }
        c.salt = ci * 100 + 77;
        c.root = 0;

        /* Allreduce, and in place */
        fill(a, cnt, c.rank, 0, c.salt);
        MPI_Allreduce(a, b, count, MPI_INT, MPI_SUM, comm);
        snprintf(what, sizeof(what), "%s allreduce count %d", name, count);
        check_ints(b, cnt, what, want_sum, &c);
        MPI_Allreduce(MPI_IN_PLACE, a, count, MPI_INT, MPI_SUM, comm);
        snprintf(what, sizeof(what), "%s allreduce in place count %d", name, count);
        check_ints(a, cnt, what, want_sum, &c);

        /* Allgather / Allgatherv */
        fill(a, cnt, c.rank, 0, c.salt);
        MPI_Allgather(a, count, MPI_INT, b, count, MPI_INT, comm);
        snprintf(what, sizeof(what), "%s allgather count %d", name, count);
        check_ints(b, cnt * n, what, want_gathered, &c);
        memset(b, 0, cnt * n * sizeof(int));
        MPI_Allgatherv(a, count, MPI_INT, b, cv, dv, MPI_INT, comm);
        snprintf(what, sizeof(what), "%s allgatherv count %d", name, count);
        check_ints(b, cnt * n, what, want_gathered, &c);

        /* Alltoall / Alltoallv / Alltoallw */
        fill(a, cnt * n, c.rank, 0, c.salt);
        MPI_Alltoall(a, count, MPI_INT, b, count, MPI_INT, comm);
        snprintf(what, sizeof(what), "%s alltoall count %d", name, count);
        check_ints(b, cnt * n, what, want_a2a, &c);
        memset(b, 0, cnt * n * sizeof(int));
        MPI_Alltoallv(a, cv, dv, MPI_INT, b, cv, dv, MPI_INT, comm);
        snprintf(what, sizeof(what), "%s alltoallv count %d", name, count);
        check_ints(b, cnt * n, what, want_a2a, &c);
        {
            int *bd = malloc(n * sizeof(int));
            MPI_Datatype *ty = malloc(n * sizeof(MPI_Datatype));
            for (int r = 0; r < n; ++r) {
                bd[r] = r * count * (int) sizeof(int);
                ty[r] = MPI_INT;
            }
            memset(b, 0, cnt * n * sizeof(int));
            MPI_Alltoallw(a, cv, bd, ty, b, cv, bd, ty, comm);
            snprintf(what, sizeof(what), "%s alltoallw count %d", name, count);
            check_ints(b, cnt * n, what, want_a2a, &c);
            free(bd);
            free(ty);
        }

        /* Reduce_scatter_block / Reduce_scatter */
        fill(a, cnt * n, c.rank, 0, c.salt);
        MPI_Reduce_scatter_block(a, b, count, MPI_INT, MPI_SUM, comm);
        snprintf(what, sizeof(what), "%s reduce_scatter_block count %d", name, count);
        check_ints(b, cnt, what, want_rsb, &c);
        memset(b, 0, cnt * sizeof(int));
        MPI_Reduce_scatter(a, b, cv, MPI_INT, MPI_SUM, comm);
        snprintf(what, sizeof(what), "%s reduce_scatter count %d", name, count);
        check_ints(b, cnt, what, want_rsb, &c);

        /* Scan / Exscan */
        fill(a, cnt, c.rank, 0, c.salt);
        MPI_Scan(a, b, count, MPI_INT, MPI_SUM, comm);
        c.from = c.rank;
        snprintf(what, sizeof(what), "%s scan count %d", name, count);
        check_ints(b, cnt, what, want_scan, &c);
        MPI_Exscan(a, b, count, MPI_INT, MPI_SUM, comm);
        if (c.rank > 0) {
            c.from = c.rank - 1;
            snprintf(what, sizeof(what), "%s exscan count %d", name, count);
            check_ints(b, cnt, what, want_scan, &c);
        }

        /* Nonblocking: Ibcast and Iallreduce */
        {
            MPI_Request rq[2];
            int *d = tb_alloc(cnt * sizeof(int) + 1);
            c.root = n - 1;
            fill(d, cnt, c.rank == c.root ? c.root : -1, 0, c.salt);
            fill(a, cnt, c.rank, 0, c.salt);
            MPI_Ibcast(d, count, MPI_INT, c.root, comm, &rq[0]);
            MPI_Iallreduce(a, b, count, MPI_INT, MPI_SUM, comm, &rq[1]);
            MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
            snprintf(what, sizeof(what), "%s ibcast count %d", name, count);
            check_ints(d, cnt, what, want_bcast, &c);
            snprintf(what, sizeof(what), "%s iallreduce count %d", name, count);
            check_ints(b, cnt, what, want_sum, &c);
            tb_guards_ok(d, what);
            tb_free(d);
        }

        MPI_Barrier(comm);
        snprintf(what, sizeof(what), "%s count %d", name, count);
        tb_guards_ok(a, what);
        tb_guards_ok(b, what);
        tb_free(a);
        tb_free(b);
        free(cv);
        free(dv);
    }
}

int main(int argc, char **argv)
{
    int rank, size, rc;
    MPI_Comm dup, half, rev;

    tb_prog = "scc_colls";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    test_comm(MPI_COMM_WORLD, "world");
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    test_comm(dup, "dup");
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    test_comm(half, "half");
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
    test_comm(rev, "reversed");
    test_comm(MPI_COMM_SELF, "self");
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);

    rc = tb_finish();
    MPI_Finalize();
    return rc;
}
