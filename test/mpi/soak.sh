#!/bin/sh
# soak.sh: communicators made, used by every collective and freed in a loop (scc_soak) at 4
# processes, oversubscribed: scc must serve every one of them, every result must be right,
# and the processes must end with the file descriptors they had after the warm-up, their
# memory grown by less than a leak of a page per iteration would add, and /dev/shm as it was.
# Twice: on the default shared-memory backing (memfd) for SCC_SOAK_SECONDS (default 12:
# about 700 iterations on two cores, enough for a leak of a page per iteration to exceed
# the bounds' fixed allowance five times), and on files in /dev/shm for half of that.
# SCC_SOAK_MEMORY=0 skips the memory bounds (the sanitizer build's allocator keeps freed
# memory in quarantine: scripts/sanitize.sh).
. "$SCC_SRCDIR/test/mpi/scc_lib.sh"

prog="$SCC_BUILDDIR/test/mpi/scc_soak"
np=4
secs=${SCC_SOAK_SECONDS:-12}
: "${SCC_TIMEOUT:=$((secs * 3 + 120))}"

# shm_entries: the names in /dev/shm, one a line, sorted
shm_entries() {
    ls -A /dev/shm 2>/dev/null | sort
}

# served_all LOG NAME_PREFIX SIZE: for every communicator whose name starts with NAME_PREFIX,
# SIZE processes reported that scc set it up (its transport) and served each of the ten
# collectives by one of its algorithms; prints how many communicators, fails on any short one
served_all() {
    awk -v pre="$2" -v size="$3" '
        BEGIN { nc = split("bcast barrier reduce allreduce alltoall alltoallv gather scatter allgather reduce_scatter_block", colls, " ") }
        index($0, "coll:scc: comm ") == 0 { next }
        {
            name = $0; sub(/.*coll:scc: comm [0-9]+ \(/, "", name)
            if (index(name, pre) != 1) next
            rest = name; sub(/\) .*/, "", name); sub(/^[^)]*\) /, "", rest)
        }
        rest ~ "^size " size ": transport " { setup[name]++ }
        rest ~ "^rank [0-9]+ size " size " calls:" {
            calls = rest; sub(/.*calls:/, "", calls); ok = 1
            for (i = 1; i <= nc; i++)
                if (calls !~ (" " colls[i] ":[a-z_]+=[1-9]")) ok = 0
            if (calls ~ /:fallback=/) ok = 0
            served[name] += ok; reports[name]++
        }
        END {
            bad = 0
            for (n in reports) {
                k++
                if (setup[n] != size || served[n] != size) {
                    if (bad++ < 5) printf "# %s: set up by %d, served by %d of %d processes\n", n, setup[n], served[n], size
                }
            }
            for (n in setup) if (!(n in reports)) { bad++; printf "# %s: set up, no call report\n", n }
            printf "%d\n", k
            exit bad ? 1 : 0
        }' "$1"
}

# soak_case NAME SECONDS MEMORY [mpirun options...]
soak_case() {
    name=$1; t=$2; mem=$3; shift 3
    log="$SCC_LOGDIR/soak-$name.log"
    out="$SCC_LOGDIR/soak-$name.out"
    rm -rf "$out"
    mkdir -p "$out"
    before=$(shm_entries)
    # each process writes its output to a file of its own (scc_soak -o), appended to the log
    # afterwards: thousands of report lines through mpirun may come out cut into each other
    scc_run "$log" "$np" "$@" -- "$prog" -t "$t" -o "$out"
    rc=$?
    after=$(shm_entries)
    for f in "$out"/out.*; do
        [ -f "$f" ] || continue
        echo "== output of process ${f##*.} =="
        cat "$f"
    done >> "$log"
    rm -rf "$out"
    iters=$(sed -n 's/^scc_soak: \([0-9]*\) iterations .*/\1/p' "$log" | head -n 1)
    [ -n "$iters" ] || iters=0
    half=$((np / 2))

    # scc first: selected on the world and the kept communicator, set up on and serving every
    # communicator the loop made (a dup of np processes, two splits of np/2 per iteration)
    scc_selected "$log" "$np" MPI_COMM_WORLD && scc_served "$log" "$np" "soak keep" "allreduce:[a-z_]+=[1-9]"
    tap_check $? "$name: scc selected on MPI_COMM_WORLD, served the kept communicator" "$log"
    dups=$(served_all "$log" "soak dup " "$np")
    st1=$?
    splits=$(served_all "$log" "soak split " "$half")
    st2=$?
    ndup=$(echo "$dups" | tail -n 1)
    nsplit=$(echo "$splits" | tail -n 1)
    nsel=$(grep -ac "coll:scc: comm [0-9]* (.*) size $np: selected" "$log")
    nsel2=$(grep -ac "coll:scc: comm [0-9]* (.*) size $half: selected" "$log")
    [ $st1 -eq 0 ] && [ $st2 -eq 0 ] && [ "$iters" -gt 0 ] && [ "$ndup" -eq "$iters" ] &&
        [ "$nsplit" -eq $((2 * iters)) ] && [ "$nsel" -ge $((np * (iters + 2))) ] &&
        [ "$nsel2" -ge $((np * iters)) ]
    st=$?
    if [ $st -ne 0 ]; then
        printf '%s\n%s\n' "$dups" "$splits" | grep '^#'
        echo "# $iters iterations: $ndup dups, $nsplit splits reported; \"selected\" by $nsel processes of size $np, $nsel2 of size $half"
    fi
    tap_check $st "$name: scc selected, set up and served all 10 collectives on each of the $ndup dups and $nsplit splits of $iters iterations" "$log"

    [ $rc -eq 0 ] && scc_no_failures "$log"
    tap_check $? "$name: every result right over $iters iterations ($(grep -ao '[0-9]* checks' "$log" | head -n 1))" "$log"

    # the measurements (scc_soak.c): "soak-mem: rank R iterations N rss A B bound X hwm A B
    # heap A B bound Y fds A B", A after the warm-up, B at the end
    grep -a '^soak-mem: ' "$log" | sed 's/^/# /'
    n=$(grep -ac '^soak-mem: ' "$log")
    mem_check() {
        grep -a '^soak-mem: ' "$log" | awk -v np="$np" -v what="$1" '
            { for (i = 1; i < NF; i++) v[$i] = i
              r = $(v["rank"] + 1); rss0 = $(v["rss"] + 1); rss = $(v["rss"] + 2) - rss0
              rssb = $(v["rss"] + 4); heap = $(v["heap"] + 2) - $(v["heap"] + 1)
              heapb = $(v["heap"] + 4); fd0 = $(v["fds"] + 1); fd1 = $(v["fds"] + 2)
              if (what == "fds" && (fd0 < 0 || fd0 != fd1)) {
                  bad++; printf "# rank %s: %d open file descriptors after the warm-up, %d at the end\n", r, fd0, fd1 }
              if (what == "mem" && (rss0 <= 0 || rss >= rssb || heap >= heapb)) {
                  bad++; printf "# rank %s: RSS +%d kB (bound %d), heap +%d bytes (bound %d)\n", r, rss, rssb, heap, heapb }
            }
            END { if (NR != np) printf "# %d measurements, expected %d\n", NR, np
                  exit (NR == np && !bad) ? 0 : 1 }'
    }
    mem_check fds
    tap_check $? "$name: open file descriptors the same after the warm-up and at the end ($n processes)" "$log"
    if [ "$mem" = 1 ]; then
        mem_check mem
        tap_check $? "$name: RSS and heap grew less than a leak per iteration would add (bounds $(grep -a -m 1 '^soak-mem: ' "$log" | awk '{ print $10 " kB, " $18 " bytes" }'))" "$log"
    else
        tap_ok "$name: RSS and heap bounds # SKIP SCC_SOAK_MEMORY=0"
    fi
    new=$(echo "$after" | grep -vxF -e "$before" | grep -v '^$')
    if [ -n "$new" ]; then
        # only what this run made counts (other jobs may run beside it): the component's
        # files name the creating process (coll-scc-PID-...), Open MPI's name the job
        pids=$(sed -n 's/^scc_soak: pids //p' "$log")
        jobs=$(sed -n 's/^scc_soak: job //p' "$log")
        ours=$(echo "$new" | while read -r f; do
            for id in $pids $jobs; do
                case "$f" in *[.-]"$id"[.-]*|*[.-]"$id") echo "$f"; break ;; esac
            done
        done)
        echo "$new" | sed 's/^/# new in \/dev\/shm: /'
    else
        ours=""
    fi
    [ -z "$ours" ]
    tap_check $? "$name: /dev/shm as before the run${ours:+ (left: $(echo "$ours" | tr '\n' ' ' | sed 's/ $//'))}" "$log"
}

soak_case memfd "$secs" "${SCC_SOAK_MEMORY:-1}"
soak_case file-devshm $(((secs + 1) / 2)) "${SCC_SOAK_MEMORY:-1}" \
    --mca coll_scc_shm_backing file --mca coll_scc_shm_dir /dev/shm
tap_done
