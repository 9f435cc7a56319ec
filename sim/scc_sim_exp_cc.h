/* scc_sim_exp_cc.h: the cache-coherent study (seeds/004's tables, scc against tuned). */
#ifndef SCC_SIM_EXP_CC_H
#define SCC_SIM_EXP_CC_H

#include "scc_sim_cc.h"

/* seeds/004 Table B.2: the barrier's m for n = 2..60 (-1 beyond). */
int scc_cc_table_b2(int n);

/* Writes cc.md, cc_table_b2.dat and cc_<preset>_{bcast,barrier,allreduce}.dat into dir.
 * Returns nonzero when Table B.2 does not reproduce or a schedule failed. */
int scc_sim_exp_cc(const scc_cc_params_t *sandybridge, const scc_cc_params_t *xeonphi,
                   const char *dir);

#endif /* SCC_SIM_EXP_CC_H */
