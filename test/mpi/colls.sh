#!/bin/sh
# colls.sh: every MPI collective through coll/scc at several process counts;
# the component must be selected and every result must be right.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_colls"
for np in $(scc_matrix "1 2 3 4 8" "1 3 4"); do
    log="$SCC_LOGDIR/colls-np$np.log"
    scc_run "$log" $np -- "$prog"
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
