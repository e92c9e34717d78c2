#!/usr/bin/env python3
"""Measures how long othel takes to answer `stop` during `go infinite`: the time from writing
`stop` to reading `bestmove`, over several runs (median and worst), in a midgame search and in an
exact endgame solve (FFO #48, 22 empty squares). Also runs `go movetime` and reports how far past
the asked time `bestmove` comes. The book is off, so that every answer is searched.
Usage: cargo build --release && scripts/stop-latency.py [RUNS] [THREADS]"""
import pathlib, statistics, subprocess, sys, time

root = pathlib.Path(__file__).resolve().parent.parent
binary = str(root / "target" / "release" / "othel")
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
threads = sys.argv[2] if len(sys.argv) > 2 else "2"

def until(proc, prefix):
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("the engine ended early")
        if line.startswith(prefix):
            return line

# Five moves into the game, and FFO #48 (an exact solve of 22 empty squares).
POSITIONS = {
    "midgame": "position startpos moves f5d6c3d3c4",
    "endgame": "position board "
    "-----X--X-XXX---XXXXOO--XOXOOXX-XOOXXX--XOOXX-----OOOX---XXXXXX- O",
}

for name, position in POSITIONS.items():
    stop_ms, movetime_over = [], []
    for i in range(runs):
        p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             bufsize=1)
        p.stdin.write(f"setoption threads={threads}\nsetoption book=off\n{position}\ngo infinite\n")
        p.stdin.flush()
        time.sleep(0.5 + 0.1 * i)
        sent = time.perf_counter()
        p.stdin.write("stop\n"); p.stdin.flush()
        until(p, "bestmove")
        stop_ms.append((time.perf_counter() - sent) * 1000)
        start = time.perf_counter()
        p.stdin.write("go movetime 300\n"); p.stdin.flush()
        until(p, "bestmove")
        movetime_over.append((time.perf_counter() - start) * 1000 - 300)
        p.stdin.write("quit\n"); p.stdin.flush()
        p.wait()
    print(f"{name}: stop -> bestmove: median {statistics.median(stop_ms):.2f} ms, "
          f"worst {max(stop_ms):.2f} ms over {runs} runs")
    print(f"{name}: go movetime 300: bestmove median {statistics.median(movetime_over):+.2f} ms, "
          f"worst {max(movetime_over):+.2f} ms past the time")
