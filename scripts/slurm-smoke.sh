#!/usr/bin/env bash
# The real thing on this one machine: a one-node Slurm cluster (munged, slurmctld, slurmd on
# localhost) runs 4-task job arrays of a short match and of self-play data generation through
# scripts/slurm/; the merged match summary and the joined games must equal an unsharded run's
# (the engines search to a fixed depth on one thread, so every game is the same wherever it is
# played). Then the same check with GNU Parallel on localhost. Installs slurm-wlm, munge and
# parallel from the distribution's packages when absent (root); stops every daemon it started.
#
#   scripts/slurm-smoke.sh            (about a minute)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
need=()
command -v slurmctld >/dev/null || need+=(slurm-wlm)
command -v munged >/dev/null || need+=(munge)
command -v parallel >/dev/null || need+=(parallel)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
cargo build --release --quiet
export OTHEL=$root/target/release/othel

work=$(mktemp -d /tmp/othel-slurm-XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

# munge: a key of our own, a socket of our own.
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/log"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$work/munge"
chmod 400 "$work/munge/munge.key"
socket=$work/munge/munge.socket
munged --key-file="$work/munge/munge.key" --socket="$socket" --pid-file="$work/munge/munged.pid" \
  --log-file="$work/munge/munged.log" --seed-file="$work/munge/seed" -f
sleep 1
pids+=("$(cat "$work/munge/munged.pid")")

host=$(hostname -s)
cpus=$(nproc)
cat > "$work/slurm.conf" <<CONF
ClusterName=othelsmoke
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=smoke Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld -i
slurmd
sleep 2
pids+=("$(cat "$work/slurmctld.pid")" "$(cat "$work/slurmd.pid")")
sinfo

wait_jobs() {
  local deadline=$((SECONDS + 600))
  while [ -n "$(squeue -h -o %i)" ]; do
    [ $SECONDS -lt $deadline ] || { echo "jobs did not finish"; squeue; exit 1; }
    sleep 2
  done
}

match_args=(--engine "name=deep cmd='$OTHEL --threads 1' depth=3"
  --engine "name=shallow cmd='$OTHEL --threads 1' depth=1" --size 6 --games 16)
gen_args=(--size 6 --depth 2 --solve 10 --hash 4)

echo "== unsharded runs"
$OTHEL match "${match_args[@]}" --out "$work/whole.ggf" > "$work/whole-summary.txt"
$OTHEL train gen "${gen_args[@]}" --games 40 --from 1000 --threads 2 --out "$work/whole.games" >/dev/null
grep -v '^#' "$work/whole.games" | sort -n > "$work/whole-lines.txt"

echo "== Slurm: 4-task arrays"
scripts/slurm/match.sh 4 "$work/match" -- "${match_args[@]}"
scripts/slurm/selfplay.sh 4 1000 40 "$work/gen" -- "${gen_args[@]}"
wait_jobs
diff "$work/whole-summary.txt" "$work/match/summary.txt"
grep -v '^#' "$work/gen/games-001000.games" > "$work/slurm-lines.txt"
diff "$work/whole-lines.txt" "$work/slurm-lines.txt"
echo "Slurm: the merged match summary and the joined games equal the unsharded run's"

echo "== GNU Parallel on localhost"
parallel -j 2 "$OTHEL" match "${match_args[@]// /\\ }" --shard {}/4 --out "$work/par-{}.ggf" '>' /dev/null ::: 0 1 2 3
$OTHEL match --summary "$work"/par-*.ggf > "$work/par-summary.txt"
diff "$work/whole-summary.txt" "$work/par-summary.txt"
parallel -j 2 "$OTHEL" train gen "${gen_args[@]}" --games 40 --from 1000 --threads 1 --shard {}/4 \
  --out "$work/par-{}.games" '>' /dev/null ::: 0 1 2 3
cat "$work"/par-*.games | grep -v '^#' | sort -n > "$work/par-lines.txt"
diff "$work/whole-lines.txt" "$work/par-lines.txt"
echo "GNU Parallel: the merged match summary and the joined games equal the unsharded run's"
echo "smoke test passed ($work)"
