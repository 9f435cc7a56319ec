/* scc_sim_fit.h: least squares by Nelder-Mead, for calibrating model costs to measured tables. */
#ifndef SCC_SIM_FIT_H
#define SCC_SIM_FIT_H

/* Minimises f(x, arg) over x[0..dim-1] from x (which receives the best point),
 * with initial steps step[].  Returns the minimum.  dim <= 8. */
double scc_sim_minimize(double (*f)(const double *x, void *arg), void *arg, double *x,
                        const double *step, int dim, int max_evals, double tol);

#endif /* SCC_SIM_FIT_H */
