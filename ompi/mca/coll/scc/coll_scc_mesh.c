/* coll_scc_mesh.c: the mesh model -- placing ranks on positions, grid and tile views, leaders,
 * X-Y routes (the descriptions are read in coll_scc_mesh_parse.c); pure C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_mesh.h"
#include "coll_scc_mesh_int.h"

static const char *const status_names[] = {
    "ok", "syntax", "outside the mesh", "duplicate", "too few positions", "out of memory"
};

const char *scc_mesh_status_name(int status)
{
    if (status < 0 || status > SCC_MESH_ENOMEM) {
        return "?";
    }
    return status_names[status];
}

int scc_chip_coreid_to_pos(int coreid, int *x, int *y, int *z)
{
    static const scc_mesh_dims_t chip = { SCC_CHIP_X, SCC_CHIP_Y, SCC_CHIP_K };

    if (coreid < 0 || coreid >= SCC_CHIP_CORES) {
        return -1;
    }
    scc_mesh_pos_coords(&chip, coreid, x, y, z);
    return 0;
}

int scc_chip_pos_to_coreid(int x, int y, int z)
{
    if (x < 0 || x >= SCC_CHIP_X || y < 0 || y >= SCC_CHIP_Y || z < 0 || z >= SCC_CHIP_K) {
        return -1;
    }
    return 2 * (x + SCC_CHIP_X * y) + z;
}

/* ---------------------------------------------------------------- domains and flat sets */

typedef struct {
    int a, b, r;
} triple_t;

static int cmp_triple(const void *pa, const void *pb)
{
    const triple_t *a = pa, *b = pb;
    if (a->a != b->a) {
        return (a->a > b->a) - (a->a < b->a);
    }
    if (a->b != b->b) {
        return (a->b > b->b) - (a->b < b->b);
    }
    return (a->r > b->r) - (a->r < b->r);
}

int scc_mesh_place_domains(int n, const int *domain, const int *order, scc_mesh_dims_t *d,
                           int *pos)
{
    triple_t *t = malloc((n > 0 ? n : 1) * sizeof(*t));
    int rows = 0, widest = 0, col = 0;

    if (NULL == t) {
        return -1;
    }
    for (int r = 0; r < n; ++r) {
        t[r].a = domain[r];
        t[r].b = order[r];
        t[r].r = r;
    }
    qsort(t, n, sizeof(*t), cmp_triple);
    /* first pass: rows and the widest row; second: positions */
    for (int pass = 0; pass < 2; ++pass) {
        rows = 0;
        for (int i = 0; i < n; ++i) {
            if (0 == i || t[i].a != t[i - 1].a) {
                rows++;
                col = 0;
            }
            if (0 == pass) {
                if (col + 1 > widest) {
                    widest = col + 1;
                }
            } else {
                pos[t[i].r] = (rows - 1) * widest + col;
            }
            col++;
        }
    }
    free(t);
    d->X = widest > 0 ? widest : 1;
    d->Y = rows > 0 ? rows : 1;
    d->K = 1;
    return 0;
}

void scc_mesh_near_square(int n, int *R, int *C)
{
    int best_r = 1, best_c = n > 0 ? n : 1;
    int c0 = 1;

    while (c0 * c0 < n) {
        c0++;
    }
    for (int c = c0; c <= n; ++c) {
        int r = (n + c - 1) / c;
        int holes = r * c - n, best_holes = best_r * best_c - n;
        if (r + c < best_r + best_c || (r + c == best_r + best_c && holes < best_holes)) {
            best_r = r;
            best_c = c;
        }
    }
    *R = best_r;
    *C = best_c;
}

/* ---------------------------------------------------------------- placements */

void scc_mesh_free(scc_mesh_t *m)
{
    free(m->x);
    free(m->y);
    free(m->z);
    free(m->pos);
    free(m->tile_of);
    free(m->at);
    free(m->grid_at);
    free(m->grid_row);
    free(m->grid_col);
    memset(m, 0, sizeof(*m));
}

/* The grid view: rows y*K+z, columns x, empty rows and columns dropped. */
static int build_grid(scc_mesh_t *m)
{
    const scc_mesh_dims_t *d = &m->dims;
    int nrows = d->Y * d->K, ncols = d->X;
    int *row_ix = calloc(nrows, sizeof(int)), *col_ix = calloc(ncols, sizeof(int));
    int rc = -1;

    if (NULL == row_ix || NULL == col_ix) {
        goto out;
    }
    for (int r = 0; r < m->n; ++r) {
        row_ix[m->y[r] * d->K + m->z[r]] = 1;
        col_ix[m->x[r]] = 1;
    }
    m->R = 0;
    for (int i = 0; i < nrows; ++i) {
        row_ix[i] = row_ix[i] ? m->R++ : -1;
    }
    m->C = 0;
    for (int j = 0; j < ncols; ++j) {
        col_ix[j] = col_ix[j] ? m->C++ : -1;
    }
    m->grid_at = malloc((m->R * m->C > 0 ? m->R * m->C : 1) * sizeof(int));
    m->grid_row = malloc((m->n > 0 ? m->n : 1) * sizeof(int));
    m->grid_col = malloc((m->n > 0 ? m->n : 1) * sizeof(int));
    if (NULL == m->grid_at || NULL == m->grid_row || NULL == m->grid_col) {
        goto out;
    }
    for (int i = 0; i < m->R * m->C; ++i) {
        m->grid_at[i] = -1;
    }
    for (int r = 0; r < m->n; ++r) {
        m->grid_row[r] = row_ix[m->y[r] * d->K + m->z[r]];
        m->grid_col[r] = col_ix[m->x[r]];
        m->grid_at[m->grid_row[r] * m->C + m->grid_col[r]] = r;
    }
    m->grid_holes = m->R * m->C - m->n;
    /* exactly n cells are filled: the holes are a tail iff the first n cells are all filled */
    m->grid_tail_only = 1;
    for (int i = 0; i < m->n; ++i) {
        if (m->grid_at[i] < 0) {
            m->grid_tail_only = 0;
            break;
        }
    }
    rc = 0;
out:
    free(row_ix);
    free(col_ix);
    return rc;
}

int scc_mesh_build(scc_mesh_t *m, const scc_mesh_dims_t *d, int n, const int *pos,
                   scc_mesh_err_t *err)
{
    int npos, nalloc = n > 0 ? n : 1;

    clear_err(err);
    memset(m, 0, sizeof(*m));
    if (d->X < 1 || d->Y < 1 || d->K < 1 || (long) d->X * d->Y * d->K > SCC_MESH_MAX_POSITIONS) {
        return set_err(err, SCC_MESH_ERANGE, "bad mesh dimensions %dx%dx%d", d->X, d->Y, d->K);
    }
    npos = scc_mesh_npos(d);
    if (n > npos) {
        return set_err(err, SCC_MESH_EFEW, "%d processes do not fit the %d positions of the "
                       "%dx%dx%d mesh", n, npos, d->X, d->Y, d->K);
    }
    m->dims = *d;
    m->n = n;
    m->x = malloc(nalloc * sizeof(int));
    m->y = malloc(nalloc * sizeof(int));
    m->z = malloc(nalloc * sizeof(int));
    m->pos = malloc(nalloc * sizeof(int));
    m->tile_of = malloc(nalloc * sizeof(int));
    m->at = malloc(npos * sizeof(int));
    if (NULL == m->x || NULL == m->y || NULL == m->z || NULL == m->pos || NULL == m->tile_of
        || NULL == m->at) {
        scc_mesh_free(m);
        return set_err(err, SCC_MESH_ENOMEM, "out of memory");
    }
    for (int p = 0; p < npos; ++p) {
        m->at[p] = -1;
    }
    for (int r = 0; r < n; ++r) {
        if (pos[r] < 0 || pos[r] >= npos) {
            set_err(err, SCC_MESH_ERANGE, "rank %d: position %d is outside the %dx%dx%d mesh",
                    r, pos[r], d->X, d->Y, d->K);
            scc_mesh_free(m);
            return SCC_MESH_ERANGE;
        }
        if (m->at[pos[r]] >= 0) {
            int x, y, z;
            scc_mesh_pos_coords(d, pos[r], &x, &y, &z);
            set_err(err, SCC_MESH_EDUP, "ranks %d and %d are both at position (%d,%d,%d)",
                    m->at[pos[r]], r, x, y, z);
            scc_mesh_free(m);
            return SCC_MESH_EDUP;
        }
        m->at[pos[r]] = r;
        m->pos[r] = pos[r];
        scc_mesh_pos_coords(d, pos[r], &m->x[r], &m->y[r], &m->z[r]);
        m->tile_of[r] = m->y[r] * d->X + m->x[r];
    }
    for (int t = 0; t < d->X * d->Y; ++t) {
        for (int z = 0; z < d->K; ++z) {
            if (m->at[t * d->K + z] >= 0) {
                m->ntiles_used++;
                break;
            }
        }
    }
    if (0 != build_grid(m)) {
        scc_mesh_free(m);
        return set_err(err, SCC_MESH_ENOMEM, "out of memory");
    }
    return SCC_MESH_OK;
}

int scc_mesh_build_flat(scc_mesh_t *m, int n)
{
    scc_mesh_dims_t d;
    int *pos = malloc((n > 0 ? n : 1) * sizeof(int));
    int rc;

    if (NULL == pos) {
        memset(m, 0, sizeof(*m));
        return SCC_MESH_ENOMEM;
    }
    scc_mesh_near_square(n, &d.Y, &d.X);
    d.K = 1;
    for (int r = 0; r < n; ++r) {
        pos[r] = r;
    }
    rc = scc_mesh_build(m, &d, n, pos, NULL);
    free(pos);
    return rc;
}

void scc_mesh_tiles(const scc_mesh_t *m, scc_tiles_t *t)
{
    t->X = m->dims.X;
    t->Y = m->dims.Y;
    t->K = m->dims.K;
    t->n = m->n;
    t->at = m->at;
    t->tile_of = m->tile_of;
    t->core_of = m->z;
}

void scc_mesh_grid(const scc_mesh_t *m, scc_grid_t *g)
{
    g->R = m->R;
    g->C = m->C;
    g->n = m->n;
    g->at = m->grid_at;
    g->row = m->grid_row;
    g->col = m->grid_col;
}

int scc_mesh_tile_leader(const scc_mesh_t *m, int tile, int zpref)
{
    const int K = m->dims.K;

    if (tile < 0 || tile >= m->dims.X * m->dims.Y || NULL == m->at) {
        return -1;
    }
    if (zpref >= 0 && zpref < K && m->at[tile * K + zpref] >= 0) {
        return m->at[tile * K + zpref];
    }
    for (int z = 0; z < K; ++z) {
        if (m->at[tile * K + z] >= 0) {
            return m->at[tile * K + z];
        }
    }
    return -1;
}

/* ---------------------------------------------------------------- routes */

int scc_mesh_tile_hops(const scc_mesh_dims_t *d, int a, int b)
{
    int dx = a % d->X - b % d->X, dy = a / d->X - b / d->X;
    return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
}

int scc_mesh_route_tiles(const scc_mesh_dims_t *d, int a, int b, scc_link_t *links, int cap)
{
    int x = a % d->X, y = a / d->X;
    const int bx = b % d->X, by = b / d->X;
    int hops = 0;

    while (x != bx) {
        int dir = bx > x ? SCC_DIR_E : SCC_DIR_W;
        if (hops < cap) {
            links[hops].tile = y * d->X + x;
            links[hops].dir = dir;
        }
        hops++;
        x += (SCC_DIR_E == dir) ? 1 : -1;
    }
    while (y != by) {
        int dir = by > y ? SCC_DIR_N : SCC_DIR_S;
        if (hops < cap) {
            links[hops].tile = y * d->X + x;
            links[hops].dir = dir;
        }
        hops++;
        y += (SCC_DIR_N == dir) ? 1 : -1;
    }
    return hops;
}

int scc_mesh_hops(const scc_mesh_t *m, int ra, int rb)
{
    return scc_mesh_tile_hops(&m->dims, m->tile_of[ra], m->tile_of[rb]);
}

int scc_mesh_route(const scc_mesh_t *m, int ra, int rb, scc_link_t *links, int cap)
{
    return scc_mesh_route_tiles(&m->dims, m->tile_of[ra], m->tile_of[rb], links, cap);
}
