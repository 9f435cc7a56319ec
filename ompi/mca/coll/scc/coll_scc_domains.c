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

/* distinct values of dom[0..n-1] (n is at most a node's processes: quadratic is fine) */
static int count_distinct(int n, const int *dom)
{
    int distinct = 0;

    for (int r = 0; r < n; ++r) {
        int seen = 0;
        for (int q = 0; q < r && !seen; ++q) {
            seen = (dom[q] == dom[r]);
        }
        distinct += !seen;
    }
    return distinct;
}

int scc_domains_place(int n, const int32_t *locs, int want, scc_domains_t *out,
                      scc_mesh_dims_t *d, int *pos)
{
    static const int levels[] = { SCC_TOPO_DOM_PACKAGE, SCC_TOPO_DOM_NUMA, SCC_TOPO_DOM_CACHE };
    int *dom, *order, rc = 0;

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
    for (int li = 0; li < 3 && 0 == rc; ++li) {
        const int level = levels[li], field = field_of(level);
        int unknown = 0, distinct;

        if (SCC_TOPO_DOM_AUTO != want && level != want) {
            continue;
        }
        for (int r = 0; r < n; ++r) {
            dom[r] = (int) locs[(size_t) r * SCC_LOC_COUNT + field];
            unknown += (dom[r] < 0);
        }
        if (unknown > 0) {
            out->unknown_levels++;
            continue;
        }
        distinct = count_distinct(n, dom);
        if (SCC_TOPO_DOM_AUTO == want && distinct < 2) {
            continue;
        }
        /* inside a domain, processes go in core order (then rank order) */
        for (int r = 0; r < n; ++r) {
            order[r] = (int) locs[(size_t) r * SCC_LOC_COUNT + SCC_LOC_CORE];
        }
        if (0 != scc_mesh_place_domains(n, dom, order, d, pos)) {
            rc = -1;
            break;
        }
        out->level = level;
        out->distinct = distinct;
        rc = 1;
    }
    free(dom);
    return rc;
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
