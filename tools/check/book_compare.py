#!/usr/bin/env python3
"""Compares `rookery book BOOK FEN` with polyglot's own listing (xboard command `bk`).

    python3 tools/check/book_compare.py BOOK [--polyglot PATH] [--rookery PATH] [--bfs DEPTH WIDTH]

Without --bfs: the start position and a list of named positions (both colours to move,
castling, a check, en-passant keys), each shown side by side. With --bfs: every position
reached by following the WIDTH heaviest book moves DEPTH plies deep; only differences are
shown. The last line is `N/M positions equal`. Needs python-chess (to walk the book lines and
write FENs) and polyglot; polyglot runs in xboard mode with Rookery as its engine, which it
never asks to search (`force`). Debian's polyglot 2.0.4 aborts on `bk` with `option_get():
unknown option "BookThreshold"` (its option table spells it `BookTreshold`); pass a copy with
that string patched, e.g.

    python3 -c "import sys; d=open('/usr/games/polyglot','rb').read(); \
        open('/tmp/polyglot-bk','wb').write(d.replace(b'BookThreshold\\0', b'BookTreshold\\0\\0'))"
    chmod +x /tmp/polyglot-bk
"""
import argparse
import os
import subprocess
import tempfile

import chess
import chess.polyglot

NAMED = {
    "start": "",
    "1.e4 (b)": "e4",
    "1.d4 (b)": "d4",
    "1.e4 e5 (w)": "e4 e5",
    "Ruy Lopez 4...Nf6, O-O in book (w)": "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6",
    "Ruy Lopez 5.O-O (b)": "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O",
    "1.d4 e6 2.c4, Bb4+ (b)": "d4 e6 c4",
    "Sicilian 1...c5 (w)": "e4 c5",
    "Najdorf move 5 (b)": "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3",
    "KID 5.Nf3, ...O-O (b)": "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3",
    "French 2...d5 (w)": "e4 e6 d4 d5",
    "English 1.c4 (b)": "c4",
    "1.Nf3 d5 (w)": "Nf3 d5",
    "Caro-Kann advance (b)": "e4 c6 d4 d5 e5",
    "QGD 4.Bg5 (b)": "d4 d5 c4 e6 Nc3 Nf6 Bg5",
    "Italian 3.Bc4 (b)": "e4 e5 Nf3 Nc6 Bc4",
    "Giuoco 4.c3 Nf6 5.d4 (b)": "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4",
}


def rookery_listing(rookery, book, fen):
    out = subprocess.run([rookery, "book", book, fen], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    lines = out.stdout.splitlines()
    # Drop the weight and UCI columns: what is left is polyglot's line.
    return [line.rsplit(None, 2)[0] for line in lines], lines


def polyglot_listings(polyglot, rookery, book, fens):
    with tempfile.TemporaryDirectory() as tmp:
        ini = os.path.join(tmp, "polyglot.ini")
        with open(ini, "w") as f:
            f.write(f"[PolyGlot]\nEngineCommand = {os.path.abspath(rookery)}\n"
                    f"Book = true\nBookFile = {os.path.abspath(book)}\n[Engine]\n")
        commands = ["xboard", "protover 2", "new", "force"]
        for fen in fens:
            commands += [f"setboard {fen}", "bk", "ping 1"]
        commands.append("quit")
        out = subprocess.run([polyglot, ini], input="\n".join(commands) + "\n", cwd=tmp,
                             capture_output=True, text=True, timeout=600).stdout
    listings, current = [], []
    for line in out.splitlines():
        if line.startswith(("feature", "PolyGlot", "tellusererror")):
            if line.startswith("tellusererror"):
                raise RuntimeError(line)
            continue
        if line.startswith("pong"):
            listings.append([l for l in current if l.strip()])
            current = []
        else:
            current.append(line.split(" (below")[0].rstrip())
    return listings


def board_after(sans):
    board = chess.Board()
    for san in sans.split():
        board.push_san(san)
    return board


def ep_positions(book, limit=5, depth=9):
    """Book positions with an en-passant capture possible (the file is in the key)."""
    found, seen = [], set()
    with chess.polyglot.open_reader(book) as reader:
        stack = [(chess.Board(), 0)]
        while stack and len(found) < limit:
            board, d = stack.pop()
            if d > depth:
                continue
            for entry in reader.find_all(board):
                child = board.copy()
                child.push(entry.move)
                key = chess.polyglot.zobrist_hash(child)
                if key in seen:
                    continue
                seen.add(key)
                if child.has_pseudo_legal_en_passant() and any(True for _ in reader.find_all(child)):
                    found.append(child)
                stack.append((child, d + 1))
    return found


def bfs(book, depth, width):
    found = []
    with chess.polyglot.open_reader(book) as reader:
        frontier = [chess.Board()]
        for _ in range(depth):
            following = []
            for board in frontier:
                entries = sorted(reader.find_all(board), key=lambda e: -e.weight)[:width]
                for entry in entries:
                    child = board.copy()
                    child.push(entry.move)
                    following.append(child)
            found += following
            frontier = following
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("book")
    parser.add_argument("--polyglot", default="/usr/games/polyglot")
    parser.add_argument("--rookery", default="target/release/rookery")
    parser.add_argument("--bfs", nargs=2, type=int, metavar=("DEPTH", "WIDTH"))
    args = parser.parse_args()

    if args.bfs:
        cases = [(" ".join(m.uci() for m in b.move_stack), b) for b in bfs(args.book, *args.bfs)]
    else:
        cases = [(name, board_after(line)) for name, line in NAMED.items()]
        for board in ep_positions(args.book):
            moves = chess.Board().variation_san(board.move_stack)
            cases.append((f"en passant in the key: {moves}", board))
    # X-FEN en passant: the square is written when a capture is pseudo-legal, which is
    # when the Polyglot key includes the file.
    fens = [board.fen(en_passant="xfen") for _, board in cases]
    theirs = polyglot_listings(args.polyglot, args.rookery, args.book, fens)
    assert len(theirs) == len(fens), (len(theirs), len(fens))
    equal = 0
    for (name, _), fen, polyglot in zip(cases, fens, theirs):
        ours, full = rookery_listing(args.rookery, args.book, fen)
        same = ours == polyglot
        equal += same
        if not args.bfs or not same:
            print(f"== {name}: {'equal' if same else 'DIFFERENT'} ({len(polyglot)} moves)  {fen}")
            for i in range(max(len(full), len(polyglot))):
                a = full[i] if i < len(full) else ""
                b = polyglot[i] if i < len(polyglot) else ""
                print(f"   rookery: {a:<30} polyglot: {b}")
    print(f"{equal}/{len(cases)} positions equal")


if __name__ == "__main__":
    main()
