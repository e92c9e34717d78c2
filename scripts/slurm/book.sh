#!/usr/bin/env bash
# An opening book as a Slurm job array: task K builds shard K's subtrees into OUTDIR/part-K.book;
# a dependent job merges the parts and runs the same build on the merged book, which adds the
# few positions above the split ply and negamaxes the whole.
#
#   scripts/slurm/book.sh TASKS OUT.book -- BUILD-ARGS…
#   e.g. scripts/slurm/book.sh 16 deep.book -- --plies 12 --depth 18 --width 2
set -euo pipefail
tasks=$1
out=$2
shift 2
[ "${1:-}" = "--" ] && shift
othel=${OTHEL:-othel}
outdir=$(dirname "$out")/$(basename "$out" .book)-parts
mkdir -p "$outdir"
args=$(printf '%q ' "$@")
job=$(sbatch --parsable ${SBATCH_ARGS:-} --array=0-$((tasks - 1)) --job-name=othel-book \
  --cpus-per-task=2 --output="$outdir/task-%a.log" --wrap "
    $othel book build $args --shard auto --threads 2 --out $outdir/part-\$SLURM_ARRAY_TASK_ID.book")
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency=afterok:$job --job-name=othel-book-merge \
  --cpus-per-task=2 --output="$outdir/merge.log" --wrap "
    set -e
    $othel book merge $outdir/part-*.book --out $out
    $othel book build $args --threads 2 --out $out")
echo "parts: job $job ($tasks tasks); book: job $merge -> $out"
