/* coll_scc_strict.h: the strict emulation's checker (coll_scc_mpb_strict.c) -- on an emulated
 * SCC every line of the message-passing buffers must have one writer; the checker maps the
 * buffers read-only, records each line's writer and aborts the job at a second one. */
#ifndef MCA_COLL_SCC_STRICT_H
#define MCA_COLL_SCC_STRICT_H

#include <stddef.h>

#include "coll_scc_compat.h"

BEGIN_C_DECLS

struct scc_xport;

/* Where a write of len bytes at p of the regions goes: the writable alias, once the writer
 * of every line it touches is recorded (the slot engine's scc_wr, when x->strict is set). */
void *mca_coll_scc_strict_wr(const struct scc_xport *x, const volatile void *p, size_t len);
/* Its test hooks (coll_scc_mpb_strict_test), at a communicator's first call. */
void mca_coll_scc_strict_first_call(struct scc_xport *x);

/* coll_scc_mpb_strict_test: 1 makes rank 1 write a line of rank 0 at each communicator's
 * first call, 2 makes it add atomically to a line of its own: each must abort the job. */
extern int mca_coll_scc_strict_test;

/* Bytes the checker needs after the chip's buffers in the emulated segment. */
size_t mca_coll_scc_strict_bytes(size_t chip_bytes);

/* Sets the checker up on the emulated chip at base (chip_bytes of buffers, then the
 * checker's table): *view receives the read-only view the regions must point into.
 * core: rank -> core (kept: the module's topology outlives the transport).  Returns
 * OMPI_SUCCESS or an error (nothing to undo). */
int mca_coll_scc_strict_attach(struct scc_xport *x, char *base, size_t chip_bytes,
                               size_t core_size, const int *core, int ncores, char **view);
void mca_coll_scc_strict_detach(struct scc_xport *x);

END_C_DECLS

#endif /* MCA_COLL_SCC_STRICT_H */
