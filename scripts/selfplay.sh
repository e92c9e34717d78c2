#!/usr/bin/env bash
# Self-play data that accumulates: plays training games in chunks of CHUNK game numbers, one games
# file per chunk under data/othello-SIZE/dDEPTH-sSOLVE/ (data/lehto-SIZE/… for Lehto's odd SIZE;
# data/README.md), from chunk FIRST on, COUNT
# chunks (default: until stopped). A chunk file that exists is resumed, so the script can be killed
# and started again at any time; a finished chunk is compressed (games-NNNNNN.games.bz2) and can be
# committed as it appears.
# Runs on a copy of the release binary, so rebuilding meanwhile changes nothing; run it under nice.
# Usage: scripts/selfplay.sh [SIZE] [DEPTH] [SOLVE] [FIRST] [COUNT] [CHUNK] [-- extra train gen args]
#   e.g. nice -n 19 scripts/selfplay.sh 8 10 20 0 1000 5000
#   another machine: the same with another FIRST (chunks are disjoint by number), or
#   --shard K/N after -- for a share of every chunk.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-8}
depth=${2:-10}
solve=${3:-20}
first=${4:-0}
count=${5:-1000000}
chunk=${6:-5000}
shift $(( $# < 6 ? $# : 6 ))
[ "${1:-}" = "--" ] && shift
cargo build --release --quiet
bin=target/selfplay-othel
cp target/release/othel "$bin.tmp" && mv "$bin.tmp" "$bin"
openings=()
if [ "$size" = 8 ] && [ -f ../shared/data/openings/xot-large.txt ]; then
  openings=(--openings ../shared/data/openings/xot-large.txt)
fi
variant=othello
[ $((size % 2)) = 1 ] && variant=lehto
dir=data/$variant-$size/d$depth-s$solve
mkdir -p "$dir"
for ((c = first; c < first + count; c++)); do
  out=$(printf '%s/games-%06d.games' "$dir" $((c * chunk)))
  # A chunk compressed is complete (data/README.md): nothing to play.
  [ -e "$out.bz2" ] || [ -e "$out.gz" ] && continue
  "$bin" train gen --size "$size" --games "$chunk" --from $((c * chunk)) --depth "$depth" \
    --solve "$solve" "${openings[@]}" --seed 1 --out "$out" "$@"
  # Complete (unless it holds one shard's games only): compressed, as data/ keeps its finished
  # chunks (bzip2 writes the same bytes every time; chunks finished before the sixty-seventh
  # session were gzipped, and are recompressed so).
  [[ " $* " == *" --shard"[=\ ]* ]] || bzip2 -9 "$out"
done
