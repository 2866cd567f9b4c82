#!/usr/bin/env python3
"""Rates limited-strength settings of Rookery on the reference engines' anchored scale.

Reads the text output of ../shared/tools/match.py gauntlets (one file per setting: the
limited engine first, the references after it) and prints, per setting, its result against
each reference, the Elo each result implies, and the maximum-likelihood rating over all its
games with the references held at their anchors, with a 95% interval.

Usage: tools/strength_fit.py RESULT.txt...

The anchors are the references' ratings on the CCRL 40/15 list; change ANCHORS and re-run
to rate the same games on other figures.
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

ROW = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+[0-9.]+")
RESULT = re.compile(r"^RESULT (\S+) ")


def expected(rating, opponent):
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def implied(score, opponent):
    """The rating a score implies against one opponent (clamped at 1% and 99%)."""
    score = min(max(score, 0.01), 0.99)
    return opponent - 400.0 * math.log10(1.0 / score - 1.0)


def fit(rows):
    """Maximum-likelihood rating over (anchor, games, points) rows and its standard error."""

    def slope(r):
        return sum(pts - n * expected(r, a) for a, n, pts in rows)

    lo, hi = 0.0, 4000.0
    for _ in range(100):
        mid = (lo + hi) / 2.0
        if slope(mid) > 0:
            lo = mid
        else:
            hi = mid
    rating = (lo + hi) / 2.0
    k = math.log(10.0) / 400.0
    info = sum(n * expected(rating, a) * (1.0 - expected(rating, a)) * k * k for a, n, _ in rows)
    return rating, 1.0 / math.sqrt(info) if info > 0 else float("inf")


def read(path):
    name, rows = None, []
    for line in open(path):
        if m := RESULT.match(line):
            name = m.group(1)
        elif (m := ROW.match(line)) and m.group(1) in ANCHORS:
            n, w, d, l = (int(m.group(i)) for i in range(2, 6))
            rows.append((m.group(1), n, w, d, l))
    return name, rows


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    print("| setting | reference | games | W-D-L | score | implied Elo | fitted Elo (95%) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for path in paths:
        name, rows = read(path)
        if not rows:
            print(f"{path}: no result rows against {', '.join(ANCHORS)}", file=sys.stderr)
            sys.exit(2)
        rating, error = fit([(ANCHORS[o], n, w + d / 2.0) for o, n, w, d, l in rows])
        for i, (o, n, w, d, l) in enumerate(rows):
            score = (w + d / 2.0) / n
            fitted = f"{rating:.0f} +/- {1.96 * error:.0f}" if i == 0 else ""
            print(
                f"| {name if i == 0 else ''} | {o} ({ANCHORS[o]}) | {n} | {w}-{d}-{l} "
                f"| {100 * score:.1f}% | {implied(score, ANCHORS[o]):.0f} | {fitted} |"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
