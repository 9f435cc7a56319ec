/* scc_sim_cc_engine.c: replays step lists on the cache-coherent model, one event per step,
 * ranks taken in the order of their clocks so that readers queue on a line as they arrive. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_cc.h"

typedef struct cc_msg {
    int sender, nreaders, nread, signal;
    int wait_pub, wait_all;     /* heads of the lists of ranks waiting (-1: none) */
    uint32_t tag;
    double bytes;               /* what the sender publishes */
    double tp;                  /* published (flag set); INFINITY before */
    double flag_free, data_free;/* the line queues: when the last reader left them */
    double t_all;               /* the last reader done */
    double ack_scan;            /* the sender's reads of its readers' ack lines */
    double ack_one;             /* one read of a shared notification line */
    double step;                /* point to point: the sender's time per copy */
} cc_msg_t;

typedef struct cc_rank {
    double clock;
    long pc, first_msg, nmsg;
    int wnext, done;
    long *msg_of;               /* per step: the message it publishes or reads, -1 none */
} cc_rank_t;

typedef struct cc_heap {
    double *t;
    int *r, n;
} cc_heap_t;

static void heap_push(cc_heap_t *h, double t, int r)
{
    int i = h->n++;

    while (i > 0) {
        int up = (i - 1) / 2;
        if (h->t[up] < t || (h->t[up] == t && h->r[up] < r)) {
            break;
        }
        h->t[i] = h->t[up];
        h->r[i] = h->r[up];
        i = up;
    }
    h->t[i] = t;
    h->r[i] = r;
}

static int heap_pop(cc_heap_t *h)
{
    int top = h->r[0], i = 0;
    double t = h->t[--h->n];
    int r = h->r[h->n];

    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n) {
            break;
        }
        if (c + 1 < h->n && (h->t[c + 1] < h->t[c]
                             || (h->t[c + 1] == h->t[c] && h->r[c + 1] < h->r[c]))) {
            c++;
        }
        if (t < h->t[c] || (t == h->t[c] && r < h->r[c])) {
            break;
        }
        h->t[i] = h->t[c];
        h->r[i] = h->r[c];
        i = c;
    }
    h->t[i] = t;
    h->r[i] = r;
    return top;
}

/* Bytes of blocks [b, b + nb) of a message of total bytes cut into blocks of bs. */
static double span_bytes(const scc_step_t *st, double bs, double total)
{
    double lo, hi;

    if (st->flags & SCC_STEP_F_LIST) {
        return st->nblocks * bs;
    }
    lo = st->block * bs;
    hi = (st->block + (double) st->nblocks) * bs;
    if (hi > total) {
        hi = total;
    }
    return hi > lo ? hi - lo : 0;
}

/* The message rank `sender` publishes under tag: its SENDs are in increasing tag order. */
static long find_msg(const cc_rank_t *rk, const cc_msg_t *msg, int sender, uint32_t tag)
{
    long lo = rk[sender].first_msg, hi = lo + rk[sender].nmsg - 1;

    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        if (msg[mid].tag == tag) {
            return mid;
        }
        if (msg[mid].tag < tag) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return -1;
}

static void wake(cc_heap_t *h, cc_rank_t *rk, int *head, double t)
{
    while (*head >= 0) {
        int r = *head;
        *head = rk[r].wnext;
        heap_push(h, rk[r].clock > t ? rk[r].clock : t, r);
    }
}

static void wait_on(cc_rank_t *rk, int *head, int r)
{
    rk[r].wnext = *head;
    *head = r;
}

int scc_cc_replay(const scc_cc_params_t *p, const scc_cc_machine_t *m, scc_sched_t *const *s,
                  double bs, double total, scc_cc_out_t *out)
{
    const int n = m->n, W = p->window >= 1 ? (int) p->window : 1;
    const double rl = p->r[SCC_CC_M][SCC_CC_SELF], line = p->line_bytes;
    cc_rank_t *rk = calloc(n, sizeof(*rk));
    long nmsg = 0, *slot = NULL, reads = 0;
    cc_msg_t *msg = NULL;
    cc_heap_t h = { NULL, NULL, 0 };
    int rc = -1, ndone = 0;

    memset(out, 0, sizeof(*out));
    if (NULL == rk) {
        return -1;
    }
    for (int r = 0; r < n; ++r) {
        for (long i = 0; i < s[r]->nsteps; ++i) {
            nmsg += SCC_STEP_SEND == s[r]->steps[i].kind;
        }
    }
    msg = calloc(nmsg ? nmsg : 1, sizeof(*msg));
    slot = malloc(sizeof(long) * n * W);
    h.t = malloc(sizeof(double) * n);
    h.r = malloc(sizeof(int) * n);
    if (!msg || !slot || !h.t || !h.r) {
        goto out;
    }
    /* every rank's messages, then every step's message */
    nmsg = 0;
    for (int r = 0; r < n; ++r) {
        rk[r].first_msg = nmsg;
        rk[r].wnext = -1;
        for (long i = 0; i < s[r]->nsteps; ++i) {
            const scc_step_t *st = &s[r]->steps[i];
            if (SCC_STEP_SEND == st->kind) {
                cc_msg_t *g = &msg[nmsg++];
                g->sender = r;
                g->tag = st->tag;
                g->nreaders = st->nreaders;
                g->bytes = span_bytes(st, bs, total);
                g->signal = 0 == st->nblocks;
                g->tp = INFINITY;
                g->wait_pub = g->wait_all = -1;
                g->flag_free = g->data_free = -INFINITY;
            }
        }
        rk[r].nmsg = nmsg - rk[r].first_msg;
    }
    for (int r = 0; r < n; ++r) {
        long own = rk[r].first_msg;
        rk[r].msg_of = malloc(sizeof(long) * (s[r]->nsteps + 1));
        if (NULL == rk[r].msg_of) {
            goto out;
        }
        for (long i = 0; i < s[r]->nsteps; ++i) {
            const scc_step_t *st = &s[r]->steps[i];
            if (SCC_STEP_SEND == st->kind) {
                rk[r].msg_of[i] = own++;
            } else if (SCC_CC_STEP_WAIT == st->kind) {
                rk[r].msg_of[i] = find_msg(rk, msg, r, st->tag);
            } else if (st->peer >= 0 && st->peer < n) {
                rk[r].msg_of[i] = find_msg(rk, msg, st->peer, st->tag);
            } else {
                rk[r].msg_of[i] = -1;
            }
            if (rk[r].msg_of[i] < 0) {
                out->failed = 1;
                goto out;
            }
        }
    }
    for (long i = 0; i < (long) n * W; ++i) {
        slot[i] = -1;
    }
    for (int r = 0; r < n; ++r) {
        heap_push(&h, 0.0, r);
    }

    while (h.n > 0) {
        int r = heap_pop(&h);
        cc_rank_t *me = &rk[r];
        const scc_step_t *st;
        cc_msg_t *g;

        if (me->pc >= s[r]->nsteps) {
            /* done: the transport does not wait for the readers of slot copies at the end
             * of a call (scc_xport_end waits for single-copy exposures only) */
            me->done = 1;
            ndone++;
            continue;
        }
        st = &s[r]->steps[me->pc];
        g = &msg[me->msg_of[me->pc]];
        if (SCC_STEP_SEND == st->kind && m->p2p) {
            /* one copy per reader, one after another; no slot to wait for */
            double t0 = me->clock;
            g->step = (g->bytes > p->payload ? p->copy_line * ceil(g->bytes / line) : 0) + rl
                      + p->pml_o;
            g->tp = t0 + g->step;
            me->clock = t0 + g->step * (g->nreaders > 1 ? g->nreaders : 1);
            wake(&h, rk, &g->wait_pub, g->tp);
            if (g->nreaders <= 0) {
                g->t_all = g->tp;
            }
        } else if (SCC_STEP_SEND == st->kind) {
            double t0 = me->clock;
            if (!g->signal) {
                /* the slot's last message must be taken before this one replaces it */
                long *sl = &slot[(long) r * W + st->tag % W];
                if (*sl >= 0) {
                    cc_msg_t *prev = &msg[*sl];
                    if (prev->nread < prev->nreaders) {
                        wait_on(rk, &prev->wait_all, r);
                        continue;
                    }
                    if (prev->t_all + prev->ack_scan > t0) {
                        t0 = prev->t_all + prev->ack_scan;
                    }
                }
                *sl = me->msg_of[me->pc];
                if (g->bytes > p->payload) {
                    t0 += p->copy_line * ceil(g->bytes / line);
                }
            }
            g->tp = t0 + rl;               /* the flag, in a line the sender owns */
            me->clock = g->tp;
            wake(&h, rk, &g->wait_pub, g->tp);
            if (g->nreaders <= 0) {
                g->t_all = g->tp;
            }
        } else if (SCC_CC_STEP_WAIT == st->kind) {
            double t0;
            if (g->nread < g->nreaders) {
                wait_on(rk, &g->wait_all, r);
                continue;
            }
            t0 = g->t_all > me->clock ? g->t_all : me->clock;
            me->clock = t0 + g->ack_one;   /* the notification line, read once */
        } else {
            const int d = scc_cc_dist(m, g->sender, r);
            double t0, f, bytes = span_bytes(st, bs, total);
            if (isinf(g->tp)) {
                wait_on(rk, &g->wait_pub, r);
                continue;
            }
            if (m->p2p) {
                /* my own copy: the (nread+1)-th, in lines no one else reads */
                double ready = g->tp + g->nread * g->step;
                double nl = ceil(bytes / line);
                f = (ready > me->clock ? ready : me->clock) + p->r[SCC_CC_M][d] + p->pml_o;
                if (bytes > p->payload) {
                    f += p->o[d] * nl + p->p[d] * nl / (nl + 1);
                }
                goto got;
            }
            t0 = g->tp > me->clock ? g->tp : me->clock;
            /* the flag line, modified in the sender's cache; readers of it queue */
            f = t0 + p->r[SCC_CC_M][d];
            if (f < g->flag_free + p->c[d]) {
                f = g->flag_free + p->c[d];
            }
            g->flag_free = f;
            if (bytes > p->payload) {
                /* the data lines: T_N less its one-line part, o N + p N / (N + 1) */
                double nl = ceil(bytes / line), busy = p->cont_per_line ? p->c[d] * nl : p->c[d];
                double fd = f + p->o[d] * nl + p->p[d] * nl / (nl + 1);
                double srv = isinf(g->data_free) ? f : (g->data_free > f ? g->data_free : f) + busy;
                if (fd < srv) {
                    fd = srv;
                }
                g->data_free = srv;
                f = fd;
            }
got:
            if (SCC_STEP_RECV_REDUCE == st->kind) {
                f += p->red_line * ceil(bytes / line);
            }
            g->nread++;
            reads++;
            /* my ack: a line I own, written while I wait next (release_later), off my path */
            if (f + (g->signal ? 0 : rl) > g->t_all) {
                g->t_all = f + (g->signal ? 0 : rl);
            }
            g->ack_scan += p->r[SCC_CC_M][d];
            if (p->r[SCC_CC_M][d] > g->ack_one) {
                g->ack_one = p->r[SCC_CC_M][d];
            }
            me->clock = f;
            if (g->nread == g->nreaders) {
                wake(&h, rk, &g->wait_all, g->t_all);
            }
        }
        me->pc++;
        heap_push(&h, me->clock, r);
    }
    out->failed = ndone < n;
    if (!out->failed) {
        for (int r = 0; r < n; ++r) {
            if (rk[r].clock > out->t) {
                out->t = rk[r].clock;
            }
        }
        out->t_rank0 = rk[0].clock;
        out->messages = nmsg;
        out->reads = reads;
        rc = 0;
    }
out:
    for (int r = 0; r < n; ++r) {
        free(rk[r].msg_of);
    }
    free(rk);
    free(msg);
    free(slot);
    free(h.t);
    free(h.r);
    return rc;
}
