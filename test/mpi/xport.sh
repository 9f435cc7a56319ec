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
run_case shm-nocma-np3 3 "shm, .* single copy off" --mca coll_scc_cma 0 -- "$prog" -n 1000
run_case shm-file-np3 3 "shm" --mca coll_scc_shm_backing file --mca coll_scc_shm_dir "$shmdir" -- "$prog" -n 1000
[ -z "$(ls -A "$shmdir")" ]
tap_check $? "shm-file: the segment file was removed" 
run_case mpb-emulated-np4 4 "mpb (emulated SCC)" --mca coll_scc_mpb_emulate 1 -- "$prog" -n 1000 -m 2000000
run_case mpb-emulated-np48 48 "mpb (emulated SCC)" --mca coll_scc_mpb_emulate 1 -- "$prog" -n 200 -m 70000

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
rm -f "$dev"

# A segment that cannot be created: the communicator is declined with a message, the job goes on.
log="$SCC_LOGDIR/xport-nospace.log"
scc_run "$log" 3 $flat --mca coll_scc_shm_backing file --mca coll_scc_shm_dir /nonexistent/dir -- "$prog" -n 200 -m 100000
rc=$?
grep -q "could not create its shared-memory segment" "$log" && [ "$(grep -c "MPI_COMM_WORLD) size 3: declined (no transport" "$log")" -eq 3 ]
tap_check $? "no-segment: a clear message, and every process declines MPI_COMM_WORLD" "$log"
[ $rc -eq 0 ] && scc_no_failures "$log" && scc_served "$log" 3 MPI_COMM_WORLD "bcast:fallback=" && ! scc_served "$log" 3 MPI_COMM_WORLD "bcast:flat="
tap_check $? "no-segment: the fallback serves every call, results right" "$log"

# A run whose processes are killed with SIGKILL in the middle leaves nothing behind.
for backing in memfd file; do
    log="$SCC_LOGDIR/xport-killed-$backing.log"
    ( scc_run "$log" 4 $flat --mca coll_scc_shm_backing $backing --mca coll_scc_shm_dir "$shmdir" -- "$prog" -n 100000000 ) &
    runner=$!
    sleep 3
    victim=$(pgrep -f "$prog -n 100000000" | tail -n 1)
    [ -n "$victim" ] && kill -KILL $victim
    wait $runner
    grep -q "transport shm" "$log" && [ -z "$(ls -A "$shmdir")" ] && ! ls -d /dev/shm/coll-scc-[0-9]* > /dev/null 2>&1
    tap_check $? "killed ($backing): nothing of the segment remains after SIGKILL" "$log"
done
tap_done
