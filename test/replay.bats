#!/usr/bin/env bats
# CLI behaviour of preempt-plan --replay (a trace of pods over time against a snapshot).

load test_helper/common
bats_require_minimum_version 1.5.0

setup() {
	CASC="$FIX/replay/cascade-grace-and-job-replacement"
	T="$BATS_TEST_TMPDIR"
}

stderr_has() {
	grep -qF -- "$1" <<<"$stderr" || fail "stderr lacks: $1"
}

# a one-pod trace, its metadata edited by the jq filter $1
trace_pod() {
	jq -c "$1" <<'EOF_POD'
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"t1","namespace":"default","uid":"t1","creationTimestamp":"2026-01-01T00:00:00Z"},"spec":{"priorityClassName":"low","containers":[{"name":"c","image":"x","resources":{"requests":{"cpu":"1"}}}]}}
EOF_POD
}

@test "--replay --help documents every option, and preempt-plan(1) covers each" {
	run preempt-plan --replay --help
	assert_success
	assert_output --partial "Usage: preempt-plan --replay [options] SNAPSHOT TRACE ..."
	flags=$(preempt-plan --replay --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
	for f in --replay --until --max-instants --grace-period --run-time-from --strict --progress --apply; do
		echo "$flags" | grep -qx -- "$f" || fail "--help lacks $f"
	done
	man=$(mandoc -Tascii "$ROOT/share/man/man1/preempt-plan.1" | col -b)
	for f in $flags; do
		grep -qF -- "$f" <<<"$man" || fail "preempt-plan(1) lacks $f"
	done
	run preempt-plan --help
	assert_output --partial "--replay"
}

@test "-o table: the summary per PriorityClass, highest first, and what the replay assumed under it" {
	run -0 preempt-plan --replay -o table "$CASC/snapshot.json" "$CASC/trace.ndjson"
	assert_line --regexp '^CLASS +PRIORITY +PODS +COMPLETED +EVICTED +RUNNING +NEVER-SCHEDULED +WAIT-P50\(s\) +WAIT-P95\(s\) +WAIT-MAX\(s\) +LOST-POD-SECONDS$'
	assert_line --regexp '^high +1000 +3 +3 +0 +0 +0 +5 +5 +5 +0$'
	assert_line --regexp '^low +100 +4 +2 +2 +0 +0 +0 +50 +50 +24$'
	assert_output --partial "backoff and queueing hints are not modelled"
	assert_output --partial "every feasible node is scored"
	assert_output --partial "replayed 2026-01-01T00:00:00Z to 2026-01-01T01:00:24Z (3624 s, 14 instant(s), 27 event(s)); 0 snapshot pod(s) evicted"
}

@test "--grace-period for every victim: job-b leaves 1 s after hi-1 chose it, not 5" {
	run -0 --separate-stderr preempt-plan --replay --grace-period 0 "$CASC/snapshot.json" "$CASC/trace.ndjson"
	run jq -c 'select(.kind == "ReplayEvent" and .event == "Evicted") | [.offsetSeconds, .pod.name]' <<<"$output"
	assert_line --index 0 '[11,"job-b"]'
}

@test "--until (a duration or a time) stops the replay: pods still running say so" {
	# job-b-r1 still waits at 1m: a pod never scheduled is a negative finding (1)
	run -1 --separate-stderr preempt-plan --replay --until 1m "$CASC/snapshot.json" "$CASC/trace.ndjson"
	run jq -c 'select(.kind == "ReplaySummary") | [.end, .durationSeconds, .notArrivedBeforeEnd,
	                                               (.classes[] | [.priorityClassName, .pods, .running, .neverScheduled])]' <<<"$output"
	assert_output '["2026-01-01T00:01:00Z",60,1,["high",2,2,0],["low",3,0,1]]'
	run -1 --separate-stderr preempt-plan --replay --until 2026-01-01T00:00:12Z "$CASC/snapshot.json" "$CASC/trace.ndjson"
	run jq -r 'select(.kind == "ReplayPod" and .name == "job-b") | .finalState' <<<"$output"
	assert_output "Terminating"
	run -2 preempt-plan --replay --until soon "$CASC/snapshot.json" "$CASC/trace.ndjson"
	assert_output --partial "--until soon: want an RFC 3339 time"
}

@test "--max-instants stops a replay and says so" {
	run -1 --separate-stderr preempt-plan --replay --max-instants 3 "$CASC/snapshot.json" "$CASC/trace.ndjson"
	run jq -c 'select(.kind == "ReplaySummary") | [.instants, .end, (.warnings[] | select(test("max-instants")))]' <<<"$output"
	assert_output --partial '[3,"2026-01-01T00:00:10Z","--replay stopped after --max-instants 3 instant(s)'
}

@test "--run-time-from: a converted trace's run time; a pod without one runs to the end, said" {
	trace_pod '.metadata.annotations = {"run": "42"}' >"$T/a.json"
	trace_pod '.metadata.name = "t2" | .metadata.uid = "t2"' >>"$T/a.json"
	run -0 --separate-stderr preempt-plan --replay --run-time-from run "$CASC/snapshot.json" "$T/a.json"
	run jq -c 'select(.kind == "ReplayPod") | [.name, .runSeconds, .completedAt, .finalState]' <<<"$output"
	assert_line '["t1",42,"2026-01-01T00:00:42Z","Completed"]'
	assert_line '["t2",null,null,"Running"]'
	stderr_has "1 trace pod(s) without an observed run time (first: t2) run until the end"
}

@test "a trace pod without creationTimestamp: skipped and counted, or with --strict exit 2 naming it" {
	trace_pod 'del(.metadata.creationTimestamp) | .metadata.name = "nameless-time"' >"$T/a.json"
	trace_pod '.metadata.name = "t2"' >>"$T/a.json"
	run -0 --separate-stderr preempt-plan --replay "$CASC/snapshot.json" "$T/a.json"
	run jq -c 'select(.kind == "ReplaySummary") | [.tracePods, .skippedWithoutCreationTimestamp]' <<<"$output"
	assert_output '[1,1]'
	run -2 --separate-stderr preempt-plan --replay --strict "$CASC/snapshot.json" "$T/a.json"
	stderr_has "trace pod default/nameless-time has no metadata.creationTimestamp"
	assert_output ""
}

@test "a trace pod created before the snapshot's time arrives at it, said" {
	trace_pod '.metadata.creationTimestamp = "2025-06-01T00:00:00Z"' >"$T/a.json"
	run -0 --separate-stderr preempt-plan --replay "$CASC/snapshot.json" "$T/a.json"
	run jq -r 'select(.kind == "ReplayPod") | .arrivedAt' <<<"$output"
	assert_output "2025-12-31T23:58:20Z"
	stderr_has "1 trace pod(s) created before the snapshot (its latest pod time, 2025-12-31T23:58:20Z) arrive at its time instead"
}

@test "a trace pod named as a running pod of the snapshot is an error" {
	trace_pod '.metadata.name = "s1"' >"$T/a.json"
	run -2 --separate-stderr preempt-plan --replay "$CASC/snapshot.json" "$T/a.json"
	stderr_has "trace pod default/s1 has the name of a pod running in the snapshot (on node n1)"
	assert_output ""
}

@test "a gzip trace is read; a cut one gives no answer" {
	gzip -c "$CASC/trace.ndjson" >"$T/trace.ndjson.gz"
	run -0 --separate-stderr preempt-plan --replay "$CASC/snapshot.json" "$T/trace.ndjson.gz"
	diff <(echo "$output") "$CASC/stdout"
	head -c 300 "$T/trace.ndjson.gz" >"$T/cut.gz"
	run -2 --separate-stderr preempt-plan --replay "$CASC/snapshot.json" "$T/cut.gz"
	assert_output ""
}

@test "usage: a SNAPSHOT and a TRACE; the replay's flags are its own; json, table or html" {
	run -2 preempt-plan --replay "$CASC/snapshot.json"
	assert_output --partial "--replay needs a SNAPSHOT and at least one TRACE"
	run -2 preempt-plan --simulate --until 1h "$CASC/snapshot.json"
	assert_output --partial "are --replay's"
	run -2 preempt-plan --replay -o wide "$CASC/snapshot.json" "$CASC/trace.ndjson"
	assert_output --partial "unknown output format 'wide' (choose from json,table,html)"
}

@test "invariants on a generated 10,000-pod trace over 190 nodes" {
	awk -v what=snapshot -v nodes=190 -f "$ROOT/bench/gen-trace.awk" >"$T/snap.ndjson"
	awk -v what=trace -v pods=10000 -f "$ROOT/bench/gen-trace.awk" >"$T/trace.ndjson"
	run -0 --separate-stderr preempt-plan --replay --run-time-from run-seconds "$T/snap.ndjson" "$T/trace.ndjson"
	jq -s -e -f "$ROOT/test/test_helper/replay-invariants.jq" <<<"$output"
}

@test "share/examples/replay-compare.sh: the summaries of two schemes side by side" {
	run -0 "$ROOT/share/examples/replay-compare.sh"
	assert_line --regexp '^CLASS +PODS +EVICTED\(now\) +EVICTED\(new\) +WAIT-P95\(s\)\(now\) +WAIT-P95\(s\)\(new\)'
	# high may no longer preempt: batch loses nothing, high waits for room
	assert_line --regexp '^high +3 +0 +0 +5 +231 +0 +0$'
	assert_line --regexp '^low +4 +2 +0 +50 +0 +24 +0$'
}

@test "a PodGroup's pending members are one unit, as --simulate plays them; the snapshot's Job is said unused" {
	trace_pod '.' >"$T/a.json"
	# the recreated batch pods find no room: never scheduled, exit 1
	run -1 --separate-stderr preempt-plan --replay "$SAMPLE/gang/cluster.json" "$T/a.json"
	run jq -s -c '[.[] | select(.kind == "ReplayEvent" and .offsetSeconds == 0)] |
		[([.[] | select(.event == "PreemptionStarted" and .preemptor == "ml/train")] | length),
		 ([.[] | select(.event == "Nominated" and (.pod.name | startswith("train-worker-")))] | length)]' <<<"$output"
	assert_output '[8,8]'
	stderr_has "1 Job object(s) not used: --replay plays the pods the snapshot and the traces have"
}
