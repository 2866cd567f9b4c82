#!/usr/bin/env python3
"""Reductions and pruning counted in two instrumented engines on the same positions.

    tools/lab/counters/counters.py --book EPD --rookery PATH --stockfish PATH
        [--positions 50] [--plies 12] [--seed 1] [--depth 13] [--out DIR]

The engines are the builds of rookery.patch and stockfish11.patch (run.sh makes them): each
prints its counters as one JSON line on stderr when it quits. The positions are those of
tools/lab/nodes_to_depth.py with the same arguments (book lines drawn with --seed, each played
on for --plies plies by Rookery at depth 8; the instrumented build searches as the plain one
does). Each engine then searches each position once with `go depth D`, one thread, 16 MiB,
after `ucinewgame`, and quits. The tables printed (Markdown): the mean reduction of the moves
searched with the null window at nodes of depth 3 and more, by node depth, move number, node
type and move class; the share of the quiet moves met at nodes of each depth that each
pruning rule cut; the nodes of each depth and their quiet moves. --out keeps the positions
and both engines' JSON; --tables-only prints the tables again from them, searching nothing.
Only the Python standard library is needed.
"""

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import nodes_to_depth as ntd  # noqa: E402

NODE_TYPES = ["PV", "expected cut", "other"]
CLASSES = ["quiet", "capture, SEE >= 0", "capture, SEE < 0"]
MOVE_BUCKETS = [(2, 3), (4, 6), (7, 12), (13, 24), (25, 999)]
DEPTH_BANDS = [(3, 7), (8, 99)]


class CountingEngine(ntd.Engine):
    """An instrumented engine whose stderr (its counters at `quit`) goes to a file."""

    def __init__(self, path, stderr):
        self.proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            bufsize=1,
        )
        self.send("uci")
        self.until("uciok")
        self.send("setoption name Hash value 16")
        self.send("setoption name Threads value 1")


def counters(path, roots, depth, err_path):
    """The JSON counters of one engine after searching every root to `depth`."""
    with open(err_path, "w") as err:
        engine = CountingEngine(path, err)
        for index, (fen, moves) in enumerate(roots):
            engine.search(fen, moves, depth)
            print(f"{os.path.basename(path)} {index + 1}/{len(roots)}", file=sys.stderr, end="\r")
        engine.quit()
    print(file=sys.stderr)
    with open(err_path) as f:
        lines = [line for line in f if line.startswith("{")]
    return json.loads(lines[-1])


def reduction_mean(data, keep):
    """(moves, mean reduction, share reduced) over the cells [d, m, node, class, n, sum, pos] kept."""
    n = s = p = 0
    for d, m, node, cls, count, total, positive in data["reductions"]:
        if keep(d, m, node, cls):
            n, s, p = n + count, s + total, p + positive
    return n, (s / n if n else float("nan")), (p / n if n else float("nan"))


def cell(stats):
    n, mean, share = stats
    return f"{mean:.2f} ({100 * share:.0f}%)" if n else "-"


def pruning_rows(data):
    kinds = data["kinds"]
    return {row[0]: dict(zip(kinds, row[1:])) for row in data["pruning"]}


def tables(rk, sf, depth):
    out = []
    depths = range(3, depth + 1)
    out.append("Mean reduction of the moves after the first, searched with the null window, at nodes of "
               "depth 3 and more (in brackets the share reduced at all), and how many such moves:")
    out.append("")
    out.append("| node depth | Rookery | moves | Stockfish 11 | moves |")
    out.append("| --- | --- | --- | --- | --- |")
    for d in depths:
        a = reduction_mean(rk, lambda dd, m, t, c, d=d: dd == d)
        b = reduction_mean(sf, lambda dd, m, t, c, d=d: dd == d)
        out.append(f"| {d} | {cell(a)} | {a[0]:,} | {cell(b)} | {b[0]:,} |")
    a = reduction_mean(rk, lambda dd, m, t, c: dd > depth)
    b = reduction_mean(sf, lambda dd, m, t, c: dd > depth)
    if a[0] or b[0]:
        out.append(f"| above {depth} (extended) | {cell(a)} | {a[0]:,} | {cell(b)} | {b[0]:,} |")
    out.append("")

    def banded(title, rows):
        out.append(f"| {title} | Rookery, depth 3-7 | Stockfish 11, 3-7 | Rookery, depth 8+ | Stockfish 11, 8+ |")
        out.append("| --- | --- | --- | --- | --- |")
        for label, keep in rows:
            cells = []
            for low, high in DEPTH_BANDS:
                for data in (rk, sf):
                    cells.append(cell(reduction_mean(
                        data, lambda d, m, t, c, low=low, high=high: low <= d <= high and keep(m, t, c))))
            out.append(f"| {label} | {cells[0]} | {cells[1]} | {cells[2]} | {cells[3]} |")
        out.append("")

    banded("move number", [
        (f"{lo}-{hi}" if hi < 999 else f"{lo}+", lambda m, t, c, lo=lo, hi=hi: lo <= m <= hi)
        for lo, hi in MOVE_BUCKETS
    ])
    banded("node type", [(name, lambda m, t, c, i=i: t == i) for i, name in enumerate(NODE_TYPES)])
    banded("move", [(name, lambda m, t, c, i=i: c == i) for i, name in enumerate(CLASSES)])
    banded("quiet moves by node type", [
        (name, lambda m, t, c, i=i: t == i and c == 0) for i, name in enumerate(NODE_TYPES)
    ])

    out.append("Share of the quiet moves met at nodes of each depth (searched, or cut by a rule) that "
               "each rule cut; Rookery's late move pruning and futility (and history pruning, after "
               "its own move) skip all quiet moves left, counted as the node's legal quiet moves "
               "not handed out; Stockfish 11's late move pruning the same way, its other rules move "
               "by move. Captures: the share of the captures and promotions met that SEE pruning cut.")
    out.append("")
    out.append("| depth | Rookery: LMP | futility | history | SEE | all | quiets met | "
               "Stockfish 11: LMP | futility | cont. history | SEE | all | quiets met | "
               "captures cut, Rookery | Stockfish 11 |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = (pruning_rows(rk), pruning_rows(sf))
    for d in range(1, 11):
        cells = []
        caps = []
        for r in rows:
            k = r.get(d, {})
            rules = [k.get(x, 0) for x in ("lmp", "futility", "history", "see_quiet")]
            met = k.get("quiet_searched", 0) + sum(rules)
            pct = [f"{100 * x / met:.1f}%" if met else "-" for x in rules]
            cells += pct + [f"{100 * sum(rules) / met:.1f}%" if met else "-", f"{met:,}"]
            cmet = k.get("capture_searched", 0) + k.get("see_capture", 0)
            caps.append(f"{100 * k.get('see_capture', 0) / cmet:.1f}%" if cmet else "-")
        out.append(f"| {d} | " + " | ".join(cells + caps) + " |")
    out.append("")
    out.append("Nodes that reached the move loop at each depth (not the root), the share of them that "
               "failed high there, and the quiet moves met and searched there, a node; last, all the "
               "moves searched at the depth, Rookery's over Stockfish 11's:")
    out.append("")
    out.append("| depth | Rookery: nodes | failed high | quiets met | searched | "
               "Stockfish 11: nodes | failed high | quiets met | searched | moves searched, ratio |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for d in range(1, depth + 1):
        cells = []
        searched = [r.get(d, {}).get("quiet_searched", 0) + r.get(d, {}).get("capture_searched", 0)
                    for r in rows]
        for r in rows:
            k = r.get(d, {})
            nodes = k.get("nodes", 0)
            met = k.get("quiet_searched", 0) + sum(
                k.get(x, 0) for x in ("lmp", "futility", "history", "see_quiet"))
            if nodes:
                cells += [f"{nodes:,}", f"{100 * k.get('cutoffs', 0) / nodes:.0f}%",
                          f"{met / nodes:.1f}", f"{k.get('quiet_searched', 0) / nodes:.1f}"]
            else:
                cells += ["-"] * 4
        cells.append(f"{searched[0] / searched[1]:.2f}" if searched[1] else "-")
        out.append(f"| {d} | " + " | ".join(cells) + " |")
    out.append("")
    hs = rk.get("hindsight")
    if hs and hs[0]:
        out.append(f"Rookery's hindsight depth, at the children of reduced moves: {hs[0]:,} children, "
                   f"a ply given back at {100 * hs[1] / hs[0]:.1f}%, one taken at {100 * hs[2] / hs[0]:.1f}%.")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--book")
    parser.add_argument("--rookery", help="the build of rookery.patch")
    parser.add_argument("--stockfish", help="the build of stockfish11.patch")
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--plies", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, default=13)
    parser.add_argument("--out", default=".")
    parser.add_argument("--tables-only", action="store_true",
                        help="print the tables from the JSON kept in --out, searching nothing")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.tables_only:
        with open(os.path.join(args.out, "rookery.json")) as f:
            rk = json.loads([line for line in f if line.startswith("{")][-1])
        with open(os.path.join(args.out, "stockfish11.json")) as f:
            sf = json.loads([line for line in f if line.startswith("{")][-1])
        print(tables(rk, sf, args.depth))
        return

    with open(os.devnull, "w") as null:
        first = CountingEngine(args.rookery, null)
        roots = ntd.positions(args.book, args.positions, args.plies, args.seed, first)
        first.quit()
    with open(os.path.join(args.out, "positions.txt"), "w") as f:
        for fen, moves in roots:
            f.write(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "") + "\n")

    rk = counters(args.rookery, roots, args.depth, os.path.join(args.out, "rookery.json"))
    sf = counters(args.stockfish, roots, args.depth, os.path.join(args.out, "stockfish11.json"))
    print(tables(rk, sf, args.depth))


if __name__ == "__main__":
    main()
