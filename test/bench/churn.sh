#!/bin/bash
# churn.sh: communicators that come and go or pile up (issue 21), tuned against coll/scc in one
# run: scc_churn on both, alternating pass by pass, after a check launch per process count that
# scc is selected on every communicator; a table of the medians over passes, their spread and
# scc/tuned.
set -u -o pipefail
BL_PROG=churn
# shellcheck source-path=SCRIPTDIR source=bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

usage() {
    cat << 'EOF'
usage: test/bench/churn.sh [options] [-- scc_churn options]
  -o DIR     results directory (default: build/bench-results/<date>-<time>-churn)
  -n LIST    process counts (default "2 4 8"); oversubscribed when above the cores
  -r N       passes (default 5): each runs tuned and scc once per process count, the two
             taking turns to go first; the table gives the median over passes
  -M LIST    scc_churn modes, comma-separated (default churn,split,live)
  -i N       timed iterations of churn and split (default 200)
  -k N       live communicators (default 1000);  -u N  calls on each (default 64)
  -b DIR     build directory (default: ./build, or $SCC_BUILDDIR)
  -x ARGS    more mpirun arguments for every launch
  -X ARGS    more mpirun arguments for the scc launches (after $SCC_CHURN_MCA)
  -B POLICY  --bind-to POLICY (default: core up to the number of cores, else none)
  -T SEC     timeout of one launch (default 1800)
  -v         also check the selection in every timed scc run (coll_scc_verbose 1 then writes
             a line per communicator made inside the timed loops: some microseconds each)
  -V         do not check that coll/scc was selected
The check launch (one per process count, before the passes, with the scc settings of the
runs and their -k and -u) runs with coll_scc_verbose 2 and fails the script unless every
process reports scc selected on every communicator of 2 or more processes it made; it also
reports on how many live communicators scc's own algorithms served the allreduce.
Environment: SCC_CHURN_MCA  mpirun arguments for the scc launches, e.g.
  SCC_CHURN_MCA="--mca coll_scc_shm_backing file" test/bench/churn.sh
Example (about a minute on 2 cores):
  test/bench/churn.sh -r 2 -n "2 4" -k 200
EOF
}

cmdline="$0 $*"
out="" nps="2 4 8" runs=5 iters=200 build="" verify=1 modes=churn,split,live
ncomms=1000 uses=64 scc_extra=${SCC_CHURN_MCA:-}
while getopts "o:n:r:M:i:k:u:b:x:X:B:T:vVh" opt; do
    case $opt in
    v) verify=2 ;;
    M) modes=$OPTARG ;;
    k) ncomms=$OPTARG ;;
    u) uses=$OPTARG ;;
    X) scc_extra="$scc_extra $OPTARG" ;;
    *) bl_opt "$opt" "${OPTARG:-}" || { usage >&2; exit 2; } ;;
    esac
done
shift $((OPTIND - 1))
for v in "$runs" "$iters" "$ncomms" "$uses" $nps; do
    case $v in ''|*[!0-9]*|0) bl_die "-r, -i, -k, -u and -n want positive numbers, not '$v'" ;; esac
done

bl_init "$build"
prog="$BL_BUILD/test/bench/scc_churn"
[ -x "$prog" ] || bl_die "$prog is not built (cd $BL_BUILD && make)"
[ -f "$BL_SO" ] || bl_die "$BL_SO is not built (cd $BL_BUILD && make)"
[ -n "$out" ] || out="$BL_BUILD/bench-results/$(date +%Y%m%d-%H%M%S)-churn"
bl_results_dir "$out"
args=(-m "$modes" -n "$iters" -k "$ncomms" -u "$uses" "$@")

{
    echo "command: $cmdline"
    echo "date: $(date -Iseconds)"
    echo "machine: $(bl_machine)"
    echo "source: $(git -C "$BL_TOP" describe --always --dirty 2>/dev/null || echo unknown)"
    echo "program: scc_churn ${args[*]}"
    echo "process counts: $nps; passes: $runs"
    [ -n "${BL_MPIRUN_ARGS:-}" ] && echo "mpirun arguments: $BL_MPIRUN_ARGS"
    [ -n "$scc_extra" ] && echo "scc mpirun arguments:$scc_extra"
} > "$BL_OUT/config.txt"
echo "churn: results in $BL_OUT"
shm_before=$(find /dev/shm -mindepth 1 -maxdepth 1 2> /dev/null | sort)

# churn_selected DIR NP: in every process's output (DIR/RANK.out, .err) coll_scc_verbose 1
# reported scc selected on MPI_COMM_WORLD and on each communicator of 2 or more processes that
# scc_churn says ("# rank=R comms=C") it made; prints a one-line verdict, returns 0 if so.
churn_selected() {
    local d=$1 np=$2 r want got short=""
    for ((r = 0; r < np; r++)); do
        want=$(sed -n 's/^# rank=[0-9]* comms=\([0-9]*\)$/\1/p' "$d/$r.out" 2> /dev/null)
        [ -n "$want" ] || { echo "rank $r printed no communicator count"; return 1; }
        got=$(cat "$d/$r.out" "$d/$r.err" 2> /dev/null |
            grep -c 'coll:scc: comm [0-9]* (.*) size [0-9]*: selected$')
        grep -q 'coll:scc: comm [0-9]* (MPI_COMM_WORLD) size [0-9]*: selected$' "$d/$r.out" "$d/$r.err" ||
            short="$short rank $r: not on MPI_COMM_WORLD;"
        [ "$got" -eq $((want + 1)) ] || short="$short rank $r: on $got of $((want + 1));"
    done
    if [ -n "$short" ]; then
        echo "NOT selected everywhere:${short%;}"
        return 1
    fi
    echo "selected on all $((want + 1)) communicators of each of $np processes"
}

# churn_served DIR NP: from the call reports of coll_scc_verbose 2, on how many of the live
# communicators ("scc_churn live ...") scc's own algorithms (not the fallback) served some of
# the allreduce calls, the fewest over processes; prints "A B" (B: the live ones reported).
churn_served() {
    local d=$1 np=$2 r a n fewest="" most=0
    for ((r = 0; r < np; r++)); do
        read -r a n <<< "$(cat "$d/$r.out" "$d/$r.err" 2> /dev/null | awk '
            /coll:scc: comm [0-9]* \(scc_churn live [^)]*\) rank [0-9]* size [0-9]* calls:/ {
                n++
                s = $0; sub(/.* calls:/, "", s); k = split(s, it, " "); mine = 0
                for (i = 1; i <= k; i++) if (it[i] ~ /^allreduce:/ && it[i] !~ /^allreduce:fallback=/) mine = 1
                a += mine
            }
            END { print a + 0, n + 0 }')"
        { [ -z "$fewest" ] || [ "$a" -lt "$fewest" ]; } && fewest=$a
        [ "$n" -gt "$most" ] && most=$n
    done
    echo "${fewest:-0} $most"
}

# churn_csv COMP NP PASS STATUS < rank 0's output: every figure of its result lines as a raw
# CSV row of bench_lib.sh's format, named MODE.KEY in the collective column.
churn_csv() {
    awk -v comp="$1" -v np="$2" -v run="$3" -v st="$4" '
        $1 == "churn" || $1 == "split" || $1 == "live" {
            n = 0
            for (i = 2; i <= NF; i++) {
                split($i, kv, "=")
                if (kv[1] == "iters" || kv[1] == "comms") n = kv[2]
            }
            for (i = 2; i <= NF; i++) {
                split($i, kv, "=")
                if (kv[1] ~ /^(np|iters|comms|uses|parts)$/) continue
                printf "%s,%s,%s.%s,8,%s,%s,%s,%s,-,-,%s,%s\n", comp, np, $1, kv[1], kv[2],
                       kv[2], kv[2], n, run, st
            }
        }'
}

# ------------------------------------------------------------ which component runs
: > "$BL_OUT/selection.txt"
failed=0
checked=""
for np in $nps; do
    if [ "$verify" = 0 ]; then
        checked="$checked $np"
        continue
    fi
    log="$BL_OUT/logs/check-np$np.log"
    # shellcheck disable=SC2086 # words on purpose
    bl_check_run "$log" "$np" scc $scc_extra --mca coll_scc_verbose 2 -- "$prog" "${args[@]}" \
        -n 10 -w 1
    st=$?
    if verdict=$(churn_selected "$log.d" "$np"); then
        checked="$checked $np"
        sel=1
    else
        failed=1
        sel=0
    fi
    line="np $np scc: $verdict"
    case $sel,$modes, in
    1,*live,*)
        read -r mine live <<< "$(churn_served "$log.d" "$np")"
        line="$line; live communicators whose allreduce scc's algorithms served: $mine of $live"
        [ "$mine" -eq $((ncomms + 1)) ] ||
            line="$line (WARNING: expected $((ncomms + 1)); see the calls: lines of $log)"
        ;;
    esac
    grep -q '^FAIL' "$log.d"/*.out 2> /dev/null && line="$line; WRONG RESULTS in the check launch"
    [ $st -ne 0 ] && line="$line; the check launch failed (status $st, see $log and $log.err)"
    echo "$line" | tee -a "$BL_OUT/selection.txt"
    [ $st -ne 0 ] && failed=1
done
[ -n "$checked" ] || bl_die "coll/scc is selected at no process count: nothing to compare"

# ------------------------------------------------------------ the passes
echo "$BL_CSV_HEADER" > "$BL_OUT/raw.csv"
# shellcheck disable=SC2086 # the count of process counts
set -- $checked
total=$((runs * $# * 2))
k=0
for ((run = 1; run <= runs; run++)); do
    for np in $checked; do
        # which component goes first changes pass by pass, so slow phases of the machine spread
        for comp in $(bl_rotate $((run - 1)) tuned scc); do
            k=$((k + 1))
            log="$BL_OUT/logs/np$np-$comp-$run.log"
            opts=()
            if [ "$comp" = scc ]; then
                # shellcheck disable=SC2206 # words on purpose
                opts=($scc_extra)
                [ "$verify" = 2 ] && opts+=(--mca coll_scc_verbose 1)
            fi
            t0=$(date +%s)
            bl_check_run "$log" "$np" "$comp" "${opts[@]}" -- "$prog" "${args[@]}"
            st=$?
            status=ok msg=ok
            if grep -q '^FAIL' "$log.d"/*.out 2> /dev/null; then
                status=WRONG msg="WRONG RESULTS: $(grep -h '^FAIL' "$log.d"/*.out | head -n 1)"
                failed=1
            elif [ $st -ne 0 ]; then
                msg="FAILED, status $st (see $log.err and $log)"
                failed=1
            elif [ "$comp" = scc ] && [ "$verify" = 2 ]; then
                msg=$(churn_selected "$log.d" "$np") || { status=NOTSCC; failed=1; }
            fi
            if [ $st -eq 0 ] || [ "$status" = WRONG ]; then
                churn_csv "$comp" "$np" "$run" "$status" < "$log.d/0.out" >> "$BL_OUT/raw.csv"
            fi
            printf 'churn: [%d/%d] pass %d np %s %-5s %4ds  %s\n' "$k" "$total" "$run" "$np" \
                "$comp" $(($(date +%s) - t0)) "$msg"
        done
    done
done

# ------------------------------------------------------------ the table
bl_aggregate "$BL_OUT/raw.csv" > "$BL_OUT/results.csv"
awk -F, -v modes="$modes" -v nps="$nps" '
    NR == 1 { next }
    {
        k = $2 "," $3; med[$1, k] = $5; lo[$1, k] = $6; hi[$1, k] = $7; n[$1, k] = $11
        if ($12 != "ok") bad[k] = bad[k] " " $1 ":" $12
    }
    function num(v) { return v == "" ? "-" : sprintf("%.1f", v) }
    function spread(c, k) { return (c SUBSEP k) in med ? num(lo[c, k]) ".." num(hi[c, k]) : "-" }
    END {
        printf "%-5s %3s %-14s %10s %19s %10s %19s %9s %s\n", "mode", "np", "figure", "tuned",
               "tuned min..max", "scc", "scc min..max", "scc/tuned", "runs"
        nm = split(modes, m, ","); nn = split(nps, p, " ")
        for (i = 1; i <= nm; i++) {
            if (m[i] == "live")
                nf = split("us_per_comm use_us allreduce_us base_us shmem_kb shmem_left_kb", f, " ")
            else
                nf = split("us_per_iter", f, " ")
            for (j = 1; j <= nn; j++) for (q = 1; q <= nf; q++) {
                k = p[j] "," m[i] "." f[q]
                if (!(("tuned" SUBSEP k) in med) && !(("scc" SUBSEP k) in med)) continue
                t = med["tuned", k]; s = med["scc", k]
                r = (f[q] !~ /^shmem/ && t != "" && s != "" && t + 0 > 0) ? sprintf("%.2f", s / t) : "-"
                printf "%-5s %3s %-14s %10s %19s %10s %19s %9s %s/%s%s\n", m[i], p[j], f[q],
                       t == "" ? "-" : num(t), spread("tuned", k), s == "" ? "-" : num(s),
                       spread("scc", k), r, n["tuned", k] + 0, n["scc", k] + 0,
                       (k in bad) ? "  (" substr(bad[k], 2) ")" : ""
            }
        }
    }' "$BL_OUT/results.csv" | tee "$BL_OUT/table.txt"
echo "churn: times in microseconds (max over ranks), shmem in kB (/proc/meminfo Shmem, whole machine)"
echo "churn: $BL_OUT/table.txt, $BL_OUT/results.csv, $BL_OUT/raw.csv"

# what a launch left in /dev/shm: files new since the start that no process maps (a file
# another job still uses is mapped by it; one of a job that ended alongside would show too)
left=""
for f in $(comm -13 <(echo "$shm_before") <(find /dev/shm -mindepth 1 -maxdepth 1 2> /dev/null | sort)); do
    grep -qsF "$f" /proc/[0-9]*/maps || left="$left $f"
done
[ -z "$left" ] || bl_note "new in /dev/shm and mapped by no process (ours, or another job's that ended meanwhile):$left"
[ $failed -eq 0 ] || exit 1
exit 0
