/* scc_sim_model.c: mesh geometry, X-Y routes, the cache state of a buffer, and the cost of a put, a get, a flag and a link. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scc_sim_model.h"

int scc_sim_mesh_init(scc_sim_mesh_t *m, int X, int Y, int K, int n)
{
    int cores = X * Y * K;

    if (X < 1 || Y < 1 || K < 1 || n < 1 || n > cores) {
        return -1;
    }
    m->X = X;
    m->Y = Y;
    m->K = K;
    m->n = n;
    m->tile_of = malloc(sizeof(int) * n);
    m->core_of = malloc(sizeof(int) * n);
    m->at = malloc(sizeof(int) * cores);
    if (!m->tile_of || !m->core_of || !m->at) {
        scc_sim_mesh_free(m);
        return -1;
    }
    for (int c = 0; c < cores; ++c) {
        m->at[c] = c < n ? c : -1;
    }
    for (int r = 0; r < n; ++r) {
        m->tile_of[r] = r / K;
        m->core_of[r] = r % K;
    }
    return 0;
}

void scc_sim_mesh_free(scc_sim_mesh_t *m)
{
    free(m->tile_of);
    free(m->core_of);
    free(m->at);
    m->tile_of = m->core_of = m->at = NULL;
}

int scc_sim_hops(int X, int a, int b)
{
    return abs(scc_sim_tile_x(X, a) - scc_sim_tile_x(X, b))
           + abs(scc_sim_tile_y(X, a) - scc_sim_tile_y(X, b));
}

int scc_sim_route(int X, int a, int b, int *links)
{
    int x = scc_sim_tile_x(X, a), y = scc_sim_tile_y(X, a);
    int xb = scc_sim_tile_x(X, b), yb = scc_sim_tile_y(X, b);
    int n = 0;

    while (x != xb) {
        int dir = x < xb ? SCC_SIM_EAST : SCC_SIM_WEST;
        links[n++] = scc_sim_link(y * X + x, dir);
        x += x < xb ? 1 : -1;
    }
    while (y != yb) {
        int dir = y < yb ? SCC_SIM_NORTH : SCC_SIM_SOUTH;
        links[n++] = scc_sim_link(y * X + x, dir);
        y += y < yb ? 1 : -1;
    }
    return n;
}

double scc_sim_miss(const scc_sim_params_t *p, double footprint)
{
    if (footprint <= p->cache_bytes || footprint <= 0) {
        return 0.0;
    }
    return 1.0 - p->cache_bytes / footprint;
}

double scc_sim_lines(const scc_sim_params_t *p, double bytes)
{
    double line = p->line_bytes > 0 ? p->line_bytes : 1;
    return ceil(bytes / line) * line;
}

/* ---------------------------------------------------------------- cache state */

int scc_sim_cache_init(scc_sim_cache_t *c, const scc_sim_params_t *p, double footprint)
{
    memset(c, 0, sizeof(*c));
    c->cache = p->cache_bytes;
    c->cold = scc_sim_miss(p, footprint);
    return 0;
}

void scc_sim_cache_free(scc_sim_cache_t *c)
{
    free(c->key);
    free(c->last);
    c->key = NULL;
    c->last = NULL;
    c->cap = c->used = 0;
}

static long slot_of(const scc_sim_cache_t *c, uint64_t k)
{
    uint64_t h = (k + 1) * UINT64_C(0x9E3779B97F4A7C15);
    long i = (long) (h >> 20) & (c->cap - 1);
    while (c->key[i] != 0 && c->key[i] != k + 1) {
        i = (i + 1) & (c->cap - 1);
    }
    return i;
}

static int grow(scc_sim_cache_t *c)
{
    scc_sim_cache_t n = *c;
    n.cap = c->cap ? 2 * c->cap : 256;
    n.key = calloc((size_t) n.cap, sizeof(uint64_t));
    n.last = malloc(sizeof(double) * n.cap);
    if (!n.key || !n.last) {
        free(n.key);
        free(n.last);
        return -1;
    }
    for (long i = 0; i < c->cap; ++i) {
        if (c->key[i]) {
            long j = slot_of(&n, c->key[i] - 1);
            n.key[j] = c->key[i];
            n.last[j] = c->last[i];
        }
    }
    free(c->key);
    free(c->last);
    *c = n;
    return 0;
}

double scc_sim_cache_touch(scc_sim_cache_t *c, uint64_t key, double bytes)
{
    double missed;
    long i;

    if (bytes <= 0) {
        return 0.0;
    }
    if (2 * (c->used + 1) > c->cap && 0 != grow(c)) {
        return bytes * c->cold;   /* out of memory: as a first touch */
    }
    i = slot_of(c, key);
    if (0 == c->key[i]) {
        missed = bytes * c->cold;
        c->key[i] = key + 1;
        c->used++;
    } else {
        /* LRU stack: the block's lines sit d .. d + bytes deep; those beyond
         * the capacity were evicted */
        double d = c->clock - c->last[i], out = (d + bytes - c->cache) / bytes;
        missed = bytes * (out < 0 ? 0 : out > 1 ? 1 : out);
    }
    c->clock += bytes;
    c->last[i] = c->clock;
    return missed;
}

/* ---------------------------------------------------------------- costs */

double scc_sim_put_ns(const scc_sim_params_t *p, double bytes)
{
    return p->o_put + scc_sim_lines(p, bytes) * p->put_ns_b;
}

double scc_sim_get_ns(const scc_sim_params_t *p, double bytes, int hops, int reduce)
{
    /* The core reads a remote line with a round trip: hops there and back. */
    double hop_b = (2.0 * scc_sim_hop_ns(p) + p->hop_line_ns) * hops / p->line_bytes;
    double per_b = p->get_ns_b + hop_b + (reduce ? p->reduce_ns_b : 0.0);
    return p->o_get + scc_sim_lines(p, bytes) * per_b;
}

double scc_sim_mem_ns(const scc_sim_params_t *p, double missed)
{
    return missed * p->mem_ns_b;
}

double scc_sim_flag_ns(const scc_sim_params_t *p, int hops)
{
    return p->flag_ns + hops * scc_sim_hop_ns(p);
}

double scc_sim_link_ns(const scc_sim_params_t *p, double bytes)
{
    double lines = scc_sim_lines(p, bytes) / p->line_bytes;
    double flits = lines * (p->line_bytes / p->link_bytes + p->header_flits);
    return flits * 1000.0 / p->mesh_mhz;
}

double scc_sim_req_ns(const scc_sim_params_t *p, double bytes)
{
    double lines = scc_sim_lines(p, bytes) / p->line_bytes;
    return lines * p->header_flits * 1000.0 / p->mesh_mhz;
}

double scc_sim_port_ns(const scc_sim_params_t *p, double bytes)
{
    double lines = scc_sim_lines(p, bytes) / p->line_bytes;
    return lines * p->port_cycles_line * 1000.0 / p->mesh_mhz;
}

double scc_sim_line_share(double *free_at, double ds, double de, double w)
{
    double from = *free_at > ds ? *free_at : ds;
    *free_at = from + w;
    return de > from + w ? de : from + w;
}

double scc_sim_private_done(double *mem_free, double ds, double de, double mem, int overlap)
{
    double s, end;

    if (mem <= 0) {
        return de;
    }
    s = ds > *mem_free ? ds : *mem_free;
    switch (overlap) {
    case SCC_SIM_OVERLAP_COPY:
        /* the misses stream beside the MPB side, once the memory path is free */
        *mem_free = s + mem > de ? s + mem : de;
        return *mem_free;
    case SCC_SIM_OVERLAP_DRAIN:
        /* the core goes on at de, but not before the previous get's writes are out */
        end = de > *mem_free ? de : *mem_free;
        *mem_free = s + mem > de ? s + mem : de;
        return end;
    default:
        /* in turn: the misses follow the MPB side on the core */
        *mem_free = (de > *mem_free ? de : *mem_free) + mem;
        return *mem_free;
    }
}

double scc_sim_overlap_ns(double a, double m, int overlap)
{
    if (SCC_SIM_OVERLAP_NONE == overlap) {
        return a + m;
    }
    return a > m ? a : m;
}

double scc_sim_line_shares(const scc_sim_params_t *p, double *port_free, double *link_free,
                           double *link_busy, const int *route, int nl, const int *back, int nb,
                           double ds, double de, double bytes)
{
    if (lrint(p->port_hold) == SCC_SIM_HOLD_LINE) {
        de = scc_sim_line_share(port_free, ds, de, scc_sim_port_ns(p, bytes));
    }
    if (lrint(p->link_hold) == SCC_SIM_HOLD_LINE) {
        double w = scc_sim_link_ns(p, bytes), wr = scc_sim_req_ns(p, bytes);
        for (int i = 0; i < nl; ++i) {
            de = scc_sim_line_share(&link_free[route[i]], ds, de, w);
            link_busy[route[i]] += w;
        }
        for (int i = 0; i < nb; ++i) {
            de = scc_sim_line_share(&link_free[back[i]], ds, de, wr);
            link_busy[back[i]] += wr;
        }
    }
    return de;
}

/* ---------------------------------------------------------------- cluster */

double scc_sim_cma_get_ns(const scc_sim_params_t *p, double bytes, int reduce)
{
    return p->o_get + p->cma_o_get
           + scc_sim_lines(p, bytes) * (p->cma_ns_b + (reduce ? p->reduce_ns_b : 0.0));
}

double scc_sim_net_book(const scc_sim_params_t *p, double *out_free, double *in_free, double t,
                        double bytes, double *out_end)
{
    double ts = t, w = p->net_gap_ns + bytes * p->net_ns_b;

    if (*out_free > ts) {
        ts = *out_free;
    }
    if (*in_free - p->net_lat_ns > ts) {
        ts = *in_free - p->net_lat_ns;
    }
    *out_free = ts + w;
    *in_free = ts + p->net_lat_ns + w;
    *out_end = ts + w;
    return ts + p->net_lat_ns + w;
}
