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
	for flag in --output --cluster --against --staged --require-class --max-findings --feature-gates --strict --summary --kep5710-preemption-priority --stats; do
		assert_output --partial -- "$flag"
	done
	assert_output --partial "Exit status"
}

@test "pc-validate --version prints the version" {
	run pc-validate --version
	assert_success
	assert_output --regexp '^pc-validate [0-9]+\.[0-9]+\.[0-9]+ \(answers for Kubernetes 1\.37\)$'
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
	run jq -e -c 'keys_unsorted == ["kind","file","line","column","severity","object","field","type","rule","message","kubernetesVersion"] and .kind == "Diagnostic" and .kubernetesVersion == "1.37" and (.object | keys_unsorted) == ["apiVersion","kind","namespace","name"] and .object.namespace == null and .type == "Forbidden" and .rule == "PriorityClass.value.forbidden" and .line == 5' <<<"$output"
	assert_success
}

@test "-o sarif is SARIF 2.1.0 with a results array, also when there is nothing to report" {
	run -0 pc-validate -o sarif "$TMP/good.yaml"
	run jq -e '.version == "2.1.0" and (.runs[0].results | type == "array" and length == 0) and .runs[0].tool.driver.name == "pc-validate"' <<<"$output"
	assert_success
	run -1 pc-validate -o sarif "$TMP/bad.yaml"
	run jq -e '.runs[0] as $run | $run.results[0] | .ruleId == "PriorityClass.value.forbidden" and .level == "error" and .locations[0].physicalLocation.region.startLine == 5 and $run.tool.driver.rules[.ruleIndex].id == .ruleId and ($run.tool.driver.rules[.ruleIndex].help.text | length > 10)' <<<"$output"
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

@test "no objects at all is not a finding: exit 0 and a note '0 objects checked' on stderr, in every format" {
	: >"$TMP/empty.yaml"
	printf '# only a comment\n---\n# and another\n' >"$TMP/comments.yaml"
	for f in empty.yaml comments.yaml; do
		run -0 --separate-stderr pc-validate "$TMP/$f"
		assert_output ""
		[ "$stderr" = "pc-validate: note: 0 objects checked" ] || fail "$f: stderr: $stderr"
	done
	# stdout stays clean in the machine formats; the note is on stderr, as
	# every tool notes an empty answer whatever the format
	run -0 --separate-stderr pc-validate -o json "$TMP/empty.yaml"
	assert_output ""
	[ "$stderr" = "pc-validate: note: 0 objects checked" ] || fail "stderr: $stderr"
	run -0 --separate-stderr pc-validate -o json --summary "$TMP/empty.yaml"
	[[ $stderr == *"0 objects checked in 1 file: 0 errors, 0 warnings"* ]] || fail "summary: $stderr"
}

@test "only kinds it does not check (Kueue WorkloadPriorityClass): exit 0, '0 objects checked'" {
	command -v jq >/dev/null
	[ -d "$SHARED" ] || skip "no shared data"
	run -0 --separate-stderr pc-validate "$SHARED/priorityclasses/NVIDIA__knavigator__charts__overrides__kueue__priority.yaml"
	assert_output ""
	[ "$stderr" = "pc-validate: note: 0 objects checked" ] || fail "stderr: $stderr"
}

@test "--stats counts the files without documents" {
	: >"$TMP/empty.yaml"
	printf '# comment\n' >"$TMP/comments.yaml"
	run -0 --separate-stderr pc-validate --stats "$TMP/empty.yaml" "$TMP/comments.yaml" "$TMP/good.yaml"
	[[ $stderr == *"pc-validate: stats: files 3, without documents 2, objects checked 1"* ]] || fail "stats: $stderr"
	[[ $stderr == *"read 1, used 1"* ]] || fail "stats: $stderr"
	run -0 --separate-stderr pc-validate -o json --stats "$TMP/empty.yaml"
	assert_output ""
	[[ $stderr == *"pc-validate: stats: files 1, without documents 1, objects checked 0"* ]] || fail "stats: $stderr"
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
	[[ $stderr == *"2 objects checked in 2 files: 1 error, 0 warnings"* ]] || fail "summary: $stderr"
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
	assert_output --partial "spec.podGroupTemplates[0].schedulingConstraints: warning: feature gate TopologyAwareWorkloadScheduling is disabled: the apiserver drops this field on create"
	run -1 pc-validate --strict "$TMP/wl.yaml"
	run -0 pc-validate --feature-gates TopologyAwareWorkloadScheduling=true "$TMP/wl.yaml"
	assert_output ""
}

# ---- hostile inputs: clear message, exit 1, within a second ----

# hostile FILE: refused (exit 1) with messages, within a second of CPU time
# (CPU, not wall clock: a loaded machine must not fail it; sanitized builds
# get TIME_FACTOR seconds).
hostile() { # file
	run -1 --separate-stderr /usr/bin/time -f '%U %S' -o "$TMP/hostile.time" timeout 5 pc-validate -o json "$1"
	local user sys
	read -r user sys < <(tail -n 1 "$TMP/hostile.time") # after "Command exited with non-zero status 1"
	[ "$(echo "$user + $sys < $TIME_FACTOR" | bc)" -eq 1 ] || fail "took ${user}s user + ${sys}s system"
	run jq -e -s 'length >= 1 and all(.[]; .message != "")' <<<"$output"
	assert_success
}

@test "hostile: YAML syntax error" {
	printf 'apiVersion: v1\nkind: [\n  - : :\n' >"$TMP/syntax.yaml"
	hostile "$TMP/syntax.yaml"
	run -1 pc-validate "$TMP/syntax.yaml"
	assert_output --regexp 'syntax.yaml:[0-9]+:[0-9]+: YAML: '
	refute_output --partial -- '-/-'
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
	# every finding (--max-findings 0): more than a pipe holds, so that
	# pc-validate is still writing when head leaves
	run --separate-stderr bash -c "pc-validate --max-findings 0 '$TMP/many.yaml' | head -1"
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_output --partial "many.yaml:5:8: PriorityClass/c1: value: Forbidden"
}

# ---- pre-commit ----

@test ".pre-commit-hooks.yaml and the example config: pc-validate --staged, the whole commit in one run, also for deletions" {
	for cfg in "$ROOT/.pre-commit-hooks.yaml" "$ROOT/share/examples/pre-commit-config.yaml"; do
		run python3 -c '
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
hooks = doc if isinstance(doc, list) else [h for r in doc["repos"] for h in r["hooks"]]
h = [h for h in hooks if h["id"] == "pc-validate"][0]
assert h["entry"] == "pc-validate --staged", h
# pre-commit splits a long file list into several runs: the hook reads the
# index itself, and runs when a commit only deletes
assert h["pass_filenames"] is False and h["always_run"] is True and h["require_serial"] is True, h
m = [h for h in hooks if h["id"] == "pp-match"][0]
assert m["entry"] == "pp-match -o table --staged" and m["pass_filenames"] is False, m
print(h["entry"])
' "$cfg"
		assert_success
		assert_output "pc-validate --staged"
	done
	# the example documents the option that makes a missing class an error
	grep -q -- '# args: \[--require-class\]' "$ROOT/share/examples/pre-commit-config.yaml"
}

@test "the hook entry runs the way pre-commit runs it: no file names, the staged commit read from git" {
	entry=$(python3 -c 'import sys, yaml; print([h for h in yaml.safe_load(open(sys.argv[1])) if h["id"] == "pc-validate"][0]["entry"])' "$ROOT/.pre-commit-hooks.yaml")
	cp "$PCFIX/AD-01-two-defaults-in-one-input-set/in.yaml" "$TMP/classes.yaml"
	cd "$TMP"
	git init -q
	git add good.yaml
	run -0 $entry
	git add bad.yaml classes.yaml
	run -1 $entry
	assert_output --partial "bad.yaml:5:8: PriorityClass/too-high"
	assert_output --partial "classes.yaml:"
	assert_output --partial "PriorityClass default1 is already marked as default. Only one default can exist"
	# a file changed in the work tree but not staged is not what is committed
	git reset -q bad.yaml classes.yaml
	run -0 $entry
}

@test "the example pre-commit config uses the hook ids and names no committed file as --cluster" {
	run grep -E '^\s*- id: pc-validate' "$ROOT/share/examples/pre-commit-config.yaml"
	assert_success
	run grep -E '^\s*- id: pp-match' "$ROOT/share/examples/pre-commit-config.yaml"
	assert_success
	run python3 -c '
import sys, yaml
cfg = yaml.safe_load(open(sys.argv[1]))
for repo in cfg["repos"]:
    for h in repo["hooks"]:
        assert "--cluster" not in h.get("args", []), h
        assert "--require-claim" not in h.get("args", []), h
' "$ROOT/share/examples/pre-commit-config.yaml"
	assert_success
	grep -q -- '--require-claim' "$ROOT/share/examples/pre-commit-config.yaml"
}

# ---- diagnostics that point and name (issue 12, section 4) ----

@test "an object defined twice in the input set is a duplicate definition naming both places" {
	cp "$TMP/good.yaml" "$TMP/a.yaml"
	printf -- '---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: batch-low\nvalue: 200\n' >"$TMP/b.yaml"
	cd "$TMP"
	run -1 pc-validate a.yaml b.yaml
	assert_output 'b.yaml:2:1: PriorityClass/batch-low: PriorityClass "batch-low" is defined more than once in the input set: also defined at a.yaml:1:1'
	# not an update of the first: no immutability finding
	refute_output --partial "may not be changed"
	run -1 pc-validate -o json a.yaml b.yaml
	run jq -e -s 'length == 1 and .[0].type == "DuplicateDefinition" and .[0].rule == "PriorityClass.duplicateDefinition" and .[0].related == [{"file":"a.yaml","line":1,"column":1,"message":"first definition"}]' <<<"$output"
	assert_success
}

@test "namespaced objects without a namespace are not duplicates (they may be for two namespaces)" {
	for f in a b; do
		printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec: {priorityClassName: system-cluster-critical}\n' >"$TMP/$f.yaml"
	done
	run -0 pc-validate "$TMP/a.yaml" "$TMP/b.yaml"
	assert_output ""
	sed -i 's/{name: web}/{name: web, namespace: shop}/' "$TMP/a.yaml" "$TMP/b.yaml"
	run -1 pc-validate "$TMP/a.yaml" "$TMP/b.yaml"
	assert_output --partial 'Deployment "web" is defined more than once in the input set: also defined at'
}

@test "update rules apply only against existing objects (--cluster)" {
	printf '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"batch-low"},"value":50}\n' >"$TMP/cluster.json"
	run -1 pc-validate --cluster "$TMP/cluster.json" "$TMP/good.yaml"
	# the existing object's place follows, as a compiler's note
	assert_output "$TMP/good.yaml:5:8: PriorityClass/batch-low: value: Forbidden: may not be changed in an update.
$TMP/cluster.json:1:1: note: existing object"
	run -1 pc-validate -o json --cluster "$TMP/cluster.json" "$TMP/good.yaml"
	run jq -e '.rule == "PriorityClass.value.immutable"' <<<"$output"
	assert_success
}

@test "the one-default conflict names the other default and where it is" {
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: first}\nvalue: 1\nglobalDefault: true\n' >"$TMP/first.yaml"
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: second}\nvalue: 2\nglobalDefault: true\n' >"$TMP/second.yaml"
	cd "$TMP"
	run -1 pc-validate first.yaml second.yaml
	assert_output "second.yaml:5:16: PriorityClass/second: PriorityClass first is already marked as default. Only one default can exist (first is defined at first.yaml:1:1)"
	printf '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"first"},"value":1,"globalDefault":true}\n' >cluster.json
	run -1 pc-validate --cluster cluster.json second.yaml
	assert_output --partial "(first exists at cluster.json:1:1)"
}

@test "no doubled slash in file names under a directory operand" {
	mkdir "$TMP/deploy"
	cp "$TMP/bad.yaml" "$TMP/deploy/"
	run -1 pc-validate "$TMP/deploy/"
	assert_output --partial "$TMP/deploy/bad.yaml:5:8:"
	refute_output --partial "//"
}

@test "findings in JSON inputs point at the member, in pretty-printed objects and Lists" {
	cat >"$TMP/pc.json" <<'JSON'
{
    "apiVersion": "scheduling.k8s.io/v1",
    "kind": "PriorityClass",
    "metadata": {"name": "too-high"},
    "value": 1000000001,
    "preemptionPolicy": "Sometimes"
}
JSON
	run -1 pc-validate "$TMP/pc.json"
	assert_line "$TMP/pc.json:5:14: PriorityClass/too-high: value: Forbidden: maximum allowed value of a user defined priority is 1000000000"
	assert_line "$TMP/pc.json:6:25: PriorityClass/too-high: preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\""
	# the same through standard input
	run -1 sh -c "pc-validate < '$TMP/pc.json'"
	assert_line --partial -- "-:5:14: PriorityClass/too-high: value: Forbidden"
	# an item of a pretty-printed List (kubectl get -o json), a reference checked at the end
	jq '{apiVersion: "v1", kind: "List", items: [{apiVersion: "v1", kind: "Pod", metadata: {name: "ok", namespace: "a"}, spec: {containers: []}}, {apiVersion: "v1", kind: "Pod", metadata: {name: "bad", namespace: "a"}, spec: {containers: [{name: "c"}], priorityClassName: "no-such-class", priority: 5}}]}' -n >"$TMP/list.json"
	line=$(grep -n '"priorityClassName"' "$TMP/list.json" | cut -d: -f1)
	col=$(awk -v l="$line" 'NR == l { print index($0, "\"no-such-class\"") }' "$TMP/list.json")
	[ "$line" -gt 10 ] && [ "$col" -gt 20 ]
	run -1 pc-validate "$TMP/list.json"
	assert_output "$TMP/list.json:$line:$col: Pod/bad: no PriorityClass with name no-such-class was found"
	cat >"$TMP/pods.json" <<'JSON'
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "a"},
 "spec": {"priorityClassName": "system-cluster-critical",
          "priority": 7}}
JSON
	run -1 pc-validate "$TMP/pods.json"
	assert_output --regexp "^$TMP/pods.json:3:23: Pod/p: the integer value of priority \\(7\\) must not be provided"
	# what the reader finds (a duplicate key) points at the later member too
	printf '{\n  "apiVersion": "scheduling.k8s.io/v1",\n  "kind": "PriorityClass",\n  "metadata": {"name": "d"},\n  "value": 1,\n  "value": 2\n}\n' >"$TMP/dup.json"
	run -1 pc-validate "$TMP/dup.json"
	assert_output "$TMP/dup.json:6:12: PriorityClass/d: value: strict decoding error: duplicate field \"value\""
}

@test "no placeholders: a finding without an object or a field leaves them out (text) or null (JSON)" {
	printf 'apiVersion: v1\nkind: [\n' >"$TMP/broken.yaml"
	run -1 pc-validate "$TMP/broken.yaml" "$TMP/bad.yaml"
	refute_output --partial -- '-/-'
	refute_output --partial -- ': -:'
	run -1 pc-validate -o json "$TMP/broken.yaml" "$TMP/bad.yaml"
	run jq -e -s 'all(.[]; .kind == "Diagnostic") and (.[0] | .object == null and .field == null and .type == "ParseError" and .rule == "manifest.parse") and (.[1].field == "value")' <<<"$output"
	assert_success
}

@test "-o table and -o wide: one row per finding, shared column names, nothing when all is valid" {
	run -1 pc-validate -o table "$TMP/bad.yaml"
	assert_line --index 0 --regexp '^FILE +KIND +NAME +FIELD +SEVERITY +REASON$'
	assert_line --index 1 --regexp "^$TMP/bad.yaml:5:8 +PriorityClass +too-high +value +error +Forbidden: maximum allowed value"
	assert_line "1 object checked in 1 file: 1 error, 0 warnings"
	assert_line "Answers for Kubernetes 1.37 (--kubernetes-version)."
	run -1 pc-validate -o=table --no-headers "$TMP/bad.yaml"
	[ "${#lines[@]}" -eq 1 ] || fail "more than one line: $output"
	assert_output --regexp "^$TMP/bad.yaml:5:8 +PriorityClass +too-high +value +error +Forbidden: "
	run -1 pc-validate -o wide "$TMP/bad.yaml"
	assert_line --index 0 --regexp '^FILE +KIND +NAMESPACE +NAME +FIELD +SEVERITY +TYPE +RULE +REASON$'
	assert_line --index 1 --regexp ' <none> +too-high +value +error +Forbidden +PriorityClass.value.forbidden +Forbidden: '
	run -0 pc-validate -o table "$TMP/good.yaml"
	assert_output ""
}

# ---- exit statuses (issue 15) ----

@test "a YAML or JSON parse error is a finding: exit 1" {
	printf 'apiVersion: v1\nkind: [\n' >"$TMP/broken.yaml"
	printf '{"apiVersion": "v1", "kind": ' >"$TMP/broken.json"
	run -1 pc-validate "$TMP/broken.yaml"
	assert_output --regexp '^.*broken.yaml:[0-9]+:[0-9]+: YAML'
	run -1 pc-validate "$TMP/broken.json"
	assert_output --regexp '^.*broken.json:1:[0-9]+: [a-z]'
}

@test "a top-level sequence is kubectl's decode error, once per document, at its position" {
	printf -- '- apiVersion: scheduling.k8s.io/v1\n  kind: PriorityClass\n  metadata: {name: a}\n  value: 1\n- apiVersion: v1\n  kind: Pod\n' >"$TMP/seq.yaml"
	cd "$TMP"
	run -1 pc-validate seq.yaml
	assert_output 'seq.yaml:1:3: unable to decode "seq.yaml": json: cannot unmarshal array into Go value of type unstructured.detector'
	printf '[{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}]\n' >seq.json
	run -1 pc-validate seq.json
	assert_output 'seq.json:1:2: unable to decode "seq.json": json: cannot unmarshal array into Go value of type unstructured.detector'
	printf 'just a string\n---\n42\n' >scalars.yaml
	run -1 pc-validate scalars.yaml
	assert_line --index 0 'scalars.yaml:1:1: unable to decode "scalars.yaml": json: cannot unmarshal string into Go value of type unstructured.detector'
	assert_line --index 1 'scalars.yaml:3:1: unable to decode "scalars.yaml": json: cannot unmarshal number into Go value of type unstructured.detector'
}

@test "a List's items are objects, not a sequence; existing objects may still come as an array" {
	printf 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: scheduling.k8s.io/v1\n  kind: PriorityClass\n  metadata: {name: a}\n  value: 1\n' >"$TMP/list.yaml"
	run -0 pc-validate "$TMP/list.yaml"
	assert_output ""
	printf '[{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"a"},"value":5}]\n' >"$TMP/cluster.json"
	run -1 pc-validate --cluster "$TMP/cluster.json" "$TMP/list.yaml"
	assert_output --partial "value: Forbidden: may not be changed in an update."
}

@test "removed or unknown apiVersions of known kinds are reported at apiVersion" {
	printf 'apiVersion: scheduling.k8s.io/v1beta1\nkind: PriorityClass\nmetadata: {name: old}\nvalue: 1\n' >"$TMP/pc.yaml"
	printf 'apiVersion: apps/v1beta2\nkind: Deployment\nmetadata: {name: d}\n---\napiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: c}\n---\napiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: v}\n' >"$TMP/apps.yaml"
	cd "$TMP"
	run -1 pc-validate pc.yaml apps.yaml
	assert_line 'pc.yaml:1:13: PriorityClass/old: apiVersion: no matches for kind "PriorityClass" in version "scheduling.k8s.io/v1beta1" (Kubernetes 1.37 serves scheduling.k8s.io/v1)'
	assert_line 'apps.yaml:1:13: Deployment/d: apiVersion: no matches for kind "Deployment" in version "apps/v1beta2"'
	assert_line 'apps.yaml:5:13: CronJob/c: apiVersion: no matches for kind "CronJob" in version "batch/v1beta1"'
	refute_output --partial "Job/v"
}

# ---- --against REV (issue 12, section 5) ----

git_repo() { # a throw-away repository in $TMP/repo with a committed class
	REPO="$TMP/repo"
	mkdir -p "$REPO/deploy"
	git -C "$REPO" init -q
	git -C "$REPO" config user.email t@example.com
	git -C "$REPO" config user.name test
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: batch\nvalue: 100\npreemptionPolicy: Never\n' >"$REPO/deploy/classes.yaml"
}

@test "--against REV: a committed class whose value changes is the immutability error" {
	git_repo
	cd "$REPO"
	# no commit yet: everything is new
	run -0 --separate-stderr pc-validate --against HEAD deploy/classes.yaml
	[[ $stderr == *"--against HEAD: the repository has no commit yet; every object is new"* ]] || fail "stderr: $stderr"
	git add -A && git commit -qm classes
	run -0 pc-validate --against HEAD deploy/classes.yaml
	assert_output ""
	sed -i 's/^value: 100/value: 200/; s/Never/PreemptLowerPriority/' deploy/classes.yaml
	run -1 pc-validate --against HEAD deploy/classes.yaml
	assert_line 'deploy/classes.yaml:5:8: PriorityClass/batch: value: Forbidden: may not be changed in an update.'
	assert_line 'deploy/classes.yaml:6:19: PriorityClass/batch: preemptionPolicy: Invalid value: "PreemptLowerPriority": field is immutable'
	run -1 pc-validate -o json --against HEAD deploy/classes.yaml
	run jq -e -s '.[0].rule == "PriorityClass.value.immutable" and .[0].related == [{"file":"HEAD:deploy/classes.yaml","line":1,"column":1,"message":"existing object"}]' <<<"$output"
	assert_success
	# a directory operand compares every manifest under it; from a subdirectory too
	run -1 pc-validate --against HEAD deploy/
	assert_output --partial "deploy/classes.yaml:5:8: PriorityClass/batch: value: Forbidden"
	cd deploy
	run -1 pc-validate --against HEAD classes.yaml
	assert_output --partial "classes.yaml:5:8: PriorityClass/batch: value: Forbidden"
}

@test "--against REV: identity, not path, decides; other revisions; errors are usage trouble" {
	git_repo
	cd "$REPO"
	git add -A && git commit -qm classes
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: other}\nvalue: 300\n' >deploy/other.yaml
	run -0 pc-validate --against HEAD deploy/other.yaml
	# a class another committed file defines is an update of it, in whatever file (issue 23)
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: batch}\nvalue: 300\n' >deploy/other.yaml
	run -1 pc-validate --against HEAD deploy/other.yaml
	assert_line 'deploy/other.yaml:4:8: PriorityClass/batch: value: Forbidden: may not be changed in an update.'
	assert_line 'HEAD:deploy/classes.yaml:1:1: note: existing object'
	rm deploy/other.yaml
	sed -i 's/^value: 100/value: 200/' deploy/classes.yaml
	git commit -qam "value 200"
	run -0 pc-validate --against HEAD deploy/classes.yaml
	run -1 pc-validate --against HEAD~1 deploy/classes.yaml
	assert_output --partial "value: Forbidden: may not be changed in an update."
	run -2 --separate-stderr pc-validate --against no-such-rev deploy/classes.yaml
	[[ $stderr == *"--against no-such-rev: not a commit of this repository"* ]] || fail "stderr: $stderr"
	cd "$TMP"
	run -2 --separate-stderr pc-validate --against HEAD good.yaml
	[[ $stderr == *"--against HEAD: not inside a git repository"* ]] || fail "stderr: $stderr"
}

@test "--against REV: an old version that no longer parses is warned about, not compared" {
	git_repo
	cd "$REPO"
	printf 'kind: [\n' >deploy/classes.yaml
	git add -A && git commit -qm broken
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: batch}\nvalue: 1\n' >deploy/classes.yaml
	run -0 --separate-stderr pc-validate --against HEAD deploy/classes.yaml
	assert_output ""
	[[ $stderr == *"HEAD:deploy/classes.yaml"*"--against: "*"(not compared)"* ]] || fail "stderr: $stderr"
}

# ---- what is not a Kubernetes object (issue 23) ----

other_files() { # a chart, a kustomization, compose, package.json, config YAML in $TMP/repo
	local r="$TMP/repo"
	mkdir -p "$r/chart/templates" "$r/base"
	printf 'apiVersion: v2\nname: shop\nversion: 0.1.0\n' >"$r/chart/Chart.yaml"
	printf 'replicaCount: 2\n' >"$r/chart/values.yaml"
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ include "shop.fullname" . }}\nspec:\n  replicas: {{ .Values.replicaCount }}\n' >"$r/chart/templates/deployment.yaml"
	# all its actions quoted: valid YAML, but not what will be applied
	printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: "{{ .Release.Name }}"\nspec:\n  priorityClassName: "{{ .Values.pc }}"\n' >"$r/chart/templates/pod.yaml"
	printf 'resources:\n- deployment.yaml\n' >"$r/base/kustomization.yaml"
	printf 'services:\n  db:\n    image: postgres:16\n' >"$r/docker-compose.yaml"
	printf '{"name": "ui", "version": "1.0.0"}\n' >"$r/package.json"
	printf 'log_level: debug\nlisten: ":8080"\n' >"$r/config.yaml"
}

@test "files that are not Kubernetes objects are skipped with a note, not findings; --stats and --summary count them" {
	other_files
	cp "$TMP/good.yaml" "$TMP/repo/classes.yaml"
	run -0 --separate-stderr pc-validate --summary --stats "$TMP/repo"
	assert_output ""
	# the notes name the chart and the kustomization's directory to render
	[[ $stderr == *"repo/chart/templates/deployment.yaml: note: skipped: Helm/Go template, not Kubernetes objects; to check it, render it: helm template $TMP/repo/chart | pc-validate -"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"repo/base/kustomization.yaml: note: skipped: kustomization, not a Kubernetes object; to check what it builds: kustomize build $TMP/repo/base | pc-validate -"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"repo/chart/Chart.yaml: note: skipped: Helm chart metadata"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"repo/chart/values.yaml: note: skipped: Helm chart values"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"repo/docker-compose.yaml: note: skipped: Compose file"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"repo/package.json: note: skipped: npm package manifest"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"repo/config.yaml:1:1: note: skipped: not a Kubernetes object (no apiVersion, no kind)"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"pc-validate: 1 object checked in 9 files: 0 errors, 0 warnings; skipped as not Kubernetes objects: 7 files, 1 document"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"repo/chart/templates/pod.yaml: note: skipped: Helm/Go template"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"stats: kind (Helm/Go template): skipped 2, rejected 0"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"stats: kind (no apiVersion, no kind): skipped 1, rejected 0"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"stats: skipped as not Kubernetes objects: files 7, documents 1"* ]] || fail "stderr: $stderr"
	# only other files: "0 objects checked", exit 0
	rm "$TMP/repo/classes.yaml"
	run -0 --separate-stderr pc-validate "$TMP/repo"
	[[ $stderr == *"pc-validate: note: 0 objects checked; skipped as not Kubernetes objects: 7 files, 1 document"* ]] || fail "stderr: $stderr"
	# a template on standard input too
	run -0 --separate-stderr pc-validate - <"$TMP/repo/chart/templates/deployment.yaml"
	[[ $stderr == *"note: skipped: Helm/Go template"* ]] || fail "stderr: $stderr"
}

@test "a document with only one of apiVersion and kind is still a finding; YAML text with {{ }} in a block scalar is checked" {
	printf 'kind: PriorityClass\nmetadata: {name: x}\nvalue: 1\n' >"$TMP/half.yaml"
	run -1 pc-validate "$TMP/half.yaml"
	assert_output --partial "Object 'apiVersion' is missing"
	cat >"$TMP/cm.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
    template: |
      {{ .Labels.alertname }}
spec:
  priorityClassName: "{{ not-a-class }}"
  containers: [{name: c, image: i}]
EOF
	run -1 pc-validate "$TMP/cm.yaml"
	assert_output --partial 'cm.yaml:9:22: Pod/p: spec.priorityClassName'
}

@test "--against REV: a class the change deletes is an error for staged and committed objects that name it, with its old place" {
	git_repo
	cd "$REPO"
	printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: old, namespace: a}\nspec:\n  priorityClassName: batch\n  containers: [{name: c, image: i}]\n' >deploy/old-pod.yaml
	git add -A && git commit -qm classes
	git rm -q deploy/classes.yaml
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: a}\nspec:\n  template:\n    spec:\n      priorityClassName: batch\n      containers: [{name: c, image: i}]\n' >deploy/web.yaml
	run -1 pc-validate -o json --against HEAD deploy/web.yaml
	run jq -e -s 'length == 2 and all(.[]; .severity == "error" and .related == [{"file":"HEAD:deploy/classes.yaml","line":1,"column":1,"message":"the deleted class"}])
		and (map(.file) | sort) == ["deploy/old-pod.yaml", "deploy/web.yaml"]' <<<"$output"
	assert_success
	# the class defined again in another file: nothing is missing
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: batch\nvalue: 100\npreemptionPolicy: Never\n' >deploy/moved.yaml
	run -0 pc-validate --against HEAD deploy/web.yaml deploy/moved.yaml
	assert_output ""
}

@test "--against REV: a committed CompositePodGroup's changed disruptionMode is immutable, minGroupCount may change" {
	git_repo
	cd "$REPO"
	F="$ROOT/test/fixtures/pc-validate/TestStrategyUpdate-CompositePodGroup-no-changes/in.yaml"
	cp "$F" deploy/cpg.yaml
	git add -A && git commit -qm cpg
	gates=GenericWorkload=true,CompositePodGroup=true
	sed -i 's/minGroupCount: 5/minGroupCount: 4/' deploy/cpg.yaml
	run -0 pc-validate --feature-gates $gates --against HEAD deploy/cpg.yaml
	assert_output ""
	sed -i 's/single: {}/all: {}/' deploy/cpg.yaml
	run -1 pc-validate --feature-gates $gates --against HEAD deploy/cpg.yaml
	assert_output --partial 'CompositePodGroup/foo: spec.disruptionMode: Invalid value'
	assert_output --partial 'field is immutable'
}

# ---- issue 32: ordinary commits pass, real mistakes fail ----

@test "a run in which every input was skipped as not Kubernetes objects exits 0 with its note" {
	mkdir -p "$TMP/r/chart" "$TMP/r/base"
	printf 'apiVersion: v2\nname: shop\nversion: 0.1.1\n' >"$TMP/r/chart/Chart.yaml"
	printf 'replicaCount: 2\n' >"$TMP/r/chart/values.yaml"
	printf 'resources:\n- deployment.yaml\n' >"$TMP/r/base/kustomization.yaml"
	printf '{"name": "ui", "version": "1.0.0"}\n' >"$TMP/r/package.json"
	printf 'services:\n  db: {image: postgres:16}\n' >"$TMP/r/docker-compose.yaml"
	printf 'site_name: docs\ntheme: {name: material}\n' >"$TMP/r/mkdocs.yml"
	for f in chart/Chart.yaml chart/values.yaml base/kustomization.yaml package.json docker-compose.yaml mkdocs.yml; do
		run -0 --separate-stderr pc-validate "$TMP/r/$f"
		assert_output ""
		[[ $stderr == *"$f: note: skipped: "*"pc-validate: note: 0 objects checked; skipped as not Kubernetes objects: 1 file, 0 documents"* ]] ||
			fail "$f: $stderr"
	done
	run -0 --separate-stderr pc-validate "$TMP/r/chart/Chart.yaml" "$TMP/r/package.json"
	# a file that cannot be read is still trouble beside a skipped one
	run -2 --separate-stderr pc-validate "$TMP/r/chart/Chart.yaml" "$TMP/r/nope.yaml"
	[[ $stderr == *"nope.yaml: No such file or directory"* ]] || fail "stderr: $stderr"
	# a dump given as --cluster is read whatever its name (it was exit 2, unsaid)
	printf '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"batch-low"},"value":10}\n' >"$TMP/r/values-cluster.yaml"
	run -1 pc-validate --cluster "$TMP/r/values-cluster.yaml" "$TMP/good.yaml"
	assert_output --partial "good.yaml:5:8: PriorityClass/batch-low: value: Forbidden: may not be changed in an update."
}

kustomize_repo() { # a base and two overlays with patches (and a component) in $TMP/k
	local k="$TMP/k"
	mkdir -p "$k/base" "$k/overlays/prod" "$k/overlays/staging" "$k/components/debug"
	printf 'resources:\n- deployment.yaml\n' >"$k/base/kustomization.yaml"
	cat >"$k/base/deployment.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: checkout, namespace: shop}
spec:
  selector: {matchLabels: {app: checkout}}
  template:
    metadata: {labels: {app: checkout}}
    spec:
      containers: [{name: checkout, image: checkout:1}]
YAML
	cat >"$k/overlays/prod/kustomization.yaml" <<'YAML'
resources:
- ../../base
patches:
- path: replicas.yaml
patchesStrategicMerge:
- ./resources.yaml
- |-
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: checkout, namespace: shop}
YAML
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\nspec:\n  replicas: 3\n' >"$k/overlays/prod/replicas.yaml"
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\nspec:\n  template:\n    spec:\n      priorityClassName: prod-critical\n' >"$k/overlays/prod/resources.yaml"
	cat >"$k/overlays/staging/kustomization.yaml" <<'YAML'
resources: [../../base]
components: [../../components/debug]
patchesJson6902:
- target: {group: apps, version: v1, kind: Deployment, name: checkout}
  path: patch.json
YAML
	printf '[{"op": "replace", "path": "/spec/replicas", "value": 1}]\n' >"$k/overlays/staging/patch.json"
	printf 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n- path: debug.yaml\n' >"$k/components/debug/kustomization.yaml"
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\nspec:\n  template:\n    metadata: {annotations: {debug: "true"}}\n' >"$k/components/debug/debug.yaml"
}

@test "kustomize: files a kustomization applies as patches are partial objects, skipped with a note naming it, never a second definition" {
	kustomize_repo
	cd "$TMP/k"
	run -0 --separate-stderr pc-validate .
	assert_output ""
	[[ $stderr != *"more than once"* ]] || fail "stderr: $stderr"
	for p in overlays/prod/replicas.yaml:overlays/prod overlays/prod/resources.yaml:overlays/prod \
		overlays/staging/patch.json:overlays/staging components/debug/debug.yaml:components/debug; do
		[[ $stderr == *"./${p%%:*}: note: skipped: a patch that ${p#*:}/kustomization.yaml applies (a partial object, not a definition); to check what it builds: kustomize build ${p#*:} | pc-validate -"* ]] ||
			fail "${p%%:*}: $stderr"
	done
	[[ $stderr == *"./overlays/prod/kustomization.yaml: note: skipped: kustomization, not a Kubernetes object; to check what it builds: kustomize build ./overlays/prod | pc-validate -"* ]] ||
		fail "stderr: $stderr"
	# named alone, from another directory, a patch is still a patch
	cd "$TMP"
	run -0 --separate-stderr pc-validate k/overlays/prod/replicas.yaml
	[[ $stderr == *"k/overlays/prod/replicas.yaml: note: skipped: a patch that k/overlays/prod/kustomization.yaml applies"* ]] || fail "stderr: $stderr"
	# the resources a kustomization lists are checked as before: the same
	# Deployment in a file no kustomization patches is a second definition
	cp k/overlays/prod/replicas.yaml k/overlays/prod/copy.yaml
	run -1 pc-validate k
	assert_output --partial 'k/overlays/prod/copy.yaml:1:1: Deployment/checkout: Deployment "checkout" is defined more than once in the input set: also defined at k/base/deployment.yaml:1:1'
}

@test "a skipped document is skipped whole: a duplicate key in a tool's config is no finding; in an object it still is" {
	printf 'site_name: docs\ntheme: material\ntheme: readthedocs\nextra: {n: 123456789012345678901234567890}\n' >"$TMP/tool.yml"
	run -0 --separate-stderr pc-validate "$TMP/tool.yml"
	assert_output ""
	[[ $stderr != *"duplicate"* && $stderr != *"beyond 2^53"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"tool.yml:1:1: note: skipped: not a Kubernetes object (no apiVersion, no kind)"* ]] || fail "stderr: $stderr"
	printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {a: "1", a: "2"}\n' >"$TMP/cm.yaml"
	run -1 --separate-stderr pc-validate "$TMP/cm.yaml" "$TMP/tool.yml"
	assert_output "$TMP/cm.yaml:4:19: ConfigMap/a: data.a: strict decoding error: duplicate field \"data.a\""
}

@test "--max-findings: a log piped in gives the first findings of each input and one line counting the rest" {
	for i in $(seq 1 1500); do printf -- '- [%d, 2]\n---\n' "$i"; done >"$TMP/log.txt"
	run -1 --separate-stderr pc-validate - <"$TMP/log.txt"
	[ "${#lines[@]}" -eq 200 ] || fail "${#lines[@]} lines"
	[[ $stderr == *"pc-validate: -: note: 1300 more findings of this input not shown (1300 errors, 0 warnings): --max-findings 200 shows the first 200 of each input, 0 shows all"* ]] ||
		fail "stderr: $stderr"
	run -1 --separate-stderr pc-validate --max-findings 0 - <"$TMP/log.txt"
	[ "${#lines[@]}" -eq 1500 ]
	# per input: a second file has its own 3, and JSON records are capped too
	run -1 --separate-stderr pc-validate --max-findings 3 -o json "$TMP/log.txt" "$TMP/bad.yaml"
	[ "$(jq -s 'map(.file) | group_by(.) | map(length)' <<<"$output" | tr -d ' \n')" = "[1,3]" ] || fail "$output"
	[[ $stderr == *"log.txt: note: 1497 more findings"* && $stderr != *"bad.yaml: note"* ]] || fail "stderr: $stderr"
	run -2 pc-validate --max-findings -1 "$TMP/good.yaml"
}

@test "a class name not found gets 'did you mean' and where that class is; --require-class makes it an error" {
	cat >"$TMP/classes.yaml" <<'YAML'
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: prod-critical}
value: 100000
YAML
	cat >"$TMP/web.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      priorityClassName: prod-critcal
      containers: [{name: web, image: nginx}]
YAML
	run -0 pc-validate "$TMP/classes.yaml" "$TMP/web.yaml"
	assert_output --partial "$TMP/web.yaml:9:26: Deployment/web: warning: no PriorityClass with name prod-critcal was found (did you mean prod-critical, defined at $TMP/classes.yaml:1:1?)"
	run -1 pc-validate --require-class "$TMP/classes.yaml" "$TMP/web.yaml"
	assert_output "$TMP/web.yaml:9:26: Deployment/web: no PriorityClass with name prod-critcal was found (did you mean prod-critical, defined at $TMP/classes.yaml:1:1?) (pods created from this template would be rejected)"
	# from --cluster too; a name far from every class gets no guess
	printf '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"batch-low"},"value":10}\n' >"$TMP/cluster.json"
	sed -i 's/prod-critcal/batch-lwo/' "$TMP/web.yaml"
	run -1 pc-validate --cluster "$TMP/cluster.json" "$TMP/web.yaml"
	assert_output --partial "no PriorityClass with name batch-lwo was found (did you mean batch-low, which exists at $TMP/cluster.json:1:1?)"
	sed -i 's/batch-lwo/interactive/' "$TMP/web.yaml"
	run -1 pc-validate --require-class "$TMP/classes.yaml" "$TMP/web.yaml"
	assert_output "$TMP/web.yaml:9:26: Deployment/web: no PriorityClass with name interactive was found (pods created from this template would be rejected)"
}

@test "--staged: the index is the input, compared with HEAD; what it does not change is not read again" {
	git_repo
	cd "$REPO"
	# no commit yet: every staged object is new, said
	git add -A
	run -0 --separate-stderr pc-validate --staged
	[[ $stderr == *"pc-validate: --staged: the repository has no commit yet; every object is new"* ]] || fail "stderr: $stderr"
	git commit -qm classes
	# nothing staged: nothing to check, said
	run -0 --separate-stderr pc-validate --staged
	assert_equal "$stderr" "pc-validate: note: --staged: the index changes no manifest (*.yaml, *.yml, *.json) against HEAD: nothing to check"
	# the staged version, not the work tree's, is what is checked
	sed -i 's/^value: 100$/value: 200/' deploy/classes.yaml
	run -0 pc-validate --staged
	git add deploy/classes.yaml
	run -1 pc-validate --staged
	assert_output --partial "deploy/classes.yaml:5:8: PriorityClass/batch: value: Forbidden: may not be changed in an update."
	assert_output --partial "HEAD:deploy/classes.yaml:1:1: note: existing object"
	git checkout -q HEAD -- deploy/classes.yaml
	# a deletion alone: a committed pod that names the class fails
	printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: a}\nspec:\n  priorityClassName: batch\n  containers: [{name: c, image: i}]\n' >deploy/pod.yaml
	git add -A && git commit -qm pod
	git rm -q deploy/classes.yaml
	run -1 pc-validate --staged
	assert_output --partial "deploy/pod.yaml:5:22: Pod/p: no PriorityClass with name batch was found: this change deletes it (it was at HEAD:deploy/classes.yaml:1:1)"
	# from a subdirectory, names are the user's
	cd deploy
	run -1 pc-validate --staged
	assert_output --partial "pod.yaml:5:22: Pod/p"
}

@test "--staged bad input: a path operand, a missing revision, no repository: exit 2, said; binary and non-UTF-8 files are skipped" {
	git_repo
	cd "$REPO"
	git add -A && git commit -qm classes
	run -2 --separate-stderr pc-validate --staged deploy/classes.yaml
	[[ $stderr == *"--staged reads the files to check from the git index and takes no path (got 'deploy/classes.yaml'); in a pre-commit hook set pass_filenames: false"* ]] || fail "stderr: $stderr"
	run -2 --separate-stderr pc-validate --staged --against no-such-rev
	assert_equal "$stderr" "pc-validate: --staged --against no-such-rev: not a commit of this repository"
	# a binary file and a Latin-1 one with manifest names: skipped, quickly
	head -c 3000000 /dev/urandom >deploy/blob.yaml
	printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: caf\xe9}\n' >deploy/latin1.yaml
	git add -A
	run -0 --separate-stderr pc-validate --staged --stats
	[[ $stderr == *"stats: kind (binary file (a NUL byte)): skipped 1"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"stats: kind (not UTF-8 text): skipped 1"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"note: 0 objects checked; skipped as not Kubernetes objects: 2 files, 0 documents"* ]] || fail "stderr: $stderr"
	# a binary file over --max-record-bytes is skipped too, not read whole
	run -0 pc-validate --staged --max-record-bytes 100000
	cd "$TMP"
	run -2 --separate-stderr pc-validate --staged
	assert_equal "$stderr" "pc-validate: --staged: not inside a git repository"
}

# Each real DRA file (../shared/data/real/dra, SOURCES.md there) and what a
# default apiserver of the release does with it: "0" accepts every object,
# "1 TEXT" refuses one with TEXT in the message. An old API version is
# refused by name (no matches for kind), never a crash or a pass.
@test "real DRA manifests (../shared/data/real/dra): the outcome per file, old API versions refused clearly" {
	[ -d "$SHARED/dra" ] || skip "no ../shared/data/real/dra here"
	local -A want=(
		[NVIDIA__k8s-dra-driver-gpu__demo__clusters__kind__scripts__imex-resourceslice.yaml]='1 no matches for kind "ResourceSlice" in version "resource.k8s.io/v1alpha3" (Kubernetes 1.37 serves resource.k8s.io/v1)'
		[NVIDIA__k8s-dra-driver-gpu__demo__specs__extended-resources__mig-1g-12gb.yaml]=0
		[NVIDIA__k8s-dra-driver-gpu__demo__specs__quickstart__v1__gpu-test4.yaml]=0
		[NVIDIA__k8s-dra-driver-gpu__demo__specs__quickstart__v1beta1__gpu-test4.yaml]='1 ResourceClaimTemplate/mig-devices: apiVersion: no matches for kind "ResourceClaimTemplate" in version "resource.k8s.io/v1beta1" (Kubernetes 1.37 serves resource.k8s.io/v1; its beta versions only when --runtime-config enables them)'
		[NVIDIA__k8s-dra-driver-gpu__tests__bats__specs__gpu-multiple-mig.yaml]=0
		[intel__intel-resource-drivers-for-kubernetes__deployments__gpu__base__device-class.yaml]=0
		[intel__intel-resource-drivers-for-kubernetes__deployments__gpu__examples__pod-inline-aligned-gpus.yaml]="1 Pod/test-inline-claim: apiVersion: Object 'apiVersion' is missing"
		[intel__intel-resource-drivers-for-kubernetes__deployments__gpu__examples__pod-inline-first-available.yaml]=0
		[kubernetes-sigs__dra-example-driver__demo__examples__admin-access__admin-access.yaml]=0
		[kubernetes-sigs__dra-example-driver__demo__examples__cel-selector__cel-selector.yaml]=0
		[kubernetes-sigs__dra-example-driver__demo__examples__net-consumable-capacity__net-consumable-capacity.yaml]=0
		[kubernetes-sigs__dra-example-driver__demo__examples__prioritized-alternatives__prioritized-alternatives.yaml]=0
		[kubernetes__kubernetes__staging__src__k8s.io__api__testdata__HEAD__resource.k8s.io.v1.ResourceClaim.yaml]='1 spec.devices.requests[0]: Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'
		[kubernetes__kubernetes__staging__src__k8s.io__api__testdata__HEAD__resource.k8s.io.v1.ResourceSlice.yaml]=0
		[kubernetes__kubernetes__test__e2e__dra__test-driver__deploy__example__deviceclass.yaml]='1 DeviceClass/example: apiVersion: no matches for kind "DeviceClass" in version "resource.k8s.io/v1beta1"'
		[kubernetes__kubernetes__test__e2e__dra__test-driver__deploy__example__pod-inline.yaml]='1 ResourceClaimTemplate/test-inline-claim-template: apiVersion: no matches for kind "ResourceClaimTemplate" in version "resource.k8s.io/v1alpha2" (Kubernetes 1.37 serves resource.k8s.io/v1)'
		[kubernetes__website__content__en__examples__dra__dra-example-job.yaml]=0
		[kubernetes__website__content__en__examples__dra__resourceclaimtemplate.yaml]=0
	)
	local n=0 f base
	for f in "$SHARED"/dra/*.yaml; do
		base=${f##*/}
		[ -n "${want[$base]+set}" ] || fail "$base: no expected outcome here (a new file in ../shared/data/real/dra?)"
		run pc-validate "$f"
		[ "$status" -eq "${want[$base]%% *}" ] || fail "$base: exit $status, want ${want[$base]}: $output"
		[[ ${want[$base]} == 0 || $output == *"${want[$base]#* }"* ]] || fail "$base: want ${want[$base]#* }: $output"
		# a claim of a file refused for its Pod is itself valid
		[[ $output != *"ResourceClaim/"*": spec."* || $base == *testdata* ]] || fail "$base: $output"
		n=$((n + 1))
	done
	[ "$n" -eq "${#want[@]}" ] || fail "$n files, ${#want[@]} expected"
}
