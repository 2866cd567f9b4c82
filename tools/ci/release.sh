#!/usr/bin/env bash
# `make release`: Linux binaries for the x86-64 micro-architecture levels v1 to v4, as
# release/rookery-VERSION-linux-x86-64-vN (VERSION from Cargo.toml). Each level builds in a
# target directory of its own. Every binary this processor can run must give the bench node
# count of the portable `cargo build --release` binary; a level whose binary stops on an
# illegal instruction is skipped with a message, any other failure or a different count
# fails the script.
set -euo pipefail
cd "$(dirname "$0")/../.."

cargo=${CARGO:-cargo}
# An explicit target keeps RUSTFLAGS off the build scripts, which run on this processor.
triple=x86_64-unknown-linux-gnu
version=$(awk -F'"' '/^\[/ { section = $0 }
    section == "[package]" && /^version *=/ { print $2; exit }' Cargo.toml)
if [ -z "$version" ]; then
    echo "release: no package version in Cargo.toml" >&2
    exit 1
fi

# The last line of `BINARY bench` (`N nodes M nps`); the status is the binary's.
bench() {
    local out
    out=$("$1" bench 2>/dev/null) || return
    printf '%s\n' "${out##*$'\n'}"
}

env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS "$cargo" build --release --bin rookery
reference=$(bench target/release/rookery)
reference_nodes=${reference%% *}
echo "portable build target/release/rookery: $reference"

mkdir -p release
failed=0
for level in 1 2 3 4; do
    if [ "$level" = 1 ]; then cpu=x86-64; else cpu=x86-64-v$level; fi
    dir=target/release-v$level
    env -u CARGO_ENCODED_RUSTFLAGS RUSTFLAGS="-C target-cpu=$cpu" \
        "$cargo" build --release --bin rookery --target "$triple" --target-dir "$dir"
    binary=release/rookery-$version-linux-x86-64-v$level
    cp "$dir/$triple/release/rookery" "$binary"
    status=0
    result=$(bench "$binary") || status=$?
    if [ "$status" = 132 ]; then
        echo "$binary: skipped, this processor cannot run $cpu code (illegal instruction)"
    elif [ "$status" != 0 ]; then
        echo "$binary: bench failed with status $status" >&2
        failed=1
    elif [ "${result%% *}" != "$reference_nodes" ]; then
        echo "$binary: bench $result, but the portable build gives $reference_nodes nodes" >&2
        failed=1
    else
        echo "$binary: $result, the same nodes as the portable build"
    fi
done
exit "$failed"
