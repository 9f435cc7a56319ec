/* coll_scc_flat.c: the direct ("flat") algorithms -- every rank reads what it needs straight
 * from the rank that has it, through message slots or single-copy. */
#include "coll_scc_flat.h"

/* The piece size for messages of len bytes read in place when allowed. */
static inline size_t scc_piece(const scc_xport_t *x, size_t len, bool stable)
{
    return (stable && x->cma && len >= x->cma_min) ? len : x->slot_size;
}

int mca_coll_scc_bcast_flat(mca_coll_scc_module_t *m, char *buf, size_t bytes, int root)
{
    scc_xport_t *x = m->xp;
    size_t piece = scc_piece(x, bytes, true);
    uint32_t tag = 0;
    int rc = OMPI_SUCCESS;

    scc_xport_begin(x);
    for (size_t off = 0; off < bytes && OMPI_SUCCESS == rc; off += piece, ++tag) {
        size_t len = bytes - off < piece ? bytes - off : piece;
        if (x->rank == root) {
            rc = scc_xport_send(x, tag, buf + off, len, x->size - 1, true);
        } else {
            rc = scc_xport_recv(x, root, tag, buf + off, len);
        }
    }
    scc_xport_end(x);
    return rc;
}
