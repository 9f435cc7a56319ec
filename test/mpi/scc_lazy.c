/* scc_lazy.c: communicators made by the thousand -- made, used a few times and freed, or kept
 * alive by the hundred -- with right data, for lazy.sh to check from the verbose reports when
 * the component set each up and how much shared memory the live ones hold.
 *
 *   scc_lazy SETUP_CALLS [LIVE_COMMS [MAX_KB_PER_RANK [OUTDIR [BIG_BYTES SLOTS_KB [over]]]]]
 * SETUP_CALLS: the coll_scc_setup_calls the job runs with (the calls a communicator leaves to
 * the fallback); LIVE_COMMS communicators stay alive at once (default 200), and the shared
 * memory they add (/proc/meminfo Shmem) must stay under MAX_KB_PER_RANK per process and
 * communicator (default 32).  OUTDIR: each process writes its output there (tb_output_to;
 * "-": not).  BIG_BYTES: each live communicator also gathers BIG_BYTES from every process
 * (MPI_Allgather: every process writes its slots), and the bound grows by SLOTS_KB per process
 * (the slot pages the process may keep over all its communicators).  "over": the bound must
 * be exceeded instead (lazy.sh's control without the budget) -- the program still ends with
 * 0, since some launchers do not end a job whose processes exit with an error.  With
 * BIG_BYTES each live communicator also broadcasts BIG_BYTES of a strided type (packed through
 * scratch memory), and each process's heap must grow by less than HEAP_KB_PER_COMM per
 * communicator beyond a fixed HEAP_SLACK_BIGS times BIG_BYTES: scratch kept per communicator
 * at the largest message would add BIG_BYTES each. */
#include <stdbool.h>

#include "scc_meminfo.h"
#include "scc_test.h"

#define CHURN_ITERS 100
#define CHURN_USES 3
#define STEADY_EXTRA 20
#define HEAP_KB_PER_COMM 40
#define HEAP_SLACK_BIGS 8

/* One 8-byte allreduce on c, checked. */
static void allreduce_check(MPI_Comm c, int salt)
{
    int rank, n;
    int64_t mine, sum = 0, want = 0;

    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &n);
    mine = tb_val(rank, 0, salt);
    for (int r = 0; r < n; ++r) {
        want += tb_val(r, 0, salt);
    }
    MPI_Allreduce(&mine, &sum, 1, MPI_INT64_T, MPI_SUM, c);
    tb_case();
    if (sum != want) {
        tb_fail("allreduce salt %d: %lld, expected %lld", salt, (long long) sum,
                (long long) want);
    }
}

/* Call i of a mix of collectives on c: the count of calls decides when the component sets
 * the communicator up, whichever collective they are. */
static void mixed_call(MPI_Comm c, int i)
{
    int rank, n;
    int32_t v[4], all[4 * 64];

    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &n);
    switch (i % 4) {
    case 0:
        allreduce_check(c, i);
        break;
    case 1:
        for (int k = 0; k < 4; ++k) {
            v[k] = rank == i % n ? tb_val(i % n, (size_t) k, i) : -1;
        }
        MPI_Bcast(v, 4, MPI_INT32_T, i % n, c);
        tb_case();
        for (int k = 0; k < 4; ++k) {
            if (v[k] != tb_val(i % n, (size_t) k, i)) {
                tb_fail("bcast call %d element %d: %d", i, k, (int) v[k]);
                break;
            }
        }
        break;
    case 2:
        MPI_Barrier(c);
        break;
    default:
        v[0] = tb_val(rank, 0, i);
        MPI_Allgather(v, 1, MPI_INT32_T, all, 1, MPI_INT32_T, c);
        tb_case();
        for (int r = 0; r < n && r < 64; ++r) {
            if (all[r] != tb_val(r, 0, i)) {
                tb_fail("allgather call %d block %d: %d", i, r, (int) all[r]);
                break;
            }
        }
        break;
    }
}

/* A broadcast of bytes (a multiple of 4) from root salt % n on c, as every other int of a
 * buffer twice that long (buf), checked. */
static void bcast_strided(MPI_Comm c, int *buf, size_t bytes, int salt)
{
    int rank, n, root;
    size_t count = bytes / 4;
    MPI_Datatype t;

    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &n);
    root = (salt % n + n) % n;
    for (size_t i = 0; i < 2 * count; ++i) {
        buf[i] = rank == root || i % 2 ? tb_val(root, i, salt) : -1;
    }
    MPI_Type_vector((int) count, 1, 2, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Bcast(buf, 1, t, root, c);
    MPI_Type_free(&t);
    tb_case();
    for (size_t i = 0; i < 2 * count; ++i) {
        if (buf[i] != tb_val(root, i, salt)) {
            tb_fail("strided bcast of %zu bytes from %d, salt %d: int %zu is %d", bytes, root,
                    salt, i, buf[i]);
            return;
        }
    }
}

/* An allgather of bytes per process on c, checked byte by byte. */
static void allgather_big(MPI_Comm c, unsigned char *in, unsigned char *out, size_t bytes,
                          int salt)
{
    int rank, n;

    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &n);
    for (size_t i = 0; i < bytes; ++i) {
        in[i] = tb_byte(rank, i, salt);
    }
    MPI_Allgather(in, (int) bytes, MPI_BYTE, out, (int) bytes, MPI_BYTE, c);
    tb_case();
    for (int r = 0; r < n; ++r) {
        for (size_t i = 0; i < bytes; ++i) {
            if (out[(size_t) r * bytes + i] != tb_byte(r, i, salt)) {
                tb_fail("allgather of %zu bytes, salt %d: block %d byte %zu", bytes, salt, r, i);
                return;
            }
        }
    }
    tb_guards_ok(in, "allgather in");
    tb_guards_ok(out, "allgather out");
}

int main(int argc, char **argv)
{
    int setup_calls, live, max_kb, rank, n;
    bool over;
    long before = -1, after = -1, slots_kb, heap0, heap1;
    size_t big;
    unsigned char *gin = NULL, *gout = NULL;
    int *strided = NULL;
    MPI_Comm *comms;

    if (argc > 4 && 0 != strcmp(argv[4], "-") && 0 != tb_output_to(argv[4])) {
        return 2;
    }
    MPI_Init(&argc, &argv);
    tb_prog = "scc_lazy";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    setup_calls = argc > 1 ? atoi(argv[1]) : 0;
    live = argc > 2 ? atoi(argv[2]) : 200;
    max_kb = argc > 3 ? atoi(argv[3]) : 32;
    big = argc > 5 ? (size_t) atol(argv[5]) : 0;
    slots_kb = argc > 6 ? atol(argv[6]) : 0;
    over = argc > 7 && 0 == strcmp(argv[7], "over");
    if (big > 0) {
        gin = tb_alloc(big);
        gout = tb_alloc(big * (size_t) n);
        strided = malloc(2 * big);
        if (NULL == strided) {
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }

    /* made, used CHURN_USES times, freed: dups and splits alike */
    for (int i = 0; i < CHURN_ITERS; ++i) {
        MPI_Comm c;
        if (i % 2) {
            MPI_Comm_dup(MPI_COMM_WORLD, &c);
        } else {
            MPI_Comm_split(MPI_COMM_WORLD, 0, n - rank, &c);
        }
        MPI_Comm_set_name(c, "lazy-churn");
        for (int u = 0; u < CHURN_USES; ++u) {
            allreduce_check(c, i * CHURN_USES + u);
        }
        MPI_Comm_free(&c);
    }

    /* one communicator used past the threshold, by several collectives in turn */
    {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Comm_set_name(c, "lazy-steady");
        for (int i = 0; i < setup_calls + STEADY_EXTRA; ++i) {
            mixed_call(c, i);
        }
        MPI_Comm_free(&c);
    }

    /* many alive at once, each in its steady state: the shared memory they add */
    comms = malloc(sizeof(MPI_Comm) * (size_t) (live > 0 ? live : 1));
    if (NULL == comms) {
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        before = scc_shmem_kb();
    }
    heap0 = scc_heap_bytes(1);
    for (int k = 0; k < live; ++k) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[k]);
        MPI_Comm_set_name(comms[k], "lazy-live");
        for (int u = 0; u < setup_calls + 2; ++u) {
            allreduce_check(comms[k], k + u);
        }
        if (big > 0) {
            allgather_big(comms[k], gin, gout, big, k);
            bcast_strided(comms[k], strided, big, k);
        }
    }
    heap1 = scc_heap_bytes(1);
    if (big > 0 && heap0 >= 0) {
        long bound = (long) HEAP_KB_PER_COMM * 1024 * live + HEAP_SLACK_BIGS * (long) big;
        tb_case();
        printf("scc_lazy: heap: rank %d: %d communicators, each broadcasting a strided %zu "
               "bytes, add %ld kB of heap (%.1f kB per communicator; at most %ld kB)\n", rank,
               live, big, (heap1 - heap0) / 1024, live > 0 ? (heap1 - heap0) / 1024.0 / live : 0.0,
               bound / 1024);
        if (heap1 - heap0 > bound) {
            tb_fail("heap: %ld kB added by %d communicators, more than %ld kB",
                    (heap1 - heap0) / 1024, live, bound / 1024);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        after = scc_shmem_kb();
        tb_case();
        long bound = (long) max_kb * live * n + slots_kb * n;
        printf("scc_lazy: live: %d communicators of %d processes%s add %ld kB of shared memory "
               "(%.1f kB per process and communicator; at most %ld)\n", live, n,
               big > 0 ? ", each gathering large blocks," : "", after - before,
               live > 0 ? (double) (after - before) / live / n : 0.0, bound);
        if (before < 0 || after < 0) {
            tb_fail("live: /proc/meminfo has no Shmem line");
        } else if (after - before > bound && !over) {
            tb_fail("live: %ld kB of shared memory added, more than %ld kB", after - before,
                    bound);
        } else if (after - before <= bound && over) {
            tb_fail("live: %ld kB of shared memory added, not more than %ld kB", after - before,
                    bound);
        } else if (over) {
            printf("scc_lazy: live: over the bound, as it must be\n");
        }
    }
    /* all still right, and each in its steady state */
    for (int k = 0; k < live; ++k) {
        allreduce_check(comms[k], -k);
        if (big > 0) {
            allgather_big(comms[k], gin, gout, big, -k);
            bcast_strided(comms[k], strided, big, -k);
        }
    }
    free(strided);
    tb_free(gin);
    tb_free(gout);
    for (int k = 0; k < live; ++k) {
        MPI_Comm_free(&comms[k]);
    }
    free(comms);
    {
        int rc = tb_finish();
        MPI_Finalize();
        return rc;
    }
}
