/* sched_replay.c: replays all ranks' schedules of a collective together on a simulated transport */
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_replay.h"

/* The transport: each sender has SCC_SCHED_TAG_WINDOW slots; publishing tag t
 * waits until the message last published in slot t % WINDOW has been consumed
 * by all its readers; a reader consumes (peer, tag) once it is published.
 * Ranks execute their steps in order, each as far as it can, round-robin,
 * until all are done or none can move (a deadlock).
 *
 * Contents are tracked symbolically.  A data block holds an ordered list of
 * contributing ranks (a reduction makes msg ++ local, as "msg op local") and the
 * expression tree that computed it (op(msg, local) nodes over rank leaves, hash
 * consed, so equal trees have equal ids, and each tree has the id of its
 * commuted normal form: two results are the same bits under a commutative op
 * exactly when those agree); a broadcast block holds [root].  Lists are
 * immutable once made, so a message snapshot is a pointer copy.  Alltoall
 * tracks the pair ids each rank holds, barriers track which entries each rank
 * has heard of.
 *
 * In place (opts in_place): a reduction's input and work are one buffer, so a
 * block's input is gone once its work block is written, and a message sent
 * from the input pins the block like one sent from work. */

/* ---------------------------------------------------------------- */
/* Memory: everything a replay allocates comes from one arena kept between
 * replays (a sweep runs a hundred thousand of them).                 */

typedef struct arena {
    char **chunk;
    long *size;
    long nchunks, cur, used;
} arena_t;

static arena_t arena;

static void arena_reset(void)
{
    arena.cur = 0;
    arena.used = 0;
}

static void *arena_get(size_t bytes)
{
    bytes = (bytes + 15) & ~(size_t) 15;
    while (arena.cur >= arena.nchunks || arena.used + (long) bytes > arena.size[arena.cur]) {
        if (arena.cur < arena.nchunks && arena.used > 0) {
            arena.cur++;
            arena.used = 0;
            continue;
        }
        if (arena.cur == arena.nchunks) {
            arena.chunk = realloc(arena.chunk, sizeof(char *) * (size_t) (arena.nchunks + 1));
            arena.size = realloc(arena.size, sizeof(long) * (size_t) (arena.nchunks + 1));
            if (arena.chunk == NULL || arena.size == NULL) {
                abort();
            }
            arena.chunk[arena.nchunks] = NULL;
            arena.size[arena.nchunks] = 0;
            arena.nchunks++;
        }
        /* an empty chunk too small for this request: replace it */
        long cap = (long) bytes > (4L << 20) ? (long) bytes : (4L << 20);
        free(arena.chunk[arena.cur]);
        arena.chunk[arena.cur] = malloc((size_t) cap);
        if (arena.chunk[arena.cur] == NULL) {
            abort();
        }
        arena.size[arena.cur] = cap;
    }
    void *p = arena.chunk[arena.cur] + arena.used;
    arena.used += (long) bytes;
    return p;
}

static void *zget(size_t bytes)
{
    void *p = arena_get(bytes);
    memset(p, 0, bytes);
    return p;
}

/* ---------------------------------------------------------------- */

typedef struct list {
    int len;
    int tree;            /* expression tree (node id); leaves are the ranks */
    const int *v;
} list_t;

/* Expression trees: node i > n-1 is op(left[i], right[i]); canon[i] is the id
 * of its normal form under commutation (children normal, smaller id left). */
typedef struct trees {
    int *left, *right, *canon, *depth;
    int nnodes, cap;
    int *hash;           /* open addressing on (left, right): node id or -1 */
    long hmask;
} trees_t;

typedef struct msg {
    scc_step_t snd;      /* the SEND step */
    int sender;
    int consumed;
    int published;
    int local;           /* a reader shares the sender's node (or there are no nodes) */
    list_t one;          /* data of a one-block message */
    list_t *data;        /* data kinds: one list per block */
    uint64_t *know;      /* barrier: the sender's knowledge when it published */
} msg_t;

typedef struct rep {
    const replay_opts_t *o;
    replay_result_t *res;
    int n, W, words, data;
    scc_sched_t *s;      /* per rank */
    long *sendbase;      /* per rank: id of its first message; messages in step order */
    long nmsg;
    msg_t *msg;
    long *tagbase, *tagidx; /* when tags are small: message id of (sender, tag) */
    long *pc;            /* per rank: next step */
    long *nextmsg;       /* per rank: id of its next message */
    long *slot;          /* per rank, W slots: message id or -1 */
    list_t *work, *input;   /* per rank * nblocks */
    int *pending;        /* per rank * nblocks: unconsumed messages sent from work */
    long nreduce;        /* blocks combined by all RECV_REDUCE steps */
    uint32_t per;        /* reduce-scatter, allgather: blocks per rank */
    trees_t T;
    uint64_t *pairs;     /* alltoall: per rank n*n bits */
    uint64_t *know;      /* barrier: per rank n bits */
    int *ids;            /* ids[r] = r, for singleton lists */
    int *mark;           /* scratch: n entries, kept zero */
    uint32_t *lasttag;   /* scratch: n entries, valid where laststamp[p] == rank + 1 */
    int *laststamp;
    int *ready;          /* queue of ranks that may move */
    long qhead, qtail;
    int *waitnext;       /* per rank: next rank waiting on the same message */
    int *waithead;       /* per message: first waiting rank, -1 */
    int done;            /* ranks through all their steps */
    int *port_send, *port_recv; /* one-port check, per round */
    uint32_t port_rounds;
} rep_t;

static int fail(rep_t *R, const char *fmt, ...)
{
    if (R->res->ok) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(R->res->why, sizeof(R->res->why), fmt, ap);
        va_end(ap);
        R->res->ok = 0;
    }
    return 0;
}

/* ---------------------------------------------------------------- */
/* Expression trees                                                  */

static void trees_init(rep_t *R)
{
    trees_t *T = &R->T;
    long hsize = 16;
    T->cap = R->n + 2 * (int) R->nreduce + 1;
    T->left = arena_get(sizeof(int) * (size_t) T->cap);
    T->right = arena_get(sizeof(int) * (size_t) T->cap);
    T->canon = arena_get(sizeof(int) * (size_t) T->cap);
    T->depth = arena_get(sizeof(int) * (size_t) T->cap);
    for (int i = 0; i < R->n; ++i) {
        T->left[i] = T->right[i] = -1;
        T->canon[i] = i;
        T->depth[i] = 0;
    }
    T->nnodes = R->n;
    while (hsize < 2L * T->cap) {
        hsize *= 2;
    }
    T->hash = arena_get(sizeof(int) * (size_t) hsize);
    memset(T->hash, 0xff, sizeof(int) * (size_t) hsize);
    T->hmask = hsize - 1;
}

/* the node op(l, r), made if new (its normal form is set by the caller) */
static int tree_node(trees_t *T, int l, int r, int *made)
{
    long h = (long) (((uint32_t) l * 0x9E3779B1u) ^ ((uint32_t) r * 0x85EBCA77u)) & T->hmask;
    *made = 0;
    for (; T->hash[h] >= 0; h = (h + 1) & T->hmask) {
        int id = T->hash[h];
        if (T->left[id] == l && T->right[id] == r) {
            return id;
        }
    }
    if (T->nnodes >= T->cap) {
        abort(); /* two nodes per combined block at most */
    }
    int id = T->nnodes++;
    T->left[id] = l;
    T->right[id] = r;
    T->depth[id] = 1 + (T->depth[l] > T->depth[r] ? T->depth[l] : T->depth[r]);
    T->canon[id] = id;
    T->hash[h] = id;
    *made = 1;
    return id;
}

/* msg op local */
static int tree_op(trees_t *T, int msg, int local)
{
    int made;
    int id = tree_node(T, msg, local, &made);
    if (made) {
        int a = T->canon[msg], b = T->canon[local];
        if (a > b) {
            int x = a;
            a = b;
            b = x;
        }
        if (a != msg || b != local) {
            /* children in normal form, smaller first: that node is its own normal form */
            T->canon[id] = tree_node(T, a, b, &made);
        }
    }
    return id;
}

static int is_reduction(replay_kind_t k)
{
    return k == REPLAY_REDUCE || k == REPLAY_ALLREDUCE || k == REPLAY_REDUCE_SCATTER;
}

/* one part per rank: nblocks / n blocks each */
static int is_parts(replay_kind_t k)
{
    return k == REPLAY_REDUCE_SCATTER || k == REPLAY_ALLGATHER || k == REPLAY_GATHER
           || k == REPLAY_SCATTER;
}

static const char *kind_name(int k)
{
    return k == SCC_STEP_SEND ? "SEND" : k == SCC_STEP_RECV ? "RECV"
         : k == SCC_STEP_RECV_REDUCE ? "RECV_REDUCE" : "?";
}

/* Generates into a buffer grown as needed and copies it to the arena; when
 * check_sizing, also runs the sizing pass (no room at all) and checks that it
 * counts the same. */
static int generate(scc_sched_t *s, replay_gen_t gen, const void *ctx, int rank, int check_sizing)
{
    static scc_step_t *sbuf;
    static uint32_t *lbuf;
    static long scap, lcap;

    memset(s, 0, sizeof(*s));
    for (;;) {
        s->steps = sbuf;
        s->cap = scap;
        s->list = lbuf;
        s->list_cap = lcap;
        if (gen(s, rank, ctx) != 0) {
            return -1;
        }
        if (scc_sched_fits(s)) {
            break;
        }
        scap = s->nsteps > 2 * scap ? s->nsteps : 2 * scap;
        lcap = s->list_len > 2 * lcap ? s->list_len : 2 * lcap;
        sbuf = realloc(sbuf, sizeof(scc_step_t) * (size_t) (scap + 1));
        lbuf = realloc(lbuf, sizeof(uint32_t) * (size_t) (lcap + 1));
        if (sbuf == NULL || lbuf == NULL) {
            abort();
        }
    }
    if (check_sizing) {
        scc_sched_t z;
        memset(&z, 0, sizeof(z));
        if (gen(&z, rank, ctx) != 0 || z.nsteps != s->nsteps || z.list_len != s->list_len ||
            z.nrounds != s->nrounds || z.flags != s->flags) {
            return -2;
        }
    }
    s->cap = s->nsteps;
    s->list_cap = s->list_len;
    s->steps = arena_get(sizeof(scc_step_t) * (size_t) (s->cap + 1));
    s->list = arena_get(sizeof(uint32_t) * (size_t) (s->list_cap + 1));
    if (s->nsteps > 0) {
        memcpy(s->steps, sbuf, sizeof(scc_step_t) * (size_t) s->nsteps);
    }
    if (s->list_len > 0) {
        memcpy(s->list, lbuf, sizeof(uint32_t) * (size_t) s->list_len);
    }
    return 0;
}

/* The rules each rank's steps keep on their own; counts its messages. */
static int check_static(rep_t *R, int r, long *nsend, uint32_t *top_round)
{
    const scc_sched_t *s = &R->s[r];
    const replay_opts_t *o = R->o;
    const uint64_t nb = R->data ? o->nblocks : 0;
    long last_tag = -1;
    /* one port: per round, the last rank seen sending / receiving in it (+1) */
    int *sends = NULL, *recvs = NULL;

    *nsend = 0;
    if (o->one_port && s->nrounds > 0) {
        if (R->port_rounds < s->nrounds) {
            R->port_send = zget(sizeof(int) * s->nrounds);
            R->port_recv = zget(sizeof(int) * s->nrounds);
            R->port_rounds = s->nrounds;
        }
        sends = R->port_send;
        recvs = R->port_recv;
    }
    for (long i = 0; i < s->nsteps; ++i) {
        const scc_step_t *st = &s->steps[i];
        if (st->round >= s->nrounds) {
            return fail(R, "rank %d step %ld: round %u >= nrounds %u", r, i, st->round, s->nrounds);
        }
        if (st->round + 1 > *top_round) {
            *top_round = st->round + 1;
        }
        if (st->flags & SCC_STEP_F_LIST) {
            if (o->kind != REPLAY_ALLTOALL ||
                (uint64_t) st->block + st->nblocks > (uint64_t) s->list_len) {
                return fail(R, "rank %d step %ld: bad block list", r, i);
            }
        } else if (o->kind == REPLAY_ALLTOALL || (uint64_t) st->block + st->nblocks > nb) {
            return fail(R, "rank %d step %ld: blocks %u+%u out of range", r, i, st->block,
                        st->nblocks);
        }
        if ((st->flags & SCC_STEP_F_INPUT) &&
            (st->kind == SCC_STEP_RECV
             || !(is_reduction(o->kind) || (st->kind == SCC_STEP_SEND
                                            && (o->kind == REPLAY_GATHER
                                                || o->kind == REPLAY_SCATTER))))) {
            return fail(R, "rank %d step %ld: F_INPUT on a %s", r, i, kind_name(st->kind));
        }
        switch (st->kind) {
        case SCC_STEP_SEND:
            /* with nodes, only the messages that take slots must rise (check_nodes) */
            if (NULL == o->node_of && (long) st->tag <= last_tag) {
                return fail(R, "rank %d step %ld: tag %u not above the previous %ld", r, i, st->tag,
                            last_tag);
            }
            if (st->nreaders < 1) {
                return fail(R, "rank %d step %ld: message without readers", r, i);
            }
            last_tag = st->tag;
            (*nsend)++;
            if (sends && sends[st->round] == r + 1) {
                return fail(R, "rank %d: two sends in round %u", r, st->round);
            }
            if (sends) {
                sends[st->round] = r + 1;
            }
            break;
        case SCC_STEP_RECV_REDUCE:
            if (!is_reduction(o->kind)) {
                return fail(R, "rank %d step %ld: RECV_REDUCE outside a reduction", r, i);
            }
            R->nreduce += st->nblocks;
            /* fall through */
        case SCC_STEP_RECV:
            if (st->peer < 0 || st->peer >= R->n || st->peer == r) {
                return fail(R, "rank %d step %ld: bad peer %d", r, i, st->peer);
            }
            if (R->laststamp[st->peer] != r + 1) {
                R->laststamp[st->peer] = r + 1;
                R->lasttag[st->peer] = 0;
            }
            if (NULL == o->node_of && st->tag + 1u <= R->lasttag[st->peer]) {
                return fail(R, "rank %d step %ld: reads tag %u of %d after tag %u", r, i, st->tag,
                            st->peer, R->lasttag[st->peer] - 1);
            }
            R->lasttag[st->peer] = st->tag + 1u;
            if (recvs && recvs[st->round] == r + 1) {
                return fail(R, "rank %d: two receives in round %u", r, st->round);
            }
            if (recvs) {
                recvs[st->round] = r + 1;
            }
            if (r == o->root) {
                R->res->root_recvs++;
            }
            break;
        default:
            return fail(R, "rank %d step %ld: bad kind %d", r, i, st->kind);
        }
    }
    return 1;
}

/* the message a rank's SEND with this tag published, or -1 */
static long find_msg(const rep_t *R, int sender, uint32_t tag)
{
    if (R->tagidx != NULL) {
        long base = R->tagbase[sender];
        return tag < (uint32_t) (R->tagbase[sender + 1] - base) ? R->tagidx[base + tag] : -1;
    }
    long lo = R->sendbase[sender], hi = R->sendbase[sender + 1] - 1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        uint32_t t = R->msg[mid].snd.tag;
        if (t == tag) {
            return mid;
        }
        if (t < tag) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return -1;
}

/* a receive and the message it names agree on round and blocks */
static int check_shape(rep_t *R, int r, const scc_step_t *st, const msg_t *m)
{
    const scc_step_t *snd = &m->snd;
    if (snd->round != st->round) {
        return fail(R, "rank %d reads (%d, tag %u) in round %u, sent in round %u", r, st->peer,
                    st->tag, st->round, snd->round);
    }
    if (snd->nblocks != st->nblocks ||
        (snd->flags & SCC_STEP_F_LIST) != (st->flags & SCC_STEP_F_LIST)) {
        return fail(R, "rank %d reads (%d, tag %u) with %u blocks, sent with %u", r, st->peer,
                    st->tag, st->nblocks, snd->nblocks);
    }
    if (st->flags & SCC_STEP_F_LIST) {
        if (memcmp(&R->s[m->sender].list[snd->block], &R->s[r].list[st->block],
                   sizeof(uint32_t) * st->nblocks) != 0) {
            return fail(R, "rank %d reads (%d, tag %u) into other pairs than sent", r, st->peer,
                        st->tag);
        }
    } else if (snd->block != st->block) {
        return fail(R, "rank %d reads (%d, tag %u) into block %u, sent from %u", r, st->peer,
                    st->tag, st->block, snd->block);
    }
    return 1;
}

static list_t *blk(list_t *base, const rep_t *R, int r, uint32_t b)
{
    return &base[(long) r * R->o->nblocks + b];
}

/* a message pins the blocks it was sent from until all its readers have it */
static int pins(const rep_t *R, const scc_step_t *snd)
{
    return !(snd->flags & SCC_STEP_F_INPUT) || R->o->in_place;
}

static int publish(rep_t *R, int r, const scc_step_t *st, msg_t *m)
{
    const int from_input = (st->flags & SCC_STEP_F_INPUT) != 0;
    if (R->data) {
        m->data = st->nblocks <= 1 ? &m->one : arena_get(sizeof(list_t) * st->nblocks);
        for (uint32_t k = 0; k < st->nblocks; ++k) {
            list_t *src = blk(from_input ? R->input : R->work, R, r, st->block + k);
            if (src->v == NULL) {
                return fail(R, "rank %d sends block %u (round %u, tag %u) before it holds it", r,
                            st->block + k, st->round, st->tag);
            }
            if (from_input && R->o->in_place && blk(R->work, R, r, st->block + k)->v != NULL) {
                return fail(R, "rank %d sends input block %u (round %u) after writing over it"
                            " (in place)", r, st->block + k, st->round);
            }
            m->data[k] = *src;
            if (pins(R, st)) {
                R->pending[(long) r * R->o->nblocks + st->block + k]++;
            }
        }
    } else if (R->o->kind == REPLAY_ALLTOALL) {
        const uint64_t *have = &R->pairs[(long) r * R->words];
        for (uint32_t k = 0; k < st->nblocks; ++k) {
            uint32_t p = R->s[r].list[st->block + k];
            if (p >= (uint32_t) R->n * R->n || !((have[p / 64] >> (p % 64)) & 1)) {
                return fail(R, "rank %d sends pair (%u,%u) (round %u) before it holds it", r,
                            p / R->n, p % R->n, st->round);
            }
        }
    } else {
        int w = (R->n + 63) / 64;
        m->know = arena_get(sizeof(uint64_t) * (size_t) w);
        memcpy(m->know, &R->know[(long) r * w], sizeof(uint64_t) * (size_t) w);
    }
    m->published = 1;
    R->res->nmsgs++;
    return 1;
}

static int consume(rep_t *R, int r, const scc_step_t *st, msg_t *m)
{
    const scc_step_t *snd = &m->snd;
    if (m->consumed == snd->nreaders) {
        return fail(R, "rank %d tag %u (round %u): %d readers announced, more read it", m->sender,
                    snd->tag, snd->round, snd->nreaders);
    }
    if (!check_shape(R, r, st, m)) {
        return 0;
    }
    if (R->data) {
        for (uint32_t k = 0; k < st->nblocks; ++k) {
            uint32_t b = st->block + k;
            list_t *w = blk(R->work, R, r, b);
            list_t in = m->data[k];
            if (R->pending[(long) r * R->o->nblocks + b] > 0 &&
                !(R->res->flags & SCC_SCHED_F_SEND_COPY)) {
                return fail(R, "rank %d overwrites block %u (round %u) while its own message of it"
                            " is unread", r, b, st->round);
            }
            if (st->kind == SCC_STEP_RECV) {
                if (w->v != NULL && !is_reduction(R->o->kind)) {
                    R->res->redundant++;
                }
                *w = in;
                continue;
            }
            const int first = (st->flags & SCC_STEP_F_INPUT) != 0;
            if (first && w->v != NULL) {
                return fail(R, "rank %d: F_INPUT reduce into block %u already touched", r, b);
            }
            if (!first && w->v == NULL) {
                return fail(R, "rank %d reduces into block %u (round %u) never touched", r, b,
                            st->round);
            }
            list_t loc = first ? *blk(R->input, R, r, b) : *w;
            int dup = -1;
            for (int i = 0; i < loc.len; ++i) {
                R->mark[loc.v[i]] = 1;
            }
            for (int i = 0; i < in.len; ++i) {
                if (R->mark[in.v[i]]) {
                    dup = in.v[i];
                }
            }
            for (int i = 0; i < loc.len; ++i) {
                R->mark[loc.v[i]] = 0;
            }
            if (dup >= 0) {
                return fail(R, "rank %d block %u: contribution of %d combined twice", r, b, dup);
            }
            int *v = arena_get(sizeof(int) * (size_t) (in.len + loc.len));
            memcpy(v, in.v, sizeof(int) * (size_t) in.len);
            memcpy(v + in.len, loc.v, sizeof(int) * (size_t) loc.len);
            w->v = v;
            w->len = in.len + loc.len;
            w->tree = tree_op(&R->T, in.tree, loc.tree);
        }
    } else if (R->o->kind == REPLAY_ALLTOALL) {
        uint64_t *have = &R->pairs[(long) r * R->words];
        for (uint32_t k = 0; k < st->nblocks; ++k) {
            uint32_t p = R->s[r].list[st->block + k];
            if ((have[p / 64] >> (p % 64)) & 1) {
                R->res->redundant++;
            }
            have[p / 64] |= 1ull << (p % 64);
        }
    } else {
        int w = (R->n + 63) / 64;
        for (int i = 0; i < w; ++i) {
            R->know[(long) r * w + i] |= m->know[i];
        }
    }
    if (R->o->keep_flows) {
        replay_result_t *res = R->res;
        if (res->nflows % 1024 == 0) {
            res->flows = realloc(res->flows, sizeof(replay_flow_t) * (size_t) (res->nflows + 1024));
            if (res->flows == NULL) {
                abort();
            }
        }
        replay_flow_t *f = &res->flows[res->nflows++];
        f->round = st->round;
        f->src = m->sender;
        f->dst = r;
        f->block = snd->block;
        f->nblocks = snd->nblocks;
    }
    R->res->ntransfers++;
    if (++m->consumed == snd->nreaders && R->data && pins(R, snd)) {
        /* the sender's blocks are free again */
        for (uint32_t k = 0; k < snd->nblocks; ++k) {
            R->pending[(long) m->sender * R->o->nblocks + snd->block + k]--;
        }
    }
    return 1;
}

/* Which messages take a slot: those with a reader on the sender's node. */
static void mark_local(rep_t *R)
{
    for (long id = 0; id < R->nmsg; ++id) {
        R->msg[id].local = NULL == R->o->node_of;
    }
    if (NULL == R->o->node_of) {
        return;
    }
    for (int r = 0; r < R->n; ++r) {
        for (long i = 0; i < R->s[r].nsteps; ++i) {
            const scc_step_t *st = &R->s[r].steps[i];
            long id;
            if (st->kind == SCC_STEP_SEND || st->peer < 0 || st->peer >= R->n
                || R->o->node_of[st->peer] != R->o->node_of[r]) {
                continue;
            }
            id = find_msg(R, st->peer, st->tag);
            if (id >= 0) {
                R->msg[id].local = 1;
            }
        }
    }
}

/* With nodes: a sender's messages that take slots (a reader on its node) rise in tag; a
 * reader takes a sender's messages on its node in rising tags, and those from another node
 * in the order they were sent (the network keeps each pair's order). */
static void check_nodes(rep_t *R)
{
    for (int r = 0; r < R->n && R->res->ok; ++r) {
        long last = -1;
        for (long id = R->sendbase[r]; id < R->sendbase[r + 1]; ++id) {
            if (R->msg[id].local) {
                if ((long) R->msg[id].snd.tag <= last) {
                    fail(R, "rank %d: message tag %u in its node after tag %ld", r,
                         R->msg[id].snd.tag, last);
                    return;
                }
                last = R->msg[id].snd.tag;
            }
        }
    }
    for (int r = 0; r < R->n && R->res->ok; ++r) {
        for (int p = 0; p < R->n; ++p) {
            R->lasttag[p] = 0;
            R->laststamp[p] = 0;
        }
        for (long i = 0; i < R->s[r].nsteps; ++i) {
            const scc_step_t *st = &R->s[r].steps[i];
            long id, key;
            if (st->kind == SCC_STEP_SEND) {
                continue;
            }
            id = find_msg(R, st->peer, st->tag);
            if (id < 0) {
                continue;   /* the replay reports it */
            }
            key = R->o->node_of[st->peer] == R->o->node_of[r] ? (long) st->tag : id;
            if (R->laststamp[st->peer] && key < (long) R->lasttag[st->peer]) {
                fail(R, "rank %d step %ld: reads (%d, tag %u) out of order", r, i, st->peer,
                     st->tag);
                return;
            }
            R->laststamp[st->peer] = 1;
            R->lasttag[st->peer] = (uint32_t) key + 1;
        }
    }
}

/* Runs rank r until it is done or blocked; a blocked rank waits on a message
 * (to be published, or to be read by all so its slot frees) and is woken by it. */
static void park(rep_t *R, int r, long id)
{
    R->waitnext[r] = R->waithead[id];
    R->waithead[id] = r;
}

static void wake(rep_t *R, long id)
{
    for (int r = R->waithead[id]; r >= 0; r = R->waitnext[r]) {
        R->ready[R->qtail++ % R->n] = r;
    }
    R->waithead[id] = -1;
}

static void run_rank(rep_t *R, int r)
{
    const scc_sched_t *s = &R->s[r];
    const int W = R->W;
    while (R->pc[r] < s->nsteps && R->res->ok) {
        const scc_step_t *st = &s->steps[R->pc[r]];
        if (st->kind == SCC_STEP_SEND) {
            long id = R->nextmsg[r];
            long *slot = &R->slot[(long) r * W + st->tag % W];
            if (!R->msg[id].local) {
                /* over the network: no slot to wait for or to hold */
                if (!publish(R, r, st, &R->msg[id])) {
                    return;
                }
                R->nextmsg[r]++;
                wake(R, id);
                R->pc[r]++;
                continue;
            }
            if (*slot >= 0 && R->msg[*slot].consumed < R->msg[*slot].snd.nreaders) {
                park(R, r, *slot);
                return;
            }
            if (!publish(R, r, st, &R->msg[id])) {
                return;
            }
            *slot = id;
            R->nextmsg[r]++;
            wake(R, id);
        } else {
            long id = find_msg(R, st->peer, st->tag);
            if (id < 0) {
                fail(R, "rank %d step %ld: reads (%d, tag %u) which is never sent", r, R->pc[r],
                     st->peer, st->tag);
                return;
            }
            msg_t *m = &R->msg[id];
            if (!m->published) {
                park(R, r, id);
                return;
            }
            if (!consume(R, r, st, m)) {
                return;
            }
            if (m->consumed == m->snd.nreaders) {
                wake(R, id);
            }
        }
        R->pc[r]++;
    }
    if (R->pc[r] == s->nsteps) {
        R->done++;
    }
}

/* runs the ranks until all are done or none can move */
static int execute(rep_t *R)
{
    const int n = R->n;
    R->ready = arena_get(sizeof(int) * (size_t) n);
    R->waitnext = arena_get(sizeof(int) * (size_t) n);
    R->waithead = arena_get(sizeof(int) * (size_t) (R->nmsg + 1));
    for (long id = 0; id < R->nmsg; ++id) {
        R->waithead[id] = -1;
    }
    /* each rank is in the queue at most once: it is either queued, running or waiting */
    for (int r = 0; r < n; ++r) {
        R->ready[r] = r;
    }
    R->qhead = 0;
    R->qtail = n;
    while (R->qhead < R->qtail && R->res->ok) {
        run_rank(R, R->ready[R->qhead++ % n]);
    }
    if (R->done < n && R->res->ok) {
        char buf[400];
        int len = 0;
        for (int r = 0; r < n && len < 300; ++r) {
            if (R->pc[r] < R->s[r].nsteps) {
                const scc_step_t *st = &R->s[r].steps[R->pc[r]];
                len += snprintf(buf + len, sizeof(buf) - (size_t) len,
                                " [%d: %s peer %d tag %u round %u]", r, kind_name(st->kind),
                                st->peer, st->tag, st->round);
            }
        }
        fail(R, "deadlock with %d of %d ranks done:%s", R->done, n, buf);
    }
    for (long id = 0; id < R->nmsg && R->res->ok; ++id) {
        const msg_t *m = &R->msg[id];
        if (m->consumed != m->snd.nreaders) {
            fail(R, "rank %d tag %u (round %u): %d readers announced, %d read it", m->sender,
                 m->snd.tag, m->snd.round, m->snd.nreaders, m->consumed);
        }
    }
    return R->res->ok;
}

static int lists_equal(list_t a, list_t b)
{
    return a.len == b.len && (a.v == b.v || memcmp(a.v, b.v, sizeof(int) * (size_t) a.len) == 0);
}

static int check_outcome(rep_t *R)
{
    const replay_opts_t *o = R->o;
    const int n = R->n;
    switch (o->kind) {
    case REPLAY_BCAST:
        for (int r = 0; r < n; ++r) {
            for (uint32_t b = 0; b < o->nblocks; ++b) {
                list_t *w = blk(R->work, R, r, b);
                if (w->v == NULL || w->len != 1 || w->v[0] != o->root) {
                    return fail(R, "rank %d misses block %u", r, b);
                }
            }
        }
        break;
    case REPLAY_ALLGATHER:
    case REPLAY_GATHER:
    case REPLAY_SCATTER:
        /* allgather, gather: every block holds its owner's part; scatter: the part for r */
        for (int r = 0; r < n; ++r) {
            for (uint32_t b = 0; b < o->nblocks; ++b) {
                list_t *w = blk(R->work, R, r, b);
                int owner = (int) (b / R->per);
                if ((o->kind == REPLAY_GATHER && r != o->root)
                    || (o->kind == REPLAY_SCATTER && (r == o->root || owner != r))) {
                    continue;
                }
                if (w->v == NULL || w->len != 1 || w->v[0] != owner) {
                    return fail(R, "rank %d misses block %u (of rank %d)", r, b, owner);
                }
            }
        }
        break;
    case REPLAY_REDUCE:
    case REPLAY_ALLREDUCE:
    case REPLAY_REDUCE_SCATTER: {
        const int commute = (R->res->flags & SCC_SCHED_F_COMMUTATIVE) != 0;
        const int ref = o->root >= 0 ? o->root : 0;
        for (int r = 0; r < n; ++r) {
            uint32_t b0 = 0, b1 = o->nblocks;
            if (o->kind == REPLAY_REDUCE && r != o->root) {
                continue;
            }
            if (n == 1 && R->s[r].nsteps == 0) {
                continue; /* one rank: the executor copies input to output */
            }
            if (o->kind == REPLAY_REDUCE_SCATTER) {
                b0 = (uint32_t) r * R->per;
                b1 = b0 + R->per;
            }
            for (uint32_t b = b0; b < b1; ++b) {
                list_t *w = blk(R->work, R, r, b);
                if (w->v == NULL || w->len != n) {
                    return fail(R, "rank %d block %u: %d of %d contributions", r, b,
                                w->v ? w->len : 0, n);
                }
                if (!(R->res->flags & SCC_SCHED_F_COMMUTATIVE)) {
                    for (int i = 0; i < n; ++i) {
                        if (w->v[i] != i) {
                            return fail(R, "rank %d block %u: not in rank order but the schedule"
                                        " does not say SCC_SCHED_F_COMMUTATIVE", r, b);
                        }
                    }
                }
                if (R->T.depth[w->tree] > R->res->result_depth) {
                    R->res->result_depth = R->T.depth[w->tree];
                }
                if (o->kind != REPLAY_ALLREDUCE) {
                    continue;
                }
                const list_t *x = blk(R->work, R, ref, b);
                if (o->root >= 0 && (!lists_equal(*w, *x) || w->tree != x->tree)) {
                    return fail(R, "rank %d block %u differs from the root's", r, b);
                }
                /* no root: the same bits as rank 0, up to operand order if the op commutes */
                if (commute ? R->T.canon[w->tree] != R->T.canon[x->tree] : w->tree != x->tree) {
                    return fail(R, "rank %d block %u: not computed as rank %d's%s", r, b, ref,
                                commute ? ", even with operands commuted" : "");
                }
            }
        }
        break;
    }
    case REPLAY_BARRIER: {
        int w = (n + 63) / 64;
        R->res->barrier_complete = 1;
        for (int r = 0; r < n; ++r) {
            for (int i = 0; i < n; ++i) {
                if (!((R->know[(long) r * w + i / 64] >> (i % 64)) & 1)) {
                    R->res->barrier_complete = 0;
                }
            }
        }
        break;
    }
    case REPLAY_ALLTOALL:
        for (int r = 0; r < n; ++r) {
            const uint64_t *have = &R->pairs[(long) r * R->words];
            for (int sr = 0; sr < n; ++sr) {
                uint32_t p = (uint32_t) (sr * n + r);
                if (!((have[p / 64] >> (p % 64)) & 1)) {
                    return fail(R, "rank %d misses the block of %d", r, sr);
                }
            }
        }
        break;
    }
    return 1;
}

/* messages numbered per sender in step order; a direct (sender, tag) index when tags are small */
static void index_messages(rep_t *R, long maxtag_total)
{
    const int n = R->n;
    R->nmsg = R->sendbase[n];
    R->msg = zget(sizeof(msg_t) * (size_t) (R->nmsg + 1));
    /* with nodes a sender's tags need not rise: always the direct index */
    if (maxtag_total <= 8 * (R->nmsg + n) || NULL != R->o->node_of) {
        R->tagidx = arena_get(sizeof(long) * (size_t) (maxtag_total + 1));
        for (long i = 0; i < maxtag_total; ++i) {
            R->tagidx[i] = -1;
        }
    }
    for (int r = 0; r < n; ++r) {
        long id = R->sendbase[r];
        for (long i = 0; i < R->s[r].nsteps; ++i) {
            const scc_step_t *st = &R->s[r].steps[i];
            if (st->kind == SCC_STEP_SEND) {
                R->msg[id].sender = r;
                R->msg[id].snd = *st;
                if (R->tagidx) {
                    if (R->tagidx[R->tagbase[r] + st->tag] >= 0) {
                        fail(R, "rank %d: two messages with tag %u", r, st->tag);
                    }
                    R->tagidx[R->tagbase[r] + st->tag] = id;
                }
                id++;
            }
        }
        R->nextmsg[r] = R->sendbase[r];
    }
}

static void init_contents(rep_t *R)
{
    const replay_opts_t *o = R->o;
    const int n = R->n;
    const long nb = (long) n * o->nblocks;
    if (R->data) {
        R->work = zget(sizeof(list_t) * (size_t) (nb + 1));
        R->input = zget(sizeof(list_t) * (size_t) (nb + 1));
        R->pending = zget(sizeof(int) * (size_t) (nb + 1));
        for (int r = 0; r < n; ++r) {
            for (uint32_t b = 0; b < o->nblocks; ++b) {
                if (o->kind == REPLAY_BCAST) {
                    if (r == o->root) {
                        *blk(R->work, R, r, b) = (list_t) { 1, o->root, &R->ids[o->root] };
                    }
                } else if (o->kind == REPLAY_ALLGATHER || o->kind == REPLAY_GATHER) {
                    if (b / R->per == (uint32_t) r) {
                        *blk(R->work, R, r, b) = (list_t) { 1, r, &R->ids[r] };
                        if (o->kind == REPLAY_GATHER) {
                            *blk(R->input, R, r, b) = *blk(R->work, R, r, b);
                        }
                    }
                } else if (o->kind == REPLAY_SCATTER) {
                    /* each block names the rank it is for */
                    if (r == o->root) {
                        int to = (int) (b / R->per);
                        *blk(R->input, R, r, b) = (list_t) { 1, to, &R->ids[to] };
                    }
                } else {
                    *blk(R->input, R, r, b) = (list_t) { 1, r, &R->ids[r] };
                }
            }
        }
    } else if (o->kind == REPLAY_ALLTOALL) {
        R->words = (int) (((long) n * n + 63) / 64);
        R->pairs = zget(sizeof(uint64_t) * (size_t) n * R->words);
        for (int r = 0; r < n; ++r) {
            for (int d = 0; d < n; ++d) {
                uint32_t p = (uint32_t) (r * n + d);
                R->pairs[(long) r * R->words + p / 64] |= 1ull << (p % 64);
            }
        }
    } else {
        int w = (n + 63) / 64;
        R->know = zget(sizeof(uint64_t) * (size_t) n * w);
        for (int r = 0; r < n; ++r) {
            R->know[(long) r * w + r / 64] |= 1ull << (r % 64);
        }
    }
}

int replay_run(const replay_opts_t *o, replay_gen_t gen, const void *ctx, replay_result_t *res)
{
    rep_t Rs, *R = &Rs;
    const int n = o->n;
    static int tuned;
    if (!tuned) {
        /* the test frees and allocates similar sizes over and over: keep them mapped */
        mallopt(M_MMAP_THRESHOLD, 256 << 20);
        mallopt(M_TRIM_THRESHOLD, 512 << 20);
        tuned = 1;
    }
    arena_reset();
    memset(R, 0, sizeof(*R));
    memset(res, 0, sizeof(*res));
    res->ok = 1;
    if (n < 1) {
        snprintf(res->why, sizeof(res->why), "n = %d", n);
        return res->ok = 0;
    }
    R->o = o;
    R->res = res;
    R->n = n;
    R->W = SCC_SCHED_TAG_WINDOW;
    R->data = o->kind == REPLAY_BCAST || is_reduction(o->kind) || is_parts(o->kind);
    if (is_parts(o->kind)) {
        if (o->nblocks % (uint32_t) n != 0) {
            snprintf(res->why, sizeof(res->why), "%u blocks are not %d equal parts", o->nblocks, n);
            return res->ok = 0;
        }
        R->per = o->nblocks / (uint32_t) n;
    }
    if (o->root < 0 && o->kind != REPLAY_ALLREDUCE && o->kind != REPLAY_BARRIER &&
        o->kind != REPLAY_ALLTOALL && o->kind != REPLAY_REDUCE_SCATTER &&
        o->kind != REPLAY_ALLGATHER) {
        snprintf(res->why, sizeof(res->why), "root %d", o->root);
        return res->ok = 0;
    }
    R->s = zget(sizeof(scc_sched_t) * (size_t) n);
    R->sendbase = zget(sizeof(long) * (size_t) (n + 1));
    R->tagbase = zget(sizeof(long) * (size_t) (n + 1));
    R->pc = zget(sizeof(long) * (size_t) n);
    R->nextmsg = zget(sizeof(long) * (size_t) n);
    R->slot = arena_get(sizeof(long) * (size_t) n * R->W);
    R->ids = arena_get(sizeof(int) * (size_t) n);
    R->mark = zget(sizeof(int) * (size_t) n);
    R->lasttag = zget(sizeof(uint32_t) * (size_t) n);
    R->laststamp = zget(sizeof(int) * (size_t) n);

    uint32_t top = 0;
    for (int r = 0; r < n && res->ok; ++r) {
        long nsend;
        int rc = generate(&R->s[r], gen, ctx, r, r == 0 || r == o->root);
        if (rc != 0) {
            fail(R, "rank %d: generator %s", r,
                 rc == -1 ? "failed" : "counts otherwise without room");
            break;
        }
        if (r > 0 && (R->s[r].nrounds != R->s[0].nrounds || R->s[r].flags != R->s[0].flags)) {
            fail(R, "rank %d: nrounds %u flags %u, rank 0: %u %u", r, R->s[r].nrounds,
                 R->s[r].flags, R->s[0].nrounds, R->s[0].flags);
            break;
        }
        res->nsteps += R->s[r].nsteps;
        R->ids[r] = r;
        if (!check_static(R, r, &nsend, &top)) {
            break;
        }
        R->sendbase[r + 1] = R->sendbase[r] + nsend;
        /* the largest tag (without nodes, the last send's: tags rise) */
        long maxtag = 0;
        for (long i = R->s[r].nsteps - 1; i >= 0; --i) {
            if (R->s[r].steps[i].kind == SCC_STEP_SEND) {
                if ((long) R->s[r].steps[i].tag + 1 > maxtag) {
                    maxtag = (long) R->s[r].steps[i].tag + 1;
                }
                if (NULL == o->node_of) {
                    break;
                }
            }
        }
        R->tagbase[r + 1] = R->tagbase[r] + maxtag;
    }
    if (res->ok) {
        res->nrounds = R->s[0].nrounds;
        res->flags = R->s[0].flags;
        if (o->tight_rounds && top != res->nrounds) {
            fail(R, "nrounds %u but the rounds used end at %u", res->nrounds, top);
        }
    }
    if (res->ok) {
        for (long i = 0; i < (long) n * R->W; ++i) {
            R->slot[i] = -1;
        }
        index_messages(R, R->tagbase[n]);
        mark_local(R);
        if (res->ok && NULL != o->node_of) {
            check_nodes(R);
        }
    }
    if (res->ok) {
        trees_init(R);
        init_contents(R);
        if (execute(R)) {
            check_outcome(R);
        }
    }
    return res->ok;
}

void replay_free(replay_result_t *res)
{
    free(res->flows);
    res->flows = NULL;
    res->nflows = 0;
}

int replay_xy_maxload(const replay_result_t *res, const int *tx, const int *ty, int X, int Y,
                      uint32_t round)
{
    /* link (x, y, d): d = 0 east (+x), 1 west, 2 north (+y), 3 south */
    int *load = calloc((size_t) X * Y * 4, sizeof(int));
    int max = 0;
    for (long i = 0; i < res->nflows; ++i) {
        const replay_flow_t *f = &res->flows[i];
        if (f->round != round) {
            continue;
        }
        int x = tx[f->src], y = ty[f->src];
        const int x2 = tx[f->dst], y2 = ty[f->dst];
        while (x != x2 || y != y2) {
            int d = x != x2 ? (x2 > x ? 0 : 1) : (y2 > y ? 2 : 3);
            int *l = &load[((long) y * X + x) * 4 + d];
            if (++*l > max) {
                max = *l;
            }
            x += d == 0 ? 1 : d == 1 ? -1 : 0;
            y += d == 2 ? 1 : d == 3 ? -1 : 0;
        }
    }
    free(load);
    return max;
}

void replay_dump(int n, replay_gen_t gen, const void *ctx)
{
    arena_reset();
    for (int r = 0; r < n; ++r) {
        scc_sched_t s;
        if (generate(&s, gen, ctx, r, 0) != 0) {
            printf("rank %d: generator failed\n", r);
            continue;
        }
        printf("rank %d: %ld steps, %u rounds, flags %u\n", r, s.nsteps, s.nrounds, s.flags);
        for (long i = 0; i < s.nsteps; ++i) {
            const scc_step_t *st = &s.steps[i];
            printf("  r%-3u %-11s peer %3d tag %4u blk %u+%u readers %u%s%s\n", st->round,
                   kind_name(st->kind), st->peer, st->tag, st->block, st->nblocks, st->nreaders,
                   st->flags & SCC_STEP_F_INPUT ? " INPUT" : "",
                   st->flags & SCC_STEP_F_LIST ? " LIST" : "");
        }
    }
}
