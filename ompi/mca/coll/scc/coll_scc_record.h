/* coll_scc_record.h: what each process publishes about itself (its location and its
 * configuration record), and the check that a communicator's members all run alike. */
#ifndef MCA_COLL_SCC_RECORD_H
#define MCA_COLL_SCC_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ompi_communicator_t;
struct ompi_proc_t;

/* Builds this process's record (everything that decides which protocol it runs) and
 * publishes it with loc (loc_bytes) through the modex, for every process of the job.
 * mesh: what parsing coll_scc_mesh and its map gave ("" when no mesh is set), part of
 * the record.  At component open, before MPI_Init's modex fence. */
int mca_coll_scc_record_publish(const int32_t *loc, size_t loc_bytes, const char *mesh);

/* Reads the location that proc published (loc_bytes); false when it published none. */
bool mca_coll_scc_record_peer_loc(struct ompi_proc_t *proc, int32_t *loc, size_t loc_bytes);

/* True when every member of comm published a record identical to every other's: from the
 * modex alone, no communication, the same answer on every member.  Else why says (in len
 * bytes) which member published none or which parameter differs, and the first member
 * with a record shows it once through show_help. */
bool mca_coll_scc_record_agree(struct ompi_communicator_t *comm, char *why, size_t len);

/* This process's record, as text (for verbose output). */
const char *mca_coll_scc_record_text(void);

void mca_coll_scc_record_close(void);

#endif /* MCA_COLL_SCC_RECORD_H */
