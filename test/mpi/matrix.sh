#!/bin/sh
# matrix.sh: the correctness matrix (scc_matrix) at many process counts and on each
# transport; for every (collective, algorithm) the component's call report must show that
# the forced algorithm served the calls and nothing but the documented fallbacks ran.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_matrix"
: "${SCC_TIMEOUT:=300}"

# SCC_TEST_NP (a list of process counts, e.g. "2 3 4" for the sanitizer build): the loop
# below runs those counts only, and every other case runs at its own count or the list's
# largest, whichever is smaller, so that every kind of case still runs.  SCC_TEST_MAXBYTES:
# no message larger (scc_matrix -m; a case's own -m comes after it and wins).
np_max=0
for n in ${SCC_TEST_NP:-}; do [ "$n" -gt "$np_max" ] && np_max=$n; done

# matrix_case NAME NP [mpirun options...] -- [program options]
matrix_case() {
    name=$1; np=$2; shift 2
    if [ "$np_max" -gt 0 ] && [ "$np" -gt "$np_max" ]; then
        name="$name-at-np$np_max"; np=$np_max
    fi
    opts=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    [ "${1:-}" = "--" ] && shift
    log="$SCC_LOGDIR/matrix-$name.log"
    # shellcheck disable=SC2086
    scc_run "$log" "$np" $opts -- "$prog" ${SCC_TEST_MAXBYTES:+-m "$SCC_TEST_MAXBYTES"} "$@"
    rc=$?
    if [ "$np" -gt 1 ]; then
        scc_selected "$log" "$np" MPI_COMM_WORLD && scc_check_expect "$log" "$np" > "$log.expect"
        st=$?
        cat "$log.expect"
        tap_check $st "$name: every forced algorithm served its calls, only documented fallbacks" "$log"
    fi
    [ $rc -eq 0 ] && scc_no_failures "$log"
    tap_check $? "$name: every result right ($(grep -o '[0-9]* checks' "$log" | head -n 1))" "$log"
}

reduced=${SCC_TEST_REDUCED:-0}
# the reduced run keeps odd, even, a power of two and the oversubscribed, and so does the
# full one (5 processes run in the tiny-slot and pml cases below; the butterfly's fold of
# any count is the unit tests' replay, to 64; one oversubscribed count, 16, is enough)
# (SCC_TEST_SERIES=1: the 5.0 pass leaves the oversubscribed count to the 4.1 pass: the
# yields it exercises are the component's own code)
series_np=$([ "${SCC_TEST_SERIES:-0}" = 1 ] && echo "1 2 3 4" || echo "1 2 3 4 16")
for np in ${SCC_TEST_NP:-$(scc_matrix "1 2 3 4 16" "$series_np")}; do
    q=""
    # full depth (every root, size and operation) at 2, 3 and 4 only, the larger counts
    # quick (the same cases, fewer roots, sizes and operations); 1 has nothing to move
    [ "$reduced" = 1 ] || [ "$np" -eq 1 ] || [ "$np" -gt 4 ] && q="-q"
    # many processes on two cores: keep messages moderate (the small counts test the
    # same code; 2..8 processes take the megabytes)
    [ "$np" -gt 8 ] && q="$q -m 70000"
    matrix_case "shm-np$np" "$np" -- $q -d
done
matrix_case "shm-nocma-np4" 4 --mca coll_scc_cma 0 -- -q
# single copy given (not measured) from a page: the reductions' reads -- at 2 processes each
# input whole, at 3 a reduce-scatter's blocks -- and the gathers' root reading every block
for np in 2 3; do
    matrix_case "shm-cma-reductions-np$np" "$np" --mca coll_scc_cma_min 4096 \
        --mca coll_scc_cma_reduce_min 4096 -- $([ "$np" -gt 2 ] && echo -q) -d \
        -c reduce,allreduce,reduce_scatter_block,reduce_scatter,gather,gatherv
done
# 256-byte slots: 70000 bytes are 274 pieces already
matrix_case "shm-tinyslots-np5" 5 --mca coll_scc_shm_slot_size 256 --mca coll_scc_cma_min 4096 -- -q -m 70000
# The emulated SCC buffers and the mesh on them: code that does not depend on Open MPI's
# series (SCC_TEST_SERIES=1, .ci/run's 5.0 pass, leaves them to the 4.1 pass, as strict.sh);
# the reduced run to 70000 bytes, the full run takes the megabytes through them
if [ "${SCC_TEST_SERIES:-0}" != 1 ]; then
    matrix_case "mpb-emulated-np6" 6 --mca coll_scc_mpb_emulate 1 -- -q $(scc_matrix "" "-m 70000")
    # the mesh algorithms on a described mesh, through the emulated SCC buffers
    matrix_case "mesh-6x4x2-np12" 12 --mca coll_scc_mesh 6x4x2 --mca coll_scc_mesh_key rank \
        --mca coll_scc_mpb_emulate 1 -- -q -m 70000
    matrix_case "mesh-6x4x2-np48" 48 --mca coll_scc_mesh 6x4x2 --mca coll_scc_mesh_key rank \
        --mca coll_scc_mpb_emulate 1 -- -q -m 8200 -c bcast,barrier,reduce,allreduce,alltoall,alltoallv
fi
# point-to-point: the schedules only (the direct algorithms need shared memory)
# (pair lists and the butterfly's copied sends need the shared-memory slots)
matrix_case "pml-np5" 5 --mca coll_scc_transport pml -- -q -a fallback,tree,jia,dopl,nocmsg,ring \
    -c bcast,reduce,allreduce,allgather,reduce_scatter_block
# the flag barriers need shared memory: on pml the barrier is NoC_Msg's, and counted as such
matrix_case "pml-barrier-np5" 5 --mca coll_scc_transport pml -- -q -a fallback,nocmsg -c barrier
tap_done
