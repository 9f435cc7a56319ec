/* coll_scc_xport_pml.h: the pml's point-to-point messages (coll_scc_xport_pml.c) -- the pml
 * transport's operations, and the slot engine's for peers on other nodes; private to the
 * transports' files (the executor reaches them through the operations table). */
#ifndef MCA_COLL_SCC_XPORT_PML_H
#define MCA_COLL_SCC_XPORT_PML_H

#include "coll_scc_xport.h"

BEGIN_C_DECLS

int scc_pml_send(scc_xport_t *x, const void *buf, size_t len, int nreaders, const int *readers);
/* Several nodes: the readers on other nodes get the message over the pml; returns how many
 * readers are on this node (the slot's share), or a negative error. */
int scc_pml_send_remote(scc_xport_t *x, const void *buf, size_t len, int nreaders,
                        const int *readers);
int scc_pml_recv(scc_xport_t *x, int peer, void *buf, size_t len);
int scc_pml_recv_reduce(scc_xport_t *x, int peer, void *target, const void *input, size_t count,
                        struct ompi_datatype_t *dtype, struct ompi_op_t *op);
void scc_pml_end(scc_xport_t *x);
/* The pml's part of scc_xport_shape_stuck (coll_scc_xport.c): a first message of the call
 * has come over the pml saying another shape than mine (x->met then holds it; the message
 * is taken).  Room for the shape messages of broadcasts, at attach. */
bool scc_pml_shape_probe(scc_xport_t *x);
int scc_pml_shape_alloc(scc_xport_t *x);
/* The pml's receives posted ahead (its ops' post, wait_one and cancel; shm's too, for the
 * peers on other nodes). */
int scc_pml_post(scc_xport_t *x, int peer, void *buf, size_t len);
int scc_pml_complete(scc_xport_t *x, int slot, int peer, size_t len, void *target,
                     const void *input, size_t count, struct ompi_datatype_t *dtype,
                     struct ompi_op_t *op);
void scc_pml_cancel(scc_xport_t *x, int slot);

END_C_DECLS

#endif /* MCA_COLL_SCC_XPORT_PML_H */
