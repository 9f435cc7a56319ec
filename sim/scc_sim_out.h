/* scc_sim_out.h: small helpers for the experiments' output files (markdown, gnuplot data). */
#ifndef SCC_SIM_OUT_H
#define SCC_SIM_OUT_H

#include <stdio.h>

/* Opens dir/name for writing; prints why on failure. */
FILE *scc_sim_open(const char *dir, const char *name);
/* A time in ns as "12.3 us" / "4.56 ms" / "789 ns" (3 significant digits). */
const char *scc_sim_fmt_time(double ns, char *buf, size_t len);
/* A byte count as "8 B" / "2 KiB" / "1.9 MB" as the seeds write them. */
const char *scc_sim_fmt_bytes(double b, char *buf, size_t len);
/* A signed percentage "+12%" of pred/meas - 1. */
const char *scc_sim_fmt_err(double pred, double meas, char *buf, size_t len);

#endif /* SCC_SIM_OUT_H */
