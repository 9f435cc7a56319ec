#!/bin/sh
# strict.sh: the mpb transport under the strict emulation of the SCC (coll_scc_mpb_emulate
# strict: 8 KB per core, one writer per 32-byte line, no atomics on the buffers).  The
# matrix at 12 and 48 cores, on communicators in MPI_COMM_WORLD's order, reversed and split,
# must run clean, every rank on the buffer of its own core; a line written by two ranks and
# an atomic operation on a buffer must each abort the job, naming what happened.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_matrix"
cores="$SCC_SRCDIR/test/mpi/scc_env_core.sh"
rev47=$(seq 47 -1 0 | tr '\n' ' ')
strict="--mca coll_scc_mpb_emulate strict"
: "${SCC_TIMEOUT:=300}"

# check_cores LOG NP ORDER MAP: every matrix communicator attached the strict emulation on
# each of its NP (split: NP / 2) ranks, and each rank used the buffer of its own core: MAP
# "rev" (core 47 - world rank, probed) or "id" (core = world rank, a place in the mesh).
# ORDER says which world rank has which communicator rank.
check_cores() {
    awk -v np="$2" -v order="$3" -v map="$4" '
        /\(matrix [^)]*\) size [0-9]+: transport / {
            n++
            if ($0 !~ /transport mpb \(emulated SCC, strict\), rank [0-9]+ on core [0-9]+ /) {
                print "# not the strict emulation: " $0; bad++; next
            }
            s = $0; sub(/.*, rank /, "", s); split(s, f, " ")
            i = f[1] + 0; c = f[4] + 0
            w = map == "rev" ? 47 - c : c
            want = order == "world" ? w : order == "reversed" ? np - 1 - w : int((np - 1 - w) / 2)
            if (i != want) { print "# rank " i " on core " c ": world rank " w " is rank " want; bad++ }
        }
        END {
            if (n == 0) { print "# no matrix communicator attached"; bad++ }
            else print "# " n " rank placements checked"
            exit bad ? 1 : 0
        }' "$1"
}

# strict_case NAME NP ORDER MAP [mpirun options...] -- [scc_matrix options]
strict_case() {
    name=$1; np=$2; order=$3; map=$4; shift 4
    opts=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    [ "${1:-}" = "--" ] && shift
    log="$SCC_LOGDIR/strict-$name.log"
    t0=$(date +%s)
    # shellcheck disable=SC2086
    if [ "$map" = rev ]; then
        scc_run "$log" "$np" $strict $opts -- "$cores" "$rev47" "$prog" -q -o "$order" "$@"
    else
        scc_run "$log" "$np" $strict $opts -- "$prog" -q -o "$order" "$@"
    fi
    rc=$?
    echo "# $name: $(($(date +%s) - t0)) s"
    check_cores "$log" "$np" "$order" "$map" > "$log.cores"
    st=$?
    cat "$log.cores"
    tap_check $st "$name: every rank of every matrix communicator on the strict emulation, on its own core" "$log"
    scc_selected "$log" "$np" MPI_COMM_WORLD && scc_check_expect "$log" "$np" > "$log.expect"
    st=$?
    cat "$log.expect"
    tap_check $st "$name: every forced algorithm served its calls, only documented fallbacks" "$log"
    [ $rc -eq 0 ] && scc_no_failures "$log" && ! grep -aq "strict MPB emulation" "$log"
    tap_check $? "$name: no rule broken, every result right ($(grep -ao '[0-9]* checks' "$log" | head -n 1))" "$log"
}

# probed core ids against the rank order: the SCC chip's topology (mesh algorithms); each
# order once, world on part of the chip, reversed and split on all of it
strict_case np12-world 12 world rev -- -m 70000
# a described mesh keyed by rank: each rank's place in it is its core
strict_case np12-split-mesh 12 split id --mca coll_scc_mesh 6x4x2 --mca coll_scc_mesh_key rank -- -m 70000
strict_case np48-reversed 48 reversed rev -- -m 8200
strict_case np48-split 48 split rev -- -m 8200

# The checker itself: a hook (coll_scc_mpb_strict_test) makes rank 1 break a rule at the
# first call; the job must end with an error and the message naming the line and writers.
colls="$SCC_BUILDDIR/test/mpi/scc_colls"
log="$SCC_LOGDIR/strict-violation-writer.log"
scc_run "$log" 4 $strict --mca coll_scc_mpb_strict_test 1 -- "$colls"
rc=$?
[ $rc -ne 0 ] && grep -aqE "coll:scc: strict MPB emulation: comm [0-9]+ \(MPI_COMM_WORLD\), [a-z_]+ \([a-z_]+\) call [0-9]+: line 2 \(core 0 of rank 0, bytes 64\.\.95 of its buffer: its pid line\) written by rank 0 \(core 0\) and by rank 1 \(core 1\)" "$log" \
    && ! grep -aq " 0 failures" "$log"
tap_check $? "violation: a second writer of a line aborts the job, naming the line, both writers and the collective" "$log"

log="$SCC_LOGDIR/strict-violation-atomic.log"
scc_run "$log" 4 $strict --mca coll_scc_mpb_strict_test 2 -- "$colls"
rc=$?
[ $rc -ne 0 ] && grep -aqE "coll:scc: strict MPB emulation: comm [0-9]+ \(MPI_COMM_WORLD\), [a-z_]+ \([a-z_]+\) call [0-9]+: line [0-9]+ \(core 1 of rank 1, bytes [0-9.]+ of its buffer: its barrier flag 7\) written by rank 1 \(core 1\) other than through the transport's stores \(an atomic operation" "$log" \
    && ! grep -aq " 0 failures" "$log"
tap_check $? "violation: an atomic operation on a buffer aborts the job, naming the line and the collective" "$log"

! ls -d /dev/shm/coll-scc-[0-9]* > /dev/null 2>&1
tap_check $? "nothing of the emulated chips remains in /dev/shm"
tap_done
