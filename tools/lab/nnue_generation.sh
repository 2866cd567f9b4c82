#!/bin/sh
# One generation of the learned evaluation: self-play data, training, and a match against the
# evaluation that made the data. Every step can be stopped and run again: datagen appends,
# train resumes from its checkpoint, and a finished step is not repeated.
#
#   tools/lab/nnue_generation.sh GEN DATA_DIR MINUTES [PREVIOUS_NET]
#
# GEN names the generation (gen1, gen2, ...). Data goes to DATA_DIR/GEN/selfplay.games, for
# MINUTES of datagen this run; the net to DATA_DIR/GEN.nnue. Without PREVIOUS_NET the data
# comes from the hand-written evaluation. The data of earlier generations in DATA_DIR is
# trained on too. Needs target/release/rookery (run it from the repository's root), fastchess on
# PATH, and ROOKERY_BOOK naming an opening book for the match: EPD, or PGN (.pgn), such as
# 8moves_v3.pgn of the official-stockfish/books repository.
set -eu
if [ $# -lt 3 ]; then
    sed -n '2,13p' "$0" >&2
    exit 2
fi
gen=$1 data=$2 minutes=$3 previous=${4:-}
book=${ROOKERY_BOOK:-}
if [ -z "$book" ] || [ ! -f "$book" ]; then
    echo "nnue_generation.sh: set ROOKERY_BOOK to an opening book (EPD or PGN) for the match" >&2
    exit 2
fi
if ! command -v fastchess >/dev/null; then
    echo "nnue_generation.sh: fastchess is not on PATH" >&2
    exit 2
fi
rookery=target/release/rookery
threads=$(nproc)
mkdir -p "$data/$gen"
if [ -n "$previous" ]; then eval_flag="--net $previous"; else eval_flag="--hce"; fi

# Self-play for MINUTES (stopped by timeout; the partial game is lost, the rest kept). A rerun
# does not replay games: datagen mixes the positions already written into its seeds. Openings
# are the start position and random plies, never the book the test matches use. Only the
# timeout's own exit status (124) is a normal end; any other failure stops the script.
status=0
timeout "${minutes}m" $rookery datagen --out "$data/$gen" --threads "$threads" --nodes 5000 \
    --seed 1 $eval_flag || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 124 ]; then
    echo "nnue_generation.sh: datagen failed (exit $status)" >&2
    exit "$status"
fi

# Train on every generation's data so far.
dirs=$(find "$data" -mindepth 1 -maxdepth 1 -type d | sort)
# A rerun goes on from the checkpoint. One made on other data or settings is refused and the
# script stops: remove "$data/$gen.ckpt" to train afresh.
$rookery train $dirs --out "$data/$gen.nnue" --threads "$threads" --epochs 15 --batch 1024 \
    --lr 0.003 --wdl 0 --mirror-files --resume

# The new net against the previous evaluation, same search, equal nodes: 100 games, each
# opening played with both colours. fastchess writes config.json where it runs, so it runs in
# DATA_DIR, with absolute paths; its log is DATA_DIR/GEN-match.log.
if [ -n "$previous" ]; then
    old_eval="option.Use NNUE=true" old_net="option.EvalFile=$(readlink -f "$previous")"
else
    old_eval="option.Use NNUE=false" old_net="option.EvalFile=<default>"
fi
engine=$(readlink -f "$rookery") net=$(readlink -f "$data/$gen.nnue") book=$(readlink -f "$book")
case $book in *.pgn) format=pgn ;; *) format=epd ;; esac
(cd "$data" && fastchess \
    -engine cmd="$engine" name=new "option.Use NNUE=true" "option.EvalFile=$net" \
    -engine cmd="$engine" name=old "$old_eval" "$old_net" \
    -each proto=uci nodes=20000 tc=inf option.Hash=16 option.Threads=1 \
    -openings file="$book" format=$format order=random -rounds 50 -repeat \
    -concurrency "$threads" -recover > "$gen-match.log")
grep 'Elo' "$data/$gen-match.log" | tail -n 1
