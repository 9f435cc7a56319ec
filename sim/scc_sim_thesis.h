/* scc_sim_thesis.h: Pichler's Cube code as the thesis runs it (seeds/000 §10.3), for the simulator only. */
#ifndef SCC_SIM_THESIS_H
#define SCC_SIM_THESIS_H

#include "coll_scc_sched.h"

/* HYPERCUBE_bcast of seeds/000 (appendix 10.3 / 10.6), written from the
 * description in notes/seed-000-pichler.md §2.2-2.5: the same transfers as the
 * component's Jia schedule and, where the component differs, what the thesis's
 * code does:
 *  - the steps of a round in the code's order for blocking RCCE_send/recv: a
 *    one-process unit sends first iff its rank is below its partner's In; a
 *    pair's Out sends, then receives the hand-over; its In receives, then hands
 *    over (power-of-two n: send first iff below the partner);
 *  - with root_recv set, the root's redundant receive: for n not a power of
 *    two the code has no root guard in the one-process branch, so from round q
 *    on the Out of unit 2^(j mod q) sends block j - q to the root, k - 1 extra
 *    transfers on the root's path (§2.5);
 *  - the final exchange skips block k - 2 when k == 1 (the code reads before
 *    the buffer there, §2.5 Bug A; no Cube cell of the thesis has k == 1).
 * One message per rank and round: the tag is the round.  Root 0 in the thesis;
 * other roots are relabelled.  Returns 0 or -1. */
int scc_sim_thesis_cube_bcast(scc_sched_t *s, int n, int rank, int root, uint32_t nblocks,
                              int root_recv);

#endif /* SCC_SIM_THESIS_H */
