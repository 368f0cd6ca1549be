#!/usr/bin/env bats
# CLI behaviour of victims(1).

load test_helper/common
bats_require_minimum_version 1.5.0

setup() {
	CLUSTER="$SAMPLE/cluster.json"
	PREEMPTOR="$SAMPLE/preemptor.yaml"
}

@test "victims --version prints the version" {
	run victims --version
	assert_success
	assert_output --regexp '^victims [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "victims --help lists every option and exits 0" {
	run victims --help
	assert_success
	for opt in --preemptor --pending --explain --min-candidate-nodes-percentage \
		--min-candidate-nodes-absolute --offset --output --color --stats --max-depth \
		--max-record-bytes --max-alias-expansions --max-records --threads --help --version; do
		assert_output --partial -- "$opt"
	done
}

@test "every flag of --help is in the man page and all three completions" {
	flags=$(victims --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
	for f in $flags; do
		grep -qE -- "(Fl|,|\\|) -${f#--}( |$)" "$ROOT/share/man/man1/victims.1" || fail "man page lacks $f"
		grep -qF -- "$f" "$ROOT/completions/bash/victims" || fail "bash completion lacks $f"
		grep -qF -- "$f" "$ROOT/completions/zsh/_victims" || fail "zsh completion lacks $f"
		grep -qF -- "-l ${f#--}" "$ROOT/completions/fish/victims.fish" || fail "fish completion lacks $f"
	done
}

@test "without --preemptor or --pending it is a usage error" {
	run victims "$CLUSTER"
	assert_failure 2
	assert_output --partial "give --preemptor FILE or --pending"
}

@test "an unknown output format is a usage error" {
	run victims -o yaml --preemptor "$PREEMPTOR" "$CLUSTER"
	assert_failure 2
	assert_output --partial "unknown output format"
}

@test "a bad --offset is a usage error" {
	run victims --offset -3 --preemptor "$PREEMPTOR" "$CLUSTER"
	assert_failure 2
	assert_output --partial -- "--offset"
}

@test "the sample preemptor has candidates on the four workers" {
	run --separate-stderr victims --preemptor "$PREEMPTOR" "$CLUSTER"
	assert_success
	[ "$(printf '%s\n' "$output" | jq -s '[.[] | select(.kind == "Candidate") | .node] | sort | join(",")' -r)" = \
		"demo-worker1,demo-worker2,demo-worker3,demo-worker4" ]
	[ "$(printf '%s\n' "$output" | jq -rs '.[0].status')" = NeedsPreemption ]
	[ -z "$stderr" ]
}

@test "the preemptor's priority comes from its PriorityClass in the input" {
	run victims --preemptor "$PREEMPTOR" "$CLUSTER"
	[ "$(printf '%s\n' "$output" | head -1 | jq '.preemptor.priority')" = 1000000 ]
}

@test "the cluster can come from standard input" {
	run victims --preemptor "$PREEMPTOR" - < "$CLUSTER"
	assert_success
	assert_output --partial '"kind":"Candidate"'
}

@test "-o table shows one row per candidate and marks the chosen node" {
	run victims -o table --preemptor "$PREEMPTOR" "$CLUSTER"
	assert_success
	assert_line --index 0 --regexp '^PREEMPTOR +PRIORITY +STATUS +NODE +VICTIMS'
	assert_output --regexp 'NeedsPreemption\* +demo-worker4'
	[ "${#lines[@]}" -eq 5 ]
}

@test "-o wide adds the victim pods" {
	run victims -o wide --preemptor "$PREEMPTOR" "$CLUSTER"
	assert_success
	assert_output --partial "batch/report-29871540-h4j8l,analytics/notebook-dave"
}

@test "--explain says why the tainted nodes are not candidates" {
	run victims --explain --preemptor "$PREEMPTOR" "$CLUSTER"
	assert_success
	line=$(printf '%s\n' "$output" | jq -c 'select(.kind == "NodeStatus" and .node == "demo-gpu1") | [.stage, .code, .reasons[0]]')
	[ "$line" = '["Filter","UnschedulableAndUnresolvable","node(s) had untolerated taint(s)"]' ]
}

@test "--pending evaluates the pending pod of the sample" {
	run victims --pending "$CLUSTER"
	assert_failure 1
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "Preemptor") | .preemptor.name')" = report-29871560-q4w8e ]
	assert_output --partial '"status":"Unschedulable"'
}

@test "a Deployment preemptor uses its pod template" {
	cat > "$BATS_TEST_TMPDIR/deploy.yaml" <<-'EOF'
	apiVersion: apps/v1
	kind: Deployment
	metadata: {name: checkout, namespace: shop}
	spec:
	  template:
	    metadata: {labels: {app: checkout}}
	    spec:
	      priorityClassName: critical-service
	      containers:
	      - name: c
	        resources: {requests: {cpu: "2", memory: 4Gi}}
	EOF
	run victims --preemptor "$BATS_TEST_TMPDIR/deploy.yaml" "$CLUSTER"
	assert_success
	[ "$(printf '%s\n' "$output" | head -1 | jq -r '[.source, .preemptor.name, .preemptor.priority] | join(" ")')" = "Deployment checkout 1000000" ]
}

@test "a preemptor of a kind without a pod template is trouble" {
	printf 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\n' > "$BATS_TEST_TMPDIR/svc.yaml"
	run victims --preemptor "$BATS_TEST_TMPDIR/svc.yaml" "$CLUSTER"
	assert_failure 2
	assert_output --partial "svc.yaml:"
	assert_output --partial "Service is neither a Pod nor a workload"
}

@test "a missing input file is trouble with the file named" {
	run victims --preemptor "$PREEMPTOR" "$BATS_TEST_TMPDIR/nope.json"
	assert_failure 2
	assert_output --partial "victims: $BATS_TEST_TMPDIR/nope.json:"
}

@test "malformed JSON is reported with file:line:col" {
	printf '{"kind": "List", "items": [\n  {"kind": "Node",\n' > "$BATS_TEST_TMPDIR/bad.json"
	run victims --preemptor "$PREEMPTOR" "$BATS_TEST_TMPDIR/bad.json"
	assert_failure 2
	assert_output --regexp "victims: .*bad.json:[0-9]+:[0-9]+: "
}

@test "an unknown priorityClassName is a warning, not a silent zero" {
	printf 'kind: Pod\nmetadata: {name: x}\nspec:\n  priorityClassName: nosuch\n  containers: [{name: c}]\n' > "$BATS_TEST_TMPDIR/x.yaml"
	run victims --preemptor "$BATS_TEST_TMPDIR/x.yaml" "$CLUSTER"
	assert_output --partial 'priorityClassName \"nosuch\" not found'
}

@test "features that are not modelled are warned about" {
	cat > "$BATS_TEST_TMPDIR/pvc.yaml" <<-'EOF'
	kind: Pod
	metadata: {name: db, namespace: shop}
	spec:
	  priorityClassName: critical-service
	  volumes: [{name: data, persistentVolumeClaim: {claimName: data-db-0}}]
	  containers: [{name: c, resources: {requests: {cpu: "2"}}}]
	EOF
	run --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/pvc.yaml" "$CLUSTER"
	assert_success
	[[ $stderr == *"persistentVolumeClaims"*"not model"* ]]
	[[ $output == *'"warnings":["not modelled, ignored when filtering: persistentVolumeClaims"]'* ]]
}

@test "topology spread constraints are honoured" {
	cat > "$BATS_TEST_TMPDIR/spread.yaml" <<-'EOF'
	kind: Pod
	metadata: {name: spread, namespace: batch, labels: {app: report}}
	spec:
	  priorityClassName: critical-service
	  topologySpreadConstraints:
	  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: report}}}
	  containers: [{name: c, resources: {requests: {cpu: "2"}}}]
	EOF
	run --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/spread.yaml" "$CLUSTER"
	assert_success
	[ -z "$stderr" ]
	[[ $output == *'"warnings":[]'* ]]
}

@test "--stats accounts for every object by kind" {
	run --separate-stderr victims --stats --preemptor "$PREEMPTOR" "$CLUSTER"
	assert_success
	[[ $stderr == *"victims: stats: read 58, used 58, skipped 0, rejected 0"* ]]
}

@test "objects of other kinds are skipped and counted" {
	{ cat "$CLUSTER"; printf '{"kind":"ConfigMap","metadata":{"name":"c"}}\n'; } > "$BATS_TEST_TMPDIR/c.json"
	run --separate-stderr victims --stats --preemptor "$PREEMPTOR" "$BATS_TEST_TMPDIR/c.json"
	assert_success
	[[ $stderr == *"skipped 1"* ]]
	[[ $stderr == *"kind ConfigMap: skipped 1"* ]]
}

@test "a pod with a malformed quantity is rejected with a reason" {
	{ cat "$CLUSTER"; printf '{"kind":"Pod","metadata":{"name":"q","namespace":"x"},"spec":{"nodeName":"demo-worker1","containers":[{"name":"c","resources":{"requests":{"cpu":"lots"}}}]}}\n'; } > "$BATS_TEST_TMPDIR/q.json"
	run --separate-stderr victims --stats --preemptor "$PREEMPTOR" "$BATS_TEST_TMPDIR/q.json"
	[[ $stderr == *"Pod x/q rejected"* ]]
	[[ $stderr == *"rejected 1"* ]]
}

@test "the same snapshot given twice counts every object once" {
	run --separate-stderr victims --preemptor "$PREEMPTOR" "$CLUSTER" "$CLUSTER"
	assert_success
	[[ $stderr == *"48 Node/Pod objects were read more than once"* ]]
	[ "$(printf '%s\n' "$output" | jq -s '[.[] | select(.kind == "Candidate")] | length')" = 4 ]
}

@test "no candidates anywhere exits 1" {
	printf 'kind: Pod\nmetadata: {name: tiny}\nspec:\n  priority: -1000\n  containers: [{name: c, resources: {requests: {cpu: "3"}}}]\n' > "$BATS_TEST_TMPDIR/low.yaml"
	run victims --preemptor "$BATS_TEST_TMPDIR/low.yaml" "$CLUSTER"
	assert_failure 1
	assert_output --partial '"status":"Unschedulable"'
}

@test "quiet when piped into head" {
	run bash -c 'victims --preemptor "$1" "$2" 2>&1 | head -1 >/dev/null; echo "${PIPESTATUS[0]}"' _ "$PREEMPTOR" "$CLUSTER"
	assert_output --regexp '^(0|141)$'
}

@test "real kubectl outputs read without error" {
	[ -d "$SHARED/kubectl" ] || skip "no shared data"
	run --separate-stderr victims --stats --pending "$SHARED/kubectl/derailed__popeye__internal__lint__testdata__core__node__1.yaml" \
		"$SHARED/kubectl/maniSbindra__go-posts__parse-podlist__samplePodList.json" \
		"$SHARED/kubectl/honeycombio__honeycomb-kubernetes-agent__testdata__nodes.json" \
		"$SHARED/kubectl/derailed__popeye__internal__lint__testdata__pol__pdb__1.yaml"
	[ "$status" -ne 2 ]
	[[ $stderr == *"rejected 0, unreadable 0"* ]]
}
