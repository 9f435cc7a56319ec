/* coll_scc_members.h: what the layers under the executor know of a communicator -- its
 * members, its name in messages, how they agree at setup, where they sit and the running
 * call -- filled by the module (coll_scc_module_members.c) and passed down, so that no
 * transport, topology or agreement code reads the module: data flows down only. */
#ifndef MCA_COLL_SCC_MEMBERS_H
#define MCA_COLL_SCC_MEMBERS_H

#include <stdbool.h>
#include <stdint.h>

#include "coll_scc_select.h"

struct ompi_communicator_t;
struct ompi_datatype_t;
struct ompi_op_t;
struct scc_topo;

/* How the members tell each other things at setup; the module does it through the
 * fallback (inside a task with its nonblocking functions, so that a setup a nonblocking
 * call starts never blocks progress).  Each returns an MPI error code. */
typedef struct scc_members_ops {
    int (*allreduce)(void *owner, const void *mine, void *all, struct ompi_datatype_t *dt,
                     struct ompi_op_t *op);
    int (*allgather)(void *owner, const void *mine, void *all, int bytes);
    int (*bcast)(void *owner, void *buf, int bytes, int root);
    /* 0 during setup, else the number of the running call from 1 (fault injection) */
    uint64_t (*call)(const void *owner);
} scc_members_ops_t;

typedef struct scc_members {
    struct ompi_communicator_t *comm;
    int rank, size;
    unsigned cid;                       /* for messages, with name */
    const char *name;
    struct scc_topo *topo;              /* where they sit (coll_scc_topo.c builds it) */
    /* the running call as the entry points picked it (diagnostics only: the strict
       checker's and the drain's messages) */
    const scc_coll_t *cur_coll;
    const scc_alg_t *cur_alg;
    const scc_members_ops_t *ops;
    void *owner;                        /* what ops act on (the module, opaque here) */
} scc_members_t;

#endif /* MCA_COLL_SCC_MEMBERS_H */
