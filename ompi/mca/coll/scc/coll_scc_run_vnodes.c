/* coll_scc_run_vnodes.c: gatherv, scatterv and allgatherv across nodes through the leaders:
 * each part by its own size, the parts end to end in rank order, moved by gather's,
 * scatter's and allgather's hierarchical schedules (parts of their own sizes: at); where one
 * part dwarfs the others (or there are none), the pairwise exchange instead. */
#include <string.h>

#include "coll_scc.h"
#include "coll_scc_run.h"

/* at[i]: where part i starts with the parts of bytes[] end to end in rank order (n + 1
 * entries); returns the largest part.  *direct: the parts already lie so at off[] (a part
 * of no bytes lies anywhere). */
static size_t scc_v_layout(int n, const size_t *bytes, const size_t *off, size_t *at,
                           bool *direct)
{
    size_t most = 0;

    at[0] = 0;
    *direct = true;
    for (int i = 0; i < n; ++i) {
        at[i + 1] = at[i] + bytes[i];
        most = bytes[i] > most ? bytes[i] : most;
        *direct = *direct && (0 == bytes[i] || off[i] == at[i]);
    }
    return most;
}

/* Whether one part dwarfs the others (the largest more than twice the mean): the leaders
 * would pass it through an extra hop for nothing to aggregate, which measured slower than
 * the pairwise exchange straight to its peer (4 MB among 128 KB parts on 2 x 2: gatherv 0.8-3.5
 * against 3.0-9.1 ms, README).  Every rank decides alike from the same sizes. */
static bool scc_v_lopsided(int n, const size_t *at, size_t most)
{
    return 0 == at[n] || most * (size_t) n > 2 * at[n];
}

/* The parts at[] in rank order from buf to (to_user) or from the user's offsets off[] */
static void scc_v_copy(int n, const size_t *at, const size_t *off, char *user, char *buf,
                       bool to_user)
{
    for (int i = 0; i < n; ++i) {
        size_t len = at[i + 1] - at[i];
        if (len > 0) {
            memcpy(to_user ? user + off[i] : buf + at[i], to_user ? buf + at[i] : user + off[i],
                   len);
        }
    }
}

int mca_coll_scc_rootedv_parts(mca_coll_scc_module_t *m, scc_coll_t c, const size_t *bytes,
                               const size_t *off, size_t *at, const char *in, char *out,
                               size_t mine, int root, int *self)
{
    const bool gather = SCC_COLL_GATHERV == c;
    const scc_coll_t cp = gather ? SCC_COLL_GATHER : SCC_COLL_SCATTER;
    const int n = m->size, me = m->rank;
    size_t most = 0, want;
    bool direct = true;
    char *buf = NULL;
    int rc;

    /* only the root knows the sizes: it broadcasts where the parts lie end to end (n
       numbers, the leaders' binomial tree), so that each leader knows its subtree's */
    if (me == root) {
        (void) scc_v_layout(n, bytes, off, at, &direct);
    }
    rc = mca_coll_scc_bcast_sched(m, SCC_ALG_TREE, (char *) (at + 1), (size_t) n * sizeof(*at),
                                  root);
    at[0] = 0;
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    for (int i = 0; i < n; ++i) {
        most = at[i + 1] - at[i] > most ? at[i + 1] - at[i] : most;
    }
    if (scc_v_lopsided(n, at, most)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    want = at[me + 1] - at[me];
    /* (scratch 2: the hierarchical schedules use 0, 1 and the bounce buffer) the root's
       parts end to end where the user's lie otherwise; another rank's part where it is not
       of the size the root says (the caller's error: what fits moves) or has no buffer */
    if (me == root ? !direct : (mine != want || (gather ? NULL == in : NULL == out))) {
        buf = mca_coll_scc_scratch(m, 2, (me == root ? at[n] : want) + 1);
        if (NULL == buf) {
            return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
        }
    }
    if (me != root && mine > want) {
        *self = MPI_ERR_TRUNCATE;
    }
    if (me == root) {
        if (NULL != buf && !gather) {
            scc_v_copy(n, at, off, (char *) in, buf, false);
        }
        rc = mca_coll_scc_rooted_parts_sched(m, cp, SCC_ALG_TREE,
                                             gather ? in : (NULL != buf ? buf : in),
                                             gather ? (NULL != buf ? buf : out) : out, most, at,
                                             root);
        if (OMPI_SUCCESS == rc && NULL != buf && gather) {
            scc_v_copy(n, at, off, out, buf, true);
        }
    } else if (gather) {
        if (NULL != buf && mine > 0) {
            memcpy(buf, in, mine < want ? mine : want);
        }
        rc = mca_coll_scc_rooted_parts_sched(m, cp, SCC_ALG_TREE, NULL != buf ? buf : in, NULL,
                                             most, at, root);
    } else {
        rc = mca_coll_scc_rooted_parts_sched(m, cp, SCC_ALG_TREE, NULL,
                                             NULL != buf ? buf : out, most, at, root);
        if (OMPI_SUCCESS == rc && NULL != buf && mine > 0) {
            memcpy(out, buf, mine < want ? mine : want);
        }
    }
    return rc;
}

int mca_coll_scc_allgatherv_parts(mca_coll_scc_module_t *m, const size_t *bytes,
                                  const size_t *off, size_t *at, const char *in, char *out)
{
    bool direct;
    size_t most = scc_v_layout(m->size, bytes, off, at, &direct);
    char *buf = out;
    int rc;

    if (scc_v_lopsided(m->size, at, most)) {
        return OMPI_ERR_NOT_AVAILABLE;
    }
    /* (scratch 2: allgather's schedules use 0, 1 and the bounce buffer) */
    if (!direct && NULL == (buf = mca_coll_scc_scratch(m, 2, at[m->size] + 1))) {
        return mca_coll_scc_call_failed(m->xp, false, SCC_ERR_NO_MEM, SCC_WHY_SCRATCH);
    }
    rc = mca_coll_scc_allgather_sched(m, SCC_ALG_BRUCK, in, buf, most, at);
    if (OMPI_SUCCESS == rc && !direct) {
        scc_v_copy(m->size, at, off, out, buf, true);
    }
    return rc;
}
