#!/bin/sh
# p54c.sh: the MPB code path as the SCC's P54C build compiles it (-DSCC_P54C, here to x86-64
# assembly) holds no atomic read-modify-write -- no lock prefix, no xchg or cmpxchg -- and
# invalidates MPBT lines with CL1INVMB (0f 0a).  The strict emulation's checker
# (coll_scc_mpb_strict.c) is left out: it runs on emulations only, on its own table; so is
# the registration of the parameters, whose OBJ_RELEASE counts references atomically.
: "${SCC_P54C_COMPILE:?run through make check}"
src="$SCC_SRCDIR/ompi/mca/coll/scc"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT INT TERM
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
rmw='^[[:space:]]*(lock|xchg[bwlq]?|cmpxchg[0-9a-z]*)([[:space:]]|$)'
allowed="mca_coll_scc_xport_register_params"

# rmw_in ASM: each atomic read-modify-write instruction with its function, but in $allowed
rmw_in() {
    awk -v re="$rmw" -v allowed="$allowed" '
        /^[A-Za-z_][A-Za-z0-9_.]*:/ { fn = $0; sub(/:.*/, "", fn) }
        $0 ~ re && fn != allowed { print "# " fn ": " $0 }' "$1"
}

# the detector itself: an atomic add compiles to a locked instruction it must see
printf 'void f(long *p) { __atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST); }\n' > "$out/rmw.c"
# shellcheck disable=SC2086
$SCC_P54C_COMPILE -S -o "$out/rmw.s" "$out/rmw.c" && rmw_in "$out/rmw.s" | grep -q .
if [ $? -eq 0 ]; then ok "the check sees an atomic add"; else not_ok "the check sees an atomic add"; fi

for f in coll_scc_xport coll_scc_xport_slots coll_scc_combine coll_scc_xport_mpb coll_scc_mpb_lock \
         coll_scc_flat coll_scc_exec coll_scc_run coll_scc_drain; do
    # shellcheck disable=SC2086
    # (an implicit declaration is an error in newer compilers: here too)
    if ! $SCC_P54C_COMPILE -DSCC_P54C -Werror=implicit-function-declaration -S \
            -o "$out/$f.s" "$src/$f.c"; then
        not_ok "$f.c compiles with -DSCC_P54C"
        continue
    fi
    if rmw_in "$out/$f.s" | grep .; then
        not_ok "$f.c (-DSCC_P54C): no atomic read-modify-write"
    else
        ok "$f.c (-DSCC_P54C): no atomic read-modify-write"
    fi
done
for f in coll_scc_xport coll_scc_xport_slots; do
    if grep -q '\.byte 0x0f, 0x0a' "$out/$f.s"; then
        ok "$f.c (-DSCC_P54C): reads invalidate with CL1INVMB"
    else
        not_ok "$f.c (-DSCC_P54C): reads invalidate with CL1INVMB"
    fi
done
echo "1..$n"
