/* coll_scc_topo_nodes.c: which node each member of a communicator is on (Open MPI's own
 * knowledge: host names and locality flags, never a probe), and the nodes as the tiles of a
 * mesh -- coll_scc_nodes. */
#include "coll_scc_component.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/communicator/communicator.h"
#include "ompi/proc/proc.h"
#include "opal/class/opal_hash_table.h"
#include "opal/mca/base/mca_base_var.h"

#include "coll_scc_nodes.h"
#include "coll_scc_param.h"
#include "coll_scc_topo.h"

static char *p_nodes;           /* coll_scc_nodes: "auto" or CxR */

int mca_coll_scc_topo_nodes_register_params(void)
{
    p_nodes = "auto";
    (void) mca_base_component_var_register(mca_coll_scc_config.version,
        "nodes",
        "Communicators across nodes: each node is a tile of a mesh, its processes its cores, "
        "and the nodes sit on a grid of COLUMNSxROWS tiles (e.g. 4x2; nodes in the order of "
        "their lowest rank, row by row; at most 1048576 tiles), or auto (near-square).  A "
        "grid too small for the nodes, or not of that form, falls back to auto with a message",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &p_nodes);
    return OMPI_SUCCESS;
}

const char *mca_coll_scc_topo_nodes_grid(void)
{
    return p_nodes;
}

/* ------------------------------------------------------------ host names, read once */

static struct {
    pthread_mutex_t lock;
    int have;
    opal_hash_table_t hosts;    /* process name -> hash of its host name */
} cache = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t name_key(const ompi_proc_t *proc)
{
    uint64_t k = 0;
    memcpy(&k, &proc->super.proc_name, sizeof(k) < sizeof(proc->super.proc_name)
                                           ? sizeof(k) : sizeof(proc->super.proc_name));
    return k;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; '\0' != *s; ++s) {
        h = (h ^ (unsigned char) *s) * 0x100000001b3ull;
    }
    return h;
}

/* The hash of proc's host name (0: unknown): the runtime is asked once per process (each
 * ask of Open MPI 5 allocates), communicators made in a loop reuse the answer. */
static uint64_t host_of(ompi_proc_t *proc)
{
    void *value = NULL;
    uint64_t key, h;
    char name[256];

    if (NULL == proc) {
        return 0;
    }
    key = name_key(proc);
    pthread_mutex_lock(&cache.lock);
    if (!cache.have) {
        OBJ_CONSTRUCT(&cache.hosts, opal_hash_table_t);
        cache.have = OPAL_SUCCESS == opal_hash_table_init(&cache.hosts, 1024) ? 1 : -1;
    }
    if (cache.have > 0
        && OPAL_SUCCESS == opal_hash_table_get_value_uint64(&cache.hosts, key, &value)) {
        pthread_mutex_unlock(&cache.lock);
        return (uint64_t) (uintptr_t) value;
    }
    scc_proc_hostname(&proc->super, name, sizeof(name));
    h = 0 == strcmp(name, "an unknown host") ? 0 : fnv1a(name) | 1;
    /* a pointer holds the hash on 64-bit hosts; elsewhere its low half names the node */
    if (cache.have > 0) {
        (void) opal_hash_table_set_value_uint64(&cache.hosts, key, (void *) (uintptr_t) h);
    }
    pthread_mutex_unlock(&cache.lock);
    return (uint64_t) (uintptr_t) h;
}

void mca_coll_scc_topo_nodes_close(void)
{
    pthread_mutex_lock(&cache.lock);
    if (0 != cache.have) {
        OBJ_DESTRUCT(&cache.hosts);
        cache.have = 0;
    }
    pthread_mutex_unlock(&cache.lock);
}

/* ------------------------------------------------------------ the communicator's nodes */

int mca_coll_scc_topo_nodes(struct ompi_communicator_t *comm, scc_topo_t *t, bool *multi)
{
    const int n = ompi_comm_size(comm), me = ompi_comm_rank(comm);
    int *key = NULL, *pos = NULL, C = 0, R = 0, rc = OMPI_SUCCESS;
    uint64_t *host = NULL;
    scc_mesh_dims_t dims;
    scc_mesh_err_t err;
    bool local_all = true;

    *multi = false;
    for (int r = 0; r < n && local_all; ++r) {
        ompi_proc_t *proc = ompi_comm_peer_lookup(comm, r);
        local_all = NULL != proc && OPAL_PROC_ON_LOCAL_NODE(proc->super.proc_flags);
    }
    if (local_all) {
        return OMPI_SUCCESS;    /* one node: the topology of today */
    }
    *multi = true;
    host = malloc(n * sizeof(uint64_t));
    key = malloc(n * sizeof(int));
    pos = malloc(n * sizeof(int));
    if (NULL == host || NULL == key || NULL == pos) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
        snprintf(t->note, sizeof(t->note), "out of memory");
        goto out;
    }
    for (int r = 0; r < n; ++r) {
        host[r] = host_of(ompi_comm_peer_lookup(comm, r));
    }
    /* nodes by host name; my own view (the locality flags) must say the same */
    for (int r = 0; r < n; ++r) {
        ompi_proc_t *proc = ompi_comm_peer_lookup(comm, r);
        bool same = r == me || OPAL_PROC_ON_LOCAL_NODE(proc->super.proc_flags);
        key[r] = r;
        for (int q = 0; q < r; ++q) {
            if (host[q] == host[r]) {
                key[r] = key[q];
                break;
            }
        }
        if (0 == host[r] || same != (host[r] == host[me])) {
            rc = OMPI_ERR_NOT_AVAILABLE;
            snprintf(t->note, sizeof(t->note), "rank %d: its host name and Open MPI's locality "
                     "disagree", r);
            goto out;
        }
    }
    /* a grid it refuses is auto: said when the component opened */
    (void) scc_param_grid(p_nodes, SCC_MESH_MAX_POSITIONS, &C, &R, NULL, 0);
    rc = scc_nodes_build(&t->nodes, n, key, C, R);
    if (-1 == rc && 0 != C) {
        mca_coll_scc_show_help_once(me, "nodes-grid", p_nodes,
                                    "fewer tiles than there are nodes");
        rc = scc_nodes_build(&t->nodes, n, key, 0, 0);
    }
    if (0 != rc) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
        snprintf(t->note, sizeof(t->note), "out of memory");
        goto out;
    }
    /* the nodes are the tiles of a mesh, their processes its cores */
    dims.X = t->nodes.C;
    dims.Y = t->nodes.R;
    dims.K = t->nodes.maxper;
    scc_nodes_positions(&t->nodes, pos);
    if (SCC_MESH_OK != scc_mesh_build(&t->mesh, &dims, n, pos, &err)) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
        snprintf(t->note, sizeof(t->note), "nodes as tiles: %.100s", err.msg);
        goto out;
    }
    t->kind = SCC_TOPO_NODES;
    t->source = SCC_TOPO_SRC_NONE;
    snprintf(t->note, sizeof(t->note), "%d nodes", t->nodes.nnodes);
out:
    if (OMPI_SUCCESS != rc) {
        scc_nodes_free(&t->nodes);
    }
    free(host);
    free(key);
    free(pos);
    return rc;
}

int mca_coll_scc_topo_nodes_describe(const scc_topo_t *t, char *buf, size_t len)
{
    const scc_nodes_t *nd = &t->nodes;
    size_t used;
    int k;

    k = snprintf(buf, len, "nodes: %d on a %dx%d grid, processes per node ", nd->nnodes, nd->C,
                 nd->R);
    used = k > 0 ? (size_t) k : 0;
    for (int i = 0; i < nd->nnodes && used < len; ++i) {
        k = snprintf(buf + used, len - used, "%s%d", i ? "," : "", nd->first[i + 1] - nd->first[i]);
        used += k > 0 ? (size_t) k : 0;
    }
    for (int i = 0; i < nd->nnodes && used < len; ++i) {
        k = snprintf(buf + used, len - used, "%s%d", i ? "," : ", leaders ",
                     nd->members[nd->first[i]]);
        used += k > 0 ? (size_t) k : 0;
    }
    return (int) used;
}
