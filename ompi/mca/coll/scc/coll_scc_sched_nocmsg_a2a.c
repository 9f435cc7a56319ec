/* coll_scc_sched_nocmsg_a2a.c: NoC_Msg's alltoall (seeds/003) on a tile mesh with any holes:
 * a column stage, then a row stage, on pair lists. */
#include <stdlib.h>
#include <string.h>

#include "coll_scc_sched.h"
#include "coll_scc_sched_int.h"

/* Alltoall: block (s, d) goes up or down s's column to row y(d) (column stage),
 * then along that row to d (row stage).  Its stop in between is the core of
 * s's lane (same z) on tile (x(s), y(d)), else that tile's lowest core.  Pairs in
 * one column go straight to d; pairs in one row start the row stage at s; when
 * tile (x(s), y(d)) is empty the pair goes straight to d in the column stage.
 *
 * Round of a message: column stage |dy| (0 inside a tile), row stage Y-1+|dx|.
 * Inside a round, messages are ordered by a key so that each rank sends at most
 * two messages (one each way) per key and, per key, every rank sends before it
 * receives; with consecutive tags per key this can never exhaust the transport's
 * window of SCC_SCHED_TAG_WINDOW >= 2 messages. */

#if SCC_SCHED_TAG_WINDOW < 2
#error "the alltoall schedule needs a window of two messages per sender"
#endif

typedef struct a2a {
    const scc_tiles_t *m;
    int nkeys;
} a2a_t;

static int px(const scc_tiles_t *m, int r)
{
    return m->tile_of[r] % m->X;
}

static int py(const scc_tiles_t *m, int r)
{
    return m->tile_of[r] / m->X;
}

/* where pair (s, d) stops between the two stages */
static int a2a_stop(const scc_tiles_t *m, int s, int d)
{
    if (px(m, s) == px(m, d)) {
        return d;
    }
    if (py(m, s) == py(m, d)) {
        return s;
    }
    int tile = py(m, d) * m->X + px(m, s), r = m->at[tile * m->K + m->core_of[s]];
    for (int z = 0; z < m->K && r < 0; ++z) {
        r = m->at[tile * m->K + z];
    }
    return r >= 0 ? r : d;
}

/* a message from a to b: its round, key and direction; tag = ((round*nkeys)+key)*2+dir */
static void a2a_slot(const a2a_t *A, int colstage, int a, int b, uint32_t *round, uint32_t *tag)
{
    const scc_tiles_t *m = A->m;
    const int K = m->K;
    int key, dir;
    if (colstage) {
        int dy = py(m, b) - py(m, a);
        *round = (uint32_t) abs(dy);
        dir = dy < 0;
        if (m->tile_of[a] == m->tile_of[b]) {
            key = (m->core_of[b] - m->core_of[a] + K) % K;
        } else if (px(m, a) == px(m, b)) {
            key = m->core_of[b];
        } else {
            key = K + px(m, b) * K + m->core_of[b];
        }
    } else {
        int dx = px(m, b) - px(m, a);
        *round = (uint32_t) (m->Y - 1 + abs(dx));
        dir = dx < 0;
        key = m->core_of[b];
    }
    *tag = (uint32_t) (((long) *round * A->nkeys + key) * 2 + dir);
}

typedef struct a2a_msg {
    uint32_t tag, round;
    int send;       /* 1: I send, 0: I receive */
    int peer;       /* the other rank */
    long first, count; /* pair ids in pairs[first .. first+count) */
} a2a_msg_t;

typedef struct a2a_buf {
    a2a_msg_t *msg;
    long nmsg, msgcap;
    uint32_t *pairs;
    long npairs, paircap;
} a2a_buf_t;

static int a2a_add_pair(a2a_buf_t *b, uint32_t pair)
{
    if (b->npairs == b->paircap) {
        long cap = b->paircap ? 2 * b->paircap : 256;
        uint32_t *p = realloc(b->pairs, sizeof(uint32_t) * (size_t) cap);
        if (p == NULL) {
            return -1;
        }
        b->pairs = p;
        b->paircap = cap;
    }
    b->pairs[b->npairs++] = pair;
    return 0;
}

/* closes the pairs added since first into one message (nothing when there are none) */
static int a2a_add_msg(a2a_buf_t *b, const a2a_t *A, int colstage, int send, int me, int peer,
                       long first)
{
    if (b->npairs == first) {
        return 0;
    }
    if (b->nmsg == b->msgcap) {
        long cap = b->msgcap ? 2 * b->msgcap : 64;
        a2a_msg_t *p = realloc(b->msg, sizeof(a2a_msg_t) * (size_t) cap);
        if (p == NULL) {
            return -1;
        }
        b->msg = p;
        b->msgcap = cap;
    }
    a2a_msg_t *g = &b->msg[b->nmsg++];
    g->send = send;
    g->peer = peer;
    g->first = first;
    g->count = b->npairs - first;
    /* the tag is the sender's */
    a2a_slot(A, colstage, send ? me : peer, send ? peer : me, &g->round, &g->tag);
    return 0;
}

/* step order: by round, key; within a key sends (by direction) before receives (by sender) */
static int a2a_cmp(const void *pa, const void *pb)
{
    const a2a_msg_t *a = pa, *b = pb;
    uint32_t ka = a->tag / 2, kb = b->tag / 2;
    if (ka != kb) {
        return ka < kb ? -1 : 1;
    }
    if (a->send != b->send) {
        return a->send ? -1 : 1;
    }
    if (a->send) {
        return (a->tag > b->tag) - (a->tag < b->tag);
    }
    return (a->peer > b->peer) - (a->peer < b->peer);
}

int scc_sched_nocmsg_alltoall(scc_sched_t *s, const scc_tiles_t *m, int rank)
{
    a2a_buf_t b = { 0 };
    a2a_t A;
    int rc = -1;

    scc_sched_reset(s);
    if (!scc_tiles_ok(m) || rank < 0 || rank >= m->n || m->n > 65535) {
        return -1;
    }
    const int n = m->n, X = m->X, Y = m->Y, K = m->K, me = rank;
    if (n == 1) {
        return 0;
    }
    A.m = m;
    A.nkeys = K + X * K;
    if ((long) (X + Y) * A.nkeys * 2 > (long) UINT32_MAX) {
        return -1;
    }
    const int mx = px(m, me), my = py(m, me);

    /* column stage, sending: my pairs grouped by their stop (pairs in d order) */
    for (int t = 0; t < n; ++t) {
        long first = b.npairs;
        if (t == me) {
            continue;
        }
        for (int d = 0; d < n; ++d) {
            if (d != me && a2a_stop(m, me, d) == t && a2a_add_pair(&b, (uint32_t) (me * n + d))) {
                goto out;
            }
        }
        if (a2a_add_msg(&b, &A, 1, 1, me, t, first)) {
            goto out;
        }
    }
    /* column stage, receiving: pairs (s, d) that stop at me come for d == me or d in my row */
    for (int sr = 0; sr < n; ++sr) {
        long first = b.npairs;
        if (sr == me) {
            continue;
        }
        for (int d = 0; d < n; ++d) {
            if (d != sr && (d == me || py(m, d) == my) && a2a_stop(m, sr, d) == me &&
                a2a_add_pair(&b, (uint32_t) (sr * n + d))) {
                goto out;
            }
        }
        if (a2a_add_msg(&b, &A, 1, 0, me, sr, first)) {
            goto out;
        }
    }
    /* row stage: the pairs that stopped at me go to the cores of my row, by source */
    for (int x = 0; x < X; ++x) {
        for (int z = 0; z < K; ++z) {
            int d = m->at[(my * X + x) * K + z];
            long first = b.npairs;
            if (d < 0 || x == mx) {
                continue;
            }
            for (int y = 0; y < Y; ++y) {
                for (int zz = 0; zz < K; ++zz) {
                    int sr = m->at[(y * X + mx) * K + zz];
                    if (sr >= 0 && sr != d && a2a_stop(m, sr, d) == me &&
                        a2a_add_pair(&b, (uint32_t) (sr * n + d))) {
                        goto out;
                    }
                }
            }
            if (a2a_add_msg(&b, &A, 0, 1, me, d, first)) {
                goto out;
            }
        }
    }
    /* row stage, receiving from each core of my row in another column */
    for (int x = 0; x < X; ++x) {
        for (int z = 0; z < K; ++z) {
            int st = m->at[(my * X + x) * K + z];
            long first = b.npairs;
            if (st < 0 || x == mx) {
                continue;
            }
            for (int y = 0; y < Y; ++y) {
                for (int zz = 0; zz < K; ++zz) {
                    int sr = m->at[(y * X + x) * K + zz];
                    if (sr >= 0 && sr != me && a2a_stop(m, sr, me) == st &&
                        a2a_add_pair(&b, (uint32_t) (sr * n + me))) {
                        goto out;
                    }
                }
            }
            if (a2a_add_msg(&b, &A, 0, 0, me, st, first)) {
                goto out;
            }
        }
    }

    qsort(b.msg, (size_t) b.nmsg, sizeof(a2a_msg_t), a2a_cmp);
    for (long i = 0; i < b.nmsg; ++i) {
        const a2a_msg_t *g = &b.msg[i];
        uint32_t off = (uint32_t) s->list_len;
        for (long j = 0; j < g->count; ++j) {
            scc_sched_list_push(s, b.pairs[g->first + j]);
        }
        if (g->send) {
            scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_LIST, -1, g->tag, g->round, off,
                           (uint32_t) g->count, 1);
        } else {
            scc_sched_push(s, SCC_STEP_RECV, SCC_STEP_F_LIST, g->peer, g->tag, g->round, off,
                           (uint32_t) g->count, 0);
        }
    }
    s->nrounds = (uint32_t) (X + Y - 1);
    rc = 0;
out:
    free(b.msg);
    free(b.pairs);
    return rc;
}
