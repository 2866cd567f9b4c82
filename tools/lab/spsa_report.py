#!/usr/bin/env python3
"""Reports a tools/lab/spsa.py run: where each value started and stands, and its path.

    tools/lab/spsa_report.py --engine BIN --dir DIR [--svg FILE]

BIN is the `tune` build the run used (its `spsa` command gives each tunable's default,
range and c_end); DIR the run's directory (its `log.csv` holds the values after every
iteration). Prints a Markdown table, most moved first: default, value now, range, and the
move in units of c_end (the step the run ends with, so moves of different tunables
compare), beside the noise: how far a value with no effect at all would have moved by
now, one standard deviation, from the run's own spread of wins less losses and its
schedule. A move of less than two of those is no evidence of a better value. `--svg`
draws every value's path over the games played in those units, the four that moved most
named. Exit status 2 when the engine or the log cannot be read.
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys

from spsa import schedule

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 760, 420, 60, 180, 20, 40
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]


class BadInput(Exception):
    """An engine or log that cannot be used."""


def tunables(engine):
    """name -> (default, min, max, c_end, r_end) from `BIN spsa`."""
    try:
        out = subprocess.run([engine, "spsa"], capture_output=True, text=True, timeout=30)
    except OSError as e:
        raise BadInput(f"{engine}: {e.strerror}")
    except subprocess.TimeoutExpired:
        raise BadInput(f"{engine} spsa: no answer in 30 s")
    if out.returncode != 0:
        raise BadInput(f"{engine} spsa: {out.stderr.strip() or 'failed'} (a `tune` build?)")
    found = {}
    for line in out.stdout.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) == 7 and fields[1] == "int":
            found[fields[0]] = tuple(float(x) for x in fields[2:7])
    return found


def read_log(path, known):
    """The log's tunables and its rows (k, games played, {name: value}, wins - losses); a
    row that is not whole (the last one of a run being written) is left out."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror}")
    if len(rows) < 2 or rows[0][:4] != ["k", "wins", "losses", "draws"]:
        raise BadInput(f"{path}: not a tools/lab/spsa.py log, or no iteration yet")
    names = rows[0][4:]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise BadInput(f"{path}: the engine has no tunable {', '.join(unknown)}")
    whole = []
    for r in rows[1:]:
        try:
            if len(r) == 4 + len(names):
                whole.append((int(r[0]), sum(int(x) for x in r[1:4]),
                              dict(zip(names, map(float, r[4:]))), int(r[1]) - int(r[2])))
        except ValueError:
            pass
    if not whole:
        raise BadInput(f"{path}: no whole iteration yet")
    return names, whole


def noise(path, rows, r_end):
    """One standard deviation, in units of c_end, of the move a tunable with no effect on
    the result makes over the log's iterations: each iteration moves it by r_k c_k (wins -
    losses) with a random sign, so the moves add up as independent noise of the spread
    seen. The schedule's length comes from the run's state.json."""
    try:
        with open(path) as f:
            settings = json.load(f)["settings"]
        iterations = settings["games"] // (2 * settings["pairs"])
    except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError):
        raise BadInput(f"{path}: not the state of a tools/lab/spsa.py run")
    unit = dict(c_end=1.0, r_end=r_end)
    steps = 0.0
    for k, _, _, _ in rows:
        c_k, r_k = schedule(unit, k, iterations)
        steps += (r_k * c_k) ** 2
    spread = sum(diff * diff for _, _, _, diff in rows) / len(rows)
    return math.sqrt(steps * spread)


def svg(path, names, rows, known, named):
    games, total = [], 0
    for _, played, _, _ in rows:
        total += played
        games.append(total)
    moves = {n: [0.0] + [(v[n] - known[n][0]) / known[n][3] for _, _, v, _ in rows]
             for n in names}
    games = [0] + games
    span = max(1.0, max(abs(x) for path in moves.values() for x in path))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def xy(g, m):
        return (LEFT + plot_w * g / max(games[-1], 1), TOP + plot_h * (0.5 - m / (2 * span)))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>']
    x0, y0 = xy(0, 0)
    out.append(f'<line x1="{LEFT}" y1="{y0:.1f}" x2="{LEFT + plot_w}" y2="{y0:.1f}" '
               'stroke="#888"/>')
    for m in (span, -span):
        _, y = xy(0, m)
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{m:+.1f}</text>')
    out.append(f'<text x="{LEFT - 6}" y="{y0 + 4:.1f}" text-anchor="end">0</text>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 8}" text-anchor="middle">'
               f'games played ({games[-1]})</text>')
    out.append(f'<text x="14" y="{TOP + plot_h / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {TOP + plot_h / 2})">move from default / c_end</text>')
    for n in [n for n in names if n not in named] + named:
        colour = COLOURS[named.index(n)] if n in named else "#ccc"
        points = " ".join("%.1f,%.1f" % xy(g, m) for g, m in zip(games, moves[n]))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" '
                   f'points="{points}"/>')
    for i, n in enumerate(named):
        out.append(f'<text x="{LEFT + plot_w + 8}" y="{TOP + 16 + 18 * i}" '
                   f'fill="{COLOURS[i]}">{n}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the `tune` build the run used")
    parser.add_argument("--dir", required=True, help="the run's directory")
    parser.add_argument("--svg", help="write the values' paths here")
    args = parser.parse_args()
    known = tunables(args.engine)
    names, rows = read_log(os.path.join(args.dir, "log.csv"), known)
    last = rows[-1][2]
    moved = sorted(names, key=lambda n: -abs(last[n] - known[n][0]) / known[n][3])
    games = sum(played for _, played, _, _ in rows)
    print(f"{len(rows)} iterations, {games} games")
    print()
    state = os.path.join(args.dir, "state.json")
    print("| tunable | default | now | range | moved (c_end) | noise (c_end) |")
    print("| --- | --- | --- | --- | --- | --- |")
    # One figure per distinct r_end (every tunable has the same one today).
    sigma = {known[n][4]: noise(state, rows, known[n][4]) for n in names}
    for n in moved:
        default, low, high, c_end, r_end = known[n]
        print(f"| {n} | {default:.0f} | {last[n]:.1f} | {low:.0f}..{high:.0f} "
              f"| {(last[n] - default) / c_end:+.2f} | {sigma[r_end]:.2f} |")
    if args.svg:
        svg(args.svg, names, rows, known, moved[:4])
        print(f"\nplot: {args.svg}")


if __name__ == "__main__":
    try:
        main()
    except BadInput as e:
        print(f"spsa_report.py: {e}", file=sys.stderr)
        sys.exit(2)
