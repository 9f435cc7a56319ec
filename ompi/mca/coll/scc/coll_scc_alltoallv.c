/* coll_scc_alltoallv.c: MPI_Alltoallv: choose an algorithm, or hand the call to the fallback. */
#include <string.h>

#include "coll_scc.h"
#include "coll_scc_flat.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                           struct ompi_datatype_t *sdtype, void *rbuf, const int *rcounts,
                           const int *rdispls, struct ompi_datatype_t *rdtype,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    const int n = m->size;
    size_t ssize, rsize, *v;
    ptrdiff_t sext, rext, slb = 0, rlb = 0;
    scc_alg_t alg;

    if (OPAL_UNLIKELY(!mca_coll_scc_ready(m, comm))) {
        goto fallback;
    }
    /* counts differ between ranks: the choice must not depend on them */
    alg = mca_coll_scc_pick(m, SCC_COLL_ALLTOALLV, 0);
    if (MPI_IN_PLACE == sbuf) {
        sbuf = NULL;
        sdtype = rdtype;
        scounts = rcounts;
        sdispls = rdispls;
    }
    /* element layouts in place: contiguous types only, the same answer on every rank */
    if (SCC_ALG_FLAT != alg || !scc_dtype_contig(sdtype, 2, &slb)
        || !scc_dtype_contig(rdtype, 2, &rlb)) {
        if (NULL == sbuf) {
            sbuf = MPI_IN_PLACE;
        }
        goto fallback;
    }
    mca_coll_scc_count(m, SCC_COLL_ALLTOALLV, alg);
    ompi_datatype_type_size(sdtype, &ssize);
    ompi_datatype_type_size(rdtype, &rsize);
    ompi_datatype_type_extent(sdtype, &sext);
    ompi_datatype_type_extent(rdtype, &rext);
    v = mca_coll_scc_scratch(m, 0, 4 * (size_t) n * sizeof(size_t));
    if (NULL == v) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (int i = 0; i < n; ++i) {
        v[i] = (size_t) scounts[i] * ssize;
        v[n + i] = (size_t) (sdispls[i] * sext + slb);
        v[2 * n + i] = (size_t) rcounts[i] * rsize;
        v[3 * n + i] = (size_t) (rdispls[i] * rext + rlb);
    }
    if (NULL == sbuf) {
        /* in place: send from a copy of the receive buffer's blocks */
        size_t extent = 0;
        char *copy;
        for (int i = 0; i < n; ++i) {
            if (v[3 * n + i] + v[2 * n + i] > extent) {
                extent = v[3 * n + i] + v[2 * n + i];
            }
        }
        copy = mca_coll_scc_scratch(m, SCC_SCRATCH_IN, extent + 1);
        if (NULL == copy) {
            return OMPI_ERR_OUT_OF_RESOURCE;
        }
        memcpy(copy, rbuf, extent);
        sbuf = copy;
    }
    return mca_coll_scc_alltoallv_flat(m, sbuf, v, v + n, rbuf, v + 2 * n, v + 3 * n);

fallback:
    mca_coll_scc_count(m, SCC_COLL_ALLTOALLV, SCC_ALG_FALLBACK);
    return m->prev_alltoallv.fn(sbuf, scounts, sdispls, sdtype, rbuf, rcounts, rdispls, rdtype,
                                comm, m->prev_alltoallv.module);
}
