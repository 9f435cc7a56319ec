/* scc_bench_colls.c: the collectives scc_bench knows -- their buffers, inputs, calls and the
 * values their outputs must hold, computed locally from the pattern every rank can compute.
 *
 * Sizes are bytes of MPI_INT data per process and call, as OSU and IMB count them: the buffer
 * (bcast), the vector (reduce, allreduce, scan, exscan), the block per peer (alltoall,
 * alltoallv, alltoallw) or per rank (gather, scatter, allgather and their v forms, and the
 * block each rank receives in reduce_scatter_block and reduce_scatter).  The v and w forms
 * take uniform layouts: every count the size, displacements contiguous in rank order, every
 * type MPI_INT.  Reductions are MPI_SUM.  MPI_IN_PLACE is never used. */
#include "scc_bench.h"
#include "../mpi/scc_pinit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON ((int32_t) 0xA5A5A5A5)   /* never a pattern value (those are in [0, 1e6)) */

const char *const coll_names[C_COUNT] = {
    "bcast", "barrier", "reduce", "allreduce", "alltoall", "alltoallv", "gather", "scatter",
    "allgather", "reduce_scatter_block",
    "gatherv", "scatterv", "allgatherv", "reduce_scatter", "scan", "exscan", "alltoallw",
    "memcpy", "xcopy"
};

/* The layouts of the v and w forms (alltoallv as OSU's osu_alltoallv: equal blocks). */
static int *counts, *displs;          /* elements */
static int *wdispls;                  /* alltoallw: bytes */
static MPI_Datatype *wtypes;

/* The pattern: what rank q holds at input element e.  Elements at the stamp positions of
 * each block (first, middle, last) carry the salt of the current iteration, the others the
 * base salt of the measurement. */
static int base_salt, stamp_salt;
static size_t blk;                    /* elements per block */

static int32_t pattern(int q, size_t e, int salt)
{
    uint32_t x = (uint32_t) q * 0x9E3779B1u ^ (uint32_t) e * 0x85EBCA77u ^ (uint32_t) salt * 0xC2B2AE3Du;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    x *= 0x297A2D39u;
    x ^= x >> 15;
    return (int32_t) (x % 1000000u);  /* sums over up to 2000 ranks fit in an int */
}

static int is_stamp(size_t k)
{
    return 0 == k || blk / 2 == k || blk - 1 == k;
}

static int32_t src(int q, size_t e)
{
    return pattern(q, e, is_stamp(e % blk) ? stamp_salt : base_salt);
}

int is_rooted(int coll)
{
    return C_BCAST == coll || C_REDUCE == coll || C_GATHER == coll || C_SCATTER == coll ||
        C_GATHERV == coll || C_SCATTERV == coll;
}

/* memcpy and xcopy: no collectives, so no coll/scc algorithms to force */
int is_floor(int coll)
{
    return C_MEMCPY == coll || C_XCOPY == coll;
}

void layouts_alloc(void)
{
    size_t n = (size_t) nprocs;
    counts = malloc(n * sizeof(int));
    displs = malloc(n * sizeof(int));
    wdispls = malloc(n * sizeof(int));
    wtypes = malloc(n * sizeof(MPI_Datatype));
    if (NULL == counts || NULL == displs || NULL == wdispls || NULL == wtypes) {
        die("out of memory");
    }
}

void layouts_free(void)
{
    free(counts);
    free(displs);
    free(wdispls);
    free(wtypes);
}

/* Uniform layouts of c elements per rank. */
void layouts_set(size_t c)
{
    for (int p = 0; p < nprocs; ++p) {
        counts[p] = (int) c;
        displs[p] = (int) (c * (size_t) p);
        wdispls[p] = (int) (c * (size_t) p * sizeof(int32_t));
        wtypes[p] = MPI_INT;
    }
}

void sizes_of(meas_t *m)
{
    size_t c = m->c, n = (size_t) nprocs;
    switch (m->coll) {
    case C_BCAST:     m->sn = 0;     m->rn = c;     break;  /* the buffer is rbuf everywhere */
    case C_BARRIER:   m->sn = 0;     m->rn = 0;     break;
    case C_REDUCE:
    case C_ALLREDUCE:
    case C_SCAN:
    case C_EXSCAN:    m->sn = c;     m->rn = c;     break;
    case C_ALLTOALL:
    case C_ALLTOALLV:
    case C_ALLTOALLW: m->sn = n * c; m->rn = n * c; break;
    case C_GATHER:
    case C_GATHERV:
    case C_ALLGATHER:
    case C_ALLGATHERV: m->sn = c;    m->rn = n * c; break;
    case C_MEMCPY:
    case C_XCOPY:     m->sn = c;     m->rn = c;     break;
    case C_SCATTER:
    case C_SCATTERV:
    case C_REDUCE_SCATTER:
    case C_REDUCE_SCATTER_BLOCK: m->sn = n * c; m->rn = c; break;
    }
}

/* Whether this rank's input matters (and so is filled and stamped). */
static int has_input(const meas_t *m)
{
    if (C_BCAST == m->coll || C_SCATTER == m->coll || C_SCATTERV == m->coll) {
        return rank == m->root;
    }
    return C_BARRIER != m->coll;
}

/* Whether this rank's output is defined (and so is checked): exscan leaves rank 0's alone. */
static int has_output(const meas_t *m)
{
    if (C_REDUCE == m->coll || C_GATHER == m->coll || C_GATHERV == m->coll) {
        return rank == m->root;
    }
    if (C_EXSCAN == m->coll) {
        return 0 != rank;
    }
    return C_BARRIER != m->coll;
}

static int32_t *input_of(const meas_t *m)
{
    return C_BCAST == m->coll ? rbuf : sbuf;
}

static size_t input_elems(const meas_t *m)
{
    return C_BCAST == m->coll ? m->c : m->sn;
}

/* Sum over ranks [lo, hi) of input element e. */
static int32_t sum_of(int lo, int hi, size_t e)
{
    int32_t sum = 0;
    for (int q = lo; q < hi; ++q) {
        sum += src(q, e);
    }
    return sum;
}

/* The value output element o of this rank must hold. */
static int32_t expected(const meas_t *m, size_t o)
{
    size_t c = m->c, b = o / c, k = o % c;
    switch (m->coll) {
    case C_BCAST:
        return src(m->root, o);
    case C_REDUCE:
    case C_ALLREDUCE:
        return sum_of(0, nprocs, o);
    case C_SCAN:
        return sum_of(0, rank + 1, o);
    case C_EXSCAN:
        return sum_of(0, rank, o);
    case C_ALLTOALL:
    case C_ALLTOALLV:
    case C_ALLTOALLW:                   /* block b came from rank b, its block for me */
        return src((int) b, (size_t) rank * c + k);
    case C_GATHER:
    case C_GATHERV:
    case C_ALLGATHER:
    case C_ALLGATHERV:
        return src((int) b, k);
    case C_SCATTER:
    case C_SCATTERV:
        return src(m->root, (size_t) rank * c + k);
    case C_REDUCE_SCATTER_BLOCK:
    case C_REDUCE_SCATTER:
        return sum_of(0, nprocs, (size_t) rank * c + k);
    case C_MEMCPY:
        return src(rank, o);
    case C_XCOPY:
        return src((rank + 1) % nprocs, o);
    }
    return 0;
}

/* Starts a measurement: salts, inputs filled with the pattern, outputs poisoned. */
void prepare(const meas_t *m, int salt)
{
    base_salt = stamp_salt = salt;
    blk = m->c ? m->c : 1;
    if (has_input(m)) {
        int32_t *in = input_of(m);
        for (size_t e = 0; e < input_elems(m); ++e) {
            in[e] = src(rank, e);
        }
    }
    if (has_output(m) && !(C_BCAST == m->coll && rank == m->root)) {
        for (size_t o = 0; o < m->rn; ++o) {
            rbuf[o] = POISON;
        }
    }
}

#if SCC_HAVE_PERSISTENT
#define FORM_P_CALL(Name, ...) SCC_PINIT(Name)(__VA_ARGS__, MPI_INFO_NULL, &preq)
#else
#define FORM_P_CALL(Name, ...) (die("persistent collectives need MPI 4 or Open MPI's pcollreq"), 0)
#endif

/* The persistent request of the measurement, made at its first call */
static MPI_Request preq = MPI_REQUEST_NULL;

/* MPI_<Name> in the form of the run (-F) */
#define FORM(Name, IName, ...)                                                   \
    do {                                                                         \
        MPI_Request req_;                                                        \
        if (FORM_B == form) {                                                    \
            (void) MPI_##Name(__VA_ARGS__);                                      \
        } else if (FORM_I == form) {                                             \
            (void) MPI_##IName(__VA_ARGS__, &req_);                              \
            (void) MPI_Wait(&req_, MPI_STATUS_IGNORE);                           \
        } else {                                                                 \
            if (MPI_REQUEST_NULL == preq) {                                      \
                (void) FORM_P_CALL(Name, __VA_ARGS__);                           \
            }                                                                    \
            (void) MPI_Start(&preq);                                             \
            (void) MPI_Wait(&preq, MPI_STATUS_IGNORE);                           \
        }                                                                        \
    } while (0)

void run_coll(const meas_t *m)
{
    int c = (int) m->c;
    switch (m->coll) {
    case C_BCAST:
        FORM(Bcast, Ibcast, rbuf, c, MPI_INT, m->root, m->comm);
        break;
    case C_BARRIER:
        FORM(Barrier, Ibarrier, m->comm);
        break;
    case C_REDUCE:
        FORM(Reduce, Ireduce, sbuf, rbuf, c, MPI_INT, MPI_SUM, m->root, m->comm);
        break;
    case C_ALLREDUCE:
        FORM(Allreduce, Iallreduce, sbuf, rbuf, c, MPI_INT, MPI_SUM, m->comm);
        break;
    case C_ALLTOALL:
        FORM(Alltoall, Ialltoall, sbuf, c, MPI_INT, rbuf, c, MPI_INT, m->comm);
        break;
    case C_ALLTOALLV:
        FORM(Alltoallv, Ialltoallv, sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT,
             m->comm);
        break;
    case C_GATHER:
        FORM(Gather, Igather, sbuf, c, MPI_INT, rbuf, c, MPI_INT, m->root, m->comm);
        break;
    case C_SCATTER:
        FORM(Scatter, Iscatter, sbuf, c, MPI_INT, rbuf, c, MPI_INT, m->root, m->comm);
        break;
    case C_ALLGATHER:
        FORM(Allgather, Iallgather, sbuf, c, MPI_INT, rbuf, c, MPI_INT, m->comm);
        break;
    case C_REDUCE_SCATTER_BLOCK:
        FORM(Reduce_scatter_block, Ireduce_scatter_block, sbuf, rbuf, c, MPI_INT, MPI_SUM, m->comm);
        break;
    case C_GATHERV:
        FORM(Gatherv, Igatherv, sbuf, c, MPI_INT, rbuf, counts, displs, MPI_INT, m->root, m->comm);
        break;
    case C_SCATTERV:
        FORM(Scatterv, Iscatterv, sbuf, counts, displs, MPI_INT, rbuf, c, MPI_INT, m->root,
             m->comm);
        break;
    case C_ALLGATHERV:
        FORM(Allgatherv, Iallgatherv, sbuf, c, MPI_INT, rbuf, counts, displs, MPI_INT, m->comm);
        break;
    case C_REDUCE_SCATTER:
        FORM(Reduce_scatter, Ireduce_scatter, sbuf, rbuf, counts, MPI_INT, MPI_SUM, m->comm);
        break;
    case C_SCAN:
        FORM(Scan, Iscan, sbuf, rbuf, c, MPI_INT, MPI_SUM, m->comm);
        break;
    case C_EXSCAN:
        FORM(Exscan, Iexscan, sbuf, rbuf, c, MPI_INT, MPI_SUM, m->comm);
        break;
    case C_ALLTOALLW:
        FORM(Alltoallw, Ialltoallw, sbuf, counts, wdispls, wtypes, rbuf, counts, wdispls, wtypes,
             m->comm);
        break;
    case C_MEMCPY:
        memcpy(rbuf, sbuf, (size_t) c * sizeof(int32_t));
        break;
    case C_XCOPY:
        memcpy(rbuf, xright, (size_t) c * sizeof(int32_t));
        break;
    }
}

void run_coll_end(void)
{
    if (MPI_REQUEST_NULL != preq) {
        MPI_Request_free(&preq);
    }
}

/* Writes the stamp positions of every input block with the salt of this iteration. */
void stamp_inputs(const meas_t *m, int salt)
{
    int32_t *in = input_of(m);
    size_t n = input_elems(m);
    stamp_salt = salt;
    if (!has_input(m)) {
        return;
    }
    for (size_t b0 = 0; b0 < n; b0 += m->c) {
        in[b0] = src(rank, b0);
        in[b0 + m->c / 2] = src(rank, b0 + m->c / 2);
        in[b0 + m->c - 1] = src(rank, b0 + m->c - 1);
    }
}

/* Whether output element o holds what it must; reports the first few that do not. */
static int check_one(const meas_t *m, size_t o, long bad, int report)
{
    int32_t want = expected(m, o);
    if (rbuf[o] == want) {
        return 1;
    }
    if (report && bad < 3) {
        char root[24] = "";
        if (is_rooted(m->coll)) {
            snprintf(root, sizeof(root), " root %d", m->root);
        }
        fprintf(stderr, "scc_bench: rank %d: FAIL: %s%s %zu bytes: element %zu is %d, expected "
                "%d\n", rank, coll_names[m->coll], root, m->c * sizeof(int32_t), o,
                (int) rbuf[o], (int) want);
    }
    return 0;
}

/* Number of wrong output elements (at the stamp positions of each block, or all of them). */
long check_outputs(const meas_t *m, int all, int report)
{
    long bad = 0;
    if (!has_output(m)) {
        return 0;
    }
    if (all) {
        for (size_t o = 0; o < m->rn; ++o) {
            bad += !check_one(m, o, bad, report);
        }
        return bad;
    }
    for (size_t b0 = 0; b0 < m->rn; b0 += m->c) {
        bad += !check_one(m, b0, bad, report);
        bad += !check_one(m, b0 + m->c / 2, bad, report);
        bad += !check_one(m, b0 + m->c - 1, bad, report);
    }
    return bad;
}
