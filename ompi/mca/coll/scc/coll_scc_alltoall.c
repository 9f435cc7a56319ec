/* coll_scc_alltoall.c: MPI_Alltoall: decide and run it (a persistent one decides once),
 * or hand the call to the fallback. */
#include <string.h>

#include "coll_scc.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"

/* Blocks from which an alltoall in place swaps them rather than send from a copy of its
 * buffer: the swap's first pieces go one per peer, the copy's whole buffer in one message
 * where it fits a slot -- np 2 bound, 4 and 8 on 2 cores, medians of 3 launches, swap /
 * copy: 512 B 0.89, 1.29, 1.33; 4 KB 0.78, 1.05, 0.94; 32 KB 0.46, 0.75, 0.59. */
#define SCC_INPLACE_SWAP_MIN 4096

/* In place by the exchange that holds no copy (coll_scc_flat_move.c): in rbuf, or in its
 * packed view where its datatype is not contiguous. */
static int scc_alltoall_inplace(mca_coll_scc_module_t *m, scc_alg_t alg, void *rbuf,
                                int rcount, struct ompi_datatype_t *rdtype, size_t bytes)
{
    const size_t n = (size_t) m->size;
    size_t *v = mca_coll_scc_scratch(m, SCC_SCRATCH_ARGS, 2 * n * sizeof(size_t));
    char *out;
    bool packed;
    int rc;

    out = NULL != v ? scc_view_out(m, rbuf, (size_t) rcount * n, rdtype, bytes * n, &packed)
                    : NULL;
    if (NULL == out) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                        "there is no memory for a copy of the blocks");
    }
    if (packed && OMPI_SUCCESS != (rc = scc_dtype_pack(rbuf, (size_t) rcount * n, rdtype, out,
                                                       bytes * n))) {
        return mca_coll_scc_call_failed(m->xp, false, rc, "its blocks could not be packed");
    }
    for (size_t i = 0; i < n; ++i) {
        v[i] = bytes;
        v[n + i] = i * bytes;
    }
    rc = mca_coll_scc_alltoallv_inplace(m, out, v, v + n);
    mca_coll_scc_count(m, SCC_COLL_ALLTOALL, alg);
    if (OMPI_SUCCESS == rc) {
        rc = scc_view_out_done(rbuf, (size_t) rcount * n, rdtype, out, bytes * n, packed);
    }
    return rc;
}

int mca_coll_scc_alltoall_go(mca_coll_scc_module_t *m, scc_alg_t alg, size_t bytes,
                             const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                             void *rbuf, int rcount, struct ompi_datatype_t *rdtype)
{
    size_t n = (size_t) m->size;
    const char *in;
    char *out;
    bool packed;
    int rc;

    /* in place, the direct and pairwise exchanges swap blocks of SCC_INPLACE_SWAP_MIN or
       more pair by pair; past the bound the pair lists, which send from a copy, leave the
       call to the fallback: a copy as large as the buffer would double what the job holds
       (bytes and n are the same on every rank) */
    const bool over = MPI_IN_PLACE == sbuf
                      && bytes * n > (size_t) mca_coll_scc_config.inplace_copy_max;
    const bool swap = SCC_ALG_FLAT == alg || SCC_ALG_RING == alg;
    const bool lean = MPI_IN_PLACE == sbuf && swap && (over || bytes >= SCC_INPLACE_SWAP_MIN);
    if (over && !swap) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    mca_coll_scc_running(m, SCC_COLL_ALLTOALL, alg);
    if (0 == bytes) {
        mca_coll_scc_count(m, SCC_COLL_ALLTOALL, alg);
        return OMPI_SUCCESS;
    }
    if (lean) {
        return scc_alltoall_inplace(m, alg, rbuf, rcount, rdtype, bytes);
    }
    if (MPI_IN_PLACE == sbuf) {
        /* the blocks to send are in rbuf, which receives: send from a copy */
        ptrdiff_t lb;
        if (scc_dtype_contig(rdtype, (size_t) rcount * n, &lb)) {
            char *copy = mca_coll_scc_scratch(m, SCC_SCRATCH_IN, bytes * n);
            if (NULL != copy) {
                memcpy(copy, (char *) rbuf + lb, bytes * n);
            }
            in = copy;
        } else {
            in = scc_view_in(m, rbuf, (size_t) rcount * n, rdtype, bytes * n);
        }
    } else {
        in = scc_view_in(m, sbuf, (size_t) scount * n, sdtype, bytes * n);
    }
    out = scc_view_out(m, rbuf, (size_t) rcount * n, rdtype, bytes * n, &packed);
    if (NULL == in || NULL == out) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM,
                                            "there is no memory for a copy of the blocks");
    }
    rc = SCC_ALG_FLAT == alg ? mca_coll_scc_alltoall_flat(m, in, out, bytes)
                             : mca_coll_scc_alltoall_sched(m, alg, in, out, bytes);
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_ALLTOALL, alg);
    if (OMPI_SUCCESS == rc) {
        rc = scc_view_out_done(rbuf, (size_t) rcount * n, rdtype, out, bytes * n, packed);
    }
    return rc;
}

int mca_coll_scc_alltoall(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                          void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_ALLTOALL, alltoall,
                      mca_coll_scc_decide_bytes(m, SCC_COLL_ALLTOALL, rcount, rdtype, &bytes),
                      mca_coll_scc_alltoall_go(m, alg, bytes, sbuf, scount, sdtype, rbuf, rcount,
                                               rdtype),
                      sbuf, scount, sdtype, rbuf, rcount, rdtype, comm);
}
