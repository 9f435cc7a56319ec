#!/bin/sh
# check.sh: set up and build (scripts/setup.sh), run the whole test suite, and
# end with the summary line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }
cd "$top/build"
make check "$@" > make-check.out 2>&1
rc=$?
grep -E '^(PASS|FAIL|XPASS|ERROR|SKIP):' make-check.out
pass=$(sed -n 's/^# PASS: *//p' make-check.out | awk '{s+=$1} END {print s+0}')
fail=$(sed -n 's/^# \(FAIL\|ERROR\|XPASS\): *//p' make-check.out | awk '{s+=$1} END {print s+0}')
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
    tail -n 30 make-check.out
    fail=1
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
