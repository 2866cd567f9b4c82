#!/usr/bin/env bash
# `make release`: the release folder. Linux and Windows binaries for the x86-64
# micro-architecture levels v1 to v4, as release/rookery-VERSION-linux-x86-64-vN and
# release/rookery-VERSION-windows-x86-64-vN.exe (VERSION from Cargo.toml), the licence, and
# SHA256SUMS over all of them.
#
# The builds are meant to be reproducible: the lock file is kept as it is (--locked), the
# folders of the checkout and of cargo's registry are written into the binaries under fixed
# names (--remap-path-prefix), the symbols are stripped, and the Windows linker writes no
# time stamp. Two runs on one commit, in any two folders, give the same bytes.
#
# Each binary this processor can run must give the bench node count of the portable
# `cargo build --release` binary: the Windows ones run under Wine, with a stand-in for one
# Windows 10 library that Wine 8 lacks (tools/ci/wine/bcryptprimitives.c), copied beside
# each binary in a scratch folder for its bench only, never into release/. A level whose
# Linux binary stops on an illegal instruction is skipped, with its Windows binary; any
# other failure or a different count fails the script.
#
# Needs, beyond the Rust toolchain: the Windows target, a MinGW-w64 cross compiler and
# Wine (docs/tools.md#make-release says how to install them).
#   LEVELS="1 3" make release      only those levels
set -euo pipefail
cd "$(dirname "$0")/../.."

cargo=${CARGO:-cargo}
levels=${LEVELS:-1 2 3 4}
linux=x86_64-unknown-linux-gnu
windows=x86_64-pc-windows-gnu
version=$(awk -F'"' '/^\[/ { section = $0 }
    section == "[package]" && /^version *=/ { print $2; exit }' Cargo.toml)
if [ -z "$version" ]; then
    echo "release: no package version in Cargo.toml" >&2
    exit 1
fi

need() {
    if ! command -v "$1" > /dev/null; then
        echo "release: $1 not found; $2 (docs/tools.md#make-release)" >&2
        exit 1
    fi
}
need x86_64-w64-mingw32-gcc "install Debian's gcc-mingw-w64-x86-64"
need wine "install Debian's wine and wine64"
if ! rustup target list --installed 2> /dev/null | grep -qx "$windows"; then
    echo "release: the Rust target $windows is missing; rustup target add $windows" >&2
    exit 1
fi

# The last line of `BINARY bench` (`N nodes M nps`); the status is the binary's.
bench() {
    local out
    out=$("$@" bench 2> /dev/null) || return
    printf '%s\n' "${out##*$'\n'}"
}

# Wine runs a Windows binary from a scratch folder that holds the library stand-in.
stub=target/wine-stub/bcryptprimitives.dll
mkdir -p "$(dirname "$stub")"
x86_64-w64-mingw32-gcc -O2 -shared -o "$stub" tools/ci/wine/bcryptprimitives.c -ladvapi32
bench_under_wine() {
    local scratch status=0
    scratch=$(mktemp -d)
    cp "$1" "$stub" "$scratch/"
    (cd "$scratch" && WINEDEBUG=-all bench wine "./$(basename "$1")") || status=$?
    rm -rf "$scratch"
    return "$status"
}

env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS "$cargo" build --release --locked --bin rookery
reference=$(bench target/release/rookery)
reference_nodes=${reference%% *}
echo "portable build target/release/rookery: $reference"

# The flags that make a build independent of where it ran.
cargo_home=${CARGO_HOME:-$HOME/.cargo}
reproducible="--remap-path-prefix=$PWD=rookery --remap-path-prefix=$cargo_home=cargo -C strip=symbols"

# Builds one level for one target into target/release-vN (its own folder, an explicit
# target keeping RUSTFLAGS off the build scripts) and copies it to $2.
build() {
    local triple=$1 out=$2 cpu=$3 extra=${4:-}
    env -u CARGO_ENCODED_RUSTFLAGS RUSTFLAGS="-C target-cpu=$cpu $reproducible $extra" \
        "$cargo" build --release --locked --bin rookery --target "$triple" \
        --target-dir "target/release-v$level"
    local suffix=
    [ "$triple" = "$windows" ] && suffix=.exe
    cp "target/release-v$level/$triple/release/rookery$suffix" "$out"
}

# Compares one binary's bench with the portable build's; $1 is the status of its run.
check() {
    local status=$1 binary=$2 result=$3
    if [ "$status" != 0 ]; then
        echo "$binary: bench failed with status $status" >&2
        failed=1
    elif [ "${result%% *}" != "$reference_nodes" ]; then
        echo "$binary: bench $result, but the portable build gives $reference_nodes nodes" >&2
        failed=1
    else
        echo "$binary: $result, the same nodes as the portable build"
    fi
}

rm -rf release
mkdir -p release
failed=0
for level in $levels; do
    if [ "$level" = 1 ]; then cpu=x86-64; else cpu=x86-64-v$level; fi
    binary=release/rookery-$version-linux-x86-64-v$level
    exe=release/rookery-$version-windows-x86-64-v$level.exe
    build "$linux" "$binary" "$cpu"
    build "$windows" "$exe" "$cpu" "-C link-arg=-Wl,--no-insert-timestamp"
    status=0
    result=$(bench "./$binary") || status=$?
    if [ "$status" = 132 ]; then
        echo "$binary and $exe: not run, this processor cannot run $cpu code"
        continue
    fi
    check "$status" "$binary" "$result"
    status=0
    result=$(bench_under_wine "$exe") || status=$?
    check "$status" "$exe" "$result"
done
cp LICENSE release/LICENSE
(cd release && sha256sum -- * > SHA256SUMS)
echo "release/SHA256SUMS:"
cat release/SHA256SUMS
exit "$failed"
