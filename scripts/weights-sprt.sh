#!/usr/bin/env bash
# Accepting new weights by match, not by hope: NEW.weights against the built-in weights (or OLD),
# 40 ms a move, one thread each, no book, over the XOT openings with an SPRT.
# Usage: scripts/weights-sprt.sh NEW.weights [OLD.weights] [match options…]
#   e.g. scripts/weights-sprt.sh /tmp/new.weights "" --games 2000 --sprt elo0=0 elo1=25 alpha=0.05 beta=0.05
# Games go to target/weights-sprt.ggf, the summary to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
new=$(realpath "$1")
old=${2:-}
shift $(( $# < 2 ? $# : 2 ))
openings=../shared/data/openings/xot-large.txt
[ -f "$openings" ] || { echo "weights-sprt.sh: $openings is absent" >&2; exit 1; }
cargo build --release --quiet
bin=target/weights-sprt-othel
cp target/release/othel "$bin"
bin=$PWD/$bin
old_args=""
[ -n "$old" ] && old_args="--weights $(realpath "$old")"
rm -f target/weights-sprt.ggf
"$bin" match \
  --engine "name=new cmd=\"$bin --weights $new --threads 1\" option.book=off movetime=40" \
  --engine "name=old cmd=\"$bin $old_args --threads 1\" option.book=off movetime=40" \
  --openings "$openings" --seed 11 --concurrency 2 --out target/weights-sprt.ggf "$@"
