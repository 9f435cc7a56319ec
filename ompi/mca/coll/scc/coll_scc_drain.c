/* coll_scc_drain.c: a call that goes wrong on some members still ends on all of them.
 *
 * Two things make a call end everywhere and leave nothing behind for the next one:
 *   - The shape.  Every header carries the call's shape as its sender sees it (a broadcast:
 *     its algorithm and bytes).  A broadcast receiver checks its first message against its
 *     own; one whose count differs from the root's finds the root's shape there -- or, when
 *     the message it waits for never comes (its count picked another algorithm), in any
 *     header of the call on its node or first message of the call over the pml (which
 *     carries the shape too: coll_scc_xport_pml.c) -- and runs the call again as the root does
 *     (coll_scc_bcast.c).  Nothing of the call was consumed before.
 *   - Poison.  A member whose call fails (memory it cannot get, a message of the wrong
 *     length, a poisoned message) goes on through every step of the call without data
 *     (x->fail): its messages carry poison instead (a header without payload, its error
 *     class in the kind; over the pml a message of another length) and it only takes the
 *     ones sent to it.  Every member whose data came through a poisoned message returns
 *     that error; the others succeed; every slot is acknowledged, every pml message taken.
 * Where a member cannot go through the call without data (an algorithm that combines or
 * moves data in place, a plan it cannot make) nobody could tell the others, who already
 * wait for it: the job ends with a message naming the cause (mca_coll_scc_call_failed). */
#include "coll_scc_component.h"
#include "coll_scc_drain.h"
#include "coll_scc_xport.h"

#include "ompi/runtime/mpiruntime.h"

/* True when header h of peer holds a message of this call; *id gets its id. */
static bool scc_hdr_of_call(const scc_xport_t *x, scc_msg_hdr_t *h, uint64_t *id)
{
    if (OPAL_UNLIKELY(x->invalidate)) {
        scc_mpb_invalidate();
    }
    if (scc_load32(&h->call_hi) != scc_msg_call_hi(x)) {
        return false;
    }
    *id = scc_load64(&h->id);
    return SCC_MSG_ID_NONE != *id && (uint32_t) (*id >> 32) == (uint32_t) x->call;
}

/* Looks at every header of my node for a message of this call: its shape is the call's
 * (everyone who publishes in a broadcast runs it as the root does).  The id read again
 * after the shape proves the shape belongs to it (scc_publish withdraws the id first). */
bool scc_shape_scan(scc_xport_t *x)
{
    for (int r = 0; r < x->size; ++r) {
        if (r == x->rank || scc_xport_by_pml(x, r)) {
            continue;
        }
        for (int slot = 0; slot < x->nslots; ++slot) {
            scc_msg_hdr_t *h = scc_hdr(x, r, slot);
            uint64_t id, shape;
            if (!scc_hdr_of_call(x, h, &id)) {
                continue;
            }
            shape = scc_hdr_shape(h);
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (scc_load(x, &h->id) != id || shape == x->shape) {
                continue;
            }
            x->met = shape;
            return true;
        }
    }
    return false;
}

int mca_coll_scc_call_failed(scc_xport_t *x, bool drain, int rc, const char *what)
{
    const scc_members_t *mb = x->mb;

    if (drain) {
        if (0 == x->fail) {
            x->fail = rc;
        }
        SCC_VERBOSE(2, "coll:scc: comm %u (%s) rank %d size %d: MPI_%s: %s: the call goes "
                    "on without data here", mb->cid, mb->name, mb->rank, mb->size,
                    scc_mpi_name(*mb->cur_coll), what);
        return rc;
    }
    mca_coll_scc_show_help("call-failed", mb->cid, mb->name, mb->rank, mb->size,
                           scc_mpi_name(*mb->cur_coll), what);
    (void) ompi_mpi_abort(x->comm, rc);
    return rc;
}
