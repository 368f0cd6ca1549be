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

deployment() { # image
	cat >"$REPO/deploy/web.yaml" <<EOF
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
      priorityClassName: batch
      containers: [{name: web, image: $1}]
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
