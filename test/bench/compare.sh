#!/bin/bash
# compare.sh: coll/scc against Open MPI's own components (tuned, sm, han), side by side: checks
# that each component is really the one Open MPI selects, runs scc_bench for every (component,
# process count) several times with the components alternating run by run, and writes
# results.csv (median over runs), report.md (latency and scc/best-of-others tables, targets
# marked) and plots/*.png.
set -u -o pipefail
BL_PROG=compare
# shellcheck source-path=SCRIPTDIR source=bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

usage() {
    cat << 'EOF'
usage: test/bench/compare.sh [options] [-- scc_bench options]
  -o DIR     results directory (default: build/bench-results/<date>-<time>)
  -n LIST    process counts, e.g. "2 4 8" (default); oversubscribed when above the cores
  -c LIST    components, e.g. "scc tuned sm han" (default); adapt is also known, and base:
             coll/scc of the build in $SCC_BASE_BUILD (another commit's, to compare with)
  -C LIST    collectives, comma-separated (default: all ten; named only: gatherv, scatterv,
             allgatherv, reduce_scatter, scan, exscan, alltoallw, memcpy, xcopy)
  -m MIN:MAX sizes in bytes, powers of two (default 4:4M);  -s LIST  sizes, comma-separated
  -R LIST    roots of the rooted collectives, comma-separated (default 0; 'last' = np-1)
  -r N       runs per (component, process count), the reported value is their median (default 3)
  -A LIST    also time coll/scc with these algorithms forced through MPI_T ('all': every one);
             reported as scc:<algorithm> beside scc (the component's own choice)
  -t SEC     time budget of the timed iterations per size and run (default 0.2)
  -i N       exactly N timed iterations per size (and N/5 warm-up) instead of the budget
  -b DIR     build directory (default: ./build, or $SCC_BUILDDIR)
  -x ARGS    more mpirun arguments for every launch (e.g. "--hostfile hosts")
  -X ARGS    more mpirun arguments for the scc launches only (e.g. "--mca coll_scc_cma_min 65536")
  -B POLICY  --bind-to POLICY for every launch (default: core up to the number of cores, else none)
  -T SEC     timeout of one launch (default 1800)
  -V         do not check which component Open MPI selected (not recommended)
Example (a quick look, about a minute):
  test/bench/compare.sh -n 2 -C bcast,allreduce -s 4,1K,64K -r 1
EOF
}

cmdline="$0 $*"
out="" nps="2 4 8" comps="scc tuned sm han" colls=$BL_ALL_COLLS sizes="" roots=0 runs=3
algs="" budget=0.2 iters="" build="" verify=1 scc_extra=""
while getopts "o:n:c:C:m:s:R:r:A:t:i:b:x:X:B:T:Vh" opt; do
    case $opt in
    c) comps=$OPTARG ;;
    A) algs=$OPTARG ;;
    X) scc_extra=$OPTARG ;;
    *) bl_opt "$opt" "${OPTARG:-}" || { usage >&2; exit 2; } ;;
    esac
done
shift $((OPTIND - 1))
extra_bench=("$@")
case $runs in ''|*[!0-9]*|0) bl_die "-r wants a positive number" ;; esac
for np in $nps; do
    case $np in ''|*[!0-9]*|0) bl_die "-n wants process counts, not '$np'" ;; esac
done

bl_init "$build"
for c in $comps; do
    bl_comp_args "$c" > /dev/null || bl_die "unknown component '$c' (known: scc tuned sm han adapt)"
done
bl_need_bench
bl_results_dir "$out"
command -v gnuplot > /dev/null 2>&1 || bl_note "gnuplot not found: no plots (Debian: apt-get install gnuplot-nox)"

# the scc_bench arguments of every run
bench=(-c "$colls" -r "$roots" -t "$budget")
# shellcheck disable=SC2206
[ -n "$sizes" ] && bench+=($sizes)
if [ -n "$iters" ]; then
    bench+=(-i "$iters" -w "$((iters / 5))")
fi
bench+=("${extra_bench[@]}")

{
    echo "command: $cmdline"
    echo "date: $(date -Iseconds)"
    echo "machine: $(bl_machine)"
    echo "source: $(git -C "$BL_TOP" describe --always --dirty 2>/dev/null || echo unknown)"
    echo "benchmark: scc_bench ${bench[*]}"
    echo "components: $comps; process counts: $nps; runs: $runs${algs:+; scc algorithms: $algs}"
    [ -n "${BL_MPIRUN_ARGS:-}" ] && echo "mpirun arguments: $BL_MPIRUN_ARGS"
    [ -n "$scc_extra" ] && echo "scc mpirun arguments: $scc_extra"
} > "$BL_OUT/config.txt"
echo "compare: results in $BL_OUT"

# ------------------------------------------------------------ which component runs
# A short run per (component, np) with Open MPI's selection output: the component must be the
# highest-priority module on the benchmark's communicators in every process.
: > "$BL_OUT/selection.txt"
: > "$BL_OUT/skipped.txt"
declare -A active
failed=0
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
        # the smallest and the largest size of the sweep (at most 1 MB): 2 iterations each
        vsizes=$(printf '%s' "${sizes:--m 4:4M}" | awk '{
            n = split($2, a, /[:,]/); lo = a[1]; hi = a[n]
            if (hi ~ /[kK]$/) hi = hi * 1024; else if (hi ~ /[mM]$/) hi = hi * 1048576
            if (hi + 0 > 1048576) hi = 1048576
            print lo "," hi }')
        vargs=(-c "$colls" -s "$vsizes" -r "$roots" -i 2 -w 0)
        [ "$comp" = scc ] && [ -n "$algs" ] && vargs+=(-a "auto,$algs")
        bl_check_run "$log" "$np" "$comp" "${vopts[@]}" -- "$BL_BENCH" "${vargs[@]}"
        st=$?
        verdict=$(bl_selected "$log" "$comp" "$np")
        sel=$?
        line="np $np  $comp: $verdict"
        if [ "$comp" = scc ] && [ $sel -eq 0 ]; then
            line="$line; served:$(bl_scc_served "$log")"
        fi
        [ "$comp" = sm ] && [ $sel -eq 0 ] && line="$line (sm serves bcast, barrier, reduce, allreduce; tuned the rest)"
        [ "$comp" = han ] && [ $sel -eq 0 ] && line="$line (han serves bcast, barrier, reduce, allreduce, gather, scatter, allgather; tuned the rest)"
        [ $st -ne 0 ] && line="$line; the check run failed (status $st, see $log)"
        echo "$line" | tee -a "$BL_OUT/selection.txt"
        [ "$comp" = scc ] && [ -n "$algs" ] && bl_scc_forced "$log" | tee -a "$BL_OUT/selection.txt"
        if [ $st -ge 2 ]; then
            # not a wrong result (status 1) but a run that could not measure at all
            grep -v '^\[[^]]*\] \|^ *$' "$log.err" | head -n 8 | sed 's/^/    /' >&2
            bl_die "the check run of $comp at np $np failed (status $st): see $log"
        fi
        if [ $sel -eq 0 ]; then
            active[$np]="${active[$np]} $comp"
        else
            echo "$np $comp $verdict" >> "$BL_OUT/skipped.txt"
            if [ "$comp" = scc ]; then
                bl_note "coll/scc is not selected at np $np: nothing to compare (see $log)"
                failed=1
            fi
        fi
    done
done

# ------------------------------------------------------------ the runs
echo "$BL_CSV_HEADER" > "$BL_OUT/raw.csv"
total=0
for np in $nps; do
    # shellcheck disable=SC2086
    set -- ${active[$np]}
    total=$((total + $# * runs))
done
k=0
wrong=0
for np in $nps; do
    # shellcheck disable=SC2086
    set -- ${active[$np]}
    [ $# -gt 0 ] || continue
    for ((run = 1; run <= runs; run++)); do
        # each run starts with another component, so slow phases of the machine spread out
        for comp in $(bl_rotate $((run - 1)) "$@"); do
            k=$((k + 1))
            log="$BL_OUT/logs/run-np$np-$comp-$run.log"
            copts=()
            args=("${bench[@]}")
            if [ "$comp" = scc ]; then
                # shellcheck disable=SC2206
                copts=($scc_extra)
                [ -n "$algs" ] && args+=(-a "auto,$algs")
            fi
            t0=$(date +%s)
            bl_mpirun "$log" "$np" "$comp" "${copts[@]}" -- "$BL_BENCH" "${args[@]}"
            st=$?
            bl_bench_csv "$comp" "$np" "$run" < "$log" >> "$BL_OUT/raw.csv"
            msg="ok"
            if grep -q ' WRONG$' "$log"; then
                msg="WRONG RESULTS (see $log.err)"
                wrong=1
            elif [ $st -ne 0 ]; then
                msg="FAILED, status $st (see $log.err)"
                failed=1
            fi
            printf 'compare: [%d/%d] np %s run %d/%d %-6s %4ds  %s\n' "$k" "$total" "$np" "$run" \
                "$runs" "$comp" $(($(date +%s) - t0)) "$msg"
        done
    done
done

bl_aggregate "$BL_OUT/raw.csv" > "$BL_OUT/results.csv"
"$BL_TOP/test/bench/report.sh" "$BL_OUT/results.csv" || failed=1
echo
sed -n '/^## Summary/,/^## np/p' "$BL_OUT/report.md" | sed '$d'
echo "compare: $BL_OUT/report.md, $BL_OUT/results.csv, $BL_OUT/plots/"
if [ $wrong -ne 0 ]; then
    echo "compare: some collective gave WRONG results: those numbers are no result" >&2
    exit 1
fi
[ $failed -eq 0 ] || exit 1
exit 0
