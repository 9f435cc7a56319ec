/* coll_scc_bcast.c: MPI_Bcast: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"
#include "coll_scc_flat.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_bcast(void *buff, int count, struct ompi_datatype_t *dtype, int root,
                       struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    size_t dtsize, bytes;
    ptrdiff_t lb;
    char *data;
    scc_alg_t alg;
    int rc;

    if (OPAL_UNLIKELY(!mca_coll_scc_ready(m, comm))) {
        goto fallback;
    }
    ompi_datatype_type_size(dtype, &dtsize);
    bytes = dtsize * (size_t) count;
    alg = mca_coll_scc_pick(m, SCC_COLL_BCAST, bytes);
    if (SCC_ALG_FLAT != alg) {
        goto fallback;
    }
    mca_coll_scc_count(m, SCC_COLL_BCAST, alg);
    if (0 == bytes) {
        return OMPI_SUCCESS;
    }
    if (scc_dtype_contig(dtype, (size_t) count, &lb)) {
        return mca_coll_scc_bcast_flat(m, (char *) buff + lb, bytes, root);
    }
    /* non-contiguous: move packed bytes */
    data = mca_coll_scc_scratch(m, 0, bytes);
    if (NULL == data) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    if (m->rank == root && OMPI_SUCCESS != (rc = scc_dtype_pack(buff, count, dtype, data, bytes))) {
        return rc;
    }
    rc = mca_coll_scc_bcast_flat(m, data, bytes, root);
    if (OMPI_SUCCESS == rc && m->rank != root) {
        rc = scc_dtype_unpack(buff, count, dtype, data, bytes);
    }
    return rc;

fallback:
    mca_coll_scc_count(m, SCC_COLL_BCAST, SCC_ALG_FALLBACK);
    return m->prev_bcast.fn(buff, count, dtype, root, comm, m->prev_bcast.module);
}
