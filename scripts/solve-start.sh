#!/usr/bin/env bash
# Perfect solve of an Othello board from the start position (6×6 by default: white wins 20–16,
# so −4 for black): prints the final report (score, nodes, milliseconds, nodes/s) and the time.
# Usage: scripts/solve-start.sh [SIZE] [analyze options…]   e.g. scripts/solve-start.sh 6 --threads 2 --hash 1024
# The table's size matters here: on 2 threads the 6×6 start took 803–822 M nodes and 12.1–14.1 s
# with the default 64 MB, 685–729 M nodes and 11.3–12.0 s with --hash 256 (4 runs each, a Zen 3
# EPYC); 512 and 1024 took about as many nodes as 256.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-6}
shift || true
cargo build --release --quiet
start=$(date +%s.%N)
./target/release/othel analyze --size "$size" --exact --book off "$@" | grep '^info depth' | tail -n 1
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" 'BEGIN { printf "wall %.1f s\n", b - a }'
