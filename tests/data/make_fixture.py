#!/usr/bin/env python3
"""Writes tests/data/fixture.pgn: well-known opening lines played on by Rookery itself.

Each game starts with the opening line given below, then Rookery plays both sides with
`go nodes 5000` (one search thread, a fresh `ucinewgame` per game) until the game has PLIES
plies. The games are unfinished, so their result is `*` (polyglot make-book counts it as a
draw, which gives every move a weight above 0). Needs python-chess for SAN; run from the
repository root after `cargo build --release`:

    python3 tests/data/make_fixture.py
    polyglot make-book -pgn tests/data/fixture.pgn -bin tests/data/fixture.bin \
        -max-ply 16 -min-game 1
"""
import subprocess

import chess
import chess.pgn

PLIES = 24
NODES = 5000
OPENINGS = [
    ("Ruy Lopez, closed", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7"),
    ("Ruy Lopez, open", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Nxe4"),
    ("Ruy Lopez, Berlin", "e4 e5 Nf3 Nc6 Bb5 Nf6"),
    ("Italian", "e4 e5 Nf3 Nc6 Bc4 Bc5"),
    ("Two knights", "e4 e5 Nf3 Nc6 Bc4 Nf6"),
    ("Sicilian, Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"),
    ("Sicilian, classical", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 d6"),
    ("French, advance", "e4 e6 d4 d5 e5 c5"),
    ("French, early advance with en passant", "e4 e6 e5 d5 exd6"),
    ("Caro-Kann, advance", "e4 c6 d4 d5 e5 Bf5"),
    ("Scandinavian", "e4 d5 exd5 Qxd5 Nc3 Qa5"),
    ("Queen's gambit declined", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7"),
    ("Queen's gambit accepted", "d4 d5 c4 dxc4"),
    ("King's Indian", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O"),
    ("Nimzo-Indian", "d4 Nf6 c4 e6 Nc3 Bb4"),
    ("English", "c4 e5 Nc3 Nf6"),
    ("Reti", "Nf3 d5 g3 Nf6 Bg2"),
]


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith(prefix):
                return line.split()

    def bestmove(self, moves):
        self.send("position startpos moves " + " ".join(moves))
        self.send(f"go nodes {NODES}")
        return self.wait("bestmove")[1]

    def quit(self):
        self.send("quit")
        self.proc.wait()


def main():
    engine = Engine("./target/release/rookery")
    with open("tests/data/fixture.pgn", "w") as out:
        for round_, (name, line) in enumerate(OPENINGS, 1):
            engine.send("ucinewgame")
            engine.send("isready")
            engine.wait("readyok")
            board = chess.Board()
            for san in line.split():
                board.push_san(san)
            while board.ply() < PLIES and not board.is_game_over():
                uci = engine.bestmove([m.uci() for m in board.move_stack])
                board.push_uci(uci)
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = f"Rookery book fixture: {name}"
            game.headers["Site"] = "tests/data/make_fixture.py"
            game.headers["Date"] = "????.??.??"
            game.headers["Round"] = str(round_)
            game.headers["White"] = "Rookery"
            game.headers["Black"] = "Rookery"
            game.headers["Result"] = "*"
            print(game, file=out, end="\n\n")
    engine.quit()


if __name__ == "__main__":
    main()
