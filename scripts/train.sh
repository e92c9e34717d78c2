#!/usr/bin/env bash
# Trains the pattern evaluation of a board size from scratch: self-play samples (generation 1 with
# the evaluation built into the current binary), a fit, then a second generation of samples played
# with the first fit's weights, and a fit on both. Writes weights/othello-SIZE.weights; rebuild to
# embed it.
# Usage: scripts/train.sh [SIZE] [GAMES PER GENERATION]
#   e.g. scripts/train.sh 8 30000     (8×8 from the XOT openings; about 40 min a generation on 2 cores)
#        scripts/train.sh 6 20000
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-8}
games=${2:-30000}
dir=target/train-$size
mkdir -p "$dir"
cargo build --release --quiet
othel=$PWD/target/release/othel
openings=()
if [ "$size" = 8 ] && [ -f ../shared/data/openings/xot-large.txt ]; then
  openings=(--openings ../shared/data/openings/xot-large.txt)
fi
solve=18
[ "$size" = 6 ] && solve=20
rm -f "$dir"/gen1.samples "$dir"/gen2.samples
"$othel" train gen --size "$size" --games "$games" --depth 4 --solve "$solve" \
  "${openings[@]}" --seed 1 --out "$dir"/gen1.samples
"$othel" train fit "$dir"/gen1.samples --size "$size" --out "$dir"/gen1.weights
"$othel" --weights "$dir"/gen1.weights train gen --size "$size" --games "$games" --depth 4 \
  --solve "$solve" "${openings[@]}" --seed 1000001 --out "$dir"/gen2.samples
"$othel" train fit "$dir"/gen1.samples "$dir"/gen2.samples --size "$size" \
  --out weights/othello-"$size".weights
