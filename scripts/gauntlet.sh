#!/usr/bin/env bash
# A gauntlet of othel against itself at two settings over the XOT openings (shuffled, each played
# twice with the colours reversed): the way to test whether a change or a setting gains strength.
# Usage: scripts/gauntlet.sh [GAMES] [match options…]
#   e.g. scripts/gauntlet.sh 200 --concurrency 2
#        scripts/gauntlet.sh 1000 --sprt elo0=0 elo1=20 alpha=0.05 beta=0.05
# The settings compared are the two --engine lines below: edit them (a second binary, an option,
# a depth) to test what you want. Games go to target/gauntlet.ggf, the summary to stdout and
# target/gauntlet.json.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
shift || true
openings=../shared/data/openings/xot-large.txt
[ -f "$openings" ] || { echo "gauntlet.sh: $openings is absent" >&2; exit 1; }
cargo build --release --quiet
othel=$PWD/target/release/othel
rm -f target/gauntlet.ggf
"$othel" match \
  --engine "name=depth6 cmd=\"$othel --threads 1\" depth=6" \
  --engine "name=depth4 cmd=\"$othel --threads 1\" depth=4" \
  --openings "$openings" --seed 1 --games "$games" \
  --out target/gauntlet.ggf --json target/gauntlet.json "$@"
