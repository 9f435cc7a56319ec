/* coll_scc_bcast.c: MPI_Bcast: choose an algorithm, or hand the call to the fallback. */
#include "coll_scc.h"
#include "coll_scc_flat.h"

#include "ompi/datatype/ompi_datatype.h"

int mca_coll_scc_bcast(void *buff, int count, struct ompi_datatype_t *dtype, int root,
                       struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_scc_module_t *m = (mca_coll_scc_module_t *) module;
    size_t dtsize, bytes;
    bool packed = false;
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
    /* the root reads its data, the others write theirs */
    if (m->rank == root) {
        data = (char *) scc_view_in(m, buff, (size_t) count, dtype, bytes);
    } else {
        data = scc_view_out(m, buff, (size_t) count, dtype, bytes, &packed);
    }
    if (NULL == data) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    rc = mca_coll_scc_bcast_flat(m, data, bytes, root);
    if (OMPI_SUCCESS == rc) {
        rc = scc_view_out_done(buff, (size_t) count, dtype, data, bytes, packed);
    }
    return rc;

fallback:
    mca_coll_scc_count(m, SCC_COLL_BCAST, SCC_ALG_FALLBACK);
    return m->prev_bcast.fn(buff, count, dtype, root, comm, m->prev_bcast.module);
}
