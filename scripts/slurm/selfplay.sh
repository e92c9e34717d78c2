#!/usr/bin/env bash
# Self-play training games as a Slurm job array: task K plays shard K of the games FIRST …
# FIRST+GAMES−1 into OUTDIR/games-K.games (resumable); a dependent job joins the shards into one
# games file (the header once, then every game line).
#
#   scripts/slurm/selfplay.sh TASKS FIRST GAMES OUTDIR [-- train gen args]
#   e.g. scripts/slurm/selfplay.sh 32 100000 50000 runs/d10 -- --depth 10 --solve 20 \
#          --openings ../shared/data/openings/xot-large.txt
#
# The joined file is OUTDIR/games-FIRST.games, ready for data/othello-8/…/ (data/README.md).
set -euo pipefail
tasks=$1
first=$2
games=$3
outdir=$4
shift 4
[ "${1:-}" = "--" ] && shift
othel=${OTHEL:-othel}
mkdir -p "$outdir"
args=$(printf '%q ' "$@")
job=$(sbatch --parsable ${SBATCH_ARGS:-} --array=0-$((tasks - 1)) --job-name=othel-selfplay \
  --cpus-per-task=2 --output="$outdir/task-%a.log" --wrap "
    $othel train gen --games $games --from $first --shard auto --threads 2 $args \
      --out $outdir/games-\$SLURM_ARRAY_TASK_ID.games")
joined=$(printf '%s/games-%06d.games' "$outdir" "$first")
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency=afterok:$job --job-name=othel-join \
  --output="$outdir/join.log" --wrap "
    set -e
    head -n 1 $outdir/games-0.games > $joined.tmp
    for f in $outdir/games-[0-9]*.games; do grep -v '^#' \$f || true; done | sort -n >> $joined.tmp
    mv $joined.tmp $joined")
echo "games: job $job ($tasks tasks); joined: job $merge -> $joined"
