/* test_param.c: the rules of the MCA parameters -- ranges, multiples, mpb slots that fit, tree
 * fan-outs, byte thresholds, the nodes' grid -- on good, bad, negative and huge values. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "coll_scc_param.h"
#include "unit.h"

static long fix(scc_param_id_t id, long v, char *why, size_t len)
{
    return scc_param_fix(&scc_param_rules[id], v, why, len);
}

/* Every rule is well formed: named, lo <= hi, lo and hi multiples, keep at or below lo. */
static void test_table(void)
{
    for (int i = 0; i < SCC_PARAM_COUNT; ++i) {
        const scc_param_rule_t *r = &scc_param_rules[i];
        CHECK(NULL != r->name && 0 == strncmp(r->name, "coll_scc_", 9), "rule %d named", i);
        CHECK(r->lo <= r->hi && r->keep <= r->lo && r->multiple >= 1, "%s: range", r->name);
        CHECK(0 == r->lo % r->multiple && 0 == r->hi % r->multiple, "%s: multiples", r->name);
        CHECK(r->multiple == 1 || NULL != r->why, "%s: says why the multiple", r->name);
        CHECK(r->hi <= INT_MAX, "%s: fits the int it is stored in", r->name);
    }
}

/* Values a rule accepts come out unchanged and silent; every other value comes out
 * accepted, with a reason; the result depends on the value alone. */
static void test_fix_all(void)
{
    static const long probe[] = { LONG_MIN, INT_MIN, -65536, -2, -1, 0, 1, 2, 3, 4, 5, 7, 8, 63,
                                  64, 65, 100, 255, 256, 257, 1000, 4095, 4096, 8192, 16384,
                                  16385, 1 << 20, (1 << 20) + 1, 1 << 26, (1 << 26) + 1, 1 << 30,
                                  INT_MAX, LONG_MAX };
    char why[256];

    for (int i = 0; i < SCC_PARAM_COUNT; ++i) {
        const scc_param_rule_t *r = &scc_param_rules[i];
        for (size_t k = 0; k < sizeof(probe) / sizeof(probe[0]); ++k) {
            long v = probe[k], f = scc_param_fix(r, v, why, sizeof(why));
            int ok = v == r->keep || (r->keep_off && 0 == v)
                     || (v >= r->lo && v <= r->hi && 0 == v % r->multiple);
            CHECK(ok ? (f == v && '\0' == why[0]) : (f != v && '\0' != why[0]),
                  "%s = %ld: %ld (%s)", r->name, v, f, why);
            CHECK(f == r->keep || (r->keep_off && 0 == f)
                      || (f >= r->lo && f <= r->hi && 0 == f % r->multiple),
                  "%s = %ld gives %ld, outside the rule", r->name, v, f);
            CHECK(f == scc_param_fix(r, f, why, sizeof(why)) && '\0' == why[0],
                  "%s: %ld is accepted as it is", r->name, f);
            CHECK(f == scc_param_fix(r, v, NULL, 0), "%s: the same without a reason", r->name);
        }
    }
}

/* The cases of the issue, one by one. */
static void test_cases(void)
{
    char why[256];

    /* dopl_chunks 0 divided by zero; a large value made parts larger than slots */
    CHECK(1 == fix(SCC_PARAM_DOPL_CHUNKS, 0, why, sizeof(why)), "dopl_chunks 0");
    CHECK(NULL != strstr(why, "least"), "dopl_chunks 0: %s", why);
    CHECK(1 == fix(SCC_PARAM_DOPL_CHUNKS, -3, why, sizeof(why)), "dopl_chunks -3");
    CHECK(64 == fix(SCC_PARAM_DOPL_CHUNKS, 1000, why, sizeof(why)), "dopl_chunks 1000");
    CHECK(4 == fix(SCC_PARAM_DOPL_CHUNKS, 4, why, sizeof(why)) && '\0' == why[0], "default");
    /* a part of 64 chunks of at least a byte fits the smallest slot */
    CHECK(scc_param_rules[SCC_PARAM_SHM_SLOT_SIZE].lo / scc_param_rules[SCC_PARAM_DOPL_CHUNKS].hi
          >= 1, "parts fit");

    /* slot counts: multiples of 4 within 4..64 */
    CHECK(4 == fix(SCC_PARAM_SHM_NSLOTS, 5, why, sizeof(why)), "nslots 5");
    CHECK(NULL != strstr(why, "multiple of 4"), "nslots 5: %s", why);
    CHECK(8 == fix(SCC_PARAM_SHM_NSLOTS, 11, why, sizeof(why)), "nslots 11");
    CHECK(4 == fix(SCC_PARAM_SHM_NSLOTS, 1, why, sizeof(why)), "nslots 1");
    CHECK(4 == fix(SCC_PARAM_SHM_NSLOTS, -8, why, sizeof(why)), "nslots -8");
    CHECK(64 == fix(SCC_PARAM_SHM_NSLOTS, 65, why, sizeof(why)), "nslots 65");
    CHECK(60 == fix(SCC_PARAM_SHM_NSLOTS, 63, why, sizeof(why)), "nslots 63");
    CHECK(12 == fix(SCC_PARAM_MPB_NSLOTS, 14, why, sizeof(why)), "mpb nslots 14");

    /* slot sizes: lines, 64 bytes to 64 MB */
    CHECK(64 == fix(SCC_PARAM_SHM_SLOT_SIZE, 0, why, sizeof(why)), "slot 0");
    CHECK(64 == fix(SCC_PARAM_SHM_SLOT_SIZE, -1, why, sizeof(why)), "slot -1");
    CHECK(960 == fix(SCC_PARAM_SHM_SLOT_SIZE, 1000, why, sizeof(why)), "slot 1000");
    CHECK(1 << 26 == fix(SCC_PARAM_SHM_SLOT_SIZE, INT_MAX, why, sizeof(why)), "slot huge");
    CHECK(8192 == fix(SCC_PARAM_MPB_CORE_SIZE, 8200, why, sizeof(why)), "core 8200");

    /* keep values: 0 and -1 mean something of their own */
    CHECK(0 == fix(SCC_PARAM_CMA_BLOCK, 0, why, sizeof(why)) && '\0' == why[0], "cma_block 0");
    CHECK(0 == fix(SCC_PARAM_CMA_BLOCK, -5, why, sizeof(why)), "cma_block -5: slot-sized");
    CHECK(4096 == fix(SCC_PARAM_CMA_BLOCK, 100, why, sizeof(why)), "cma_block 100");
    CHECK(0 == fix(SCC_PARAM_PIPE_SIZE, 0, why, sizeof(why)) && '\0' == why[0], "pipe 0");
    CHECK(64 == fix(SCC_PARAM_PIPE_SIZE, 10, why, sizeof(why)), "pipe 10");
    CHECK(-1 == fix(SCC_PARAM_CMA_MIN, -1, why, sizeof(why)) && '\0' == why[0], "cma_min -1");
    CHECK(-2 == fix(SCC_PARAM_CMA_MIN, -2, why, sizeof(why)) && '\0' == why[0], "cma_min -2");
    CHECK(-2 == fix(SCC_PARAM_CMA_MIN, -7, why, sizeof(why)), "cma_min -7: by the probe");
    CHECK(1 == fix(SCC_PARAM_CMA, 2, why, sizeof(why)), "cma 2");
    CHECK(-1 == fix(SCC_PARAM_CMA, -2, why, sizeof(why)), "cma -2");
    /* cma_reduce_min: -2 (by the probe) and 0 (never) both kept */
    CHECK(-2 == fix(SCC_PARAM_CMA_REDUCE_MIN, -2, why, sizeof(why)) && '\0' == why[0],
          "cma_reduce_min -2");
    CHECK(0 == fix(SCC_PARAM_CMA_REDUCE_MIN, 0, why, sizeof(why)) && '\0' == why[0],
          "cma_reduce_min 0");
    CHECK(-2 == fix(SCC_PARAM_CMA_REDUCE_MIN, -1, why, sizeof(why))
          && NULL != strstr(why, "neither -2, 0 nor 4096"), "cma_reduce_min -1: by the probe");
    CHECK(4096 == fix(SCC_PARAM_CMA_REDUCE_MIN, 4, why, sizeof(why)), "cma_reduce_min 4");
    CHECK(8192 == fix(SCC_PARAM_CMA_REDUCE_MIN, 8192, why, sizeof(why)) && '\0' == why[0],
          "cma_reduce_min 8192");
    CHECK(0 == fix(SCC_PARAM_CMA_OVER_MIN, -1, why, sizeof(why)), "cma_over_min -1");
    CHECK(4096 == fix(SCC_PARAM_CMA_OVER_MIN, 4, why, sizeof(why)), "cma_over_min 4");
    CHECK(262144 == fix(SCC_PARAM_CMA_OVER_MIN, 262144, why, sizeof(why)) && '\0' == why[0],
          "cma_over_min 262144");
    CHECK(0 == fix(SCC_PARAM_BARRIER_RADIX, -1, why, sizeof(why)), "radix -1");
    CHECK(0 == fix(SCC_PARAM_SPIN, -1, why, sizeof(why)), "spin -1");

    /* mpb_strict_test: any value but 0, 1 and 2 broke the second rule and aborted the job */
    CHECK(0 == fix(SCC_PARAM_MPB_STRICT_TEST, 0, why, sizeof(why)) && '\0' == why[0], "strict 0");
    CHECK(2 == fix(SCC_PARAM_MPB_STRICT_TEST, 2, why, sizeof(why)) && '\0' == why[0], "strict 2");
    CHECK(0 == fix(SCC_PARAM_MPB_STRICT_TEST, -1, why, sizeof(why)), "strict -1");
    CHECK(NULL != strstr(why, "least"), "strict -1: %s", why);
    CHECK(2 == fix(SCC_PARAM_MPB_STRICT_TEST, 3, why, sizeof(why)), "strict 3");
    CHECK(0 == fix(SCC_PARAM_MPB_STRICT_TEST, INT_MIN, why, sizeof(why)), "strict INT_MIN");
    CHECK(2 == fix(SCC_PARAM_MPB_STRICT_TEST, INT_MAX, why, sizeof(why)), "strict INT_MAX");
}

/* Byte thresholds (size_t): Open MPI reads -1 as 2^64 - 1, which took an algorithm's whole
 * range; no value above 2^62 is a byte count, each gives way to the default with a reason. */
static void test_bytes(void)
{
    static const size_t good[] = { 0, 1, 56, 8192, 1048576, (size_t) 1 << 40,
                                   SCC_PARAM_BYTES_MAX - 1, SCC_PARAM_BYTES_MAX };
    static const size_t bad[] = { SCC_PARAM_BYTES_MAX + 1, SIZE_MAX / 2, SIZE_MAX / 2 + 1,
                                  SIZE_MAX - 4095, SIZE_MAX - 1, SIZE_MAX };
    char why[256];

    CHECK((size_t) 1 << 62 == SCC_PARAM_BYTES_MAX || sizeof(size_t) < 8, "2^62 on 64 bits");
    for (size_t k = 0; k < sizeof(good) / sizeof(good[0]); ++k) {
        CHECK(good[k] == scc_param_bytes(good[k], 56, why, sizeof(why)) && '\0' == why[0],
              "%zu kept: %s", good[k], why);
    }
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); ++k) {
        CHECK(56 == scc_param_bytes(bad[k], 56, why, sizeof(why)) && '\0' != why[0],
              "%zu refused", bad[k]);
        CHECK(8192 == scc_param_bytes(bad[k], 8192, NULL, 0), "%zu: without a reason", bad[k]);
    }
    /* a negative value is named as given */
    CHECK(56 == scc_param_bytes(SIZE_MAX, 56, why, sizeof(why))
          && NULL != strstr(why, "negative value (-1)"), "-1: %s", why);
    CHECK(56 == scc_param_bytes(SIZE_MAX - 4095, 56, why, sizeof(why))
          && NULL != strstr(why, "(-4096)"), "-4096: %s", why);
    CHECK(56 == scc_param_bytes(SIZE_MAX / 2 + 1, 56, why, sizeof(why))
          && NULL != strstr(why, "negative"), "-2^63: %s", why);
    /* huge but not negative: said so */
    CHECK(56 == scc_param_bytes(SIZE_MAX / 2, 56, why, sizeof(why))
          && NULL == strstr(why, "negative") && NULL != strstr(why, "more than"),
          "2^63 - 1: %s", why);
}

/* coll_scc_nodes: COLUMNSxROWS of at most a mesh's positions, else the near-square grid. */
static void test_grid(void)
{
    const long max = 1 << 20;
    int C, R;
    char why[256];

    CHECK(0 == scc_param_grid("auto", max, &C, &R, why, sizeof(why)) && '\0' == why[0]
          && 0 == C && 0 == R, "auto");
    CHECK(0 == scc_param_grid("", max, &C, &R, why, sizeof(why)) && '\0' == why[0], "empty");
    CHECK(0 == scc_param_grid(NULL, max, &C, &R, why, sizeof(why)) && '\0' == why[0], "NULL");
    CHECK(1 == scc_param_grid("4x2", max, &C, &R, why, sizeof(why)) && 4 == C && 2 == R
          && '\0' == why[0], "4x2");
    CHECK(1 == scc_param_grid("3X1", max, &C, &R, why, sizeof(why)) && 3 == C && 1 == R, "3X1");
    CHECK(1 == scc_param_grid("1x1048576", max, &C, &R, why, sizeof(why)) && 1048576 == R,
          "a mesh's worth");
    CHECK(1 == scc_param_grid("1024x1024", max, &C, &R, NULL, 0) && 1024 == C, "1024x1024");
    /* too many tiles: sscanf made 2x1 of the first; the last asked for 16 GB of grid */
    static const char *huge[] = { "4294967298x1", "1024x1025", "1048577x1", "65536x65536",
                                  "99999999999999999999x2", "2x99999999999999999999", NULL };
    for (int i = 0; NULL != huge[i]; ++i) {
        CHECK(0 == scc_param_grid(huge[i], max, &C, &R, why, sizeof(why)) && 0 == C && 0 == R
              && NULL != strstr(why, "tiles"), "\"%s\": %s", huge[i], why);
    }
    static const char *bad[] = { "0x4", "4x0", "-1x4", "4x-1", "+4x2", " 4x2", "4x2 ", "4x",
                                 "x2", "4", "4x2x1", "4*2", "axb", "4x2foo", "scc", NULL };
    for (int i = 0; NULL != bad[i]; ++i) {
        CHECK(0 == scc_param_grid(bad[i], max, &C, &R, why, sizeof(why)) && 0 == C && 0 == R
              && NULL != strstr(why, "COLUMNSxROWS"), "\"%s\": %s", bad[i], why);
    }
}

/* mpb: as many slots (multiples of 4) as fit the core's buffer with 256 bytes each; the
 * control bytes are those of the transport (11 lines, then a header and an ack line a slot). */
static void test_mpb_fit(void)
{
    const size_t base = 11 * 64, per = 128, min = 256;

    CHECK(4 == scc_param_mpb_nslots(8192, 4, base, per, min), "default");
    CHECK(16 == scc_param_mpb_nslots(8192, 64, base, per, min), "64 in 8 KB: %d",
          scc_param_mpb_nslots(8192, 64, base, per, min));
    CHECK(8 == scc_param_mpb_nslots(4096, 64, base, per, min), "64 in 4 KB");
    CHECK(64 == scc_param_mpb_nslots(1 << 20, 64, base, per, min), "64 in 1 MB");
    for (long core = 4096; core <= (1 << 20); core += 4096) {
        for (int n = 4; n <= 64; n += 4) {
            int k = scc_param_mpb_nslots(core, n, base, per, min);
            CHECK(k >= 4 && k <= n && 0 == k % 4
                      && base + (size_t) k * (per + min) <= (size_t) core,
                  "core %ld, %d slots: %d", core, n, k);
        }
    }
}

static void test_fanout(void)
{
    int f[8];
    char why[256];

    CHECK(0 == scc_param_fanout("auto", f, 8, 64, why, sizeof(why)) && '\0' == why[0], "auto");
    CHECK(0 == scc_param_fanout("", f, 8, 64, why, sizeof(why)) && '\0' == why[0], "empty");
    CHECK(0 == scc_param_fanout(NULL, f, 8, 64, why, sizeof(why)), "NULL");
    CHECK(3 == scc_param_fanout("4,4,3", f, 8, 64, why, sizeof(why)) && '\0' == why[0]
          && 4 == f[0] && 4 == f[1] && 3 == f[2], "4,4,3");
    CHECK(1 == scc_param_fanout("64", f, 8, 64, why, sizeof(why)) && 64 == f[0]
          && '\0' == why[0], "64 is the most");
    /* above 64 the barrier tree read past its 64 children */
    CHECK(2 == scc_param_fanout("100,2", f, 8, 64, why, sizeof(why)) && 64 == f[0] && 2 == f[1]
          && NULL != strstr(why, "above 64"), "100,2: %s", why);
    CHECK(1 == scc_param_fanout("99999999999999999999999", f, 8, 64, why, sizeof(why))
          && 64 == f[0], "overflow");
    CHECK(8 == scc_param_fanout("2,2,2,2,2,2,2,2,3,3", f, 8, 64, why, sizeof(why)) && 2 == f[7]
          && NULL != strstr(why, "dropped"), "10 levels: %s", why);
    static const char *bad[] = { "0", "-4", "4,0", "x", "4,", ",4", "4;3", "4 3", "4,4,x", NULL };
    for (int i = 0; NULL != bad[i]; ++i) {
        CHECK(0 == scc_param_fanout(bad[i], f, 8, 64, why, sizeof(why))
              && NULL != strstr(why, "automatic"), "\"%s\": %s", bad[i], why);
    }
}

int main(void)
{
    test_table();
    test_fix_all();
    test_cases();
    test_mpb_fit();
    test_fanout();
    test_bytes();
    test_grid();
    return unit_finish("test_param");
}
