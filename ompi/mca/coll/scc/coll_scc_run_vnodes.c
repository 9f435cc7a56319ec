/* coll_scc_run_vnodes.c: gatherv and scatterv across nodes through the leaders: the parts padded
 * to the largest and moved by gather's and scatter's hierarchical schedules. */
#include <string.h>

#include "coll_scc.h"
#include "coll_scc_run.h"

int mca_coll_scc_rootedv_padded(mca_coll_scc_module_t *m, scc_coll_t c, const size_t *bytes,
                                const size_t *off, const char *in, char *out, size_t mine,
                                int root, int *self)
{
    const bool gather = SCC_COLL_GATHERV == c;
    const int n = m->size, me = m->rank;
    uint64_t most = 0;
    char *pad = NULL, *part;
    int rc;

    /* only the root knows the sizes: it says the largest, or 0 where padding would more
       than double what moves (one broadcast of 8 bytes) */
    if (me == root) {
        size_t sum = 0;
        for (int i = 0; i < n; ++i) {
            most = bytes[i] > most ? bytes[i] : most;
            sum += bytes[i];
        }
        if (0 == sum || most * (uint64_t) n > 2 * (uint64_t) sum) {
            most = 0;
        }
    }
    rc = mca_coll_scc_bcast_sched(m, SCC_ALG_TREE, (char *) &most, sizeof(most), root);
    if (OMPI_SUCCESS != rc || 0 == most) {
        return OMPI_SUCCESS != rc ? rc : OMPI_ERR_NOT_AVAILABLE;
    }
    /* (scratch 2: the hierarchical schedules use 0, 1 and the bounce buffer) */
    pad = mca_coll_scc_scratch(m, 2, (me == root ? (size_t) n : 1) * most + 1);
    if (NULL == pad) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
    }
    if (me != root && mine > most) {
        /* a part larger than the root's largest (the caller's error): what fits moves */
        *self = MPI_ERR_TRUNCATE;
        mine = most;
    }
    if (me == root) {
        part = pad + (size_t) me * most;
        for (int i = 0; !gather && i < n; ++i) {
            if (bytes[i] > 0) {
                memcpy(pad + (size_t) i * most, in + off[i], bytes[i]);
            }
        }
        if (gather && bytes[me] > 0) {
            memcpy(part, in, bytes[me]);
        }
        rc = mca_coll_scc_rooted_parts_sched(m, gather ? SCC_COLL_GATHER : SCC_COLL_SCATTER,
                                             SCC_ALG_TREE, gather ? part : pad,
                                             gather ? pad : NULL, most, root);
        for (int i = 0; gather && OMPI_SUCCESS == rc && i < n; ++i) {
            if (bytes[i] > 0) {
                memcpy(out + off[i], pad + (size_t) i * most, bytes[i]);
            }
        }
        if (!gather && OMPI_SUCCESS == rc && NULL != out && bytes[me] > 0) {
            memcpy(out, part, bytes[me]);
        }
    } else {
        if (gather && mine > 0) {
            memcpy(pad, in, mine);
        }
        rc = mca_coll_scc_rooted_parts_sched(m, gather ? SCC_COLL_GATHER : SCC_COLL_SCATTER,
                                             SCC_ALG_TREE, gather ? pad : NULL,
                                             gather ? NULL : pad, most, root);
        if (!gather && OMPI_SUCCESS == rc && mine > 0) {
            memcpy(out, pad, mine);
        }
    }
    return rc;
}
