/* coll_scc_mesh.c: the mesh model -- parsing mesh descriptions, placing ranks, grid and tile
 * views, X-Y routes. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "coll_scc_mesh.h"

#define SCC_MESH_MAX_DIM 4096

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

static int set_err(scc_mesh_err_t *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int set_err(scc_mesh_err_t *err, int status, const char *fmt, ...)
{
    if (NULL != err) {
        va_list ap;
        err->status = status;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
    }
    return status;
}

static void clear_err(scc_mesh_err_t *err)
{
    if (NULL != err) {
        err->status = SCC_MESH_OK;
        err->msg[0] = '\0';
    }
}

/* Reads an unsigned decimal number of at most 9 digits; returns the character after it, or NULL. */
static const char *read_uint(const char *s, int *v)
{
    long val = 0;
    int digits = 0;

    while (isdigit((unsigned char) *s)) {
        if (++digits > 9) {
            return NULL;
        }
        val = val * 10 + (*s - '0');
        s++;
    }
    if (0 == digits) {
        return NULL;
    }
    *v = (int) val;
    return s;
}

static const char *skip_blanks(const char *s)
{
    while (' ' == *s || '\t' == *s || '\r' == *s) {
        s++;
    }
    return s;
}

int scc_mesh_parse_dims(const char *s, scc_mesh_dims_t *d, scc_mesh_err_t *err)
{
    int v[3] = { 0, 0, 1 };
    int nv = 0;
    const char *p;

    clear_err(err);
    if (NULL == s) {
        return set_err(err, SCC_MESH_ESYNTAX, "no dimensions given");
    }
    p = skip_blanks(s);
    if (0 == strncasecmp(p, "scc", 3) && '\0' == *skip_blanks(p + 3)) {
        d->X = SCC_CHIP_X;
        d->Y = SCC_CHIP_Y;
        d->K = SCC_CHIP_K;
        return SCC_MESH_OK;
    }
    for (;;) {
        const char *q = read_uint(p, &v[nv]);
        if (NULL == q) {
            return set_err(err, SCC_MESH_ESYNTAX,
                           "\"%s\": expected a number at \"%.16s\" (the form is COLUMNSxROWS"
                           "[xCORES_PER_TILE], e.g. 6x4x2)", s, p);
        }
        if (v[nv] < 1 || v[nv] > SCC_MESH_MAX_DIM) {
            return set_err(err, SCC_MESH_ESYNTAX, "\"%s\": each dimension must be 1..%d", s,
                           SCC_MESH_MAX_DIM);
        }
        nv++;
        p = skip_blanks(q);
        if ('\0' == *p) {
            break;
        }
        if (('x' != *p && 'X' != *p) || 3 == nv) {
            return set_err(err, SCC_MESH_ESYNTAX,
                           "\"%s\": unexpected \"%.16s\" (the form is COLUMNSxROWS"
                           "[xCORES_PER_TILE], e.g. 6x4x2)", s, p);
        }
        p = skip_blanks(p + 1);
    }
    if (nv < 2) {
        return set_err(err, SCC_MESH_ESYNTAX,
                       "\"%s\": give at least columns and rows, e.g. 6x4x2 or 8x6", s);
    }
    if ((long) v[0] * v[1] * v[2] > SCC_MESH_MAX_POSITIONS) {
        return set_err(err, SCC_MESH_ESYNTAX, "\"%s\": more than %d positions", s,
                       SCC_MESH_MAX_POSITIONS);
    }
    d->X = v[0];
    d->Y = v[1];
    d->K = v[2];
    return SCC_MESH_OK;
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

/* ---------------------------------------------------------------- maps */

typedef struct {
    int key, pos, entry;
} map_entry_t;

static int cmp_key(const void *a, const void *b)
{
    const map_entry_t *ea = a, *eb = b;
    return (ea->key > eb->key) - (ea->key < eb->key);
}

static int cmp_pos(const void *a, const void *b)
{
    const map_entry_t *ea = a, *eb = b;
    return (ea->pos > eb->pos) - (ea->pos < eb->pos);
}

/* Skips blanks and a comment; stops at a separator, the end or the next token. */
static const char *skip_space(const char *s)
{
    s = skip_blanks(s);
    if ('#' == *s) {
        while ('\0' != *s && '\n' != *s) {
            s++;
        }
    }
    return s;
}

/* Parses one entry "KEY:X,Y[,Z]" at s; returns the character after it, or NULL. */
static const char *parse_entry(const char *s, int v[4], int *nv, const char **bad)
{
    const char *p = skip_blanks(s);

    *nv = 0;
    for (int i = 0; i < 4; ++i) {
        p = read_uint(skip_blanks(p), &v[i]);
        if (NULL == p) {
            return NULL;
        }
        (*nv)++;
        p = skip_blanks(p);
        if (0 == i) {
            if (':' != *p) {
                *bad = "expected ':' after the key";
                return NULL;
            }
            p++;
        } else if (',' == *p && i < 3) {
            p++;
        } else {
            break;
        }
    }
    if (*nv < 3) {
        *bad = "expected KEY:X,Y or KEY:X,Y,Z";
        return NULL;
    }
    return p;
}

int scc_mesh_parse_map(const char *text, const scc_mesh_dims_t *d, scc_mesh_map_t *map,
                       scc_mesh_err_t *err)
{
    map_entry_t *e = NULL;
    int n = 0, cap = 0, entry = 0;
    const char *p = (NULL == text) ? "" : text;
    int rc = SCC_MESH_OK;

    clear_err(err);
    memset(map, 0, sizeof(*map));
    map->dims = *d;

    for (;;) {
        const char *start, *end, *bad = "expected KEY:X,Y or KEY:X,Y,Z";
        int v[4] = { 0, 0, 0, 0 }, nv, x, y, z;

        p = skip_space(p);
        if ('\0' == *p) {
            break;
        }
        if (';' == *p || '\n' == *p) {
            p++;
            continue;
        }
        start = p;
        entry++;
        end = parse_entry(p, v, &nv, &bad);
        if (NULL != end) {
            end = skip_space(end);
            if ('\0' != *end && ';' != *end && '\n' != *end) {
                bad = "expected ';' or a new line after the entry";
                end = NULL;
            }
        }
        if (NULL == end) {
            int len = (int) strcspn(start, ";\n");
            rc = set_err(err, SCC_MESH_ESYNTAX, "entry %d \"%.*s\": %s", entry,
                         len > 40 ? 40 : len, start, bad);
            goto fail;
        }
        x = v[1];
        y = v[2];
        z = (nv > 3) ? v[3] : 0;
        if (x >= d->X || y >= d->Y || z >= d->K) {
            int len = (int) strcspn(start, ";\n");
            rc = set_err(err, SCC_MESH_ERANGE,
                         "entry %d \"%.*s\": position (%d,%d,%d) is outside the %dx%dx%d mesh",
                         entry, len > 40 ? 40 : len, start, x, y, z, d->X, d->Y, d->K);
            goto fail;
        }
        if (n == cap) {
            map_entry_t *ne;
            cap = cap ? 2 * cap : 64;
            ne = realloc(e, cap * sizeof(*e));
            if (NULL == ne) {
                rc = set_err(err, SCC_MESH_ENOMEM, "out of memory");
                goto fail;
            }
            e = ne;
        }
        e[n].key = v[0];
        e[n].pos = scc_mesh_pos_index(d, x, y, z);
        e[n].entry = entry;
        n++;
        p = end;
    }

    if (n > 0) {
        qsort(e, n, sizeof(*e), cmp_pos);
        for (int i = 1; i < n; ++i) {
            if (e[i].pos == e[i - 1].pos) {
                int x, y, z;
                scc_mesh_pos_coords(d, e[i].pos, &x, &y, &z);
                rc = set_err(err, SCC_MESH_EDUP, "keys %d (entry %d) and %d (entry %d) are both "
                             "at position (%d,%d,%d)", e[i - 1].key, e[i - 1].entry, e[i].key,
                             e[i].entry, x, y, z);
                goto fail;
            }
        }
        qsort(e, n, sizeof(*e), cmp_key);
        for (int i = 1; i < n; ++i) {
            if (e[i].key == e[i - 1].key) {
                rc = set_err(err, SCC_MESH_EDUP, "key %d is listed twice (entries %d and %d)",
                             e[i].key, e[i - 1].entry < e[i].entry ? e[i - 1].entry : e[i].entry,
                             e[i - 1].entry < e[i].entry ? e[i].entry : e[i - 1].entry);
                goto fail;
            }
        }
        map->keys = malloc(n * sizeof(int));
        map->pos = malloc(n * sizeof(int));
        if (NULL == map->keys || NULL == map->pos) {
            rc = set_err(err, SCC_MESH_ENOMEM, "out of memory");
            goto fail;
        }
        for (int i = 0; i < n; ++i) {
            map->keys[i] = e[i].key;
            map->pos[i] = e[i].pos;
        }
        map->nentries = n;
    }
    free(e);
    return SCC_MESH_OK;

fail:
    free(e);
    scc_mesh_map_free(map);
    return rc;
}

void scc_mesh_map_free(scc_mesh_map_t *map)
{
    free(map->keys);
    free(map->pos);
    map->keys = NULL;
    map->pos = NULL;
    map->nentries = 0;
}

int scc_mesh_map_lookup(const scc_mesh_map_t *map, int key)
{
    int lo = 0, hi = map->nentries - 1;

    if (key < 0) {
        return -1;
    }
    if (0 == map->nentries) {
        return key < scc_mesh_npos(&map->dims) ? key : -1;
    }
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (map->keys[mid] == key) {
            return map->pos[mid];
        }
        if (map->keys[mid] < key) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return -1;
}

int scc_mesh_map_place(const scc_mesh_map_t *map, int n, const int *keys, int *pos,
                       scc_mesh_err_t *err)
{
    const scc_mesh_dims_t *d = &map->dims;

    clear_err(err);
    if (n > scc_mesh_npos(d)) {
        return set_err(err, SCC_MESH_EFEW, "%d processes do not fit the %d positions of the "
                       "%dx%dx%d mesh", n, scc_mesh_npos(d), d->X, d->Y, d->K);
    }
    for (int r = 0; r < n; ++r) {
        if (keys[r] < 0) {
            return set_err(err, SCC_MESH_EFEW, "rank %d has no key to look up", r);
        }
        pos[r] = scc_mesh_map_lookup(map, keys[r]);
        if (pos[r] < 0) {
            if (0 == map->nentries) {
                return set_err(err, SCC_MESH_EFEW, "rank %d has key %d, beyond the %d positions "
                               "of the %dx%dx%d mesh", r, keys[r], scc_mesh_npos(d), d->X, d->Y,
                               d->K);
            }
            return set_err(err, SCC_MESH_EFEW, "rank %d has key %d, which the map (%d entries) "
                           "does not place", r, keys[r], map->nentries);
        }
    }
    return SCC_MESH_OK;
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
