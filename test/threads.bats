#!/usr/bin/env bats
# Work shared among threads gives the answer one thread gives: the reader's
# parse workers (inputs of 4 MB and more) and --simulate's dry runs (a new
# preemptor shape with 512 potential nodes or more); such a file is also
# asked from the disk ahead of the reads. In make check's
# ThreadSanitizer suite (SAN=thread) a data race also fails the run.

load test_helper/common
bats_require_minimum_version 1.5.0

setup_file() {
	local d=$BATS_FILE_TMPDIR
	cc -O2 -std=c17 -o "$d/gen" "$ROOT/bench/gen-snapshot.c"
	"$d/gen" -N 100 -P 16 -p 5 -s 1 >"$d/list.json"   # -s 1: some victims violate a budget
	"$d/gen" -b -n -N 600 -P 20 -p 40 >"$d/sim.ndjson"
	cat >"$d/preemptor.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: big, namespace: default, uid: big-uid}
spec:
  priorityClassName: critical
  containers:
  - name: main
    resources: {requests: {cpu: "12", memory: 8Gi}}
YAML
}

@test "a large file is asked from the disk ahead of the parser (posix_fadvise WILLNEED); a pipe is read as it comes" {
	local d=$BATS_FILE_TMPDIR
	strace -o /dev/null true || skip "strace cannot trace a process here (not installed, or ptrace not permitted)"
	# LeakSanitizer cannot run under ptrace; the other tests check for leaks
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	strace -f -qq -e trace=fadvise64 -o "$d/trace" victims --preemptor "$d/preemptor.yaml" "$d/list.json" >"$d/from-file"
	# the first ask starts where the reading starts and reaches 64 MB ahead
	grep -E 'fadvise64\([0-9]+, [0-9]+, 67108864, POSIX_FADV_WILLNEED\) = 0' "$d/trace"
	strace -f -qq -e trace=fadvise64 -o "$d/trace-pipe" sh -c 'cat "$1" | victims --preemptor "$2" -' sh \
		"$d/list.json" "$d/preemptor.yaml" >"$d/from-pipe"
	run grep -c WILLNEED "$d/trace-pipe"
	assert_output 0
	cmp "$d/from-file" "$d/from-pipe"
}

@test "victims: a List of 4 MB and more read, and its records printed, by two and three threads gives what one thread gives" {
	local d=$BATS_FILE_TMPDIR
	[ "$(stat -c %s "$d/list.json")" -gt $((4 << 20)) ]
	run victims --threads 1 --preemptor "$d/preemptor.yaml" "$d/list.json"
	assert_success
	echo "$output" >"$d/one"
	# more than 64 candidates: their records are printed on the threads too
	[ "$(grep -c '"kind":"Candidate"' "$d/one")" -gt 64 ]
	for n in 2 3; do
		run victims --threads "$n" --preemptor "$d/preemptor.yaml" "$d/list.json"
		assert_success
		echo "$output" >"$d/many"
		cmp "$d/one" "$d/many"
	done
}

@test "victims: the victims each Candidate record lists, worked out again as it is printed, are those the evaluation chose (the wide table's)" {
	local d=$BATS_FILE_TMPDIR
	# records: the evaluation leaves the lists out and the printer lists
	# them again; the table keeps the evaluation's own
	run victims --threads 2 --preemptor "$d/preemptor.yaml" "$d/list.json"
	assert_success
	printf '%s\n' "$output" | jq -r 'select(.kind == "Candidate") |
		"\(.node) \(.victims | map("\(.namespace)/\(.name)") | join(","))"' | sort >"$d/records"
	[ "$(wc -l <"$d/records")" -gt 64 ]
	# some victims violate a budget: the PDB split is part of what is redone
	printf '%s\n' "$output" | jq -e -s '[.[] | select(.kind == "Candidate") | .numPDBViolations] | add > 0'
	run victims --threads 2 -o wide --no-headers --preemptor "$d/preemptor.yaml" "$d/list.json"
	assert_success
	printf '%s\n' "$output" | awk '{ print $4, $9 }' | sort >"$d/table"   # NODE, VICTIM-PODS
	cmp "$d/records" "$d/table"
}

@test "preempt-plan --simulate: dry runs on two threads give the plans of one" {
	local d=$BATS_FILE_TMPDIR
	preempt-plan --threads 1 --simulate --no-cascade "$d/sim.ndjson" >"$d/plans1"
	preempt-plan --threads 2 --simulate --no-cascade "$d/sim.ndjson" >"$d/plans2"
	cmp "$d/plans1" "$d/plans2"
	# the shared path ran: a shape with 512 candidate nodes or more
	run jq -s 'map(.candidates // 0) | max' "$d/plans1"
	assert_success
	[ "$output" -ge 512 ]
	[ "$(grep -c '"kind":"PreemptionPlan"' "$d/plans1")" -eq 40 ]
}

@test "--threads: one rule in every tool: above 8 is lowered to 8 and said on stderr, the answer that of 8; --help says the rule" {
	local d=$BATS_FILE_TMPDIR
	for tool in pc-validate pp-match victims preempt-plan apiq-sim; do
		run "$tool" --help
		assert_success
		assert_output --partial "--threads N            read and compute with N threads, at most 8 (default: one per CPU, at most 4)"
	done
	victims --threads 8 --preemptor "$d/preemptor.yaml" "$d/list.json" >"$d/eight"
	run --separate-stderr victims --threads 12 --preemptor "$d/preemptor.yaml" "$d/list.json"
	assert_success
	[ "$stderr" = "victims: note: --threads 12: using 8 threads, the most this version uses" ]
	printf '%s\n' "$output" | cmp - "$d/eight"
	run --separate-stderr pc-validate --threads 64 "$ROOT/share/sample/gang"
	[ "$stderr" = "pc-validate: note: --threads 64: using 8 threads, the most this version uses" ]
	# within the rule nothing is said
	run --separate-stderr preempt-plan --threads 8 --simulate --no-cascade "$d/sim.ndjson"
	assert_success
	[ -z "$stderr" ]
}
