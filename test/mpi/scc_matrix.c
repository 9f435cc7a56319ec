/* scc_matrix.c: the correctness matrix -- every collective the component serves, with every
 * algorithm it offers (forced through MPI_T, one communicator per algorithm), over roots,
 * sizes around the transport's thresholds, datatypes (contiguous and not), operations
 * (predefined, user commutative and non-commutative) and MPI_IN_PLACE, each result checked
 * against a reference computed locally, with guard zones around every buffer.
 *
 * For each (collective, algorithm) it prints on rank 0
 *     matrix-expect: (matrix <coll> <alg>) calls=N mayfall=M zero=Z
 * and the test script checks the component's call report for that communicator: the
 * forced algorithm served the calls, nothing but the fallback served the rest, the
 * fallback served at most the M calls the component documents it may decline, and all
 * calls reached the component but the Z that move no data (Open MPI may finish those
 * before any component sees them).
 *
 * Usage: scc_matrix [-c coll,...] [-a alg,...] [-q] [-d] [-m maxbytes] [-o order]
 *   -q  quick: fewer roots, sizes and operations; -d  also the determinism check;
 *   -m  no message larger than maxbytes (large process counts on few cores);
 *   -o  the communicators tested, in MPI_COMM_WORLD's terms: world (its order), reversed,
 *       split (even and odd ranks apart, each half reversed), node (each node's processes,
 *       MPI_COMM_TYPE_SHARED) or leaders (the lowest rank of each node; the others idle) */
#include <math.h>
#include <time.h>
#include <unistd.h>

#include "scc_test.h"

/* ------------------------------------------------------------ element types */

enum { K_CHAR, K_SCHAR, K_INT, K_UNSIGNED, K_DOUBLE, K_VEC, K_STRUCT, K_2INT, K_DOUBLE_INT,
       K_AFFINE };

typedef struct {
    const char *name;
    int kind;
    MPI_Datatype dt;
    int contiguous;       /* element bytes are packed without gaps */
} ttype;

static ttype T_CHAR = { "char", K_CHAR, MPI_CHAR, 1 };
static ttype T_SCHAR = { "schar", K_SCHAR, MPI_SIGNED_CHAR, 1 };
static ttype T_INT = { "int", K_INT, MPI_INT, 1 };
static ttype T_UNSIGNED = { "unsigned", K_UNSIGNED, MPI_UNSIGNED, 1 };
static ttype T_DOUBLE = { "double", K_DOUBLE, MPI_DOUBLE, 1 };
static ttype T_VEC = { "vector", K_VEC, MPI_DATATYPE_NULL, 0 };        /* 2 ints, stride 2 */
static ttype T_STRUCT = { "struct", K_STRUCT, MPI_DATATYPE_NULL, 0 };  /* int, gap, double */
static ttype T_2INT = { "2int", K_2INT, MPI_2INT, 1 };
static ttype T_DOUBLE_INT = { "double_int", K_DOUBLE_INT, MPI_DOUBLE_INT, 0 };
static ttype T_AFFINE = { "affine", K_AFFINE, MPI_DATATYPE_NULL, 1 };  /* 2 unsigned */

typedef struct {
    double v;
    int i;
} double_int;

typedef struct {
    int a;
    double b;
} istruct;

/* Deterministic contents of element i of rank r with salt s, written at p. */
static void gen(const ttype *t, char *p, size_t i, int r, int s)
{
    uint32_t h = (uint32_t) tb_val(r, i, s);
    switch (t->kind) {
    case K_CHAR:
    case K_SCHAR:
        *(signed char *) p = (signed char) (h % 7);      /* small: sums over 16 ranks fit */
        break;
    case K_INT:
        *(int *) p = (int) (h % 100000) - 50000;
        break;
    case K_UNSIGNED:
        *(unsigned *) p = h | 1u;
        break;
    case K_DOUBLE:
        *(double *) p = (double) ((int) (h % 20001) - 10000);   /* exact under any order */
        break;
    case K_VEC:
        ((int *) p)[0] = (int) (h % 1000);
        ((int *) p)[2] = (int) (h % 997);
        break;
    case K_STRUCT:
        ((istruct *) p)->a = (int) h;
        ((istruct *) p)->b = (double) (h % 4099);
        break;
    case K_2INT:
        ((int *) p)[0] = (int) (h % 50);                 /* ties happen: loc decides */
        ((int *) p)[1] = r;
        break;
    case K_DOUBLE_INT:
        ((double_int *) p)->v = (double) (h % 50);
        ((double_int *) p)->i = r;
        break;
    case K_AFFINE:
        ((unsigned *) p)[0] = (h % 5) + 1;
        ((unsigned *) p)[1] = h;
        break;
    }
}

/* Compares the data bytes of element i (gaps are not data). */
static int same(const ttype *t, const void *a, const void *b, size_t i)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t->dt, &lb, &ext);
    const char *p = (const char *) a + i * ext, *q = (const char *) b + i * ext;
    switch (t->kind) {
    case K_CHAR:
    case K_SCHAR:
        return *p == *q;
    case K_INT:
    case K_UNSIGNED:
        return 0 == memcmp(p, q, 4);
    case K_DOUBLE:
        return 0 == memcmp(p, q, 8);
    case K_VEC:
        return ((const int *) p)[0] == ((const int *) q)[0] && ((const int *) p)[2] == ((const int *) q)[2];
    case K_STRUCT:
        return ((const istruct *) p)->a == ((const istruct *) q)->a
               && ((const istruct *) p)->b == ((const istruct *) q)->b;
    case K_2INT:
    case K_AFFINE:
        return 0 == memcmp(p, q, 8);
    case K_DOUBLE_INT:
        return ((const double_int *) p)->v == ((const double_int *) q)->v
               && ((const double_int *) p)->i == ((const double_int *) q)->i;
    }
    return 0;
}

/* ------------------------------------------------------------ operations */

/* user commutative: unsigned sum */
static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    unsigned *a = in, *b = inout;
    for (int i = 0; i < *len; ++i) {
        b[i] += a[i];
    }
}

/* user non-commutative: composition of affine maps x -> m x + c (mod 2^32):
 * inout = in o inout, as MPI orders operands (in comes from lower ranks) */
static void user_affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    unsigned *a = in, *b = inout;
    for (int i = 0; i < *len; ++i) {
        unsigned m = a[2 * i] * b[2 * i], c = a[2 * i] * b[2 * i + 1] + a[2 * i + 1];
        b[2 * i] = m;
        b[2 * i + 1] = c;
    }
}

typedef struct {
    const char *name;
    MPI_Op op;
    const ttype *type;
    int commutative;
} topcase;

static MPI_Op op_user_sum, op_user_affine;
static topcase opcases[16];
static int nopcases;

/* acc = a op acc, element i, as MPI defines op for the predefined operations. */
static void apply(const topcase *oc, const void *a, void *acc, size_t i)
{
    const ttype *t = oc->type;
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t->dt, &lb, &ext);
    const char *x = (const char *) a + i * ext;
    char *y = (char *) acc + i * ext;
    if (MPI_SUM == oc->op) {
        if (K_INT == t->kind) *(int *) y += *(const int *) x;
        else if (K_DOUBLE == t->kind) *(double *) y += *(const double *) x;
        else *(signed char *) y = (signed char) (*(signed char *) y + *(const signed char *) x);
    } else if (MPI_MAX == oc->op || MPI_MIN == oc->op) {
        int mx = MPI_MAX == oc->op;
        if (K_INT == t->kind) {
            int u = *(const int *) x, v = *(int *) y;
            *(int *) y = mx ? (u > v ? u : v) : (u < v ? u : v);
        } else {
            double u = *(const double *) x, v = *(double *) y;
            *(double *) y = mx ? (u > v ? u : v) : (u < v ? u : v);
        }
    } else if (MPI_PROD == oc->op) {
        *(unsigned *) y *= *(const unsigned *) x;
    } else if (MPI_BAND == oc->op) {
        *(unsigned *) y &= *(const unsigned *) x;
    } else if (MPI_MAXLOC == oc->op) {
        if (K_2INT == t->kind) {
            const int *u = (const int *) x;
            int *v = (int *) y;
            if (u[0] > v[0] || (u[0] == v[0] && u[1] < v[1])) {
                v[0] = u[0];
                v[1] = u[1];
            }
        } else {
            const double_int *u = (const double_int *) x;
            double_int *v = (double_int *) y;
            if (u->v > v->v || (u->v == v->v && u->i < v->i)) {
                *v = *u;
            }
        }
    } else if (op_user_sum == oc->op) {
        *(unsigned *) y += *(const unsigned *) x;
    } else {
        int one = 1;
        MPI_Datatype d = t->dt;
        user_affine((void *) x, y, &one, &d);
    }
}

/* ------------------------------------------------------------ the run */

static int rank, nprocs, quick;    /* rank and size in the communicator under test */
static MPI_Comm base;               /* what each tested communicator duplicates (-o) */
static size_t max_bytes = (size_t) -1;    /* -m: no message larger than this */
static size_t slot_size = 16384, cma_min = 8192;
static int one_node;    /* the communicator under test lies within one node */
static long calls, mayfall, zero;    /* of the current (collective, algorithm); zero: calls
                                        moving no data, which Open MPI may finish itself */

static const char *only_colls, *only_algs;

static int listed(const char *list, const char *name)
{
    const char *p;
    size_t n = strlen(name);
    if (NULL == list) {
        return 1;
    }
    for (p = list; (p = strstr(p, name)) != NULL; p += n) {
        if ((p == list || ',' == p[-1]) && (',' == p[n] || '\0' == p[n])) {
            return 1;
        }
    }
    return 0;
}

/* Element counts whose byte sizes sit around the thresholds of the transport. */
static int counts_for(const ttype *t, size_t *out, int max_bytes_mb)
{
    size_t esz;
    int sz, n = 0;
    MPI_Type_size(t->dt, &sz);
    esz = (size_t) sz;
    size_t bytes[] = { 1, 31, 33, 64, slot_size - 1, slot_size, slot_size + 1, 2 * slot_size + 3,
                       cma_min - 1, cma_min, cma_min + 1, 1728 - 1, 1728 + 1, 8192 + 1,
                       32768 - 1, 32768 + 1, 131072 - 1, 131072 + 1,
                       (size_t) 1 << 20 };
    out[n++] = 0;
    for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); ++i) {
        if (quick && i % 2) {
            continue;
        }
        if ((bytes[i] > ((size_t) max_bytes_mb << 20) && max_bytes_mb > 0) || bytes[i] > max_bytes) {
            continue;
        }
        size_t c = bytes[i] / esz ? bytes[i] / esz : 1;
        if (n == 0 || out[n - 1] != c) {
            out[n++] = c;
        }
    }
    if (max_bytes_mb >= 3 && ((size_t) 3 << 20) <= max_bytes) {
        out[n++] = (3u << 20) / esz + 5;
    }
    return n;
}

static void *talloc(const ttype *t, size_t count)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t->dt, &lb, &ext);
    void *p = tb_alloc(count * (size_t) ext + 1);
    memset(p, 0x5c, count * (size_t) ext + 1);
    return p;
}

/* Checks count elements of got against want; name says which case. */
static void expect(const ttype *t, const void *got, const void *want, size_t count,
                   const char *what)
{
    tb_case();
    for (size_t i = 0; i < count; ++i) {
        if (!same(t, got, want, i)) {
            tb_fail("%s: element %zu differs", what, i);
            return;
        }
    }
}

/* Elements [first, first+count) of rank r's vector, placed at b[0..count). */
static void fill(const ttype *t, void *b, size_t count, size_t first, int r, int salt)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t->dt, &lb, &ext);
    for (size_t i = 0; i < count; ++i) {
        gen(t, (char *) b + i * ext, first + i, r, salt);
    }
}

/* ref = v0 op v1 op ... op v(n-1), elements [first, first+count) */
static void reference(const topcase *oc, void *ref, size_t count, size_t first, int salt)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(oc->type->dt, &lb, &ext);
    void *v = malloc(count * ext + 1);
    fill(oc->type, ref, count, first, nprocs - 1, salt);
    for (int r = nprocs - 2; r >= 0; --r) {
        fill(oc->type, v, count, first, r, salt);
        for (size_t i = 0; i < count; ++i) {
            apply(oc, v, ref, i);
        }
    }
    free(v);
}

/* Cases where the component documents it may decline (the fallback serves). */
static int may_decline_reduction(const topcase *oc, const char *alg)
{
    /* the direct algorithm and across nodes the leaders' combine in rank order */
    int ordered = 0 == strcmp(alg, "flat") || 0 == strcmp(alg, "leaders");
    return !oc->type->contiguous || (!oc->commutative && !ordered);
}

static const ttype *move_types[] = { &T_CHAR, &T_INT, &T_DOUBLE, &T_VEC, &T_STRUCT };
#define NMOVE 5

static int roots_step(void)
{
    return nprocs <= 8 && !quick ? 1 : (nprocs + 3) / 4;
}

static void run_bcast(MPI_Comm comm, const char *alg)
{
    char what[160];
    size_t counts[32];
    for (int ti = 0; ti < NMOVE; ++ti) {
        const ttype *t = move_types[ti];
        int nc = counts_for(t, counts, ti == 1 ? 3 : 1);
        for (int ci = 0; ci < nc; ++ci) {
            for (int root = 0; root < nprocs; root += counts[ci] > 100000 ? nprocs : roots_step()) {
                int salt = ci * 31 + root;
                void *b = talloc(t, counts[ci]), *w = talloc(t, counts[ci]);
                fill(t, w, counts[ci], 0, root, salt);
                if (rank == root) {
                    fill(t, b, counts[ci], 0, root, salt);
                }
                MPI_Bcast(b, (int) counts[ci], t->dt, root, comm);
                calls++;
                zero += 0 == counts[ci];
                snprintf(what, sizeof(what), "bcast %s %s count %zu root %d", alg, t->name, counts[ci], root);
                expect(t, b, w, counts[ci], what);
                tb_guards_ok(b, what);
                tb_free(b);
                tb_free(w);
            }
        }
    }
}

/* kind: 0 reduce, 1 allreduce, 2 reduce_scatter_block */
static void run_reduction(MPI_Comm comm, const char *alg, int kind)
{
    static const char *names[] = { "reduce", "allreduce", "reduce_scatter_block" };
    char what[200];
    size_t counts[32];
    for (int oi = 0; oi < nopcases; ++oi) {
        const topcase *oc = &opcases[oi];
        const ttype *t = oc->type;
        int nc = counts_for(t, counts, oi == 0 ? 3 : 1);
        if (2 == kind) {
            /* per-rank blocks: keep the whole vector moderate */
            for (int ci = 0; ci < nc; ++ci) {
                counts[ci] = counts[ci] / (size_t) nprocs + (counts[ci] ? 1 : 0);
            }
        }
        for (int ci = 0; ci < nc; ++ci) {
            size_t cnt = counts[ci], total = 2 == kind ? cnt * nprocs : cnt;
            int rstep = 0 == kind ? (cnt > 100000 ? nprocs : roots_step()) : nprocs;
            for (int root = 0; root < nprocs; root += rstep) {
                for (int inplace = 0; inplace < 2; ++inplace) {
                    int salt = ci * 17 + oi * 5 + root + inplace;
                    void *s = talloc(t, total), *r = talloc(t, total), *w = talloc(t, total);
                    fill(t, s, total, 0, rank, salt);
                    if (inplace) {
                        fill(t, r, total, 0, rank, salt);
                    }
                    calls++;
                    zero += 0 == cnt;
                    mayfall += may_decline_reduction(oc, alg) && cnt > 0;
                    if (0 == kind) {
                        if (inplace && rank == root) {
                            MPI_Reduce(MPI_IN_PLACE, r, (int) cnt, t->dt, oc->op, root, comm);
                        } else {
                            MPI_Reduce(s, rank == root ? r : NULL, (int) cnt, t->dt, oc->op, root, comm);
                        }
                    } else if (1 == kind) {
                        MPI_Allreduce(inplace ? MPI_IN_PLACE : s, r, (int) cnt, t->dt, oc->op, comm);
                    } else {
                        MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : s, r, (int) cnt, t->dt, oc->op, comm);
                    }
                    snprintf(what, sizeof(what), "%s %s op %s type %s count %zu root %d%s",
                             names[kind], alg, oc->name, t->name, cnt, root, inplace ? " in place" : "");
                    if (2 == kind) {
                        reference(oc, w, cnt, (size_t) rank * cnt, salt);
                        expect(t, r, w, cnt, what);
                    } else if (1 == kind || rank == root) {
                        reference(oc, w, cnt, 0, salt);
                        expect(t, r, w, cnt, what);
                    }
                    tb_guards_ok(s, what);
                    tb_guards_ok(r, what);
                    tb_free(s);
                    tb_free(r);
                    tb_free(w);
                }
                if (0 != kind) {
                    break;
                }
            }
        }
    }
}

/* kind: 0 gather, 1 scatter, 2 allgather, 3 alltoall */
static void run_blocks(MPI_Comm comm, const char *alg, int kind)
{
    static const char *names[] = { "gather", "scatter", "allgather", "alltoall" };
    char what[200];
    size_t counts[32];
    for (int ti = 0; ti < NMOVE; ++ti) {
        const ttype *t = move_types[ti];
        int nc = counts_for(t, counts, 1);
        for (int ci = 0; ci < nc; ++ci) {
            size_t cnt = counts[ci] / (kind == 3 ? (size_t) nprocs : 1) + (counts[ci] ? 1 : 0);
            size_t all = cnt * nprocs;
            int rstep = kind < 2 ? (cnt * nprocs > 200000 ? nprocs : roots_step()) : nprocs;
            if (0 == counts[ci]) {
                cnt = all = 0;
            }
            for (int root = 0; root < nprocs; root += rstep) {
                for (int inplace = 0; inplace < 2; ++inplace) {
                    int salt = ci * 13 + root * 3 + inplace + kind * 101;
                    void *s = talloc(t, kind == 3 || (kind == 1) ? all : cnt);
                    void *r = talloc(t, kind == 1 ? cnt : all);
                    void *w = talloc(t, kind == 1 ? cnt : all);
                    MPI_Aint lb, ext;
                    MPI_Type_get_extent(t->dt, &lb, &ext);
                    /* send data: block b of rank r is gen(r, b*cnt + i) */
                    if (kind == 3) {
                        fill(t, s, all, 0, rank, salt);
                    } else if (kind == 1) {
                        fill(t, s, all, 0, root, salt);
                    } else {
                        fill(t, s, cnt, (size_t) rank * cnt, rank, salt);
                    }
                    calls++;
                    zero += 0 == cnt;
                    switch (kind) {
                    case 0:
                        if (inplace && rank == root) {
                            fill(t, (char *) r + (size_t) root * cnt * ext, cnt, (size_t) root * cnt, root, salt);
                            MPI_Gather(MPI_IN_PLACE, (int) cnt, t->dt, r, (int) cnt, t->dt, root, comm);
                        } else {
                            MPI_Gather(s, (int) cnt, t->dt, r, (int) cnt, t->dt, root, comm);
                        }
                        break;
                    case 1:
                        if (inplace && rank == root) {
                            MPI_Scatter(s, (int) cnt, t->dt, MPI_IN_PLACE, (int) cnt, t->dt, root, comm);
                            memcpy(r, (char *) s + (size_t) root * cnt * ext, cnt * ext);
                        } else {
                            MPI_Scatter(s, (int) cnt, t->dt, r, (int) cnt, t->dt, root, comm);
                        }
                        break;
                    case 2:
                        if (inplace) {
                            fill(t, (char *) r + (size_t) rank * cnt * ext, cnt, (size_t) rank * cnt, rank, salt);
                            MPI_Allgather(MPI_IN_PLACE, (int) cnt, t->dt, r, (int) cnt, t->dt, comm);
                        } else {
                            MPI_Allgather(s, (int) cnt, t->dt, r, (int) cnt, t->dt, comm);
                        }
                        break;
                    default:
                        if (inplace) {
                            memcpy(r, s, all * ext);
                            MPI_Alltoall(MPI_IN_PLACE, (int) cnt, t->dt, r, (int) cnt, t->dt, comm);
                        } else {
                            MPI_Alltoall(s, (int) cnt, t->dt, r, (int) cnt, t->dt, comm);
                        }
                    }
                    /* the expected result */
                    if (kind == 1) {
                        fill(t, w, cnt, (size_t) rank * cnt, root, salt);
                    } else if (kind == 3) {
                        for (int src = 0; src < nprocs; ++src) {
                            fill(t, (char *) w + (size_t) src * cnt * ext, cnt, (size_t) rank * cnt, src, salt);
                        }
                    } else {
                        for (int src = 0; src < nprocs; ++src) {
                            fill(t, (char *) w + (size_t) src * cnt * ext, cnt, (size_t) src * cnt, src, salt);
                        }
                    }
                    snprintf(what, sizeof(what), "%s %s type %s count %zu root %d%s", names[kind],
                             alg, t->name, cnt, root, inplace ? " in place" : "");
                    if (kind != 0 || rank == root) {
                        expect(t, r, w, kind == 1 ? cnt : all, what);
                    }
                    tb_guards_ok(s, what);
                    tb_guards_ok(r, what);
                    tb_free(s);
                    tb_free(r);
                    tb_free(w);
                }
                if (kind >= 2) {
                    break;
                }
            }
        }
    }
}

/* alltoallv: skewed and zero counts, displacements in reverse order of peers */
static void run_alltoallv(MPI_Comm comm, const char *alg)
{
    char what[200];
    static const size_t scales[] = { 0, 1, 100, 3000, 40000 };
    for (int ti = 0; ti < 3; ++ti) {
        const ttype *t = move_types[ti];
        MPI_Aint lb, ext;
        MPI_Type_get_extent(t->dt, &lb, &ext);
        for (size_t si = 0; si < sizeof(scales) / sizeof(scales[0]); ++si) {
            if (scales[si] * (size_t) ext > max_bytes) {
                continue;
            }
            for (int inplace = 0; inplace < 2; ++inplace) {
                int *sc = malloc(nprocs * sizeof(int)), *sd = malloc(nprocs * sizeof(int));
                int *rc = malloc(nprocs * sizeof(int)), *rd = malloc(nprocs * sizeof(int));
                int stot = 0, rtot = 0, salt = (int) si * 7 + ti + inplace * 3;
                /* count from i to j: (i + 2 j) % 3 * scale (zeros included) + (i == j);
                   in place the counts must be symmetric: (i + j) % 3 * scale + (i == j) */
                for (int p = nprocs - 1; p >= 0; --p) {
                    int k = inplace ? 1 : 2;
                    sc[p] = (int) ((rank + k * p) % 3 * scales[si]) + (p == rank);
                    sd[p] = stot;
                    stot += sc[p] + 1;              /* a gap after each block */
                    rc[p] = (int) ((p + k * rank) % 3 * scales[si]) + (p == rank);
                    rd[p] = rtot;
                    rtot += rc[p] + 2;
                }
                if (inplace) {
                    for (int p = 0; p < nprocs; ++p) {
                        sc[p] = rc[p];
                        sd[p] = rd[p];
                    }
                    stot = rtot;
                }
                void *s = talloc(t, (size_t) stot), *r = talloc(t, (size_t) rtot), *w = talloc(t, (size_t) rtot);
                for (int p = 0; p < nprocs; ++p) {
                    fill(t, (char *) (inplace ? r : s) + (size_t) sd[p] * ext, (size_t) sc[p], (size_t) p * 1000003u, rank, salt);
                }
                memcpy(w, r, (size_t) rtot * ext);
                for (int p = 0; p < nprocs; ++p) {
                    fill(t, (char *) w + (size_t) rd[p] * ext, (size_t) rc[p], (size_t) rank * 1000003u, p, salt);
                }
                calls++;
                if (inplace) {
                    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, t->dt, r, rc, rd, t->dt, comm);
                } else {
                    MPI_Alltoallv(s, sc, sd, t->dt, r, rc, rd, t->dt, comm);
                }
                snprintf(what, sizeof(what), "alltoallv %s type %s scale %zu%s", alg, t->name,
                         scales[si], inplace ? " in place" : "");
                expect(t, r, w, (size_t) rtot, what);
                if (!t->contiguous) {
                    mayfall++;
                }
                tb_guards_ok(s, what);
                tb_guards_ok(r, what);
                tb_free(s);
                tb_free(r);
                tb_free(w);
                free(sc);
                free(sd);
                free(rc);
                free(rd);
            }
        }
    }
}

static void run_barrier(MPI_Comm comm, const char *alg)
{
    for (int i = 0; i < 300; ++i) {
        MPI_Barrier(comm);
        calls++;
    }
}

/* The node's clock (MPI_Wtime may start from each process's own origin). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* A barrier releases nobody before the last process arrived: rank `late` sleeps first. */
static int barrier_order_violations(MPI_Comm comm, int late)
{
    double t_in, t_out, late_in;
    int violated, any;
    MPI_Barrier(comm);
    if (rank == late) {
        usleep(30000);
    }
    t_in = now();
    MPI_Barrier(comm);
    t_out = now();
    late_in = t_in;
    MPI_Bcast(&late_in, 1, MPI_DOUBLE, late, base);
    violated = t_out < late_in;
    MPI_Allreduce(&violated, &any, 1, MPI_INT, MPI_SUM, base);
    return any;
}

/* ------------------------------------------------------------ MPI_T */

static int cvar_index(const char *name)
{
    int idx;
    return MPI_SUCCESS == MPI_T_cvar_get_index(name, &idx) ? idx : -1;
}

static int cvar_read_int(const char *name, int dflt)
{
    int idx = cvar_index(name), count, v = dflt;
    MPI_T_cvar_handle h;
    if (idx < 0 || MPI_SUCCESS != MPI_T_cvar_handle_alloc(idx, NULL, &h, &count)) {
        return dflt;
    }
    MPI_T_cvar_read(h, &v);
    MPI_T_cvar_handle_free(&h);
    return v;
}

static int cvar_write_int(const char *name, int v)
{
    int idx = cvar_index(name), count, rc;
    MPI_T_cvar_handle h;
    if (idx < 0 || MPI_SUCCESS != MPI_T_cvar_handle_alloc(idx, NULL, &h, &count)) {
        return -1;
    }
    rc = MPI_T_cvar_write(h, &v);
    MPI_T_cvar_handle_free(&h);
    return MPI_SUCCESS == rc ? 0 : -1;
}

/* The algorithms the component offers for coll (names and values from its enumerator). */
static int algorithms(const char *coll, char names[][32], int *values, int max)
{
    return tb_algorithms(coll, "auto", names, values, max);
}

/* ------------------------------------------------------------ determinism */

static void determinism(void)
{
    const size_t n = 100003;
    double *s = malloc(n * sizeof(double)), *a = malloc(n * sizeof(double));
    double *b = malloc(n * sizeof(double)), *z = malloc(n * sizeof(double));
    int diff = 0, any;
    for (size_t i = 0; i < n; ++i) {
        s[i] = 1.0 / (double) (rank * 7 + i + 1) + sin((double) (rank + 3 * i));
    }
    for (size_t c = 1; c <= n; c = c * 10 + 3) {
        MPI_Allreduce(s, a, (int) c, MPI_DOUBLE, MPI_SUM, base);
        MPI_Allreduce(s, b, (int) c, MPI_DOUBLE, MPI_SUM, base);
        memcpy(z, a, c * sizeof(double));
        MPI_Bcast(z, (int) c, MPI_DOUBLE, 0, base);
        diff += 0 != memcmp(a, b, c * sizeof(double)) || 0 != memcmp(a, z, c * sizeof(double));
    }
    MPI_Allreduce(&diff, &any, 1, MPI_INT, MPI_SUM, base);
    tb_case();
    if (any) {
        tb_fail("allreduce of doubles: results differ between ranks or between calls");
    }
    free(s);
    free(a);
    free(b);
    free(z);
}

/* ------------------------------------------------------------ main */

static void setup_types(void)
{
    MPI_Datatype tmp, affine;
    int bl[2] = { 1, 1 };
    MPI_Aint disp[2] = { 0, 8 };
    MPI_Datatype ts[2] = { MPI_INT, MPI_DOUBLE };

    MPI_Type_vector(2, 1, 2, MPI_INT, &tmp);
    MPI_Type_create_resized(tmp, 0, 4 * sizeof(int), &T_VEC.dt);
    MPI_Type_commit(&T_VEC.dt);
    MPI_Type_free(&tmp);
    MPI_Type_create_struct(2, bl, disp, ts, &tmp);
    MPI_Type_create_resized(tmp, 0, sizeof(istruct), &T_STRUCT.dt);
    MPI_Type_commit(&T_STRUCT.dt);
    MPI_Type_free(&tmp);
    MPI_Type_contiguous(2, MPI_UNSIGNED, &affine);
    MPI_Type_commit(&affine);
    T_AFFINE.dt = affine;

    MPI_Op_create(user_sum, 1, &op_user_sum);
    MPI_Op_create(user_affine, 0, &op_user_affine);
    topcase all[] = {
        { "sum", MPI_SUM, &T_INT, 1 },        { "sum", MPI_SUM, &T_DOUBLE, 1 },
        { "sum", MPI_SUM, &T_SCHAR, 1 },      { "max", MPI_MAX, &T_INT, 1 },
        { "min", MPI_MIN, &T_DOUBLE, 1 },     { "prod", MPI_PROD, &T_UNSIGNED, 1 },
        { "band", MPI_BAND, &T_UNSIGNED, 1 }, { "maxloc", MPI_MAXLOC, &T_2INT, 1 },
        { "maxloc", MPI_MAXLOC, &T_DOUBLE_INT, 1 },
        { "user_sum", op_user_sum, &T_UNSIGNED, 1 },
        { "user_affine", op_user_affine, &T_AFFINE, 0 },
    };
    nopcases = (int) (sizeof(all) / sizeof(all[0]));
    memcpy(opcases, all, sizeof(all));
    if (quick) {
        /* one predefined op per element type, both user ops */
        topcase q[] = { all[0], all[1], all[7], all[8], all[9], all[10] };
        nopcases = 6;
        memcpy(opcases, q, sizeof(q));
    }
}

int main(int argc, char **argv)
{
    static const char *colls[] = { "bcast", "barrier", "reduce", "allreduce", "alltoall",
                                   "alltoallv", "gather", "scatter", "allgather",
                                   "reduce_scatter_block" };
    const char *order = "world";
    int provided, opt, extra = 0, rc, wrank, wsize;

    tb_prog = "scc_matrix";
    while ((opt = getopt(argc, argv, "c:a:qdm:o:")) != -1) {
        if ('m' == opt) max_bytes = (size_t) atol(optarg);
        else if ('o' == opt) order = optarg;
        else if ('c' == opt) only_colls = optarg;
        else if ('a' == opt) only_algs = optarg;
        else if ('q' == opt) quick = 1;
        else if ('d' == opt) extra = 1;
    }
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (0 == strcmp(order, "reversed")) {
        MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - wrank, &base);
    } else if (0 == strcmp(order, "split")) {
        MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wsize - wrank, &base);
    } else if (0 == strcmp(order, "node") || 0 == strcmp(order, "leaders")) {
        MPI_Comm node;
        int nrank;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        if (0 == strcmp(order, "node")) {
            base = node;
        } else {
            MPI_Comm_rank(node, &nrank);
            MPI_Comm_split(MPI_COMM_WORLD, 0 == nrank ? 0 : MPI_UNDEFINED, 0, &base);
            MPI_Comm_free(&node);
        }
    } else {
        base = MPI_COMM_WORLD;
    }
    if (MPI_COMM_NULL == base) {
        only_colls = "";    /* not a leader: nothing to run but the final count */
        rank = nprocs = 0;
    } else {
        MPI_Comm_rank(base, &rank);
        MPI_Comm_size(base, &nprocs);
    }
    setup_types();
    slot_size = (size_t) cvar_read_int("coll_scc_shm_slot_size", 16384);
    /* auto (-1): 8192, or 131072 and 32768 oversubscribed, which the list has anyway */
    cma_min = (size_t) cvar_read_int("coll_scc_cma_min", 8192);
    if ((long) cma_min < 0) {
        cma_min = 8192;
    }

    /* on one node the component declines what runs between nodes only: nothing to check */
    one_node = MPI_COMM_NULL != base && tb_one_node(base);
    for (size_t c = 0; c < sizeof(colls) / sizeof(colls[0]); ++c) {
        char names[32][32], pname[96], cname[MPI_MAX_OBJECT_NAME];
        int values[32], na;
        if (!listed(only_colls, colls[c])) {
            continue;
        }
        na = algorithms(colls[c], names, values, 32);
        snprintf(pname, sizeof(pname), "coll_scc_%s_algorithm", colls[c]);
        for (int a = 0; a < na; ++a) {
            MPI_Comm comm;
            if (!listed(only_algs, names[a]) || 0 == strcmp(names[a], "nocmsg_fanin")
                || (one_node && tb_nodes_only(colls[c], names[a]))) {
                continue;
            }
            if (0 != cvar_write_int(pname, values[a])) {
                tb_fail("cannot force %s=%s through MPI_T", pname, names[a]);
                continue;
            }
            MPI_Comm_dup(base, &comm);
            snprintf(cname, sizeof(cname), "matrix %s %s", colls[c], names[a]);
            MPI_Comm_set_name(comm, cname);
            calls = mayfall = zero = 0;
            switch (c) {
            case 0: run_bcast(comm, names[a]); break;
            case 1: run_barrier(comm, names[a]); break;
            case 2: run_reduction(comm, names[a], 0); break;
            case 3: run_reduction(comm, names[a], 1); break;
            case 4: run_blocks(comm, names[a], 3); break;
            case 5: run_alltoallv(comm, names[a]); break;
            case 6: run_blocks(comm, names[a], 0); break;
            case 7: run_blocks(comm, names[a], 1); break;
            case 8: run_blocks(comm, names[a], 2); break;
            default: run_reduction(comm, names[a], 2); break;
            }
            if (1 == c && nprocs > 1) {
                /* a barrier lets nobody out early, whoever comes last */
                int bad = 0;
                for (int late = 0; late < nprocs; late += nprocs > 4 ? nprocs / 3 : 1) {
                    bad += barrier_order_violations(comm, late);
                    calls += 2;
                }
                tb_case();
                if (bad) {
                    tb_fail("barrier %s released a process before the last one arrived", names[a]);
                }
            }
            MPI_Comm_free(&comm);
            cvar_write_int(pname, 0);
            if (0 == rank) {
                printf("matrix-expect: (%s) calls=%ld mayfall=%ld zero=%ld\n", cname, calls,
                       mayfall, zero);
                fflush(stdout);
            }
        }
    }
    if (extra && MPI_COMM_NULL != base) {
        determinism();
    }
    if (MPI_COMM_NULL != base && MPI_COMM_WORLD != base) {
        MPI_Comm_free(&base);
    }
    rc = tb_finish();
    MPI_T_finalize();
    MPI_Finalize();
    return rc;
}
