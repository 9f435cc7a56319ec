#!/bin/sh
# colls.sh: every MPI collective through coll/scc at several process counts;
# the component must be selected and every result must be right.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_colls"

# ompi_info finds the component in the build tree and lists its parameters, each described
log="$SCC_LOGDIR/ompi_info.log"
OMPI_MCA_mca_base_component_path="$SCC_COMPONENT_PATH" \
    "${SCC_OMPI_BINDIR:-/usr/bin}/ompi_info" --param coll scc --level 9 --parsable > "$log" 2>&1
ninfo=0
for p in priority verbose bcast_algorithm barrier_algorithm reduce_algorithm \
         allreduce_algorithm alltoall_algorithm alltoallv_algorithm gather_algorithm \
         scatter_algorithm allgather_algorithm reduce_scatter_block_algorithm cma_min; do
    grep -q "^mca:coll:scc:param:coll_scc_$p:help:..*" "$log" && ninfo=$((ninfo + 1))
done
grep -q "^mca:coll:scc:version:\"mca:" "$log" && [ $ninfo -eq 13 ]
tap_check $? "ompi_info lists coll/scc and describes its parameters ($ninfo of 13 checked)" "$log"

# --mca coll ^scc: the component stays out (verbose asked for, nothing from it), results right
log="$SCC_LOGDIR/colls-off.log"
timeout "${SCC_TIMEOUT:-600}" "$SCC_MPIRUN" --oversubscribe -np 2 \
    --mca mca_base_component_path "$SCC_COMPONENT_PATH" --mca coll '^scc' \
    --mca coll_scc_verbose 2 "$prog" > "$log" 2>&1 &&
    ! grep -aq "coll:scc:" "$log" && scc_no_failures "$log"
tap_check $? "--mca coll ^scc: scc not loaded, all collectives correct on the other modules" "$log"

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
        scc_served "$log" $np MPI_COMM_WORLD "bcast:"
        tap_check $? "np=$np: scc's entry points served MPI_COMM_WORLD's collectives" "$log"
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
