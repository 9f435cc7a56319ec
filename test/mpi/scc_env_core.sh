#!/bin/sh
# scc_env_core.sh "ID0 ID1 ..." PROGRAM [ARGS...]: runs PROGRAM as if MPI_COMM_WORLD rank r sat
# on SCC core IDr (coll_scc_scc_coreid, a per-process setting, as the probe would find it):
# core ids against the rank order show whether the transport takes ranks for cores.
ids=$1
shift
# shellcheck disable=SC2086
set -- $ids -- "$@"
r=${OMPI_COMM_WORLD_RANK:-0}
while [ "$r" -gt 0 ] && [ "$1" != "--" ]; do shift; r=$((r - 1)); done
if [ "$1" != "--" ]; then
    export OMPI_MCA_coll_scc_scc_coreid="$1"
fi
while [ "$1" != "--" ]; do shift; done
shift
exec "$@"
