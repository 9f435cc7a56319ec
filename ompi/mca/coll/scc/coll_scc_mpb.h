/* coll_scc_mpb.h: what the files of the mpb transport share -- the claim lock of a core's
 * buffer and the strict emulation's checker. */
#ifndef MCA_COLL_SCC_MPB_H
#define MCA_COLL_SCC_MPB_H

#include <stddef.h>

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

/* ------------------------------------------------------------ strict emulation */
/* (coll_scc_mpb_strict.c) */

/* coll_scc_mpb_strict_test: 1 makes rank 1 write a line of rank 0 at each communicator's
 * first call, 2 makes it add atomically to a line of its own: each must abort the job. */
extern int mca_coll_scc_strict_test;

/* Bytes the checker needs after the chip's buffers in the emulated segment. */
size_t mca_coll_scc_strict_bytes(size_t chip_bytes);

/* Sets the checker up on the emulated chip at base (chip_bytes of buffers, then the
 * checker's table): *view receives the read-only view the regions must point into.
 * core: rank -> core (kept: the module's topology outlives the transport).  Returns
 * OMPI_SUCCESS or an error (nothing to undo). */
int mca_coll_scc_strict_attach(scc_xport_t *x, char *base,
                               size_t chip_bytes, size_t core_size, const int *core,
                               int ncores, char **view);
void mca_coll_scc_strict_detach(scc_xport_t *x);

END_C_DECLS

#endif /* MCA_COLL_SCC_MPB_H */
