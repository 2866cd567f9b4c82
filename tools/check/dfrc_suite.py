#!/usr/bin/env python3
"""Writes a double Fischer random (DFRC) perft suite: perft counts from Rookery, each one
checked against another engine's `go perft` (Stockfish, with UCI_Chess960 on).

    python3 tools/check/dfrc_suite.py [--rookery PATH] [--engine PATH] [--starts N] [--played N]
                                [--depth D] [--seed S] [--out FILE]

Positions, from the seed: N start positions whose white and black back ranks are two
different Chess960 arrangements (Scharnagl numbers 0-959, so per side the bishops stand on
opposite colours and the king between the rooks), then N positions played from further such
start positions by random moves that keep the castling rights (no king or rook move but
castling) until the side to move can castle. Castling rights are written in Shredder-FEN
(the rooks' files). Every depth from 1 to D is counted by both engines; on any difference the
script prints it and exits 1 without writing. Needs python-chess for the random moves.
"""
import argparse
import random
import subprocess
import sys

import chess

# The knights' two places among the five squares left after bishops and queen, by index.
KNIGHTS = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]


def back_rank(n):
    """Chess960 arrangement number n (0-959) in Scharnagl's numbering, as 8 letters."""
    rank = [None] * 8
    n, light = divmod(n, 4)
    rank[2 * light + 1] = "B"
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"
    n, queen = divmod(n, 6)
    rank[[f for f in range(8) if rank[f] is None][queen]] = "Q"
    empty = [f for f in range(8) if rank[f] is None]
    for index in KNIGHTS[n]:
        rank[empty[index]] = "N"
    for f, piece in zip([f for f in range(8) if rank[f] is None], "RKR"):
        rank[f] = piece
    return "".join(rank)


def rights(rank):
    """The castling rights of a start rank, for one side: the rooks' files, h-file first."""
    return "".join(chr(ord("a") + f) for f in range(7, -1, -1) if rank[f] == "R")


def dfrc_start(white, black):
    """The start position with White on arrangement `white` and Black on `black`."""
    w, b = back_rank(white), back_rank(black)
    return (f"{b.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{w} w "
            f"{rights(w).upper()}{rights(b)} - 0 1")


def played(fen, rng):
    """A position reached from `fen` by random rights-keeping moves, once the side to move
    can castle; None when no such position comes within 60 plies."""
    board = chess.Board(fen, chess960=True)
    for ply in range(60):
        if board.is_game_over():
            return None
        if ply >= 6 and any(board.is_castling(m) for m in board.legal_moves):
            return board.fen(shredder=True)
        moves = [m for m in board.legal_moves
                 if board.piece_type_at(m.from_square) not in (chess.KING, chess.ROOK)]
        if not moves:
            return None
        board.push(rng.choice(moves))
    return None


def rookery_count(rookery, fen, depth):
    out = subprocess.run([rookery, "perft", str(depth), fen, "--chess960"],
                         capture_output=True, text=True, check=True).stdout
    return int(out.strip().splitlines()[-1].split(":")[1])


class Uci:
    """A UCI engine that answers `go perft`."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send("setoption name UCI_Chess960 value true")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def until(self, prefix):
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError(f"engine exited before '{prefix}'")

    def perft(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        return int(self.until("Nodes searched").split(":")[1])

    def close(self):
        self.send("quit")
        self.proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rookery", default="target/release/rookery")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--starts", type=int, default=20)
    ap.add_argument("--played", type=int, default=10)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--seed", type=int, default=960)
    ap.add_argument("--out", default="perft/dfrc.epd")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    fens = []

    def pair():
        white = rng.randrange(960)
        black = rng.choice([n for n in range(960) if n != white])
        return white, black

    while len(fens) < args.starts:
        fen = dfrc_start(*pair())
        if fen not in fens:
            fens.append(fen)
    while len(fens) < args.starts + args.played:
        fen = played(dfrc_start(*pair()), rng)
        if fen is not None and fen not in fens:
            fens.append(fen)

    engine = Uci(args.engine)
    lines, differences = [], 0
    for i, fen in enumerate(fens, 1):
        counts = []
        for depth in range(1, args.depth + 1):
            ours, theirs = rookery_count(args.rookery, fen, depth), engine.perft(fen, depth)
            if ours != theirs:
                differences += 1
                print(f"{fen} D{depth}: rookery {ours}, engine {theirs}", file=sys.stderr)
            counts.append(f";D{depth} {ours}")
        lines.append(f"{fen} {' '.join(counts)}")
        print(f"{i}/{len(fens)} {lines[-1]}", file=sys.stderr)
    engine.close()
    if differences:
        print(f"{differences} counts differ; nothing written", file=sys.stderr)
        sys.exit(1)
    header = [
        f"# Double Fischer random positions: {args.starts} start positions, then {args.played} "
        "played to where the side to move can castle.",
        f"# Written by tools/check/dfrc_suite.py --seed {args.seed} --depth {args.depth}: "
        "counts by Rookery, each equal to the checking engine's go perft.",
    ]
    with open(args.out, "w") as f:
        f.write("\n".join(header + lines) + "\n")
    print(f"{len(lines)} positions, every count equal; wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
