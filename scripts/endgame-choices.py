#!/usr/bin/env python3
"""How well an engine chooses its moves near the end of 8x8 games: positions whose every move was
solved exactly, the move the engine plays in each, and what that move lost (game points, a win
turned into a draw counting half, and discs), by empty squares.

  label: picks positions from games (`othel match --out` GGF records, or the `.games` files of
         data/) and solves every move of each (`go exact multipv 64`, othel, one thread, two
         positions at a time), writing them to a JSON file.
  play:  asks an engine for its move in each labelled position, two positions at a time: othel's
         own protocol with `go movetime MS`, or NBoard (`set depth D`) for other engines.

Usage:
  scripts/endgame-choices.py label GAMES… --out SET.json [--empties 19-24] [--count 400] [--seed 1]
  scripts/endgame-choices.py play SET.json --engine "othel --threads 1 --book off" --movetime 60
  scripts/endgame-choices.py play SET.json --engine /path/ntest --dir /path --nboard-depth 14
Before the subcommand: --othel BIN (default target/release/othel), the othel that solves and draws
the NBoard positions.
"""
import argparse
import bz2
import gzip
import json
import random
import re
import subprocess
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor


def open_text(path):
    """A text file, read through bzip2 or gzip when its name ends in .bz2 or .gz (the finished
    chunks of data/)."""
    if path.endswith('.bz2'):
        return bz2.open(path, 'rt')
    return gzip.open(path, 'rt') if path.endswith('.gz') else open(path)


def games_moves(path):
    """The move lists (passes as `pass`) of the games in a GGF or `.games` file."""
    for line in open_text(path):
        if line.startswith('(;'):
            tags = re.findall(r'[BW]\[([a-hA-H][1-8]|PA|pa)', line.split('BO[', 1)[1])
            yield ['pass' if m.upper() == 'PA' else m.lower() for m in tags]
        elif line[:1].isdigit():
            transcript = line.split()[4]
            yield [transcript[i:i + 2] for i in range(0, len(transcript), 2)]


def prefix_at(moves, empties):
    """The moves up to the first position with `empties` empty squares and a move to play."""
    placed = 0
    for i, move in enumerate(moves):
        if 60 - placed == empties and move != 'pass':
            return moves[:i]
        if move != 'pass':
            placed += 1
    return None


def othel(args):
    return subprocess.Popen([args.othel, '--threads', '1', '--book', 'off', '--hash', '256'],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def solve_all(args, positions):
    """{move: exact score} for each position (move lists)."""
    engine = othel(args)
    out = []
    for moves in positions:
        engine.stdin.write(f'position startpos moves {" ".join(moves)}\ngo exact multipv 64\n')
        engine.stdin.flush()
        scores = {}
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit('endgame-choices: othel exited')
            if line.startswith('info multipv') and ' exact ' in line:
                move = line.split(' pv ')[1].split()[0]
                scores[move] = int(line.split(' score ')[1].split()[0])
            if line.startswith('bestmove'):
                break
        out.append({'moves': moves, 'scores': scores})
    engine.stdin.write('quit\n')
    engine.stdin.flush()
    return out


def label(args):
    lo, hi = map(int, args.empties.split('-'))
    rng = random.Random(args.seed)
    games = [g for path in args.games for g in games_moves(path)]
    rng.shuffle(games)
    positions = []
    for moves in games:
        prefix = prefix_at(moves, rng.randint(lo, hi))
        if prefix is not None:
            positions.append(prefix)
        if len(positions) == args.count:
            break
    halves = [positions[0::2], positions[1::2]]
    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(lambda half: solve_all(args, half), halves))
    labelled = [p for half in done for p in half if len(p['scores']) > 0]
    json.dump(labelled, open(args.out, 'w'))
    print(f'{len(labelled)} positions with {lo}-{hi} empty squares written to {args.out}')


def choose_own_protocol(args, positions):
    engine = subprocess.Popen(args.engine, shell=True, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, bufsize=1)
    # Brings the table into memory first: a fresh process's first search pays for its pages.
    engine.stdin.write('isready\n')
    engine.stdin.flush()
    while (line := engine.stdout.readline()).strip() != 'readyok':
        if not line:
            raise SystemExit('endgame-choices: the engine exited')
    chosen = []
    for p in positions:
        engine.stdin.write(f'position startpos moves {" ".join(p["moves"])}\n'
                           f'go movetime {args.movetime}\n')
        engine.stdin.flush()
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit('endgame-choices: the engine exited')
            if line.startswith('bestmove'):
                chosen.append(line.split()[1])
                break
    engine.stdin.write('quit\n')
    engine.stdin.flush()
    return chosen


def choose_nboard(args, positions):
    engine = subprocess.Popen(args.engine, shell=True, cwd=args.dir, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              bufsize=1)

    def send(line):
        engine.stdin.write(line + '\n')
        engine.stdin.flush()

    def read():
        line = engine.stdout.readline()
        if not line:
            raise SystemExit('endgame-choices: the engine exited')
        return line.strip()

    send('nboard 2')
    send(f'set depth {args.nboard_depth}')
    chosen = []
    for ping, p in enumerate(positions, 1):
        shown = subprocess.run([args.othel, 'board', ''.join(m for m in p['moves'] if m != 'pass')],
                               capture_output=True, text=True, check=True).stdout.split()
        board, side = shown[1].replace('X', '*'), '*' if shown[2] == 'X' else 'O'
        send(f'set game (;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0:00//0:00]TY[8]'
             f'BO[8 {board} {side}];)')
        send('go')
        while not (line := read()).startswith('==='):
            pass
        chosen.append(line.split()[1].split('/')[0].lower())
        send(f'ping {ping}')
        while read() != f'pong {ping}':
            pass
    send('quit')
    return chosen


def points(score):
    return 1.0 if score > 0 else 0.5 if score == 0 else 0.0


def play(args):
    positions = json.load(open(args.set))
    choose = choose_nboard if args.nboard_depth else choose_own_protocol
    halves = [positions[0::2], positions[1::2]]
    with ThreadPoolExecutor(2) as pool:
        a, b = pool.map(lambda half: choose(args, half), halves)
    chosen = [None] * len(positions)
    chosen[0::2], chosen[1::2] = a, b
    by_empties = defaultdict(lambda: [0, 0.0, 0.0])
    for p, move in zip(positions, chosen):
        scores = p['scores']
        if move not in scores:
            raise SystemExit(f'endgame-choices: {move} is no legal move after {p["moves"]}')
        best = max(scores.values())
        cell = by_empties[60 - sum(m != 'pass' for m in p['moves'])]
        cell[0] += 1
        cell[1] += points(best) - points(scores[move])
        cell[2] += best - scores[move]
    print('empties  positions  points lost  discs lost a move')
    for e in sorted(by_empties):
        n, pts, discs = by_empties[e]
        print(f'{e:7d}  {n:9d}  {pts:11.1f}  {discs / n:17.3f}')
    n = sum(c[0] for c in by_empties.values())
    pts = sum(c[1] for c in by_empties.values())
    discs = sum(c[2] for c in by_empties.values())
    print(f'    all  {n:9d}  {pts:11.1f}  {discs / n:17.3f}  ({100 * pts / n:.2f}% of a point a move)')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--othel', default='target/release/othel')
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('label')
    p.add_argument('games', nargs='+')
    p.add_argument('--out', required=True)
    p.add_argument('--empties', default='19-24')
    p.add_argument('--count', type=int, default=400)
    p.add_argument('--seed', type=int, default=1)
    p = sub.add_parser('play')
    p.add_argument('set')
    p.add_argument('--engine', required=True)
    p.add_argument('--movetime', type=int, default=60)
    p.add_argument('--nboard-depth', type=int)
    p.add_argument('--dir')
    args = parser.parse_args()
    label(args) if args.command == 'label' else play(args)


if __name__ == '__main__':
    main()
