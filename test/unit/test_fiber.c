/* test_fiber.c: fibers stop and resume where they stopped, keep their registers (floating
 * point ones too), restart after they end, and run deep stacks. */
#include <math.h>
#include <string.h>

#include "coll_scc_fiber.h"
#include "unit.h"

typedef struct {
    scc_fiber_t *f;
    int steps, seen;
    double acc;
} job_t;

/* Counts to steps, yielding after each, with values live in registers across yields. */
static void counter(void *arg)
{
    job_t *j = arg;
    double x = 1.0;
    long a = 3, b = 5, c = 7;
    for (int i = 0; i < j->steps; ++i) {
        x = x * 1.5 + 0.25;
        a += b;
        b += c;
        c += 1;
        j->seen = i + 1;
        scc_fiber_yield(j->f);
    }
    j->acc = x + (double) (a + b + c);
}

/* Touches a large frame (a deep call of a collective on its stack). */
static void deep(void *arg)
{
    job_t *j = arg;
    volatile char big[192 * 1024];
    memset((char *) big, 7, sizeof(big));
    scc_fiber_yield(j->f);
    j->seen = big[0] + big[sizeof(big) - 1];
}

int main(void)
{
    scc_fiber_t f1, f2;
    job_t j1 = { &f1, 1000, 0, 0 }, j2 = { &f2, 10, 0, 0 };
    double ref = 1.0;
    long a = 3, b = 5, c = 7;

    CHECK(0 == scc_fiber_init(&f1, 256 * 1024), "stack mapped");
    CHECK(0 == scc_fiber_init(&f2, 256 * 1024), "stack mapped");
    CHECK(f1.done, "a new fiber has nothing to run");
    for (int i = 0; i < j1.steps; ++i) {
        ref = ref * 1.5 + 0.25;
        a += b;
        b += c;
        c += 1;
    }
    ref += (double) (a + b + c);

    /* two fibers interleaved, each stopping after every step */
    for (int round = 0; round < 3; ++round) {
        j1.seen = j2.seen = 0;
        scc_fiber_start(&f1, counter, &j1);
        scc_fiber_start(&f2, counter, &j2);
        for (int i = 0; !f1.done || !f2.done; ++i) {
            scc_fiber_resume(&f1);
            scc_fiber_resume(&f2);
            CHECK(j1.seen == (i + 1 < j1.steps ? i + 1 : j1.steps), "step %d: %d", i, j1.seen);
        }
        CHECK(j1.seen == j1.steps && j2.seen == j2.steps, "all steps ran (round %d)", round);
        CHECK(j1.acc == ref, "registers kept: %g against %g", j1.acc, ref);
    }

    scc_fiber_start(&f1, deep, &j1);
    scc_fiber_resume(&f1);
    CHECK(!f1.done, "stopped inside the deep frame");
    scc_fiber_resume(&f1);
    CHECK(f1.done && 14 == j1.seen, "deep frame intact: %d", j1.seen);

    scc_fiber_resume(&f2);  /* a done fiber is not run again */
    CHECK(f2.done, "done stays done");
    scc_fiber_fini(&f1);
    scc_fiber_fini(&f2);
    return unit_finish("test_fiber");
}
