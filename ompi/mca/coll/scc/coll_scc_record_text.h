/* coll_scc_record_text.h: the text of a configuration record (pure C): lines "name=value",
 * sorted, hashed, and the first difference between two records. */
#ifndef MCA_COLL_SCC_RECORD_TEXT_H
#define MCA_COLL_SCC_RECORD_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* A record under construction: a growing buffer of '\n'-terminated lines. */
typedef struct scc_record_text {
    char *buf;
    size_t len, cap;
    int failed;                 /* an allocation failed: the text is incomplete */
} scc_record_text_t;

void scc_record_text_init(scc_record_text_t *t);
void scc_record_text_free(scc_record_text_t *t);

/* Appends "name=value\n"; a '\n' or '=' in the name, or a '\n' in the value, becomes ' '. */
void scc_record_text_add(scc_record_text_t *t, const char *name, const char *value);

/* Sorts the lines by name so that the order of registration does not matter. */
void scc_record_text_sort(scc_record_text_t *t);

/* 64-bit FNV-1a of n bytes (0 bytes: the offset basis). */
uint64_t scc_record_hash(const void *data, size_t n);

/* The first name (in sorted order) whose line differs between the sorted records a and b:
 * returns 1 and fills name and the two values ("" where a record has no such line, *a_has /
 * *b_has say which), 0 when the two texts hold the same lines. */
int scc_record_text_diff(const char *a, const char *b, char *name, size_t name_len,
                         char *va, size_t va_len, int *a_has, char *vb, size_t vb_len,
                         int *b_has);

#endif /* MCA_COLL_SCC_RECORD_TEXT_H */
