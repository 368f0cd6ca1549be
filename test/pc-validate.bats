#!/usr/bin/env bats
# pc-validate: command-line behaviour. The validation rules live in
# test/fixtures/pc-validate/, one case per upstream test case.

load test_helper/common
bats_require_minimum_version 1.5.0

PCFIX="$ROOT/test/fixtures/pc-validate"

setup() {
	TMP="$BATS_TEST_TMPDIR"
	cat >"$TMP/good.yaml" <<'EOF'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: batch-low
value: 100
EOF
	cat >"$TMP/bad.yaml" <<'EOF'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: too-high
value: 1000000001
EOF
}

@test "pc-validate --help lists every option and the exit statuses" {
	run pc-validate --help
	assert_success
	assert_output --partial "Usage: pc-validate"
	for flag in --output --cluster --feature-gates --strict --summary --kep5710-preemption-priority --stats; do
		assert_output --partial -- "$flag"
	done
	assert_output --partial "Exit status"
}

@test "pc-validate --version prints the version" {
	run pc-validate --version
	assert_success
	assert_output --regexp '^pc-validate [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "every --help flag is in the man page and the bash, zsh and fish completions" {
	run pc-validate --help
	flags=$(printf '%s\n' "$output" | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
	[ -n "$flags" ]
	for f in $flags; do
		grep -qE -- "(Fl|\\||,) -${f#--}( |$)" "$ROOT/share/man/man1/pc-validate.1" || fail "man page lacks $f"
		grep -qF -- "$f" "$ROOT/completions/bash/pc-validate" || fail "bash completion lacks $f"
		grep -qF -- "$f" "$ROOT/completions/zsh/_pc-validate" || fail "zsh completion lacks $f"
		grep -qF -- "-l ${f#--}" "$ROOT/completions/fish/pc-validate.fish" || fail "fish completion lacks $f"
	done
}

@test "the man page is mandoc -Tlint clean" {
	command -v mandoc >/dev/null || skip "no mandoc"
	run mandoc -Tlint -W warning "$ROOT/share/man/man1/pc-validate.1"
	assert_success
	assert_output ""
}

@test "the bash completion parses and registers the command" {
	run bash -c "source /usr/share/bash-completion/bash_completion 2>/dev/null; source '$ROOT/completions/bash/pc-validate' && complete -p pc-validate"
	assert_success
	assert_output --partial "_pc_validate"
}

@test "a valid manifest exits 0 and prints nothing" {
	run -0 pc-validate "$TMP/good.yaml"
	assert_output ""
}

@test "a finding exits 1 with file:line:col: kind/name: field: message" {
	run -1 pc-validate "$TMP/bad.yaml"
	assert_output "$TMP/bad.yaml:5:8: PriorityClass/too-high: value: Forbidden: maximum allowed value of a user defined priority is 1000000000"
}

@test "standard input is read with - and without operands" {
	run -1 sh -c "pc-validate - < '$TMP/bad.yaml'"
	assert_output --partial "PriorityClass/too-high: value: Forbidden"
	run -1 sh -c "pc-validate < '$TMP/bad.yaml'"
	assert_output --partial "PriorityClass/too-high"
}

@test "-o json writes one Diagnostic per line with the contract's keys" {
	run -1 pc-validate -o json "$TMP/bad.yaml"
	[ "${#lines[@]}" -eq 1 ]
	run jq -e -c 'keys_unsorted == ["file","line","column","severity","object","field","type","message"] and (.object | keys_unsorted) == ["apiVersion","kind","namespace","name"] and .type == "Forbidden" and .line == 5' <<<"$output"
	assert_success
}

@test "-o sarif is SARIF 2.1.0 with a results array, also when there is nothing to report" {
	run -0 pc-validate -o sarif "$TMP/good.yaml"
	run jq -e '.version == "2.1.0" and (.runs[0].results | type == "array" and length == 0) and .runs[0].tool.driver.name == "pc-validate"' <<<"$output"
	assert_success
	run -1 pc-validate -o sarif "$TMP/bad.yaml"
	run jq -e '.runs[0].results[0] | .ruleId == "Forbidden" and .level == "error" and .locations[0].physicalLocation.region.startLine == 5' <<<"$output"
	assert_success
}

@test "-o junit is well-formed XML with one failing test case per file with findings" {
	run -1 pc-validate -o junit "$TMP/good.yaml" "$TMP/bad.yaml"
	assert_output --partial '<testsuite name="pc-validate" tests="2" failures="1"'
	command -v xmllint >/dev/null || skip "no xmllint"
	printf '%s\n' "$output" | xmllint --noout -
}

@test "a bad option or format is a usage error (exit 2)" {
	run -2 pc-validate --no-such-option "$TMP/good.yaml"
	run -2 pc-validate -o yaml "$TMP/good.yaml"
	run -2 pc-validate --feature-gates CompositPodGroup=true "$TMP/good.yaml"
	assert_output --partial "unrecognized feature gate: CompositPodGroup (did you mean CompositePodGroup?)"
	run -2 pc-validate --feature-gates CompositePodGroup=maybe "$TMP/good.yaml"
}

@test "a file that cannot be read is trouble (exit 2), not a finding" {
	run -2 pc-validate "$TMP/does-not-exist.yaml"
	assert_output --partial "does-not-exist.yaml"
}

@test "an unreadable --cluster file is trouble (exit 2)" {
	run -2 pc-validate --cluster "$TMP/nope.json" "$TMP/good.yaml"
}

@test "zero objects read is a finding, not a silent pass" {
	: >"$TMP/empty.yaml"
	run -1 pc-validate "$TMP/empty.yaml"
	assert_output --partial "no objects found in the input"
}

@test "other kinds are skipped and counted by --stats, not findings" {
	printf 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\n' >"$TMP/svc.yaml"
	run -0 --separate-stderr pc-validate --stats "$TMP/svc.yaml" "$TMP/good.yaml"
	assert_output ""
	[[ $stderr == *"read 2, used 1, skipped 1"* ]] || fail "stats: $stderr"
	[[ $stderr == *"kind Service: skipped 1"* ]] || fail "stats: $stderr"
}

@test "--summary counts objects and findings on stderr" {
	run -1 --separate-stderr pc-validate --summary "$TMP/good.yaml" "$TMP/bad.yaml"
	[[ $stderr == *"2 objects checked in 2 files: 1 errors, 0 warnings"* ]] || fail "summary: $stderr"
}

@test "--strict turns warnings (dropped gated fields) into failures" {
	cat >"$TMP/wl.yaml" <<'EOF'
apiVersion: scheduling.k8s.io/v1alpha3
kind: Workload
metadata: {name: job, namespace: default}
spec:
  podGroupTemplates:
  - name: workers
    schedulingPolicy: {gang: {minCount: 2}}
    schedulingConstraints: {topology: [{key: topology.kubernetes.io/zone}]}
EOF
	run -0 pc-validate "$TMP/wl.yaml"
	assert_output --partial "warning: Forbidden: feature gate TopologyAwareWorkloadScheduling is disabled"
	run -1 pc-validate --strict "$TMP/wl.yaml"
	run -0 pc-validate --feature-gates TopologyAwareWorkloadScheduling=true "$TMP/wl.yaml"
	assert_output ""
}

# ---- hostile inputs: clear message, exit 1, within a second ----

hostile() { # file
	local start end
	start=$(date +%s%N)
	run -1 --separate-stderr timeout 5 pc-validate -o json "$1"
	end=$(date +%s%N)
	[ $(((end - start) / 1000000)) -lt 1000 ] || fail "took $(((end - start) / 1000000)) ms"
	run jq -e -s 'length >= 1 and all(.[]; .message != "")' <<<"$output"
	assert_success
}

@test "hostile: YAML syntax error" {
	printf 'apiVersion: v1\nkind: [\n  - : :\n' >"$TMP/syntax.yaml"
	hostile "$TMP/syntax.yaml"
	run -1 pc-validate "$TMP/syntax.yaml"
	assert_output --regexp 'syntax.yaml:[0-9]+:[0-9]+: -/-: -: YAML'
}

@test "hostile: truncated JSON" {
	head -c 60 "$TMP/good.yaml" >/dev/null
	printf '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"a"},"val' >"$TMP/trunc.json"
	hostile "$TMP/trunc.json"
}

@test "hostile: binary garbage" {
	head -c 4096 /dev/urandom >"$TMP/garbage.yaml"
	hostile "$TMP/garbage.yaml"
}

@test "hostile: documents that are not mappings" {
	printf -- '- a\n- b\n---\njust a string\n---\n42\n' >"$TMP/scalars.yaml"
	hostile "$TMP/scalars.yaml"
}

@test "hostile: a number beyond int64 is a TypeError on value" {
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: huge}\nvalue: 123456789012345678901234567890\n' >"$TMP/huge.yaml"
	hostile "$TMP/huge.yaml"
	run -1 --separate-stderr pc-validate -o json "$TMP/huge.yaml"
	run jq -e -s 'any(.[]; .type == "TypeError" and .field == "value")' <<<"$output"
	assert_success
}

@test "hostile: a billion-laughs alias bomb is refused" {
	{
		echo 'a: &a ["x","x","x","x","x","x","x","x","x","x"]'
		prev=a
		for n in b c d e f g h i; do
			printf '%s: &%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n' $n $n $prev $prev $prev $prev $prev $prev $prev $prev $prev $prev
			prev=$n
		done
	} >"$TMP/laughs.yaml"
	hostile "$TMP/laughs.yaml"
}

@test "a parse error does not stop the other documents of the file" {
	printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: [oops\n---\n' >"$TMP/mixed.yaml"
	cat "$TMP/bad.yaml" >>"$TMP/mixed.yaml"
	run -1 pc-validate -o json "$TMP/mixed.yaml"
	run jq -e -s 'any(.[]; .type == "ParseError") and any(.[]; .object.name == "too-high" and .type == "Forbidden")' <<<"$output"
	assert_success
}

@test "quiet when piped into head" {
	for i in $(seq 1 2000); do
		printf -- '---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: c%d}\nvalue: 2000000000\n' "$i"
	done >"$TMP/many.yaml"
	run --separate-stderr bash -c "pc-validate '$TMP/many.yaml' | head -1"
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_output --partial "many.yaml:5:8: PriorityClass/c1: value: Forbidden"
}

# ---- pre-commit ----

@test ".pre-commit-hooks.yaml defines the pc-validate hook for yaml, yml and json files" {
	hooks="$ROOT/.pre-commit-hooks.yaml"
	run python3 -c '
import re, sys, yaml
hooks = yaml.safe_load(open(sys.argv[1]))
h = [h for h in hooks if h["id"] == "pc-validate"][0]
assert h["entry"] == "pc-validate", h
rx = re.compile(h["files"])
for ok in ["a.yaml", "dir/b.yml", "c.json"]:
    assert rx.search(ok), ok
for no in ["README.md", "x.yaml.bak", "main.c"]:
    assert not rx.search(no), no
print(h["entry"])
' "$hooks"
	assert_success
	assert_output "pc-validate"
}

@test "the hook entry runs the way pre-commit runs it: files as arguments" {
	entry=$(python3 -c 'import sys, yaml; print([h for h in yaml.safe_load(open(sys.argv[1])) if h["id"] == "pc-validate"][0]["entry"])' "$ROOT/.pre-commit-hooks.yaml")
	cp "$PCFIX/AD-01-two-defaults-in-one-input-set/in.yaml" "$TMP/classes.yaml"
	cd "$TMP"
	run -0 $entry good.yaml
	run -1 $entry good.yaml bad.yaml classes.yaml
	assert_output --partial "bad.yaml:5:8: PriorityClass/too-high"
	assert_output --partial "classes.yaml:"
	assert_output --partial "PriorityClass default1 is already marked as default. Only one default can exist"
}

@test "the example pre-commit config uses the hook id" {
	run grep -E '^\s*- id: pc-validate' "$ROOT/share/examples/pre-commit-config.yaml"
	assert_success
}
