/* coll_scc_blocks.h: the blocks of a v-collective's buffer (counts[i] elements of one
 * datatype at displs[i] extents) as byte counts and byte offsets, in the user's buffer
 * where the datatype is contiguous, else packed one after the other in a scratch buffer. */
#ifndef MCA_COLL_SCC_BLOCKS_H
#define MCA_COLL_SCC_BLOCKS_H

#include "coll_scc_exec.h"

BEGIN_C_DECLS

typedef struct scc_blocks {
    const char *buf;
    const int *counts, *displs;
    struct ompi_datatype_t *dt;                 /* every block's datatype, or */
    struct ompi_datatype_t *const *dts;         /* one per block (alltoallw), displs in bytes */
    ptrdiff_t ext, lb;
    bool contig;                /* every block is contiguous bytes at its place plus its lb */
} scc_blocks_t;

/* Blocks of one datatype, displacements in its extents (the v-collectives). */
void scc_blocks_init(scc_blocks_t *b, const void *buf, const int *counts, const int *displs,
                     struct ompi_datatype_t *dt);
/* Blocks of a datatype each, displacements in bytes (alltoallw). */
void scc_blocks_init_w(scc_blocks_t *b, int n, const void *buf, const int *counts,
                       const int *displs, struct ompi_datatype_t *const *dts);

static inline struct ompi_datatype_t *scc_block_dt(const scc_blocks_t *b, int i)
{
    return NULL != b->dts ? b->dts[i] : b->dt;
}

/* Block i's place in the user's buffer (its first element's, before the lower bound). */
static inline const char *scc_block_at(const scc_blocks_t *b, int i)
{
    return b->buf + (ptrdiff_t) b->displs[i] * (NULL != b->dts ? 1 : b->ext);
}

/* Where block i's data starts past its place (its datatype's true lower bound). */
ptrdiff_t scc_block_lb(const scc_blocks_t *b, int i);

/* Offsets (off) of the n blocks of bytes[i] bytes in the user's buffer, relative to the
 * lowest non-empty one (displacements may be negative); returns that block's address. */
char *scc_blocks_direct(const scc_blocks_t *b, int n, const size_t *bytes, size_t *off);

/* Offsets of the blocks packed one after the other into scratch `which`; with pack, the
 * blocks are copied there.  NULL on error. */
char *scc_blocks_packed(mca_coll_scc_module_t *m, int which, const scc_blocks_t *b, int n,
                        const size_t *bytes, size_t *off, bool pack);

/* Packs block i (bytes of it) to dst. */
int scc_block_pack(const scc_blocks_t *b, int i, size_t bytes, char *dst);

/* Unpacks the blocks of a packed view (all but block `skip`, -1 for none). */
int scc_blocks_unpack(const scc_blocks_t *b, int n, const size_t *bytes, const size_t *off,
                      const char *view, int skip);

/* Whether two non-empty blocks of bytes[i] at off[i] share a byte (the receive side of gatherv
 * and allgatherv must not: MPI writes no place twice); idx: room for n ints. */
bool scc_blocks_overlap(int n, const size_t *bytes, const size_t *off, int *idx);

END_C_DECLS

#endif /* MCA_COLL_SCC_BLOCKS_H */
