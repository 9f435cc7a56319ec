/* test_learn.c: the choice between single copy and the slots from the calls' times
 * (coll_scc_learn.c): each way tried, the faster one taken, the other tried again now and
 * then, a change of which is faster followed, a delayed call ignored -- and every rank
 * taking the same way in each call. */
#include "coll_scc_learn.h"
#include "unit.h"

/* n calls whose largest part has bytes, where single copy takes single_ns and the slots
 * slots_ns: the timing rank l and another rank o read the class's word before each call and
 * take their ways, l publishes what it notes; returns how many went single copy, counts
 * disagreements in *differ */
static uint64_t words[SCC_LEARN_BUCKETS];

static int run(scc_learn_t *l, scc_learn_t *o, size_t bytes, int n, uint64_t slots_ns,
               uint64_t single_ns, int *differ)
{
    const int b = scc_learn_bucket(bytes);
    int single = 0;
    for (int i = 0; i < n; ++i) {
        bool timed, otimed;
        int w = scc_learn_way(l, b, words[b], &timed), v = scc_learn_way(o, b, words[b], &otimed);
        *differ += w != v || timed != otimed;
        single += SCC_WAY_SINGLE == w;
        if (timed) {
            words[b] = scc_learn_note(l, b, w, bytes, SCC_WAY_SINGLE == w ? single_ns : slots_ns,
                                      words[b]);
        }
    }
    return single;
}

int main(void)
{
    scc_learn_t l = { 0 }, o = { 0 };
    const int start = 2 * (SCC_LEARN_KEEP + 1), N = 10 * SCC_LEARN_EXPLORE;
    const int explored = 2 * N / SCC_LEARN_EXPLORE;     /* the other way's calls in N */
    int k, differ = 0;

    CHECK(0 == scc_learn_bucket(SCC_LEARN_MIN) && 0 == scc_learn_bucket(2 * SCC_LEARN_MIN - 1)
              && 1 == scc_learn_bucket(2 * SCC_LEARN_MIN)
              && SCC_LEARN_BUCKETS - 1 == scc_learn_bucket((size_t) 1 << 40), "size classes");
    /* a change takes effect two calls on: a rank that reads the word before it changed
       takes the same way in the call between as one that reads it after */
    {
        uint64_t w0 = scc_learn_word(0, 0, 0), w1 = scc_learn_word(scc_learn_word_way(w0, 6), 1, 7);
        CHECK(0 == scc_learn_word_way(w0, 6) && 0 == scc_learn_word_way(w1, 6)
                  && 1 == scc_learn_word_way(w1, 7) && 1 == scc_learn_word_way(w1, 1000)
                  && 0 == scc_learn_word_way(0, 123456), "the word's ways by count");
    }
    /* the first calls: each way warmed once and timed SCC_LEARN_KEEP times, in a row */
    k = run(&l, &o, 262144, start, 20000, 15000, &differ);
    CHECK(start / 2 == k, "first calls: each way %d times (%d single)", start / 2, k);
    /* single copy faster: taken but for one call in SCC_LEARN_EXPLORE */
    k = run(&l, &o, 262144, N, 20000, 15000, &differ);
    CHECK(k >= N - explored - 2 && k < N, "single copy faster: %d of %d", k, N);
    /* the slots become faster: followed once most of their last calls say so */
    k = run(&l, &o, 262144, 2 * N, 10000, 15000, &differ);
    CHECK(k > 0 && k < 2 * N / 2, "slots faster now: %d of %d single", k, 2 * N);
    k = run(&l, &o, 262144, N, 10000, 15000, &differ);
    CHECK(k <= explored + 1 && k >= 1, "then the slots, single tried %d times", k);
    /* sizes are learnt apart: 1 MB starts over */
    k = run(&l, &o, 1 << 20, start, 80000, 60000, &differ);
    CHECK(start / 2 == k, "another size class starts with both ways (%d)", k);
    /* a preempted call (100x) does not turn the choice */
    k = run(&l, &o, 1 << 20, 40, 80000, 60000, &differ);
    words[scc_learn_bucket(1 << 20)] = scc_learn_note(&l, scc_learn_bucket(1 << 20), SCC_WAY_SINGLE,
                                                      1 << 20, 6000000, words[scc_learn_bucket(1 << 20)]);
    k = run(&l, &o, 1 << 20, N, 80000, 60000, &differ);
    CHECK(k >= N - explored - 1, "after one delayed call single copy still taken (%d of %d)", k, N);
    /* within the margin the way taken stays: single copy 5 % slower, then the slots 5 %
       slower */
    k = run(&l, &o, 1 << 20, N, 60000, 63000, &differ);
    CHECK(k >= N - explored - 1, "single copy 5 %% slower kept (%d of %d)", k, N);
    k = run(&l, &o, 1 << 20, N, 63000, 60000, &differ);
    CHECK(k >= N - explored - 1, "and taken (%d of %d)", k, N);
    /* a fresh class where the two are within the margin: the slots */
    k = run(&l, &o, 4 << 20, start + N, 100000, 95000, &differ);
    CHECK(k <= start / 2 + 2 * (start + N) / SCC_LEARN_EXPLORE + 2,
          "within the margin the slots stay (%d single of %d)", k, start + N);
    CHECK(0 == differ, "both ranks took the same way in every call (%d differed)", differ);
    return unit_finish("test_learn");
}
