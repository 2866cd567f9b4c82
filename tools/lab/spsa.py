#!/usr/bin/env python3
"""A local SPSA tuner for Rookery's tunables, resumable after a kill.

    tools/lab/spsa.py --engine BIN --dir DIR [--group NAME | --params A,B,C]
                  [--games G] [--pairs P] [--nodes N | --tc TC] [--book EPD]
                  [--concurrency C] [--seed S]

BIN is a `tune` build (`cargo build --release --features tune`); `BIN spsa` lists the
tunables with OpenBench's SPSA input (name, int, default, min, max, c_end, r_end). Every
iteration perturbs each chosen tunable by +/-c_k (a random sign per tunable), plays P
game pairs (each opening with colours swapped) between the two perturbed engines in
fastchess, and moves every value by r_k * c_k * (wins - losses of the + side) * sign.
The schedule is OpenBench's: over a run of I iterations (G games / 2P),
    c_k = c_end * (I / k)^gamma,     a_k = r_end * c_end^2 * ((A + I) / (A + k))^alpha,
    r_k = a_k / c_k^2,  A = I / 10,  alpha = 0.602,  gamma = 0.101.

DIR keeps the run: `state.json` (written after each iteration; a rerun with the same DIR
goes on where it stopped, and refuses other settings), `log.csv` (one line per
iteration: k, wins, losses, draws, then each value), and `values.txt`, the current values
as lines that paste back into the `tunables!` block of src/engine/params.rs. Groups:
pruning, extensions, ordering, time (see GROUPS). The openings come from --book, or from the
file the environment variable ROOKERY_BOOK names; one of the two is required.
"""

import argparse
import csv
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

# The opening book: --book, else the environment's ROOKERY_BOOK (an EPD file, one position a
# line, or a PGN file, such as 8moves_v3.pgn of the official-stockfish/books repository).
BOOK_VARIABLE = "ROOKERY_BOOK"


def book_format(path):
    """fastchess's name for the book's format: PGN for a .pgn file, else EPD."""
    return "pgn" if path.lower().endswith(".pgn") else "epd"
ALPHA, GAMMA = 0.602, 0.101

# Tunables by name prefix. The search's groups hold 20-30 values of rules that interact:
# the pruning margins decide which nodes are searched at all, the extensions and
# reductions how deep the rest go, the ordering values what is tried first.
GROUPS = {
    "pruning": ("razor_", "rfp_", "nmp_", "probcut_", "futility_", "lmp_", "see_prune_",
                "see_quiet_", "qs_"),
    "extensions": ("aspiration_", "iir_", "se_", "lmr_", "root_lmr_", "hindsight_", "history_",
                   "prior_move_", "capture_history_", "correction_", "eval_", "see_"),
    "time": ("tm_",),
}


def fail(message):
    print(f"spsa.py: {message}", file=sys.stderr)
    sys.exit(2)


def tunables(engine):
    """The engine's tunables as dicts, from `ENGINE spsa`."""
    out = subprocess.run([engine, "spsa"], capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"{engine} spsa: {out.stderr.strip() or 'failed'} (a `tune` build is needed)")
    found = []
    for line in out.stdout.splitlines():
        name, kind, default, low, high, c_end, r_end = [f.strip() for f in line.split(",")]
        if kind != "int":
            fail(f"unexpected line from {engine} spsa: {line}")
        found.append(dict(name=name, default=int(default), min=int(low), max=int(high),
                          c_end=float(c_end), r_end=float(r_end)))
    return found


def choose(all_tunables, group, names):
    """The tunables a run tunes: a group's, or the named ones."""
    if names:
        wanted = names.split(",")
        by_name = {t["name"]: t for t in all_tunables}
        unknown = [n for n in wanted if n not in by_name]
        if unknown:
            fail(f"unknown tunables: {', '.join(unknown)}")
        return [by_name[n] for n in wanted]
    if group not in GROUPS:
        fail(f"unknown group {group!r}; groups: {', '.join(GROUPS)}")
    prefixes = GROUPS[group]
    chosen = [t for t in all_tunables if t["name"].startswith(prefixes)]
    if group == "extensions":
        chosen = [t for t in chosen if not t["name"].startswith(("see_prune_", "see_quiet_"))]
    return chosen


def schedule(t, k, iterations):
    """(c_k, r_k) of tunable t at iteration k (1-based) of a run of `iterations`."""
    big_a = iterations / 10
    c_k = t["c_end"] * (iterations / k) ** GAMMA
    a_k = t["r_end"] * t["c_end"] ** 2 * ((big_a + iterations) / (big_a + k)) ** ALPHA
    return c_k, a_k / c_k ** 2


def play(args, plus, minus, k):
    """Plays args.pairs game pairs of `plus` against `minus` (dicts of option values);
    returns (wins, losses, draws) of plus."""
    def engine(name, values):
        return ["-engine", f"cmd={args.engine}", f"name={name}"] + [
            f"option.{n}={v}" for n, v in values.items()]
    limit = [f"nodes={args.nodes}", "tc=inf"] if args.tc is None else [f"tc={args.tc}"]
    with tempfile.TemporaryDirectory() as work:
        command = (["fastchess"] + engine("plus", plus) + engine("minus", minus)
                   + ["-each", "proto=uci", "option.Hash=16", "option.Threads=1"] + limit
                   + ["-openings", f"file={args.book}", f"format={book_format(args.book)}",
                      "order=random",
                      "-srand", str(args.seed * 1_000_003 + k),
                      "-rounds", str(args.pairs), "-repeat", "-concurrency", str(args.concurrency),
                      "-recover"])
        out = subprocess.run(command, cwd=work, capture_output=True, text=True)
    text = out.stdout + out.stderr
    found = re.findall(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)", text)
    if out.returncode != 0 or not found:
        fail(f"fastchess failed (exit {out.returncode}):\n{text[-2000:]}")
    games, wins, losses, draws = map(int, found[-1])
    if games != 2 * args.pairs:
        fail(f"fastchess played {games} games, not {2 * args.pairs}:\n{text[-2000:]}")
    return wins, losses, draws


def write_atomically(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def paste_back(chosen, theta):
    """The current values as lines of the `tunables!` block."""
    lines = []
    for t in chosen:
        value = round(theta[t["name"]])
        lines.append(f"    {t['name']} = {value}, {t['min']}..={t['max']}, {round(t['c_end'])};"
                     f"  // default {t['default']}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="a `tune` build of rookery")
    parser.add_argument("--dir", required=True, help="where the run's state and log live")
    parser.add_argument("--group", default="pruning", help=f"one of {', '.join(GROUPS)}")
    parser.add_argument("--params", help="comma-separated tunables (instead of a group)")
    parser.add_argument("--games", type=int, default=10_000, help="games the run plays")
    parser.add_argument("--pairs", type=int, default=8, help="game pairs per iteration")
    parser.add_argument("--nodes", type=int, default=20_000, help="nodes per move")
    parser.add_argument("--tc", help="a time control instead of a node limit (e.g. 1+0.01)")
    parser.add_argument("--book", default=os.environ.get(BOOK_VARIABLE),
                        help=f"EPD or PGN openings (default: the file ${BOOK_VARIABLE} names)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.pairs < 1 or args.games < 2 * args.pairs or args.nodes < 1 or args.concurrency < 1:
        fail("--pairs, --nodes and --concurrency must be positive and --games at least 2 x pairs")
    if not os.access(args.engine, os.X_OK):
        fail(f"{args.engine} is not an executable")
    if not args.book:
        fail(f"no opening book: give --book EPD or set {BOOK_VARIABLE}")
    if not os.path.isfile(args.book):
        fail(f"no opening book at {args.book}")
    # fastchess runs in a temporary directory: relative paths would not reach from there.
    args.engine, args.book = os.path.abspath(args.engine), os.path.abspath(args.book)

    chosen = choose(tunables(args.engine), args.group, args.params)
    if not chosen:
        fail("no tunable chosen")
    if args.tc is None and any(t["name"].startswith("tm_") for t in chosen):
        fail("time management tunables need a clock: give --tc (for example 1+0.01)")
    iterations = args.games // (2 * args.pairs)
    settings = dict(names=[t["name"] for t in chosen], games=args.games, pairs=args.pairs,
                    nodes=args.nodes if args.tc is None else None, tc=args.tc, seed=args.seed)
    os.makedirs(args.dir, exist_ok=True)
    state_path = os.path.join(args.dir, "state.json")
    if os.path.exists(state_path):
        with open(state_path) as f:
            state = json.load(f)
        if state["settings"] != settings:
            fail(f"{state_path} was made with other settings: {state['settings']}")
        if state["k"] >= iterations:
            print(f"the run has finished ({iterations} iterations)", file=sys.stderr)
        else:
            print(f"resuming at iteration {state['k'] + 1} of {iterations}", file=sys.stderr)
    else:
        state = dict(settings=settings, k=0, theta={t["name"]: float(t["default"]) for t in chosen})
    log_path = os.path.join(args.dir, "log.csv")
    if not os.path.exists(log_path):
        with open(log_path, "w", newline="") as f:
            csv.writer(f).writerow(["k", "wins", "losses", "draws"] + settings["names"])

    theta = state["theta"]
    while state["k"] < iterations:
        k = state["k"] + 1
        rng = random.Random(args.seed * 1_000_003 + k)
        plus, minus, steps = {}, {}, {}
        for t in chosen:
            name = t["name"]
            c_k, r_k = schedule(t, k, iterations)
            sign = rng.choice((-1, 1))
            plus[name] = min(t["max"], max(t["min"], round(theta[name] + c_k * sign)))
            minus[name] = min(t["max"], max(t["min"], round(theta[name] - c_k * sign)))
            steps[name] = (c_k, r_k, sign)
        wins, losses, draws = play(args, plus, minus, k)
        for t in chosen:
            name = t["name"]
            c_k, r_k, sign = steps[name]
            moved = theta[name] + r_k * c_k * (wins - losses) * sign
            theta[name] = min(t["max"], max(t["min"], moved))
        state["k"] = k
        write_atomically(state_path, json.dumps(state, indent=1))
        write_atomically(os.path.join(args.dir, "values.txt"), paste_back(chosen, theta))
        with open(log_path, "a", newline="") as f:
            csv.writer(f).writerow([k, wins, losses, draws]
                                   + [f"{theta[n]:.2f}" for n in settings["names"]])
        if k % 10 == 0 or k == iterations:
            far = sorted(chosen, key=lambda t: -abs(theta[t["name"]] - t["default"]) / t["c_end"])
            moved = ", ".join(f"{t['name']} {theta[t['name']]:.1f}" for t in far[:4])
            print(f"iteration {k}/{iterations}: {2 * args.pairs * k} games; most moved: {moved}",
                  file=sys.stderr)
    print(paste_back(chosen, theta), end="")


if __name__ == "__main__":
    main()
