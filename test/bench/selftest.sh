#!/bin/bash
# selftest.sh: tests of the benchmark tools (TAP): the parsers of OSU, IMB, scc_bench and Open
# MPI's selection output on the hand-written samples, the aggregation over runs, the report's
# targets; then, under "make check", short scc_bench runs on coll/scc (blocking, persistent and
# nonblocking calls) and a short compare.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
BL_PROG=selftest
# shellcheck source-path=SCRIPTDIR source=bench_lib.sh
. "$here/bench_lib.sh"
s=$here/samples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scc-bench-selftest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
# check DESCRIPTION EXPECTED ACTUAL
check() {
    if [ "$2" = "$3" ]; then
        ok "$1"
    else
        not_ok "$1"
        diff <(echo "$2") <(echo "$3") | sed 's/^/#   /'
    fi
}

# ---------------------------------------------------------------- parsers
check "sizes: K, M, G suffixes to bytes (what suite.sh hands OSU and IMB); others refused" \
    "4 65536 1048576 2147483648 refused" \
    "$(bl_bytes 4) $(bl_bytes 64K) $(bl_bytes 1M) $(bl_bytes 2G) $( (bl_bytes 1.5M) 2> /dev/null || echo refused)"

check "OSU -f output: size, average, min, max, iterations; root 0" \
"scc,2,bcast,4,0.50,0.20,0.80,1000,0,-,1,ok
scc,2,bcast,8,0.52,0.21,0.83,1000,0,-,1,ok
scc,2,bcast,1024,1.10,0.90,1.30,1000,0,-,1,ok
scc,2,bcast,1048576,120.00,110.00,130.00,100,0,-,1,ok" \
"$(bl_osu_csv scc 2 1 bcast < "$s/osu_bcast.txt")"

check "OSU barrier: no size column" \
"tuned,4,barrier,0,0.75,0.70,0.80,1000,-,-,2,ok" \
"$(bl_osu_csv tuned 4 2 barrier < "$s/osu_barrier.txt")"

check "OSU without -f: the average stands for min and max" \
"sm,2,allreduce,4,1.20,1.20,1.20,0,-,-,1,ok
sm,2,allreduce,8,1.25,1.25,1.25,0,-,-,1,ok" \
"$(bl_osu_csv sm 2 1 allreduce < "$s/osu_allreduce_short.txt")"

check "OSU validation column: Fail marks the row WRONG" \
"scc,2,reduce,4,0.90,0.50,1.30,1000,0,-,1,ok
scc,2,reduce,8,0.95,0.55,1.35,1000,0,-,1,WRONG" \
"$(bl_osu_csv scc 2 1 reduce < "$s/osu_reduce_validation.txt")"

check "IMB: the rows of 2 processes, 0-byte rows dropped, barrier without size" \
"scc,2,bcast,4,0.40,0.30,0.50,1000,0,-,3,ok
scc,2,bcast,8,0.42,0.32,0.52,1000,0,-,3,ok
scc,2,barrier,0,0.60,0.60,0.60,1000,-,-,3,ok
scc,2,reduce_scatter_block,4,0.80,0.70,0.90,1000,-,-,3,ok
scc,2,reduce_scatter_block,8,0.81,0.71,0.91,1000,-,-,3,ok" \
"$(bl_imb_csv scc 2 3 < "$s/imb.txt")"

check "IMB: the rows of 4 processes" \
"tuned,4,bcast,4,1.20,0.90,1.50,1000,0,-,1,ok
tuned,4,bcast,8,1.22,0.92,1.52,1000,0,-,1,ok" \
"$(bl_imb_csv tuned 4 1 < "$s/imb.txt")"

check "scc_bench output: forced algorithms labelled scc:ALG, WRONG kept" \
"scc,2,bcast,4,0.250,0.200,0.900,1000,0,20.0,1,ok
scc,2,bcast,1024,0.400,0.350,1.100,1000,0,15.0,1,ok
scc:flat,2,bcast,4,0.260,0.210,0.950,1000,0,21.0,1,ok
scc,2,barrier,0,0.300,0.250,0.700,1000,-,10.0,1,ok
scc,2,allreduce,4,0.350,0.300,2.000,800,-,12.0,1,WRONG" \
"$(bl_bench_csv scc 2 1 < "$s/bench.txt")"

# ---------------------------------------------------------------- selection check
v=$(bl_selected "$s/select-sm.txt" sm 2)
check "selection: sm is the top module of both processes on every communicator" \
    "0 selected on 2/2 processes" "$? $v"
v=$(bl_selected "$s/select-han.txt" han 2)
st=$?
case "$st $v" in
"1 NOT selected (0/2 processes; e.g. MPI_COMM_WORLD -> tuned): coll:han:comm_query (0/MPI_COMM_WORLD): comm has only local processes; disqualifying myself")
    ok "selection: han declined, with Open MPI's reason" ;;
*) not_ok "selection: han declined, with Open MPI's reason"; echo "#   got: $st $v" ;;
esac
v=$(bl_selected "$s/select-partial.txt" sm 2)
st=$?
case "$st $v" in
"1 NOT selected (1/2 processes; e.g. MPI COMMUNICATOR 3 DUP FROM 0 -> tuned)") ok "selection: one process of two on another module is not selected" ;;
*) not_ok "selection: one process of two on another module is not selected"; echo "#   got: $st $v" ;;
esac
if v=$(bl_selected "$s/select-sm.txt" sm 4); then
    not_ok "selection: 2 processes reporting is not 4"
else
    ok "selection: 2 processes reporting is not 4"
fi

check "forced algorithms: the one that did not serve its calls is named, with what did" \
    "    forced allreduce ring did not serve: served by flat fallback" \
    "$(bl_scc_forced "$s/forced-calls.txt")"

# ---------------------------------------------------------------- aggregation over runs
{
    echo "$BL_CSV_HEADER"
    echo "scc,2,bcast,4,0.30,0.20,0.90,1000,0,10.0,1,ok"
    echo "scc,2,bcast,4,0.50,0.10,0.80,1000,0,30.0,2,ok"
    echo "scc,2,bcast,4,0.40,0.25,2.00,900,0,20.0,3,ok"
    echo "scc,2,allreduce,4,0.30,0.20,0.90,1000,-,10.0,1,ok"
    echo "scc,2,allreduce,4,0.40,0.20,0.90,1000,-,10.0,2,WRONG"
    echo "tuned,2,barrier,0,0.70,0.60,0.80,1000,-,-,1,ok"
} > "$tmp/raw.csv"
check "aggregation: median of medians, least min, largest max, iterations summed, WRONG kept" \
"$BL_CSV_HEADER
scc,2,bcast,4,0.400,0.10,2.00,2900,0,20.0,3,ok
scc,2,allreduce,4,0.350,0.20,0.90,2000,-,10.0,2,WRONG
tuned,2,barrier,0,0.700,0.60,0.80,1000,-,-,1,ok" \
"$(bl_aggregate "$tmp/raw.csv")"

check "rotation: each run starts with the next component" "sm han scc tuned " "$(bl_rotate 2 scc tuned sm han)"

# ---------------------------------------------------------------- the report
mkdir -p "$tmp/rep"
if "$here/report.sh" -P -o "$tmp/rep" "$s/results.csv" > /dev/null 2>&1; then
    md=$tmp/rep/report.md
    row() { grep -F "$1" "$md" | head -n 1; }
    check "report: 4 B bcast at np 2, 0.30 against sm's 0.50, meets 0.7" \
        "| 4 | 0.30 | - | 0.60 | 0.50 | 0.50 sm | 0.60 | - | ≤ 0.7 |" "$(row '| 4 | 0.30 |')"
    check "report: 1 KB bcast at np 2, 0.50 / 0.60 is over 0.7" \
        "| 1K | 0.50 | - | 0.90 | 0.60 | 0.60 sm | **0.83 ✗** | - | ≤ 0.7 |" "$(row '| 1K | 0.50 |')"
    check "report: 4 KB bcast at np 2, over 1.0; the best forced algorithm shown" \
        "| 4K | 1.25 | 0.95 | 1.00 | 1.10 | 1.00 tuned | **1.25 ✗** | 0.95 flat | ≤ 1.0 |" "$(row '| 4K | 1.25 |')"
    check "report: alltoallv at np 2 has no target" \
        "| 4 | 2.00 | 1.00 | 1.00 tuned | 2.00 | - |" "$(row '| 4 | 2.00 |')"
    check "report: a WRONG result counts as over target" \
        "| 4 | WRONG | 2.00 | 2.00 tuned | **WRONG ✗** | ≤ 1.1 |" "$(row '| 4 | WRONG |')"
    check "report: np 4 allreduce 1.05 meets 1.1" \
        "| 64 | 1.05 | 1.00 | 1.00 tuned | 1.05 | ≤ 1.1 |" "$(row '| 64 | 1.05 |')"
    check "report: the summary counts the cells over target" \
        "**3 of 6 cells with a target are over it.**" "$(grep -F 'cells with a target' "$md")"
else
    not_ok "report.sh on samples/results.csv"
fi

# ---------------------------------------------------------------- with MPI (make check)
if [ -n "${SCC_BUILDDIR:-}" ] && [ -x "$SCC_BUILDDIR/test/bench/scc_bench" ]; then
    bl_init "$SCC_BUILDDIR"
    BL_TIMEOUT=300
    # bench_run LOG LINES WHAT SCC_BENCH_ARGS...: a run at np 2 on coll/scc with its call
    # report; LINES measurements, all correct
    bench_run() {
        local log=$1 want=$2 what=$3 st lines
        shift 3
        bl_check_run "$log" 2 scc --mca coll_scc_verbose 2 -- "$BL_BENCH" "$@"
        st=$?
        lines=$(grep -c ' ok$' "$log")
        if [ $st -eq 0 ] && [ "$lines" -eq "$want" ] && grep -q '# results: all correct' "$log"; then
            ok "scc_bench${what} on coll/scc, np 2: $want measurements, all correct"
        else
            not_ok "scc_bench${what} on coll/scc, np 2: $want measurements, all correct (status $st, $lines lines)"
            tail -n 20 "$log" | sed 's/^/#   /'
        fi
    }
    log=$tmp/bench.log
    # 4 rooted collectives x 2 sizes x 2 roots, 5 others x 2 sizes, 1 barrier line
    bench_run "$log" 27 "" -s 4,64K -i 5 -w 1 -r 0,1
    served=$(bl_scc_served "$log")
    case "$served" in
    *bcast:*reduce_scatter_block:*) ok "scc_bench's calls reached coll/scc:$served" ;;
    *) not_ok "scc_bench's calls reached coll/scc: $served" ;;
    esac
    # the collectives named only (not in the default list above): gatherv, scatterv x 2 sizes
    # x 2 roots, 5 others x 2 sizes, every element checked
    log=$tmp/bench-more.log
    bench_run "$log" 18 " -c $BL_MORE_COLLS" -c "$BL_MORE_COLLS" -s 4,64K -i 5 -w 1 -r 0,1 -C
    served=" $(bl_scc_served "$log")"
    missing=""
    for c in ${BL_MORE_COLLS//,/ }; do
        # served by one of coll/scc's algorithms, never by its fallback
        case "$served" in *" $c:fallback="*) missing="$missing $c(fallback)" ;; esac
        case "$served" in *" $c:"*) ;; *) missing="$missing $c" ;; esac
    done
    if [ -z "$missing" ]; then
        ok "scc_bench's named-only calls reached coll/scc:$served"
    else
        not_ok "scc_bench's named-only calls reached coll/scc: not$missing; served:$served"
    fi
    # the default list in the other forms (-F p: persistent, -F i: nonblocking), one size, every
    # element checked: each collective served by scc under the form's name, never the fallback
    for f in p i; do
        log=$tmp/bench-form-$f.log
        bench_run "$log" 14 " -F $f" -F $f -s 64 -i 5 -w 1 -r 0,1 -C
        served=" $(bl_scc_served "$log")"
        missing=""
        for c in bcast barrier reduce allreduce alltoall alltoallv gather scatter allgather \
            reduce_scatter_block; do
            name=$c
            if [ $f = p ]; then name=${c}_init; else name=i$c; fi
            case "$served" in *" $name:fallback="*) missing="$missing $name(fallback)" ;; esac
            case "$served" in *" $name:"*) ;; *) missing="$missing $name" ;; esac
        done
        if [ -z "$missing" ]; then
            ok "scc_bench -F $f: every call reached coll/scc in its form:$served"
        else
            not_ok "scc_bench -F $f: every call reached coll/scc in its form: not$missing; served:$served"
        fi
    done
    # paired (-P): blocks of blocking calls and of the form alternating in one launch; every
    # line has both times and a ratio, and each collective was served by scc in both forms
    for f in i p; do
        log=$tmp/bench-pair-$f.log
        bench_run "$log" 5 " -P $f" -P $f -c bcast,allreduce,barrier -s 4,4K -i 22 -w 1 -C
        served=" $(bl_scc_served "$log")"
        missing=""
        for c in bcast allreduce barrier; do
            if [ $f = p ]; then name=${c}_init; else name=i$c; fi
            # (the blocking barrier's fallback count: the calls before the set-up)
            case "$served" in *" $name:fallback="*) missing="$missing $name(fallback)" ;; esac
            for form_name in "$c" "$name"; do
                case "$served" in *" $form_name:"*) ;; *) missing="$missing $form_name" ;; esac
            done
        done
        bad=$(awk '!/^#/ && / ok$/ && !($5 > 0 && $6 > 0 && $7 > 0 && $8 <= $7 && $7 <= $9)' "$log")
        if [ -z "$missing" ] && [ -z "$bad" ]; then
            ok "scc_bench -P $f: both forms served by scc, a ratio within its quartiles per line:$served"
        else
            not_ok "scc_bench -P $f: both forms served by scc, a ratio per line: not$missing; lines: $bad; served:$served"
        fi
    done
    if "$here/compare.sh" -b "$SCC_BUILDDIR" -o "$tmp/cmp" -n 2 -c "scc tuned" -C bcast,barrier \
        -s 4,1K -i 20 -r 1 > "$tmp/cmp.out" 2>&1 &&
        grep -q "^np 2  scc: selected on 2/2" "$tmp/cmp/selection.txt" &&
        grep -q "^np 2  tuned: selected on 2/2" "$tmp/cmp/selection.txt" &&
        [ "$(grep -c '^tuned,2,' "$tmp/cmp/results.csv")" -eq 3 ] &&
        [ "$(grep -c '^scc,2,' "$tmp/cmp/results.csv")" -eq 3 ] &&
        grep -q '^| 2 | bcast |' "$tmp/cmp/report.md"; then
        ok "compare.sh: selection checked, scc and tuned measured, report written"
    else
        not_ok "compare.sh: selection checked, scc and tuned measured, report written"
        tail -n 20 "$tmp/cmp.out" | sed 's/^/#   /'
    fi
else
    ok "# SKIP scc_bench and compare.sh runs (run under make check)"
fi

echo "1..$n"
exit 0
