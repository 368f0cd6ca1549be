#!/bin/sh
# What if I applied these manifests, scaled that Job, or just let the queue
# run? preempt-plan --simulate on the bundled busy cluster, as tables.
#   share/examples/what-if.sh [cluster.json]
# preempt-plan must be on PATH (or set PREEMPT_PLAN).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cluster=${1:-$here/../sample/gang/cluster.json}
pp=${PREEMPT_PLAN:-preempt-plan}

echo "== What if the checkout rollout in share/examples/rollout/ were applied now?"
"$pp" --simulate -o table "$cluster" --apply "$here/rollout" 2>/dev/null
status=$?
echo
echo "== The queue as it stands: the training gang, then everything its victims cause"
"$pp" --simulate -o table "$cluster" 2>/dev/null
echo
echo "== What if the batch-nightly Job ran 12 pods instead of 8 (kubectl scale sets the count)?"
"$pp" --simulate -o table --scale job/batch-nightly --replicas 12 "$cluster" 2>/dev/null
echo
echo "== The same without controllers recreating victims (no cascade)"
"$pp" --simulate --no-cascade "$cluster" 2>/dev/null | grep '"kind":"SimulationSummary"'
# 0: every pending unit placed or nominated; 1: some stay pending; 2: trouble
[ "$status" -le 1 ] && exit 0
exit "$status"
