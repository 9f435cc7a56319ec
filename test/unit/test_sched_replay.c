/* test_sched_replay.c: the replay harness catches each kind of broken schedule it should. */
#include <stdio.h>
#include <string.h>

#include "coll_scc_sched.h"
#include "sched_replay.h"
#include "unit.h"

#define S SCC_STEP_SEND
#define RV SCC_STEP_RECV
#define RR SCC_STEP_RECV_REDUCE
#define IN SCC_STEP_F_INPUT
#define L SCC_STEP_F_LIST

/* a hand-written schedule; per rank, steps
 * {kind, flags, peer, tag, round, block, nblocks, readers} */
typedef struct hand_step {
    int kind, flags, peer;
    uint32_t tag, round, block, nblocks;
    int readers;
} hand_step_t;

typedef struct hand {
    int n;
    uint32_t nrounds, flags;
    const hand_step_t *steps[4];
    int nsteps[4];
    const uint32_t *list[4];
    int list_len[4];
} hand_t;

static int gen_hand(scc_sched_t *s, int rank, const void *ctx)
{
    const hand_t *h = ctx;
    scc_sched_reset(s);
    for (int i = 0; i < h->nsteps[rank]; ++i) {
        const hand_step_t *t = &h->steps[rank][i];
        scc_sched_push(s, (scc_step_kind_t) t->kind, t->flags, t->peer, t->tag, t->round, t->block,
                       t->nblocks, t->readers);
    }
    for (int i = 0; i < h->list_len[rank]; ++i) {
        scc_sched_list_push(s, h->list[rank][i]);
    }
    s->nrounds = h->nrounds;
    s->flags = h->flags;
    return 0;
}

#define STEPS(...) ((const hand_step_t[]) { __VA_ARGS__ })

static void expect(const hand_t *h, replay_kind_t kind, int root, uint32_t nb, int ok,
                   const char *needle, const char *what)
{
    replay_opts_t o = { kind, h->n, root, nb, 0, 0, 1 };
    replay_result_t res;
    int got = replay_run(&o, gen_hand, h, &res);
    CHECK(got == ok, "%s: replay says %s (%s)", what, got ? "ok" : "broken", res.why);
    if (!ok && needle != NULL) {
        CHECK(strstr(res.why, needle) != NULL, "%s: reason '%s' lacks '%s'", what, res.why, needle);
    }
    replay_free(&res);
}

int main(void)
{
    /* a correct two-rank broadcast */
    {
        hand_t h = { 2, 1, 0,
                     { STEPS({ S, 0, -1, 0, 0, 0, 1, 1 }), STEPS({ RV, 0, 0, 0, 0, 0, 1, 0 }) },
                     { 1, 1 }, { 0 }, { 0 } };
        expect(&h, REPLAY_BCAST, 0, 1, 1, NULL, "bcast n=2");
        expect(&h, REPLAY_BCAST, 0, 2, 0, "misses block 1", "bcast with a block never sent");
        h.nrounds = 2;
        expect(&h, REPLAY_BCAST, 0, 1, 1, NULL, "loose nrounds pass without tight_rounds");
    }
    /* one port per round, and nrounds that overstates the rounds used */
    {
        hand_t h = { 3, 1, 0,
                     { STEPS({ S, 0, -1, 0, 0, 0, 1, 1 }, { S, 0, -1, 1, 0, 0, 1, 1 }),
                       STEPS({ RV, 0, 0, 0, 0, 0, 1, 0 }), STEPS({ RV, 0, 0, 1, 0, 0, 1, 0 }) },
                     { 2, 1, 1 }, { 0 }, { 0 } };
        replay_opts_t o = { REPLAY_BCAST, 3, 0, 1, 1, 1, 0 };
        replay_result_t res;
        CHECK(!replay_run(&o, gen_hand, &h, &res) && strstr(res.why, "two sends in round 0"),
              "one port: %s", res.why);
        o.one_port = 0;
        CHECK(replay_run(&o, gen_hand, &h, &res), "two sends are fine without one port");
        h.nrounds = 2;
        CHECK(!replay_run(&o, gen_hand, &h, &res) && strstr(res.why, "rounds used end at 1"),
              "tight rounds: %s", res.why);
        hand_t g = { 3, 1, 0,
                     { STEPS({ S, 0, -1, 0, 0, 0, 1, 1 }),
                       STEPS({ RV, 0, 0, 0, 0, 0, 1, 0 }, { S, 0, -1, 0, 0, 0, 1, 1 }),
                       STEPS({ RV, 0, 1, 0, 0, 0, 1, 0 }, { RV, 0, 0, 0, 0, 0, 1, 0 }) },
                     { 1, 2, 2 }, { 0 }, { 0 } };
        o.one_port = 1;
        g.steps[0] = STEPS({ S, 0, -1, 0, 0, 0, 1, 2 });
        CHECK(!replay_run(&o, gen_hand, &g, &res) && strstr(res.why, "two receives in round 0"),
              "one port receive: %s", res.why);
    }
    /* both receive first */
    {
        hand_t h = { 2, 1, 0,
                     { STEPS({ RV, 0, 1, 0, 0, 0, 1, 0 }, { S, 0, -1, 0, 0, 0, 1, 1 }),
                       STEPS({ RV, 0, 0, 0, 0, 0, 1, 0 }, { S, 0, -1, 0, 0, 0, 1, 1 }) },
                     { 2, 2 }, { 0 }, { 0 } };
        expect(&h, REPLAY_BCAST, 0, 1, 0, "deadlock", "receive-receive cycle");
    }
    /* five messages in flight where the transport holds four: rank 2 reads rank 0's first
       message only after rank 1 got rank 0's fifth */
    {
        hand_t h = { 3, 1, 0,
                     { STEPS({ S, 0, -1, 0, 0, 0, 1, 1 }, { S, 0, -1, 1, 0, 1, 1, 1 },
                             { S, 0, -1, 2, 0, 2, 1, 1 }, { S, 0, -1, 3, 0, 3, 1, 1 },
                             { S, 0, -1, 4, 0, 4, 1, 1 }),
                       STEPS({ RV, 0, 0, 4, 0, 4, 1, 0 }, { S, 0, -1, 0, 0, 4, 1, 1 }),
                       STEPS({ RV, 0, 1, 0, 0, 4, 1, 0 }, { RV, 0, 0, 0, 0, 0, 1, 0 },
                             { RV, 0, 0, 1, 0, 1, 1, 0 }, { RV, 0, 0, 2, 0, 2, 1, 0 },
                             { RV, 0, 0, 3, 0, 3, 1, 0 }) },
                     { 5, 2, 5 }, { 0 }, { 0 } };
        expect(&h, REPLAY_BCAST, 0, 5, 0, "deadlock", "window of four exhausted");
    }
    /* wrong reader count, send before holding, tag order, round mismatch */
    {
        hand_t h = { 2, 1, 0,
                     { STEPS({ S, 0, -1, 0, 0, 0, 1, 2 }), STEPS({ RV, 0, 0, 0, 0, 0, 1, 0 }) },
                     { 1, 1 }, { 0 }, { 0 } };
        expect(&h, REPLAY_BCAST, 0, 1, 0, "2 readers announced, 1 read", "nreaders");
    }
    {
        hand_t h = { 3, 2, 0,
                     { STEPS({ S, 0, -1, 0, 0, 0, 1, 1 }),
                       STEPS({ S, 0, -1, 0, 0, 0, 1, 1 }, { RV, 0, 0, 0, 0, 0, 1, 0 }),
                       STEPS({ RV, 0, 1, 0, 0, 0, 1, 0 }) },
                     { 1, 2, 1 }, { 0 }, { 0 } };
        expect(&h, REPLAY_BCAST, 0, 1, 0, "before it holds it", "forward before receive");
    }
    {
        hand_t h = { 2, 1, 0,
                     { STEPS({ S, 0, -1, 1, 0, 0, 1, 1 }, { S, 0, -1, 0, 0, 1, 1, 1 }),
                       STEPS({ RV, 0, 0, 0, 0, 1, 1, 0 }, { RV, 0, 0, 1, 0, 0, 1, 0 }) },
                     { 2, 2 }, { 0 }, { 0 } };
        expect(&h, REPLAY_BCAST, 0, 2, 0, "not above", "decreasing send tags");
    }
    {
        hand_t h = { 2, 2, 0,
                     { STEPS({ S, 0, -1, 0, 0, 0, 1, 1 }, { S, 0, -1, 1, 1, 1, 1, 1 }),
                       STEPS({ RV, 0, 0, 1, 1, 1, 1, 0 }, { RV, 0, 0, 0, 0, 0, 1, 0 }) },
                     { 2, 2 }, { 0 }, { 0 } };
        expect(&h, REPLAY_BCAST, 0, 2, 0, "after tag", "reads out of tag order");
    }
    {
        hand_t h = { 2, 2, 0,
                     { STEPS({ S, 0, -1, 0, 0, 0, 1, 1 }), STEPS({ RV, 0, 0, 0, 1, 0, 1, 0 }) },
                     { 1, 1 }, { 0 }, { 0 } };
        expect(&h, REPLAY_BCAST, 0, 1, 0, "in round 1, sent in round 0", "round mismatch");
    }
    /* overwriting a block while one's own message of it is unread */
    {
        hand_t h = { 3, 2, 0,
                     { STEPS({ S, 0, -1, 0, 0, 0, 1, 1 }, { S, 0, -1, 1, 1, 0, 1, 2 }),
                       STEPS({ RV, 0, 0, 0, 0, 0, 1, 0 }, { S, 0, -1, 0, 1, 0, 1, 1 },
                             { RV, 0, 0, 1, 1, 0, 1, 0 }),
                       STEPS({ RV, 0, 0, 1, 1, 0, 1, 0 }, { RV, 0, 1, 0, 1, 0, 1, 0 }) },
                     { 2, 3, 2 }, { 0 }, { 0 } };
        expect(&h, REPLAY_BCAST, 0, 1, 0, "overwrites block 0", "overwrite of unread data");
    }
    /* reductions: order, double counting, F_INPUT rules */
    {
        hand_t h = { 2, 1, 0,
                     { STEPS({ RR, IN, 1, 0, 0, 0, 1, 0 }), STEPS({ S, IN, -1, 0, 0, 0, 1, 1 }) },
                     { 1, 1 }, { 0 }, { 0 } };
        expect(&h, REPLAY_REDUCE, 0, 1, 0, "not in rank order", "1 op 0 without the flag");
        h.flags = SCC_SCHED_F_COMMUTATIVE;
        expect(&h, REPLAY_REDUCE, 0, 1, 1, NULL, "1 op 0 with the flag");
        h.flags = 0;
        expect(&h, REPLAY_REDUCE, 1, 1, 0, "0 of 2", "result expected at a rank that has none");
    }
    {
        hand_t h = { 3, 2, SCC_SCHED_F_COMMUTATIVE,
                     { STEPS({ RR, IN, 1, 0, 1, 0, 1, 0 }, { RR, 0, 2, 1, 1, 0, 1, 0 }),
                       STEPS({ RR, IN, 2, 0, 0, 0, 1, 0 }, { S, 0, -1, 0, 1, 0, 1, 1 }),
                       STEPS({ S, IN, -1, 0, 0, 0, 1, 1 }, { S, IN, -1, 1, 1, 0, 1, 1 }) },
                     { 2, 2, 2 }, { 0 }, { 0 } };
        expect(&h, REPLAY_REDUCE, 0, 1, 0, "combined twice", "a contribution counted twice");
    }
    {
        hand_t h = { 2, 1, SCC_SCHED_F_COMMUTATIVE,
                     { STEPS({ RR, 0, 1, 0, 0, 0, 1, 0 }), STEPS({ S, IN, -1, 0, 0, 0, 1, 1 }) },
                     { 1, 1 }, { 0 }, { 0 } };
        expect(&h, REPLAY_REDUCE, 0, 1, 0, "never touched", "reduce into an untouched block");
    }
    {
        hand_t h = { 2, 1, SCC_SCHED_F_COMMUTATIVE,
                     { STEPS({ RR, IN, 1, 0, 0, 0, 1, 0 }), STEPS({ S, 0, -1, 0, 0, 0, 1, 1 }) },
                     { 1, 1 }, { 0 }, { 0 } };
        expect(&h, REPLAY_REDUCE, 0, 1, 0, "before it holds it", "send of an empty work block");
    }
    /* alltoall: pairs must be held to be sent and must all arrive */
    {
        static const uint32_t l0[] = { 1 }, l1[] = { 2 };
        hand_t h = { 2, 1, 0,
                     { STEPS({ S, L, -1, 0, 0, 0, 1, 1 }, { RV, L, 1, 0, 0, 0, 1, 0 }),
                       STEPS({ S, L, -1, 0, 0, 0, 1, 1 }, { RV, L, 0, 0, 0, 0, 1, 0 }) },
                     { 2, 2 }, { l0, l1 }, { 1, 1 } };
        expect(&h, REPLAY_ALLTOALL, 0, 0, 0, "other pairs", "lists differ between the two sides");
        static const uint32_t m0[] = { 1, 2 }, m1[] = { 2, 1 };
        hand_t g = { 2, 1, 0,
                     { STEPS({ S, L, -1, 0, 0, 0, 1, 1 }, { RV, L, 1, 0, 0, 1, 1, 0 }),
                       STEPS({ S, L, -1, 0, 0, 0, 1, 1 }, { RV, L, 0, 0, 0, 1, 1, 0 }) },
                     { 2, 2 }, { m0, m1 }, { 2, 2 } };
        expect(&g, REPLAY_ALLTOALL, 0, 0, 1, NULL, "two-rank exchange");
        static const uint32_t k0[] = { 3, 2 }, k1[] = { 2, 3 };
        g.list[0] = k0;
        g.list[1] = k1;
        expect(&g, REPLAY_ALLTOALL, 0, 0, 0, "before it holds it", "sending a pair not held");
    }
    /* barrier: a fan-in alone leaves ranks uninformed */
    {
        hand_t h = { 2, 1, 0,
                     { STEPS({ RV, 0, 1, 0, 0, 0, 0, 0 }), STEPS({ S, 0, -1, 0, 0, 0, 0, 1 }) },
                     { 1, 1 }, { 0 }, { 0 } };
        replay_opts_t o = { REPLAY_BARRIER, 2, 0, 0, 0, 1, 0 };
        replay_result_t res;
        CHECK(replay_run(&o, gen_hand, &h, &res) && !res.barrier_complete, "fan-in only");
        hand_t g = { 2, 2, 0,
                     { STEPS({ RV, 0, 1, 0, 0, 0, 0, 0 }, { S, 0, -1, 1, 1, 0, 0, 1 }),
                       STEPS({ S, 0, -1, 0, 0, 0, 0, 1 }, { RV, 0, 0, 1, 1, 0, 0, 0 }) },
                     { 2, 2 }, { 0 }, { 0 } };
        CHECK(replay_run(&o, gen_hand, &g, &res) && res.barrier_complete, "fan-in, fan-out");
    }
    /* X-Y routing: x first, so two flows that share a column segment share its links */
    {
        const int tx[4] = { 0, 1, 2, 3 }, ty[4] = { 0, 0, 0, 0 };
        replay_flow_t f[2] = { { 0, 0, 2, 0, 1 }, { 0, 1, 3, 0, 1 } };
        replay_result_t res = { 0 };
        res.flows = f;
        res.nflows = 2;
        CHECK(replay_xy_maxload(&res, tx, ty, 4, 1, 0) == 2, "0->2 and 1->3 share link 1->2");
        f[1].src = 3;
        f[1].dst = 1;
        CHECK(replay_xy_maxload(&res, tx, ty, 4, 1, 0) == 1, "opposite directions do not");
        const int ux[2] = { 0, 1 }, uy[2] = { 0, 1 };
        replay_flow_t g[2] = { { 0, 0, 1, 0, 1 }, { 0, 1, 0, 0, 1 } };
        res.flows = g;
        CHECK(replay_xy_maxload(&res, ux, uy, 2, 2, 0) == 1, "(0,0)<->(1,1) take different paths");
        CHECK(replay_xy_maxload(&res, ux, uy, 2, 2, 1) == 0, "nothing in round 1");
    }
    return unit_finish("test_sched_replay");
}
