#!/usr/bin/env bats
# preempt-plan --simulate --apply: applying manifests on top of a snapshot,
# from the command line. The controllers' semantics, case by case, are the
# fixtures test/fixtures/simulate/apply-*.

load test_helper/common
bats_require_minimum_version 1.5.0

setup() {
	GANG="$SAMPLE/gang/cluster.json"
	CREATE="$FIX/simulate/apply-deployment-create-preempts"
	SCALE="$FIX/simulate/apply-deployment-scale-up"
	T="$BATS_TEST_TMPDIR"
}

sim() {
	preempt-plan --simulate "$@"
}

# a Deployment of n pods of cpu each, priority class cls, in namespace shop
deployment() { # name replicas cpu cls [extra spec lines]
	cat <<EOF
apiVersion: apps/v1
kind: Deployment
metadata: {name: $1, namespace: shop}
spec:
  replicas: $2
$5
  selector: {matchLabels: {app: $1}}
  template:
    metadata: {labels: {app: $1}}
    spec:
      priorityClassName: $4
      containers:
      - {name: main, image: registry.example.com/$1:1, resources: {requests: {cpu: "$3"}}}
EOF
}

# a StatefulSet db of n pods of cpu each, priority class shop, in namespace shop
statefulset() { # replicas cpu
	cat <<EOF
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  replicas: $1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      priorityClassName: shop
      containers:
      - {name: db, image: registry.example.com/db:1, resources: {requests: {cpu: "$2"}}}
EOF
}

@test "--apply takes every path up to the next option, files and directories alike" {
	mkdir "$T/dir"
	deployment a 1 100m shop >"$T/dir/a.yaml"
	deployment b 1 100m shop >"$T/b.yaml"
	run -0 --separate-stderr sim "$CREATE/cluster.json" --apply "$T/dir" "$T/b.yaml" -o json
	run jq -se '[.[] | select(.kind == "AppliedObject") | .object.name] == ["a", "b"]' <<<"$output"
	assert_success
	run -0 --separate-stderr sim --apply="$T/b.yaml" "$CREATE/cluster.json"
	run jq -se '[.[] | select(.kind == "AppliedObject") | .object.name] == ["b"]' <<<"$output"
	assert_success
}

@test "the snapshot from a pipe, the manifests from files; - reads the manifests from stdin" {
	deployment a 1 100m shop >"$T/a.yaml"
	run -0 --separate-stderr bash -c "preempt-plan --simulate --apply '$T/a.yaml' <'$CREATE/cluster.json'"
	run jq -se '.[-2].applied.placed == 1' <<<"$output"
	assert_success
	run -0 --separate-stderr bash -c "preempt-plan --simulate '$CREATE/cluster.json' --apply - <'$T/a.yaml'"
	run jq -se '.[-2].applied.placed == 1' <<<"$output"
	assert_success
}

@test "--apply without a path, or stdin for both: usage errors" {
	run -2 sim "$CREATE/cluster.json" --apply
	assert_output --partial "--apply needs at least one path"
	run -2 sim --apply - </dev/null
	assert_output --partial "standard input can be read once"
}

@test "-o table: the plans, then one line per applied object, the warnings and the summary" {
	run -1 --separate-stderr sim -o table "$CREATE/cluster.json" --apply "$CREATE/deploy.yaml"
	assert_line --index 0 --regexp '^PREEMPTOR +PRIORITY +RESULT +NODE +VICTIMS +REASON$'
	assert_line --regexp '^shop/checkout-applied-1 +1000 +Preempt +node-1 +1 +preempting 1 pod'
	assert_line 'Deployment shop/checkout: 3 pods — 2 placed by preempting 2 pods (batch/report-2, batch/report-1), 1 unschedulable: Insufficient cpu'
	assert_line 'Warning: 1 Service object(s) not used: --simulate does not model them'
	assert_line '3 unit(s): 0 scheduled, 2 nominated, 1 unschedulable; 2 victim(s), 0 recreated, 0 cascading preemption(s)'
	run -1 --separate-stderr sim -o wide "$CREATE/cluster.json" --apply "$CREATE/deploy.yaml"
	assert_line --regexp '^shop/checkout-applied-2 +1000 +Preempt +node-1 +1 +batch/report-1 +preempting'
}

@test "a document that does not parse: exit 2 with file:line:col, and nothing simulated from part of the input" {
	deployment a 1 100m shop >"$T/a.yaml"
	printf -- '---\nkind: [unclosed\n' >>"$T/a.yaml"
	run -2 --separate-stderr sim "$CREATE/cluster.json" --apply "$T/a.yaml"
	[[ "$stderr" =~ preempt-plan:\ .*a.yaml:1[0-9]:[0-9]+: ]] || fail "stderr: $stderr"
	[[ "$stderr" == *"preempt-plan: no plans written: the input was not read whole (1 error above)"* ]] || fail "stderr: $stderr"
	assert_output ""
}

@test "an object admission would reject: exit 1, file:line on stderr, a rejected record, the others simulated" {
	deployment ok 1 100m shop >"$T/a.yaml"
	echo --- >>"$T/a.yaml"
	deployment typo 1 100m no-such-class >>"$T/a.yaml"
	run -1 --separate-stderr sim --stats "$CREATE/cluster.json" --apply "$T/a.yaml"
	[[ "$stderr" == *"a.yaml:15: Deployment shop/typo: rejected: the Priority admission plugin would reject its pods: no PriorityClass with name no-such-class was found"* ]] || fail "stderr: $stderr"
	[[ "$stderr" == *"stats: kind Deployment: skipped 0, rejected 1"* ]] || fail "stats: $stderr"
	run jq -se '([.[] | select(.kind == "AppliedObject") | [.object.name, .action]] == [["ok", "create"], ["typo", "rejected"]])
		and ([.[] | select(.kind == "PreemptionPlan") | .appliedFrom.name] == ["ok"])' <<<"$output"
	assert_success
}

@test "the real Deployments of karmada's samples: no namespace (-n sets it), no requests, no class (the default's 100), placed" {
	[ -d "$SHARED" ] || skip "no shared data"
	run -0 --separate-stderr sim -n web "$GANG" --apply "$SHARED/karmada/karmada-io__karmada__samples__alpine__deployment.yaml" \
		"$SHARED/karmada/karmada-io__karmada__samples__nginx__deployment.yaml" --no-cascade
	run jq -se '([.[] | select(.kind == "AppliedObject") | [.object.namespace, .object.name, .pods, .placed]]
			== [["web", "echo", 2, 2], ["web", "nginx", 1, 1]])
		and ([.[] | select(.appliedFrom) | .preemptor.priority] == [100, 100, 100])' <<<"$output"
	assert_success
}

@test "Kueue's pods with generateName: kubectl apply refuses them, and so does --apply" {
	[ -d "$SHARED" ] || skip "no shared data"
	run -1 --separate-stderr sim "$GANG" --apply "$SHARED/workloads/kubernetes-sigs__kueue__site__static__examples__pods-kueue__kueue-pod-group.yaml"
	[[ "$stderr" == *"Pod default/sample-pod- (generateName): rejected: metadata.name is required: kubectl apply cannot use metadata.generateName"* ]] || fail "stderr: $stderr"
}

@test "a Volcano Job is not a Job: skipped as Job.batch.hpw.cloud and said once" {
	[ -d "$SHARED" ] || skip "no shared data"
	run --separate-stderr sim --stats "$GANG" --apply "$SHARED/workloads/volcano-sh__volcano__example__job.yaml"
	[[ "$stderr" == *"stats: kind Job.batch.hpw.cloud: skipped 1, rejected 0"* ]] || fail "stats: $stderr"
	[[ "$stderr" == *"warning: 1 Job.batch.hpw.cloud object(s) not used: --simulate does not model them"* ]] || fail "warning: $stderr"
}

@test "an unchanged live Deployment: action unchanged, no pods, nothing deleted; exit 0" {
	cp "$SCALE/web.yaml" "$T/web.yaml"
	sed -i 's/replicas: 6/replicas: 4/' "$T/web.yaml"
	run -0 --separate-stderr sim "$SCALE/cluster.json" --apply "$T/web.yaml"
	run jq -se '.[] | select(.kind == "AppliedObject") | .action == "unchanged" and .pods == 0 and .deleted == 0
		and .message == "Deployment shop/web: unchanged"' <<<"$output"
	assert_success
}

@test "Recreate: every old pod goes and the new ones come" {
	sed -e 's/replicas: 6/replicas: 4/' -e 's|web:1|web:2|' -e 's/^  selector:/  strategy: {type: Recreate}\n  selector:/' \
		"$SCALE/web.yaml" >"$T/web.yaml"
	run -0 --separate-stderr sim "$SCALE/cluster.json" --apply "$T/web.yaml"
	run jq -se '.[] | select(.kind == "AppliedObject") | .deleted == 4 and .pods == 4 and .placed == 4
		and (.detail | startswith("rollout (Recreate)"))' <<<"$output"
	assert_success
}

@test "the pods of a Deployment the snapshot lacks: scaled by what there is, and a warning that no rollout can be told" {
	jq '.items |= map(select(.kind != "Deployment"))' "$SCALE/cluster.json" >"$T/c.json"
	run -0 --separate-stderr sim "$T/c.json" --apply "$SCALE/web.yaml"
	[[ "$stderr" == *"the snapshot has no Deployment shop/web but 4 pod(s) of its ReplicaSets: whether its template changed cannot be told"* ]] || fail "stderr: $stderr"
	run jq -se '.[] | select(.kind == "AppliedObject") | .pods == 2 and .detail == "replicas 4 -> 6"' <<<"$output"
	assert_success
}

@test "OrderedReady: a pod that stays pending holds the ordinals above it back" {
	# web-7d9f6-d (pending, 1 cpu) goes to node-2, where the scores put it: each node has 2 cpu left
	statefulset 4 2 >"$T/db.yaml"
	run -1 --separate-stderr sim "$SCALE/cluster.json" --apply "$T/db.yaml"
	run jq -se '([.[] | select(.appliedFrom) | [.preemptor.name, .result, .node]] == [["db-0", "NoPreemptionNeeded", "node-1"], ["db-1", "NoPreemptionNeeded", "node-2"], ["db-2", "Unschedulable", null]])
		and (.[] | select(.kind == "AppliedObject") | .pods == 4 and .waiting == 1
			and .message == "StatefulSet shop/db: 4 pods — 2 placed, 1 unschedulable: Insufficient cpu, 1 not created yet (OrderedReady)")' <<<"$output"
	assert_success
}

@test "a StatefulSet scaled down loses its highest ordinals" {
	jq '.items += [range(0; 3) as $i | {apiVersion: "v1", kind: "Pod",
		metadata: {name: "db-\($i)", namespace: "shop", uid: "uid-db-\($i)", labels: {app: "db"},
			ownerReferences: [{apiVersion: "apps/v1", kind: "StatefulSet", name: "db", uid: "u", controller: true}]},
		spec: {nodeName: "node-2", priorityClassName: "shop", priority: 1000, containers: [{name: "db", image: "db"}]},
		status: {phase: "Running", conditions: [{type: "Ready", status: "True"}]}}]' "$SCALE/cluster.json" >"$T/c.json"
	statefulset 1 100m >"$T/db.yaml"
	run -0 --separate-stderr sim "$T/c.json" --apply "$T/db.yaml"
	run jq -se '.[] | select(.kind == "AppliedObject") | .action == "update" and ([.deletedPods[].name] == ["db-2", "db-1"])' <<<"$output"
	assert_success
}

@test "a Pod: one pending pod; a copy of a running pod loses its node and status; a pod of an existing name stays" {
	cat >"$T/pods.yaml" <<EOF
apiVersion: v1
kind: Pod
metadata: {name: debug, namespace: shop}
spec:
  priorityClassName: shop
  containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: copied, namespace: shop}
spec:
  nodeName: node-9
  priorityClassName: shop
  containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m}}}]
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: web-7d9f6-a, namespace: shop}
spec:
  priorityClassName: shop
  containers: [{name: c, image: busybox}]
EOF
	run -0 --separate-stderr sim "$SCALE/cluster.json" --apply "$T/pods.yaml"
	[[ "$stderr" == *"pods.yaml:8: warning: Pod shop/copied: it carries a status (a copy of a pod that ran"* ]] || fail "stderr: $stderr"
	run jq -se '([.[] | select(.appliedFrom) | [.preemptor.name, .result]] == [["debug", "NoPreemptionNeeded"], ["copied", "NoPreemptionNeeded"]])
		and ([.[] | select(.kind == "AppliedObject") | .action] == ["create", "create", "unchanged"])' <<<"$output"
	assert_success
}

@test "a Pod that names its node bypasses the scheduler: bound there if it fits, never preempting" {
	cat >"$T/pinned.yaml" <<EOF
apiVersion: v1
kind: Pod
metadata: {name: pinned, namespace: shop}
spec:
  nodeName: node-1
  priorityClassName: shop
  containers: [{name: c, image: busybox, resources: {requests: {cpu: "3"}}}]
EOF
	run -1 --separate-stderr sim "$CREATE/cluster.json" --apply "$T/pinned.yaml"
	[[ "$stderr" == *"spec.nodeName node-1: the scheduler never sees it and nothing is preempted for it"* ]] || fail "stderr: $stderr"
	run jq -se '([.[] | select(.kind == "PreemptionPlan")] | length == 0)
		and (.[] | select(.kind == "AppliedObject") | .unschedulable == 1 and .reasons[0].reason == "Insufficient cpu")' <<<"$output"
	assert_success
}

@test "a Job whose pod template changed is rejected: the field is immutable" {
	jq '.items[] | select(.kind == "Job") | .spec.template.spec.containers[0].image = "other:2"' "$GANG" >"$T/job.json"
	run -1 --separate-stderr sim "$GANG" --apply "$T/job.json"
	[[ "$stderr" == *"Job default/batch-nightly: rejected: spec.template: Invalid value: field is immutable"* ]] || fail "stderr: $stderr"
}

@test "applied pods naming a PodGroup that is not there: the warning, and the plan says it" {
	cat >"$T/p.yaml" <<EOF
apiVersion: v1
kind: Pod
metadata: {name: worker, namespace: ml}
spec:
  schedulingGroup: {podGroupName: ghost}
  containers: [{name: c, image: busybox}]
EOF
	run -0 --separate-stderr sim "$GANG" --apply "$T/p.yaml" --no-cascade
	[[ "$stderr" == *'warning: PodGroup ml/ghost (spec.schedulingGroup.podGroupName) is not in the input'* ]] || fail "stderr: $stderr"
	run jq -se '.[] | select(.preemptor.name == "worker") | .warnings | any(test("PodGroup ml/ghost"))' <<<"$output"
	assert_success
}

@test "--stats: applied objects are read, used, skipped or rejected like the snapshot's" {
	run -1 --separate-stderr sim --stats "$CREATE/cluster.json" --apply "$CREATE/deploy.yaml"
	[[ "$stderr" == *"stats: read 11, used 9, skipped 2, rejected 0"* ]] || fail "stderr: $stderr"
}

@test "share/examples/rollout-evicts.sh answers what a rollout evicts" {
	run env PATH="$BIN:$PATH" "$ROOT/share/examples/rollout-evicts.sh"
	assert_success
	assert_output --partial "Deployment shop/checkout: 6 pods — 1 placed, 5 placed by preempting 8 pods"
	assert_line "default/filler-5c8d-0"
	assert_line "default/filler-5c8d-0-recreated: NoPreemptionNeeded node-10"
}

@test "classes, then Workloads, then PodGroups are applied before what names them, wherever they stand" {
	cat >"$T/gang.yaml" <<EOF2
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: g, namespace: ml}
spec:
  priorityClassName: late-class
  podGroupTemplateRef: {workload: {workloadName: w, podGroupTemplateName: t}}
  schedulingPolicy: {gang: {minCount: 1}}
---
apiVersion: scheduling.k8s.io/v1alpha2
kind: Workload
metadata: {name: w, namespace: ml}
spec:
  podGroupTemplates: [{name: t, schedulingPolicy: {gang: {minCount: 1}}}]
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: late-class}
value: 4000
EOF2
	run -0 --separate-stderr sim "$CREATE/cluster.json" --apply "$T/gang.yaml"
	run jq -se '[.[] | select(.kind == "AppliedObject") | [.object.kind, .action]]
		== [["PodGroup", "create"], ["Workload", "create"], ["PriorityClass", "create"]]' <<<"$output"
	assert_success
}

@test "a paused Deployment scales but does not roll out" {
	sed -e 's|web:1|web:2|' -e 's/^  selector:/  paused: true\n  selector:/' "$SCALE/web.yaml" >"$T/web.yaml"
	run -0 --separate-stderr sim "$SCALE/cluster.json" --apply "$T/web.yaml"
	run jq -se '.[] | select(.kind == "AppliedObject") | .pods == 2 and .deleted == 0
		and .detail == "replicas 4 -> 6; template changed, but the Deployment is paused: no rollout until it is resumed"' <<<"$output"
	assert_success
}

@test "--apply on a snapshot without PriorityClasses: a class its pods name with one spec.priority is taken at that value, and said" {
	jq '.items |= map(select(.kind != "PriorityClass"))' "$SAMPLE/cluster.json" >"$T/c.json"
	cat >"$T/d.yaml" <<'EOF2'
apiVersion: apps/v1
kind: Deployment
metadata: {name: api2, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: api2}}
  template:
    metadata: {labels: {app: api2}}
    spec:
      priorityClassName: high
      containers:
      - {name: c, image: x, resources: {requests: {cpu: 100m}}}
EOF2
	run -1 --separate-stderr sim "$T/c.json" --apply "$T/d.yaml" --no-cascade # a pending pod of the snapshot stays unschedulable
	run jq -se '(.[] | select(.kind == "AppliedObject") | .action == "create" and .placed == 1
			and .warnings == ["PriorityClass \"high\" is not in the input: taken at 100000, the spec.priority of the 5 pod(s) that name it (admission wrote the class'"'"'s value there)"])
		and (.[] | select(.appliedFrom) | .preemptor.priority == 100000)
		and (.[-2] | .warnings | map(select(startswith("4 PriorityClass(es) not in the input taken from the spec.priority"))) | length == 1)' <<<"$output"
	assert_success
}

@test "--apply rejected for a class the snapshot's pods disagree on: the rejection says why" {
	jq '.items |= map(select(.kind != "PriorityClass"))
		| (.items[] | select(.kind == "Pod" and .metadata.name == "notebook-dave") | .spec.priority) = 7' "$SAMPLE/cluster.json" >"$T/c.json"
	printf 'kind: Pod\nmetadata: {name: p, namespace: shop}\nspec:\n  priorityClassName: preemptible\n  containers: [{name: c, image: x}]\n' >"$T/p.yaml"
	run -1 --separate-stderr sim "$T/c.json" --apply "$T/p.yaml"
	run jq -se '.[] | select(.kind == "AppliedObject") | .action == "rejected"
		and .error == "the Priority admission plugin would reject its pods: no PriorityClass with name preemptible was found; PriorityClass \"preemptible\" is not in the input, and the 5 pod(s) that name it disagree on its value (-10 on analytics/notebook-alice, 7 on analytics/notebook-dave): each keeps its spec.priority, and a pod without one cannot be resolved (admission would reject it)"' <<<"$output"
	assert_success
}

@test "an empty --apply directory says that nothing was applied from it" {
	mkdir "$T/empty"
	run -1 --separate-stderr sim "$SAMPLE/cluster.json" --apply "$T/empty"
	[[ $stderr == *"preempt-plan: warning: --apply $T/empty: no manifests in it (an empty directory or file): nothing applied from it"* ]] || fail "stderr: $stderr"
	run jq -se '.[-2].warnings | index("--apply '"$T"'/empty: no manifests in it (an empty directory or file): nothing applied from it") != null' <<<"$output"
	assert_success
}

@test "a snapshot given after --apply gets a hint that it is taken as manifests" {
	run --separate-stderr sim "$SAMPLE/cluster.json" --apply "$SAMPLE/cluster.json"
	[[ $stderr == *"warning: --apply $SAMPLE/cluster.json: it holds 6 Node object(s), as a cluster snapshot does: every path after --apply is taken as manifests to apply (Nodes are not applied, pods are created anew); give the snapshot before --apply"* ]] || fail "stderr: $stderr"
	run -2 --separate-stderr sim --apply "$SAMPLE/cluster.json"
	[[ $stderr == *"no nodes in the snapshot: --simulate needs them (kubectl get nodes,pods,pdb,priorityclasses -A -o json); $SAMPLE/cluster.json holds nodes but follows --apply: give the snapshot before --apply"* ]] || fail "stderr: $stderr"
}

@test "--apply plans pods with a workloadRef as the snapshot groups them: one gang, with the Workload's minCount" {
	cat >"$T/wl.yaml" <<'EOF2'
apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: wl, namespace: ml}
spec:
  podGroups:
  - name: workers
    policy: {gang: {minCount: 2}}
EOF2
	for i in 0 1; do
		printf -- '---\nkind: Pod\nmetadata: {name: x-%s, namespace: ml}\nspec:\n  priorityClassName: training-high\n  workloadRef: {name: wl, podGroup: workers}\n  containers: [{name: c, resources: {requests: {cpu: "1"}}}]\n' "$i"
	done >>"$T/wl.yaml"
	run -0 --separate-stderr sim --no-cascade "$GANG" --apply "$T/wl.yaml"
	applied=$(jq -sc '[.[] | select(.kind == "PreemptionPlan" and .preemptor.kind == "PodGroup" and .preemptor.name == "wl-workers") | {members, minCount, pods: [.placements[].name]}]' <<<"$output")
	[ "$applied" = '[{"members":2,"minCount":2,"pods":["x-0","x-1"]}]' ] || fail "applied: $applied"
	# none of them planned on its own
	run jq -se '[.[] | select(.kind == "PreemptionPlan" and .preemptor.kind == "Pod" and (.preemptor.name | startswith("x-")))] == []' <<<"$output"
	assert_success
}

@test "AppliedObject records name the release answered for" {
	deployment b 1 100m shop >"$T/b.yaml"
	run -0 --separate-stderr sim --kubernetes-version 1.36 "$CREATE/cluster.json" --apply "$T/b.yaml"
	run jq -se 'any(.kind == "AppliedObject") and all(.kubernetesVersion == "1.36")' <<<"$output"
	assert_success
}
