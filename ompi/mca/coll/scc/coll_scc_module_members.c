/* coll_scc_module_members.c: the module's side of scc_members_t -- what it passes down to the
 * transports, the topology and the agreements, and the agreements' collectives (the
 * fallback's) that it alone can run. */
#include "coll_scc.h"
#include "coll_scc_members.h"

static int scc_mb_allreduce(void *owner, const void *mine, void *all,
                            struct ompi_datatype_t *dt, struct ompi_op_t *op)
{
    mca_coll_scc_module_t *m = owner;
    return SCC_FALLBACK(m, allreduce, mine, all, 1, dt, op, m->members.comm);
}

static int scc_mb_allgather(void *owner, const void *mine, void *all, int bytes)
{
    mca_coll_scc_module_t *m = owner;
    return SCC_FALLBACK(m, allgather, mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE,
                        m->members.comm);
}

static int scc_mb_bcast(void *owner, void *buf, int bytes, int root)
{
    mca_coll_scc_module_t *m = owner;
    return SCC_FALLBACK(m, bcast, buf, bytes, MPI_BYTE, root, m->members.comm);
}

/* The running call's number: the calls ended so far (the verbose report's counts) + 1. */
static uint64_t scc_mb_call(const void *owner)
{
    const mca_coll_scc_module_t *m = owner;

    return SCC_STATE_ACTIVE != m->state ? 0 : m->ncalls + 1;
}

static const scc_members_ops_t scc_mb_ops = {
    .allreduce = scc_mb_allreduce,
    .allgather = scc_mb_allgather,
    .bcast = scc_mb_bcast,
    .call = scc_mb_call,
};

void mca_coll_scc_members_fill(mca_coll_scc_module_t *m, struct ompi_communicator_t *comm)
{
    m->members = (scc_members_t) {
        .comm = comm,
        .rank = m->rank,
        .size = m->size,
        .cid = m->cid,
        .name = m->name,
        .topo = &m->topo,
        .cur_coll = &m->cur_coll,
        .cur_alg = &m->cur_alg,
        .ops = &scc_mb_ops,
        .owner = m,
    };
}
