/* coll_scc_topo.h: where the processes of a communicator sit -- hwloc, the SCC chip, a mesh
 * the user describes. */
#ifndef MCA_COLL_SCC_TOPO_H
#define MCA_COLL_SCC_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coll_scc_members.h"
#include "coll_scc_mesh.h"
#include "coll_scc_nodes.h"
#include "coll_scc_sched.h"
#include "coll_scc_select.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a placement came from */
typedef enum {
    SCC_TOPO_SRC_NONE = 0,  /* flat: no geometry found */
    SCC_TOPO_SRC_USER,      /* coll_scc_mesh (and its map) */
    SCC_TOPO_SRC_CHIP,      /* every member is on an SCC core */
    SCC_TOPO_SRC_HWLOC      /* hwloc domains x cores */
} scc_topo_source_t;

/* What indexes a user's mesh map (coll_scc_mesh_key) */
typedef enum {
    SCC_TOPO_KEY_AUTO = 0,  /* core when every member is bound to its own core, else rank */
    SCC_TOPO_KEY_RANK,      /* the MPI_COMM_WORLD rank */
    SCC_TOPO_KEY_CORE       /* the core (hwloc logical index) the process is bound to */
} scc_topo_key_t;

/* Which hwloc domains make rows (coll_scc_domains) */
typedef enum {
    SCC_TOPO_DOM_AUTO = 0,  /* the level with >= 2 domains whose grid is nearest a square */
    SCC_TOPO_DOM_NONE,
    SCC_TOPO_DOM_PACKAGE,
    SCC_TOPO_DOM_NUMA,
    SCC_TOPO_DOM_CACHE
} scc_topo_domain_t;

/* A process's location as it is exchanged (int32 each) */
enum {
    SCC_LOC_MAGIC = 0,      /* SCC_LOC_MAGIC_VALUE: the layout below */
    SCC_LOC_BOUND,          /* 1 when bound to fewer PUs than the node offers */
    SCC_LOC_CORE,           /* hwloc logical index of the one core it is bound within, or -1 */
    SCC_LOC_PU,             /* logical index of the one PU it is bound to, or -1 */
    SCC_LOC_PACKAGE,        /* logical index of its package, or -1 when it spans several */
    SCC_LOC_NUMA,           /* logical index of its NUMA node, or -1 */
    SCC_LOC_CACHE,          /* logical index of its shared cache (the deepest cache above
                               a core that more than one core shares), or -1 */
    SCC_LOC_SCC,            /* SCC core id, -1 not an SCC, -2 a malformed probe setting */
    SCC_LOC_COUNT
};
#define SCC_LOC_MAGIC_VALUE 0x5cc10c01

/* The topology of a communicator, built once at setup. */
typedef struct scc_topo {
    scc_topo_kind_t kind;
    scc_topo_source_t source;
    scc_topo_key_t key;        /* user meshes: the key that indexed the map */
    scc_topo_domain_t domain;  /* domains: the level that made the rows */
    int nunbound;              /* members not bound within one core */
    int exchanged;             /* 1: locations from the modex, 2: by an allgather */
    int oom;                   /* placing ran out of memory (setup then fails, agreed) */
    scc_mesh_t mesh;           /* rank -> (x, y, z); flat: the near-square grid */
    scc_grid_t grid;           /* views into mesh, for the schedules */
    scc_tiles_t tiles;
    scc_nodes_t nodes;         /* SCC_TOPO_NODES: the members by node (else empty) */
    char note[160];            /* why the communicator is flat, or where the mesh came from */
    int *core;                 /* rank -> the SCC core whose message-passing buffer it uses */
    const char *core_how;      /* where those came from; core NULL: why there are none */
} scc_topo_t;

struct ompi_communicator_t;

/* Registers coll_scc_mesh, _mesh_map, _mesh_map_file, _mesh_key, _domains,
 * _scc_coreid, _scc_coreid_file, _scc_crb_device, _topo_exchange and (coll_scc_topo_locate.c)
 * _binding. */
int mca_coll_scc_topo_register_params(void);

/* At component open: finds this process's location (hwloc, SCC probe) and
 * publishes it to the local peers through the modex. */
int mca_coll_scc_topo_open(void);
void mca_coll_scc_topo_close(void);

/* The device that maps the SCC tile's configuration registers (coll_scc_scc_crb_device). */
const char *mca_coll_scc_topo_crb_device(void);

/* Builds the topology of comm (collective: every member calls it in the same
 * collective).  A bad mesh description is reported with opal_show_help and
 * gives a flat topology; returns OMPI_SUCCESS, or an error when memory or
 * the exchange failed (out is then flat). */
int mca_coll_scc_topo_build(const scc_members_t *mb, scc_topo_t *out);
void mca_coll_scc_topo_free(scc_topo_t *t);

/* Fills the selection table for a topology from the component's parameters. */
void mca_coll_scc_topo_table(const scc_topo_t *t, uint32_t unavailable, scc_select_table_t *table);
/* What the selection is built from (coll_scc_select_input.c): the placement and the
 * component's parameters; the table, the trees and the barrier's radix all read these. */
void mca_coll_scc_topo_select_input(const scc_topo_t *t, uint32_t unavailable,
                                    scc_select_topo_t *st, scc_select_params_t *p);

/* Verbose level 1 (rank 0 of the communicator): the topology, the transport
 * and the algorithm table; level 3: every rank's position. */
void mca_coll_scc_topo_report(const scc_members_t *mb, const scc_select_table_t *select,
                              const char *transport);

/* One phrase for the topology, e.g. "mesh 6x4x2 (user, key rank), 4 tiles, grid 2x4". */
int mca_coll_scc_topo_describe(const scc_topo_t *t, char *buf, size_t len);

/* coll_scc_topo_locate.c: this process's location in topo (core, PU, package, NUMA node,
 * shared cache; -1 where unknown) from its binding -- the operating system's, or the
 * launcher's record where the topology is imposed (coll_scc_binding); note says which. */
int mca_coll_scc_topo_locate_register_params(void);
struct hwloc_topology;
void mca_coll_scc_topo_locate(struct hwloc_topology *topo, int32_t *loc, char *note, size_t len);

/* coll_scc_topo_nodes.c: a communicator on several nodes (Open MPI's locality flags and
 * host names) becomes SCC_TOPO_NODES, its nodes the tiles of a mesh (coll_scc_nodes); one
 * node leaves t alone.  *multi says which; an error when the views disagree or memory is
 * short (setup's agreement then declines everywhere). */
int mca_coll_scc_topo_nodes(struct ompi_communicator_t *comm, scc_topo_t *t, bool *multi);
int mca_coll_scc_topo_nodes_describe(const scc_topo_t *t, char *buf, size_t len);
int mca_coll_scc_topo_nodes_register_params(void);
/* coll_scc_nodes as given (scc_param_grid reads it) */
const char *mca_coll_scc_topo_nodes_grid(void);
void mca_coll_scc_topo_nodes_close(void);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COLL_SCC_TOPO_H */
