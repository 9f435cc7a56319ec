/* scc_sim_out.c: formatting of times, sizes and errors, and opening result files. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scc_sim_out.h"

FILE *scc_sim_open(const char *dir, const char *name)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    if (NULL == f) {
        fprintf(stderr, "scc_sim: cannot write %s\n", path);
    }
    return f;
}

static void sig3(double v, const char *unit, char *buf, size_t len)
{
    if (v >= 100) {
        snprintf(buf, len, "%.0f %s", v, unit);
    } else if (v >= 10) {
        snprintf(buf, len, "%.1f %s", v, unit);
    } else {
        snprintf(buf, len, "%.2f %s", v, unit);
    }
}

const char *scc_sim_fmt_time(double ns, char *buf, size_t len)
{
    if (!isfinite(ns)) {
        snprintf(buf, len, "-");
    } else if (ns >= 1e6) {
        sig3(ns / 1e6, "ms", buf, len);
    } else if (ns >= 1e3) {
        sig3(ns / 1e3, "us", buf, len);
    } else {
        sig3(ns, "ns", buf, len);
    }
    return buf;
}

const char *scc_sim_fmt_bytes(double b, char *buf, size_t len)
{
    double r;
    if (b >= 1048576 && 0 == fmod(b, 1048576)) {
        snprintf(buf, len, "%.0f MiB", b / 1048576);
    } else if (b >= 1024 && 0 == fmod(b, 1024)) {
        snprintf(buf, len, "%.0f KiB", b / 1024);
    } else if (b >= 1e6) {
        r = b / 1e6;
        snprintf(buf, len, "%.3g MB", r);
    } else if (b >= 1e3 && 0 == fmod(b, 1000)) {
        snprintf(buf, len, "%.0f kB", b / 1e3);
    } else {
        snprintf(buf, len, "%.0f B", b);
    }
    return buf;
}

const char *scc_sim_fmt_err(double pred, double meas, char *buf, size_t len)
{
    if (!isfinite(pred) || !isfinite(meas) || meas <= 0) {
        snprintf(buf, len, "-");
    } else {
        snprintf(buf, len, "%+.0f%%", 100.0 * (pred / meas - 1.0));
    }
    return buf;
}
