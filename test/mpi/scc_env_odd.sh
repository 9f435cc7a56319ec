#!/bin/sh
# scc_env_odd.sh VAR VALUE PROGRAM [ARGS...]: runs PROGRAM with VAR=VALUE in its environment
# on the odd ranks of MPI_COMM_WORLD only (a per-process configuration, as per-node files
# or per-process environments give on a cluster).
var=$1
value=$2
shift 2
if [ $((${OMPI_COMM_WORLD_RANK:-0} % 2)) -eq 1 ]; then
    export "$var=$value"
fi
exec "$@"
