#!/bin/bash
# NEW, OLD: build trees of the component (NEW the change, OLD the one before it);
# IPB: ipb.c built with mpicc; OSU_DIR: OSU 7.4's c/mpi/collective (run from the project's top)
# osucmp.sh NP COLL "label:opts" ... : OSU blocking, alternating launches, medians
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
np=$1; coll=$2; shift 2
if [ "$np" -le 2 ]; then B="--bind-to core"; else B="--oversubscribe --bind-to none"; fi
S="--mca mca_base_component_path ${NEW:-./build}/ompi/mca/coll/scc/.libs:/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 --mca coll_scc_setup_calls 0"
prog=$OSU_DIR/blocking/osu_$coll
for l in 1 2 3; do
  for c in "$@"; do
    lab=${c%%:*}; opts=${c#*:}
    mpirun -np $np $B $S $opts $prog -m ${MSIZE:-8192:1048576} -i ${ITERS:-300} -x 30 2>/dev/null | awk -v l=$lab '/^[0-9]/ {print l, $1, $2}'
  done
done | python3 -c '
import sys, statistics as st, collections
d = collections.defaultdict(list); labs = []
for line in sys.stdin:
    l, s, v = line.split(); d[(l, int(s))].append(float(v))
    if l not in labs: labs.append(l)
sizes = sorted({k[1] for k in d})
print("%8s " % "size" + " ".join("%10s" % l for l in labs) + "   " + " ".join("%8s" % (l + "/" + labs[-1]) for l in labs[:-1]))
for s in sizes:
    m = [st.median(d[(l, s)]) for l in labs]
    print("%8d " % s + " ".join("%10.2f" % v for v in m) + "   " + " ".join("%8.2f" % (v / m[-1]) for v in m[:-1]))
'
