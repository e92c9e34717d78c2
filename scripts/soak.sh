#!/usr/bin/env bash
# Soak: a long run that a GUI or a tournament would give the engine, watched for leaks and faults.
#  1. Matches through `othel match` at concurrency 2, over the three protocols (othel, NBoard,
#     GTP) and several boards (6x6, 8x8, 10x10 Othello, 7x7 Lehto), on clocks, GAMES games in all
#     (default 1000); each match starts its engines afresh (restarts) and keeps them for all its
#     games. Every engine process's RSS is sampled each second; the peak of the last half of a
#     process's samples must stay within 10% of the peak of its second quarter (after warm-up).
#     Every game must be in the GGF file and no engine may forfeit.
#  2. One engine process driven for STEPS steps (default 2000) by random commands: option changes
#     (hash, threads, board), positions, searches stopped at random moments (`go infinite` then
#     `stop`, `go movetime`, `go depth`), `isready`; every search must end in `bestmove` and every
#     `isready` in `readyok`; its RSS likewise flat after warm-up.
# Usage: scripts/soak.sh [GAMES] [STEPS]        (about 15 minutes at the defaults here)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-1000}
steps=${2:-2000}
cargo build --release --quiet
bin=$PWD/target/soak-othel
cp target/release/othel "$bin"
work=$(mktemp -d /tmp/othel-soak-XXXXXX)
echo "soak: $games games, $steps driven steps; files in $work"
trap 'touch "$work/stop-sampling"; kill $(jobs -p) 2>/dev/null || true' EXIT

# Samples the RSS (kB) of every process running $bin until told to stop: "time pid rss" lines.
sample() {
  while [ ! -e "$work/stop-sampling" ]; do
    ps -C soak-othel -o pid=,rss= 2>/dev/null | awk -v t="$(date +%s)" '{print t, $1, $2}' >> "$1" || true
    sleep 1
  done
  rm -f "$work/stop-sampling"
}

# Checks each pid's RSS: the peak of the last half of its samples within 10% of the second quarter's,
# plus TABLE MB (default 0) for a process whose hash table may grow to that size later (a table
# searches have used stays in memory across a new game, so it fills up to its size: that is the
# memory bound at work, not a leak; growth past it is).
check_rss() {
  python3 - "$1" "${2:-0}" <<'PY'
import sys, collections
table = int(sys.argv[2]) * 1024
series = collections.defaultdict(list)
for line in open(sys.argv[1]):
    t, pid, rss = line.split()
    series[pid].append(int(rss))
bad = 0
for pid, s in series.items():
    if len(s) < 8:
        continue
    # The table's pages come and go (tables are made afresh when the options change), so
    # compare peaks: the last half's against the second quarter's (after warm-up). A leak grows
    # past it.
    warm, late = s[len(s) // 4:len(s) // 2], s[len(s) // 2:]
    first, peak, last = max(warm), max(late), late[-1]
    flat = peak <= first * 1.10 + 1024 + table  # 10%, and 1 MB of slack for small processes
    print(f"  pid {pid}: {len(s)} samples, warm peak {first/1024:.1f} MB, late peak {peak/1024:.1f} MB, last {last/1024:.1f} MB {'ok' if flat else 'GROWS'}")
    bad += not flat
sys.exit(1 if bad else 0)
PY
}

# GTP plays by its clock (tc) only; NBoard and GTP play Othello only.
matches=(
  "6 othello othel nboard tc=1+0.01"
  "8 othello gtp othel tc=1+0.01"
  "10 othello nboard gtp tc=2+0.02"
  "7 lehto othel othel depth=2"
)
per=$((games / ${#matches[@]}))
fail=0
for m in "${matches[@]}"; do
  read -r size variant p1 p2 limit <<<"$m"
  out=$work/match-$size-$variant.ggf
  samples=$work/rss-$size-$variant.txt
  sample "$samples" &
  sampler=$!
  "$bin" match \
    --engine "name=a cmd='$bin --threads 1 --hash 8' proto=$p1 $limit" \
    --engine "name=b cmd='$bin --threads 1 --hash 16' proto=$p2 $limit" \
    --variant "$variant" --size "$size" --games "$per" --concurrency 2 --out "$out" \
    > "$work/summary-$size-$variant.txt"
  touch "$work/stop-sampling"
  wait "$sampler"
  lines=$(wc -l < "$out")
  forfeits=$(grep -c "forfeits" "$work/summary-$size-$variant.txt" || true)
  faults=$(grep "forfeits" "$work/summary-$size-$variant.txt" | grep -vc "time 0, crash/hang 0, illegal move 0, garbage 0" || true)
  echo "$variant ${size}x$size, $p1 vs $p2, $limit: $lines of $per games in the file, $faults engines with forfeits"
  [ "$lines" -eq "$per" ] && [ "$faults" -eq 0 ] && [ "$forfeits" -eq 2 ] || fail=1
  check_rss "$samples" || fail=1
done

echo "driven engine: $steps steps"
samples=$work/rss-driven.txt
sample "$samples" &
sampler=$!
python3 - "$bin" "$steps" <<'PY' || fail=1
import queue, random, subprocess, sys, threading, time
binary, steps = sys.argv[1], int(sys.argv[2])
rng = random.Random(7)
p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
lines = queue.Queue()
def read():
    for line in p.stdout:
        lines.put(line)
    lines.put(None)
threading.Thread(target=read, daemon=True).start()
sent = []
def send(line):
    sent.append(line)
    p.stdin.write(line + "\n"); p.stdin.flush()
def until(prefix, seconds=60):
    deadline = time.time() + seconds
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.time()))
        except queue.Empty:
            raise SystemExit(f"no {prefix} in {seconds} s after: {sent[-6:]}")
        if line is None:
            raise SystemExit("the engine ended")
        if line.startswith(prefix):
            return line
boards = [("othello", 6), ("othello", 8), ("othello", 10), ("othello", 12), ("lehto", 9), ("lehto", 13)]
searches = 0
for step in range(steps):
    r = rng.random()
    if r < 0.1:
        v, n = rng.choice(boards)
        send(f"setoption variant={v} size={n} hash={rng.choice([1, 4, 16, 64])} threads={rng.choice([1, 2])}")
    elif r < 0.2:
        send("newgame")
    elif r < 0.4:
        send("position startpos")
    elif r < 0.5:
        send("garbage line " + str(rng.random()))
    else:
        kind = rng.random()
        if kind < 0.4:
            send("go infinite"); time.sleep(rng.random() * 0.05); send("stop")
        elif kind < 0.8:
            send(f"go movetime {rng.randint(1, 30)}")
        else:
            send(f"go depth {rng.randint(1, 6)}")
        until("bestmove"); searches += 1
    if step % 10 == 0:
        send("isready"); until("readyok")
send("quit")
p.wait(timeout=30)
print(f"  {steps} steps, {searches} searches, every one answered; exit {p.returncode}")
PY
touch "$work/stop-sampling"
wait "$sampler"
# Its hash goes up to 64 MB at random moments: its peak may follow the largest table.
check_rss "$samples" 64 || fail=1
if [ $fail -eq 0 ]; then echo "soak passed"; else echo "soak FAILED"; exit 1; fi
