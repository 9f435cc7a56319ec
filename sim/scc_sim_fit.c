/* scc_sim_fit.c: Nelder-Mead simplex minimisation (no derivatives needed: each point is a simulation). */
#include <math.h>
#include <string.h>

#include "scc_sim_fit.h"

#define MAXD 8

double scc_sim_minimize(double (*f)(const double *x, void *arg), void *arg, double *x,
                        const double *step, int dim, int max_evals, double tol)
{
    double v[MAXD + 1][MAXD], fv[MAXD + 1], c[MAXD], xr[MAXD], xe[MAXD];
    int evals = 0;

    if (dim < 1 || dim > MAXD) {
        return NAN;
    }
    for (int i = 0; i <= dim; ++i) {
        memcpy(v[i], x, sizeof(double) * dim);
        if (i > 0) {
            v[i][i - 1] += step[i - 1];
        }
        fv[i] = f(v[i], arg);
        evals++;
    }
    while (evals < max_evals) {
        int hi = 0, lo = 0, nh;
        double fr;
        for (int i = 1; i <= dim; ++i) {
            if (fv[i] > fv[hi]) {
                hi = i;
            }
            if (fv[i] < fv[lo]) {
                lo = i;
            }
        }
        nh = lo;
        for (int i = 0; i <= dim; ++i) {
            if (i != hi && fv[i] > fv[nh]) {
                nh = i;
            }
        }
        if (fabs(fv[hi] - fv[lo]) <= tol * (fabs(fv[lo]) + 1e-12)) {
            break;
        }
        for (int j = 0; j < dim; ++j) {
            c[j] = 0;
            for (int i = 0; i <= dim; ++i) {
                if (i != hi) {
                    c[j] += v[i][j] / dim;
                }
            }
            xr[j] = c[j] + (c[j] - v[hi][j]);
        }
        fr = f(xr, arg);
        evals++;
        if (fr < fv[lo]) {
            double fe;
            for (int j = 0; j < dim; ++j) {
                xe[j] = c[j] + 2.0 * (c[j] - v[hi][j]);
            }
            fe = f(xe, arg);
            evals++;
            if (fe < fr) {
                memcpy(v[hi], xe, sizeof(double) * dim);
                fv[hi] = fe;
            } else {
                memcpy(v[hi], xr, sizeof(double) * dim);
                fv[hi] = fr;
            }
        } else if (fr < fv[nh]) {
            memcpy(v[hi], xr, sizeof(double) * dim);
            fv[hi] = fr;
        } else {
            /* contract toward the better of the reflected and the worst point */
            double fc;
            int outside = fr < fv[hi];
            for (int j = 0; j < dim; ++j) {
                xe[j] = outside ? c[j] + 0.5 * (xr[j] - c[j]) : c[j] + 0.5 * (v[hi][j] - c[j]);
            }
            fc = f(xe, arg);
            evals++;
            if (fc < (outside ? fr : fv[hi])) {
                memcpy(v[hi], xe, sizeof(double) * dim);
                fv[hi] = fc;
            } else {
                for (int i = 0; i <= dim; ++i) {
                    if (i == lo) {
                        continue;
                    }
                    for (int j = 0; j < dim; ++j) {
                        v[i][j] = v[lo][j] + 0.5 * (v[i][j] - v[lo][j]);
                    }
                    fv[i] = f(v[i], arg);
                    evals++;
                }
            }
        }
    }
    {
        int lo = 0;
        for (int i = 1; i <= dim; ++i) {
            if (fv[i] < fv[lo]) {
                lo = i;
            }
        }
        memcpy(x, v[lo], sizeof(double) * dim);
        return fv[lo];
    }
}
