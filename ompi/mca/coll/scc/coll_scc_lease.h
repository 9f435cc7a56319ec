/* coll_scc_lease.h: large buffers lent for a call.
 *
 * What a call needs beyond a few kilobytes (scratch, copies of messages, a block read from
 * another process) is lent for the call from buffers the process keeps over all its
 * communicators, and given back when the call ends: memory then grows with the calls in
 * flight, not with the number of communicators that once moved a large message, and a
 * buffer's pages, touched once, serve every communicator after it.  Pure C; thread-safe. */
#ifndef MCA_COLL_SCC_LEASE_H
#define MCA_COLL_SCC_LEASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Up to this many bytes a buffer is better kept by its owner (no lock, no search). */
#define SCC_LEASE_MIN 4096

/* A buffer of at least `bytes` (*got: its size), NULL where memory is missing. */
void *scc_lease(size_t bytes, size_t *got);
/* Gives back a buffer scc_lease lent (got: the size it said). */
void scc_unlease(void *p, size_t got);
/* *buf (of *cap bytes) made to hold len bytes (what it held is not kept): its owner's up to
 * SCC_LEASE_MIN, beyond that lent (scc_lease_end gives it back); false where memory is
 * missing (*buf and *cap as they were). */
bool scc_lease_room(void **buf, size_t *cap, size_t len);
/* The call's end for such a buffer: a lent one goes back (*buf NULL, *cap 0). */
void scc_lease_end(void **buf, size_t *cap);

/* The component's end: frees the buffers kept; how many were lent, and of them new. */
void scc_lease_close(uint64_t *lent, uint64_t *fresh);

#endif /* MCA_COLL_SCC_LEASE_H */
