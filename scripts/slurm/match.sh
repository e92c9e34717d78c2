#!/usr/bin/env bash
# A match as a Slurm job array: every array task plays its shard of the games into its own GGF
# file; a dependent job merges the files into one summary (with the SPRT decision).
#
#   scripts/slurm/match.sh TASKS OUTDIR -- MATCH-ARGS…
#   e.g. scripts/slurm/match.sh 16 runs/new-vs-old -- \
#          --engine "name=new cmd='othel --weights new.weights --threads 1' movetime=40" \
#          --engine "name=old cmd='othel --threads 1' movetime=40" \
#          --openings ../shared/data/openings/xot-large.txt --seed 11 --games 4000
#
# The summary lands in OUTDIR/summary.txt (and summary.json). A task that is requeued or run
# again resumes its own file. SPRT options go to the merge step: SPRT="elo0=0 elo1=5" in the
# environment. OTHEL names the binary (default: othel on the PATH); SBATCH_ARGS adds sbatch
# options (partition, time limit, …).
set -euo pipefail
tasks=$1
outdir=$2
shift 2
[ "${1:-}" = "--" ] && shift
othel=${OTHEL:-othel}
mkdir -p "$outdir"
args=$(printf '%q ' "$@")
job=$(sbatch --parsable ${SBATCH_ARGS:-} --array=0-$((tasks - 1)) --job-name=othel-match \
  --cpus-per-task=2 --output="$outdir/task-%a.log" --wrap "
    resume=''
    part=$outdir/part-\$SLURM_ARRAY_TASK_ID.ggf
    [ -s \$part ] && resume=--resume
    $othel match $args --shard auto --concurrency 2 --out \$part \$resume")
sprt=''
[ -n "${SPRT:-}" ] && sprt="--sprt $(printf '%q' "$SPRT")"
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency=afterany:$job --job-name=othel-merge \
  --output="$outdir/merge.log" --wrap "
    $othel match --summary $outdir/part-*.ggf $sprt \
      --json $outdir/summary.json > $outdir/summary.txt")
echo "games: job $job ($tasks tasks); summary: job $merge -> $outdir/summary.txt"
