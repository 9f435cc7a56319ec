/* coll_scc_combine.c: combining contributions of a reduction -- two into a third buffer, n in
 * one fixed order (coll_scc_xport.h) -- for the transports and the algorithms alike. */
#include "coll_scc_component.h"
#include "coll_scc_trace.h"
#include "coll_scc_xport.h"

#include <limits.h>
#include <string.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

void scc_reduce3(struct ompi_op_t *op, const void *src1, const void *src2, void *target,
                 size_t count, struct ompi_datatype_t *dtype)
{
    size_t sz;
    SCC_TRACE_T0(t0);

    ompi_datatype_type_size(dtype, &sz);
    if (ompi_op_is_intrinsic(op) && ompi_datatype_is_predefined(dtype) && count <= INT_MAX) {
        ompi_3buff_op_reduce(op, (void *) src1, (void *) src2, target, (int) count, dtype);
    } else {
        if (target != src2) {
            memcpy(target, src2, count * sz);
        }
        ompi_op_reduce(op, (void *) src1, target, count, dtype);
    }
    SCC_TRACE_ADD(t0, SCC_PH_COMBINE, count * sz);
}

/* The n contributions combined in one fixed order (coll_scc_xport.h). */
void scc_combine(struct ompi_op_t *op, const char **p, int n, char *acc, size_t count,
                 struct ompi_datatype_t *dtype)
{
    size_t sz;

    ompi_datatype_type_size(dtype, &sz);
    if (1 == n) {
        if (acc != p[0]) {
            SCC_TRACED(SCC_PH_COPY, count * sz, memcpy(acc, p[0], count * sz));
        }
        return;
    }
    scc_reduce3(op, p[n - 2], p[n - 1], acc, count, dtype);
    for (int i = n - 3; i >= 0; --i) {
        SCC_TRACED(SCC_PH_COMBINE, count * sz,
                   ompi_op_reduce(op, (void *) p[i], acc, count, dtype));
    }
}
