/* coll_scc_alltoallv.c: MPI_Alltoallv: choose an algorithm, or hand the call to the fallback. */
#include <string.h>

#include "coll_scc.h"
#include "coll_scc_flat.h"
#include "coll_scc_run.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                           struct ompi_datatype_t *sdtype, void *rbuf, const int *rcounts,
                           const int *rdispls, struct ompi_datatype_t *rdtype,
                           struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    const int n = m->size;
    const bool in_place = MPI_IN_PLACE == sbuf;
    struct ompi_datatype_t *st = in_place ? rdtype : sdtype;
    const int *sc = in_place ? rcounts : scounts, *sd = in_place ? rdispls : sdispls;
    size_t ssize, rsize, *v;
    ptrdiff_t sext, rext, slb = 0, rlb = 0;
    const char *in = sbuf;
    scc_alg_t alg;
    int rc;

    if (OPAL_UNLIKELY(!mca_coll_scc_ready(m, comm))) {
        goto fallback;
    }
    /* counts differ between ranks: the choice must not depend on them; element
       layouts in place: contiguous types only, which every rank answers alike */
    alg = mca_coll_scc_pick(m, SCC_COLL_ALLTOALLV, 0);
    if (SCC_ALG_FALLBACK == alg || !scc_dtype_contig(st, 2, &slb)
        || !scc_dtype_contig(rdtype, 2, &rlb)) {
        goto fallback;
    }
    ompi_datatype_type_size(st, &ssize);
    ompi_datatype_type_size(rdtype, &rsize);
    ompi_datatype_type_extent(st, &sext);
    ompi_datatype_type_extent(rdtype, &rext);
    /* byte counts and offsets: send, send offsets, receive, receive offsets */
    v = mca_coll_scc_scratch(m, SCC_SCRATCH_ARGS, 4 * (size_t) n * sizeof(size_t));
    if (NULL == v) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    for (int i = 0; i < n; ++i) {
        v[i] = (size_t) sc[i] * ssize;
        v[n + i] = (size_t) (sd[i] * sext + slb);
        v[2 * n + i] = (size_t) rcounts[i] * rsize;
        v[3 * n + i] = (size_t) (rdispls[i] * rext + rlb);
    }
    if (in_place) {
        /* send from a copy of the receive buffer's blocks */
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
        in = copy;
    }
    rc = SCC_ALG_FLAT == alg
             ? mca_coll_scc_alltoallv_flat(m, in, v, v + n, rbuf, v + 2 * n, v + 3 * n)
             : mca_coll_scc_alltoallv_sched(m, alg, in, v, v + n, rbuf, v + 2 * n, v + 3 * n);
    if (OMPI_ERR_NOT_AVAILABLE != rc) {
        mca_coll_scc_count(m, SCC_COLL_ALLTOALLV, alg);
        return rc;
    }
    /* not available happens before any data moved, on every rank alike */

fallback:
    mca_coll_scc_count(m, SCC_COLL_ALLTOALLV, SCC_ALG_FALLBACK);
    return m->prev_alltoallv.fn(sbuf, scounts, sdispls, sdtype, rbuf, rcounts, rdispls, rdtype,
                                comm, m->prev_alltoallv.module);
}
