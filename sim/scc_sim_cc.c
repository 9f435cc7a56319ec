/* scc_sim_cc.c: the cache-coherent preset's parameters and seeds/004's closed-form models. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_cc.h"

static const char *const dist_names[SCC_CC_NDIST] = { "self", "pkg", "xpkg" };
static const char *const state_names[SCC_CC_NSTATE] = { "m", "e", "s", "i" };

/* Sandy Bridge E5-2670 (seeds/004 Table 1.7); the files carry the provenance. */
void scc_cc_params_default(scc_cc_params_t *p)
{
    static const double r[SCC_CC_NSTATE][SCC_CC_NDIST] = {
        { 2.3, 41.6, 115.4 }, { 2.3, 32.8, 75.7 }, { 2.8, 15.8, 17.3 }, { 69.3, 70.9, 109.3 }
    };

    memset(p, 0, sizeof(*p));
    memcpy(p->r, r, sizeof(r));
    for (int d = 0; d < SCC_CC_NDIST; ++d) {
        p->o[d] = 20.1;
        p->p[d] = 152.5;
        p->q[d] = 212.0;
        p->c[d] = 7.8;
    }
    p->b = 44.6;
    p->copy_line = 2.3;
    p->red_line = 3.1;
    p->line_bytes = 64;
    p->payload = 56;
    p->block_bytes = 65536;
    p->window = 8;
    p->cont_per_line = 1;
}

/* The address of the parameter called name, or NULL. */
static double *param_ref(scc_cc_params_t *p, const char *name)
{
    static const struct { const char *name; size_t off; } scalars[] = {
        { "b", offsetof(scc_cc_params_t, b) },
        { "copy_line", offsetof(scc_cc_params_t, copy_line) },
        { "red_line", offsetof(scc_cc_params_t, red_line) },
        { "line_bytes", offsetof(scc_cc_params_t, line_bytes) },
        { "payload", offsetof(scc_cc_params_t, payload) },
        { "block_bytes", offsetof(scc_cc_params_t, block_bytes) },
        { "window", offsetof(scc_cc_params_t, window) },
        { "cont_per_line", offsetof(scc_cc_params_t, cont_per_line) },
        { "pml_o", offsetof(scc_cc_params_t, pml_o) },
    };
    char buf[64];

    for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); ++i) {
        if (0 == strcmp(name, scalars[i].name)) {
            return (double *) ((char *) p + scalars[i].off);
        }
    }
    for (int d = 0; d < SCC_CC_NDIST; ++d) {
        for (int s = 0; s < SCC_CC_NSTATE; ++s) {
            snprintf(buf, sizeof(buf), "r_%s_%s", state_names[s], dist_names[d]);
            if (0 == strcmp(name, buf)) {
                return &p->r[s][d];
            }
        }
        snprintf(buf, sizeof(buf), "o_%s", dist_names[d]);
        if (0 == strcmp(name, buf)) {
            return &p->o[d];
        }
        snprintf(buf, sizeof(buf), "p_%s", dist_names[d]);
        if (0 == strcmp(name, buf)) {
            return &p->p[d];
        }
        snprintf(buf, sizeof(buf), "q_%s", dist_names[d]);
        if (0 == strcmp(name, buf)) {
            return &p->q[d];
        }
        snprintf(buf, sizeof(buf), "c_%s", dist_names[d]);
        if (0 == strcmp(name, buf)) {
            return &p->c[d];
        }
    }
    return NULL;
}

int scc_cc_params_assign(scc_cc_params_t *p, const char *nv)
{
    char name[64];
    const char *eq = strchr(nv, '=');
    size_t len;
    double *ref;
    char *end;

    if (NULL == eq) {
        fprintf(stderr, "scc_sim: %s: want name=value\n", nv);
        return -1;
    }
    len = (size_t) (eq - nv);
    while (len > 0 && isspace((unsigned char) nv[len - 1])) {
        len--;
    }
    while (len > 0 && isspace((unsigned char) *nv)) {
        nv++;
        len--;
    }
    if (len >= sizeof(name)) {
        len = sizeof(name) - 1;
    }
    memcpy(name, nv, len);
    name[len] = '\0';
    ref = param_ref(p, name);
    if (NULL == ref) {
        fprintf(stderr, "scc_sim: no cache-coherent parameter %s\n", name);
        return -1;
    }
    errno = 0;
    *ref = strtod(eq + 1, &end);
    if (errno || end == eq + 1) {
        fprintf(stderr, "scc_sim: %s: not a number\n", nv);
        return -1;
    }
    return 0;
}

int scc_cc_params_load(scc_cc_params_t *p, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int rc = 0;

    if (NULL == f) {
        fprintf(stderr, "scc_sim: cannot open %s\n", path);
        return -1;
    }
    while (0 == rc && fgets(line, sizeof(line), f)) {
        char *h = strchr(line, '#'), *s = line;
        if (h) {
            *h = '\0';
        }
        while (isspace((unsigned char) *s)) {
            s++;
        }
        if ('\0' != *s) {
            rc = scc_cc_params_assign(p, s);
        }
    }
    fclose(f);
    return rc;
}

void scc_cc_params_print(const scc_cc_params_t *p, FILE *f)
{
    for (int s = 0; s < SCC_CC_NSTATE; ++s) {
        for (int d = 0; d < SCC_CC_NDIST; ++d) {
            fprintf(f, "r_%s_%s = %g\n", state_names[s], dist_names[d], p->r[s][d]);
        }
    }
    for (int d = 0; d < SCC_CC_NDIST; ++d) {
        fprintf(f, "o_%s = %g\np_%s = %g\nq_%s = %g\nc_%s = %g\n", dist_names[d], p->o[d],
                dist_names[d], p->p[d], dist_names[d], p->q[d], dist_names[d], p->c[d]);
    }
    fprintf(f, "b = %g\ncopy_line = %g\nred_line = %g\nline_bytes = %g\npayload = %g\n"
            "block_bytes = %g\nwindow = %g\ncont_per_line = %g\npml_o = %g\n", p->b,
            p->copy_line, p->red_line, p->line_bytes, p->payload, p->block_bytes, p->window,
            p->cont_per_line, p->pml_o);
}

/* ---------------------------------------------------------------- closed forms */

int scc_cc_clog(long n, long base)
{
    int r = 0;

    if (base < 2) {
        return n > 1 ? -1 : 0;
    }
    for (long pw = 1; pw < n; pw *= base) {
        r++;
    }
    return r;
}

double scc_cc_barrier_eq411(int n, int m, double rl, double rr)
{
    return scc_cc_clog(n, m) * (rl + rr * m + rr);
}

int scc_cc_barrier_best_m(int n, double rl, double rr)
{
    int best = 1;
    double bt = 0;

    if (n <= 2) {
        return 1;    /* log_1 is undefined: one peer, one round */
    }
    for (int m = 2; m <= n - 1; ++m) {
        double t = scc_cc_barrier_eq411(n, m, rl, rr);
        if (m == 2 || t < bt - 1e-9) {
            bt = t;
            best = m;
        }
    }
    return best;
}

double scc_cc_sbcast_eqb1(const int *k, int d, double ri, double rl, double rr, double b,
                          double c, int ack_extra)
{
    double t = (d + 1) * ri + 2.0 * d * rl;

    for (int i = 0; i < d; ++i) {
        t += c * k[i] + b;                          /* T_C(k_i): the level's data */
        t += ri + (k[i] + ack_extra - 1) * rr;      /* T_nb: the acks, per level */
    }
    return t;
}

/* Capacity 1 + sum of prod k_j (Eq. 4.4). */
static long tree_cap(const int *k, int d)
{
    long s = 1, pr = 1;

    for (int i = 0; i < d; ++i) {
        pr *= k[i];
        s += pr;
    }
    return s;
}

int scc_cc_sbcast_best(int n, double ri, double rl, double rr, double b, double c,
                       int ack_extra, int *best)
{
    int k[4], bestd = 0;
    double bt = 0;

    /* depth first, so that a deeper tree must be strictly cheaper */
    for (int d = 1; d <= 4; ++d) {
        long total = 1;
        for (int i = 0; i < d; ++i) {
            total *= 12;
        }
        for (long code = 0; code < total; ++code) {
            long v = code;
            int ok = 1;
            /* k[0] varies slowest: the order of the notes' solver, for its ties */
            for (int i = d - 1; i >= 0; --i) {
                k[i] = (int) (v % 12) + 1;
                v /= 12;
            }
            for (int i = 0; i < d; ++i) {
                if (k[i] > n - 1 || (i > 0 && k[i] > k[i - 1])) {
                    ok = 0;
                }
            }
            if (!ok || tree_cap(k, d) < n) {
                continue;
            }
            double t = scc_cc_sbcast_eqb1(k, d, ri, rl, rr, b, c, ack_extra);
            if (0 == bestd || t < bt - 1e-9) {
                bt = t;
                bestd = d;
                memcpy(best, k, sizeof(int) * d);
            }
        }
    }
    return bestd;
}
