/* scc_sim_engine.c: discrete-event replay of step lists: puts, flags, gets, private memory, links,
 * MPB ports, windows (the network between nodes: scc_sim_engine_net.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_engine_int.h"

uint64_t scc_sim_step_hash(uint64_t h, const scc_step_t *st, const uint32_t *list, long list_len)
{
    uint32_t v[8] = { st->kind, st->flags, st->nreaders, (uint32_t) st->peer, st->tag, st->round,
                      st->block, st->nblocks };
    for (int i = 0; i < 8; ++i) {
        h = (h ^ v[i]) * UINT64_C(1099511628211);
    }
    if ((st->flags & SCC_STEP_F_LIST) && list) {
        for (uint32_t i = 0; i < st->nblocks && (long) (st->block + i) < list_len; ++i) {
            h = (h ^ list[st->block + i]) * UINT64_C(1099511628211);
        }
    }
    return h;
}

static double block_bytes(const scc_sim_job_t *job, uint64_t b)
{
    double lo = (double) b * job->block_bytes;
    double hi = lo + job->block_bytes;
    if (hi > job->total_bytes) {
        hi = job->total_bytes;
    }
    return hi > lo ? hi - lo : 0.0;
}

/* Block i of the step (a list entry or block + i); -1 past the list. */
static int64_t step_block(const scc_sim_prog_t *prog, const scc_step_t *st, uint32_t i)
{
    long k = (long) st->block + i;
    if (!(st->flags & SCC_STEP_F_LIST)) {
        return k;
    }
    return k < prog->list_len ? (int64_t) prog->list[k] : -1;
}

double scc_sim_step_bytes(const scc_sim_job_t *job, const scc_sim_prog_t *prog, const scc_step_t *st)
{
    double bytes = 0.0;
    for (uint32_t i = 0; i < st->nblocks; ++i) {
        int64_t b = step_block(prog, st, i);
        bytes += b >= 0 ? block_bytes(job, (uint64_t) b) : 0.0;
    }
    return bytes;
}

/* ---------------------------------------------------------------- private memory */

/* Bytes of the step's private-memory accesses that miss the cache, touching
 * its blocks in order (the state moves on). */
static double step_missed(engine_t *e, int r, const scc_step_t *st, int pass, double bytes)
{
    const scc_sim_job_t *job = e->job;
    const scc_sim_prog_t *prog = &job->progs[r];
    double missed = 0.0;

    if (lrint(e->p->cache_model) != SCC_SIM_CACHE_STATE) {
        missed = bytes * scc_sim_miss(e->p, prog->footprint);
    } else {
        for (uint32_t i = 0; i < st->nblocks; ++i) {
            int64_t b = step_block(prog, st, i);
            if (b >= 0) {
                missed += scc_sim_cache_touch(&e->cache[r], ((uint64_t) pass << 32) | (uint64_t) b,
                                              block_bytes(job, (uint64_t) b));
            }
        }
    }
    e->res->missed += missed;
    return missed;
}

/* How a copy of rank r overlaps its private-memory misses (scc_sim_private_done). */
static int overlap_of(const engine_t *e, int is_get)
{
    int ov = (int) lrint(e->p->mem_overlap);
    if (lrint(e->p->sync) == SCC_SIM_SYNC_BLOCKING || ov <= 0) {
        return SCC_SIM_OVERLAP_NONE;
    }
    return ov >= 2 && is_get ? SCC_SIM_OVERLAP_DRAIN : SCC_SIM_OVERLAP_COPY;
}

/* ---------------------------------------------------------------- event heap */

void scc_sim_engine_push(engine_t *e, int r, double t)
{
    long i;
    if (e->nheap == e->capheap) {
        e->capheap = e->capheap ? 2 * e->capheap : 1024;
        e->heap = realloc(e->heap, sizeof(ev_t) * e->capheap);
    }
    i = e->nheap++;
    /* earlier time first; ties in insertion order keep runs deterministic */
    while (i > 0) {
        long up = (i - 1) / 2;
        if (e->heap[up].t < t || (e->heap[up].t == t && e->heap[up].seq < e->seq)) {
            break;
        }
        e->heap[i] = e->heap[up];
        i = up;
    }
    e->heap[i].t = t;
    e->heap[i].seq = e->seq++;
    e->heap[i].r = r;
}

static ev_t pop(engine_t *e)
{
    ev_t top = e->heap[0], last = e->heap[--e->nheap];
    long i = 0;
    for (;;) {
        long c = 2 * i + 1;
        if (c >= e->nheap) {
            break;
        }
        if (c + 1 < e->nheap
            && (e->heap[c + 1].t < e->heap[c].t
                || (e->heap[c + 1].t == e->heap[c].t && e->heap[c + 1].seq < e->heap[c].seq))) {
            c++;
        }
        if (last.t < e->heap[c].t || (last.t == e->heap[c].t && last.seq < e->heap[c].seq)) {
            break;
        }
        e->heap[i] = e->heap[c];
        i = c;
    }
    e->heap[i] = last;
    return top;
}

/* ---------------------------------------------------------------- messages */

long scc_sim_engine_find(const engine_t *e, int sender, uint32_t tag)
{
    const rank_t *s = &e->ranks[sender];
    long lo = 0, hi = s->nsends;
    while (lo < hi) {
        long mid = (lo + hi) / 2;
        if (s->tags[s->order[mid]] < tag) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo >= s->nsends || s->tags[s->order[lo]] != tag) {
        return -1;
    }
    return s->order[lo];
}

/* The last reader is done: the sender may be waiting for that. */
static void consumed(engine_t *e, msg_t *m)
{
    if (m->cons_waiter >= 0) {
        double t = m->wake_send_end ? m->t_send_end : m->t_cons;
        scc_sim_engine_push(e, m->cons_waiter, t);
        m->cons_waiter = -1;
    }
}

/* ---------------------------------------------------------------- one rank */

static void run_send(engine_t *e, int r, const scc_step_t *st, double t, int pass)
{
    const scc_sim_params_t *p = e->p;
    const scc_sim_job_t *job = e->job;
    const scc_sim_prog_t *prog = &job->progs[r];
    rank_t *R = &e->ranks[r];
    msg_t *m = &R->msgs[R->nsent];
    long idx = R->nsent % (R->nsends > 0 ? R->nsends : 1);
    double bytes = scc_sim_step_bytes(job, prog, st);
    double first, start, de, rd;
    int sync = (int) lrint(p->sync);
    /* net: readers on other nodes get it over the network (no slot); those of the node,
       or a message nobody reads, through a slot */
    int nloc = e->net ? R->nlocal[idx] : st->nreaders;
    int slotted = nloc > 0 || 0 == st->nreaders;

    /* the transport holds `window` messages per sender, in slots: tag t waits
     * until the message last published in slot t % window is consumed */
    if (slotted && e->window > 0 && R->slot_last[st->tag % (uint32_t) e->window] >= 0) {
        msg_t *old = &R->msgs[R->slot_last[st->tag % (uint32_t) e->window]];
        if (old->left != 0) {
            old->cons_waiter = r;
            old->wake_send_end = 0;
            return;
        }
        if (old->t_cons > t) {
            scc_sim_engine_push(e, r, old->t_cons);
            return;
        }
    }
    m->bytes = bytes;
    if (nloc < st->nreaders) {
        t = scc_sim_net_send(e, r, idx, pass, bytes, t);
    }
    /* single copy: the readers copy from the sender's buffer, which the sender leaves */
    m->cma = p->cma_min > 0 && bytes >= p->cma_min && !job->copy;
    m->stream = slotted && !m->cma && bytes > e->slot;
    first = m->stream ? e->slot : bytes;
    /* reading the message from private memory: its misses per byte, for each piece */
    rd = scc_sim_mem_ns(p, step_missed(e, r, st, pass, bytes));
    m->rd_b = bytes > 0 && !m->cma ? rd / bytes : 0.0;
    start = t;
    if (!slotted) {
        m->t_pub = t;           /* the isends are posted: nothing to put */
    } else if (m->cma) {
        m->t_pub = t + p->o_put;
    } else {
        if (lrint(p->port_hold) == SCC_SIM_HOLD_TRANSFER && e->port_free[prog->tile] > start) {
            e->res->port_wait += e->port_free[prog->tile] - start;
            start = e->port_free[prog->tile];
        }
        de = start + scc_sim_put_ns(p, first);
        if (lrint(p->port_hold) == SCC_SIM_HOLD_LINE) {
            de = scc_sim_line_share(&e->port_free[prog->tile], start + p->o_put, de,
                                    scc_sim_port_ns(p, first));
        }
        m->t_pub = scc_sim_private_done(&e->mem_free[r], start + p->o_put, de, m->rd_b * first,
                                        overlap_of(e, 0));
        if (lrint(p->port_hold) == SCC_SIM_HOLD_TRANSFER) {
            e->port_free[prog->tile] = m->t_pub;
        }
    }
    m->t_cons = m->t_pub;
    m->t_send_end = m->t_pub;
    m->left = st->nreaders;
    if (slotted && e->window > 0) {
        R->slot_last[st->tag % (uint32_t) e->window] = R->nsent;
    }
    R->nsent++;
    R->pc++;
    R->t = m->t_pub;

    /* wake the readers that came early (those on other nodes look at their arrival) */
    for (int q = m->waiters; q >= 0;) {
        int next = e->ranks[q].next_wait;
        int h = scc_sim_hops(job->X, prog->tile, job->progs[q].tile);
        double tv = m->t_pub + (e->net && h > 0 ? 0.0 : scc_sim_flag_ns(p, h));
        scc_sim_engine_push(e, q, tv > e->ranks[q].t ? tv : e->ranks[q].t);
        q = next;
    }
    m->waiters = -1;

    if (0 == nloc) {
        scc_sim_engine_push(e, r, R->t);
        return;
    }
    if (m->stream || sync == SCC_SIM_SYNC_BLOCKING) {
        /* stays with the message: until its last piece is in, or until consumed */
        m->cons_waiter = r;
        m->wake_send_end = m->stream && sync != SCC_SIM_SYNC_BLOCKING;
        return;
    }
    scc_sim_engine_push(e, r, R->t);
}

static void run_recv(engine_t *e, int r, const scc_step_t *st, double t, int pass)
{
    const scc_sim_params_t *p = e->p;
    const scc_sim_job_t *job = e->job;
    const scc_sim_prog_t *prog = &job->progs[r];
    rank_t *R = &e->ranks[r];
    int peer = st->peer;
    msg_t *m = NULL;
    long idx = -1;
    int h, nl, nb, stile, ov, hold_links;
    double start, ds, end, tv, flag, mem;
    int reduce = st->kind == SCC_STEP_RECV_REDUCE;

    if (peer >= 0 && peer < job->n
        && (idx = NULL != R->src ? R->src[R->pc % prog->nsteps]
                                 : scc_sim_engine_find(e, peer, st->tag)) >= 0) {
        m = &e->ranks[peer].msgs[(long) pass * e->ranks[peer].nsends + idx];
    }
    if (NULL == m) {
        fprintf(stderr, "scc_sim: rank %d waits for (%d, tag %u) that is never sent\n", r, peer,
                st->tag);
        e->res->error = 1;
        R->done = 1;
        return;
    }
    if (m->left < 0) {
        R->next_wait = m->waiters;
        m->waiters = r;
        return;
    }
    if (0 == m->left) {
        fprintf(stderr, "scc_sim: rank %d reads (%d, tag %u) more often than its nreaders\n", r,
                peer, st->tag);
        e->res->error = 1;
        R->done = 1;
        return;
    }
    stile = job->progs[peer].tile;
    if (e->net && stile != prog->tile) {
        end = scc_sim_net_recv(e, r, peer, idx, pass, m->bytes, reduce, t);
        if (end < 0) {
            scc_sim_engine_push(e, r, -end);   /* not there yet */
            return;
        }
        goto read;
    }
    h = scc_sim_hops(job->X, stile, prog->tile);
    flag = scc_sim_flag_ns(p, h);
    tv = m->t_pub + flag;
    if (tv > t) {
        scc_sim_engine_push(e, r, tv);
        return;
    }

    /* The reader's overhead first; then the data flows from the sender's MPB
     * to this core along the X-Y route (requests go the other way, X-Y too).
     * Held per transfer, a port or link is waited for and kept until the get
     * is done; held per line, the lines interleave (scc_sim_line_shares). */
    hold_links = lrint(p->link_hold) == SCC_SIM_HOLD_TRANSFER;
    nl = scc_sim_route(job->X, stile, prog->tile, e->route);
    nb = scc_sim_route(job->X, prog->tile, stile, e->back);
    ds = t + p->o_get;
    if (lrint(p->port_hold) == SCC_SIM_HOLD_TRANSFER && e->port_free[stile] > ds) {
        e->res->port_wait += e->port_free[stile] - ds;
        ds = e->port_free[stile];
    }
    if (hold_links) {
        double s0 = ds;
        for (int i = 0; i < nl; ++i) {
            if (e->link_free[e->route[i]] > ds) {
                ds = e->link_free[e->route[i]];
            }
        }
        e->res->link_wait += ds - s0;
    }
    start = ds - p->o_get;  /* the get's cost functions include the overhead */

    /* writing into private memory (a reduction reads its operand there too) */
    mem = scc_sim_mem_ns(p, step_missed(e, r, st, pass, m->bytes));
    ov = overlap_of(e, !reduce);
    if (!m->stream) {
        double get = m->cma ? scc_sim_cma_get_ns(p, m->bytes, reduce)
                            : scc_sim_get_ns(p, m->bytes, h, reduce);
        double de = scc_sim_line_shares(p, &e->port_free[stile], e->link_free, e->link_busy, e->route,
                                        nl, e->back, nb, ds, start + get, m->bytes);
        end = scc_sim_private_done(&e->mem_free[r], ds, de, mem, ov);
        e->res->pieces++;
        if (end + flag > m->t_cons) {
            m->t_cons = end + flag;
        }
    } else {
        /* the sender puts piece i once piece i-window is consumed; the reader
         * gets piece i once it is put and flagged */
        long np = (long) ceil(m->bytes / e->slot);
        int w = e->window > 0 ? e->window : 1;
        double *cons = calloc((size_t) w, sizeof(double));
        double put_end = m->t_pub, get_end = start;
        for (long i = 0; i < np; ++i) {
            double piece = (i == np - 1) ? m->bytes - e->slot * (double) (np - 1) : e->slot;
            double gs, de;
            if (i > 0) {
                double ps = put_end;
                if (i >= w && cons[i % w] > ps) {
                    ps = cons[i % w];
                }
                put_end = ps + p->o_put + scc_sim_overlap_ns(scc_sim_put_ns(p, piece) - p->o_put,
                                                             m->rd_b * piece, overlap_of(e, 0));
                gs = put_end + flag > get_end ? put_end + flag : get_end;
            } else {
                gs = start;
            }
            de = scc_sim_line_shares(p, &e->port_free[stile], e->link_free, e->link_busy, e->route, nl,
                                     e->back, nb, gs + p->o_get,
                                     gs + scc_sim_get_ns(p, piece, h, reduce), piece);
            get_end = scc_sim_private_done(&e->mem_free[r], gs + p->o_get, de, mem * piece / m->bytes, ov);
            cons[i % w] = get_end + flag;
        }
        free(cons);
        e->res->pieces += np;
        end = get_end;
        if (put_end > m->t_send_end) {
            m->t_send_end = put_end;
        }
        if (end + flag > m->t_cons) {
            m->t_cons = end + flag;
        }
    }
    if (hold_links) {
        for (int i = 0; i < nl; ++i) {
            e->link_free[e->route[i]] = end;
            e->link_busy[e->route[i]] += end - ds;
        }
    }
    if (lrint(p->port_hold) == SCC_SIM_HOLD_TRANSFER) {
        e->port_free[stile] = end;
    }
read:
    e->res->gets++;
    e->res->bytes += m->bytes;
    m->left--;
    if (0 == m->left) {
        consumed(e, m);
    }
    R->pc++;
    R->t = end;
    scc_sim_engine_push(e, r, end);
}

static void advance(engine_t *e, int r, double t)
{
    rank_t *R = &e->ranks[r];
    const scc_sim_prog_t *prog = &e->job->progs[r];
    long total = prog->nsteps * e->passes;
    const scc_step_t *st;
    int pass;

    if (R->done) {
        return;
    }
    if (t < R->t) {
        t = R->t;
    }
    R->t = t;
    if (R->pc >= total) {
        /* done once the last private writes are out */
        R->done = 1;
        e->res->t_end[r] = R->t > e->mem_free[r] ? R->t : e->mem_free[r];
        if (R->net_done > e->res->t_end[r]) {
            e->res->t_end[r] = R->net_done;  /* its isends complete at the end of the call */
        }
        return;
    }
    st = &prog->steps[R->pc % prog->nsteps];
    pass = (int) (R->pc / prog->nsteps);
    {
        long pc0 = R->pc;
        if (SCC_STEP_SEND == st->kind) {
            run_send(e, r, st, t, pass);
        } else if (SCC_STEP_RECV == st->kind || SCC_STEP_RECV_REDUCE == st->kind) {
            run_recv(e, r, st, t, pass);
        } else {
            fprintf(stderr, "scc_sim: rank %d: bad step kind %d\n", r, st->kind);
            e->res->error = 1;
            R->done = 1;
            return;
        }
        if (R->pc != pc0) {
            e->res->hash[r] = scc_sim_step_hash(e->res->hash[r], st, prog->list, prog->list_len);
            e->res->executed[r]++;
        }
    }
}

int scc_sim_engine_run(const scc_sim_params_t *p, const scc_sim_job_t *job, scc_sim_result_t *res)
{
    engine_t e;
    int n = job->n, ntiles = job->X * job->Y, rc = 0;

    memset(&e, 0, sizeof(e));
    memset(res, 0, sizeof(*res));
    e.p = p;
    e.job = job;
    e.res = res;
    e.passes = job->passes > 0 ? job->passes : 1;
    e.slot = scc_sim_slot(p);
    e.window = (int) lrint(p->window);
    e.net = lrint(p->net) != 0;
    res->t_end = calloc((size_t) n, sizeof(double));
    res->hash = malloc(sizeof(uint64_t) * n);
    res->executed = calloc((size_t) n, sizeof(long));
    e.ranks = calloc((size_t) n, sizeof(rank_t));
    e.link_free = calloc((size_t) ntiles * 4, sizeof(double));
    e.link_busy = calloc((size_t) ntiles * 4, sizeof(double));
    e.port_free = calloc((size_t) ntiles, sizeof(double));
    e.net_out = calloc((size_t) ntiles, sizeof(double));
    e.net_in = calloc((size_t) ntiles, sizeof(double));
    e.mem_free = calloc((size_t) n, sizeof(double));
    e.cache = calloc((size_t) n, sizeof(scc_sim_cache_t));
    e.route = malloc(sizeof(int) * (job->X + job->Y + 2));
    e.back = malloc(sizeof(int) * (job->X + job->Y + 2));
    if (!res->t_end || !res->hash || !res->executed || !e.ranks || !e.link_free || !e.link_busy
        || !e.port_free || !e.net_out || !e.net_in || !e.mem_free || !e.cache || !e.route
        || !e.back) {
        res->error = 1;
        rc = -1;
        goto out;
    }
    for (int r = 0; r < n; ++r) {
        res->hash[r] = SCC_SIM_HASH0;
        scc_sim_cache_init(&e.cache[r], p, job->progs[r].footprint);
    }
    for (int r = 0; r < n; ++r) {
        if (0 != scc_sim_engine_setup_rank(&e, r)) {
            res->error = 1;
            rc = -1;
            goto out;
        }
    }
    if (e.net && 0 != scc_sim_net_setup(&e)) {
        res->error = 1;
        rc = -1;
        goto out;
    }
    for (int r = 0; r < n; ++r) {
        scc_sim_engine_push(&e, r, 0.0);
    }
    while (e.nheap > 0) {
        ev_t ev = pop(&e);
        advance(&e, ev.r, ev.t);
    }
    for (int r = 0; r < n; ++r) {
        if (!e.ranks[r].done) {
            res->deadlock++;
        } else if (res->t_end[r] > res->t_max) {
            res->t_max = res->t_end[r];
        }
    }
    for (int l = 0; l < ntiles * 4; ++l) {
        if (e.link_busy[l] > res->link_busy_max) {
            res->link_busy_max = e.link_busy[l];
        }
    }
    if (res->deadlock) {
        int shown = 0;
        for (int r = 0; r < n && shown < 4; ++r) {
            if (!e.ranks[r].done) {
                const scc_sim_prog_t *pr = &job->progs[r];
                const scc_step_t *st = &pr->steps[e.ranks[r].pc % pr->nsteps];
                fprintf(stderr, "scc_sim: deadlock: rank %d stuck at step %ld (kind %d peer %d tag %u)\n",
                        r, e.ranks[r].pc, st->kind, st->peer, st->tag);
                shown++;
            }
        }
        rc = -1;
    }
    if (res->error) {
        rc = -1;
    }
out:
    if (e.ranks) {
        for (int r = 0; r < n; ++r) {
            scc_sim_engine_free_rank(&e.ranks[r]);
        }
    }
    if (e.cache) {
        for (int r = 0; r < n; ++r) {
            scc_sim_cache_free(&e.cache[r]);
        }
    }
    free(e.cache);
    free(e.mem_free);
    free(e.back);
    free(e.ranks);
    free(e.heap);
    free(e.link_free);
    free(e.link_busy);
    free(e.port_free);
    free(e.net_out);
    free(e.net_in);
    free(e.route);
    return rc;
}

void scc_sim_result_free(scc_sim_result_t *res)
{
    free(res->t_end);
    free(res->hash);
    free(res->executed);
    res->t_end = NULL;
    res->hash = NULL;
    res->executed = NULL;
}
