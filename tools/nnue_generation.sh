#!/bin/sh
# One generation of the learned evaluation: self-play data, training, and a match against the
# evaluation that made the data. Every step can be stopped and run again: datagen appends,
# train resumes from its checkpoint, and a finished step is not repeated.
#
#   tools/nnue_generation.sh GEN DATA_DIR MINUTES [PREVIOUS_NET]
#
# GEN names the generation (gen1, gen2, ...). Data goes to DATA_DIR/GEN/selfplay.bin, for
# MINUTES of datagen this run; the net to DATA_DIR/GEN.nnue. Without PREVIOUS_NET the data
# comes from the hand-written evaluation. The data of earlier generations in DATA_DIR is
# trained on too. Needs target/release/rookery and ../shared (book, match.py).
set -eu
gen=$1 data=$2 minutes=$3 previous=${4:-}
rookery=target/release/rookery
threads=$(nproc)
mkdir -p "$data/$gen"
if [ -n "$previous" ]; then eval_flag="--net $previous"; else eval_flag="--hce"; fi

# Self-play for MINUTES (stopped by timeout; the partial game is lost, the rest kept). A rerun
# does not replay games: datagen mixes the records already written into its seeds.
timeout "${minutes}m" $rookery datagen --out "$data/$gen" --threads "$threads" --nodes 5000 \
    --book ../shared/books/openings.epd --random-plies 0 --seed 1 $eval_flag || true

# Train on every generation's data so far.
dirs=$(find "$data" -mindepth 1 -maxdepth 1 -type d | sort)
# A checkpoint made on less data is refused (exit 2): then train afresh.
train() {
    $rookery train $dirs --out "$data/$gen.nnue" --threads "$threads" --epochs 15 --batch 1024 \
        --lr 0.003 --wdl 0 --mirror-files "$@"
}
train --resume || train

# The new net against the previous evaluation, same search, equal nodes.
if [ -n "$previous" ]; then
    old="old:Use NNUE=true" old_net="old:EvalFile=$previous"
else
    old="old:Use NNUE=false" old_net="old:EvalFile=<default>"
fi
python3 ../shared/tools/match.py --engine new=$rookery --engine old=$rookery \
    --option "new:Use NNUE=true" --option "new:EvalFile=$data/$gen.nnue" \
    --option "$old" --option "$old_net" \
    --nodes 20000 --games 100 --concurrency "$threads" --quiet | tail -1
