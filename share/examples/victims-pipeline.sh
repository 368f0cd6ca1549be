#!/usr/bin/env bash
# Workflow 1: what would this pod evict, and where?
# With a live cluster:  kubectl get nodes,pods,pdb,priorityclasses -A -o json > cluster.json
# Here the bundled sample stands in for it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cluster=${1:-$here/sample/cluster.json}
pod=${2:-$here/sample/preemptor.yaml}

# Every feasible node with its victims (Candidate records), and with --explain
# why the other nodes are not candidates:
victims --preemptor "$pod" --explain "$cluster" >/tmp/victims.$$.ndjson
echo "candidate nodes:"
jq -r 'select(.kind == "Candidate") | "  \(.node): \(.victims | length) victim(s), \(.numPDBViolations) PDB violation(s)"' /tmp/victims.$$.ndjson

# The same as a table: the '*' marks the node the scheduler would choose,
# the footer says why, and the other nodes are grouped by what failed.
victims --preemptor "$pod" --explain -o table "$cluster"

# The scheduler's choice and the API calls it would make; decidedBy names the
# criterion of pickOneNodeForPreemption that chose the node, and warnings
# whatever victims had to assume (empty here: the sample is complete).
preempt-plan -o table </tmp/victims.$$.ndjson
plan=$(preempt-plan </tmp/victims.$$.ndjson)
rm -f /tmp/victims.$$.ndjson
# (the last record is the StreamEnd that closes a complete answer: select by kind)
echo "$plan" | jq -se 'map(select(.kind == "PreemptionPlan")) | all(.result == "Preempt" and (.nominatedNodeName | type == "string") and .warnings == [])' >/dev/null
echo "$plan" | jq -r 'select(.kind == "PreemptionPlan") | "decided by: \(.decidedBy)"'
echo "$plan" | jq -r 'select(.kind == "PreemptionPlan") | .actions[] | "  \(.call) \(.namespace // "")/\(.name // "")"'

# A pod that fits is an answer too (exit 0), with where it fits.
printf 'kind: Pod\nmetadata: {name: small, namespace: shop}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: 10m}}}]\n' |
	victims --preemptor - -o table "$cluster"
