#!/bin/bash
# NEW, OLD: build trees of the component (NEW the change, OLD the one before it);
# IPB: ipb.c built with mpicc; OSU_DIR: OSU 7.4's c/mpi/collective (run from the project's top)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
np=$1; L=${2:-3}
if [ "$np" -le 2 ]; then B="--bind-to core"; else B="--oversubscribe --bind-to none"; fi
N="--mca mca_base_component_path ${NEW:-./build}/ompi/mca/coll/scc/.libs:/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 --mca coll scc,tuned,basic,libnbc,self --mca coll_scc_setup_calls 0"
for l in $(seq 1 $L); do
  mpirun -np $np $B $N $IPB a 2>&1 | sed "s/^/old $l /"
  mpirun -np $np $B $N --mca coll_scc_inplace_copy_max 0 $IPB a 2>&1 | sed "s/^/new $l /"
  mpirun -np $np $B --mca coll tuned,basic,libnbc,self $IPB a 2>&1 | sed "s/^/tuned $l /"
done
