#!/usr/bin/env python3
"""Long-run check: `go infinite` for a while with several threads and a large table, then
`stop`. Samples the engine's resident memory while it searches and checks the bestmove is
legal (python-chess). Usage: tools/check/long_run.py ENGINE [SECONDS] [THREADS] [HASH_MIB]"""

import subprocess
import sys
import threading
import time

import chess

if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
    print(__doc__, file=sys.stderr if len(sys.argv) < 2 else sys.stdout)
    sys.exit(2 if len(sys.argv) < 2 else 0)
engine = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 600
threads = sys.argv[3] if len(sys.argv) > 3 else "2"
hash_mib = sys.argv[4] if len(sys.argv) > 4 else "1024"

proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
lines = []
done = threading.Event()


def reader():
    for line in proc.stdout:
        lines.append(line.strip())
        if line.startswith("bestmove"):
            done.set()


threading.Thread(target=reader, daemon=True).start()


def send(cmd):
    proc.stdin.write(cmd + "\n")
    proc.stdin.flush()


def rss_mib():
    with open(f"/proc/{proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


send("uci")
send(f"setoption name Threads value {threads}")
send(f"setoption name Hash value {hash_mib}")
send("isready")
while "readyok" not in lines:
    time.sleep(0.05)
fen = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9"
send(f"position fen {fen}")
start = time.time()
send("go infinite")
samples = []
while time.time() - start < seconds:
    time.sleep(min(30, seconds / 20))
    depth = next((l.split()[2] for l in reversed(lines) if l.startswith("info depth")), "?")
    samples.append((round(time.time() - start), round(rss_mib()), depth))
    print(f"t={samples[-1][0]:>4}s rss={samples[-1][1]} MiB depth={depth}", flush=True)
    if done.is_set():
        break
early = done.is_set()
asked = time.time()
send("stop")
done.wait(10)
answer_ms = (time.time() - asked) * 1000
best = next((l for l in lines if l.startswith("bestmove")), None)
send("isready")
time.sleep(0.5)
send("quit")
proc.wait(10)
board = chess.Board(fen)
move = best.split()[1] if best else None
legal = move is not None and chess.Move.from_uci(move) in board.legal_moves
last_info = next((l for l in reversed(lines) if l.startswith("info depth")), "")
rss = [s[1] for s in samples]
print(f"bestmove line: {best}")
print(f"legal: {legal}, stopped early: {early}, bestmove {answer_ms:.0f} ms after stop")
print(f"rss MiB: first {rss[0]}, max {max(rss)}, last {rss[-1]} over {samples[-1][0]} s")
print(f"last info: {last_info[:200]}")
print(f"exit code: {proc.returncode}")
sys.exit(0 if legal and not early and proc.returncode == 0 else 1)
