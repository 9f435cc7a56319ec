/* test_select.c: the names and the collective/algorithm validity table. */
#include <string.h>

#include "coll_scc_select.h"
#include "unit.h"

int main(void)
{
    for (int a = 0; a < SCC_ALG_COUNT; ++a) {
        CHECK(scc_alg_from_name(scc_alg_name((scc_alg_t) a)) == a, "alg %d", a);
    }
    CHECK(scc_alg_from_name("nonsense") == -1, "unknown name");
    for (int c = 0; c < SCC_COLL_COUNT; ++c) {
        CHECK(scc_alg_valid((scc_coll_t) c, SCC_ALG_AUTO), "auto valid for %d", c);
        CHECK(scc_alg_valid((scc_coll_t) c, SCC_ALG_FALLBACK), "fallback valid for %d", c);
        CHECK(strcmp(scc_coll_name((scc_coll_t) c), "?") != 0, "name of %d", c);
    }
    CHECK(scc_alg_valid(SCC_COLL_BCAST, SCC_ALG_FLAT), "flat is a bcast");
    CHECK(scc_alg_valid(SCC_COLL_BARRIER, SCC_ALG_DISSEM), "dissem is a barrier");
    CHECK(!scc_alg_valid(SCC_COLL_REDUCE, SCC_ALG_DOPL), "dopl is not a reduce");
    CHECK(!scc_alg_valid(SCC_COLL_BARRIER, SCC_ALG_JIA), "jia is not a barrier");

    CHECK(!scc_alg_valid(SCC_COLL_COUNT, SCC_ALG_AUTO), "out of range collective");
    return unit_finish("test_select");
}
