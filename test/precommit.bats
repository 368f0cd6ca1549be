#!/usr/bin/env bats
# The shipped pre-commit hooks (.pre-commit-hooks.yaml and the example
# config) run by the real pre-commit framework (Debian's pre-commit),
# offline, on a throw-away repository that looks like a real one (issue 32):
# a Helm chart, a kustomize base with two overlays and a component, CI
# workflows, docs config, package.json, compose files and 3,000 other files.
# It is built and committed once (through the hook: the first commit of a
# repository); each test clones it and commits with `git commit`.

load test_helper/common
bats_require_minimum_version 1.5.0

# HOME, git's configuration and pre-commit's cache in throw-away places
environment() {
	export HOME="$BATS_FILE_TMPDIR/home" PRE_COMMIT_HOME="$BATS_FILE_TMPDIR/pre-commit-home" PRE_COMMIT_COLOR=never
	export GIT_CONFIG_GLOBAL="$BATS_FILE_TMPDIR/gitconfig" GIT_CONFIG_NOSYSTEM=1
	mkdir -p "$HOME"
}

# ---- the real-looking repository ----

platform_classes() {
	cat <<'EOF'
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
  name: prod-critical
value: 100000
EOF
}

chart() { # $1: the repository
	local c="$1/charts/shop"
	mkdir -p "$c/templates"
	printf 'apiVersion: v2\nname: shop\nversion: 0.1.0\nappVersion: "1.25"\n' >"$c/Chart.yaml"
	printf 'replicaCount: 2\nimage: {repository: nginx, tag: "1.25"}\npriorityClassName: prod-critical\n' >"$c/values.yaml"
	printf 'replicaCount: 5\n' >"$c/values-prod.yaml"
	cat >"$c/templates/deployment.yaml" <<'EOF'
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
	printf 'apiVersion: v1\nkind: Service\nmetadata:\n  name: "{{ .Release.Name }}-shop"\nspec:\n  ports: [{port: 80}]\n' >"$c/templates/service.yaml"
	printf '{{- define "shop.fullname" -}}{{ .Release.Name }}-shop{{- end }}\n' >"$c/templates/_helpers.tpl"
}

# a base, overlays/prod (patches, patchesStrategicMerge), overlays/staging
# (patchesJson6902 and a component with its own patch); the patches name
# the base's Deployment, namespace and all
kustomize() {
	local k="$1/kustomize"
	mkdir -p "$k/base" "$k/overlays/prod" "$k/overlays/staging" "$k/components/debug"
	printf 'resources:\n- deployment.yaml\n- service.yaml\n' >"$k/base/kustomization.yaml"
	cat >"$k/base/deployment.yaml" <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: checkout
  namespace: shop
spec:
  selector: {matchLabels: {app: checkout}}
  template:
    metadata: {labels: {app: checkout}}
    spec:
      priorityClassName: prod-critical
      containers: [{name: checkout, image: "checkout:1.0"}]
EOF
	printf 'apiVersion: v1\nkind: Service\nmetadata: {name: checkout, namespace: shop}\nspec:\n  ports: [{port: 80}]\n' >"$k/base/service.yaml"
	printf 'resources:\n- ../../base\npatches:\n- path: replicas.yaml\npatchesStrategicMerge:\n- resources.yaml\n' >"$k/overlays/prod/kustomization.yaml"
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\nspec:\n  replicas: 3\n' >"$k/overlays/prod/replicas.yaml"
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\nspec:\n  template:\n    spec:\n      containers: [{name: checkout, resources: {requests: {cpu: "1"}}}]\n' >"$k/overlays/prod/resources.yaml"
	printf 'resources: [../../base]\ncomponents: [../../components/debug]\npatchesJson6902:\n- target: {group: apps, version: v1, kind: Deployment, name: checkout}\n  path: patch.json\n' >"$k/overlays/staging/kustomization.yaml"
	printf '[{"op": "replace", "path": "/spec/replicas", "value": 1}]\n' >"$k/overlays/staging/patch.json"
	printf 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n- path: debug.yaml\n' >"$k/components/debug/kustomization.yaml"
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\nspec:\n  template:\n    metadata: {annotations: {debug: "true"}}\n' >"$k/components/debug/debug.yaml"
}

tooling() { # CI, docs, npm, compose
	local r=$1
	mkdir -p "$r/.github/workflows" "$r/docs"
	printf 'name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n    - run: echo ${{ github.sha }}\n' >"$r/.github/workflows/ci.yml"
	printf 'stages: [test]\ntest:\n  script: [make check]\n' >"$r/.gitlab-ci.yml"
	printf 'site_name: shop\ntheme:\n  name: material\nnav:\n- index.md\n' >"$r/mkdocs.yml"
	printf '{\n  "name": "shop-ui",\n  "version": "1.0.0",\n  "scripts": {"build": "vite build"}\n}\n' >"$r/package.json"
	printf 'services:\n  db:\n    image: postgres:16\n' >"$r/docker-compose.yaml"
	printf 'services:\n  db:\n    ports: ["5432:5432"]\n' >"$r/compose.override.yaml"
}

# 1,000 apps of three files each (a Deployment naming a class, a Service,
# a README) and 20 pages of docs
bulk() {
	seq -f "$1/apps/app-%04g" 0 999 | xargs mkdir -p
	awk -v dir="$1" 'BEGIN {
		split("prod-critical batch platform-default", cls, " ")
		for (i = 0; i < 1000; i++) {
			d = sprintf("%s/apps/app-%04d", dir, i)
			f = d "/deployment.yaml"
			printf "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-%04d\n  namespace: team-%02d\nspec:\n  selector: {matchLabels: {app: app-%04d}}\n  template:\n    metadata: {labels: {app: app-%04d}}\n    spec:\n      priorityClassName: %s\n      containers: [{name: app, image: \"registry.example.com/app:%d\"}]\n", i, i % 40, i, i, cls[i % 3 + 1], i > f
			close(f)
			f = d "/service.yaml"
			printf "apiVersion: v1\nkind: Service\nmetadata: {name: app-%04d, namespace: team-%02d}\nspec:\n  ports: [{port: 8080}]\n", i, i % 40 > f
			close(f)
			f = d "/README.md"; printf "# app-%04d\n", i > f; close(f)
		}
		for (i = 0; i < 20; i++) { f = sprintf("%s/docs/page-%02d.md", dir, i); printf "# page %d\n", i > f; close(f) }
	}'
}

real_repo() { # $1: the directory
	local r=$1
	mkdir -p "$r/platform" "$r/teams/batch"
	platform_classes >"$r/platform/priorityclasses.yaml"
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
          containers: [{name: job, image: "job:1"}]
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
	chart "$r"
	kustomize "$r"
	tooling "$r"
	bulk "$r"
	cp "$ROOT/share/examples/pre-commit-config.yaml" "$r/.pre-commit-config.yaml"
}

setup_file() {
	command -v pre-commit >/dev/null || return 0
	environment
	git config --global user.email test@example.com
	git config --global user.name test
	git config --global init.defaultBranch main
	BASE="$BATS_FILE_TMPDIR/base"
	mkdir -p "$BASE"
	git -C "$BASE" init -q
	real_repo "$BASE"
	# the first commit of the repository, through the hooks: nothing was
	# committed before, every object is new and checked
	(cd "$BASE" && pre-commit install >/dev/null && git add -A && git commit -qm initial) >"$BATS_FILE_TMPDIR/initial.out" 2>&1 ||
		{ cat "$BATS_FILE_TMPDIR/initial.out" >&3; return 1; }
	export BASE
}

setup() {
	command -v pre-commit >/dev/null || skip "pre-commit is not installed (share/debian-packages)"
	environment
	TMP="$BATS_TEST_TMPDIR"
	REPO="$TMP/repo"
}

# The committed real-looking repository as its first commit left it, hooks
# installed, in $REPO. One repository for every test, put back each time:
# a clone would write its 3,000 files again.
clone() {
	REPO=$BASE
	git -C "$REPO" reset -q --hard "$(git -C "$REPO" rev-list --max-parents=0 HEAD)"
	git -C "$REPO" clean -fdq
}

commit() { # message [git commit arguments]: commit what is staged, through the installed hooks
	local m=$1
	shift
	(cd "$REPO" && git add -A && git commit -qm "$m" "$@" 2>&1)
}

commits() { git -C "$REPO" rev-list --count HEAD 2>/dev/null || echo 0; }

passed() { # the output of a commit the hooks let through, silently
	assert_success
	assert_output --partial "pc-validate (PriorityClass / Workload API)"
	[[ $output != *Failed* && $output != *warning* && $output != *note:* ]] || fail "output: $output"
}

@test "the first commit of a real-looking repository passes through the hooks" {
	run cat "$BATS_FILE_TMPDIR/initial.out"
	assert_output --partial "pc-validate (PriorityClass / Workload API)...............................Passed"
	assert_output --partial "pp-match (Karmada PropagationPolicy claims)..............................Passed"
	[ "$(git -C "$BASE" ls-files | wc -l)" -gt 3000 ]
}

@test "ordinary commits pass silently: a chart bump, values, an overlay's patch, docs, config files, a new Deployment of an existing class" {
	clone
	# a chart version bump alone: Chart.yaml is all pre-commit passes
	sed -i 's/^version: 0.1.0/version: 0.1.1/' "$REPO/charts/shop/Chart.yaml"
	run commit "chart 0.1.1"
	passed
	# an overlay's patches (partial objects of the base's Deployment), its
	# kustomization, the base
	sed -i 's/replicas: 3/replicas: 5/' "$REPO/kustomize/overlays/prod/replicas.yaml"
	sed -i 's/"value": 1/"value": 2/' "$REPO/kustomize/overlays/staging/patch.json"
	sed -i 's/"true"/"yes"/' "$REPO/kustomize/components/debug/debug.yaml"
	printf 'namePrefix: prod-\n' >>"$REPO/kustomize/overlays/prod/kustomization.yaml"
	sed -i 's/checkout:1.0/checkout:1.1/' "$REPO/kustomize/base/deployment.yaml"
	run commit "prod replicas, checkout 1.1"
	passed
	# docs, CI, npm, compose, the chart's values and a template
	printf -- '- page-00.md\n' >>"$REPO/mkdocs.yml"
	printf '# new page\n' >"$REPO/docs/new.md"
	sed -i 's/vite build/vite build --mode prod/' "$REPO/package.json"
	sed -i 's/postgres:16/postgres:17/' "$REPO/docker-compose.yaml"
	sed -i 's/ubuntu-latest/ubuntu-24.04/' "$REPO/.github/workflows/ci.yml"
	sed -i 's/replicaCount: 2/replicaCount: 3/' "$REPO/charts/shop/values.yaml"
	printf '  annotations: {team: shop}\n' >>"$REPO/charts/shop/templates/deployment.yaml"
	run commit "docs and tooling"
	passed
	# a new Deployment naming an existing class: the tool itself says nothing
	mkdir -p "$REPO/apps/payments"
	sed -e 's/app-0001/payments/g' "$REPO/apps/app-0001/deployment.yaml" >"$REPO/apps/payments/deployment.yaml"
	git -C "$REPO" add -A
	run --separate-stderr bash -c "cd '$REPO' && pc-validate --staged"
	assert_equal "$status:$output:$stderr" "0::"
	run commit "payments"
	passed
	[ "$(commits)" -eq 5 ]
	# `git commit PATH` commits PATH only, through a temporary index
	# (GIT_INDEX_FILE): a broken file staged beside it is not in that commit
	sed -i 's/registry.example.com\/app:2/registry.example.com\/app:3/' "$REPO/apps/app-0002/deployment.yaml"
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-mine}\nvalue: 1\n' >"$REPO/platform/broken.yaml"
	git -C "$REPO" add platform/broken.yaml
	run bash -c "cd '$REPO' && git commit -qm 'app-0002 only' -- apps/app-0002/deployment.yaml 2>&1"
	passed
	[ "$(commits)" -eq 6 ]
}

@test "a second default in a new file fails the commit, naming both places" {
	clone
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

@test "a class moved with git mv and its value changed fails the commit, naming both places" {
	clone
	git -C "$REPO" mv teams/batch/classes.yaml platform/batch.yaml
	sed -i 's/^value: 100$/value: 200/' "$REPO/platform/batch.yaml"
	run commit "move and raise batch"
	assert_failure
	assert_output --partial "platform/batch.yaml:5:8: PriorityClass/batch: value: Forbidden: may not be changed in an update."
	assert_output --partial "HEAD:teams/batch/classes.yaml:1:1: note: existing object"
	[ "$(commits)" -eq 1 ]
	# moved unchanged, it is the same class
	sed -i 's/^value: 200$/value: 100/' "$REPO/platform/batch.yaml"
	run commit "move batch"
	passed
}

@test "a class deleted while committed objects name it fails a commit that only deletes, naming both places" {
	clone
	git -C "$REPO" rm -q teams/batch/classes.yaml
	run commit "drop batch"
	assert_failure
	assert_output --partial "teams/batch/jobs.yaml:12:30: CronJob/nightly: no PriorityClass with name batch was found: this change deletes it (it was at HEAD:teams/batch/classes.yaml:1:1)"
	assert_output --partial "Workload/training: no PriorityClass with name batch was found: this change deletes it"
	assert_output --partial "apps/app-0001/deployment.yaml:11:26: Deployment/app-0001: no PriorityClass with name batch was found: this change deletes it"
	[ "$(commits)" -eq 1 ]
}

@test "a 4,000-file commit with the same class added twice with two values fails, naming both places: one run, however pre-commit splits the list" {
	clone
	# paths long enough that pre-commit's file list is over its 128 KiB
	# command line: it would run a hook with file names several times
	seq -f "$REPO/generated/team-%02g" 0 49 | xargs mkdir -p
	awk -v dir="$REPO/generated" 'BEGIN {
		for (i = 0; i < 3998; i++) {
			f = sprintf("%s/team-%02d/configmap-for-service-%04d-of-team-%02d.yaml", dir, i % 50, i, i % 50)
			printf "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: svc-%04d, namespace: team-%02d}\ndata: {port: \"%d\"}\n", i, i % 50, 8000 + i > f
			close(f)
		}
	}'
	mkdir -p "$REPO/generated/aaa-first" "$REPO/generated/zzz-last"
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: bulk}\nvalue: %s\n' 100 >"$REPO/generated/aaa-first/classes.yaml"
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: bulk}\nvalue: %s\n' 200 >"$REPO/generated/zzz-last/classes.yaml"
	git -C "$REPO" add -A
	[ "$(git -C "$REPO" diff --cached --name-only | wc -l)" -eq 4000 ]
	[ "$(git -C "$REPO" diff --cached --name-only | wc -c)" -gt 131072 ]
	local t0=$SECONDS
	run commit "4,000 files"
	assert_failure
	assert_output --partial 'generated/zzz-last/classes.yaml:1:1: PriorityClass/bulk: PriorityClass "bulk" is defined more than once in the input set: also defined at generated/aaa-first/classes.yaml:1:1'
	[ "$(commits)" -eq 1 ]
	echo "# the 4,000-file commit through pre-commit: $((SECONDS - t0)) s" >&3
}

@test "a typo'd class passes with a hidden warning by default; with --require-class it fails, naming both places" {
	clone
	mkdir -p "$REPO/apps/search"
	sed -e 's/app-0000/search/g' -e 's/prod-critical/prod-critcal/' "$REPO/apps/app-0000/deployment.yaml" >"$REPO/apps/search/deployment.yaml"
	git -C "$REPO" add -A
	run -0 bash -c "cd '$REPO' && pc-validate --staged"
	assert_output --partial "apps/search/deployment.yaml:11:26: Deployment/search: warning: no PriorityClass with name prod-critcal was found (did you mean prod-critical, which exists at HEAD:platform/priorityclasses.yaml:9:1?)"
	# the example config's documented argument, switched on
	sed -i 's/^        # args: \[--require-class\]$/        args: [--require-class]/' "$REPO/.pre-commit-config.yaml"
	grep -q '^        args: \[--require-class\]$' "$REPO/.pre-commit-config.yaml"
	run commit "search"
	assert_failure
	assert_output --partial "apps/search/deployment.yaml:11:26: Deployment/search: no PriorityClass with name prod-critcal was found (did you mean prod-critical, which exists at HEAD:platform/priorityclasses.yaml:9:1?) (pods created from this template would be rejected)"
	[ "$(commits)" -eq 1 ]
	sed -i 's/prod-critcal/prod-critical/' "$REPO/apps/search/deployment.yaml"
	run commit "search"
	passed
}

@test "DRA: a valid DeviceClass and ResourceClaimTemplate commit cleanly; a selector that does not compile fails the commit" {
	clone
	mkdir -p "$REPO/dra"
	cat >"$REPO/dra/gpu.yaml" <<'EOF'
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.example.com
spec:
  selectors:
  - cel:
      expression: device.driver == "gpu.example.com"
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: two-gpus
  namespace: shop
spec:
  spec:
    devices:
      requests:
      - name: gpus
        exactly:
          deviceClassName: gpu.example.com
          count: 2
          selectors:
          - cel:
              expression: device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0
EOF
	run commit "gpu class and template"
	passed
	cat >"$REPO/dra/one.yaml" <<'EOF'
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: one-gpu
  namespace: shop
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: device.capacity["gpu.example.com"].memory >= "40Gi"
EOF
	run commit "one gpu"
	assert_failure
	assert_output --partial "dra/one.yaml:15:27: ResourceClaimTemplate/one-gpu: spec.spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: "
	assert_output --partial "compilation failed: ERROR: <input>:1:"
	[ "$(commits)" -eq 2 ]
}

# ---- the hook definitions (.pre-commit-hooks.yaml), as a remote repository's ----

use_hooks() { # ids, each with extra YAML lines: use_hooks 'pc-validate' 'pp-match\n  args: [...]'
	local hooks="$TMP/hooks"
	if [ ! -d "$hooks" ]; then
		mkdir -p "$hooks"
		cp "$ROOT/.pre-commit-hooks.yaml" "$hooks/"
		git -C "$hooks" init -q
		git -C "$hooks" add .pre-commit-hooks.yaml
		git -C "$hooks" commit -qm hooks
	fi
	{
		printf 'repos:\n- repo: %s\n  rev: %s\n  hooks:\n' "$hooks" "$(git -C "$hooks" rev-parse HEAD)"
		for h in "$@"; do
			printf '  - id: %b\n' "$h" | sed '2,$s/^/    /'
		done
	} >"$REPO/.pre-commit-config.yaml"
	(cd "$REPO" && pre-commit install >/dev/null)
}

deployment() { # file image [class]
	mkdir -p "$(dirname "$1")"
	cat >"$1" <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      priorityClassName: ${3:-batch}
      containers: [{name: web, image: $2}]
EOF
}

@test "shipped hooks (.pre-commit-hooks.yaml): an ordinary commit passes, an invalid manifest fails with the message" {
	clone
	use_hooks pc-validate pp-match
	sed -i 's/^version: 0.1.0/version: 0.1.1/' "$REPO/charts/shop/Chart.yaml"
	run commit "chart 0.1.1"
	passed
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: too-high\nvalue: 1000000001\n' >"$REPO/platform/bad.yaml"
	sed -i 's/minCount: 4/minCount: 0/' "$REPO/teams/batch/jobs.yaml"
	run commit "too high"
	assert_failure
	assert_output --partial "platform/bad.yaml:5:8: PriorityClass/too-high: value: Forbidden: maximum allowed value of a user defined priority is 1000000000"
	assert_output --partial "teams/batch/jobs.yaml:26:19: Workload/training: spec.podGroupTemplates[0].schedulingPolicy.gang.minCount: Required value"
	[ "$(commits)" -eq 2 ]
}

@test "pp-match hook: templates without policies pass; --require-claim and a policy the webhook rejects fail" {
	mkdir -p "$REPO"
	git -C "$REPO" init -q
	use_hooks pc-validate pp-match
	deployment "$REPO/deploy/web.yaml" nginx:1.25 system-cluster-critical
	run commit "web"
	passed
	use_hooks 'pp-match\nargs: [--require-claim]'
	deployment "$REPO/deploy/web.yaml" nginx:1.26 system-cluster-critical
	run commit "web 1.26"
	assert_failure
	assert_output --partial "1 template(s) unclaimed (--require-claim)"
	use_hooks pp-match
	cat >"$REPO/deploy/policy.yaml" <<'EOF'
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
	run commit "policy"
	assert_failure
	assert_output --partial "spec.priority"
	[ "$(commits)" -eq 1 ]
}

# ---- bad input, without pre-commit ----

usage_trouble() { # stderr-substring command...: exit 2 with that message
	local want=$1
	shift
	run -2 --separate-stderr "$@"
	[[ $stderr == *"$want"* ]] || fail "stderr: $stderr"
}

@test "--against and --staged bad input: a missing revision, a path outside the repository, no repository: exit 2" {
	clone
	cd "$REPO"
	# pc-validate's: test/pc-validate.bats
	usage_trouble "--against no-such-rev: not a commit of this repository" \
		pp-match --against no-such-rev platform/priorityclasses.yaml
	usage_trouble "--staged --against no-such-rev: not a commit of this repository" pp-match --staged --against no-such-rev
	printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\n' >"$TMP/outside.yaml"
	usage_trouble "--against HEAD: $TMP/outside.yaml is outside the repository" pc-validate --against HEAD "$TMP/outside.yaml"
	usage_trouble "is outside the repository" pp-match --against HEAD "$TMP/outside.yaml"
	usage_trouble "--staged reads the files to check from the git index and takes no path" pc-validate --staged "$TMP/outside.yaml"
	cd "$TMP"
	usage_trouble "--against HEAD: not inside a git repository" pp-match --against HEAD outside.yaml
	usage_trouble "--staged: not inside a git repository" pp-match --staged
}

@test "--against HEAD and --staged in a repository without commits: nothing existed, the inputs are checked, exit 0" {
	mkdir -p "$REPO"
	git -C "$REPO" init -q
	cd "$REPO"
	platform_classes >classes.yaml
	run -0 --separate-stderr pc-validate --against HEAD .
	[[ $stderr == *"--against HEAD: the repository has no commit yet; every object is new"* ]] || fail "stderr: $stderr"
	# and without operands nothing is read from standard input (a hook with always_run)
	run -0 --separate-stderr pc-validate --against HEAD </dev/null
	run -0 --separate-stderr pp-match --against HEAD </dev/null
	git add classes.yaml
	run -0 --separate-stderr pc-validate --staged
	[[ $stderr == *"--staged: the repository has no commit yet; every object is new"* ]] || fail "stderr: $stderr"
}

@test "--against and --staged: a committed manifest over --max-record-bytes stops with exit 2 and names it, instead of reading it whole" {
	clone
	cd "$REPO"
	# a committed 40 KB manifest; the limit below it refuses it, above it reads it
	{ printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n'
	  for i in $(seq 1 1000); do printf '  k%04d: "%032d"\n' "$i" 0; done; } >big.yaml
	git add big.yaml && git commit -qm big --no-verify
	usage_trouble "--against HEAD: big.yaml is $(wc -c <big.yaml) bytes, over the --max-record-bytes limit of 20000: not read" \
		pc-validate --max-record-bytes 20000 --against HEAD platform/priorityclasses.yaml
	usage_trouble "big.yaml is $(wc -c <big.yaml) bytes, over the --max-record-bytes limit of 20000" \
		pp-match --max-record-bytes 20000 --against HEAD platform/priorityclasses.yaml
	printf '# touched\n' >>platform/priorityclasses.yaml
	git add platform/priorityclasses.yaml
	usage_trouble "--staged: big.yaml is $(wc -c <big.yaml) bytes, over the --max-record-bytes limit of 20000" \
		pc-validate --max-record-bytes 20000 --staged
	run -0 pc-validate --max-record-bytes 100000 --staged
}
