#!/usr/bin/env bash
# Coverage-guided fuzzing of one target (fuzz/fuzz_targets/: protocol, notation, ggf, files,
# engine_spec) with cargo-fuzz (libFuzzer), on the nightly toolchain.
# Usage: scripts/fuzz.sh TARGET SECONDS
# Installs cargo-fuzz when absent. The corpus grows in fuzz/corpus/TARGET (not committed); a
# crash is saved in fuzz/artifacts/TARGET and becomes a regression test in tests/.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS}
seconds=${2:-60}
rustup toolchain list | grep -q nightly || { echo "fuzz.sh: needs a nightly toolchain" >&2; exit 1; }
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
mkdir -p "fuzz/corpus/$target"
# Seeds: the repository's own files of the kind the target reads.
case $target in
  files) cp -n weights/othello-6.weights book/othello-6.book book/lehto-9.book "fuzz/corpus/$target/" ;;
  notation) printf -- '--------------OX----XO-------------- X\n' > "fuzz/corpus/$target/start6" ;;
  ggf) printf '(;GM[Othello]PC[x]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)\n' > "fuzz/corpus/$target/game" ;;
  protocol) printf 'setoption size=6\nposition startpos moves c4\ngo depth 3\nisready\n' > "fuzz/corpus/$target/session" ;;
  engine_spec) printf "name=a cmd='othel --threads 1' depth=4" > "fuzz/corpus/$target/spec" ;;
esac
cargo +nightly fuzz run -O "$target" "fuzz/corpus/$target" -- -max_total_time="$seconds" -rss_limit_mb=4096 2>&1 |
  tee "fuzz/$target.log" | grep -E "ERROR|SUMMARY|panicked" | tail -5 || true
# The inputs run and the coverage reached (libFuzzer's last status line), and the corpus size.
grep -E "^#[0-9]+\s" "fuzz/$target.log" | tail -1
grep -E "^Done " "fuzz/$target.log" || true
echo "corpus: $(ls "fuzz/corpus/$target" | wc -l) inputs"
