#!/usr/bin/env bash
# Lehto 9×9 search depth: how deep `othel analyze` gets in MS milliseconds (default 1000) from the
# empty board and from a half-full board (40 stones placed), RUNS times each (default 3); prints
# the last completed iteration of each run.
# Usage: scripts/lehto-depth.sh [MS] [RUNS] [analyze options…]   e.g. scripts/lehto-depth.sh 1000 3 --threads 2
set -euo pipefail
cd "$(dirname "$0")/.."
ms=${1:-1000}
runs=${2:-3}
shift 2 || shift $#
cargo build --release --quiet
# Forty squares in a fixed shuffled order: every empty square is a Lehto placement.
half=(i4 c5 g8 h2 a8 a2 b4 g4 d5 c2 c4 e7 a5 b1 h6 c7 i7 e3 e8 i6 e4 d4 b3 c8 d9 e5 i8 f9 a9 h7
      a4 g6 g7 a6 c9 d2 c1 d8 f5 h3)
for start in empty half; do
  if [ "$start" = empty ]; then moves=(); else moves=("${half[@]}"); fi
  for _ in $(seq "$runs"); do
    line=$(./target/release/othel analyze --variant lehto --size 9 --book off --movetime "$ms" "$@" \
      "${moves[@]}" | grep '^info depth' | tail -n 1)
    echo "$start: ${line%% pv *}"
  done
done
