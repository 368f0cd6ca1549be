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
	assert_output --regexp '^victims [0-9]+\.[0-9]+\.[0-9]+ \(answers for Kubernetes 1\.37\)$'
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
	[ "$(printf '%s\n' "$output" | jq -rs '.[0].status')" = Preempt ]
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
	assert_line --index 0 --regexp '^PREEMPTOR +PRIORITY +RESULT +NODE +VICTIMS +PDB-VIOLATIONS +TOP-PRIORITY +REASON$'
	assert_output --regexp 'Preempt\* +demo-worker4 .*chosen from 4 candidate node\(s\) by smallest priority sum'
	# four candidates, a blank line, the footer that explains the mark and names the release
	[ "${#lines[@]}" -eq 7 ]
	assert_line --index 5 --partial '* the node pickOneNodeForPreemption chooses: fewest PDB violations, then lowest highest-victim priority'
	assert_line --index 6 'Answers for Kubernetes 1.37 (--kubernetes-version).'
}

@test "-o table --no-headers leaves out the header and the footer" {
	run -0 victims -o table --no-headers --preemptor "$PREEMPTOR" "$CLUSTER"
	[ "${#lines[@]}" -eq 4 ]
	refute_output --partial PREEMPTOR
	refute_output --partial 'pickOneNodeForPreemption'
}

@test "--explain -o wide lists the nodes that are no candidate, grouped by plugin, reason and the taint it names" {
	run -0 victims --explain -o wide --preemptor "$PREEMPTOR" "$CLUSTER"
	# upstream's reason as FailedScheduling says it (#134740), the taint beside it: two taints, two groups
	assert_output --regexp 'NotCandidate +demo-control-plane .* 1 node\(s\): TaintToleration: node\(s\) had untolerated taint\(s\) \(Filter UnschedulableAndUnresolvable; Preemption is not helpful for scheduling; untolerated: node-role.kubernetes.io/control-plane:NoSchedule\)'
	assert_output --regexp 'NotCandidate +demo-gpu1 .* 1 node\(s\): TaintToleration: node\(s\) had untolerated taint\(s\) \(Filter UnschedulableAndUnresolvable; Preemption is not helpful for scheduling; untolerated: nvidia.com/gpu=present:NoSchedule\)'
}

@test "a pod that fits shows where, and exits 0" {
	printf 'kind: Pod\nmetadata: {name: small, namespace: shop}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: 10m}}}]\n' > "$BATS_TEST_TMPDIR/small.yaml"
	run -0 victims -o table --preemptor "$BATS_TEST_TMPDIR/small.yaml" "$CLUSTER"
	# demo-worker1: TaintToleration 100 x 3 + LeastAllocated 36 + BalancedAllocation 75 (1.37,
	# #135573: 10m changes no node's balance, 50 + (50 + b - b) / 2); demo-worker4 has 300 + 24
	# (cpu 3610m of 4, memory 9280Mi + the pod's 200Mi default of 15940Mi) + 74 (balance 84 -> 83)
	assert_line --index 1 --regexp '^shop/small +[0-9]+ +NoPreemptionNeeded +demo-worker1 +0 .* fits without preemption on 4 node\(s\): demo-worker1, demo-worker2, demo-worker3, demo-worker4; placed on demo-worker1: score 411, the highest of 4 node\(s\)$'
	run -0 victims --preemptor "$BATS_TEST_TMPDIR/small.yaml" "$CLUSTER"
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "Preemptor") | .status')" = NoPreemptionNeeded ]
	run jq -e '.placement | .node == "demo-worker1" and .score == 411 and .tiedNodes == 1 and .tieBroken == false
		and .plugins.NodeResourcesFit.score == 36 and .plugins.NodeResourcesBalancedAllocation.score == 75
		and .plugins.TaintToleration == {score: 100, weight: 3}' <<<"$(head -n 1 <<<"$output")"
	assert_success
}

@test "-o wide adds the victim pods" {
	run victims -o wide --preemptor "$PREEMPTOR" "$CLUSTER"
	assert_success
	assert_output --partial "batch/report-29871540-h4j8l,analytics/notebook-dave"
}

@test "--explain says why the tainted nodes are not candidates" {
	run victims --explain --preemptor "$PREEMPTOR" "$CLUSTER"
	assert_success
	line=$(printf '%s\n' "$output" | jq -c 'select(.kind == "NodeStatus" and .node == "demo-gpu1") | [.stage, .code, .reasons[0], .untoleratedTaint]')
	[ "$line" = '["Filter","UnschedulableAndUnresolvable","node(s) had untolerated taint(s)",{"key":"nvidia.com/gpu","value":"present","effect":"NoSchedule"}]' ]
}

@test "a pod no node takes: its Preemptor record's diagnosis counts the reasons and names the untolerated taints" {
	sed 's/cpu: "2"/cpu: "64"/' "$PREEMPTOR" >"$BATS_TEST_TMPDIR/big.yaml"
	run -1 victims --preemptor "$BATS_TEST_TMPDIR/big.yaml" "$CLUSTER"
	run jq -ce 'select(.kind == "Preemptor") | .diagnosis' <<<"$output"
	assert_output '{"nodes":6,"filter":[{"reason":"node(s) had untolerated taint(s)","nodes":2,"taints":[{"key":"node-role.kubernetes.io/control-plane","value":"","effect":"NoSchedule","nodes":1},{"key":"nvidia.com/gpu","value":"present","effect":"NoSchedule","nodes":1}]},{"reason":"Insufficient cpu","nodes":4}],"postFilter":"0/6 nodes are available: 6 Preemption is not helpful for scheduling.","preemption":[{"reason":"Preemption is not helpful for scheduling","nodes":6}]}'
}

@test "--pending with no pending pods is an answer (0) with a note" {
	jq '.items |= map(select(.kind != "Pod" or .spec.nodeName))' "$CLUSTER" > "$BATS_TEST_TMPDIR/none.json"
	run -0 --separate-stderr victims --pending "$BATS_TEST_TMPDIR/none.json"
	[ "$output" = '{"kind":"StreamEnd","producer":"victims","kubernetesVersion":"1.37","records":0}' ]
	[[ $stderr == *"victims: note: --pending: no pending pods in the input; 0 preemptors evaluated"* ]]
}

@test "a snapshot without nodes is trouble (2) with a message" {
	jq '.items |= map(select(.kind != "Node"))' "$CLUSTER" > "$BATS_TEST_TMPDIR/nonodes.json"
	run -2 victims --preemptor "$PREEMPTOR" "$BATS_TEST_TMPDIR/nonodes.json"
	assert_output --partial "victims: no Node objects in the input: a cluster snapshot needs its nodes: kubectl get nodes,pods,pdb,priorityclasses -A -o json"
	run -2 victims --preemptor "$PREEMPTOR" < /dev/null
	assert_output --partial "victims: no objects in the input: a cluster snapshot needs its nodes"
}

@test "a preemptor that may not preempt (preemptionPolicy Never) exits 1" {
	printf 'kind: Pod\nmetadata: {name: polite, namespace: shop}\nspec:\n  priority: 5\n  preemptionPolicy: Never\n  containers: [{name: c, resources: {requests: {cpu: "3"}}}]\n' > "$BATS_TEST_TMPDIR/never.yaml"
	run -1 --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/never.yaml" "$CLUSTER"
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "Preemptor") | .status')" = NotEligible ]
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
	run --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/deploy.yaml" "$CLUSTER"
	assert_success
	[ "$(printf '%s\n' "$output" | head -1 | jq -r '[.source, .preemptor.name, .preemptor.priority] | join(" ")')" = "Deployment checkout 1000000" ]
}

@test "a controller as preemptor: the replica count is said, and that one pod is planned" {
	cat > "$BATS_TEST_TMPDIR/controllers.yaml" <<-'EOF'
	apiVersion: apps/v1
	kind: Deployment
	metadata: {name: checkout, namespace: shop}
	spec:
	  replicas: 3
	  template:
	    spec:
	      priorityClassName: critical-service
	      containers: [{name: c, resources: {requests: {cpu: "2"}}}]
	---
	apiVersion: batch/v1
	kind: Job
	metadata: {name: crunch, namespace: batch}
	spec:
	  parallelism: 4
	  template:
	    spec:
	      priorityClassName: critical-service
	      containers: [{name: c, resources: {requests: {cpu: "2"}}}]
	---
	apiVersion: apps/v1
	kind: DaemonSet
	metadata: {name: agent, namespace: kube-system}
	spec:
	  template:
	    spec:
	      containers: [{name: c, resources: {requests: {cpu: 10m}}}]
	EOF
	run -0 --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/controllers.yaml" "$CLUSTER"
	[[ $stderr == *"controllers.yaml:1: warning: Deployment shop/checkout (replicas 3): one pod of its template is planned"*'preempt-plan --simulate --apply'* ]]
	[[ $stderr == *"warning: Job batch/crunch (parallelism 4): one pod of its template is planned"* ]]
	[[ $stderr == *"warning: DaemonSet kube-system/agent (one pod per node it selects): one pod"* ]]
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "Preemptor") | .warnings[0]' | grep -c 'one pod of its template is planned')" = 3 ]
	run -0 victims -o table --preemptor "$BATS_TEST_TMPDIR/controllers.yaml" "$CLUSTER"
	assert_output --partial "Warning: Job batch/crunch (parallelism 4): one pod of its template is planned"
}

@test "a pod copied from a cluster is planned as a new pod of the same spec" {
	cat > "$BATS_TEST_TMPDIR/copied.yaml" <<-'EOF'
	apiVersion: v1
	kind: Pod
	metadata: {name: checkout-old, namespace: shop}
	spec:
	  nodeName: demo-worker1
	  priorityClassName: critical-service
	  containers: [{name: c, resources: {requests: {cpu: "2", memory: 4Gi}}}]
	status:
	  phase: Running
	  nominatedNodeName: demo-worker2
	  startTime: "2026-11-20T10:00:00Z"
	EOF
	run -0 --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/copied.yaml" "$CLUSTER"
	[[ $stderr == *"copied.yaml:1: warning: pod shop/checkout-old carries spec.nodeName demo-worker1 and a status"*"planned as a new pod of the same spec (nodeName, nominatedNodeName and status cleared)"* ]]
	pre=$(printf '%s\n' "$output" | jq -c 'select(.kind == "Preemptor") | [.status, (.message | contains("node name")), (.warnings | length), (.pod | has("status")), (.pod.spec | has("nodeName"))]')
	[ "$pre" = '["Preempt",false,1,false,false]' ]
}

@test "a --preemptor file without a pod or a workload is trouble; its other objects are said not used" {
	printf 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\n' > "$BATS_TEST_TMPDIR/svc.yaml"
	run victims --preemptor "$BATS_TEST_TMPDIR/svc.yaml" "$CLUSTER"
	assert_failure 2
	assert_output --partial "svc.yaml: no pod or workload in --preemptor file"
	assert_output --partial "1 Service object(s) not used: --preemptor does not model them"
	printf 'apiVersion: v1\nmetadata: {name: nameless-kind}\n' > "$BATS_TEST_TMPDIR/nokind.yaml"
	run victims --preemptor "$BATS_TEST_TMPDIR/nokind.yaml" "$CLUSTER"
	assert_failure 2
	assert_output --partial "nokind.yaml:1:1: --preemptor: an object without a kind is neither a Pod nor a workload"
}

@test "--preemptor reads an application file as --apply does: its Service is skipped, said in --apply's words, and the exit status follows the answer (issue 33)" {
	cat >"$BATS_TEST_TMPDIR/app.yaml" <<'EOF2'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      priorityClassName: critical-service
      containers: [{name: web, resources: {requests: {cpu: "2"}}}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-config, namespace: shop}
data: {mode: fast}
EOF2
	run -0 --separate-stderr victims --stats --preemptor "$BATS_TEST_TMPDIR/app.yaml" "$CLUSTER"
	[[ $stderr != *"neither a Pod nor a workload"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"victims: warning: 1 Service object(s) not used: --preemptor does not model them"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"victims: warning: 1 ConfigMap object(s) not used: --preemptor does not model them"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"kind Service: skipped 1"* ]] || fail "stderr: $stderr"
	run jq -se '[.[] | select(.kind == "Preemptor")] | length == 1 and .[0].status == "Preempt"
		and (.[0].warnings | index("1 Service object(s) not used: --preemptor does not model them") != null)' <<<"$output"
	assert_success
	# --apply says the same of the same file, in the same words
	run --separate-stderr preempt-plan --simulate "$CLUSTER" --apply "$BATS_TEST_TMPDIR/app.yaml"
	[[ $stderr == *"warning: 1 Service object(s) not used: --simulate does not model them"* ]] || fail "stderr: $stderr"
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

@test "a class missing from the input: stderr, the record and the table say admission would have rejected it" {
	printf 'kind: Pod\nmetadata: {name: x, namespace: shop}\nspec:\n  priorityClassName: no-such-class\n  containers: [{name: c, resources: {requests: {cpu: "3"}}}]\n' > "$BATS_TEST_TMPDIR/x.yaml"
	run -1 --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/x.yaml" "$CLUSTER"
	want='pod shop/x: priorityClassName "no-such-class" not found in the input; admission would have rejected the pod (no PriorityClass with name no-such-class was found); priority 0 assumed (as for a pod without a class); `kubectl get priorityclasses` belongs in the input'
	[[ $stderr == *"victims: $BATS_TEST_TMPDIR/x.yaml:1: warning: $want"* ]]
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "Preemptor") | .warnings[0]')" = "$want" ]
	run -1 victims -o table --preemptor "$BATS_TEST_TMPDIR/x.yaml" "$CLUSTER"
	assert_output --partial "Warning: $want"
}

@test "a snapshot without PriorityClass objects gets one warning for all its pods" {
	jq '.items |= map(select(.kind != "PriorityClass"))' "$CLUSTER" > "$BATS_TEST_TMPDIR/noclasses.json"
	run -1 --separate-stderr victims --pending "$BATS_TEST_TMPDIR/noclasses.json"
	[ "$(printf '%s\n' "$stderr" | grep -c 'PriorityClass')" = 1 ]
	[[ $stderr == *"warning: 4 PriorityClass(es) not in the input taken from the spec.priority of the pods that name them"* ]]
	printf '%s\n' "$output" | jq -se 'last(.[] | select(.kind == "Preemptor")) | .warnings | any(startswith("4 PriorityClass(es) not in the input"))'
	# pods without spec.priority (not admitted): nothing to take the classes from
	jq '(.items[] | select(.kind == "Pod") | .spec) |= del(.priority)' "$BATS_TEST_TMPDIR/noclasses.json" >"$BATS_TEST_TMPDIR/bare.json"
	run -1 --separate-stderr victims --pending "$BATS_TEST_TMPDIR/bare.json"
	[ "$(printf '%s\n' "$stderr" | grep -c 'no PriorityClass objects')" = 1 ]
	[[ $stderr == *"warning: the input holds no PriorityClass objects, and "*" pod(s) name a class it cannot resolve (first: "*"): none carries a spec.priority: 0 is used, as for a pod without a class; take the snapshot with "*"kubectl get nodes,pods,pdb,priorityclasses -A -o json"* ]]
	printf '%s\n' "$output" | jq -se 'last(.[] | select(.kind == "Preemptor")) | .warnings | any(startswith("the input holds no PriorityClass objects"))'
	printf '%s\n' "$output" | jq -se 'last(.[] | select(.kind == "Preemptor")) | .warnings | any(contains("admission would have rejected the pod (no PriorityClass with name"))'
}

@test "a preemptionPolicy that contradicts the class is what admission would reject" {
	printf 'kind: Pod\nmetadata: {name: never, namespace: shop}\nspec:\n  priorityClassName: critical-service\n  preemptionPolicy: Never\n  containers: [{name: c, resources: {requests: {cpu: "2"}}}]\n' > "$BATS_TEST_TMPDIR/never.yaml"
	run -1 --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/never.yaml" "$CLUSTER"
	[[ $stderr == *"warning: pod shop/never: admission would have rejected the pod (the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name); planned as written, with priority 1000000 and preemptionPolicy Never"* ]]
	printf '%s\n' "$output" | jq -se 'last(.[] | select(.kind == "Preemptor")) | .status == "NotEligible" and (.warnings[0] | contains("must not be provided in pod spec"))'
	printf 'kind: Pod\nmetadata: {name: odd, namespace: shop}\nspec:\n  priorityClassName: critical-service\n  priority: 7\n  containers: [{name: c}]\n' > "$BATS_TEST_TMPDIR/odd.yaml"
	run -0 --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/odd.yaml" "$CLUSTER"
	[[ $stderr == *"the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000000 from the given PriorityClass name"* ]]
}

@test "bound pods whose priority contradicts their class are said once, counted" {
	jq '(.items[] | select(.kind == "Pod" and .spec.nodeName) | .spec.priority) |= . + 1' "$CLUSTER" > "$BATS_TEST_TMPDIR/odd.json"
	run -0 --separate-stderr victims --preemptor "$PREEMPTOR" "$BATS_TEST_TMPDIR/odd.json"
	[ "$(printf '%s\n' "$stderr" | grep -c 'contradicts')" = 1 ]
	[[ $stderr == *"pod(s) carry a priority or preemptionPolicy that contradicts their PriorityClass, which admission would have rejected (first: "* ]]
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
	[[ $output == *'"warnings":["not modelled, ignored when filtering: persistentVolumeClaims","1 pod(s) use PersistentVolumeClaims (first: shop/db) and the input holds none'*'pvc,pv,storageclass,csinodes,volumeattachments,csidrivers -A -o json`"]'* ]]
	run -0 victims -o table --preemptor "$BATS_TEST_TMPDIR/pvc.yaml" "$CLUSTER"
	assert_output --partial "Warning: preemptor shop/db asks for persistentVolumeClaims, which victims does not model (ignored when filtering)"
}

@test "--pending plans gang members pod by pod: said, and the per-pod PostFilter gates them" {
	run -1 --separate-stderr victims --pending "$SAMPLE/gang/cluster.json"
	[ "$(printf '%s\n' "$stderr" | grep -c 'belongs to pod group')" = 1 ]
	[[ $stderr == *"warning: pod ml/train-worker-0 belongs to pod group train: victims plans it pod by pod"*"preempts for the group as a whole (GenericWorkload)"*'`preempt-plan --simulate` plans the group'* ]]
	[[ $stderr == *"victims: warning: 7 more: gang-member"* ]]
	rec=$(printf '%s\n' "$output" | jq -c 'select(.kind == "Preemptor" and .preemptor.name == "train-worker-0") | [.status, .postFilter.gate, .postFilter.status]')
	[ "$rec" = '["NotEligible","GenericWorkload","preemption: not eligible due to workload aware preemption enabled"]' ]
	run -1 victims -o table --pending "$SAMPLE/gang/cluster.json"
	assert_output --regexp 'Warning: pod ml/train-worker-0 belongs to pod group train: .* \(8 times\)'
}

@test "--feature-gates: on 1.36, WorkloadAwarePreemption off lets a gang member preempt pod by pod" {
	run -0 --separate-stderr victims --kubernetes-version 1.36 --feature-gates WorkloadAwarePreemption=false --pending "$SAMPLE/gang/cluster.json"
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "Preemptor" and .preemptor.name == "train-worker-0") | .status')" = Preempt ]
	[[ $stderr == *"the scheduler places the group's pods together: \`preempt-plan --simulate\` plans the group"* ]]
}

@test "--feature-gates: on 1.36, TopologyAwareWorkloadScheduling stops a member of a PodGroup that is not in the input" {
	jq '.items |= map(select(.kind != "PodGroup"))' "$SAMPLE/gang/cluster.json" > "$BATS_TEST_TMPDIR/nogroups.json"
	run -1 --separate-stderr victims --kubernetes-version 1.36 --feature-gates TopologyAwareWorkloadScheduling=true --pending "$BATS_TEST_TMPDIR/nogroups.json"
	rec=$(printf '%s\n' "$output" | jq -c 'select(.kind == "Preemptor" and .preemptor.name == "train-worker-0") | [.status, .postFilter.gate, .postFilter.status]')
	[ "$rec" = '["NotEligible","TopologyAwareWorkloadScheduling","preemption: pod group for pod not found"]' ]
	[[ $stderr == *"belongs to pod group train (not in the input)"* ]]
}

@test "1.37: a member of a PodGroup that is not in the input goes to workload-aware preemption all the same (#139520)" {
	jq '.items |= map(select(.kind != "PodGroup"))' "$SAMPLE/gang/cluster.json" > "$BATS_TEST_TMPDIR/nogroups.json"
	run -1 --separate-stderr victims --feature-gates TopologyAwareWorkloadScheduling=true --pending "$BATS_TEST_TMPDIR/nogroups.json"
	rec=$(printf '%s\n' "$output" | jq -c 'select(.kind == "Preemptor" and .preemptor.name == "train-worker-0") | [.status, .postFilter.gate, .postFilter.status]')
	[ "$rec" = '["NotEligible","GenericWorkload","preemption: not eligible due to workload aware preemption enabled"]' ]
}

@test "1.37: GenericWorkload off: gang members preempt pod by pod and gangs are no victim units" {
	run -0 --separate-stderr victims --feature-gates GenericWorkload=false --pending "$SAMPLE/gang/cluster.json"
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "Preemptor" and .preemptor.name == "train-worker-0") | .status')" = Preempt ]
	printf '%s\n' "$output" | jq -se '[.[] | select(.kind == "Candidate") | select([.victims[].name | select(startswith("etl-"))] | length > 1)] | length == 0'
}

@test "1.37: a pod preempting the disruptionMode-all etl gang of the sample evicts the whole gang, on four nodes" {
	cat > "$BATS_TEST_TMPDIR/ingest.yaml" <<-'EOF'
	apiVersion: v1
	kind: Pod
	metadata: {name: ingest, namespace: default}
	spec:
	  priorityClassName: prod
	  nodeSelector: {kubernetes.io/hostname: node-10}
	  containers: [{name: c, resources: {requests: {cpu: "6", memory: 8Gi}}}]
	EOF
	run -0 bash -c 'victims --preemptor "$1" "$2" | preempt-plan' _ "$BATS_TEST_TMPDIR/ingest.yaml" "$SAMPLE/gang/cluster.json"
	[ "$(jq -c '[.nominatedNodeName, [.victims[] | .name + "@" + .node]]' <<<"$output")" = '["node-10",["etl-0@node-09","etl-1@node-10","etl-2@node-11","etl-3@node-12"]]' ]
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

@test "1.35: an input with PodGroups says that 1.35's gang scheduling is not modelled" {
	run --separate-stderr victims --kubernetes-version 1.35 --pending "$SAMPLE/gang/cluster.json"
	[[ $stderr == *"Kubernetes 1.35's gang scheduling"*"is not modelled"* ]]
	printf '%s\n' "$output" | jq -se '[.[] | select(.kind == "Preemptor")] | all(.warnings | any(contains("1.35'"'"'s gang scheduling")))'
}

@test "a snapshot without PriorityClasses: a class its pods name with one spec.priority is taken at that value, and said" {
	jq '.items |= map(select(.kind != "PriorityClass"))' "$CLUSTER" >"$BATS_TEST_TMPDIR/c.json"
	printf 'kind: Pod\nmetadata: {name: small, namespace: shop}\nspec:\n  priorityClassName: high\n  containers: [{name: c, resources: {requests: {cpu: 10m}}}]\n' >"$BATS_TEST_TMPDIR/p.yaml"
	run -0 --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/p.yaml" "$BATS_TEST_TMPDIR/c.json"
	want='4 PriorityClass(es) not in the input taken from the spec.priority of the pods that name them (admission wrote the class'"'"'s value there): standard 1000 (6 pod(s)), high 100000 (5 pod(s)), batch-low 100 (10 pod(s)), preemptible -10 (5 pod(s))'
	run jq -e --arg w "$want" '.preemptor.priority == 100000 and (.warnings | index($w) != null)
		and (.warnings | map(select(test("0 where a pod has none"))) | length == 0)' <<<"$(head -n 1 <<<"$output")"
	assert_success
	[[ $stderr == *"victims: warning: $want"* ]] || fail "stderr: $stderr"
	run -0 victims -o table --preemptor "$BATS_TEST_TMPDIR/p.yaml" "$BATS_TEST_TMPDIR/c.json"
	assert_line --regexp '^shop/small +100000 +NoPreemptionNeeded '
	assert_line "Warning: $want"
}

@test "a snapshot without PriorityClasses: pods that disagree on a class's value are said, with a pod on each side" {
	jq '.items |= map(select(.kind != "PriorityClass"))
		| (.items[] | select(.kind == "Pod" and .metadata.name == "notebook-dave") | .spec.priority) = 7' "$CLUSTER" >"$BATS_TEST_TMPDIR/c.json"
	printf 'kind: Pod\nmetadata: {name: small, namespace: shop}\nspec:\n  priorityClassName: preemptible\n  containers: [{name: c, resources: {requests: {cpu: 10m}}}]\n' >"$BATS_TEST_TMPDIR/p.yaml"
	run --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/p.yaml" "$BATS_TEST_TMPDIR/c.json"
	[[ $stderr == *'PriorityClass "preemptible" is not in the input, and the 5 pod(s) that name it disagree on its value (-10 on analytics/notebook-alice, 7 on analytics/notebook-dave): each keeps its spec.priority, and a pod without one cannot be resolved (admission would reject it)'* ]] || fail "stderr: $stderr"
	[[ $stderr != *"0 where a pod has none"* ]] || fail "stderr: $stderr"
	run jq -e '.preemptor.priority == 0 and (.warnings | map(select(startswith("PriorityClass \"preemptible\" is not in the input, and the 5 pod(s)"))) | length == 1)' <<<"$(head -n 1 <<<"$output")"
	assert_success
}

@test "a preemptor copied from a bound pod (its uid) is that pod being rescheduled: the original leaves its node first" {
	copy="$SHARED/kubectl/itaysk__kubectl-neat__test__fixtures__pod-1-raw.yaml"
	# a one-pod node holding the original (kubectl get pod -o yaml of a minikube pod)
	{ printf 'apiVersion: v1\nkind: Node\nmetadata: {name: minikube}\nstatus: {allocatable: {cpu: "2", memory: 2Gi, pods: "1"}}\n---\n'; cat "$copy"; } >"$BATS_TEST_TMPDIR/snap.yaml"
	run -0 --separate-stderr victims --preemptor "$copy" "$BATS_TEST_TMPDIR/snap.yaml"
	want='pod default/myapp has the uid of pod default/myapp, bound to node minikube: planned as that pod being rescheduled, the original leaving minikube first (as after its deletion)'
	[[ $stderr == *"$want"* ]] || fail "stderr: $stderr"
	run jq -e --arg w "$want" '.status == "NoPreemptionNeeded" and .placement.node == "minikube" and (.warnings | index($w) != null)' <<<"$(head -n 1 <<<"$output")"
	assert_success
}

@test "--preemptor files may hold PriorityClasses and PodGroups: used as --apply uses them" {
	cat >"$BATS_TEST_TMPDIR/p.yaml" <<'EOF2'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: urgent}
value: 500000
---
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: g, namespace: shop}
spec: {schedulingPolicy: {basic: {}}}
---
apiVersion: v1
kind: Pod
metadata: {name: hot, namespace: shop}
spec:
  priorityClassName: urgent
  containers: [{name: c, resources: {requests: {cpu: "3"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: member, namespace: shop}
spec:
  priorityClassName: urgent
  schedulingGroup: {podGroupName: g}
  containers: [{name: c, resources: {requests: {cpu: "3"}}}]
EOF2
	# exit 1, not 2: the gang member is NotEligible (WorkloadAwarePreemption), a finding
	run -1 --separate-stderr victims --preemptor "$BATS_TEST_TMPDIR/p.yaml" "$CLUSTER"
	[[ $stderr != *"neither a Pod nor a workload"* ]] || fail "stderr: $stderr"
	[[ $stderr != *"not found in the input"* && $stderr != *"(not in the input)"* ]] || fail "stderr: $stderr"
	run jq -se '[.[] | select(.kind == "Preemptor") | [.preemptor.name, .preemptor.priority]] == [["hot", 500000], ["member", 500000]]' <<<"$output"
	assert_success
}

@test "every record names the release it answers for, and follows --kubernetes-version" {
	run -0 --separate-stderr victims --explain --preemptor "$PREEMPTOR" "$CLUSTER"
	run jq -se 'map(.kind) | unique == ["Candidate", "NodeStatus", "Preemptor", "StreamEnd"]' <<<"$output"
	assert_success
	run -0 --separate-stderr victims --explain --kubernetes-version 1.36 --preemptor "$PREEMPTOR" "$CLUSTER"
	run jq -se 'length > 2 and all(.kubernetesVersion == "1.36")' <<<"$output"
	assert_success
	run -0 --separate-stderr victims --explain --preemptor "$PREEMPTOR" "$CLUSTER"
	run jq -se 'all(.kubernetesVersion == "1.37")' <<<"$output"
	assert_success
}

@test "victims and preempt-plan name results alike: Preempt and NoPreemptionNeeded, in the records and the tables" {
	run victims --preemptor "$PREEMPTOR" "$CLUSTER"
	[ "$(printf '%s\n' "$output" | jq -r 'select(.kind == "Preemptor") | .status')" = Preempt ]
	run victims -o table --preemptor "$PREEMPTOR" "$CLUSTER"
	assert_output --regexp 'Preempt\* +demo-worker4 '
	refute_output --partial NeedsPreemption
	run bash -c 'victims --preemptor "$1" "$2" | preempt-plan -o table' _ "$PREEMPTOR" "$CLUSTER"
	assert_output --regexp 'Preempt +demo-worker4 '
}

@test "table cells: counts are numbers on every row, a value that does not apply is <none>" {
	printf 'kind: Pod\nmetadata: {name: polite, namespace: shop}\nspec:\n  priority: 5\n  preemptionPolicy: Never\n  containers: [{name: c, resources: {requests: {cpu: "3"}}}]\n' > "$BATS_TEST_TMPDIR/never.yaml"
	run -1 --separate-stderr victims -o wide --explain --preemptor "$BATS_TEST_TMPDIR/never.yaml" "$CLUSTER"
	assert_line --index 1 --regexp '^shop/polite +5 +NotEligible +<none> +0 +0 +<none> +<none> +<none> +'
	assert_line --regexp '^shop/polite +5 +NotCandidate +demo-gpu1 +0 +0 +<none> +<none> +<none> +1 node\(s\)'
	run -1 --separate-stderr bash -c 'victims --explain --preemptor "$1" "$2" | preempt-plan -o wide' _ "$BATS_TEST_TMPDIR/never.yaml" "$CLUSTER"
	assert_line --index 1 --regexp '^shop/polite +5 +NotEligible +<none> +0 +<none> +0 +<none> +'
	assert_line --regexp '^shop/polite +5 +NotCandidate +demo-gpu1 +0 +<none> +0 +<none> +1 node\(s\)'
}

@test "stdout and stderr on one terminal: each assumption once, under the table (and still on stderr when piped)" {
	command -v script >/dev/null || skip "script(1) not installed"
	jq '.items |= map(select(.kind != "PriorityClass"))' "$CLUSTER" > "$BATS_TEST_TMPDIR/noclasses.json"
	run script -qec "victims -o table --pending '$BATS_TEST_TMPDIR/noclasses.json'" /dev/null
	[ "$(printf '%s\n' "$output" | grep -c '4 PriorityClass(es) not in the input')" = 1 ]
	assert_output --partial 'Warning: 4 PriorityClass(es) not in the input'
	run script -qec "preempt-plan --simulate -o table '$BATS_TEST_TMPDIR/noclasses.json'" /dev/null
	[ "$(printf '%s\n' "$output" | grep -c '4 PriorityClass(es) not in the input')" = 1 ]
	# the table on a pipe: the terminal still gets the warning on stderr
	run script -qec "victims -o table --pending '$BATS_TEST_TMPDIR/noclasses.json' | cat >/dev/null" /dev/null
	[ "$(printf '%s\n' "$output" | grep -c 'warning: 4 PriorityClass(es) not in the input')" = 1 ]
}
