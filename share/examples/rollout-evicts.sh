#!/bin/sh
# What does this rollout evict? Applies a rollout's manifests to a snapshot of
# the cluster, as kubectl apply would, plays the scheduling queue forward and
# lists the pods the rollout's pods would preempt.
#   share/examples/rollout-evicts.sh [cluster.json [manifest-or-dir ...]]
# With a live cluster, the snapshot is
#   kubectl get nodes,pods,pdb,priorityclasses,podgroups,deployments,statefulsets,daemonsets,jobs -A -o json
# (the workloads let --apply tell a scale from a rollout). Here the bundled
# busy cluster and share/examples/rollout/ stand in for them.
# preempt-plan and jq must be on PATH (or set PREEMPT_PLAN).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cluster=${1:-$here/../sample/gang/cluster.json}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- "$here/rollout"
pp=${PREEMPT_PLAN:-preempt-plan}
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT

"$pp" --simulate "$cluster" --apply "$@" 2>/dev/null >"$out"
status=$?
[ "$status" -le 1 ] || { "$pp" --simulate "$cluster" --apply "$@" >/dev/null; exit "$status"; }

echo "== What the rollout does"
jq -r 'select(.kind == "AppliedObject") | .message' "$out"
echo
echo "== The pods it evicts"
jq -r 'select(.kind == "AppliedObject") | .victimPods[] | "\(.namespace)/\(.name)"' "$out"
echo
echo "== Of those, the ones their controllers recreate, and what becomes of them"
jq -rs '([.[] | select(.kind == "AppliedObject") | .victimPods[] | "\(.namespace)/\(.name)-recreated"]) as $ours
        | .[] | select(.kind == "PreemptionPlan" and .recreated == true)
        | "\(.preemptor.namespace)/\(.preemptor.name)" as $who | select($ours | index($who))
        | "\($who): \(.result) \(.nominatedNodeName // .node // "")"' "$out"
# 0: every pod placed; 1: something stays pending or an object was rejected
exit 0
