/* scc_nbc.c: nonblocking and persistent collectives as applications use them -- many
 * outstanding at once on one communicator and on several, ended in every order the standard
 * allows (in order, reversed, by MPI_Testsome, each rank its own way), mixed with blocking
 * collectives and with point-to-point messages that a blocking start would deadlock on,
 * requests freed while active, datatypes and communicators freed right after the start,
 * every function that ends a request (the handle, index and count each returns),
 * persistent requests started thousands of times and by MPI_Startall, a sparse alltoallv whose
 * last rank to start can end it at once, ibarriers with a late rank, large calls (not tried
 * on the caller's stack); with -t, also two threads at once, each with its communicator
 * (MPI_THREAD_MULTIPLE); with -r, only allreduces whose tries let pieces out, then are
 * abandoned (run with small slots).  Every result checked element by element. */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "scc_test.h"
#include "scc_forms.h"

#define NOPS 7
static int rank, size;

/* One nonblocking operation of kind k on comm, its buffers, and its check. */
typedef struct {
    int kind, count, root, salt;
    int *in, *out;
    MPI_Request req;
} op_t;

static const char *const kind_name[NOPS] = { "ibcast", "iallreduce", "ialltoall", "igather",
                                             "iallgather", "ireduce_scatter_block", "ibarrier" };

static void op_start(op_t *o, int kind, int count, int salt, MPI_Comm comm)
{
    int n, me;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    o->kind = kind;
    o->count = count;
    o->salt = salt;
    o->root = salt % n;
    o->in = malloc(sizeof(int) * (size_t) count * n + 4);
    o->out = malloc(sizeof(int) * (size_t) count * n + 4);
    for (size_t i = 0; i < (size_t) count * n; ++i) {
        o->in[i] = tb_val(me, i, salt);
        o->out[i] = -1;
    }
    switch (kind) {
    case 0:
        if (me != o->root) {
            memset(o->in, 0, sizeof(int) * (size_t) count);
        }
        MPI_Ibcast(o->in, count, MPI_INT, o->root, comm, &o->req);
        break;
    case 1:
        MPI_Iallreduce(o->in, o->out, count, MPI_INT, MPI_SUM, comm, &o->req);
        break;
    case 2:
        MPI_Ialltoall(o->in, count, MPI_INT, o->out, count, MPI_INT, comm, &o->req);
        break;
    case 3:
        MPI_Igather(o->in, count, MPI_INT, o->out, count, MPI_INT, o->root, comm, &o->req);
        break;
    case 4:
        MPI_Iallgather(o->in, count, MPI_INT, o->out, count, MPI_INT, comm, &o->req);
        break;
    case 5:
        MPI_Ireduce_scatter_block(o->in, o->out, count, MPI_INT, MPI_SUM, comm, &o->req);
        break;
    default:
        MPI_Ibarrier(comm, &o->req);
        break;
    }
}

/* Checks o's result (its request ended) and frees its buffers. */
static void op_check(op_t *o, MPI_Comm comm, const char *where)
{
    int n, me, bad = -1;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    tb_case();
    for (size_t i = 0; i < (size_t) o->count && bad < 0; ++i) {
        int32_t want = 0;
        switch (o->kind) {
        case 0:
            bad = o->in[i] != tb_val(o->root, i, o->salt) ? (int) i : -1;
            break;
        case 1:
            for (int r = 0; r < n; ++r) {
                want += tb_val(r, i, o->salt);
            }
            bad = o->out[i] != want ? (int) i : -1;
            break;
        case 2:
            for (int r = 0; r < n && bad < 0; ++r) {
                bad = o->out[r * o->count + i] != tb_val(r, me * o->count + i, o->salt)
                          ? (int) i : -1;
            }
            break;
        case 3:
        case 4:
            for (int r = 0; r < n && bad < 0 && (4 == o->kind || me == o->root); ++r) {
                bad = o->out[r * o->count + i] != tb_val(r, i, o->salt) ? (int) i : -1;
            }
            break;
        case 5:
            for (int r = 0; r < n; ++r) {
                want += tb_val(r, me * o->count + i, o->salt);
            }
            bad = o->out[i] != want ? (int) i : -1;
            break;
        default:
            break;
        }
    }
    if (bad >= 0) {
        tb_fail("%s: %s of %d ints (salt %d): element %d wrong", where, kind_name[o->kind],
                o->count, o->salt, bad);
    }
    free(o->in);
    free(o->out);
}

/* K operations of every kind outstanding on comm, ended in order `how`. */
static void many_outstanding(MPI_Comm comm, const char *name, int count, int how, int salt)
{
    op_t ops[3 * NOPS];
    MPI_Request reqs[3 * NOPS];
    int k = 3 * NOPS, left = k, idx[3 * NOPS], nd;
    char where[128];

    for (int i = 0; i < k; ++i) {
        op_start(&ops[i], i % NOPS, count, salt + i, comm);
        reqs[i] = ops[i].req;
    }
    snprintf(where, sizeof(where), "%s, %d outstanding, %d ints, end %d", name, k, count, how);
    switch (how) {
    case 0:     /* all at once */
        MPI_Waitall(k, reqs, MPI_STATUSES_IGNORE);
        break;
    case 1:     /* one by one, the last started first */
        for (int i = k - 1; i >= 0; --i) {
            MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
        }
        break;
    case 2:     /* in whatever order they end, each rank polling its own way */
        while (left > 0) {
            MPI_Testsome(k, reqs, &nd, idx, MPI_STATUSES_IGNORE);
            if (MPI_UNDEFINED == nd) {
                break;
            }
            left -= nd;
        }
        break;
    default:    /* even ranks from the end, odd ranks from the start */
        for (int i = 0; i < k; ++i) {
            MPI_Wait(&reqs[rank % 2 ? i : k - 1 - i], MPI_STATUS_IGNORE);
        }
        break;
    }
    for (int i = 0; i < k; ++i) {
        op_check(&ops[i], comm, where);
    }
}

/* Two communicators, each rank ending them in its own order. */
static void two_comms(MPI_Comm a, MPI_Comm b, int count)
{
    op_t x, y;
    op_start(&x, 1, count, 11, a);
    op_start(&y, 1, count, 12, b);
    if (rank % 2) {
        MPI_Wait(&x.req, MPI_STATUS_IGNORE);
        MPI_Wait(&y.req, MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(&y.req, MPI_STATUS_IGNORE);
        MPI_Wait(&x.req, MPI_STATUS_IGNORE);
    }
    op_check(&x, a, "two communicators, first");
    op_check(&y, b, "two communicators, second");
}

/* A chain of messages each rank sends only after starting the collective: a start that
 * waited for the other ranks would never return. */
static void start_is_local(MPI_Comm comm, int kind, int count)
{
    op_t o;
    int token = 0, n, me;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    if (me > 0) {
        MPI_Recv(&token, 1, MPI_INT, me - 1, 5, comm, MPI_STATUS_IGNORE);
    }
    op_start(&o, kind, count, 21 + kind, comm);
    if (me < n - 1) {
        MPI_Send(&token, 1, MPI_INT, me + 1, 5, comm);
    }
    MPI_Wait(&o.req, MPI_STATUS_IGNORE);
    op_check(&o, comm, "start before the chain of sends");
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* MPI_Ibarrier, whose try raises its flags at once: back to back (some end where they are
 * tried), then with one rank late in turn -- nobody's request ends before the late rank
 * started its call. */
static void ibarriers(void)
{
    MPI_Comm comm;
    MPI_Request r;
    int n, me, bad = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_name(comm, "scc_ibarrier");
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    for (int i = 0; i < 500; ++i) {
        MPI_Ibarrier(comm, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < 4 * n; ++i) {
        int late = i % n;
        double t_in, t_out;
        tb_case();
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == late) {
            usleep(2000);
        }
        t_in = now_s();
        MPI_Ibarrier(comm, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        t_out = now_s();
        MPI_Bcast(&t_in, 1, MPI_DOUBLE, late, MPI_COMM_WORLD);
        bad += t_out < t_in;
    }
    if (bad > 0) {
        tb_fail("ibarrier: %d calls ended before the late rank started its own", bad);
    }
    MPI_Comm_free(&comm);
}

/* Every way MPI ends one request -- MPI_Wait, MPI_Test, MPI_Waitany, MPI_Testany,
 * MPI_Waitsome, MPI_Testsome, MPI_Request_get_status then MPI_Wait -- on calls that end at
 * their start (the empty request) and on calls a late rank makes tasks: the handle comes back
 * MPI_REQUEST_NULL, the index 0, the count 1; MPI_Request_get_status leaves it as it is. */
static void completion_forms(MPI_Comm comm, int count)
{
    int me, n;
    char where[128];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    for (int late = 0; late < 2; ++late) {
        for (int form = 0; form < 7 * NOPS; ++form) {
            op_t o;
            MPI_Status st;
            int flag = 0, idx = -1, nd = -1, ix[1] = { -1 }, got = 1, bad = 0;
            snprintf(where, sizeof(where), "completion form %d%s, %d ints", form / NOPS,
                     late ? " with a late rank" : "", count);
            MPI_Barrier(comm);
            if (late && me == n - 1) {
                usleep(500);
            }
            op_start(&o, form % NOPS, count, 41 + form, comm);
            switch (form / NOPS) {
            case 0:
                MPI_Wait(&o.req, &st);
                break;
            case 1:
                while (!flag) {
                    MPI_Test(&o.req, &flag, &st);
                }
                break;
            case 2:
                MPI_Waitany(1, &o.req, &idx, &st);
                bad = 0 != idx;
                break;
            case 3:
                while (!flag) {
                    MPI_Testany(1, &o.req, &idx, &flag, &st);
                }
                bad = 0 != idx;
                break;
            case 4:
                MPI_Waitsome(1, &o.req, &nd, ix, &st);
                bad = 1 != nd || 0 != ix[0];
                break;
            case 5:
                for (nd = 0; 0 == nd;) {
                    MPI_Testsome(1, &o.req, &nd, ix, &st);
                }
                bad = 1 != nd || 0 != ix[0];
                break;
            default:
                while (!flag) {
                    MPI_Request_get_status(o.req, &flag, &st);
                }
                got = MPI_REQUEST_NULL != o.req;
                MPI_Wait(&o.req, MPI_STATUS_IGNORE);
                break;
            }
            tb_case();
            if (bad || MPI_REQUEST_NULL != o.req || !got) {
                tb_fail("%s: %s ended with index %d, count %d (index %d), handle %s", where,
                        kind_name[o.kind], idx, nd, ix[0],
                        !got ? "gone after MPI_Request_get_status"
                             : MPI_REQUEST_NULL != o.req ? "not MPI_REQUEST_NULL" : "null");
            }
            op_check(&o, comm, where);
        }
    }
}

/* Large calls are not tried on their caller's stack (their tasks start at once): on a
 * communicator of their own, every kind but the barrier with blocks of 64 KB, right data. */
static void large_untried(void)
{
    MPI_Comm comm;
    op_t o;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_name(comm, "scc_large");
    for (int rep = 0; rep < 4; ++rep) {
        for (int kind = 0; kind < NOPS - 1; ++kind) {
            op_start(&o, kind, 16384, 31 + rep, comm);
            MPI_Wait(&o.req, MPI_STATUS_IGNORE);
            op_check(&o, comm, "large, untried");
        }
    }
    MPI_Comm_free(&comm);
}

/* Tries that let their first pieces out and are abandoned, in allreduces of more pieces than
 * slots (nbc.sh runs it with small slots): the try must not claim again a slot holding a piece
 * it let out -- its task skips that piece but reads its own contribution back from the slot.
 * On halves of the world (two processes each, as many rounds as given), right sums. */
static void replay_pieces(int iters)
{
    MPI_Comm half;
    op_t o;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_set_name(half, "scc_replay");
    for (int i = 0; i < iters; ++i) {
        op_start(&o, 1, 1000, 500 + i % 1000, half);
        MPI_Wait(&o.req, MPI_STATUS_IGNORE);
        op_check(&o, half, "pieces let out, then abandoned");
    }
    MPI_Comm_free(&half);
}

/* A sparse alltoallv whose last rank to start finds everything it reads there: rank 0 reads
 * from the last rank only and starts after all others (each tells it so once started), so its
 * call can end where it starts -- over pairwise rounds, each a call of its own on the
 * transport, the messages of every round must go out under their own round. */
static void sparse_last(MPI_Comm comm, int count)
{
    int n, me, token = 0;
    MPI_Request r;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    if (n < 3) {
        return;
    }
    int *sc = calloc((size_t) n, sizeof(int)), *sd = calloc((size_t) n, sizeof(int));
    int *rc = calloc((size_t) n, sizeof(int)), *rd = calloc((size_t) n, sizeof(int));
    int *in = malloc((size_t) n * count * sizeof(int));
    int *out = malloc((size_t) n * count * sizeof(int));
    for (int p = 0; p < n; ++p) {
        /* (every rank sends to every other, but to rank 0 only the last one) */
        sc[p] = p == me || (0 == p && me != n - 1) ? 0 : count;
        rc[p] = p == me || (0 == me && p != n - 1) ? 0 : count;
        sd[p] = rd[p] = p * count;
        for (int k = 0; k < count; ++k) {
            in[p * count + k] = 1000 * me + 10 * p + k;
            out[p * count + k] = -1;
        }
    }
    if (0 == me) {
        for (int p = 1; p < n; ++p) {
            MPI_Recv(&token, 1, MPI_INT, p, 7, comm, MPI_STATUS_IGNORE);
        }
    }
    MPI_Ialltoallv(in, sc, sd, MPI_INT, out, rc, rd, MPI_INT, comm, &r);
    if (0 != me) {
        MPI_Send(&token, 1, MPI_INT, 0, 7, comm);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (int p = 0; p < n; ++p) {
        for (int k = 0; k < rc[p]; ++k) {
            tb_case();
            if (out[p * count + k] != 1000 * p + 10 * me + k) {
                tb_fail("sparse ialltoallv, rank 0 last: from %d element %d is %d", p, k,
                        out[p * count + k]);
                break;
            }
        }
    }
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(in);
    free(out);
}

/* A blocking collective between a start and its wait, on the same communicator. */
static void blocking_between(MPI_Comm comm, int count)
{
    op_t o;
    int v = rank, sum = 0;
    op_start(&o, 2, count, 31, comm);
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, comm);
    tb_case();
    if (sum != size * (size - 1) / 2) {
        tb_fail("blocking allreduce between a start and its wait: %d", sum);
    }
    MPI_Wait(&o.req, MPI_STATUS_IGNORE);
    op_check(&o, comm, "ialltoall around a blocking allreduce");
}

/* A request freed while active, and a datatype freed right after the start. */
static void freed(MPI_Comm comm, int count)
{
    MPI_Request r;
    MPI_Datatype vec;
    int *in = malloc(sizeof(int) * 2 * (size_t) count * size), *out;
    int junk = rank, bad = 0;

    MPI_Ibarrier(comm, &r);
    MPI_Request_free(&r);
    tb_case();
    if (MPI_REQUEST_NULL != r) {
        tb_fail("MPI_Request_free left the request");
    }
    /* every other int of the buffer */
    MPI_Type_vector(count, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    out = malloc(sizeof(int) * 2 * (size_t) count * size);
    for (int i = 0; i < 2 * count; ++i) {
        in[i] = i % 2 ? -7 : tb_val(rank, i / 2, 41);
    }
    for (int i = 0; i < 2 * count * size; ++i) {
        out[i] = -9;
    }
    MPI_Iallgather(in, 1, vec, out, 1, vec, comm, &r);
    MPI_Type_free(&vec);
    MPI_Allreduce(MPI_IN_PLACE, &junk, 1, MPI_INT, MPI_MAX, comm);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    /* the type's extent is 2 count - 1 ints: rank r's block starts at r (2 count - 1) */
    for (int r2 = 0; r2 < size; ++r2) {
        for (int i = 0; i < count; ++i) {
            bad += out[(size_t) r2 * (2 * count - 1) + 2 * (size_t) i] != tb_val(r2, i, 41);
        }
    }
    tb_case();
    if (bad) {
        tb_fail("iallgather with a vector type freed after the start: %d wrong", bad);
    }
    free(in);
    free(out);
}

/* The communicator freed while its operations are in flight: they end, right, and the
 * communicator goes when they have. */
static void comm_freed(int count)
{
    MPI_Comm c;
    op_t o[3];
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    for (int i = 0; i < 3; ++i) {
        op_start(&o[i], i + 1, count, 70 + i, c);
    }
    MPI_Comm_free(&c);
    for (int i = 0; i < 3; ++i) {
        MPI_Wait(&o[i].req, MPI_STATUS_IGNORE);
        op_check(&o[i], MPI_COMM_WORLD, "communicator freed before the wait");
    }
}

#if SCC_HAVE_PERSISTENT
/* A persistent allreduce of count ints on comm, started `iters` times with new data each
 * time, freed (also in two threads at once: with coll_scc_persistent_ordered 0, two
 * communicators of their own made concurrently). */
static void persistent_allreduce(MPI_Comm comm, int count, int iters)
{
    int *in = calloc((size_t) count, sizeof(int)), *out = calloc((size_t) count, sizeof(int));
    int n, me, bad = 0;
    MPI_Request r;

    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    SCC_PINIT(Allreduce)(in, out, count, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r);
    for (int it = 0; it < iters; ++it) {
        for (int i = 0; i < count; ++i) {
            in[i] = tb_val(me, i, it);
        }
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int i = 0; i < count; ++i) {
            int32_t want = 0;
            for (int q = 0; q < n; ++q) {
                want += tb_val(q, i, it);
            }
            bad += out[i] != want;
        }
    }
    MPI_Request_free(&r);
    tb_case();
    if (bad) {
        tb_fail("persistent allreduce of %d ints started %d times: %d wrong", count, iters, bad);
    }
    free(in);
    free(out);
}

/* Persistent requests: one allreduce started `iters` times with new data each time, a
 * broadcast per root started together (MPI_Startall). */
static void persistent(MPI_Comm comm, int count, int iters)
{
    int *bb = malloc(sizeof(int) * (size_t) count * size), bad = 0;
    MPI_Request *rb = malloc(sizeof(MPI_Request) * size);

    persistent_allreduce(comm, count, iters);
    for (int root = 0; root < size; ++root) {
        SCC_PINIT(Bcast)(bb + (size_t) root * count, count, MPI_INT, root, comm, MPI_INFO_NULL,
                         &rb[root]);
    }
    for (int it = 0; it < 3; ++it) {
        for (int root = 0; root < size; ++root) {
            for (int i = 0; i < count; ++i) {
                bb[(size_t) root * count + i] = root == rank ? tb_val(root, i, 50 + it) : -1;
            }
        }
        MPI_Startall(size, rb);
        MPI_Waitall(size, rb, MPI_STATUSES_IGNORE);
        bad = 0;
        for (int root = 0; root < size; ++root) {
            for (int i = 0; i < count; ++i) {
                bad += bb[(size_t) root * count + i] != tb_val(root, i, 50 + it);
            }
        }
        tb_case();
        if (bad) {
            tb_fail("persistent broadcasts from every root, MPI_Startall: %d wrong", bad);
        }
    }
    for (int root = 0; root < size; ++root) {
        MPI_Request_free(&rb[root]);
    }
    free(bb);
    free(rb);
}

/* Persistent requests started in another order on every other rank (MPI-4.0 matches them by
 * the order of their inits): a broadcast, a barrier and an allreduce made on a fresh
 * communicator ("scc_order"), started in that order on even ranks and reversed on odd ones,
 * `iters` times -- each on a communicator of its own unless coll_scc_persistent_ordered
 * asserts what this breaks (-o).  The communicator is freed before the requests, and the
 * allreduce's request is left to MPI_Finalize (its own communicator goes there). */
static void persistent_order(int iters)
{
    MPI_Comm comm;
    MPI_Request r[3];
    int n, me, b[4], in[4], out[4], bad = 0;

    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_name(comm, "scc_order");
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    SCC_PINIT(Bcast)(b, 4, MPI_INT, 0, comm, MPI_INFO_NULL, &r[0]);
    SCC_PINIT(Barrier)(comm, MPI_INFO_NULL, &r[1]);
    SCC_PINIT(Allreduce)(in, out, 4, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r[2]);
    for (int it = 0; it < iters; ++it) {
        for (int i = 0; i < 4; ++i) {
            b[i] = 0 == me ? tb_val(0, i, it) : -1;
            in[i] = tb_val(me, i, it);
        }
        for (int k = 0; k < 3; ++k) {
            MPI_Start(&r[me % 2 ? 2 - k : k]);
        }
        MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
        for (int i = 0; i < 4; ++i) {
            int32_t want = 0;
            for (int q = 0; q < n; ++q) {
                want += tb_val(q, i, it);
            }
            bad += b[i] != tb_val(0, i, it);
            bad += out[i] != want;
        }
    }
    tb_case();
    if (bad) {
        tb_fail("persistent bcast, barrier and allreduce started in reverse order on odd "
                "ranks, %d times: %d wrong", iters, bad);
    }
    MPI_Comm_free(&comm);
    for (int k = 0; k < 2; ++k) {
        MPI_Request_free(&r[k]);
    }
}

/* A persistent allreduce started between a nonblocking broadcast and a nonblocking
 * allreduce on one communicator, a rank late every third round (its peers' tries go on as
 * tasks): a start tried on its caller's stack must not overtake the tasks started before it;
 * ended in order or reversed, each rank its own way.  Counted on "scc_mixed". */
static void persistent_mixed(int iters)
{
    MPI_Comm comm;
    MPI_Request r, reqs[3];
    int n, me, in[4], out[4], bad = 0;
    op_t a, b;

    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_name(comm, "scc_mixed");
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    SCC_PINIT(Allreduce)(in, out, 4, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r);
    for (int it = 0; it < iters; ++it) {
        if (0 == it % 3 && me == it / 3 % n) {
            usleep(500);
        }
        for (int i = 0; i < 4; ++i) {
            in[i] = tb_val(me, i, 300 + it);
            out[i] = -1;
        }
        op_start(&a, 0, 4, 400 + it, comm);
        MPI_Start(&r);
        op_start(&b, 1, 4, 500 + it, comm);
        reqs[0] = a.req;
        reqs[1] = r;
        reqs[2] = b.req;
        if ((it + me) % 2) {
            MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
        } else {
            for (int i = 2; i >= 0; --i) {
                MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
            }
        }
        for (int i = 0; i < 4; ++i) {
            int32_t want = 0;
            for (int q = 0; q < n; ++q) {
                want += tb_val(q, i, 300 + it);
            }
            bad += out[i] != want;
        }
        op_check(&a, comm, "persistent allreduce between nonblocking calls");
        op_check(&b, comm, "persistent allreduce between nonblocking calls");
    }
    MPI_Request_free(&r);
    tb_case();
    if (bad) {
        tb_fail("persistent allreduce between nonblocking calls, started %d times: %d wrong",
                iters, bad);
    }
    MPI_Comm_free(&comm);
}

#endif

#include "scc_nbc_args.h"

/* A thread's share: its own communicator, operations outstanding, ended in every order, a
 * blocking call between a start and its wait (the other thread's progress may be running
 * the task then: the blocking call must wait for it), and persistent allreduces made and
 * freed. */
static void *thread_main(void *p)
{
    MPI_Comm comm = *(MPI_Comm *) p;
    for (int it = 0; it < 20; ++it) {
        many_outstanding(comm, "thread", it % 3 ? 3 : 5000, it % 4, 200 + it);
        for (int k = 0; k < 10; ++k) {
            blocking_between(comm, it % 3 ? 3 : 5000);
        }
#if SCC_HAVE_PERSISTENT
        persistent_allreduce(comm, 4, 10);
#endif
    }
    return NULL;
}

int main(int argc, char **argv)
{
    static const int counts[] = { 2, 300, 20000 };
    MPI_Comm dup;
    int rc, provided, t_provided, threads = argc > 1 && 0 == strcmp(argv[1], "-t");
    int replay = argc > 1 && 0 == strcmp(argv[1], "-r");
    int order = argc > 1 && 0 == strcmp(argv[1], "-o");

    tb_prog = "scc_nbc";
    MPI_Init_thread(&argc, &argv, threads ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    /* (at MPI_THREAD_SINGLE whatever MPI_Init_thread gave: Open MPI then sets its own flag of
       the thread level back, which the component must not follow -- nbc.sh) */
    MPI_T_init_thread(MPI_THREAD_SINGLE, &t_provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (threads && provided < MPI_THREAD_MULTIPLE) {
        tb_fail("MPI_THREAD_MULTIPLE not provided");
        threads = 0;
    }
    if (replay || order) {
        /* (only this; -o: where coll_scc_persistent_ordered asserts starts in order, it hangs) */
        if (replay) {
            replay_pieces(3000);
        }
#if SCC_HAVE_PERSISTENT
        if (order) {
            persistent_order(20);
        }
#endif
        rc = tb_finish();
        MPI_T_finalize();
        MPI_Finalize();
        return rc;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (threads) {
        /* two threads, each with a communicator of its own, tasks of both in flight at once
           (and resumed by either thread's progress) */
        MPI_Comm tc[2];
        pthread_t t[2];
        MPI_Comm_dup(MPI_COMM_WORLD, &tc[0]);
        MPI_Comm_dup(MPI_COMM_WORLD, &tc[1]);
        for (int i = 0; i < 2; ++i) {
            pthread_create(&t[i], NULL, thread_main, &tc[i]);
        }
        for (int i = 0; i < 2; ++i) {
            pthread_join(t[i], NULL);
        }
        MPI_Comm_free(&tc[0]);
        MPI_Comm_free(&tc[1]);
    }
    for (int c = 0; c < 3; ++c) {
        for (int how = 0; how < 4; ++how) {
            many_outstanding(MPI_COMM_WORLD, "world", counts[c], how, 100 * how + c);
        }
        many_outstanding(dup, "dup", counts[c], 3, 7 + c);
        two_comms(MPI_COMM_WORLD, dup, counts[c]);
        for (int kind = 0; kind < NOPS; ++kind) {
            start_is_local(MPI_COMM_WORLD, kind, counts[c]);
        }
        blocking_between(dup, counts[c]);
        for (int rep = 0; rep < 20; ++rep) {
            sparse_last(MPI_COMM_WORLD, counts[c]);
        }
        freed(MPI_COMM_WORLD, counts[c]);
        comm_freed(counts[c]);
        completion_forms(dup, counts[c]);
    }
    {
        /* 64 small allreduces outstanding on one communicator */
        op_t ops[64];
        MPI_Request reqs[64];
        for (int i = 0; i < 64; ++i) {
            op_start(&ops[i], 1, 2, 60 + i, dup);
            reqs[i] = ops[i].req;
        }
        MPI_Waitall(64, reqs, MPI_STATUSES_IGNORE);
        for (int i = 0; i < 64; ++i) {
            op_check(&ops[i], dup, "64 outstanding");
        }
    }
#if SCC_HAVE_PERSISTENT
    persistent(MPI_COMM_WORLD, 2, 2000);
    persistent(dup, 30000, 20);
    persistent_mixed(60);
    if (!threads) {
        decided_once();
        decided_noncommutative();
    }
#endif
    arrays_let_go();
    large_untried();
    ibarriers();
    MPI_Comm_free(&dup);
    rc = tb_finish();
    MPI_T_finalize();
    MPI_Finalize();
    return rc;
}
