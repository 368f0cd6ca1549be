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
