/* coll_scc_xport_pool.h: the slot pages a process keeps over all its communicators.
 *
 * A shm region's control lines are taken at attach; its slots' pages only when a message
 * first needs them (a memfd takes pages as they are touched).  The pool keeps the slots of
 * at most coll_scc_shm_resident bytes of a process's communicators that way: a communicator
 * whose slots are wanted again gives the pages of the one least recently used back to the
 * kernel, once every reader of that one's slots acknowledged them.  The acknowledgements a
 * process owes on one communicator are settled at its next call on another, so that a
 * communicator left idle becomes free.  Memory then grows with the processes, not with the
 * number of communicators: control lines per communicator, at most the budget of slots per
 * process.
 */
#ifndef MCA_COLL_SCC_XPORT_POOL_H
#define MCA_COLL_SCC_XPORT_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coll_scc_compat.h"

BEGIN_C_DECLS

struct scc_xport;

/* Puts x's slots (bytes at slots, page-aligned, in my region) under the pool: x->cold
 * until a message needs them.  Nothing happens when the budget is 0 (no bound). */
void scc_pool_add(struct scc_xport *x, char *slots, size_t bytes);
/* Takes x out of the pool (detach), whatever state its slots are in. */
void scc_pool_remove(struct scc_xport *x);

/* x is about to write a message into its slots: they count against the budget again, and
 * the least recently used communicators give theirs back as far as the budget needs. */
void scc_pool_warm(struct scc_xport *x);

/* The slow paths of a call's begin (another thread's trim, a budget to keep, what this
 * process owes on the communicator it used before) and end (threads), for scc_pool_enter and
 * scc_pool_leave (coll_scc_xport.h).  Only for pooled transports. */
void scc_pool_begin(struct scc_xport *x);
void scc_pool_end(struct scc_xport *x);
extern struct scc_xport *scc_pool_owing;
extern int scc_pool_retry;

/* MPI_THREAD_MULTIPLE as MPI_Init gave it (mca_coll_scc_init_query): calls of several threads
 * at once.  Not Open MPI's own flag, which MPI_T_init_thread sets again to the level it is
 * asked for (a program that initializes the tools interface at MPI_THREAD_SINGLE after
 * MPI_Init_thread would turn the transports' locks off while its threads call). */
extern bool mca_coll_scc_threads;

/* Times x's slot pages went back to the kernel for another communicator's. */
uint64_t scc_pool_given_back(const struct scc_xport *x);

/* Bytes of slots the pool keeps at most per process (coll_scc_shm_resident) and has now. */
size_t scc_pool_budget(void);
size_t scc_pool_warm_bytes(void);

END_C_DECLS

#endif /* MCA_COLL_SCC_XPORT_POOL_H */
