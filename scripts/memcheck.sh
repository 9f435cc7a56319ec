#!/bin/sh
# memcheck.sh: MPI programs on coll/scc under valgrind's memcheck, with Open MPI's suppressions
# (openmpi-valgrind.supp); ends with the summary line "N passed, N failed".
#
#   scripts/memcheck.sh
#
# Runs, on the component of an ordinary build ($SCC_MEMCHECK_BUILDDIR, default build; made
# with scripts/setup.sh when missing), every process under valgrind --leak-check=full:
#   colls-np2, colls-np3   scc_colls: every collective on world, dup, split, reversed, self
#   soak-np4               scc_soak: communicators made, used and freed 12 times
# and fails on any error of the component: an invalid access, a use of uninitialised memory
# or a bad system call argument with a frame in mca_coll_scc.so (coll_scc_*.c) anywhere in its
# stack, or memory definitely lost that the component allocated (a frame of it among the first
# four above the allocator).  Errors only inside Open MPI and its libraries are not the
# component's: they are counted, as are leaks that only passed through the component (the
# hwloc topology it asks Open MPI for, say).  Logs: test/logs/memcheck-* of the build.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
b=${SCC_MEMCHECK_BUILDDIR:-$top/build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

die() { echo "memcheck: $*"; echo "0 passed, 1 failed"; exit 1; }

command -v valgrind > /dev/null || die "valgrind is not installed (apt-get install valgrind)"
t0=$(date +%s)
if [ ! -x "$b/test/mpi/scc_soak" ] || [ ! -f "$b/ompi/mca/coll/scc/.libs/mca_coll_scc.so" ]; then
    [ -z "${SCC_MEMCHECK_BUILDDIR:-}" ] || die "no build with the tests in $b"
    "$top/scripts/setup.sh" > /dev/null || die "scripts/setup.sh failed"
fi
cd "$b" || die "no $b"
# the test scripts' environment (scc_lib.sh), as make check sets it
SCC_BUILDDIR=$b
SCC_SRCDIR=$top
SCC_OMPI_BINDIR=$(sed -n 's/^OMPI_BINDIR = //p' Makefile)
SCC_OMPI_PKGLIBDIR=$(sed -n 's/^OMPI_PKGLIBDIR = //p' Makefile)
export SCC_BUILDDIR SCC_SRCDIR SCC_OMPI_BINDIR SCC_OMPI_PKGLIBDIR
. "$top/test/mpi/scc_lib.sh"

supp="$("${SCC_OMPI_BINDIR:-/usr/bin}/ompi_info" --path pkgdatadir --parsable 2>/dev/null |
        cut -d: -f3)/openmpi-valgrind.supp"
[ -f "$supp" ] || supp=/usr/share/openmpi/openmpi-valgrind.supp
[ -f "$supp" ] || die "no openmpi-valgrind.supp (package openmpi-common)"
vg="valgrind --tool=memcheck --suppressions=$supp --error-limit=no --num-callers=40
    --keep-debuginfo=yes --leak-check=full --show-leak-kinds=definite
    --errors-for-leak-kinds=definite"

pass=0
fail=0
result() {
    if [ "$1" -eq 0 ]; then
        pass=$((pass + 1))
        echo "PASS: memcheck $2"
    else
        fail=$((fail + 1))
        echo "FAIL: memcheck $2"
    fi
}

# classify FILE...: the errors of valgrind's logs: prints "OURS THROUGH OTHERS" to stderr, and
# each kind of error of the component once, in full (prefixed "#   "), to stdout
classify() {
    awk '
        function flush() {
            if (nf > 0 && head !~ /^Warning:/) {
                leak = head ~ /definitely lost/
                mine = 0
                for (i = 1; i <= nf; i++) {
                    if (frame[i] !~ /mca_coll_scc\.so|coll_scc_[a-z_]*\.[ch]:/) continue
                    if (!leak) { mine = 1; break }
                    # a leak: the component allocated it if it is among the first four frames
                    # above the allocator (malloc, calloc, realloc, strdup... of vgpreload)
                    k = 0
                    for (j = 1; j <= i; j++) if (frame[j] !~ /vgpreload_memcheck/) k++
                    if (k <= 4) mine = 1
                    else through++
                    break
                }
                if (mine) {
                    # printed once per kind of error and place in the component
                    k = head; gsub(/[0-9,]+/, "N", k); f = frame[i]; sub(/0x[0-9A-F]+: /, "", f)
                    if (!((k, f) in shown)) { shown[k, f] = 1; print "#   " bf ":"; print text }
                    ours++
                }
                else if (!leak || i > nf) others++
            }
            nf = 0; text = ""; head = ""
        }
        FNR == 1 { flush() }
        { line = $0; sub(/^==[0-9]+== ?/, "", line) }
        line == "" { flush(); next }
        line ~ /^   *(at|by) 0x/ { frame[++nf] = line; text = text "\n#   " line; next }
        line ~ /^Thread [0-9]+:$/ { next }
        head == "" { head = line; bf = FILENAME; text = "#   " line; next }
        { text = text "\n#   " line }
        END { flush(); print ours + 0, through + 0, others + 0 > "/dev/stderr" }
    ' "$@"
}

# memcheck_case NAME NP PROGRAM [ARGS...]
memcheck_case() {
    name=$1; np=$2; shift 2
    log="$SCC_LOGDIR/memcheck-$name.log"
    rm -f "$SCC_LOGDIR/memcheck-$name".vg.*
    # shellcheck disable=SC2086 # $vg: words on purpose
    SCC_VERBOSE_LEVEL=1 scc_run "$log" "$np" -- \
        $vg --log-file="$SCC_LOGDIR/memcheck-$name.vg.%p" "$@"
    rc=$?
    [ $rc -eq 0 ] && scc_selected "$log" "$np" MPI_COMM_WORLD && scc_no_failures "$log"
    result $? "$name: the program ran right under valgrind, scc selected ($(grep -ao '[0-9]* checks' "$log" | head -n 1))"
    set -- "$SCC_LOGDIR/memcheck-$name".vg.*
    [ -f "$1" ] || { result 1 "$name: no valgrind log"; return; }
    found=$(classify "$@" 2> "$log.counts")
    read -r ours through others < "$log.counts"
    [ -n "$found" ] && echo "$found" | head -n 120
    [ "$ours" -eq 0 ]
    result $? "$name: $ours errors in the component; not the component's: $others in Open MPI and its libraries, $through leaks only reached through the component ($# processes)"
}

memcheck_case colls-np2 2 "$b/test/mpi/scc_colls"
memcheck_case colls-np3 3 "$b/test/mpi/scc_colls"
memcheck_case soak-np4 4 "$b/test/mpi/scc_soak" -n 12 -w 2

echo "memcheck: $(($(date +%s) - t0)) s (valgrind $(valgrind --version | sed 's/^valgrind-//'), suppressions $supp)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
