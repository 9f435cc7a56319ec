/* scc_hang.c: calls that are erroneous or fail on some members must end on all of them and
 * leave the communicator usable (README, "Erroneous and failing calls").
 *
 * Erroneous broadcasts (default): on one communicator per algorithm ("hang bcast <alg>":
 * auto and the algorithms of coll_scc_bcast_algorithm, forced through MPI_T), with
 * MPI_ERRORS_RETURN, MPI_Bcast from the first, last and middle rank where the receivers
 * pass another count than the root: larger (twice, one byte more), smaller (half, one byte
 * less), some larger and some smaller, one of them larger, or larger and smaller in every
 * other byte of their buffer (a type with gaps: a packed copy).  The root must succeed; a
 * receiver with room for the root's bytes must succeed with them and the rest of its
 * buffer untouched (what the pml does with a shorter message, and tuned with it); one with
 * less room must return MPI_ERR_TRUNCATE holding the root's first bytes.  After each, the
 * same broadcast done right, one of another size from another root and an allreduce must
 * give every byte right.
 *
 * Erroneous scatterv (-v, on "hang scatterv"): one reader, (root + 1) % n, passes a count
 * whose part lies on the other side of the 512-byte cutoff than the root's part for it (the
 * root sends parts up to it alone, the larger ones through its table), both ways, at the
 * cutoff, inline against single copy, and on the same side; the other readers' parts all
 * small, all large (a table) or both.  That reader must return MPI_ERR_TRUNCATE, the root
 * and the others succeed with their parts; then the same scatterv done right, a broadcast
 * and an allreduce must give every byte right.  Rank 0 prints the number of scatterv calls
 * ("hang-scatterv: N calls") for the script to match against scc's counters.
 *
 * Failures (-f): the script has coll_scc_fail_setup make rank R fail every scratch buffer
 * of call N on "hang fault" (R:scratch@N, read back here from the environment).  Call 1 is
 * a barrier; probe k is call 4k + 2 (PROBES below) and calls 4k + 3..4k + 5 check the
 * communicator.  A rank that fails must return an error; every other rank succeeds with
 * the right data or returns an error (all of them, where the root failed a broadcast; the
 * root, where a member failed a reduction); the checks must be right.
 *
 * Abort (-x): a call that no member can end with an error (an in-place alltoall whose copy
 * fails: call 2 of "hang abort") must end the job with a message naming the cause -- the
 * script checks that; here nothing returns.
 *
 * Usage: scc_hang [-a alg,...] [-s bytes,...] [-f] [-x] [-v] */
#include <unistd.h>

#include "scc_test.h"

#define FILL 0x5A

static int rank, nprocs;
static const char *only_algs, *sizes_arg;

/* ------------------------------------------------------------ helpers */

static int err_class(int rc)
{
    int cls = rc;
    if (MPI_SUCCESS != rc) {
        MPI_Error_class(rc, &cls);
    }
    return cls;
}

static const char *err_name(int rc)
{
    static char s[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(rc, s, &len);
    return s;
}

/* Byte i of the data at buf[i * stride]: the first `got` the root's, everything else (the
 * gaps, the rest of a larger buffer) untouched; the index of the first wrong one, or len. */
static size_t first_wrong_at(const unsigned char *buf, size_t len, size_t stride, size_t got,
                             int root, int salt)
{
    for (size_t k = 0; k < len; ++k) {
        int data = 0 == k % stride && k / stride < got;
        if (buf[k] != (data ? tb_byte(root, k / stride, salt) : FILL)) {
            return k;
        }
    }
    return len;
}

/* A right MPI_Bcast of `bytes` from root, checked byte by byte. */
static void right_bcast(MPI_Comm comm, size_t bytes, int root, int salt, const char *after)
{
    unsigned char *buf = tb_alloc(bytes);
    size_t bad;
    int rc;

    for (size_t i = 0; i < bytes; ++i) {
        buf[i] = rank == root ? tb_byte(root, i, salt) : FILL;
    }
    rc = MPI_Bcast(buf, (int) bytes, MPI_BYTE, root, comm);
    tb_case();
    if (MPI_SUCCESS != rc) {
        tb_fail("%s: then MPI_Bcast of %zu bytes from %d: %s", after, bytes, root, err_name(rc));
    } else if ((bad = first_wrong_at(buf, bytes, 1, bytes, root, salt)) < bytes) {
        tb_fail("%s: then MPI_Bcast of %zu bytes from %d: byte %zu is 0x%02x, not 0x%02x", after,
                bytes, root, bad, buf[bad], tb_byte(root, bad, salt));
    }
    tb_guards_ok(buf, after);
    tb_free(buf);
}

/* A right MPI_Allreduce of ints, checked. */
static void right_allreduce(MPI_Comm comm, int n, const char *after)
{
    int *in = tb_alloc((size_t) n * sizeof(int)), *out = tb_alloc((size_t) n * sizeof(int));
    int rc;

    for (int i = 0; i < n; ++i) {
        in[i] = rank * 3 + i;
    }
    rc = MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, comm);
    tb_case();
    for (int i = 0; MPI_SUCCESS == rc && i < n; ++i) {
        int want = 3 * nprocs * (nprocs - 1) / 2 + nprocs * i;
        if (out[i] != want) {
            tb_fail("%s: then MPI_Allreduce of %d ints: element %d is %d, not %d", after, n, i,
                    out[i], want);
            break;
        }
    }
    if (MPI_SUCCESS != rc) {
        tb_fail("%s: then MPI_Allreduce of %d ints: %s", after, n, err_name(rc));
    }
    tb_guards_ok(in, after);
    tb_guards_ok(out, after);
    tb_free(in);
    tb_free(out);
}

/* ------------------------------------------------------------ erroneous broadcasts */

enum { V_TWICE, V_PLUS1, V_HALF, V_MINUS1, V_MIXED, V_ONE, V_GAPS, NVARIANTS };
static const char *variant_name[NVARIANTS] = { "twice", "plus1", "half", "minus1", "mixed",
                                               "one", "gaps" };

/* Every other byte (the receivers of V_GAPS: their data goes through a packed copy). */
static MPI_Datatype gap_type;

/* The count rank r passes when the root sends `bytes` in variant v. */
static size_t count_of(int v, size_t bytes, int r, int root)
{
    if (r == root) {
        return bytes;
    }
    switch (v) {
    case V_TWICE: return 2 * bytes;
    case V_PLUS1: return bytes + 1;
    case V_HALF: return bytes / 2 > 0 ? bytes / 2 : 1;
    case V_MINUS1: return bytes > 1 ? bytes - 1 : 1;
    case V_MIXED: return 0 == r % 3 ? 2 * bytes : (1 == r % 3 ? bytes / 2 + 1 : bytes);
    case V_GAPS: return r % 2 ? 2 * bytes + 3 : bytes / 2 + 1;
    default: return r == (root + 1) % nprocs ? 2 * bytes + 7 : bytes;
    }
}

static void wrong_bcast(MPI_Comm comm, const char *alg, size_t bytes, int root, int v, int salt)
{
    const size_t mine = count_of(v, bytes, rank, root);
    const size_t stride = V_GAPS == v && rank != root ? 2 : 1, len = mine * stride;
    unsigned char *buf = tb_alloc(len);
    char what[160];
    size_t bad, got;
    int rc, cls;

    snprintf(what, sizeof(what), "%s: MPI_Bcast of %zu bytes from %d, %s: rank %d passes %zu",
             alg, bytes, root, variant_name[v], rank, mine);
    for (size_t i = 0; i < len; ++i) {
        buf[i] = rank == root ? tb_byte(root, i, salt) : FILL;
    }
    rc = MPI_Bcast(buf, (int) mine, 1 == stride ? MPI_BYTE : gap_type, root, comm);
    cls = err_class(rc);
    got = mine < bytes ? mine : bytes;
    tb_case();
    if (mine > bytes ? MPI_SUCCESS != cls : (mine < bytes ? MPI_ERR_TRUNCATE != cls
                                                           : MPI_SUCCESS != cls)) {
        tb_fail("%s: returned %s, expected %s", what, err_name(rc),
                mine < bytes ? "MPI_ERR_TRUNCATE" : "MPI_SUCCESS");
    } else if (rank != root && (bad = first_wrong_at(buf, len, stride, got, root, salt)) < len) {
        tb_fail("%s: buffer byte %zu is 0x%02x: %s", what, bad, buf[bad],
                0 == bad % stride && bad / stride < got ? "not the root's"
                                                         : "written, not the root's data");
    }
    tb_guards_ok(buf, what);
    tb_free(buf);
    /* the communicator must be as good as before */
    right_bcast(comm, bytes, root, salt + 1, what);
    right_bcast(comm, bytes / 3 + 5, (root + 1) % nprocs, salt + 2, what);
    right_allreduce(comm, 1000, what);
}

static void run_mismatch(MPI_Comm comm, const char *alg, const size_t *sizes, int nsizes)
{
    int roots[3] = { 0, nprocs - 1, nprocs / 2 }, salt = 0;

    for (int s = 0; s < nsizes; ++s) {
        for (int k = 0; k < 3; ++k) {
            if (k > 0 && roots[k] == roots[k - 1]) {
                continue;
            }
            for (int v = 0; v < NVARIANTS; ++v) {
                wrong_bcast(comm, alg, sizes[s], roots[k], v, salt += 7);
            }
        }
    }
}

/* ------------------------------------------------------------ erroneous scatterv */

/* The wrong reader's part at the root and its count: across the cutoff both ways, at it,
 * inline against single copy both ways, on the same side (small, large). */
static const size_t VCASES[][2] = { { 64, 4096 }, { 4096, 64 },   { 512, 513 },  { 513, 512 },
                                    { 8, 400000 }, { 400000, 8 }, { 64, 100 },   { 4096, 8000 } };
#define NVCASES ((int) (sizeof(VCASES) / sizeof(VCASES[0])))

static long scatterv_calls;

/* The part of rank r when the others' parts are all small (0), all large (1) or both. */
static size_t other_part(int others, int r)
{
    return 0 == others || (2 == others && r % 2) ? 40 + (size_t) r : 5000 + (size_t) r;
}

/* n bytes at p must be rank r's bytes first.. of salt; a wrong one is reported once. */
static void v_bytes_ok(const unsigned char *p, size_t n, int r, size_t first, int salt,
                       const char *what)
{
    for (size_t i = 0; i < n; ++i) {
        if (p[i] != tb_byte(r, first + i, salt)) {
            tb_fail("%s: rank %d: byte %zu of rank %d's part is 0x%02x, not 0x%02x", what, rank,
                    first + i, r, p[i], tb_byte(r, first + i, salt));
            return;
        }
    }
}

/* The end of a v-variant's check: guard zones intact, everything freed. */
static void v_done(unsigned char *sbuf, unsigned char *rbuf, int *counts, int *displs,
                   const char *what)
{
    tb_guards_ok(sbuf, what);
    tb_guards_ok(rbuf, what);
    tb_free(sbuf);
    tb_free(rbuf);
    free(counts);
    free(displs);
}

/* MPI_Scatterv from root, parts[r] bytes to rank r in rank order; rank r passes count[r].
 * Checks that rank `bad` (-1: none) returns MPI_ERR_TRUNCATE, the others their part. */
static void scatterv_check(MPI_Comm comm, const size_t *parts, const size_t *count, int root,
                           int bad, int salt, const char *what)
{
    int *counts = malloc((size_t) nprocs * sizeof(int)), *displs = malloc((size_t) nprocs *
                                                                           sizeof(int));
    size_t total = 0, mine = count[rank], at;
    unsigned char *sbuf, *rbuf;
    int rc;

    for (int r = 0; r < nprocs; ++r) {
        counts[r] = (int) parts[r];
        displs[r] = (int) total;
        total += parts[r];
    }
    at = (size_t) displs[rank];
    sbuf = tb_alloc(rank == root ? total : 1);
    rbuf = tb_alloc(mine);
    for (size_t i = 0; rank == root && i < total; ++i) {
        sbuf[i] = tb_byte(root, i, salt);
    }
    memset(rbuf, FILL, mine);
    rc = MPI_Scatterv(sbuf, counts, displs, MPI_BYTE, rbuf, (int) mine, MPI_BYTE, root, comm);
    scatterv_calls++;
    tb_case();
    if (rank == bad) {
        if (MPI_ERR_TRUNCATE != err_class(rc)) {
            tb_fail("%s: rank %d passes %zu for a part of %zu: returned %s, not "
                    "MPI_ERR_TRUNCATE", what, rank, mine, parts[rank], err_name(rc));
        }
    } else if (MPI_SUCCESS != rc) {
        tb_fail("%s: rank %d: %s", what, rank, err_name(rc));
    } else {
        v_bytes_ok(rbuf, mine, root, at, salt, what);
    }
    v_done(sbuf, rbuf, counts, displs, what);
}

static void run_scatterv(MPI_Comm comm)
{
    size_t *parts = malloc((size_t) nprocs * sizeof(size_t));
    size_t *count = malloc((size_t) nprocs * sizeof(size_t));
    int roots[2] = { 0, nprocs - 1 }, salt = 0;
    char what[160];

    for (int k = 0; k < 2; ++k) {
        const int root = roots[k], bad = (root + 1) % nprocs;
        for (int others = 0; others < 3; ++others) {
            for (int c = 0; c < NVCASES; ++c) {
                for (int r = 0; r < nprocs; ++r) {
                    parts[r] = count[r] = r == root ? 100 : other_part(others, r);
                }
                parts[bad] = VCASES[c][0];
                count[bad] = VCASES[c][1];
                snprintf(what, sizeof(what), "MPI_Scatterv from %d, others %d: rank %d's part "
                         "%zu, its count %zu", root, others, bad, parts[bad], count[bad]);
                scatterv_check(comm, parts, count, root, bad, salt += 7, what);
                /* the communicator must be as good as before */
                scatterv_check(comm, parts, parts, root, -1, salt += 7, what);
                count[bad] = parts[bad] = VCASES[c][1];
                scatterv_check(comm, parts, parts, root, -1, salt += 7, what);
                right_bcast(comm, 1000, root, salt += 7, what);
                right_allreduce(comm, 1000, what);
            }
        }
    }
    free(parts);
    free(count);
    if (0 == rank) {
        printf("hang-scatterv: %ld calls\n", scatterv_calls);
        fflush(stdout);
    }
}

/* ------------------------------------------------------------ allgatherv */

static long allgatherv_calls;

/* One MPI_Allgatherv of parts of base + 1000 * r bytes, where rank bad takes rank who's part
 * for 4096 bytes more (bad < 0: no one; the ranks disagree on a count: the caller's error).
 * bad must get MPI_ERR_TRUNCATE; the others every part right or, where bad's failed read of a
 * single-copy part ends the call with an error on every member (README: Erroneous and
 * failing calls), MPI_ERR_TRUNCATE too. */
static void allgatherv_check(MPI_Comm comm, size_t base, int who, int bad, int salt,
                             const char *what)
{
    int *counts = malloc((size_t) nprocs * sizeof(int)), *displs = malloc((size_t) nprocs *
                                                                           sizeof(int));
    size_t total = 0, mine = base + 1000 * (size_t) rank;
    unsigned char *sbuf, *rbuf;
    int rc;

    for (int r = 0; r < nprocs; ++r) {
        counts[r] = (int) (base + 1000 * (size_t) r) + (rank == bad && r == who ? 4096 : 0);
        displs[r] = (int) total;
        total += (size_t) counts[r];
    }
    sbuf = tb_alloc(mine);
    rbuf = tb_alloc(total);
    for (size_t i = 0; i < mine; ++i) {
        sbuf[i] = tb_byte(rank, i, salt);
    }
    memset(rbuf, FILL, total);
    rc = MPI_Allgatherv(sbuf, (int) mine, MPI_BYTE, rbuf, counts, displs, MPI_BYTE, comm);
    allgatherv_calls++;
    tb_case();
    if (rank == bad) {
        if (MPI_ERR_TRUNCATE != err_class(rc)) {
            tb_fail("%s: rank %d takes %d bytes for a part of %zu: returned %s, not "
                    "MPI_ERR_TRUNCATE", what, rank, counts[who], base + 1000 * (size_t) who,
                    err_name(rc));
        }
    } else if (MPI_SUCCESS != rc && (bad < 0 || MPI_ERR_TRUNCATE != err_class(rc))) {
        tb_fail("%s: rank %d: %s", what, rank, err_name(rc));
    } else if (MPI_SUCCESS == rc) {
        for (int r = 0; r < nprocs; ++r) {
            v_bytes_ok(rbuf + displs[r], (size_t) counts[r], r, 0, salt, what);
        }
    }
    v_done(sbuf, rbuf, counts, displs, what);
}

/* A rank that takes a part for more bytes than its sender sends, at sizes that move through
 * the slots in pieces or single copy (coll_scc_cma_adapt 2: odd ranks' parts single copy):
 * every call ends, the next ones are right. */
static void run_allgatherv(MPI_Comm comm)
{
    const size_t bases[] = { 1000, 150000, 300000 };
    int salt = 0;
    char what[160];

    for (int s = 0; s < 3; ++s) {
        for (int who = 0; who < nprocs; ++who) {
            const int bad = (who + 1) % nprocs;
            snprintf(what, sizeof(what), "MPI_Allgatherv of %zu+ bytes: rank %d takes rank %d's "
                     "part for 4096 bytes more", bases[s], bad, who);
            allgatherv_check(comm, bases[s], who, bad, salt += 7, what);
            allgatherv_check(comm, bases[s], who, -1, salt += 7, what);
            right_allreduce(comm, 1000, what);
        }
    }
    if (0 == rank) {
        printf("hang-allgatherv: %ld calls\n", allgatherv_calls);
        fflush(stdout);
    }
}

/* ------------------------------------------------------------ failures */

#define MAXCALLS 64

/* Which rank fails call N (-1: none): from coll_scc_fail_setup's R:scratch@N entries. */
static int fails_at[MAXCALLS];

static void read_failures(void)
{
    const char *p = getenv("OMPI_MCA_coll_scc_fail_setup");
    for (int i = 0; i < MAXCALLS; ++i) {
        fails_at[i] = -1;
    }
    while (NULL != p && '\0' != *p) {
        int r, call;
        if (2 == sscanf(p, "%d:scratch@%d", &r, &call) && call > 0 && call < MAXCALLS) {
            fails_at[call] = r;
        }
        p = strchr(p, ',');
        p = NULL != p ? p + 1 : NULL;
    }
}

/* Probes: a broadcast of a non-contiguous type (its packed copy is a scratch buffer: the
 * root's to send, a receiver's to receive into) or a reduction (a non-root's partial
 * results), `bytes` of data from root. */
typedef struct {
    int reduce;
    size_t bytes;
    int root;
} probe_t;

static const probe_t PROBES[] = {
    { 0, 65536, 0 }, { 0, 65536, -1 }, { 1, 65536, 0 }, { 1, 262144, 1 },
    { 0, 40, 1 }, { 0, 1 << 20, -1 }, { 0, 4096, 0 }, { 1, 4096, -1 },
};
#define NPROBES ((int) (sizeof(PROBES) / sizeof(PROBES[0])))

/* Runs probe k (call `call` of the communicator) and checks what each rank returned. */
static void run_probe(MPI_Comm comm, int k, int call)
{
    const probe_t *pr = &PROBES[k];
    const int root = pr->root < 0 ? nprocs - 1 : pr->root, failing = fails_at[call];
    const size_t n = pr->bytes / sizeof(int);
    MPI_Datatype vec;
    int *buf = tb_alloc(2 * n * sizeof(int)), *out = tb_alloc(n * sizeof(int));
    int rc, all[2], *rcs = malloc((size_t) nprocs * 2 * sizeof(int));
    char what[128];

    snprintf(what, sizeof(what), "probe %d (call %d, %s of %zu bytes from %d, rank %d fails)",
             k, call, pr->reduce ? "MPI_Reduce" : "MPI_Bcast", pr->bytes, root, failing);
    for (size_t i = 0; i < 2 * n; ++i) {
        buf[i] = pr->reduce ? tb_val(rank, i, k) : (rank == root ? tb_val(root, i, k) : FILL);
    }
    memset(out, 0, n * sizeof(int));
    if (pr->reduce) {
        rc = MPI_Reduce(buf, out, (int) n, MPI_INT, MPI_SUM, root, comm);
    } else {
        /* every other int: the type is not contiguous */
        MPI_Type_vector((int) n, 1, 2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        rc = MPI_Bcast(buf, 1, vec, root, comm);
        MPI_Type_free(&vec);
    }
    tb_case();
    /* a rank that succeeded has the right data: the root's ints at the type's places (its
       gaps untouched), or at a reduction's root the sums */
    for (size_t i = 0; MPI_SUCCESS == rc && (!pr->reduce || rank == root) && i < n; ++i) {
        unsigned want = 0;
        int got = pr->reduce ? out[i] : buf[2 * i];
        for (int r = 0; pr->reduce && r < nprocs; ++r) {
            want += (unsigned) tb_val(r, i, k);
        }
        if (!pr->reduce) {
            want = (unsigned) tb_val(root, 2 * i, k);
        }
        if (got != (int) want || (!pr->reduce && rank != root && FILL != buf[2 * i + 1])) {
            tb_fail("%s: succeeded with element %zu %d, not %d (or its gap written)", what, i,
                    got, (int) want);
            break;
        }
    }
    /* what every rank returned, to judge the call as a whole */
    all[0] = MPI_SUCCESS == rc ? 0 : err_class(rc);
    all[1] = failing;
    MPI_Allgather(all, 2, MPI_INT, rcs, 2, MPI_INT, MPI_COMM_WORLD);
    if (0 == rank && failing >= 0 && failing < nprocs) {
        int errors = 0;
        for (int r = 0; r < nprocs; ++r) {
            errors += 0 != rcs[2 * r];
        }
        if (0 == rcs[2 * failing]) {
            tb_fail("%s: the failing rank returned MPI_SUCCESS", what);
        }
        if (!pr->reduce && failing == root && errors != nprocs) {
            tb_fail("%s: the root failed, only %d of %d ranks returned an error", what, errors,
                    nprocs);
        }
        if (pr->reduce && failing != root && 0 == rcs[2 * root]) {
            tb_fail("%s: a member failed, the root returned MPI_SUCCESS", what);
        }
        printf("hang-probe: %d call %d fails %d:", k, call, failing);
        for (int r = 0; r < nprocs; ++r) {
            printf(" %d", rcs[2 * r]);
        }
        printf("\n");
        fflush(stdout);
    }
    free(rcs);
    tb_guards_ok(buf, what);
    tb_guards_ok(out, what);
    tb_free(buf);
    tb_free(out);
}

/* Call 1: a barrier; probe k: call 4k + 2, then three calls that check the communicator. */
static void run_failures(MPI_Comm comm)
{
    char after[64];
    int call = 1;

    read_failures();
    MPI_Barrier(comm);
    for (int k = 0; k < NPROBES && call + 4 < MAXCALLS; ++k) {
        run_probe(comm, k, ++call);
        snprintf(after, sizeof(after), "after probe %d", k);
        right_bcast(comm, PROBES[k].bytes, k % nprocs, 100 + k, after);
        right_allreduce(comm, 5000, after);
        right_bcast(comm, PROBES[k].bytes * 3 + 1, (k + 1) % nprocs, 200 + k, after);
        call += 3;
    }
}

/* Calls that cannot end with an error: the job ends in the second. */
static void run_abort(MPI_Comm comm)
{
    size_t n = 4096;
    int *buf = tb_alloc(n * (size_t) nprocs * sizeof(int));

    MPI_Barrier(comm);
    for (size_t i = 0; i < n * (size_t) nprocs; ++i) {
        buf[i] = (int) i;
    }
    MPI_Alltoall(MPI_IN_PLACE, (int) n, MPI_INT, buf, (int) n, MPI_INT, comm);
    /* ranks the failing one never held up may have left the call: not all of them */
    MPI_Barrier(comm);
    tb_fail("the job went on after the alltoall");
    tb_free(buf);
}

/* ------------------------------------------------------------ main */

/* One mode on a communicator of its own, named for the verbose reports. */
static void run_alone(const char *name, void (*run)(MPI_Comm))
{
    MPI_Comm comm = tb_new_comm(name);
    run(comm);
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    size_t sizes[32] = { 40, 1000, 1024, 4099, 65536, 400000, 1 << 20, 4 << 20, 16 << 20 };
    int nsizes = 9, failures = 0, fatal = 0, scatterv = 0, allgatherv = 0, provided, opt, rc;

    tb_prog = "scc_hang";
    while ((opt = getopt(argc, argv, "a:s:fxvg")) != -1) {
        if ('a' == opt) only_algs = optarg;
        else if ('s' == opt) sizes_arg = optarg;
        else if ('f' == opt) failures = 1;
        else if ('x' == opt) fatal = 1;
        else if ('v' == opt) scatterv = 1;
        else if ('g' == opt) allgatherv = 1;
    }
    if (NULL != sizes_arg) {
        nsizes = 0;
        for (const char *p = sizes_arg; NULL != p && nsizes < 32; p = strchr(p, ',')) {
            p += ',' == *p;
            sizes[nsizes++] = (size_t) strtoull(p, NULL, 10);
        }
    }
    MPI_Init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    {
        MPI_Datatype one;
        MPI_Type_vector(1, 1, 2, MPI_BYTE, &one);
        MPI_Type_create_resized(one, 0, 2, &gap_type);
        MPI_Type_commit(&gap_type);
        MPI_Type_free(&one);
    }
    if (scatterv) {
        run_alone("hang scatterv", run_scatterv);
    } else if (allgatherv) {
        run_alone("hang allgatherv", run_allgatherv);
    } else if (fatal) {
        run_alone("hang abort", run_abort);
    } else if (failures) {
        run_alone("hang fault", run_failures);
    } else {
        char names[32][32] = { "none" }, cname[MPI_MAX_OBJECT_NAME];
        int values[32] = { -1 }, na = tb_algorithms("bcast", "fallback", names, values, 32);
        na = na > 0 ? na : 1;
        for (int a = 0; a < na; ++a) {
            MPI_Comm comm;
            if (!tb_listed(only_algs, names[a])) {
                continue;
            }
            if (values[a] >= 0 && 0 != tb_cvar_rw("coll_scc_bcast_algorithm", &values[a], 1)) {
                tb_fail("cannot force coll_scc_bcast_algorithm=%s through MPI_T", names[a]);
                continue;
            }
            snprintf(cname, sizeof(cname), "hang bcast %s", names[a]);
            comm = tb_new_comm(cname);
            run_mismatch(comm, names[a], sizes, nsizes);
            MPI_Comm_free(&comm);
            if (values[a] > 0) {
                int zero = 0;
                tb_cvar_rw("coll_scc_bcast_algorithm", &zero, 1);
            }
            if (0 == rank) {
                printf("hang-comm: (%s) done\n", cname);
                fflush(stdout);
            }
        }
    }
    MPI_Type_free(&gap_type);
    rc = tb_finish();
    MPI_T_finalize();
    MPI_Finalize();
    return rc;
}
