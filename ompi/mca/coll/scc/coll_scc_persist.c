/* coll_scc_persist.c: the communicator a persistent collective runs on (coll_scc_persist.h
 * says why). */
#include "coll_scc_persist.h"
#include "coll_scc_task.h"

#include <stdio.h>
#include <string.h>

#include "ompi/communicator/communicator.h"
#include "ompi/info/info.h"
#include "opal/util/info.h"

/* MPI 4.1's assertion that a communicator's persistent collectives are started in the order
 * of their inits (Open MPI's MPI_Info_set takes keys of 36 characters at most: there
 * coll_scc_persistent_ordered says it) */
#define SCC_ORDERED_KEY "mpi_assert_strict_persistent_collective_ordering"

/* The communicators made for persistent collectives that this process keeps (every thread's) */
static int scc_own_kept;

static bool scc_info_says(opal_info_t *info)
{
    bool v = false;
    int flag = 0;
    return NULL != info
           && OPAL_SUCCESS == opal_info_get_bool(info, (char *) SCC_ORDERED_KEY, &v, &flag)
           && flag && v;
}

static bool scc_persistent_ordered(const mca_coll_scc_module_t *m,
                                   struct ompi_communicator_t *comm, struct ompi_info_t *info)
{
    return m->persistent_home || mca_coll_scc_config.persistent_ordered
           || (NULL != info && info != &ompi_mpi_info_null.info && scc_info_says(&info->super))
           || scc_info_says(comm->super.s_info);
}

int mca_coll_scc_persistent_home(mca_coll_scc_module_t **m, struct ompi_communicator_t **comm,
                                 struct ompi_info_t *info, scc_persistent_slot_t slot,
                                 struct ompi_communicator_t **own)
{
    struct ompi_communicator_t *pc = NULL;
    mca_coll_base_module_t *mod;
    mca_coll_scc_module_t *pm;
    void (*fn)(void);
    char name[MPI_MAX_OBJECT_NAME];
    int rc, mine, all = 0;

    *own = NULL;
    if (scc_persistent_ordered(*m, *comm, info)) {
        return mca_coll_scc_task_takes(*m, true) ? OMPI_SUCCESS : OMPI_ERR_NOT_AVAILABLE;
    }
    /* (whatever the parent's state: it may differ between members while a setup ends, and
       every member must decide alike -- room for one more communicator on every member,
       taken before the agreement so that threads making theirs at once stay within it) */
    mine = __atomic_add_fetch(&scc_own_kept, 1, __ATOMIC_RELAXED)
           <= mca_coll_scc_config.persistent_comms;
    rc = (*comm)->c_coll->coll_allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, *comm,
                                         (*comm)->c_coll->coll_allreduce_module);
    if (OMPI_SUCCESS != rc || !all) {
        mca_coll_scc_persistent_home_gone();
    }
    if (OMPI_SUCCESS != rc) {
        return rc;
    }
    if (!all) {
        SCC_VERBOSE(2, "coll:scc: comm %u (%s): a member keeps coll_scc_persistent_comms "
                    "(%d) communicators for persistent collectives: the fallback serves this "
                    "one", scc_comm_cid(*comm), scc_comm_name(*comm),
                    mca_coll_scc_config.persistent_comms);
        return OMPI_ERR_NOT_AVAILABLE;
    }
    /* (a group's communicator, not a duplicate: a duplicate would run the caller's
       attribute copy functions.  A member that fails returns the error, as MPI_Comm_create
       would: a fallback there would mismatch the others) */
    rc = ompi_comm_create(*comm, (*comm)->c_local_group, &pc);
    if (OMPI_SUCCESS != rc || NULL == pc || MPI_COMM_NULL == pc) {
        SCC_VERBOSE(1, "coll:scc: comm %u (%s): the communicator of a persistent collective "
                    "could not be made (error %d)", scc_comm_cid(*comm), scc_comm_name(*comm),
                    rc);
        mca_coll_scc_persistent_home_gone();
        return OMPI_SUCCESS != rc ? rc : OMPI_ERROR;
    }
    /* (the table's fields have their own function types: read as bytes) */
    memcpy(&mod, (char *) pc->c_coll + slot.module_off, sizeof(mod));
    memcpy(&fn, (char *) pc->c_coll + slot.fn_off, sizeof(fn));
    if (NULL == mod || fn != slot.mine) {
        mca_coll_scc_persistent_own_free(&pc);
        mca_coll_scc_persistent_home_gone();
        return OMPI_ERR_NOT_AVAILABLE;
    }
    /* (named after its parent: the reports say whose it is) */
    snprintf(name, sizeof(name), "%.*s persistent", MPI_MAX_OBJECT_NAME - 12,
             scc_comm_name(*comm));
    (void) ompi_comm_set_name(pc, name);
    pm = (mca_coll_scc_module_t *) mod;
    snprintf(pm->name, sizeof(pm->name), "%s", name);
    pm->persistent_home = true;     /* (its end gives the room taken above back) */
    SCC_VERBOSE(3, "coll:scc: comm %u (%s): a persistent collective on communicator %u of "
                "its own (its starts may come in any order)", scc_comm_cid(*comm),
                scc_comm_name(*comm), scc_comm_cid(pc));
    *m = pm;
    *comm = *own = pc;
    return OMPI_SUCCESS;
}

void mca_coll_scc_persistent_home_gone(void)
{
    __atomic_sub_fetch(&scc_own_kept, 1, __ATOMIC_RELAXED);
}

void mca_coll_scc_persistent_own_free(struct ompi_communicator_t **own)
{
    if (NULL != *own) {
        (void) ompi_comm_free(own);
        *own = NULL;
    }
}
