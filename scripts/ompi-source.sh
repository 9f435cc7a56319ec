#!/bin/sh
# ompi-source.sh: fetch and unpack Debian's source of the installed Open MPI, for the headers
# its libopenmpi-dev lacks (Debian 13's 5.0.7).  Prints the tree to pass to
# ./configure --with-ompi-source=.
#
#     scripts/ompi-source.sh DIR        -> DIR/openmpi-<version>
#
# The source package comes from the archive the system installs its packages from, through
# a private apt configuration (the system's own is not changed, and needs no deb-src line).
# A tree already unpacked in DIR is reused.  Needs root only to install dpkg-dev.
set -eu

[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
mkdir -p "$1"
dir=$(cd "$1" && pwd)

if ! ver=$(dpkg-query -W -f='${source:Version}' libopenmpi-dev 2>/dev/null) || [ -z "$ver" ]; then
    echo "ompi-source: libopenmpi-dev is not installed" >&2
    exit 1
fi
pkg=$(dpkg-query -W -f='${source:Package}' libopenmpi-dev)
upstream=${ver#*:}
upstream=${upstream%-*}
tree="$dir/openmpi-$upstream"
if [ -f "$tree/VERSION" ] && [ -d "$tree/opal" ]; then
    echo "$tree"
    exit 0
fi

# dpkg-source unpacks the package and applies Debian's patches
if ! command -v dpkg-source > /dev/null; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "ompi-source: needs dpkg-source; run as root or: sudo apt-get install dpkg-dev" >&2
        exit 1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dpkg-dev > /dev/null
fi

# A source list with one deb-src line per archive the system installs from
apt=$(mktemp -d)
trap 'rm -rf "$apt"' EXIT
mkdir -p "$apt/lists/partial" "$apt/parts"
apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 'Identifier: Packages' |
    sort -u | while read -r uri release component; do
        echo "deb-src $uri $release $component"
    done > "$apt/sources.list"
if [ ! -s "$apt/sources.list" ]; then
    echo "ompi-source: no package archive in the apt configuration (run apt-get update first)" >&2
    exit 1
fi
set -- -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts="$apt/parts" \
       -o Dir::State::Lists="$apt/lists" -o APT::Sandbox::User=root -qq
if ! apt-get "$@" update > "$apt/log" 2>&1; then
    cat "$apt/log" >&2
    echo "ompi-source: cannot read the source indexes of:" >&2
    cat "$apt/sources.list" >&2
    exit 1
fi
cd "$dir"
if ! apt-get "$@" source "$pkg=$ver" > "$apt/log" 2>&1; then
    cat "$apt/log" >&2
    echo "ompi-source: cannot fetch the source package $pkg $ver" >&2
    exit 1
fi
if [ ! -f "$tree/VERSION" ]; then
    echo "ompi-source: $pkg $ver did not unpack into $tree" >&2
    exit 1
fi
rm -f "$dir/${pkg}_"*
echo "$tree"
