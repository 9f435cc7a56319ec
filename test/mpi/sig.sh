#!/bin/sh
# sig.sh: ranks that describe the same bytes with different counts and datatypes (scc_sig):
# every process must take the same path -- a hang is a failure (SCC_TIMEOUT) -- the
# component, not the fallback, must serve the calls, and every byte must be right; then
# an alltoallv whose pairwise rounds carry more than 2^20 pieces per pair (tags must not
# alias).
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_sig"
: "${SCC_TIMEOUT:=120}"
algs="tree|flat|jia|dopl|nocmsg|ring|butterfly"

# check_served LOG NP: each "sig-expect: (sig COLL ALG[ nc]) served=WHO" of the program
# against the call reports of its NP processes: served=scc, COLL's calls all went to ALG
# (to the component's algorithms for auto); served=fallback, all to the fallback.  (A
# barrier that set the communicator up may come first.)
# Prints the communicators that fail; returns how many did (and 1 when there were none).
# (Its variables are ck_*: scc_lib.sh's functions use _n and the like.)
check_served() {
    ck_exp=$(grep -a '^sig-expect: (' "$1" | sed 's/^sig-expect: (\(.*\)) served=\(.*\)$/\2 \1/')
    [ -n "$ck_exp" ] || { echo "# no sig-expect lines"; return 1; }
    ck_bad=0
    ck_n=0
    while read -r ck_who ck_sig ck_coll ck_alg ck_rest; do
        ck_name="$ck_sig $ck_coll $ck_alg${ck_rest:+ $ck_rest}"
        ck_n=$((ck_n + 1))
        if [ "$ck_who" = fallback ]; then
            ck_pat="fallback"
        elif [ "$ck_alg" = auto ]; then
            ck_pat="($algs)"
        else
            ck_pat="$ck_alg"
        fi
        ck_pat="calls:( barrier:[a-z_]+=[0-9]+)?( $ck_coll:$ck_pat=[0-9]+)+$"
        if ! scc_served "$1" "$2" "$ck_name" "$ck_pat"; then
            echo "# ($ck_name): not served by $ck_who on every process:"
            grep -a "($ck_name) rank [0-9]* size $2 calls:" "$1" | sed 's/^/#   /'
            ck_bad=$((ck_bad + 1))
        fi
    done <<EOF
$ck_exp
EOF
    echo "# $ck_n communicators checked"
    return $ck_bad
}

# sig_case NAME NP [mpirun options...] -- [program options]
sig_case() {
    name=$1; np=$2; shift 2
    opts=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts="$opts $1"; shift; done
    [ "${1:-}" = "--" ] && shift
    log="$SCC_LOGDIR/sig-$name.log"
    # shellcheck disable=SC2086
    scc_run "$log" "$np" $opts -- "$prog" "$@"
    rc=$?
    case $rc in
        0) ;;
        124) echo "# $name: timed out after $SCC_TIMEOUT s (a hang)" ;;
        *) echo "# $name: mpirun exited $rc" ;;
    esac
    scc_selected "$log" "$np" MPI_COMM_WORLD
    tap_check $? "$name: scc selected on MPI_COMM_WORLD by every process" "$log"
    # (a run that did not end has no verdict on what served its calls)
    check_served "$log" "$np" > "$log.served" && [ $rc -eq 0 ]
    st=$?
    cat "$log.served"
    tap_check $st "$name: the component's algorithms served every call, alike on every rank" \
        "$log"
    [ $rc -eq 0 ] && scc_no_failures "$log"
    tap_check $? "$name: every result right ($(grep -ao '[0-9]* checks' "$log" | head -n 1))" "$log"
}

# np 3 moves everything through the slots (no single copy): alltoallv's pairwise rounds
sig_case np2 2
sig_case np3-nocma 3 --mca coll_scc_cma 0
sig_case np4 4
# the old tags (round << 20 | piece) named round 2's piece 2^20 + k as round 3's piece k
# (scc_sig.c, tag_pieces): 64-byte slots make 2^20 pieces 64 MB, and 64 of them keep the
# run short
sig_case tags-np4 4 --mca coll_scc_cma 0 --mca coll_scc_alltoallv_algorithm flat \
    --mca coll_scc_shm_slot_size 64 --mca coll_scc_shm_nslots 64 -- -t
tap_done
