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

uint64_t scc_learn_word(int before, int after, uint32_t from)
{
    return (uint64_t) from << 2 | (uint64_t) (after & 1) << 1 | (uint64_t) (before & 1);
}

int scc_learn_word_way(uint64_t word, uint32_t c)
{
    return (int) (c >= (word >> 2) ? (word >> 1) & 1 : word & 1);
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

int scc_learn_way(scc_learn_t *l, int b, uint64_t word, bool *timed)
{
    const uint32_t c = l->calls[b], first = SCC_LEARN_KEEP + 1;
    uint32_t e;

    if (c < UINT32_MAX) {
        l->calls[b] = c + 1;
    }
    /* first each way in a run of calls, the run's first one not timed */
    if (c < 2 * first) {
        *timed = 0 != c % first;
        return c < first ? SCC_WAY_SLOTS : SCC_WAY_SINGLE;
    }
    /* then the faster, and two calls of the other in every SCC_LEARN_EXPLORE */
    e = c % SCC_LEARN_EXPLORE;
    *timed = 0 != e;
    return e < 2 ? !scc_learn_word_way(word, c) : scc_learn_word_way(word, c);
}

uint64_t scc_learn_note(scc_learn_t *l, int b, int way, size_t bytes, uint64_t ns,
                        uint64_t word)
{
    const uint32_t k = l->samples[b][way], c = l->calls[b] - 1;
    int now;
    float mine, other;

    l->last[b][way][k % SCC_LEARN_KEEP] = (float) ns / (float) (bytes > 0 ? bytes : 1);
    if (k < UINT32_MAX) {
        l->samples[b][way] = k + 1;
    }
    if (l->samples[b][SCC_WAY_SLOTS] < SCC_LEARN_KEEP
        || l->samples[b][SCC_WAY_SINGLE] < SCC_LEARN_KEEP || c >= UINT32_MAX - 2) {
        return word;
    }
    /* the other way takes over only when it is clearly faster: where the two are within
       the calls' noise, each change would cost the slower way's calls */
    now = (int) (word >> 1) & 1;
    mine = scc_learn_cost(l->last[b][now]);
    other = scc_learn_cost(l->last[b][!now]);
    if (other * SCC_LEARN_MARGIN < mine) {
        return scc_learn_word(scc_learn_word_way(word, c + 1), !now, c + 2);
    }
    return word;
}
