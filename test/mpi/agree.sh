#!/bin/sh
# agree.sh: processes configured differently never hang: when half of the processes get
# another value of a parameter that decides the protocol (or do not load scc at all), every
# member declines the communicators that mix them, one message names the difference, and
# the collectives stay right on the fallback.
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_colls"
odd="$SCC_SRCDIR/test/mpi/scc_env_odd.sh"
np=4

# mixed VAR VALUE NAME: odd ranks get VAR=VALUE; NAME is what the message must name
mixed() {
    log="$SCC_LOGDIR/agree-$3.log"
    scc_run "$log" $np -- "$odd" "$1" "$2" "$prog"
    rc=$?
    [ $rc -eq 0 ] && scc_no_failures "$log"
    tap_check $? "$3 on odd ranks only: the job completes, all collectives correct" "$log"
    # MPI_COMM_WORLD mixes both halves: every member that loaded scc declines it with the
    # same words, and nobody selects it
    n=$(grep -a "coll:scc: comm 0 (MPI_COMM_WORLD) size $np: declined (" "$log" |
        sed 's/^.*coll:scc: //' | sort | uniq -c | awk '{ print $1 }')
    [ "$n" = "${4:-$np}" ] && ! grep -aq "comm 0 (MPI_COMM_WORLD) size $np: selected" "$log"
    tap_check $? "$3 on odd ranks only: every member declines MPI_COMM_WORLD alike" "$log"
    grep -aq "$5" "$log" && [ "$(grep -ac "^The scc collective component does not serve communicator 0 " "$log")" -eq 1 ]
    tap_check $? "$3 on odd ranks only: one message names the cause" "$log"
    # the halves themselves (split by parity) agree within and are served
    [ "$(grep -ac "comm [0-9]* (MPI COMM[A-Z]* [0-9]* SPLIT FROM 0) size $((np / 2)): selected" \
          "$log")" -eq "${4:-$np}" ]
    tap_check $? "$3 on odd ranks only: each half still selects scc on its own split" "$log"
}

# (the coll list differs in order only: a list whose fallback differs breaks Open MPI's own
# collectives as well)
for c in "OMPI_MCA_coll_scc_tree_max 16 tree_max" \
         "OMPI_MCA_coll_scc_shm_slot_size 4096 shm_slot_size" \
         "OMPI_MCA_coll_scc_shm_nslots 2 shm_nslots" \
         "OMPI_MCA_coll_scc_allreduce_algorithm ring allreduce_algorithm" \
         "OMPI_MCA_coll_scc_barrier_algorithm dissem barrier_algorithm" \
         "OMPI_MCA_coll_scc_transport pml transport" \
         "OMPI_MCA_coll_scc_priority 50 priority" \
         "OMPI_MCA_coll_tuned_priority 50 tuned_priority" \
         "OMPI_MCA_coll_scc_mesh 2x2 mesh" \
         "OMPI_MCA_coll_scc_dopl_chunks 8 dopl_chunks" \
         "OMPI_MCA_coll tuned,scc,basic,libnbc,self coll"; do
    # shellcheck disable=SC2086 # three words on purpose
    set -- $c
    name=coll_scc_$3
    [ "$3" = tuned_priority ] && name=coll_tuned_priority
    [ "$3" = coll ] && name=coll
    mixed "$1" "$2" "$3" $np "first difference: $name is "
done

# a threshold set to its default value on half: from coll_scc_many_min processes on the set
# one keeps it and the others take the model's, so whether it is set is in the record
mixed OMPI_MCA_coll_scc_line_max 56 line_max-set-to-default $np \
    "first difference: coll_scc_line_max is "

# scc not loaded on the odd ranks: the even ones (the only ones that say anything) decline
mixed OMPI_MCA_coll tuned,basic,libnbc,self not-loaded 2 "rank 1 (MPI_COMM_WORLD rank 1, on"

# controls: the same value everywhere, or a per-process parameter that differs, is served
log="$SCC_LOGDIR/agree-same.log"
scc_run "$log" $np --mca coll_scc_tree_max 16 -- "$odd" OMPI_MCA_coll_scc_spin 7 "$prog"
[ $? -eq 0 ] && scc_no_failures "$log" && scc_selected "$log" $np MPI_COMM_WORLD &&
    ! grep -aq "declined (configuration" "$log"
tap_check $? "the same tree_max everywhere and a per-process spin: scc serves MPI_COMM_WORLD" "$log"
tap_done
