#!/bin/sh
# fanouts.sh: one tree shape per core count for the component's many-core defaults
# (coll_scc_select_many.c): the candidates are every best shape the cc maps found at that
# count (cc_*_bcast.dat, any size, either preset, one or two packages) and today's; each is
# replayed at 8 B to 1 MiB on Sandy Bridge (one and two packages) and Xeon Phi, and the
# shape whose worst time over the best candidate's is least wins (ties: the earlier listed).
#   sim/fanouts.sh [SCC_SIM] > sim/results/cc_fanouts.md   (SCC_SIM: the simulator binary,
#   default build/sim/scc_sim; run by sim/run-all.sh after `scc_sim cc`, about 2 min)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sim=${1:-$top/build/sim/scc_sim}
res=$top/sim/results
confs="sandybridge:1 sandybridge:2 xeonphi:1"
sizes="8 64 512 4096 32768 262144 1048576"

# ccrun's time in ns
t_ns() {
    "$sim" ccrun "$top/sim/params/$1.conf" bcast:tree "$2" "$3" packages="$4" fanout="$5" |
        sed -n 's/.*package(s): \([0-9.]*\) \([a-z]*\) .*/\1 \2/p' |
        awk '{ f = $2 == "ns" ? 1 : $2 == "us" ? 1e3 : $2 == "ms" ? 1e6 : 1e9; print $1 * f }'
}

today() {
    case $1 in
    16) echo 4,3 ;; 32) echo 4,4,3 ;; *) echo 4,4,3 ;;
    esac
}

echo "# Tree fan-outs for many cores (sim/fanouts.sh)"
echo
echo "Per core count: the candidate shapes (every best shape of cc_*_bcast.dat at that count, and"
echo "today's), each shape's worst time over the best candidate's across 8 B-1 MiB on Sandy Bridge"
echo "one and two packages and Xeon Phi, and the chosen one (least worst ratio)."
echo
echo "| cores | chosen | worst ratio | where | candidates (worst ratio) |"
echo "|---|---|---|---|---|"
for n in 16 32 48 64 96 128 192 256; do
    cands=$( (today "$n"; awk -v n="$n" '$1 !~ /#/ && $2 == n && $NF != "-" { print $NF }' \
        "$res"/cc_sandybridge_bcast.dat "$res"/cc_xeonphi_bcast.dat) | awk '!seen[$0]++')
    tmp=$(mktemp)
    for f in $cands; do
        for c in $confs; do
            for s in $sizes; do
                echo "$f ${c%:*}:${c#*:}:$s $(t_ns "${c%:*}" "$n" "$s" "${c#*:}" "$f")"
            done
        done
    done > "$tmp"
    awk -v n="$n" '
        { t[$1, $2] = $3; if (!($2 in best) || $3 < best[$2]) best[$2] = $3
          if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } keys[$2] = 1 }
        END {
            bw = 1e30
            for (i = 1; i <= k; ++i) {
                f = order[i]; w = 0; where = ""
                for (c in keys) { r = t[f, c] / best[c]; if (r > w) { w = r; where = c } }
                worst[f] = w; wh[f] = where
                if (w < bw - 1e-9) { bw = w; bf = f }
            }
            list = ""
            for (i = 1; i <= k; ++i)
                list = list sprintf("%s%s %.2f", i > 1 ? "; " : "", order[i], worst[order[i]])
            printf "| %d | %s | %.2f | %s | %s |\n", n, bf, bw, wh[bf], list
        }' "$tmp"
    rm -f "$tmp"
done
