/* test_mesh.c: the mesh model -- dimension and map parsing, SCC core ids, placements, views, leaders, routes. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "coll_scc_mesh.h"
#include "unit.h"

static const scc_mesh_dims_t chip = { 6, 4, 2 };

static void test_dims(void)
{
    static const struct { const char *s; int X, Y, K; } good[] = {
        { "6x4x2", 6, 4, 2 }, { "8x6", 8, 6, 1 }, { " 6 X 4 x 2 ", 6, 4, 2 }, { "scc", 6, 4, 2 },
        { "SCC", 6, 4, 2 }, { "1x1", 1, 1, 1 }, { "4096x2x3", 4096, 2, 3 }
    };
    static const char *const bad[] = {
        "", "6", "6x", "6x4x", "6x4x2x1", "0x4", "axb", "-1x4", "6x4y2", "5000x2", "4096x4096x1",
        "6x4x0", "6,4,2", "scc2", "1234567890x1"
    };
    scc_mesh_dims_t d;
    scc_mesh_err_t err;

    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); ++i) {
        int rc = scc_mesh_parse_dims(good[i].s, &d, &err);
        CHECK(SCC_MESH_OK == rc, "dims \"%s\": %s", good[i].s, err.msg);
        CHECK(d.X == good[i].X && d.Y == good[i].Y && d.K == good[i].K, "dims \"%s\" = %dx%dx%d",
              good[i].s, d.X, d.Y, d.K);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
        int rc = scc_mesh_parse_dims(bad[i], &d, &err);
        CHECK(SCC_MESH_ESYNTAX == rc, "dims \"%s\" accepted", bad[i]);
        CHECK(strlen(err.msg) > 0, "dims \"%s\": no message", bad[i]);
    }
    CHECK(SCC_MESH_ESYNTAX == scc_mesh_parse_dims(NULL, &d, &err), "NULL dims");
}

static void test_chip_ids(void)
{
    int x, y, z;

    /* the thesis's Figure 4: core 0 bottom left, 47 top right, 2t and 2t+1 share tile t */
    CHECK(0 == scc_chip_coreid_to_pos(0, &x, &y, &z) && 0 == x && 0 == y && 0 == z, "core 0");
    CHECK(0 == scc_chip_coreid_to_pos(1, &x, &y, &z) && 0 == x && 0 == y && 1 == z, "core 1");
    CHECK(0 == scc_chip_coreid_to_pos(2, &x, &y, &z) && 1 == x && 0 == y && 0 == z, "core 2");
    CHECK(0 == scc_chip_coreid_to_pos(11, &x, &y, &z) && 5 == x && 0 == y && 1 == z, "core 11");
    CHECK(0 == scc_chip_coreid_to_pos(12, &x, &y, &z) && 0 == x && 1 == y && 0 == z, "core 12");
    CHECK(0 == scc_chip_coreid_to_pos(37, &x, &y, &z) && 0 == x && 3 == y && 1 == z, "core 37");
    CHECK(0 == scc_chip_coreid_to_pos(47, &x, &y, &z) && 5 == x && 3 == y && 1 == z, "core 47");
    CHECK(-1 == scc_chip_coreid_to_pos(48, &x, &y, &z), "core 48");
    CHECK(-1 == scc_chip_coreid_to_pos(-1, &x, &y, &z), "core -1");
    CHECK(-1 == scc_chip_pos_to_coreid(6, 0, 0), "x = 6");
    CHECK(-1 == scc_chip_pos_to_coreid(0, 4, 0), "y = 4");
    CHECK(-1 == scc_chip_pos_to_coreid(0, 0, 2), "z = 2");
    for (int id = 0; id < SCC_CHIP_CORES; ++id) {
        int px, py, pz;
        CHECK(0 == scc_chip_coreid_to_pos(id, &x, &y, &z), "core %d", id);
        CHECK(scc_chip_pos_to_coreid(x, y, z) == id, "core %d round trip", id);
        CHECK(id == 2 * (x + 6 * y) + z, "core %d is RCCE's 2*(x+6y)+z", id);
        CHECK(scc_mesh_pos_index(&chip, x, y, z) == id, "position index of core %d", id);
        scc_mesh_pos_coords(&chip, id, &px, &py, &pz);
        CHECK(px == x && py == y && pz == z, "coords of position %d", id);
    }
}

static void test_maps(void)
{
    scc_mesh_map_t map;
    scc_mesh_err_t err;
    scc_mesh_dims_t d2 = { 3, 2, 1 };
    int rc;

    rc = scc_mesh_parse_map("0:1,2,1; 5:0,0,0\n# a comment\n  7:5,3,1   # trailing\n\n;;",
                            &chip, &map, &err);
    CHECK(SCC_MESH_OK == rc, "good map: %s", err.msg);
    CHECK(3 == map.nentries, "3 entries, got %d", map.nentries);
    CHECK(scc_mesh_map_lookup(&map, 0) == scc_mesh_pos_index(&chip, 1, 2, 1), "key 0");
    CHECK(scc_mesh_map_lookup(&map, 5) == 0, "key 5");
    CHECK(scc_mesh_map_lookup(&map, 7) == 47, "key 7");
    CHECK(scc_mesh_map_lookup(&map, 3) == -1, "key 3 absent");
    CHECK(scc_mesh_map_lookup(&map, -1) == -1, "negative key");
    scc_mesh_map_free(&map);

    /* empty maps: key k at position k */
    rc = scc_mesh_parse_map("  # nothing but a comment\n", &chip, &map, &err);
    CHECK(SCC_MESH_OK == rc && 0 == map.nentries, "comment-only map is the default");
    CHECK(scc_mesh_map_lookup(&map, 0) == 0 && scc_mesh_map_lookup(&map, 47) == 47,
          "default map is the identity");
    CHECK(scc_mesh_map_lookup(&map, 48) == -1, "default map ends with the mesh");
    scc_mesh_map_free(&map);
    rc = scc_mesh_parse_map(NULL, &chip, &map, &err);
    CHECK(SCC_MESH_OK == rc && 0 == map.nentries, "NULL map is the default");

    /* one core per tile: Z may be left out */
    rc = scc_mesh_parse_map("3:1,1;0:2,0", &d2, &map, &err);
    CHECK(SCC_MESH_OK == rc, "2D map: %s", err.msg);
    CHECK(scc_mesh_map_lookup(&map, 3) == 4 && scc_mesh_map_lookup(&map, 0) == 2, "2D lookups");
    scc_mesh_map_free(&map);

    /* syntax */
    {
        static const char *const bad[] = {
            "0:1", "0-1,1", "a:1,1", "0:1,1,1,1", "0:1,,1", "0:1 1", "0 1,1", ":1,1",
            "0:1,1 2:0,0", "0:1,1,", "-1:0,0"
        };
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
            rc = scc_mesh_parse_map(bad[i], &chip, &map, &err);
            CHECK(SCC_MESH_ESYNTAX == rc, "map \"%s\" gave %d", bad[i], rc);
            CHECK(NULL != strstr(err.msg, "entry 1"), "map \"%s\": message \"%s\"", bad[i],
                  err.msg);
            CHECK(NULL == map.keys && 0 == map.nentries, "failed map left clean");
        }
        rc = scc_mesh_parse_map("0:0,0,0\n1:1,0,0\n2:x", &chip, &map, &err);
        CHECK(SCC_MESH_ESYNTAX == rc && NULL != strstr(err.msg, "entry 3"),
              "the third entry is named: \"%s\"", err.msg);
    }
    /* outside the mesh */
    rc = scc_mesh_parse_map("0:6,0,0", &chip, &map, &err);
    CHECK(SCC_MESH_ERANGE == rc && NULL != strstr(err.msg, "outside the 6x4x2 mesh"),
          "x = 6: %d \"%s\"", rc, err.msg);
    rc = scc_mesh_parse_map("0:0,4,0", &chip, &map, &err);
    CHECK(SCC_MESH_ERANGE == rc, "y = 4");
    rc = scc_mesh_parse_map("0:0,0,2", &chip, &map, &err);
    CHECK(SCC_MESH_ERANGE == rc, "z = 2");
    rc = scc_mesh_parse_map("0:0,0,1", &d2, &map, &err);
    CHECK(SCC_MESH_ERANGE == rc, "z = 1 with one core per tile");
    /* two keys on one position, one key twice */
    rc = scc_mesh_parse_map("0:1,1,1;4:2,2,0;3:1,1,1", &chip, &map, &err);
    CHECK(SCC_MESH_EDUP == rc && NULL != strstr(err.msg, "keys 0 (entry 1) and 3 (entry 3)")
          && NULL != strstr(err.msg, "(1,1,1)"), "two keys on one position: \"%s\"", err.msg);
    rc = scc_mesh_parse_map("2:0,0,0;2:1,0,0", &chip, &map, &err);
    CHECK(SCC_MESH_EDUP == rc && NULL != strstr(err.msg, "key 2 is listed twice"),
          "key twice: \"%s\"", err.msg);
}

static void test_place(void)
{
    scc_mesh_map_t map;
    scc_mesh_err_t err;
    int keys[64], pos[64], rc;

    scc_mesh_parse_map("", &chip, &map, &err);
    for (int r = 0; r < 8; ++r) {
        keys[r] = 7 - r;
    }
    rc = scc_mesh_map_place(&map, 8, keys, pos, &err);
    CHECK(SCC_MESH_OK == rc, "identity place: %s", err.msg);
    for (int r = 0; r < 8; ++r) {
        CHECK(pos[r] == 7 - r, "identity place of rank %d", r);
    }
    keys[3] = 48;
    rc = scc_mesh_map_place(&map, 8, keys, pos, &err);
    CHECK(SCC_MESH_EFEW == rc && NULL != strstr(err.msg, "key 48"), "key 48: \"%s\"", err.msg);
    keys[3] = -1;
    rc = scc_mesh_map_place(&map, 8, keys, pos, &err);
    CHECK(SCC_MESH_EFEW == rc, "no key");
    for (int r = 0; r < 49; ++r) {
        keys[r] = r;
    }
    rc = scc_mesh_map_place(&map, 49, keys, pos, &err);
    CHECK(SCC_MESH_EFEW == rc && NULL != strstr(err.msg, "49 processes"),
          "49 processes on 48 positions: \"%s\"", err.msg);

    rc = scc_mesh_parse_map("10:0,0,0;20:1,0,0", &chip, &map, &err);
    keys[0] = 20;
    keys[1] = 10;
    keys[2] = 30;
    rc = scc_mesh_map_place(&map, 2, keys, pos, &err);
    CHECK(SCC_MESH_OK == rc && 2 == pos[0] && 0 == pos[1], "explicit place");
    rc = scc_mesh_map_place(&map, 3, keys, pos, &err);
    CHECK(SCC_MESH_EFEW == rc && NULL != strstr(err.msg, "rank 2 has key 30"),
          "key not in map: \"%s\"", err.msg);
    scc_mesh_map_free(&map);
}

/* Consistency of a placement and of its views, whatever it is. */
static void check_views(const scc_mesh_t *m, const char *what)
{
    scc_tiles_t t;
    scc_grid_t g;
    int filled = 0;

    scc_mesh_tiles(m, &t);
    scc_mesh_grid(m, &g);
    CHECK(t.n == m->n && g.n == m->n, "%s: n", what);
    for (int r = 0; r < m->n; ++r) {
        CHECK(t.at[t.tile_of[r] * t.K + t.core_of[r]] == r, "%s: tiles view of rank %d", what, r);
        CHECK(t.tile_of[r] == m->y[r] * t.X + m->x[r], "%s: tile of rank %d", what, r);
        CHECK(g.at[g.row[r] * g.C + g.col[r]] == r, "%s: grid view of rank %d", what, r);
        CHECK(scc_mesh_pos_index(&m->dims, m->x[r], m->y[r], m->z[r]) == m->pos[r],
              "%s: coords of rank %d", what, r);
    }
    for (int i = 0; i < g.R * g.C; ++i) {
        filled += (g.at[i] >= 0);
    }
    CHECK(filled == m->n && g.R * g.C - filled == m->grid_holes, "%s: grid cells", what);
    /* rows and columns of the grid keep the mesh's order */
    for (int a = 0; a < m->n; ++a) {
        for (int b = 0; b < m->n; ++b) {
            int ra = m->y[a] * m->dims.K + m->z[a], rb = m->y[b] * m->dims.K + m->z[b];
            if (ra < rb) {
                CHECK(g.row[a] < g.row[b], "%s: grid rows keep order", what);
            }
            if (m->x[a] < m->x[b]) {
                CHECK(g.col[a] < g.col[b], "%s: grid columns keep order", what);
            }
        }
    }
}

static void test_build(void)
{
    scc_mesh_t m;
    scc_mesh_err_t err;
    int pos[48], rc;

    /* the whole chip: the grid is the thesis's processor map, rows y*2+z by columns x */
    for (int r = 0; r < 48; ++r) {
        pos[r] = r;
    }
    rc = scc_mesh_build(&m, &chip, 48, pos, &err);
    CHECK(SCC_MESH_OK == rc, "full chip: %s", err.msg);
    CHECK(24 == m.ntiles_used && 8 == m.R && 6 == m.C && 0 == m.grid_holes && m.grid_tail_only,
          "full chip: %d tiles, grid %dx%d", m.ntiles_used, m.R, m.C);
    for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 6; ++j) {
            CHECK(m.grid_at[i * 6 + j] == (i / 2) * 12 + 2 * j + (i % 2), "map (%d,%d)", i, j);
        }
    }
    check_views(&m, "full chip");
    scc_mesh_free(&m);

    /* 8 ranks in reverse order on the first four tiles */
    for (int r = 0; r < 8; ++r) {
        pos[r] = 7 - r;
    }
    rc = scc_mesh_build(&m, &chip, 8, pos, &err);
    CHECK(SCC_MESH_OK == rc && 4 == m.ntiles_used && 2 == m.R && 4 == m.C && m.grid_tail_only,
          "8 reversed: %d tiles, grid %dx%d", m.ntiles_used, m.R, m.C);
    CHECK(3 == m.x[0] && 0 == m.y[0] && 1 == m.z[0], "rank 0 at core 7 = (3,0,1)");
    CHECK(0 == m.x[7] && 0 == m.z[7] && 0 == m.tile_of[7], "rank 7 at core 0");
    CHECK(m.at[7] == 0 && m.at[0] == 7 && m.at[8] == -1, "at[]");
    check_views(&m, "8 reversed");
    scc_mesh_free(&m);

    /* a last row half full: 13 ranks, the 13th alone on tile (0,1) */
    for (int r = 0; r < 13; ++r) {
        pos[r] = r;
    }
    rc = scc_mesh_build(&m, &chip, 13, pos, &err);
    CHECK(SCC_MESH_OK == rc && 7 == m.ntiles_used && 3 == m.R && 6 == m.C,
          "13 ranks: %d tiles, grid %dx%d", m.ntiles_used, m.R, m.C);
    CHECK(5 == m.grid_holes && m.grid_tail_only, "13 ranks: holes at the tail");
    CHECK(12 == scc_mesh_tile_leader(&m, 6, 1), "lone core leads its tile");
    CHECK(1 == scc_mesh_tile_leader(&m, 0, 1) && 0 == scc_mesh_tile_leader(&m, 0, 0),
          "preferred core leads");
    CHECK(-1 == scc_mesh_tile_leader(&m, 7, 0), "empty tile has no leader");
    CHECK(-1 == scc_mesh_tile_leader(&m, 24, 0), "no tile 24");
    check_views(&m, "13 ranks");
    scc_mesh_free(&m);

    /* only the second core of each tile (a subset: odd world ranks) */
    for (int r = 0; r < 6; ++r) {
        pos[r] = 2 * r + 1;
    }
    rc = scc_mesh_build(&m, &chip, 6, pos, &err);
    CHECK(SCC_MESH_OK == rc && 1 == m.R && 6 == m.C, "odd cores: grid %dx%d", m.R, m.C);
    CHECK(2 == scc_mesh_tile_leader(&m, 2, 0), "z=1 leads when z=0 is absent");
    check_views(&m, "odd cores");
    scc_mesh_free(&m);

    /* holes inside: (0,0) and (1,1) of a 2x2 mesh */
    {
        scc_mesh_dims_t d = { 2, 2, 1 };
        pos[0] = 3;
        pos[1] = 0;
        rc = scc_mesh_build(&m, &d, 2, pos, &err);
        CHECK(SCC_MESH_OK == rc && 2 == m.R && 2 == m.C && 2 == m.grid_holes
              && !m.grid_tail_only, "diagonal: holes inside");
        CHECK(0 == scc_mesh_hops(&m, 0, 0) && 2 == scc_mesh_hops(&m, 0, 1),
              "diagonal hops");
        check_views(&m, "diagonal");
        scc_mesh_free(&m);
    }

    /* errors */
    pos[0] = 5;
    pos[1] = 9;
    pos[2] = 5;
    rc = scc_mesh_build(&m, &chip, 3, pos, &err);
    CHECK(SCC_MESH_EDUP == rc && NULL != strstr(err.msg, "ranks 0 and 2"), "duplicate: \"%s\"",
          err.msg);
    CHECK(NULL == m.x && NULL == m.at, "failed build left clean");
    pos[2] = 48;
    rc = scc_mesh_build(&m, &chip, 3, pos, &err);
    CHECK(SCC_MESH_ERANGE == rc, "position 48");
    pos[2] = -1;
    rc = scc_mesh_build(&m, &chip, 3, pos, &err);
    CHECK(SCC_MESH_ERANGE == rc, "position -1");
}

static void test_near_square(void)
{
    static const struct { int n, R, C; } want[] = {
        { 1, 1, 1 }, { 2, 1, 2 }, { 3, 1, 3 }, { 4, 2, 2 }, { 7, 2, 4 }, { 8, 2, 4 },
        { 12, 3, 4 }, { 13, 3, 5 }, { 48, 6, 8 }
    };
    int R, C;

    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); ++i) {
        scc_mesh_near_square(want[i].n, &R, &C);
        CHECK(R == want[i].R && C == want[i].C, "n=%d: %dx%d", want[i].n, R, C);
    }
    for (int n = 1; n <= 300; ++n) {
        scc_mesh_near_square(n, &R, &C);
        CHECK(R * C >= n && (R - 1) * C < n && R <= C, "n=%d: %dx%d holds n, last row used", n,
              R, C);
        for (int r = 1; r <= n; ++r) {
            int c = (n + r - 1) / r;
            CHECK(r + c >= R + C, "n=%d: %dx%d beats %dx%d", n, r, c, R, C);
        }
    }
    {
        scc_mesh_t m;
        CHECK(SCC_MESH_OK == scc_mesh_build_flat(&m, 7), "flat 7");
        CHECK(2 == m.R && 4 == m.C && 1 == m.grid_holes && m.grid_tail_only, "flat 7: 2x4");
        for (int r = 0; r < 7; ++r) {
            CHECK(m.grid_row[r] == r / 4 && m.grid_col[r] == r % 4, "flat rank %d", r);
        }
        check_views(&m, "flat 7");
        scc_mesh_free(&m);
    }
}

static void test_domains(void)
{
    const int domain[6] = { 1, 0, 1, 0, 1, 1 }, order[6] = { 5, 2, 4, 3, 7, 6 };
    const int want[6] = { 5, 0, 4, 1, 7, 6 };
    scc_mesh_dims_t d;
    scc_mesh_t m;
    int pos[6];

    CHECK(0 == scc_mesh_place_domains(6, domain, order, &d, pos), "domains");
    CHECK(4 == d.X && 2 == d.Y && 1 == d.K, "domains: %dx%dx%d", d.X, d.Y, d.K);
    for (int r = 0; r < 6; ++r) {
        CHECK(pos[r] == want[r], "domains: rank %d at %d, want %d", r, pos[r], want[r]);
    }
    CHECK(SCC_MESH_OK == scc_mesh_build(&m, &d, 6, pos, NULL), "domains build");
    CHECK(2 == m.R && 4 == m.C && !m.grid_tail_only, "domains: short first row");
    check_views(&m, "domains");
    scc_mesh_free(&m);

    {
        const int one[3] = { 7, 7, 7 }, same[3] = { 0, 0, 0 };
        CHECK(0 == scc_mesh_place_domains(3, one, same, &d, pos), "one domain");
        CHECK(3 == d.X && 1 == d.Y && 0 == pos[0] && 1 == pos[1] && 2 == pos[2],
              "one domain, ties by rank");
    }
}

/* Walks a route and returns the tile it ends on (-1 if a link leaves the mesh). */
static int walk(const scc_mesh_dims_t *d, int from, const scc_link_t *l, int hops)
{
    int t = from;
    for (int i = 0; i < hops; ++i) {
        int x = t % d->X, y = t / d->X;
        if (l[i].tile != t) {
            return -1;
        }
        x += (SCC_DIR_E == l[i].dir) - (SCC_DIR_W == l[i].dir);
        y += (SCC_DIR_N == l[i].dir) - (SCC_DIR_S == l[i].dir);
        if (x < 0 || x >= d->X || y < 0 || y >= d->Y) {
            return -1;
        }
        t = y * d->X + x;
    }
    return t;
}

static void test_routes(void)
{
    scc_link_t l[64];
    int hops;

    /* core 0 to core 47: tile (0,0) to (5,3), 8 hops, 9 routers (seeds/000, L301) */
    hops = scc_mesh_route_tiles(&chip, 0, 23, l, 64);
    CHECK(8 == hops, "0 -> 23: %d hops", hops);
    for (int i = 0; i < 5; ++i) {
        CHECK(SCC_DIR_E == l[i].dir && i == l[i].tile, "0 -> 23: link %d east from tile %d", i,
              l[i].tile);
    }
    CHECK(SCC_DIR_N == l[5].dir && 5 == l[5].tile && 11 == l[6].tile && 17 == l[7].tile,
          "0 -> 23: then north along column 5");
    hops = scc_mesh_route_tiles(&chip, 23, 0, l, 64);
    CHECK(8 == hops && SCC_DIR_W == l[0].dir && SCC_DIR_S == l[7].dir && 18 == l[5].tile,
          "23 -> 0: west then south");
    CHECK(0 == scc_mesh_route_tiles(&chip, 9, 9, l, 64), "same tile");
    CHECK(5 == scc_mesh_route_tiles(&chip, 0, 15, NULL, 0), "length only: (0,0) to (3,2)");

    for (int a = 0; a < 24; ++a) {
        for (int b = 0; b < 24; ++b) {
            int seen_y = 0, ids[16], nid = 0;
            hops = scc_mesh_route_tiles(&chip, a, b, l, 64);
            CHECK(hops == scc_mesh_tile_hops(&chip, a, b), "%d -> %d: length", a, b);
            CHECK(hops == scc_mesh_tile_hops(&chip, b, a), "%d -> %d: symmetric", a, b);
            CHECK(walk(&chip, a, l, hops) == b, "%d -> %d: ends at b", a, b);
            for (int i = 0; i < hops; ++i) {
                int y_link = (SCC_DIR_N == l[i].dir || SCC_DIR_S == l[i].dir);
                CHECK(!(seen_y && !y_link), "%d -> %d: X before Y", a, b);
                seen_y |= y_link;
                ids[nid] = scc_mesh_link_id(l[i]);
                CHECK(ids[nid] >= 0 && ids[nid] < 4 * 24, "link id in range");
                for (int j = 0; j < nid; ++j) {
                    CHECK(ids[j] != ids[nid], "%d -> %d: a link used twice", a, b);
                }
                nid++;
            }
        }
    }

    {
        scc_mesh_t m;
        int pos[3] = { 47, 0, 1 };
        scc_mesh_build(&m, &chip, 3, pos, NULL);
        CHECK(8 == scc_mesh_hops(&m, 0, 1) && 0 == scc_mesh_hops(&m, 1, 2), "rank hops");
        CHECK(8 == scc_mesh_route(&m, 1, 0, l, 64) && walk(&chip, 0, l, 8) == 23,
              "rank route");
        scc_mesh_free(&m);
    }
}

int main(void)
{
    test_dims();
    test_chip_ids();
    test_maps();
    test_place();
    test_build();
    test_near_square();
    test_domains();
    test_routes();
    CHECK(0 == strcmp(scc_mesh_status_name(SCC_MESH_EDUP), "duplicate"), "status name");
    CHECK(0 == strcmp(scc_mesh_status_name(99), "?"), "unknown status name");
    return unit_finish("test_mesh");
}
