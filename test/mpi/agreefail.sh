#!/bin/sh
# agreefail.sh: every member agrees or all decline.  One rank fails one step of a
# communicator's setup on purpose (coll_scc_fail_setup <rank>:<step>, a hidden parameter):
# the job must complete with every result right, and every member must report the same
# outcome -- the same decline, or the same fallback transport or setting -- and the same
# calls.  A plan a rank cannot make at a call ends the job, naming the cause.  Then roots rotating over 12 ranks: each plan is made once,
# however many rounds run.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_colls"
: "${SCC_TIMEOUT:=120}"
np=4
shmdir=$(mktemp -d /dev/shm/coll-scc-agree.XXXXXX)
trap 'rm -rf "$shmdir"' EXIT INT TERM
dev="$shmdir/rckmpb"
head -c 393216 /dev/zero > "$dev"
devopts="--mca coll_scc_transport mpb --mca coll_scc_mpb_device $dev"

# world_lines LOG PATTERN: MPI_COMM_WORLD's verbose lines, without the "[host:pid] " prefix
# and the reporting rank, that match PATTERN after "(MPI_COMM_WORLD) "
world_lines() {
    grep -a "coll:scc: comm 0 (MPI_COMM_WORLD) " "$1" | sed 's/^\[[^]]*\] //; s/rank [0-9]* //' |
        grep -a -- "(MPI_COMM_WORLD) $2"
}

# same_for_all LOG PATTERN: np lines match, all alike
same_for_all() {
    _l=$(world_lines "$1" "$2")
    [ -n "$_l" ] && [ "$(printf '%s\n' "$_l" | wc -l)" -eq $np ] &&
        [ "$(printf '%s\n' "$_l" | sort -u | wc -l)" -eq 1 ]
}

# fail_case NAME RANK STEP OUTCOME [mpirun options...]: rank RANK fails STEP; OUTCOME is
# what every member must say of MPI_COMM_WORLD (a pattern after "size $np: ")
fail_case() {
    name=$1; rank=$2; step=$3; outcome=$4; shift 4
    log="$SCC_LOGDIR/agreefail-$name.log"
    scc_run "$log" $np --mca coll_scc_fail_setup "$rank:$step" "$@" -- "$prog"
    rc=$?
    [ $rc -eq 0 ] && scc_no_failures "$log"
    tap_check $? "$name: rank $rank fails $step, the job completes (rc $rc) and every result is right" "$log"
    grep -aq "size $np: rank $rank: $step fails here" "$log" && same_for_all "$log" "size $np: $outcome"
    tap_check $? "$name: every member says the same of MPI_COMM_WORLD: $outcome" "$log"
    same_for_all "$log" "size $np calls:"
    tap_check $? "$name: every member reports the same calls" "$log"
}

declined="declined (topology or trees not set up on every member); the fallback"
fail_case topo 2 topo "$declined"
fail_case place 1 place "$declined"
fail_case children 1 children "$declined"
fail_case xport 3 xport "declined (no transport: Out of resource)"
fail_case segment-rank0 0 segment "declined (no transport: Out of resource)"
fail_case segment-file 2 segment "declined (no transport: Out of resource)" \
    --mca coll_scc_shm_backing file --mca coll_scc_shm_dir "$shmdir"
fail_case buffers 1 buffers "declined (no transport: Out of resource)"
fail_case cma 2 cma "transport shm, .* single copy off,"
fail_case plans 3 plans "declined (plans not set up on every member)"
fail_case mpb-emulated 1 mpb "message-passing buffers unavailable, using shared memory" \
    --mca coll_scc_mpb_emulate 1
fail_case mpb-segment 3 segment "declined (no transport: Out of resource)" \
    --mca coll_scc_mpb_emulate 1
fail_case mpb-device 2 device "message-passing buffers unavailable, using shared memory" $devopts
fail_case mpb-claim 3 claim "message-passing buffers unavailable, using shared memory" $devopts
fail_case pml 1 pml "declined (no transport: Out of resource)" --mca coll_scc_transport pml
# at calls a rank makes its plans alone (no agreement: the ranks' sets may differ): one it
# cannot make, the others already run, and nobody can tell them -- the job ends at once,
# with one message naming the cause (not a hang)
plan_case() {
    name=$1; rank=$2; shift 2
    log="$SCC_LOGDIR/agreefail-$name.log"
    scc_run "$log" $np --mca coll_scc_fail_setup "$rank:plan" "$@" -- "$prog"
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -aq "size $np: rank $rank: plan fails here" "$log" &&
        [ "$(grep -ac "there is no memory for its schedule" "$log")" -eq 1 ]
    tap_check $? "$name: rank $rank cannot make a plan at a call: the job ends naming the cause (rc $rc)" "$log"
}
plan_case plan-shm 2
plan_case plan-pml 1 --mca coll_scc_transport pml
# what fails on several processes is told by the lowest that failed, each process telling a
# cause once: at most once per process (the failing ranks are ranks of each communicator, so
# other processes fail in each), however many communicators the program makes -- not once per
# process and communicator (11 and 8 times before)
for t in "segment 1:segment,2:segment,3:segment $np could not attach its shared-memory" \
         "device 1:device,3:device $np could not map the SCC's message-passing"; do
    set -- $t
    step=$1; ranks=$2; most=$3; shift 3
    log="$SCC_LOGDIR/agreefail-told-$step.log"
    opts=""
    [ "$step" = device ] && opts=$devopts
    # shellcheck disable=SC2086 # options, split on purpose
    scc_run "$log" $np --mca coll_scc_fail_setup "$ranks" $opts -- "$prog"
    rc=$?
    told=$(grep -ac "The scc collective component $*" "$log")
    [ $rc -eq 0 ] && scc_no_failures "$log" && [ "$told" -ge 1 ] && [ "$told" -le "$most" ] &&
        [ "$(grep -ac "$step fails here" "$log")" -ge 1 ]
    tap_check $? "$step failing on ranks $ranks: the job completes, right; told $told time(s)" "$log"
done
[ -z "$(ls -A "$shmdir" | grep -v rckmpb)" ]
tap_check $? "no segment file left behind"

# Roots rotating over 12 ranks (more than any small cache): each (collective, root, size)
# plan is made once, so rounds add no plans; a broadcast and a reduction checked every call.
roots="$SCC_BUILDDIR/test/mpi/scc_roots"
forced="--mca coll_scc_bcast_algorithm tree --mca coll_scc_reduce_algorithm tree"
made=""
for rounds in 2 6; do
    log="$SCC_LOGDIR/agreefail-roots-r$rounds.log"
    # shellcheck disable=SC2086
    scc_run "$log" 12 $forced -- "$roots" -s 65536 -r $rounds
    rc=$?
    [ $rc -eq 0 ] && scc_no_failures "$log" && scc_served "$log" 12 MPI_COMM_WORLD "bcast:tree=" &&
        scc_served "$log" 12 MPI_COMM_WORLD "reduce:tree="
    tap_check $? "roots-r$rounds: bcast and reduce of 64 KB from every root in turn, $rounds rounds: right, served by the tree" "$log"
    n=$(world_lines "$log" "size 12: plans:" | sed -n 's/.* \([0-9]*\) at calls, 0 declined.*/\1/p' | sort -u)
    [ "$(printf '%s\n' "$n" | grep -c .)" -eq 1 ] && [ "$n" -ge 24 ] && [ "$n" -le 28 ]
    tap_check $? "roots-r$rounds: every member made the same plans at calls, one per root and collective (24, and the program's own few): ${n:-none}" "$log"
    made="$made $n"
done
set -- $made
[ $# -eq 2 ] && [ "$1" -eq "$2" ]
tap_check $? "roots: 6 rounds make no more plans than 2 ($made)"
tap_done
