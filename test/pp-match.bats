#!/usr/bin/env bats
# pp-match: command-line behaviour (the matching semantics live in
# test/fixtures/pp-match/, one case per upstream test case).

load test_helper/common
bats_require_minimum_version 1.5.0

EXAMPLES="$ROOT/share/examples/karmada"
GATE="--feature-gates PropagationPolicyPreemption=true"

@test "pp-match --help lists every option and the exit statuses" {
	run pp-match --help
	assert_success
	assert_output --partial "Usage: pp-match"
	for flag in --feature-gates --namespace --explain --emit-metadata --require-claim --against --staged --max-findings --output --no-headers --stats; do
		assert_output --partial -- "$flag"
	done
	assert_output --partial "Exit status"
}

@test "pp-match --version prints the version" {
	run pp-match --version
	assert_success
	assert_output --regexp '^pp-match [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "every --help flag is in the man page and the bash, zsh and fish completions" {
	run pp-match --help
	flags=$(printf '%s\n' "$output" | grep -oE -- '--[a-z][a-z-]+' | sort -u)
	[ -n "$flags" ]
	for f in $flags; do
		grep -qE -- "(Fl|\\||,) -${f#--}( |$)" "$ROOT/share/man/man1/pp-match.1" || fail "man page lacks $f"
		grep -qF -- "$f" "$ROOT/completions/bash/pp-match" || fail "bash completion lacks $f"
		grep -qF -- "$f" "$ROOT/completions/zsh/_pp-match" || fail "zsh completion lacks $f"
		grep -qF -- "-l ${f#--}" "$ROOT/completions/fish/pp-match.fish" || fail "fish completion lacks $f"
	done
}

@test "the man page is mandoc -Tlint clean" {
	command -v mandoc >/dev/null || skip "no mandoc"
	run mandoc -Tlint -W warning "$ROOT/share/man/man1/pp-match.1"
	assert_success
	assert_output ""
}

@test "an unknown option is a usage error (exit 2)" {
	run pp-match --no-such-option "$EXAMPLES"
	assert_failure 2
	assert_output --partial "Try 'pp-match --help'"
}

@test "an unknown output format is a usage error (exit 2)" {
	run pp-match -o sarif "$EXAMPLES"
	assert_failure 2
	assert_output --partial "unknown output format 'sarif'"
}

@test "a malformed feature gate is a usage error (exit 2)" {
	run pp-match --feature-gates PropagationPolicyPreemption "$EXAMPLES"
	assert_failure 2
	assert_output --partial "missing bool value for PropagationPolicyPreemption"
}

@test "an unrelated feature gate is accepted with a warning" {
	run pp-match --feature-gates Failover=true,PropagationPolicyPreemption=true "$EXAMPLES"
	assert_success   # the example's unclaimed ConfigMap is reported, not a finding
	assert_output --partial "warning: --feature-gates: Failover does not change what pp-match computes"
}

@test "one PolicyClaim per template, in input order, on stdout" {
	run --separate-stderr pp-match "$EXAMPLES"
	assert_success
	[ "$(printf '%s\n' "$output" | jq -r '.kind' | sort -u)" = PolicyClaim ]
	[ "$(printf '%s\n' "$output" | jq -r '.resource.name' | paste -sd, -)" = \
		"frontend,backend,payments,frontend,shop-settings,shop-reader" ]
}

@test "exit 0 when every template is claimed" {
	run bash -c "pp-match -n shop '$EXAMPLES/policies.yaml' - <<'EOF'
apiVersion: v1
kind: Service
metadata: {name: web}
EOF"
	assert_success
	assert_output --partial '"resource":{"apiVersion":"v1","kind":"Service","namespace":"shop","name":"web"},"policy":{"kind":"ClusterPropagationPolicy","name":"platform-default","priority":50}'
}

@test "reads standard input with '-' and with no operands" {
	both="cat '$EXAMPLES/policies.yaml'; echo ---; cat '$EXAMPLES/templates.yaml'"
	run bash -c "{ $both; } | pp-match -o table"
	assert_success
	assert_line --index 1 --regexp '^Deployment/shop/frontend +Claim +PP/shop/web-tier'
	run bash -c "{ $both; } | pp-match -o table -"
	assert_success
	assert_line --index 1 --regexp '^Deployment/shop/frontend +Claim +PP/shop/web-tier'
}

@test "exit statuses: unclaimed is an answer (0), a finding only with --require-claim (1)" {
	run --separate-stderr pp-match "$EXAMPLES"
	assert_success
	[ "$(printf '%s\n' "$output" | jq -r 'select(.action == "None") | .resource.name')" = shop-settings ]
	run --separate-stderr pp-match --require-claim "$EXAMPLES"
	assert_failure 1
	[[ "$stderr" == *"pp-match: 1 template(s) unclaimed (--require-claim)"* ]]
	run --separate-stderr pp-match --require-claim "$EXAMPLES/policies.yaml"
	assert_success     # policies alone: no template to claim
}

@test "a repository without policies is no finding and says 0 policies" {
	repo="$BATS_TEST_TMPDIR/repo.yaml"
	printf '%s\n' 'apiVersion: scheduling.k8s.io/v1' 'kind: PriorityClass' 'metadata: {name: high}' 'value: 1000' \
		'---' 'apiVersion: apps/v1' 'kind: Deployment' 'metadata: {name: web, namespace: apps}' >"$repo"
	run --separate-stderr pp-match -o table "$repo"
	assert_success
	assert_line --regexp '^2 template\(s\): 0 claimed, 2 unclaimed; 0 policies$'
	assert_line --partial 'Warning: 0 policies in the input'
	[[ "$stderr" == *"warning: 0 policies in the input"* ]]
	run --separate-stderr pp-match -o table --no-headers "$repo"
	assert_success
	[ "${#lines[@]}" -eq 2 ]   # data rows only; the warning stays on stderr
	[[ "$stderr" == *"0 policies"* ]]
}

@test "tables share the vocabulary: RESULT and REASON (with or without --explain, as the other tools' tables); -o wide adds columns" {
	run pp-match -o table "$EXAMPLES"
	assert_line --index 0 --regexp '^RESOURCE +RESULT +POLICY +PREVIOUS +REASON$'
	assert_line --regexp '^Deployment/shop/frontend +Claim +PP/shop/web-tier +<none> +matched by PropagationPolicy shop/web-tier'
	run pp-match -o table --explain "$EXAMPLES"   # adds the Skipped rows
	assert_line --index 0 --regexp '^RESOURCE +RESULT +POLICY +PREVIOUS +REASON$'
	run pp-match -o wide "$EXAMPLES"
	assert_line --index 0 --regexp '^RESOURCE +RESULT +POLICY +PRIORITY +PREVIOUS +CANDIDATES +REASON$'
	assert_line --regexp '^Deployment/shop/frontend +Claim +PP/shop/web-tier +10 +<none> +3 +matched by PropagationPolicy shop/web-tier'
	run pp-match -o=wide --no-headers "$EXAMPLES"
	[ "${#lines[@]}" -eq 6 ]
	[[ "${lines[0]}" == Deployment/shop/frontend* ]]
}

@test "warnings are table footers too" {
	dup="$BATS_TEST_TMPDIR/dup.yaml"
	printf '%s\n' 'apiVersion: v1' 'kind: ConfigMap' 'metadata: {name: a, namespace: x}' '---' \
		'apiVersion: v1' 'kind: ConfigMap' 'metadata: {name: a, namespace: x}' >"$dup"
	run --separate-stderr pp-match -o table "$EXAMPLES/policies.yaml" "$dup"
	assert_success
	assert_line 'Warning: ConfigMap x/a appears 2 times; each copy is taken as is'
	[[ "$stderr" == *"warning: ConfigMap x/a appears 2 times"* ]]
}

@test "--explain tells skipped from missing" {
	run --separate-stderr pp-match --explain "$EXAMPLES"
	[ "$(printf '%s\n' "$output" | jq -r 'select(.action == "Skipped") | "\(.resource.namespace)/\(.resource.name)"')" = kube-system/coredns-custom ]
	[ "$(printf '%s\n' "$output" | jq -r 'select(.action == "None") | .resource.name')" = shop-settings ]
	in="$BATS_TEST_TMPDIR/in.yaml"
	printf '%s\n' 'apiVersion: apps/v1' 'kind: Deployment' 'metadata: {name: dns, namespace: kube-system}' '---' \
		'apiVersion: apps/v1' 'kind: Deployment' 'metadata: {name: web, namespace: shop}' >"$in"
	run --separate-stderr pp-match "$EXAMPLES/policies.yaml" "$in"
	[ "$(printf '%s\n' "$output" | jq -r '.resource.name')" = web ]
	run --separate-stderr pp-match --explain "$EXAMPLES/policies.yaml" "$in"
	[ "$(printf '%s\n' "$output" | jq -r '"\(.resource.name) \(.action)"' | paste -sd, -)" = "dns Skipped,web Claim" ]
	run pp-match --explain -o table "$EXAMPLES/policies.yaml" "$in"
	assert_line --regexp '^Deployment/kube-system/dns +Skipped +<none> +<none> +namespace kube-system is reserved for Kubernetes'
	assert_line --regexp '^1 template\(s\): 1 claimed, 0 unclaimed, 1 skipped by the detector; 4 policies$'
}

@test "preemption needs the feature gate" {
	run pp-match -o table "$EXAMPLES"
	assert_line --regexp '^Deployment/shop/payments +Keep +CPP/platform-default'
	run pp-match -o table $GATE "$EXAMPLES"
	assert_line --regexp '^Deployment/shop/payments +Preempt +PP/shop/payments-critical'
}

@test "--explain says why each other policy lost" {
	run --separate-stderr pp-match --explain "$EXAMPLES"
	why=$(printf '%s\n' "$output" | jq -r 'select(.resource.name == "frontend" and .resource.kind == "Deployment")
		| .candidates[] | select(.chosen | not) | "\(.name): \(.why)"')
	[[ "$why" == *"shop-default: lower explicit priority (0 < 10)"* ]]
	[[ "$why" == *"platform-default: a ClusterPropagationPolicy is only considered when no PropagationPolicy matches"* ]]
}

@test "--emit-metadata gives a merge patch kubectl can apply" {
	run --separate-stderr pp-match $GATE --emit-metadata "$EXAMPLES"
	patch=$(printf '%s\n' "$output" | jq -c 'select(.resource.name == "payments") | {metadata}')
	[ "$patch" = '{"metadata":{"labels":{"propagationpolicy.karmada.io/permanent-id":"2a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d","clusterpropagationpolicy.karmada.io/permanent-id":null},"annotations":{"propagationpolicy.karmada.io/namespace":"shop","propagationpolicy.karmada.io/name":"payments-critical","clusterpropagationpolicy.karmada.io/name":null}}}' ]
}

@test "--stats accounts for every object" {
	run --separate-stderr pp-match --stats "$EXAMPLES"
	[[ "$stderr" == *"pp-match: stats: read 11, used 10, skipped 1, rejected 0, unreadable 0"* ]]
	[[ "$stderr" == *"pp-match: stats: kind ConfigMap: skipped 1, rejected 0"* ]]   # kube-system/coredns-custom
}

@test "policy errors are Diagnostic records with -o json and text on stderr with -o table" {
	bad=$(mktemp)
	printf '%s\n' 'apiVersion: policy.karmada.io/v1alpha1' 'kind: ClusterPropagationPolicy' \
		'metadata: {name: greedy}' 'spec:' '  preemption: Always' '  resourceSelectors:' \
		'  - {apiVersion: apps/v1, kind: Deployment}' >"$bad"
	run --separate-stderr pp-match "$bad"
	assert_failure 1
	[ "$(printf '%s\n' "$output" | jq -r '"\(.kind) \(.line):\(.column) \(.field)"')" = \
		"Diagnostic 7:5 spec.resourceSelectors[0].name" ]
	run --separate-stderr pp-match -o table "$bad"
	assert_failure 1
	[[ "$stderr" == *"$bad:7:5: ClusterPropagationPolicy/greedy: spec.resourceSelectors[0].name: Invalid value: \"\": name cannot be empty if preemption is Always"* ]]
	rm -f "$bad"
}

@test "unreadable input is trouble (exit 2) and names the place" {
	run bash -c "printf '{\"kind\": \n' | pp-match"
	assert_failure 2
	assert_output --partial "pp-match: "
}

@test "quiet when the reader stops early" {
	big=$(mktemp)
	for i in $(seq 1 3000); do
		printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-%d","namespace":"a"}}\n' "$i"
	done >"$big"
	run bash -c "pp-match '$EXAMPLES/policies.yaml' '$big' | head -1"
	assert_success
	[[ "$output" == '{"kind":"PolicyClaim"'* ]]
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	rm -f "$big"
}

@test "real Karmada samples read without error" {
	[ -d "$SHARED/karmada" ] || skip "no shared data"
	run --separate-stderr pp-match --stats "$SHARED/karmada"
	assert_success     # samples/nginx uses a pre-release schema: its Deployment is reported unclaimed
	[[ "$stderr" != *error* ]]
	[ "$(printf '%s\n' "$output" | jq -s 'map(select(.action == "Claim")) | length')" -eq 5 ]
}

@test "an input with no resource templates is an answer that says so (exit 0)" {
	: >"$BATS_TEST_TMPDIR/empty.yaml"
	run --separate-stderr pp-match "$BATS_TEST_TMPDIR/empty.yaml"
	assert_success
	assert_output ''
	[[ "$stderr" == "pp-match: note: 0 resource templates in the input: 0 policies matched nothing" ]]
	run --separate-stderr pp-match "$ROOT/share/examples/karmada/policies.yaml"
	assert_success
	[[ "$stderr" == *"0 resource templates in the input: 4 policies matched nothing"* ]]
}

# ---- issue 23: the pre-commit hook in a real repository ----

@test "pp-match skips a Helm template, a chart's values, package.json and config YAML with a note, not trouble" {
	TMP="$BATS_TEST_TMPDIR"
	mkdir -p "$TMP/chart/templates"
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n' >"$TMP/chart/templates/web.yaml"
	printf 'replicaCount: 2\n' >"$TMP/chart/values.yaml"
	printf '{"name": "ui"}\n' >"$TMP/package.json"
	printf 'log_level: debug\n' >"$TMP/config.yaml"
	run -0 --separate-stderr pp-match -o table --stats "$TMP/chart" "$TMP/package.json" "$TMP/config.yaml" "$EXAMPLES"
	[[ $stderr == *"chart/templates/web.yaml: note: skipped: Helm/Go template, not Kubernetes objects; to check it, render it: helm template $TMP/chart | pp-match -"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"package.json: note: skipped: npm package manifest"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"config.yaml:1:1: note: skipped: not a Kubernetes object (no apiVersion, no kind)"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"stats: kind (Helm/Go template): skipped 1"* ]] || fail "stderr: $stderr"
	assert_output --partial "not Kubernetes objects: 3 files, 1 documents skipped"
}

@test "pp-match --against REV: the committed policies take part; a replaced or deleted file's do not" {
	TMP="$BATS_TEST_TMPDIR"
	REPO="$TMP/repo"
	mkdir -p "$REPO/karmada"
	cp "$EXAMPLES"/*.yaml "$REPO/karmada/"
	cd "$REPO"
	git init -q && git -c user.email=t@example.com -c user.name=t commit -qm init --allow-empty
	git add -A && git -c user.email=t@example.com -c user.name=t commit -qm karmada
	# the templates alone: no policy in sight
	run -0 pp-match -o table karmada/templates.yaml
	assert_output --partial "0 claimed, 6 unclaimed; 0 policies"
	# with the committed state: the committed policies claim them, the recorded claim is kept
	run -0 pp-match -o table --against HEAD karmada/templates.yaml
	assert_output --partial "Deployment/shop/payments       Keep     CPP/platform-default"
	assert_output --partial "5 claimed, 1 unclaimed; 4 policies"
	# a staged version of the policies file replaces the committed one
	run -0 pp-match -o table --against HEAD karmada/templates.yaml karmada/policies.yaml
	assert_output --partial "5 claimed, 1 unclaimed; 4 policies"
	# the policies deleted from the work tree take no part
	git rm -q karmada/policies.yaml
	run -0 pp-match -o table --against HEAD karmada/templates.yaml
	assert_output --partial "0 claimed, 6 unclaimed; 0 policies"
	run -0 pp-match -o table --against HEAD~1 karmada/templates.yaml
	assert_output --partial "0 policies"
}

# ---- issue 32: ordinary commits pass, real mistakes fail ----

@test "pp-match: a run in which every input was skipped exits 0 with its note; a kustomize patch is no second template" {
	TMP="$BATS_TEST_TMPDIR"
	printf 'apiVersion: v2\nname: shop\nversion: 0.1.1\n' >"$TMP/Chart.yaml"
	run -0 --separate-stderr pp-match "$TMP/Chart.yaml"
	[[ $stderr == *"Chart.yaml: note: skipped: Helm chart metadata, not Kubernetes objects"*"0 resource templates in the input"* ]] || fail "stderr: $stderr"
	mkdir -p "$TMP/k/base" "$TMP/k/prod"
	printf 'resources: [deployment.yaml]\n' >"$TMP/k/base/kustomization.yaml"
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\n' >"$TMP/k/base/deployment.yaml"
	printf 'resources: [../base]\npatches:\n- path: replicas.yaml\n' >"$TMP/k/prod/kustomization.yaml"
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\nspec: {replicas: 3}\n' >"$TMP/k/prod/replicas.yaml"
	run -0 --separate-stderr pp-match -o table "$TMP/k"
	assert_output --partial "1 template(s): 0 claimed, 1 unclaimed"
	[[ $stderr != *"appears 2 times"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"k/prod/replicas.yaml: note: skipped: a patch that $TMP/k/prod/kustomization.yaml applies (a partial object, not a definition); to check what it builds: kustomize build $TMP/k/prod | pp-match -"* ]] ||
		fail "stderr: $stderr"
	# a tool's config with a duplicate key is skipped whole
	printf 'theme: a\ntheme: b\n' >"$TMP/mkdocs-like.yaml"
	run -0 --separate-stderr pp-match "$TMP/mkdocs-like.yaml"
	[[ $stderr != *duplicate* ]] || fail "stderr: $stderr"
}

@test "pp-match --max-findings: the problems of one input are capped, the rest counted in one line" {
	TMP="$BATS_TEST_TMPDIR"
	for i in $(seq 1 300); do printf -- '- [%d]\n---\n' "$i"; done >"$TMP/log.txt"
	run -2 --separate-stderr pp-match - <"$TMP/log.txt"
	[ "$(grep -c 'document is a sequence' <<<"$stderr")" -eq 200 ] || fail "stderr: $(head -3 <<<"$stderr")"
	[[ $stderr == *"pp-match: -: note: 100 more findings of this input not shown (100 errors, 0 warnings): --max-findings 200 shows the first 200 of each input, 0 shows all"* ]] ||
		fail "stderr: $(tail -3 <<<"$stderr")"
	run -2 --separate-stderr pp-match --max-findings 0 - <"$TMP/log.txt"
	[ "$(grep -c 'document is a sequence' <<<"$stderr")" -eq 300 ]
}

@test "pp-match --staged: the index's templates are decided with the committed policies; no path operands" {
	TMP="$BATS_TEST_TMPDIR"
	REPO="$TMP/repo"
	mkdir -p "$REPO/karmada"
	cp "$EXAMPLES/policies.yaml" "$REPO/karmada/"
	cd "$REPO"
	git init -q
	git add -A && git -c user.email=t@example.com -c user.name=t commit -qm policies
	run -0 --separate-stderr pp-match --staged
	[[ $stderr == *"--staged: the index changes no manifest (*.yaml, *.yml, *.json) against HEAD: nothing to check"* ]] || fail "stderr: $stderr"
	cp "$EXAMPLES/templates.yaml" karmada/
	run -0 pp-match -o table --staged
	assert_output --partial "0 template(s)"
	git add karmada/templates.yaml
	run -0 pp-match -o table --staged
	assert_output --partial "Deployment/shop/payments       Keep     CPP/platform-default"
	assert_output --partial "5 claimed, 1 unclaimed; 4 policies"
	# the policies file deleted in the index takes no part
	git rm -q --cached karmada/policies.yaml
	run -0 pp-match -o table --staged
	assert_output --partial "0 claimed, 6 unclaimed; 0 policies"
	run -2 --separate-stderr pp-match --staged karmada/templates.yaml
	[[ $stderr == *"--staged reads the files to check from the git index and takes no path"* ]] || fail "stderr: $stderr"
}
