/* coll_scc_topo.c: each process's location (hwloc, SCC probe), its exchange, and a
 * communicator's placement (a mesh the user describes: coll_scc_topo_user.c). */
#include "coll_scc_component.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "ompi/communicator/communicator.h"
#include "ompi/proc/proc.h"
#include "ompi/runtime/mpiruntime.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/util/show_help.h"

#include "coll_scc_agree.h"
#include "coll_scc_domains.h"
#include "coll_scc_probe.h"
#include "coll_scc_record.h"
#include "coll_scc_topo.h"
#include "coll_scc_topo_int.h"

#include <pthread.h>
/* ---------------------------------------------------------------- parameters */

static int p_domains = SCC_TOPO_DOM_AUTO;
static char *p_coreid;          /* coll_scc_scc_coreid */
static char *p_coreid_file;
static char *p_crb_device;
static int p_exchange;          /* 0: modex, then allgather if needed; 1: always allgather */

static const mca_base_var_enum_value_t domain_values[] = {
    { SCC_TOPO_DOM_AUTO, "auto" }, { SCC_TOPO_DOM_NONE, "none" },
    { SCC_TOPO_DOM_PACKAGE, "package" }, { SCC_TOPO_DOM_NUMA, "numa" },
    { SCC_TOPO_DOM_CACHE, "cache" }, { 0, NULL }
};
static const mca_base_var_enum_value_t exchange_values[] = {
    { 0, "auto" }, { 1, "allgather" }, { 0, NULL }
};


int mca_coll_scc_topo_register_params(void)
{
    (void) mca_coll_scc_topo_locate_register_params();
    (void) mca_coll_scc_topo_user_register_params();
    mca_coll_scc_reg_enum("domains",
        "Without a mesh, lay bound processes out as a grid of hwloc domains (rows) by the "
        "cores of a domain (columns): auto (of package, numa and cache, the level that splits "
        "the processes into two or more domains with the fewest rows + columns, the coarser "
        "on a tie), none, or force package, numa or cache (the deepest cache that several "
        "cores share)",
        domain_values, &p_domains, SCC_TOPO_DOM_AUTO);
    mca_coll_scc_reg_string("scc_coreid",
        "The SCC core (0..47, id = 2*(x + 6*y) + z) this process runs on: probe (read it "
        "from coll_scc_scc_coreid_file or the tile id register, and say \"not an SCC\" "
        "elsewhere), none, rank (core id = MPI_COMM_WORLD rank, to emulate a chip) or a "
        "number (per process, e.g. through OMPI_MCA_coll_scc_scc_coreid)",
        OPAL_INFO_LVL_5, &p_coreid, "probe");
    mca_coll_scc_reg_string("scc_coreid_file",
        "A file (e.g. a /sys or /proc entry of an SCC Linux image) holding this process's "
        "SCC core id; the probe reads it before the tile id register",
        OPAL_INFO_LVL_6, &p_coreid_file, "");
    mca_coll_scc_reg_string("scc_crb_device",
        "The device through which the probe maps the SCC tile's configuration registers to "
        "read the tile id register (empty: do not try)",
        OPAL_INFO_LVL_6, &p_crb_device, "/dev/rckncm");
    mca_coll_scc_reg_enum("topo_exchange",
        "How the processes of a communicator learn each other's locations: auto (published "
        "at MPI_Init through the modex; one allgather over the communicator if some are "
        "missing) or allgather (always the allgather)",
        exchange_values, &p_exchange, 0);
    return OMPI_SUCCESS;
}

const char *mca_coll_scc_topo_crb_device(void)
{
    return str_or_empty(p_crb_device);
}

/* ---------------------------------------------------------------- own location */

static int32_t my_loc[SCC_LOC_COUNT];
static int my_loc_ready;
/* the first communicators may be set up by several threads at once: the lazy discovery and
 * the parsing of the user's mesh happen once, under this lock */
static pthread_mutex_t topo_lock = PTHREAD_MUTEX_INITIALIZER;
static char my_probe_how[160];
static char my_bind_note[160];

static void discover(int32_t *loc)
{
    hwloc_topology_t topo = NULL;
    bool own = false;
    scc_probe_cfg_t cfg;

    for (int i = 0; i < SCC_LOC_COUNT; ++i) {
        loc[i] = -1;
    }
    loc[SCC_LOC_MAGIC] = SCC_LOC_MAGIC_VALUE;
    loc[SCC_LOC_BOUND] = 0;
    snprintf(my_bind_note, sizeof(my_bind_note), "binding unknown (no hwloc topology)");

    topo = scc_ompi_topology();
    if (NULL == topo) {
        if (0 == hwloc_topology_init(&topo) && 0 == hwloc_topology_load(topo)) {
            own = true;
        } else {
            topo = NULL;
        }
    }
    if (NULL != topo) {
        mca_coll_scc_topo_locate(topo, loc, my_bind_note, sizeof(my_bind_note));
        if (own) {
            hwloc_topology_destroy(topo);
        }
    }

    cfg.coreid = str_or_empty(p_coreid);
    cfg.coreid_file = str_or_empty(p_coreid_file);
    cfg.crb_device = str_or_empty(p_crb_device);
    cfg.world_rank = (int) OMPI_PROC_MY_NAME->vpid;
    loc[SCC_LOC_SCC] = scc_probe_coreid(&cfg, my_probe_how, sizeof(my_probe_how));
}

int mca_coll_scc_topo_open(void)
{
    int rc;

    /* ompi_info opens components too: no runtime, nothing to find or publish */
    if (!scc_rte_ready()) {
        return OMPI_SUCCESS;
    }
    discover(my_loc);
    my_loc_ready = 1;
    SCC_VERBOSE(3, "coll:scc: world rank %d: %s; core %d pu %d package %d numa %d cache %d; "
                "SCC: %s", (int) OMPI_PROC_MY_NAME->vpid, my_bind_note, (int) my_loc[SCC_LOC_CORE],
                (int) my_loc[SCC_LOC_PU], (int) my_loc[SCC_LOC_PACKAGE],
                (int) my_loc[SCC_LOC_NUMA], (int) my_loc[SCC_LOC_CACHE], my_probe_how);
    /* the user's mesh is read and parsed here, once: the record then carries what this
       process made of it (a map file changed or unreadable on one node is a difference) */
    mca_coll_scc_topo_user_parse();
    /* component open comes before the modex fence of MPI_Init: the location and the
       configuration record reach every process of the job */
    rc = mca_coll_scc_record_publish(my_loc, sizeof(my_loc),
                                     mca_coll_scc_topo_user_outcome());
    if (OMPI_SUCCESS != rc) {
        SCC_VERBOSE(1, "coll:scc: world rank %d: this process's location and configuration "
                    "are not published (%d); communicators with it are declined",
                    (int) OMPI_PROC_MY_NAME->vpid, rc);
    }
    return OMPI_SUCCESS;
}

void mca_coll_scc_topo_close(void)
{
    mca_coll_scc_topo_user_close();
    my_loc_ready = 0;
}

/* ---------------------------------------------------------------- the exchange */

static int exchange(const scc_members_t *mb, int32_t *locs, int *how)
{
    struct ompi_communicator_t *comm = mb->comm;
    const int n = ompi_comm_size(comm);
    int missing = 0;

    if (0 == p_exchange) {
        /* every member reads the same published data and so decides alike; a member with
           no entry (which comm_query's agreement already excludes) makes all go flat, never
           into an allgather that a member without coll/scc would not join */
        for (int i = 0; i < n; ++i) {
            int32_t *loc = locs + (size_t) i * SCC_LOC_COUNT;
            if (!mca_coll_scc_record_peer_loc(ompi_comm_peer_lookup(comm, i), loc,
                                              sizeof(my_loc))
                || SCC_LOC_MAGIC_VALUE != loc[SCC_LOC_MAGIC]) {
                missing++;
            }
        }
        *how = 1;
        return 0 == missing ? OMPI_SUCCESS : OMPI_ERR_NOT_FOUND;
    }
    /* coll_scc_topo_exchange allgather: agreed by every member (it is part of the record) */
    *how = 2;
    return mca_coll_scc_agree_allgather(mb, my_loc, locs,
                                        (int) (SCC_LOC_COUNT * sizeof(int)));
}

/* ---------------------------------------------------------------- placements */

/* Every member on an SCC core: 1 placed, 0 not an SCC, -1 an SCC misconfigured (stay flat). */
static int place_chip(struct ompi_communicator_t *comm, const int32_t *locs, int *pos,
                      scc_topo_t *t)
{
    static const scc_mesh_dims_t chip = { SCC_CHIP_X, SCC_CHIP_Y, SCC_CHIP_K };
    const int n = ompi_comm_size(comm), me = ompi_comm_rank(comm);
    int on_chip = 0, invalid = 0;
    scc_mesh_err_t err;

    for (int r = 0; r < n; ++r) {
        int id = loc_of(locs, r, SCC_LOC_SCC);
        on_chip += (id >= 0);
        invalid += (SCC_PROBE_INVALID == id);
        pos[r] = id;
    }
    if (invalid > 0 && 0 == OMPI_PROC_MY_NAME->vpid) {
        mca_coll_scc_show_help_once(0, "scc-coreid", invalid, n, SCC_COMM_CID(comm),
                                    SCC_COMM_NAME(comm), SCC_PROBE_INVALID == my_loc[SCC_LOC_SCC]
                                        ? my_probe_how : "(see the processes concerned)");
    }
    if (invalid > 0) {
        snprintf(t->note, sizeof(t->note), "%d of %d processes with a bad SCC core id setting",
                 invalid, n);
        return -1;
    }
    if (0 == on_chip) {
        return 0;
    }
    if (on_chip < n) {
        snprintf(t->note, sizeof(t->note), "only %d of %d processes on SCC cores", on_chip, n);
        return -1;
    }
    if (SCC_MESH_OK != scc_mesh_build(&t->mesh, &chip, n, pos, &err)) {
        t->oom |= SCC_MESH_ENOMEM == err.status;
        mca_coll_scc_show_help_once(me, "scc-duplicate", SCC_COMM_CID(comm),
                                    SCC_COMM_NAME(comm), err.msg);
        snprintf(t->note, sizeof(t->note), "SCC core ids: %s", scc_mesh_status_name(err.status));
        return -1;
    }
    t->kind = SCC_TOPO_MESH;
    t->source = SCC_TOPO_SRC_CHIP;
    snprintf(t->note, sizeof(t->note), "SCC chip");
    return 1;
}

/* hwloc domains x cores (coll_scc_domains.c); returns true when it placed the communicator. */
static bool place_domains(struct ompi_communicator_t *comm, const int32_t *locs, int *pos,
                          scc_topo_t *t)
{
    const int n = ompi_comm_size(comm);
    scc_domains_t got;
    scc_mesh_dims_t d;
    scc_mesh_err_t err;
    int rc = scc_domains_place(n, locs, p_domains, &got, &d, pos);

    /* building fails only for want of memory: the domains always make a valid grid */
    if (rc < 0 || (rc > 0 && SCC_MESH_OK != scc_mesh_build(&t->mesh, &d, n, pos, &err))) {
        t->oom = 1;
        return false;
    }
    if (rc > 0) {
        t->kind = SCC_TOPO_DOMAINS;
        t->source = SCC_TOPO_SRC_HWLOC;
        t->domain = (scc_topo_domain_t) got.level;
        snprintf(t->note, sizeof(t->note), "%d %s domains", got.distinct,
                 scc_domains_level_name(got.level));
        return true;
    }
    if (SCC_TOPO_DOM_NONE == p_domains) {
        return false;
    }
    /* a level named but spanned says so even when the processes are bound to several cores
       (a package each, say); "not bound" only when unbound processes made the levels unusable */
    if (got.unknown_levels > 0 && SCC_TOPO_DOM_AUTO != p_domains) {
        snprintf(t->note, sizeof(t->note), "some processes span several %s domains",
                 scc_domains_level_name(p_domains));
    } else if (t->nunbound > 0 && got.unknown_levels > 0) {
        snprintf(t->note, sizeof(t->note), "%d of %d processes not bound to a core: hwloc "
                 "domains unused", t->nunbound, n);
    } else {
        snprintf(t->note, sizeof(t->note), "no mesh described, not an SCC, one hwloc domain");
    }
    return false;
}

/* The SCC core of every rank (its message-passing buffer): the core ids every member
 * probed (or was told), else in an emulation its place in the user's mesh, else its
 * MPI_COMM_WORLD rank.  The same on every member; NULL when core ids repeat. */
static void place_cores(struct ompi_communicator_t *comm, const int32_t *locs, scc_topo_t *t)
{
    const int n = ompi_comm_size(comm);
    int with_id = 0;

    t->core = malloc(n * sizeof(int));
    if (NULL == t->core) {
        t->oom = 1;
        return;
    }
    for (int r = 0; r < n; ++r) {
        with_id += loc_of(locs, r, SCC_LOC_SCC) >= 0;
    }
    for (int r = 0; r < n; ++r) {
        if (with_id == n) {
            t->core[r] = loc_of(locs, r, SCC_LOC_SCC);
            t->core_how = "SCC core id";
        } else if (SCC_TOPO_SRC_USER == t->source) {
            t->core[r] = t->mesh.pos[r];
            t->core_how = "place in coll_scc_mesh";
        } else {
            t->core[r] = (int) ompi_comm_peer_lookup(comm, r)->super.proc_name.vpid;
            t->core_how = "MPI_COMM_WORLD rank";
        }
    }
    /* a position is one rank's, and world ranks differ: only core ids can repeat */
    for (int r = 1; with_id == n && r < n && NULL != t->core; ++r) {
        for (int q = 0; q < r; ++q) {
            if (t->core[q] == t->core[r]) {
                free(t->core);
                t->core = NULL;
                t->core_how = "two ranks with one SCC core id";
                break;
            }
        }
    }
}

static void set_views(scc_topo_t *t)
{
    scc_mesh_grid(&t->mesh, &t->grid);
    scc_mesh_tiles(&t->mesh, &t->tiles);
}

int mca_coll_scc_topo_build(const scc_members_t *mb, scc_topo_t *t)
{
    struct ompi_communicator_t *comm = mb->comm;
    const int n = ompi_comm_size(comm);
    int32_t *locs = NULL;
    int *a = NULL, *b = NULL;
    int rc = OMPI_SUCCESS, how = 0;
    bool placed = false, ok, multi = false;

    memset(t, 0, sizeof(*t));
    t->kind = SCC_TOPO_FLAT;
    /* several nodes: each node a tile; the locations within a node are not needed */
    rc = mca_coll_scc_topo_nodes(comm, t, &multi);
    if (multi && OMPI_SUCCESS == rc) {
        set_views(t);
        return OMPI_SUCCESS;
    }
    if (multi) {
        goto flat;
    }
    pthread_mutex_lock(&topo_lock);
    if (!my_loc_ready) {
        discover(my_loc);
        my_loc_ready = 1;
    }
    mca_coll_scc_topo_user_parse();
    pthread_mutex_unlock(&topo_lock);
    locs = malloc((size_t) n * sizeof(my_loc));
    a = malloc(n * sizeof(int));
    b = malloc(n * sizeof(int));
    ok = NULL != locs && NULL != a && NULL != b;
    if (1 == p_exchange) {
        /* the allgather below needs every member: all skip it if one cannot join */
        ok = mca_coll_scc_agree(mb, ok);
    }
    if (!ok) {
        rc = OMPI_ERR_OUT_OF_RESOURCE;
        snprintf(t->note, sizeof(t->note), "out of memory");
        goto flat;
    }
    rc = exchange(mb, locs, &how);
    if (OMPI_SUCCESS != rc) {
        snprintf(t->note, sizeof(t->note), "location exchange failed (%d)", rc);
        goto flat;
    }
    t->exchanged = how;
    for (int r = 0; r < n; ++r) {
        t->nunbound += (loc_of(locs, r, SCC_LOC_CORE) < 0);
    }

    if (mca_coll_scc_topo_user_given()) {
        placed = mca_coll_scc_topo_user_place(comm, locs, a, b, t);
    } else {
        int chip = place_chip(comm, locs, b, t);
        placed = (chip > 0) || (0 == chip && place_domains(comm, locs, b, t));
    }

    if (OMPI_SUCCESS == rc) {
        place_cores(comm, locs, t);
    }
    t->oom |= mca_coll_scc_fault(mb, "place");
    if (t->oom && OMPI_SUCCESS == rc) {
        /* another member may have placed it: setup's agreement makes all decline */
        rc = OMPI_ERR_OUT_OF_RESOURCE;
        snprintf(t->note, sizeof(t->note), "out of memory while placing the processes");
    }

flat:
    if (!placed) {
        scc_mesh_free(&t->mesh);
        t->kind = SCC_TOPO_FLAT;
        t->source = SCC_TOPO_SRC_NONE;
        if (SCC_MESH_OK != scc_mesh_build_flat(&t->mesh, n) && OMPI_SUCCESS == rc) {
            rc = OMPI_ERR_OUT_OF_RESOURCE;
        }
    }
    set_views(t);
    free(locs);
    free(a);
    free(b);
    return rc;
}

void mca_coll_scc_topo_free(scc_topo_t *t)
{
    scc_mesh_free(&t->mesh);
    scc_nodes_free(&t->nodes);
    free(t->core);
    memset(t, 0, sizeof(*t));
}

/* ---------------------------------------------------------------- table and reports */

int mca_coll_scc_topo_describe(const scc_topo_t *t, char *buf, size_t len)
{
    const scc_mesh_dims_t *d = &t->mesh.dims;
    const char *how = 1 == t->exchanged ? "modex" : 2 == t->exchanged ? "allgather" : "none";

    switch (t->kind) {
    case SCC_TOPO_NODES:
        return mca_coll_scc_topo_nodes_describe(t, buf, len);
    case SCC_TOPO_MESH:
        return snprintf(buf, len, "mesh %dx%dx%d (%s), %d of %d tiles, grid %dx%d%s; "
                        "locations by %s", d->X, d->Y, d->K, t->note, t->mesh.ntiles_used,
                        d->X * d->Y, t->mesh.R, t->mesh.C,
                        t->mesh.grid_tail_only ? "" : " with holes", how);
    case SCC_TOPO_DOMAINS:
        return snprintf(buf, len, "domains %dx%d (%s), grid %dx%d%s; locations by %s", d->Y,
                        d->X, t->note, t->mesh.R, t->mesh.C,
                        t->mesh.grid_tail_only ? "" : " with holes", how);
    default:
        return snprintf(buf, len, "flat (%s), grid %dx%d; locations by %s", t->note, t->mesh.R,
                        t->mesh.C, how);
    }
}

void mca_coll_scc_topo_report(const scc_members_t *mb, const scc_select_table_t *select,
                              const char *transport)
{
    const scc_topo_t *t = mb->topo;
    char line[512];

    if (mca_coll_scc_config.verbose >= 3 && t->mesh.n > mb->rank && mb->rank >= 0) {
        const int r = mb->rank;
        SCC_VERBOSE(3, "coll:scc: comm %u (%s) rank %d at (%d,%d,%d) tile %d grid (%d,%d); %s; "
                    "SCC: %s", mb->cid, mb->name, r, t->mesh.x[r], t->mesh.y[r], t->mesh.z[r],
                    t->mesh.tile_of[r], t->mesh.grid_row[r], t->mesh.grid_col[r], my_bind_note,
                    my_probe_how);
    }
    if (mca_coll_scc_config.verbose < 1 || 0 != mb->rank) {
        return;
    }
    mca_coll_scc_topo_describe(t, line, sizeof(line));
    SCC_VERBOSE(1, "coll:scc: comm %u (%s) size %d: topology %s; transport %s", mb->cid, mb->name,
                mb->size, line, NULL == transport ? "none" : transport);
    if (SCC_TOPO_DOMAINS == t->kind) {
        /* a row's leader is the process on its domain's lowest core */
        scc_domains_leaders(&t->mesh, line, sizeof(line));
        SCC_VERBOSE(1, "coll:scc: comm %u (%s)   %s rows, leaders %s", mb->cid, mb->name,
                    scc_domains_level_name(t->domain), line);
    }
    for (int c = 0; c < SCC_COLL_COUNT; ++c) {
        scc_select_format(select, (scc_coll_t) c, line, sizeof(line));
        SCC_VERBOSE(1, "coll:scc: comm %u (%s)   %-21s %s", mb->cid, mb->name,
                    scc_coll_name((scc_coll_t) c), line);
    }
}
