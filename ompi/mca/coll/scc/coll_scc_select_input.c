/* coll_scc_select_input.c: what the selection is built from -- the communicator's placement
 * and the component's parameters -- for the table, the trees' fan-outs and the barrier's
 * radix alike (the choices themselves are pure: coll_scc_select*.c). */
#include "coll_scc_component.h"
#include "coll_scc_topo.h"

void mca_coll_scc_topo_select_input(const scc_topo_t *t, uint32_t unavailable,
                                    scc_select_topo_t *st, scc_select_params_t *p)
{
    const mca_coll_scc_config_t *cs = &mca_coll_scc_config;

    scc_select_params_default(p);
    for (int c = 0; c < SCC_COLL_COUNT; ++c) {
        p->force[c] = cs->force[c];
    }
    p->line_max = cs->line_max;
    p->tree_max = cs->tree_max;
    p->direct_min = cs->direct_min;
    p->dopl_min = cs->dopl_min;
    p->nodes_jia_min = cs->nodes_jia_min;
    p->nodes_tree_min = cs->nodes_tree_min;
    p->nodes_ring_min = cs->nodes_ring_min;
    p->nodes_allgather_ring_min = cs->nodes_allgather_ring_min;
    p->nodes_alltoall_pairwise_min = cs->nodes_alltoall_pairwise_min;
    p->scan_ring_min = cs->scan_ring_min;
    p->butterfly_max = cs->butterfly_max;
    p->many_min = cs->many_min;
    p->barrier_radix = cs->barrier_radix;
    p->given = cs->given;
    p->unavailable = unavailable;
    st->kind = t->kind;
    st->n = t->mesh.n;
    st->grid_ok = t->mesh.grid_tail_only;
    st->maxper = SCC_TOPO_NODES == t->kind ? t->nodes.maxper : 0;
}

void mca_coll_scc_topo_table(const scc_topo_t *t, uint32_t unavailable, scc_select_table_t *table)
{
    scc_select_params_t p;
    scc_select_topo_t st;

    mca_coll_scc_topo_select_input(t, unavailable, &st, &p);
    scc_select_build(table, &st, &p);
}
