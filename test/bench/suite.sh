#!/bin/bash
# suite.sh: runs an existing installation of the OSU micro-benchmarks or of the Intel MPI
# Benchmarks (IMB-MPI1) on coll/scc and on Open MPI's own components, the same way compare.sh
# runs scc_bench (selection checked, components alternating run by run, median over runs),
# parses the suite's standard output and writes the same CSV, report and plots.
# The project neither includes nor builds those suites: give the path of yours.
set -u -o pipefail
BL_PROG=suite
# shellcheck source-path=SCRIPTDIR source=bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

usage() {
    cat << 'EOF'
usage: test/bench/suite.sh [options] PATH [-- suite options]
  PATH       OSU: the directory that holds osu_bcast, osu_allreduce, ... (for an installed OSU,
             .../libexec/osu-micro-benchmarks/mpi/collective);  IMB: the IMB-MPI1 program or
             the directory that holds it
  -o DIR     results directory (default: build/bench-results/<date>-<time>-osu or -imb)
  -n LIST    process counts (default "2 4 8")
  -c LIST    components (default "scc tuned sm han")
  -C LIST    collectives, comma-separated (default: the ten of scc_bench's default list; also
             gatherv, scatterv, allgatherv, reduce_scatter, scan, exscan, alltoallw; the suite
             may lack some)
  -m MIN:MAX message sizes in bytes, K/M/G allowed (default: the suite's own range)
  -r N       runs per (component, process count) (default 3)
  -i N       iterations per size (OSU -i N -x N/5, IMB -iter N; default: the suite's own)
  -b, -x, -X, -B, -T, -V   as in compare.sh
The suites' numbers are their own: OSU reports the average latency over iterations (averaged
over processes; with -f also min and max over processes), IMB t_avg, t_min, t_max over
processes.  The CSV keeps that average in the median_us column; compare components with it,
not with scc_bench's medians.
EOF
}

cmdline="$0 $*"
out="" nps="2 4 8" comps="scc tuned sm han" colls=$BL_ALL_COLLS range="" runs=3 iters=""
build="" verify=1 scc_extra=""
while getopts "o:n:c:C:m:r:i:b:x:X:B:T:Vh" opt; do
    case $opt in
    c) comps=$OPTARG ;;
    m) range=$OPTARG ;;
    X) scc_extra=$OPTARG ;;
    *) bl_opt "$opt" "${OPTARG:-}" || { usage >&2; exit 2; } ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { usage >&2; exit 2; }
path=$1
shift
[ "${1:-}" = "--" ] && shift
extra_suite=("$@")
case $runs in ''|*[!0-9]*|0) bl_die "-r wants a positive number" ;; esac

# which suite
if [ -f "$path" ] && [ -x "$path" ] && [ "$(basename "$path")" = IMB-MPI1 ]; then
    kind=imb imb=$path
elif [ -x "$path/IMB-MPI1" ]; then
    kind=imb imb=$path/IMB-MPI1
elif [ -d "$path" ] && ls "$path"/osu_* > /dev/null 2>&1; then
    kind=osu
else
    bl_die "$path holds neither osu_* programs nor IMB-MPI1"
fi

bl_init "$build"
[ -f "$BL_SO" ] || bl_die "$BL_SO is not built (cd $BL_BUILD && make)"
for c in $comps; do
    bl_comp_args "$c" > /dev/null || bl_die "unknown component '$c' (known: scc tuned sm han adapt)"
done
[ -n "$out" ] || out="$BL_BUILD/bench-results/$(date +%Y%m%d-%H%M%S)-$kind"
bl_results_dir "$out"

# the suite's names of our collectives
imb_name() {
    case $1 in
    bcast) echo Bcast ;; barrier) echo Barrier ;; reduce) echo Reduce ;;
    allreduce) echo Allreduce ;; alltoall) echo Alltoall ;; alltoallv) echo Alltoallv ;;
    gather) echo Gather ;; scatter) echo Scatter ;; allgather) echo Allgather ;;
    reduce_scatter_block) echo Reduce_scatter_block ;;
    gatherv) echo Gatherv ;; scatterv) echo Scatterv ;; allgatherv) echo Allgatherv ;;
    reduce_scatter) echo Reduce_scatter ;;
    esac
}

# the programs (OSU) or benchmark names (IMB) to run, and the options of every launch
todo=()
for coll in ${colls//,/ }; do
    case ",$BL_ALL_COLLS,$BL_MORE_COLLS," in *",$coll,"*) ;; *) bl_die "unknown collective '$coll'" ;; esac
    if [ $kind = osu ]; then
        if [ -x "$path/osu_$coll" ]; then
            todo+=("$coll")
        else
            bl_note "no $path/osu_$coll: $coll skipped"
        fi
    elif [ -n "$(imb_name "$coll")" ]; then
        todo+=("$coll")
    else
        bl_note "IMB-MPI1 has no $coll: skipped"
    fi
done
[ ${#todo[@]} -gt 0 ] || bl_die "nothing to run"
sopts=()
if [ -n "$range" ]; then
    # the suites take plain byte counts: 64K is 65536 here as in compare.sh
    lo=$(bl_bytes "${range%%:*}") && hi=$(bl_bytes "${range##*:}") || exit 1
fi
if [ $kind = osu ]; then
    sopts+=(-f)
    [ -n "$range" ] && sopts+=(-m "$lo:$hi")
    [ -n "$iters" ] && sopts+=(-i "$iters" -x "$((iters / 5 > 0 ? iters / 5 : 1))")
else
    if [ -n "$range" ]; then
        log2() { awk -v v="$1" 'BEGIN { n = 0; while (2 ^ (n + 1) <= v) n++; print n }'; }
        sopts+=(-msglog "$(log2 "$lo"):$(log2 "$hi")")
    fi
    [ -n "$iters" ] && sopts+=(-iter "$iters")
fi
sopts+=("${extra_suite[@]}")

{
    echo "command: $cmdline"
    echo "date: $(date -Iseconds)"
    echo "machine: $(bl_machine)"
    echo "source: $(git -C "$BL_TOP" describe --always --dirty 2>/dev/null || echo unknown)"
    echo "suite: $kind ($path), options: ${sopts[*]}"
    echo "components: $comps; process counts: $nps; runs: $runs"
} > "$BL_OUT/config.txt"
echo "suite: results in $BL_OUT"

# suite_launch LOG NP COMPONENT WHAT [mpirun options...]: one launch of the suite; WHAT is a
# collective (OSU: one program) or "all" (IMB: every benchmark in one launch).
suite_launch() {
    local log=$1 np=$2 comp=$3 what=$4 run=bl_mpirun
    shift 4
    [ "${CHECK_RUN:-0}" = 1 ] && run=bl_check_run
    if [ $kind = osu ]; then
        $run "$log" "$np" "$comp" "$@" -- "$path/osu_$what" "${sopts[@]}"
    else
        local names=() c
        for c in "${todo[@]}"; do names+=("$(imb_name "$c")"); done
        [ "$what" = all ] || names=("$(imb_name "$what")")
        $run "$log" "$np" "$comp" "$@" -- "$imb" -npmin "$np" "${sopts[@]}" "${names[@]}"
    fi
}

# suite_csv LABEL NP RUN COLL < output: the suite's result lines as raw CSV rows.
suite_csv() {
    if [ $kind = osu ]; then bl_osu_csv "$@"; else bl_imb_csv "$1" "$2" "$3"; fi
}

# ------------------------------------------------------------ which component runs
: > "$BL_OUT/selection.txt"
: > "$BL_OUT/skipped.txt"
declare -A active
failed=0
vcoll=${todo[0]}
for c in "${todo[@]}"; do [ "$c" = barrier ] && vcoll=barrier; done
for np in $nps; do
    active[$np]=""
    for comp in $comps; do
        if [ "$verify" = 0 ]; then
            active[$np]="${active[$np]} $comp"
            continue
        fi
        log="$BL_OUT/logs/select-$comp-np$np.log"
        vopts=(--mca coll_base_verbose 10)
        # shellcheck disable=SC2206
        [ "$comp" = scc ] && vopts+=(--mca coll_scc_verbose 2 $scc_extra)
        CHECK_RUN=1 suite_launch "$log" "$np" "$comp" "$vcoll" "${vopts[@]}"
        st=$?
        verdict=$(bl_selected "$log" "$comp" "$np")
        sel=$?
        line="np $np  $comp: $verdict"
        [ "$comp" = scc ] && [ $sel -eq 0 ] && line="$line; served:$(bl_scc_served "$log")"
        [ $st -ne 0 ] && line="$line; the check run failed (status $st, see $log)"
        echo "$line" | tee -a "$BL_OUT/selection.txt"
        if [ $sel -eq 0 ]; then
            active[$np]="${active[$np]} $comp"
        else
            echo "$np $comp $verdict" >> "$BL_OUT/skipped.txt"
            [ "$comp" = scc ] && failed=1
        fi
    done
done

# ------------------------------------------------------------ the runs
echo "$BL_CSV_HEADER" > "$BL_OUT/raw.csv"
if [ $kind = osu ]; then whats=("${todo[@]}"); else whats=(all); fi
total=0
for np in $nps; do
    # shellcheck disable=SC2086
    set -- ${active[$np]}
    total=$((total + $# * runs * ${#whats[@]}))
done
k=0
wrong=0
for np in $nps; do
    # shellcheck disable=SC2086
    set -- ${active[$np]}
    [ $# -gt 0 ] || continue
    for ((run = 1; run <= runs; run++)); do
        for comp in $(bl_rotate $((run - 1)) "$@"); do
            copts=()
            # shellcheck disable=SC2206
            [ "$comp" = scc ] && copts=($scc_extra)
            for what in "${whats[@]}"; do
                k=$((k + 1))
                log="$BL_OUT/logs/run-np$np-$comp-$what-$run.log"
                t0=$(date +%s)
                suite_launch "$log" "$np" "$comp" "$what" "${copts[@]}"
                st=$?
                suite_csv "$comp" "$np" "$run" "$what" < "$log" > "$log.csv"
                cat "$log.csv" >> "$BL_OUT/raw.csv"
                msg="ok, $(wc -l < "$log.csv") results"
                if grep -q ',WRONG$' "$log.csv"; then
                    msg="WRONG RESULTS (the suite's validation failed, see $log)"
                    wrong=1
                elif [ $st -ne 0 ]; then
                    msg="FAILED, status $st (see $log.err)"
                    failed=1
                elif [ ! -s "$log.csv" ]; then
                    msg="no results found in the output (see $log)"
                    failed=1
                fi
                printf 'suite: [%d/%d] np %s run %d/%d %-6s %-20s %4ds  %s\n' "$k" "$total" "$np" \
                    "$run" "$runs" "$comp" "$what" $(($(date +%s) - t0)) "$msg"
            done
        done
    done
done

bl_aggregate "$BL_OUT/raw.csv" > "$BL_OUT/results.csv"
if [ $kind = osu ]; then
    metric="Latency in microseconds: OSU's average over iterations and processes (osu_* -f), then the median over runs."
else
    metric="Latency in microseconds: IMB's t_avg (average over processes of the time per repetition), then the median over runs."
fi
"$BL_TOP/test/bench/report.sh" -T "$kind: coll/scc against Open MPI's components" -M "$metric" \
    "$BL_OUT/results.csv" || failed=1
echo
sed -n '/^## Summary/,/^## np/p' "$BL_OUT/report.md" | sed '$d'
echo "suite: $BL_OUT/report.md, $BL_OUT/results.csv, $BL_OUT/plots/"
[ $wrong -eq 0 ] || exit 1
[ $failed -eq 0 ] || exit 1
exit 0
