#!/usr/bin/env python3
"""Drive Rookery the way lichess-bot does: python-chess's engine module, lichess-bot's default
`uci_options` (config.yml.default), pondering on, `position startpos moves ...` with the whole
game, clocks with and without increment, and `go movetime`. Two Rookery processes play each
other; every move must be legal and every game must end by the rules or the ply cap.

    python3 tools/check/lichess_check.py target/release/rookery [GAMES]

Prints one line per game and `ok` at the end; exits 1 on any error.
"""
import sys
import time

import chess
import chess.engine

# lichess-bot's default engine block, as shipped.
LICHESS_BOT_OPTIONS = {
    "Move Overhead": 100,
    "Threads": 4,
    "Hash": 512,
    "SyzygyPath": "./syzygy/",
    "UCI_ShowWDL": True,
}


def play_game(binary, game, limits):
    engines = [chess.engine.SimpleEngine.popen_uci(binary) for _ in range(2)]
    try:
        for engine in engines:
            engine.configure(LICHESS_BOT_OPTIONS)
        board = chess.Board()
        clocks = [limits["base"], limits["base"]]
        ponder_hits = 0
        while not board.is_game_over(claim_draw=True) and board.ply() < 160:
            side = 0 if board.turn == chess.WHITE else 1
            if limits.get("movetime"):
                limit = chess.engine.Limit(time=limits["movetime"])
            else:
                limit = chess.engine.Limit(
                    white_clock=clocks[0], black_clock=clocks[1],
                    white_inc=limits["inc"], black_inc=limits["inc"])
            start = time.perf_counter()
            result = engines[side].play(board, limit, ponder=True, info=chess.engine.INFO_SCORE)
            clocks[side] -= time.perf_counter() - start
            if not limits.get("movetime") and clocks[side] < 0:
                raise RuntimeError(f"game {game}: lost on time at ply {board.ply()}")
            if result.move is None or result.move not in board.legal_moves:
                raise RuntimeError(f"game {game}: illegal or no move {result.move} in {board.fen()}")
            if "score" in result.info and "wdl" not in result.info:
                raise RuntimeError(f"game {game}: a score without wdl with UCI_ShowWDL on")
            if result.ponder is not None:
                ponder_hits += 1
            board.push(result.move)
            clocks[side] += limits["inc"]
        outcome = board.outcome(claim_draw=True)
        print(f"game {game}: {board.ply()} plies, {outcome.result() if outcome else 'cap'}, "
              f"{ponder_hits} moves with a ponder move")
    finally:
        for engine in engines:
            engine.quit()


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__, file=sys.stderr if len(sys.argv) < 2 else sys.stdout)
        sys.exit(2 if len(sys.argv) < 2 else 0)
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    variants = [
        {"base": 30.0, "inc": 0.0},          # winc 0, as lichess sends for 0-increment games
        {"base": 10.0, "inc": 0.1},
        {"base": 0.0, "inc": 0.0, "movetime": 0.05},
    ]
    for game in range(games):
        play_game(binary, game, variants[game % len(variants)])
    print("ok")


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # noqa: BLE001
        print(f"error: {e}")
        sys.exit(1)
