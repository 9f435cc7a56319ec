/* test_sched_jia.c: Jia's broadcast -- worked vectors; every n up to 300, every k up to 40. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_sched.h"
#include "sched_replay.h"
#include "unit.h"

typedef struct jia_arg {
    int n, root;
    uint32_t k;
} jia_arg_t;

static int gen_jia(scc_sched_t *s, int rank, const void *ctx)
{
    const jia_arg_t *a = ctx;
    return scc_sched_jia_bcast(s, a->n, rank, a->root, a->k);
}

static int ceil_log2(int n)
{
    int q = 0;
    while ((1L << q) < n) {
        q++;
    }
    return q;
}

static int flow_cmp(const void *pa, const void *pb)
{
    const replay_flow_t *a = pa, *b = pb;
    if (a->round != b->round) return a->round < b->round ? -1 : 1;
    if (a->src != b->src) return a->src < b->src ? -1 : 1;
    return (a->dst > b->dst) - (a->dst < b->dst);
}

/* "r0 0->1:b0 | r1 0->2:b1 ..." as written in notes/seed-000-pichler.md §2.6 */
static int parse_vector(const char *text, int n, int root, replay_flow_t *out, int cap)
{
    int m = 0, round = -1;
    const char *p = text;
    while (*p) {
        int a, b, blk, used;
        if (*p == ' ' || *p == '|' || *p == '\n') {
            p++;
        } else if (sscanf(p, "r%d%n", &round, &used) == 1) {
            p += used;
        } else if (sscanf(p, "%d->%d:b%d%n", &a, &b, &blk, &used) == 3 && m < cap) {
            out[m].round = (uint32_t) round;
            out[m].src = (a + root) % n;
            out[m].dst = (b + root) % n;
            out[m].block = (uint32_t) blk;
            out[m].nblocks = 1;
            m++;
            p += used;
        } else {
            return -1;
        }
    }
    qsort(out, (size_t) m, sizeof(*out), flow_cmp);
    return m;
}

static void check_vector(int n, uint32_t k, int root, const char *text)
{
    replay_flow_t want[256];
    replay_result_t res;
    jia_arg_t a = { n, root, k };
    replay_opts_t o = { REPLAY_BCAST, n, root, k, 1, 1, 1 };
    int m = parse_vector(text, n, root, want, 256);

    CHECK(m > 0, "vector n=%d k=%u parses", n, k);
    CHECK(replay_run(&o, gen_jia, &a, &res), "vector n=%d k=%u root %d: %s", n, k, root, res.why);
    qsort(res.flows, (size_t) res.nflows, sizeof(replay_flow_t), flow_cmp);
    CHECK(res.nflows == m, "vector n=%d k=%u root %d: %ld transfers, expected %d", n, k, root,
          res.nflows, m);
    for (long i = 0; i < res.nflows && i < m; ++i) {
        const replay_flow_t *f = &res.flows[i], *w = &want[i];
        CHECK(f->round == w->round && f->src == w->src && f->dst == w->dst && f->block == w->block,
              "vector n=%d k=%u root %d #%ld: got r%u %d->%d:b%u, expected r%u %d->%d:b%u", n, k,
              root, i, f->round, f->src, f->dst, f->block, w->round, w->src, w->dst, w->block);
    }
    replay_free(&res);
}

static const char *vec5 =
    "r0 0->1:b0 | r1 0->2:b1 1->3:b0 | r2 0->4:b1 2->3:b1 3->2:b0 | r3 1->4:b0 4->1:b1";
static const char *vec6 =
    "r0 0->1:b0 | r1 0->2:b1 1->3:b0 | r2 0->4:b2 2->3:b1 3->5:b0 "
    "r3 0->5:b2 1->4:b0 3->1:b1 4->3:b2 5->2:b0 | r4 1->4:b1 2->5:b1 4->1:b2 5->2:b2";
static const char *vec8 =
    "r0 0->1:b0 | r1 0->2:b1 1->3:b0 | r2 0->4:b1 1->5:b0 2->6:b1 3->7:b0 "
    "r3 0->1:b1 2->3:b1 3->2:b0 4->5:b1 5->4:b0 6->7:b1 7->6:b0";
static const char *vec12 =
    "r0 0->1:b0 | r1 0->2:b1 1->10:b0 | r2 0->4:b2 1->5:b0 2->6:b1 10->7:b0 "
    "r3 0->8:b2 2->3:b1 4->5:b2 5->11:b0 6->7:b1 7->6:b0 10->9:b0 "
    "r4 0->9:b2 1->8:b0 3->1:b1 4->6:b2 5->7:b2 6->11:b1 7->5:b1 8->10:b2 9->2:b0 10->3:b0 "
    "11->4:b0 "
    "r5 1->8:b1 2->9:b1 3->10:b1 4->11:b2 8->1:b2 9->2:b2 10->3:b2 11->4:b1";

/* one broadcast: delivery, the round count, one port, nothing into the root, no redundancy */
static long nsteps_total;

static void check_one(int n, uint32_t k, int root, long *nruns)
{
    replay_result_t res;
    jia_arg_t a = { n, root, k };
    replay_opts_t o = { REPLAY_BCAST, n, root, k, 1, 1, 0 };
    uint32_t want = (n == 1 || k == 0) ? 0 : k + (uint32_t) ceil_log2(n) - 1;

    (*nruns)++;
    if (!replay_run(&o, gen_jia, &a, &res)) {
        CHECK(0, "n=%d k=%u root=%d: %s", n, k, root, res.why);
        return;
    }
    nsteps_total += res.nsteps;
    CHECK(res.nrounds == want, "n=%d k=%u: %u rounds, expected %u", n, k, res.nrounds, want);
    CHECK(res.root_recvs == 0, "n=%d k=%u root=%d: %ld receives at the root", n, k, root,
          res.root_recvs);
    CHECK(res.redundant == 0, "n=%d k=%u: %ld redundant blocks", n, k, res.redundant);
    CHECK(res.ntransfers == (long) k * (n - 1), "n=%d k=%u: %ld transfers, expected %ld", n, k,
          res.ntransfers, (long) k * (n - 1));
    CHECK(res.flags == 0, "n=%d: flags %u", n, res.flags);
}

int main(void)
{
    long nruns = 0;
    scc_sched_t s = { 0 };

    /* worked vectors of the digest (root 0), and the same relabelled to other roots */
    check_vector(5, 2, 0, vec5);
    check_vector(6, 3, 0, vec6);
    check_vector(8, 2, 0, vec8);
    check_vector(12, 3, 0, vec12);
    check_vector(6, 3, 4, vec6);
    check_vector(12, 3, 11, vec12);

    /* every n up to 300, block counts 0..40; every root where it is cheap */
    for (int n = 1; n <= 300; ++n) {
        for (uint32_t k = 0; k <= 40; ++k) {
            if (n <= 24 && k <= 5) {
                for (int root = 0; root < n; ++root) {
                    check_one(n, k, root, &nruns);
                }
            } else {
                check_one(n, k, (int) ((n * 37L + k * 11L) % n), &nruns);
            }
        }
    }
    /* large block counts at a few sizes */
    check_one(48, 1000, 7, &nruns);
    check_one(257, 300, 100, &nruns);

    /* bad input */
    CHECK(scc_sched_jia_bcast(&s, 0, 0, 0, 4) == -1, "n = 0");
    CHECK(scc_sched_jia_bcast(&s, 4, 4, 0, 4) == -1, "rank out of range");
    CHECK(scc_sched_jia_bcast(&s, 4, 0, -1, 4) == -1, "root out of range");
    CHECK(scc_sched_jia_bcast(&s, 4, 1, 0, 4) == 0 && s.nsteps > 0 && s.nrounds == 5,
          "sizing pass counts steps without storing them");

    printf("test_sched_jia: %ld broadcasts replayed, %ld steps\n", nruns, nsteps_total);
    return unit_finish("test_sched_jia");
}
