#!/bin/sh
# topo.sh: the topology coll/scc sees (user meshes, SCC core ids, hwloc binding)
# and the algorithms it picks, read from its verbose output; bad mesh
# descriptions must give their message and a flat communicator.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_topo"
SCC_TIMEOUT=${SCC_TIMEOUT:-120}

ncores=$(nproc 2>/dev/null || echo 1)

# ---------------------------------------------------------------- 8 ranks on 6x4x2, keyed by rank
log="$SCC_LOGDIR/topo-mesh8.log"
SCC_VERBOSE_LEVEL=3 scc_run "$log" 8 --mca coll_scc_mesh 6x4x2 -- "$prog"
run_ok "$log" $? 8
check "$log" "mesh8: world is a 6x4x2 mesh keyed by rank, 4 tiles, grid 2x4, modex" \
    "$(topo_re MPI_COMM_WORLD 'mesh 6x4x2 \(coll_scc_mesh, key rank\), 4 of 24 tiles, grid 2x4; locations by modex')"
check "$log" "mesh8: world bcast is NoC_Msg then DOPL" \
    "$(alg_re MPI_COMM_WORLD bcast '<=8191 nocmsg \| >8191 dopl')"
check "$log" "mesh8: world barrier is NoC_Msg" "$(alg_re MPI_COMM_WORLD barrier nocmsg)"
check "$log" "mesh8: world allreduce is NoC_Msg" "$(alg_re MPI_COMM_WORLD allreduce nocmsg)"
check "$log" "mesh8: world gather stays flat" "$(alg_re MPI_COMM_WORLD gather flat)"
check "$log" "mesh8: the even ranks are one row of 4 tiles" \
    "$(topo_re even 'mesh 6x4x2 \(coll_scc_mesh, key rank\), 4 of 24 tiles, grid 1x4')"
check "$log" "mesh8: odd rank 0 (world 1) sits on core 1 = (0,0,1)" \
    "coll:scc: comm [0-9]+ \(odd\) rank 0 at \(0,0,1\) tile 0 "
check "$log" "mesh8: reversed rank 0 (world 7) sits at (3,0,1)" \
    "coll:scc: comm [0-9]+ \(reversed\) rank 0 at \(3,0,1\) tile 3 grid \(1,3\)"
check "$log" "mesh8: reversed rank 7 (world 0) sits at (0,0,0)" \
    "coll:scc: comm [0-9]+ \(reversed\) rank 7 at \(0,0,0\) tile 0 grid \(0,0\)"

# ---------------------------------------------------------------- 12 ranks placed by a map file
map="$SCC_LOGDIR/topo-map12.txt"
{
    echo "# 12 ranks on the top right 3x2 tiles: rank r on tile (3 + (r/2)%3, 2 + (r/2)/3), core r%2"
    r=0
    while [ $r -lt 12 ]; do
        t=$((r / 2))
        echo "$r:$((3 + t % 3)),$((2 + t / 3)),$((r % 2))"
        r=$((r + 1))
    done
} > "$map"
log="$SCC_LOGDIR/topo-map12.log"
SCC_VERBOSE_LEVEL=3 scc_run "$log" 12 --mca coll_scc_mesh 6x4x2 --mca coll_scc_mesh_map_file "$map" \
    --mca coll_scc_mesh_key rank --mca coll_scc_bcast_algorithm jia -- "$prog"
run_ok "$log" $? 12
check "$log" "map12: world is 6 tiles of the 6x4x2 mesh, grid 4x3" \
    "$(topo_re MPI_COMM_WORLD 'mesh 6x4x2 \(coll_scc_mesh, key rank\), 6 of 24 tiles, grid 4x3;')"
check "$log" "map12: world rank 0 at (3,2,0)" "coll:scc: comm 0 \(MPI_COMM_WORLD\) rank 0 at \(3,2,0\) tile 15 "
check "$log" "map12: world rank 11 at (5,3,1)" "coll:scc: comm 0 \(MPI_COMM_WORLD\) rank 11 at \(5,3,1\) tile 23 "
check "$log" "map12: forced bcast algorithm shows as forced" "$(alg_re MPI_COMM_WORLD bcast 'jia \(forced\)')"
check "$log" "map12: barrier still NoC_Msg" "$(alg_re MPI_COMM_WORLD barrier nocmsg)"

# ---------------------------------------------------------------- bad descriptions: message, then flat
bad() {
    name=$1
    want=$2
    flat=$3
    shift 3
    log="$SCC_LOGDIR/topo-bad-$name.log"
    scc_run "$log" 2 --mca coll_scc_mesh_key rank "$@" -- "$prog"
    run_ok "$log" $? 2
    check "$log" "bad $name: the message names the problem" "$want"
    check "$log" "bad $name: world falls back to flat" "$(topo_re MPI_COMM_WORLD "flat \\($flat")"
    check "$log" "bad $name: flat algorithms on world" "$(alg_re MPI_COMM_WORLD barrier tree)"
}
bad dims "coll_scc_mesh = 6x4x\$" "bad mesh description in coll_scc_mesh\\)" \
    --mca coll_scc_mesh 6x4x
bad range "outside the 2x2x1 mesh" "bad mesh description in coll_scc_mesh_map\\)" \
    --mca coll_scc_mesh 2x2 --mca coll_scc_mesh_map "0:0,0;1:2,0"
bad duplicate "keys 0 \\(entry 1\\) and 1 \\(entry 2\\) are both at position \\(0,0,0\\)" \
    "bad mesh description in coll_scc_mesh_map\\)" \
    --mca coll_scc_mesh 2x2 --mca coll_scc_mesh_map "0:0,0;1:0,0"
bad too-few "rank 1 has key 1, which the map \\(1 entries\\) does not place" \
    "cannot place on the 2x2x1 mesh: too few positions\\)" \
    --mca coll_scc_mesh 2x2 --mca coll_scc_mesh_map "0:1,1"
bad too-small "2 processes do not fit the 1 positions" \
    "cannot place on the 1x1x1 mesh: too few positions\\)" \
    --mca coll_scc_mesh 1x1
bad file "coll_scc_mesh_map_file = /nonexistent/map" "bad mesh description in coll_scc_mesh_map_file\\)" \
    --mca coll_scc_mesh 2x2 --mca coll_scc_mesh_map_file /nonexistent/map

# ---------------------------------------------------------------- unbound processes
log="$SCC_LOGDIR/topo-unbound.log"
scc_run "$log" 2 --bind-to none -- "$prog"
run_ok "$log" $? 2
# Unbound processes leave hwloc's levels unusable where a level splits the machine (two
# packages or NUMA nodes, or no cache shared by every core); on a machine of one package, one
# NUMA node and a cache all cores share, no level would split them even bound.
all=$(cat /sys/devices/system/cpu/online 2>/dev/null)
one=$(cat /sys/devices/system/cpu/cpu*/topology/physical_package_id 2>/dev/null | sort -u | wc -l)
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if [ "$ncores" -ge 2 ] && [ "$one" -le 1 ] && [ "$nodes" -le 1 ] && [ -n "$all" ] &&
    cat /sys/devices/system/cpu/cpu0/cache/index*/shared_cpu_list 2>/dev/null | grep -qx "$all"; then
    check "$log" "unbound: one package, NUMA node and shared cache ($all): the note says one domain" \
        "$(topo_re MPI_COMM_WORLD 'flat \(no mesh described, not an SCC, one hwloc domain\), grid 1x2')"
else
    check "$log" "unbound: the note says the processes are not bound, world is flat" \
        "$(topo_re MPI_COMM_WORLD 'flat \(2 of 2 processes not bound to a core: hwloc domains unused\), grid 1x2')"
fi
check "$log" "unbound: two processes broadcast directly at every size" "$(alg_re MPI_COMM_WORLD bcast 'flat')"

log="$SCC_LOGDIR/topo-unbound-core.log"
scc_run "$log" 2 --bind-to none --mca coll_scc_mesh 2x1 --mca coll_scc_mesh_key core -- "$prog"
run_ok "$log" $? 2
check "$log" "unbound, keyed by core: the message says so" \
    "2 of the 2 processes of communicator 0 \(MPI_COMM_WORLD\) are not bound to a single"
check "$log" "unbound, keyed by core: world is flat" \
    "$(topo_re MPI_COMM_WORLD 'flat \(2 of 2 processes not bound to a core, coll_scc_mesh_key core\)')"

# ---------------------------------------------------------------- bound processes, keyed by core
if [ "$ncores" -ge 2 ]; then
    log="$SCC_LOGDIR/topo-bound.log"
    SCC_VERBOSE_LEVEL=3 scc_run "$log" 2 --bind-to core --mca coll_scc_mesh 2x1 \
        --mca coll_scc_mesh_map "0:1,0;1:0,0" -- "$prog"
    run_ok "$log" $? 2
    check "$log" "bound: auto keys the map by core" \
        "$(topo_re MPI_COMM_WORLD 'mesh 2x1x1 \(coll_scc_mesh, key core\), 2 of 2 tiles, grid 1x2; locations by modex')"
    # the binding decides: whichever rank is on core 0 sits at (1,0,0)
    has "$log" "comm 0 \(MPI_COMM_WORLD\) rank [01] at \(1,0,0\) tile 1 grid \(0,1\); bound to core 0;" &&
        has "$log" "comm 0 \(MPI_COMM_WORLD\) rank [01] at \(0,0,0\) tile 0 grid \(0,0\); bound to core 1;"
    tap_check $? "bound: core 0 maps to (1,0,0), core 1 to (0,0,0)" "$log"
else
    tap_ok "bound: keyed by core # SKIP needs 2 cores"
fi

# ---------------------------------------------------------------- hwloc domains, forced
log="$SCC_LOGDIR/topo-domains.log"
scc_run "$log" 4 --bind-to none --mca coll_scc_domains package -- "$prog"
run_ok "$log" $? 4
check "$log" "domains: a forced package level gives a 1x4 domain grid" \
    "$(topo_re MPI_COMM_WORLD 'domains 1x4 \(1 package domains\), grid 1x4')"
check "$log" "domains: large broadcasts run DOPL on the domain grid" \
    "$(alg_re MPI_COMM_WORLD bcast '<=56 flat \| 57..8191 tree \| >8191 dopl')"

# ---------------------------------------------------------------- an SCC chip, emulated by core ids
log="$SCC_LOGDIR/topo-scc.log"
scc_run "$log" 4 --mca coll_scc_scc_coreid rank --mca coll_scc_topo_exchange allgather -- "$prog"
run_ok "$log" $? 4
check "$log" "scc: 4 cores of the chip, 2 tiles, grid 2x2, exchanged by allgather" \
    "$(topo_re MPI_COMM_WORLD 'mesh 6x4x2 \(SCC chip\), 2 of 24 tiles, grid 2x2; locations by allgather')"
check "$log" "scc: odd ranks are the second cores of 2 tiles" \
    "$(topo_re odd 'mesh 6x4x2 \(SCC chip\), 2 of 24 tiles, grid 1x2')"

log="$SCC_LOGDIR/topo-scc-bad.log"
scc_run "$log" 2 --mca coll_scc_scc_coreid 99 -- "$prog"
run_ok "$log" $? 2
check "$log" "scc bad core id: the message names the setting" "coll_scc_scc_coreid=\"99\" is not probe"
check "$log" "scc bad core id: world is flat" \
    "$(topo_re MPI_COMM_WORLD 'flat \(2 of 2 processes with a bad SCC core id setting\)')"

log="$SCC_LOGDIR/topo-scc-dup.log"
scc_run "$log" 2 --mca coll_scc_scc_coreid 5 -- "$prog"
run_ok "$log" $? 2
check "$log" "scc duplicate core: the message says so" "ranks 0 and 1 are both at position \(2,0,1\)"
check "$log" "scc duplicate core: world is flat" \
    "$(topo_re MPI_COMM_WORLD 'flat \(SCC core ids: duplicate\)')"

tap_done
