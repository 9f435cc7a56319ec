/* test_learn.c: the choice between single copy and the slots from the calls' times
 * (coll_scc_learn.c): each way tried, the faster one taken, the other tried again now and
 * then, a change of which is faster followed, a delayed call ignored -- and every rank
 * taking the same way in each call. */
#include "coll_scc_learn.h"
#include "unit.h"

/* n calls whose largest part has bytes, where single copy takes single_ns and the slots
 * slots_ns: the timing rank l and another rank o (which reads l's best ways before each call)
 * take their ways; returns how many went single copy, counts disagreements in *differ */
static int run(scc_learn_t *l, scc_learn_t *o, size_t bytes, int n, uint64_t slots_ns,
               uint64_t single_ns, int *differ)
{
    const int b = scc_learn_bucket(bytes);
    int single = 0;
    for (int i = 0; i < n; ++i) {
        uint64_t told = l->best;
        int w = scc_learn_way(l, b, told), v = scc_learn_way(o, b, told);
        *differ += w != v;
        single += SCC_WAY_SINGLE == w;
        (void) scc_learn_note(l, b, w, bytes, SCC_WAY_SINGLE == w ? single_ns : slots_ns);
    }
    return single;
}

int main(void)
{
    scc_learn_t l = { 0 }, o = { 0 };
    const int start = 2 * (SCC_LEARN_KEEP + 1), N = 10 * SCC_LEARN_EXPLORE;
    int k, differ = 0;

    CHECK(0 == scc_learn_bucket(SCC_LEARN_MIN) && 0 == scc_learn_bucket(2 * SCC_LEARN_MIN - 1)
              && 1 == scc_learn_bucket(2 * SCC_LEARN_MIN)
              && SCC_LEARN_BUCKETS - 1 == scc_learn_bucket((size_t) 1 << 40), "size classes");
    /* the first calls: each way warmed once and timed SCC_LEARN_KEEP times, in a row */
    k = run(&l, &o, 262144, start, 20000, 15000, &differ);
    CHECK(start / 2 == k, "first calls: each way %d times (%d single)", start / 2, k);
    /* single copy faster: taken but for one call in SCC_LEARN_EXPLORE */
    k = run(&l, &o, 262144, N, 20000, 15000, &differ);
    CHECK(k >= N - N / SCC_LEARN_EXPLORE - 1 && k < N, "single copy faster: %d of %d", k, N);
    /* the slots become faster: followed once most of their last calls say so */
    k = run(&l, &o, 262144, 2 * N, 10000, 15000, &differ);
    CHECK(k > 0 && k < 2 * N / 2, "slots faster now: %d of %d single", k, 2 * N);
    k = run(&l, &o, 262144, N, 10000, 15000, &differ);
    CHECK(k <= N / SCC_LEARN_EXPLORE + 1 && k >= 1, "then the slots, single tried %d times", k);
    /* sizes are learnt apart: 1 MB starts over */
    k = run(&l, &o, 1 << 20, start, 80000, 60000, &differ);
    CHECK(start / 2 == k, "another size class starts with both ways (%d)", k);
    /* a preempted call (100x) does not turn the choice */
    k = run(&l, &o, 1 << 20, 40, 80000, 60000, &differ);
    (void) scc_learn_note(&l, scc_learn_bucket(1 << 20), SCC_WAY_SINGLE, 1 << 20, 6000000);
    k = run(&l, &o, 1 << 20, N, 80000, 60000, &differ);
    CHECK(k >= N - N / SCC_LEARN_EXPLORE - 1, "after one delayed call single copy still taken (%d of %d)", k, N);
    /* within the margin the way taken stays: single copy 5 % slower, then the slots 5 %
       slower */
    k = run(&l, &o, 1 << 20, N, 60000, 63000, &differ);
    CHECK(k >= N - N / SCC_LEARN_EXPLORE - 1, "single copy 5 %% slower kept (%d of %d)", k, N);
    k = run(&l, &o, 1 << 20, N, 63000, 60000, &differ);
    CHECK(k >= N - N / SCC_LEARN_EXPLORE - 1, "and taken (%d of %d)", k, N);
    /* a fresh class where the two are within the margin: the slots */
    k = run(&l, &o, 4 << 20, start + N, 100000, 95000, &differ);
    CHECK(k <= start / 2 + (start + N) / SCC_LEARN_EXPLORE + 1,
          "within the margin the slots stay (%d single of %d)", k, start + N);
    CHECK(0 == differ, "both ranks took the same way in every call (%d differed)", differ);
    return unit_finish("test_learn");
}
