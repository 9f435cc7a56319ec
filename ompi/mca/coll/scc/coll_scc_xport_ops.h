/* coll_scc_xport_ops.h: a transport as the executor sees it -- an operations table over an
 * opaque state, with capability bits.  shm (coll_scc_xport_shm.c), the emulated or real
 * SCC message-passing buffers (coll_scc_xport_mpb.c) and the pml (coll_scc_xport_pml.c)
 * each fill one; coll_scc_xport.c picks one at attach and the executor calls through it
 * (one indirect call per message, never per byte). */
#ifndef MCA_COLL_SCC_XPORT_OPS_H
#define MCA_COLL_SCC_XPORT_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coll_scc_members.h"

struct scc_xport;
struct scc_msg_hdr;
struct ompi_datatype_t;
struct ompi_op_t;

/* Capabilities: what a transport can do (scc_xport_ops_t.caps) and what one attachment
 * does (scc_xport_t.caps, agreed by every member at attach). */
#define SCC_XPORT_CAP_SHARED 0x1u       /* every member's buffers mapped here: direct reads,
                                           flag lines and slot lists work */
#define SCC_XPORT_CAP_SINGLE_COPY 0x2u  /* a reader copies from the sender's own memory */
#define SCC_XPORT_CAP_PML 0x4u          /* some peers (all, for the pml) are reached over the
                                           pml: receives may be posted ahead of their steps */

typedef struct scc_xport_ops {
    const char *name;                   /* its value of coll_scc_transport */
    unsigned caps;                      /* SCC_XPORT_CAP_*: what it can do */
    /* fills the state for mb's communicator, the same outcome on every member (after a
       failure the caller calls detach when the state's ops are set) */
    int (*attach)(struct scc_xport *x, const scc_members_t *mb);
    void (*detach)(struct scc_xport *x);
    /* publish/send: len bytes of buf as message tag for nreaders readers (readers: who,
       where the transport needs to know); stable: buf unchanged until end */
    int (*send)(struct scc_xport *x, uint32_t tag, const void *buf, size_t len, int nreaders,
                bool stable, const int *readers);
    /* read/recv: message tag of peer into buf, len bytes expected */
    int (*recv)(struct scc_xport *x, int peer, uint32_t tag, void *buf, size_t len);
    /* combine-in: target = message op (input ? input : target), count elements */
    int (*recv_reduce)(struct scc_xport *x, int peer, uint32_t tag, void *target,
                       const void *input, size_t count, struct ompi_datatype_t *dtype,
                       struct ompi_op_t *op);
    /* expose: len bytes at buf as message tag for nreaders single-copy readers (and extra
       beside it); read: bytes [off, off + len) of such a message (its header h) of peer.
       NULL without SCC_XPORT_CAP_SINGLE_COPY. */
    int (*expose)(struct scc_xport *x, uint32_t tag, const void *buf, size_t len,
                  int nreaders, const void *extra, size_t extra_len);
    int (*read)(struct scc_xport *x, int peer, const struct scc_msg_hdr *h, size_t off,
                void *dst, size_t len);
    /* flush: ends a call -- readers done with my memory, acks settled, sends completed;
       returns the call's failure here (0: none) */
    int (*end)(struct scc_xport *x);
    /* receives posted ahead of their steps (NULL without SCC_XPORT_CAP_PML): post returns
       a handle or -1 (then receive in the step); wait_one waits for that one, checks its
       length and with target combines it in as recv_reduce; cancel drops it */
    int (*post)(struct scc_xport *x, int peer, void *buf, size_t len);
    int (*wait_one)(struct scc_xport *x, int handle, int peer, size_t len, void *target,
                    const void *input, size_t count, struct ompi_datatype_t *dtype,
                    struct ompi_op_t *op);
    void (*cancel)(struct scc_xport *x, int handle);
} scc_xport_ops_t;

extern const scc_xport_ops_t mca_coll_scc_xport_shm_ops;
extern const scc_xport_ops_t mca_coll_scc_xport_mpb_ops;
extern const scc_xport_ops_t mca_coll_scc_xport_pml_ops;

#endif /* MCA_COLL_SCC_XPORT_OPS_H */
