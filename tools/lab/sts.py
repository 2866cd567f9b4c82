#!/usr/bin/env python3
"""Scores UCI engines on the Strategic Test Suite (STS 1-15): each engine searches every
position for a fixed time on one thread, and its move earns the points the suite gives it
(10 for the best move, fewer for the alternatives the suite lists, 0 for any other).

    tools/lab/sts.py --suite STS1-STS15_LAN_v3.epd --movetime 100 \\
        --engine rookery=target/release/rookery --engine ethereal=/usr/games/ethereal-chess

The suite is public (the STS-Rating repository, `STS1-STS15_LAN_v3.epd`): per position its
`c9` field lists the scored moves in UCI notation and `c8` their points. `--option
NAME:OPT=VALUE` sets a UCI option of one engine (for example `rookery:EvalFile=net.nnue`).
Engines run one after the other in one invocation (one thread each, `--concurrency` positions
at a time), so their scores come from the same machine state. Prints, per engine, the points,
the share of the maximum, the positions where it found the best move, and the share per theme
(the 15 sub-suites of 100 positions). Needs python-chess.
"""

import argparse
import re
import sys
from concurrent.futures import ThreadPoolExecutor

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("sts.py: needs python-chess (pip install chess)")


def fail(message):
    print(f"sts.py: {message}", file=sys.stderr)
    sys.exit(2)


def field(line, name):
    """The value of an EPD operation `name "..."` (quotes dropped), or None."""
    match = re.search(rf'\b{name} "([^"]*)"', line)
    return match.group(1) if match else None


def load_suite(path):
    """[(board, {uci move: points}, theme)] from the EPD file at `path`."""
    positions = []
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        fail(f"cannot read the suite: {e}")
    with f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            fen = " ".join(line.split()[:4]) + " 0 1"
            moves, points, ident = field(line, "c9"), field(line, "c8"), field(line, "id")
            if moves is None or points is None:
                fail(f"{path}:{number}: no c8/c9 fields (use the LAN version of the suite)")
            try:
                board = chess.Board(fen)
            except ValueError as e:
                fail(f"{path}:{number}: bad position: {e}")
            scores = dict(zip(moves.split(), map(int, points.split())))
            for uci in scores:
                if chess.Move.from_uci(uci) not in board.legal_moves:
                    fail(f"{path}:{number}: {uci} is not legal")
            theme = re.sub(r"^STS\(v[\d.]+\)\s*|\.\d+$", "", ident or "?").strip()
            positions.append((board, scores, theme))
    if not positions:
        fail(f"{path}: no positions")
    return positions


def parse_engines(specs, option_specs):
    engines = []
    for spec in specs:
        name, sep, command = spec.partition("=")
        if not sep or not name or not command:
            fail(f"--engine wants NAME=COMMAND, got {spec!r}")
        engines.append((name, command, {}))
    by_name = {name: options for name, _, options in engines}
    for spec in option_specs:
        match = re.fullmatch(r"([^:]+):([^=]+)=(.*)", spec)
        if not match or match.group(1) not in by_name:
            fail(f"--option wants NAME:OPTION=VALUE with a NAME given to --engine, got {spec!r}")
        by_name[match.group(1)][match.group(2)] = match.group(3)
    return engines


def solve(command, options, jobs, movetime, hash_mb):
    """The moves one engine process plays in `jobs` [(index, board)]."""
    try:
        engine = chess.engine.SimpleEngine.popen_uci(command.split())
    except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
        fail(f"cannot start {command}: {e}")
    try:
        engine.configure({"Threads": 1, "Hash": hash_mb, **options})
        played = []
        for index, board in jobs:
            result = engine.play(board, chess.engine.Limit(time=movetime / 1000),
                                 game=object())  # a new game each: no state carried over
            if result.move is None or result.move not in board.legal_moves:
                fail(f"{command}: no legal move in {board.fen()}")
            played.append((index, result.move.uci()))
        return played
    finally:
        engine.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", required=True, help="STS1-STS15_LAN_v3.epd")
    parser.add_argument("--engine", action="append", required=True, help="NAME=COMMAND")
    parser.add_argument("--option", action="append", default=[], help="NAME:OPTION=VALUE")
    parser.add_argument("--movetime", type=int, default=100, help="milliseconds a position")
    parser.add_argument("--hash", type=int, default=16, help="MiB")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--limit", type=int, help="only the first N positions")
    args = parser.parse_args()
    if args.movetime < 1 or args.concurrency < 1 or (args.limit is not None and args.limit < 1):
        fail("--movetime, --concurrency and --limit must be positive")
    positions = load_suite(args.suite)[: args.limit]
    engines = parse_engines(args.engine, args.option)
    best_possible = sum(max(scores.values()) for _, scores, _ in positions)

    print(f"{len(positions)} positions, {args.movetime} ms each, one thread, "
          f"{args.concurrency} at a time")
    for name, command, options in engines:
        jobs = [[] for _ in range(args.concurrency)]
        for index, (board, _, _) in enumerate(positions):
            jobs[index % args.concurrency].append((index, board))
        with ThreadPoolExecutor(args.concurrency) as pool:
            results = pool.map(lambda part: solve(command, options, part, args.movetime,
                                                  args.hash), jobs)
            played = dict(move for part in results for move in part)
        points, found, themes = 0, 0, {}
        for index, (_, scores, theme) in enumerate(positions):
            earned = scores.get(played[index], 0)
            points += earned
            found += earned == max(scores.values())
            got, most = themes.get(theme, (0, 0))
            themes[theme] = (got + earned, most + max(scores.values()))
        print(f"{name}: {points}/{best_possible} points ({100 * points / best_possible:.1f}%), "
              f"best move in {found}/{len(positions)}")
        for theme, (got, most) in themes.items():
            print(f"    {theme}: {100 * got / most:.1f}%")


if __name__ == "__main__":
    main()
