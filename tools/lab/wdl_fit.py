#!/usr/bin/env python3
"""Fits Rookery's win/draw/loss model to the scores one engine gave in fastchess games.

Reads fastchess PGNs, whose moves carry the mover's score as `{+0.27/12 0.160s}` (pawns from
the side to move's view; `+M5`/`-M5` for mates, `{book}` for book moves), keeps the moves of
the engine named by --engine (the White and Black tags), and fits by maximum likelihood the
model Stockfish publishes:

    m      = material of both sides (pawns 1, knights and bishops 3, rooks 5, queens 9),
             clamped to 17..78, divided by 58
    a(m)   = ((A[0] m + A[1]) m + A[2]) m + A[3]       (cubic, the same for b with B)
    P(win) = 1 / (1 + exp((a - v) / b))
    P(loss)= 1 / (1 + exp((a + v) / b))
    P(draw)= 1 - P(win) - P(loss)

with v the score from the side to move's view in the engine's internal units and the outcome
that side's. Book moves, moves without a score and mate scores are left out, and, as in
Stockfish's fit, positions with material outside 17..78 (the engine reads less material as 17)
and scores beyond 400 internal units (Stockfish's fit keeps scores within 4 pawns).

The fit: a and b for each material bucket by Fisher scoring, cubics through those by
weighted least squares, then all eight coefficients refined together, again by Fisher
scoring. It prints the coefficients as Rust array literals for src/engine/wdl.rs, the games
and positions used, and what the model says at 0 cp; --svg draws predicted against observed
win, draw and loss rates by score for a few material ranges; --resample N refits N resamples
of the games (each kept whole) to show how far the figures can be trusted. --validate fits
nothing: it sets the coefficients now in src/engine/wdl.rs against held-out games, predicted
against observed rates by material range and 100-unit score bucket, and the model's draw rate
at 0 with all the material against the games' own. Repeat --engine to use several names'
moves (self-play).

The fit needs scores in internal units. PGNs of a build that reports normalised centipawns
(cp 100 = a 50% chance to win) need --normalised, which turns each score back into internal
units with the coefficients now in src/engine/wdl.rs; --normalised-with FILE takes them from a
copy of that file instead (`git show COMMIT:src/engine/wdl.rs > FILE` for the commit that
played the games), so that games of an older build can be checked against a new fit.
--validate --model FILE checks the coefficients of such a copy (an earlier model) instead
of the file's own.

Usage: tools/lab/wdl_fit.py --engine NAME [--engine NAME]... [--svg docs/wdl.svg] [--resample N]
                        [--normalised | --normalised-with FILE] [--validate [--model FILE]]
                        GAMES.pgn...

Exit status 2 on bad input: an unreadable file, or no scored move of the engine.
"""

import argparse
import math
import os
import random
import re
import statistics
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("wdl_fit.py needs python-chess (pip install chess)")

# Material clamp and divisor of the model (as Stockfish's).
MATERIAL_MIN, MATERIAL_MAX, MATERIAL_UNIT = 17, 78, 58.0
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}

# `+0.27/12`, `-1.05/20`, `0.00/14`, `+M5/30`, `-M4/22`: the first token of a comment.
SCORE = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/(\d+)")

# Tablebase verdicts are reported from here on, never normalised (src/engine/score.rs).
TB_BOUND = 29_872

# Where --normalised reads the current coefficients.
WDL_RS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "..", "..", "src", "engine", "wdl.rs")

WIN, DRAW, LOSS = 0, 1, 2


class BadInput(Exception):
    """Input the fit cannot use: reported with exit status 2."""


def material(board):
    """Material of both sides, pawns 1, minors 3, rooks 5, queens 9."""
    return sum(len(board.pieces(role, colour)) * value
               for role, value in VALUES.items() for colour in chess.COLORS)


def scale(mat):
    """The model's m: material clamped to 17..78, over 58."""
    return min(max(mat, MATERIAL_MIN), MATERIAL_MAX) / MATERIAL_UNIT


def cubic(coefficients, m):
    c = coefficients
    return ((c[0] * m + c[1]) * m + c[2]) * m + c[3]


def sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def probabilities(v, a, b):
    """(win, draw, loss) for score v under a and b."""
    win = sigmoid((v - a) / b)
    loss = sigmoid((-v - a) / b)
    return win, 1.0 - win - loss, loss


def read_coefficients(path):
    """The A and B arrays of src/engine/wdl.rs."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise BadInput(f"cannot read the coefficients of {path}: {e.strerror}")
    except UnicodeDecodeError:
        raise BadInput(f"{path} is not a copy of src/engine/wdl.rs (not UTF-8 text)")
    found = {}
    for name in ("A", "B"):
        match = re.search(r"\bconst " + name + r": \[f64; 4\] = \[([^\]]*)\]", text)
        if not match:
            raise BadInput(f"{path}: no `const {name}: [f64; 4]` to undo the normalisation with")
        found[name] = [float(x.replace("_", "")) for x in match.group(1).split(",") if x.strip()]
    return found["A"], found["B"]


def read_games(paths, engine, normalised_by):
    """Positions (v, material, outcome, game) of the scored moves of the engines named in
    `engine`, and counts (with the results of the games they played)."""
    positions = []
    counts = dict(games=0, games_of_engine=0, moves=0, book=0, unscored=0, mate=0, draws=0)
    for path in paths:
        try:
            handle = open(path, encoding="utf-8", errors="replace")
        except OSError as e:
            raise BadInput(f"cannot read {path}: {e.strerror}")
        with handle:
            while True:
                try:
                    game = chess.pgn.read_game(handle)
                except (ValueError, UnicodeError) as e:
                    raise BadInput(f"{path}: not a PGN file ({e})")
                if game is None:
                    break
                counts["games"] += 1
                if game.errors:
                    continue
                headers = game.headers
                colours = [c for c, tag in ((chess.WHITE, "White"), (chess.BLACK, "Black"))
                           if headers.get(tag) in engine]
                result = {"1-0": chess.WHITE, "0-1": chess.BLACK, "1/2-1/2": None}
                if not colours or headers.get("Result") not in result:
                    continue
                counts["games_of_engine"] += 1
                winner = result[headers["Result"]]
                counts["draws"] += winner is None
                board = game.board()
                for node in game.mainline():
                    mover = board.turn
                    if mover in colours:
                        counts["moves"] += 1
                        comment = node.comment.strip()
                        match = SCORE.match(comment)
                        if comment.startswith("book"):
                            counts["book"] += 1
                        elif not match or int(match.group(4)) == 0:
                            counts["unscored"] += 1
                        elif match.group(2):
                            counts["mate"] += 1
                        else:
                            sign = -1 if match.group(1) == "-" else 1
                            v = sign * round(float(match.group(3)) * 100)
                            mat = material(board)
                            if normalised_by and abs(v) < TB_BOUND:
                                v = round(v * cubic(normalised_by, scale(mat)) / 100)
                            if winner is None:
                                outcome = DRAW
                            else:
                                outcome = WIN if winner == mover else LOSS
                            positions.append((v, mat, outcome, counts["games"]))
                    board.push(node.move)
    return positions, counts


class Model:
    """The negative log-likelihood of positions under a parametrisation of (a, b), with its
    gradient and Fisher information. `design(m)` gives the rows d(a)/d(theta) and
    d(b)/d(theta) for a position of scaled material m."""

    def __init__(self, positions, design):
        # Positions grouped by (v, material, outcome): far fewer distinct ones.
        groups = {}
        for v, mat, outcome, *_ in positions:
            key = (v, scale(mat), outcome)
            groups[key] = groups.get(key, 0) + 1
        self.groups = [(v, m, o, n, design(m)) for (v, m, o), n in groups.items()]
        self.count = len(positions)

    @staticmethod
    def ab(theta, rows):
        da, db = rows
        return (sum(x * t for x, t in zip(da, theta)), sum(x * t for x, t in zip(db, theta)))

    def nll(self, theta):
        total = 0.0
        for v, _, o, n, rows in self.groups:
            a, b = self.ab(theta, rows)
            if a <= 0 or b <= 0:
                return math.inf
            p = probabilities(v, a, b)[o]
            if p <= 0:
                return math.inf
            total -= n * math.log(p)
        return total / self.count

    def gradient_fisher(self, theta):
        size = len(theta)
        grad = [0.0] * size
        fisher = [[0.0] * size for _ in range(size)]
        for v, _, o, n, (da, db) in self.groups:
            a, b = self.ab(theta, (da, db))
            xw, xl = (v - a) / b, (-v - a) / b
            sw, sl = sigmoid(xw), sigmoid(xl)
            dw, dl = sw * (1 - sw), sl * (1 - sl)
            # d(P)/d(a), d(P)/d(b) for win, draw, loss.
            win = (-dw / b, -dw * xw / b)
            loss = (-dl / b, -dl * xl / b)
            draw = (-win[0] - loss[0], -win[1] - loss[1])
            probs = (sw, 1.0 - sw - sl, sl)
            derivs = (win, draw, loss)
            # Gradient of -log P(outcome) in (a, b), then through the design rows.
            ga = -derivs[o][0] / probs[o]
            gb = -derivs[o][1] / probs[o]
            # Fisher information in (a, b): sum over outcomes of dP dP^T / P.
            faa = fab = fbb = 0.0
            for p, (pa, pb) in zip(probs, derivs):
                if p > 0:
                    faa += pa * pa / p
                    fab += pa * pb / p
                    fbb += pb * pb / p
            for i in range(size):
                grad[i] += n * (ga * da[i] + gb * db[i])
                ui = faa * da[i] + fab * db[i]
                wi = fab * da[i] + fbb * db[i]
                row = fisher[i]
                for j in range(size):
                    row[j] += n * (ui * da[j] + wi * db[j])
        c = self.count
        return [g / c for g in grad], [[f / c for f in row] for row in fisher]


def solve(matrix, rhs):
    """Gaussian elimination with partial pivoting; None if singular."""
    size = len(rhs)
    m = [row[:] + [r] for row, r in zip(matrix, rhs)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-300:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, size):
            f = m[r][col] / m[col][col]
            for k in range(col, size + 1):
                m[r][k] -= f * m[col][k]
    x = [0.0] * size
    for r in range(size - 1, -1, -1):
        x[r] = (m[r][size] - sum(m[r][k] * x[k] for k in range(r + 1, size))) / m[r][r]
    return x


def minimise(model, theta, iterations=100):
    """Fisher scoring with a backtracking line search and a little damping."""
    value = model.nll(theta)
    if not math.isfinite(value):
        raise BadInput("the fit's starting point gives a position no chance; too few games?")
    for _ in range(iterations):
        grad, fisher = model.gradient_fisher(theta)
        step = None
        damping = 0.0
        while step is None and damping < 1e6:
            damped = [[f + (damping * fisher[i][i] if i == j else 0.0) for j, f in enumerate(row)]
                      for i, row in enumerate(fisher)]
            step = solve(damped, [-g for g in grad])
            damping = damping * 10 if damping else 1e-6
        if step is None:
            break
        t = 1.0
        while t > 1e-10:
            trial = [x + t * s for x, s in zip(theta, step)]
            trial_value = model.nll(trial)
            if trial_value <= value:
                break
            t /= 2
        else:
            break
        improvement = value - trial_value
        theta, value = trial, trial_value
        if improvement < 1e-12:
            break
    return theta, value


def buckets(positions, least):
    """Consecutive clamped materials merged until each bucket holds `least` positions."""
    by_material = {}
    for p in positions:
        by_material.setdefault(min(max(p[1], MATERIAL_MIN), MATERIAL_MAX), []).append(p)
    out, current = [], []
    for mat in sorted(by_material):
        current.extend(by_material[mat])
        if len(current) >= least:
            out.append(current)
            current = []
    if current:
        if out:
            out[-1].extend(current)
        else:
            out.append(current)
    return out


def least_squares_cubic(points):
    """Weighted least-squares cubic through (m, y, weight) points, highest power first."""
    normal = [[0.0] * 4 for _ in range(4)]
    rhs = [0.0] * 4
    for m, y, w in points:
        powers = [m ** 3, m ** 2, m, 1.0]
        for i in range(4):
            rhs[i] += w * powers[i] * y
            for j in range(4):
                normal[i][j] += w * powers[i] * powers[j]
    return solve(normal, rhs)


def fit(positions, least, limit):
    """Per-bucket (a, b), the cubics through them, and the joint refinement. A bucket whose
    a or b runs beyond 4 x `limit` (scores that barely tell its outcomes apart) has no fit."""
    rows = []
    for bucket in buckets(positions, least):
        outcomes = [p[2] for p in bucket]
        ms = [scale(p[1]) for p in bucket]
        row = dict(low=min(p[1] for p in bucket), high=max(p[1] for p in bucket),
                   m=sum(ms) / len(ms), n=len(bucket), a=None, b=None, nll=None,
                   wdl=[outcomes.count(k) / len(bucket) for k in (WIN, DRAW, LOSS)])
        rows.append(row)
        if WIN not in outcomes or LOSS not in outcomes or DRAW not in outcomes:
            continue
        model = Model(bucket, lambda m: ((1.0, 0.0), (0.0, 1.0)))
        try:
            (a, b), value = minimise(model, [150.0, 60.0])
        except BadInput:
            continue
        if max(a, b) <= 4 * limit:
            row.update(a=a, b=b, nll=value)
    fitted = [r for r in rows if r["a"] is not None]
    if len(fitted) < 4:
        raise BadInput(f"only {len(fitted)} material buckets have a fit; "
                       "a cubic needs 4 (more games, or a smaller --bucket)")
    start_a = least_squares_cubic([(r["m"], r["a"], r["n"]) for r in fitted])
    start_b = least_squares_cubic([(r["m"], r["b"], r["n"]) for r in fitted])

    def design(m):
        powers = (m ** 3, m ** 2, m, 1.0)
        return (powers + (0.0,) * 4, (0.0,) * 4 + powers)

    model = Model(positions, design)
    # From the cubics through the buckets, and from constants (the buckets' medians), in case
    # those cubics dip below zero somewhere or lead astray; the better fit is kept.
    median_a = sorted(r["a"] for r in fitted)[len(fitted) // 2]
    median_b = sorted(r["b"] for r in fitted)[len(fitted) // 2]
    starts = [start_a + start_b, [0.0, 0.0, 0.0, median_a, 0.0, 0.0, 0.0, median_b]]
    best = None
    for start in starts:
        if not math.isfinite(model.nll(start)):
            continue
        theta, nll = minimise(model, start)
        if best is None or nll < best[1]:
            best = (theta, nll)
    if best is None:
        raise BadInput("no starting point gives every position a chance; too few games?")
    return rows, start_a + start_b, best[0], best[1], model


def rust_array(name, values):
    body = ", ".join(f"{v:.3f}" for v in values)
    return f"const {name}: [f64; 4] = [{body}];"


def svg_plot(path, positions, coeffs, ranges, limit):
    """Observed (dots) and predicted (lines) win, draw and loss rates by score bucket, one
    panel per material range."""
    A, B = coeffs[:4], coeffs[4:]
    width, height = 320, 300
    left, right, top, bottom = 48, 12, 34, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    step = 50 if limit > 300 else 25
    colours = ("#2e7d32", "#757575", "#c62828")
    names = ("win", "draw", "loss")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * len(ranges)}" '
           f'height="{height + 28}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width * len(ranges)}" height="{height + 28}" fill="white"/>']

    def x_of(v):
        return left + (v + limit) / (2 * limit) * plot_w

    def y_of(p):
        return top + (1 - p) * plot_h

    for index, (low, high) in enumerate(ranges):
        ox = index * width
        inside = [p for p in positions if low <= p[1] <= high and abs(p[0]) <= limit]
        out.append(f'<g transform="translate({ox},0)">')
        name = f"material {low}-{high}" if low > 0 else f"material up to {high}"
        out.append(f'<text x="{left + plot_w / 2}" y="16" text-anchor="middle" font-size="12">'
                   f'{name} ({len(inside)} positions)</text>')
        out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" '
                   'fill="none" stroke="#444"/>')
        for p in (0.0, 0.25, 0.5, 0.75, 1.0):
            y = y_of(p)
            out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" '
                       'stroke="#ddd"/>')
            out.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end">{p:.2f}</text>')
        for v in range(-limit, limit + 1, limit // 2):
            x = x_of(v)
            out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" '
                       'stroke="#ddd"/>')
            out.append(f'<text x="{x:.1f}" y="{top + plot_h + 14}" text-anchor="middle">{v}</text>')
        out.append(f'<text x="{left + plot_w / 2}" y="{height - 8}" text-anchor="middle">'
                   'score (internal units, side to move)</text>')
        if not inside:
            out.append('</g>')
            continue
        # Predicted: the model averaged over this range's materials.
        mats = {}
        for p in inside:
            mats[p[1]] = mats.get(p[1], 0) + 1
        for k in range(3):
            points = []
            for v in range(-limit, limit + 1, 5):
                total = 0.0
                for mat, n in mats.items():
                    m = scale(mat)
                    total += n * probabilities(v, cubic(A, m), cubic(B, m))[k]
                points.append(f"{x_of(v):.1f},{y_of(total / len(inside)):.1f}")
            out.append(f'<polyline points="{" ".join(points)}" fill="none" '
                       f'stroke="{colours[k]}" stroke-width="1.5"/>')
        # Observed: rates in score buckets with at least 20 positions.
        for centre in range(-limit, limit + 1, step):
            bucket = [p for p in inside if abs(p[0] - centre) * 2 < step
                      or (abs(p[0] - centre) * 2 == step and p[0] < centre)]
            if len(bucket) < 20:
                continue
            for k in range(3):
                rate = sum(1 for p in bucket if p[2] == k) / len(bucket)
                out.append(f'<circle cx="{x_of(centre):.1f}" cy="{y_of(rate):.1f}" r="3" '
                           f'fill="{colours[k]}" fill-opacity="0.75"/>')
        out.append('</g>')
    legend_y = height + 14
    for k in range(3):
        x = 60 + k * 110
        out.append(f'<circle cx="{x}" cy="{legend_y - 4}" r="3" fill="{colours[k]}"/>')
        out.append(f'<line x1="{x + 8}" y1="{legend_y - 4}" x2="{x + 28}" y2="{legend_y - 4}" '
                   f'stroke="{colours[k]}" stroke-width="1.5"/>')
        out.append(f'<text x="{x + 34}" y="{legend_y}">{names[k]}</text>')
    out.append(f'<text x="{60 + 3 * 110}" y="{legend_y}">dots: observed in {step}-unit score '
               'buckets (20 positions or more); lines: the fitted model</text>')
    out.append('</svg>')
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(out) + "\n")
    except OSError as e:
        raise BadInput(f"cannot write {path}: {e.strerror}")


def resample(kept, args):
    """Refits resamples of the games, drawn with replacement (seeded: repeatable), and prints
    the mean and standard deviation of a(m) and of the draw rate at 0."""
    by_game = {}
    for p in kept:
        by_game.setdefault(p[3], []).append(p)
    games = list(by_game.values())
    rng = random.Random(1)
    materials = (78, 58, 30, 17)
    found = {mat: [] for mat in materials}
    for _ in range(args.resample):
        sample = [p for _ in games for p in rng.choice(games)]
        try:
            theta = fit(sample, args.bucket, args.max_score)[2]
        except BadInput:
            continue
        for mat in materials:
            a, b = cubic(theta[:4], scale(mat)), cubic(theta[4:], scale(mat))
            found[mat].append((a, probabilities(0, a, b)[1]))
    fits = len(found[materials[0]])
    print(f"\n{fits} of {args.resample} resamples of {len(games)} games fitted: "
          "mean and standard deviation")
    if fits < 2:
        return
    print("material      a(m)            draw at 0")
    for mat in materials:
        a = [x[0] for x in found[mat]]
        d = [x[1] for x in found[mat]]
        print(f"{mat:8}  {statistics.mean(a):6.1f} ± {statistics.stdev(a):5.1f}   "
              f"{statistics.mean(d):5.3f} ± {statistics.stdev(d):5.3f}")


def validate(kept, games, draws, A, B, limit):
    """Predicted against observed win, draw and loss rates of held-out positions, by
    material range and score bucket, under the coefficients A and B; and the model's draw
    rate at 0 with all the material against the games' own draw rate."""
    step = 100
    print(f"held-out positions: {len(kept)} (scores in internal units; predicted is the "
          "model's mean over the bucket's positions)")
    print()
    print("material  score        positions   predicted win/draw/loss   observed win/draw/loss")
    for low, high in ((17, 30), (31, 55), (56, 78)):
        for centre in range(-limit + step // 2, limit, step):
            bucket = [p for p in kept if low <= p[1] <= high
                      and centre - step // 2 <= p[0] < centre + step // 2]
            if not bucket:
                continue
            predicted = [0.0, 0.0, 0.0]
            for v, mat, *_ in bucket:
                m = scale(mat)
                for k, q in enumerate(probabilities(v, cubic(A, m), cubic(B, m))):
                    predicted[k] += q / len(bucket)
            observed = [sum(1 for p in bucket if p[2] == k) / len(bucket) for k in range(3)]
            span = f"{centre - step // 2:+d}..{centre + step // 2 - 1:+d}"
            print(f"{low:3}-{high:<3}   {span:>11}  {len(bucket):9}     "
                  f"{predicted[0]:5.3f} {predicted[1]:5.3f} {predicted[2]:5.3f}"
                  f"        {observed[0]:5.3f} {observed[1]:5.3f} {observed[2]:5.3f}")
    nll = -sum(math.log(max(probabilities(v, cubic(A, scale(mat)), cubic(B, scale(mat)))[o],
                            1e-12))
               for v, mat, o, _ in kept) / len(kept)
    print()
    print(f"held-out log-loss of the model: {nll:.5f} nats a position")
    a, b = cubic(A, scale(MATERIAL_MAX)), cubic(B, scale(MATERIAL_MAX))
    model_draw = probabilities(0, a, b)[1]
    rate = draws / games
    print(f"draw rate at 0 with all the material ({MATERIAL_MAX}): model {model_draw:.3f}; "
          f"the games drew {draws} of {games} ({rate:.3f}): "
          f"{abs(model_draw - rate) * 100:.1f} points apart")


def main():
    parser = argparse.ArgumentParser(
        description="Fits the win/draw/loss model to one engine's scores in fastchess PGNs.")
    parser.add_argument("pgn", nargs="+", help="fastchess PGN files")
    parser.add_argument("--engine", required=True, action="append",
                        help="the engine whose moves are used, as the White/Black tags name it "
                             "(repeat it for self-play: each name's moves are used)")
    parser.add_argument("--max-score", type=int, default=400,
                        help="leave out scores beyond this, in internal units (default 400)")
    parser.add_argument("--material-min", type=int, default=MATERIAL_MIN,
                        help=f"leave out positions with less material (default {MATERIAL_MIN})")
    parser.add_argument("--material-max", type=int, default=MATERIAL_MAX,
                        help=f"leave out positions with more material (default {MATERIAL_MAX})")
    parser.add_argument("--bucket", type=int, default=400,
                        help="least positions per material bucket of the first step (default 400)")
    scale = parser.add_mutually_exclusive_group()
    scale.add_argument("--normalised", action="store_true",
                       help="the scores are normalised centipawns: undo that with the "
                            "coefficients of src/engine/wdl.rs")
    scale.add_argument("--normalised-with", metavar="WDL_RS",
                       help="as --normalised, with the coefficients of this copy of "
                            "src/engine/wdl.rs: the one the build that played the games was "
                            "made with, when the file now holds others")
    parser.add_argument("--svg", help="write the plot of predicted against observed rates here")
    parser.add_argument("--validate", action="store_true",
                        help="fit nothing: compare the coefficients of src/engine/wdl.rs with "
                             "held-out games, by material and score bucket")
    parser.add_argument("--model", metavar="WDL_RS",
                        help="with --validate: check the coefficients of this copy of "
                             "src/engine/wdl.rs instead of the file's own (an earlier model)")
    parser.add_argument("--resample", type=int, default=0, metavar="N",
                        help="refit N resamples of the games (each game kept whole) and print "
                             "the spread of a and of the draw rate at 0")
    args = parser.parse_args()
    try:
        run(args)
    except BadInput as e:
        print(f"wdl_fit.py: {e}", file=sys.stderr)
        sys.exit(2)


def run(args):
    if args.normalised_with:
        normalised_by = read_coefficients(args.normalised_with)[0]
    else:
        normalised_by = read_coefficients(WDL_RS)[0] if args.normalised else None
    positions, counts = read_games(args.pgn, set(args.engine), normalised_by)
    names = "', '".join(args.engine)
    if counts["games"] == 0:
        raise BadInput(f"no games in {', '.join(args.pgn)}")
    if counts["games_of_engine"] == 0:
        raise BadInput(f"no finished game of an engine named '{names}' "
                       f"in {counts['games']} games")
    in_range = [p for p in positions if args.material_min <= p[1] <= args.material_max]
    kept = [p for p in in_range if abs(p[0]) <= args.max_score]
    if not kept:
        raise BadInput(f"no scored move of '{names}' within ±{args.max_score} "
                       f"at material {args.material_min}-{args.material_max}")
    if args.model and not args.validate:
        raise BadInput("--model names the coefficients --validate checks: give --validate")
    if args.validate:
        A, B = read_coefficients(args.model or WDL_RS)
        print(f"games: {counts['games']} read, {counts['games_of_engine']} of '{names}'")
        validate(kept, counts["games_of_engine"], counts["draws"], A, B, args.max_score)
        return
    rows, start, theta, nll, model = fit(kept, args.bucket, args.max_score)
    A, B = theta[:4], theta[4:]

    print(f"games: {counts['games']} read, {counts['games_of_engine']} of '{names}'")
    print(f"moves of '{names}': {counts['moves']}; left out: {counts['book']} book, "
          f"{counts['unscored']} without a score, {counts['mate']} mate scores, "
          f"{len(positions) - len(in_range)} with material outside "
          f"{args.material_min}-{args.material_max}, "
          f"{len(in_range) - len(kept)} beyond ±{args.max_score}")
    print(f"positions fitted: {len(kept)}")
    print()
    print("material   positions      a       b     win   draw   loss  (observed)")
    for r in rows:
        w, d, l = r["wdl"]
        ab = "  no fit        " if r["a"] is None else f"{r['a']:7.1f} {r['b']:7.1f}"
        print(f"{r['low']:3}-{r['high']:<3}  {r['n']:9}  {ab}  {w:5.3f}  {d:5.3f}  {l:5.3f}")
    print()
    print(f"cubics through the buckets: a {[round(x, 3) for x in start[:4]]}, "
          f"b {[round(x, 3) for x in start[4:]]}: "
          f"{model.nll(start):.5f} nats a position")
    fitted = [r for r in rows if r["nll"] is not None]
    bucketed = sum(r["nll"] * r["n"] for r in fitted) / sum(r["n"] for r in fitted)
    print(f"joint fit: {nll:.5f} nats a position (the buckets with a fit, each on its own: "
          f"{bucketed:.5f})")
    print()
    print(rust_array("A", A))
    print(rust_array("B", B))
    print()
    print("material      a(m)    b(m)   at 0: win  draw  loss   at +100 units: win  draw  loss")
    for mat in (78, 70, 58, 45, 30, 17):
        m = scale(mat)
        a, b = cubic(A, m), cubic(B, m)
        w, d, l = probabilities(0, a, b)
        w1, d1, l1 = probabilities(100, a, b)
        print(f"{mat:8}  {a:8.1f} {b:7.1f}    {w:6.3f} {d:5.3f} {l:5.3f}"
              f"                 {w1:5.3f} {d1:5.3f} {l1:5.3f}")
    if args.resample:
        resample(kept, args)
    if args.svg:
        ranges = [(17, 30), (31, 55), (56, 78)]
        svg_plot(args.svg, kept, theta, ranges, min(args.max_score, 400))
        print(f"\nplot: {args.svg}")


if __name__ == "__main__":
    main()
