/* test_probe.c: the SCC platform probe -- settings, core id files, the tile id register, and "not an SCC" here. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coll_scc_mesh.h"
#include "coll_scc_probe.h"
#include "unit.h"

static int probe(const char *coreid, const char *file, const char *dev, int rank, char *how,
                 size_t len)
{
    scc_probe_cfg_t cfg;
    cfg.coreid = coreid;
    cfg.coreid_file = file;
    cfg.crb_device = dev;
    cfg.world_rank = rank;
    return scc_probe_coreid(&cfg, how, len);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (NULL != f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_settings(void)
{
    char how[160];

    CHECK(SCC_PROBE_NOT_SCC == probe("none", "", "", 0, how, sizeof(how)), "none");
    CHECK(5 == probe("rank", "", "", 5, how, sizeof(how)), "rank 5");
    CHECK(SCC_PROBE_INVALID == probe("rank", "", "", 48, how, sizeof(how))
          && NULL != strstr(how, "rank 48"), "rank 48: %s", how);
    CHECK(17 == probe("17", "", "", 0, how, sizeof(how)), "17");
    CHECK(0 == probe(" 0 ", "", "", 3, how, sizeof(how)), "0 with blanks");
    CHECK(SCC_PROBE_INVALID == probe("48", "", "", 0, how, sizeof(how)), "48");
    CHECK(SCC_PROBE_INVALID == probe("-1", "", "", 0, how, sizeof(how)), "-1");
    CHECK(SCC_PROBE_INVALID == probe("abc", "", "", 0, how, sizeof(how))
          && NULL != strstr(how, "abc"), "abc: %s", how);
    CHECK(SCC_PROBE_INVALID == probe("7x", "", "", 0, how, sizeof(how)), "7x");
    CHECK(SCC_PROBE_NOT_SCC == probe("probe", "", "", 0, how, sizeof(how)), "nothing to probe");
    CHECK(SCC_PROBE_NOT_SCC == probe(NULL, NULL, NULL, 0, how, sizeof(how)), "all unset");
    CHECK(SCC_PROBE_NOT_SCC == probe("probe", "", "/nonexistent/rckncm", 0, how, sizeof(how))
          && NULL != strstr(how, "not an SCC"), "missing device: %s", how);
    CHECK(SCC_PROBE_NOT_SCC == probe("probe", "", "/dev/null", 0, how, sizeof(how)),
          "/dev/null is no register bank: %s", how);
}

static void test_file(void)
{
    char path[] = "/tmp/scc_probe_idXXXXXX", how[160];
    int fd = mkstemp(path);

    CHECK(fd >= 0, "temp file");
    if (fd < 0) {
        return;
    }
    close(fd);
    write_text(path, "23\n");
    CHECK(23 == probe("probe", path, "/nonexistent", 0, how, sizeof(how)), "file 23: %s", how);
    /* a setting wins over the file */
    CHECK(4 == probe("4", path, "", 0, how, sizeof(how)), "setting before file");
    write_text(path, "99\n");
    CHECK(SCC_PROBE_INVALID == probe("probe", path, "", 0, how, sizeof(how)), "file 99");
    write_text(path, "");
    CHECK(SCC_PROBE_INVALID == probe("probe", path, "", 0, how, sizeof(how)), "empty file");
    unlink(path);
    CHECK(SCC_PROBE_INVALID == probe("probe", path, "", 0, how, sizeof(how)), "missing file");
}

static void test_decode(void)
{
    for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 6; ++x) {
            for (int z = 0; z < 2; ++z) {
                unsigned long reg = ((unsigned long) y << 7) | ((unsigned long) x << 3) | z;
                CHECK(scc_probe_decode_tileid(reg) == 2 * (x + 6 * y) + z, "tile id (%d,%d,%d)",
                      x, y, z);
                /* bits above the tile id do not matter */
                CHECK(scc_probe_decode_tileid(reg | 0xfffff800UL) == 2 * (x + 6 * y) + z,
                      "upper bits (%d,%d,%d)", x, y, z);
            }
        }
    }
    CHECK(-1 == scc_probe_decode_tileid(6UL << 3), "x = 6");
    CHECK(-1 == scc_probe_decode_tileid(4UL << 7), "y = 4");
    CHECK(-1 == scc_probe_decode_tileid(2), "z = 2");
}

/* A regular file stands in for the register device: the tile id register sits at
 * the bank's physical address; the file is sparse, so it costs nothing. */
static void test_register_file(void)
{
    char path[] = "/tmp/scc_probe_crbXXXXXX", how[160];
    const off_t at = (off_t) (SCC_PROBE_CRB_OWN + SCC_PROBE_MYTILEID);
    const long page = sysconf(_SC_PAGESIZE);
    uint32_t reg = (2u << 7) | (2u << 3) | 1u;   /* tile (2,2), core 1: id 29 */
    int fd = mkstemp(path);

    CHECK(fd >= 0, "temp file");
    if (fd < 0) {
        return;
    }
    /* too short to hold the bank */
    CHECK(SCC_PROBE_NOT_SCC == probe("probe", "", path, 0, how, sizeof(how))
          && NULL != strstr(how, "too short"), "short device: %s", how);
    if (0 != ftruncate(fd, (off_t) SCC_PROBE_CRB_OWN + page)) {
        printf("test_probe: sparse files unsupported here, register emulation not tested\n");
        close(fd);
        unlink(path);
        return;
    }
    CHECK(sizeof(reg) == pwrite(fd, &reg, sizeof(reg), at), "write the register");
    CHECK(29 == probe("probe", "", path, 0, how, sizeof(how)), "register says 29: %s", how);
    reg = (1u << 7) | (7u << 3);   /* x = 7: not a core */
    CHECK(sizeof(reg) == pwrite(fd, &reg, sizeof(reg), at), "write the register");
    CHECK(SCC_PROBE_NOT_SCC == probe("probe", "", path, 0, how, sizeof(how)),
          "bad register: %s", how);
    close(fd);
    unlink(path);
}

/* Honesty: on a machine without the SCC device the default probe says "not an SCC". */
static void test_here(void)
{
    struct stat st;
    char how[160];

    if (0 != stat("/dev/rckncm", &st)) {
        CHECK(SCC_PROBE_NOT_SCC == probe("probe", "", "/dev/rckncm", 0, how, sizeof(how))
              && NULL != strstr(how, "not an SCC"), "not an SCC here: %s", how);
    } else {
        printf("test_probe: /dev/rckncm exists: probe says %d (%s)\n",
               probe("probe", "", "/dev/rckncm", 0, how, sizeof(how)), how);
    }
}

int main(void)
{
    test_settings();
    test_file();
    test_decode();
    test_register_file();
    test_here();
    return unit_finish("test_probe");
}
