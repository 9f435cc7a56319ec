#!/bin/bash
# cmp.sh PROG COLUMN SIZES PASSES: one OSU benchmark (PROG, e.g. blocking/osu_reduce; COLUMN
# of its latency) launched for the component of NEW, the one of OLD (build trees), tuned and
# sm, alternating, PASSES times; prints per size the medians (us), then NEW / min(tuned, sm)
# pass by pass and NEW / OLD pass by pass.  OSU_DIR: OSU 7.4's c/mpi/collective.
# NP (default 2) and BIND (default core) as mpirun's.
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
base=$(dirname "$(find /usr/lib /usr/local/lib -name mca_coll_tuned.so -print -quit 2> /dev/null)")
prog=$1 col=$2 sizes=$3 passes=$4
np=${NP:-2} bind=${BIND:-core}
d=$(mktemp -d)
labs="new old tuned sm"
for p in $(seq "$passes"); do
    for lab in $labs; do
        case $lab in
        new) opts="--mca mca_base_component_path $NEW/ompi/mca/coll/scc/.libs:$base --mca coll scc,tuned,basic,libnbc,self --mca coll_scc_setup_calls 0 --mca coll_scc_verbose 2" ;;
        old) opts="--mca mca_base_component_path $OLD/ompi/mca/coll/scc/.libs:$base --mca coll scc,tuned,basic,libnbc,self --mca coll_scc_setup_calls 0 --mca coll_scc_verbose 2" ;;
        tuned) opts="--mca coll tuned,basic,libnbc,self" ;;
        sm) opts="--mca coll sm,tuned,basic,libnbc,self --mca coll_sm_priority 100" ;;
        esac
        # shellcheck disable=SC2086
        mpirun -np "$np" --oversubscribe --bind-to "$bind" $opts "$OSU_DIR/$prog" -m "$sizes" \
            -i "${ITERS:-500}" -x 50 < /dev/null > "$d/$lab.$p.log" 2>&1
        grep -a "single copy measured" "$d/$lab.$p.log" | grep -q slow &&
            echo "pass $p $lab: a process measured single copy slow" >&2
        awk -v c="$col" '$1 ~ /^[0-9]+$/ { print $1, $c }' "$d/$lab.$p.log" > "$d/$lab.$p"
    done
done
med() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
at() { awk -v s="$1" '$1 == s { print $2 }' "$2"; }
printf "%8s %8s %8s %8s %8s  %s\n" size new old tuned sm "new/min(tuned,sm) per pass | new/old per pass"
for s in $(awk '{ print $1 }' "$d/new.1"); do
    line=$(printf "%8d" "$s")
    for lab in $labs; do
        line="$line $(printf "%8.2f" "$(for p in $(seq "$passes"); do at "$s" "$d/$lab.$p"; done | med)")"
    done
    r="" o=""
    for p in $(seq "$passes"); do
        r="$r$(echo "$(at "$s" "$d/new.$p") $(at "$s" "$d/tuned.$p") $(at "$s" "$d/sm.$p")" |
            awk '{ b = $2 < $3 ? $2 : $3; printf "%.2f ", $1 / b }')"
        o="$o$(echo "$(at "$s" "$d/new.$p") $(at "$s" "$d/old.$p")" | awk '{ printf "%.2f ", $1 / $2 }')"
    done
    echo "$line  $r| $o"
done
rm -rf "$d"
