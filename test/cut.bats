#!/usr/bin/env bats
# No answer from a partial input (issue 33, items 1 and 5): an input that
# could not be read to its end gives no records and exit 2; a stage that
# reads another stage's records knows when that stream was cut (it ends
# without the StreamEnd record that closes a complete answer), so that
# `victims … | preempt-plan` fails without `set -o pipefail`; gzip's own
# integrity check is honoured; binary input is refused at once, and reading
# standard input is linear. The pipelines here run in plain sh, as a script
# without pipefail would run them: the status is preempt-plan's.

load test_helper/common
bats_require_minimum_version 1.5.0

setup_file() {
	export C="$BATS_FILE_TMPDIR"
	# the sample with its PDBs and PriorityClasses at the end, as kubectl writes them
	size=$(wc -c <"$SAMPLE/cluster.json")
	head -c $((size * 6 / 10)) "$SAMPLE/cluster.json" >"$C/cut60.json"
	gzip -c "$SAMPLE/cluster.json" >"$C/cluster.json.gz"
	gz=$(wc -c <"$C/cluster.json.gz")
	head -c $((gz * 6 / 10)) "$C/cluster.json.gz" >"$C/cut60.json.gz"
	# the deflate data whole, the JSON inside whole: only the trailer (CRC-32, length) is missing
	head -c $((gz - 8)) "$C/cluster.json.gz" >"$C/notrailer.json.gz"
	# one bit of the CRC-32 flipped
	cp "$C/cluster.json.gz" "$C/badcrc.json.gz"
	byte=$(od -An -tu1 -j $((gz - 8)) -N1 "$C/cluster.json.gz" | tr -d ' ')
	printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of="$C/badcrc.json.gz" bs=1 seek=$((gz - 8)) conv=notrunc status=none
}

# The pipeline as a script without pipefail runs it: its status is the last stage's.
pipeline() { # victims-arguments... (the snapshot on stdin when no path is given)
	sh -c 'victims --preemptor "$0" "$@" | preempt-plan -o table' "$SAMPLE/preemptor.yaml" "$@"
}

@test "a complete answer ends with one StreamEnd record: producer, release, how many records before it; tables have none" {
	run -0 --separate-stderr victims --explain --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json"
	n=${#lines[@]}
	assert_line --index $((n - 1)) "{\"kind\":\"StreamEnd\",\"producer\":\"victims\",\"kubernetesVersion\":\"1.37\",\"records\":$((n - 1))}"
	printf '%s\n' "$output" >"$C/records.ndjson"
	run -0 --separate-stderr preempt-plan --kubernetes-version 1.36 "$C/records.ndjson"
	assert_line --index 1 '{"kind":"StreamEnd","producer":"preempt-plan","kubernetesVersion":"1.36","records":1}'
	run -1 --separate-stderr preempt-plan --simulate "$SAMPLE/gang/cluster.json"
	[[ ${lines[-1]} == '{"kind":"StreamEnd","producer":"preempt-plan","kubernetesVersion":"1.37","records":'* ]]
	run -0 --separate-stderr sh -c 'victims --preemptor "$1" "$2" | preempt-plan | apiq-sim run --qps 0' _ "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json"
	jq -e '.kind == "Summary" and .pods.preemptors == 1' <<<"${lines[0]}"
	assert_line --index 1 '{"kind":"StreamEnd","producer":"apiq-sim","kubernetesVersion":"1.37","records":1}'
	for o in table wide; do
		run -0 --separate-stderr victims -o "$o" --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json"
		refute_output --partial StreamEnd
	done
	run -0 --separate-stderr preempt-plan -o html "$C/records.ndjson"
	refute_output --partial StreamEnd
}

@test "a List cut off at 60 %: victims writes nothing and exits 2; the pipeline fails and writes no plan" {
	run -2 --separate-stderr victims --preemptor "$SAMPLE/preemptor.yaml" "$C/cut60.json"
	assert_output ""
	[[ $stderr == *"cut60.json:"*": unexpected end of input in a list item"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"victims: no records written: the input was not read whole (1 error above)"* ]] || fail "stderr: $stderr"
	# from a file and from a pipe, as kubectl's output comes
	run -2 --separate-stderr pipeline "$C/cut60.json"
	assert_output ""
	[[ $stderr == *"preempt-plan: -: no input: the stage before wrote nothing"* ]] || fail "stderr: $stderr"
	run -2 --separate-stderr pipeline <"$C/cut60.json"
	assert_output ""
	[[ $stderr == *"victims: -:"*": unexpected end of input in a list item"* ]] || fail "stderr: $stderr"
	# --simulate and --apply read their inputs whole before they answer, too
	run -2 --separate-stderr preempt-plan --simulate "$C/cut60.json"
	assert_output ""
	head -c 300 "$ROOT/test/fixtures/simulate/apply-deployment-create-preempts/deploy.yaml" >"$C/cut.yaml"
	printf '\n  bad: [\n' >>"$C/cut.yaml"
	run -2 --separate-stderr preempt-plan --simulate "$SAMPLE/cluster.json" --apply "$C/cut.yaml"
	assert_output ""
	[[ $stderr == *"preempt-plan: no plans written: the input was not read whole"* ]] || fail "stderr: $stderr"
}

@test "a cut NDJSON stream (head -n of victims' records): preempt-plan names the missing StreamEnd, exits 2, writes no plan" {
	victims --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json" 2>/dev/null >"$C/full.ndjson"
	for n in 1 3 5; do   # of 5 records and the StreamEnd
		run -2 --separate-stderr sh -c 'head -n "$1" "$2" | preempt-plan -o table' _ "$n" "$C/full.ndjson"
		assert_output ""
		assert_equal "$stderr" "preempt-plan: -: the input ends without the StreamEnd record that closes a complete victims answer ($n record(s) read): the stage before was cut or failed
preempt-plan: no plan written: the input was not read whole (1 error above)"
	done
	run -0 sh -c 'preempt-plan <"$1"' _ "$C/full.ndjson"   # the whole of it
	# cut inside a record: the reader names the place
	run -2 --separate-stderr sh -c 'head -c 500 "$1" | preempt-plan' _ "$C/full.ndjson"
	assert_output ""
	[[ $stderr == "preempt-plan: -:1:1: unexpected end of input in an object"* ]] || fail "stderr: $stderr"
	# a jq filter between the stages keeps the StreamEnd, or the stage after refuses
	run -0 sh -c 'jq -c "select(.kind == \"Candidate\" or .kind == \"StreamEnd\")" "$1" | preempt-plan' _ "$C/full.ndjson"
	run -2 sh -c 'jq -c "select(.kind == \"Candidate\")" "$1" | preempt-plan' _ "$C/full.ndjson"
	# preempt-plan's own answer cut short: apiq-sim simulates nothing
	preempt-plan "$C/full.ndjson" >"$C/plan.ndjson"
	run -2 --separate-stderr sh -c 'head -n 1 "$1" | apiq-sim run' _ "$C/plan.ndjson"
	assert_output ""
	[[ $stderr == *"the input ends without the StreamEnd record that closes a complete preempt-plan answer (1 record(s) read)"* ]] || fail "stderr: $stderr"
}

@test "a cut gzip, one without its trailer, one with a wrong CRC: named, no records, and the pipeline fails" {
	for f in cut60 notrailer badcrc; do
		run -2 --separate-stderr victims --preemptor "$SAMPLE/preemptor.yaml" "$C/$f.json.gz"
		assert_output ""
		run -2 --separate-stderr pipeline <"$C/$f.json.gz"
		assert_output ""
		[[ $stderr == *"preempt-plan: -: no input: the stage before wrote nothing"* ]] || fail "$f: stderr: $stderr"
	done
	run -2 --separate-stderr pipeline <"$C/notrailer.json.gz"
	[[ $stderr == *"victims: -: truncated gzip stream"* ]] || fail "stderr: $stderr"
	run -2 --separate-stderr pipeline <"$C/badcrc.json.gz"
	[[ $stderr == *"victims: -: gzip CRC mismatch"* ]] || fail "stderr: $stderr"
	# the validators: a finding or trouble that names the file, and a non-zero status
	for t in pc-validate pp-match; do
		run --separate-stderr "$t" "$C/notrailer.json.gz"
		[ "$status" -ne 0 ] || fail "$t: status 0"
		[[ $stderr == *"notrailer.json.gz: truncated gzip stream"* ]] || fail "$t: stderr: $stderr"
		run --separate-stderr "$t" "$C/badcrc.json.gz"
		[ "$status" -ne 0 ] || fail "$t: status 0"
		[[ $stderr == *"badcrc.json.gz: gzip CRC mismatch"* ]] || fail "$t: stderr: $stderr"
	done
}

@test "a failed first stage (kubectl, a missing file): preempt-plan says the stage before wrote nothing, exits 2, no table" {
	run -2 --separate-stderr sh -c 'false | preempt-plan -o table'
	assert_output ""
	assert_equal "$stderr" "preempt-plan: -: no input: the stage before wrote nothing (a complete victims answer ends with a StreamEnd record): it failed or was not run
preempt-plan: no plan written: the input was not read whole (1 error above)"
	run -2 --separate-stderr pipeline "$C/missing.json"
	assert_output ""
	[[ $stderr == *"victims: $C/missing.json: No such file or directory"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"preempt-plan: -: no input"* ]] || fail "stderr: $stderr"
	run -2 --separate-stderr sh -c 'false | apiq-sim run'
	assert_output ""
	[[ $stderr == *"apiq-sim: -: no input: the stage before wrote nothing (a complete preempt-plan answer"* ]] || fail "stderr: $stderr"
}

@test "real snapshots (../shared/data/real), cut and gzipped: no plan from part of them" {
	[ -d "$SHARED" ] || skip "no ../shared/data/real here"
	local F="$ROOT/test/fixtures/preempt-plan/real-kind-podlist-lower-priority-kindnet-is-the-victim"
	local pods="$SHARED/kubectl/maniSbindra__go-posts__parse-podlist__samplePodList.json"
	real() { sh -c 'victims --preemptor "$0" "$@" | preempt-plan' "$F/preemptor.yaml" "$F/node.json" "$@"; }
	run -0 --separate-stderr real "$pods"
	jq -e '.kind == "PreemptionPlan" and .result == "Preempt"' <<<"${lines[0]}"
	size=$(wc -c <"$pods")
	for at in 10 60 99; do
		head -c $((size * at / 100)) "$pods" >"$C/pods.json"
		run -2 --separate-stderr real "$C/pods.json"
		assert_output ""
		[[ $stderr == *"pods.json:"*": unexpected end of input"* ]] || fail "$at %: stderr: $stderr"
		gzip -c "$pods" | head -c $(($(gzip -c "$pods" | wc -c) * at / 100)) >"$C/pods.json.gz"
		run -2 --separate-stderr real "$C/pods.json.gz"
		assert_output ""
		[[ $stderr == *"pods.json.gz: truncated gzip stream"* ]] || fail "$at % gzip: stderr: $stderr"
	done
	# the k9s NodeList gzipped without its trailer: its JSON whole, yet no answer
	gzip -c "$SHARED/kubectl/derailed__k9s__internal__render__testdata__no.json" >"$C/no.json.gz"
	head -c $(($(wc -c <"$C/no.json.gz") - 8)) "$C/no.json.gz" >"$C/no-cut.json.gz"
	run -2 --separate-stderr sh -c 'victims --pending "$1" | preempt-plan' _ "$C/no-cut.json.gz"
	assert_output ""
	[[ $stderr == *"no-cut.json.gz: truncated gzip stream"* ]] || fail "stderr: $stderr"
}

@test "binary data on standard input is refused at once, by every tool, whatever its size" {
	# 20 MB took 3-5 s and 60 MB of memory before (100 MB: 54 s), as a file 0.2 s
	for t in "victims --pending" "preempt-plan" "preempt-plan --simulate" "pc-validate" "pp-match" "apiq-sim run"; do
		run --separate-stderr timeout $((2 * TIME_FACTOR)) sh -c "head -c 20000000 /dev/urandom | $t"
		[ "$status" -eq 1 ] || [ "$status" -eq 2 ] || fail "$t: status $status (124: timed out)"
		# (pc-validate's findings are its answer, on stdout)
		[[ "$output$stderr" == *"-:1:1: binary input ("*"): not JSON or YAML"* ]] || fail "$t: $output $stderr"
	done
	# gzip of binary: the text inside is looked at the same way
	run -2 --separate-stderr timeout $((2 * TIME_FACTOR)) sh -c 'head -c 5000000 /dev/urandom | gzip -1 | victims --pending'
	[[ $stderr == *"victims: -:1:1: binary input ("* ]] || fail "stderr: $stderr"
	printf 'kind: Pod\x00\n' >"$BATS_TEST_TMPDIR/nul.yaml"
	run -1 --separate-stderr pc-validate "$BATS_TEST_TMPDIR/nul.yaml"
	assert_output --partial "nul.yaml:1:1: binary input (a NUL byte at offset 9): not JSON or YAML"
}

@test "reading standard input is linear: 20 MB of text that is no YAML, after a syntax error, from a pipe" {
	# after a syntax error the reader looks for the next "---" line; from a
	# pipe (64 kB a read) it looked at everything read so far again at each
	# read: 20 MB took about 4 s, 100 MB a minute
	run --separate-stderr timeout $((2 * TIME_FACTOR)) sh -c "yes '@reserved' | head -c 20000000 | victims --pending"
	[ "$status" -eq 2 ] || fail "status $status (124: timed out)"
	[[ $stderr == *"victims: -:1:1: YAML: found character that cannot start any token"* ]] || fail "stderr: $stderr"
}
