/* coll_scc_learn.c: the way large parts move, from the calls' own times (coll_scc_learn.h). */
#include "coll_scc_learn.h"

int scc_learn_bucket(size_t bytes)
{
    int b = 0;
    for (size_t s = (size_t) SCC_LEARN_MIN * 2; s <= bytes && b < SCC_LEARN_BUCKETS - 1; s *= 2) {
        b++;
    }
    return b;
}

/* The median of a way's last calls (a call the scheduler delayed moves it not at all). */
static float scc_learn_cost(const float *last)
{
    float v[SCC_LEARN_KEEP];
    for (int i = 0; i < SCC_LEARN_KEEP; ++i) {
        int j = i;
        for (; j > 0 && v[j - 1] > last[i]; --j) {
            v[j] = v[j - 1];
        }
        v[j] = last[i];
    }
    return v[SCC_LEARN_KEEP / 2];
}

int scc_learn_way(scc_learn_t *l, int b, uint64_t best)
{
    const uint32_t c = l->calls[b];
    const int faster = (int) ((best >> b) & 1);

    if (c < UINT32_MAX) {
        l->calls[b] = c + 1;
    }
    /* each way warmed once (pages touched, lines brought in: not timed), then timed
       SCC_LEARN_KEEP times in a row (alternating, a call of one way after one of the other
       was slowed by what the other left in the caches: single copy won at 128 KB where it
       was 1.7 times slower) */
    if (c < 2 * (SCC_LEARN_KEEP + 1)) {
        return c < SCC_LEARN_KEEP + 1 ? SCC_WAY_SLOTS : SCC_WAY_SINGLE;
    }
    return 0 == c % SCC_LEARN_EXPLORE ? !faster : faster;
}

uint64_t scc_learn_note(scc_learn_t *l, int b, int way, size_t bytes, uint64_t ns)
{
    const uint32_t k = l->samples[b][way];

    if (k < UINT32_MAX) {
        l->samples[b][way] = k + 1;
    }
    if (k > 0) {    /* (0: the warm-up) */
        l->last[b][way][(k - 1) % SCC_LEARN_KEEP] = (float) ns / (float) (bytes > 0 ? bytes : 1);
    }
    if (l->samples[b][SCC_WAY_SLOTS] > SCC_LEARN_KEEP
        && l->samples[b][SCC_WAY_SINGLE] > SCC_LEARN_KEEP) {
        /* the other way takes over only when it is clearly faster: where the two are
           within the calls' noise, each flip would cost the slower way's calls */
        const int now = (int) ((l->best >> b) & 1);
        const float mine = scc_learn_cost(l->last[b][now]), other = scc_learn_cost(l->last[b][!now]);
        if (other * SCC_LEARN_MARGIN < mine) {
            l->best ^= (uint64_t) 1 << b;
        }
    }
    return l->best;
}
