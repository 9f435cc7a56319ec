/* coll_scc_probe.c: the platform probe -- the SCC core id from a parameter, a file, or the
 * tile id register. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coll_scc_mesh.h"
#include "coll_scc_probe.h"

/* Parses a whole string as a core id; -1 if it is not a number 0..47. */
static int parse_coreid(const char *s)
{
    char *end;
    long v;

    while (' ' == *s || '\t' == *s) {
        s++;
    }
    if (*s < '0' || *s > '9') {
        return -1;
    }
    errno = 0;
    v = strtol(s, &end, 10);
    while (' ' == *end || '\t' == *end || '\n' == *end || '\r' == *end) {
        end++;
    }
    if (0 != errno || '\0' != *end || v < 0 || v >= SCC_CHIP_CORES) {
        return -1;
    }
    return (int) v;
}

int scc_probe_decode_tileid(unsigned long reg)
{
    int z = (int) (reg & 0x7), x = (int) ((reg >> 3) & 0xf), y = (int) ((reg >> 7) & 0xf);
    return scc_chip_pos_to_coreid(x, y, z);
}

static int probe_file(const char *path, char *how, size_t len)
{
    char buf[64];
    FILE *f = fopen(path, "r");
    size_t got;
    int id;

    if (NULL == f) {
        snprintf(how, len, "cannot read %s (%s)", path, strerror(errno));
        return SCC_PROBE_INVALID;
    }
    got = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[got] = '\0';
    id = parse_coreid(buf);
    if (id < 0) {
        snprintf(how, len, "%s does not hold a core id 0..%d", path, SCC_CHIP_CORES - 1);
        return SCC_PROBE_INVALID;
    }
    snprintf(how, len, "core id from %s", path);
    return id;
}

/* Reads the tile id register through the device that maps the register bank. */
static int probe_register(const char *dev, char *how, size_t len)
{
    const long page = sysconf(_SC_PAGESIZE);
    const off_t base = (off_t) (SCC_PROBE_CRB_OWN & ~(unsigned long) (page - 1));
    const size_t off = (size_t) (SCC_PROBE_CRB_OWN - (unsigned long) base) + SCC_PROBE_MYTILEID;
    const size_t maplen = ((off + sizeof(uint32_t) + page - 1) / page) * page;
    struct stat st;
    void *map;
    uint32_t reg;
    int fd, id;

    if (0 != stat(dev, &st)) {
        snprintf(how, len, "not an SCC (no %s)", dev);
        return SCC_PROBE_NOT_SCC;
    }
    /* the real device is a character device; a regular file emulates one in tests */
    if (!S_ISCHR(st.st_mode) && !S_ISREG(st.st_mode)) {
        snprintf(how, len, "not an SCC (%s is not a device)", dev);
        return SCC_PROBE_NOT_SCC;
    }
    if (S_ISREG(st.st_mode) && (uintmax_t) st.st_size < (uintmax_t) base + maplen) {
        snprintf(how, len, "not an SCC (%s is too short to hold the register bank)", dev);
        return SCC_PROBE_NOT_SCC;
    }
    fd = open(dev, O_RDONLY | O_SYNC);
    if (fd < 0) {
        snprintf(how, len, "not an SCC (cannot open %s: %s)", dev, strerror(errno));
        return SCC_PROBE_NOT_SCC;
    }
    map = mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd, base);
    close(fd);
    if (MAP_FAILED == map) {
        snprintf(how, len, "not an SCC (cannot map %s: %s)", dev, strerror(errno));
        return SCC_PROBE_NOT_SCC;
    }
    reg = *(volatile uint32_t *) ((char *) map + off);
    munmap(map, maplen);
    id = scc_probe_decode_tileid(reg);
    if (id < 0) {
        snprintf(how, len, "not an SCC (tile id register 0x%x through %s is not a core of "
                 "the 6x4x2 chip)", (unsigned) reg, dev);
        return SCC_PROBE_NOT_SCC;
    }
    snprintf(how, len, "core id from the tile id register through %s", dev);
    return id;
}

int scc_probe_coreid(const scc_probe_cfg_t *cfg, char *how, size_t len)
{
    const char *c = (NULL == cfg->coreid || '\0' == cfg->coreid[0]) ? "probe" : cfg->coreid;

    if (0 == strcmp(c, "none")) {
        snprintf(how, len, "not an SCC (coll_scc_scc_coreid=none)");
        return SCC_PROBE_NOT_SCC;
    }
    if (0 == strcmp(c, "rank")) {
        if (cfg->world_rank < 0 || cfg->world_rank >= SCC_CHIP_CORES) {
            snprintf(how, len, "coll_scc_scc_coreid=rank, but rank %d is beyond the %d cores",
                     cfg->world_rank, SCC_CHIP_CORES);
            return SCC_PROBE_INVALID;
        }
        snprintf(how, len, "core id = MPI_COMM_WORLD rank (coll_scc_scc_coreid=rank)");
        return cfg->world_rank;
    }
    if (0 != strcmp(c, "probe")) {
        int id = parse_coreid(c);
        if (id < 0) {
            snprintf(how, len, "coll_scc_scc_coreid=\"%s\" is not probe, none, rank or a core "
                     "id 0..%d", c, SCC_CHIP_CORES - 1);
            return SCC_PROBE_INVALID;
        }
        snprintf(how, len, "core id %d from coll_scc_scc_coreid", id);
        return id;
    }
    if (NULL != cfg->coreid_file && '\0' != cfg->coreid_file[0]) {
        return probe_file(cfg->coreid_file, how, len);
    }
    if (NULL != cfg->crb_device && '\0' != cfg->crb_device[0]) {
        return probe_register(cfg->crb_device, how, len);
    }
    snprintf(how, len, "not an SCC (no probe configured)");
    return SCC_PROBE_NOT_SCC;
}
