/* coll_scc_sched_dopl.c: DOPL, the dimension-ordered pipelined broadcast of seeds/000 §6. */
#include <stdlib.h>

#include "coll_scc_sched.h"

/* Round i pipelines one part (chunks_per_part blocks, one block per message)
 * along every line of dimension i % 2 (dimension 0: the cells of a column,
 * dimension 1: the cells of a row).  Lines are rings that start at the root's
 * coordinate: the root's own line carries part i from the root, every other
 * line carries part i-1 from its head (the cell on the root's line of the
 * other dimension, which got it in round i-1), and the tail of every other
 * line hands part i-2 back to its head as one message of the whole part (the
 * head is the one cell of the line that part skipped).  P parts take P + 1 rounds.
 *
 * Holes.  The cells that can take part ("the core") are the present cells whose
 * row holds a present cell in the root's column and whose column holds a
 * present cell in the root's row, minus the rows and columns left with a single
 * core cell (such a line would be its own head and tail, the fault of the
 * original).  With fewer than two core rows or columns DOPL degenerates to one
 * line (the root's row or column: P rounds, the original breaks here).  Every
 * other present cell hangs off a neighbour (breadth-first from the core, the
 * nearest cell when it has no present neighbour) and gets each part in the
 * round its parent gets it, in the same form.  A full grid has no such cells,
 * nor has a grid of three or more rows whose last row is partial (but holds two
 * cells or more) when the root is neither in that row nor above one of its holes. */

enum { MODE_POINT = 0, MODE_LINE = 1, MODE_GRID = 2 };
enum { FORM_NONE = 0, FORM_CHUNKS, FORM_WHOLE };

typedef struct dopl {
    const scc_grid_t *g;
    int R, C, r0, c0, root_cell;
    int mode;
    int line_dim;            /* MODE_LINE: 0 = the root's column, 1 = the root's row */
    unsigned char *crow;     /* MODE_GRID: core rows */
    unsigned char *ccol;     /* MODE_GRID: core columns */
    int *xparent;            /* per cell: -2 hole, -1 core, else the cell it hangs off */
    int *nhang;              /* per cell: cells hanging off it */
    int *mem;                /* the one allocation behind the arrays */
    long nparts, cpp, nblocks;
    /* the lines through one core cell (the one the generated rank serves), per dimension */
    struct {
        int prev, next, tail;
    } line[2];
} dopl_t;

static int present(const dopl_t *d, int r, int c)
{
    return d->g->at[r * d->C + c] >= 0;
}

static int is_core(const dopl_t *d, int r, int c)
{
    if (!present(d, r, c)) {
        return 0;
    }
    switch (d->mode) {
    case MODE_GRID:
        return d->crow[r] && d->ccol[c];
    case MODE_LINE:
        return d->line_dim == 0 ? c == d->c0 : r == d->r0;
    default:
        return r * d->C + c == d->root_cell;
    }
}

/* The line along dim through cell (r, c): its k-th cell in ring order from the root coordinate. */
static int line_cell(const dopl_t *d, int dim, int r, int c, int k)
{
    return dim == 0 ? ((d->r0 + k) % d->R) * d->C + c : r * d->C + (d->c0 + k) % d->C;
}

static int line_len(const dopl_t *d, int dim)
{
    return dim == 0 ? d->R : d->C;
}

/* position of cell in ring order along dim */
static int line_pos(const dopl_t *d, int dim, int cell)
{
    int r = cell / d->C, c = cell % d->C;
    return dim == 0 ? (r - d->r0 + d->R) % d->R : (c - d->c0 + d->C) % d->C;
}

static int line_next(const dopl_t *d, int dim, int cell)
{
    int r = cell / d->C, c = cell % d->C;
    for (int k = line_pos(d, dim, cell) + 1; k < line_len(d, dim); ++k) {
        int x = line_cell(d, dim, r, c, k);
        if (is_core(d, x / d->C, x % d->C)) {
            return x;
        }
    }
    return -1;
}

static int line_prev(const dopl_t *d, int dim, int cell)
{
    int r = cell / d->C, c = cell % d->C;
    for (int k = line_pos(d, dim, cell) - 1; k >= 0; --k) {
        int x = line_cell(d, dim, r, c, k);
        if (is_core(d, x / d->C, x % d->C)) {
            return x;
        }
    }
    return -1;
}

static int line_tail(const dopl_t *d, int dim, int cell)
{
    int r = cell / d->C, c = cell % d->C;
    for (int k = line_len(d, dim) - 1; k >= 0; --k) {
        int x = line_cell(d, dim, r, c, k);
        if (is_core(d, x / d->C, x % d->C)) {
            return x;
        }
    }
    return -1;
}

static int rank_at(const dopl_t *d, int cell)
{
    return d->g->at[cell];
}

/* Chooses the core and hangs every other present cell off it. */
static int dopl_layout(dopl_t *d)
{
    const int R = d->R, C = d->C, ncell = R * C;
    int changed;

    /* one allocation: xparent, nhang, queue (ints), then crow, ccol (bytes) */
    d->mem = calloc(1, sizeof(int) * 3 * (size_t) ncell + (size_t) R + (size_t) C);
    if (d->mem == NULL) {
        return -1;
    }
    d->xparent = d->mem;
    d->nhang = d->xparent + ncell;
    int *queue = d->nhang + ncell;
    d->crow = (unsigned char *) (queue + ncell);
    d->ccol = d->crow + R;
    for (int r = 0; r < R; ++r) {
        d->crow[r] = (unsigned char) present(d, r, d->c0);
    }
    for (int c = 0; c < C; ++c) {
        d->ccol[c] = (unsigned char) present(d, d->r0, c);
    }
    do {
        changed = 0;
        for (int r = 0; r < R; ++r) {
            int cnt = 0;
            if (r == d->r0 || !d->crow[r]) {
                continue;
            }
            for (int c = 0; c < C; ++c) {
                cnt += d->ccol[c] && present(d, r, c);
            }
            if (cnt < 2) {
                d->crow[r] = 0;
                changed = 1;
            }
        }
        for (int c = 0; c < C; ++c) {
            int cnt = 0;
            if (c == d->c0 || !d->ccol[c]) {
                continue;
            }
            for (int r = 0; r < R; ++r) {
                cnt += d->crow[r] && present(d, r, c);
            }
            if (cnt < 2) {
                d->ccol[c] = 0;
                changed = 1;
            }
        }
    } while (changed);

    int nr = 0, nc = 0, rowlen = 0, collen = 0;
    for (int r = 0; r < R; ++r) {
        nr += d->crow[r];
        collen += present(d, r, d->c0);
    }
    for (int c = 0; c < C; ++c) {
        nc += d->ccol[c];
        rowlen += present(d, d->r0, c);
    }
    if (nr >= 2 && nc >= 2) {
        d->mode = MODE_GRID;
    } else if (rowlen >= 2 || collen >= 2) {
        d->mode = MODE_LINE;
        d->line_dim = rowlen >= collen ? 1 : 0;
    } else {
        d->mode = MODE_POINT;
    }

    /* breadth-first from the core; a cell with no present path to it hangs off
     * the nearest placed cell */
    int head = 0, tail = 0, left = 0;
    for (int x = 0; x < ncell; ++x) {
        int r = x / C, c = x % C;
        if (!present(d, r, c)) {
            d->xparent[x] = -2;
        } else if (is_core(d, r, c)) {
            d->xparent[x] = -1;
            queue[tail++] = x;
        } else {
            d->xparent[x] = -3;
            left++;
        }
    }
    while (left > 0) {
        while (head < tail) {
            int x = queue[head++], r = x / C, c = x % C;
            const int nb[4][2] = { { r, c - 1 }, { r, c + 1 }, { r - 1, c }, { r + 1, c } };
            for (int i = 0; i < 4; ++i) {
                int rr = nb[i][0], cc = nb[i][1];
                if (rr < 0 || rr >= R || cc < 0 || cc >= C || d->xparent[rr * C + cc] != -3) {
                    continue;
                }
                d->xparent[rr * C + cc] = x;
                queue[tail++] = rr * C + cc;
                left--;
            }
        }
        if (left > 0) {
            int bu = -1, bp = -1, bdist = 0;
            for (int u = 0; u < ncell; ++u) {
                if (d->xparent[u] != -3) {
                    continue;
                }
                for (int p = 0; p < ncell; ++p) {
                    if (d->xparent[p] < -1) {
                        continue;
                    }
                    int dist = abs(u / C - p / C) + abs(u % C - p % C);
                    if (bu < 0 || dist < bdist) {
                        bu = u;
                        bp = p;
                        bdist = dist;
                    }
                }
            }
            d->xparent[bu] = bp;
            queue[tail++] = bu;
            left--;
        }
    }
    for (int x = 0; x < ncell; ++x) {
        if (d->xparent[x] >= 0) {
            d->nhang[d->xparent[x]]++;
        }
    }
    return 0;
}

/* caches the neighbours along both lines through core cell */
static void cache_lines(dopl_t *d, int cell)
{
    for (int dim = 0; dim < 2; ++dim) {
        d->line[dim].prev = line_prev(d, dim, cell);
        d->line[dim].next = line_next(d, dim, cell);
        d->line[dim].tail = line_tail(d, dim, cell);
    }
}

/* What a core cell does in round i (the cell whose lines cache_lines() holds). */
typedef struct role {
    int send_part;              /* line send of a part in chunks, -1 for none */
    int wrap_part;              /* tail -> head hand-back, one message, -1 for none */
    int recv_part, recv_from, recv_form;
} role_t;

static void core_role(const dopl_t *d, int cell, long i, role_t *ro)
{
    const int root = cell == d->root_cell;
    const long P = d->nparts;
    int dim, r = cell / d->C, c = cell % d->C;

    ro->send_part = ro->wrap_part = ro->recv_part = -1;
    ro->recv_form = FORM_NONE;
    if (d->mode == MODE_POINT) {
        return;
    }
    dim = d->mode == MODE_LINE ? d->line_dim : (int) (i % 2);
    int src_line = d->mode == MODE_LINE || (dim == 0 ? c == d->c0 : r == d->r0);
    int head = dim == 0 ? r == d->r0 : c == d->c0;
    int next = d->line[dim].next;

    if (src_line) {
        long part = i < P ? i : P - 1;
        if (!root) {
            ro->recv_part = (int) part;
            ro->recv_from = d->line[dim].prev;
            ro->recv_form = FORM_CHUNKS;
        }
        if (next >= 0) {
            ro->send_part = (int) part;
        }
        return;
    }
    if (head) {
        if (i >= 1) {
            ro->send_part = (int) (i - 1);
        }
        if (i >= 2) {
            ro->recv_part = (int) (i - 2);
            ro->recv_from = d->line[dim].tail;
            ro->recv_form = FORM_WHOLE;
        }
        return;
    }
    if (i >= 1) {
        ro->recv_part = (int) (i - 1);
        ro->recv_from = d->line[dim].prev;
        ro->recv_form = FORM_CHUNKS;
        if (next >= 0) {
            ro->send_part = (int) (i - 1);
        }
    }
    if (next < 0 && i >= 2) {
        ro->wrap_part = (int) (i - 2); /* to the head, at position 0 */
    }
}

/* The part (and its form) that cell hands to the cells hanging off it in round i. */
static int delivered(const dopl_t *d, int cell, long i, int *form)
{
    role_t ro;
    while (d->xparent[cell] >= 0) {
        cell = d->xparent[cell];
    }
    if (cell == d->root_cell) {
        *form = i < d->nparts ? FORM_CHUNKS : FORM_NONE;
        return i < d->nparts ? (int) i : -1;
    }
    core_role(d, cell, i, &ro);
    *form = ro.recv_form;
    return ro.recv_part;
}

static int nhanging(const dopl_t *d, int cell)
{
    return d->nhang[cell];
}

static long part_len(const dopl_t *d, long p)
{
    long rest = d->nblocks - p * d->cpp;
    return rest < d->cpp ? rest : d->cpp;
}

/* Message tags of round i: base+0 hand-back of a tail without hangers-on,
 * base+1+c chunk c, base+cpp+1 a whole part (a hand-back after chunks, or a
 * hand-back passed on to hangers-on).  They increase in each rank's step order. */
static uint32_t tag_base(const dopl_t *d, long i)
{
    return (uint32_t) (i * (d->cpp + 2));
}

/* A tail that feeds hangers-on sends its hand-back after the chunks: sent
 * first, it could hold the window slot a chunk forward needs while the head,
 * still sending its chunks down the line, has not read it yet. */
static int wrap_tag_late(const dopl_t *d, int tail_cell)
{
    return nhanging(d, tail_cell) > 0;
}

static void emit_round(const dopl_t *d, scc_sched_t *s, int cell, long i)
{
    const uint32_t base = tag_base(d, i), rnd = (uint32_t) i;
    const int nx = nhanging(d, cell);
    const uint32_t whole_tag = base + (uint32_t) d->cpp + 1;
    int form = FORM_NONE;
    int dpart = delivered(d, cell, i, &form); /* what my hangers-on get this round */

    if (d->xparent[cell] >= 0) {
        /* hanging cell: take the part from the parent in its form, pass it on */
        int from = rank_at(d, d->xparent[cell]);
        if (dpart < 0) {
            return;
        }
        long p0 = (long) dpart * d->cpp, m = part_len(d, dpart);
        if (form == FORM_CHUNKS) {
            for (long c = 0; c < m; ++c) {
                scc_sched_push(s, SCC_STEP_RECV, 0, from, base + 1 + (uint32_t) c, rnd,
                               (uint32_t) (p0 + c), 1, 0);
                if (nx > 0) {
                    scc_sched_push(s, SCC_STEP_SEND, 0, -1, base + 1 + (uint32_t) c, rnd,
                                   (uint32_t) (p0 + c), 1, nx);
                }
            }
        } else {
            scc_sched_push(s, SCC_STEP_RECV, 0, from, whole_tag, rnd, (uint32_t) p0,
                           (uint32_t) m, 0);
            if (nx > 0) {
                scc_sched_push(s, SCC_STEP_SEND, 0, -1, whole_tag, rnd, (uint32_t) p0,
                               (uint32_t) m, nx);
            }
        }
        return;
    }

    role_t ro;
    core_role(d, cell, i, &ro);
    const int late_wrap = ro.wrap_part >= 0 && nx > 0;
    if (ro.wrap_part >= 0 && !late_wrap) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, base, rnd, (uint32_t) (ro.wrap_part * d->cpp),
                       (uint32_t) part_len(d, ro.wrap_part), 1);
    }
    if (ro.recv_form == FORM_CHUNKS) {
        /* pipeliner (it sends on the part it receives) or tail: each chunk goes
         * on as it arrives, to the next cell and the hangers-on as one message */
        long p0 = (long) ro.recv_part * d->cpp, m = part_len(d, ro.recv_part);
        int readers = (ro.send_part >= 0) + nx;
        for (long c = 0; c < m; ++c) {
            scc_sched_push(s, SCC_STEP_RECV, 0, rank_at(d, ro.recv_from), base + 1 + (uint32_t) c,
                           rnd, (uint32_t) (p0 + c), 1, 0);
            if (readers > 0) {
                scc_sched_push(s, SCC_STEP_SEND, 0, -1, base + 1 + (uint32_t) c, rnd,
                               (uint32_t) (p0 + c), 1, readers);
            }
        }
    } else if (ro.send_part >= 0 || (cell == d->root_cell && form == FORM_CHUNKS && nx > 0)) {
        /* the root or a head injects a part it already holds */
        int part = ro.send_part >= 0 ? ro.send_part : dpart;
        int readers = (ro.send_part >= 0) + (form == FORM_CHUNKS && dpart == part ? nx : 0);
        long p0 = (long) part * d->cpp, m = part_len(d, part);
        for (long c = 0; c < m; ++c) {
            scc_sched_push(s, SCC_STEP_SEND, 0, -1, base + 1 + (uint32_t) c, rnd,
                           (uint32_t) (p0 + c), 1, readers);
        }
    }
    if (ro.recv_form == FORM_WHOLE) {
        long p0 = (long) ro.recv_part * d->cpp, m = part_len(d, ro.recv_part);
        int tail = ro.recv_from;
        uint32_t tag = wrap_tag_late(d, tail) ? whole_tag : base;
        scc_sched_push(s, SCC_STEP_RECV, 0, rank_at(d, tail), tag, rnd, (uint32_t) p0,
                       (uint32_t) m, 0);
        if (nx > 0) {
            scc_sched_push(s, SCC_STEP_SEND, 0, -1, whole_tag, rnd, (uint32_t) p0, (uint32_t) m,
                           nx);
        }
    }
    if (late_wrap) {
        scc_sched_push(s, SCC_STEP_SEND, 0, -1, whole_tag, rnd,
                       (uint32_t) (ro.wrap_part * d->cpp), (uint32_t) part_len(d, ro.wrap_part), 1);
    }
}

static int grid_ok(const scc_grid_t *g)
{
    if (g == NULL || g->R < 1 || g->C < 1 || g->n < 1 || g->at == NULL || g->row == NULL ||
        g->col == NULL || (long) g->R * g->C > (1L << 24)) {
        return 0;
    }
    int placed = 0;
    for (int x = 0; x < g->R * g->C; ++x) {
        int r = g->at[x];
        if (r < -1 || r >= g->n) {
            return 0;
        }
        placed += r >= 0;
    }
    if (placed != g->n) {
        return 0;
    }
    for (int r = 0; r < g->n; ++r) {
        if (g->row[r] < 0 || g->row[r] >= g->R || g->col[r] < 0 || g->col[r] >= g->C ||
            g->at[g->row[r] * g->C + g->col[r]] != r) {
            return 0;
        }
    }
    return 1;
}

int scc_sched_dopl_bcast(scc_sched_t *s, const scc_grid_t *g, int rank, int root,
                         uint32_t nblocks, uint32_t chunks_per_part)
{
    dopl_t d = { 0 };
    int rc = 0;

    scc_sched_reset(s);
    if (!grid_ok(g) || rank < 0 || rank >= g->n || root < 0 || root >= g->n ||
        chunks_per_part < 1) {
        return -1;
    }
    d.nblocks = nblocks;
    d.cpp = chunks_per_part;
    d.nparts = (d.nblocks + d.cpp - 1) / d.cpp;
    if ((d.nparts + 1) * (d.cpp + 2) > (long) UINT32_MAX) {
        return -1;
    }
    if (g->n == 1 || nblocks == 0) {
        return 0;
    }
    d.g = g;
    d.R = g->R;
    d.C = g->C;
    d.r0 = g->row[root];
    d.c0 = g->col[root];
    d.root_cell = d.r0 * d.C + d.c0;
    if (dopl_layout(&d) != 0) {
        rc = -1;
        goto out;
    }
    long nrounds = d.mode == MODE_GRID ? d.nparts + 1 : d.nparts;
    int cell = g->row[rank] * d.C + g->col[rank], anc = cell;
    while (d.xparent[anc] >= 0) {
        anc = d.xparent[anc];
    }
    cache_lines(&d, anc);
    for (long i = 0; i < nrounds; ++i) {
        emit_round(&d, s, cell, i);
    }
    s->nrounds = (uint32_t) nrounds;
out:
    free(d.mem);
    return rc;
}
