#!/bin/sh
# setup.sh: install what coll/scc needs (Debian 12 or 13 packages), then build it in ./build.
# Safe to run again: it installs only what is missing and rebuilds only what changed.
#   scripts/setup.sh [--packages]
# Where the installed Open MPI lacks headers a component needs (Debian 13's 5.0.7), it
# fetches that version's source into build/ompi-source (scripts/ompi-source.sh) and
# configures with it; SCC_OMPI_SOURCE=DIR names a source tree to use instead.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

pkgs="libopenmpi-dev openmpi-bin libhwloc-dev libpmix-dev autoconf automake libtool pkg-config make gcc gnuplot-nox procps"
# --packages: print the Debian packages it needs and stop (.ci/run installs them up front)
if [ "${1:-}" = "--packages" ]; then
    echo "$pkgs"
    exit 0
fi
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: missing packages:$missing; run as root (or: sudo apt-get install$missing)" >&2
        exit 1
    fi
    echo "setup: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends $missing > /dev/null
fi

mkdir -p build
[ -x configure ] || ./autogen.sh > build/autogen.out 2>&1 || { cat build/autogen.out; exit 1; }
cd build
if [ ! -f Makefile ]; then
    if [ -n "${SCC_OMPI_SOURCE:-}" ]; then
        ../configure --enable-silent-rules --with-ompi-source="$SCC_OMPI_SOURCE" > configure.out 2>&1 ||
            { tail -n 30 configure.out; exit 1; }
    elif ! ../configure --enable-silent-rules > configure.out 2>&1; then
        grep -q "lacks headers" configure.out || { tail -n 30 configure.out; exit 1; }
        echo "setup: Open MPI's installed headers are incomplete; fetching its source"
        src=$("$top/scripts/ompi-source.sh" "$top/build/ompi-source")
        ../configure --enable-silent-rules --with-ompi-source="$src" > configure.out 2>&1 ||
            { tail -n 30 configure.out; exit 1; }
    fi
    sed -n 's/^configure: //p' configure.out | grep -E "configured for|lacks come from" | sed 's/^/setup: /'
fi
make -j"$(nproc)" > make.out 2>&1 || { tail -n 40 make.out; exit 1; }
make -j"$(nproc)" check TESTS= > make-check-build.out 2>&1 || { tail -n 40 make-check-build.out; exit 1; }
echo "setup: built $top/build/ompi/mca/coll/scc/.libs/mca_coll_scc.so"
