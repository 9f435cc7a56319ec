#!/bin/sh
# machines.sh: the placement coll/scc makes on real machines' topologies (test/topologies)
# that this machine cannot show -- two packages, NUMA per quadrant, L3 groups, SMT.  Open MPI
# takes the topology from an XML file (hwloc_base_topo_file), mpirun maps and binds the
# processes onto it (the binding itself fails here: those cores do not exist, so
# :if-supported), and the component reads each binding from the launcher's record
# (coll_scc_binding auto).  Asserts the domains grid, the row leaders and the table lines
# that verbose 1 prints, for processes bound to cores, hardware threads, whole packages and
# not bound.  test_topologies runs the same placement code at up to 256 processes.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_topo"
synth_xml="$SCC_BUILDDIR/test/mpi/scc_synth_xml"
topodir="$SCC_SRCDIR/test/topologies"
SCC_TIMEOUT=${SCC_TIMEOUT:-180}

# Open MPI 5's launcher (PRRTE) reads its own parameters and maps otherwise: these runs
# were written against 4.1's, the only series on the development machine.
if "$SCC_MPIRUN" --version 2>&1 | grep -q "Open MPI) 5\."; then
    tap_ok "machines: imposed topologies # SKIP not verified with Open MPI 5's launcher"
    tap_done
fi

# leaders_re NAME KIND LEADERS: the row leaders line of communicator NAME
leaders_re() {
    echo "coll:scc: comm [0-9]+ \\($1\\)   $2 rows, leaders $3\$"
}

# shapes_re NAME FANOUTS RADIX: the trees' fan-outs and the dissemination radix of NAME
shapes_re() {
    echo "coll:scc: comm [0-9]+ \\($1\\)   trees $2; dissemination radix $3\$"
}

# machine LOG TOPOLOGY NP [mpirun options...]: scc_topo on NP processes with Open MPI's
# topology imposed from test/topologies/TOPOLOGY.synth (made into XML here)
machine() {
    _log=$1
    _topo=$2
    _xml="$SCC_LOGDIR/machines-$_topo.xml"
    _np=$3
    shift 3
    if [ ! -s "$_xml" ]; then
        "$synth_xml" "$topodir/$_topo.synth" "$_xml" || return 1
    fi
    scc_run "$_log" "$_np" --mca hwloc_base_topo_file "$_xml" "$@" -- "$prog"
}

reduced=${SCC_TEST_REDUCED:-0}

# ---------------------------------------------------------------- EPYC 7763 NPS4, by core
# 16 processes on cores 0-15: package 0, NUMA node 0, the first two 8-core L3 groups
log="$SCC_LOGDIR/machines-epyc-core.log"
machine "$log" epyc-7763-2p-nps4 16 --map-by core --bind-to core:if-supported
run_ok "$log" $? 16
check "$log" "epyc by core: world is 2 L3 groups of 8 cores" \
    "$(topo_re MPI_COMM_WORLD 'domains 2x8 \(2 cache domains\), grid 2x8; locations by modex')"
check "$log" "epyc by core: row leaders are world ranks 0 and 8" \
    "$(leaders_re MPI_COMM_WORLD cache '0 8')"
check "$log" "epyc by core: reversed leaders are the lowest cores (ranks 15 and 7)" \
    "$(leaders_re reversed cache '15 7')"
check "$log" "epyc by core: even ranks make 2 rows of 4" \
    "$(topo_re even 'domains 2x4 \(2 cache domains\), grid 2x4;')"
# 16 processes on one node: the many-core defaults (README, Many cores)
check "$log" "epyc by core: bcast row, trees at every size" "$(alg_re MPI_COMM_WORLD bcast tree)"
check "$log" "epyc by core: barrier row, dissemination" "$(alg_re MPI_COMM_WORLD barrier dissem)"
check "$log" "epyc by core: reduce row" "$(alg_re MPI_COMM_WORLD reduce tree)"
check "$log" "epyc by core: allreduce row, the butterfly to 8 KiB" \
    "$(alg_re MPI_COMM_WORLD allreduce '<=8192 butterfly \| >8192 flat')"
check "$log" "epyc by core: trees 4,3, radix 1" "$(shapes_re MPI_COMM_WORLD 4,3 1)"
# 8 processes: the defaults measured at 2-8 processes, as before
check "$log" "epyc by core: 8 even ranks keep the small-count bcast row" \
    "$(alg_re even bcast '<=56 flat \| 57..8191 tree \| >8191 dopl')"
check "$log" "epyc by core: 8 even ranks keep the flag tree barrier" "$(alg_re even barrier tree)"
check "$log" "epyc by core: 8 even ranks: one level of 7, all at once" "$(shapes_re even 7 7)"

# ---------------------------------------------------------------- EPYC 7763 NPS4, 2 per NUMA node
# 16 processes over both packages' 8 NUMA nodes, rows forced to NUMA nodes
if [ "$reduced" != 1 ]; then
    log="$SCC_LOGDIR/machines-epyc-numa.log"
    machine "$log" epyc-7763-2p-nps4 16 --map-by ppr:2:numa --bind-to core:if-supported \
        --mca coll_scc_domains numa
    run_ok "$log" $? 16
    check "$log" "epyc 2 per NUMA: world is 8 NUMA nodes of 2" \
        "$(topo_re MPI_COMM_WORLD 'domains 8x2 \(8 numa domains\), grid 8x2;')"
    check "$log" "epyc 2 per NUMA: leaders every second rank" \
        "$(leaders_re MPI_COMM_WORLD numa '0 2 4 6 8 10 12 14')"
    check "$log" "epyc 2 per NUMA: bcast row (no DOPL from 16 processes)" \
        "$(alg_re MPI_COMM_WORLD bcast tree)"
fi

# ---------------------------------------------------------------- EPYC 7763: bound to a package
# each process spans a package's 64 cores (4 NUMA nodes, 8 L3 groups)
log="$SCC_LOGDIR/machines-epyc-package.log"
SCC_VERBOSE_LEVEL=3 machine "$log" epyc-7763-2p-nps4 4 --map-by socket --bind-to socket:if-supported
run_ok "$log" $? 4
check "$log" "epyc per package: world is 2 packages of 2" \
    "$(topo_re MPI_COMM_WORLD 'domains 2x2 \(2 package domains\), grid 2x2;')"
check "$log" "epyc per package: leaders 0 and 1 (round robin over the packages)" \
    "$(leaders_re MPI_COMM_WORLD package '0 1')"
check "$log" "epyc per package: a process is bound to more than one core" \
    "world rank 1: bound to more than one core \(launcher's record\); core -1 pu -1 package 1 numa -1 cache -1"

if [ "$reduced" != 1 ]; then
    log="$SCC_LOGDIR/machines-epyc-span.log"
    machine "$log" epyc-7763-2p-nps4 4 --map-by socket --bind-to socket:if-supported \
        --mca coll_scc_domains numa
    run_ok "$log" $? 4
    check "$log" "epyc per package, rows by NUMA: processes span NUMA nodes, world is flat" \
        "$(topo_re MPI_COMM_WORLD 'flat \(some processes span several numa domains\), grid 2x2;')"
    check "$log" "epyc per package, rows by NUMA: flat table" "$(alg_re MPI_COMM_WORLD barrier tree)"
fi

# ---------------------------------------------------------------- EPYC 7763: not bound
# this machine's own CPUs are not the imposed topology's: the launcher's "not bound" counts
log="$SCC_LOGDIR/machines-epyc-unbound.log"
SCC_VERBOSE_LEVEL=3 machine "$log" epyc-7763-2p-nps4 8 --bind-to none
run_ok "$log" $? 8
check "$log" "epyc unbound: world is flat, the note says why" \
    "$(topo_re MPI_COMM_WORLD 'flat \(8 of 8 processes not bound to a core: hwloc domains unused\), grid 2x4;')"
check "$log" "epyc unbound: a process is not bound (launcher's record)" \
    "world rank 0: not bound \(launcher's record\); core -1"
check "$log" "epyc unbound: flat bcast row" "$(alg_re MPI_COMM_WORLD bcast '<=56 flat \| >56 tree')"

# ---------------------------------------------------------------- Xeon 8280 SNC2, SMT siblings
# 4 hardware threads per NUMA node: two processes on each of 2 cores, 4 NUMA nodes
# with parameters set on the command line: they win over the many-core defaults, even at
# their default values (line_max 56, barrier_radix 0)
log="$SCC_LOGDIR/machines-xeon-smt.log"
SCC_VERBOSE_LEVEL=3 machine "$log" xeon-8280-2p-snc2 16 --map-by ppr:4:numa \
    --bind-to hwthread:if-supported --mca coll_scc_line_max 56 --mca coll_scc_dopl_min 8192 \
    --mca coll_scc_barrier_radix 0 --mca coll_scc_tree_fanout 4,4
run_ok "$log" $? 16
check "$log" "xeon SMT, set: bcast row as set" \
    "$(alg_re MPI_COMM_WORLD bcast '<=56 flat \| 57..8191 tree \| >8191 dopl')"
check "$log" "xeon SMT, set: reduce row as set" \
    "$(alg_re MPI_COMM_WORLD reduce '<=56 flat \| >56 tree')"
check "$log" "xeon SMT, not set: allreduce row by the model" \
    "$(alg_re MPI_COMM_WORLD allreduce '<=8192 butterfly \| >8192 flat')"
check "$log" "xeon SMT, set: trees 4,4, radix 0 (all 15 others at once)" \
    "$(shapes_re MPI_COMM_WORLD 4,4 15)"
check "$log" "xeon SMT: world is 4 NUMA nodes of 4 processes (squarer than 2 packages of 8)" \
    "$(topo_re MPI_COMM_WORLD 'domains 4x4 \(4 numa domains\), grid 4x4;')"
check "$log" "xeon SMT: leaders 0 4 8 12" "$(leaders_re MPI_COMM_WORLD numa '0 4 8 12')"
has "$log" "world rank 0: bound to core 0 \(launcher's record\); core 0 pu 0 package 0 numa 0" &&
    has "$log" "world rank 1: bound to core 0 \(launcher's record\); core 0 pu 1 package 0 numa 0"
tap_check $? "xeon SMT: ranks 0 and 1 are the two threads of core 0" "$log"

# ---------------------------------------------------------------- Xeon Phi 7250, tiles
if [ "$reduced" != 1 ]; then
    log="$SCC_LOGDIR/machines-knl.log"
    machine "$log" xeon-phi-7250 16 --map-by core --bind-to core:if-supported \
        --mca coll_scc_many_min 0
    run_ok "$log" $? 16
    check "$log" "knl, many_min 0: the small-count table at 16" \
        "$(alg_re MPI_COMM_WORLD bcast '<=56 flat \| 57..8191 tree \| >8191 dopl')"
    check "$log" "knl, many_min 0: seeds/004's trees, the flag tree barrier" \
        "$(shapes_re MPI_COMM_WORLD 4,3 15)"
    check "$log" "knl by core: 8 tiles of 2 cores" \
        "$(topo_re MPI_COMM_WORLD 'domains 8x2 \(8 cache domains\), grid 8x2;')"
    check "$log" "knl by core: a leader per tile" \
        "$(leaders_re MPI_COMM_WORLD cache '0 2 4 6 8 10 12 14')"
fi

# ---------------------------------------------------------------- Graviton3: one domain
if [ "$reduced" != 1 ]; then
    log="$SCC_LOGDIR/machines-graviton.log"
    machine "$log" graviton3-64 8 --map-by core --bind-to core:if-supported
    run_ok "$log" $? 8
    check "$log" "graviton by core: one domain at every level, world is flat" \
        "$(topo_re MPI_COMM_WORLD 'flat \(no mesh described, not an SCC, one hwloc domain\), grid 2x4;')"
fi

# ---------------------------------------------------------------- Xeon E5-2670, two packages
log="$SCC_LOGDIR/machines-e5.log"
machine "$log" xeon-e5-2670-2p 16 --map-by core --bind-to core:if-supported
run_ok "$log" $? 16
check "$log" "e5 by core: world is 2 packages of 8 cores" \
    "$(topo_re MPI_COMM_WORLD 'domains 2x8 \(2 package domains\), grid 2x8;')"
check "$log" "e5 by core: leaders 0 and 8" "$(leaders_re MPI_COMM_WORLD package '0 8')"
check "$log" "e5 by core: odd ranks make 2 rows of 4" \
    "$(topo_re odd 'domains 2x4 \(2 package domains\), grid 2x4;')"
check "$log" "e5 by core: two packages, no DOPL" "$(alg_re MPI_COMM_WORLD bcast tree)"
check "$log" "e5 by core: two packages, 2-way dissemination" "$(shapes_re MPI_COMM_WORLD 4,3 1)"

# ---------------------------------------------------------------- this machine: the record is the binding
# where the cores exist, the launcher's record names the cores the operating system binds to
if [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ]; then
    log="$SCC_LOGDIR/machines-own.log"
    SCC_VERBOSE_LEVEL=3 scc_run "$log" 2 --map-by core --bind-to core --mca coll_scc_binding launcher \
        -- "$prog"
    run_ok "$log" $? 2
    has "$log" "world rank 0: bound to core 0 \(launcher's record\); core 0 " &&
        has "$log" "world rank 1: bound to core 1 \(launcher's record\); core 1 "
    tap_check $? "this machine, coll_scc_binding launcher: ranks 0 and 1 on cores 0 and 1" "$log"
else
    tap_ok "this machine, coll_scc_binding launcher # SKIP needs 2 cores"
fi

tap_done
