# shellcheck shell=sh
# scc_lib.sh: helpers for the MPI test scripts (sourced): run mpirun on the
# component of the build tree, check from its verbose output that it served
# the communicators, and report TAP results.
#
# Set by "make check": SCC_BUILDDIR, SCC_SRCDIR, SCC_OMPI_BINDIR, SCC_OMPI_PKGLIBDIR.
# Read from the environment: SCC_TEST_REDUCED=1 runs the reduced matrix (scc_matrix),
# SCC_TIMEOUT the limit of one mpirun in seconds, SCC_TEST_NP the process counts of
# matrix.sh (a list; default its own), SCC_MPIRUN_EXTRA more options for every mpirun, and
# SCC_PRELOAD libraries (LD_PRELOAD) for the programs that load the component -- the MPI
# processes (mpirun -x) and ompi_info: the sanitizer runtime (scripts/sanitize.sh).
#
# Logs may hold NUL bytes (Open MPI 5's mpirun forwards help messages with one): grep
# them with -a, or grep treats them as binary and prints no lines.

: "${SCC_BUILDDIR:?run through make check}"
SCC_MPIRUN="${SCC_OMPI_BINDIR:-/usr/bin}/mpirun"
SCC_COMPONENT_PATH="$SCC_BUILDDIR/ompi/mca/coll/scc/.libs:$SCC_OMPI_PKGLIBDIR"
SCC_LOGDIR="$SCC_BUILDDIR/test/logs"
SCC_MPIRUN_EXTRA="${SCC_MPIRUN_EXTRA:-}${SCC_PRELOAD:+ -x LD_PRELOAD=$SCC_PRELOAD}"
mkdir -p "$SCC_LOGDIR"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI 5 passes mca_base_component_path to PMIx as well, whose loader then reports
# every file of the build tree as "bad prefix"; the component path is for Open MPI only.
export PMIX_MCA_mca_base_component_show_load_errors=0

tap_n=0
tap_failed=0
scc_t0=$(date +%s)

# scc_matrix FULL REDUCED: FULL, or REDUCED when SCC_TEST_REDUCED=1 (a list of process
# counts, sizes...: what a script loops over).  The reduced matrix keeps every kind of
# case and drops repetitions, for runs that must be short (.ci/run's second series).
scc_matrix() {
    if [ "${SCC_TEST_REDUCED:-0}" = 1 ]; then
        echo "$2"
    else
        echo "$1"
    fi
}

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
            grep -av '^coll:scc: rank .* calls:' "$3" | tail -n 25 | sed 's/^/#   /'
        fi
    fi
}

tap_done() {
    echo "1..$tap_n"
    # (scripts/check.sh lists these: where the suite's time goes)
    echo "# elapsed $(($(date +%s) - scc_t0)) s"
    exit 0
}

# scc_run LOG NP [mpirun options...] -- PROGRAM [ARGS...]
# Runs PROGRAM on NP processes with coll/scc from the build tree, verbose 2
# (or $SCC_VERBOSE_LEVEL), every communicator set up at its first call (coll_scc_setup_calls
# 0, or $SCC_SETUP_CALLS: the tests count what the component served), the test programs'
# persistent collectives, all started in order, served by it (coll_scc_persistent_ordered 1,
# or $SCC_PERSISTENT_ORDERED); $SCC_LAUNCH replaces the launcher's options (default
# --oversubscribe; nodes.sh: emulated nodes).
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
    # (-k: Open MPI 5's launcher may ignore the TERM when a process ended with an error)
    timeout -k 20 "${SCC_TIMEOUT:-600}" "$SCC_MPIRUN" ${SCC_LAUNCH:---oversubscribe} -np "$_np" \
        --mca mca_base_component_path "$SCC_COMPONENT_PATH" \
        --mca coll scc,tuned,basic,libnbc,self \
        --mca coll_scc_verbose "${SCC_VERBOSE_LEVEL:-2}" \
        --mca coll_scc_setup_calls "${SCC_SETUP_CALLS:-0}" \
        --mca coll_scc_persistent_ordered "${SCC_PERSISTENT_ORDERED:-1}" \
        $SCC_MPIRUN_EXTRA $_opts "$@" > "$_log" 2>&1
}

# scc_selected LOG NP NAME: every one of the NP processes reported that scc
# was selected on the communicator called NAME, of NP processes.
scc_selected() {
    _n=$(grep -ac "coll:scc: comm [0-9]* ($3) size $2: selected" "$1")
    [ "$_n" -eq "$2" ]
}

# scc_served LOG NP NAME PATTERN: the call report of every one of the NP
# processes for the communicator NAME matches PATTERN (an extended regular
# expression over its " coll:alg=N" list).
scc_served() {
    _n=$(grep -a "coll:scc: comm [0-9]* ($3) rank [0-9]* size $2 calls:" "$1" | grep -cE "$4")
    [ "$_n" -eq "$2" ]
}

# scc_no_failures LOG: the program reported no failed check.
scc_no_failures() {
    ! grep -aq "FAIL" "$1" && grep -aq " 0 failures" "$1"
}

# scc_check_expect LOG NP: every "matrix-expect" of scc_matrix against the call reports of
# its NP processes: the forced algorithm served the calls, only documented fallbacks
# (matrix.sh, strict.sh, nodes.sh).
scc_check_expect() {
    awk -v np="$2" '
        /matrix-expect: \(/ {
            name = $0; sub(/.*matrix-expect: \(/, "", name); sub(/\).*/, "", name)
            split(name, w, " "); coll = w[2]; alg = w[3]
            match($0, /calls=[0-9]+/); calls = substr($0, RSTART + 6, RLENGTH - 6)
            match($0, /mayfall=[0-9]+/); mayfall = substr($0, RSTART + 8, RLENGTH - 8)
            match($0, /zero=[0-9]+/); zero = substr($0, RSTART + 5, RLENGTH - 5)
            want[name] = coll " " alg " " calls " " mayfall " " zero
            next
        }
        /coll:scc: comm [0-9]+ \(matrix .* calls:/ {
            name = $0; sub(/.*coll:scc: comm [0-9]+ \(/, "", name); sub(/\) rank.*/, "", name)
            reports[name]++
            line[name, reports[name]] = $0
        }
        END {
            bad = 0
            for (name in want) {
                split(want[name], e, " ")
                coll = e[1]; alg = e[2]; calls = e[3]; mayfall = e[4]; zero = e[5]
                if (reports[name] != np) {
                    printf "# %s: %d call reports, expected %d\n", name, reports[name], np; bad++; continue
                }
                for (i = 1; i <= np; i++) {
                    l = line[name, i]; sub(/.*calls:/, "", l)
                    n = split(l, items, " "); served = 0; fell = 0; other = ""
                    for (j = 1; j <= n; j++) {
                        split(items[j], kv, "="); split(kv[1], ca, ":")
                        if (ca[1] != coll) continue
                        if (ca[2] == alg) served += kv[2]
                        else if (ca[2] == "fallback") fell += kv[2]
                        else other = other " " items[j]
                    }
                    total = served + fell
                    if (other != "" || total < calls - zero || total > calls ||
                        (alg != "fallback" && fell > mayfall) ||
                        (alg != "fallback" && served == 0 && calls - zero - mayfall > 0)) {
                        printf "# %s: served %s=%d fallback=%d%s; program made %d calls (%d may fall back, %d move nothing)\n",
                               name, alg, served, fell, other, calls, mayfall, zero
                        bad++
                    }
                }
            }
            if (length(want) == 0) { print "# no matrix-expect lines"; bad++ }
            exit bad ? 1 : 0
        }' "$1"
}

# ---- the placement tests' reading of the verbose output (topo.sh, machines.sh)

# has LOG ERE: some line of LOG matches the extended regular expression
has() {
    grep -aqE "$2" "$1"
}

# check LOG DESCRIPTION ERE: one TAP line for "LOG has a line matching ERE"
check() {
    has "$1" "$3"
    tap_check $? "$2" "$1"
}

# topo_re NAME TOPOLOGY: the level-1 topology line of communicator NAME
topo_re() {
    echo "coll:scc: comm [0-9]+ \\($1\\) size [0-9]+: topology $2"
}

# alg_re NAME COLL ROW: the table row of COLL on communicator NAME
alg_re() {
    echo "coll:scc: comm [0-9]+ \\($1\\) +$2 +$3\$"
}

# ran_ok LOG RC NP: the program ran (RC 0), every result was right, scc was selected on the
# MPI_COMM_WORLD of NP processes
ran_ok() {
    [ "$2" -eq 0 ] && scc_no_failures "$1" && scc_selected "$1" "$3" MPI_COMM_WORLD
}

# run_ok LOG RC NP: ran_ok as a TAP line of its own
run_ok() {
    ran_ok "$@"
    tap_check $? "$(basename "$1" .log): results right, scc selected by all $3 processes" "$1"
}

# scc_bcast_served LOG NP NAME ALGS: every one of the NP processes reports calls of the
# communicator NAME, its broadcasts by the algorithms ALGS (an extended regular expression)
# and nothing by the fallback
scc_bcast_served() {
    scc_served "$1" "$2" "$3" " bcast:($4)=[1-9]" &&
        [ "$(grep -a "coll:scc: comm [0-9]* ($3) rank [0-9]* size $2 calls:" "$1" |
             grep -c ":fallback=")" -eq 0 ]
}

# no_fallback LOG NP ERE: no call report of MPI_COMM_WORLD (NP processes) has a count matching
# ERE (" i(scan|bcast):fallback=": which collectives must not have gone to the fallback)
no_fallback() {
    ! grep -a "(MPI_COMM_WORLD) rank [0-9]* size $2 calls:" "$1" | grep -qE "$3"
}
