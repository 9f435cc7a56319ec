/* scc_sig.c: collectives whose ranks describe the same bytes differently -- (n, contiguous
 * type of 4 ints) on one rank and (4n, MPI_INT) on another, non-contiguous layouts against
 * contiguous ones, send and receive types that differ on one process, a contiguous type
 * whose data starts past its origin, zero-size types with non-zero counts against count 0,
 * and MPI_IN_PLACE -- for every collective the component takes datatypes for, with every
 * algorithm (forced through MPI_T, one communicator per collective and algorithm), every
 * root and sizes across the transport's thresholds.  Every buffer is compared byte by byte
 * (the gaps of its layout too) with the image it must have, inside guard zones.
 *
 * For each communicator rank 0 prints
 *     sig-expect: (sig <coll> <alg>[ nc]) served=scc|fallback
 * and sig.sh checks the component's call report for it: the component's algorithms served
 * the calls (no fallback), or, for reductions the component declines ("nc": types with gaps
 * or whose data starts past the origin), the fallback served them on every rank alike.
 *
 * Usage: scc_sig [-c coll,...] [-v variant] [-t]
 *   -c, -v  only these collectives, only this variant (its name as the failures print it)
 *   -t  only an alltoallv whose pairwise rounds carry more than 2^20 pieces per pair (4
 *       processes, coll_scc_cma 0, 64-byte slots: old tags (round << 20 | piece) alias) */
#include <unistd.h>

#include "scc_test.h"

#define FILL 0x5A
#define MAXP 64

/* ------------------------------------------------------------ layouts of ints */

enum { L_INT, L_C4, L_SHIFT, L_GAP, L_VEC, L_ZERO, NLAY };

typedef struct {
    const char *name;
    MPI_Datatype dt;
    size_t ipe;                 /* ints per element (0: a zero-size type) */
    size_t ext, stride, off;    /* element extent, bytes between its ints, first int's offset */
} lay_t;

static lay_t lay[NLAY] = {
    { "int", MPI_INT, 1, 4, 4, 0 },
    { "c4", MPI_DATATYPE_NULL, 4, 16, 4, 0 },     /* contiguous(4, int) */
    { "shift", MPI_DATATYPE_NULL, 1, 4, 4, 4 },   /* an int 4 bytes past its origin */
    { "gap", MPI_DATATYPE_NULL, 1, 8, 4, 0 },     /* an int resized to 8 bytes */
    { "vec", MPI_DATATYPE_NULL, 4, 32, 8, 0 },    /* vector(4, 1, 2, int) resized to 32 */
    { "zero", MPI_DATATYPE_NULL, 0, 0, 0, 0 },    /* contiguous(0, int) */
};

static int rank, nprocs, zcount, with_scc = 1;
static int one_node;     /* MPI_COMM_WORLD lies within one node */
static const char *only_colls, *only_variant;     /* -c, -v */
static long salt;
static char cur[160];             /* the case running, for failure messages */
static MPI_Op op_isum;

static size_t lay_pos(const lay_t *l, size_t j)
{
    return l->off + j / l->ipe * l->ext + j % l->ipe * l->stride;
}

/* The count that describes nint ints (a zero-size type: some non-zero count). */
static int lay_count(const lay_t *l, size_t nint)
{
    return l->ipe ? (int) (nint / l->ipe) : zcount;
}

/* user sum of ints, laid out as any of the layouts describes them */
static void isum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const lay_t *l = NULL;
    for (int i = 0; i < NLAY; ++i) {
        l = lay[i].dt == *dt ? &lay[i] : l;
    }
    for (size_t j = 0; NULL != l && j < (size_t) *len * l->ipe; ++j) {
        *(int32_t *) ((char *) inout + lay_pos(l, j)) += *(int32_t *) ((char *) in + lay_pos(l, j));
    }
}

/* ------------------------------------------------------------ buffers and their images */

typedef struct {
    const lay_t *l;
    size_t span;
    unsigned char *buf, *img;   /* the user's buffer (guard zones around), what it must hold */
} tbuf_t;

/* A buffer for nint ints in layout l, filled with FILL (the gaps keep it). */
static void tbuf_new(tbuf_t *b, int l, size_t nint)
{
    b->l = &lay[l];
    b->span = b->l->ipe ? b->l->off + (nint + b->l->ipe - 1) / b->l->ipe * b->l->ext : 0;
    b->buf = tb_alloc(b->span);
    b->img = malloc(b->span + 1);
    memset(b->img, FILL, b->span);
    memset(b->buf, FILL, b->span);
}

/* The buffer to pass at byte off: NULL for a count of 0 (Open MPI's argument checks take
 * NULL with a non-zero count of a zero-size type for an error). */
static void *ubuf(const tbuf_t *b, size_t off)
{
    return b->span || 0 == b->l->ipe ? b->buf + off : NULL;
}

static void tbuf_put(tbuf_t *b, size_t j, int32_t v)
{
    memcpy(b->img + lay_pos(b->l, j), &v, 4);
}

static void tbuf_load(tbuf_t *b)
{
    memcpy(b->buf, b->img, b->span);
}

static void tbuf_check(tbuf_t *b, const char *what)
{
    tb_case();
    for (size_t i = 0; i < b->span; ++i) {
        if (b->buf[i] != b->img[i]) {
            tb_fail("%s: %s buffer (%s): byte %zu is 0x%02x, not 0x%02x", cur, what, b->l->name,
                    i, b->buf[i], b->img[i]);
            break;
        }
    }
    if (!tb_guards_ok(b->buf, what)) {
        tb_fail("%s: around the %s buffer (%s, %zu bytes)", cur, what, b->l->name, b->span);
    }
}

static void tbuf_free(tbuf_t *b)
{
    tb_free(b->buf);
    free(b->img);
}

/* Values: rank r's int j (distinct everywhere); small ones where reductions add them. */
static int32_t val(int r, size_t j)
{
    return tb_val(r, j, (int) salt);
}

static int32_t small(int r, size_t j)
{
    return (val(r, j) & 0xffff) - 0x8000;
}

static void check_rc(int rc)
{
    tb_case();
    if (MPI_SUCCESS != rc) {
        tb_fail("%s: returned %d", cur, rc);
    }
}

/* ------------------------------------------------------------ variants */

/* Data-moving collectives: how rank r lays out what it sends and receives. */
enum { V_INT, V_C4, V_NC, V_INPLACE, V_ZERO, V_ZERO_INPLACE, NVAR };
static const char *vname[NVAR] = { "int", "c4-vs-int", "noncontig-vs-contig", "in-place",
                                   "zero-size-vs-count-0", "zero-size-in-place" };

static void variant(int v, int r, int *ls, int *lr)
{
    static const int nc_s[4] = { L_GAP, L_INT, L_VEC, L_SHIFT };
    static const int nc_r[4] = { L_VEC, L_SHIFT, L_C4, L_GAP };
    static const int ip[4] = { L_INT, L_GAP, L_C4, L_VEC };
    switch (v) {
    case V_INT: *ls = *lr = L_INT; break;
    case V_C4: *ls = *lr = r % 2 ? L_C4 : L_INT; break;
    case V_NC: *ls = nc_s[r % 4]; *lr = nc_r[r % 4]; break;
    case V_INPLACE: *ls = *lr = ip[r % 4]; break;
    case V_ZERO: *ls = r % 2 ? L_ZERO : L_INT; *lr = r % 2 ? L_INT : L_ZERO; break;
    default: *ls = *lr = r % 2 ? L_ZERO : L_INT; break;
    }
}

/* Variants that apply at nint ints per block (zero-size ones only without data). */
static int applies(int v, size_t nint, int in_place_ok)
{
    /* without coll/scc, Open MPI 4.1 skips a count of 0 but not zero bytes: hangs */
    if ((V_ZERO == v || V_ZERO_INPLACE == v) && (nint > 0 || !with_scc)) {
        return 0;
    }
    return in_place_ok || (V_INPLACE != v && V_ZERO_INPLACE != v);
}

/* Ints per block: 16 and 48 bytes (inline, slot), 8 KB (single copy), 16 KB + 16 (past a
 * slot), 32 KB + 32 (single copy per block, oversubscribed), 129 KB (single copy,
 * oversubscribed), 300 KB.  The schedules (sparse) skip the three marked 0: the
 * automatic choice and the direct algorithms, which they are about, take all. */
static const size_t sizes[] = { 0, 4, 12, 2048, 4104, 8200, 33000, 76800 };
static const int in_sparse[] = { 1, 1, 1, 0, 1, 0, 1, 0 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
static int sparse;

/* Starts a case (false: skipped, by the -v filter or as sparse). */
static int set_case(const char *coll, const char *alg, int root, size_t nint, const char *v)
{
    size_t s = 0;
    while (s + 1 < NSIZES && sizes[s] != nint) {
        s++;
    }
    if ((NULL != only_variant && 0 != strcmp(only_variant, v)) || (sparse && !in_sparse[s])) {
        return 0;
    }
    salt++;
    zcount = 1 + rank % 3;
    snprintf(cur, sizeof(cur), "%.31s alg=%.31s root=%d ints=%zu %.40s", coll, alg, root, nint,
             v);
    if (NULL != getenv("SCC_SIG_TRACE")) {
        fprintf(stderr, "scc_sig: rank %d: %s\n", rank, cur);
    }
    return 1;
}

/* ------------------------------------------------------------ bcast */

static void run_bcast(MPI_Comm comm, const char *alg)
{
    for (int root = 0; root < nprocs; ++root) {
        for (size_t s = 0; s < NSIZES; ++s) {
            for (int v = 0; v < NVAR; ++v) {
                size_t e = sizes[s];
                int ls, lr, l;
                tbuf_t b;
                if (!applies(v, e, 0) || !set_case("bcast", alg, root, e, vname[v])) {
                    continue;
                }
                variant(v, rank, &ls, &lr);
                l = rank == root ? ls : lr;
                tbuf_new(&b, l, e);
                for (size_t j = 0; rank == root && j < e; ++j) {
                    tbuf_put(&b, j, val(root, j));
                }
                tbuf_load(&b);
                check_rc(MPI_Bcast(ubuf(&b, 0), lay_count(b.l, e), b.l->dt, root, comm));
                for (size_t j = 0; j < e; ++j) {
                    tbuf_put(&b, j, val(root, j));
                }
                tbuf_check(&b, "data");
                tbuf_free(&b);
            }
        }
    }
}

/* ------------------------------------------------------------ reductions */

/* Reductions: one layout on every rank (the standard asks the same count and datatype). */
typedef struct {
    const char *name;
    int l, in_place, nc;
} rvar_t;

/* nc: the component hands these to the fallback, on every rank alike -- non-contiguous,
   or data past the origin (a user operation takes its pointers for origins) */
static const rvar_t rvars[] = {
    { "int", L_INT, 0, 0 },        { "c4", L_C4, 0, 0 },          { "in-place", L_C4, 1, 0 },
    { "zero-size", L_ZERO, 0, 0 }, { "zero-size-in-place", L_ZERO, 1, 0 },
    { "gap", L_GAP, 0, 1 },        { "vec", L_VEC, 1, 1 },        { "shift", L_SHIFT, 0, 1 },
};
#define NRVARS (sizeof(rvars) / sizeof(rvars[0]))

/* which: 0 reduce, 1 allreduce, 2 reduce_scatter_block; nc: the non-contiguous ones only */
static void run_reduction(MPI_Comm comm, const char *alg, int which, int nc)
{
    static const char *names[] = { "reduce", "allreduce", "reduce_scatter_block" };
    for (int root = 0; root < (0 == which ? nprocs : 1); ++root) {
        for (size_t s = 0; s < NSIZES; ++s) {
            for (size_t v = 0; v < NRVARS; ++v) {
                const rvar_t *rv = &rvars[v];
                size_t e = sizes[s], nin = 2 == which ? e * nprocs : e, first;
                int in_place = rv->in_place && (0 != which || rank == root), cnt;
                MPI_Op op = L_INT == rv->l ? MPI_SUM : op_isum;
                MPI_Datatype dt = lay[rv->l].dt;
                void *sb;
                tbuf_t in, out;
                /* "nc": no empty calls (the component serves them), and none above 8 KB:
                   Open MPI 4.1.4's ring allreduce, the fallback's choice there, overruns
                   its buffer on types with gaps */
                if (rv->nc != nc || (L_ZERO == rv->l && e > 0) || (nc && (0 == e || e > 2048))) {
                    continue;
                }
                /* without coll/scc: Open MPI 4.1's tuned hangs on zero-size elements */
                if (L_ZERO == rv->l && !with_scc) {
                    continue;
                }
                if (!set_case(names[which], alg, root, e, rv->name)) {
                    continue;
                }
                cnt = lay_count(&lay[rv->l], e);
                tbuf_new(&in, rv->l, in_place ? 0 : nin);
                tbuf_new(&out, rv->l, in_place ? nin : e);
                for (size_t j = 0; j < nin; ++j) {
                    tbuf_put(in_place ? &out : &in, j, small(rank, j));
                }
                tbuf_load(&in);
                tbuf_load(&out);
                sb = in_place ? MPI_IN_PLACE : ubuf(&in, 0);
                check_rc(0 == which ? MPI_Reduce(sb, ubuf(&out, 0), cnt, dt, op, root, comm)
                         : 1 == which ? MPI_Allreduce(sb, ubuf(&out, 0), cnt, dt, op, comm)
                         : MPI_Reduce_scatter_block(sb, ubuf(&out, 0), cnt, dt, op, comm));
                /* the result: all of it, or at the root, or this rank's block */
                first = 2 == which ? (size_t) rank * e : 0;
                for (size_t j = 0; j < e && (0 != which || rank == root); ++j) {
                    int32_t sum = 0;
                    for (int r = 0; r < nprocs; ++r) {
                        sum += small(r, first + j);
                    }
                    tbuf_put(&out, j, sum);
                }
                /* in place, reduce_scatter_block leaves the rest of rbuf undefined */
                for (size_t j = e; 2 == which && in_place && j < nin; ++j) {
                    memcpy(out.img + lay_pos(out.l, j), out.buf + lay_pos(out.l, j), 4);
                }
                tbuf_check(&in, "send");
                tbuf_check(&out, "result");
                tbuf_free(&in);
                tbuf_free(&out);
            }
        }
    }
}

/* ------------------------------------------------------------ gather, scatter, allgather */

/* which: 0 gather, 1 scatter, 2 allgather.  Rank r's block b: val(r, b * e + j). */
static void run_gather_family(MPI_Comm comm, const char *alg, int which)
{
    static const char *names[] = { "gather", "scatter", "allgather" };
    for (int root = 0; root < (2 == which ? 1 : nprocs); ++root) {
        for (size_t s = 0; s < NSIZES; ++s) {
            for (int v = 0; v < NVAR; ++v) {
                size_t e = sizes[s], n = (size_t) nprocs, nin;
                int ls, lr, sc, rcn, many_in = 1 == which && rank == root;
                int many_out = (0 == which && rank == root) || 2 == which;
                int in_place = (V_INPLACE == v || V_ZERO_INPLACE == v)
                               && (2 == which || rank == root);
                void *sb, *rb;
                MPI_Datatype sdt, rdt;
                tbuf_t in, out;
                if (!applies(v, e, 1) || !set_case(names[which], alg, root, e, vname[v])) {
                    continue;
                }
                variant(v, rank, &ls, &lr);
                /* in place: the root's (everyone's) own block is already in rbuf; scatter's
                   root keeps its block in sbuf and receives nothing */
                nin = in_place && 1 != which ? 0 : (many_in ? n : 1) * e;
                tbuf_new(&in, ls, nin);
                tbuf_new(&out, lr, in_place && 1 == which ? 0 : (many_out ? n : 1) * e);
                for (size_t j = 0; j < nin; ++j) {
                    tbuf_put(&in, j, val(rank, (1 == which ? 0 : (size_t) rank * e) + j));
                }
                for (size_t j = 0; in_place && 1 != which && j < e; ++j) {
                    tbuf_put(&out, (size_t) rank * e + j, val(rank, (size_t) rank * e + j));
                }
                tbuf_load(&in);
                tbuf_load(&out);
                sb = in_place && 1 != which ? MPI_IN_PLACE : ubuf(&in, 0);
                rb = in_place && 1 == which ? MPI_IN_PLACE : ubuf(&out, 0);
                sc = lay_count(in.l, e);
                rcn = lay_count(out.l, e);
                sdt = in.l->dt;
                rdt = out.l->dt;
                check_rc(0 == which ? MPI_Gather(sb, sc, sdt, rb, rcn, rdt, root, comm)
                         : 1 == which ? MPI_Scatter(sb, sc, sdt, rb, rcn, rdt, root, comm)
                         : MPI_Allgather(sb, sc, sdt, rb, rcn, rdt, comm));
                if (1 == which && !(in_place && 1 == which)) {
                    for (size_t j = 0; j < e; ++j) {
                        tbuf_put(&out, j, val(root, (size_t) rank * e + j));
                    }
                } else if (many_out) {
                    for (size_t j = 0; j < n * e; ++j) {
                        tbuf_put(&out, j, val((int) (j / e), j));
                    }
                }
                tbuf_check(&in, "send");
                tbuf_check(&out, "receive");
                tbuf_free(&in);
                tbuf_free(&out);
            }
        }
    }
}

/* ------------------------------------------------------------ alltoall(v) */

/* Ints rank s sends rank d (in place: the same both ways). */
static size_t pair_ints(size_t e, int s, int d, int sym)
{
    size_t unit = e > 8 ? (e / 2) & ~(size_t) 3 : e;
    return unit * (size_t) ((sym ? s + d : 2 * s + d) % 3);
}

/* Element displacements of the n blocks: last peer first, one element apart. */
static size_t displs(const lay_t *l, const size_t *ints, int *disp)
{
    size_t at = 0;
    for (int d = nprocs - 1; d >= 0; --d) {
        disp[d] = (int) at;
        at += l->ipe ? ints[d] / l->ipe + 1 : 0;
    }
    return at * l->ipe;
}

/* v: alltoallv, else alltoall (every block e ints) */
static void run_alltoall(MPI_Comm comm, const char *alg, int is_v)
{
    for (size_t s = 0; s < NSIZES; ++s) {
        for (int v = 0; v < NVAR; ++v) {
            size_t e = sizes[s], sints[MAXP], rints[MAXP], sspan, rspan;
            int ls, lr, rc, sc[MAXP], rcn[MAXP], sd[MAXP], rd[MAXP];
            int in_place = V_INPLACE == v || V_ZERO_INPLACE == v;
            tbuf_t in, out;
            const char *name = is_v ? "alltoallv" : "alltoall";
            if (!applies(v, e, 1) || !set_case(name, alg, -1, e, vname[v])) {
                continue;
            }
            variant(v, rank, &ls, &lr);
            for (int d = 0; d < nprocs; ++d) {
                sints[d] = is_v ? pair_ints(e, rank, d, in_place) : e;
                rints[d] = is_v ? pair_ints(e, d, rank, in_place) : e;
                sc[d] = lay_count(&lay[ls], sints[d]);
                rcn[d] = lay_count(&lay[lr], rints[d]);
            }
            sspan = is_v ? displs(&lay[ls], sints, sd) : nprocs * e;
            rspan = is_v ? displs(&lay[lr], rints, rd) : nprocs * e;
            for (int d = 0; !is_v && d < nprocs; ++d) {
                sd[d] = lay_count(&lay[ls], d * e);
                rd[d] = lay_count(&lay[lr], d * e);
            }
            tbuf_new(&in, ls, in_place ? 0 : sspan);
            tbuf_new(&out, lr, rspan);
            /* block for d: val(me, d * 1000003 + j); in place, the send blocks sit in rbuf */
            for (int d = 0; d < nprocs; ++d) {
                tbuf_t *b = in_place ? &out : &in;
                size_t first = (size_t) (in_place ? rd[d] : sd[d]) * b->l->ipe;
                for (size_t j = 0; j < sints[d]; ++j) {
                    tbuf_put(b, first + j, val(rank, (size_t) d * 1000003u + j));
                }
            }
            tbuf_load(&in);
            tbuf_load(&out);
            if (is_v) {
                /* odd ranks: the buffers' ends as origins, every displacement negative */
                int sz = rank % 2 && in.l->ipe ? (int) (sspan / in.l->ipe) : 0;
                int rz = rank % 2 && out.l->ipe ? (int) (rspan / out.l->ipe) : 0;
                int sdn[MAXP], rdn[MAXP];
                for (int d = 0; d < nprocs; ++d) {
                    sdn[d] = sd[d] - sz;
                    rdn[d] = rd[d] - rz;
                }
                rc = MPI_Alltoallv(in_place ? MPI_IN_PLACE : ubuf(&in, sz * in.l->ext), sc, sdn,
                                   in.l->dt, ubuf(&out, rz * out.l->ext), rcn, rdn,
                                   out.l->dt, comm);
            } else {
                rc = MPI_Alltoall(in_place ? MPI_IN_PLACE : ubuf(&in, 0), sc[0], in.l->dt,
                                  ubuf(&out, 0), rcn[0], out.l->dt, comm);
            }
            check_rc(rc);
            for (int src = 0; src < nprocs; ++src) {
                size_t first = (size_t) rd[src] * out.l->ipe;
                for (size_t j = 0; j < rints[src]; ++j) {
                    tbuf_put(&out, first + j, val(src, (size_t) rank * 1000003u + j));
                }
            }
            tbuf_check(&in, "send");
            tbuf_check(&out, "receive");
            tbuf_free(&in);
            tbuf_free(&out);
        }
    }
}

/* ------------------------------------------------------------ alltoallv past 2^20 pieces */

/* Pieces of slot bytes from rank s to rank d (4 processes, ns slots).  With the old tags
 * (round << 20 | piece), rank 0's round-2 piece 2^20 + k to rank 2 was named as its round-3
 * piece k to rank 3: rank 0 sends 2^20 + ns pieces to rank 2, which leaves pieces 2^20 ..
 * 2^20 + ns - 1 in its ns slots; in round 3 it sends rank 3 piece 0, then waits for rank 1,
 * which comes only once rank 2 is done -- all that time rank 3, waiting for its pieces
 * 1 .. ns - 1, finds the old ones under their names. */
static size_t tag_pieces(int s, int d, size_t ns)
{
    return 0 == s && 2 == d ? (1u << 20) + ns : 0 == s && 3 == d ? ns : 0;
}

static void run_tags(MPI_Comm comm, size_t slot, size_t ns)
{
    size_t sints[4], rints[4], stot = 0, rtot = 0;
    int sc[4], rcn[4], sd[4], rd[4];
    tbuf_t in, out;

    set_case("alltoallv", "flat", -1, 0, "2^20 pieces per pair");
    for (int d = 0; d < 4; ++d) {
        sints[d] = tag_pieces(rank, d, ns) * slot / 4;
        rints[d] = tag_pieces(d, rank, ns) * slot / 4;
        sd[d] = (int) stot;
        rd[d] = (int) rtot;
        sc[d] = (int) sints[d];
        rcn[d] = (int) rints[d];
        stot += sints[d];
        rtot += rints[d];
    }
    tbuf_new(&in, L_INT, stot);
    tbuf_new(&out, L_INT, rtot);
    for (int d = 0; d < 4; ++d) {
        for (size_t j = 0; j < sints[d]; ++j) {
            tbuf_put(&in, sd[d] + j, val(rank, (size_t) d << 28 | j));
        }
    }
    tbuf_load(&in);
    MPI_Barrier(comm);              /* the component is set up: nobody waits for rank 1 */
    if (1 == rank) {
        MPI_Recv(NULL, 0, MPI_BYTE, 2, 0, comm, MPI_STATUS_IGNORE);
        usleep(100000);
    }
    check_rc(MPI_Alltoallv(ubuf(&in, 0), sc, sd, MPI_INT, ubuf(&out, 0), rcn, rd, MPI_INT, comm));
    if (2 == rank) {
        MPI_Send(NULL, 0, MPI_BYTE, 1, 0, comm);
    }
    for (int s = 0; s < 4; ++s) {
        for (size_t j = 0; j < rints[s]; ++j) {
            tbuf_put(&out, rd[s] + j, val(s, (size_t) rank << 28 | j));
        }
    }
    tbuf_check(&in, "send");
    tbuf_check(&out, "receive");
    tbuf_free(&in);
    tbuf_free(&out);
}

/* ------------------------------------------------------------ MPI_T and main */

/* After the communicator is freed (its report printed): what sig.sh expects of it. */
static void expect(const char *name, const char *served)
{
    if (0 == rank) {
        printf("sig-expect: (%s) served=%s\n", name, served);
        fflush(stdout);
    }
}

/* The algorithms of coll (tb_algorithms); without coll/scc (coll ^scc) just "none":
 * whatever serves the calls, the results must be right. */
static int algorithms(const char *coll, char names[][32], int *values, int max)
{
    int n = tb_algorithms(coll, "fallback", names, values, max);
    if (0 == n) {
        strcpy(names[0], "none");
        values[0] = -1;
        with_scc = 0;
        n = 1;
    }
    return n;
}

static void setup_types(void)
{
    MPI_Datatype tmp;
    int one = 1;
    MPI_Aint four = 4;
    MPI_Type_contiguous(4, MPI_INT, &lay[L_C4].dt);
    MPI_Type_create_hindexed(1, &one, &four, MPI_INT, &lay[L_SHIFT].dt);
    MPI_Type_create_resized(MPI_INT, 0, 8, &lay[L_GAP].dt);
    MPI_Type_vector(4, 1, 2, MPI_INT, &tmp);
    MPI_Type_create_resized(tmp, 0, 32, &lay[L_VEC].dt);
    MPI_Type_free(&tmp);
    MPI_Type_contiguous(0, MPI_INT, &lay[L_ZERO].dt);
    for (int i = L_C4; i < NLAY; ++i) {
        MPI_Type_commit(&lay[i].dt);
    }
    MPI_Op_create(isum, 1, &op_isum);
}

int main(int argc, char **argv)
{
    static const char *colls[] = { "bcast", "reduce", "allreduce", "alltoall", "alltoallv",
                                   "gather", "scatter", "allgather", "reduce_scatter_block" };
    int provided, slot = 16384, nslots = 8, tags = 0, opt, rc;

    tb_prog = "scc_sig";
    while ((opt = getopt(argc, argv, "tc:v:")) != -1) {
        if ('t' == opt) tags = 1;
        else if ('c' == opt) only_colls = optarg;
        else if ('v' == opt) only_variant = optarg;
    }
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (nprocs > MAXP) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    setup_types();
    tb_cvar_rw("coll_scc_shm_slot_size", &slot, 0);
    tb_cvar_rw("coll_scc_shm_nslots", &nslots, 0);
    /* on one node the component declines what runs between nodes only: nothing to check */
    one_node = tb_one_node(MPI_COMM_WORLD);
    for (size_t c = 0; c < sizeof(colls) / sizeof(colls[0]) && !tags; ++c) {
        char names[32][32], pname[96];
        int values[32], na = algorithms(colls[c], names, values, 32);
        snprintf(pname, sizeof(pname), "coll_scc_%s_algorithm", colls[c]);
        for (int a = 0; a < na && tb_listed(only_colls, colls[c]); ++a) {
            int reduction = 1 == c || 2 == c || 8 == c;
            if (one_node && tb_nodes_only(colls[c], names[a])) {
                continue;
            }
            for (int nc = 0; nc <= reduction; ++nc) {
                char cname[MPI_MAX_OBJECT_NAME];
                MPI_Comm comm;
                if (values[a] >= 0 && 0 != tb_cvar_rw(pname, &values[a], 1)) {
                    tb_fail("cannot force %s=%s through MPI_T", pname, names[a]);
                    continue;
                }
                snprintf(cname, sizeof(cname), "sig %s %.31s%s", colls[c], names[a],
                         nc ? " nc" : "");
                sparse = strcmp(names[a], "auto") && strcmp(names[a], "flat")
                         && strcmp(names[a], "none");
                comm = tb_new_comm(cname);
                switch (c) {
                case 0: run_bcast(comm, names[a]); break;
                case 1: run_reduction(comm, names[a], 0, nc); break;
                case 2: run_reduction(comm, names[a], 1, nc); break;
                case 3: run_alltoall(comm, names[a], 0); break;
                case 4: run_alltoall(comm, names[a], 1); break;
                case 5: run_gather_family(comm, names[a], 0); break;
                case 6: run_gather_family(comm, names[a], 1); break;
                case 7: run_gather_family(comm, names[a], 2); break;
                default: run_reduction(comm, names[a], 2, nc); break;
                }
                MPI_Comm_free(&comm);
                expect(cname, nc ? "fallback" : "scc");
            }
            if (values[a] >= 0) {
                values[a] = 0;
                tb_cvar_rw(pname, &values[a], 1);
            }
        }
    }
    if (tags && 4 == nprocs) {
        MPI_Comm comm = tb_new_comm("sig alltoallv flat tags");
        run_tags(comm, (size_t) slot, (size_t) nslots);
        MPI_Comm_free(&comm);
        expect("sig alltoallv flat tags", "scc");
    }
    rc = tb_finish();
    MPI_T_finalize();
    MPI_Finalize();
    return rc;
}
