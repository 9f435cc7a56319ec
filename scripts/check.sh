#!/bin/sh
# check.sh: set up and build (scripts/setup.sh), run the whole test suite, and
# end with the summary line "N passed, N failed, N skipped" (.ci/run reads its first four
# fields).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
t0=$(date +%s)
"$top/scripts/setup.sh" || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }
t1=$(date +%s)
cd "$top/build" || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }
make check "$@" > make-check.out 2>&1
rc=$?
t2=$(date +%s)
grep -E '^(PASS|FAIL|XPASS|ERROR|SKIP):' make-check.out
# what a failing row printed around it (the test's own diagnosis), so that a run seen only
# through this output -- a CI machine's -- says why, not only what
for l in test/mpi/*.log test/unit/*.log test/bench/*.log; do
    [ -f "$l" ] && grep -q '^not ok' "$l" || continue
    echo "check: $l, around its failures:"
    grep -a -B 30 -A 25 '^not ok' "$l" | head -n 150 | sed 's/^/check:   /'
done
pass=$(sed -n 's/^# PASS: *//p' make-check.out | awk '{s+=$1} END {print s+0}')
fail=$(sed -n 's/^# \(FAIL\|ERROR\|XPASS\): *//p' make-check.out | awk '{s+=$1} END {print s+0}')
# skipped rows (a TAP "ok N # SKIP", a test that exits 77) are neither passed nor failed:
# counted so that they show
skip=$(sed -n 's/^# SKIP: *//p' make-check.out | awk '{s+=$1} END {print s+0}')
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
    tail -n 30 make-check.out
    fail=1
fi
# each MPI test's time (scc_lib.sh's tap_done), longest first
times=$(for l in test/mpi/*.log; do
            sed -n "s|^# elapsed \([0-9]*\) s|\1 $(basename "$l" .log)|p" "$l"
        done | sort -rn | awk '{printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1}')
[ -n "$times" ] && echo "check: per MPI test: $times"
echo "check: setup and build $((t1 - t0)) s, tests $((t2 - t1)) s${SCC_TEST_REDUCED:+ (SCC_TEST_REDUCED=$SCC_TEST_REDUCED)}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
