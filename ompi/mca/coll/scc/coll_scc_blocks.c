/* coll_scc_blocks.c: byte views of the blocks of a v-collective's buffer (alltoallv,
 * alltoallw, gatherv, scatterv, allgatherv). */
#include <string.h>

#include "coll_scc.h"
#include "coll_scc_blocks.h"

#include "ompi/datatype/ompi_datatype.h"

void scc_blocks_init(scc_blocks_t *b, const void *buf, const int *counts, const int *displs,
                     struct ompi_datatype_t *dt)
{
    b->buf = buf;
    b->counts = counts;
    b->displs = displs;
    b->dt = dt;
    b->dts = NULL;
    b->lb = 0;
    ompi_datatype_type_extent(dt, &b->ext);
    /* contiguous for 2 elements: no gap between consecutive ones either */
    b->contig = scc_dtype_contig(dt, 2, &b->lb);
}

void scc_blocks_init_w(scc_blocks_t *b, int n, const void *buf, const int *counts,
                       const int *displs, struct ompi_datatype_t *const *dts)
{
    b->buf = buf;
    b->counts = counts;
    b->displs = displs;
    b->dt = NULL;
    b->dts = dts;
    b->lb = 0;
    b->ext = 1;
    b->contig = true;
    for (int i = 0; i < n && b->contig; ++i) {
        ptrdiff_t lb;
        b->contig = 0 == counts[i] || scc_dtype_contig(dts[i], 2, &lb);
    }
}

ptrdiff_t scc_block_lb(const scc_blocks_t *b, int i)
{
    ptrdiff_t lb = b->lb;
    if (NULL != b->dts) {
        (void) scc_dtype_contig(b->dts[i], 2, &lb);
    }
    return lb;
}

char *scc_blocks_direct(const scc_blocks_t *b, int n, const size_t *bytes, size_t *off)
{
    ptrdiff_t lo = 0;
    bool any = false;
    for (int i = 0; i < n; ++i) {
        ptrdiff_t at = scc_block_at(b, i) - b->buf + scc_block_lb(b, i);
        if (bytes[i] > 0 && (!any || at < lo)) {
            lo = at;
            any = true;
        }
    }
    for (int i = 0; i < n; ++i) {
        off[i] = bytes[i] > 0
                     ? (size_t) (scc_block_at(b, i) - b->buf + scc_block_lb(b, i) - lo) : 0;
    }
    return (char *) b->buf + lo;
}

int scc_block_pack(const scc_blocks_t *b, int i, size_t bytes, char *dst)
{
    if (0 == bytes) {
        return OMPI_SUCCESS;
    }
    if (b->contig) {
        memcpy(dst, scc_block_at(b, i) + scc_block_lb(b, i), bytes);
        return OMPI_SUCCESS;
    }
    return scc_dtype_pack(scc_block_at(b, i), (size_t) b->counts[i], scc_block_dt(b, i), dst,
                          bytes);
}

char *scc_blocks_packed(mca_coll_scc_module_t *m, int which, const scc_blocks_t *b, int n,
                        const size_t *bytes, size_t *off, bool pack)
{
    size_t total = 0;
    char *p;
    for (int i = 0; i < n; ++i) {
        off[i] = total;
        total += bytes[i];
    }
    p = mca_coll_scc_scratch(m, which, total + 1);
    for (int i = 0; pack && NULL != p && i < n; ++i) {
        if (OMPI_SUCCESS != scc_block_pack(b, i, bytes[i], p + off[i])) {
            return NULL;
        }
    }
    return p;
}

int scc_blocks_unpack(const scc_blocks_t *b, int n, const size_t *bytes, const size_t *off,
                      const char *view, int skip)
{
    int rc = OMPI_SUCCESS;
    for (int i = 0; OMPI_SUCCESS == rc && i < n; ++i) {
        if (i != skip && bytes[i] > 0) {
            rc = scc_dtype_unpack((char *) scc_block_at(b, i), (size_t) b->counts[i],
                                  scc_block_dt(b, i), view + off[i], bytes[i]);
        }
    }
    return rc;
}

/* Blocks in the order `step` walks them (1: rank order, -1: reversed) follow each other. */
static bool scc_blocks_ordered(int n, const size_t *bytes, const size_t *off, int step)
{
    size_t end = 0;
    for (int k = 0; k < n; ++k) {
        int i = step > 0 ? k : n - 1 - k;
        if (0 == bytes[i]) {
            continue;
        }
        if (off[i] < end) {
            return false;
        }
        end = off[i] + bytes[i];
    }
    return true;
}

bool scc_blocks_overlap(int n, const size_t *bytes, const size_t *off, int *idx)
{
    int m = 0;
    /* the usual layouts in one pass */
    if (scc_blocks_ordered(n, bytes, off, 1) || scc_blocks_ordered(n, bytes, off, -1)) {
        return false;
    }
    for (int i = 0; i < n; ++i) {
        if (bytes[i] > 0) {
            idx[m++] = i;
        }
    }
    /* any other order: sorted by offset (Shell's sort, no allocation) */
    for (int gap = m / 2; gap > 0; gap /= 2) {
        for (int i = gap; i < m; ++i) {
            int t = idx[i], j = i;
            for (; j >= gap && off[idx[j - gap]] > off[t]; j -= gap) {
                idx[j] = idx[j - gap];
            }
            idx[j] = t;
        }
    }
    for (int k = 1; k < m; ++k) {
        if (off[idx[k]] < off[idx[k - 1]] + bytes[idx[k - 1]]) {
            return true;
        }
    }
    return false;
}
