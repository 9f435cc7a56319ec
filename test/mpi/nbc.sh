#!/bin/sh
# nbc.sh: nonblocking and persistent collectives served by coll/scc.  Every collective of
# scc_colls in its nonblocking form (scc_colls i: MPI_Ibcast ... then a wait or a test loop)
# and its persistent form (scc_colls init: MPI_Bcast_init, MPI_Start, wait), each checked
# element by element, the counters showing scc's algorithms under the forms' own names and no
# fallback, some calls ending where they were tried on their caller's stack and some going on
# as tasks (and none tried with coll_scc_nbc_try 0); scc_nbc's application patterns (many
# outstanding, every order of ending, two communicators, starts that must not wait for the
# other ranks, blocking calls between, requests and datatypes freed early, persistent
# requests started thousands of times and decided once, v-collectives whose argument arrays
# the caller let go of at the call, two threads at once); a forced algorithm in a form; the
# fallback inside a task (its nonblocking functions, never blocking progress); the setup
# started by a nonblocking call.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

colls="$SCC_BUILDDIR/test/mpi/scc_colls"
nbc="$SCC_BUILDDIR/test/mpi/scc_nbc"
all="bcast barrier reduce allreduce alltoall alltoallv gather scatter allgather reduce_scatter_block gatherv scatterv allgatherv reduce_scatter scan exscan alltoallw"

# forms_served LOG NP PRE POST: on MPI_COMM_WORLD every collective in form PRE<name>POST was
# served by scc on all NP processes, none by the fallback (prints what is missing)
forms_served() {
    _miss=""
    for c in $all; do
        scc_served "$1" "$2" MPI_COMM_WORLD " $3$c$4:[a-z_]*[^k]=[1-9]" || _miss="$_miss $3$c$4"
    done
    no_fallback "$1" "$2" " $3[a-z_]*$4:fallback=" || _miss="$_miss (fallback)"
    [ -z "$_miss" ] || echo "# not served as they should be:$_miss"
    [ -z "$_miss" ]
}

# tries_both LOG WHAT: on MPI_COMM_WORLD some nonblocking calls (WHAT "nonblocking calls") or
# persistent starts ("persistent starts") ended where they were tried (on their caller's
# stack) and some went on as tasks after their try (coll_scc_nbc_try); no task failed to skip
# what its try had sent (the replay's internal error)
tries_both() {
    grep -aq "(MPI_COMM_WORLD) rank [0-9]* size [0-9]*: $2 ended on their caller's stack [1-9]" "$1" \
        && grep -aq "(MPI_COMM_WORLD) rank [0-9]* size [0-9]*: $2 .* run as tasks [1-9]" "$1" \
        && ! grep -aq "coll:scc: internal error" "$1"
}

# replayed LOGS...: some task skipped what its try had let out (on any communicator)
replayed() {
    cat "$@" | grep -aq "run as tasks [0-9]* ([1-9][0-9]* of them skipping what their try had sent)"
}

for form in i init; do
    pre="" post=""
    [ $form = i ] && pre=i
    [ $form = init ] && post=_init
    for np in $(scc_matrix "2 3 4" "3"); do
        log="$SCC_LOGDIR/nbc-colls-$form-np$np.log"
        scc_run "$log" "$np" -- "$colls" $form
        rc=$?
        run_ok "$log" $rc "$np"
        what="nonblocking calls"
        [ $form = init ] && what="persistent starts"
        forms_served "$log" "$np" "$pre" "$post" && tries_both "$log" "$what"
        tap_check $? "scc_colls $form, np=$np: all 17 collectives as ${pre}<name>${post} served by scc on MPI_COMM_WORLD, none by the fallback; some $what ended where tried, some went on as tasks" "$log"
    done
    # the v-variants' cases (every root, zero and uneven counts, gaps, in place) in the form
    log="$SCC_LOGDIR/nbc-colls-v-$form.log"
    scc_run "$log" 4 -- "$colls" $form v 3000
    rc=$?
    run_ok "$log" $rc 4
    scc_served "$log" 4 MPI_COMM_WORLD " ${pre}gatherv${post}:flat=[1-9].* ${pre}scatterv${post}:flat=[1-9].* ${pre}allgatherv${post}:flat=[1-9]"
    tap_check $? "scc_colls $form v: gatherv, scatterv, allgatherv in the form served by flat" "$log"
done

# By default (coll_scc_persistent_ordered 0) every persistent init runs on a communicator of
# its own ("MPI_COMM_WORLD persistent"): all 17 collectives served by scc there, on every
# process, none by the fallback, none on MPI_COMM_WORLD itself
log="$SCC_LOGDIR/nbc-colls-init-own.log"
SCC_PERSISTENT_ORDERED=0 scc_run "$log" 3 -- "$colls" init
rc=$?
run_ok "$log" $rc 3
_miss=""
for c in $all; do
    for r in 0 1 2; do
        grep -aqE "\(MPI_COMM_WORLD persistent\) rank $r size 3 calls: ${c}_init:[a-z_]+=[1-9][0-9]*$" "$log" \
            || _miss="$_miss $c@$r"
    done
done
[ -z "$_miss" ] || echo "# not served on their own communicators:$_miss"
[ -z "$_miss" ] && ! grep -aq "(MPI_COMM_WORLD persistent) .*_init:fallback=" "$log" \
    && ! grep -aq "(MPI_COMM_WORLD) rank [0-9]* size 3 calls:.*_init:" "$log"
tap_check $? "scc_colls init, coll_scc_persistent_ordered 0: all 17 collectives as <name>_init served by scc, each on a communicator of its own" "$log"

# A try that let messages out and was abandoned: its task skipped them, and every result
# above was right
replayed "$SCC_LOGDIR"/nbc-colls-i-np*.log
tap_check $? "scc_colls i: some tasks skipped the messages their abandoned try had let out, results right"

# Without the try (coll_scc_nbc_try 0) every nonblocking call is a task from its start
log="$SCC_LOGDIR/nbc-colls-i-notry.log"
scc_run "$log" 3 --mca coll_scc_nbc_try 0 -- "$colls" i
rc=$?
run_ok "$log" $rc 3
forms_served "$log" 3 i "" && ! grep -aqE "(nonblocking calls|persistent starts) ended on their caller's stack" "$log"
tap_check $? "scc_colls i, np=3, coll_scc_nbc_try 0: all 17 collectives as i<name> served by scc, none tried" "$log"

# A forced algorithm holds in every form: DOPL for broadcasts, the NoC_Msg barrier
log="$SCC_LOGDIR/nbc-forced.log"
scc_run "$log" 4 --mca coll_scc_bcast_algorithm dopl --mca coll_scc_barrier_algorithm nocmsg \
    -- "$colls" init
rc=$?
run_ok "$log" $rc 4
scc_served "$log" 4 MPI_COMM_WORLD " bcast_init:dopl=[1-9]" \
    && scc_served "$log" 4 MPI_COMM_WORLD " barrier_init:nocmsg=[1-9]" \
    && no_fallback "$log" 4 " (bcast|barrier)_init:(flat|tree|jia|fallback)="
tap_check $? "forced dopl and nocmsg: the persistent broadcasts and barriers ran them, no other algorithm" "$log"

for np in $(scc_matrix "2 3 5" "3"); do
    log="$SCC_LOGDIR/nbc-np$np.log"
    scc_run "$log" "$np" -- "$nbc"
    rc=$?
    run_ok "$log" $rc "$np"
    scc_served "$log" "$np" MPI_COMM_WORLD " ibcast:.* ibarrier:tree=[0-9]+ iallreduce:.* ialltoall:flat=[0-9]+ (ialltoallv:flat=[0-9]+ )?igather:flat=[0-9]+ iallgather:flat=[0-9]+ ireduce_scatter_block:flat=[0-9]+ bcast_init:.* allreduce_init:[a-z]+=2000" \
        && ! grep -aE "size $np calls:" "$log" | grep -v "(scc_decided)" | grep -q ":fallback="
    tap_check $? "scc_nbc np=$np: every nonblocking and persistent call served by scc, the 2000 starts of one persistent allreduce counted" "$log"
    # (the blocking calls took the algorithm forced after the first start, the starts not)
    scc_served "$log" "$np" scc_decided " calls: bcast:flat=10 allreduce:flat=10 alltoall:flat=10 alltoallv:flat=10 gather:flat=10 scatter:flat=10 allgather:flat=10 reduce_scatter_block:flat=10 gatherv:flat=10 scatterv:flat=10 allgatherv:flat=10 reduce_scatter:flat=10 alltoallw:flat=10 bcast_init:tree=20 allreduce_init:tree=20 alltoall_init:ring=20 alltoallv_init:ring=20 gather_init:fallback=20 scatter_init:fallback=20 allgather_init:ring=20 reduce_scatter_block_init:ring=20 gatherv_init:ring=20 scatterv_init:ring=20 allgatherv_init:ring=20 reduce_scatter_init:ring=20 alltoallw_init:ring=20$"
    tap_check $? "scc_nbc np=$np: thirteen persistent collectives (the v-variants, alltoallw and the reduce-scatters among them) keep the algorithm decided at their first start (20 times; the blocking calls between flat as forced after it)" "$log"
    scc_served "$log" "$np" scc_arrays " calls: ialltoallv:flat=3 igatherv:flat=3 iscatterv:flat=3 iallgatherv:flat=3 ireduce_scatter:flat=3 ialltoallw:flat=3$"
    tap_check $? "scc_nbc np=$np: nonblocking v-collectives whose count, displacement and datatype arrays are overwritten and freed right after the call (as mpi4py 3.1 does) served by scc on the values given" "$log"
    scc_served "$log" "$np" scc_ibarrier " calls: ibarrier:[a-z]+=$((500 + 4 * np))$" \
        && grep -aE "\(scc_ibarrier\) rank [0-9]* size $np: nonblocking calls ended on their caller's stack [1-9]" "$log" | grep -q .
    tap_check $? "scc_nbc np=$np: ibarriers served by scc, some ended where tried (flags raised at once), none before a late rank arrived" "$log"
    scc_served "$log" "$np" scc_large " calls: ibcast:[a-z]+=4 iallreduce:[a-z]+=4 ialltoall:flat=4 igather:flat=4 iallgather:flat=4 ireduce_scatter_block:flat=4$" \
        && ! grep -aq "(scc_large) rank [0-9]* size $np: nonblocking calls ended" "$log"
    tap_check $? "scc_nbc np=$np: nonblocking calls of 64 KB blocks served by scc, none tried on the caller's stack (SCC_TRY_BYTES)" "$log"
    scc_served "$log" "$np" scc_mixed " calls: ibcast:[a-z]+=60 iallreduce:[a-z]+=60 allreduce_init:[a-z]+=60$" \
        && grep -aqE "\(scc_mixed\) rank [0-9]* size $np: persistent starts ended on their caller's stack [1-9]" "$log" \
        && ! grep -aq "coll:scc: internal error" "$log"
    tap_check $? "scc_nbc np=$np: a persistent allreduce started between nonblocking calls, a rank late every third round: served by scc, some starts ended where tried, every result right" "$log"
    scc_served "$log" "$np" scc_decided_nc " calls: allreduce_init:[a-z]+=10$" \
        && ! grep -a "(scc_decided_nc) rank [0-9]* size $np calls:" "$log" | grep -q ":fallback="
    tap_check $? "scc_nbc np=$np: a persistent non-commutative allreduce keeps its rank-ordered algorithm after the tree is forced (10 starts, no fallback)" "$log"
done

# The same patterns with each persistent collective on a communicator of its own (the default,
# coll_scc_persistent_ordered 0): right, the 2000 starts counted on "MPI_COMM_WORLD persistent",
# the decisions of "scc_decided" kept on its requests' own communicators (the tree forced before
# their first starts, the fallback forced for gather and scatter), the mixed starts counted
log="$SCC_LOGDIR/nbc-own.log"
SCC_PERSISTENT_ORDERED=0 scc_run "$log" 3 -- "$nbc"
rc=$?
run_ok "$log" $rc 3
_miss=""
for r in 0 1 2; do
    for want in "MPI_COMM_WORLD persistent) rank $r size 3 calls: allreduce_init:[a-z]+=2000" \
        "scc_decided persistent) rank $r size 3 calls: allreduce_init:tree=20" \
        "scc_decided persistent) rank $r size 3 calls: alltoallw_init:ring=20" \
        "scc_decided persistent) rank $r size 3 calls: gather_init:fallback=20" \
        "scc_mixed persistent) rank $r size 3 calls: allreduce_init:[a-z]+=60"; do
        grep -aqE "\($want\$" "$log" || _miss="$_miss [$want]"
    done
done
[ -z "$_miss" ] || echo "# missing:$_miss"
[ -z "$_miss" ] && ! grep -aE "size 3 calls:" "$log" | grep -v "(scc_decided persistent)" | grep -q ":fallback=" \
    && ! grep -aq "(MPI_COMM_WORLD) rank [0-9]* size 3 calls:.*_init:" "$log"
tap_check $? "scc_nbc, coll_scc_persistent_ordered 0: every persistent call served by scc on a communicator of its own, decisions kept, right" "$log"

# MPI_THREAD_MULTIPLE: two threads at once, each starting and ending operations on a
# communicator of its own (whose setup is a task in that thread), and making blocking calls
# between a start and its wait while the other thread's progress may be running the task
# (the blocking call waits for it), besides the rest
log="$SCC_LOGDIR/nbc-threads.log"
scc_run "$log" 3 -- "$nbc" -t
rc=$?
run_ok "$log" $rc 3
# (the threads' communicators: the only ones with 60 of them; their names differ by series)
[ "$(grep -a "rank [0-9]* size 3 calls: .*ibcast:[a-z]*=[0-9]* .*ireduce_scatter_block:flat=60\( \|$\)" "$log" | grep -vc ":fallback=")" -eq 6 ]
tap_check $? "two threads with a communicator each: every nonblocking call of both served by scc, blocking calls between a start and its wait, right" "$log"
# scc_nbc initializes the tools interface at MPI_THREAD_SINGLE after MPI_Init_thread, which
# sets Open MPI's own flag of the thread level back to single: the slot pool stays locked as
# MPI_Init made it (the threads' calls would else settle each other's acknowledgements twice)
_n=$(grep -ac "slot pages given back .*, the pool locked for MPI_THREAD_MULTIPLE$" "$log")
_all=$(grep -ac "slot pages given back " "$log")
echo "# $_n of $_all communicator reports say the pool is locked"
[ "$_all" -gt 0 ] && [ "$_n" -eq "$_all" ] \
    && ! grep -aq "pool locked for MPI_THREAD_MULTIPLE" "$SCC_LOGDIR/nbc-np3.log"
tap_check $? "MPI_THREAD_MULTIPLE as MPI_Init gave it, after MPI_T_init_thread(MPI_THREAD_SINGLE): every communicator's slot pool locked (and none in a single-threaded run)" "$log"
# ... and their persistent allreduces (20 per thread, each started 10 times) on communicators
# of their own, made by both threads (coll_scc_persistent_ordered 0)
log="$SCC_LOGDIR/nbc-threads-own.log"
SCC_PERSISTENT_ORDERED=0 scc_run "$log" 3 -- "$nbc" -t
rc=$?
run_ok "$log" $rc 3
_bad=0
for r in 0 1 2; do
    [ "$(grep -acE "persistent\) rank $r size 3 calls: allreduce_init:[a-z]+=10$" "$log")" -eq 40 ] || _bad=1
done
[ $_bad -eq 0 ] && grep -aq " 0 failures" "$log"
tap_check $? "two threads: 40 persistent allreduces per rank on communicators of their own, made by both threads, right" "$log"

# Tries that let an allreduce's first pieces out and are then abandoned, in calls of more
# pieces than slots (4 slots of 960 bytes, 1000 ints in 5 pieces): their tasks skip the pieces
# let out and read their own contribution back from those slots, which the tries must not
# have claimed again for a later piece (they did: colls.sh's parameters case then summed the
# wrong piece in about 2 runs of 100)
log="$SCC_LOGDIR/nbc-replay.log"
scc_run "$log" 4 --mca coll_scc_shm_nslots 4 --mca coll_scc_shm_slot_size 960 \
    --mca coll_scc_pipe_size 0 --mca coll_scc_cma 0 -- "$nbc" -r
rc=$?
run_ok "$log" $rc 4
# (two halves of two processes, each rank's report of its own)
[ "$(grep -a "coll:scc: comm [0-9]* (scc_replay) rank [0-9]* size 2 calls:" "$log" \
    | grep -c " calls: iallreduce:flat=3000$")" -eq 4 ] && replayed "$log"
tap_check $? "allreduces of 5 pieces in 4 slots whose tries let pieces out, then were abandoned: 3000 right sums, their tasks skipped what was out" "$log"

# Declined inside a task: the fallback's nonblocking functions, waited for at the task's turn
# (the starts before the chain of sends still return at once)
log="$SCC_LOGDIR/nbc-fallback.log"
scc_run "$log" 3 --mca coll_scc_allreduce_algorithm fallback \
    --mca coll_scc_alltoall_algorithm fallback -- "$nbc"
rc=$?
run_ok "$log" $rc 3
scc_served "$log" 3 MPI_COMM_WORLD " iallreduce:fallback=[1-9].* ialltoall:fallback=[1-9]" \
    && scc_served "$log" 3 MPI_COMM_WORLD " igather:flat=[1-9]"
tap_check $? "allreduce and alltoall forced to the fallback: their tasks ran the fallback's, the rest scc's" "$log"

# Setup started by a nonblocking call: the first 5 calls go to the fallback, the 6th (a
# nonblocking one) sets the communicator up inside its task, without blocking
log="$SCC_LOGDIR/nbc-lazy.log"
SCC_SETUP_CALLS=5 scc_run "$log" 3 -- "$nbc"
rc=$?
run_ok "$log" $rc 3
[ "$(grep -ac "(MPI_COMM_WORLD) rank [0-9]* size 3: set up at call 6 " "$log")" -eq 3 ] \
    && scc_served "$log" 3 MPI_COMM_WORLD " iallreduce:flat=[1-9]"
tap_check $? "setup_calls 5: MPI_COMM_WORLD set up at call 6 (a nonblocking one) on every process, then served" "$log"

# MPI-4.0 lets persistent collectives start in any order (they match at their inits): by
# default (coll_scc_persistent_ordered 0) each init gets a communicator of its own, named
# after its parent with " persistent", where its starts are the only calls; a broadcast, a
# barrier and an allreduce started in reverse order on odd ranks, 20 times, end right, each
# served by scc there and none on "scc_order" itself -- also where "scc_order" is not set up
# (coll_scc_setup_calls 32: the own communicators are set up at their first starts); the
# parent is freed before the requests, one request is left to MPI_Finalize
for sc in 0 32; do
    log="$SCC_LOGDIR/nbc-order-$sc.log"
    SCC_PERSISTENT_ORDERED=0 SCC_SETUP_CALLS=$sc scc_run "$log" 3 -- "$nbc" -o
    rc=$?
    run_ok "$log" $rc 3
    scc_served "$log" 3 "scc_order persistent" " bcast_init:[a-z]+=20$" \
        && scc_served "$log" 3 "scc_order persistent" " barrier_init:[a-z]+=20$" \
        && scc_served "$log" 3 "scc_order persistent" " allreduce_init:[a-z]+=20$" \
        && ! grep -aq "(scc_order persistent) .*_init:fallback=" "$log" \
        && ! grep -aq "(scc_order) rank [0-9]* size 3 calls:.*_init:" "$log" && grep -aq " 0 failures" "$log"
    tap_check $? "persistent bcast, barrier, allreduce started out of order (setup_calls $sc): each served by scc on a communicator of its own, right" "$log"
done

# At most coll_scc_persistent_comms communicators kept per process, agreed at each init: with 2,
# the broadcast and the barrier get theirs, the allreduce (third) is the fallback's request
# on "scc_order" -- still right in any order; with 0 every one is the fallback's
log="$SCC_LOGDIR/nbc-order-cap.log"
SCC_PERSISTENT_ORDERED=0 scc_run "$log" 3 --mca coll_scc_persistent_comms 2 -- "$nbc" -o
rc=$?
run_ok "$log" $rc 3
scc_served "$log" 3 "scc_order persistent" " bcast_init:[a-z]+=20$" \
    && scc_served "$log" 3 "scc_order persistent" " barrier_init:[a-z]+=20$" \
    && ! grep -aq "persistent) .*allreduce_init:" "$log" \
    && [ "$(grep -ac "(scc_order): a member keeps coll_scc_persistent_comms (2) communicators" "$log")" -eq 3 ] \
    && grep -aq " 0 failures" "$log"
tap_check $? "coll_scc_persistent_comms 2: two persistent requests on communicators of their own, the third the fallback's (agreed), out of order, right" "$log"
log="$SCC_LOGDIR/nbc-order-none.log"
SCC_PERSISTENT_ORDERED=0 scc_run "$log" 3 --mca coll_scc_persistent_comms 0 -- "$nbc" -o
rc=$?
run_ok "$log" $rc 3
[ "$(grep -ac "(scc_order): a member keeps coll_scc_persistent_comms (0) communicators" "$log")" -eq 9 ] \
    && ! grep -aq "persistent) rank" "$log" && ! grep -aq "(scc_order) rank [0-9]* size 3 calls:.*_init:" "$log" \
    && grep -aq " 0 failures" "$log"
tap_check $? "coll_scc_persistent_comms 0: every persistent request the fallback's, out of order, right" "$log"

tap_done
