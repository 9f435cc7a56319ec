/* coll_scc_mesh_parse.c: reading the user's mesh descriptions -- "XxYxK" dimensions and the
 * key -> position maps of coll_scc_mesh_map; pure C (coll_scc_mesh.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "coll_scc_mesh.h"
#include "coll_scc_mesh_int.h"

#define SCC_MESH_MAX_DIM 4096

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
