/* scc_test.h: guard-zoned buffers, data patterns and failure accounting for the MPI tests. */
#ifndef SCC_TEST_H
#define SCC_TEST_H

#include <fcntl.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TB_GUARD 64
#define TB_GUARD_BYTE 0xA5

static long tb_cases, tb_failures;
static const char *tb_prog = "test";

/* This process's output, the component's verbose reports with it, goes to a file of its own
 * (dir/out.PID), whole lines, never cut into by another process's output as mpirun's
 * forwarding may do when thousands of lines come at once.  Before MPI_Init; 0 when done. */
static inline int tb_output_to(const char *dir)
{
    char path[4096];
    int fd;
    snprintf(path, sizeof(path), "%s/out.%d", dir, (int) getpid());
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) {
        perror(path);
        return -1;
    }
    close(fd);
    setvbuf(stdout, NULL, _IOLBF, 0);
    return 0;
}

/* Counts a check (threads may call it). */
static inline void tb_case(void)
{
    __atomic_fetch_add(&tb_cases, 1, __ATOMIC_RELAXED);
}

/* Reports a failure (the first few per rank in full). */
static void tb_fail(const char *fmt, ...)
{
    int rank;
    va_list ap;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (__atomic_fetch_add(&tb_failures, 1, __ATOMIC_RELAXED) < 10) {
        fprintf(stderr, "%s: rank %d: FAIL: ", tb_prog, rank);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
}

/* A buffer with guard zones on both sides. */
static inline void *tb_alloc(size_t bytes)
{
    unsigned char *p = malloc(bytes + 2 * TB_GUARD);
    if (NULL == p) {
        fprintf(stderr, "%s: out of memory (%zu bytes)\n", tb_prog, bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(p, TB_GUARD_BYTE, TB_GUARD);
    memset(p + TB_GUARD + bytes, TB_GUARD_BYTE, TB_GUARD);
    *(size_t *) (void *) p = bytes;   /* remembered for the guard check */
    return p + TB_GUARD;
}

static inline int tb_guards_ok(void *buf, const char *what)
{
    unsigned char *p = (unsigned char *) buf - TB_GUARD;
    size_t bytes = *(size_t *) (void *) p;
    for (size_t i = sizeof(size_t); i < TB_GUARD; ++i) {
        if (p[i] != TB_GUARD_BYTE) {
            tb_fail("%s: guard before the buffer overwritten at -%zu", what, TB_GUARD - i);
            return 0;
        }
    }
    for (size_t i = 0; i < TB_GUARD; ++i) {
        if (p[TB_GUARD + bytes + i] != TB_GUARD_BYTE) {
            tb_fail("%s: guard after the buffer overwritten at +%zu", what, i);
            return 0;
        }
    }
    return 1;
}

static inline void tb_free(void *buf)
{
    if (NULL != buf) {
        free((unsigned char *) buf - TB_GUARD);
    }
}

/* The value rank r contributes at element i (distinct per rank, element and salt). */
static inline int32_t tb_val(int r, size_t i, int salt)
{
    return (int32_t) ((uint32_t) r * 1000003u + (uint32_t) i * 7919u + (uint32_t) salt * 31u + 1u);
}

static inline unsigned char tb_byte(int r, size_t i, int salt)
{
    return (unsigned char) (tb_val(r, i, salt) ^ (tb_val(r, i, salt) >> 11));
}

/* Whether every process of comm shares one node (MPI_COMM_TYPE_SHARED): Bruck's allgather
 * runs between node leaders only, and the component declines it on one node. */
static inline int tb_one_node(MPI_Comm comm)
{
    MPI_Comm shared;
    int nshared, n;
    MPI_Comm_size(comm, &n);
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
    MPI_Comm_size(shared, &nshared);
    MPI_Allreduce(MPI_IN_PLACE, &nshared, 1, MPI_INT, MPI_MIN, comm);
    MPI_Comm_free(&shared);
    return nshared == n;
}

/* Whether algorithm alg of collective coll runs between node leaders only (the component
 * declines it on one node): Bruck's allgather, the leaders' alltoall, the trees of gather and
 * scatter. */
static inline int tb_nodes_only(const char *coll, const char *alg)
{
    return 0 == strcmp(alg, "bruck") || 0 == strcmp(alg, "leaders")
           || (0 == strcmp(alg, "tree")
               && (0 == strcmp(coll, "gather") || 0 == strcmp(coll, "scatter")));
}

/* Whether name is in the comma-separated list (any name where list is NULL). */
static inline int tb_listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; NULL != p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        if (0 == strncmp(p, name, len) && (',' == p[len] || '\0' == p[len])) {
            return 1;
        }
    }
    return NULL == list;
}

/* A duplicate of MPI_COMM_WORLD named name, errors returned (its call report says what
 * served it). */
static inline MPI_Comm tb_new_comm(const char *name)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_name(comm, name);
    return comm;
}

/* Reads (write 0) or writes the int control variable `name` through MPI_T: 0 on success. */
static inline int tb_cvar_rw(const char *name, int *v, int write)
{
    MPI_T_cvar_handle h;
    int idx, count, rc;
    if (MPI_SUCCESS != MPI_T_cvar_get_index(name, &idx)
        || MPI_SUCCESS != MPI_T_cvar_handle_alloc(idx, NULL, &h, &count)) {
        return -1;
    }
    rc = write ? MPI_T_cvar_write(h, v) : MPI_T_cvar_read(h, v);
    MPI_T_cvar_handle_free(&h);
    return MPI_SUCCESS == rc ? 0 : -1;
}

/* The algorithms coll_scc_<coll>_algorithm offers but `skip` ("auto" and "fallback" are
 * among them), its enumerator's names and values; 0 without the component. */
static inline int tb_algorithms(const char *coll, const char *skip, char names[][32],
                                int *values, int max)
{
    char pname[96], ename[64];
    int idx, n = 0, verbosity, bind, scope, nitems, nlen = sizeof(pname), dlen = 0, elen;
    MPI_Datatype dt;
    MPI_T_enum en;
    snprintf(pname, sizeof(pname), "coll_scc_%s_algorithm", coll);
    if (MPI_SUCCESS != MPI_T_cvar_get_index(pname, &idx)
        || MPI_SUCCESS != MPI_T_cvar_get_info(idx, pname, &nlen, &verbosity, &dt, &en, NULL,
                                              &dlen, &bind, &scope)
        || MPI_T_ENUM_NULL == en) {
        return 0;
    }
    elen = sizeof(ename);
    MPI_T_enum_get_info(en, &nitems, ename, &elen);
    for (int i = 0; i < nitems && n < max; ++i) {
        int len = 32;
        MPI_T_enum_get_item(en, i, &values[n], names[n], &len);
        n += 0 != strcmp(names[n], skip);
    }
    return n;
}

/* Ends the test: every rank's failures are summed; returns the exit code. */
static int tb_finish(void)
{
    long tot[2] = { tb_cases, tb_failures }, sum[2];
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(tot, sum, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("%s: %ld checks, %ld failures\n", tb_prog, sum[0], sum[1]);
        fflush(stdout);
    }
    MPI_Bcast(sum, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    return (tb_failures || sum[1]) ? 1 : 0;
}

#endif /* SCC_TEST_H */
