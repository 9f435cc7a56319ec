#!/bin/bash
# sweep.sh: a threshold sweep -- runs scc_bench on one component (coll/scc by default) once per
# value of one MCA parameter, the values alternating run by run, and reports per process count
# and collective the best value for each size and the size ranges over which one value is best
# (sweep.md), beside the latency tables and plots of every value (latency/).
set -u -o pipefail
BL_PROG=sweep
# shellcheck source-path=SCRIPTDIR source=bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

usage() {
    cat << 'EOF'
usage: test/bench/sweep.sh [options] PARAM VALUE1 VALUE2 ... [-- scc_bench options]
  PARAM      an MCA parameter, e.g. coll_scc_cma_min; each run passes --mca PARAM VALUE
  -o DIR     results directory (default: build/bench-results/<date>-<time>-PARAM)
  -n LIST    process counts (default "2")
  -c COMP    the component whose parameter it is (default scc; tuned, sm, han, adapt)
  -C LIST    collectives, comma-separated (default: all ten; named only: gatherv, scatterv,
             allgatherv, reduce_scatter, scan, exscan, alltoallw, memcpy, xcopy)
  -m MIN:MAX sizes in bytes, powers of two (default 4:4M);  -s LIST  sizes, comma-separated
  -R LIST    roots;  -r N  runs per value (default 3);  -t SEC  budget per size (default 0.2)
  -i N       exactly N timed iterations per size
  -e PCT     a value within PCT percent of the fastest counts as tied; ties go to the default
             value, else to the value listed first (default 3)
  -b, -x, -B, -T, -V   as in compare.sh
Example: test/bench/sweep.sh -n "2 4" -C bcast,allreduce -m 1K:1M coll_scc_cma_min 4096 16384 65536
EOF
}

cmdline="$0 $*"
out="" nps="2" comp=scc colls=$BL_ALL_COLLS sizes="" roots=0 runs=3 budget=0.2 iters="" build=""
verify=1 tie=3
while getopts "o:n:c:C:m:s:R:r:t:i:e:b:x:B:T:Vh" opt; do
    case $opt in
    c) comp=$OPTARG ;;
    e) tie=$OPTARG ;;
    *) bl_opt "$opt" "${OPTARG:-}" || { usage >&2; exit 2; } ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 3 ] || { usage >&2; exit 2; }
param=$1
shift
values=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    values+=("$1")
    shift
done
[ "${1:-}" = "--" ] && shift
extra_bench=("$@")
[ ${#values[@]} -ge 2 ] || bl_die "give at least two values of $param"
case $runs in ''|*[!0-9]*|0) bl_die "-r wants a positive number" ;; esac

bl_init "$build"
bl_need_bench
bl_comp_args "$comp" > /dev/null || bl_die "unknown component '$comp' (known: scc tuned sm han adapt)"
[ -n "$out" ] || out="$BL_BUILD/bench-results/$(date +%Y%m%d-%H%M%S)-$param"
bl_results_dir "$out"

# the parameter must exist (Open MPI ignores unknown ones silently); its default is marked
info=$(OMPI_MCA_mca_base_component_path="$BL_COMPONENT_PATH" ompi_info --param all all --level 9 \
       --parsable 2>/dev/null | grep ":param:$param:value:")
[ -n "$info" ] || bl_die "Open MPI knows no MCA parameter $param (ompi_info --param all all --level 9)"
default=${info##*:value:}
echo "sweep: $param (default $default) over ${values[*]}; results in $BL_OUT"

bench=(-c "$colls" -r "$roots" -t "$budget")
# shellcheck disable=SC2206
[ -n "$sizes" ] && bench+=($sizes)
[ -n "$iters" ] && bench+=(-i "$iters" -w "$((iters / 5))")
bench+=("${extra_bench[@]}")
{
    echo "command: $cmdline"
    echo "date: $(date -Iseconds)"
    echo "machine: $(bl_machine)"
    echo "source: $(git -C "$BL_TOP" describe --always --dirty 2>/dev/null || echo unknown)"
    echo "benchmark: scc_bench ${bench[*]}"
    echo "sweep: $comp, $param (default $default) over ${values[*]}; process counts: $nps; runs: $runs"
} > "$BL_OUT/config.txt"

# the component is the one selected (checked with the first value)
: > "$BL_OUT/selection.txt"
failed=0
if [ "$verify" = 1 ]; then
    for np in $nps; do
        log="$BL_OUT/logs/select-$comp-np$np.log"
        bl_check_run "$log" "$np" "$comp" --mca coll_base_verbose 10 --mca "$param" "${values[0]}" -- \
            "$BL_BENCH" -c "$colls" -s 4 -i 2 -w 0 -r "$roots"
        verdict=$(bl_selected "$log" "$comp" "$np") || bl_die "np $np: $comp $verdict (see $log)"
        echo "np $np  $comp: $verdict" | tee -a "$BL_OUT/selection.txt"
    done
fi

echo "$BL_CSV_HEADER" > "$BL_OUT/raw.csv"
nv=${#values[@]}
total=0
for np in $nps; do total=$((total + nv * runs)); done
k=0
wrong=0
for np in $nps; do
    for ((run = 1; run <= runs; run++)); do
        for ((j = 0; j < nv; j++)); do
            v=${values[$(((j + run - 1) % nv))]}
            k=$((k + 1))
            log="$BL_OUT/logs/run-np$np-$(printf '%s' "$v" | tr -c 'A-Za-z0-9._-' _)-$run.log"
            t0=$(date +%s)
            bl_mpirun "$log" "$np" "$comp" --mca "$param" "$v" -- "$BL_BENCH" "${bench[@]}"
            st=$?
            bl_bench_csv "$param=$v" "$np" "$run" < "$log" >> "$BL_OUT/raw.csv"
            msg=ok
            if grep -q ' WRONG$' "$log"; then
                msg="WRONG RESULTS (see $log.err)"
                wrong=1
            elif [ $st -ne 0 ]; then
                msg="FAILED, status $st (see $log.err)"
                failed=1
            fi
            printf 'sweep: [%d/%d] np %s run %d/%d %s=%-10s %4ds  %s\n' "$k" "$total" "$np" "$run" \
                "$runs" "$param" "$v" $(($(date +%s) - t0)) "$msg"
        done
    done
done
bl_aggregate "$BL_OUT/raw.csv" > "$BL_OUT/results.csv"
"$BL_TOP/test/bench/report.sh" -o "$BL_OUT/latency" -T "$param: latency of each value" \
    "$BL_OUT/results.csv" > /dev/null || failed=1
for f in config.txt selection.txt; do cp "$BL_OUT/$f" "$BL_OUT/latency/" 2> /dev/null; done

# best value per size, then the ranges of consecutive sizes with the same best value
awk -F, -v param="$param" -v dflt="$default" -v tie="$tie" -v vals="${values[*]}" '
function human(b) {
    if (b + 0 >= 1048576 && b % 1048576 == 0) return (b / 1048576) "M"
    if (b + 0 >= 1024 && b % 1024 == 0) return (b / 1024) "K"
    return b
}
function sortnum(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
function sortstr(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
BEGIN {
    nv = split(vals, v, " ")
    ncoll = split("bcast barrier reduce allreduce alltoall alltoallv gather scatter allgather reduce_scatter_block", cn, " ")
    for (i = 1; i <= ncoll; i++) ci[cn[i]] = i
}
$1 == "component" { next }
{
    val = substr($1, length(param) + 2); g = $2 SUBSEP $3 SUBSEP $9
    if (!(g in gs)) { gs[g] = 1; ng++; key[ng] = sprintf("%06d %02d %s", $2, ci[$3], $9); gid[key[ng]] = g }
    if (!((g, $4) in ss)) { ss[g, $4] = 1; nsz[g]++; sz[g, nsz[g]] = $4 }
    if ($12 == "ok") lat[g, $4, val] = $5; else bad[g, $4, val] = 1
}
END {
    print "# Sweep of " param
    print ""
    print "Default value: " dflt ". Latency in microseconds (median over runs of the per-run median); per size the best value is **bold**; a value within " tie "% of the fastest counts as tied, ties go to the default value, else to the value listed first. `WRONG`: the result failed its check."
    print ""
    for (i = 1; i <= ng; i++) k[i] = key[i]
    sortstr(k, ng)
    # the summary first: ranges
    print "## Best value per size range"
    print ""
    for (j = 1; j <= nv; j++) if (v[j] == dflt) swept = 1
    if (!swept) { print "The default (" dflt ") is not among the values: add it to see what a change would gain."; print "" }
    print "| np | collective | size range | best " param " | vs default |"
    print "|---:|---|---|---|---|"
    for (gi = 1; gi <= ng; gi++) {
        g = gid[k[gi]]; split(g, gg, SUBSEP); n = nsz[g]
        for (i = 1; i <= n; i++) b[i] = sz[g, i]; sortnum(b, n)
        start = ""; cur = ""; gain = ""
        for (i = 1; i <= n + 1; i++) {
            if (i <= n) {
                best = ""; bl = ""
                for (j = 1; j <= nv; j++) if ((g, b[i], v[j]) in lat && (bl == "" || lat[g, b[i], v[j]] + 0 < bl + 0)) { bl = lat[g, b[i], v[j]]; best = v[j] }
                if (best != "") {
                    # tie-break: the default if close enough, else the first listed close enough
                    if ((g, b[i], dflt) in lat && lat[g, b[i], dflt] <= bl * (1 + tie / 100)) best = dflt
                    else for (j = 1; j <= nv; j++) if ((g, b[i], v[j]) in lat && lat[g, b[i], v[j]] <= bl * (1 + tie / 100)) { best = v[j]; break }
                }
                bestv[g, b[i]] = best
                d = ((g, b[i], dflt) in lat) && best != "" && best != dflt ? sprintf("%.0f%%", 100 * (1 - lat[g, b[i], best] / lat[g, b[i], dflt])) : ""
            }
            if (i > n || best != cur) {
                if (cur != "" || start != "") {
                    rng = gg[2] == "barrier" ? "-" : (start == last ? human(start) : human(start) ".." human(last))
                    print "| " gg[1] " | " gg[2] (gg[3] != "-" && gg[3] != "0" ? " (root " gg[3] ")" : "") " | " rng " | " (cur == "" ? "-" : cur) " | " (cur == dflt ? "default" : (gains == "" ? "-" : "faster by " gains)) " |"
                }
                if (i > n) break
                cur = best; start = b[i]; gains = ""
            }
            last = b[i]
            if (d != "") gains = gains (gains == "" ? "" : " ") d
        }
    }
    print ""
    print "## Latency per value"
    for (gi = 1; gi <= ng; gi++) {
        g = gid[k[gi]]; split(g, gg, SUBSEP); n = nsz[g]
        for (i = 1; i <= n; i++) b[i] = sz[g, i]; sortnum(b, n)
        print ""
        print "### " gg[2] ", np " gg[1] (gg[3] != "-" ? ", root " gg[3] : "")
        print ""
        h = "| bytes |"; a = "|---:|"
        for (j = 1; j <= nv; j++) { h = h " " v[j] (v[j] == dflt ? " (default)" : "") " |"; a = a "---:|" }
        print h " best |"; print a "---|"
        for (i = 1; i <= n; i++) {
            row = "| " (gg[2] == "barrier" ? "-" : human(b[i])) " |"
            for (j = 1; j <= nv; j++) {
                c = (g, b[i], v[j]) in bad ? "WRONG" : ((g, b[i], v[j]) in lat ? sprintf("%.2f", lat[g, b[i], v[j]]) : "-")
                if (v[j] == bestv[g, b[i]]) c = "**" c "**"
                row = row " " c " |"
            }
            print row " " bestv[g, b[i]] " |"
        }
    }
}' "$BL_OUT/results.csv" > "$BL_OUT/sweep.md"
echo
sed -n '/^## Best value/,/^## Latency/p' "$BL_OUT/sweep.md" | sed '$d'
echo "sweep: $BL_OUT/sweep.md, $BL_OUT/results.csv, plots in $BL_OUT/latency/plots/"
[ $wrong -eq 0 ] || { echo "sweep: some runs gave WRONG results" >&2; exit 1; }
[ $failed -eq 0 ] || exit 1
exit 0
