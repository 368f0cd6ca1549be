#!/usr/bin/env bats
# The shipped pre-commit hooks (.pre-commit-hooks.yaml) run by the real
# pre-commit framework (Debian's pre-commit), offline: the hooks come from a
# throw-away git repository holding this tree's .pre-commit-hooks.yaml, and
# the commits are made in another one with `git commit`.

load test_helper/common
bats_require_minimum_version 1.5.0

setup() {
	command -v pre-commit >/dev/null || skip "pre-commit is not installed (share/debian-packages)"
	TMP="$BATS_TEST_TMPDIR"
	export PRE_COMMIT_HOME="$TMP/pre-commit-home" PRE_COMMIT_COLOR=never
	export GIT_CONFIG_GLOBAL="$TMP/gitconfig" GIT_CONFIG_NOSYSTEM=1
	git config --global user.email test@example.com
	git config --global user.name test
	git config --global init.defaultBranch main

	# the hooks repository: this tree's hook definitions, committed
	HOOKS="$TMP/hooks"
	mkdir -p "$HOOKS"
	cp "$ROOT/.pre-commit-hooks.yaml" "$HOOKS/"
	git -C "$HOOKS" init -q
	git -C "$HOOKS" add .pre-commit-hooks.yaml
	git -C "$HOOKS" commit -qm hooks
	REV=$(git -C "$HOOKS" rev-parse HEAD)

	REPO="$TMP/repo"
	mkdir -p "$REPO/deploy"
	git -C "$REPO" init -q
}

# .pre-commit-config.yaml with the shipped hooks; extra YAML lines for a hook
# (args, files) follow its id: use_hooks 'pc-validate' 'pp-match\n  args: [...]'
use_hooks() {
	{
		printf 'repos:\n- repo: %s\n  rev: %s\n  hooks:\n' "$HOOKS" "$REV"
		for h in "$@"; do
			printf '  - id: %b\n' "$h" | sed '2,$s/^/    /'
		done
	} >"$REPO/.pre-commit-config.yaml"
	(cd "$REPO" && pre-commit install >/dev/null)
}

commit() { # message: commit what is staged, through the installed hook
	(cd "$REPO" && git add -A && git commit -qm "$1" 2>&1)
}

classes() { # value of the class "batch"
	cat >"$REPO/deploy/classes.yaml" <<EOF
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: batch
value: $1
description: batch jobs
EOF
}

deployment() { # image [file [class [name]]]
	local name=${4:-web}
	cat >"${2:-$REPO/deploy/web.yaml}" <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: $name
  namespace: shop
spec:
  selector: {matchLabels: {app: $name}}
  template:
    metadata: {labels: {app: $name}}
    spec:
      priorityClassName: ${3:-batch}
      containers: [{name: $name, image: $1}]
EOF
}

@test "pc-validate hook: a clean commit of a PriorityClass and a Deployment passes" {
	use_hooks pc-validate
	classes 1000
	deployment nginx:1.25
	run commit "classes and web"
	assert_success
	[ "$(git -C "$REPO" rev-list --count HEAD)" -eq 1 ]
	# an ordinary follow-up: only the Deployment changes, its class is in an
	# unchanged file
	deployment nginx:1.26
	run commit "bump web"
	assert_success
	[ "$(git -C "$REPO" rev-list --count HEAD)" -eq 2 ]
}

@test "pc-validate hook: an invalid manifest fails the commit with the message" {
	use_hooks pc-validate
	classes 1000
	run commit "classes"
	assert_success
	cat >"$REPO/deploy/bad.yaml" <<'EOF'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: too-high
value: 1000000001
EOF
	run commit "too high"
	assert_failure
	assert_output --partial "pc-validate (PriorityClass / Workload API)"
	assert_output --partial "deploy/bad.yaml:5:8: PriorityClass/too-high: value: Forbidden: maximum allowed value of a user defined priority is 1000000000"
	[ "$(git -C "$REPO" rev-list --count HEAD)" -eq 1 ]
}

@test "pc-validate hook: changing the value of a committed PriorityClass fails with the immutability error" {
	use_hooks pc-validate
	classes 1000
	run commit "classes"
	assert_success
	classes 2000
	run commit "raise batch"
	assert_failure
	assert_output --partial "deploy/classes.yaml:5:8: PriorityClass/batch: value: Forbidden: may not be changed in an update."
	[ "$(git -C "$REPO" rev-list --count HEAD)" -eq 1 ]
	# a new class beside it is fine
	classes 1000
	printf -- '---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: batch-high\nvalue: 2000\n' >>"$REPO/deploy/classes.yaml"
	run commit "another class"
	assert_success
}

needs_require_claim() {
	pp-match --help 2>&1 | grep -q -- --require-claim ||
		skip "pp-match has no --require-claim yet (unclaimed templates fail by default until it lands)"
}

@test "pp-match hook: a repository without Karmada policies commits ordinary manifests" {
	needs_require_claim
	use_hooks pc-validate pp-match
	classes 1000
	deployment nginx:1.25
	run commit "classes and web"
	assert_success
	[ "$(git -C "$REPO" rev-list --count HEAD)" -eq 1 ]
}

@test "pp-match hook: failing on unclaimed templates is the opt-in --require-claim" {
	needs_require_claim
	use_hooks 'pp-match\nargs: [--require-claim]'
	deployment nginx:1.25
	run commit "web"
	assert_failure
	assert_output --partial "Deployment"
	[ "$(git -C "$REPO" rev-list --count HEAD 2>/dev/null || echo 0)" -eq 0 ]
}

@test "pp-match hook: a policy the Karmada webhook rejects fails the commit" {
	use_hooks pp-match
	mkdir -p "$REPO/karmada"
	cat >"$REPO/karmada/policy.yaml" <<'EOF'
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: web
  namespace: shop
spec:
  priority: 99999999999
  resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment
    name: web
EOF
	deployment nginx:1.25
	run commit "policy"
	assert_failure
	assert_output --partial "spec.priority"
}

# ---- a repository that looks like a real one (issue 23) ----

# A Helm chart, a kustomize base and overlay, CI workflows, package.json, a
# compose file, a CRD, multi-document manifests and PriorityClasses in two
# directories, with pods, templates and a Workload that name the classes.
real_repo() {
	local r=$REPO
	mkdir -p "$r/charts/shop/templates" "$r/k8s/base" "$r/k8s/overlays/prod" "$r/.github/workflows" \
		"$r/platform" "$r/teams/batch" "$r/crds" "$r/web"
	cat >"$r/charts/shop/Chart.yaml" <<'EOF'
apiVersion: v2
name: shop
version: 0.1.0
EOF
	printf 'replicaCount: 2\nimage: {repository: nginx, tag: "1.25"}\npriorityClassName: batch\n' >"$r/charts/shop/values.yaml"
	printf 'replicaCount: 5\n' >"$r/charts/shop/values-prod.yaml"
	cat >"$r/charts/shop/templates/deployment.yaml" <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "shop.fullname" . }}
  labels:
    {{- include "shop.labels" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicaCount }}
  template:
    spec:
      {{- with .Values.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      containers:
      - name: shop
        image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
EOF
	printf '{{- define "shop.fullname" -}}{{ .Release.Name }}-shop{{- end }}\n' >"$r/charts/shop/templates/_helpers.tpl"
	cat >"$r/k8s/base/kustomization.yaml" <<'EOF'
resources:
- deployment.yaml
EOF
	deployment api:1 "$r/k8s/base/deployment.yaml" platform-default api
	cat >"$r/k8s/overlays/prod/kustomization.yaml" <<'EOF'
resources:
- ../../base
patches:
- path: replicas.yaml
EOF
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 3\n' >"$r/k8s/overlays/prod/replicas.yaml"
	cat >"$r/.github/workflows/ci.yml" <<'EOF'
name: ci
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
    - run: echo ${{ github.sha }}
EOF
	printf '{\n  "name": "shop-ui",\n  "version": "1.0.0",\n  "scripts": {"build": "vite build"}\n}\n' >"$r/package.json"
	printf 'services:\n  db:\n    image: postgres:16\n    ports: ["5432:5432"]\n' >"$r/docker-compose.yaml"
	cat >"$r/crds/widgets.yaml" <<'EOF'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object}}
EOF
	cat >"$r/platform/priorityclasses.yaml" <<'EOF'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: platform-default
description: everything without a class
globalDefault: true
value: 1000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: platform-critical
value: 100000
EOF
	cat >"$r/teams/batch/classes.yaml" <<'EOF'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: batch
value: 100
preemptionPolicy: Never
EOF
	cat >"$r/teams/batch/jobs.yaml" <<'EOF'
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
  namespace: batch
spec:
  schedule: "0 2 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          priorityClassName: batch
          restartPolicy: Never
          containers: [{name: job, image: job:1}]
---
apiVersion: scheduling.k8s.io/v1alpha3
kind: Workload
metadata:
  name: training
  namespace: batch
spec:
  podGroupTemplates:
  - name: workers
    schedulingPolicy:
      gang:
        minCount: 4
    priorityClassName: batch
EOF
	cat >"$r/web/app.yaml" <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  namespace: shop
data:
  alert.tmpl: |
    {{ .Labels.alertname }} is firing
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
spec:
  ports: [{port: 80}]
EOF
}

example_config() { # the shipped example, as a user copies it
	cp "$ROOT/share/examples/pre-commit-config.yaml" "$REPO/.pre-commit-config.yaml"
	(cd "$REPO" && pre-commit install >/dev/null)
}

commits() { git -C "$REPO" rev-list --count HEAD 2>/dev/null || echo 0; }

usage_trouble() { # stderr-substring command...: exit 2 with that message
	local want=$1
	shift
	run -2 --separate-stderr "$@"
	[[ $stderr == *"$want"* ]] || fail "stderr: $stderr"
}

@test "example config (repo: local): a real-looking repository commits, and ordinary work passes" {
	example_config
	real_repo
	# the first commit: nothing committed yet, so nothing existed
	run commit "initial"
	assert_success
	[ "$(commits)" -eq 1 ]
	# a chart template, its values, a workflow, package.json, the overlay
	sed -i 's/replicaCount: 2/replicaCount: 3/' "$REPO/charts/shop/values.yaml"
	printf '  annotations: {team: shop}\n' >>"$REPO/charts/shop/templates/deployment.yaml"
	sed -i 's/vite build/vite build --mode prod/' "$REPO/package.json"
	sed -i 's/replicas: 3/replicas: 4/' "$REPO/k8s/overlays/prod/replicas.yaml"
	sed -i 's/api:1/api:2/' "$REPO/k8s/base/deployment.yaml"
	sed -i 's/ubuntu-latest/ubuntu-24.04/' "$REPO/.github/workflows/ci.yml"
	run commit "ordinary work"
	assert_success
	[ "$(commits)" -eq 2 ]
	# a class moved to another directory unchanged is the same class
	git -C "$REPO" mv teams/batch/classes.yaml platform/batch.yaml
	run commit "move batch"
	assert_success
	[ "$(commits)" -eq 3 ]
	# a new class beside them, and the default moved in one commit
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: batch-high\nvalue: 500\n' >"$REPO/platform/batch-high.yaml"
	run commit "another class"
	assert_success
	# a whole-repository run sees the same
	run bash -c "cd '$REPO' && pre-commit run --all-files"
	assert_success
}

@test "the hook catches a second default in a new file, naming both places" {
	example_config
	real_repo
	run commit "initial"
	assert_success
	cat >"$REPO/teams/batch/default.yaml" <<'EOF'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: batch-default
value: 10
globalDefault: true
EOF
	run commit "second default"
	assert_failure
	assert_output --partial "teams/batch/default.yaml:6:16: PriorityClass/batch-default: PriorityClass platform-default is already marked as default. Only one default can exist (platform-default exists at HEAD:platform/priorityclasses.yaml:1:1)"
	[ "$(commits)" -eq 1 ]
}

@test "the hook catches a class moved with git mv and its value changed, naming both places" {
	example_config
	real_repo
	run commit "initial"
	assert_success
	git -C "$REPO" mv teams/batch/classes.yaml platform/batch.yaml
	sed -i 's/^value: 100$/value: 200/' "$REPO/platform/batch.yaml"
	run commit "move and raise batch"
	assert_failure
	assert_output --partial "platform/batch.yaml:5:8: PriorityClass/batch: value: Forbidden: may not be changed in an update."
	assert_output --partial "HEAD:teams/batch/classes.yaml:1:1: note: existing object"
	[ "$(commits)" -eq 1 ]
}

@test "the hook catches a deleted class that committed objects still name, naming both places" {
	example_config
	real_repo
	run commit "initial"
	assert_success
	# a commit that only deletes: pre-commit passes no files, the hook runs (always_run)
	git -C "$REPO" rm -q teams/batch/classes.yaml
	run commit "drop batch"
	assert_failure
	assert_output --partial "teams/batch/jobs.yaml:12:30: CronJob/nightly: no PriorityClass with name batch was found: this change deletes it (it was at HEAD:teams/batch/classes.yaml:1:1)"
	assert_output --partial "Workload/training: no PriorityClass with name batch was found: this change deletes it"
	[ "$(commits)" -eq 1 ]
	# deleting it from a file that stays, while a staged pod names it
	git -C "$REPO" reset -q --hard
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: other\nvalue: 1\n' >"$REPO/teams/batch/classes.yaml"
	run commit "replace batch by other"
	assert_failure
	assert_output --partial "no PriorityClass with name batch was found: this change deletes it"
}

@test "the hook catches an invalid Workload among ordinary files" {
	example_config
	real_repo
	run commit "initial"
	assert_success
	sed -i 's/minCount: 4/minCount: 0/' "$REPO/teams/batch/jobs.yaml"
	run commit "bad workload"
	assert_failure
	assert_output --partial "teams/batch/jobs.yaml:"
	assert_output --partial "teams/batch/jobs.yaml:26:19: Workload/training: spec.podGroupTemplates[0].schedulingPolicy.gang.minCount: Required value"
	[ "$(commits)" -eq 1 ]
}

@test "shipped hooks (.pre-commit-hooks.yaml) behave as the example config does" {
	use_hooks pc-validate
	real_repo
	run commit "initial"
	assert_success
	cat >"$REPO/web/classes.yaml" <<'EOF'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: web-default
value: 10
globalDefault: true
EOF
	run commit "second default"
	assert_failure
	assert_output --partial "already marked as default"
	assert_output --partial "HEAD:platform/priorityclasses.yaml"
}

@test "--against bad input: a missing revision (pp-match), a path outside the repository, no repository: exit 2" {
	real_repo
	cd "$REPO"
	git add -A && git commit -qm initial
	# pc-validate's: test/pc-validate.bats
	usage_trouble "--against no-such-rev: not a commit of this repository" \
		pp-match --against no-such-rev platform/priorityclasses.yaml
	printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n' >"$TMP/outside.yaml"
	usage_trouble "--against HEAD: $TMP/outside.yaml is outside the repository" pc-validate --against HEAD "$TMP/outside.yaml"
	usage_trouble "is outside the repository" pp-match --against HEAD "$TMP/outside.yaml"
	cd "$TMP"
	usage_trouble "--against HEAD: not inside a git repository" pp-match --against HEAD outside.yaml
}

@test "--against HEAD in a repository without commits: nothing existed, the inputs are checked, exit 0" {
	real_repo
	cd "$REPO"
	run -0 --separate-stderr pc-validate --against HEAD .
	[[ $stderr == *"--against HEAD: the repository has no commit yet; every object is new"* ]] || fail "stderr: $stderr"
	# and without operands nothing is read from standard input (a hook with always_run)
	run -0 --separate-stderr pc-validate --against HEAD </dev/null
	run -0 --separate-stderr pp-match --against HEAD </dev/null
}

@test "--against: a committed manifest over --max-record-bytes stops with exit 2 and names it, instead of reading it whole" {
	real_repo
	cd "$REPO"
	git add -A && git commit -qm initial
	# a committed 40 KB manifest; the limit below it refuses it, above it reads it
	{ printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n'
	  for i in $(seq 1 1000); do printf '  k%04d: "%032d"\n' "$i" 0; done; } >big.yaml
	git add big.yaml && git commit -qm big
	usage_trouble "--against HEAD: big.yaml is $(wc -c <big.yaml) bytes, over the --max-record-bytes limit of 20000: not read" \
		pc-validate --max-record-bytes 20000 --against HEAD platform/priorityclasses.yaml
	usage_trouble "big.yaml is $(wc -c <big.yaml) bytes, over the --max-record-bytes limit of 20000" \
		pp-match --max-record-bytes 20000 --against HEAD platform/priorityclasses.yaml
	run -0 pc-validate --max-record-bytes 100000 --against HEAD platform/priorityclasses.yaml
}
