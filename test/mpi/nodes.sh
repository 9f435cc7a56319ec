#!/bin/sh
# nodes.sh: communicators across nodes, on nodes emulated on this machine.  Open MPI's
# launcher starts each node's daemon through scc_node_agent.sh in a UTS namespace of its own
# (with Open MPI 4.1 also a private /dev/shm), on hosts named nodea, nodeb, ...: Open MPI then
# takes each for a node, and its locality flags (which the component goes by) say so, while
# the processes still share one kernel.  For each placement -- 2 nodes x 2 processes, 3 x 2,
# 2 x 3, 4 x 1 and 3 + 1 -- scc must be selected on MPI_COMM_WORLD with the nodes as tiles,
# every algorithm it offers across nodes must serve its calls with right results (the
# matrix over roots, sizes, types and operations), and its counters must show that messages
# within a node went through shared memory and every message between nodes through the pml.
# Then the per-node communicators, one with a rank per node, the pml transport alone, a grid
# given by coll_scc_nodes, every collective of scc_colls across nodes (the reductions, the scans
# and alltoallw also with ranks round robin and over the pml alone), and a call one
# member fails (scc_hang -f).  Without
# namespaces (not root, no unshare) every case fails with the reason.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

agent="$SCC_SRCDIR/test/mpi/scc_node_agent.sh"
matrix="$SCC_BUILDDIR/test/mpi/scc_matrix"
colls="$SCC_BUILDDIR/test/mpi/scc_colls"
: "${SCC_TIMEOUT:=600}"
node_algs="fallback,tree,jia,dopl,nocmsg,ring,butterfly,dissem,bruck,leaders"
node_colls="bcast,barrier,reduce,allreduce,allgather,reduce_scatter_block,gather,scatter"

# Open MPI 5's launcher (PRRTE) names its options otherwise, keeps its out-of-band channel
# off the loopback device (the host's own address: nothing leaves the machine) and maps by
# core when oversubscribed; its daemons need one /dev/shm.
if "$SCC_MPIRUN" --version 2>&1 | grep -q "Open MPI) 5\."; then
    launch="--prtemca plm_ssh_agent $agent --prtemca plm_ssh_no_tree_spawn 1"
    oversub=":OVERSUBSCRIBE"
    SCC_NODE_SHM=shared
else
    launch="--mca plm_rsh_agent $agent --mca plm_rsh_no_tree_spawn 1 --mca oob_tcp_if_include lo --oversubscribe"
    oversub=""
    SCC_NODE_SHM=private
fi
export SCC_NODE_SHM

# nodes_run LOG HOSTS NP [mpirun options...] -- PROGRAM [ARGS...]: as scc_run, on the
# emulated nodes HOSTS (host:slots,...), ranks mapped by $SCC_NODE_MAP (slot: filling each
# node in turn; node: round robin), the processes yielding while they wait (more of them
# than cores, as a user would set it)
nodes_run() {
    _log=$1
    _hosts=$2
    _np=$3
    shift 3
    SCC_LAUNCH="$launch --map-by ${SCC_NODE_MAP:-slot}$oversub --host $_hosts"
    scc_run "$_log" "$_np" --mca btl_tcp_if_include lo --mca mpi_yield_when_idle 1 "$@"
    _rc=$?
    unset SCC_LAUNCH
    return $_rc
}

# traffic_ok LOG NP LOCAL PML_LOCAL: the "received:" counters of every process of every
# communicator of NP processes: nothing from another node came through shared memory, some
# came through the pml; with LOCAL, messages from the process's own node came through
# shared memory, and none through the pml unless PML_LOCAL
traffic_ok() {
    grep -a "coll:scc: comm [0-9]* (.*) rank [0-9]* size $2 received:" "$1" |
        sed 's/.*received: on-node \([0-9]*\) by shm \([0-9]*\) by pml, off-node \([0-9]*\) by pml \([0-9]*\) by shm/\1 \2 \3 \4/' |
        awk -v local="$3" -v pmllocal="$4" '
            { n++; shm += $1; lpml += $2; rpml += $3; rshm += $4 }
            END {
                printf "# %d reports: on-node %d by shm %d by pml, off-node %d by pml %d by shm\n",
                       n, shm, lpml, rpml, rshm
                exit !(n > 0 && rshm == 0 && rpml > 0 && (!local || shm > 0) &&
                       (pmllocal || lpml == 0))
            }'
}

# nodes_matrix LOG HOSTS NP REPORTS PATTERN TRAFFIC [mpirun options...] -- [scc_matrix
# options]: scc_matrix on the emulated nodes; then the log shows PATTERN (an extended regular
# expression, "" for none), every forced algorithm served its calls on each of the REPORTS
# processes, every result is right, and unless TRAFFIC is "-", traffic_ok NP TRAFFIC holds
nodes_matrix() {
    log=$1 _log=$1 _hosts=$2 _np=$3 _reports=$4 _pattern=$5 _traffic=$6
    shift 6
    _o=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        _o="$_o $1"
        shift
    done
    [ "${1:-}" = "--" ] && shift
    # shellcheck disable=SC2086
    nodes_run "$_log" "$_hosts" "$_np" $_o -- "$matrix" "$@"
    _rc=$?
    { [ -z "$_pattern" ] || grep -aEq "$_pattern" "$_log"; } &&
        scc_check_expect "$_log" "$_reports" > "$_log.expect"
    _st=$?
    cat "$_log.expect" 2> /dev/null
    # shellcheck disable=SC2086
    [ $_st -eq 0 ] && [ $_rc -eq 0 ] && scc_no_failures "$_log" &&
        { [ "$_traffic" = "-" ] || traffic_ok "$_log" "$_np" $_traffic; }
}

# scans_served LOG NP: on MPI_COMM_WORLD of NP processes no reduce, allreduce,
# reduce_scatter(_block), scan, exscan or alltoallw went to the fallback; the reductions with
# the non-commutative matrix product (which the schedules decline) by the leaders in rank order
scans_served() {
    grep -a "coll:scc: comm [0-9]* (MPI_COMM_WORLD) rank [0-9]* size $2 calls:" "$1" |
        awk '/ (reduce|allreduce|reduce_scatter_block|reduce_scatter|scan|exscan|alltoallw):fallback=/ { bad++ }
             !/ reduce:leaders=[1-9].* allreduce:leaders=[1-9].* reduce_scatter_block:leaders=[1-9].* reduce_scatter:leaders=[1-9]/ { bad++ }
             END { exit (NR > 0 && !bad) ? 0 : 1 }'
}

# The emulation itself: processes on the hosts asked for, each host its own node
log="$SCC_LOGDIR/nodes-emulation.log"
nodes_run "$log" nodea:2,nodeb:2 4 -- /bin/sh -c 'echo "emulated-host $(hostname)"'
hosts=$(grep -a "^emulated-host " "$log" | awk '{ print $2 }' | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
[ "$hosts" = "nodea:2 nodeb:2 " ]
emulated=$?
tap_check $emulated "emulated nodes: 4 processes on nodea and nodeb, 2 each (got: ${hosts:-nothing}; root and unshare needed)" "$log"

# placement NAME HOSTS NP NODES GRID PER QUICK: the world matrix on that placement
placement() {
    name=$1; hosts=$2; np=$3; nn=$4; grid=$5; per=$6; quick=$7
    log="$SCC_LOGDIR/nodes-$name.log"
    local=1
    [ "$per" = "$(echo "$per" | sed 's/[0-9]*/1/g')" ] && local=0
    # shellcheck disable=SC2086
    nodes_matrix "$log" "$hosts" "$np" "$np" \
        "\(MPI_COMM_WORLD\) size $np: topology nodes: $nn on a $grid grid, processes per node $per," \
        "$local 0" -- $quick -a "$node_algs" -c "$node_colls"
    st=$?
    scc_selected "$log" "$np" MPI_COMM_WORLD
    tap_check $? "$name: scc selected on MPI_COMM_WORLD of $nn nodes" "$log"
    tap_check $st "$name: $nn nodes on a $grid grid, $per per node; every algorithm across nodes ($node_algs) served its calls, results right ($(grep -ao '[0-9]* checks' "$log" | head -n 1)), within a node through shared memory only, between nodes through the pml only" "$log"
}

# 2 x 2 takes the megabytes across nodes; the other matrices stop at 70000 bytes, past every
# slot and piece boundary (the algorithms are forced: the table's larger thresholds do not
# choose)
placement 2x2 nodea:2,nodeb:2 4 2 2x1 2,2 "$(scc_matrix "" -q)"
small="-q -m 70000"
# the reduced run (.ci/run's second series) leaves out the placements that repeat a kind:
# three nodes of two (2 x 3 and 4 x 1 have more per node and more nodes), the round robin
# matrix (its alltoall below stays)
[ "${SCC_TEST_REDUCED:-0}" = 1 ] ||
    placement 3x2 nodea:2,nodeb:2,nodec:2 6 3 3x1 2,2,2 "$small"
placement 2x3 nodea:3,nodeb:3 6 2 2x1 3,3 "$small"
placement 4x1 nodea:1,nodeb:1,nodec:1,noded:1 4 4 2x2 1,1,1,1 "$small"
placement 3+1 nodea:3,nodeb:1 4 2 2x1 3,1 "$small"

# Alltoall and alltoallv across nodes: the pairwise exchange, and for alltoall the leaders'
# aggregation (NoC_Msg's pair lists need one shared memory)
nodes_matrix "$SCC_LOGDIR/nodes-alltoall.log" nodea:3,nodeb:1,nodec:2 6 6 "" "1 0" -- \
    -q -a fallback,ring,leaders -c alltoall,alltoallv
tap_check $? "alltoall and alltoallv across nodes (3 + 1 + 2): the pairwise exchange and the leaders' aggregation served them, results right, the ways right" "$log"

# Ranks dealt round robin over the nodes: no node holds consecutive ranks
SCC_NODE_MAP=node
if [ "${SCC_TEST_REDUCED:-0}" != 1 ]; then
    nodes_matrix "$SCC_LOGDIR/nodes-roundrobin.log" nodea:3,nodeb:3 5 5 \
        "\(MPI_COMM_WORLD\) size 5: topology nodes: 2 on a 2x1 grid, processes per node 3,2, leaders 0,1" \
        "1 0" -- $small -a "$node_algs" -c "$node_colls"
    tap_check $? "ranks round robin over 2 nodes (3 + 2): every algorithm served, results right, the ways right" "$log"
fi
nodes_matrix "$SCC_LOGDIR/nodes-roundrobin-alltoall.log" nodea:3,nodeb:3 5 5 "" "1 0" -- \
    -q -a fallback,ring,leaders -c alltoall,alltoallv
tap_check $? "ranks round robin over 2 nodes (3 + 2): alltoall and alltoallv, the pairwise exchange and the leaders' aggregation served them, results right, the ways right" "$log"
SCC_NODE_MAP=slot

# Per-node communicators (one node each: the algorithms of one node, as ever) and a
# communicator of the nodes' lowest ranks (one process per node)
nodes_matrix "$SCC_LOGDIR/nodes-per-node.log" nodea:2,nodeb:2 4 4 \
    "\(matrix bcast flat\) size 2: topology flat" - -- $small -o node
tap_check $? "per-node communicators (2 x 2): one node's topology, every algorithm served, results right" "$log"
nodes_matrix "$SCC_LOGDIR/nodes-leaders.log" nodea:2,nodeb:1,nodec:2 5 3 \
    "\(matrix bcast tree\) size 3: topology nodes: 3 on a 3x1 grid, processes per node 1,1,1," \
    "0 0" -- $small -o leaders -a "$node_algs" -c "$node_colls"
tap_check $? "one process per node (3 nodes): nodes as tiles, every algorithm served, results right, all by the pml" "$log"

# The pml alone across nodes (coll_scc_transport pml): the same schedules, no shared memory
nodes_matrix "$SCC_LOGDIR/nodes-pml.log" nodea:2,nodeb:2 4 4 \
    "\(MPI_COMM_WORLD\) size 4: topology nodes: 2 on a 2x1 grid.*; transport pml" "0 1" \
    --mca coll_scc_transport pml -- $small -a "$node_algs" -c "$node_colls"
tap_check $? "coll_scc_transport pml across nodes: hierarchical schedules over the pml, results right" "$log"

# A grid given by coll_scc_nodes (4 nodes in a line: DOPL runs along it), and one too small
nodes_matrix "$SCC_LOGDIR/nodes-grid.log" nodea:1,nodeb:1,nodec:1,noded:1 4 4 \
    "\(MPI_COMM_WORLD\) size 4: topology nodes: 4 on a 4x1 grid" - --mca coll_scc_nodes 4x1 -- \
    -q -a tree,dopl,jia -c bcast
tap_check $? "coll_scc_nodes 4x1: 4 nodes in a line, bcast right with every algorithm" "$log"
log="$SCC_LOGDIR/nodes-grid-small.log"
nodes_run "$log" nodea:1,nodeb:1,nodec:1 3 --mca coll_scc_nodes 2x1 -- "$colls"
rc=$?
grep -aq "coll_scc_nodes of the scc collective component is \"2x1\"" "$log" &&
    grep -aq "(MPI_COMM_WORLD) size 3: topology nodes: 3 on a 3x1 grid" "$log" && [ $rc -eq 0 ] &&
    scc_no_failures "$log"
tap_check $? "coll_scc_nodes 2x1 for 3 nodes: a message, the near-square grid, results right" "$log"

# Every collective of scc_colls (world, duplicates, splits) across nodes, served by scc
log="$SCC_LOGDIR/nodes-colls.log"
nodes_run "$log" nodea:3,nodeb:1 4 -- "$colls"
rc=$?
ran_ok "$log" $rc 4 &&
    scc_served "$log" 4 MPI_COMM_WORLD "bcast:tree=.*allreduce:tree=.*alltoall:ring=.*alltoallv:ring=.*gather:tree=.*scatter:tree=.*allgather:bruck=.* reduce_scatter:ring=.* scan:leaders=.* exscan:leaders=.* alltoallw:ring=" &&
    scans_served "$log" 4
tap_check $? "every collective across nodes (3 + 1), non-commutative reductions by the leaders in rank order: right, served by scc" "$log"

# The same with ranks dealt round robin over 2 nodes (3 + 2): every run of consecutive ranks on
# a node is one rank long, so the scans' prefix crosses nodes at every rank; and over the pml
# alone (the scans' runs read over it too)
log="$SCC_LOGDIR/nodes-colls-roundrobin.log"
SCC_NODE_MAP=node nodes_run "$log" nodea:3,nodeb:3 5 -- "$colls"
rc=$?
ran_ok "$log" $rc 5 &&
    scc_served "$log" 5 MPI_COMM_WORLD " reduce_scatter:ring=.* scan:leaders=.* exscan:leaders=.* alltoallw:ring=" &&
    scans_served "$log" 5
tap_check $? "reduce_scatter, scan, exscan, alltoallw, the non-commutative reductions across nodes, ranks round robin (3 + 2): right, served by scc" "$log"
log="$SCC_LOGDIR/nodes-colls-pml.log"
nodes_run "$log" nodea:2,nodeb:2 4 --mca coll_scc_transport pml -- "$colls"
rc=$?
ran_ok "$log" $rc 4 &&
    scc_served "$log" 4 MPI_COMM_WORLD " scan:leaders=[0-9]+ exscan:leaders=" &&
    scans_served "$log" 4
tap_check $? "scan, exscan and the non-commutative reductions across nodes over the pml alone (2 x 2): right, served by scc" "$log"
# The v-variants across nodes (scc_colls v, as in colls.sh: every root, zero, uneven and
# larger-than-a-slot counts, reversed and gapped displacements, a vector type, in place): the
# leaders aggregate the parts, each by its own size (gatherv, scatterv: binomial trees between
# them, after the root's broadcast of where the parts lie; allgatherv: Bruck), the pairwise
# exchange the calls where one part dwarfs the others -- each must serve some -- within a node
# through shared memory, between nodes through the pml; 3 + 1, 2 + 2 with ranks round robin,
# and 2 + 1 + 2 (a leader between the root's node and another in the binomial tree)
for v in "3p1 nodea:3,nodeb:1 slot 4" "2x2rr nodea:2,nodeb:2 node 4" "2p1p2 nodea:2,nodeb:1,nodec:2 slot 5"; do
    set -- $v
    log="$SCC_LOGDIR/nodes-v-$1.log"
    SCC_NODE_MAP=$3 nodes_run "$log" "$2" "$4" -- "$colls" v 30000
    rc=$?
    ran_ok "$log" $rc "$4" &&
        scc_served "$log" "$4" MPI_COMM_WORLD " gatherv:tree=[1-9].* gatherv:ring=[1-9].* scatterv:tree=[1-9].* scatterv:ring=[1-9].* allgatherv:ring=[1-9][0-9]* allgatherv:bruck=[1-9]" &&
        ! grep -aqE "calls:.* (all)?(gather|scatter)v:fallback" "$log" &&
        traffic_ok "$log" "$4" "1 0"
    tap_check $? "gatherv, scatterv, allgatherv across nodes ($2, by $3): the leaders (each part by its own size) and the pairwise exchange served every call, results right, the ways right" "$log"
done
SCC_NODE_MAP=slot

# Nonblocking and persistent forms across nodes (nbc.sh's programs): each collective's tasks
# run the schedules across nodes, their pml waits stopping the task instead of blocking --
# every collective nonblocking on 3 + 1, persistent with ranks round robin on 2 + 2, and the
# application patterns of scc_nbc (many outstanding, starts before a chain of sends, ...)
log="$SCC_LOGDIR/nodes-colls-i.log"
nodes_run "$log" nodea:3,nodeb:1 4 -- "$colls" i
rc=$?
ran_ok "$log" $rc 4 &&
    scc_served "$log" 4 MPI_COMM_WORLD "ibcast:tree=.*iallreduce:tree=.*ialltoall:ring=.*igather:tree=.*iscatter:tree=.*iallgather:bruck=.* ireduce_scatter:ring=.* iscan:leaders=.* iexscan:leaders=.* ialltoallw:ring=" &&
    no_fallback "$log" 4 " i(scan|exscan|alltoallw|bcast|allreduce):fallback="
tap_check $? "every collective nonblocking across nodes (3 + 1): right, served by scc's algorithms across nodes" "$log"
log="$SCC_LOGDIR/nodes-colls-init-rr.log"
SCC_NODE_MAP=node nodes_run "$log" nodea:2,nodeb:2 4 -- "$colls" init
rc=$?
SCC_NODE_MAP=slot
ran_ok "$log" $rc 4 &&
    scc_served "$log" 4 MPI_COMM_WORLD " allreduce_init:[a-z]+=.* scan_init:leaders=.* exscan_init:leaders=" &&
    no_fallback "$log" 4 " (scan|exscan|alltoallw|bcast|allreduce)_init:fallback="
tap_check $? "every collective persistent across nodes (2 + 2, round robin): right, served by scc" "$log"
log="$SCC_LOGDIR/nodes-nbc.log"
nodes_run "$log" nodea:2,nodeb:2 4 -- "$SCC_BUILDDIR/test/mpi/scc_nbc"
rc=$?
ran_ok "$log" $rc 4 &&
    scc_served "$log" 4 MPI_COMM_WORLD " ibarrier:[a-z]+=[0-9]+ iallreduce:.* allreduce_init:[a-z]+=2000" &&
    traffic_ok "$log" 4 "1 0"
tap_check $? "scc_nbc across nodes (2 x 2): many outstanding, starts before a chain of sends, persistent: right, served by scc, the ways right" "$log"
# two threads at once (MPI_THREAD_MULTIPLE), each with a communicator of its own across the
# nodes: outstanding calls, blocking calls between a start and its wait, persistent allreduces
# on communicators of their own (coll_scc_persistent_ordered 0) -- over the pml to the other
# node too.  One thread's communicator id agreement is often run by the other thread's
# progress inside a task (ob1's probe progresses Open MPI): its allreduce is queued under the
# lock that thread holds (before, it waited for that lock: Open MPI 5.0 hung 2 runs in 40)
log="$SCC_LOGDIR/nodes-threads.log"
SCC_PERSISTENT_ORDERED=0 nodes_run "$log" nodea:2,nodeb:2 4 -- "$SCC_BUILDDIR/test/mpi/scc_nbc" -t
rc=$?
ran_ok "$log" $rc 4 &&
    [ "$(grep -a "rank [0-9]* size 4 calls: .*ibcast:[a-z]*=[0-9]* .*ireduce_scatter_block:[a-z]*=60\( \|$\)" "$log" | grep -vc ":fallback=")" -eq 8 ] &&
    [ "$(grep -acE "persistent\) rank [0-9] size 4 calls: allreduce_init:[a-z]+=10$" "$log")" -eq 160 ] &&
    traffic_ok "$log" 4 "1 0"
tap_check $? "two threads across nodes (2 x 2): their nonblocking, blocking and persistent calls on communicators of their own, right, served by scc, the ways right" "$log"
# one thread: an MPI_Comm_idup's next step started by the pml's probe inside a task (a
# broadcast's receiver on the other node waiting for its late root): queued, not run inside
# the task -- before, it waited for the task lock its own thread held and the job hung at
# the first.  The receivers on nodeb must count such starts (here 19 in 20 rounds)
log="$SCC_LOGDIR/nodes-nested.log"
nodes_run "$log" nodea:2,nodeb:2 4 -- "$SCC_BUILDDIR/test/mpi/scc_nested" 20 20000
rc=$?
nested=$(grep -a "^\[nodeb:[0-9]*\] coll:scc: process [0-9]*: [0-9]* collectives started by a progress call inside a task" "$log" |
    awk '{ s += $5 } END { print s + 0 }')
echo "# started inside a task on nodeb: $nested"
ran_ok "$log" $rc 4 &&
    scc_served "$log" 4 "scc_nested bcast" " ibcast:[a-z]+=20$" &&
    scc_served "$log" 4 "scc_nested idup" " iallreduce:[a-z]+=[0-9]+$" &&
    [ "$nested" -ge 1 ]
tap_check $? "one thread across nodes (2 x 2): an idup's step started by progress inside a task is queued ($nested times), right, served by scc" "$log"
# persistent collectives started in reverse order on odd ranks (MPI-4.0 allows it), each on
# a communicator of its own (coll_scc_persistent_ordered 0, the default) across nodes
log="$SCC_LOGDIR/nodes-order.log"
SCC_PERSISTENT_ORDERED=0 nodes_run "$log" nodea:2,nodeb:2 4 -- "$SCC_BUILDDIR/test/mpi/scc_nbc" -o
rc=$?
ran_ok "$log" $rc 4 &&
    scc_served "$log" 4 "scc_order persistent" " bcast_init:[a-z]+=20$" &&
    scc_served "$log" 4 "scc_order persistent" " barrier_init:[a-z]+=20$" &&
    scc_served "$log" 4 "scc_order persistent" " allreduce_init:[a-z]+=20$" &&
    ! grep -aq "(scc_order persistent) .*_init:fallback=" "$log" &&
    ! grep -aq "(scc_order) rank [0-9]* size 4 calls:.*_init:" "$log"
tap_check $? "persistent bcast, barrier, allreduce started out of order across nodes (2 x 2): each served by scc on a communicator of its own, right" "$log"

# A member that fails one call (scc_hang -f, as in hang.sh): across nodes too every member
# ends it, through shared memory and the pml, and the next calls are right
log="$SCC_LOGDIR/nodes-fault.log"
nodes_run "$log" nodea:2,nodeb:2 4 --mca coll_scc_fail_setup \
    "2:scratch@2,3:scratch@6,3:scratch@10,0:scratch@14,2:scratch@18,1:scratch@22,0:scratch@26,1:scratch@30" \
    -- "$SCC_BUILDDIR/test/mpi/scc_hang" -f
rc=$?
[ $rc -eq 0 ] && scc_no_failures "$log" && [ "$(grep -ac '^hang-probe: ' "$log")" -eq 8 ]
tap_check $? "a member that fails a call across nodes (2 x 2): every member ends it, the next calls right" "$log"

# Erroneous broadcasts across nodes (scc_hang, as in hang.sh): receivers passing more or fewer
# bytes than the root learn the root's shape from its first message to them over the pml too,
# so every call ends everywhere with the root's data or MPI_ERR_TRUNCATE and the next are right
log="$SCC_LOGDIR/nodes-mismatch.log"
nodes_run "$log" nodea:2,nodeb:2 4 -- "$SCC_BUILDDIR/test/mpi/scc_hang" \
    -a auto,tree,jia,dopl,nocmsg -s "40,1000,65537$(scc_matrix ,400000,1048576 "")"
rc=$?
st=0
ran_ok "$log" $rc 4 || st=1
for a in auto tree jia dopl nocmsg; do
    want=$a
    [ "$a" = auto ] && want="tree|jia|dopl|nocmsg"
    grep -aq "^hang-comm: (hang bcast $a) done" "$log" &&
        scc_bcast_served "$log" 4 "hang bcast $a" "$want" ||
        { echo "# hang bcast $a: not served by scc on every process"; st=1; }
done
[ $st -eq 0 ] && traffic_ok "$log" 4 "1 0"
tap_check $? "erroneous broadcasts across nodes (2 x 2), every algorithm: end everywhere with the root's data or MPI_ERR_TRUNCATE, the next calls right, served by scc" "$log"

# Communicators made by the hundred across nodes (scc_lazy, lazy.sh): set up at the 6th call
# with coll_scc_setup_calls 5 on every member of both nodes, never when used 3 times; live
# ones gathering 64 KB blocks with a budget of 1 MB of slot pages per process, and
# broadcasting 64 KB of a strided type (each process's heap bounded: scc_lazy)
log="$SCC_LOGDIR/nodes-lazy.log"
out="$SCC_LOGDIR/nodes-lazy.out"
rm -rf "$out" && mkdir -p "$out"
SCC_SETUP_CALLS=5 nodes_run "$log" nodea:2,nodeb:2 4 --mca coll_scc_shm_resident 1048576 -- \
    "$SCC_BUILDDIR/test/mpi/scc_lazy" 5 50 32 "$out" 65536 1536
rc=$?
cat "$out"/out.* >> "$log" 2> /dev/null
rm -rf "$out"
[ $rc -eq 0 ] && scc_no_failures "$log" &&
    grep -aq "(MPI_COMM_WORLD) size 4: topology nodes: 2 on a 2x1 grid" "$log" &&
    [ "$(grep -ac "comm [0-9]* (lazy-steady) rank [0-9] size 4: set up at call 6 " "$log")" -eq 4 ] &&
    [ "$(grep -ac "(lazy-churn) rank [0-9] size 4 calls: allreduce:fallback=3 (not set up" "$log")" -eq 400 ] &&
    [ "$(grep -ac "(lazy-live) rank [0-9] size 4 calls: bcast:[a-z]*=2 allreduce:fallback=5 allreduce:[a-z]*=3 allgather:[a-z]*=2" "$log")" -eq 200 ] &&
    [ "$(grep -ac "scc_lazy: heap: rank [0-9]:" "$log")" -eq 4 ]
tap_check $? "many communicators across nodes (2 x 2): set up at call 6 everywhere, churned ones never, live ones served; $(grep -a "scc_lazy: live:" "$log" | sed 's/^scc_lazy: live: //'); $(grep -a "scc_lazy: heap: rank 0:" "$log" | sed 's/.*bytes, add \([0-9]* kB of heap\).*/rank 0: \1/')" "$log"

ls -d /dev/shm/coll-scc-[0-9]* > /dev/null 2>&1
[ $? -ne 0 ]
tap_check $? "nothing of ours left in /dev/shm"
tap_done
