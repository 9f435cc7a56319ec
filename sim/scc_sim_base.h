/* scc_sim_base.h: baseline schedules of the simulator (not component algorithms): linear, binomial, pairwise. */
#ifndef SCC_SIM_BASE_H
#define SCC_SIM_BASE_H

#include "coll_scc_sched.h"

/* Linear, as RCCE's collectives are (seeds/003 §4.4): the root sends the whole
 * message to each rank in turn, or receives and reduces each rank's message in
 * rank order; allreduce is that reduce then that bcast; the barrier gathers a
 * flag from every rank, then releases each.  One message per block. */
int scc_sim_linear_bcast(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks);
int scc_sim_linear_reduce(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks);
int scc_sim_linear_allreduce(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks);
int scc_sim_linear_barrier(scc_sched_t *s, int n, int rank, int root);
/* every rank sends to and receives from every other in rank order 0..n-1 */
int scc_sim_linear_alltoall(scc_sched_t *s, int n, int rank);

/* Binomial trees (MPICH / RCKMPI defaults): children largest subtree first,
 * one message per block and child, pipelined block by block. */
int scc_sim_binomial_bcast(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks);
int scc_sim_binomial_reduce(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks);
int scc_sim_binomial_allreduce(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks);
int scc_sim_binomial_barrier(scc_sched_t *s, int n, int rank, int root);
/* pairwise exchange: in round i send to rank+i, receive from rank-i */
int scc_sim_pairwise_alltoall(scc_sched_t *s, int n, int rank);

#endif /* SCC_SIM_BASE_H */
