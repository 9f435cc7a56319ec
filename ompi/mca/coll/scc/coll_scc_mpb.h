/* coll_scc_mpb.h: what the files of the mpb transport share -- the claim lock of a core's
 * buffer (the strict emulation's checker: coll_scc_strict.h). */
#ifndef MCA_COLL_SCC_MPB_H
#define MCA_COLL_SCC_MPB_H

#include <stddef.h>

#include "coll_scc_strict.h"
#include "coll_scc_xport.h"

BEGIN_C_DECLS

#define SCC_MPB_CORE_BYTES 8192     /* the SCC's buffer per core */

/* coll_scc_mpb_emulate */
enum { SCC_MPB_EMULATE_OFF = 0, SCC_MPB_EMULATE_ON = 1, SCC_MPB_EMULATE_STRICT = 2 };

/* ------------------------------------------------------------ claim lock */
/* (coll_scc_mpb_lock.c) */

/* Held while a process reads and writes the owner line of its core's buffer: the core's
 * test-and-set register on the SCC; elsewhere a lock on the core's bytes of the device
 * file, which stands for it (exclusive between processes and between threads alike). */
typedef struct scc_mpb_lock {
    int fd;
    void *map;
    size_t maplen;
    volatile uint32_t *reg;
} scc_mpb_lock_t;

/* Takes the lock of core (whose buffer is core_size bytes at core * core_size of device);
 * returns 0, or an errno value. */
int mca_coll_scc_mpb_lock(scc_mpb_lock_t *l, const char *device, int core, size_t core_size);
void mca_coll_scc_mpb_unlock(scc_mpb_lock_t *l);

END_C_DECLS

#endif /* MCA_COLL_SCC_MPB_H */
