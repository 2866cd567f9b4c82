#!/usr/bin/env python3
"""How long after `ponderhit` the answer of a `go ponder movetime M` comes, beside how long
after `go` a plain `go movetime M` answers, at each thread count: the two measured in turn
(which goes first alternating), so that a loaded machine weighs on both alike. Each search
starts after `ucinewgame` and `isready`, from the same position; a ponder search ponders
PONDER_MS before its `ponderhit`. The engine's `Debug Log File` (a temporary file) splits
the ponderhit's time in two: until the engine read the command, and from then to its
`bestmove`; an `isready` halfway through each search times how soon the engine reads a
command while it searches.

Usage: tools/check/ponderhit_latency.py ENGINE [TRIES] [MOVETIME_MS] [PONDER_MS] [THREADS...]
(defaults: 20 tries, 200 ms, 300 ms, threads 1 8 256)"""

import datetime
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time

if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
    print(__doc__, file=sys.stderr if len(sys.argv) < 2 else sys.stdout)
    sys.exit(2 if len(sys.argv) < 2 else 0)
engine = sys.argv[1]
tries = int(sys.argv[2]) if len(sys.argv) > 2 else 20
movetime = int(sys.argv[3]) if len(sys.argv) > 3 else 200
ponder_ms = int(sys.argv[4]) if len(sys.argv) > 4 else 300
thread_counts = [int(t) for t in sys.argv[5:]] or [1, 8, 256]
POSITION = "position startpos moves e2e4 e7e5 g1f3"


class Engine:
    def __init__(self, path, log):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send(f"setoption name Debug Log File value {log}")

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.strip()))

    def send(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return time.monotonic()

    def until(self, prefix, timeout=60):
        while True:
            at, line = self.lines.get(timeout=timeout)
            if line.startswith(prefix):
                return at, line

    def fresh(self):
        self.send("ucinewgame")
        self.send(POSITION)
        self.send("isready")
        self.until("readyok")

    def ready_in(self, after):
        """`isready` sent `after` seconds on, and how long its `readyok` took, in ms."""
        time.sleep(after)
        sent = self.send("isready")
        at, _ = self.until("readyok")
        return (at - sent) * 1000

    def plain(self):
        self.fresh()
        sent = self.send(f"go movetime {movetime}")
        ready = self.ready_in(movetime / 2000)
        at, _ = self.until("bestmove")
        return (at - sent) * 1000, ready

    def ponder(self):
        self.fresh()
        started = self.send(f"go ponder movetime {movetime}")
        ready = self.ready_in(ponder_ms / 2000)
        time.sleep(max(0.0, ponder_ms / 1000 - (time.monotonic() - started)))
        sent = self.send("ponderhit")
        at, _ = self.until("bestmove")
        return (at - sent) * 1000, ready

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=60)


def engine_side(log):
    """From the debug log: each `ponderhit` read to the `bestmove` after it, in ms."""
    spans, read = [], None
    with open(log) as f:
        for line in f:
            stamp, _, rest = line.partition(" ")
            at = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
            if rest.endswith("<< ponderhit\n"):
                read = at
            elif read is not None and ">> bestmove" in rest:
                spans.append((at - read).total_seconds() * 1000)
                read = None
    return spans


def summary(values):
    values = sorted(values)
    return f"{values[0]:.0f} / {statistics.median(values):.0f} / {values[-1]:.0f}"


print(f"{tries} pairs each, movetime {movetime} ms, ponderhit after {ponder_ms} ms of pondering;")
print("min / median / max in ms; the difference paired: median (min .. max)")
print("threads | go movetime | ponderhit | ponder - plain | engine: ponderhit read to bestmove "
      "| isready during either search")
for threads in thread_counts:
    with tempfile.TemporaryDirectory() as scratch:
        log = os.path.join(scratch, "engine.log")
        proc = Engine(engine, log)
        proc.send("uci")
        proc.until("uciok")
        proc.send(f"setoption name Threads value {threads}")
        plain, ponder, ready = [], [], []
        for i in range(tries):
            runs = [(plain, proc.plain), (ponder, proc.ponder)]
            for kept, run in runs if i % 2 == 0 else reversed(runs):
                answer, ready_ms = run()
                kept.append(answer)
                ready.append(ready_ms)
        proc.quit()
        inside = engine_side(log)
    differences = [b - a for a, b in zip(plain, ponder)]
    print(f"{threads} | {summary(plain)} | {summary(ponder)} | "
          f"{statistics.median(differences):+.0f} ({min(differences):+.0f} .. {max(differences):+.0f}) | "
          f"{summary(inside)} | {summary(ready)}", flush=True)
