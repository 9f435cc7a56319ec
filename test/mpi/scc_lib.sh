# scc_lib.sh: helpers for the MPI test scripts (sourced): run mpirun on the
# component of the build tree, check from its verbose output that it served
# the communicators, and report TAP results.
#
# Set by "make check": SCC_BUILDDIR, SCC_SRCDIR, SCC_OMPI_BINDIR, SCC_OMPI_PKGLIBDIR.

: "${SCC_BUILDDIR:?run through make check}"
SCC_MPIRUN="${SCC_OMPI_BINDIR:-/usr/bin}/mpirun"
SCC_COMPONENT_PATH="$SCC_BUILDDIR/ompi/mca/coll/scc/.libs:$SCC_OMPI_PKGLIBDIR"
SCC_LOGDIR="$SCC_BUILDDIR/test/logs"
mkdir -p "$SCC_LOGDIR"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

tap_n=0
tap_failed=0

tap_ok() {
    tap_n=$((tap_n + 1))
    echo "ok $tap_n - $*"
}

tap_not_ok() {
    tap_n=$((tap_n + 1))
    tap_failed=$((tap_failed + 1))
    echo "not ok $tap_n - $*"
}

# tap_check COND_STATUS DESCRIPTION [LOG]: one TAP line; on failure the log's tail.
tap_check() {
    if [ "$1" -eq 0 ]; then
        tap_ok "$2"
    else
        tap_not_ok "$2"
        if [ -n "${3:-}" ] && [ -f "$3" ]; then
            grep -v '^coll:scc: rank .* calls:' "$3" | tail -n 25 | sed 's/^/#   /'
        fi
    fi
}

tap_done() {
    echo "1..$tap_n"
    exit 0
}

# scc_run LOG NP [mpirun options...] -- PROGRAM [ARGS...]
# Runs PROGRAM on NP processes with coll/scc from the build tree, verbose 2
# (or $SCC_VERBOSE_LEVEL).
scc_run() {
    _log=$1
    _np=$2
    shift 2
    _opts=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        _opts="$_opts $1"
        shift
    done
    [ "${1:-}" = "--" ] && shift
    # shellcheck disable=SC2086
    timeout "${SCC_TIMEOUT:-600}" "$SCC_MPIRUN" --oversubscribe -np "$_np" \
        --mca mca_base_component_path "$SCC_COMPONENT_PATH" \
        --mca coll scc,tuned,basic,libnbc,self \
        --mca coll_scc_verbose "${SCC_VERBOSE_LEVEL:-2}" $_opts "$@" > "$_log" 2>&1
}

# scc_selected LOG NP NAME: every one of the NP processes reported that scc
# was selected on the communicator called NAME, of NP processes.
scc_selected() {
    _n=$(grep -c "coll:scc: comm [0-9]* ($3) size $2: selected" "$1")
    [ "$_n" -eq "$2" ]
}

# scc_served LOG NP NAME PATTERN: the call report of every one of the NP
# processes for the communicator NAME matches PATTERN (an extended regular
# expression over its " coll:alg=N" list).
scc_served() {
    _n=$(grep "coll:scc: comm [0-9]* ($3) rank [0-9]* size $2 calls:" "$1" | grep -cE "$4")
    [ "$_n" -eq "$2" ]
}

# scc_no_failures LOG: the program reported no failed check.
scc_no_failures() {
    ! grep -q "FAIL" "$1" && grep -q " 0 failures" "$1"
}
