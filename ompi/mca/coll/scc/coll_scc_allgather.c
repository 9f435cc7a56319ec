/* coll_scc_allgather.c: MPI_Allgather: decide and run it (a persistent one decides once),
 * or hand the call to the fallback. */
#include "coll_scc.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_allgather_go(mca_coll_scc_module_t *m, scc_alg_t alg, size_t bytes,
                              const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                              void *rbuf, int rcount, struct ompi_datatype_t *rdtype)
{
    size_t n = (size_t) m->size;
    const char *in;
    char *out;
    bool packed;
    int rc;

    mca_coll_scc_running(m, SCC_COLL_ALLGATHER, alg);
    if (0 == bytes) {
        mca_coll_scc_count(m, SCC_COLL_ALLGATHER, alg);
        return OMPI_SUCCESS;
    }
    out = scc_view_out(m, rbuf, (size_t) rcount * n, rdtype, bytes * n, &packed);
    if (NULL == out) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
    }
    if (MPI_IN_PLACE == sbuf) {
        in = out + (size_t) m->rank * bytes;
        if (packed) {
            ptrdiff_t ext;
            ompi_datatype_type_extent(rdtype, &ext);
            rc = scc_dtype_pack((char *) rbuf + (ptrdiff_t) m->rank * rcount * ext,
                                (size_t) rcount, rdtype, (char *) in, bytes);
            if (OMPI_SUCCESS != rc) {
                return mca_coll_scc_call_failed(m->xp, false, rc, "packing the data failed");
            }
        }
    } else {
        in = scc_view_in(m, sbuf, (size_t) scount, sdtype, bytes);
        if (NULL == in) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_PACK);
        }
    }
    rc = SCC_ALG_FLAT == alg ? mca_coll_scc_allgather_flat(m, in, out, bytes)
                             : mca_coll_scc_allgather_sched(m, alg, in, out, bytes, NULL);
    if (OMPI_ERR_NOT_AVAILABLE == rc) {
        return rc;
    }
    mca_coll_scc_count(m, SCC_COLL_ALLGATHER, alg);
    if (OMPI_SUCCESS == rc) {
        rc = scc_view_out_done(rbuf, (size_t) rcount * n, rdtype, out, bytes * n, packed);
    }
    return rc;
}

int mca_coll_scc_allgather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype,
                           void *rbuf, int rcount, struct ompi_datatype_t *rdtype,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;

    SCC_DECIDED_ENTRY(m, comm, SCC_COLL_ALLGATHER, allgather,
                      mca_coll_scc_decide_bytes(m, SCC_COLL_ALLGATHER, rcount, rdtype, &bytes),
                      mca_coll_scc_allgather_go(m, alg, bytes, sbuf, scount, sdtype, rbuf, rcount,
                                                rdtype),
                      sbuf, scount, sdtype, rbuf, rcount, rdtype, comm);
}
