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

# The scheduler's choice and the API calls it would make:
preempt-plan -o table </tmp/victims.$$.ndjson
plan=$(preempt-plan </tmp/victims.$$.ndjson)
rm -f /tmp/victims.$$.ndjson
echo "$plan" | jq -e 'select(.kind == "PreemptionPlan") | .result == "Preempt" and (.nominatedNodeName | type == "string")' >/dev/null
echo "$plan" | jq -r 'select(.kind == "PreemptionPlan") | .actions[] | "  \(.call) \(.namespace // "")/\(.name // "")"'
