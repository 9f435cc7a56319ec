/* scc_sim_engine_setup.c: each rank's state before a replay -- its SEND steps by tag, its
 * messages, and between nodes who reads each message and which memory it goes through. */
#include <stdlib.h>
#include <string.h>

#include "scc_sim_engine_int.h"

typedef struct tag_at {
    uint32_t tag;
    long at;
} tag_at_t;

static int cmp_tag(const void *a, const void *b)
{
    const tag_at_t *x = a, *y = b;
    return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* The SEND steps by tag.  On a mesh tags rise along them; between nodes only within each
 * memory (scc_sim_net_setup checks that), and no two share one. */
static int sort_tags(engine_t *e, int r)
{
    rank_t *R = &e->ranks[r];
    tag_at_t *v;
    int rising = 1;

    for (long k = 1; k < R->nsends; ++k) {
        rising &= R->tags[k] > R->tags[k - 1];
    }
    for (long k = 0; k < R->nsends; ++k) {
        R->order[k] = k;
    }
    if (rising) {
        return 0;
    }
    if (!e->net) {
        for (long k = 1; k < R->nsends; ++k) {
            if (R->tags[k] <= R->tags[k - 1]) {
                fprintf(stderr, "scc_sim: rank %d publishes tag %u after tag %u\n", r,
                        R->tags[k], R->tags[k - 1]);
                break;
            }
        }
        return -1;
    }
    v = malloc(sizeof(*v) * R->nsends);
    if (NULL == v) {
        return -1;
    }
    for (long k = 0; k < R->nsends; ++k) {
        v[k].tag = R->tags[k];
        v[k].at = k;
    }
    qsort(v, (size_t) R->nsends, sizeof(*v), cmp_tag);
    for (long k = 0; k < R->nsends; ++k) {
        R->order[k] = v[k].at;
        if (k > 0 && v[k].tag == v[k - 1].tag) {
            fprintf(stderr, "scc_sim: rank %d publishes tag %u twice\n", r, v[k].tag);
            free(v);
            return -1;
        }
    }
    free(v);
    return 0;
}

int scc_sim_engine_setup_rank(engine_t *e, int r)
{
    const scc_sim_prog_t *prog = &e->job->progs[r];
    rank_t *R = &e->ranks[r];
    long k = 0;

    for (long i = 0; i < prog->nsteps; ++i) {
        if (SCC_STEP_SEND == prog->steps[i].kind) {
            k++;
        }
    }
    R->nsends = k;
    R->tags = malloc(sizeof(uint32_t) * (k ? k : 1));
    R->order = malloc(sizeof(long) * (k ? k : 1));
    R->msgs = malloc(sizeof(msg_t) * (k ? k : 1) * e->passes);
    R->slot_last = malloc(sizeof(long) * (e->window > 0 ? e->window : 1));
    if (!R->tags || !R->order || !R->msgs || !R->slot_last) {
        return -1;
    }
    for (int i = 0; i < e->window; ++i) {
        R->slot_last[i] = -1;
    }
    k = 0;
    for (long i = 0; i < prog->nsteps; ++i) {
        const scc_step_t *st = &prog->steps[i];
        if (SCC_STEP_SEND != st->kind) {
            continue;
        }
        R->tags[k++] = st->tag;
    }
    if (0 != sort_tags(e, r)) {
        return -1;
    }
    for (long i = 0; i < R->nsends * e->passes; ++i) {
        msg_t *m = &R->msgs[i];
        memset(m, 0, sizeof(*m));
        m->left = -1;
        m->waiters = -1;
        m->cons_waiter = -1;
    }
    R->next_wait = -1;
    return 0;
}

void scc_sim_engine_free_rank(rank_t *R)
{
    free(R->tags);
    free(R->order);
    free(R->msgs);
    free(R->slot_last);
    free(R->rd_at);
    free(R->rd);
    free(R->nlocal);
    free(R->src);
    free(R->net_post);
    free(R->net_arr);
}

/* ---------------------------------------------------------------- between nodes */

/* Tags must rise along the SENDs of each memory: those through the node's slots (a reader
 * on the node, or none) and those over the network (coll_scc_sched_hier.h). */
static int check_memories(const engine_t *e, int r)
{
    const rank_t *R = &e->ranks[r];
    int64_t last[2] = { -1, -1 };

    for (long i = 0; i < R->nsends; ++i) {
        int net = 0 == R->nlocal[i] && R->rd_at[i + 1] > R->rd_at[i];
        if ((int64_t) R->tags[i] <= last[net]) {
            fprintf(stderr, "scc_sim: rank %d publishes tag %u after tag %ld (%s)\n", r,
                    R->tags[i], (long) last[net], net ? "network" : "its node's slots");
            return -1;
        }
        last[net] = R->tags[i];
    }
    return 0;
}

int scc_sim_net_setup(engine_t *e)
{
    const scc_sim_job_t *job = e->job;
    const int n = job->n;
    long **fill = calloc((size_t) n, sizeof(long *));
    int rc = -1;

    if (NULL == fill) {
        return -1;
    }
    for (int r = 0; r < n; ++r) {
        rank_t *R = &e->ranks[r];
        R->rd_at = calloc((size_t) R->nsends + 1, sizeof(long));
        R->nlocal = calloc((size_t) R->nsends + 1, sizeof(uint16_t));
        R->src = malloc(sizeof(long) * (job->progs[r].nsteps + 1));
        if (!R->rd_at || !R->nlocal || !R->src) {
            goto out;
        }
    }
    /* count each SEND's readers, then list them by rank (the order the component's
       isends go in: coll_scc_plan_make.c finds readers rank by rank) */
    for (int pass = 0; pass < 2; ++pass) {
        for (int q = 0; q < n; ++q) {
            const scc_sim_prog_t *pr = &job->progs[q];
            for (long j = 0; j < pr->nsteps; ++j) {
                const scc_step_t *st = &pr->steps[j];
                long i;
                rank_t *S;
                if (SCC_STEP_SEND == st->kind || st->peer < 0 || st->peer >= n
                    || (i = scc_sim_engine_find(e, st->peer, st->tag)) < 0) {
                    e->ranks[q].src[j] = -1;    /* the replay reports it */
                    continue;
                }
                e->ranks[q].src[j] = i;     /* found once, not at every read */
                S = &e->ranks[st->peer];
                if (0 == pass) {
                    S->rd_at[i + 1]++;
                    S->nlocal[i] += job->progs[st->peer].tile == pr->tile;
                } else {
                    S->rd[fill[st->peer][i]++] = q;
                }
            }
        }
        for (int r = 0; 0 == pass && r < n; ++r) {
            rank_t *R = &e->ranks[r];
            long total;
            for (long i = 0; i < R->nsends; ++i) {
                R->rd_at[i + 1] += R->rd_at[i];
            }
            total = R->rd_at[R->nsends];
            R->rd = malloc(sizeof(int) * (total + 1));
            R->net_post = malloc(sizeof(double) * (total * e->passes + 1));
            R->net_arr = malloc(sizeof(double) * (total * e->passes + 1));
            fill[r] = malloc(sizeof(long) * (R->nsends + 1));
            if (!R->rd || !R->net_post || !R->net_arr || !fill[r]) {
                goto out;
            }
            memcpy(fill[r], R->rd_at, sizeof(long) * (R->nsends + 1));
            for (long k = 0; k < total * e->passes; ++k) {
                R->net_post[k] = R->net_arr[k] = -1;
            }
            if (0 != check_memories(e, r)) {
                goto out;
            }
        }
    }
    rc = 0;
out:
    for (int r = 0; r < n; ++r) {
        free(fill[r]);
    }
    free(fill);
    return rc;
}
