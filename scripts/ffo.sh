#!/usr/bin/env bash
# FFO endgame benchmark: solves positions FIRST..LAST of the FFO suite (../shared/data/ffo) with
# `othel solve` and prints each result and the totals (nodes, seconds, nodes/s).
# Usage: scripts/ffo.sh FIRST LAST [solve options…]   e.g. scripts/ffo.sh 40 49 --threads 2
set -euo pipefail
cd "$(dirname "$0")/.."
first=${1:?first position number}
last=${2:?last position number}
shift 2
data=../shared/data/ffo
[ -d "$data" ] || { echo "ffo.sh: $data is absent" >&2; exit 1; }
cargo build --release --quiet
file=$(mktemp)
trap 'rm -f "$file"' EXIT
# The files hold positions 1-19, 20-39, 40-59 and 60-79, one a line.
for n in $(seq "$first" "$last"); do
  if [ "$n" -le 19 ]; then f=fforum-1-19.obf; line=$n
  elif [ "$n" -le 39 ]; then f=fforum-20-39.obf; line=$((n - 19))
  elif [ "$n" -le 59 ]; then f=fforum-40-59.obf; line=$((n - 39))
  else f=fforum-60-79.obf; line=$((n - 59)); fi
  sed -n "${line}p" "$data/$f" >> "$file"
done
./target/release/othel solve "$file" "$@"
