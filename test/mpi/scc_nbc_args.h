/* scc_nbc_args.h (scc_nbc.c's): what becomes of a nonblocking or persistent call's arguments --
 * a persistent request keeps the decision of its first start (decided_once,
 * decided_noncommutative); a nonblocking v-collective whose count, displacement and datatype
 * arrays the caller let go of right after the call still runs on the values it was given
 * (arrays_let_go). */
#ifndef SCC_NBC_ARGS_H
#define SCC_NBC_ARGS_H

/* Part sizes of the v-collectives below (ints): rank i's part, the block from p to q */
static int va_part(int i, int it)
{
    return 1 + (i + it) % 3;
}

static int va_block(int p, int q, int it)
{
    return 1 + (p + 2 * q + it) % 3;
}

enum { VA_GATHERV, VA_SCATTERV, VA_ALLGATHERV, VA_ALLTOALLV, VA_ALLTOALLW, VA_RS, VA_N };

/* Starts v-collective k of iteration it on comm (root: the last rank for gatherv, 0 for
 * scatterv), its arrays freshly made and, once it is started, overwritten and freed as
 * mpi4py 3.1 does -- then waits; the number of wrong elements.  One rank (not gatherv's root)
 * starts a little after the others, so their calls are still in flight when the arrays go. */
static int va_call(int k, int it, MPI_Comm comm)
{
    const int n = size, root = VA_GATHERV == k ? n - 1 : 0;
    int *sc = malloc(sizeof(int) * n), *sd = malloc(sizeof(int) * n);
    int *rc = malloc(sizeof(int) * n), *rd = malloc(sizeof(int) * n);
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * n), *rt = malloc(sizeof(MPI_Datatype) * n);
    int *in = malloc(sizeof(int) * 4 * n), *out = malloc(sizeof(int) * 5 * n);
    int ns = 0, nr = 0, bad = 0;
    MPI_Request r;

    /* counts and displacements (with a gap of one int after each receive part) */
    for (int i = 0; i < n; ++i) {
        switch (k) {
        case VA_ALLTOALLV:
        case VA_ALLTOALLW:
            sc[i] = va_block(rank, i, it);
            rc[i] = va_block(i, rank, it);
            break;
        default:
            sc[i] = rc[i] = va_part(i, it);
            break;
        }
        sd[i] = ns;
        rd[i] = nr;
        ns += sc[i];
        nr += rc[i] + (VA_RS == k ? 0 : 1);
        st[i] = rt[i] = MPI_INT;
    }
    for (int j = 0; j < 4 * n; ++j) {
        in[j] = tb_val(rank, j, it);
    }
    for (int j = 0; j < 5 * n; ++j) {
        out[j] = -1;
    }
    if (rank == (VA_GATHERV == k ? 0 : n - 1)) {
        usleep(20000);
    }
    switch (k) {
    case VA_GATHERV:
        MPI_Igatherv(in, va_part(rank, it), MPI_INT, out, rc, rd, MPI_INT, root, comm, &r);
        break;
    case VA_SCATTERV:
        MPI_Iscatterv(in, sc, sd, MPI_INT, out, va_part(rank, it), MPI_INT, root, comm, &r);
        break;
    case VA_ALLGATHERV:
        MPI_Iallgatherv(in, va_part(rank, it), MPI_INT, out, rc, rd, MPI_INT, comm, &r);
        break;
    case VA_ALLTOALLV:
        MPI_Ialltoallv(in, sc, sd, MPI_INT, out, rc, rd, MPI_INT, comm, &r);
        break;
    case VA_ALLTOALLW:
        /* (displacements in bytes) */
        for (int i = 0; i < n; ++i) {
            sd[i] *= (int) sizeof(int);
            rd[i] *= (int) sizeof(int);
        }
        MPI_Ialltoallw(in, sc, sd, st, out, rc, rd, rt, comm, &r);
        for (int i = 0; i < n; ++i) {
            sd[i] /= (int) sizeof(int);
            rd[i] /= (int) sizeof(int);
        }
        break;
    default:
        MPI_Ireduce_scatter(in, out, rc, MPI_INT, MPI_SUM, comm, &r);
        break;
    }
    /* what the checks need, then the arrays go */
    {
        int *want_d = malloc(sizeof(int) * 2 * n);
        memcpy(want_d, sd, sizeof(int) * n);
        memcpy(want_d + n, rd, sizeof(int) * n);
        memset(sc, 0x5a, sizeof(int) * n);
        memset(sd, 0x5a, sizeof(int) * n);
        memset(rc, 0x5a, sizeof(int) * n);
        memset(rd, 0x5a, sizeof(int) * n);
        memset(st, 0x5a, sizeof(MPI_Datatype) * n);
        memset(rt, 0x5a, sizeof(MPI_Datatype) * n);
        free(sc);
        free(rc);
        free(st);
        free(rt);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int i = 0; i < n; ++i) {
            int at = 0;
            for (int q = 0; q < rank; ++q) {
                at += va_part(q, it);
            }
            switch (k) {
            case VA_GATHERV:
            case VA_ALLGATHERV:
                if (VA_GATHERV == k && rank != root) {
                    break;
                }
                for (int j = 0; j < va_part(i, it); ++j) {
                    bad += out[want_d[n + i] + j] != tb_val(i, j, it);
                }
                bad += out[want_d[n + i] + va_part(i, it)] != -1;
                break;
            case VA_SCATTERV:
                /* (part i of the root's input starts at its displacement) */
                if (0 == i) {
                    for (int j = 0; j < va_part(rank, it); ++j) {
                        bad += out[j] != tb_val(root, at + j, it);
                    }
                    bad += out[va_part(rank, it)] != -1;
                }
                break;
            case VA_ALLTOALLV:
            case VA_ALLTOALLW:
                /* the block from i: i's input from its displacement of my block */
                {
                    int from = 0;
                    for (int q = 0; q < rank; ++q) {
                        from += va_block(i, q, it);
                    }
                    for (int j = 0; j < va_block(i, rank, it); ++j) {
                        bad += out[want_d[n + i] + j] != tb_val(i, from + j, it);
                    }
                    bad += out[want_d[n + i] + va_block(i, rank, it)] != -1;
                }
                break;
            default:
                /* my block of the sum, counted once */
                if (0 == i) {
                    for (int j = 0; j < va_part(rank, it); ++j) {
                        int32_t want = 0;
                        for (int q = 0; q < n; ++q) {
                            want += tb_val(q, at + j, it);
                        }
                        bad += out[j] != want;
                    }
                }
                break;
            }
        }
        free(want_d);
        free(sd);
        free(rd);
    }
    free(in);
    free(out);
    return bad;
}

/* Every v-collective (igatherv, iscatterv, iallgatherv, ialltoallv, ialltoallw,
 * ireduce_scatter) three times with other counts, on the communicator "scc_arrays" (nbc.sh:
 * every one served by scc). */
static void arrays_let_go(void)
{
    MPI_Comm comm;
    int bad = 0;

    tb_case();
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_name(comm, "scc_arrays");
    for (int it = 0; it < 3; ++it) {
        for (int k = 0; k < VA_N; ++k) {
            bad += va_call(k, it, comm);
        }
    }
    MPI_Comm_free(&comm);
    if (bad) {
        tb_fail("nonblocking v-collectives whose arrays were let go at the call: %d wrong", bad);
    }
}

#if SCC_HAVE_PERSISTENT
/* The value of coll's algorithm `name` for coll_scc_<coll>_algorithm, -1 if none. */
static int alg_value(const char *coll, const char *name)
{
    char names[32][32];
    int values[32], n = tb_algorithms(coll, "auto", names, values, 32);
    for (int i = 0; i < n; ++i) {
        if (0 == strcmp(names[i], name)) {
            return values[i];
        }
    }
    return -1;
}

/* Writes (write) or reads coll_scc_<coll>_algorithm through MPI_T; 0 if it cannot. */
static int force_alg(const char *coll, int *value, int write)
{
    char pname[64];
    snprintf(pname, sizeof(pname), "coll_scc_%s_algorithm", coll);
    return 0 == tb_cvar_rw(pname, value, write);
}

/* Persistent requests decide at their first start and keep that decision: each of thirteen
 * collectives started 10 times with one algorithm (or the fallback) forced and 10 times more
 * after flat is forced (through MPI_T) runs the first one all 20 times, while 10 blocking
 * calls of each between take flat (the counters of the communicator "scc_decided" say which
 * ran: nbc.sh). */
enum { D_ALLREDUCE, D_BCAST, D_ALLTOALL, D_GATHER, D_SCATTER, D_ALLGATHER, D_GATHERV,
       D_SCATTERV, D_ALLGATHERV, D_ALLTOALLV, D_ALLTOALLW, D_RSB, D_RS, ND };
static const char *const d_coll[ND] = { "allreduce", "bcast", "alltoall", "gather", "scatter",
                                        "allgather", "gatherv", "scatterv", "allgatherv",
                                        "alltoallv", "alltoallw", "reduce_scatter_block",
                                        "reduce_scatter" };
/* (one node has no second algorithm for gather and scatter: the fallback is decided once too) */
static const char *const d_first[ND] = { "tree", "tree", "ring", "fallback", "fallback", "ring",
                                         "ring", "ring", "ring", "ring", "ring", "ring", "ring" };

/* Collective k: its blocking call (r NULL) or its persistent request in *r; every part 2 ints
 * (counts, displacements in ints and in bytes: v) */
#define D_CALL(r, name, ...)                                                     \
    (NULL != (r) ? SCC_PINIT(name)(__VA_ARGS__, MPI_INFO_NULL, (r)) : MPI_##name(__VA_ARGS__))
static void decided_call(int k, int *in, int *out, MPI_Comm comm, MPI_Request *r)
{
    static int *v;
    static MPI_Datatype *t;
    const int root = size - 1;
    if (NULL == v) {
        v = malloc(sizeof(int) * 3 * size);
        t = malloc(sizeof(MPI_Datatype) * size);
        for (int i = 0; i < size; ++i) {
            v[i] = 2;
            v[size + i] = 2 * i;
            v[2 * size + i] = 2 * i * (int) sizeof(int);
            t[i] = MPI_INT;
        }
    }
    switch (k) {
    case D_ALLREDUCE:
        (void) D_CALL(r, Allreduce, in, out, 2, MPI_INT, MPI_SUM, comm);
        break;
    case D_BCAST:
        (void) D_CALL(r, Bcast, out, 2, MPI_INT, root, comm);
        break;
    case D_ALLTOALL:
        (void) D_CALL(r, Alltoall, in, 2, MPI_INT, out, 2, MPI_INT, comm);
        break;
    case D_GATHER:
        (void) D_CALL(r, Gather, in, 2, MPI_INT, out, 2, MPI_INT, root, comm);
        break;
    case D_SCATTER:
        (void) D_CALL(r, Scatter, in, 2, MPI_INT, out, 2, MPI_INT, root, comm);
        break;
    case D_ALLGATHER:
        (void) D_CALL(r, Allgather, in, 2, MPI_INT, out, 2, MPI_INT, comm);
        break;
    case D_GATHERV:
        (void) D_CALL(r, Gatherv, in, 2, MPI_INT, out, v, v + size, MPI_INT, root, comm);
        break;
    case D_SCATTERV:
        (void) D_CALL(r, Scatterv, in, v, v + size, MPI_INT, out, 2, MPI_INT, root, comm);
        break;
    case D_ALLGATHERV:
        (void) D_CALL(r, Allgatherv, in, 2, MPI_INT, out, v, v + size, MPI_INT, comm);
        break;
    case D_ALLTOALLV:
        (void) D_CALL(r, Alltoallv, in, v, v + size, MPI_INT, out, v, v + size, MPI_INT, comm);
        break;
    case D_ALLTOALLW:
        (void) D_CALL(r, Alltoallw, in, v, v + 2 * size, t, out, v, v + 2 * size, t, comm);
        break;
    case D_RSB:
        (void) D_CALL(r, Reduce_scatter_block, in, out, 2, MPI_INT, MPI_SUM, comm);
        break;
    default:
        (void) D_CALL(r, Reduce_scatter, in, out, v, MPI_INT, MPI_SUM, comm);
        break;
    }
}

/* What out must hold after collective k of iteration it (in: tb_val(rank, i, it) for each
 * rank's 2 * size elements; the bcast's root sends the same); the number of wrong elements */
static int decided_check(int k, const int *out, int it)
{
    const int root = size - 1;
    int bad = 0;
    for (int j = 0; j < 2 * size; ++j) {
        int32_t want;
        switch (k) {
        case D_ALLREDUCE:
        case D_RSB:
        case D_RS:
            /* (the reduce-scatters: my block of the sum) */
            if (j >= 2) {
                return bad;
            }
            want = 0;
            for (int q = 0; q < size; ++q) {
                want += tb_val(q, D_ALLREDUCE == k ? j : 2 * rank + j, it);
            }
            break;
        case D_BCAST:
            if (j >= 2) {
                return bad;
            }
            want = tb_val(root, j, it);
            break;
        case D_ALLTOALL:
        case D_ALLTOALLV:
        case D_ALLTOALLW:
            want = tb_val(j / 2, 2 * rank + j % 2, it);
            break;
        case D_GATHER:
        case D_GATHERV:
        case D_ALLGATHER:
        case D_ALLGATHERV:
            /* (gather: only the root holds every rank's first two) */
            if ((D_GATHER == k || D_GATHERV == k) && rank != root) {
                return bad;
            }
            want = tb_val(j / 2, j % 2, it);
            break;
        default:
            if (j >= 2) {
                return bad;
            }
            want = tb_val(root, 2 * rank + j, it);
            break;
        }
        bad += out[j] != want;
    }
    return bad;
}

static void decided_once(void)
{
    int value[ND], flat[ND], was[ND], bad = 0, forced = 0;
    int *in = malloc(sizeof(int) * 2 * size), *out[ND];
    MPI_Comm comm;
    MPI_Request r[ND];

    tb_case();
    for (; forced < ND; ++forced) {
        const int k = forced;
        value[k] = alg_value(d_coll[k], d_first[k]);
        flat[k] = alg_value(d_coll[k], "flat");
        if (value[k] < 0 || flat[k] < 0 || !force_alg(d_coll[k], &was[k], 0)
            || !force_alg(d_coll[k], &value[k], 1)) {
            tb_fail("cannot force %s's algorithms through MPI_T (%s %d, flat %d)", d_coll[k],
                    d_first[k], value[k], flat[k]);
            break;
        }
    }
    if (ND == forced) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        MPI_Comm_set_name(comm, "scc_decided");
        for (int k = 0; k < ND; ++k) {
            out[k] = malloc(sizeof(int) * 2 * size);
            decided_call(k, in, out[k], comm, &r[k]);
        }
        for (int it = 0; it < 30; ++it) {
            for (int k = 0; 10 == it && k < ND; ++k) {
                if (!force_alg(d_coll[k], &flat[k], 1)) {
                    tb_fail("cannot force %s's flat algorithm through MPI_T", d_coll[k]);
                }
            }
            for (int j = 0; j < 2 * size; ++j) {
                in[j] = tb_val(rank, j, it);
            }
            for (int k = 0; k < ND; ++k) {
                /* the broadcast's buffer: the root's data, -1 elsewhere */
                for (int j = 0; j < 2 * size; ++j) {
                    out[k][j] = D_BCAST == k && rank == size - 1 && j < 2 ? in[j] : -1;
                }
                if (it >= 10 && it % 2) {
                    decided_call(k, in, out[k], comm, NULL);
                }
            }
            if (it < 10 || 0 == it % 2) {
                MPI_Startall(ND, r);
                MPI_Waitall(ND, r, MPI_STATUSES_IGNORE);
            }
            for (int k = 0; k < ND; ++k) {
                bad += decided_check(k, out[k], it);
            }
        }
        for (int k = 0; k < ND; ++k) {
            MPI_Request_free(&r[k]);
            free(out[k]);
        }
        MPI_Comm_free(&comm);
    }
    /* (what the run had forced before, for the calls after) */
    for (int k = 0; k < forced; ++k) {
        (void) force_alg(d_coll[k], &was[k], 1);
    }
    free(in);
    if (bad) {
        tb_fail("persistent collectives decided once, blocking calls between: %d wrong", bad);
    }
}

/* a op b = b: not commutative, the result is the last rank's vector */
static void op_last(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) in;
    (void) inout;
    (void) len;
    (void) dt;
}

/* A persistent allreduce of 4000 ints with a non-commutative operation: the table's choice
 * that cannot take it gives way to a rank-ordered algorithm at the first start, and that
 * decision holds when the tree is forced (through MPI_T) after the fifth start -- a forced
 * tree would decline the operation (nbc.sh: all 10 starts by one algorithm of scc, none by
 * the fallback, on the communicator "scc_decided_nc"). */
static void decided_noncommutative(void)
{
    enum { N = 4000 };
    int *in = malloc(sizeof(int) * N), *out = malloc(sizeof(int) * N), bad = 0, was, tree;
    MPI_Comm comm;
    MPI_Request r;
    MPI_Op op;

    tb_case();
    tree = alg_value("allreduce", "tree");
    if (tree < 0 || !force_alg("allreduce", &was, 0)) {
        tb_fail("cannot read allreduce's algorithm through MPI_T");
        free(in);
        free(out);
        return;
    }
    MPI_Op_create(op_last, 0, &op);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_name(comm, "scc_decided_nc");
    SCC_PINIT(Allreduce)(in, out, N, MPI_INT, op, comm, MPI_INFO_NULL, &r);
    for (int it = 0; it < 10; ++it) {
        if (5 == it && !force_alg("allreduce", &tree, 1)) {
            tb_fail("cannot force allreduce's tree through MPI_T");
        }
        for (int i = 0; i < N; ++i) {
            in[i] = tb_val(rank, i, it);
        }
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; ++i) {
            bad += out[i] != tb_val(size - 1, i, it);
        }
    }
    (void) force_alg("allreduce", &was, 1);
    MPI_Request_free(&r);
    MPI_Comm_free(&comm);
    MPI_Op_free(&op);
    free(in);
    free(out);
    if (bad) {
        tb_fail("persistent non-commutative allreduce decided once: %d wrong", bad);
    }
}
#endif

#endif /* SCC_NBC_ARGS_H */
