/* coll_scc_select_many.c: the choices for many cores on one node that are not ranges of the
 * table -- tree fan-outs, the barrier's radix, the butterfly's reach -- from the
 * cache-coherent model (sim/results/cc.md, cc_fanouts.md).  Pure C, as coll_scc_select.c. */
#include <stddef.h>
#include <stdint.h>

#include "coll_scc_select.h"

int scc_select_many(const scc_select_topo_t *topo, const scc_select_params_t *p)
{
    /* a mesh has its own algorithms; across nodes the hierarchy decides */
    return (SCC_TOPO_FLAT == topo->kind || SCC_TOPO_DOMAINS == topo->kind) && p->many_min > 0
           && topo->n >= p->many_min;
}

/* One shape per band of core counts, each the map's count in its middle: the shape whose
 * worst time over the best shape found is least across 8 B-1 MiB, Sandy Bridge one and two
 * packages and Xeon Phi (sim/fanouts.sh -> sim/results/cc_fanouts.md).  Deeper levels repeat
 * the last fan-out, so a shape serves the counts above its own as well. */
static const struct {
    int from;               /* processes from which this shape serves */
    int nlevels;
    int fanout[4];
} many_shapes[] = {
    { 16, 2, { 4, 3 } },            /* map at 16: worst 1.26 (64 B) */
    { 24, 3, { 4, 4, 3 } },         /* 32: 1.42 (512 B) */
    { 40, 3, { 5, 4, 2 } },         /* 48: 1.36 */
    { 56, 3, { 4, 4, 3 } },         /* 64: 1.28 */
    { 80, 3, { 5, 4, 4 } },         /* 96: 1.26 */
    { 112, 3, { 5, 5, 4 } },        /* 128: 1.31 */
    { 160, 3, { 7, 6, 4 } },        /* 192: 1.32 */
    { 224, 4, { 4, 4, 4, 3 } },     /* 256: 1.30 */
};

int scc_select_fanout(const scc_select_topo_t *topo, const scc_select_params_t *p,
                      int *fanout)
{
    int k = 0;

    if (!scc_select_many(topo, p)) {
        return 0;
    }
    for (size_t i = 0; i < sizeof(many_shapes) / sizeof(many_shapes[0]); ++i) {
        if (topo->n >= many_shapes[i].from) {
            k = (int) i;
        }
    }
    for (int l = 0; l < many_shapes[k].nlevels; ++l) {
        fanout[l] = many_shapes[k].fanout[l];
    }
    return many_shapes[k].nlevels;
}

int scc_select_barrier_radix(const scc_select_topo_t *topo, const scc_select_params_t *p)
{
    /* a round is one flag and m peers' flags read in turn: least at m = 1 at every count
       on both presets (cc_*_barrier.dat) */
    if (!(p->given & SCC_GIVEN_BARRIER_RADIX) && scc_select_many(topo, p)) {
        return 1;
    }
    return p->barrier_radix;
}

size_t scc_select_butterfly_max(const scc_select_topo_t *topo, const scc_select_params_t *p)
{
    size_t max = p->butterfly_max;

    /* from 128 processes the direct allreduce's n - 1 reads per block keep losing to the
       butterfly's log2 n rounds up to 16 KiB */
    if (!(p->given & SCC_GIVEN_BUTTERFLY_MAX) && topo->n >= 128) {
        max = 16384;
    }
    /* a direct_min the user set below it starts the direct algorithm there */
    if ((p->given & SCC_GIVEN_DIRECT_MIN) && p->direct_min > 0 && p->direct_min - 1 < max) {
        max = p->direct_min - 1;
    }
    return max;
}
