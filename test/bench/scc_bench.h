/* scc_bench.h: what the three parts of scc_bench share -- the collectives it knows
 * (scc_bench_colls.c: inputs, expected values, checks), the measurement with its bookkeeping
 * and MPI_T forcing (scc_bench_measure.c), the options and main (scc_bench.c). */
#ifndef SCC_BENCH_H
#define SCC_BENCH_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* The order is the order of a run.  The ten of the default list come first, then those named
 * only (-c): the collectives added since, and the floors memcpy and xcopy. */
enum { C_BCAST, C_BARRIER, C_REDUCE, C_ALLREDUCE, C_ALLTOALL, C_ALLTOALLV, C_GATHER, C_SCATTER,
       C_ALLGATHER, C_REDUCE_SCATTER_BLOCK,
       C_GATHERV, C_SCATTERV, C_ALLGATHERV, C_REDUCE_SCATTER, C_SCAN, C_EXSCAN, C_ALLTOALLW,
       C_MEMCPY, C_XCOPY, C_COUNT };

#define C_DEFAULT_COUNT (C_REDUCE_SCATTER_BLOCK + 1)  /* the default list: the first ones */

#define MAX_SIZES 64
#define MAX_ROOTS 64
#define MAX_ALGS 32
#define TAG_CTL 7001

extern const char *const coll_names[C_COUNT];

/* ------------------------------------------------------------ options and state */

extern int rank, nprocs;
extern int fixed_iters, fixed_warmup, min_iters, max_iters;
extern double budget;                 /* seconds of timed iterations per measurement */
extern int check_all;                 /* -C: check every output element every iteration */
extern int any_wrong;
extern const char *alg_list;          /* -a: NULL (component decides), "all" or a list */
/* -F: the form of every call -- blocking, nonblocking (then MPI_Wait), persistent (the
 * request made at a measurement's first call, then MPI_Start and MPI_Wait per call) */
enum { FORM_B, FORM_I, FORM_P };
extern int form;
/* -P: paired -- each measurement alternates blocks of blocking calls and calls of this form
 * (FORM_I or FORM_P; -1: off) in one launch, and reports their ratio block by block: the
 * machine's state from one launch to the next (a guest's clock, where its memory landed)
 * cancels out */
extern int paired;

/* Buffers: page-aligned, with guard zones before and after the used part. */
extern int32_t *sbuf, *rbuf;
extern char *xmine, *xright;          /* xcopy: my shared buffer, my right neighbour's */

typedef struct {
    int coll, root;
    size_t c;                         /* elements per block */
    size_t sn, rn;                    /* elements used in sbuf and rbuf */
    MPI_Comm comm;
} meas_t;

typedef struct {
    char name[32];
    int value;
} alg_t;

void die(const char *msg);

/* scc_bench_colls.c: the collectives */
int is_rooted(int coll);
int is_floor(int coll);
void layouts_alloc(void);
void layouts_free(void);
void layouts_set(size_t c);
void sizes_of(meas_t *m);
void prepare(const meas_t *m, int salt);
void stamp_inputs(const meas_t *m, int salt);
void run_coll(const meas_t *m);
void run_coll_end(void);              /* after a measurement: its persistent request freed */
long check_outputs(const meas_t *m, int all, int report);

/* scc_bench_measure.c: buffers, one measurement, MPI_T */
int32_t *guarded_alloc(size_t elems);
void guarded_free(int32_t *b);
void measure(meas_t *m, const char *alg);
int cvar_read(const char *name, int *v);
int cvar_write(const char *name, int v);
void bench_comm(MPI_Comm *comm);
int algorithms_of(int coll, alg_t *out);

#endif
