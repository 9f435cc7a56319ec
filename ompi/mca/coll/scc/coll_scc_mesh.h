/* coll_scc_mesh.h: the mesh model -- positions, tiles, leaders, X-Y routes and the schedule
 * views; pure C.
 *
 * No Open MPI include may appear here or in coll_scc_mesh*.c: the unit tests and
 * the mesh simulator compile this code alone.
 *
 * A mesh is X columns by Y rows of tiles with K cores per tile (the SCC is
 * 6 x 4 x 2).  A position (x, y, z) has the index p = (y*X + x)*K + z, which on
 * the SCC is exactly the core id RCCE uses (id = 2*(x + 6*y) + z).  Tile
 * t = y*X + x.  Routes are X-Y dimension ordered: first along the row to the
 * destination column, then along the column.
 *
 * A communicator's placement (scc_mesh_t) gives every rank a position; it may
 * use any subset of the positions (partial meshes, holes, a last row half
 * full), and ranks may be in any order.
 */
#ifndef MCA_COLL_SCC_MESH_H
#define MCA_COLL_SCC_MESH_H

#include <stddef.h>

#include "coll_scc_sched.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The SCC chip */
#define SCC_CHIP_X 6
#define SCC_CHIP_Y 4
#define SCC_CHIP_K 2
#define SCC_CHIP_CORES (SCC_CHIP_X * SCC_CHIP_Y * SCC_CHIP_K)

/* Largest mesh accepted (positions), so that indices stay small ints. */
#define SCC_MESH_MAX_POSITIONS (1 << 20)

/* Results of parsing and placing; scc_mesh_err_t carries a sentence for the user. */
typedef enum {
    SCC_MESH_OK = 0,
    SCC_MESH_ESYNTAX,      /* the text does not parse */
    SCC_MESH_ERANGE,       /* a position outside the mesh */
    SCC_MESH_EDUP,         /* a key listed twice, or two keys / processes on one position */
    SCC_MESH_EFEW,         /* a process has no position (fewer positions than processes) */
    SCC_MESH_ENOMEM
} scc_mesh_status_t;

typedef struct scc_mesh_err {
    int status;            /* scc_mesh_status_t */
    char msg[256];         /* what is wrong, naming the entry or the ranks */
} scc_mesh_err_t;

const char *scc_mesh_status_name(int status);

typedef struct scc_mesh_dims {
    int X, Y, K;           /* columns, rows (of tiles), cores per tile */
} scc_mesh_dims_t;

static inline int scc_mesh_npos(const scc_mesh_dims_t *d)
{
    return d->X * d->Y * d->K;
}

static inline int scc_mesh_pos_index(const scc_mesh_dims_t *d, int x, int y, int z)
{
    return (y * d->X + x) * d->K + z;
}

static inline void scc_mesh_pos_coords(const scc_mesh_dims_t *d, int p, int *x, int *y, int *z)
{
    int tile = p / d->K;
    *z = p % d->K;
    *x = tile % d->X;
    *y = tile / d->X;
}

/* Parses "XxYxK" or "XxY" (K = 1), or "scc" (6x4x2).  Returns SCC_MESH_OK or
 * SCC_MESH_ESYNTAX (err explains). */
int scc_mesh_parse_dims(const char *s, scc_mesh_dims_t *d, scc_mesh_err_t *err);

/* SCC core id <-> tile (x, y) and core z; -1 when outside the chip. */
int scc_chip_coreid_to_pos(int coreid, int *x, int *y, int *z);
int scc_chip_pos_to_coreid(int x, int y, int z);

/* ---------------------------------------------------------------- */
/* Maps: key (a core, or an MPI_COMM_WORLD rank) -> position          */

/* nentries == 0 is the default map: key k sits at position index k (on
 * 6x4x2 that is the SCC's own numbering). */
typedef struct scc_mesh_map {
    scc_mesh_dims_t dims;
    int nentries;
    int *keys;             /* ascending */
    int *pos;              /* pos[i] is the position index of keys[i] */
} scc_mesh_map_t;

/* Parses a map.  Entries "KEY:X,Y[,Z]" are separated by ';' or new lines,
 * blanks are ignored and '#' comments run to the end of a line; an empty text
 * gives the default map.  Rejects bad syntax, a position outside the mesh, a
 * key listed twice and two keys on one position.  On success the caller frees
 * the map with scc_mesh_map_free(). */
int scc_mesh_parse_map(const char *text, const scc_mesh_dims_t *d, scc_mesh_map_t *map,
                       scc_mesh_err_t *err);
void scc_mesh_map_free(scc_mesh_map_t *map);

/* Position index of key, or -1 when the map has none. */
int scc_mesh_map_lookup(const scc_mesh_map_t *map, int key);

/* pos[r] = the position of keys[r] for the n members of a communicator;
 * SCC_MESH_EFEW when a member's key has no position (a key < 0 means "no key":
 * the member is not bound, say), SCC_MESH_EDUP when two members share one. */
int scc_mesh_map_place(const scc_mesh_map_t *map, int n, const int *keys, int *pos,
                       scc_mesh_err_t *err);

/* Lays out n members by hwloc domain: the distinct domain ids (ascending) are
 * the rows, members of a domain ordered by (order, rank) are the columns.  Sets
 * d to (largest domain) x (number of domains) x 1 and pos[r].  domain[r] must be
 * >= 0.  Returns 0, or -1 when out of memory. */
int scc_mesh_place_domains(int n, const int *domain, const int *order, scc_mesh_dims_t *d,
                           int *pos);

/* The near-square R x C grid (R <= C) for n processes: the smallest R + C with
 * R*C >= n, then the fewest holes; holes only at the end of the last row. */
void scc_mesh_near_square(int n, int *R, int *C);

/* ---------------------------------------------------------------- */
/* The placement of a communicator                                    */

typedef struct scc_mesh {
    scc_mesh_dims_t dims;
    int n;                 /* ranks placed: 0 .. n-1 */
    int *x, *y, *z;        /* n each */
    int *pos;              /* n: position index */
    int *tile_of;          /* n: y*X + x */
    int *at;               /* X*Y*K: rank at the position, or -1 */
    int ntiles_used;       /* tiles holding at least one rank */

    /* DOPL's grid: map rows y*K + z by columns x (the thesis's processor map),
     * with rows and columns that hold no rank left out. */
    int R, C;
    int *grid_at;          /* R*C: rank or -1 */
    int *grid_row, *grid_col; /* n each */
    int grid_holes;        /* cells without a rank */
    int grid_tail_only;    /* 1 when the holes are all at the end of the last row */
} scc_mesh_t;

/* Builds the placement of n ranks, rank r at position index pos[r].  Returns
 * SCC_MESH_OK, SCC_MESH_ERANGE (a position outside d), SCC_MESH_EDUP (two
 * ranks on one position) or SCC_MESH_ENOMEM; on error m needs no freeing. */
int scc_mesh_build(scc_mesh_t *m, const scc_mesh_dims_t *d, int n, const int *pos,
                   scc_mesh_err_t *err);

/* The placement of a flat set: the near-square grid as a C x R x 1 mesh, rank
 * r at column r % C of row r / C. */
int scc_mesh_build_flat(scc_mesh_t *m, int n);

void scc_mesh_free(scc_mesh_t *m);

/* Views for the schedules (they point into m, which must outlive them). */
void scc_mesh_tiles(const scc_mesh_t *m, scc_tiles_t *t);
void scc_mesh_grid(const scc_mesh_t *m, scc_grid_t *g);

/* The rank that talks to the mesh for a tile: the rank at core zpref of the
 * tile if there is one, else the one at the lowest core; -1 for an empty tile. */
int scc_mesh_tile_leader(const scc_mesh_t *m, int tile, int zpref);

/* ---------------------------------------------------------------- */
/* Routes                                                             */

typedef enum { SCC_DIR_E = 0, SCC_DIR_W, SCC_DIR_N, SCC_DIR_S } scc_dir_t; /* +x, -x, +y, -y */

/* A directed link: from tile `tile` to its neighbour in direction dir. */
typedef struct scc_link {
    int tile;
    int dir;               /* scc_dir_t */
} scc_link_t;

/* A number for every directed link of the mesh, 0 .. 4*X*Y - 1 (for counting load). */
static inline int scc_mesh_link_id(scc_link_t l)
{
    return l.tile * 4 + l.dir;
}

/* Tile hops between tiles a and b (|dx| + |dy|; routers crossed = hops + 1). */
int scc_mesh_tile_hops(const scc_mesh_dims_t *d, int a, int b);

/* The X-Y route from tile a to tile b: writes up to cap links and returns the
 * number of hops (so cap may be 0 to ask for the length). */
int scc_mesh_route_tiles(const scc_mesh_dims_t *d, int a, int b, scc_link_t *links, int cap);

/* The same between the tiles of two ranks of a placement. */
int scc_mesh_hops(const scc_mesh_t *m, int ra, int rb);
int scc_mesh_route(const scc_mesh_t *m, int ra, int rb, scc_link_t *links, int cap);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COLL_SCC_MESH_H */
