#!/bin/sh
# run-all.sh: regenerates every table and plot of the mesh simulator into sim/results/.
#
#   sim/run-all.sh [SCC_SIM]     SCC_SIM: the simulator binary (default build/sim/scc_sim,
#                                built by `make` in build/); needs gnuplot (gnuplot-nox)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sim=${1:-$here/../build/sim/scc_sim}
out=$here/results
conf=$here/params/scc.conf

if [ ! -x "$sim" ]; then
    echo "run-all.sh: no simulator at $sim (run make in build/ first)" >&2
    exit 1
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "run-all.sh: gnuplot is missing (Debian: apt-get install gnuplot-nox)" >&2
    exit 1
fi
mkdir -p "$out"
start=$(date +%s)

echo "run-all.sh: calibration and seeds/000 tables (pichler.md)"
"$sim" -p "$conf" -o "$out" pichler fit

# The committed preset must be what the fit finds: compare the fitted costs.
"$sim" -p "$conf" params > "$out/.preset"
awk 'FNR == NR { v[$1] = $3; next }
     $1 ~ /^(o_put|o_get|put_ns_b|get_ns_b|mem_ns_b|cache_bytes)$/ {
         d = ($3 - v[$1]) / v[$1]; if (d < 0) d = -d
         if (d > 0.02) { printf "run-all.sh: %s: fit %s, sim/params/scc.conf %s\n", $1, $3, v[$1]; bad = 1 }
     }
     END { exit bad }' "$out/.preset" "$out/scc-fitted.conf" ||
    echo "run-all.sh: WARNING: sim/params/scc.conf differs from the fit (results/scc-fitted.conf)" >&2
rm -f "$out/.preset"

echo "run-all.sh: seeds/003 ratios (patil.md)"
"$sim" -p "$conf" -o "$out" patil
echo "run-all.sh: root placement (roots.md)"
"$sim" -p "$conf" -o "$out" roots
echo "run-all.sh: scale (scale.md, thresholds.md)"
"$sim" -p "$conf" -o "$out" scale 32
# the named variants, each with its own DOPL fit (written by pichler above)
echo "run-all.sh: scale, links held for whole transfers (scale_transfer.md, thresholds_transfer.md)"
"$sim" -p "$out/scc-fitted-transfer.conf" -o "$out" scale 32 _transfer
echo "run-all.sh: scale at 48 ranks, core 533 / mesh 800 MHz (scale_mesh800.md, thresholds_mesh800.md)"
"$sim" -p "$out/scc-fitted-mesh800.conf" -o "$out" scale 6 _mesh800

# nodes on a network: the component's hierarchical schedules (3 min of one core here)
echo "run-all.sh: cluster (cluster.md, thresholds_cluster.md)"
"$sim" -p "$here/params/cluster.conf" -o "$out" cluster "$here/params/cluster-emulated.conf"

# cache-coherent machines (seeds/004): Table B.2 reproduced, scc against tuned at 8-256 cores
echo "run-all.sh: cache-coherent (cc.md, cc_detail.md, cc_*.dat)"
"$sim" -o "$out" cc "$here/params/sandybridge.conf" "$here/params/xeonphi.conf"
# the tree shapes of the component's many-core defaults (coll_scc_select_many.c) from its maps
echo "run-all.sh: many-core tree shapes (cc_fanouts.md)"
"$here/fanouts.sh" "$sim" > "$out/cc_fanouts.md"

for g in "$here"/plot/*.gp; do
    gnuplot -e "dir='$out'" "$g"
done
echo "run-all.sh: done in $(( $(date +%s) - start )) s; results in $out"
