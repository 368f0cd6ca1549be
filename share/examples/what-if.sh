#!/bin/sh
# What if the gang of 8 in share/sample/gang/ were submitted now, and what if
# the nightly batch Job were scaled up as well? Runs preempt-plan --simulate
# on the bundled sample cluster and prints the plans as tables.
#   share/examples/what-if.sh [cluster.json]
# preempt-plan must be on PATH (or set PREEMPT_PLAN).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cluster=${1:-$here/../sample/gang/cluster.json}
pp=${PREEMPT_PLAN:-preempt-plan}

echo "== The queue as it stands: the training gang, then everything its victims cause"
"$pp" --simulate -o table "$cluster"
status=$?
echo
echo "== What if the batch-nightly Job ran 4 more pods?"
"$pp" --simulate -o table --scale Job/default/batch-nightly --replicas 4 "$cluster"
echo
echo "== The same without controllers recreating victims (no cascade)"
"$pp" --simulate --no-cascade "$cluster" | tail -n 1
# 0: every pending unit placed or nominated; 1: some stay pending; 2: trouble
[ "$status" -le 1 ] && exit 0
exit "$status"
