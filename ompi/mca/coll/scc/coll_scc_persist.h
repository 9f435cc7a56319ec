/* coll_scc_persist.h: the communicator a persistent collective runs on.
 *
 * MPI-4.0 matches persistent collectives by the order of their inits: their starts may come
 * in any order on each process, among the other collectives too (MPICH's p_order).  The
 * component matches a communicator's calls by their order there, so a persistent init whose
 * starts are not asserted in order gets a communicator of its own, made at the init (a
 * collective and non-local call, ordered as the init is): its starts are the only calls
 * there, in the same order everywhere.  Where they are asserted in order -- MPI 4.1's info
 * key on the init or the communicator, or coll_scc_persistent_ordered -- it runs on its own
 * communicator's module.
 */
#ifndef MCA_COLL_SCC_PERSIST_H
#define MCA_COLL_SCC_PERSIST_H

#include <stddef.h>

#include "coll_scc.h"

BEGIN_C_DECLS

/* A collective's persistent entry in a communicator's mca_coll_base_comm_coll_t: where its
 * function and its module sit, and the component's own function (which says the component
 * serves it there). */
typedef struct scc_persistent_slot {
    size_t fn_off, module_off;
    void (*mine)(void);
} scc_persistent_slot_t;

#define SCC_PERSISTENT_SLOT(name)                                                \
    ((scc_persistent_slot_t) { offsetof(mca_coll_base_comm_coll_t, coll_##name##_init), \
                               offsetof(mca_coll_base_comm_coll_t, coll_##name##_init_module), \
                               (void (*)(void)) mca_coll_scc_##name##_init })

/* Where a persistent init on *comm (module *m) runs: OMPI_SUCCESS with *m and *comm left as
 * they are (its starts asserted in order) or set to those of a communicator made for it
 * (*own: the caller frees it once the request holds a reference, or at once when it fails);
 * OMPI_ERR_NOT_AVAILABLE: the fallback's persistent request on *comm serves it (*m declines
 * the communicator, or the component does not serve the collective in `slot` on the one
 * made); else the error of making the communicator, for the init to return. */
int mca_coll_scc_persistent_home(mca_coll_scc_module_t **m, struct ompi_communicator_t **comm,
                                 struct ompi_info_t *info, scc_persistent_slot_t slot,
                                 struct ompi_communicator_t **own);

/* A module of a communicator made for a persistent collective ends (its teardown): the room
 * it took goes back. */
void mca_coll_scc_persistent_home_gone(void);

/* Lets go of a communicator mca_coll_scc_persistent_home made (NULL: none). */
void mca_coll_scc_persistent_own_free(struct ompi_communicator_t **own);

END_C_DECLS

#endif /* MCA_COLL_SCC_PERSIST_H */
