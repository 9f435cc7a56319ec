/* scc_sim_pichler.h: seeds/000's tuning tables, the model's runs of their cells, and the DOPL calibration. */
#ifndef SCC_SIM_PICHLER_H
#define SCC_SIM_PICHLER_H

#include <stdio.h>

#include "scc_sim_params.h"

/* seeds/000 §4.2 and §4.3 (notes/seed-000-pichler.md): minimum times in
 * seconds, 48 cores, root 0; NAN where the block is larger than the message. */
#define PICH_NS 3    /* message sizes */
#define PICH_ND 6    /* DOPL chunk sizes */
#define PICH_NC 12   /* Cube block sizes */
extern const double pich_sizes[PICH_NS];
extern const int pich_dopl_pipe[PICH_ND];
extern const double pich_dopl_meas[PICH_ND][PICH_NS];
extern const int pich_cube_part[PICH_NC];
extern const double pich_cube_meas[PICH_NC][PICH_NS];
#define PICH_CUBE_CHOSEN 7   /* 4096, the thesis's choice */
#define PICH_DOPL_CHOSEN 2   /* 2048 */

/* Runs longer than this many blocks are extrapolated (checked in the report);
 * the fit's many runs use shorter ones. */
#define PICH_MAX_BLOCKS 512
#define PICH_FIT_MAX_BLOCKS 128

/* How the Cube cells run: which schedule, whether sends block, who is timed. */
typedef struct pich_cube {
    int alg;       /* SCC_ALG_JIA: the component's, in RCCE's order; or SCC_SIM_THESIS_CUBE(_NOROOT) */
    int blocking;  /* RCCE_send returns once the reader consumed the message */
    int at_last;   /* timed when the last rank is done (the thesis timed the root) */
} pich_cube_t;
extern const pich_cube_t pich_cube_preset;

typedef struct pich_table {
    double dopl[PICH_ND][PICH_NS];   /* seconds */
    double cube[PICH_NC][PICH_NS];
    int failed;
} pich_table_t;

/* Errors of a model table against the thesis's cells: rms of the log error,
 * the range of the relative error, how many cells lie within +-25%. */
typedef struct pich_errs {
    double rms, lo, hi;
    int n, in25;
} pich_errs_t;

/* The RCCE barrier in the DOPL timing: rank 0 reads every rank's flag, then
 * writes every release flag (seeds/003 §4.4). */
double pich_rcce_barrier(const scc_sim_params_t *p, int n);
/* One cell, ns: DOPL timed as the thesis did (last rank + barrier), Cube as how says. */
double pich_dopl_time(const scc_sim_params_t *p, double bytes, int pipe, long maxb, int *failed);
double pich_cube_time(const scc_sim_params_t *p, double bytes, int part, long maxb, int *failed,
                      const pich_cube_t *how);
void pich_eval_dopl(const scc_sim_params_t *p, long maxb, pich_table_t *t);
void pich_eval_cube(const scc_sim_params_t *p, long maxb, const pich_cube_t *how, pich_table_t *t);
pich_errs_t pich_errs(const double m[][PICH_NS], const double (*meas)[PICH_NS], int rows);
/* Cube(4 KB) / DOPL(2 KB) at size s. */
double pich_ratio(const double d[][PICH_NS], const double c[][PICH_NS], int s);

/* Fits the DOPL costs of p in place on the 18 DOPL cells: per-message overhead
 * and per-byte copy cost (each split 1:2 between put and get), miss cost and
 * effective cache, and with free_hop also hop_line_ns.  starts = 2 adds a
 * fixed neutral starting point.  Returns the rms log error. */
double pich_fit_dopl(scc_sim_params_t *p, int starts, int free_hop, int *evals);

/* A markdown table of a model table beside the thesis's, with its errors. */
void pich_write_table(FILE *f, const double m[][PICH_NS], const double (*meas)[PICH_NS], const int *blk,
                      int rows, const char *what);

/* The Cube study of pichler.md ("Why is Cube slow?"): the readings and
 * mechanisms, each calibrated on the DOPL table alone; p is the fitted preset,
 * t its table.  Writes the section to f, the old link reading's fit to
 * dir/scc-fitted-transfer.conf and its table to *transfer.  Returns 0 or -1. */
int pich_cube_study(FILE *f, const scc_sim_params_t *p, const pich_table_t *t, const char *dir,
                    pich_table_t *transfer);

#endif /* SCC_SIM_PICHLER_H */
