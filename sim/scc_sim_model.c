/* scc_sim_model.c: mesh geometry, X-Y routes and the cost of a put, a get, a flag and a link. */
#include <math.h>
#include <stdlib.h>

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

double scc_sim_put_ns(const scc_sim_params_t *p, double bytes, double miss)
{
    return p->o_put + scc_sim_lines(p, bytes) * (p->put_ns_b + p->mem_ns_b * miss);
}

double scc_sim_get_ns(const scc_sim_params_t *p, double bytes, int hops, double miss, int reduce)
{
    /* The core reads a remote line with a round trip: hops there and back. */
    double hop_b = 2.0 * scc_sim_hop_ns(p) * hops / p->line_bytes;
    double per_b = p->get_ns_b + hop_b + p->mem_ns_b * miss + (reduce ? p->reduce_ns_b : 0.0);
    return p->o_get + scc_sim_lines(p, bytes) * per_b;
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

double scc_sim_port_ns(const scc_sim_params_t *p, double bytes)
{
    double lines = scc_sim_lines(p, bytes) / p->line_bytes;
    return lines * p->port_cycles_line * 1000.0 / p->mesh_mhz;
}
