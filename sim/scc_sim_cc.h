/* scc_sim_cc.h: a cache-coherent machine (seeds/004, Ramos & Hoefler) that replays the component's step lists. */
#ifndef SCC_SIM_CC_H
#define SCC_SIM_CC_H

#include <stdio.h>

#include "coll_scc_sched.h"

/* A step kind only the simulator's own schedules use: wait until every reader of my
 * message `tag` has taken it, then read the ack line once (seeds/004's barrier "send":
 * set a flag and wait for the readers' notifications on the same line). */
#define SCC_CC_STEP_WAIT 4

/* Distances between two cores. */
enum { SCC_CC_SELF = 0, SCC_CC_PKG, SCC_CC_XPKG, SCC_CC_NDIST };
/* Line states (MESI; Sandy Bridge's F reads as S, notes/seed-002-004 B.4). */
enum { SCC_CC_M = 0, SCC_CC_E, SCC_CC_S, SCC_CC_I, SCC_CC_NSTATE };

/* The preset: every cost in ns (sim/params/sandybridge.conf, xeonphi.conf). */
typedef struct scc_cc_params {
    double r[SCC_CC_NSTATE][SCC_CC_NDIST]; /* a read (or RFO) of a line in that state at
                                              that distance: seeds/004 Tables 1.5, 1.7 */
    double o[SCC_CC_NDIST];   /* multi-line message: ns per line (T_N = o N + q - p/N) */
    double p[SCC_CC_NDIST];   /* its startup term amortised over the lines */
    double q[SCC_CC_NDIST];   /* its fixed term (only the closed forms use it) */
    double c[SCC_CC_NDIST];   /* contention: ns per extra reader of one line */
    double b;                 /* T_C(n) = b + c n intercept (closed forms only) */
    double copy_line;         /* the sender's copy of a line into its slot */
    double red_line;          /* combining one line of operands */
    double line_bytes;        /* cache line */
    double payload;           /* bytes that ride in the flag line with the sequence word */
    double block_bytes;       /* the component's slot: the largest piece of one message */
    double window;            /* slots per sender */
    double pml_o;             /* point-to-point messages: software cost per message on each
                                 side (0: schedules compared alone) */
    double cont_per_line;     /* 1: every data line of a message read by k readers at once
                                 costs c per extra reader (a source serves a line per c);
                                 0: seeds/004's flat-tree form, c per extra reader once */
} scc_cc_params_t;

void scc_cc_params_default(scc_cc_params_t *p);
/* Reads "name = value  # provenance" lines over p; 0 or -1 (with a message). */
int scc_cc_params_load(scc_cc_params_t *p, const char *path);
/* name=value (names as in the files: r_m_pkg, o_xpkg, c_pkg, copy_line, ...) */
int scc_cc_params_assign(scc_cc_params_t *p, const char *nv);
void scc_cc_params_print(const scc_cc_params_t *p, FILE *f);

/* The machine: n cores filled package by package (mpirun's --map-by core). */
typedef struct scc_cc_machine {
    int n, packages;
    int per;                  /* cores per package: ceil(n / packages) */
    int p2p;                  /* point-to-point messages (tuned over the pml): a SEND with k
                                 readers is k copies sent in turn, each read by one reader
                                 (the k-th to arrive takes the k-th), no line shared, no slot */
} scc_cc_machine_t;

static inline int scc_cc_pkg(const scc_cc_machine_t *m, int rank)
{
    return rank / m->per;
}

static inline int scc_cc_dist(const scc_cc_machine_t *m, int a, int b)
{
    return a == b ? SCC_CC_SELF : (scc_cc_pkg(m, a) == scc_cc_pkg(m, b) ? SCC_CC_PKG
                                                                         : SCC_CC_XPKG);
}

/* One replay's outcome. */
typedef struct scc_cc_out {
    double t;                 /* the last rank done */
    double t_rank0;           /* rank 0 (the root) done */
    long messages, reads;
    int failed;               /* deadlock or a message read that no one sends */
} scc_cc_out_t;

/* Replays n step lists (s[r] for rank r) on machine m.  bytes: the whole message the
 * blocks cover (a block is p->block_bytes, the last one shorter; 0 for signals).
 * Returns 0, or -1 when the schedule cannot complete. */
int scc_cc_replay(const scc_cc_params_t *p, const scc_cc_machine_t *m, scc_sched_t *const *s,
                  double block_bytes, double total_bytes, scc_cc_out_t *out);

/* ---- seeds/004's closed forms (Xeon Phi, min models) */

/* Eq. 4.11: r (R_L + m R_R + R_R), r = ceil(log_m n) */
double scc_cc_barrier_eq411(int n, int m, double rl, double rr);
/* argmin over 2 <= m <= n-1 of Eq. 4.11, ties to the smaller m (n = 2: 1) */
int scc_cc_barrier_best_m(int n, double rl, double rr);
/* ceil(log_base n) (0 for n <= 1) */
int scc_cc_clog(long n, long base);
/* Eq. B.1 (min): (d+1) R_I + 2 d R_L + sum (c k_i + b) + sum T_nb(k_i + ack_extra), with
 * T_nb(x) = R_I + (x - 1) R_R; ack_extra 1 as printed, 0 the variant of the notes */
double scc_cc_sbcast_eqb1(const int *k, int d, double ri, double rl, double rr, double b,
                          double c, int ack_extra);
/* The optimal non-increasing fan-outs for n under Eq. B.1 (ties to the shallower tree,
 * then the first found); returns the depth, fills k (up to 4 levels, k_i <= 12). */
int scc_cc_sbcast_best(int n, double ri, double rl, double rr, double b, double c,
                       int ack_extra, int *k);

#endif /* SCC_SIM_CC_H */
