#!/bin/sh
# setup.sh: install what coll/scc needs (Debian 12 packages), then build it in ./build.
# Safe to run again: it installs only what is missing and rebuilds only what changed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

pkgs="libopenmpi-dev openmpi-bin libhwloc-dev libpmix-dev autoconf automake libtool pkg-config make gcc gnuplot-nox"
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

[ -x configure ] || ./autogen.sh > /dev/null
mkdir -p build
cd build
[ -f Makefile ] || ../configure --enable-silent-rules > configure.out
make -j"$(nproc)" > make.out 2>&1 || { tail -n 40 make.out; exit 1; }
make -j"$(nproc)" check TESTS= > make-check-build.out 2>&1 || { tail -n 40 make-check-build.out; exit 1; }
echo "setup: built $top/build/ompi/mca/coll/scc/.libs/mca_coll_scc.so"
