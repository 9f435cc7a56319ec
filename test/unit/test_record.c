/* test_record.c: configuration records: lines sorted by name whatever the order they were
 * added in, the same hash for the same lines, and the first difference named. */
#include <string.h>

#include "coll_scc_record_text.h"
#include "unit.h"

static void build(scc_record_text_t *t, const char *const *kv)
{
    scc_record_text_init(t);
    for (int i = 0; NULL != kv[i]; i += 2) {
        scc_record_text_add(t, kv[i], kv[i + 1]);
    }
    scc_record_text_sort(t);
}

int main(void)
{
    static const char *const a_kv[] = { "coll_scc_tree_max", "65536", "coll", "",
                                        "coll_scc_priority", "40", "coll_scc_tree", "x", NULL };
    static const char *const b_kv[] = { "coll_scc_tree", "x", "coll_scc_priority", "40",
                                        "coll", "", "coll_scc_tree_max", "65536", NULL };
    static const char *const c_kv[] = { "coll_scc_tree", "x", "coll_scc_priority", "0",
                                        "coll", "", "coll_scc_tree_max", "16", NULL };
    static const char *const d_kv[] = { "coll", "", "coll_scc_tree_max", "65536", NULL };
    scc_record_text_t a, b, c, d, e;
    char name[64], va[64], vb[64];
    int ah, bh;

    build(&a, a_kv);
    build(&b, b_kv);
    build(&c, c_kv);
    build(&d, d_kv);
    CHECK(!a.failed && NULL != a.buf, "built");
    /* sorted by name: "coll" < "coll_scc_priority" < "coll_scc_tree" < "coll_scc_tree_max" */
    CHECK(0 == strcmp(a.buf, "coll=\ncoll_scc_priority=40\ncoll_scc_tree=x\n"
                             "coll_scc_tree_max=65536\n"), "sorted: %s", a.buf);
    CHECK(0 == strcmp(a.buf, b.buf), "order of addition does not matter");
    CHECK(scc_record_hash(a.buf, a.len) == scc_record_hash(b.buf, b.len), "same hash");
    CHECK(scc_record_hash(a.buf, a.len) != scc_record_hash(c.buf, c.len), "other hash");
    CHECK(0 == scc_record_text_diff(a.buf, b.buf, name, sizeof(name), va, sizeof(va), &ah, vb,
                                    sizeof(vb), &bh), "no difference");
    /* the first difference in name order, with both values */
    CHECK(1 == scc_record_text_diff(a.buf, c.buf, name, sizeof(name), va, sizeof(va), &ah, vb,
                                    sizeof(vb), &bh), "a difference");
    CHECK(0 == strcmp(name, "coll_scc_priority") && ah && bh && 0 == strcmp(va, "40")
          && 0 == strcmp(vb, "0"), "first: %s %s %s", name, va, vb);
    /* a line in one record only: its value there, and which one has it */
    CHECK(1 == scc_record_text_diff(d.buf, a.buf, name, sizeof(name), va, sizeof(va), &ah, vb,
                                    sizeof(vb), &bh), "missing line");
    CHECK(0 == strcmp(name, "coll_scc_priority") && !ah && bh && 0 == strcmp(vb, "40")
          && '\0' == va[0], "only in b: %s (%d %d)", name, ah, bh);
    CHECK(1 == scc_record_text_diff(a.buf, d.buf, name, sizeof(name), va, sizeof(va), &ah, vb,
                                    sizeof(vb), &bh) && ah && !bh, "only in a");
    /* a value may not break a line, nor a name hold '=' */
    scc_record_text_init(&e);
    scc_record_text_add(&e, "x=y", "two\nlines");
    CHECK(0 == strcmp(e.buf, "x y=two lines\n"), "escaped: %s", e.buf);
    /* empty records */
    CHECK(0 == scc_record_text_diff("", "", name, sizeof(name), va, sizeof(va), &ah, vb,
                                    sizeof(vb), &bh), "empty");
    scc_record_text_free(&a);
    scc_record_text_free(&b);
    scc_record_text_free(&c);
    scc_record_text_free(&d);
    scc_record_text_free(&e);
    return unit_finish("test_record");
}
