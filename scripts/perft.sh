#!/usr/bin/env bash
# Perft benchmark: runs `othel perft` RUNS times and prints each run and the median time.
# Usage: scripts/perft.sh [RUNS] [perft arguments…]   e.g. scripts/perft.sh 5 12
#        scripts/perft.sh 5 --size 10 10
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
[ $# -gt 0 ] || set -- 12
cargo build --release --quiet
times=()
for _ in $(seq "$runs"); do
  line=$(./target/release/othel perft "$@" | tail -n 1)
  echo "$line"
  times+=("$(echo "$line" | awk '{print $6}')")
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "median %.3f s over %d runs\n", m, NR}'
