#!/usr/bin/env bats
# CLI behaviour of preempt-plan(1).

load test_helper/common
bats_require_minimum_version 1.5.0

setup() {
	CLUSTER="$SAMPLE/cluster.json"
	PREEMPTOR="$SAMPLE/preemptor.yaml"
}

plan() {
	victims "$@" | preempt-plan
}

@test "preempt-plan --version prints the version" {
	run preempt-plan --version
	assert_success
	assert_output --regexp '^preempt-plan [0-9]+\.[0-9]+\.[0-9]+ \(answers for Kubernetes 1\.37\)$'
}

@test "every flag of --help is in the man page and all three completions" {
	flags=$({ preempt-plan --help; preempt-plan --simulate --help; } | grep -oE -- '--[a-z][a-z-]+' | sort -u)
	[ -n "$flags" ]
	for f in $flags; do
		grep -qE -- "(Fl|,|\\|) -${f#--}( |$)" "$ROOT/share/man/man1/preempt-plan.1" || fail "man page lacks $f"
		grep -qF -- "$f" "$ROOT/completions/bash/preempt-plan" || fail "bash completion lacks $f"
		grep -qF -- "$f" "$ROOT/completions/zsh/_preempt-plan" || fail "zsh completion lacks $f"
		grep -qF -- "-l ${f#--}" "$ROOT/completions/fish/preempt-plan.fish" || fail "fish completion lacks $f"
	done
}

@test "the README demo: the sample preemptor preempts on demo-worker4" {
	run bash -c 'victims --preemptor "$1" "$2" | preempt-plan -o table' _ "$PREEMPTOR" "$CLUSTER"
	assert_success
	assert_line --index 0 --regexp '^PREEMPTOR +PRIORITY +RESULT +NODE +VICTIMS +ADJUSTED-SUM +REASON$'
	assert_line --index 1 --regexp '^shop/checkout-7c9d5b8f4-m2x6q +1000000 +Preempt +demo-worker4 +2 +2x2\^31\+90 +preempting 2 pod\(s\) on node demo-worker4, chosen from 4 candidate node\(s\) by smallest priority sum$'
}

@test "victims --explain | preempt-plan -o table: the other nodes, grouped by plugin and reason" {
	run -0 bash -c 'victims --explain --preemptor "$1" "$2" | preempt-plan -o table' _ "$PREEMPTOR" "$CLUSTER"
	[ "${#lines[@]}" -eq 6 ]   # the footer: the rule of ADJUSTED-SUM, then the release
	assert_line --index 5 'Answers for Kubernetes 1.37 (--kubernetes-version).'
	# one group per taint (upstream's reason names none, #134740: the record does)
	assert_line --index 2 --regexp '^shop/checkout-7c9d5b8f4-m2x6q +1000000 +NotCandidate +demo-control-plane +0 +<none> +1 node\(s\): TaintToleration: node\(s\) had untolerated taint\(s\) \(Filter UnschedulableAndUnresolvable; Preemption is not helpful for scheduling; untolerated: node-role.kubernetes.io/control-plane:NoSchedule\)$'
	assert_line --index 3 --regexp '^shop/checkout-7c9d5b8f4-m2x6q +1000000 +NotCandidate +demo-gpu1 +0 +<none> +1 node\(s\): TaintToleration: node\(s\) had untolerated taint\(s\) \(Filter UnschedulableAndUnresolvable; Preemption is not helpful for scheduling; untolerated: nvidia.com/gpu=present:NoSchedule\)$'
}

@test "the plan names the criterion of pickOneNodeForPreemption that decided" {
	run -0 plan --preemptor "$PREEMPTOR" "$CLUSTER"
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "PreemptionPlan") | .decidedBy')" = "smallest priority sum" ]
	[[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "PreemptionPlan") | .reason')" == "preempting 2 pod(s) on node demo-worker4, chosen from 4 candidate node(s) by smallest priority sum; "* ]]
}

@test "what victims assumed is carried into the plan and under the table" {
	printf 'kind: Pod\nmetadata: {name: x, namespace: shop}\nspec:\n  priorityClassName: no-such-class\n  containers: [{name: c, resources: {requests: {cpu: "3"}}}]\n' > "$BATS_TEST_TMPDIR/x.yaml"
	victims --preemptor "$BATS_TEST_TMPDIR/x.yaml" "$CLUSTER" 2>/dev/null > "$BATS_TEST_TMPDIR/x.ndjson" || true
	run -1 preempt-plan "$BATS_TEST_TMPDIR/x.ndjson"
	printf '%s\n' "$output" | head -n 1 | jq -e '.warnings | length == 1 and (.[0] | contains("priorityClassName \"no-such-class\" not found in the input; admission would have rejected the pod"))'
	run -1 preempt-plan -o table "$BATS_TEST_TMPDIR/x.ndjson"
	assert_output --partial 'Warning: pod shop/x: priorityClassName "no-such-class" not found in the input'
	run -1 preempt-plan -o table --no-headers "$BATS_TEST_TMPDIR/x.ndjson"
	refute_output --partial 'Warning:'
}

@test "the PostFilter gate that stopped a gang member is carried into its plan" {
	run -1 bash -c 'victims --pending "$1" 2>/dev/null | preempt-plan' _ "$SAMPLE/gang/cluster.json"
	[ "$(printf '%s\n' "$output" | jq -r 'select(.preemptor.name == "train-worker-0") | "\(.result) \(.postFilter.gate)"')" = "NotEligible GenericWorkload" ]
}

@test "the plan lists victims and the API calls in the executor's order" {
	run plan --preemptor "$PREEMPTOR" "$CLUSTER"
	assert_success
	calls=$(printf '%s\n' "$output" | jq -r 'select(.kind == "PreemptionPlan") | [.actions[] | "\(.call) \(.name)"] | join(";")')
	[ "$calls" = "pod_status_patch report-29871540-h4j8l;pod_delete report-29871540-h4j8l;pod_status_patch notebook-dave;pod_delete notebook-dave;pod_status_patch checkout-7c9d5b8f4-m2x6q" ]
	msg=$(printf '%s\n' "$output" | jq -r 'select(.kind == "PreemptionPlan") | .actions[0].details.condition | "\(.type) \(.status) \(.reason): \(.message)"')
	[ "$msg" = "DisruptionTarget True PreemptionByScheduler: default-scheduler: preempting to accommodate a higher priority pod" ]
}

@test "-o wide shows the victim pods" {
	run bash -c 'victims --preemptor "$1" "$2" | preempt-plan -o wide' _ "$PREEMPTOR" "$CLUSTER"
	assert_success
	assert_output --partial "batch/report-29871540-h4j8l,analytics/notebook-dave"
}

@test "a preemptor that fits needs no preemption and exits 0" {
	printf 'kind: Pod\nmetadata: {name: small}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: 10m}}}]\n' > "$BATS_TEST_TMPDIR/small.yaml"
	run plan --preemptor "$BATS_TEST_TMPDIR/small.yaml" "$CLUSTER"
	assert_success
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "PreemptionPlan") | .result')" = NoPreemptionNeeded ]
	[ "$(printf '%s\n' "$output" | jq -c 'select(.kind == "PreemptionPlan") | .actions')" = "[]" ]
	[ "$(printf '%s\n' "$output" | jq -c 'select(.kind == "PreemptionPlan") | .fits')" = '{"count":4,"nodes":["demo-worker1","demo-worker2","demo-worker3","demo-worker4"]}' ]
	# where victims' placement puts it (the default score plugins), not the first node by name
	[ "$(printf '%s\n' "$output" | jq -c 'select(.kind == "PreemptionPlan") | [.node, .placement.node, .placement.score]')" = '["demo-worker1","demo-worker1",411]' ]
	run -0 bash -c 'victims --preemptor "$1" "$2" | preempt-plan -o table' _ "$BATS_TEST_TMPDIR/small.yaml" "$CLUSTER"
	assert_line --index 1 --regexp '^default/small +[0-9]+ +NoPreemptionNeeded +demo-worker1 +0 +<none> +fits without preemption on 4 node\(s\): demo-worker1, demo-worker2, demo-worker3, demo-worker4$'
	run -0 bash -c 'victims --preemptor "$1" "$2" | preempt-plan -o wide' _ "$BATS_TEST_TMPDIR/small.yaml" "$CLUSTER"
	assert_line --index 1 --regexp 'demo-worker4; placed on demo-worker1: score 411, the highest of 4 node\(s\)$'
}

@test "an unplaceable preemptor exits 1 with the scheduler's message" {
	run plan --pending "$CLUSTER"
	assert_failure 1
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "PreemptionPlan") | .result')" = Unschedulable ]
	assert_output --partial 'preemption: 0/6 nodes are available: 2 Preemption is not helpful for scheduling, 4 Insufficient cpu.'
}

@test "two preemptors: the second sees the first one's plan carried out" {
	sed 's/name: checkout-7c9d5b8f4-m2x6q/name: checkout-7c9d5b8f4-z9k4w/' "$PREEMPTOR" > "$BATS_TEST_TMPDIR/second.yaml"
	run plan --preemptor "$PREEMPTOR" --preemptor "$BATS_TEST_TMPDIR/second.yaml" "$CLUSTER"
	assert_success
	nodes=$(printf '%s\n' "$output" | jq -r 'select(.kind == "PreemptionPlan") | "\(.result) \(.nominatedNodeName)"' | tr '\n' ' ')
	[ "$nodes" = "Preempt demo-worker4 Preempt demo-worker2 " ]
}

@test "a complete answer without preemptors is an answer (0): 0 preemptors planned; no input at all is trouble (2)" {
	run -0 --separate-stderr preempt-plan <<<'{"kind":"StreamEnd","producer":"victims","records":0}'
	[ "$output" = '{"kind":"StreamEnd","producer":"preempt-plan","kubernetesVersion":"1.37","records":0}' ]
	[ "$stderr" = "preempt-plan: note: the input is empty: 0 preemptors planned" ]
	# nothing at all: the stage before failed (victims writes a StreamEnd even with no preemptor)
	run -2 --separate-stderr preempt-plan < /dev/null
	[ -z "$output" ]
	[[ $stderr == "preempt-plan: -: no input: the stage before wrote nothing"* ]]
}

@test "objects but no Preemptor/Candidate records are trouble (2); a snapshot suggests --simulate" {
	run -2 preempt-plan "$CLUSTER"
	assert_output --partial "preempt-plan: no Preemptor or Candidate records in the input (58 object(s) of other kinds); it looks like a cluster snapshot: \`preempt-plan --simulate\` plays its pending pods"
	run -2 bash -c 'printf "{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}\n" | preempt-plan'
	assert_line "preempt-plan: no Preemptor or Candidate records in the input (1 object(s) of other kinds)"
}

@test "--simulate hands over to the what-if mode" {
	run preempt-plan --simulate --pod-postfilter -o table "$CLUSTER"
	[ "$status" -ne 2 ]
	assert_output --partial "report-29871560-q4w8e"
}

@test "malformed input is trouble" {
	run bash -c 'printf "{\"kind\":\"Candidate\",\n" | preempt-plan'
	assert_failure 2
	assert_output --regexp 'preempt-plan: .*:[0-9]+:[0-9]+: '
}

@test "Candidate records alone are enough" {
	run bash -c 'victims --preemptor "$1" "$2" | grep -E "Candidate|StreamEnd" | preempt-plan' _ "$PREEMPTOR" "$CLUSTER"
	assert_success
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "PreemptionPlan") | .nominatedNodeName')" = demo-worker4 ]
}

@test "--stats counts the records it used and skipped" {
	run --separate-stderr bash -c 'victims --explain --preemptor "$1" "$2" | preempt-plan --stats' _ "$PREEMPTOR" "$CLUSTER"
	assert_success
	[[ $stderr == *"preempt-plan: stats: read 7, used 5, skipped 2"* ]]
	[[ $stderr == *"kind NodeStatus: skipped 2"* ]]
}

# candidates N: a Preemptor record and N Candidate records of 50 victims,
# whose priorities make node choice pick a candidate in the middle.
candidates() {
	awk -v n="$1" 'BEGIN {
		pre = "{\"namespace\":\"default\",\"name\":\"big\",\"uid\":\"big-uid\",\"priority\":1000}"
		printf "{\"kind\":\"Preemptor\",\"preemptor\":%s,\"status\":\"NeedsPreemption\",\"message\":\"\"}\n", pre
		for (c = 0; c < n; c++) {
			printf "{\"kind\":\"Candidate\",\"preemptor\":%s,\"node\":\"node-%05d\",\"victims\":[", pre, c
			top = (c * 7919) % 997
			for (v = 0; v < 50; v++)
				printf "%s{\"namespace\":\"ns\",\"name\":\"p-%d-%d\",\"uid\":\"u-%d-%d\",\"node\":\"node-%05d\",\"priority\":%d,\"startTime\":\"2026-11-%02dT08:00:00Z\"}",
					v ? "," : "", c, v, c, v, c, top - v, 1 + (c + v) % 28
			printf "],\"numPDBViolations\":%d,\"nominatedPodsToClear\":[]}\n", c % 3 ? 1 : 0
		}
		printf "{\"kind\":\"StreamEnd\",\"producer\":\"victims\",\"records\":%d}\n", n + 1
	}'
}

@test "a plan holds the victims of the leading candidate only: memory does not grow with the candidates, and their order does not matter" {
	candidates 400 >"$BATS_TEST_TMPDIR/few"
	candidates 4000 >"$BATS_TEST_TMPDIR/many"
	{ head -1 "$BATS_TEST_TMPDIR/many"; sed '1d;$d' "$BATS_TEST_TMPDIR/many" | tac; tail -1 "$BATS_TEST_TMPDIR/many"; } >"$BATS_TEST_TMPDIR/reversed"
	preempt-plan "$BATS_TEST_TMPDIR/many" >"$BATS_TEST_TMPDIR/plan"
	preempt-plan "$BATS_TEST_TMPDIR/reversed" >"$BATS_TEST_TMPDIR/plan-reversed"
	cmp "$BATS_TEST_TMPDIR/plan" "$BATS_TEST_TMPDIR/plan-reversed"
	# the table reads every candidate whole: it names the same node and victims
	node=$(head -n 1 "$BATS_TEST_TMPDIR/plan" | jq -r .nominatedNodeName)
	[ "$(head -n 1 "$BATS_TEST_TMPDIR/plan" | jq '.victims | length')" -eq 50 ]
	run preempt-plan -o wide --no-headers "$BATS_TEST_TMPDIR/many"
	assert_output --partial "$node"
	assert_output --partial "ns/p-${node#node-0}-0,"
	[ -n "$SANITIZED" ] && skip "the sanitizers' allocators keep freed memory: peak RSS says nothing there"
	/usr/bin/time -f %M -o "$BATS_TEST_TMPDIR/kb-few" preempt-plan "$BATS_TEST_TMPDIR/few" >/dev/null || true
	/usr/bin/time -f %M -o "$BATS_TEST_TMPDIR/kb-many" preempt-plan "$BATS_TEST_TMPDIR/many" >/dev/null || true
	few=$(tail -1 "$BATS_TEST_TMPDIR/kb-few") many=$(tail -1 "$BATS_TEST_TMPDIR/kb-many")
	echo "peak RSS: 400 candidates $few kB, 4,000 candidates $many kB"
	# 200,000 victim refs of ~100 bytes, decoded, would add 20 MB
	[ $((many - few)) -lt 8000 ]
}

@test "a plan names the release it answers for; records of another release get a warning" {
	victims --kubernetes-version 1.36 --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json" >"$BATS_TEST_TMPDIR/v136"
	run -0 --separate-stderr preempt-plan --kubernetes-version 1.36 "$BATS_TEST_TMPDIR/v136"
	[ -z "$stderr" ]
	run jq -se 'length == 2 and .[0].kind == "PreemptionPlan" and .[0].kubernetesVersion == "1.36" and .[1].kind == "StreamEnd"' <<<"$output"
	assert_success
	run -0 --separate-stderr preempt-plan "$BATS_TEST_TMPDIR/v136"
	[ "$stderr" = "preempt-plan: $BATS_TEST_TMPDIR/v136:1:1: warning: the records answer for Kubernetes 1.36 (kubernetesVersion) but this plan is for 1.37 (--kubernetes-version): their victims are 1.36's choice; run victims and preempt-plan with the same --kubernetes-version" ]
	run jq -e '.kubernetesVersion == "1.37" and (.warnings | any(startswith("the records answer for Kubernetes 1.36")))' <<<"$(head -n 1 <<<"$output")"
	assert_success
	run -0 --separate-stderr preempt-plan -o table "$BATS_TEST_TMPDIR/v136"
	assert_line "Warning: the records answer for Kubernetes 1.36 (kubernetesVersion) but this plan is for 1.37 (--kubernetes-version): their victims are 1.36's choice; run victims and preempt-plan with the same --kubernetes-version"
}

@test "records of an older victims (FitsWithoutPreemption, NeedsPreemption) are planned as before" {
	pre='{"namespace":"default","name":"old","uid":"old-uid","priority":10}'
	end='{"kind":"StreamEnd","producer":"victims","records":1}'
	run bash -c 'printf "%s\n" "{\"kind\":\"Preemptor\",\"preemptor\":$1,\"status\":\"FitsWithoutPreemption\",\"message\":\"\",\"fitsNodes\":[\"n1\"]}" "$2" | preempt-plan' _ "$pre" "$end"
	assert_success
	[ "$(head -n 1 <<<"$output" | jq -r .result)" = NoPreemptionNeeded ]
	run bash -c 'printf "%s\n" "{\"kind\":\"Preemptor\",\"preemptor\":$1,\"status\":\"NeedsPreemption\",\"message\":\"\"}" "{\"kind\":\"Candidate\",\"preemptor\":$1,\"node\":\"n1\",\"victims\":[],\"numPDBViolations\":0}" "$2" | preempt-plan' _ "$pre" "$end"
	assert_success
	[ "$(head -n 1 <<<"$output" | jq -r '[.result, .nominatedNodeName] | join(" ")')" = "Preempt n1" ]
}

@test "victims | preempt-plan: a plan that places nothing carries the diagnosis, the report groups its reasons from it" {
	sed 's/cpu: "2"/cpu: "64"/' "$PREEMPTOR" >"$BATS_TEST_TMPDIR/big.yaml"
	victims --preemptor "$BATS_TEST_TMPDIR/big.yaml" "$CLUSTER" >"$BATS_TEST_TMPDIR/rec.ndjson" || [ $? -eq 1 ]
	run -1 preempt-plan "$BATS_TEST_TMPDIR/rec.ndjson"
	run jq -se 'map(select(.kind == "PreemptionPlan"))[0] | .result == "Unschedulable" and .diagnosis.filter[0].reason == "node(s) had untolerated taint(s)"
		and ([.diagnosis.filter[0].taints[] | .key] == ["node-role.kubernetes.io/control-plane", "nvidia.com/gpu"])
		and .diagnosis.preemption == [{"reason": "Preemption is not helpful for scheduling", "nodes": 6}]' <<<"$output"
	assert_success
	run -1 preempt-plan -o html "$BATS_TEST_TMPDIR/rec.ndjson"
	assert_output --partial '<td>Filter</td><td class="reason">node(s) had untolerated taint(s): nvidia.com/gpu=present:NoSchedule</td><td class="n">1</td><td class="n">1</td>'
	assert_output --partial '<td>Filter</td><td class="reason">Insufficient cpu</td><td class="n">1</td><td class="n">4</td>'
}

@test "a Deferred in-place resize (KEP-5836): the table and the page name its node, the plan writes no nomination" {
	d="$ROOT/test/fixtures/victims/PR140000-TestDeferredResizePodPreemption-preempt-single-low-priority-pod"
	victims --feature-gates InPlacePodVerticalScalingSchedulerPreemption=true --preemptor "$d/preemptor.json" \
		"$d/cluster.json" 2>/dev/null >"$BATS_TEST_TMPDIR/r.ndjson"
	run -0 preempt-plan -o table "$BATS_TEST_TMPDIR/r.ndjson"
	assert_line --index 1 --regexp '^default/preemptor-pod +1000 +Preempt +node1 +1 +1x2\^31\+100 +preempting 1 pod\(s\) on node node1, chosen from 1 candidate node\(s\) by the only candidate$'
	assert_output --partial 'with its in-place resize Deferred (spec requests cpu 300m, memory 100; allocated cpu 100m, memory 100)'
	run -0 preempt-plan -o html "$BATS_TEST_TMPDIR/r.ndjson"
	assert_output --partial 'no nomination (the pod is bound to node1)'
	assert_output --regexp '<td[^>]*>node1</td>'
	refute_output --partial '"nominatedNodeName":"node1"'
}
