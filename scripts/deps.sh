#!/bin/sh
# deps.sh: the component's object-level dependency graph -- which object defines each symbol
# another uses (nm) -- and its cycles (strongly connected components), biggest first.
#   scripts/deps.sh [-e] [OBJDIR]
# OBJDIR: the component's objects (default build/ompi/mca/coll/scc/.libs).  Prints one line
# per cycle ("cycle N objects: a b c"), then the edges inside the biggest one with the
# symbols that make each ("a -> b: sym sym").  -e prints every edge of the graph instead.
set -eu
all_edges=0
if [ "${1:-}" = "-e" ]; then
    all_edges=1
    shift
fi
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/ompi/mca/coll/scc/.libs}
ls "$dir"/*.o > /dev/null 2>&1 || { echo "deps: no objects in $dir (build first)" >&2; exit 1; }

# "D obj sym" for every global definition, "U obj sym" for every undefined reference
for o in "$dir"/*.o; do
    b=$(basename "$o" .o)
    b=${b#mca_coll_scc_la-}
    nm --defined-only -g "$o" | awk -v o="$b" 'NF == 3 { print "D", o, $3 }'
    nm -u "$o" | awk -v o="$b" '{ print "U", o, $NF }'
done | awk -v all_edges="$all_edges" '
$1 == "D" { def[$3] = $2; if (!($2 in id)) { id[$2] = ++n; name[n] = $2 } next }
{ use[++nu] = $2 SUBSEP $3; if (!($2 in id)) { id[$2] = ++n; name[n] = $2 } }
END {
    for (k = 1; k <= nu; ++k) {
        split(use[k], p, SUBSEP)
        if (!(p[2] in def) || def[p[2]] == p[1]) continue
        a = id[p[1]]; b = id[def[p[2]]]
        if (!((a, b) in edge)) { edge[a, b] = 1; syms[a, b] = p[2] } else syms[a, b] = syms[a, b] " " p[2]
        ne++
    }
    if (all_edges) {
        for (a = 1; a <= n; ++a) for (b = 1; b <= n; ++b)
            if ((a, b) in edge) print name[a] " -> " name[b] ": " syms[a, b]
        exit
    }
    # reachability (Floyd-Warshall on booleans): a and b share a cycle when each reaches the other
    for (a = 1; a <= n; ++a) for (b = 1; b <= n; ++b) r[a, b] = ((a, b) in edge)
    for (k = 1; k <= n; ++k) for (a = 1; a <= n; ++a) if (r[a, k]) for (b = 1; b <= n; ++b)
        if (r[k, b]) r[a, b] = 1
    nc = 0; best = 0
    for (a = 1; a <= n; ++a) {
        if (a in comp || !r[a, a]) continue
        nc++; size[nc] = 0; members[nc] = ""
        for (b = 1; b <= n; ++b) if (b == a || (r[a, b] && r[b, a])) {
            comp[b] = nc; size[nc]++; members[nc] = members[nc] " " name[b]
        }
        if (size[nc] > size[best] || best == 0) best = nc
    }
    printf "%d objects, %d cycles\n", n, nc
    for (c = 1; c <= nc; ++c) printf "cycle %d objects:%s\n", size[c], members[c]
    if (best == 0) exit
    printf "edges inside the biggest cycle (%d objects):\n", size[best]
    for (a = 1; a <= n; ++a) for (b = 1; b <= n; ++b)
        if ((a, b) in edge && comp[a] == best && comp[b] == best)
            print "  " name[a] " -> " name[b] ": " syms[a, b]
}'
