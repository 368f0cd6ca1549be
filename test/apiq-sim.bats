#!/usr/bin/env bats
# CLI behaviour of apiq-sim: options, errors, determinism, metrics, examples.

load test_helper/common

# apiq-sim's records without the StreamEnd that closes a complete answer
answer() { jq -c 'select(type != "object" or .kind != "StreamEnd")'; }
bats_require_minimum_version 1.5.0

EX="$ROOT/share/examples/apiq"

help_flags() {
	apiq-sim --help | grep -oE -- '--[a-z][a-z-]+' | sort -u
}

@test "--version prints the name and version" {
	run -0 apiq-sim --version
	assert_output --regexp '^apiq-sim [0-9]+\.[0-9]+\.[0-9]+ \(answers for Kubernetes 1\.37\)$'
}

@test "--help lists both modes and exits 0" {
	run -0 apiq-sim --help
	assert_output --partial 'apiq-sim step|run'
	assert_output --partial '--feature-gates'
}

@test "every flag of --help is in the man page and the three completions" {
	for f in $(help_flags); do
		grep -qF -- "Fl -${f#--}" "$ROOT/share/man/man1/apiq-sim.1" || { echo "man lacks $f"; false; }
		grep -qF -- "$f" "$ROOT/completions/bash/apiq-sim" || { echo "bash lacks $f"; false; }
		grep -qF -- "'$f" "$ROOT/completions/zsh/_apiq-sim" || grep -qF -- "$f=" "$ROOT/completions/zsh/_apiq-sim" || grep -qF -- ",$f" "$ROOT/completions/zsh/_apiq-sim" || { echo "zsh lacks $f"; false; }
		grep -qF -- "-l ${f#--} " "$ROOT/completions/fish/apiq-sim.fish" || { echo "fish lacks $f"; false; }
	done
}

@test "the man page is mandoc -Tlint clean" {
	run -0 mandoc -Tlint -W warning "$ROOT/share/man/man1/apiq-sim.1"
	assert_output ''
}

@test "a missing or unknown mode is a usage error" {
	run -2 apiq-sim
	assert_output --partial 'missing mode'
	run -2 apiq-sim walk
	assert_output --partial "unknown mode 'walk'"
}

@test "bad option values are usage errors" {
	run -2 apiq-sim step --call-type nonsense
	assert_output --partial 'NAME=RELEVANCE'
	run -2 apiq-sim step --feature-gates SchedulerAsyncAPICalls=maybe
	assert_output --partial 'invalid value of SchedulerAsyncAPICalls=maybe'
	run -2 apiq-sim run --latency 5parsecs --pods 1
	assert_output --partial 'not a duration'
	run -2 apiq-sim run --error-rate 2 --pods 1
	assert_output --partial 'from 0 to 1'
}

@test "step reads standard input and answers each operation in order" {
	run -0 sh -c 'printf "%s\n" "{\"op\":\"add\",\"call\":\"b\",\"uid\":\"u\",\"callType\":\"pod_binding\"}" "{\"op\":\"pop\"}" | apiq-sim step -'
	assert_line --index 0 --partial '"seq":1,"op":"add","call":"b","uid":"u","result":"ok"'
	assert_line --index 1 --partial '"popped":"b"'
}

@test "step: an unparsable operation is trouble with file and line" {
	printf '{"op":"pop"}\n{"op":\n' > "$BATS_TEST_TMPDIR/ops.ndjson"
	run -2 apiq-sim step "$BATS_TEST_TMPDIR/ops.ndjson"
	assert_output --partial 'ops.ndjson:2'
}

@test "step: an unknown call type names the option that declares it" {
	run -2 sh -c 'echo "{\"op\":\"add\",\"call\":\"x\",\"uid\":\"u\",\"callType\":\"mine\"}" | apiq-sim step'
	assert_output --partial '--call-type mine=RELEVANCE'
}

@test "step: a missing file is trouble" {
	run -2 apiq-sim step "$BATS_TEST_TMPDIR/nope.ndjson"
	assert_output --partial 'nope.ndjson'
}

@test "step --stats accounts for used and rejected operations" {
	run -2 sh -c 'printf "%s\n" "{\"op\":\"pop\"}" "{\"op\":\"fly\"}" | apiq-sim step --stats 2>&1 >/dev/null'
	assert_output --partial 'read 2'
	assert_output --partial 'used 1'
	assert_output --partial 'rejected 1'
}

@test "run: the same seed gives the same output, another seed another" {
	a=$(apiq-sim run --pods 2000 --arrival-rate 100 --preemptor-share 0.2 --churn 5 --error-rate 0.05 --seed 7 --compare)
	b=$(apiq-sim run --pods 2000 --arrival-rate 100 --preemptor-share 0.2 --churn 5 --error-rate 0.05 --seed 7 --compare)
	c=$(apiq-sim run --pods 2000 --arrival-rate 100 --preemptor-share 0.2 --churn 5 --error-rate 0.05 --seed 8 --compare)
	[ "$a" = "$b" ]
	[ "$a" != "$c" ]
}

@test "run: the summary accounts for every measured pod" {
	run -0 apiq-sim run --pods 3000 --preemptor-share 0.1 --qps 0
	echo "$output" | answer | jq -e '.kind == "Summary" and .pods.measured == 3000 and .pods.bound == 3000
		and .pods.preemptors == 300 and .timeToBind.count == 3000 and .timeToNomination.count == 300
		and .preemption.goroutinesSucceeded == 300 and .apiRequests.total == 3000 + 300 * 3 * 2 + 300'
}

@test "run: memory follows the pods with pending work, not the workload size" {
	run -0 apiq-sim run --pods 200000 --qps 0 --feature-gates SchedulerAsyncAPICalls=true
	echo "$output" | answer | jq -e '.pods.bound == 200000 and .pods.peakLive < 100 and .calls.peakInFlight < 100'
}

@test "run --metrics writes upstream's metric names and buckets" {
	m="$BATS_TEST_TMPDIR/m.prom"
	run -0 apiq-sim run --pods 500 --preemptor-share 0.2 --error-rate 0.1 \
		--feature-gates SchedulerAsyncPreemption=true,SchedulerAsyncAPICalls=true --metrics "$m"
	grep -q '^scheduler_async_api_call_execution_total{call_type="pod_binding",result="success"} [0-9]' "$m"
	grep -q '^scheduler_async_api_call_execution_duration_seconds_bucket{call_type="pod_binding",result="success",le="0.001"} ' "$m"
	grep -q 'le="16.384"' "$m"
	grep -q '^scheduler_pending_async_api_calls{call_type="pod_status_patch"} 0$' "$m"
	grep -q '^scheduler_preemption_attempts_total [1-9]' "$m"
	grep -q '^scheduler_preemption_victims_bucket{le="64"} ' "$m"
	grep -q '^scheduler_preemption_goroutines_duration_seconds_bucket{result="success",le="0.01"} ' "$m"
	grep -q '^scheduler_preemption_goroutines_execution_total{result="error"} ' "$m"
	# 15 exponential buckets from 1ms for the dispatcher, 20 from 10ms for goroutines
	[ "$(grep -c 'execution_duration_seconds_bucket{call_type="pod_binding",result="success"' "$m")" -eq 16 ]
	[ "$(grep -c 'goroutines_duration_seconds_bucket{result="success"' "$m")" -eq 21 ]
}

@test "run --metrics writes bucket bounds and sums as Go's client does (le=\"0.04\")" {
	m="$BATS_TEST_TMPDIR/m.prom"
	run -0 apiq-sim run --pods 300 --preemptor-share 0.2 \
		--feature-gates SchedulerAsyncPreemption=true,SchedulerAsyncAPICalls=true --metrics "$m"
	# every le of ExponentialBuckets(0.01, 2, 20), written by hand as strconv 'g' -1 gives them
	got=$(grep '^scheduler_preemption_goroutines_duration_seconds_bucket{result="success"' "$m" | sed 's/.*le="\([^"]*\)".*/\1/' | paste -sd' ' -)
	[ "$got" = "0.01 0.02 0.04 0.08 0.16 0.32 0.64 1.28 2.56 5.12 10.24 20.48 40.96 81.92 163.84 327.68 655.36 1310.72 2621.44 5242.88 +Inf" ]
	got=$(grep '^scheduler_async_api_call_execution_duration_seconds_bucket{call_type="pod_binding",result="success"' "$m" | sed 's/.*le="\([^"]*\)".*/\1/' | paste -sd' ' -)
	[ "$got" = "0.001 0.002 0.004 0.008 0.016 0.032 0.064 0.128 0.256 0.512 1.024 2.048 4.096 8.192 16.384 +Inf" ]
	grep -qx 'scheduler_preemption_victims_bucket{le="1"} [0-9]*' "$m"
	grep -qx 'scheduler_preemption_victims_bucket{le="64"} [0-9]*' "$m"
	grep -qx 'scheduler_preemption_goroutines_duration_seconds_sum{result="error"} 0' "$m"
	# no float anywhere with the 17 digits of %.17g
	! grep -E '[0-9]\.[0-9]{17}' "$m"
	# every sample value parses as a Go float and reads back to itself in at most 17 digits
	awk '!/^#/ { v = $NF; if (v !~ /^([-+]?[0-9.]+(e[-+][0-9]+)?|[+-]Inf|NaN)$/) { print "bad: " $0; exit 1 } }' "$m"
}

@test "run --metrics leaves out the dispatcher's metrics when its gate is off" {
	m="$BATS_TEST_TMPDIR/m.prom"
	run -0 apiq-sim run --pods 50 --feature-gates SchedulerAsyncAPICalls=false,SchedulerAsyncPreemption=false --metrics "$m"
	! grep -q async_api_call "$m"
	! grep -q goroutines "$m"
	grep -q '^scheduler_preemption_attempts_total ' "$m"
}

@test "run --timeline - writes the events before the summary" {
	run -0 apiq-sim run --pods 10 --timeline -
	assert_line --index 0 --partial '"event":"attempt"'
	assert_line --partial '"event":"bound"'
	assert_line --partial '"event":"nominated"'
	echo "${lines[-2]}" | jq -e '.kind == "Summary"' && echo "${lines[-1]}" | jq -e '.kind == "StreamEnd"'
}

@test "run is quiet when its output is cut short by head" {
	run -0 sh -c 'apiq-sim run --pods 100000 --qps 0 --timeline - 2>&1 | head -1'
	assert_output --partial '"event":"attempt"'
	[ "${#lines[@]}" -eq 1 ]
}

@test "run reads PreemptionPlan records and skips other kinds" {
	cat > "$BATS_TEST_TMPDIR/plans.ndjson" <<'JSON'
{"kind":"PreemptionPlan","preemptor":{"name":"a","uid":"a"},"result":"Preempt","nominatedNodeName":"n1","victims":[{"name":"v1"},{"name":"v2"}],"clearedNominations":[{"name":"c"}],"actions":[]}
{"kind":"PreemptionPlan","preemptor":{"name":"b","uid":"b"},"result":"NoPreemptionNeeded","victims":[],"actions":[]}
{"kind":"PreemptionPlan","preemptor":{"name":"c","uid":"c"},"result":"Unschedulable","victims":[],"actions":[]}
{"kind":"Pod","metadata":{"name":"x"}}
{"kind":"StreamEnd","producer":"preempt-plan","records":4}
JSON
	run -0 apiq-sim run --stats --qps 0 "$BATS_TEST_TMPDIR/plans.ndjson"
	assert_line --partial 'skipped 1'
	echo "${lines[-2]}" | jq -e '.pods.measured == 2 and .pods.bound == 2 and .pods.preemptors == 1'
}

@test "run without plans or --pods has nothing to simulate" {
	# no input at all: the stage before wrote nothing
	run -2 apiq-sim run < /dev/null
	assert_output --partial 'no input: the stage before wrote nothing'
	# a complete answer without plans
	run -2 apiq-sim run <<<'{"kind":"StreamEnd","producer":"preempt-plan","records":0}'
	assert_output --partial 'nothing to simulate'
}

@test "run --compare -o table prints one row per gate setting" {
	run --separate-stderr -0 apiq-sim run --pods 200 --compare -o table
	assert_line --index 0 --regexp '^ASYNC-PREEMPTION +ASYNC-API-CALLS +THROUGHPUT\(pods/s\) +BIND-P99\(ms\) +PREEMPTOR-BIND-P99\(ms\) +NOMINATION-P99\(ms\) +API-REQUESTS +THROTTLE-WAIT\(s\) +THROUGHPUT-RATIO$'
	assert_line --index 1 --regexp '^false +false +[0-9]+\.[0-9] +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+\.[0-9] +1\.00$'
	assert_line --index 4 --regexp '^true +true '
	# the four rows, a blank line, the footer
	[ "$(printf '%s\n' "$output" | sed -n 6p)" = "" ]
	[[ "$(printf '%s\n' "$output" | sed -n 7p)" == Percentiles* ]]
	assert_line --partial 'THROUGHPUT-RATIO: throughput over the first row'
}

@test "run tables: no private abbreviations, units in the headers, a tenth at most" {
	run --separate-stderr -0 apiq-sim run --pods 200 -o table
	refute_output --partial 'APRE'
	refute_output --partial 'PODS/S'
	refute_output --partial 'PREBIND99'
	[ "${#lines[@]}" -ge 2 ]
	# no number with more than a tenth in the rows; no times for pods that do not exist
	! printf '%s\n' "${lines[1]}" | grep -E '[0-9]\.[0-9]{2}'
	run --separate-stderr -0 apiq-sim run --pods 100 --preemptor-share 0 -o table
	assert_line --index 1 --regexp '^true +false +[0-9.]+ +[0-9.]+ +<none> +<none> '
	run --separate-stderr -0 apiq-sim run --pods 200 -o wide
	assert_line --index 0 --regexp 'THROTTLE-WAIT\(s\) +BOUND +SIMULATED\(s\) +BIND-P50\(ms\) +BIND-MAX\(ms\) +CALLS-MERGED +CALLS-SKIPPED +PEAK-PENDING-CALLS +API-ERRORS$'
	assert_line --index 1 --regexp ' 200/200 '
	run --separate-stderr -0 apiq-sim run --pods 200 -o=table --no-headers
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == true* ]]
}

@test "run: skipped records are warned once per kind, on stderr, in the table and in the Summary" {
	cat > "$BATS_TEST_TMPDIR/mixed.ndjson" <<'JSON'
{"kind":"PreemptionPlan","preemptor":{"name":"a","uid":"a"},"result":"Preempt","victims":[{"name":"v1"}],"actions":[]}
{"kind":"Pod","metadata":{"name":"x"}}
{"kind":"Pod","metadata":{"name":"y"}}
{"kind":"StreamEnd","producer":"preempt-plan","records":3}
JSON
	run --separate-stderr -0 apiq-sim run --qps 0 "$BATS_TEST_TMPDIR/mixed.ndjson"
	[ "$(printf '%s\n' "$stderr" | grep -c 'warning: a Pod record is not a PreemptionPlan')" -eq 1 ]
	[[ "$stderr" == *"mixed.ndjson:2:1: warning: a Pod record"* ]]
	[[ "$stderr" == *"warning: 1 more: skipped kind Pod"* ]]
	echo "$output" | answer | jq -e '.warnings == ["a Pod record is not a PreemptionPlan; run simulates plans only, skipped (2 times)"]'
	run --separate-stderr -0 apiq-sim run --qps 0 -o table "$BATS_TEST_TMPDIR/mixed.ndjson"
	assert_line 'Warning: a Pod record is not a PreemptionPlan; run simulates plans only, skipped (2 times)'
}

@test "exit statuses: 0 when the run or the steps complete, 2 for trouble" {
	run -0 apiq-sim step < /dev/null
	assert_output '{"kind":"StreamEnd","producer":"apiq-sim","kubernetesVersion":"1.37","records":0}'
	run -0 apiq-sim run --pods 100 --until 0.5s    # cut short by --until: still an answer
	echo "$output" | answer | jq -e '.pods.bound < .pods.measured'
	run -2 apiq-sim run --pods 10 --metrics "$BATS_TEST_TMPDIR/no/such/dir/m.prom"
	assert_output --partial 'cannot write metrics'
	run -2 apiq-sim run --pods 10 --timeline "$BATS_TEST_TMPDIR/no/such/dir/t.ndjson"
	assert_output --partial 'cannot write timeline'
	run -2 apiq-sim step -o table < /dev/null
	assert_output --partial 'step writes json (NDJSON) only'
	printf '%s\n' '{"kind":"PreemptionPlan","preemptor":{"name":"a"},"result":"Maybe"}' >"$BATS_TEST_TMPDIR/bad.ndjson"
	run -2 apiq-sim run "$BATS_TEST_TMPDIR/bad.ndjson"
	assert_output --partial 'bad.ndjson:1:1: PreemptionPlan: result "Maybe" is not Preempt, NoPreemptionNeeded, NotEligible or Unschedulable'
	printf '%s\n' '{"op":"frobnicate"}' >"$BATS_TEST_TMPDIR/bad-op.ndjson"
	run -2 apiq-sim step "$BATS_TEST_TMPDIR/bad-op.ndjson"
	assert_output --partial 'bad-op.ndjson:1:'
	run -2 apiq-sim run -o junit --pods 10
	run -2 bash -c 'apiq-sim run --pods 10 > /dev/full'
	assert_output --partial 'write error'
}

@test "--help says which formats each mode writes" {
	run -0 apiq-sim --help
	assert_output --partial 'step writes json (one NDJSON result per operation) only'
	assert_output --partial 'table (one row per gate setting), wide (more columns) or html (one page'
	assert_output --partial 'Output formats: json,table,wide,html (default json).'
}

@test "run --compare varies the two scheduler gates whatever --feature-gates says" {
	for g in SchedulerAsyncAPICalls=true SchedulerAsyncPreemption=false AllBeta=false; do
		run --separate-stderr -0 apiq-sim run --pods 50 --compare --feature-gates "$g"
		[ "$(printf '%s\n' "$output" | jq -c 'select(.kind == "Summary") | .featureGates | [.SchedulerAsyncPreemption, .SchedulerAsyncAPICalls]' | paste -sd' ' -)" = \
			"[false,false] [true,false] [false,true] [true,true]" ]
	done
	# without --compare the gates decide the one run
	run --separate-stderr -0 apiq-sim run --pods 50 --feature-gates AllBeta=true,SchedulerAsyncPreemption=false
	echo "$output" | answer | jq -e '.featureGates == {"SchedulerAsyncPreemption": false, "SchedulerAsyncAPICalls": true}'
}

@test "example: asynchronous API calls starve bindings behind status patches" {
	run -0 sh "$EX/rate-limiter-starvation.sh"
	echo "$output" | answer | jq -s -e '
		(.[0].featureGates.SchedulerAsyncAPICalls | not) and .[1].featureGates.SchedulerAsyncAPICalls
		and .[0].throughput > 9.5 and .[1].throughput < 0.7 * .[0].throughput
		and .[0].timeToBind.p99 < 1 and .[1].timeToBind.p99 > 30
		and .[1].apiRequests.throttledSeconds > 100 * .[0].apiRequests.throttledSeconds'
}

@test "example: asynchronous preemption raises throughput" {
	run -0 sh "$EX/async-preemption-throughput.sh"
	echo "$output" | answer | jq -s -e '
		(.[4].kind == "Comparison") and (.[4].rows[1].featureGates.SchedulerAsyncPreemption)
		and (.[4].rows[1].featureGates.SchedulerAsyncAPICalls | not)
		and .[4].rows[1].throughputRatio > 3 and .[4].rows[3].throughputRatio > 10
		and .[1].preemptorTimeToBind.p99 < .[0].preemptorTimeToBind.p99 / 3'
}

@test "example: the last victim's delete event lets the preemptor through" {
	run -0 apiq-sim step "$EX/last-victim-race.ndjson"
	echo "$output" | answer | jq -s -e '(.[1].status | startswith("UnschedulableAndUnresolvable"))
		and .[2].state.lastVictims == {"p":"ns/v2"} and .[4].status == "Success"
		and .[4].state.preempting == ["p"] and .[5].state.preempting == []'
}

@test "run: churn alone over a fixed time reads no input and keeps calls bounded per pod" {
	run -0 apiq-sim run --churn 10 --until 60s --qps 5 --burst 5 --feature-gates SchedulerAsyncAPICalls=true
	echo "$output" | answer | jq -e '.simulatedSeconds <= 60 and .calls.merged > 0 and .calls.peakInFlight <= 600 and .apiRequests.throttled > 0'
}

@test "step: a pod group preempting as a whole: its UID holds its members in PreEnqueue; a bad members list is a usage error" {
	ops='{"op":"preempt","preemptor":{"kind":"PodGroup","uid":"pg","name":"gang","namespace":"ns","priority":100,"members":[{"uid":"m1","name":"m1","namespace":"ns"}]},"node":"cluster","victims":[{"uid":"v1","name":"v1","namespace":"ns"}]}
{"op":"preEnqueue","uid":"m1","podGroupUID":"pg"}
{"op":"preEnqueue","uid":"m1"}'
	run -0 apiq-sim step --feature-gates SchedulerAsyncPreemption=true <<<"$ops"
	[ "$(answer <<<"$output" | jq -sc '[.[1].status, .[2].status]')" = '["UnschedulableAndUnresolvable: waiting for the preemption for this pod group to be finished","Success"]' ]
	run -2 --separate-stderr apiq-sim step <<<'{"op":"preempt","preemptor":{"kind":"PodGroup","uid":"pg"},"node":"cluster","victims":[]}'
	[[ $stderr == *'a "preemptor" of kind PodGroup needs a "members" array'* ]]
	run -2 --separate-stderr apiq-sim step <<<'{"op":"preempt","preemptor":{"kind":"CompositePodGroup","uid":"cpg"},"node":"cluster","victims":[]}'
	[[ $stderr == *'a "preemptor" of kind CompositePodGroup needs a "members" array'* ]]
	run -2 --separate-stderr apiq-sim step <<<'{"op":"preempt","preemptor":{"uid":"p","members":[]},"node":"cluster","victims":[]}'
	[[ $stderr == *'a "preemptor" of kind Pod has no "members"'* ]]
}

@test "step takes the preemptors run takes: a CompositePodGroup preempts as one unit in both (issue 33)" {
	members='[{"uid":"m1","name":"m1","namespace":"ns"},{"uid":"m2","name":"m2","namespace":"ns"}]'
	run -0 --separate-stderr apiq-sim step --feature-gates SchedulerAsyncPreemption=false <<<'{"op":"preempt","preemptor":{"kind":"CompositePodGroup","uid":"cpg","name":"training","namespace":"ns","members":'"$members"'},"node":"cluster","victims":[{"uid":"v1","name":"v1","namespace":"ns"}]}'
	answer <<<"$output" | jq -e '.result == "ok" and .nominatedNodeName == "cluster" and .state.deleted == ["v1"]'
	run -0 apiq-sim run --qps 0 <<<'{"kind":"PreemptionPlan","preemptor":{"kind":"CompositePodGroup","name":"training","namespace":"ns","uid":"cpg"},"result":"Preempt","members":2,"victims":[{"name":"v1"}]}
{"kind":"StreamEnd","producer":"preempt-plan","records":1}'
	answer <<<"$output" | jq -e '.pods.measured == 2 and .pods.bound == 2 and .pods.preemptors == 2'
}

@test "run: a PodGroup plan without members is an error, not one pod" {
	run -2 sh -c 'echo "{\"kind\":\"PreemptionPlan\",\"preemptor\":{\"kind\":\"PodGroup\",\"name\":\"g\",\"uid\":\"u\"},\"result\":\"Preempt\",\"victims\":[{\"name\":\"v\"}]}" | apiq-sim run - 2>&1'
	assert_output --partial "a PodGroup preemptor's plan needs \"members\" (1 to 100000), got 0"
}

@test "every record names the Kubernetes release answered for: run's Summary and Comparison, step's results" {
	run -0 apiq-sim run --pods 50 --seed 1 --compare --kubernetes-version 1.36
	run jq -se '(map(.kind) | unique) == ["Comparison", "StreamEnd", "Summary"] and all(.kubernetesVersion == "1.36")' <<<"$output"
	assert_success
	run -0 apiq-sim step "$BATS_TEST_DIRNAME/../share/examples/apiq/last-victim-race.ndjson"
	run jq -se 'length > 2 and all(.kubernetesVersion == "1.37")' <<<"$output"
	assert_success
}

@test "run -o html names the Kubernetes release it answers for, as its records, tables and --version do (issue 24)" {
	run -0 apiq-sim run --pods 50 --kubernetes-version 1.36 -o html
	assert_output --partial 'answers for Kubernetes 1.36 (--kubernetes-version).</p></header>'
	run -0 apiq-sim run --pods 50 -o html
	assert_output --partial 'answers for Kubernetes 1.37 (--kubernetes-version).</p></header>'
}

@test "run: the format changes how the runs are written, not what is simulated (json, table, wide and html agree)" {
	local d=$BATS_TEST_TMPDIR
	apiq-sim run --pods 300 --preemptor-share 0.2 --compare >"$d/json"
	apiq-sim run --pods 300 --preemptor-share 0.2 --compare -o html >"$d/page"
	# the records the page embeds are the Summary records, with their series added
	python3 - "$d/page" "$d/json" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
embedded = json.loads(re.search(r'id="apiq-sim-summaries">(.*?)</script>', page, re.S).group(1))
records = [json.loads(l) for l in open(sys.argv[2]) if '"Summary"' in l]
for e in embedded:
    e.pop("series")
assert embedded == records, "the page's runs differ from the json runs"
PY
	apiq-sim run --pods 300 --preemptor-share 0.2 --compare -o wide --no-headers >"$d/wide"
	[ "$(wc -l <"$d/wide")" -eq 4 ]
}

# labels_cut PAGE: the labels of PAGE's plots that Chromium lays out past
# their plot's viewBox (the SVG cuts them there) or over another label, one
# line each; "none" when every label shows whole. The page's policy allows
# its inline scripts: one more, appended, measures.
labels_cut() {
	local m=$BATS_TEST_TMPDIR/measure.html
	cat "$1" - >"$m" <<'HTML'
<script>
const cut = [];
document.querySelectorAll('svg.chart[viewBox]').forEach((svg, i) => {
	const vb = svg.viewBox.baseVal, t = [...svg.querySelectorAll('text')].map(e => [e.getBBox(), e.textContent]);
	for (const [b, s] of t)
		if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > vb.width + 0.5 || b.y + b.height > vb.height + 0.5)
			cut.push(`plot ${i}: "${s}" spans x ${b.x.toFixed(1)}..${(b.x + b.width).toFixed(1)} of ${vb.width}`);
	for (let a = 0; a < t.length; a++)
		for (let c = a + 1; c < t.length; c++) {
			const [p, q] = [t[a][0], t[c][0]];
			if (p.x < q.x + q.width - 0.5 && q.x < p.x + p.width - 0.5 && p.y < q.y + q.height - 0.5 && q.y < p.y + p.height - 0.5)
				cut.push(`plot ${i}: "${t[a][1]}" over "${t[c][1]}"`);
		}
});
const out = document.createElement('pre');
out.id = 'labels-cut';
out.textContent = cut.join('\n') || 'none';
document.body.append(out);
</script>
HTML
	chromium --headless --disable-gpu --no-sandbox --dump-dom --virtual-time-budget=2000 "file://$m" 2>/dev/null |
		sed -n '/<pre id="labels-cut">/,/<\/pre>/p' | sed 's/<[^>]*>//g'
}

@test "run -o html: every axis label shows whole, the last time label and 150k pods/s included (issue 33)" {
	command -v chromium >/dev/null || skip "chromium is not installed (share/debian-packages)"
	# one run (30 ms of simulated time: its last label was cut at the right
	# edge), and --compare's narrow plots with 150k pods/s (was 1.5e+05, cut
	# at the left), side by side in one page
	apiq-sim run --pods 10 -o html >"$BATS_TEST_TMPDIR/one.html"
	apiq-sim run --pods 2000 --cycle-cost 10us --qps 0 --latency 100us --compare -o html >"$BATS_TEST_TMPDIR/four.html"
	{ sed 's|</main>.*||' "$BATS_TEST_TMPDIR/one.html"; sed -n '/<section id="timeline">/,/<\/main>/p' "$BATS_TEST_TMPDIR/four.html"; } \
		>"$BATS_TEST_TMPDIR/both.html"
	run labels_cut "$BATS_TEST_TMPDIR/both.html"
	assert_output none
	grep -q '>30 ms</text>' "$BATS_TEST_TMPDIR/one.html"
	grep -q '>150k pods/s</text>' "$BATS_TEST_TMPDIR/four.html"
}

@test "run and step end a complete NDJSON answer with StreamEnd; a step input cut short leaves it out, exit 2" {
	run -0 --separate-stderr apiq-sim run --pods 10 --seed 1
	[ "${#lines[@]}" -eq 2 ]
	jq -e '.kind == "StreamEnd" and .producer == "apiq-sim" and .records == 1' <<<"${lines[1]}"
	op='{"op":"add","call":"c1","callType":"pod_status_patch","uid":"u1"}'
	run -0 --separate-stderr apiq-sim step <<<"$op"
	jq -e '.kind == "StreamEnd" and .records == 1' <<<"${lines[-1]}"
	run -2 --separate-stderr apiq-sim step <<<"$op"$'\n''{"op":"add",'
	[ "${#lines[@]}" -eq 1 ]
	jq -e '.seq == 1' <<<"${lines[0]}"
	[[ $stderr == *"unexpected end of input"* ]]
}

@test "run: a gated pod's plan makes no scheduling attempt and no API call, and says it was skipped" {
	cd "$ROOT/test/fixtures/simulate/gated-pod-waits-while-the-queue-behind-it-is-placed"
	preempt-plan --simulate cluster.json >"$BATS_TEST_TMPDIR/plans.ndjson" || true
	run -0 --separate-stderr apiq-sim run "$BATS_TEST_TMPDIR/plans.ndjson"
	[ "$(answer <<<"$output" | jq -c '[.pods.attempts, .apiRequests.total, .preemption.attempts]')" = '[2,2,0]' ]
	[[ "$stderr" == *"a gated pod's PreemptionPlan (preEnqueue): it never enters the scheduling queue"* ]]
}
