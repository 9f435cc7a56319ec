#!/bin/sh
# sanitize.sh: the tests under AddressSanitizer and UndefinedBehaviorSanitizer; ends with the
# summary line "N passed, N failed, N skipped" (as scripts/check.sh).
#
#   scripts/sanitize.sh
#
# Builds the component, the unit tests and the MPI test programs with
# -fsanitize=address,undefined -fno-omit-frame-pointer -g -O1 in a build of their own
# ($SCC_SANITIZE_BUILDDIR, default build/sanitize), then runs the unit tests (a job per
# core, leak checking on) and the MPI tests colls.sh, nbc.sh (tasks on their own stacks,
# told to the sanitizer), matrix.sh at 2 and 3 processes (SCC_TEST_NP; the cases of more run
# at 3), sig.sh (the type-signature variants: packing, zero-size types, in place) and soak.sh
# for 10 + 5 s (SCC_SOAK_SECONDS; hundreds of iterations under ASan: more only repeat them;
# without its memory bounds: ASan's allocator keeps freed memory in quarantine).  The MPI tests run reduced (SCC_TEST_REDUCED=1: every kind of case,
# fewer sizes and roots) with messages up to 70000 bytes (SCC_TEST_MAXBYTES: past every slot
# and chunk boundary of the default transport; the megabyte cases take most of the time under
# ASan, in code it cannot look into: single copy); SCC_TEST_REDUCED=0 SCC_TEST_MAXBYTES=
# runs them all, several times longer.  SCC_SANITIZE_TESTS replaces the list of MPI scripts.
#
# Open MPI itself is not instrumented: the MPI processes and ompi_info get the ASan runtime
# preloaded (SCC_PRELOAD, test/mpi/scc_lib.sh: mpirun -x LD_PRELOAD) and the sanitizer options
# (mpirun -x ASAN_OPTIONS -x UBSAN_OPTIONS).  Leak checking is off in them: Open MPI leaks on
# its own, and it unloads the component before the check could name it (scripts/memcheck.sh
# looks for the component's leaks instead).
#
# Every sanitizer report in the logs counts as a failure, whether or not the test noticed;
# each one found is printed.
# Run as root, like scripts/check.sh, or with the packages of scripts/setup.sh installed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
b=${SCC_SANITIZE_BUILDDIR:-$top/build/sanitize}
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -g -O1"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

die() { echo "sanitize: $*"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

t0=$(date +%s)
[ -x "$top/configure" ] || { cd "$top" && ./autogen.sh > /dev/null 2>&1; } ||
    die "autogen.sh failed"
{ mkdir -p "$b" && cd "$b"; } || die "cannot make $b"
if [ ! -f Makefile ]; then
    "$top/configure" --enable-silent-rules \
        ${SCC_OMPI_SOURCE:+--with-ompi-source="$SCC_OMPI_SOURCE"} CFLAGS="$flags" \
        > configure.out 2>&1 || { tail -n 30 configure.out; die "configure failed"; }
fi
make -j"$(nproc)" > make.out 2>&1 || { tail -n 40 make.out; die "build failed"; }
make -j"$(nproc)" check TESTS= > make-check-build.out 2>&1 ||
    { tail -n 40 make-check-build.out; die "build of the tests failed"; }
cc=$(sed -n 's/^CC = //p' Makefile)
asan=$($cc -print-file-name=libasan.so)
[ -f "$asan" ] || die "no ASan runtime ($cc -print-file-name=libasan.so: $asan)"
t1=$(date +%s)

# The reports go to the processes' stderr, that is into the test logs (mpirun forwards the
# MPI processes' stderr).  Options already in ASAN_OPTIONS or UBSAN_OPTIONS are added (and
# win), e.g. UBSAN_OPTIONS=suppressions=FILE.
rm -rf test/logs
asan_opts="halt_on_error=1:abort_on_error=0:print_summary=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# shellcheck disable=SC2016 # $(unit_tests) is make's
units=$(printf 'scc-print-units:\n\t@echo $(unit_tests)\n' |
        make -s -f Makefile -f - scc-print-units)
[ -n "$units" ] || die "no unit tests found in $b/Makefile"

ASAN_OPTIONS="detect_leaks=1:$asan_opts" \
    make -j"$(nproc)" check TESTS="$units" > make-check-unit.out 2>&1
rc_unit=$?
t2=$(date +%s)

ASAN_OPTIONS="detect_leaks=0:$asan_opts" \
SCC_PRELOAD="$asan" SCC_MPIRUN_EXTRA="-x ASAN_OPTIONS -x UBSAN_OPTIONS" \
SCC_TEST_NP=${SCC_TEST_NP:-2 3} SCC_TEST_REDUCED=${SCC_TEST_REDUCED:-1} \
SCC_TEST_MAXBYTES=${SCC_TEST_MAXBYTES-70000} \
SCC_TIMEOUT=${SCC_TIMEOUT:-900} SCC_SOAK_SECONDS=${SCC_SOAK_SECONDS:-10} SCC_SOAK_MEMORY=0 \
    make check TESTS="${SCC_SANITIZE_TESTS:-test/mpi/colls.sh test/mpi/nbc.sh test/mpi/matrix.sh test/mpi/sig.sh test/mpi/soak.sh}" \
    > make-check-mpi.out 2>&1
rc_mpi=$?
t3=$(date +%s)

pass=0
fail=0
skip=0
for out in make-check-unit.out make-check-mpi.out; do
    grep -E '^(PASS|FAIL|XPASS|ERROR|SKIP):' "$out"
    p=$(sed -n 's/^# PASS: *//p' "$out" | awk '{s+=$1} END {print s+0}')
    f=$(sed -n 's/^# \(FAIL\|ERROR\|XPASS\): *//p' "$out" | awk '{s+=$1} END {print s+0}')
    k=$(sed -n 's/^# SKIP: *//p' "$out" | awk '{s+=$1} END {print s+0}')
    pass=$((pass + p))
    fail=$((fail + f))
    skip=$((skip + k))
done
if [ "$rc_unit" -ne 0 ] || [ "$rc_mpi" -ne 0 ]; then
    [ "$fail" -eq 0 ] && { tail -n 30 make-check-unit.out make-check-mpi.out; fail=$((fail + 1)); }
fi

# The sanitizer reports in the logs: the unit tests' (test/unit/*.log) and the MPI runs'
# (test/logs; test/mpi/*.log repeat their tails).  Each distinct finding -- a kind of report
# at a place in the code, however many processes and logs repeat it -- is one failure,
# printed with the first report of it.
# shellcheck disable=SC2046 # file names without blanks, from find
findings=$(awk '
    function flush() {
        if (key != "" && !(key in seen)) {
            seen[key] = 1; order[++n] = key; text[key] = buf; first[key] = bf
        }
        if (key != "") { logs[key, bf] = 1 }
        key = ""; buf = ""; kind = ""; lines = 0
    }
    FNR == 1 { flush() }
    /runtime error:|ERROR: (Address|Leak)Sanitizer|WARNING: AddressSanitizer|(Direct|Indirect) leak of/ {
        l = $0; sub(/^#   /, "", l); sub(/^ +/, "", l)
        if (l ~ /runtime error:/) {
            loc = l; sub(/:? runtime error:.*/, "", loc); k = l; sub(/.* runtime error: /, "", k)
            sub(/[-0-9].*/, "", k); sub(/[ :,]+$/, "", k); k = "UBSan: " k " at " loc
            if (k == key && lines < 16) next   # the same report from another process
            flush(); key = k; buf = l; lines = 1; bf = FILENAME
        } else {
            flush(); buf = l; lines = 1; bf = FILENAME
            kind = l; sub(/^==[0-9]+==/, "", kind); sub(/ on address.*| \(pc .*/, "", kind)
            sub(/ of [0-9]+ byte.*/, "", kind); sub(/^ERROR: /, "", kind)
        }
        next
    }
    lines > 0 && lines < 16 {
        l = $0; sub(/^#   /, "", l); sub(/^ +/, "", l)
        if (l == "") { if (kind == "" || key != "") { lines = 16 }; next }
        buf = buf "\n" l; lines++
        if (kind != "" && key == "" && l ~ /^#[0-9]+ 0x/ &&
            l !~ /libsanitizer|interceptor|libasan|libubsan/) {
            f = l; sub(/^#[0-9]+ 0x[0-9a-f]+ in /, "", f); key = kind " in " f
        }
    }
    END {
        flush()
        for (i = 1; i <= n; i++) {
            k = order[i]; m = 0
            for (x in logs) { split(x, p, SUBSEP); if (p[1] == k) m++ }
            printf "FAIL: sanitizer: %s (in %d logs, first %s)\n", k, m, first[k]
            t = text[k]; gsub(/\n/, "\n#   ", t); print "#   " t
        }
    }' $(find test -name '*.log' -type f | sort))
nlogs=$(find test -name '*.log' -type f | wc -l)
if [ -z "$findings" ]; then
    pass=$((pass + 1))
    echo "PASS: no sanitizer report in $nlogs logs"
else
    echo "$findings"
    fail=$((fail + $(echo "$findings" | grep -c '^FAIL: sanitizer:')))
fi

echo "sanitize: build $((t1 - t0)) s, unit tests $((t2 - t1)) s, MPI tests $((t3 - t2)) s" \
     "(np ${SCC_TEST_NP:-2 3}, SCC_TEST_REDUCED=${SCC_TEST_REDUCED:-1}," \
     "SCC_TEST_MAXBYTES=${SCC_TEST_MAXBYTES-70000})"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
