/* unit.h: a minimal check macro for the unit tests (no MPI, no Open MPI). */
#ifndef SCC_UNIT_H
#define SCC_UNIT_H

#include <stdio.h>
#include <stdlib.h>

static long unit_checks, unit_failures;

#define CHECK(cond, ...)                                                         \
    do {                                                                         \
        unit_checks++;                                                           \
        if (!(cond)) {                                                           \
            if (unit_failures++ < 20) {                                          \
                fprintf(stderr, "%s:%d: FAIL: %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                                    \
                fputc('\n', stderr);                                             \
            }                                                                    \
        }                                                                        \
    } while (0)

static inline int unit_finish(const char *name)
{
    printf("%s: %ld checks, %ld failures\n", name, unit_checks, unit_failures);
    return unit_failures ? 1 : 0;
}

#endif /* SCC_UNIT_H */
