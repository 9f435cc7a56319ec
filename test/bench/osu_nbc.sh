#!/bin/bash
# osu_nbc.sh: OSU's nonblocking collective benchmarks (osu_iallreduce, ...) on coll/scc against
# libnbc (what serves them without scc), and against scc's own blocking latency (osu_allreduce,
# ...) at the same size: three runs per pass, alternating, several passes, medians.  OSU's
# nonblocking "Pure Comm." column is the start-to-wait latency without computation.  The
# project neither includes nor builds OSU: give the directory of your build (OSU 7: the one
# holding non_blocking/ and blocking/).  With -V: OSU's blocking benchmarks on scc against
# tuned and sm (each in its own launch, alternating), the ratio scc / the better of them.
set -u -o pipefail

usage() {
    cat << 'EOF2'
usage: test/bench/osu_nbc.sh [options] OSU_COLLECTIVE_DIR
  -n LIST   process counts (default "2 4 8")
  -C LIST   collectives (default "allreduce bcast reduce barrier allgather alltoall gather scatter")
  -p N      passes (default 3)
  -m MAX    largest message (default 1048576)
  -i N      iterations per size (default 200; warm-up N/10)
  -o DIR    results directory (default build/bench-results/<date>-osu-nbc)
  -b DIR    the build tree (default ./build)
  -B BIND   mpirun --bind-to (default core; more processes than cores: none)
  -V        blocking: scc against tuned and sm (e.g. -V -C "gatherv scatterv allgatherv
            reduce_scatter"; sm's launch has sm first: it serves what it implements)
The table per process count: size, then medians over passes of scc's nonblocking pure
communication latency, libnbc's, scc's blocking latency (us), the ratios scc-i / scc
blocking and scc-i / libnbc of the medians, and the same ratios pass by pass (the runs of a
pass launched back to back): scc-i / scc blocking's median, lowest and highest, scc-i /
libnbc's median and highest.  Each run's verbose counters must show scc serving the form.  With -V: size,
medians of scc, tuned, sm (us), then scc / min(tuned, sm) of the medians and the lowest and
highest of that ratio over the passes (pass by pass).
EOF2
}

cmdline="$0 $*"
nps="2 4 8" colls="allreduce bcast reduce barrier allgather alltoall gather scatter"
passes=3 max=1048576 iters=200 out="" build=./build bind="" vs=0
while getopts "n:C:p:m:i:o:b:B:Vh" opt; do
    case $opt in
    n) nps=$OPTARG ;; C) colls=$OPTARG ;; p) passes=$OPTARG ;; m) max=$OPTARG ;;
    i) iters=$OPTARG ;; o) out=$OPTARG ;; b) build=$OPTARG ;; B) bind=$OPTARG ;; V) vs=1 ;;
    *) usage >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { usage >&2; exit 2; }
osu=$1
[ -x "$osu/non_blocking/osu_iallreduce" ] || { echo "osu_nbc: no $osu/non_blocking/osu_iallreduce" >&2; exit 2; }
out=${out:-$build/bench-results/$(date +%Y-%m-%d-%H%M)-osu-nbc}
mkdir -p "$out/raw"
lib=$(cd "$build/ompi/mca/coll/scc/.libs" && pwd)
base=$(dirname "$(find /usr/lib /usr/local/lib -name mca_coll_tuned.so -print -quit 2> /dev/null)")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# (set up at the first call: the table measures the steady state, not the setup)
scc="--mca mca_base_component_path $lib:$base --mca coll scc,tuned,basic,libnbc,self --mca coll_scc_verbose 2 --mca coll_scc_setup_calls 0"
nbc="--mca coll tuned,basic,libnbc,self"
sm="--mca coll sm,tuned,basic,libnbc,self --mca coll_sm_priority 100 --mca coll_base_verbose 10"
echo "$cmdline" > "$out/command"

# run NAME NP OPTS PROGRAM: one OSU run, its table as "size value" in raw/NAME
run() {
    local name=$1 np=$2 opts=$3 prog=$4 col=2 lf="$out/raw/$1.log" bind=$bind
    [ -n "$bind" ] || { bind=core; [ "$np" -gt "$(nproc)" ] && bind=none; }
    case $prog in */osu_i*) col=4 ;; esac
    # the barriers print one row without a size: size 0, pure communication or latency
    case $prog in */osu_ibarrier) col=3 ;; */osu_barrier) col=1 ;; esac
    # shellcheck disable=SC2086
    timeout -k 20 900 mpirun -np "$np" --oversubscribe --bind-to "$bind" $opts "$osu/$prog" \
        -m "$max" -i "$iters" -x $((iters / 10)) > "$lf" 2>&1 || { echo "osu_nbc: $name failed ($lf)" >&2; return 1; }
    case $prog in
    *barrier) awk -v c=$col '/^ +[0-9.]+( |$)/ { print 0, $c }' "$lf" ;;
    *) awk -v c=$col '$1 ~ /^[0-9]+$/ && NF >= c { print $1, $c }' "$lf" ;;
    esac > "$out/raw/$name.dat"
}

# median NAME: medians per size over the passes of raw/NAME-<pass>.dat into NAME.med
median() {
    cat "$out/raw/$1-"*.dat | awk '{ v[$1] = v[$1] " " $2 } END { for (s in v) print s, v[s] }' |
        while read -r s vals; do
            echo "$s $(echo "$vals" | tr ' ' '\n' | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')"
        done | sort -k1,1 > "$out/$1.med"
}

# served NAME NP COLL: the run's verbose counters show scc serving COLL (not its fallback)
served() {
    grep -aq "(MPI_COMM_WORLD) rank 0 size $2 calls:.* $3:[a-z_]*[^k]=" "$out/raw/$1.log" \
        || { echo "osu_nbc: scc did not serve $3 (np $2)" >&2; exit 1; }
}

if [ "$vs" = 1 ]; then
    for np in $nps; do
        for c in $colls; do
            for p in $(seq 1 "$passes"); do
                run "scc-$c-np$np-$p" "$np" "$scc" "blocking/osu_$c" || exit 1
                served "scc-$c-np$np-$p" "$np" "$c"
                run "tuned-$c-np$np-$p" "$np" "$nbc" "blocking/osu_$c" || exit 1
                run "sm-$c-np$np-$p" "$np" "$sm" "blocking/osu_$c" || exit 1
                grep -aq "coll:base:comm_select: selecting.*sm" "$out/raw/sm-$c-np$np-$p.log" ||
                    grep -aq "checking available component sm" "$out/raw/sm-$c-np$np-$p.log" ||
                    { echo "osu_nbc: sm was not available (np $np)" >&2; exit 1; }
            done
            for k in scc tuned sm; do median "$k-$c-np$np"; done
            # per pass: scc / min(tuned, sm), for the spread
            for p in $(seq 1 "$passes"); do
                join "$out/raw/scc-$c-np$np-$p.dat" "$out/raw/tuned-$c-np$np-$p.dat" |
                    join - "$out/raw/sm-$c-np$np-$p.dat" |
                    awk '{ b = $3 < $4 ? $3 : $4; if (b > 0) print $1, $2 / b }'
            done | awk '{ if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2; if ($2 > hi[$1]) hi[$1] = $2 }
                        END { for (s in lo) print s, lo[s], hi[s] }' | sort -k1,1 > "$out/spread-$c-np$np"
            {
                echo "# $c, np $np: size  scc  tuned  sm (us, medians of $passes)  scc/min(tuned,sm)  pass low  high"
                join "$out/scc-$c-np$np.med" "$out/tuned-$c-np$np.med" | join - "$out/sm-$c-np$np.med" |
                    join - "$out/spread-$c-np$np" | sort -n |
                    awk '{ b = $3 < $4 ? $3 : $4; printf "%8d %9.2f %9.2f %9.2f %7.2f %7.2f %7.2f\n", $1, $2, $3, $4, (b > 0 ? $2 / b : 0), $5, $6 }'
            } | tee "$out/$c-np$np.txt"
        done
    done
    exit 0
fi

for np in $nps; do
    for c in $colls; do
        for p in $(seq 1 "$passes"); do
            run "scc-i-$c-np$np-$p" "$np" "$scc" "non_blocking/osu_i$c" || exit 1
            served "scc-i-$c-np$np-$p" "$np" "i$c"
            run "nbc-i-$c-np$np-$p" "$np" "$nbc" "non_blocking/osu_i$c" || exit 1
            run "scc-b-$c-np$np-$p" "$np" "$scc" "blocking/osu_$c" || exit 1
        done
        # medians per size over passes, the ratios
        for k in scc-i nbc-i scc-b; do median "$k-$c-np$np"; done
        # the ratios pass by pass (the three runs of a pass are launched back to back: the
        # machine's state drifts between passes more than within one), their median and
        # range
        for p in $(seq 1 "$passes"); do
            join "$out/raw/scc-i-$c-np$np-$p.dat" "$out/raw/nbc-i-$c-np$np-$p.dat" |
                join - "$out/raw/scc-b-$c-np$np-$p.dat" |
                awk '{ if ($3 > 0 && $4 > 0) print $1, $2 / $4, $2 / $3 }'
        done | awk '{ b[$1] = b[$1] " " $2; l[$1] = l[$1] " " $3 }
                    END { for (s in b) print s, b[s], "|", l[s] }' |
            while read -r s rest; do
                bs=$(echo "${rest%|*}" | tr ' ' '\n' | sed '/^$/d' | sort -g | tr '\n' ' ')
                ls=$(echo "${rest#*|}" | tr ' ' '\n' | sed '/^$/d' | sort -g | tr '\n' ' ')
                echo "$s $(echo $bs | awk '{ m = (NF % 2) ? $((NF + 1) / 2) : ($(NF / 2) + $(NF / 2 + 1)) / 2; print m, $1, $NF }') $(echo $ls | awk '{ m = (NF % 2) ? $((NF + 1) / 2) : ($(NF / 2) + $(NF / 2 + 1)) / 2; print m, $NF }')"
            done | sort -k1,1 > "$out/pass-$c-np$np"
        {
            echo "# i$c, np $np: size  scc-i  libnbc-i  scc-blocking (us, medians of $passes)  scc-i/scc-b  scc-i/libnbc (of the medians)  per pass: scc-i/scc-b median low high  scc-i/libnbc median high"
            join "$out/scc-i-$c-np$np.med" "$out/nbc-i-$c-np$np.med" | join - "$out/scc-b-$c-np$np.med" |
                join - "$out/pass-$c-np$np" | sort -n |
                awk '{ printf "%8d %9.2f %9.2f %9.2f %7.2f %7.2f   %6.2f %6.2f %6.2f   %6.2f %6.2f\n", $1, $2, $3, $4, ($4 > 0 ? $2 / $4 : 0), ($3 > 0 ? $2 / $3 : 0), $5, $6, $7, $8, $9 }'
        } | tee "$out/i$c-np$np.txt"
    done
done
