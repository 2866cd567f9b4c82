#!/usr/bin/env python3
"""Nodes to depth: how many nodes each engine needs to finish each depth of one search.

    tools/lab/nodes_to_depth.py --book EPD --engine NAME=PATH [--engine NAME=PATH ...]
        [--positions 50] [--plies 12] [--depth 16] [--from-depth 10] [--seed 1] [--out CSV]

The positions: --positions lines drawn from the book (the same for the same seed), each
played on for --plies plies by the first engine at depth 8, so that they are middlegames.
Each engine then searches each position once with `go depth D`, one thread, 16 MiB of hash,
after `ucinewgame`; the last `info depth d ... nodes n` line of each depth gives the nodes the
search had spent when depth d ended. The table printed gives, by depth, the geometric mean of
the nodes over the positions, and the effective branching factor from --from-depth to --depth.
--out writes every position's row (engine, position, depth, nodes, time in ms, seldepth).
Only the Python standard library is needed.
"""

import argparse
import math
import random
import subprocess
import sys


class Engine:
    """A UCI engine driven through pipes."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.until("uciok")
        self.send("setoption name Hash value 16")
        self.send("setoption name Threads value 1")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"the engine ended before '{prefix}'")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def search(self, fen, moves, depth):
        self.send("ucinewgame")
        self.send("isready")
        self.until("readyok")
        position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
        self.send(position)
        self.send(f"go depth {depth}")
        return self.until("bestmove")

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def field(words, name):
    """The value after `name` in an info line's words, or None."""
    if name in words:
        index = words.index(name)
        if index + 1 < len(words):
            return words[index + 1]
    return None


def per_depth(lines):
    """Depth -> (nodes, ms, seldepth) from the last info line of each depth that gives nodes."""
    result = {}
    for line in lines:
        words = line.split()
        if not words or words[0] != "info" or "depth" not in words or "nodes" not in words:
            continue
        if "currmove" in words:
            continue
        depth = int(field(words, "depth"))
        nodes = int(field(words, "nodes"))
        ms = int(field(words, "time") or 0)
        seldepth = int(field(words, "seldepth") or depth)
        result[depth] = (nodes, ms, seldepth)
    return result


def positions(book, count, plies, seed, engine):
    """`count` book lines, each played on for `plies` plies by `engine` at depth 8."""
    with open(book) as f:
        fens = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()]
    chosen = random.Random(seed).sample(fens, count)
    result = []
    for fen in chosen:
        moves = []
        for _ in range(plies):
            lines = engine.search(fen, moves, 8)
            best = lines[-1].split()[1]
            if best in ("(none)", "0000"):
                break
            moves.append(best)
        result.append((fen, moves))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--book", required=True)
    parser.add_argument("--engine", action="append", required=True, help="NAME=PATH")
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--plies", type=int, default=12)
    parser.add_argument("--depth", type=int, default=16)
    parser.add_argument("--from-depth", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out")
    args = parser.parse_args()

    engines = [tuple(spec.split("=", 1)) for spec in args.engine]
    first = Engine(engines[0][1])
    roots = positions(args.book, args.positions, args.plies, args.seed, first)
    first.quit()

    rows = []
    for name, path in engines:
        engine = Engine(path)
        for index, (fen, moves) in enumerate(roots):
            depths = per_depth(engine.search(fen, moves, args.depth))
            for depth, (nodes, ms, seldepth) in sorted(depths.items()):
                rows.append((name, index, depth, nodes, ms, seldepth))
            print(f"{name} {index + 1}/{len(roots)}", file=sys.stderr, end="\r")
        engine.quit()
    print(file=sys.stderr)

    if args.out:
        with open(args.out, "w") as f:
            f.write("engine,position,depth,nodes,ms,seldepth\n")
            for row in rows:
                f.write(",".join(map(str, row)) + "\n")

    depths = range(args.from_depth, args.depth + 1)
    print("depth " + " ".join(f"{name:>22}" for name, _ in engines))
    means = {}
    for depth in depths:
        cells = []
        for name, _ in engines:
            found = [r for r in rows if r[0] == name and r[2] == depth]
            if len(found) < len(roots):
                cells.append(f"{'missing':>22}")
                continue
            nodes = math.exp(sum(math.log(max(r[3], 1)) for r in found) / len(found))
            ms = sum(r[4] for r in found) / len(found)
            means[(name, depth)] = nodes
            cells.append(f"{nodes:>12,.0f} n {ms:>6.0f} ms")
        print(f"{depth:>5} " + " ".join(cells))
    for name, _ in engines:
        low, high = means.get((name, args.from_depth)), means.get((name, args.depth))
        if low and high:
            ebf = (high / low) ** (1 / (args.depth - args.from_depth))
            print(f"{name}: effective branching factor {ebf:.3f} from depth {args.from_depth} to {args.depth}")


if __name__ == "__main__":
    main()
