/* scc_forms.h: a test's blocking collective calls made in another form -- nonblocking
 * (MPI_Ibcast, then a test loop or a wait) or persistent (MPI_Bcast_init, MPI_Start, wait,
 * free) -- chosen at run time (scc_form), so every case of the test runs in every form.
 * Include after mpi.h and before the calls; persistent forms need MPI 4 or Open MPI's
 * pcollreq extension (MPIX_*_init). */
#ifndef SCC_FORMS_H
#define SCC_FORMS_H

#include "scc_pinit.h"

enum { SCC_FORM_BLOCKING = 0, SCC_FORM_NONBLOCKING, SCC_FORM_PERSISTENT };
static int scc_form;
static unsigned scc_form_calls;

/* Ends a nonblocking call: every other one by MPI_Test in a loop, the rest by MPI_Wait. */
static int scc_form_wait(MPI_Request *r)
{
    int flag = 0, rc = MPI_SUCCESS;
    if (scc_form_calls++ & 1) {
        while (MPI_SUCCESS == rc && !flag) {
            rc = MPI_Test(r, &flag, MPI_STATUS_IGNORE);
        }
        return rc;
    }
    return MPI_Wait(r, MPI_STATUS_IGNORE);
}

/* Starts a persistent call once, waits for it and frees it. */
static int scc_form_start(MPI_Request *r)
{
    int rc = MPI_Start(r);
    if (MPI_SUCCESS == rc) {
        rc = scc_form_wait(r);
    }
    if (MPI_REQUEST_NULL != *r) {
        MPI_Request_free(r);
    }
    return rc;
}

#define SCC_UNPAREN(...) __VA_ARGS__
#if SCC_HAVE_PERSISTENT
#define SCC_FORM_INIT_CALL(Name, ARGS)                                           \
    if (SCC_FORM_PERSISTENT == scc_form) {                                       \
        rc = SCC_PINIT(Name)(SCC_UNPAREN ARGS, comm, MPI_INFO_NULL, &r);         \
        return MPI_SUCCESS == rc ? scc_form_start(&r) : rc;                      \
    }
#else
#define SCC_FORM_INIT_CALL(Name, ARGS)
#endif

/* scc_t_<Name>: MPI_<Name> in the form the test runs */
#define SCC_FORM_WRAP(Name, IName, PARAMS, ARGS)                                 \
    static inline int scc_t_##Name(SCC_UNPAREN PARAMS, MPI_Comm comm)            \
    {                                                                            \
        MPI_Request r;                                                           \
        int rc;                                                                  \
        if (SCC_FORM_NONBLOCKING == scc_form) {                                  \
            rc = IName(SCC_UNPAREN ARGS, comm, &r);                              \
            return MPI_SUCCESS == rc ? scc_form_wait(&r) : rc;                   \
        }                                                                        \
        SCC_FORM_INIT_CALL(Name, ARGS)                                           \
        return MPI_##Name(SCC_UNPAREN ARGS, comm);                               \
    }

SCC_FORM_WRAP(Bcast, MPI_Ibcast, (void *b, int n, MPI_Datatype t, int root), (b, n, t, root))
SCC_FORM_WRAP(Reduce, MPI_Ireduce,
              (const void *s, void *b, int n, MPI_Datatype t, MPI_Op op, int root),
              (s, b, n, t, op, root))
SCC_FORM_WRAP(Allreduce, MPI_Iallreduce, (const void *s, void *b, int n, MPI_Datatype t, MPI_Op op),
              (s, b, n, t, op))
SCC_FORM_WRAP(Scan, MPI_Iscan, (const void *s, void *b, int n, MPI_Datatype t, MPI_Op op),
              (s, b, n, t, op))
SCC_FORM_WRAP(Exscan, MPI_Iexscan, (const void *s, void *b, int n, MPI_Datatype t, MPI_Op op),
              (s, b, n, t, op))
SCC_FORM_WRAP(Reduce_scatter_block, MPI_Ireduce_scatter_block,
              (const void *s, void *b, int n, MPI_Datatype t, MPI_Op op), (s, b, n, t, op))
SCC_FORM_WRAP(Reduce_scatter, MPI_Ireduce_scatter,
              (const void *s, void *b, const int *n, MPI_Datatype t, MPI_Op op), (s, b, n, t, op))
SCC_FORM_WRAP(Gather, MPI_Igather,
              (const void *s, int sn, MPI_Datatype st, void *b, int n, MPI_Datatype t, int root),
              (s, sn, st, b, n, t, root))
SCC_FORM_WRAP(Scatter, MPI_Iscatter,
              (const void *s, int sn, MPI_Datatype st, void *b, int n, MPI_Datatype t, int root),
              (s, sn, st, b, n, t, root))
SCC_FORM_WRAP(Allgather, MPI_Iallgather,
              (const void *s, int sn, MPI_Datatype st, void *b, int n, MPI_Datatype t),
              (s, sn, st, b, n, t))
SCC_FORM_WRAP(Alltoall, MPI_Ialltoall,
              (const void *s, int sn, MPI_Datatype st, void *b, int n, MPI_Datatype t),
              (s, sn, st, b, n, t))
SCC_FORM_WRAP(Gatherv, MPI_Igatherv,
              (const void *s, int sn, MPI_Datatype st, void *b, const int *n, const int *d,
               MPI_Datatype t, int root),
              (s, sn, st, b, n, d, t, root))
SCC_FORM_WRAP(Scatterv, MPI_Iscatterv,
              (const void *s, const int *sn, const int *sd, MPI_Datatype st, void *b, int n,
               MPI_Datatype t, int root),
              (s, sn, sd, st, b, n, t, root))
SCC_FORM_WRAP(Allgatherv, MPI_Iallgatherv,
              (const void *s, int sn, MPI_Datatype st, void *b, const int *n, const int *d,
               MPI_Datatype t),
              (s, sn, st, b, n, d, t))
SCC_FORM_WRAP(Alltoallv, MPI_Ialltoallv,
              (const void *s, const int *sn, const int *sd, MPI_Datatype st, void *b,
               const int *n, const int *d, MPI_Datatype t),
              (s, sn, sd, st, b, n, d, t))
SCC_FORM_WRAP(Alltoallw, MPI_Ialltoallw,
              (const void *s, const int *sn, const int *sd, const MPI_Datatype *st, void *b,
               const int *n, const int *d, const MPI_Datatype *t),
              (s, sn, sd, st, b, n, d, t))

static inline int scc_t_Barrier(MPI_Comm comm)
{
    MPI_Request r;
    int rc;
    if (SCC_FORM_NONBLOCKING == scc_form) {
        rc = MPI_Ibarrier(comm, &r);
        return MPI_SUCCESS == rc ? scc_form_wait(&r) : rc;
    }
#if SCC_HAVE_PERSISTENT
    if (SCC_FORM_PERSISTENT == scc_form) {
        rc = SCC_PINIT(Barrier)(comm, MPI_INFO_NULL, &r);
        return MPI_SUCCESS == rc ? scc_form_start(&r) : rc;
    }
#endif
    return MPI_Barrier(comm);
}

/* From here on, the test's blocking calls take the form chosen. */
#define MPI_Bcast scc_t_Bcast
#define MPI_Reduce scc_t_Reduce
#define MPI_Allreduce scc_t_Allreduce
#define MPI_Scan scc_t_Scan
#define MPI_Exscan scc_t_Exscan
#define MPI_Reduce_scatter_block scc_t_Reduce_scatter_block
#define MPI_Reduce_scatter scc_t_Reduce_scatter
#define MPI_Gather scc_t_Gather
#define MPI_Scatter scc_t_Scatter
#define MPI_Allgather scc_t_Allgather
#define MPI_Alltoall scc_t_Alltoall
#define MPI_Gatherv scc_t_Gatherv
#define MPI_Scatterv scc_t_Scatterv
#define MPI_Allgatherv scc_t_Allgatherv
#define MPI_Alltoallv scc_t_Alltoallv
#define MPI_Alltoallw scc_t_Alltoallw
#define MPI_Barrier scc_t_Barrier

/* Reads the form from argv[1] ("i": nonblocking, "init": persistent) and takes it out of
 * the arguments; false when persistent forms are asked for but not available. */
static inline int scc_form_args(int *argc, char **argv)
{
    const char *f = *argc > 1 ? argv[1] : "";
    int take = 1;
    if (0 == strcmp(f, "i")) {
        scc_form = SCC_FORM_NONBLOCKING;
    } else if (0 == strcmp(f, "init")) {
        scc_form = SCC_FORM_PERSISTENT;
        if (!SCC_HAVE_PERSISTENT) {
            return 0;
        }
    } else {
        take = 0;
    }
    if (take) {
        for (int i = 1; i + 1 <= *argc; ++i) {
            argv[i] = argv[i + 1];
        }
        --*argc;
    }
    return 1;
}

#endif /* SCC_FORMS_H */
