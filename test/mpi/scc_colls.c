/* scc_colls.c: every MPI collective on several communicators, checked element by element.
 *
 * An ordinary MPI program: it knows nothing of coll/scc.  The test scripts
 * run it with the component loaded and verbose, and check from the verbose
 * output that the component served the communicators. */
#include "scc_test.h"
/* scc_colls [i|init] ...: every call below in the nonblocking or persistent form */
#include "scc_forms.h"
#include "scc_colls_layouts.h"

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

/* ---------------------------------------------------------------- reduce_scatter (and
 * reduce_scatter_block, allreduce, reduce), scans, alltoallw: several datatypes, in place,
 * uneven and zero counts, and a non-commutative operation, each result against a reference
 * computed here in rank order. */

enum { K_INT, K_DOUBLE, K_MAT, K_VEC, NKINDS };
static const char *const kind_names[NKINDS] = { "int", "double", "matrix", "vector" };
static const size_t kind_size[NKINDS] = { 4, 8, 16, 8 };   /* bytes of data per element */
static MPI_Datatype kind_type[NKINDS];
static MPI_Op op_matmul;

/* 2x2 matrices of unsigned, product mod 2^32: associative, not commutative */
static void mat_mul(const unsigned *x, const unsigned *y, unsigned *z)
{
    unsigned t[4] = { x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3],
                      x[2] * y[0] + x[3] * y[2], x[2] * y[1] + x[3] * y[3] };
    memcpy(z, t, sizeof(t));
}

/* inout = in * inout, as MPI orders a user operation's operands */
static void matmul_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    for (int i = 0; i < *len; ++i) {
        mat_mul((unsigned *) in + 4 * i, (unsigned *) inout + 4 * i, (unsigned *) inout + 4 * i);
    }
}

/* Element i of rank r's data (packed: a vector's two ints side by side).  Doubles are small
 * integers, so that any order of additions gives the same sum. */
static void kgen(int k, void *e, int r, size_t i, int salt)
{
    if (K_DOUBLE == k) {
        *(double *) e = (double) (tb_val(r, i, salt) & 0xffff);
    } else {
        for (size_t j = 0; j < kind_size[k] / 4; ++j) {
            ((int *) e)[j] = tb_val(r, 4 * i + j, salt);
        }
    }
}

/* acc = a op acc */
static void kcomb(int k, const void *a, void *acc)
{
    if (K_DOUBLE == k) {
        *(double *) acc += *(const double *) a;
    } else if (K_MAT == k) {
        mat_mul(a, acc, acc);
    } else {
        *(unsigned *) acc += *(const unsigned *) a;
    }
}

/* The combination of ranks lo..hi (in rank order) at element i */
static void kref(int k, void *acc, int lo, int hi, size_t i, int salt)
{
    char e[16];
    kgen(k, acc, hi, i, salt);
    for (int r = hi - 1; r >= lo; --r) {
        kgen(k, e, r, i, salt);
        kcomb(k, e, acc);
    }
}

static void kcheck(int k, const char *got, size_t first, size_t n, int lo, int hi, int salt,
                   const char *what)
{
    char want[16];
    tb_cases++;
    for (size_t i = 0; i < n; ++i) {
        kref(k, want, lo, hi, first + i, salt);
        if (memcmp(got + i * kind_size[k], want, kind_size[k])) {
            tb_fail("%s: element %zu differs", what, i);
            return;
        }
    }
}

static void kfill(int k, char *b, size_t n, int r, size_t first, int salt)
{
    for (size_t i = 0; i < n; ++i) {
        kgen(k, b + i * kind_size[k], r, first + i, salt);
    }
}

static void test_reductions_more(MPI_Comm comm, const char *name)
{
    static const int cnts[] = { 0, 1, 5, 777, 17000 };
    int me, n;
    char what[160];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int *rc = malloc(n * sizeof(int));

    for (int k = K_INT; k <= K_MAT; ++k) {
        MPI_Op op = K_MAT == k ? op_matmul : MPI_SUM;
        for (int ci = 0; ci < (int) (sizeof(cnts) / sizeof(cnts[0])); ++ci) {
            size_t count = (size_t) cnts[ci], total = 0, at = 0, es = kind_size[k];
            int salt = 500 + 10 * ci + k;
            /* uneven blocks: every third rank gets none */
            for (int r = 0; r < n; ++r) {
                rc[r] = 1 == r % 3 ? 0 : (int) (count + (size_t) r * (count / 3));
                at += r < me ? (size_t) rc[r] : 0;
                total += (size_t) rc[r];
            }
            /* (reduce_scatter_block takes count from each rank) */
            size_t cap = total > count * (size_t) n ? total : count * (size_t) n;
            char *a = tb_alloc(cap * es + 1), *b = tb_alloc(cap * es + 1);
            int root = (ci + k) % n;
            for (int ip = 0; ip <= 1; ++ip) {
                const char *how = ip ? " in place" : "";

                kfill(k, a, count, me, 0, salt);
                memcpy(b, a, count * es);
                MPI_Scan(ip ? MPI_IN_PLACE : a, b, (int) count, kind_type[k], op, comm);
                snprintf(what, sizeof(what), "%s scan%s %s count %zu", name, how,
                         kind_names[k], count);
                kcheck(k, b, 0, count, 0, me, salt, what);

                memcpy(b, a, count * es);
                MPI_Exscan(ip ? MPI_IN_PLACE : a, b, (int) count, kind_type[k], op, comm);
                snprintf(what, sizeof(what), "%s exscan%s %s count %zu", name, how,
                         kind_names[k], count);
                if (me > 0) {
                    kcheck(k, b, 0, count, 0, me - 1, salt, what);
                }

                kfill(k, a, total, me, 0, salt);
                memcpy(b, a, total * es);
                MPI_Reduce_scatter(ip ? MPI_IN_PLACE : a, b, rc, kind_type[k], op, comm);
                snprintf(what, sizeof(what), "%s reduce_scatter%s %s count %zu", name, how,
                         kind_names[k], count);
                kcheck(k, b, at, (size_t) rc[me], 0, n - 1, salt, what);

                /* reduce_scatter_block, allreduce, reduce: the same combination of all
                   ranks (across nodes a non-commutative one by the leaders in rank order) */
                kfill(k, a, count * (size_t) n, me, 0, salt);
                memcpy(b, a, count * (size_t) n * es);
                MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : a, b, (int) count, kind_type[k], op,
                                         comm);
                snprintf(what, sizeof(what), "%s reduce_scatter_block%s %s count %zu", name, how,
                         kind_names[k], count);
                kcheck(k, b, count * (size_t) me, count, 0, n - 1, salt, what);

                memcpy(b, a, count * es);
                MPI_Allreduce(ip ? MPI_IN_PLACE : a, b, (int) count, kind_type[k], op, comm);
                snprintf(what, sizeof(what), "%s allreduce%s %s count %zu", name, how,
                         kind_names[k], count);
                kcheck(k, b, 0, count, 0, n - 1, salt, what);

                memcpy(b, a, count * es);
                MPI_Reduce(ip && me == root ? MPI_IN_PLACE : a, b, (int) count, kind_type[k], op,
                           root, comm);
                snprintf(what, sizeof(what), "%s reduce%s %s count %zu root %d", name, how,
                         kind_names[k], count, root);
                if (me == root) {
                    kcheck(k, b, 0, count, 0, n - 1, salt, what);
                }
            }
            tb_guards_ok(a, what);
            tb_guards_ok(b, what);
            tb_free(a);
            tb_free(b);
        }
    }
    free(rc);
}

/* Elements of pair (s, d) of the alltoallw; symmetric, so that in place works too */
static int w_count(int s, int d, int count)
{
    int lo = s < d ? s : d, hi = s < d ? d : s;
    return 1 == (lo + 2 * hi) % 4 ? 0 : count + (lo * 7 + hi * 3) % 5;
}

/* Byte displacements of the blocks of a buffer of me's pairs (each block 8-aligned), and
 * the buffer's bytes */
static size_t w_layout(int me, int n, int count, int *cnt, int *displ, MPI_Datatype *ty)
{
    size_t at = 0;
    for (int j = 0; j < n; ++j) {
        int k = (me + j) % 3 == 2 ? K_VEC : (me + j) % 3;
        MPI_Aint lb, ext;
        cnt[j] = w_count(me, j, count);
        ty[j] = kind_type[k];
        displ[j] = (int) at;
        MPI_Type_get_extent(ty[j], &lb, &ext);
        at += ((size_t) cnt[j] * (size_t) ext + 7) & ~(size_t) 7;
    }
    return at;
}

/* The block of pair (s, d) as s sends it: a vector's gaps keep the fill byte */
static void w_fill(char *b, int s, int d, int cnt, MPI_Datatype ty, int salt)
{
    int k = ty == kind_type[K_VEC] ? K_VEC : ty == kind_type[K_DOUBLE] ? K_DOUBLE : K_INT;
    for (int i = 0; i < cnt; ++i) {
        char e[16];
        kgen(k, e, s, (size_t) d * 100000 + i, salt);
        if (K_VEC == k) {
            memcpy(b + 12 * i, e, 4);
            memcpy(b + 12 * i + 8, e + 4, 4);
        } else {
            memcpy(b + kind_size[k] * i, e, kind_size[k]);
        }
    }
}

static void test_alltoallw_more(MPI_Comm comm, const char *name)
{
    static const int cnts[] = { 0, 3, 1000, 9000 };
    int me, n;
    char what[160];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int *cnt = malloc(n * sizeof(int)), *displ = malloc(n * sizeof(int));
    MPI_Datatype *ty = malloc(n * sizeof(MPI_Datatype));

    for (int ci = 0; ci < (int) (sizeof(cnts) / sizeof(cnts[0])); ++ci) {
        size_t bytes = w_layout(me, n, cnts[ci], cnt, displ, ty);
        char *a = tb_alloc(bytes + 1), *b = tb_alloc(bytes + 1), *want = tb_alloc(bytes + 1);
        int salt = 900 + ci;
        memset(want, 0x5a, bytes);
        for (int j = 0; j < n; ++j) {
            w_fill(want + displ[j], j, me, cnt[j], ty[j], salt);
        }
        for (int ip = 0; ip <= 1; ++ip) {
            memset(a, 0x5a, bytes);
            for (int j = 0; j < n; ++j) {
                w_fill(a + displ[j], me, j, cnt[j], ty[j], salt);
            }
            if (ip) {
                memcpy(b, a, bytes);
            } else {
                memset(b, 0x5a, bytes);
            }
            MPI_Alltoallw(ip ? MPI_IN_PLACE : a, cnt, displ, ty, b, cnt, displ, ty, comm);
            snprintf(what, sizeof(what), "%s alltoallw%s count %d", name, ip ? " in place" : "",
                     cnts[ci]);
            tb_cases++;
            if (memcmp(b, want, bytes)) {
                tb_fail("%s: the received blocks differ", what);
            }
        }
        tb_guards_ok(a, what);
        tb_guards_ok(b, what);
        tb_free(a);
        tb_free(b);
        tb_free(want);
    }
    free(cnt);
    free(displ);
    free(ty);
}

static void setup_kinds(void)
{
    MPI_Datatype v;
    kind_type[K_INT] = MPI_INT;
    kind_type[K_DOUBLE] = MPI_DOUBLE;
    MPI_Type_contiguous(4, MPI_UNSIGNED, &kind_type[K_MAT]);
    MPI_Type_commit(&kind_type[K_MAT]);
    /* two ints with a gap between them, extent 12 bytes */
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 12, &kind_type[K_VEC]);
    MPI_Type_free(&v);
    MPI_Type_commit(&kind_type[K_VEC]);
    MPI_Op_create(matmul_fn, 0, &op_matmul);
}

/* ---- the v-variants: every root, uneven and zero counts, parts larger than a slot,
 * displacements reversed and with gaps, a datatype with gaps, in place.  Each receive buffer
 * is compared whole with one computed here, its gaps included (they must stay as they were). */

#define V_GAP (-7)                /* what no call may write */

/* A receive layout: an element is `per` ints at offs[] within `ext` ints. */
struct vlayout {
    MPI_Datatype type;
    int ext, per, offs[2];
};

/* counts (elements) per rank: 0 all zero, 1 uneven with zeros, 2 larger than a slot, 3 small
 * and large mixed */
static int v_count(int pattern, int r, int root, int maxcount)
{
    int c = 0;
    if (1 == pattern) {
        c = r % 3 == 1 ? 0 : 1 + (r * 37 + root * 5) % 50;
    } else if (2 == pattern) {
        c = r == 1 ? 0 : 17000 + 3000 * r;
    } else if (3 == pattern) {
        /* small parts beside large ones in one call (scatterv sends the small alone) */
        c = r % 3 == 0 ? 1 + r : (r % 3 == 1 ? 17000 + 3000 * r : 0);
    }
    return c < maxcount ? c : maxcount;
}

/* displacements (elements): 0 in rank order, 1 reversed, 2 reversed with gaps, 3 rotated
 * (rank 1 first: neither order); returns the buffer's length in elements */
static int v_displs(int order, int n, const int *cnt, int *dsp)
{
    int at = order == 2 ? 1 : 0;
    for (int k = 0; k < n; ++k) {
        int r = order == 0 ? k : order == 3 ? (k + 1) % n : n - 1 - k;
        dsp[r] = at;
        at += cnt[r] + (order == 2 ? 3 : 0);
    }
    return at;
}

/* The whole buffer (len elements of l) holding the parts of the ranks in `which` (-1: all). */
static void v_place(int *buf, const struct vlayout *l, int len, int n, const int *cnt,
                    const int *dsp, int which, int salt)
{
    for (int i = 0; i < len * l->ext; ++i) {
        buf[i] = V_GAP;
    }
    for (int r = 0; r < n; ++r) {
        if (which >= 0 && r != which) {
            continue;
        }
        for (int e = 0; e < cnt[r]; ++e) {
            for (int q = 0; q < l->per; ++q) {
                buf[(size_t) (dsp[r] + e) * l->ext + l->offs[q]]
                    = tb_val(r, (size_t) e * l->per + q, salt);
            }
        }
    }
}

static void v_same(const int *got, const int *want, size_t n, const char *what)
{
    tb_cases++;
    for (size_t i = 0; i < n; ++i) {
        if (got[i] != want[i]) {
            tb_fail("%s: int %zu is %d, expected %d", what, i, got[i], want[i]);
            return;
        }
    }
}

static void test_v(MPI_Comm comm, const char *name, int maxcount)
{
    int me, n;
    char what[160];
    MPI_Datatype vec;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    /* 2 ints of every 4: ints 0 and 2 */
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, 4 * sizeof(int), &vec);
    MPI_Type_commit(&vec);
    struct vlayout lays[2] = { { MPI_INT, 1, 1, { 0, 0 } }, { vec, 4, 2, { 0, 2 } } };
    int *cnt = malloc(n * sizeof(int)), *dsp = malloc(n * sizeof(int));

    /* receive parts that overlap (the caller's error): scc rejects the call with an error
       where it sees it -- gatherv's root, allgatherv everywhere -- and the next calls work.
       (Blocking form only: a nonblocking call's error reaches the error handler Open MPI 4.1
       picks for collective requests, MPI_COMM_WORLD's, whatever the communicator.) */
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    if (SCC_FORM_BLOCKING == scc_form) {
        int two[2] = { 0, 0 }, *oc = malloc(n * sizeof(int)), *od = calloc(n, sizeof(int));
        for (int r = 0; r < n; ++r) {
            oc[r] = 2;
        }
        int rc = MPI_Gatherv(two, 2, MPI_INT, cnt, oc, od, MPI_INT, 0, comm);
        tb_cases++;
        if ((rc != MPI_SUCCESS) != (me == 0)) {
            tb_fail("%s: gatherv into overlapping parts returned %d at rank %d", name, rc, me);
        }
        int *ob = malloc(2 * sizeof(int));
        rc = MPI_Allgatherv(two, 2, MPI_INT, ob, oc, od, MPI_INT, comm);
        tb_cases++;
        if (rc == MPI_SUCCESS) {
            tb_fail("%s: allgatherv into overlapping parts succeeded", name);
        }
        free(ob);
        free(oc);
        free(od);
    }
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL);

    for (int root = 0; root < n; ++root) {
        for (int pat = 0; pat < 4; ++pat) {
            for (int order = 0; order < 4; ++order) {
                for (int li = 0; li < 2; ++li) {
                    for (int inpl = 0; inpl < 2; ++inpl) {
                        const struct vlayout *l = &lays[li];
                        int salt = ((root * 3 + pat) * 4 + order) * 4 + li * 2 + inpl;
                        for (int r = 0; r < n; ++r) {
                            cnt[r] = v_count(pat, r, root, maxcount);
                        }
                        int len = v_displs(order, n, cnt, dsp);
                        size_t all = (size_t) len * l->ext, mine = (size_t) cnt[me] * l->per;
                        int *big = tb_alloc(all * sizeof(int) + 1);
                        int *want = malloc(all * sizeof(int) + 1);
                        int *part = tb_alloc(mine * sizeof(int) + 1);
                        int *pwant = malloc(mine * sizeof(int) + 1);
                        snprintf(what, sizeof(what), "%s root %d counts %d order %d %s%s", name,
                                 root, pat, order, li ? "vector" : "int",
                                 inpl ? " in place" : "");

                        /* no part anywhere: NULL buffers (legal, nothing is read) */
                        int *bb = pat == 0 && !inpl ? NULL : big;

                        /* Gatherv: my part as ints, the root's in its layout */
                        for (size_t i = 0; i < mine; ++i) {
                            part[i] = tb_val(me, i, salt);
                        }
                        v_place(big, l, len, n, cnt, dsp, inpl && me == root ? root : -2,
                                salt);
                        MPI_Gatherv(inpl && me == root ? MPI_IN_PLACE : part, (int) mine,
                                    MPI_INT, bb, cnt, dsp, l->type, root, comm);
                        if (me == root) {
                            v_place(want, l, len, n, cnt, dsp, -1, salt);
                            v_same(big, want, all, "gatherv");
                            if (tb_failures) fprintf(stderr, "  (gatherv %s)\n", what);
                        }

                        /* Scatterv: the root's parts in its layout, mine as ints (in
                           place: the root's part stays) */
                        v_place(big, l, len, n, cnt, dsp, me == root ? -1 : -2, salt + 1);
                        for (size_t i = 0; i < mine; ++i) {
                            part[i] = V_GAP;
                            pwant[i] = tb_val(me, i, salt + 1);
                        }
                        MPI_Scatterv(bb, cnt, dsp, l->type,
                                     inpl && me == root ? MPI_IN_PLACE : part, (int) mine,
                                     MPI_INT, root, comm);
                        if (!(inpl && me == root)) {
                            v_same(part, pwant, mine, "scatterv");
                        }
                        if (me == root) {
                            /* the send buffer is the caller's: untouched */
                            v_place(want, l, len, n, cnt, dsp, -1, salt + 1);
                            v_same(big, want, all, "scatterv send buffer");
                        }
                        if (tb_failures) fprintf(stderr, "  (scatterv %s)\n", what);

                        /* Allgatherv (once per pattern, not per root) */
                        if (root == (pat + order) % n) {
                            for (size_t i = 0; i < mine; ++i) {
                                part[i] = tb_val(me, i, salt + 2);
                            }
                            v_place(big, l, len, n, cnt, dsp, inpl ? me : -2, salt + 2);
                            MPI_Allgatherv(inpl ? MPI_IN_PLACE : part, (int) mine, MPI_INT,
                                           bb, cnt, dsp, l->type, comm);
                            v_place(want, l, len, n, cnt, dsp, -1, salt + 2);
                            v_same(big, want, all, "allgatherv");
                            if (tb_failures) fprintf(stderr, "  (allgatherv %s)\n", what);
                        }
                        tb_guards_ok(big, what);
                        tb_guards_ok(part, what);
                        tb_free(big);
                        tb_free(part);
                        free(want);
                        free(pwant);
                        if (tb_failures) {
                            goto out;
                        }
                    }
                }
            }
        }
    }
out:
    MPI_Type_free(&vec);
    free(cnt);
    free(dsp);
}

int main(int argc, char **argv)
{
    int rank, size, rc;
    MPI_Comm dup, half, rev;

    tb_prog = "scc_colls";
    MPI_Init(&argc, &argv);
    if (!scc_form_args(&argc, argv)) {
        fprintf(stderr, "scc_colls: this MPI has no persistent collectives\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (argc > 1 && 0 == strcmp(argv[1], "v")) {
        /* scc_colls v [MAXCOUNT]: the v-variants alone, on world and reversed (with scc:
           it rejects receive parts that overlap, which other modules need not) */
        int maxcount = argc > 2 ? atoi(argv[2]) : 1 << 30;
        MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
        test_v(MPI_COMM_WORLD, "world", maxcount);
        test_v(rev, "reversed", maxcount);
        MPI_Comm_free(&rev);
        rc = tb_finish();
        MPI_Finalize();
        return rc;
    }
    setup_kinds();
    test_comm(MPI_COMM_WORLD, "world");
    test_reductions_more(MPI_COMM_WORLD, "world");
    test_alltoallw_more(MPI_COMM_WORLD, "world");
    test_layouts(MPI_COMM_WORLD, "world");
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    test_comm(dup, "dup");
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    test_comm(half, "half");
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
    test_comm(rev, "reversed");
    test_layouts(rev, "reversed");
    test_comm(MPI_COMM_SELF, "self");
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    MPI_Type_free(&kind_type[K_MAT]);
    MPI_Type_free(&kind_type[K_VEC]);
    MPI_Op_free(&op_matmul);

    rc = tb_finish();
    MPI_Finalize();
    return rc;
}
