/* scc_sim_cc_coll.c: every rank's schedule for a collective on the cache-coherent model -- the
 * component's generators where it has them, the rest (its flag barriers, tuned's schedules,
 * seeds/004's barrier) restated here as step lists -- and their replay. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_cc_coll.h"

static const struct {
    const char *name;
    int by;
    scc_coll_t coll;
} algs[SCC_CC_ALG_COUNT] = {
    [SCC_CC_BC_TREE] = { "tree", SCC_CC_BY_SCC, SCC_COLL_BCAST },
    [SCC_CC_BC_DIRECT] = { "direct", SCC_CC_BY_SCC, SCC_COLL_BCAST },
    [SCC_CC_BC_JIA] = { "jia", SCC_CC_BY_SCC, SCC_COLL_BCAST },
    [SCC_CC_BC_DOPL] = { "dopl", SCC_CC_BY_SCC, SCC_COLL_BCAST },
    [SCC_CC_BC_BINOMIAL] = { "binomial", SCC_CC_BY_TUNED, SCC_COLL_BCAST },
    [SCC_CC_BC_CHAIN] = { "chain", SCC_CC_BY_TUNED, SCC_COLL_BCAST },
    [SCC_CC_BC_BINARY] = { "binary", SCC_CC_BY_TUNED, SCC_COLL_BCAST },
    [SCC_CC_BAR_DISSEM] = { "dissem", SCC_CC_BY_SCC, SCC_COLL_BARRIER },
    [SCC_CC_BAR_DIRECT] = { "direct", SCC_CC_BY_SCC, SCC_COLL_BARRIER },
    [SCC_CC_BAR_FTREE] = { "tree", SCC_CC_BY_SCC, SCC_COLL_BARRIER },
    [SCC_CC_BAR_BRUCK] = { "bruck", SCC_CC_BY_TUNED, SCC_COLL_BARRIER },
    [SCC_CC_BAR_RECDBL] = { "recdbl", SCC_CC_BY_TUNED, SCC_COLL_BARRIER },
    [SCC_CC_BAR_PAPER] = { "paper", SCC_CC_BY_PAPER, SCC_COLL_BARRIER },
    [SCC_CC_AR_BUTTERFLY] = { "butterfly", SCC_CC_BY_SCC, SCC_COLL_ALLREDUCE },
    [SCC_CC_AR_RING] = { "ring", SCC_CC_BY_SCC, SCC_COLL_ALLREDUCE },
    [SCC_CC_AR_TREE] = { "tree", SCC_CC_BY_SCC, SCC_COLL_ALLREDUCE },
    [SCC_CC_AR_DIRECT] = { "direct", SCC_CC_BY_SCC, SCC_COLL_ALLREDUCE },
    [SCC_CC_AR_RECDBL] = { "recdbl", SCC_CC_BY_TUNED, SCC_COLL_ALLREDUCE },
    [SCC_CC_AR_TRING] = { "tring", SCC_CC_BY_TUNED, SCC_COLL_ALLREDUCE },
    [SCC_CC_AR_RABEN] = { "rabenseifner", SCC_CC_BY_TUNED, SCC_COLL_ALLREDUCE },
    [SCC_CC_AR_REDBCAST] = { "redbcast", SCC_CC_BY_TUNED, SCC_COLL_ALLREDUCE },
};

const char *scc_cc_alg_name(int alg)
{
    return alg >= 0 && alg < SCC_CC_ALG_COUNT ? algs[alg].name : "?";
}

int scc_cc_alg_by(int alg)
{
    return algs[alg].by;
}

scc_coll_t scc_cc_alg_coll(int alg)
{
    return algs[alg].coll;
}

int scc_cc_alg_from_name(const char *s)
{
    /* "bcast:tree", or a name only one collective uses */
    for (int a = 0; a < SCC_CC_ALG_COUNT; ++a) {
        char full[64];
        snprintf(full, sizeof(full), "%s:%s", scc_coll_name(algs[a].coll), algs[a].name);
        if (0 == strcmp(s, full)) {
            return a;
        }
    }
    return -1;
}

/* ---------------------------------------------------------------- restated schedules */

/* The component's m-way dissemination barrier (coll_scc_flat_barrier.c): round k (tag k)
 * raises my flag and waits for the ranks j (m+1)^k behind me, j = 1..m, while j (m+1)^k < n. */
static void dissem_barrier(scc_sched_t *s, int n, int me, int radix)
{
    uint32_t k = 0;

    for (long dist = 1; dist < n; dist *= radix + 1, ++k) {
        int cnt = 0;
        for (long j = 1; j <= radix && j * dist < n; ++j) {
            cnt++;
        }
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, k, k, 0, 0, cnt);
        for (long j = 1; j <= radix && j * dist < n; ++j) {
            scc_sched_push(s, SCC_STEP_RECV, 0, (int) ((me - j * dist % n + n) % n), k, k, 0, 0, 0);
        }
    }
}

/* seeds/004 Fig. 4.3 as the notes correct it (B.9.5): ceil(log_m n) rounds, peers
 * i (m+1)^r behind for i = 1..m (wrapping, possibly myself), each round ends when my m
 * readers have acked on my flag's line. */
static void paper_barrier(scc_sched_t *s, int n, int me, int m)
{
    int rounds = scc_cc_clog(n, m < 2 ? 2 : m);
    long long dist = 1;

    for (int r = 0; r < rounds; ++r, dist *= m + 1) {
        long long dn = dist % n;
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, (uint32_t) r, r, 0, 0, m);
        for (int i = 1; i <= m; ++i) {
            int peer = (int) (((me - (i * dn) % n) % n + n) % n);
            scc_sched_push(s, SCC_STEP_RECV, 0, peer, (uint32_t) r, r, 0, 0, 0);
        }
        scc_sched_push(s, (scc_step_kind_t) SCC_CC_STEP_WAIT, 0, -1, (uint32_t) r, r, 0, 0, 0);
    }
}

/* The component's flag tree (mca_coll_scc_barrier_tree): children arrive (tag 0), the
 * parent releases (tag 1); rank 0 is the root. */
static void ftree_barrier(scc_sched_t *s, int n, int me, const int *f, int nl)
{
    int ch[512], parent = scc_tree_parent(me, n, f, nl);
    int nch = scc_tree_children(me, n, f, nl, ch, 512);

    for (int i = 0; i < nch && i < 512; ++i) {
        scc_sched_push(s, SCC_STEP_RECV, 0, ch[i], 0, 0, 0, 0, 0);
    }
    if (parent >= 0) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, 0, 0, 0, 0, 1);
        scc_sched_push(s, SCC_STEP_RECV, 0, parent, 1, 1, 0, 0, 0);
    }
    if (nch > 0) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, 1, 1, 0, 0, nch);
    }
}

/* tuned's recursive doubling barrier: ranks from P = 2^q up signal rank - P first and
 * are released by it last. */
static void recdbl_barrier(scc_sched_t *s, int n, int me)
{
    int P = 1, q = 0;

    while (2 * P <= n) {
        P *= 2;
        q++;
    }
    if (me >= P) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, 0, 0, 0, 0, 1);
        scc_sched_push(s, SCC_STEP_RECV, 0, me - P, q + 1, q + 1, 0, 0, 0);
        return;
    }
    if (me + P < n) {
        scc_sched_push(s, SCC_STEP_RECV, 0, me + P, 0, 0, 0, 0, 0);
    }
    for (int k = 0; k < q; ++k) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, k + 1, k + 1, 0, 0, 1);
        scc_sched_push(s, SCC_STEP_RECV, 0, me ^ (1 << k), k + 1, k + 1, 0, 0, 0);
    }
    if (me + P < n) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, q + 1, q + 1, 0, 0, 1);
    }
}

/* tuned's Rabenseifner allreduce on P = 2^q parts (block b = part b): the ranks above P
 * fold into rank - P, recursive halving reduce-scatter (partner at P/2, P/4, ...), recursive
 * doubling allgather back, the result handed to rank + P. */
static void raben_allreduce(scc_sched_t *s, int n, int me)
{
    int P = 1, q = 0, lo = 0, hi;

    while (2 * P <= n) {
        P *= 2;
        q++;
    }
    hi = P;
    if (me >= P) {
        scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_INPUT, -1, 0, 0, 0, P, 1);
        scc_sched_push(s, SCC_STEP_RECV, 0, me - P, 2 * q + 1, 2 * q + 1, 0, P, 0);
        return;
    }
    if (me + P < n) {
        scc_sched_push(s, SCC_STEP_RECV_REDUCE, SCC_STEP_F_INPUT, me + P, 0, 0, 0, P, 0);
    }
    for (int k = 0; k < q; ++k) {
        int dist = P >> (k + 1), half = (hi - lo) / 2, partner = me ^ dist;
        int keep = (me & dist) ? lo + half : lo, give = (me & dist) ? lo : lo + half;
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, k + 1, k + 1, give, half, 1);
        scc_sched_push(s, SCC_STEP_RECV_REDUCE, 0, partner, k + 1, k + 1, keep, half, 0);
        lo = keep;
        hi = keep + half;
    }
    for (int j = 0; j < q; ++j) {
        int dist = P >> (q - j), len = hi - lo, partner = me ^ dist;
        int other = (me & dist) ? lo - len : hi;
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, q + 1 + j, q + 1 + j, lo, len, 1);
        scc_sched_push(s, SCC_STEP_RECV, 0, partner, q + 1 + j, q + 1 + j, other, len, 0);
        lo = lo < other ? lo : other;
        hi = lo + 2 * len;
    }
    if (me + P < n) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, 2 * q + 1, 2 * q + 1, 0, P, 1);
    }
}

/* The component's direct allreduce (coll_scc_flat.c, single copy): every rank exposes its
 * input, combines its segment of everyone's (block r = rank r's segment), exposes the result
 * and reads everyone's; peers taken from me + 1 on, so readers spread over the sources. */
static void direct_allreduce(scc_sched_t *s, int n, int me)
{
    scc_sched_push(s, SCC_STEP_SEND, SCC_STEP_F_INPUT, -1, 0, 0, 0, n, n - 1);
    for (int j = 1; j < n; ++j) {
        scc_sched_push(s, SCC_STEP_RECV_REDUCE, 0, (me + j) % n, 0, 0, me, 1, 0);
    }
    scc_sched_push(s, SCC_STEP_SEND, 0, -1, 1, 1, me, 1, n - 1);
    for (int j = 1; j < n; ++j) {
        scc_sched_push(s, SCC_STEP_RECV, 0, (me + j) % n, 1, 1, (me + j) % n, 1, 0);
    }
}

/* Appends b's steps to s with tags and rounds moved past a's. */
static void append_shifted(scc_sched_t *s, const scc_sched_t *b, uint32_t off)
{
    for (long i = 0; i < b->nsteps; ++i) {
        const scc_step_t *st = &b->steps[i];
        scc_sched_push(s, (scc_step_kind_t) st->kind, st->flags, st->peer, st->tag + off,
                       st->round + off, st->block, st->nblocks, st->nreaders);
    }
}

/* A reduction to rank 0 then a bcast from it (tree: the component's fan-outs; else binomial). */
static int reduce_bcast(scc_sched_t *s, int n, int me, const int *f, int nl, uint32_t nb,
                        int binomial)
{
    scc_sched_t b;
    int rc;

    memset(&b, 0, sizeof(b));
    for (int pass = 0; pass < 2; ++pass) {
        rc = binomial ? scc_sched_binomial_bcast(&b, n, me, 0, nb)
                      : scc_sched_tree_bcast(&b, n, me, 0, f, nl, nb);
        if (rc || scc_sched_fits(&b)) {
            break;
        }
        free(b.steps);
        b.cap = b.nsteps;
        b.steps = malloc(sizeof(scc_step_t) * (b.cap ? b.cap : 1));
        if (NULL == b.steps) {
            return -1;
        }
    }
    if (0 == rc) {
        rc = binomial ? scc_sched_binomial_reduce(s, n, me, 0, nb)
                      : scc_sched_tree_reduce(s, n, me, 0, f, nl, nb);
    }
    if (0 == rc) {
        append_shifted(s, &b, nb);
    }
    free(b.steps);
    return rc;
}

/* ---------------------------------------------------------------- the driver */

static uint32_t nblocks_of(double bytes, double bs)
{
    return bytes > 0 ? (uint32_t) ceil(bytes / bs) : 0;
}

int scc_cc_build(const scc_cc_params_t *p, const scc_cc_case_t *c, int me, scc_sched_t *s,
                 double *bsp)
{
    const int n = c->n;
    int f[8], nl = c->nlevels, one[1];
    double slot = p->block_bytes, bs = slot;
    uint32_t nb;
    int rc = 0;

    if (nl > 0) {
        memcpy(f, c->fanout, sizeof(f));
    } else {
        nl = scc_tree_fanout_auto(n, f);
    }
    scc_sched_reset(s);
    /* the ring wants a segment per rank: blocks of bytes / n (whole lines), at most a slot */
    if (SCC_CC_AR_RING == c->alg || SCC_CC_AR_TRING == c->alg) {
        bs = ceil(c->bytes / n / p->line_bytes) * p->line_bytes;
        bs = bs < p->line_bytes ? p->line_bytes : (bs > slot ? slot : bs);
    }
    nb = nblocks_of(c->bytes, bs);
    switch (c->alg) {
    case SCC_CC_BC_TREE:
        rc = scc_sched_tree_bcast(s, n, me, 0, f, nl, nb);
        break;
    case SCC_CC_BC_DIRECT:
        one[0] = n - 1 > 0 ? n - 1 : 1;
        rc = scc_sched_tree_bcast(s, n, me, 0, one, 1, nb);
        break;
    case SCC_CC_BC_CHAIN:
    case SCC_CC_BC_BINARY:
        one[0] = SCC_CC_BC_CHAIN == c->alg ? 1 : 2;
        rc = scc_sched_tree_bcast(s, n, me, 0, one, 1, nb);
        break;
    case SCC_CC_BC_JIA:
        rc = scc_sched_jia_bcast(s, n, me, 0, nb);
        break;
    case SCC_CC_BC_BINOMIAL:
        rc = scc_sched_binomial_bcast(s, n, me, 0, nb);
        break;
    case SCC_CC_BC_DOPL: {
        /* the domains grid: a row per package, a column per core of it */
        int R = c->packages, C = (n + R - 1) / R, at[1024], row[1024], col[1024];
        scc_grid_t g = { R, C, n, at, row, col };
        if (R < 2 || R * C > 1024) {
            return -1;    /* one package: no domains grid, the component runs no DOPL */
        }
        for (int i = 0; i < R * C; ++i) {
            at[i] = i < n ? i : -1;
        }
        for (int r = 0; r < n; ++r) {
            row[r] = r / C;
            col[r] = r % C;
        }
        rc = scc_sched_dopl_bcast(s, &g, me, 0, nb, 4);
        break;
    }
    case SCC_CC_BAR_DISSEM:
        dissem_barrier(s, n, me, c->radix >= 1 ? c->radix : n - 1);
        break;
    case SCC_CC_BAR_DIRECT:
        dissem_barrier(s, n, me, n - 1);
        break;
    case SCC_CC_BAR_FTREE:
        ftree_barrier(s, n, me, f, nl);
        break;
    case SCC_CC_BAR_BRUCK:
        rc = scc_sched_dissem_barrier(s, n, me);
        break;
    case SCC_CC_BAR_RECDBL:
        recdbl_barrier(s, n, me);
        break;
    case SCC_CC_BAR_PAPER:
        paper_barrier(s, n, me, c->radix >= 1 ? c->radix : 2);
        break;
    case SCC_CC_AR_BUTTERFLY:
    case SCC_CC_AR_RECDBL:
        rc = scc_sched_butterfly_allreduce(s, n, me, nb);
        break;
    case SCC_CC_AR_RING:
    case SCC_CC_AR_TRING:
        rc = scc_sched_ring_allreduce(s, n, me, nb);
        break;
    case SCC_CC_AR_TREE:
    case SCC_CC_AR_REDBCAST:
        rc = reduce_bcast(s, n, me, f, nl, nb, SCC_CC_AR_REDBCAST == c->alg);
        break;
    case SCC_CC_AR_DIRECT:
        bs = c->bytes > 0 ? ceil(c->bytes / n) : 0;
        direct_allreduce(s, n, me);
        break;
    case SCC_CC_AR_RABEN: {
        int P = 1;
        while (2 * P <= n) {
            P *= 2;
        }
        bs = c->bytes > 0 ? ceil(c->bytes / P) : 0;
        raben_allreduce(s, n, me);
        break;
    }
    default:
        return -1;
    }
    *bsp = bs;
    return rc;
}

int scc_cc_run(const scc_cc_params_t *p, const scc_cc_case_t *c, scc_cc_out_t *out)
{
    scc_cc_machine_t m;
    scc_sched_t **s = calloc(c->n, sizeof(*s));
    double bs = 0;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    if (NULL == s || c->n < 1 || c->alg < 0 || c->alg >= SCC_CC_ALG_COUNT) {
        free(s);
        return -1;
    }
    m.n = c->n;
    m.packages = c->packages > 0 ? c->packages : 1;
    m.per = (c->n + m.packages - 1) / m.packages;
    /* tuned moves point-to-point messages through the pml */
    m.p2p = SCC_CC_BY_TUNED == scc_cc_alg_by(c->alg);
    for (int r = 0; r < c->n && 0 == rc; ++r) {
        s[r] = calloc(1, sizeof(scc_sched_t));
        if (NULL == s[r]) {
            rc = -1;
            break;
        }
        /* twice when the first guess of the size was short */
        for (int pass = 0; pass < 2 && 0 == rc; ++pass) {
            rc = scc_cc_build(p, c, r, s[r], &bs);
            if (0 == rc && !scc_sched_fits(s[r])) {
                free(s[r]->steps);
                free(s[r]->list);
                s[r]->cap = s[r]->nsteps;
                s[r]->list_cap = s[r]->list_len;
                s[r]->steps = malloc(sizeof(scc_step_t) * (s[r]->cap + 1));
                s[r]->list = malloc(sizeof(uint32_t) * (s[r]->list_cap + 1));
                if (!s[r]->steps || !s[r]->list) {
                    rc = -1;
                }
            }
        }
    }
    if (0 == rc) {
        double total = c->bytes;
        rc = scc_cc_replay(p, &m, s, bs, total, out);
    }
    for (int r = 0; r < c->n; ++r) {
        if (s[r]) {
            free(s[r]->steps);
            free(s[r]->list);
            free(s[r]);
        }
    }
    free(s);
    return rc;
}
