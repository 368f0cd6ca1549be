#!/usr/bin/env bats
# CLI behaviour of preempt-plan --simulate (the what-if queue simulation).

load test_helper/common
bats_require_minimum_version 1.5.0

setup() {
	GANG="$SAMPLE/gang/cluster.json"
}

sim() {
	preempt-plan --simulate "$@"
}

@test "--simulate --help documents every option, and preempt-plan(1) covers each" {
	run sim --help
	assert_success
	assert_output --partial "Usage: preempt-plan --simulate [options] [SNAPSHOT ...] [--apply PATH ...]"
	flags=$(sim --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
	for f in --apply --namespace --feature-gates --pod-postfilter --scale --replicas --no-cascade --max-recreations; do
		echo "$flags" | grep -qx -- "$f" || fail "--help lacks $f"
	done
	man=$(mandoc -Tascii "$ROOT/share/man/man1/preempt-plan.1" | col -b)
	for f in $flags; do
		grep -qF -- "$f" <<<"$man" || fail "preempt-plan(1) lacks $f"
	done
}

@test "a gang of 8 on a busy cluster, as 1.37 answers (#139980): victims where the first placement lands, summary" {
	run -1 --separate-stderr sim "$GANG"
	# the placement made with every potential victim gone is kept: node-01..08,
	# whose batch-nightly pods cannot be spared even where another placement would
	run jq -se '(.[0] | .preemptor.name == "train" and .result == "Preempt" and .members == 8
		and ([.victims[].name] | sort) == ([range(1; 9)] | map("batch-nightly-0\(.)"))
		and ([.placements[].node] | sort) == ([range(1; 9)] | map("node-0\(.)")))
		and (.[-2] | [.scheduled, .nominated, .unschedulable, .victims, .recreated] == [8, 6, 2, 16, 16])' <<<"$output"
	assert_success
}

@test "a gang of 8 on a busy cluster, as 1.36 answers (#138757): delayed preemption of the cheapest units, summary" {
	run -1 --separate-stderr sim --kubernetes-version 1.36 "$GANG"
	plan=$(head -n 1 <<<"$output")
	summary=$(tail -n 2 <<<"$output" | head -n 1)   # the last record is the StreamEnd
	run jq -e '.preemptor.kind == "PodGroup" and .preemptor.name == "train" and .result == "Preempt"
		and .nominatedNodeName == null and (.placements | length) == 8 and .members == 8 and .minCount == 8
		and ([.victims[].name] | sort) == ["batch-nightly-05","batch-nightly-06","batch-nightly-07","batch-nightly-08","etl-0","etl-1","etl-2","etl-3"]
		and ([.placements[].node] | unique | length) == 8' <<<"$plan"
	assert_success
	# the etl gang's four members come back as their PodGroup, one unit (not four pods)
	run jq -e '.kind == "SimulationSummary" and .nominated == 5 and .scheduled == 5 and .unschedulable == 2
		and .victims == 12 and .recreated == 12 and .cascadingPreemptions == 4 and .podGroups == 2' <<<"$summary"
	assert_success
}

@test "the etl gang (disruptionMode PodGroup) goes as a whole, every member's pod on its own node" {
	run -1 --separate-stderr sim --kubernetes-version 1.36 "$GANG"
	run jq -se 'map(select(.preemptor.kind == "PodGroup")) | .[0] | [.victims[] | select(.name | startswith("etl-")) | .node] | sort == ["node-09","node-10","node-11","node-12"]' <<<"$output"
	assert_success
}

@test "-o table shows one row per unit and the summary line" {
	run -1 --separate-stderr sim -o table "$GANG"
	assert_line --index 0 --regexp '^PREEMPTOR +PRIORITY +RESULT +NODE +VICTIMS +REASON$'
	assert_line --regexp '^podgroup/ml/train +5000 +Preempt +8 placed +8 '
	assert_line --regexp '^default/api-canary +1000 +NoPreemptionNeeded +node-01 '
	assert_line '16 unit(s): 8 scheduled, 6 nominated, 2 unschedulable; 16 victim(s), 16 recreated, 4 cascading preemption(s)'
}

@test "exit 0 when every pending unit is placed or nominated" {
	run -0 --separate-stderr sim --no-cascade "$GANG"
	run jq -se '.[-2] | .kind == "SimulationSummary" and .unschedulable == 0 and .nominated == 2 and .scheduled == 1' <<<"$output"
	assert_success
}

@test "--scale with --replicas sets the count as kubectl scale does: 8 running, 12 wanted, 4 new pods" {
	run -1 --separate-stderr sim --scale Job/default/batch-nightly --replicas 12 "$GANG"
	run jq -se '([.[] | select(.scaled == true)] | length) == 4 and .[-2].scaled == 4
		and ([.[] | select(.scaled == true) | .preemptor.name] == ["batch-nightly-scaled-1","batch-nightly-scaled-2","batch-nightly-scaled-3","batch-nightly-scaled-4"])
		and (.[] | select(.kind == "AppliedObject") | .action == "scale" and .detail == "parallelism 8 -> 12" and .pods == 4)' <<<"$output"
	assert_success
}

@test "--scale to fewer replicas deletes pods as the ReplicaSet controller does, kubectl's deploy/NAME with -n" {
	run -1 --separate-stderr sim --scale deploy/web -n default --replicas 6 "$GANG"
	run jq -se '.[] | select(.kind == "AppliedObject") | .action == "scale" and .detail == "replicas 8 -> 6"
		and .pods == 0 and .deleted == 2 and (.deletedPods | map(.name) | all(startswith("web-7d9f6-")))' <<<"$output"
	assert_success
	run -1 --separate-stderr sim --scale deployment.apps/web --replicas 6 "$GANG"
	run jq -se '[.[] | select(.kind == "AppliedObject")] | length == 1 and .[0].deleted == 2' <<<"$output"
	assert_success
}

@test "--scale a kind kubectl cannot scale: exit 2" {
	run -2 sim --scale daemonset/node-exporter -n monitoring --replicas 3 "$GANG"
	assert_output --partial "cannot scale a daemonset"
}

@test "--scale names an object the input does not have: exit 2 with a message" {
	run -2 sim --scale Deployment/default/nope --replicas 1 "$GANG"
	assert_output --partial "no such object in the input"
}

@test "--replicas without --scale is a usage error" {
	run -2 sim --replicas 3 "$GANG"
	assert_output --partial "--replicas and --scale go together"
}

@test "--feature-gates: unknown gate and bad value are usage errors" {
	run -2 sim --feature-gates WorkloadAwarePremption=true "$GANG"
	assert_output --partial 'unrecognized feature gate: WorkloadAwarePremption (did you mean WorkloadAwarePreemption?)'
	run -2 sim --feature-gates WorkloadAwarePreemption=perhaps "$GANG"
	assert_output --partial 'invalid value of WorkloadAwarePreemption=perhaps'
}

@test "on 1.36, WorkloadAwarePreemption off: the gang's members preempt one by one" {
	run --separate-stderr sim --kubernetes-version 1.36 --feature-gates WorkloadAwarePreemption=false "$GANG"
	run jq -se '([.[] | select(.kind == "PreemptionPlan" and .preemptor.kind == "PodGroup")] | length) == 0
		and ([.[] | select(.kind == "PreemptionPlan" and (.preemptor.name | startswith("train-worker")))] | length) == 8' <<<"$output"
	assert_success
}

@test "unparsable input: exit 2 with file:line:col" {
	printf '{"kind": "Pod", "metadata": {' >"$BATS_TEST_TMPDIR/bad.json"
	run -2 sim "$BATS_TEST_TMPDIR/bad.json"
	assert_output --regexp "^preempt-plan: .*bad.json:[0-9]+:[0-9]+: "
}

@test "quiet when piped into head: no write error, only the warnings about what the input holds" {
	run bash -c "preempt-plan --simulate '$GANG' | head -n 1 >/dev/null"
	assert_success
	refute_output --partial "rror"
	refute_output --partial "Broken pipe"
}

@test "--stats accounts for every object read: the Job and the Deployment nobody scales are skipped, and said" {
	run -1 --separate-stderr sim --stats "$GANG"
	[[ "$stderr" == *"preempt-plan: stats: read 80, used 78, skipped 2, rejected 0"* ]] || fail "stats: $stderr"
	[[ "$stderr" == *"preempt-plan: stats: kind Job: skipped 1, rejected 0"* ]] || fail "stats: $stderr"
	[[ "$stderr" == *"warning: 1 Deployment object(s) not used: --simulate plays the pods the snapshot has; to apply a manifest give it with --apply"* ]] || fail "warning: $stderr"
	run -1 --separate-stderr sim --stats --scale Job/default/batch-nightly --replicas 9 "$GANG"
	[[ "$stderr" == *"preempt-plan: stats: read 80, used 79, skipped 1, rejected 0"* ]] || fail "stats: $stderr"
}

@test "recreationsDropped > 0 is said on stderr and under the table, naming --max-recreations" {
	run -0 --separate-stderr sim --max-recreations 2 -o table "$GANG"
	[[ "$stderr" == *"warning: 9 victim(s) their controllers would recreate were not re-queued: --max-recreations 2 was reached"* ]] || fail "stderr: $stderr"
	assert_line --partial "Warning: 9 victim(s) their controllers would recreate were not re-queued"
	run -1 --separate-stderr sim "$GANG"
	[[ "$stderr" != *"re-queued"* ]] || fail "no warning without drops: $stderr"
}

@test "a pending pod naming a PodGroup that is not in the input: warned once with a count, in the plan and under the table" {
	jq '.items |= map(select(.kind != "PodGroup" or .metadata.name != "train"))' "$GANG" >"$BATS_TEST_TMPDIR/c.json"
	run -1 --separate-stderr sim "$BATS_TEST_TMPDIR/c.json"
	[[ "$stderr" == *'warning: PodGroup ml/train (spec.schedulingGroup.podGroupName) is not in the input: planned as a pod on its own; upstream holds'* ]] || fail "stderr: $stderr"
	[[ "$stderr" == *'warning: 7 more: PodGroup ml/train not in the input'* ]] || fail "the count: $stderr"
	[ "$(grep -c 'PodGroup ml/train' <<<"$stderr")" = 2 ] || fail "said once, then counted: $stderr"
	run jq -se '[.[] | select(.kind == "PreemptionPlan" and (.preemptor.name | startswith("train-worker")))]
		| length == 8 and all(.warnings | any(test("PodGroup ml/train .* is not in the input.*waiting for pod.s pod group")))' <<<"$output"
	assert_success
	run -1 --separate-stderr sim -o table "$BATS_TEST_TMPDIR/c.json"
	assert_line --regexp '^Warning: PodGroup ml/train .*is not in the input.*\(8 times\)$'
}

@test "-o wide lists each unit's victims and the whole reason" {
	run -1 --separate-stderr sim -o wide "$GANG"
	assert_line --index 0 --regexp '^PREEMPTOR +PRIORITY +RESULT +NODE +VICTIMS +VICTIM-PODS +REASON$'
	assert_line --regexp '^podgroup/ml/train +5000 +Preempt +8 placed +8 +default/batch-nightly-01,default/batch-nightly-02,'
	assert_line --regexp '^default/api-canary .*<none> +fits without preemption'
}

@test "share/examples/what-if.sh runs on the bundled sample" {
	run env PATH="$BIN:$PATH" "$ROOT/share/examples/what-if.sh"
	assert_success
	assert_output --partial "podgroup/ml/train"
	assert_output --partial '"kind":"SimulationSummary"'
}

@test "a snapshot without nodes: exit 2 with a message, as for every snapshot consumer" {
	jq '.items |= map(select(.kind != "Node"))' "$GANG" >"$BATS_TEST_TMPDIR/c.json"
	run -2 --separate-stderr sim "$BATS_TEST_TMPDIR/c.json"
	[[ "$stderr" == *"preempt-plan: no nodes in the snapshot: --simulate needs them"* ]] || fail "stderr: $stderr"
	[ -z "$output" ] || fail "no records: $output"
}

@test "--no-headers: only the rows of -o table, for scripts" {
	run -1 --separate-stderr sim -o table --no-headers "$GANG"
	refute_line --regexp '^PREEMPTOR'
	refute_line --partial 'unit(s):'
	assert_line --regexp '^podgroup/ml/train +5000 +Preempt '
}

# Three nodes, node-a half full: the scheduler's LeastAllocated and
# BalancedAllocation rank the empty node-b and node-c above it, equally.
placement_cluster() {
	cat <<'JSON'
{"kind": "List", "items": [
 {"kind": "Node", "metadata": {"name": "node-a", "labels": {"kubernetes.io/hostname": "node-a"}}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "node-b", "labels": {"kubernetes.io/hostname": "node-b"}}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
 {"kind": "Node", "metadata": {"name": "node-c", "labels": {"kubernetes.io/hostname": "node-c"}}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
 {"kind": "Pod", "metadata": {"name": "busy", "namespace": "default", "uid": "u-busy"}, "spec": {"nodeName": "node-a", "containers": [{"name": "c", "resources": {"requests": {"cpu": "2", "memory": "4Gi"}}}]}, "status": {"phase": "Running"}},
 {"kind": "Pod", "metadata": {"name": "web", "namespace": "default", "uid": "u-web"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]}, "status": {"phase": "Pending"}}
]}
JSON
}

@test "a pod that fits goes where the default score plugins put it, and the plan says a tie was broken" {
	placement_cluster >"$BATS_TEST_TMPDIR/c.json"
	run -0 --separate-stderr sim "$BATS_TEST_TMPDIR/c.json"
	run jq -se '.[0] | .result == "NoPreemptionNeeded" and .node == "node-b"
		and .placement.node == "node-b" and .placement.tiedNodes == 2 and .placement.tieBroken == true
		and .placement.scoredNodes == 3 and .placement.plugins.NodeResourcesFit.score == 81
		and .placement.plugins.NodeResourcesBalancedAllocation == {score: 71, weight: 1}
		and (.reason | endswith("placed on node-b: score 452, the highest of 3 node(s), tied with 1 other(s): the lowest name taken (upstream: at random)"))' <<<"$output"
	assert_success
	# BalancedAllocation, 1.37 (#135573): web (cpu 1/4, memory 1/8) leaves node-b's balance
	# 93 from 100, node-a's 93 from 100 too: 50 + (50 + 93 - 100) / 2 = 71 on each
	run -0 sim -o wide "$BATS_TEST_TMPDIR/c.json"
	assert_line --regexp '^default/web +0 +NoPreemptionNeeded +node-b +0 .*placed on node-b: score 452'
	# 1.35 scores the balance with the pod: 93, and 474
	run -0 --separate-stderr sim --kubernetes-version 1.35 "$BATS_TEST_TMPDIR/c.json"
	run jq -se '.[0] | .node == "node-b" and .placement.score == 474
		and .placement.plugins.NodeResourcesBalancedAllocation == {score: 93, weight: 1}' <<<"$output"
	assert_success
}

@test "a pod that fits avoids PreferNoSchedule taints it does not tolerate: TaintToleration (weight 3) decides" {
	placement_cluster | jq '.items[0].spec.taints = [{key: "spot", value: "true", effect: "PreferNoSchedule"}]
		| .items[1].spec.taints = [{key: "spot", value: "true", effect: "PreferNoSchedule"}]' >"$BATS_TEST_TMPDIR/c.json"
	run -0 --separate-stderr sim "$BATS_TEST_TMPDIR/c.json"
	run jq -se '.[0] | .node == "node-c" and .placement.tiedNodes == 1 and .placement.tieBroken == false
		and .placement.plugins.TaintToleration.score == 100 and .placement.score == 452' <<<"$output"
	assert_success
}

@test "a victim already terminating is not recreated: its controller replaced it when its deletion began" {
	cat >"$BATS_TEST_TMPDIR/c.json" <<'JSON'
{"kind": "List", "items": [
 {"kind": "Node", "metadata": {"name": "node-a"}, "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}}},
 {"kind": "Pod", "metadata": {"name": "old-1", "namespace": "default", "uid": "u-old-1", "deletionTimestamp": "2026-01-01T00:00:00Z",
   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "old", "uid": "rs", "controller": true}]},
  "spec": {"nodeName": "node-a", "priority": 0, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}, "status": {"phase": "Running"}},
 {"kind": "Pod", "metadata": {"name": "old-2", "namespace": "default", "uid": "u-old-2",
   "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "old", "uid": "rs", "controller": true}]},
  "spec": {"nodeName": "node-a", "priority": 0, "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}, "status": {"phase": "Running"}},
 {"kind": "Pod", "metadata": {"name": "big", "namespace": "default", "uid": "u-big"},
  "spec": {"priority": 1000, "containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}}}]}, "status": {"phase": "Pending"}}
]}
JSON
	run --separate-stderr sim "$BATS_TEST_TMPDIR/c.json"
	run jq -se '(.[0] | .result == "Preempt" and ([.victims[].name] | sort) == ["old-1", "old-2"] and .requeuedVictims == 1)
		and ([.[] | select(.kind == "PreemptionPlan" and .recreated) | .preemptor.name] == ["old-2-recreated"])
		and (.[-2] | .recreated == 1)' <<<"$output"
	assert_success
}

@test "--simulate: plans (of pods and of pod groups) and SimulationSummary records name the release" {
	run --separate-stderr sim --kubernetes-version 1.36 "$GANG"
	run jq -se 'map(.kind) | unique == ["PreemptionPlan", "SimulationSummary", "StreamEnd"]' <<<"$output"
	assert_success
	run --separate-stderr sim --kubernetes-version 1.36 "$GANG"
	run jq -se 'all(.kubernetesVersion == "1.36")' <<<"$output"
	assert_success
	run --separate-stderr sim "$GANG"
	run jq -se 'any(.preemptor.kind == "PodGroup") and all(.kubernetesVersion == "1.37")' <<<"$output"
	assert_success
}

@test "1.37 reprieves a gang's victims in place (#139980), 1.36 by scheduling again (#138757): answers differ, neither says an assumption" {
	run -0 --separate-stderr sim --no-cascade "$GANG"
	new=$(jq -sc '[.[] | select(.preemptor.kind == "PodGroup") | .victims[].name] | sort' <<<"$output")
	[[ $stderr != *"#139980"* && $stderr != *"#138757"* ]] || fail "stderr: $stderr"
	run jq -se 'all(.warnings // [] | all(test("#13(9980|8757)") | not))' <<<"$output"
	assert_success
	run -0 --separate-stderr sim --no-cascade --kubernetes-version 1.36 "$GANG"
	old=$(jq -sc '[.[] | select(.preemptor.kind == "PodGroup") | .victims[].name] | sort' <<<"$output")
	[ "$new" = '["batch-nightly-01","batch-nightly-02","batch-nightly-03","batch-nightly-04","batch-nightly-05","batch-nightly-06","batch-nightly-07","batch-nightly-08"]' ] || fail "1.37: $new"
	[ "$old" = '["batch-nightly-05","batch-nightly-06","batch-nightly-07","batch-nightly-08","etl-0","etl-1","etl-2","etl-3"]' ] || fail "1.36: $old"
}

@test "a CompositePodGroup is one preemptor in 1.37; 1.36 (which has none) plans its PodGroups each alone, and says so" {
	cpg="$ROOT/test/fixtures/simulate/PR139596-PR140634-a-CompositePodGroup-preempts-as-one-for-every-PodGroup-under-it/cluster.json"
	run -0 --separate-stderr sim "$cpg"
	run jq -sc '[.[] | select(.kind == "PreemptionPlan") | .preemptor.name]' <<<"$output"
	assert_output '["job"]'
	run -0 --separate-stderr sim --kubernetes-version 1.36 "$cpg"
	[[ $stderr == *"Kubernetes 1.36 has no CompositePodGroup"*"each PodGroup under one is scheduled and preempted on its own"* ]] ||
		fail "stderr: $stderr"
	run jq -sc '[.[] | select(.kind == "PreemptionPlan") | .preemptor.name]' <<<"$output"
	assert_output '["pg-a","pg-b"]'
}

@test "a CompositePodGroup preemptor is named as one in every format: record kind and policy, table, wide, html" {
	cpg="$FIX/simulate/PR139596-PR140634-CompositePodGroup-minGroupCount-1-a-child-short-of-minCount-gives-its-place-back/cluster.json"
	run -0 --separate-stderr sim "$cpg"
	run jq -ce 'select(.kind == "PreemptionPlan") | [.preemptor.kind, .preemptor.namespace, .preemptor.name,
		.preemptor.uid, .members, .minGroupCount, .membersNeeded, has("minCount")]' <<<"$output"
	assert_output '["CompositePodGroup","default","job","uid-job",4,1,2,false]'
	for o in table wide; do
		run -0 --separate-stderr sim -o "$o" "$cpg"
		assert_line --regexp '^compositepodgroup/default/job +1000 +Preempt +2 placed +2 '
	done
	run -0 --separate-stderr sim -o html "$cpg"
	assert_output --partial '<tr id="compositepodgroup-default.job">'
	assert_output --partial '<a href="#compositepodgroup-default.job">compositepodgroup default/job</a></td><td>Preempt</td><td class="n">4</td><td>minGroupCount 1: 2 member(s)</td>'
	# a PodGroup's plan keeps minCount
	run -1 --separate-stderr sim --kubernetes-version 1.36 "$GANG"
	run jq -se 'map(select(.preemptor.kind == "PodGroup")) | .[0] | .minCount == 8 and (has("minGroupCount") | not)' <<<"$output"
	assert_success
}

@test "the summary counts a NotEligible unit apart from the unschedulable ones" {
	cluster="$BATS_TEST_TMPDIR/ne.json"
	jq '.items += [{"apiVersion": "v1", "kind": "Pod",
		"metadata": {"name": "never", "namespace": "default", "uid": "uid-never", "creationTimestamp": "2026-11-20T09:00:00Z"},
		"spec": {"priority": 2000, "preemptionPolicy": "Never",
			"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"cpu": "7"}}}]},
		"status": {"phase": "Pending"}}]' "$SAMPLE/cluster.json" >"$cluster"
	run -1 --separate-stderr sim -o table --no-cascade "$cluster"
	assert_line --regexp '^default/never +2000 +NotEligible '
	assert_line --regexp '^[0-9]+ unit\(s\): [0-9]+ scheduled, [0-9]+ nominated, 1 unschedulable, 1 not eligible to preempt; '
	run -1 --separate-stderr sim --no-cascade "$cluster"
	run jq -se 'map(select(.kind == "SimulationSummary")) | length == 1 and (.[0] | .notEligible == 1 and .unschedulable == 1)' <<<"$output"
	assert_success
}

@test "the GPU sample with --dra-preemption=kep-5690: chat-api-1 preempts embed-batch-0, the holder of the four H100s, which its recreation does not take back; said to be the proposal's" {
	run -1 --separate-stderr preempt-plan --simulate --dra-preemption=kep-5690 "$SAMPLE/gpu/cluster.json"
	run jq -ce 'select(.kind == "PreemptionPlan") | [.preemptor.name, .result, .nominatedNodeName, ([.victims[]? | "\(.namespace)/\(.name)"] | join(",")), ([.devices[]?.device] | join(",")), any(.warnings[]; contains("KEP-5690") and contains("not merged"))]' <<<"$output"
	assert_output $'["chat-api-1","Preempt","gpu-h100-1","batch/embed-batch-0","",true]\n["train-llm-1","NoPreemptionNeeded",null,"","gpu-2,gpu-3",true]\n["embed-batch-0-recreated","Unschedulable",null,"","",true]'
	[[ $stderr == *"pod serving/chat-api-1: DRA preemption as KEP-5690 proposes"* ]] || fail "stderr: ${stderr:0:300}"
	run -1 --separate-stderr preempt-plan --simulate --dra-preemption=kep-5690 -o table "$SAMPLE/gpu/cluster.json"
	assert_output --regexp 'serving/chat-api-1 +100000 +Preempt +gpu-h100-1 '
	assert_output --partial "DRA preemption as KEP-5690 proposes"
}

@test "the GPU sample: a claim's devices place a pod where two A100s are free; four H100s held by a batch pod are named, not preempted" {
	run -1 --separate-stderr preempt-plan --simulate "$SAMPLE/gpu/cluster.json"
	run jq -ce 'select(.kind == "PreemptionPlan") | [.preemptor.name, .result, .node, ([.devices[]?.device] | join(","))]' <<<"$output"
	assert_output $'["chat-api-1","Unschedulable",null,""]\n["train-llm-1","NoPreemptionNeeded","gpu-a100-2","gpu-2,gpu-3"]'
	run -1 --separate-stderr sh -c "victims --preemptor '$SAMPLE/gpu/preemptor.yaml' '$SAMPLE/gpu/cluster.json' | preempt-plan"
	run jq -se 'map(select(.kind == "PreemptionPlan")) | length == 1 and (.[0] | .result == "Unschedulable" and .victims == []
		and any(.warnings[]; test("held by lower-priority pods: gpu.example.com/gpu-h100-1/gpu-0 .claim batch/embed-batch-0-gpus-q8x2v, reserved for batch/embed-batch-0")))' <<<"$output"
	assert_success
}

@test "DRA: a pending pod's note names 8 held devices and counts the rest" {
	# the batch pod on gpu-h100-1 holds 12 more H100s than the sample's four
	big="$BATS_TEST_TMPDIR/big.json"
	jq '.items |= map(
		if .kind == "ResourceSlice" and .spec.nodeName == "gpu-h100-1" then
			.spec.devices += [range(8; 20) as $i | .spec.devices[0] | .name = "gpu-\($i)"]
		elif .kind == "ResourceClaim" and .metadata.name == "embed-batch-0-gpus-q8x2v" then
			.status.allocation.devices.results += [range(8; 20) as $i | .status.allocation.devices.results[0] | .device = "gpu-\($i)"]
		else . end)' "$SAMPLE/gpu/cluster.json" >"$big"
	run -1 --separate-stderr preempt-plan --simulate "$big"
	run jq -r 'select(.kind == "PreemptionPlan" and .preemptor.name == "chat-api-1") | .warnings[] | select(test("held by lower-priority"))' <<<"$output"
	[ "$(grep -o 'reserved for batch/embed-batch-0)' <<<"$output" | wc -l)" -eq 8 ] || fail "$output"
	assert_output --partial "gpu-h100-1/gpu-11 (claim batch/embed-batch-0-gpus-q8x2v, reserved for batch/embed-batch-0) and 8 more; through 1.37"
}
