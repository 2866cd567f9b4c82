#!/usr/bin/env bash
# Reductions and pruning counted in Rookery and Stockfish 11 on the same positions.
#
#     tools/lab/counters/run.sh STOCKFISH_SRC [DEPTH] [OUT_DIR]
#
# STOCKFISH_SRC: a git clone of Stockfish holding the tag sf_11. Both engines are built in a
# temporary folder, never in place: Rookery at the commit rookery.patch was made against,
# with rookery.patch; Stockfish 11 with stockfish11.patch. Both patches add counters only;
# each build's bench is checked against the plain engine's (the tree searched is the same).
# Then counters.py searches the 50 middlegames of nodes_to_depth.py (--seed 1, --plies 12)
# to DEPTH (13 by default) with both and prints the tables. Everything runs at nice 19, one
# process at a time. BOOK (default ../shared/books/openings.epd from the repository root)
# names the book; ROOKERY_TARGET_DIR a cargo target folder to build in (kept).
set -euo pipefail

SF_SRC=${1:?usage: run.sh STOCKFISH_SRC [DEPTH] [OUT_DIR]}
DEPTH=${2:-13}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(git -C "$HERE" rev-parse --show-toplevel)
OUT=${3:-$PWD/counters-out}
BOOK=${BOOK:-$ROOT/../shared/books/openings.epd}
# The commit rookery.patch applies to, and the plain engines' benches.
BASE=8ddaf5f6787fb442628f00d562c84876f6020063
ROOKERY_BENCH=1789455
SF11_BENCH=5156767

WORK=$(mktemp -d /tmp/counters.XXXXXX)
TARGET=${ROOKERY_TARGET_DIR:-$WORK/target}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BOOK=$(cd "$(dirname "$BOOK")" && pwd)/$(basename "$BOOK")

git clone --quiet --no-checkout "$ROOT" "$WORK/rookery"
git -C "$WORK/rookery" checkout --quiet --detach "$BASE"
git -C "$WORK/rookery" apply "$HERE/rookery.patch"
(cd "$WORK/rookery" && nice -n 19 cargo build --release --quiet --target-dir "$TARGET")
ROOKERY=$TARGET/release/rookery

git clone --quiet --no-checkout "$SF_SRC" "$WORK/sf11"
git -C "$WORK/sf11" checkout --quiet --detach sf_11
# The patch has no context lines (it holds only the lines it adds): --unidiff-zero.
git -C "$WORK/sf11" apply --unidiff-zero "$HERE/stockfish11.patch"
ARCH=x86-64-modern
grep -qw bmi2 /proc/cpuinfo && ARCH=x86-64-bmi2
(cd "$WORK/sf11/src" && nice -n 19 make -j1 build ARCH="$ARCH" COMP=gcc >"$WORK/sf11-build.log" 2>&1)
STOCKFISH=$WORK/sf11/src/stockfish

rookery_bench=$(cd "$WORK" && nice -n 19 "$ROOKERY" bench 2>/dev/null | awk '/ nodes .* nps/ {print $1}' | tail -1)
sf_bench=$(cd "$WORK" && nice -n 19 "$STOCKFISH" bench 2>&1 >/dev/null | awk '/Nodes searched/ {print $4}')
echo "bench: rookery $rookery_bench (plain $ROOKERY_BENCH), stockfish 11 $sf_bench (plain $SF11_BENCH)" >&2
if [ "$rookery_bench" != "$ROOKERY_BENCH" ] || [ "$sf_bench" != "$SF11_BENCH" ]; then
    echo "an instrumented build does not search as the plain engine does" >&2
    exit 1
fi

nice -n 19 python3 "$HERE/counters.py" --book "$BOOK" --rookery "$ROOKERY" --stockfish "$STOCKFISH" \
    --positions 50 --plies 12 --seed 1 --depth "$DEPTH" --out "$OUT" | tee "$OUT/tables.md"
echo "built in $WORK (remove it when done); results in $OUT" >&2
