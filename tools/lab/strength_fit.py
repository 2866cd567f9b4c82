#!/usr/bin/env python3
"""Rates limited-strength settings of Rookery on the reference engines' anchored scale.

Reads the text reports of match.py runs (the match runner of the development machines, not part
of this repository): a gauntlet or a two-engine match, the first engine's result against each
opponent. A report is a table after a line starting `opponent `, one row per opponent
(`NAME GAMES WINS DRAWS LOSSES SCORE ...`), and a line `RESULT FIRST_ENGINE ...`; another
runner's results can be written in that form by hand. It rates every engine that is not a
reference by one maximum-likelihood fit over all the games, with the references held at their
anchors. Settings weaker than every reference are rated through their games against stronger
settings, which the references rate in the same fit: the errors printed (95%, from the inverse of
the fit's information matrix) include the uncertainty of the settings they lean on.

Usage: tools/lab/strength_fit.py RESULT.txt...

A setting named `r<digits>` (such as `r2300`) is labelled with those digits; the summary gives
the label minus the fit. The anchors are the references' ratings on the CCRL 40/15 list;
change ANCHORS and re-run to rate the same games on other figures. Exit status 2 when a file
cannot be read, holds no result, or leaves a setting with no path to a reference.
"""

import math
import re
import sys

# Reference engine -> rating on the anchor list (CCRL 40/15).
ANCHORS = {
    "phalanx": 2450,  # Phalanx XXV (Debian phalanx 25)
    "gnuchess": 2620,  # GNU Chess 6.2 (Debian gnuchess 6.2.7)
    "toga2": 2850,  # Toga II 3.0 (Debian toga2 3.0.0.1SE1)
}

ROW = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+[0-9.]+\s")
RESULT = re.compile(r"^RESULT (\S+) ")
FAULT = re.compile(r"^FAULT (\S+): ")
WARN_MORE = re.compile(r"^WARN (\S+): \.\.\. (\d+) more")
WARN = re.compile(r"^WARN (\S+): ")
LABEL = re.compile(r"^r(\d+)$")
K = math.log(10.0) / 400.0


class BadInput(Exception):
    """A result file that cannot be used."""


def expected(rating, opponent):
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def implied(score, opponent):
    """The rating a score implies against one opponent (clamped at 1% and 99%)."""
    score = min(max(score, 0.01), 0.99)
    return opponent - 400.0 * math.log10(1.0 / score - 1.0)


def read(path):
    """(first engine, [(opponent, games, w, d, l)], faults and warnings by engine)."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror}")
    name, rows, faults, warnings = None, [], {}, {}
    in_table = False
    for line in lines:
        if line.startswith("opponent "):
            in_table = True
        elif in_table and (m := ROW.match(line)):
            n, w, d, l = (int(m.group(i)) for i in range(2, 6))
            if n > 0:
                rows.append((m.group(1), n, w, d, l))
        elif m := RESULT.match(line):
            name = m.group(1)
        elif m := FAULT.match(line):
            faults[m.group(1)] = faults.get(m.group(1), 0) + 1
        elif m := WARN_MORE.match(line):
            warnings[m.group(1)] = warnings.get(m.group(1), 0) + int(m.group(2))
        elif m := WARN.match(line):
            warnings[m.group(1)] = warnings.get(m.group(1), 0) + 1
    if name is None or not rows:
        raise BadInput(f"{path}: no match.py result (a RESULT line and its table)")
    return name, rows, faults, warnings


def solve(matrix, rhs):
    """Solves matrix x = rhs by Gaussian elimination with partial pivoting."""
    n = len(rhs)
    a = [row[:] + [rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise BadInput("the games do not tie every setting to a reference by results "
                           "other than clean sweeps (every game won or lost)")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    return [a[i][n] / a[i][i] for i in range(n)]


def inverse(matrix):
    n = len(matrix)
    columns = [solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def unanchored(pairs, players):
    """The players no chain of games that were not clean sweeps ties to a reference."""
    linked = {p: set() for p in set(players) | set(ANCHORS)}
    for a, b, n, pts in pairs:
        if 0 < pts < n:
            linked[a].add(b)
            linked[b].add(a)
    reached, todo = set(ANCHORS), list(ANCHORS)
    while todo:
        for q in linked[todo.pop()]:
            if q not in reached:
                reached.add(q)
                todo.append(q)
    return [p for p in players if p not in reached]


def fit(pairs, players):
    """Maximum-likelihood ratings of `players` from (a, b, games, points of a) pairs, the
    anchors fixed; returns ratings and their covariance (Newton's method on the log-likelihood
    with draws counted as half points)."""
    index = {p: i for i, p in enumerate(players)}
    rating = {p: ANCHORS.get(p, 2000.0) for p in set(players) | set(ANCHORS)}
    for _ in range(100):
        grad = [0.0] * len(players)
        info = [[0.0] * len(players) for _ in players]
        for a, b, n, pts in pairs:
            e = expected(rating[a], rating[b])
            g = K * (pts - n * e)
            h = K * K * n * e * (1.0 - e)
            for x, sign in ((a, 1.0), (b, -1.0)):
                if x in index:
                    grad[index[x]] += sign * g
                    info[index[x]][index[x]] += h
            if a in index and b in index:
                info[index[a]][index[b]] -= h
                info[index[b]][index[a]] -= h
        step = solve(info, grad)
        for p, s in zip(players, step):
            rating[p] += max(-300.0, min(300.0, s))
        if max(abs(s) for s in step) < 1e-6:
            return rating, inverse(info)
    raise BadInput("the fit does not settle: a setting won or lost every game it played")


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    results = [read(path) for path in paths]
    pairs, games, faults, warnings, players = [], {}, {}, {}, []
    for name, rows, file_faults, file_warnings in results:
        for opponent, n, w, d, l in rows:
            pairs.append((name, opponent, n, w + d / 2.0))
            for p in (name, opponent):
                games[p] = games.get(p, 0) + n
                if p not in ANCHORS and p not in players:
                    players.append(p)
        for p, k in file_faults.items():
            faults[p] = faults.get(p, 0) + k
        for p, k in file_warnings.items():
            warnings[p] = warnings.get(p, 0) + k
    loose = unanchored(pairs, players)
    if loose:
        raise BadInput(f"no chain of games that were not clean sweeps ties {', '.join(loose)} "
                       f"to a reference ({', '.join(ANCHORS)}): play them against closer "
                       "opponents")
    rating, covariance = fit(pairs, players)
    error = {p: 1.96 * math.sqrt(max(covariance[i][i], 0.0)) for i, p in enumerate(players)}

    print("| setting | opponent | games | W-D-L | score | implied Elo |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, rows, _, _ in results:
        for i, (o, n, w, d, l) in enumerate(rows):
            score = (w + d / 2.0) / n
            against = f"{o} ({rating[o]:.0f})"
            print(f"| {name if i == 0 else ''} | {against} | {n} | {w}-{d}-{l} "
                  f"| {100 * score:.1f}% | {implied(score, rating[o]):.0f} |")
    print()
    print("| setting | fitted Elo (95%) | label minus fit | games | faults | warnings |")
    print("| --- | --- | --- | --- | --- | --- |")
    for p in sorted(players, key=lambda p: rating[p]):
        label = LABEL.match(p)
        gap = f"{int(label.group(1)) - rating[p]:+.0f}" if label else ""
        print(f"| {p} | {rating[p]:.0f} +/- {error[p]:.0f} | {gap} | {games[p]} "
              f"| {faults.get(p, 0)} | {warnings.get(p, 0)} |")


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except BadInput as e:
        print(f"strength_fit.py: {e}", file=sys.stderr)
        sys.exit(2)
