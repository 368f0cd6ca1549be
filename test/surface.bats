#!/usr/bin/env bats
# One surface for the five tools: the shared options behave alike, the
# gates have one registry that --help, the man pages and the README agree
# on, and the exit-status table is the same everywhere.

bats_require_minimum_version 1.5.0
load test_helper/common

tools="pc-validate pp-match victims preempt-plan apiq-sim"

setup() {
	TMP="$(mktemp -d)"
}

teardown() {
	rm -rf "$TMP"
}

@test "a misspelt option names the nearest one, in every tool" {
	run -2 victims --preemptr x "$SAMPLE/cluster.json"
	assert_output --partial "victims: unknown or ambiguous option '--preemptr' (did you mean --preemptor?)"
	run -2 pc-validate --clustr x
	assert_output --partial "(did you mean --cluster?)"
	run -2 pp-match --explian
	assert_output --partial "(did you mean --explain?)"
	run -2 preempt-plan --simulate --max-recreatons 3
	assert_output --partial "(did you mean --max-recreations?)"
	run -2 apiq-sim --latncy 5ms run
	assert_output --partial "(did you mean --latency?)"
	run -2 victims --zzzzzzzz
	refute_output --partial "did you mean"
	assert_output --partial "Try 'victims --help'"
}

@test "an option without its value says so" {
	run -2 victims --preemptor
	assert_output --partial "victims: option '--preemptor' needs a value"
}

@test "-o=table is read as kubectl reads it" {
	run -0 victims -o=table --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json"
	assert_line --index 0 --regexp '^PREEMPTOR +PRIORITY'
	run -0 victims -otable --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json"
	assert_line --index 0 --regexp '^PREEMPTOR +PRIORITY'
}

@test "--no-headers leaves out the header row, in every table" {
	run -0 victims -o table --no-headers --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json"
	refute_output --partial PREEMPTOR
	assert_line --index 0 --partial "shop/checkout-7c9d5b8f4-m2x6q"
	victims --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json" > "$TMP/c.ndjson"
	run -0 preempt-plan -o wide --no-headers "$TMP/c.ndjson"
	assert_equal "${#lines[@]}" 1
	assert_line --index 0 --partial "demo-worker4"
}

@test "run as a kubectl plugin, messages name 'kubectl NAME'" {
	for t in $tools; do
		ln -s "$(command -v "$t")" "$TMP/kubectl-$(echo "$t" | tr - _)"
	done
	run -2 "$TMP/kubectl-victims" --bogus
	assert_output --partial "kubectl victims: unknown or ambiguous option '--bogus'"
	assert_output --partial "Try 'kubectl victims --help'"
	run -0 "$TMP/kubectl-pc_validate" --help
	assert_line --index 0 --partial "Usage: kubectl pc-validate "
	run -0 "$TMP/kubectl-preempt_plan" --version
	assert_output "kubectl preempt-plan 0.1.0 (answers for Kubernetes 1.37)"
}

@test "--feature-gates: a misspelt gate is an error that names the gate it resembles, in every tool" {
	run -2 victims --feature-gates WorkloadAwarePremption=false --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json"
	assert_output --partial "unrecognized feature gate: WorkloadAwarePremption (did you mean WorkloadAwarePreemption?)"
	run -2 pp-match --feature-gates PropagationPolicyPreemptio=true "$ROOT/share/examples/karmada"
	assert_output --partial "(did you mean PropagationPolicyPreemption?)"
	run -2 apiq-sim --feature-gates SchedulerAsyncApiCalls=true run --pods 1
	assert_output --partial "(did you mean SchedulerAsyncAPICalls?)"
	run -2 pc-validate --feature-gates GenericWorkload=maybe "$SAMPLE/preemptor.yaml"
	assert_output --partial "invalid value of GenericWorkload=maybe, err: invalid syntax"
}

@test "--feature-gates: a gate that cannot change the answer is accepted and said" {
	run --separate-stderr pp-match --feature-gates SchedulerAsyncAPICalls=true,Failover=true "$ROOT/share/examples/karmada"
	[ "$status" -ne 2 ]
	[[ "$stderr" == *"--feature-gates: SchedulerAsyncAPICalls does not change what pp-match computes"* ]]
	[[ "$stderr" == *"--feature-gates: Failover does not change what pp-match computes (not a gate it models)"* ]]
}

@test "every tool's --help lists the gates it reads with the registry's defaults, as its man page and the README do" {
	for t in $tools; do
		"$t" --help > "$TMP/help"
		grep -q -- "output format (see below)" "$TMP/help" || { echo "$t: formats not 'see below'"; return 1; }
		while read -r gate _ def rest; do
			grep -qE "^\.It Cm $gate\$" "$ROOT/share/man/man1/$t.1" || { echo "$t(1) lacks $gate"; return 1; }
			grep -A1 -E "^\.It Cm $gate\$" "$ROOT/share/man/man1/$t.1" | grep -q "default $def" ||
				{ echo "$t(1): $gate default differs from --help ($def)"; return 1; }
			grep -qE "^\| $gate \|.*\| (\*\*)?([a-z]+ / [a-z]+ / )?$def(\*\*)? \|" "$ROOT/README.md" ||
				{ echo "README: $gate default differs from --help ($def)"; return 1; }
			grep -E "^\| $gate \|" "$ROOT/README.md" | grep -q "$t" ||
				{ echo "README does not list $t as reading $gate"; return 1; }
		done < <(sed -n '/^Feature gates this tool reads/,/^$/p' "$TMP/help" | grep -E '^  [A-Z]')
	done
	run -0 victims --kubernetes-version 1.36 --help
	assert_output --partial "WorkloadAwarePreemption            default true (upstream false: see the man page)"
	run -0 victims --help
	assert_output --partial "Not in Kubernetes 1.37: WorkloadAwarePreemption (removed by kubernetes/kubernetes#139520; GenericWorkload switches the feature)."
}

@test "every man page's EXIT STATUS has the shared three rows and points to the one table" {
	for t in $tools; do
		sec=$(sed -n '/^\.Sh EXIT STATUS/,/^\.Sh /p' "$ROOT/share/man/man1/$t.1")
		for n in 0 1 2; do
			grep -qx ".It $n" <<<"$sec" || { echo "$t(1): no row $n"; return 1; }
		done
		grep -q "The five tools share this table" <<<"$sec" || { echo "$t(1): no pointer to the shared table"; return 1; }
	done
	grep -q '^| 0 | the answer, nothing negative |' "$ROOT/README.md"
	grep -q '^| 1 | a negative finding |' "$ROOT/README.md"
	grep -q '^| 2 | usage, input or output trouble |' "$ROOT/README.md"
}

@test "--help says each tool's and mode's exit statuses word for word as the README's table does" {
	# the README's rows 0, 1 and 2: one column per tool, in this order
	readme_col() { # STATUS COLUMN: the cell, without markdown's backticks
		grep "^| $1 | " "$ROOT/README.md" | sed 's/ |$//' | awk -F' [|] ' -v c="$2" '{ print $c }' | tr -d '`'
	}
	col=3
	for t in $tools; do
		for mode in "" --simulate run step; do
			case $t/$mode in
			*/) set -- "$t" --help ;;
			preempt-plan/--simulate) set -- "$t" --simulate --help ;;
			apiq-sim/run | apiq-sim/step) set -- "$t" "$mode" --help ;;
			*) continue ;;
			esac
			run -0 "$@"
			for n in 0 1 2; do
				want=$(readme_col "$n" "$col")
				[ -n "$want" ] || fail "README: no row $n for $t"
				grep -qxF "  $n  $want" <<<"$output" || fail "$* does not say '$n  $want'; it says: $(grep -A3 '^Exit status' <<<"$output")"
			done
		done
		col=$((col + 1))
	done
	# the README's header names the tools in that order
	grep -q '^| status | meaning | pc-validate | pp-match | victims | preempt-plan | apiq-sim |$' "$ROOT/README.md"
}

@test "node choice's adjusted sum is one cell, the same in victims -o wide, preempt-plan -o table and -o html" {
	victims --explain --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json" >"$TMP/rec.ndjson"
	run -0 victims -o wide --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json"
	wide=$output
	run -0 preempt-plan -o table "$TMP/rec.ndjson"
	table=$output
	preempt-plan -o html "$TMP/rec.ndjson" >"$TMP/page.html"
	# demo-worker4 (2 victims, priorities 100 and -10) is chosen over demo-worker3
	# (3 victims, sum 80): its plain sum is larger, its adjusted sum smaller
	[[ $wide =~ demo-worker4\ +2\ +0\ +100\ +2x2\^31\+90\  ]] || fail "victims -o wide: $wide"
	[[ $wide =~ demo-worker3\ +3\ +0\ +100\ +3x2\^31\+80\  ]] || fail "victims -o wide, demo-worker3"
	[[ $table =~ demo-worker4\ +2\ +2x2\^31\+90\  ]] || fail "preempt-plan -o table: $table"
	grep -q '<td>demo-worker4</td><td class="n">0</td><td class="n">100</td><td class="n" data-sort="4294967386">2x2^31+90</td>' "$TMP/page.html" ||
		fail "-o html"
	grep -q '<td>demo-worker3</td><td class="n">0</td><td class="n">100</td><td class="n" data-sort="6442451024">3x2^31+80</td>' "$TMP/page.html" ||
		fail "-o html, demo-worker3"
	# the column has one name and one rule, said under each
	rule='ADJUSTED-SUM is the sum node choice compares (smallest wins): every victim adds its priority + 2^31'
	for out in "$wide" "$table" "$(sed 's/&#39;/'"'"'/g' "$TMP/page.html")"; do
		[[ $out == *ADJUSTED-SUM* && $out == *"$rule"* ]] || fail "no column or rule in: ${out:0:200}"
	done
}

@test "--kubernetes-version: every tool takes 1.35-1.37 in any spelling, exits 2 on another naming the supported ones, and its completions offer them" {
	for t in $tools; do
		run -0 "$t" --kubernetes-version v1.36.2 --version
		[ "$t" = pp-match ] || assert_output "$t 0.1.0 (answers for Kubernetes 1.36)"
		run -2 "$t" --kubernetes-version 1.38 --version
		assert_output --partial "--kubernetes-version: '1.38' is not a release this version models (supported: 1.35, 1.36, 1.37)"
		grep -q "kubernetes-version" "$ROOT/completions/bash/$t" || { echo "bash: $t"; return 1; }
		grep -q "kubernetes-version.*1.37 1.36 1.35" "$ROOT/completions/zsh/_$t" || { echo "zsh: $t"; return 1; }
		grep -q "kubernetes-version.*1.37 1.36 1.35" "$ROOT/completions/fish/$t.fish" || { echo "fish: $t"; return 1; }
		grep -q "^\.It Fl -kubernetes-version Ar version" "$ROOT/share/man/man1/$t.1" || { echo "man: $t"; return 1; }
	done
	# the release applies to --feature-gates whatever the order of the flags
	run -0 victims --feature-gates WorkloadAwarePreemption=false --kubernetes-version 1.36 --version
	run -2 victims --feature-gates WorkloadAwarePreemption=false --version
	assert_output --partial "unrecognized feature gate: WorkloadAwarePreemption (removed in Kubernetes 1.37 by kubernetes/kubernetes#139520; GenericWorkload switches the feature now)"
}

@test "the README's demo output is what the demo prints" {
	cmd='victims --preemptor share/sample/preemptor.yaml share/sample/cluster.json | preempt-plan -o table'
	want=$(awk -v c="\$ $cmd" '$0 == c { on = 1; next } on && /^```/ { exit } on' "$ROOT/README.md")
	[ -n "$want" ] || fail "no demo block after '\$ $cmd' in README.md"
	cd "$ROOT" && run -0 bash -c "$cmd"
	[ "$output" = "$want" ] || fail "README says:
$want
the demo prints:
$output"
}

@test "an empty answer is a note on stderr in every tool and every format, never a warning; stdout keeps the format" {
	: >"$TMP/empty.yaml"
	echo '{"kind":"StreamEnd","producer":"victims","records":0}' >"$TMP/none.ndjson"   # a complete answer, empty
	printf 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: "4", memory: 4Gi, pods: "10"}}\n' >"$TMP/node.yaml"
	for o in json table; do
		run -0 --separate-stderr pc-validate -o "$o" "$TMP/empty.yaml"
		assert_equal "$stderr" "pc-validate: note: 0 objects checked"
		run -0 --separate-stderr pp-match -o "$o" "$TMP/empty.yaml"
		assert_equal "$stderr" "pp-match: note: 0 resource templates in the input: 0 policies matched nothing"
		run -0 --separate-stderr victims -o "$o" --pending "$TMP/node.yaml"
		assert_equal "$stderr" "victims: note: --pending: no pending pods in the input; 0 preemptors evaluated"
		run -0 --separate-stderr preempt-plan -o "$o" "$TMP/none.ndjson"
		assert_equal "$stderr" "preempt-plan: note: the input is empty: 0 preemptors planned"
		run -0 --separate-stderr preempt-plan --simulate -o "$o" "$TMP/node.yaml"
		assert_equal "$stderr" "preempt-plan: note: no pending pods in the input"
	done
	# an input skipped whole as not Kubernetes objects (a chart's metadata)
	# is the validators' empty answer too, in every format
	printf 'apiVersion: v2\nname: shop\nversion: 0.1.1\n' >"$TMP/Chart.yaml"
	for o in text json junit sarif table wide; do
		run -0 --separate-stderr pc-validate -o "$o" "$TMP/Chart.yaml"
		assert_equal "$stderr" "pc-validate: $TMP/Chart.yaml: note: skipped: Helm chart metadata, not Kubernetes objects
pc-validate: note: 0 objects checked; skipped as not Kubernetes objects: 1 file, 0 documents"
	done
	for o in json table wide; do
		run -0 --separate-stderr pp-match -o "$o" "$TMP/Chart.yaml"
		[[ $stderr == *"note: 0 resource templates in the input"* ]] || fail "pp-match -o $o: $stderr"
	done
	# a valid input: the findings are the answer, and there are none
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n' >"$TMP/pc.yaml"
	run -0 --separate-stderr pc-validate "$TMP/pc.yaml"
	assert_output ""
	assert_equal "$stderr" ""
}

@test "a unique prefix of a long option is that option in every tool, the options a tool finds before getopt (--simulate, --apply) too" {
	local F="$ROOT/test/fixtures/simulate/apply-deployment-create-preempts"
	run --separate-stderr preempt-plan --simulate "$F/cluster.json" --apply "$F/deploy.yaml"
	local full=$output want=$status
	[ "$(jq -s 'map(select(.kind == "AppliedObject")) | length' <<<"$full")" -eq 1 ]
	run --separate-stderr preempt-plan --simul "$F/cluster.json" --app "$F/deploy.yaml"
	assert_equal "$status:$output" "$want:$full"
	run --separate-stderr preempt-plan --sim "$F/cluster.json" --appl="$F/deploy.yaml"
	assert_equal "$status:$output" "$want:$full"
	# an ambiguous prefix is refused, as getopt refuses it
	run -2 preempt-plan --s "$F/cluster.json"
	assert_output --partial "unknown or ambiguous option '--s'"
	run -0 victims --preempt "$SAMPLE/preemptor.yaml" --no-head -o table "$SAMPLE/cluster.json"
	assert_line --index 0 --partial "shop/checkout"
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n' >"$TMP/pc.yaml"
	run -0 pc-validate --stri --summ "$TMP/pc.yaml"
	assert_output --partial "1 object checked in 1 file"
	run -0 pp-match --expl -o table /dev/null
	run -0 apiq-sim run --po 10 --compa -o table --no-h
	assert_equal "${#lines[@]}" 4
}

@test "preempt-plan -n NS / -A as kubectl has them: NS's plans only, the exit status of those, -A every namespace; --simulate -n is kubectl apply's" {
	victims --pending "$SAMPLE/gang/cluster.json" >"$TMP/rec.ndjson" 2>/dev/null || true
	# every namespace: ml's gang members may not preempt one by one (NotEligible): 1
	run -1 --separate-stderr preempt-plan -o table --no-headers "$TMP/rec.ndjson"
	assert_line --partial "ml/train-worker-0"
	assert_line --partial "default/api-canary"
	# default's two pods fit: only their plans are written, and the status is theirs
	run -0 --separate-stderr preempt-plan -n default "$TMP/rec.ndjson"
	run jq -sc '[.[] | select(.kind == "PreemptionPlan") | .preemptor | .namespace + "/" + .name]' <<<"$output"
	assert_output '["default/api-canary","default/report-adhoc"]'
	run -1 --separate-stderr preempt-plan --namespace=ml -o wide --no-headers "$TMP/rec.ndjson"
	[ "${#lines[@]}" -eq 8 ] || fail "ml: ${#lines[@]} rows"
	refute_output --partial "default/"
	run -1 --separate-stderr preempt-plan -n default -A -o table --no-headers "$TMP/rec.ndjson"
	assert_line --partial "ml/train-worker-0"
	run -0 --separate-stderr preempt-plan -n shop -o html "$TMP/rec.ndjson"
	assert_equal "$stderr" "preempt-plan: note: no preemptor in namespace shop in the input (-n): 0 preemptors planned"
	run -2 preempt-plan -n "" "$TMP/rec.ndjson"
	assert_output --partial "--namespace: a namespace is required"
	# --simulate: -n is the namespace of applied objects (kubectl apply -n); -A is refused with why
	run -2 preempt-plan --simulate -A "$SAMPLE/gang/cluster.json"
	assert_output --partial "-A/--all-namespaces: --simulate plays one queue and writes every namespace's plans"
}

@test "victims -n NS / -A as kubectl has them: the pending pods of NS, a preemptor without a namespace in NS, -A every namespace" {
	run -1 victims --pending -o table --no-headers "$SAMPLE/cluster.json"   # it cannot be placed
	assert_line --index 0 --partial "batch/report-29871560-q4w8e"
	run -1 victims --pending -n batch -o table --no-headers "$SAMPLE/cluster.json"
	assert_line --index 0 --partial "batch/report-29871560-q4w8e"
	run -0 --separate-stderr victims --pending --namespace shop "$SAMPLE/cluster.json"
	assert_output '{"kind":"StreamEnd","producer":"victims","kubernetesVersion":"1.37","records":0}'
	assert_equal "$stderr" "victims: note: --pending: no pending pods in the input in namespace shop; 0 preemptors evaluated"
	# -A answers for every namespace whatever -n says, as in kubectl
	run -1 victims --pending -n shop -A -o table --no-headers "$SAMPLE/cluster.json"
	assert_line --index 0 --partial "batch/report-29871560-q4w8e"
	# kubectl apply -n NS: an object without a namespace is created in NS, one in another is refused
	sed '/namespace:/d' "$SAMPLE/preemptor.yaml" >"$TMP/nons.yaml"
	run -0 victims -n team -o table --no-headers --preemptor "$TMP/nons.yaml" "$SAMPLE/cluster.json"
	assert_line --index 0 --partial "team/checkout-7c9d5b8f4-m2x6q"
	run -2 victims -n team --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json"
	assert_output --partial "--preemptor: the namespace of the object (\"shop\") does not match -n \"team\""
	# the plugin form passes -n through
	ln -s "$(command -v victims)" "$TMP/kubectl-victims"
	run -1 "$TMP/kubectl-victims" -n batch --pending -o table --no-headers "$SAMPLE/cluster.json"
	assert_line --index 0 --partial "batch/report-29871560-q4w8e"
}

@test "CompositePodGroup: on by default in every tool that reads it, as GenericWorkload is; =false is the apiserver without it" {
	cat >"$TMP/cpg.yaml" <<'YAML'
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: foo, namespace: default}
spec:
  workloadRef: {workloadName: w, templateName: t}
  schedulingPolicy:
    gang: {minGroupCount: 2}
YAML
	run -0 --separate-stderr pc-validate "$TMP/cpg.yaml"
	run -1 --separate-stderr pc-validate --feature-gates CompositePodGroup=false "$TMP/cpg.yaml"
	[[ $output == *"no matches for kind"* || $stderr == *"no matches for kind"* ]] || fail "out: $output err: $stderr"
	victims --help | grep -E '^  CompositePodGroup +default true' || fail "victims --help does not list CompositePodGroup on"
	preempt-plan --simulate --help | grep -E '^  CompositePodGroup +default true' ||
		fail "preempt-plan --simulate --help does not list CompositePodGroup on"
	run --separate-stderr victims --feature-gates CompositePodGroup=false --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json"
	[[ $stderr != *"CompositePodGroup does not change"* ]] || fail "stderr: $stderr"
}

@test "an option of another mode says where it works: preempt-plan --replicas works only with --simulate (issue 33)" {
	run -2 preempt-plan --replicas 3
	assert_output --partial "preempt-plan: --replicas works only with --simulate"
	run -2 preempt-plan --repli=3   # --repl abbreviates --replay too
	assert_output --partial "preempt-plan: --replicas works only with --simulate"
	run -2 preempt-plan --until 1h
	assert_output --partial "preempt-plan: --until works only with --replay"
	# every option --simulate adds is told so (the table in common/cli.c)
	sim=$(preempt-plan --simulate --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
	plain=$(preempt-plan --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
	only=$(comm -23 <(echo "$sim") <(echo "$plain"))
	[ -n "$only" ]
	for f in $only; do
		run -2 preempt-plan "$f" x
		assert_output --partial "preempt-plan: $f works only with --simulate"
	done
	# an abbreviation of this mode's own options is still ambiguous here
	run -2 preempt-plan --n x
	assert_output --partial "unknown or ambiguous option '--n'"
}

@test "no release number is compared outside the release profile (common/k8s/): a behaviour by release is a field of k8s/profile.h (issue 34)" {
	# `minor >= 37`, `k8s_minor == 0`, `36 < minor`: only common/k8s/ may say which release does what
	cd "$ROOT"
	run sh -c "grep -rnE '(minor[[:space:]]*(==|!=|<=|>=|<|>)[[:space:]]*[0-9])|([0-9][[:space:]]*(==|!=|<=|>=|<|>)[[:space:]]*[A-Za-z_.>-]*minor\\b)' \
		--include='*.c' --include='*.h' common cmd | grep -v '^common/k8s/'"
	assert_output ""
}
