/* coll_scc_mesh_int.h: what the mesh model's two files (coll_scc_mesh.c, _parse.c) share --
 * filling in an scc_mesh_err_t; pure C, not for other files. */
#ifndef MCA_COLL_SCC_MESH_INT_H
#define MCA_COLL_SCC_MESH_INT_H

#include <stdarg.h>
#include <stdio.h>

#include "coll_scc_mesh.h"

/* Sets err (when not NULL) to status and the formatted sentence; returns status. */
static inline int set_err(scc_mesh_err_t *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline int set_err(scc_mesh_err_t *err, int status, const char *fmt, ...)
{
    if (NULL != err) {
        va_list ap;
        err->status = status;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
    }
    return status;
}

static inline void clear_err(scc_mesh_err_t *err)
{
    if (NULL != err) {
        err->status = SCC_MESH_OK;
        err->msg[0] = '\0';
    }
}

#endif /* MCA_COLL_SCC_MESH_INT_H */
