#!/usr/bin/env python3
"""Where a match's games were won and lost: the score of each 8x8 game of a match record (GGF, as
`othel match --out` writes it) at fixed numbers of empty squares, from one engine's view, and the
change between them, averaged over the games.

Scores: a depth-16 search above 22 empty squares, an exact solve from 22 on (both by othel, one
thread each, two games at a time; --checkpoints and --exact-from change both), and the game's
result at the end. The changes between two
exact checkpoints are what the moves between them lost or gained; a search's score flatters the
engine that chose the position by the same evaluation, so the changes into the first exact
checkpoint lean against it.

Usage: scripts/match-phases.py GAMES.ggf ENGINE [--othel BIN] [--checkpoints 52,44,36,28,22,16]
                                [--exact-from 22]
  ENGINE: the player's name in the record (PB/PW), e.g. the `name=` of `othel match --engine`.
"""
import argparse
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

CHECKPOINTS = [52, 44, 36, 28, 22, 16]
EXACT_FROM = 22
DEPTH = 16


def moves_of(game):
    """(colour, move) of each move of a GGF game after its start position, passes as PA."""
    return re.findall(r'([BW])\[([a-hA-H][1-8]|PA|pa)', game.split('BO[', 1)[1])


def score(engine, moves, empties, exact_from):
    """othel's score (discs, side to move's view) of the position after `moves`."""
    go = 'go exact' if empties <= exact_from else f'go depth {DEPTH}'
    engine.stdin.write(f'position startpos moves {" ".join(moves) or "none"}\n{go}\n')
    engine.stdin.flush()
    last = None
    while True:
        line = engine.stdout.readline()
        if not line:
            raise SystemExit('match-phases: othel exited')
        if line.startswith('info depth'):
            last = line
        if line.startswith('bestmove'):
            return float(last.split(' score ')[1].split()[0])


def analyse(args, game):
    """{empties: score from ENGINE's view} at each checkpoint the game reached, and 0: its result."""
    engine = subprocess.Popen([args.othel, '--threads', '1', '--book', 'off', '--hash', '256'],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    black = re.search(r'PB\[([^]]*)\]', game).group(1)
    mine = 'B' if black == args.engine else 'W'
    result = float(re.search(r'RE\[([-+0-9.]+)', game).group(1))
    scores = {}
    played = []
    placed = 0
    for colour, move in moves_of(game):
        empties = 60 - placed
        if empties in args.checkpoints and empties not in scores and move.upper() != 'PA':
            s = score(engine, played, empties, args.exact_from)
            scores[empties] = s if colour == mine else -s
        if move.upper() == 'PA':
            played.append('pass')
        else:
            played.append(move.lower())
            placed += 1
    scores[0] = result if mine == 'B' else -result
    engine.stdin.write('quit\n')
    engine.stdin.flush()
    engine.wait()
    return scores


def points(score):
    return 1.0 if score > 0 else 0.5 if score == 0 else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('games')
    parser.add_argument('engine')
    parser.add_argument('--othel', default='target/release/othel')
    parser.add_argument('--checkpoints', default=','.join(map(str, CHECKPOINTS)),
                        help='empty squares at which to score the games, comma-separated')
    parser.add_argument('--exact-from', type=int, default=EXACT_FROM,
                        help='solve exactly at this many empty squares or fewer')
    args = parser.parse_args()
    args.checkpoints = sorted({int(e) for e in args.checkpoints.split(',')}, reverse=True)
    games = [line for line in open(args.games) if line.startswith('(;')]
    if not any(f'[{args.engine}]' in g for g in games):
        raise SystemExit(f'match-phases: no player {args.engine} in {args.games}')
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda g: analyse(args, g), games))
    marks = args.checkpoints + [0]
    print(f'{len(results)} games, {args.engine}\'s view')
    print('empties  mean score  game points by its sign')
    for e in marks:
        seen = [r[e] for r in results if e in r]
        print(f'{e:7d}  {sum(seen) / len(seen):+10.2f}  {100 * sum(map(points, seen)) / len(seen):6.1f}%'
              f'  ({len(seen)} games)')
    print('from -> to  discs  points (%)')
    for a, b in zip(marks, marks[1:]):
        both = [r for r in results if a in r and b in r]
        discs = sum(r[b] - r[a] for r in both) / len(both)
        pts = sum(points(r[b]) - points(r[a]) for r in both) / len(both)
        print(f'{a:4d} -> {b:2d}  {discs:+.2f}  {100 * pts:+.1f}')


if __name__ == '__main__':
    main()
