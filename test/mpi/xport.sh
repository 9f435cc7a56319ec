#!/bin/sh
# xport.sh: the transports under the collectives -- shm (memfd and file backed, with and
# without single copy), the SCC message-passing buffers emulated (4 and 48 processes) and
# from a device file shared by communicators, a segment that cannot be created, and a run
# killed in the middle: results must be right and nothing may stay in /dev/shm.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_xport"
flat="--mca coll_scc_bcast_algorithm flat"
shmdir=$(mktemp -d /dev/shm/coll-scc-test.XXXXXX)
trap 'rm -rf "$shmdir"' EXIT INT TERM

# run_case NAME NP TRANSPORT-PATTERN [mpirun options...] -- PROGRAM ARGS
run_case() {
    name=$1; np=$2; pat=$3; shift 3
    log="$SCC_LOGDIR/xport-$name.log"
    scc_run "$log" "$np" $flat "$@"
    rc=$?
    scc_selected "$log" "$np" MPI_COMM_WORLD && [ "$(grep -c "MPI_COMM_WORLD) size $np: transport $pat" "$log")" -eq "$np" ]
    tap_check $? "$name: every process attached MPI_COMM_WORLD to $pat" "$log"
    [ $rc -eq 0 ] && scc_no_failures "$log" && scc_served "$log" "$np" MPI_COMM_WORLD "bcast:flat="
    tap_check $? "$name: broadcasts of 0 B..4 MB, back-to-back and interleaved are right, served by scc" "$log"
}

run_case shm-np2 2 "shm" -- "$prog"
run_case shm-np4-threads 4 "shm" -- "$prog" -t -n 1000 -m 2000000
# a budget of one byte of slot pages per process: every communicator whose slots a message
# needs takes them back from the one used before it, between calls and between two threads
run_case shm-np3-resident 3 "shm" --mca coll_scc_shm_resident 1 -- "$prog" -n 1000
run_case shm-np4-threads-resident 4 "shm" --mca coll_scc_shm_resident 1 -- "$prog" -t -n 1000 -m 2000000
run_case shm-nocma-np3 3 "shm, .* single copy off" --mca coll_scc_cma 0 -- "$prog" -n 1000
run_case shm-file-np3 3 "shm" --mca coll_scc_shm_backing file --mca coll_scc_shm_dir "$shmdir" -- "$prog" -n 1000
[ -z "$(ls -A "$shmdir")" ]
tap_check $? "shm-file: the segment file was removed" 
run_case mpb-emulated-np4 4 "mpb (emulated SCC)" --mca coll_scc_mpb_emulate 1 -- "$prog" -n 1000 -m 2000000
run_case mpb-emulated-np48 48 "mpb (emulated SCC)" --mca coll_scc_mpb_emulate 1 -- "$prog" -n 200 -m 70000

# DOPL cuts a part (coll_scc_dopl_chunks blocks, one message) to fit the transport's slot:
# 64 chunks in the emulated SCC's 1728-byte slots (blocks were raised to 64 bytes, the part
# outgrew the slot, the root's MPI_Bcast failed while the others waited).
log="$SCC_LOGDIR/xport-dopl-chunks.log"
scc_run "$log" 4 --mca coll_scc_mpb_emulate 1 --mca coll_scc_bcast_algorithm dopl \
    --mca coll_scc_dopl_chunks 64 -- "$prog" -n 100 -m 300000
[ $? -eq 0 ] && scc_no_failures "$log" && scc_served "$log" 4 MPI_COMM_WORLD "bcast:dopl="
tap_check $? "dopl-chunks: 64 chunks a part in the SCC's slots: every broadcast right" "$log"

# Messages far larger than the slots (256 MB), and communicators made and freed in loops.
big="$SCC_BUILDDIR/test/mpi/scc_big"
for t in "shm 2 256" "mpb 3 24" "pml 2 64"; do
    set -- $t
    case $1 in
        shm) opts="" ;;
        mpb) opts="--mca coll_scc_mpb_emulate 1" ;;
        pml) opts="--mca coll_scc_transport pml" ;;
    esac
    log="$SCC_LOGDIR/xport-big-$1.log"
    # shellcheck disable=SC2086
    scc_run "$log" "$2" $opts -- "$big" -s "$3" -l 150
    rc=$?
    [ $rc -eq 0 ] && scc_no_failures "$log" && scc_served "$log" "$2" MPI_COMM_WORLD "allreduce:[a-z]+=" \
        && ! scc_served "$log" "$2" MPI_COMM_WORLD "bcast:fallback|allreduce:fallback|reduce:fallback"
    tap_check $? "big-$1: $3 MB bcast/allreduce/reduce served by scc and right; 300 communicators made and freed hold nothing" "$log"
done

# An allgather (blocking and nonblocking) whose whole buffer counts more elements than an
# int holds: 2 GB of MPI_BYTE at 2 processes, used where it is (it was copied through a
# scratch buffer as large, twice the memory).
log="$SCC_LOGDIR/xport-big-count.log"
avail=$(awk '/^MemAvailable:/ { print int($2 / 1048576) }' /proc/meminfo)
if [ "${avail:-0}" -lt 6 ]; then
    echo "big-count: needs 6 GB of memory available, this machine has ${avail:-?} GB" > "$log"
    false
else
    scc_run "$log" 2 -- "$big" -c -s 1 -l 1
    [ $? -eq 0 ] && scc_no_failures "$log" && scc_served "$log" 2 MPI_COMM_WORLD " allgather:[a-z]+=" \
        && scc_served "$log" 2 MPI_COMM_WORLD "iallgather:[a-z]+=" \
        && scc_served "$log" 2 MPI_COMM_WORLD " alltoallv:flat=1( |$)" \
        && scc_served "$log" 2 MPI_COMM_WORLD "ialltoallv:flat=1( |$)"
fi
tap_check $? "big-count: allgather and iallgather of 2 x 1 GB bytes (more than INT32_MAX), alltoallv and ialltoallv in place of 1 GB: right, no copy of the buffer" "$log"

# Alltoalls and alltoallvs in place (blocking and nonblocking) of 256 KB and 4 MB in all: by
# the direct and pairwise exchanges each piece leaves before its peer's lands there, through
# the slots and over the pml transport (whole blocks sent from copies, a round per call); the
# pair lists (NoC_Msg on a described mesh) send from a copy of the blocks, an alltoall only up
# to coll_scc_inplace_copy_max bytes (1 MB here), beyond it the fallback serves it.
# inplace_case NAME EXPECT [mpirun options]: EXPECT, the counters every rank must report
inplace_case() {
    name=$1 expect=$2
    shift 2
    log="$SCC_LOGDIR/xport-inplace-$name.log"
    scc_run "$log" 3 --mca coll_scc_inplace_copy_max 1048576 "$@" -- "$big" -i -s 1 -l 1
    rc=$?
    for c in $expect; do
        [ $rc -eq 0 ] && scc_served "$log" 3 MPI_COMM_WORLD " $c( |$)" || rc=1
    done
    [ $rc -eq 0 ] && scc_no_failures "$log"
    tap_check $? "inplace-$name: alltoall(v) and ialltoall(v) in place of 256 KB and 4 MB at 3: $expect; right" "$log"
}
inplace_case flat "alltoall:flat=2 ialltoall:flat=2 alltoallv:flat=2 ialltoallv:flat=2" \
    --mca coll_scc_alltoall_algorithm flat
inplace_case pml "alltoall:ring=2 ialltoall:ring=2 alltoallv:ring=2 ialltoallv:ring=2" \
    --mca coll_scc_transport pml --mca coll_scc_alltoall_algorithm ring \
    --mca coll_scc_alltoallv_algorithm ring
inplace_case nocmsg "alltoall:nocmsg=1 alltoall:fallback=1 ialltoall:nocmsg=1 ialltoall:fallback=1 alltoallv:nocmsg=2 ialltoallv:nocmsg=2" \
    --mca coll_scc_mesh 3x1 --mca coll_scc_mesh_key rank

# Single copy by the probe (coll_scc_cma_min -2, the default): each process measures once
# whether process_vm_readv takes at most 3.5 times what memcpy does; where every member
# finds it fast and has a core, single copy serves from 8 KB (and so do the reductions at 2
# processes, up to 512 KB: coll_scc_cma_reduce_min -2),
# else it stays off -- the same on every member, also when one member's probe says slow
# (coll_scc_fail_setup 1:cmafast).
if [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ]; then
    fast_line="single copy on from 8192 bytes \(blocks per peer from 8192: measured fast, coll_scc_cma_min -2\), reductions single-copy from 8192 to 524288 bytes \(coll_scc_cma_reduce_min -2\)"
    for agree in "" "1:cmafast"; do
        log="$SCC_LOGDIR/xport-cma-probe${agree:+-agree}.log"
        scc_run "$log" 2 --bind-to core ${agree:+--mca coll_scc_fail_setup $agree} -- "$SCC_BUILDDIR/test/mpi/scc_colls"
        rc=$?
        nfast=$(grep -ac "single copy measured: .*: fast" "$log")
        world=$(grep -a "comm 0 (MPI_COMM_WORLD) size 2: transport" "$log" | sed 's/^\[[^]]*\] //' | sort -u)
        if [ "$nfast" -eq 2 ] && [ -z "$agree" ]; then
            want="$fast_line" what="single copy from 8 KB"
        else
            want="single copy where timed calls find it faster" what="single copy off (allgathers timed)"
        fi
        [ $rc -eq 0 ] && scc_no_failures "$log" && [ "$(grep -ac "single copy measured" "$log")" -eq 2 ] &&
            [ "$(printf '%s\n' "$world" | wc -l)" -eq 1 ] && printf '%s\n' "$world" | grep -qE "$want" &&
            { [ -z "$agree" ] || grep -aq "rank 1: cmafast fails here" "$log"; }
        tap_check $? "cma-probe${agree:+ (rank 1 slow)}: $nfast of 2 processes measure single copy fast; both ranks: $what; right" "$log"
    done
    # coll_scc_cma_min 0 keeps messages off single copy when the reductions' default measures
    # (coll_scc_cma_reduce_min -2): only the reductions may take it
    log="$SCC_LOGDIR/xport-cma-min0.log"
    scc_run "$log" 2 --bind-to core --mca coll_scc_cma_min 0 -- "$SCC_BUILDDIR/test/mpi/scc_colls"
    rc=$?
    [ $rc -eq 0 ] && scc_no_failures "$log" &&
        [ "$(grep -ac "comm 0 (MPI_COMM_WORLD) size 2: transport shm" "$log")" -eq 2 ] &&
        ! grep -aq "comm 0 (MPI_COMM_WORLD) size 2: transport shm.* single copy on from" "$log"
    tap_check $? "cma-min0: coll_scc_cma_min 0 with the reductions' probe: messages not single copy; right" "$log"
    # Two processes, single copy (given here, not measured): a reduce's root reads the
    # other's input whole, one read per call of 64 KB, and the other reads nothing (a
    # reduce-scatter would read on both, twice per call for an allreduce); an allreduce's
    # ranks read once per call each; a gather's root reads every block, its sender nothing.
    # Blocking and nonblocking, every element checked.
    for form in b i; do
        log="$SCC_LOGDIR/xport-cma-pull-$form.log"
        scc_run "$log" 2 --bind-to core --mca coll_scc_cma_min 8192 --mca coll_scc_cma_reduce_min 8192 \
            -- "$SCC_BUILDDIR/test/bench/scc_bench" -c reduce,allreduce,gather -s 64K -r 0 -i 40 -w 4 \
            -a flat -F "$form" -C
        rc=$?
        why=""
        for c in reduce allreduce gather; do
            for r in 0 1; do
                calls=$(grep -a "comm [0-9]* (scc_bench $c flat) rank $r size 2 calls:" "$log" |
                    grep -oE " i?$c:flat=[0-9]+" | cut -d= -f2)
                reads=$(grep -a "comm [0-9]* (scc_bench $c flat) rank $r size 2: single-copy reads" "$log" |
                    awk '{ print $NF }')
                want=$calls
                [ "$c" != allreduce ] && [ "$r" = 1 ] && want=""
                [ -n "$calls" ] && [ "$calls" -ge 44 ] && [ "$reads" = "$want" ] ||
                    why="$why $c rank $r: ${calls:-no} calls, ${reads:-no} reads;"
            done
        done
        [ $rc -eq 0 ] && [ -z "$why" ] && grep -aq "results: all correct" "$log" &&
            grep -aq "reductions single-copy from 8192 bytes" "$log"
        tap_check $? "cma-pull ($form): 2 processes: reduce read whole by its root, allreduce once by each, gather by its root; right${why:+ (not:$why)}" "$log"
    done
else
    tap_ok "cma-probe: single copy by the probe # SKIP needs 2 cores"
    tap_ok "cma-probe (rank 1 slow) # SKIP needs 2 cores"
    tap_ok "cma-min0 # SKIP needs 2 cores"
    tap_ok "cma-pull (b) # SKIP needs 2 cores"
    tap_ok "cma-pull (i) # SKIP needs 2 cores"
fi

# A device file: the SCC's 24 tiles x 16 KB, shared by all communicators of the job.
dev="$shmdir/rckmpb"
head -c 393216 /dev/zero > "$dev"
log="$SCC_LOGDIR/xport-mpb-device.log"
scc_run "$log" 4 $flat --mca coll_scc_transport mpb --mca coll_scc_mpb_device "$dev" -- "$prog" -n 500 -m 100000
rc=$?
[ "$(grep -c "MPI_COMM_WORLD) size 4: transport mpb (SCC message-passing buffers)" "$log")" -eq 4 ]
tap_check $? "mpb-device: MPI_COMM_WORLD claims the cores' buffers of the device file" "$log"
[ "$(grep -c "in use by another communicator" "$log")" -ge 4 ] && [ "$(grep -c "DUP FROM 0) size 4: transport shm" "$log")" -ge 4 ]
tap_check $? "mpb-device: communicators created while they are claimed use shared memory" "$log"
[ $rc -eq 0 ] && scc_no_failures "$log"
tap_check $? "mpb-device: results right" "$log"

# Core ids (as probed) against the rank order: MPI_COMM_WORLD's repeat a core (no buffers for
# it), the even ranks' half sits on cores 7 and 3 and claims their buffers, each rank its own.
head -c 393216 /dev/zero > "$dev"
log="$SCC_LOGDIR/xport-mpb-device-cores.log"
scc_run "$log" 4 --mca coll_scc_transport mpb --mca coll_scc_mpb_device "$dev" -- \
    "$SCC_SRCDIR/test/mpi/scc_env_core.sh" "7 1 3 1" "$SCC_BUILDDIR/test/mpi/scc_colls"
rc=$?
[ "$(grep -ac "SPLIT FROM 0) size 2: transport mpb (SCC message-passing buffers), rank 0 on core 7 (SCC core id)" "$log")" -eq 1 ] \
    && [ "$(grep -ac "SPLIT FROM 0) size 2: transport mpb (SCC message-passing buffers), rank 1 on core 3 (SCC core id)" "$log")" -eq 1 ] \
    && [ "$(grep -ac ": transport mpb" "$log")" -eq 2 ] \
    && [ "$(grep -ac "MPI_COMM_WORLD) size 4: transport shm" "$log")" -eq 4 ]
tap_check $? "mpb-device-cores: the half on cores 7 and 3 claims their buffers, each rank its own core" "$log"
[ $rc -eq 0 ] && scc_no_failures "$log"
tap_check $? "mpb-device-cores: results right" "$log"
rm -f "$dev"

# A segment that cannot be created: the communicator is declined with a message, the job goes on.
log="$SCC_LOGDIR/xport-nospace.log"
scc_run "$log" 3 $flat --mca coll_scc_shm_backing file --mca coll_scc_shm_dir /nonexistent/dir -- "$prog" -n 200 -m 100000
rc=$?
grep -q "could not create its shared-memory segment" "$log" && [ "$(grep -c "MPI_COMM_WORLD) size 3: declined (no transport" "$log")" -eq 3 ]
tap_check $? "no-segment: a clear message, and every process declines MPI_COMM_WORLD" "$log"
[ $rc -eq 0 ] && scc_no_failures "$log" && scc_served "$log" 3 MPI_COMM_WORLD "bcast:fallback=" && ! scc_served "$log" 3 MPI_COMM_WORLD "bcast:flat="
tap_check $? "no-segment: the fallback serves every call, results right" "$log"

# Message ids hold the whole 64-bit count of calls.  Each communicator's count starts just
# below 2^32 or 2^33 (coll_scc_call_base, a test hook), so it crosses the boundary within its
# first calls, while some slots still hold what was written 2^32 calls earlier (their first
# zeros): ids that kept 32 bits of the count took those for new messages (MPI_Bcast: message
# truncated, or wrong data).
colls="$SCC_BUILDDIR/test/mpi/scc_colls"
for t in "shm 4294967293" "shm 4294967289" "mpb 4294967293" "shm 8589934587"; do
    set -- $t
    opts=""
    [ "$1" = mpb ] && opts="--mca coll_scc_mpb_emulate 1"
    log="$SCC_LOGDIR/xport-callbase-$1-$2.log"
    # shellcheck disable=SC2086
    scc_run "$log" 4 $opts --mca coll_scc_call_base "$2" -- "$colls"
    rc=$?
    [ "$(grep -ac "(MPI_COMM_WORLD) rank [0-9] size 4: calls counted from $2 " "$log")" -eq 4 ] \
        && [ $rc -eq 0 ] && scc_no_failures "$log" && scc_served "$log" 4 MPI_COMM_WORLD "bcast:"
    tap_check $? "call-base $1 $2: every communicator crosses the boundary, all collectives right" "$log"
done

# A run whose processes are killed with SIGKILL in the middle leaves nothing behind.  The
# victim is an MPI process (pgrep on the command line's start: mpirun's and timeout's name
# the program too), killed once every process attached; mpirun must report a process killed
# by signal 9 and end the job with an error, the program must not have finished, and no
# process of the run may be left.
for backing in memfd file; do
    log="$SCC_LOGDIR/xport-killed-$backing.log"
    rm -f "$log"
    ( scc_run "$log" 4 $flat --mca coll_scc_shm_backing $backing --mca coll_scc_shm_dir "$shmdir" -- "$prog" -n 100000000 ) &
    runner=$!
    victim=""
    tries=0
    while [ -z "$victim" ] && [ $tries -lt 120 ] && kill -0 $runner 2> /dev/null; do
        sleep 0.5
        tries=$((tries + 1))
        n=$(grep -ac "MPI_COMM_WORLD) size 4: transport shm" "$log" 2> /dev/null)
        [ "${n:-0}" -eq 4 ] || continue
        victim=$(pgrep -f "^$prog -n 100000000" | tail -n 1)
    done
    killed=1
    [ -n "$victim" ] && kill -KILL "$victim" && killed=0
    [ $killed -eq 0 ] || pkill -TERM -P $runner
    wait $runner
    rc=$?
    echo "# killed ($backing): victim '${victim:-none}', mpirun's status $rc"
    [ $killed -eq 0 ] && [ $rc -ne 0 ] && tr -s "\n" " " < "$log" | grep -aq "exited on signal 9" \
        && ! grep -aq "checks, .* failures" "$log" && ! kill -0 "$victim" 2> /dev/null \
        && ! pgrep -f "^$prog -n 100000000" > /dev/null
    tap_check $? "killed ($backing): a rank was killed by SIGKILL in the collectives, the job ended" "$log"
    grep -q "transport shm" "$log" && [ -z "$(ls -A "$shmdir")" ] && ! ls -d /dev/shm/coll-scc-[0-9]* > /dev/null 2>&1
    tap_check $? "killed ($backing): nothing of the segment remains after SIGKILL" "$log"
done

# Killed at the worst moment: the segment file made, nobody attached yet (coll_scc_fail_setup
# killed).  The runtime removes the file where it can (its name was registered for cleanup;
# Open MPI 4.1's daemons do it in some runs, not in all); else it stays until a later job of
# this user making a file in that directory removes it -- its creator is gone -- and leaves
# only its own, gone at its end.
log="$SCC_LOGDIR/xport-killed-setup.log"
colls="$SCC_BUILDDIR/test/mpi/scc_colls"
scc_run "$log" 3 --mca coll_scc_shm_backing file --mca coll_scc_shm_dir "$shmdir" \
    --mca coll_scc_fail_setup 0:killed -- "$colls"
rc=$?
left=$(ls "$shmdir")
scc_run "$log.next" 3 --mca coll_scc_shm_backing file --mca coll_scc_shm_dir "$shmdir" -- "$colls"
rc2=$?
cat "$log.next" >> "$log"
[ $rc -ne 0 ] && tr -s "\n" " " < "$log" | grep -aq "exited on signal 9" &&
    grep -aq "size 3: rank 0: killed fails here" "$log" &&
    { [ -z "$left" ] || grep -aq "coll:scc: removed $shmdir/$left, left by process" "$log.next"; } &&
    [ $rc2 -eq 0 ] && scc_no_failures "$log.next" && scc_selected "$log.next" 3 MPI_COMM_WORLD &&
    [ -z "$(ls -A "$shmdir")" ]
ok=$?
how="the runtime removed it"
[ -n "$left" ] && how="the next job removed '$left'"
tap_check $ok "killed with its segment file made: $how; the next job serves, nothing is left" "$log"
rm -f "$log.next"
tap_done
