/* coll_scc_probe.h: the platform probe -- is this process on an SCC core, and which; POSIX
 * only, no Open MPI include.
 *
 * The probe must be honest: on anything but an SCC it answers "not an SCC".
 * Tests and users can tell it the answer instead (coll_scc_scc_coreid).
 */
#ifndef MCA_COLL_SCC_PROBE_H
#define MCA_COLL_SCC_PROBE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The SCC's configuration register bank of the calling core's own tile, as
 * SCC Linux maps it (physical address), and the tile id register in it: bits
 * 2..0 the core in the tile (z), 6..3 the tile column (x), 10..7 the row (y). */
#define SCC_PROBE_CRB_OWN 0xF8000000UL
#define SCC_PROBE_MYTILEID 0x100UL

typedef struct scc_probe_cfg {
    const char *coreid;        /* "probe", "none", "rank" or a core id 0..47 */
    const char *coreid_file;   /* a file (a /sys or /proc entry) holding the core id, or "" */
    const char *crb_device;    /* device that maps the register bank (/dev/rckncm), or "" */
    int world_rank;            /* used by coreid = "rank" */
} scc_probe_cfg_t;

/* Outcomes (>= 0 is a core id). */
#define SCC_PROBE_NOT_SCC (-1)   /* not an SCC (or told so) */
#define SCC_PROBE_INVALID (-2)   /* a setting is malformed or out of range: see how */

/* Returns the SCC core id of the calling process (0..47), SCC_PROBE_NOT_SCC or
 * SCC_PROBE_INVALID; how receives one phrase saying where the answer came from
 * or why there is none.  Order: coreid (unless "probe"), then coreid_file,
 * then the tile id register through crb_device. */
int scc_probe_coreid(const scc_probe_cfg_t *cfg, char *how, size_t len);

/* Decodes a tile id register value into a core id; -1 when it is not one of the 48 cores. */
int scc_probe_decode_tileid(unsigned long reg);

#ifdef __cplusplus
}
#endif

#endif /* MCA_COLL_SCC_PROBE_H */
