#!/usr/bin/env bats
# Nothing lost: on a mixed, partly broken input every tool accounts for every
# object — read = used + skipped + rejected — and counts what it could not read.

load test_helper/common

setup_file() {
	export MIXED="$BATS_FILE_TMPDIR/mixed.yaml"
	cat >"$MIXED" <<'YAML'
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
  status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: p1, namespace: default}
  spec: {nodeName: n1, priority: 10, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm, namespace: default}
- apiVersion: scheduling.k8s.io/v1
  kind: PriorityClass
  metadata: {name: high}
  value: 1000
---
kind: [broken
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb, namespace: default}
spec: {selector: {matchLabels: {app: x}}}
status: {disruptionsAllowed: 1}
YAML
}

# check_accounting TOOL ARGS...: the stats line adds up, 5 objects read, 1 unreadable
check_accounting() {
	run "$@" --stats "$MIXED"
	line=$(grep -E '^[a-z-]+: stats: read ' <<<"$output" | head -1)
	[ -n "$line" ] || { echo "$1: no stats line in: $output"; return 1; }
	read -r r u s j x < <(sed -E 's/.*read ([0-9]+), used ([0-9]+), skipped ([0-9]+), rejected ([0-9]+), unreadable ([0-9]+).*/\1 \2 \3 \4 \5/' <<<"$line")
	[ "$r" -eq 5 ] || { echo "$1: read $r, want 5: $line"; return 1; }
	[ "$r" -eq $((u + s + j)) ] || { echo "$1: read $r != used $u + skipped $s + rejected $j"; return 1; }
	[ "$x" -eq 1 ] || { echo "$1: unreadable $x, want 1"; return 1; }
	# and the unreadable document was reported with its place
	[[ "$output" == *"mixed.yaml:20:"* || "$output" == *"mixed.yaml:21:"* ]] || { echo "$1: no file:line for the broken document: $output"; return 1; }
}

@test "pc-validate accounts for every object" { check_accounting pc-validate; }
@test "pp-match accounts for every object" { check_accounting pp-match; }
@test "victims accounts for every object" { check_accounting victims --pending; }
@test "preempt-plan accounts for every object" { check_accounting preempt-plan; }
@test "apiq-sim accounts for every record" { check_accounting apiq-sim step; }

@test "skipped objects are counted by kind" {
	run victims --pending --stats "$MIXED"
	assert_output --partial "kind ConfigMap: skipped 1"
	run pc-validate --stats "$MIXED"
	assert_output --partial "kind Node: skipped 1"
}
