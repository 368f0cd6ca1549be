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
	for flag in --feature-gates --namespace --explain --emit-metadata --output --stats; do
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
	assert_failure 1   # the example has one unclaimed ConfigMap
	assert_output --partial "warning: --feature-gates: Failover does not change what pp-match computes"
}

@test "one PolicyClaim per template, in input order, on stdout" {
	run --separate-stderr pp-match "$EXAMPLES"
	assert_failure 1
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
	assert_failure 1
	assert_line --index 1 --regexp '^Deployment/shop/frontend +Claim +PP/shop/web-tier'
	run bash -c "{ $both; } | pp-match -o table -"
	assert_failure 1
	assert_line --index 1 --regexp '^Deployment/shop/frontend +Claim +PP/shop/web-tier'
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
	[[ "$stderr" == *"pp-match: stats: read 10, used 10, skipped 0, rejected 0, unreadable 0"* ]]
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
	run bash -c "pp-match '$big' | head -1"
	assert_success
	[[ "$output" == '{"kind":"PolicyClaim"'* ]]
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 1 ]
	rm -f "$big"
}

@test "real Karmada samples read without error" {
	[ -d "$SHARED/karmada" ] || skip "no shared data"
	run --separate-stderr pp-match --stats "$SHARED/karmada"
	assert_failure 1   # samples/nginx uses a pre-release schema, so its Deployment stays unclaimed
	[[ "$stderr" != *error* ]]
	[ "$(printf '%s\n' "$output" | jq -s 'map(select(.action == "Claim")) | length')" -eq 5 ]
}
