/* coll_scc_record_text.c: the text of a configuration record (pure C): build, sort, hash,
 * compare. */
#include "coll_scc_record_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scc_record_text_init(scc_record_text_t *t)
{
    memset(t, 0, sizeof(*t));
}

void scc_record_text_free(scc_record_text_t *t)
{
    free(t->buf);
    memset(t, 0, sizeof(*t));
}

static int text_reserve(scc_record_text_t *t, size_t more)
{
    char *p;
    size_t cap;

    if (t->len + more + 1 <= t->cap) {
        return 0;
    }
    cap = t->cap ? t->cap : 256;
    while (cap < t->len + more + 1) {
        cap *= 2;
    }
    p = realloc(t->buf, cap);
    if (NULL == p) {
        t->failed = 1;
        return -1;
    }
    t->buf = p;
    t->cap = cap;
    return 0;
}

static void text_put(scc_record_text_t *t, const char *s, const char *bad)
{
    for (; '\0' != *s; ++s) {
        t->buf[t->len++] = (NULL != strchr(bad, *s)) ? ' ' : *s;
    }
}

void scc_record_text_add(scc_record_text_t *t, const char *name, const char *value)
{
    if (NULL == value) {
        value = "";
    }
    if (0 != text_reserve(t, strlen(name) + strlen(value) + 2)) {
        return;
    }
    text_put(t, name, "\n=");
    t->buf[t->len++] = '=';
    text_put(t, value, "\n");
    t->buf[t->len++] = '\n';
    t->buf[t->len] = '\0';
}

static int line_cmp(const void *a, const void *b)
{
    const char *x = *(const char *const *) a, *y = *(const char *const *) b;
    /* by name first: '=' ends a name and sorts before any name character that follows */
    for (;; ++x, ++y) {
        unsigned char cx = '=' == *x ? 0 : (unsigned char) *x;
        unsigned char cy = '=' == *y ? 0 : (unsigned char) *y;
        if (cx != cy || '\n' == *x || '\n' == *y) {
            return (int) cx - (int) cy;
        }
    }
}

void scc_record_text_sort(scc_record_text_t *t)
{
    size_t n = 0, k = 0;
    char **lines, *out, *p;

    if (NULL == t->buf || t->failed) {
        return;
    }
    for (p = t->buf; '\0' != *p; ++p) {
        n += ('\n' == *p);
    }
    lines = malloc((n ? n : 1) * sizeof(char *));
    out = malloc(t->len + 1);
    if (NULL == lines || NULL == out) {
        free(lines);
        free(out);
        t->failed = 1;
        return;
    }
    for (p = t->buf; k < n; ++k) {
        lines[k] = p;
        p = strchr(p, '\n') + 1;
    }
    qsort(lines, n, sizeof(char *), line_cmp);
    p = out;
    for (k = 0; k < n; ++k) {
        size_t l = (size_t) (strchr(lines[k], '\n') - lines[k]) + 1;
        memcpy(p, lines[k], l);
        p += l;
    }
    *p = '\0';
    free(lines);
    free(t->buf);
    t->buf = out;
    t->cap = t->len + 1;
}

uint64_t scc_record_hash(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Copies the name of the line at p (up to '=') into out; returns the value's start. */
static const char *line_name(const char *p, char *out, size_t len)
{
    size_t i = 0;
    for (; '=' != *p && '\n' != *p && '\0' != *p; ++p) {
        if (i + 1 < len) {
            out[i++] = *p;
        }
    }
    if (len > 0) {
        out[i] = '\0';
    }
    return '=' == *p ? p + 1 : p;
}

static void line_value(const char *v, char *out, size_t len)
{
    size_t i = 0;
    for (; '\n' != *v && '\0' != *v; ++v) {
        if (i + 1 < len) {
            out[i++] = *v;
        }
    }
    if (len > 0) {
        out[i] = '\0';
    }
}

static const char *next_line(const char *p)
{
    const char *e = strchr(p, '\n');
    return NULL == e ? p + strlen(p) : e + 1;
}

int scc_record_text_diff(const char *a, const char *b, char *name, size_t name_len,
                         char *va, size_t va_len, int *a_has, char *vb, size_t vb_len,
                         int *b_has)
{
    char na[256], nb[256];

    while ('\0' != *a || '\0' != *b) {
        const char *xa = '\0' != *a ? line_name(a, na, sizeof(na)) : NULL;
        const char *xb = '\0' != *b ? line_name(b, nb, sizeof(nb)) : NULL;
        int c = NULL == xa ? 1 : NULL == xb ? -1 : strcmp(na, nb);

        if (0 == c) {
            size_t la = (size_t) (next_line(a) - xa), lb = (size_t) (next_line(b) - xb);
            if (la == lb && 0 == memcmp(xa, xb, la)) {
                a = next_line(a);
                b = next_line(b);
                continue;
            }
        }
        /* the smaller name differs: present in one record only, or with two values */
        snprintf(name, name_len, "%s", c <= 0 ? na : nb);
        *a_has = c <= 0;
        *b_has = c >= 0;
        line_value(*a_has ? xa : "", va, va_len);
        line_value(*b_has ? xb : "", vb, vb_len);
        return 1;
    }
    return 0;
}
