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
	assert_output --partial "Usage: preempt-plan --simulate [options] [path ...]"
	flags=$(sim --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
	for f in --feature-gates --pod-postfilter --scale --replicas --no-cascade --max-recreations; do
		echo "$flags" | grep -qx -- "$f" || fail "--help lacks $f"
	done
	man=$(mandoc -Tascii "$ROOT/share/man/man1/preempt-plan.1" | col -b)
	for f in $flags; do
		grep -qF -- "$f" <<<"$man" || fail "preempt-plan(1) lacks $f"
	done
}

@test "a gang of 8 on a busy cluster: one PodGroup plan, delayed preemption of the cheapest units, summary" {
	run -1 sim "$GANG"
	plan=$(head -n 1 <<<"$output")
	summary=$(tail -n 1 <<<"$output")
	run jq -e '.preemptor.kind == "PodGroup" and .preemptor.name == "train" and .result == "Preempt"
		and .nominatedNodeName == null and (.placements | length) == 8 and .members == 8 and .minCount == 8
		and ([.victims[].name] | sort) == ["batch-nightly-05","batch-nightly-06","batch-nightly-07","batch-nightly-08","etl-0","etl-1","etl-2","etl-3"]
		and ([.placements[].node] | unique | length) == 8' <<<"$plan"
	assert_success
	run jq -e '.kind == "SimulationSummary" and .nominated == 5 and .scheduled == 4 and .unschedulable == 6
		and .victims == 12 and .recreated == 12 and .cascadingPreemptions == 4 and .podGroups == 1' <<<"$summary"
	assert_success
}

@test "the etl gang (disruptionMode PodGroup) goes as a whole, every member's pod on its own node" {
	run -1 sim "$GANG"
	run jq -se 'map(select(.preemptor.kind == "PodGroup")) | .[0] | [.victims[] | select(.name | startswith("etl-")) | .node] | sort == ["node-09","node-10","node-11","node-12"]' <<<"$output"
	assert_success
}

@test "-o table shows one row per unit and the summary line" {
	run -1 sim -o table "$GANG"
	assert_line --index 0 --regexp '^PREEMPTOR +PRIORITY +RESULT +NODE +VICTIMS +REASON$'
	assert_line --regexp '^podgroup/ml/train +5000 +Preempt +8 placed +8 '
	assert_line --regexp '^default/api-canary +1000 +NoPreemptionNeeded +node-01 '
	assert_line '15 unit(s): 4 scheduled, 5 nominated, 6 unschedulable; 12 victim(s), 12 recreated, 4 cascading preemption(s)'
}

@test "exit 0 when every pending unit is placed or nominated" {
	run -0 sim --no-cascade "$GANG"
	run jq -se '.[-1] | .kind == "SimulationSummary" and .unschedulable == 0 and .nominated == 1 and .scheduled == 2' <<<"$output"
	assert_success
}

@test "--scale with --replicas adds pending copies of a pod template" {
	run -1 sim --scale Job/default/batch-nightly --replicas 4 "$GANG"
	run jq -se '([.[] | select(.scaled == true)] | length) == 4 and .[-1].scaled == 4
		and ([.[] | select(.scaled == true) | .preemptor.name] == ["batch-nightly-scaled-1","batch-nightly-scaled-2","batch-nightly-scaled-3","batch-nightly-scaled-4"])' <<<"$output"
	assert_success
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

@test "WorkloadAwarePreemption off: the gang's members preempt one by one" {
	run sim --feature-gates WorkloadAwarePreemption=false "$GANG"
	run jq -se '([.[] | select(.kind == "PreemptionPlan" and .preemptor.kind == "PodGroup")] | length) == 0
		and ([.[] | select(.kind == "PreemptionPlan" and (.preemptor.name | startswith("train-worker")))] | length) == 8' <<<"$output"
	assert_success
}

@test "unparsable input: exit 2 with file:line:col" {
	printf '{"kind": "Pod", "metadata": {' >"$BATS_TEST_TMPDIR/bad.json"
	run -2 sim "$BATS_TEST_TMPDIR/bad.json"
	assert_output --regexp "^preempt-plan: .*bad.json:[0-9]+:[0-9]+: "
}

@test "quiet when piped into head" {
	run bash -c "preempt-plan --simulate '$GANG' | head -n 1 >/dev/null"
	assert_success
	assert_output ""
}

@test "--stats accounts for every object read" {
	run -1 --separate-stderr sim --stats "$GANG"
	[[ "$stderr" == *"preempt-plan: stats: read 80, used 80, skipped 0, rejected 0"* ]] || fail "stats: $stderr"
}

@test "share/examples/what-if.sh runs on the bundled sample" {
	run env PATH="$BIN:$PATH" "$ROOT/share/examples/what-if.sh"
	assert_success
	assert_output --partial "podgroup/ml/train"
	assert_output --partial '"kind":"SimulationSummary"'
}
