/* test_sim_cc.c: the cache-coherent preset -- seeds/004's Table B.2 and bcast optima reproduced,
 * and the engine on cases computed by hand. */
#include <math.h>
#include <string.h>

#include "scc_sim_cc_coll.h"
#include "unit.h"

#ifndef SCC_CC_PARAMS_DIR
#define SCC_CC_PARAMS_DIR "sim/params"
#endif

/* seeds/004 Table B.2 (004 L1216-1282; notes/seed-002-004.md B.9.5): the barrier's m. */
static int table_b2(int n)
{
    static const struct { int lo, hi, m; } rows[] = {
        { 2, 2, 1 }, { 3, 4, 2 }, { 5, 9, 3 }, { 10, 16, 4 }, { 17, 25, 5 }, { 26, 27, 3 },
        { 28, 36, 6 }, { 37, 60, 4 }
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
        if (n >= rows[i].lo && n <= rows[i].hi) {
            return rows[i].m;
        }
    }
    return -1;
}

static double run(const scc_cc_params_t *p, int alg, int n, int pk, double bytes, int radix)
{
    scc_cc_case_t c;
    scc_cc_out_t o;

    memset(&c, 0, sizeof(c));
    c.alg = alg;
    c.n = n;
    c.packages = pk;
    c.bytes = bytes;
    c.radix = radix;
    if (0 != scc_cc_run(p, &c, &o) || o.failed) {
        return NAN;
    }
    return o.t;
}

static int near(double a, double b)
{
    return fabs(a - b) < 1e-6 * (fabs(b) + 1);
}

static void check_b2(const scc_cc_params_t *phi, const scc_cc_params_t *sb)
{
    scc_cc_params_t flat = *phi;

    /* Eq. 4.11's argmin is the table, with either machine's R_L, R_R (Tables 1.5b, 1.8) */
    for (int n = 2; n <= 60; ++n) {
        int mp = scc_cc_barrier_best_m(n, phi->r[SCC_CC_E][SCC_CC_SELF],
                                       phi->r[SCC_CC_E][SCC_CC_PKG]);
        int ms = scc_cc_barrier_best_m(n, sb->r[SCC_CC_E][SCC_CC_SELF],
                                       sb->r[SCC_CC_E][SCC_CC_PKG]);
        CHECK(mp == table_b2(n), "n %d: Eq. 4.11 (Xeon Phi) gives m %d, Table B.2 %d", n, mp,
              table_b2(n));
        CHECK(ms == table_b2(n), "n %d: Eq. 4.11 (Sandy Bridge) gives m %d, Table B.2 %d", n, ms,
              table_b2(n));
    }
    /* the notes' anchors (B.10): 3318 ns at n = 30 (m = 6), 3563 at n = 60 (m = 4) */
    CHECK(near(scc_cc_barrier_eq411(30, 6, 8.6, 235.8), 3318.4), "n 30");
    CHECK(near(scc_cc_barrier_eq411(60, 4, 8.6, 235.8), 3562.8), "n 60");
    CHECK(scc_cc_clog(60, 4) == 3 && scc_cc_clog(27, 3) == 3 && scc_cc_clog(28, 3) == 4, "clog");

    /* the engine replays Fig. 4.3 as Eq. 4.11 counts it when nothing contends: per round
     * R_L (my flag) + m R_R (my peers' flags, M) + R_R (my notifications) */
    for (int d = 0; d < SCC_CC_NDIST; ++d) {
        flat.c[d] = 0;
    }
    {
        const double rl = phi->r[SCC_CC_M][SCC_CC_SELF], rr = phi->r[SCC_CC_M][SCC_CC_PKG];
        double t30 = run(&flat, SCC_CC_BAR_PAPER, 30, 1, 0, 6);
        double t60 = run(&flat, SCC_CC_BAR_PAPER, 60, 1, 0, 4);
        CHECK(near(t30, 2 * (rl + 7 * rr)), "paper barrier n 30: %g", t30);
        CHECK(near(t60, 3 * (rl + 5 * rr)), "paper barrier n 60: %g", t60);
    }
    /* ... for every n and m whose wrapped peers never land on the rank itself (there the
     * engine reads its own line at R_L and is cheaper: ceil(log_m n) rounds are more than
     * the m-way dissemination needs, notes B.9.5 item 3) */
    for (int n = 3; n <= 60; ++n) {
        for (int m = 2; m <= n - 1; ++m) {
            const double rl = phi->r[SCC_CC_M][SCC_CC_SELF], rr = phi->r[SCC_CC_M][SCC_CC_PKG];
            int rounds = scc_cc_clog(n, m), self = 0;
            long long dist = 1;
            double t = run(&flat, SCC_CC_BAR_PAPER, n, 1, 0, m), eq = rounds * (rl + (m + 1) * rr);
            for (int r = 0; r < rounds; ++r, dist *= m + 1) {
                for (int i = 1; i <= m; ++i) {
                    self |= 0 == (i * (dist % n)) % n;
                }
            }
            if (self) {
                CHECK(t < eq, "n %d m %d: %g, Eq. 4.11 %g", n, m, t, eq);
            } else {
                CHECK(near(t, eq), "n %d m %d: %g, Eq. 4.11 %g", n, m, t, eq);
            }
        }
    }
}

static void check_b1(const scc_cc_params_t *phi)
{
    /* Table B.1's legible rows (notes B.9.2) */
    static const int rows[][4] = {
        { 2, 1 }, { 3, 2 }, { 4, 3 }, { 5, 4 }, { 6, 5 }, { 7, 6 }, { 8, 7 }, { 9, 3, 2 },
        { 10, 3, 2 }, { 11, 3, 3 }, { 12, 3, 3 }, { 13, 3, 3 }, { 14, 4, 3 }, { 15, 4, 3 },
        { 16, 4, 3 }, { 17, 4, 3 }, { 18, 4, 4 }, { 19, 4, 4 }, { 20, 4, 4 }, { 22, 5, 4 },
        { 23, 5, 4 }, { 25, 5, 4 }, { 26, 5, 4 }, { 30, 5, 5 }, { 31, 5, 5 }, { 32, 6, 5 },
        { 33, 6, 5 }, { 34, 6, 5 }, { 35, 6, 5 }, { 36, 6, 5 }, { 37, 6, 5 }, { 38, 3, 3, 3 },
        { 39, 3, 3, 3 }, { 40, 3, 3, 3 }, { 41, 4, 3, 2 }, { 42, 6, 6 }, { 43, 6, 6 },
        { 44, 4, 3, 3 }, { 45, 4, 3, 3 }, { 46, 4, 3, 3 }, { 47, 4, 3, 3 }, { 48, 4, 3, 3 },
        { 49, 4, 3, 3 }, { 50, 4, 3, 3 }, { 51, 4, 3, 3 }, { 52, 4, 3, 3 }, { 53, 4, 3, 3 },
        { 54, 4, 4, 3 }, { 55, 4, 4, 3 }, { 56, 4, 4, 3 }, { 57, 4, 4, 3 }, { 58, 4, 4, 3 },
        { 59, 4, 4, 3 }, { 60, 4, 4, 3 }
    };
    /* where the printed parameters (A/B = 3.06) pick the shallower tree: near-ties */
    static const int differ[] = { 9, 38, 39, 40, 41, 44, 45, 46, 47, 48, 49, 50, 54, 55, 56, 57 };
    const int nrows = (int) (sizeof(rows) / sizeof(rows[0]));
    const double ri = phi->r[SCC_CC_I][SCC_CC_SELF], rl = phi->r[SCC_CC_E][SCC_CC_SELF];
    const double rr = phi->r[SCC_CC_E][SCC_CC_PKG], b = phi->b, c = phi->c[SCC_CC_PKG];
    int match = 0, matchv = 0;

    CHECK(54 == nrows, "rows %d", nrows);
    for (int i = 0; i < nrows; ++i) {
        int n = rows[i][0], dt = rows[i][3] ? 3 : (rows[i][2] ? 2 : 1), k[4], kv[4];
        int d = scc_cc_sbcast_best(n, ri, rl, rr, b, c, 1, k);
        int dv = scc_cc_sbcast_best(n, ri, rl, rr, b, c, 0, kv);
        int ok = d == dt, okv = dv == dt, expect = 1;
        for (int j = 0; j < dt; ++j) {
            ok = ok && k[j] == rows[i][1 + j];
            okv = okv && kv[j] == rows[i][1 + j];
        }
        for (size_t j = 0; j < sizeof(differ) / sizeof(differ[0]); ++j) {
            expect = expect && differ[j] != n;
        }
        CHECK(ok == expect, "n %d: Eq. B.1 gives depth %d (%d,%d,%d)", n, d, k[0],
              d > 1 ? k[1] : 0, d > 2 ? k[2] : 0);
        CHECK(okv, "n %d: Eq. B.1 with T_nb(k_i) gives depth %d", n, dv);
        match += ok;
        matchv += okv;
    }
    CHECK(38 == match && 54 == matchv, "B.1: %d and %d of 54 rows", match, matchv);
    /* the text's optima (004 L942) */
    {
        int k[4], d = scc_cc_sbcast_best(30, ri, rl, rr, b, c, 1, k);
        CHECK(2 == d && 5 == k[0] && 5 == k[1], "n 30");
        d = scc_cc_sbcast_best(60, ri, rl, rr, b, c, 1, k);
        CHECK(3 == d && 4 == k[0] && 4 == k[1] && 3 == k[2], "n 60");
    }
}

/* The engine on the Sandy Bridge preset, by hand. */
static void check_engine(const scc_cc_params_t *sb)
{
    const double rl = 2.3, rp = 41.6, rx = 115.4, c = 7.8, o = 20.1, pp = 158.4;
    double t, f1;
    scc_cc_params_t q = *sb;

    CHECK(near(sb->r[SCC_CC_M][SCC_CC_SELF], rl) && near(sb->r[SCC_CC_M][SCC_CC_PKG], rp)
          && near(sb->c[SCC_CC_PKG], c) && near(sb->o[SCC_CC_PKG], o)
          && near(sb->p[SCC_CC_PKG], pp) && near(sb->copy_line, rl), "preset moved");
    /* 8 bytes ride in the flag's line: the root sets it, the reader fetches it (M) */
    t = run(sb, SCC_CC_BC_DIRECT, 2, 1, 8, 0);
    CHECK(near(t, rl + rp), "one line: %g", t);
    t = run(sb, SCC_CC_BC_DIRECT, 2, 2, 8, 0);
    CHECK(near(t, rl + rx), "one line across packages: %g", t);
    /* seven readers of one line: c per extra reader */
    t = run(sb, SCC_CC_BC_DIRECT, 8, 1, 8, 0);
    CHECK(near(t, rl + rp + 6 * c), "seven readers: %g", t);
    /* 4 KiB = 64 lines: the root copies them into its slot, the reader pulls them */
    f1 = 64 * rl + rl + rp;
    t = run(sb, SCC_CC_BC_DIRECT, 2, 1, 4096, 0);
    CHECK(near(t, f1 + 64 * o + pp * 64 / 65), "64 lines: %g", t);
    /* two readers: the second a c later; seven: the source serves c per line and reader */
    t = run(sb, SCC_CC_BC_DIRECT, 3, 1, 4096, 0);
    CHECK(near(t, f1 + c + 64 * o + pp * 64 / 65), "64 lines, two readers: %g", t);
    t = run(sb, SCC_CC_BC_DIRECT, 8, 1, 4096, 0);
    CHECK(near(t, f1 + c + 6 * 64 * c), "64 lines, seven readers: %g", t);
    /* seeds/004's flat-tree form: c once per extra reader */
    q.cont_per_line = 0;
    t = run(&q, SCC_CC_BC_DIRECT, 8, 1, 4096, 0);
    CHECK(near(t, f1 + 6 * c + 64 * o + pp * 64 / 65), "flat-tree form: %g", t);
    /* the component's 2-way dissemination on 4: two rounds of a flag each */
    t = run(sb, SCC_CC_BAR_DISSEM, 4, 1, 0, 1);
    CHECK(near(t, 2 * (rl + rp)), "dissemination: %g", t);
    /* radix n - 1: one round, n - 1 flags read one after another, each read by n - 1 */
    t = run(sb, SCC_CC_BAR_DIRECT, 4, 1, 0, 0);
    CHECK(t >= rl + 3 * rp - 1e-9 && t <= rl + 3 * rp + 2 * c + 1e-9, "direct barrier: %g", t);
    /* tuned's binomial, point to point: on 3 the root's two copies go in turn (the second
     * reader waits for the second); on 4 rank 1 forwards to 3 */
    t = run(sb, SCC_CC_BC_BINOMIAL, 3, 1, 8, 0);
    CHECK(near(t, 2 * rl + rp), "binomial on 3, point to point: %g", t);
    t = run(sb, SCC_CC_BC_BINOMIAL, 4, 1, 8, 0);
    CHECK(near(t, 2 * rl + 2 * rp), "binomial on 4, point to point: %g", t);
    /* every schedule completes at 8 .. 256 on one and two packages */
    for (int a = 0; a < SCC_CC_ALG_COUNT; ++a) {
        static const int ns[] = { 2, 3, 8, 13, 48, 64, 256 };
        for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); ++i) {
            for (int pk = 1; pk <= 2; ++pk) {
                double bytes = scc_cc_alg_coll(a) == SCC_COLL_BARRIER ? 0 : 300000;
                if (SCC_CC_BC_DOPL == a && (1 == pk || ns[i] % 2)) {
                    continue;   /* no domains grid */
                }
                t = run(sb, a, ns[i], pk, bytes, 3);
                CHECK(!isnan(t) && t > 0, "%s on %d, %d packages", scc_cc_alg_name(a), ns[i], pk);
            }
        }
    }
}

int main(void)
{
    scc_cc_params_t sb, phi;

    scc_cc_params_default(&sb);
    scc_cc_params_default(&phi);
    if (0 != scc_cc_params_load(&sb, SCC_CC_PARAMS_DIR "/sandybridge.conf")
        || 0 != scc_cc_params_load(&phi, SCC_CC_PARAMS_DIR "/xeonphi.conf")) {
        return 1;
    }
    check_b2(&phi, &sb);
    check_b1(&phi);
    check_engine(&sb);
    return unit_finish("test_sim_cc");
}
