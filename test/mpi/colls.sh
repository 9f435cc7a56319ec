#!/bin/sh
# colls.sh: every MPI collective through coll/scc at several process counts;
# the component must be selected and every result must be right.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_colls"

# ompi_info finds the component in the build tree and lists its parameters, each described
log="$SCC_LOGDIR/ompi_info.log"
# shellcheck disable=SC2086 # SCC_PRELOAD, SCC_MPIRUN_EXTRA: words on purpose (scc_lib.sh)
env ${SCC_PRELOAD:+LD_PRELOAD=$SCC_PRELOAD} OMPI_MCA_mca_base_component_path="$SCC_COMPONENT_PATH" \
    "${SCC_OMPI_BINDIR:-/usr/bin}/ompi_info" --param coll scc --level 9 --parsable > "$log" 2>&1
ninfo=0
for p in priority verbose bcast_algorithm barrier_algorithm reduce_algorithm \
         allreduce_algorithm alltoall_algorithm alltoallv_algorithm gather_algorithm \
         scatter_algorithm allgather_algorithm reduce_scatter_block_algorithm cma_min; do
    grep -q "^mca:coll:scc:param:coll_scc_$p:help:..*" "$log" && ninfo=$((ninfo + 1))
done
grep -q "^mca:coll:scc:version:\"mca:" "$log" && [ $ninfo -eq 13 ]
tap_check $? "ompi_info lists coll/scc and describes its parameters ($ninfo of 13 checked)" "$log"

# The component exports its component structure only (-fvisibility=hidden, configure.ac):
# nothing else of it can clash with a symbol of Open MPI or another component.  (Names the
# toolchain reserves, with a leading underscore, are not the component's.)
log="$SCC_LOGDIR/colls-exports.log"
nm -D --defined-only "$SCC_BUILDDIR/ompi/mca/coll/scc/.libs/mca_coll_scc.so" > "$log" 2>&1
others=$(awk 'NF >= 3 && $NF !~ /^_/ && $NF != "mca_coll_scc_component" { print $NF }' "$log")
grep -q " mca_coll_scc_component$" "$log" && [ -z "$others" ]
tap_check $? "mca_coll_scc.so exports mca_coll_scc_component only (others: $(echo $others | wc -w))" "$log"

# Parameters are checked once, when the component opens: values outside their rules are
# changed, told once per job (MPI_COMM_WORLD's rank 0; not per communicator), the same on
# every process.  Before: dopl_chunks 0 divided by zero (SIGFPE), a fan-out above 64 read past
# the tree's 64 children, 6 slots were outside what the schedules' replay proves.
log="$SCC_LOGDIR/colls-params.log"
scc_run "$log" 4 --mca coll_scc_cma 0 --mca coll_scc_bcast_algorithm dopl \
    --mca coll_scc_dopl_chunks 0 --mca coll_scc_tree_fanout 100,2 --mca coll_scc_shm_nslots 6 \
    --mca coll_scc_shm_slot_size 1000 --mca coll_scc_pipe_size -5 -- "$prog"
rc=$?
bad=0
for p in "dopl_chunks = 0:dopl_chunks = 1" "tree_fanout = 100,2:tree_fanout = 64,2" \
         "shm_nslots = 6:shm_nslots = 4" "shm_slot_size = 1000:shm_slot_size = 960" \
         "pipe_size = -5:pipe_size = 0"; do
    [ "$(grep -ac "^  coll_scc_${p%%:*}\$" "$log")" -eq 1 ] \
        && [ "$(grep -ac "uses coll_scc_${p#*:} instead" "$log")" -eq 1 ] || bad=$((bad + 1))
done
[ $bad -eq 0 ] && [ "$(grep -ac "MPI_COMM_WORLD) size 4: transport shm, 4 slots of 960 bytes" "$log")" -eq 4 ]
tap_check $? "parameters out of their rules: each told once, the same values used everywhere" "$log"
[ $rc -eq 0 ] && scc_no_failures "$log" && scc_served "$log" 4 MPI_COMM_WORLD "bcast:dopl=" \
    && scc_served "$log" 4 MPI_COMM_WORLD "barrier:tree="
tap_check $? "parameters out of their rules: DOPL and the 64-child tree barrier serve, all right" "$log"

# Byte thresholds are size_t, and Open MPI reads -1 as 2^64 - 1: line_max and tree_max -1 made
# every bcast, reduce and allreduce direct without a word.  Now a threshold above 2^62 gives way
# to its default, told once per job like the others; so do a strict-emulation hook outside 0..2
# (-1 broke a rule of the chip and aborted the job) and a nodes grid of too many tiles (sscanf
# read 4294967298x1 as 2x1).  Under the strict emulation, so the hook would fire.
log="$SCC_LOGDIR/colls-params-wrap.log"
scc_run "$log" 4 --mca coll_scc_mpb_emulate strict --mca coll_scc_line_max -1 \
    --mca coll_scc_tree_max -1 --mca coll_scc_mpb_strict_test -1 \
    --mca coll_scc_nodes 4294967298x1 -- "$prog"
rc=$?
bad=0
for p in "line_max = 18446744073709551615:line_max = 56" \
         "tree_max = 18446744073709551615:tree_max = 8192" \
         "mpb_strict_test = -1:mpb_strict_test = 0" "nodes = 4294967298x1:nodes = auto"; do
    [ "$(grep -ac "^  coll_scc_${p%%:*}\$" "$log")" -eq 1 ] \
        && [ "$(grep -ac "uses coll_scc_${p#*:} instead" "$log")" -eq 1 ] || bad=$((bad + 1))
done
[ $bad -eq 0 ] && [ "$(grep -ac "negative value (-1) read as a byte count" "$log")" -eq 2 ] \
    && [ "$(grep -acE "\(MPI_COMM_WORLD\) +bcast +<=56 flat \| >56 tree\$" "$log")" -eq 1 ] \
    && [ "$(grep -acE "\(MPI_COMM_WORLD\) +allreduce +<=8192 flat \| 8193\.\." "$log")" -eq 1 ]
tap_check $? "thresholds -1, strict hook -1, grid 4294967298x1: each told once, defaults in use" "$log"
[ $rc -eq 0 ] && scc_no_failures "$log" && scc_selected "$log" 4 MPI_COMM_WORLD \
    && scc_served "$log" 4 MPI_COMM_WORLD "bcast:tree=.* bcast:flat=|bcast:flat=.* bcast:tree=" \
    && [ "$(grep -ac "MPI_COMM_WORLD) size 4: transport mpb (emulated SCC, strict)" "$log")" -eq 4 ]
tap_check $? "thresholds -1, strict hook -1: scc selected, flat and trees serve, right, no abort" "$log"

# The configuration records compare the values in use (checked before the record is made):
# -1 on two of four processes is their default, as on the others, and scc is still selected
# (a real difference, such as 100, declines the communicator everywhere).
log="$SCC_LOGDIR/colls-params-record.log"
scc_run "$log" 4 -- "$SCC_SRCDIR/test/mpi/scc_env_odd.sh" OMPI_MCA_coll_scc_line_max -1 "$prog"
rc=$?
[ $rc -eq 0 ] && scc_no_failures "$log" && scc_selected "$log" 4 MPI_COMM_WORLD
tap_check $? "line_max -1 on two processes of four: the same record, scc selected, all right" "$log"

# nocmsg_fanin lets processes leave a barrier early: forcing it says so, loudly and once.
log="$SCC_LOGDIR/colls-fanin.log"
scc_run "$log" 3 --mca coll_scc_barrier_algorithm nocmsg_fanin -- "$prog"
rc=$?
[ "$(grep -ac "is NOT an MPI barrier" "$log")" -eq 1 ] && [ $rc -eq 0 ] && scc_no_failures "$log" \
    && scc_served "$log" 3 MPI_COMM_WORLD "barrier:nocmsg_fanin="
tap_check $? "barrier nocmsg_fanin forced: one warning that it is no MPI barrier" "$log"

# Over point-to-point messages the flag tree cannot run: the NoC_Msg barrier's schedule does,
# and the count says nocmsg (it said tree, the label of the table, before).
log="$SCC_LOGDIR/colls-pml.log"
scc_run "$log" 3 --mca coll_scc_transport pml -- "$prog"
rc=$?
[ $rc -eq 0 ] && scc_no_failures "$log" && scc_served "$log" 3 MPI_COMM_WORLD "barrier:nocmsg=" \
    && ! grep -aq "calls:.* barrier:tree=" "$log"
tap_check $? "pml: the barriers that ran are counted as nocmsg, none as tree; all right" "$log"

# The same four forced to the ring on one node (reduce_scatter: reduce_scatter_block's ring
# schedule with uneven parts; alltoallw: the pairwise exchange; scans: the chain at every
# size), through small slots: served by it, but reduce_scatter's calls with the
# non-commutative operation (10 at most), which the ring declines
log="$SCC_LOGDIR/colls-ring.log"
scc_run "$log" 3 --mca coll_scc_reduce_scatter_algorithm ring --mca coll_scc_scan_algorithm ring \
    --mca coll_scc_exscan_algorithm ring --mca coll_scc_alltoallw_algorithm ring \
    --mca coll_scc_shm_slot_size 4096 --mca coll_scc_cma 0 -- "$prog"
rc=$?
[ $rc -eq 0 ] && scc_no_failures "$log" \
    && scc_served "$log" 3 MPI_COMM_WORLD " reduce_scatter:ring=.* scan:ring=[0-9]+ exscan:ring=[0-9]+ alltoallw:ring=[0-9]+( i[a-z_]+:[a-z_]+=[0-9]+)*$" \
    && grep -a "(MPI_COMM_WORLD) rank [0-9]* size 3 calls:" "$log" \
        | awk '{ if (match($0, / reduce_scatter:fallback=[0-9]+/) &&
                     substr($0, RSTART + 25, RLENGTH - 25) + 0 > 10) bad++ }
               END { exit (NR == 3 && !bad) ? 0 : 1 }'
tap_check $? "reduce_scatter, scan, exscan, alltoallw forced to the ring on one node: served by it, all right" "$log"

# On a described mesh through the strict emulation of the SCC's buffers (4 slots of 1760 bytes:
# every large message in many pieces, the chip's rules enforced): alltoallw by NoC_Msg's
# stages, the scans and reduce_scatter direct (and the scans' chain) through the small slots
log="$SCC_LOGDIR/colls-mesh-strict.log"
scc_run "$log" 4 --mca coll_scc_mesh 2x2 --mca coll_scc_mesh_key rank \
    --mca coll_scc_mpb_emulate strict -- "$prog"
rc=$?
[ $rc -eq 0 ] && scc_no_failures "$log" \
    && scc_served "$log" 4 MPI_COMM_WORLD " reduce_scatter:flat=[0-9]+ scan:flat=[0-9]+ scan:ring=[0-9]+ exscan:flat=[0-9]+ exscan:ring=[0-9]+ alltoallw:nocmsg=[0-9]+( i[a-z_]+:[a-z_]+=[0-9]+)*$"
tap_check $? "reduce_scatter, scan, exscan, alltoallw on a 2x2 mesh, strict SCC emulation: served by scc, all right" "$log"

# --mca coll ^scc: the component stays out (verbose asked for, nothing from it), results right
log="$SCC_LOGDIR/colls-off.log"
# shellcheck disable=SC2086
timeout -k 20 "${SCC_TIMEOUT:-600}" "$SCC_MPIRUN" --oversubscribe -np 2 \
    --mca mca_base_component_path "$SCC_COMPONENT_PATH" --mca coll '^scc' \
    --mca coll_scc_verbose 2 $SCC_MPIRUN_EXTRA "$prog" > "$log" 2>&1 &&
    ! grep -aq "coll:scc:" "$log" && scc_no_failures "$log"
tap_check $? "--mca coll ^scc: scc not loaded, all collectives correct on the other modules" "$log"

# The v-variants alone (scc_colls v [MAXCOUNT]): every root; counts all zero, uneven with zeros,
# small beside large in one call,
# and parts larger than a 64 KB slot; displacements in rank order, reversed, reversed with gaps;
# int or a vector receive type with gaps (which must stay untouched); in place -- each buffer
# checked whole against one computed locally, on MPI_COMM_WORLD and a reversed communicator.
# scc must serve every call with the algorithm named: its direct one (flat) through the slots,
# single copy, 64-byte slots (scatterv's table does not fit: every part in pieces) and the
# emulated SCC's buffers; the pairwise exchange forced (ring, what runs across nodes).
vcase() {
    _name=$1 _np=$2 _alg=$3
    shift 3
    log="$SCC_LOGDIR/colls-v-$_name.log"
    scc_run "$log" "$_np" "$@"
    rc=$?
    [ $rc -eq 0 ] && scc_no_failures "$log" \
        && scc_served "$log" "$_np" MPI_COMM_WORLD " gatherv:$_alg=[1-9]" \
        && scc_served "$log" "$_np" MPI_COMM_WORLD " scatterv:$_alg=[1-9]" \
        && scc_served "$log" "$_np" MPI_COMM_WORLD " allgatherv:$_alg=[1-9]" \
        && ! grep -aqE "calls:.* (all)?(gather|scatter)v:fallback" "$log"
    tap_check $? "v-variants $_name, np=$_np: served by $_alg, every buffer right" "$log"
}
vcase direct 4 flat -- "$prog" v
vcase cma 3 flat --mca coll_scc_cma_min 4096 -- "$prog" v
vcase slot64 5 flat --mca coll_scc_shm_slot_size 64 -- "$prog" v 300
vcase mpb 4 flat --mca coll_scc_mpb_emulate 1 -- "$prog" v 3000
vcase pairwise 3 ring --mca coll_scc_gatherv_algorithm ring --mca coll_scc_scatterv_algorithm ring \
    --mca coll_scc_allgatherv_algorithm ring -- "$prog" v

# Processes that outnumber the cores (mpi_yield_when_idle, as mpirun sets it then): blocks per
# peer single copy from 4 KB here (coll_scc_cma_over_min) -- every collective and the v cases
for what in all v; do
    log="$SCC_LOGDIR/colls-over-$what.log"
    scc_run "$log" 4 --mca mpi_yield_when_idle 1 --mca coll_scc_cma_over_min 4096 -- \
        "$prog" $([ "$what" = v ] && echo v)
    run_ok "$log" $? 4
    [ "$(grep -a "(MPI_COMM_WORLD) size 4: transport shm" "$log" \
         | grep -cE "single copy for blocks per peer from 4096 bytes(, gathers from 8192 and alltoallv too)? \(coll_scc_cma_over_min\)")" -eq 4 ] \
        && scc_served "$log" 4 MPI_COMM_WORLD " (gather|gatherv):flat=[1-9]" \
        && scc_served "$log" 4 MPI_COMM_WORLD " (scatter|scatterv):flat=[1-9]" \
        && no_fallback "$log" 4 ":fallback="
    tap_check $? "oversubscribed ($what): blocks per peer single copy from coll_scc_cma_over_min on every process, served by scc" "$log"
done

# Large allgather(v) parts, single copy or the slots (coll_scc_cma_adapt, scc_ways: 200 calls of
# each, every buffer checked).  ways LOG RANK: "SINGLE SLOTS" of RANK's report.
ways() {
    grep -a "coll:scc: comm 0 (MPI_COMM_WORLD) rank $2 size [0-9]*: allgather parts sent" "$1" |
        sed 's/.*single-copy \([0-9]*\) times, through the slots \([0-9]*\) .*/\1 \2/'
}
# Learnt (np 2: each process has a core): rank 0 times the calls, both ranks take the same
# way in every call -- so their counts are equal -- and each way was tried (each size
# class warms and times both ways first, 6 calls each).  coll_scc_cma_min 0: where the probe
# finds single copy fast, its rule would send every part single copy, with nothing to learn.
log="$SCC_LOGDIR/colls-ways-learnt.log"
scc_run "$log" 2 --mca coll_scc_cma_min 0 -- "$SCC_BUILDDIR/test/mpi/scc_ways" 200
rc=$?
w0=$(ways "$log" 0) w1=$(ways "$log" 1)
if [ $rc -eq 0 ] && ! grep -aq "MPI_COMM_WORLD) size 2: transport shm, .* single copy where timed calls find it faster" "$log"; then
    # (no single copy between the processes here, or they share a core: nothing to learn)
    tap_ok "large allgather(v) parts, the way learnt # SKIP single copy not offered: $(grep -aom1 "single copy [^,]*" "$log")"
else
    [ $rc -eq 0 ] && scc_no_failures "$log" && [ -n "$w0" ] && [ "$w0" = "$w1" ] &&
        [ "${w0% *}" -ge 6 ] && [ "${w0#* }" -ge 6 ] &&
        scc_served "$log" 2 MPI_COMM_WORLD " allgather:flat=[1-9]" &&
        scc_served "$log" 2 MPI_COMM_WORLD " allgatherv:flat=[1-9]"
    tap_check $? "large allgather(v) parts, the way learnt: right, both ranks took the same way in every call (rank 0: ${w0:-no report} single-copy/slots, rank 1: ${w1:-no report})" "$log"
fi
# Mixed in one call (cma_adapt 2: odd ranks single copy, even ranks the slots): readers follow
# each part's header
log="$SCC_LOGDIR/colls-ways-mixed.log"
scc_run "$log" 3 --mca coll_scc_cma_adapt 2 -- "$SCC_BUILDDIR/test/mpi/scc_ways" 20
rc=$?
w0=$(ways "$log" 0) w1=$(ways "$log" 1) w2=$(ways "$log" 2)
[ $rc -eq 0 ] && scc_no_failures "$log" && [ "${w0% *}" = 0 ] && [ "${w2% *}" = 0 ] &&
    [ "${w1#* }" = 0 ] && [ "${w0#* }" -gt 0 ] && [ "${w1% *}" -gt 0 ] && [ "${w2#* }" -gt 0 ] &&
    scc_served "$log" 3 MPI_COMM_WORLD " allgatherv:flat=[1-9]"
tap_check $? "large allgather(v) parts, single copy and slots in one call: right (single-copy/slots rank 0: ${w0:-none}, 1: ${w1:-none}, 2: ${w2:-none})" "$log"

for np in $(scc_matrix "1 2 3 4 8" "1 3 4"); do
    log="$SCC_LOGDIR/colls-np$np.log"
    scc_run "$log" "$np" -- "$prog"
    rc=$?
    if [ $np -eq 1 ]; then
        grep -q "comm 0 (MPI_COMM_WORLD) size 1: declined (single process)" "$log"
        tap_check $? "np=1: scc declines a single-process MPI_COMM_WORLD" "$log"
    else
        scc_selected "$log" $np MPI_COMM_WORLD
        tap_check $? "np=$np: scc selected on MPI_COMM_WORLD by every process" "$log"
        scc_served "$log" $np MPI_COMM_WORLD "bcast:" \
            && scc_served "$log" $np MPI_COMM_WORLD "barrier:tree="
        tap_check $? "np=$np: scc's entry points served MPI_COMM_WORLD's collectives (barrier: flag tree)" "$log"
        # reduce_scatter, scan, exscan, alltoallw: every call on MPI_COMM_WORLD (ints, doubles,
        # a non-commutative matrix product, a vector type, in place, zero and uneven counts)
        # served by scc's own algorithms, none by the fallback; from 3 processes the scans'
        # large messages by the chain, the small ones by direct reads
        scans="flat" how="direct"
        [ $np -ge 3 ] && scans="flat=[0-9]* [a-z_:=0-9 ]*ring" how="direct and chain"
        scc_served "$log" $np MPI_COMM_WORLD " reduce_scatter:flat=.* scan:$scans=.* exscan:$scans=.* alltoallw:flat=" \
            && ! grep -a "(MPI_COMM_WORLD) rank [0-9]* size $np calls:" "$log" \
                | grep -qE " (reduce_scatter|scan|exscan|alltoallw):fallback="
        tap_check $? "np=$np: reduce_scatter, scan, exscan, alltoallw on MPI_COMM_WORLD all served by scc (scans: $how)" "$log"
        # world, dup and reversed span all np processes at once: three identities,
        # each reported by every process (coll_scc_compat.h: scc_comm_uid)
        grep -a "coll:scc: comm [0-9]* (.*) rank [0-9]* size $np uid " "$log" |
            awk -v np=$np '{ n[$NF]++ } END { for (u in n) { k++; if (n[u] != np) bad = 1 }
                                              exit (k == 3 && !bad) ? 0 : 1 }'
        tap_check $? "np=$np: every process names each communicator by the same identity" "$log"
    fi
    [ $rc -eq 0 ] && scc_no_failures "$log"
    tap_check $? "np=$np: all collectives correct on world, dup, split, reversed and self" "$log"
done
tap_done
