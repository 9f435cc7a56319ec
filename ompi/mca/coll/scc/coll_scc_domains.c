/* coll_scc_domains.c: the hwloc "domains x cores" grid from the processes' locations; pure C. */
#include "coll_scc_domains.h"

#include <stdio.h>
#include <stdlib.h>

#include "coll_scc_topo.h"

#define LEADERS_SHOWN 64

const char *scc_domains_level_name(int level)
{
    switch (level) {
    case SCC_TOPO_DOM_PACKAGE: return "package";
    case SCC_TOPO_DOM_NUMA: return "numa";
    case SCC_TOPO_DOM_CACHE: return "cache";
    case SCC_TOPO_DOM_NONE: return "none";
    default: return "auto";
    }
}

static int field_of(int level)
{
    return SCC_TOPO_DOM_PACKAGE == level ? SCC_LOC_PACKAGE
           : SCC_TOPO_DOM_NUMA == level ? SCC_LOC_NUMA : SCC_LOC_CACHE;
}

/* The number of distinct values of dom[0..n-1] and the largest count of one (n is at most a
 * node's processes: quadratic is fine). */
static int count_domains(int n, const int *dom, int *widest)
{
    int distinct = 0;

    *widest = 0;
    for (int r = 0; r < n; ++r) {
        int first = 1, members = 0;
        for (int q = 0; q < r && first; ++q) {
            first = (dom[q] != dom[r]);
        }
        if (!first) {
            continue;
        }
        distinct++;
        for (int q = r; q < n; ++q) {
            members += (dom[q] == dom[r]);
        }
        if (members > *widest) {
            *widest = members;
        }
    }
    return distinct;
}

/* dom[r] = the processes' domain ids at level; the number of processes spanning two */
static int domains_at(int n, const int32_t *locs, int level, int *dom)
{
    int unknown = 0;

    for (int r = 0; r < n; ++r) {
        dom[r] = (int) locs[(size_t) r * SCC_LOC_COUNT + field_of(level)];
        unknown += (dom[r] < 0);
    }
    return unknown;
}

int scc_domains_place(int n, const int32_t *locs, int want, scc_domains_t *out,
                      scc_mesh_dims_t *d, int *pos)
{
    static const int levels[] = { SCC_TOPO_DOM_PACKAGE, SCC_TOPO_DOM_NUMA, SCC_TOPO_DOM_CACHE };
    int *dom, *order, best = -1, best_sides = 0, best_distinct = 0;

    out->level = -1;
    out->distinct = 0;
    out->unknown_levels = 0;
    if (SCC_TOPO_DOM_NONE == want || n < 1) {
        return 0;
    }
    dom = malloc(2 * (size_t) n * sizeof(int));
    if (NULL == dom) {
        return -1;
    }
    order = dom + n;
    /* auto: of the levels that split the processes, the one whose grid is nearest a square
       (fewest rows + columns: DOPL's pipeline runs along both); the coarser on a tie */
    for (int li = 0; li < 3; ++li) {
        int distinct, widest;

        if (SCC_TOPO_DOM_AUTO != want && levels[li] != want) {
            continue;
        }
        if (domains_at(n, locs, levels[li], dom) > 0) {
            out->unknown_levels++;
            continue;
        }
        distinct = count_domains(n, dom, &widest);
        if (SCC_TOPO_DOM_AUTO == want && distinct < 2) {
            continue;
        }
        if (best < 0 || distinct + widest < best_sides) {
            best = levels[li];
            best_sides = distinct + widest;
            best_distinct = distinct;
        }
    }
    if (best < 0) {
        free(dom);
        return 0;
    }
    (void) domains_at(n, locs, best, dom);
    /* inside a domain, processes go in core order (then rank order) */
    for (int r = 0; r < n; ++r) {
        order[r] = (int) locs[(size_t) r * SCC_LOC_COUNT + SCC_LOC_CORE];
    }
    if (0 != scc_mesh_place_domains(n, dom, order, d, pos)) {
        free(dom);
        return -1;
    }
    free(dom);
    out->level = best;
    out->distinct = best_distinct;
    return 1;
}

int scc_domains_leaders(const scc_mesh_t *m, char *buf, size_t len)
{
    size_t used = 0;
    int w = 0;

    if (len > 0) {
        buf[0] = '\0';
    }
    for (int row = 0; row < m->R && NULL != m->grid_at; ++row) {
        if (row == LEADERS_SHOWN) {
            w = snprintf(buf + used, len - used, " ...");
            break;
        }
        w = snprintf(buf + used, len - used, "%s%d", row > 0 ? " " : "",
                     m->grid_at[(size_t) row * m->C]);
        if (w < 0 || (size_t) w >= len - used) {
            break;
        }
        used += (size_t) w;
    }
    return (int) used;
}
