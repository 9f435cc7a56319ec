#!/bin/sh
# lazy.sh: communicators made by the thousand.  The first coll_scc_setup_calls calls of a
# communicator go to the fallback and the next one sets it up, on every member alike: a
# communicator made, used a few times and freed is never set up; one used past the threshold
# is, whichever collectives its calls were; hundreds alive at once, each set up, hold a few
# kB of shared memory each (the slots' pages are taken only when a message needs them).
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_lazy"

# reports LOG NAME: the call lists of communicator NAME, one per line
reports() {
    grep -a "coll:scc: comm [0-9]* ($2) rank [0-9]* size [0-9]* calls:" "$1" | sed 's/.*calls://'
}

# sum_calls WHICH: adds up the counts of the call lists on stdin, per line, of the fallback
# (WHICH=fallback) or of the component's own algorithms (WHICH=served)
sum_calls() {
    awk -v which="$1" '{ s = 0
        for (i = 1; i <= NF; i++) {
            if ($i !~ /^[a-z_]+:[a-z_]+=[0-9]+$/) continue
            split($i, kv, "="); split(kv[1], ca, ":")
            if ((ca[2] == "fallback") == (which == "fallback")) s += kv[2]
        }
        print s }'
}

for np in $(scc_matrix "2 4" "4"); do
    for calls in 5 0; do
        log="$SCC_LOGDIR/lazy-np$np-calls$calls.log"
        out="$SCC_LOGDIR/lazy-np$np-calls$calls.out"
        live=$(scc_matrix 100 60)
        rm -rf "$out" && mkdir -p "$out"
        # each process writes to a file of its own, appended to the log afterwards: thousands
        # of report lines through mpirun may come out cut into each other
        SCC_SETUP_CALLS=$calls scc_run "$log" "$np" -- "$prog" "$calls" "$live" 32 "$out"
        rc=$?
        cat "$out"/out.* >> "$log" 2> /dev/null
        rm -rf "$out"
        [ $rc -eq 0 ] && scc_no_failures "$log" && scc_selected "$log" "$np" MPI_COMM_WORLD
        tap_check $? "np=$np setup_calls=$calls: scc selected, every result right" "$log"

        # made, used 3 times, freed: 100 communicators, a report from each member
        n=$(reports "$log" lazy-churn | wc -l)
        if [ "$calls" -gt 3 ]; then
            k=$(reports "$log" lazy-churn |
                grep -c "^ allreduce:fallback=3 (not set up: fewer calls than coll_scc_setup_calls)$")
        else
            k=$(reports "$log" lazy-churn | sum_calls served | grep -c "^3$")
        fi
        [ "$n" -eq $((100 * np)) ] && [ "$k" -eq "$n" ] &&
            ! grep -aq "comm [0-9]* (lazy-churn) .* set up at call" "$log"
        tap_check $? "np=$np setup_calls=$calls: 100 communicators used 3 times each: $k of $n reports say $([ "$calls" -gt 3 ] && echo "never set up, all on the fallback" || echo "all 3 calls served by scc")" "$log"

        # one used past the threshold by mixed collectives: set up at call calls + 1
        fell=$(reports "$log" lazy-steady | sum_calls fallback | sort -u)
        served=$(reports "$log" lazy-steady | sum_calls served | sort -u)
        said=$(grep -ac "comm [0-9]* (lazy-steady) rank [0-9]* size $np: set up at call $((calls + 1)) " "$log")
        [ "$(reports "$log" lazy-steady | wc -l)" -eq "$np" ] && [ "$fell" = "$calls" ] &&
            [ "$served" = 20 ] && { [ "$calls" -eq 0 ] || [ "$said" -eq "$np" ]; }
        tap_check $? "np=$np setup_calls=$calls: bcast, allreduce, barrier, allgather in turn: the first $calls on the fallback ($fell), the next 20 on scc ($served), set up at call $((calls + 1)) on every member ($said)" "$log"

        # live ones: each set up and in its steady state; their memory bounded (the program
        # checks it against 32 kB per process and communicator)
        n=$(reports "$log" lazy-live | wc -l)
        k=$(reports "$log" lazy-live | sum_calls served | grep -c "^3$")
        [ "$n" -eq $((live * np)) ] && [ "$k" -eq "$n" ] && grep -aq "scc_lazy: live: $live communicators" "$log"
        tap_check $? "np=$np setup_calls=$calls: $live live communicators each served by scc after setup ($k of $n reports); $(grep -a "scc_lazy: live:" "$log" | sed 's/^scc_lazy: live: //')" "$log"
    done
done

# lent_ok LOG NP MIN: NP processes reported at their end that they lent MIN or more buffers,
# at most 8 of them new (the others were taken again: the pages stay touched)
lent_ok() {
    sed -n 's/.*coll:scc: process [0-9]*: \([0-9]*\) buffers lent for calls, \([0-9]*\) of them new$/\1 \2/p' "$1" |
        awk -v np="$2" -v min="$3" '{ n++; if ($1 < min || $2 > 8) bad++ } END { exit !(n == np && !bad) }'
}

# live ones moving large blocks (every process writes its slots): the slot pages a process
# keeps stay within coll_scc_shm_resident (1 MB here, a communicator's slots are 512 KB), the
# least recently used communicators giving theirs back; unbounded (0), each keeps its own.
# Each also broadcasts 256 kB of a strided type, packed through scratch memory: the program
# checks that each process's heap grows by less than 40 kB per communicator beyond 2 MB (a
# scratch buffer kept per communicator would add 256 kB each)
np=4
live=$(scc_matrix 60 40)
for res in 1048576 0; do
    log="$SCC_LOGDIR/lazy-resident$res.log"
    out="$SCC_LOGDIR/lazy-resident$res.out"
    rm -rf "$out" && mkdir -p "$out"
    SCC_SETUP_CALLS=2 scc_run "$log" $np --mca coll_scc_shm_resident $res -- \
        "$prog" 2 "$live" 32 "$out" 262144 1536 $([ $res -gt 0 ] || echo over)
    rc=$?
    cat "$out"/out.* >> "$log" 2> /dev/null
    rm -rf "$out"
    given=$(grep -a "coll:scc: comm [0-9]* (lazy-live) rank [0-9]* size $np: slot pages given back" "$log" |
            sed 's/.*given back \([0-9]*\) times.*/\1/' | awk '{ s += $1 } END { print s + 0 }')
    said=$(grep -a "scc_lazy: live:" "$log" | sed 's/^scc_lazy: live: //')
    heap=$(grep -a "scc_lazy: heap: rank 0:" "$log" | sed 's/.*bytes, add \([0-9]* kB of heap ([0-9.]* kB per communicator\).*/\1)/')
    if [ $res -gt 0 ]; then
        [ $rc -eq 0 ] && scc_no_failures "$log" && [ "$given" -gt 0 ] &&
            [ "$(grep -ac "scc_lazy: heap: rank [0-9]*:" "$log")" -eq $np ] && lent_ok "$log" $np "$live"
        tap_check $? "coll_scc_shm_resident $res: $live live communicators gathering 256 kB blocks, right; slot pages given back $given times; $said; each process's heap: ${heap:-no report}; $(grep -a "coll:scc: process [0-9]*: .* buffers lent" "$log" | head -n 1 | sed 's/.*: \([0-9]* buffers\)/\1/')" "$log"
    else
        # the same bound fails without the budget: the check can fail (the program checks
        # it is exceeded and ends with 0: Open MPI 5's launcher could hang on an error exit)
        [ $rc -eq 0 ] && scc_no_failures "$log" &&
            grep -aq "scc_lazy: live: over the bound, as it must be" "$log" && [ "$given" -eq 0 ]
        tap_check $? "coll_scc_shm_resident 0 (no bound): the same communicators exceed that bound ($said)" "$log"
    fi
done

# the same over the pml transport: its copies of messages, receives posted ahead and bounce
# buffer are lent for the call too (a bounce buffer kept per communicator added 64 kB each)
log="$SCC_LOGDIR/lazy-pml.log"
out="$SCC_LOGDIR/lazy-pml.out"
rm -rf "$out" && mkdir -p "$out"
SCC_SETUP_CALLS=2 scc_run "$log" 4 --mca coll_scc_transport pml -- \
    "$prog" 2 "$(scc_matrix 50 30)" 32 "$out" 65536 1536
rc=$?
cat "$out"/out.* >> "$log" 2> /dev/null
rm -rf "$out"
heap=$(grep -a "scc_lazy: heap: rank 0:" "$log" | sed 's/.*bytes, add \([0-9]* kB of heap ([0-9.]* kB per communicator\).*/\1)/')
[ $rc -eq 0 ] && scc_no_failures "$log" && grep -aq "(lazy-live) size 4: transport pml" "$log" &&
    [ "$(grep -ac "scc_lazy: heap: rank [0-9]*:" "$log")" -eq 4 ] && lent_ok "$log" 4 "$(scc_matrix 50 30)"
tap_check $? "transport pml: live communicators broadcasting 64 kB strided, right; each process's heap: ${heap:-no report}" "$log"

# the default: the parameter documented, and a job with it served past the threshold
# shellcheck disable=SC2086 # SCC_PRELOAD: words on purpose (scc_lib.sh)
env ${SCC_PRELOAD:+LD_PRELOAD=$SCC_PRELOAD} OMPI_MCA_mca_base_component_path="$SCC_COMPONENT_PATH" \
    "${SCC_OMPI_BINDIR:-/usr/bin}/ompi_info" --param coll scc --level 9 --parsable 2> /dev/null |
    grep -q "coll_scc_setup_calls:value:32$"
tap_check $? "coll_scc_setup_calls is a parameter of default 32 (ompi_info)"

ls /dev/shm | grep -q "coll-scc" && tap_not_ok "files of the component left in /dev/shm" ||
    tap_ok "nothing of the component left in /dev/shm"
tap_done
