#!/bin/sh
# hang.sh: a call that is erroneous or fails on some members ends on every member and leaves
# the communicator usable (scc_hang; README, "Erroneous and failing calls").  Every mpirun
# runs under a timeout: a hang is a failure.
#   - Broadcasts whose receivers pass more or fewer bytes than the root, 40 B to 4 MB, from
#     three roots, each followed by right calls checked byte by byte: at 2 (to 4 MB) and 4
#     (to 1 MB) processes on the table's algorithms (direct and trees, which the receivers'
#     counts may choose apart), at 5 with every algorithm forced, on the emulated SCC
#     buffers, with the messages read single-copy (process_vm_readv) from 8 KB, and over
#     the pml transport (the shape in each sender's first message to a reader).
#   - Scatterv whose reader passes a count on the other side of the 512-byte cutoff than the
#     root's part for it (parts up to it go alone, larger ones through the root's table),
#     both ways, and on the same side: that reader returns MPI_ERR_TRUNCATE, the others
#     their parts; at 2, 4 and 9 processes (more messages than slots), on the emulated SCC
#     buffers and with 64-byte slots (the cutoff at 64 bytes).
#   - A failure injected into one call on one member (coll_scc_fail_setup R:scratch@N, its
#     scratch buffers), in broadcasts and reductions, over shared memory and over the pml:
#     the member returns an error, the others end the call, the next calls are right.
#   - A call no member can end with an error (an in-place alltoall whose copy fails): the
#     job ends, naming the cause.
# The component must have served the calls (verbose 2 call reports, no fallback).
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_hang"
: "${SCC_TIMEOUT:=240}"


# mismatch NAME NP ALGS "SCC_HANG OPTIONS" [mpirun options]: erroneous broadcasts; ALGS:
# what the table may run (the communicators of forced algorithms must run theirs)
mismatch() {
    name=$1; np=$2; algs=$3; args=$4; shift 4
    log="$SCC_LOGDIR/hang-$name.log"
    # shellcheck disable=SC2086 # $args: words on purpose
    scc_run "$log" "$np" "$@" -- "$prog" $args
    rc=$?
    [ $rc -eq 0 ] && scc_no_failures "$log"
    tap_check $? "$name: $np processes, erroneous broadcasts end everywhere with the root's data or MPI_ERR_TRUNCATE, the next calls right (rc $rc, $(grep -ao '[0-9]* checks' "$log" | head -n 1))" "$log"
    st=0
    # shellcheck disable=SC2013 # algorithm names: one word each
    for a in $(sed -n 's/^hang-comm: (hang bcast \(.*\)) done$/\1/p' "$log"); do
        want=$a
        [ "$a" = auto ] && want=$algs
        scc_bcast_served "$log" "$np" "hang bcast $a" "$want" ||
            { echo "# hang bcast $a: not served by $want on every process"; st=1; }
    done
    grep -aq "^hang-comm: " "$log" || st=1
    tap_check $st "$name: scc served every broadcast ($algs), none went to the fallback" "$log"
}

# Past 1 MB no threshold of the table or the transports is crossed: one size beyond it, 4 MB
# (16 MB repeated it at 4 times the bytes), at 2 processes only, where the buffers fill and
# check fastest; the reduced run (.ci/run's second series) stops at 1 MB there too
mismatch np2 2 flat "-s 40,1000,1024,4099,65536,400000,1048576$(scc_matrix ,4194304 "")"
mismatch np4 4 "tree|flat" "-s 40,1000,1024,4099,65536,400000,1048576"
mismatch forced 5 "tree|flat|jia|dopl|nocmsg" "-a tree,flat,jia,dopl,nocmsg -s 40,1000,65537,1048576"
mismatch mpb 4 "tree|flat" "-a auto -s 40,1000,65536,400000,1048576" --mca coll_scc_mpb_emulate 1
mismatch pml 4 "tree|jia|dopl|nocmsg" "-a auto,tree,jia,dopl,nocmsg -s 40,1000,65537,400000,1048576" \
    --mca coll_scc_transport pml
mismatch single-copy 4 "tree|flat" "-a auto,flat,jia -s 40,1000,65536,400000,1048576" \
    --mca coll_scc_cma_min 8192

# vmismatch NAME NP [mpirun options]: erroneous scatterv (scc_hang -v), every call served
# by scc's direct algorithm (as many as the program counted), none by the fallback
vmismatch() {
    name=$1; np=$2; shift 2
    log="$SCC_LOGDIR/hang-$name.log"
    scc_run "$log" "$np" "$@" -- "$prog" -v
    rc=$?
    [ $rc -eq 0 ] && scc_no_failures "$log"
    tap_check $? "$name: $np processes, a scatterv reader whose count crosses the root's part's cutoff returns MPI_ERR_TRUNCATE, the others their parts, the next calls right (rc $rc)" "$log"
    calls=$(sed -n 's/^hang-scatterv: \([0-9]*\) calls$/\1/p' "$log")
    [ -n "$calls" ] && scc_served "$log" "$np" "hang scatterv" " scatterv:flat=$calls( |\$)" &&
        ! grep -a "(hang scatterv) rank .* calls:" "$log" | grep -q ":fallback="
    tap_check $? "$name: scc's direct algorithm served all ${calls:-?} scatterv calls" "$log"
}

vmismatch scatterv-np2 2
vmismatch scatterv-np4 4
vmismatch scatterv-np9 9
vmismatch scatterv-mpb 4 --mca coll_scc_mpb_emulate 1
vmismatch scatterv-slot64 3 --mca coll_scc_shm_slot_size 64

# allgatherv whose ranks disagree on a part's size (scc_hang -g): single copy for odd ranks'
# parts, the slots for even ranks' (coll_scc_cma_adapt 2), parts of 1 KB to 300 KB: the rank
# that takes a part for more than is sent gets MPI_ERR_TRUNCATE, the others their parts or
# the same error, every call ends (a reader must know which parts came single copy even
# after an error: no piece of them follows) and the next are right
log="$SCC_LOGDIR/hang-allgatherv.log"
scc_run "$log" 4 --mca coll_scc_cma_adapt 2 -- "$prog" -g
rc=$?
calls=$(sed -n 's/^hang-allgatherv: \([0-9]*\) calls$/\1/p' "$log")
[ $rc -eq 0 ] && scc_no_failures "$log" && [ -n "$calls" ] &&
    scc_served "$log" 4 "hang allgatherv" " allgatherv:flat=$calls( |\$)"
tap_check $? "allgatherv, 4 processes, a rank takes a part for more bytes than sent (single copy and slots): MPI_ERR_TRUNCATE there, every call ends, the next right; scc served all ${calls:-?} (rc $rc)" "$log"

# fault NAME [mpirun options]: rank R fails every scratch buffer of call N of "hang fault",
# at each probe of scc_hang -f (call 4k + 2), at a receiver, a root, a reduction's member
failures="2:scratch@2,3:scratch@6,3:scratch@10,0:scratch@14,2:scratch@18,1:scratch@22,0:scratch@26,1:scratch@30"
fault() {
    name=$1; shift
    log="$SCC_LOGDIR/hang-$name.log"
    scc_run "$log" 4 --mca coll_scc_fail_setup "$failures" "$@" -- "$prog" -f
    rc=$?
    [ $rc -eq 0 ] && scc_no_failures "$log" && [ "$(grep -ac '^hang-probe: ' "$log")" -eq 8 ]
    tap_check $? "$name: a member that fails a call returns an error, every member ends it, the next calls are right (rc $rc)" "$log"
    scc_bcast_served "$log" 4 "hang fault" "tree|flat" && scc_served "$log" 4 "hang fault" " reduce:tree=3"
    tap_check $? "$name: scc served the probes" "$log"
}

fault fault-shm
fault fault-pml --mca coll_scc_transport pml

# fatal NAME SPEC CALL: the job must end (not hang, not succeed) with one message naming
# the call and the cause (a plan that cannot be made: agreefail.sh)
fatal() {
    log="$SCC_LOGDIR/hang-$1.log"
    scc_run "$log" 3 --mca coll_scc_fail_setup "$2" -- "$prog" -x
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && ! grep -aq "the job went on" "$log" &&
        [ "$(grep -ac "cannot go on with a call on communicator" "$log")" -eq 1 ] &&
        grep -aq "$3" "$log"
    tap_check $? "$1: the job ends with a message naming the cause (rc $rc)" "$log"
}

fatal abort-scratch 1:scratch@2 "In MPI_Alltoall,"
tap_done
