/* coll_scc_exec.h: the executor that runs a schedule over a transport, and the buffers it works on. */
#ifndef MCA_COLL_SCC_EXEC_H
#define MCA_COLL_SCC_EXEC_H

#include "coll_scc.h"
#include "coll_scc_sched.h"
#include "coll_scc_xport.h"

BEGIN_C_DECLS

/* The buffers a schedule's blocks live in. */
typedef struct scc_exec_buf {
    char *work;                     /* the working buffer: block b at work + b * bs */
    const char *input;              /* the caller's input (SCC_STEP_F_INPUT steps) */
    size_t total;                   /* bytes of the message */
    size_t bs;                      /* bytes of a block (the last one may be short) */
    struct ompi_datatype_t *dtype;  /* reductions: element type (contiguous) */
    struct ompi_op_t *op;
    size_t dtsize;
    bool stable;                    /* what is sent stays unchanged until the call ends */
} scc_exec_buf_t;

/* Runs this rank's schedule s over the module's transport. */
int mca_coll_scc_exec(mca_coll_scc_module_t *m, const scc_sched_t *s, const scc_exec_buf_t *b);

/* The module's schedule buffer, grown to hold at least nsteps steps and nlist list entries. */
scc_sched_t *mca_coll_scc_sched_buf(mca_coll_scc_module_t *m, long nsteps, long nlist);

/* A scratch buffer of the module (which: 0..SCC_NSCRATCH-1), grown as needed, kept. */
void *mca_coll_scc_scratch(mca_coll_scc_module_t *m, int which, size_t bytes);

/* Byte views of user data (coll_scc_dtype.c) */
bool scc_dtype_contig(struct ompi_datatype_t *dt, size_t count, ptrdiff_t *lb);
int scc_dtype_pack(const void *buf, size_t count, struct ompi_datatype_t *dt, void *out,
                   size_t bytes);
int scc_dtype_unpack(void *buf, size_t count, struct ompi_datatype_t *dt, const void *in,
                     size_t bytes);

/* The bytes of (buf, count, dt) to read: buf itself where contiguous, else a
 * packed copy in the module's input scratch.  NULL on error. */
const char *scc_view_in(mca_coll_scc_module_t *m, const void *buf, size_t count,
                        struct ompi_datatype_t *dt, size_t bytes);
/* Where to write the bytes of (buf, count, dt): buf itself where contiguous,
 * else the output scratch (*packed set; scc_view_out_done unpacks it). */
char *scc_view_out(mca_coll_scc_module_t *m, void *buf, size_t count, struct ompi_datatype_t *dt,
                   size_t bytes, bool *packed);
int scc_view_out_done(void *buf, size_t count, struct ompi_datatype_t *dt, const char *view,
                      size_t bytes, bool packed);

END_C_DECLS

#endif /* MCA_COLL_SCC_EXEC_H */
