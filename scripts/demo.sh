#!/bin/sh
# demo.sh: the main job.  Sets up and builds (scripts/setup.sh), then runs an
# ordinary MPI program on 4 processes twice -- once with coll/scc, once with
# Open MPI's tuned component -- showing what scc chose and both timings.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh"
b="$top/build"
np=${NP:-4}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI 5 hands the component path to PMIx too, whose loader would list our files as "bad prefix"
export PMIX_MCA_mca_base_component_show_load_errors=0
pkglib=$(sed -n 's/^OMPI_PKGLIBDIR = //p' "$b/Makefile")
path="$b/ompi/mca/coll/scc/.libs:$pkglib"

echo "== coll/scc, $np processes (coll_scc_verbose=1 shows what it chose) =="
mpirun --oversubscribe -np "$np" --mca mca_base_component_path "$path" \
    --mca coll scc,tuned,basic,libnbc,self --mca coll_scc_verbose 1 \
    "$b/test/bench/scc_demo" | tee "$b/demo-scc.out"
echo
echo "== Open MPI tuned, $np processes =="
mpirun --oversubscribe -np "$np" --mca coll tuned,basic,libnbc,self \
    "$b/test/bench/scc_demo" | tee "$b/demo-tuned.out"
echo
echo "== side by side (median microseconds) =="
printf "%-10s %10s %12s %12s %8s\n" collective bytes scc tuned ratio
paste "$b/demo-scc.out" "$b/demo-tuned.out" | awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9.]+$/ {
    printf "%-10s %10s %12.2f %12.2f %8.2f\n", $1, $2, $3, $6, ($6 > 0 ? $3 / $6 : 0) }'
