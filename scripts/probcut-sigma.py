#!/usr/bin/env python3
"""Measures the spread that midgame ProbCut trusts: for positions of held-out self-play games, the
scores of full-width searches at depths 1..DEPTH (one `go depth DEPTH fullwidth` a position, whose
`info` lines give every depth), then for each depth d and its shallow depth s (as
`mpc_shallow_depth` in src/search/alphabeta.rs picks it), the standard deviation of
(score at d - score at s) in centi-discs, by ranges of empty squares, and a least-squares fit of
sigma = a + b * d + c * empties over every depth and range.

With --endgame, the spread the endgame's selective passes trust instead (`MPC_SIGMA` there):
(exact score - shallow score) in discs for the shallow depths 0 (the static evaluation), 2 and 4
(the midgame search as the endgame's ProbCut runs it), by number of empty squares.

Usage: scripts/probcut-sigma.py GAMES [--positions N] [--depth D] [--seed S] [--othel BIN]
                                [--scores FILE] [--endgame] [--empties LOW-HIGH] [--cell N]
  GAMES: a games file (data/README.md), e.g. data/othello-8/d10-s20/games-055000.games.bz2 (held
  out from the shipped weights' fit); its header's `size` and `variant` set the board. --scores
  keeps the raw scores (one position a line) and reads them back instead of searching when the
  file exists. --cell: the empty squares a cell of the fit spans (each cell needs 8 positions).
"""
import argparse
import bz2
import gzip
import math
import os
import random
import re
import subprocess
import sys


def open_text(path):
    """A text file, read through bzip2 or gzip when its name ends in .bz2 or .gz (the finished
    chunks of data/)."""
    if path.endswith('.bz2'):
        return bz2.open(path, 'rt')
    return gzip.open(path, 'rt') if path.endswith('.gz') else open(path)


def shallow_depth(depth):
    """The shallow depth of midgame ProbCut for a depth (src/search/alphabeta.rs)."""
    return (depth // 4) * 2 + (depth & 1)


def spread(diffs):
    """The sample standard deviation."""
    mean = sum(diffs) / len(diffs)
    return math.sqrt(sum((x - mean) ** 2 for x in diffs) / (len(diffs) - 1))


def board_of(games_path):
    """(variant, size) from a games file's header (data/README.md)."""
    with open_text(games_path) as f:
        header = f.readline().split()
    fields = dict(w.split("=", 1) for w in header if "=" in w)
    return fields.get("variant", "othello"), int(fields.get("size", "8"))


def positions(games_path, count, seed, low, high):
    """(empties, moves) of up to `count` random positions of the games with low..high empty
    squares, the moves separated by spaces."""
    variant, size = board_of(games_path)
    # Othello starts with 4 discs, Lehto with none; a transcript leaves passes out, every
    # placement fills one square, and Lehto's `swap` fills none.
    squares = size * size - (4 if variant == "othello" else 0)
    games = []
    with open_text(games_path) as f:
        for line in f:
            if line.startswith("#") or not line.endswith("\n"):
                continue
            words = line.split()
            if len(words) >= 5:
                games.append(re.findall(r"swap|[a-z][0-9]+", words[4]))
    rng = random.Random(seed)
    chosen = []
    for moves in rng.sample(games, min(count, len(games))):
        empties = rng.randint(low, high)
        take = squares - empties
        placements = [i for i, m in enumerate(moves) if m != "swap"]
        if take < 0 or take > len(placements):
            continue
        # The moves up to the take-th placement (and a swap right after it, as the game went on).
        end = placements[take - 1] + 1 if take else 0
        if end < len(moves) and moves[end] == "swap":
            end += 1
        chosen.append((empties, " ".join(moves[:end])))
    return chosen


def start(othel, games_path):
    variant, size = board_of(games_path)
    proc = subprocess.Popen(
        [othel, "--threads", "1", "--book", "off"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )
    proc.stdin.write(f"setoption variant={variant} size={size}\n")
    return proc


def ask(proc, commands):
    """Sends the commands, then reads the replies up to `bestmove` or an `eval` line: the
    (depth, score in discs, exact) of each `info` line, or the evaluation."""
    proc.stdin.write(commands)
    proc.stdin.flush()
    infos = []
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit("probcut-sigma: othel exited")
        words = line.split()
        if words[0] == "error":
            sys.exit(f"probcut-sigma: {line.strip()}")
        if words[0] == "eval":
            return float(words[1])
        if words[0] == "bestmove":
            return infos
        if words[0] == "info" and "depth" in words and "score" in words:
            exact = "exact" in words or "wld" in words or "book" in words
            d = int(words[words.index("depth") + 1])
            infos.append((d, float(words[words.index("score") + 1]), exact))


def each_position(othel, games_path, chosen, measure):
    """(empties, scores) for each chosen position that `measure(proc, moves)` gives scores (not
    None), with one othel process for them all and the progress on stderr."""
    proc = start(othel, games_path)
    results = []
    for i, (empties, moves) in enumerate(chosen):
        scores = measure(proc, moves)
        if scores is not None:
            results.append((empties, scores))
        print(f"\r{i + 1}/{len(chosen)} positions", end="", file=sys.stderr)
    print(file=sys.stderr)
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait()
    return results


def endgame_scores(proc, moves):
    """A position's scores in discs: the evaluation, the depth-2 and depth-4 searches, the exact
    score."""
    static = ask(proc, f"newgame\nposition startpos moves {moves}\neval\n")
    shallow = {d: s for d, s, exact in ask(proc, "go depth 4\n") if not exact}
    exact = [s for _, s, e in ask(proc, "go exact\n") if e]
    if 2 in shallow and 4 in shallow and exact:
        return [static, shallow[2], shallow[4], exact[-1]]
    return None


def report_endgame(results, low, high):
    buckets = [(e, e) for e in range(low, high + 1)] + [(low, high)]
    print(f"{len(results)} positions; sigma (discs) of exact - shallow by empties")
    print("empties  positions  depth 0  depth 2  depth 4")
    for lo, hi in buckets:
        rows = [sc for e, sc in results if lo <= e <= hi]
        if len(rows) < 10:
            continue
        cells = [f"{spread([sc[3] - sc[k] for sc in rows]):7.2f}" for k in range(3)]
        name = f"{lo}" if lo == hi else f"{lo}-{hi}"
        print(f"{name:>7}  {len(rows):>9}  " + "  ".join(cells))


def full_width_scores(depth):
    """A position's full-width scores at depths 1..depth (centi-discs); None where the search
    ended early (an exact score)."""

    def measure(proc, moves):
        setup = f"newgame\nposition startpos moves {moves}\n"
        infos = ask(proc, setup + f"go depth {depth} fullwidth\n")
        scores = {d: round(score * 100) for d, score, _ in infos}
        if any(e for _, _, e in infos) or not all(d in scores for d in range(1, depth + 1)):
            return None
        return [scores[d] for d in range(1, depth + 1)]

    return measure


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games")
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--empties", default="14-52", help="range of empty squares, LOW-HIGH")
    parser.add_argument("--othel", default="target/release/othel")
    parser.add_argument("--cell", type=int, default=4, help="empty squares a cell of the fit spans")
    parser.add_argument("--scores", help="keep (or read back) the raw scores here")
    parser.add_argument("--endgame", action="store_true", help="the endgame's spreads")
    args = parser.parse_args()
    low, high = (int(x) for x in args.empties.split("-"))
    def measured(search_all):
        """The raw scores: read back from --scores when it exists, else searched (and kept)."""
        if args.scores and os.path.exists(args.scores):
            with open(args.scores) as f:
                return [
                    (int(e), [float(x) for x in rest.split(",")])
                    for e, rest in (line.split() for line in f if line.strip())
                ]
        chosen = positions(args.games, args.positions, args.seed, low, high)
        results = search_all(chosen)
        if args.scores:
            with open(args.scores, "w") as f:
                for empties, scores in results:
                    f.write(f"{empties} {','.join(map(str, scores))}\n")
        if not results:
            sys.exit("probcut-sigma: no position in the range")
        return results

    if args.endgame:
        results = measured(
            lambda chosen: each_position(args.othel, args.games, chosen, endgame_scores)
        )
        report_endgame(results, low, high)
        return
    results = measured(
        lambda chosen: each_position(
            args.othel, args.games, chosen, full_width_scores(args.depth)
        )
    )
    depth = min(len(s) for _, s in results)

    # Ranges of 10 empty squares (8×8), wider on the larger boards: about 8 of them.
    width = max(10, (high - low + 1) // 8)
    buckets = [(lo, min(lo + width - 1, high)) for lo in range(low, high + 1, width)]
    print(f"{len(results)} positions; sigma (centi-discs) of score(d) - score(s) by empties")
    print("d  s  " + "  ".join(f"{lo:>2}-{hi:<2}" for lo, hi in buckets) + "    all")
    rows = []
    for d in range(3, depth + 1):
        s = shallow_depth(d)
        cells = []
        for lo, hi in buckets + [(low, high)]:
            diffs = [sc[d - 1] - sc[s - 1] for e, sc in results if lo <= e <= hi]
            cells.append(f"{spread(diffs):5.0f}" if len(diffs) >= 10 else "    -")
        print(f"{d:<2} {s:<2} " + "  ".join(cells))
        for e, sc in results:
            rows.append((d, e, sc[d - 1] - sc[shallow_depth(d) - 1]))

    # sigma = a + b d + c e, a least-squares fit to the spreads of the cells (depth, --cell empty
    # squares; each cell needs 8 positions, so wider cells on the larger boards' longer ranges).
    cell = args.cell
    cells = {}
    for d, e, x in rows:
        cells.setdefault((d, e // cell), []).append(x)
    xs, ys = [], []
    for (d, eb), diffs in cells.items():
        if len(diffs) >= 8:
            xs.append((1.0, d, eb * cell + (cell - 1) / 2))
            ys.append(spread(diffs))
    n = 3
    if len(xs) < 2 * n:
        print("fit: too few positions")
        return
    ata = [[sum(x[i] * x[j] for x in xs) for j in range(n)] for i in range(n)]
    aty = [sum(x[i] * y for x, y in zip(xs, ys)) for i in range(n)]
    # Gaussian elimination on the 3x3 normal equations.
    for i in range(n):
        p = ata[i][i]
        for j in range(i + 1, n):
            f = ata[j][i] / p
            for k in range(n):
                ata[j][k] -= f * ata[i][k]
            aty[j] -= f * aty[i]
    coef = [0.0] * n
    for i in reversed(range(n)):
        coef[i] = (aty[i] - sum(ata[i][k] * coef[k] for k in range(i + 1, n))) / ata[i][i]
    print(f"fit: sigma = {coef[0]:.1f} + {coef[1]:.2f} * depth + {coef[2]:.2f} * empties")


if __name__ == "__main__":
    main()
