/* coll_scc_trace_entry.c: the per-phase trace's entry points (coll_scc_trace.h) -- they time
 * each call around the component's own -- and the summary per collective and size that a
 * communicator prints when it is freed. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* RUSAGE_THREAD */
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "coll_scc.h"
#include "coll_scc_trace.h"

#if defined(SCC_TRACE) && SCC_TRACE

/* Message sizes by bit length: 0, 1, 2-3, 4-7, ... */
#define SCC_TRACE_SIZES 48
/* Calls kept per bucket for the summary (the first ones: warm-up and checks included) */
#define SCC_TRACE_KEEP 4096

/* One call: its time and its phases. */
typedef struct scc_trace_rec {
    uint64_t ns;
    long faults;
    scc_trace_call_t ph;
} scc_trace_rec_t;

typedef struct scc_trace_bucket {
    uint64_t calls;
    uint64_t faults;                /* page faults of all calls */
    size_t bytes;                   /* the largest message seen */
    int alg;                        /* the algorithm of the calls, -1 when several */
    scc_trace_rec_t *rec;           /* the first SCC_TRACE_KEEP calls */
} scc_trace_bucket_t;

struct scc_trace {
    scc_trace_bucket_t b[SCC_COLL_COUNT][SCC_TRACE_SIZES];
};

/* One call in progress. */
typedef struct scc_trace_frame {
    scc_trace_call_t call;
    scc_trace_call_t *prev;
    uint64_t t0;
    long faults;
} scc_trace_frame_t;

static long scc_trace_faults(void)
{
    struct rusage ru;
    return 0 == getrusage(RUSAGE_THREAD, &ru) ? ru.ru_minflt + ru.ru_majflt : 0;
}

static void scc_trace_begin(mca_coll_scc_module_t *m, scc_trace_frame_t *f)
{
    memset(&f->call, 0, sizeof(f->call));
    f->prev = mca_coll_scc_trace_cur;
    m->cur_coll = SCC_COLL_COUNT;
    f->faults = scc_trace_faults();
    mca_coll_scc_trace_cur = &f->call;
    f->t0 = scc_trace_now();
}

static void scc_trace_end(mca_coll_scc_module_t *m, scc_trace_frame_t *f)
{
    uint64_t ns = scc_trace_now() - f->t0;
    long faults = scc_trace_faults() - f->faults;
    scc_trace_bucket_t *b;
    int k = 0;

    mca_coll_scc_trace_cur = f->prev;
    /* a call the component never looked at (a communicator declined at setup) */
    if (NULL == m->trace || m->cur_coll < 0 || m->cur_coll >= SCC_COLL_COUNT) {
        return;
    }
    while (k < SCC_TRACE_SIZES - 1 && (m->cur_bytes >> k) != 0) {
        k++;
    }
    b = &m->trace->b[m->cur_coll][k];
    if (0 == b->calls) {
        b->alg = m->cur_alg;
        b->rec = malloc(SCC_TRACE_KEEP * sizeof(*b->rec));
    } else if (b->alg != (int) m->cur_alg) {
        b->alg = -1;
    }
    if (NULL != b->rec && b->calls < SCC_TRACE_KEEP) {
        scc_trace_rec_t *r = &b->rec[b->calls];
        r->ns = ns;
        r->faults = faults;
        r->ph = f->call;
    }
    b->calls++;
    b->faults += faults > 0 ? (uint64_t) faults : 0;
    b->bytes = m->cur_bytes > b->bytes ? m->cur_bytes : b->bytes;
}

/* Entry points that time the component's own: one per collective, same arguments. */
#define SCC_TRACE_WRAP(name, params, args)                                       \
    static int scc_trace_##name params                                           \
    {                                                                            \
        mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;             \
        scc_trace_frame_t f;                                                     \
        int rc;                                                                  \
        scc_trace_begin(m, &f);                                                  \
        rc = mca_coll_scc_##name args;                                           \
        scc_trace_end(m, &f);                                                    \
        return rc;                                                               \
    }

SCC_TRACE_WRAP(bcast, (void *buff, int count, struct ompi_datatype_t *dtype, int root,
                       struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (buff, count, dtype, root, comm, module))
SCC_TRACE_WRAP(barrier, (struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (comm, module))
SCC_TRACE_WRAP(reduce, (const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                        struct ompi_op_t *op, int root, struct ompi_communicator_t *comm,
                        mca_coll_base_module_t *module),
               (sbuf, rbuf, count, dtype, op, root, comm, module))
SCC_TRACE_WRAP(allreduce, (const void *sbuf, void *rbuf, int count,
                           struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (sbuf, rbuf, count, dtype, op, comm, module))
SCC_TRACE_WRAP(alltoall, (const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                          void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module))
SCC_TRACE_WRAP(alltoallv, (const void *sbuf, const int *scounts, const int *sdispls,
                           struct ompi_datatype_t *sdtype, void *rbuf, const int *rcounts,
                           const int *rdispls, struct ompi_datatype_t *rdtype,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (sbuf, scounts, sdispls, sdtype, rbuf, rcounts, rdispls, rdtype, comm, module))
SCC_TRACE_WRAP(gather, (const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                        void *rbuf, int rcount, struct ompi_datatype_t *rdtype, int root,
                        struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (sbuf, scount, sdtype, rbuf, rcount, rdtype, root, comm, module))
SCC_TRACE_WRAP(scatter, (const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                         void *rbuf, int rcount, struct ompi_datatype_t *rdtype, int root,
                         struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (sbuf, scount, sdtype, rbuf, rcount, rdtype, root, comm, module))
SCC_TRACE_WRAP(allgather, (const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                           void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module))
SCC_TRACE_WRAP(reduce_scatter_block, (const void *sbuf, void *rbuf, int rcount,
                                      struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                      struct ompi_communicator_t *comm,
                                      mca_coll_base_module_t *module),
               (sbuf, rbuf, rcount, dtype, op, comm, module))
SCC_TRACE_WRAP(gatherv, (const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                         void *rbuf, const int *rcounts, const int *displs,
                         struct ompi_datatype_t *rdtype, int root,
                         struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype, root, comm, module))
SCC_TRACE_WRAP(scatterv, (const void *sbuf, const int *scounts, const int *displs,
                          struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                          struct ompi_datatype_t *rdtype, int root,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (sbuf, scounts, displs, sdtype, rbuf, rcount, rdtype, root, comm, module))
SCC_TRACE_WRAP(allgatherv, (const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                            void *rbuf, const int *rcounts, const int *displs,
                            struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                            mca_coll_base_module_t *module),
               (sbuf, scount, sdtype, rbuf, rcounts, displs, rdtype, comm, module))
SCC_TRACE_WRAP(reduce_scatter, (const void *sbuf, void *rbuf, const int *rcounts,
                                struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (sbuf, rbuf, rcounts, dtype, op, comm, module))
SCC_TRACE_WRAP(scan, (const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                      struct ompi_op_t *op, struct ompi_communicator_t *comm,
                      mca_coll_base_module_t *module),
               (sbuf, rbuf, count, dtype, op, comm, module))
SCC_TRACE_WRAP(exscan, (const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype,
                        struct ompi_op_t *op, struct ompi_communicator_t *comm,
                        mca_coll_base_module_t *module),
               (sbuf, rbuf, count, dtype, op, comm, module))
SCC_TRACE_WRAP(alltoallw, (const void *sbuf, const int *scounts, const int *sdispls,
                           struct ompi_datatype_t *const *sdtypes, void *rbuf,
                           const int *rcounts, const int *rdispls,
                           struct ompi_datatype_t *const *rdtypes,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module),
               (sbuf, scounts, sdispls, sdtypes, rbuf, rcounts, rdispls, rdtypes, comm, module))

void mca_coll_scc_trace_install(mca_coll_scc_module_t *m)
{
    m->trace = calloc(1, sizeof(*m->trace));
    if (NULL == m->trace) {
        return;
    }
#define SCC_TRACE_SET(name, id) SCC_COLL_PROVIDE(&m->super, name, scc_trace_##name);
    SCC_FOREACH_COLL(SCC_TRACE_SET)
#undef SCC_TRACE_SET
}

static int scc_rec_cmp(const void *a, const void *b)
{
    uint64_t x = ((const scc_trace_rec_t *) a)->ns, y = ((const scc_trace_rec_t *) b)->ns;
    return x < y ? -1 : x > y;
}

/* GB/s of a phase (bytes per ns), 0 without time. */
static double scc_rate(const double *ns, const double *bytes, int p)
{
    return ns[p] > 0 ? bytes[p] / ns[p] : 0.0;
}

/* One line per bucket: the calls between the 25th and 75th percentile of their time (a
 * busy machine delays some calls a hundredfold), their mean time and phases -- which add up
 * to it with "other" (the code between the phases) -- and the median. */
static void scc_trace_line(mca_coll_scc_module_t *m, int c, scc_trace_bucket_t *b)
{
    size_t n = b->calls < SCC_TRACE_KEEP ? b->calls : SCC_TRACE_KEEP;
    size_t lo = n / 4, hi = n - n / 4, k = hi - lo;
    double ns = 0, faults = 0, ph[SCC_PH_COUNT] = { 0 }, by[SCC_PH_COUNT] = { 0 };
    double ops[SCC_PH_COUNT] = { 0 }, phases = 0;

    qsort(b->rec, n, sizeof(*b->rec), scc_rec_cmp);
    for (size_t i = lo; i < hi; ++i) {
        ns += b->rec[i].ns;
        faults += b->rec[i].faults;
        for (int p = 0; p < SCC_PH_COUNT; ++p) {
            ph[p] += b->rec[i].ph.ns[p];
            by[p] += b->rec[i].ph.bytes[p];
            ops[p] += b->rec[i].ph.ops[p];
        }
    }
    for (int p = 0; p < SCC_PH_COUNT; ++p) {
        phases += ph[p];
    }
    SCC_VERBOSE(0, "coll:scc: trace comm %u (%s) rank %d size %d: %s %zu B %s: %llu calls, "
                "median %.2f us, p25-p75 mean %.2f us = read %.2f (%.0f KB %.1f GB/s x%.1f) + "
                "wait %.2f (x%.1f) + combine %.2f (%.0f KB %.1f GB/s) + copy %.2f (%.0f KB "
                "%.1f GB/s) + other %.2f; faults %.1f per call, %llu in all",
                m->cid, m->name, m->rank, m->size, scc_coll_name((scc_coll_t) c), b->bytes,
                b->alg < 0 ? "(several)" : scc_alg_name((scc_alg_t) b->alg),
                (unsigned long long) b->calls, b->rec[n / 2].ns / 1e3, ns / k / 1e3,
                ph[SCC_PH_READ] / k / 1e3, by[SCC_PH_READ] / k / 1024,
                scc_rate(ph, by, SCC_PH_READ), ops[SCC_PH_READ] / k,
                ph[SCC_PH_WAIT] / k / 1e3, ops[SCC_PH_WAIT] / k,
                ph[SCC_PH_COMBINE] / k / 1e3, by[SCC_PH_COMBINE] / k / 1024,
                scc_rate(ph, by, SCC_PH_COMBINE), ph[SCC_PH_COPY] / k / 1e3,
                by[SCC_PH_COPY] / k / 1024, scc_rate(ph, by, SCC_PH_COPY),
                ns > phases ? (ns - phases) / k / 1e3 : 0.0, faults / k,
                (unsigned long long) b->faults);
}

void mca_coll_scc_trace_report(mca_coll_scc_module_t *m)
{
    if (NULL == m->trace) {
        return;
    }
    for (int c = 0; c < SCC_COLL_COUNT; ++c) {
        for (int k = 0; k < SCC_TRACE_SIZES; ++k) {
            scc_trace_bucket_t *b = &m->trace->b[c][k];
            if (b->calls > 0 && NULL != b->rec) {
                scc_trace_line(m, c, b);
            }
            free(b->rec);
        }
    }
    free(m->trace);
    m->trace = NULL;
}

#else

void mca_coll_scc_trace_install(mca_coll_scc_module_t *m)
{
    (void) m;
}

void mca_coll_scc_trace_report(mca_coll_scc_module_t *m)
{
    (void) m;
}

#endif
