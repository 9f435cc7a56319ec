/* coll_scc_param.c: the rules of the component's numeric MCA parameters, as pure functions. */
#include "coll_scc_param.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why slot counts are multiples of 4: the schedules are proved deadlock-free (the unit tests
 * replay every one) with a window of 4 messages per sender, message t in slot t % 4; with a
 * multiple of 4 slots, messages that share a slot share it in that proof too. */
#define SCC_WHY_NSLOTS "the schedules are proved deadlock-free for multiples of 4 slots"

const scc_param_rule_t scc_param_rules[SCC_PARAM_COUNT] = {
    /* rounds of the dissemination barrier: 0 is all peers in one round */
    [SCC_PARAM_BARRIER_RADIX] = { "coll_scc_barrier_radix", 0, 1 << 20, 0, 1, NULL },
    /* a DOPL part (chunks blocks) travels in one slot (64 bytes at least): blocks of 1+ */
    [SCC_PARAM_DOPL_CHUNKS] = { "coll_scc_dopl_chunks", 1, 64, 1, 1, NULL },
    /* 0 keeps slot-sized blocks; a single-copy block below a page costs a system call for
       next to nothing */
    [SCC_PARAM_CMA_BLOCK] = { "coll_scc_cma_block", 4096, 1 << 30, 0, 1, NULL },
    /* a line at least (what does not fit a slot goes in pieces, single-copy or to the
       fallback); a slot larger than 64 MB only makes the segment too large to create */
    [SCC_PARAM_SHM_SLOT_SIZE] = { "coll_scc_shm_slot_size", 64, 1 << 26, 64, 64,
                                  "slots start on cache lines of 64 bytes" },
    /* at least the 4 messages of the schedules' window; 64: a bit per slot in a word */
    [SCC_PARAM_SHM_NSLOTS] = { "coll_scc_shm_nslots", 4, 64, 4, 4, SCC_WHY_NSLOTS },
    /* 4 KB holds 4 slots and their control; the SCC has 8 KB per core */
    [SCC_PARAM_MPB_CORE_SIZE] = { "coll_scc_mpb_core_size", 4096, 1 << 20, 4096, 32,
                                  "the SCC's buffers are written in lines of 32 bytes" },
    [SCC_PARAM_MPB_NSLOTS] = { "coll_scc_mpb_nslots", 4, 64, 4, 4, SCC_WHY_NSLOTS },
    /* 0 and 1 both progress at the first unanswered poll */
    [SCC_PARAM_SPIN] = { "coll_scc_spin", 0, 1 << 24, 0, 1, NULL },
    /* 0: pieces of a whole slot; pieces are a line at least, and at most a slot (applied
       per transport, whose slot sizes differ) */
    [SCC_PARAM_PIPE_SIZE] = { "coll_scc_pipe_size", 64, 1 << 26, 0, 1, NULL },
    [SCC_PARAM_PIPE_SIZE_OVER] = { "coll_scc_pipe_size_over", 64, 1 << 26, 0, 1, NULL },
    /* -1 where it works, 0 never, 1 required */
    [SCC_PARAM_CMA] = { "coll_scc_cma", -1, 1, -1, 1, NULL },
    /* -2 by the probe, -1 the rule, 0 never, else bytes */
    [SCC_PARAM_CMA_MIN] = { "coll_scc_cma_min", -2, INT_MAX, -2, 1, NULL },
    /* -2 by the probe, 0 never, else bytes: below a page a read per peer costs more than
       it moves (and the direct reductions' single-copy path failed on vectors shorter than
       the ranks) */
    [SCC_PARAM_CMA_REDUCE_MIN] = { "coll_scc_cma_reduce_min", 4096, INT_MAX, -2, 1, NULL, true },
    /* 0 never, else bytes: as coll_scc_cma_reduce_min, a read per peer below a page */
    [SCC_PARAM_CMA_OVER_MIN] = { "coll_scc_cma_over_min", 4096, INT_MAX, 0, 1, NULL },
    /* a block across nodes is one message: below 64 KB it pays a latency for little; a
       reduction's block from another node lands in a buffer of that size */
    [SCC_PARAM_NODES_BLOCK] = { "coll_scc_nodes_block", 65536, 1 << 30, 65536, 1, NULL },
    /* 0 never, else bytes */
    [SCC_PARAM_RSAG_MIN] = { "coll_scc_rsag_min", 1, INT_MAX, 0, 1, NULL },
    [SCC_PARAM_SETUP_CALLS] = { "coll_scc_setup_calls", 0, INT_MAX, 0, 1, NULL },
    [SCC_PARAM_SHM_RESIDENT] = { "coll_scc_shm_resident", 0, INT_MAX, 0, 1, NULL },
    /* 1 and 2 each break one rule of the chip; any other value but 0 broke the second and
       aborted the job */
    [SCC_PARAM_MPB_STRICT_TEST] = { "coll_scc_mpb_strict_test", 0, 2, 0, 1, NULL },
    /* a task's stack: scc_colls and scc_nbc (setup inside a task included) pass with 64 KB;
       above 64 MB the reservation itself is the problem (one per call in flight) */
    [SCC_PARAM_TASK_STACK] = { "coll_scc_task_stack", 65536, 1 << 26, 65536, 4096,
                               "stacks are mapped in pages" },
    /* 0 never; a count above any node's cores is never too */
    [SCC_PARAM_MANY_MIN] = { "coll_scc_many_min", 0, 1 << 20, 0, 1, NULL },
    /* 0 the size rule, 1 learnt, 2 (tests) by rank */
    [SCC_PARAM_CMA_ADAPT] = { "coll_scc_cma_adapt", 0, 2, 0, 1, NULL },
    [SCC_PARAM_NBC_TRY] = { "coll_scc_nbc_try", 0, 1, 0, 1, NULL },
    /* bytes; 0: an in-place alltoall always to the fallback */
    [SCC_PARAM_INPLACE_COPY_MAX] = { "coll_scc_inplace_copy_max", 0, INT_MAX, 0, 1, NULL },
    [SCC_PARAM_PERSISTENT_ORDERED] = { "coll_scc_persistent_ordered", 0, 1, 0, 1, NULL },
    /* 0: none (the fallback's persistent requests) */
    [SCC_PARAM_PERSISTENT_COMMS] = { "coll_scc_persistent_comms", 0, 1 << 20, 0, 1, NULL },
};

long scc_param_fix(const scc_param_rule_t *r, long v, char *why, size_t len)
{
    long fixed = v;

    if (len > 0) {
        why[0] = '\0';
    }
    if (v == r->keep || (r->keep_off && 0 == v)) {
        return v;
    }
    if (r->keep_off && v < r->lo) {
        fixed = v < 0 ? r->keep : r->lo;
        snprintf(why, len, "neither %ld, 0 nor %ld or more", r->keep, r->lo);
    } else if (v < r->keep) {
        fixed = r->keep;
        snprintf(why, len, "below the least value, %ld", r->keep);
    } else if (v < r->lo) {
        /* between the value with a meaning of its own and the range */
        fixed = r->lo;
        snprintf(why, len, "neither %ld nor %ld or more", r->keep, r->lo);
    } else if (v > r->hi) {
        fixed = r->hi;
        snprintf(why, len, "above the largest value, %ld", r->hi);
    } else if (r->multiple > 1 && 0 != v % r->multiple) {
        fixed = v / r->multiple * r->multiple;
        snprintf(why, len, "not a multiple of %ld (%s)", r->multiple, r->why);
    }
    return fixed;
}

size_t scc_param_bytes(size_t v, size_t dflt, char *why, size_t len)
{
    if (len > 0) {
        why[0] = '\0';
    }
    if (v <= SCC_PARAM_BYTES_MAX) {
        return v;
    }
    if (v > SIZE_MAX / 2) {
        /* the negative value read as this one, without relying on a conversion */
        long long neg = -(long long) (SIZE_MAX - v) - 1;
        snprintf(why, len, "a negative value (%lld) read as a byte count; no message has more "
                 "than %zu bytes", neg, (size_t) SCC_PARAM_BYTES_MAX);
    } else {
        snprintf(why, len, "more than %zu bytes, which no message has",
                 (size_t) SCC_PARAM_BYTES_MAX);
    }
    return dflt;
}

/* One dimension of a grid: decimal digits only (no sign, no blank), LONG_MAX when too large
 * for a long; *end is p when there is none. */
static long scc_grid_dim(const char *p, char **end)
{
    long v;

    if (*p < '0' || *p > '9') {
        *end = (char *) p;
        return 0;
    }
    errno = 0;
    v = strtol(p, end, 10);
    return ERANGE == errno ? LONG_MAX : v;
}

int scc_param_grid(const char *spec, long maxtiles, int *C, int *R, char *why, size_t len)
{
    char *end;
    long c, r = 0;

    *C = *R = 0;
    if (len > 0) {
        why[0] = '\0';
    }
    if (NULL == spec || '\0' == spec[0] || 0 == strcmp(spec, "auto")) {
        return 0;
    }
    c = scc_grid_dim(spec, &end);
    if (end != spec && ('x' == *end || 'X' == *end)) {
        const char *p = end + 1;
        r = scc_grid_dim(p, &end);
        if (end == p || '\0' != *end) {
            r = 0;
        }
    }
    if (c < 1 || r < 1) {
        snprintf(why, len, "not COLUMNSxROWS (whole numbers from 1, e.g. 4x2) nor auto");
        return 0;
    }
    /* the nodes become the tiles of a mesh, which holds no more */
    if (c > maxtiles || r > maxtiles / c) {
        snprintf(why, len, "more than %ld tiles, the most a mesh holds", maxtiles);
        return 0;
    }
    *C = (int) c;
    *R = (int) r;
    return 1;
}

int scc_param_mpb_nslots(long core_size, int nslots, size_t ctrl_base, size_t ctrl_per_slot,
                         size_t min_slot)
{
    int n = nslots / 4 * 4;

    while (n > 4 && (size_t) core_size < ctrl_base + (size_t) n * (ctrl_per_slot + min_slot)) {
        n -= 4;
    }
    return n < 4 ? 4 : n;
}

int scc_param_fanout(const char *spec, int *fanout, int maxlevels, int maxfan, char *why,
                     size_t len)
{
    const char *p = spec;
    int n = 0, clamped = 0, dropped = 0;

    if (len > 0) {
        why[0] = '\0';
    }
    if (NULL == spec || '\0' == spec[0] || 0 == strcmp(spec, "auto")) {
        return 0;
    }
    for (;;) {
        char *end;
        long k;

        errno = 0;
        k = strtol(p, &end, 10);
        if (end == p || k < 1 || (',' != *end && '\0' != *end)) {
            snprintf(why, len, "not a list of positive fan-outs such as \"4,4,3\"; the "
                     "automatic shapes are used");
            return 0;
        }
        if (ERANGE == errno || k > maxfan) {
            k = maxfan;
            clamped = 1;
        }
        if (n < maxlevels) {
            fanout[n++] = (int) k;
        } else {
            dropped = 1;
        }
        if ('\0' == *end) {
            break;
        }
        p = end + 1;
    }
    if (clamped || dropped) {
        char c[96] = "", d[96] = "";
        if (clamped) {
            snprintf(c, sizeof(c), "a fan-out above %d (the children a tree node holds) "
                     "becomes %d", maxfan, maxfan);
        }
        if (dropped) {
            snprintf(d, sizeof(d), "levels beyond the %d-th are dropped (deeper levels "
                     "repeat the last)", maxlevels);
        }
        snprintf(why, len, "%s%s%s", c, clamped && dropped ? "; " : "", d);
    }
    return n;
}
