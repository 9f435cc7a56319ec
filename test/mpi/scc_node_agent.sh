#!/bin/sh
# scc_node_agent.sh: emulated nodes on one machine.  Open MPI's launcher calls it in place of
# ssh (4.1: --mca plm_rsh_agent, 5.0: --prtemca plm_ssh_agent) as "AGENT [ssh options] HOST
# COMMAND...": it runs the command (a shell line, as ssh would) in a new UTS namespace whose
# host name is HOST, so the daemon and the processes it starts see themselves on HOST and Open
# MPI takes each host for a node of its own.  With SCC_NODE_SHM=private each node also gets
# its own IPC namespace and a private /dev/shm (a tmpfs that goes with the namespace), so no
# file in /dev/shm is shared between nodes.  Root only (unshare).
while [ $# -gt 0 ]; do
    case "$1" in
        -b|-c|-e|-F|-i|-J|-l|-m|-o|-p|-Q|-S|-W|-w) shift 2 ;;
        -*) shift ;;
        *) break ;;
    esac
done
host=$1
shift
case "$host" in
    *[!A-Za-z0-9.-]*|"") echo "scc_node_agent: bad host name '$host'" >&2; exit 255 ;;
esac
if [ "${SCC_NODE_SHM:-}" = private ]; then
    exec unshare --uts --ipc --mount --propagation private /bin/sh -c \
        "mount -t tmpfs -o mode=1777,size=1g coll-scc-node /dev/shm && hostname $host && $*"
fi
exec unshare --uts /bin/sh -c "hostname $host && $*"
