/* coll_scc_topo_user.c: the mesh the user describes (coll_scc_mesh, _mesh_map, _mesh_map_file,
 * _mesh_key) -- its parameters, read and parsed once per process, its faults shown once, and a
 * communicator placed on it. */
#include "coll_scc_component.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/communicator/communicator.h"
#include "ompi/proc/proc.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"

#include "coll_scc_topo.h"
#include "coll_scc_topo_int.h"

/* A map file larger than this is surely not a mesh map. */
#define SCC_MAP_FILE_MAX (1 << 20)

static char *p_mesh;            /* coll_scc_mesh */
static char *p_map;             /* coll_scc_mesh_map */
static char *p_map_file;        /* coll_scc_mesh_map_file */
static int p_key = SCC_TOPO_KEY_AUTO;

static const mca_base_var_enum_value_t key_values[] = {
    { SCC_TOPO_KEY_AUTO, "auto" }, { SCC_TOPO_KEY_RANK, "rank" }, { SCC_TOPO_KEY_CORE, "core" },
    { 0, NULL }
};

static const char *key_name(int k)
{
    return SCC_TOPO_KEY_CORE == k ? "core" : SCC_TOPO_KEY_RANK == k ? "rank" : "auto";
}

int mca_coll_scc_topo_user_register_params(void)
{
    mca_coll_scc_reg_string("mesh",
        "Describe the processes as a 2D mesh of tiles: COLUMNSxROWSxCORES_PER_TILE "
        "(e.g. 6x4x2), COLUMNSxROWS (one core per tile) or \"scc\" (6x4x2). Empty: no mesh "
        "(the SCC chip or hwloc decide). Processes are placed by coll_scc_mesh_map",
        OPAL_INFO_LVL_4, &p_mesh, "");
    mca_coll_scc_reg_string("mesh_map",
        "Where each process sits on the coll_scc_mesh mesh: entries KEY:X,Y,Z (Z may be "
        "left out when there is one core per tile) separated by ';', where KEY is what "
        "coll_scc_mesh_key says. Empty: key k sits at position (y*COLUMNS+x)*CORES+z = k, "
        "the SCC's own core numbering",
        OPAL_INFO_LVL_4, &p_map, "");
    mca_coll_scc_reg_string("mesh_map_file",
        "A file holding the coll_scc_mesh_map entries (one per line or ';'-separated, "
        "'#' comments), instead of coll_scc_mesh_map",
        OPAL_INFO_LVL_4, &p_map_file, "");
    mca_coll_scc_reg_enum("mesh_key",
        "What indexes the mesh map: rank (the MPI_COMM_WORLD rank; use it when processes are "
        "not bound, e.g. oversubscribed), core (the hwloc logical index of the core a "
        "process is bound to), or auto (core when every process is bound to a core of its "
        "own, else rank)",
        key_values, &p_key, SCC_TOPO_KEY_AUTO);
    return OMPI_SUCCESS;
}

bool mca_coll_scc_topo_user_given(void)
{
    return '\0' != str_or_empty(p_mesh)[0];
}

static struct {
    int done;
    int ok;
    const char *param;          /* the parameter at fault */
    const char *topic;          /* help topic */
    scc_mesh_err_t err;
    scc_mesh_dims_t dims;
    scc_mesh_map_t map;
    int shown;
} user;

static char *read_file(const char *path, scc_mesh_err_t *err)
{
    FILE *f = fopen(path, "r");
    char *buf;
    size_t got;

    if (NULL == f) {
        snprintf(err->msg, sizeof(err->msg), "%s", strerror(errno));
        return NULL;
    }
    buf = malloc(SCC_MAP_FILE_MAX + 1);
    if (NULL == buf) {
        fclose(f);
        snprintf(err->msg, sizeof(err->msg), "out of memory");
        return NULL;
    }
    got = fread(buf, 1, SCC_MAP_FILE_MAX + 1, f);
    fclose(f);
    if (got > SCC_MAP_FILE_MAX) {
        free(buf);
        snprintf(err->msg, sizeof(err->msg), "larger than %d bytes", SCC_MAP_FILE_MAX);
        return NULL;
    }
    buf[got] = '\0';
    return buf;
}

void mca_coll_scc_topo_user_parse(void)
{
    const char *map = str_or_empty(p_map), *file = str_or_empty(p_map_file);
    char *text = NULL;

    if (user.done || !mca_coll_scc_topo_user_given()) {
        return;
    }
    user.done = 1;
    user.ok = 0;
    if (SCC_MESH_OK != scc_mesh_parse_dims(p_mesh, &user.dims, &user.err)) {
        user.param = "coll_scc_mesh";
        user.topic = "mesh-dims";
        return;
    }
    if ('\0' != map[0] && '\0' != file[0]) {
        user.param = "coll_scc_mesh_map";
        user.topic = "mesh-map-both";
        return;
    }
    if ('\0' != file[0]) {
        text = read_file(file, &user.err);
        if (NULL == text) {
            user.param = "coll_scc_mesh_map_file";
            user.topic = "mesh-map-file";
            return;
        }
        map = text;
    }
    if (SCC_MESH_OK != scc_mesh_parse_map(map, &user.dims, &user.map, &user.err)) {
        user.param = ('\0' != file[0]) ? "coll_scc_mesh_map_file" : "coll_scc_mesh_map";
        user.topic = "mesh-map";
        free(text);
        return;
    }
    free(text);
    user.ok = 1;
}

/* What parsing the user's mesh gave, for the record: "" (no mesh), "ok", or the fault. */
const char *mca_coll_scc_topo_user_outcome(void)
{
    static char out[160];

    if (!user.done) {
        return "";
    }
    if (user.ok) {
        return "ok";
    }
    snprintf(out, sizeof(out), "%s: %s", user.param, scc_mesh_status_name(user.err.status));
    return out;
}

static void show_user_error(void)
{
    char dims[64];

    if (user.shown) {
        return;
    }
    user.shown = 1;
    snprintf(dims, sizeof(dims), "%dx%dx%d", user.dims.X, user.dims.Y, user.dims.K);
    if (0 == strcmp(user.topic, "mesh-dims")) {
        mca_coll_scc_show_help("mesh-dims", str_or_empty(p_mesh), user.err.msg);
    } else if (0 == strcmp(user.topic, "mesh-map-both")) {
        mca_coll_scc_show_help("mesh-map-both", str_or_empty(p_map), str_or_empty(p_map_file));
    } else if (0 == strcmp(user.topic, "mesh-map-file")) {
        mca_coll_scc_show_help("mesh-map-file", str_or_empty(p_map_file), user.err.msg);
    } else {
        mca_coll_scc_show_help("mesh-map", user.param,
                               0 == strcmp(user.param, "coll_scc_mesh_map_file")
                                   ? str_or_empty(p_map_file) : "given inline",
                               dims, scc_mesh_status_name(user.err.status), user.err.msg);
    }
}

void mca_coll_scc_topo_user_close(void)
{
    scc_mesh_map_free(&user.map);
    memset(&user, 0, sizeof(user));
}

bool mca_coll_scc_topo_user_place(struct ompi_communicator_t *comm, const int32_t *locs, int *keys,
                                  int *pos, scc_topo_t *t)
{
    const int n = ompi_comm_size(comm), me = ompi_comm_rank(comm);
    int key = p_key, unbound = 0;
    scc_mesh_err_t err;
    char dims[64];

    if (!user.ok) {
        /* the same for every process: MPI_COMM_WORLD's rank 0 tells it, once */
        if (0 == OMPI_PROC_MY_NAME->vpid) {
            show_user_error();
        }
        snprintf(t->note, sizeof(t->note), "bad mesh description in %s", user.param);
        return false;
    }
    snprintf(dims, sizeof(dims), "%dx%dx%d", user.dims.X, user.dims.Y, user.dims.K);

    for (int r = 0; r < n; ++r) {
        unbound += (loc_of(locs, r, SCC_LOC_CORE) < 0);
    }
    if (SCC_TOPO_KEY_AUTO == key) {
        key = SCC_TOPO_KEY_CORE;
        if (unbound > 0) {
            key = SCC_TOPO_KEY_RANK;
        }
        for (int r = 1; r < n && SCC_TOPO_KEY_CORE == key; ++r) {
            for (int q = 0; q < r; ++q) {
                if (loc_of(locs, q, SCC_LOC_CORE) == loc_of(locs, r, SCC_LOC_CORE)) {
                    key = SCC_TOPO_KEY_RANK;
                    break;
                }
            }
        }
    }
    t->key = (scc_topo_key_t) key;
    if (SCC_TOPO_KEY_CORE == key && unbound > 0) {
        mca_coll_scc_show_help_once(me, "mesh-unbound", unbound, n, SCC_COMM_CID(comm),
                                    SCC_COMM_NAME(comm));
        snprintf(t->note, sizeof(t->note), "%d of %d processes not bound to a core, "
                 "coll_scc_mesh_key core", unbound, n);
        return false;
    }
    for (int r = 0; r < n; ++r) {
        if (SCC_TOPO_KEY_CORE == key) {
            keys[r] = loc_of(locs, r, SCC_LOC_CORE);
        } else {
            keys[r] = (int) ompi_comm_peer_lookup(comm, r)->super.proc_name.vpid;
        }
    }
    if (SCC_MESH_OK != scc_mesh_map_place(&user.map, n, keys, pos, &err)
        || SCC_MESH_OK != scc_mesh_build(&t->mesh, &user.dims, n, pos, &err)) {
        t->oom |= SCC_MESH_ENOMEM == err.status;
        mca_coll_scc_show_help_once(me, "mesh-place", n, SCC_COMM_CID(comm),
                                    SCC_COMM_NAME(comm), dims, key_name(key),
                                    scc_mesh_status_name(err.status), err.msg);
        snprintf(t->note, sizeof(t->note), "cannot place on the %s mesh: %s", dims,
                 scc_mesh_status_name(err.status));
        return false;
    }
    t->kind = SCC_TOPO_MESH;
    t->source = SCC_TOPO_SRC_USER;
    snprintf(t->note, sizeof(t->note), "coll_scc_mesh, key %s", key_name(key));
    return true;
}
