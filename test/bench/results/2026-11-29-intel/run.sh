#!/bin/bash
# NEW, OLD: build trees of the component (NEW the change, OLD the one before it);
# IPB: ipb.c built with mpicc; OSU_DIR: OSU 7.4's c/mpi/collective (run from the project's top)
# run.sh NP FORM(v|a) LAUNCHES: old, new, tuned alternating
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
np=$1; form=$2; L=${3:-3}
if [ "$np" -le 2 ]; then B="--bind-to core"; else B="--oversubscribe --bind-to none"; fi
for l in $(seq 1 $L); do
  for who in old new tuned; do
    case $who in
      old) F="--mca mca_base_component_path $OLD/ompi/mca/coll/scc/.libs:/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 --mca coll scc,tuned,basic,libnbc,self --mca coll_scc_setup_calls 0";;
      new) F="--mca mca_base_component_path ${NEW:-./build}/ompi/mca/coll/scc/.libs:/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 --mca coll scc,tuned,basic,libnbc,self --mca coll_scc_setup_calls 0";;
      tuned) F="--mca coll tuned,basic,libnbc,self";;
    esac
    mpirun -np $np $B $F $IPB $form 2>&1 | sed "s/^/$who $l /"
  done
done
