# shellcheck shell=bash
# bench_lib.sh: shared helpers of the benchmark drivers (sourced by compare.sh, suite.sh,
# sweep.sh): where things are, how each component is selected and how to check that it was,
# running the launches alternately, and turning their output into CSV.
#
# CSV columns (raw.csv has one row per run, results.csv the median over runs):
#   component,np,collective,bytes,median_us,min_us,max_us,iterations,root,spread_pct,runs,status
# In raw.csv "runs" holds the run number.

# shellcheck disable=SC2034
BL_CSV_HEADER="component,np,collective,bytes,median_us,min_us,max_us,iterations,root,spread_pct,runs,status"
BL_ALL_COLLS="bcast,barrier,reduce,allreduce,alltoall,alltoallv,gather,scatter,allgather,reduce_scatter_block"
# named only (-C), as scc_bench measures them: not in the default list, which selftest.sh counts
BL_MORE_COLLS="gatherv,scatterv,allgatherv,reduce_scatter,scan,exscan,alltoallw"

# bl_opt OPT ARG: the options compare.sh, sweep.sh and suite.sh share; sets out, nps, colls,
# sizes, roots, runs, budget, iters, build, verify and the BL_ settings of the caller.
# Returns 1 for an option that is not one of them.
bl_opt() {
    case $1 in
    o) out=$2 ;;
    n) nps=$2 ;;
    C) colls=$2 ;;
    m) sizes="-m $2" ;;
    s) sizes="-s $2" ;;
    R) roots=$2 ;;
    r) runs=$2 ;;
    t) budget=$2 ;;
    i) iters=$2 ;;
    b) build=$2 ;;
    x) BL_MPIRUN_ARGS=$2 ;;
    B) BL_BIND=$2 ;;
    T) BL_TIMEOUT=$2 ;;
    V) verify=0 ;;
    h) usage; exit 0 ;;
    *) return 1 ;;
    esac
}

bl_die() {
    echo "${BL_PROG:-bench}: $*" >&2
    exit 2
}

# bl_bytes SIZE: a size in bytes, with an optional K, M or G suffix (powers of 1024), as
# plain digits; dies on anything else.
bl_bytes() {
    local v=$1 mult=1
    case $v in
    *[kK]) mult=1024 v=${v%?} ;;
    *[mM]) mult=1048576 v=${v%?} ;;
    *[gG]) mult=1073741824 v=${v%?} ;;
    esac
    case $v in
    '' | *[!0-9]*) bl_die "not a size in bytes: '$1' (digits, optionally followed by K, M or G)" ;;
    esac
    echo $((v * mult))
}

bl_note() {
    echo "${BL_PROG:-bench}: $*" >&2
}

# bl_init BUILDDIR: locates the build, mpirun, Open MPI's components and the benchmark.
bl_init() {
    BL_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    BL_BUILD=${1:-${SCC_BUILDDIR:-$BL_TOP/build}}
    [ -f "$BL_BUILD/Makefile" ] ||
        bl_die "no build in $BL_BUILD (run ./scripts/setup.sh, or give the build directory with -b)"
    BL_BUILD=$(cd "$BL_BUILD" && pwd)
    BL_BENCH="$BL_BUILD/test/bench/scc_bench"
    BL_SO="$BL_BUILD/ompi/mca/coll/scc/.libs/mca_coll_scc.so"
    local bindir pkglib
    bindir=$(sed -n 's/^OMPI_BINDIR = //p' "$BL_BUILD/Makefile")
    pkglib=$(sed -n 's/^OMPI_PKGLIBDIR = //p' "$BL_BUILD/Makefile")
    BL_MPIRUN=${SCC_MPIRUN:-${bindir:+$bindir/}mpirun}
    command -v "$BL_MPIRUN" > /dev/null 2>&1 || bl_die "no mpirun ($BL_MPIRUN)"
    [ -n "$pkglib" ] || pkglib=$(ompi_info --path pkglibdir --parsable 2>/dev/null | cut -d: -f3)
    BL_COMPONENT_PATH="$BL_BUILD/ompi/mca/coll/scc/.libs:$pkglib"
    BL_NCORES=$(nproc 2>/dev/null || echo 1)
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    BL_TIMEOUT=${BL_TIMEOUT:-1800}
}

# bl_need_bench: the benchmark program and the component are built.
bl_need_bench() {
    [ -x "$BL_BENCH" ] || bl_die "$BL_BENCH is not built (cd $BL_BUILD && make)"
    [ -f "$BL_SO" ] || bl_die "$BL_SO is not built (cd $BL_BUILD && make)"
}

# bl_results_dir DIR: creates the results directory (default build/bench-results/<date>).
bl_results_dir() {
    BL_OUT=${1:-$BL_BUILD/bench-results/$(date +%Y%m%d-%H%M%S)}
    mkdir -p "$BL_OUT/logs" || bl_die "cannot create $BL_OUT"
    BL_OUT=$(cd "$BL_OUT" && pwd)
}

# bl_comp_args COMPONENT: the mpirun options that make Open MPI use COMPONENT.
#   scc    the component of this build, above tuned (its priority 40 > tuned's 30), serving
#          the benchmark's persistent collectives, started in order (coll_scc_persistent_ordered)
#   tuned  Open MPI's default choice on one node
#   sm     coll/sm (bcast, barrier, reduce, allreduce; tuned serves the rest): priority 0
#          by default, so it is raised above tuned's
#   han    coll/han (hierarchical: bcast, barrier, reduce, allreduce, gather, scatter,
#          allgather): priority 0 by default, raised; Open MPI 4.1's han declines
#          communicators whose processes are all on one node
#   adapt  coll/adapt (event-driven bcast and reduce), raised likewise
#   base   coll/scc of another build, $SCC_BASE_BUILD (a build of an earlier commit: what a
#          change did to the latencies, measured in the same run)
bl_comp_args() {
    case $1 in
    scc) echo "--mca mca_base_component_path $BL_COMPONENT_PATH --mca coll scc,tuned,basic,libnbc,self --mca coll_scc_persistent_ordered 1" ;;
    tuned) echo "--mca coll tuned,basic,libnbc,self" ;;
    sm) echo "--mca coll sm,tuned,basic,libnbc,self --mca coll_sm_priority 100" ;;
    han) echo "--mca coll han,tuned,basic,libnbc,self --mca coll_han_priority 100" ;;
    adapt) echo "--mca coll adapt,tuned,basic,libnbc,self --mca coll_adapt_priority 100" ;;
    base)
        [ -f "${SCC_BASE_BUILD:-}/ompi/mca/coll/scc/.libs/mca_coll_scc.so" ] || return 1
        echo "--mca mca_base_component_path $SCC_BASE_BUILD/ompi/mca/coll/scc/.libs:${BL_COMPONENT_PATH#*:} --mca coll scc,tuned,basic,libnbc,self --mca coll_scc_persistent_ordered 1" ;;
    *) return 1 ;;
    esac
}

# bl_bind_args NP: bind to cores while they suffice, else let processes float.
bl_bind_args() {
    if [ -n "${BL_BIND:-}" ]; then
        echo "--bind-to $BL_BIND"
    elif [ "$1" -le "$BL_NCORES" ]; then
        echo "--bind-to core"
    else
        echo "--bind-to none"
    fi
}

# bl_mpirun LOG NP COMPONENT [more mpirun args...] -- PROGRAM [ARGS...]
# One launch: stdout to LOG, stderr to LOG.err; returns the launch's status (124: timeout).
bl_mpirun() {
    local log=$1 np=$2 comp=$3 opts=() cargs
    shift 3
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        opts+=("$1")
        shift
    done
    [ "${1:-}" = "--" ] && shift
    cargs=$(bl_comp_args "$comp") || bl_die "unknown component '$comp' (scc tuned sm han adapt)"
    # shellcheck disable=SC2086
    echo "$BL_MPIRUN --oversubscribe -np $np $(bl_bind_args "$np") $cargs ${BL_MPIRUN_ARGS:-} ${opts[*]} $*" > "$log.cmd"
    # shellcheck disable=SC2086,SC2046
    timeout -k 20 "$BL_TIMEOUT" "$BL_MPIRUN" --oversubscribe -np "$np" $(bl_bind_args "$np") $cargs \
        ${BL_MPIRUN_ARGS:-} "${opts[@]}" "$@" > "$log" 2> "$log.err"
}

# bl_check_run LOG NP COMPONENT [mpirun args...] -- PROGRAM [ARGS...]
# A launch whose verbose output is parsed: each process writes to its own files (a shell
# redirects them by OMPI_COMM_WORLD_RANK; mpirun's own per-process output options differ
# between 4.1 and 5.0, and 5.0.7's loses stdout), so lines of different processes cannot be
# cut into each other as they can be on mpirun's merged output; LOG gets them process by
# process, LOG.err the console.
bl_check_run() {
    local log=$1 np=$2 comp=$3 st opts=()
    shift 3
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        opts+=("$1")
        shift
    done
    [ "${1:-}" = "--" ] && shift
    rm -rf "$log.d"
    mkdir -p "$log.d" || bl_die "cannot make $log.d"
    # shellcheck disable=SC2016
    bl_mpirun "$log" "$np" "$comp" "${opts[@]}" -- /bin/sh -c \
        'd=$1; r=${OMPI_COMM_WORLD_RANK:-x}; shift; exec "$@" > "$d/$r.out" 2> "$d/$r.err"' \
        bl-rank "$log.d" "$@"
    st=$?
    cat "$log.d"/*.out "$log.d"/*.err > "$log" 2> /dev/null
    return $st
}

# bl_selected LOG COMPONENT NP: from the coll_base_verbose output in LOG, every one of the NP
# processes chose COMPONENT as the highest-priority module on MPI_COMM_WORLD and on every other
# communicator of more than one process (han: MPI_COMM_WORLD only -- it splits its own
# communicators, which its levels serve with other components).  Prints a one-line verdict;
# returns 0 if selected.
bl_selected() {
    # another build's coll/scc is selected under its own name
    awk -v want="$([ "$2" = base ] && echo scc || echo "$2")" -v np="$3" '
        match($0, /^\[[^]]*\]/) { pid = substr($0, RSTART, RLENGTH) }
        RSTART == 0 { next }
        /coll:base:comm_select: new communicator: / {
            name = $0; sub(/.*new communicator: /, "", name); sub(/ \(cid [0-9]+\).*/, "", name)
            cur[pid] = name; next
        }
        /coll:base:comm_select: selecting .*Enabled/ {
            s = $0; sub(/.*selecting +/, "", s); gsub(/,/, " ", s); split(s, w, / +/)
            key = pid SUBSEP cur[pid]
            if (!(key in top) || w[3] + 0 >= pri[key]) { top[key] = w[1]; pri[key] = w[3] + 0 }
            next
        }
        index($0, "coll:" want ":") && /disqualifying|declined/ && !/MPI_COMM_SELF/ && why == "" {
            why = $0; sub(/^\[[^]]*\] */, "", why)
        }
        END {
            for (k in top) {
                split(k, kk, SUBSEP)
                if (kk[2] == "MPI_COMM_SELF" || top[k] == "self") continue
                if (want == "han" && kk[2] != "MPI_COMM_WORLD") continue
                if (kk[2] == "MPI_COMM_WORLD") world[kk[1]] = 1
                if (top[k] == want) ok[kk[1]] = 1
                else if (!(kk[1] in bad) || kk[2] == "MPI_COMM_WORLD") bad[kk[1]] = kk[2] " -> " top[k]
            }
            nw = 0; nok = 0; nbad = 0
            for (p in world) { nw++; if ((p in ok) && !(p in bad)) nok++ }
            for (p in bad) { nbad++; example = bad[p] }
            if (nw == np && nok == np) {
                printf "selected on %d/%d processes\n", nok, np; exit 0
            }
            if (nw == 0) { print "no coll_base_verbose selection output found"; exit 1 }
            printf "NOT selected (%d/%d processes; e.g. %s)%s\n", nok, np, example,
                   why != "" ? ": " why : ""
            exit 1
        }' "$1"
}

# bl_scc_served LOG: the algorithms coll/scc reports having served (coll_scc_verbose 2),
# summed over processes, as "coll:alg=calls ...".
bl_scc_served() {
    awk '
        /coll:scc: comm .* calls:/ {
            s = $0; sub(/.*calls:/, "", s); n = split(s, it, " ")
            for (i = 1; i <= n; i++) { split(it[i], kv, "="); if (kv[1] != "none") sum[kv[1]] += kv[2] }
        }
        END { out = ""; for (k in sum) out = out " " k "=" sum[k]; print (out == "" ? " (no call report)" : out) }' "$1" |
        tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' '
}

# bl_scc_forced LOG: for every communicator scc_bench ran a forced algorithm on ("scc_bench
# COLL ALG", as coll/scc's call report names it), whether ALG served COLL's calls; prints one
# line per algorithm that did not, with what served them instead.
bl_scc_forced() {
    awk '
        /coll:scc: comm .*\(scc_bench [a-z_]+ [a-z_]+\) rank .* calls:/ {
            name = $0; sub(/.*\(scc_bench /, "", name); sub(/\).*/, "", name)
            split(name, w, " "); coll = w[1]; alg = w[2]
            if (alg == "auto") next
            s = $0; sub(/.*calls:/, "", s); n = split(s, it, " "); other = ""
            for (i = 1; i <= n; i++) {
                split(it[i], kv, "="); split(kv[1], ca, ":")
                if (ca[1] != coll) continue
                if (ca[2] == alg) served[name] += kv[2]
                else if (index(alt[name] " ", " " ca[2] " ") == 0) alt[name] = alt[name] " " ca[2]
            }
            seen[name] = 1
        }
        END {
            for (k in seen) if (!(k in served)) printf "    forced %s did not serve: served by%s\n", k, alt[k] == "" ? " nothing" : alt[k]
        }' "$1" | sort -u
}

# bl_bench_csv LABEL NP RUN < scc_bench output: its result lines as raw CSV rows.
bl_bench_csv() {
    awk -v label="$1" -v np="$2" -v run="$3" '
        /^#/ || NF < 10 { next }
        {
            comp = label; if ($2 != "auto") comp = label ":" $2
            printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", comp, np, $1, $4, $5, $6, $7, $9, $3, $8, run, $10
        }'
}

# bl_osu_csv LABEL NP RUN COLL < output of osu_COLL: its result lines as raw CSV rows.  OSU prints
# "size avg" (or, with -f, "size avg min max iterations"), a last column Pass/Fail with -c,
# and no size for osu_barrier.  The average goes to median_us; OSU's root is 0.
bl_osu_csv() {
    awk -v comp="$1" -v np="$2" -v run="$3" -v coll="$4" '
        function rooted(c) {
            return c == "bcast" || c == "reduce" || c == "gather" || c == "scatter" || c == "gatherv" || c == "scatterv"
        }
        function row(bytes, avg, mn, mx, it, st) {
            printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,-,%s,%s\n", comp, np, coll, bytes, avg, mn, mx, it,
                   rooted(coll) ? "0" : "-", run, st
        }
        /^[ \t]*[0-9]/ {
            st = ($NF ~ /^[Ff]ail/) ? "WRONG" : "ok"
            n = NF - ($NF ~ /^[A-Za-z]/ ? 1 : 0)
            if (coll == "barrier") row(0, $1, n >= 3 ? $2 : $1, n >= 3 ? $3 : $1, n >= 4 ? $4 : 0, st)
            else row($1, $2, n >= 4 ? $3 : $2, n >= 4 ? $4 : $2, n >= 5 ? $5 : 0, st)
        }'
}

# bl_imb_csv LABEL NP RUN < output of IMB-MPI1: its result lines of NP processes as raw CSV rows.
# IMB prints per benchmark "# Benchmarking Name", "# #processes = P", a header with #bytes
# (none for Barrier) and rows "bytes repetitions t_min t_max t_avg"; t_avg goes to median_us,
# the 0-byte rows are dropped.  Recent IMB keeps root 0 (older ones rotated it).
bl_imb_csv() {
    awk -v comp="$1" -v np="$2" -v run="$3" '
        function rooted(c) {
            return c == "bcast" || c == "reduce" || c == "gather" || c == "scatter" || c == "gatherv" || c == "scatterv"
        }
        function row(c, bytes, avg, mn, mx, it) {
            printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,-,%s,ok\n", comp, np, c, bytes, avg, mn, mx, it,
                   rooted(c) ? "0" : "-", run
        }
        /^# Benchmarking / { c = tolower($3); inrows = 0; p = 0; next }
        /^# #processes = / { p = $4; next }
        /#repetitions/ { inrows = 1; bytes = ($1 == "#bytes"); next }
        inrows && /^[ \t]*[0-9]/ {
            if (p != np) next
            if (bytes) { if ($1 + 0 > 0) row(c, $1, $5, $3, $4, $2) }
            else row(c, 0, $4, $2, $3, $1)
            next
        }
        /^[ \t]*$/ { inrows = 0 }'
}

# bl_aggregate RAW_CSV: per (component, np, collective, root, bytes) the median over runs of
# the medians, the least min, the largest max, the iterations summed, the median spread and
# the number of runs; WRONG if any run was.
bl_aggregate() {
    echo "$BL_CSV_HEADER"
    awk -F, '
        NR == 1 { next }
        {
            k = $1 "," $2 "," $3 "," $4 "," $9
            if (!(k in n)) { order[++nk] = k; mn[k] = $6; mx[k] = $7 }
            n[k]++; med[k] = med[k] " " $5; spr[k] = spr[k] " " $10; it[k] += $8
            if ($6 + 0 < mn[k] + 0) mn[k] = $6
            if ($7 + 0 > mx[k] + 0) mx[k] = $7
            if ($12 != "ok") st[k] = $12
        }
        function median(s,   a, m, i, j, t) {
            m = split(s, a, " ")
            for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
            return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        }
        END {
            for (i = 1; i <= nk; i++) {
                k = order[i]; split(k, f, ",")
                sp = spr[k] ~ /[0-9]/ ? sprintf("%.1f", median(spr[k])) : "-"
                printf "%s,%s,%s,%s,%.3f,%s,%s,%d,%s,%s,%d,%s\n", f[1], f[2], f[3], f[4], median(med[k]),
                       mn[k], mx[k], it[k], f[5], sp, n[k], (k in st) ? st[k] : "ok"
            }
        }' "$1"
}

# bl_rotate N WORDS...: the words rotated left by N (so each run starts with another one).
bl_rotate() {
    local n=$1
    shift
    local arr=("$@") len=$# i
    for ((i = 0; i < len; i++)); do
        printf '%s ' "${arr[$(((i + n) % len))]}"
    done
}

# bl_machine: one line about where the numbers come from.
bl_machine() {
    local cpu
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
    echo "$(hostname), ${cpu:-unknown cpu}, $BL_NCORES cores, $("$BL_MPIRUN" --version 2>/dev/null | head -n 1), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
}
