#!/usr/bin/env bats
# Hostile input, for every tool: each gets a clear message that names the
# file, a non-zero exit status (1 or 2), within seconds, never a crash, a hang
# or unbounded memory (ulimit -v). Also: `| head -1` is quiet, /dev/full is
# a reported write error.

load test_helper/common

setup_file() {
	export H="$BATS_FILE_TMPDIR"
	# alias bomb ("billion laughs")
	{
		echo 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
		prev=a
		for n in b c d e f g h i; do
			printf '%s: &%s [' "$n" "$n"
			for k in 1 2 3 4 5 6 7 8; do printf '*%s,' "$prev"; done
			printf '*%s]\n' "$prev"
			prev=$n
		done
	} >"$H/bomb.yaml"
	awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; print "" }' >"$H/deep.json"
	awk 'BEGIN { printf "a: "; for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; print "" }' >"$H/deep.yaml"
	printf '{"kind":"Pod","metadata":{"name":"\xff\xfe"}}\n' >"$H/utf8.json"
	printf 'kind: Pod\nmetadata:\n  name: "\xc3\x28"\n' >"$H/utf8.yaml"
	head -c 700 "$SAMPLE/cluster.json" >"$H/truncated.json"
	head -c 4096 /dev/urandom >"$H/binary.dat"
	printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"n"},"spec":{"priority":123456789012345678901234567890}}\n' >"$H/bignum.json"
	awk 'BEGIN { printf "{\"kind\":\"Pod\",\"metadata\":{\"name\":\""; for (i = 0; i < 100 * 1024; i++) printf "%01024d", 0; print "\"}}" }' >"$H/bigstring.json"
	# a kind: List with a broken item in the middle
	{
		echo '{"apiVersion":"v1","kind":"List","items":['
		echo '    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"d"}},'
		echo '    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"b","namespace":"d"]},'
		echo '    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"c","namespace":"d"}}'
		echo ']}'
	} >"$H/brokenlist.json"
	printf 'kind: Pod\nmetadata: {name: x\n' >"$H/yamlsyntax.yaml"
}

# run_tool TOOL FILE: the tool's ordinary way to read FILE, bounded in time and memory.
run_tool() {
	local tool=$1 file=$2
	case $tool in
	victims) set -- victims --pending "$file" ;;
	apiq-sim) set -- apiq-sim step "$file" ;;
	*) set -- "$tool" "$file" ;;
	esac
	# ASan reserves terabytes of address space: bound memory on plain builds only
	if [ -n "$SANITIZED" ]; then
		run timeout 60 "$@"
	else
		run bash -c 'ulimit -v 4000000; exec timeout 20 "$@"' _ "$@"
	fi
}

# The tool said something about the file, exited 1 or 2, and did not crash or hang.
assert_refused() {
	local file=$1
	if [ "$status" -ne 1 ] && [ "$status" -ne 2 ]; then
		echo "exit status $status (want 1 or 2)"; echo "$output" | head -5; return 1
	fi
	[[ "$output" == *"$(basename "$file")"* ]] || { echo "no mention of $file in: $output" | head -5; return 1; }
}

tools="pc-validate pp-match victims preempt-plan apiq-sim"

@test "alias bomb: every tool refuses it quickly with little memory" {
	for t in $tools; do run_tool "$t" "$H/bomb.yaml"; assert_refused "$H/bomb.yaml" || { echo "tool: $t"; return 1; }; done
	run pc-validate "$H/bomb.yaml"
	assert_output --partial "excessive aliasing"
}

@test "100,000-deep nesting (JSON and YAML) is refused" {
	for t in $tools; do
		for f in deep.json deep.yaml; do run_tool "$t" "$H/$f"; assert_refused "$H/$f" || { echo "tool: $t $f"; return 1; }; done
	done
}

@test "invalid UTF-8 is refused with its position" {
	for t in $tools; do
		for f in utf8.json utf8.yaml; do run_tool "$t" "$H/$f"; assert_refused "$H/$f" || { echo "tool: $t $f"; return 1; }; done
	done
	run pc-validate "$H/utf8.json"
	assert_output --partial "utf8.json:1:"
}

@test "truncated JSON, binary garbage and YAML syntax errors are refused" {
	for t in $tools; do
		for f in truncated.json binary.dat yamlsyntax.yaml; do
			run_tool "$t" "$H/$f"; assert_refused "$H/$f" || { echo "tool: $t $f"; return 1; }
		done
	done
}

@test "numbers beyond int64 are reported, not silently rounded" {
	run pc-validate "$H/bignum.json"
	[ "$status" -eq 1 ]
	assert_output --partial "bignum.json:1"
	for t in victims preempt-plan pp-match; do
		run_tool "$t" "$H/bignum.json"
		[ "$status" -lt 128 ] || { echo "$t crashed: $status"; return 1; }
		[[ "$output" == *"bignum.json"* ]] || { echo "$t said nothing: $output"; return 1; }
	done
}

@test "a 100 MB string is handled within the limits" {
	for t in $tools; do
		run_tool "$t" "$H/bigstring.json"
		[ "$status" -lt 128 ] || { echo "$t crashed or hung: $status"; return 1; }
	done
	run pc-validate --max-record-bytes 1000000 "$H/bigstring.json"
	assert_output --partial "--max-record-bytes"
	[ "$status" -eq 1 ]
}

@test "a YAML mapping of 150,000 keys is read in linear time (was quadratic: 40,000 keys took 12 s)" {
	awk 'BEGIN { print "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:"
		for (i = 0; i < 150000; i++) printf "  key%d: \"%s\"\n", i, "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvv" }' >"$BATS_TEST_TMPDIR/wide.yaml"
	run_tool pc-validate "$BATS_TEST_TMPDIR/wide.yaml"
	[ "$status" -eq 0 ] || { echo "status $status (124: timed out)"; echo "$output" | head -3; return 1; }
	assert_output --partial "0 objects checked"
}

@test "a List with a broken item in the middle: the others are still read" {
	run pc-validate --stats "$H/brokenlist.json"
	assert_output --partial "brokenlist.json:3:"
	run pp-match --stats "$H/brokenlist.json"
	assert_output --partial "brokenlist.json:3:"
	assert_output --regexp "read 2"
}

@test "| head -1 is quiet and /dev/full is a write error (every tool)" {
	big="$BATS_FILE_TMPDIR/many.json"
	for i in $(seq 1 3000); do printf '{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"c%d"},"value":%d}\n' "$i" "$i"; done >"$big"
	run bash -c "pc-validate -o json --cluster '$big' '$big' | head -1"
	[ "$status" -eq 0 ]; [ -z "$(echo "$output" | grep -i 'broken pipe\|write error')" ]
	run bash -c "victims --preemptor '$SAMPLE/preemptor.yaml' --explain '$SAMPLE/cluster.json' | head -1"
	[ "$status" -eq 0 ]; [[ "$output" != *"rror"* ]]
	run bash -c "pp-match '$ROOT/share/examples/karmada' | head -1"
	[ "$status" -eq 0 ]; [[ "$output" != *"rror"* ]]
	run bash -c "victims --preemptor '$SAMPLE/preemptor.yaml' '$SAMPLE/cluster.json' > /dev/full"
	[ "$status" -eq 2 ]; assert_output --partial "write error"
	run bash -c "victims --preemptor '$SAMPLE/preemptor.yaml' '$SAMPLE/cluster.json' | preempt-plan > /dev/full"
	[ "$status" -eq 2 ]; assert_output --partial "write error"
	run bash -c "pp-match '$ROOT/share/examples/karmada' > /dev/full"
	[ "$status" -eq 2 ]; assert_output --partial "write error"
	bad="$BATS_FILE_TMPDIR/manybad.json"
	sed 's/"value":/"value":2000000000/' "$big" >"$bad"    # every class invalid: lots of findings to write
	run bash -c "pc-validate -o json '$bad' > /dev/full"
	[ "$status" -eq 2 ]; assert_output --partial "write error"
	run bash -c "echo '{\"op\":\"pop\"}' | apiq-sim step > /dev/full"
	[ "$status" -eq 2 ]; assert_output --partial "write error"
}

# peak_kb CMD...: the command's peak resident memory in kB (GNU time).
peak_kb() {
	/usr/bin/time -f '%M' -o "$BATS_TEST_TMPDIR/rss" "$@" >/dev/null 2>&1 || true
	tail -1 "$BATS_TEST_TMPDIR/rss"
}

@test "--max-record-bytes bounds every record shape: small files, YAML documents, YAML List items" {
	small="$BATS_TEST_TMPDIR/small.json"     # under 4 MB: read whole, then each object measured
	awk 'BEGIN { printf "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"annotations\":{\"a\":\""; for (i = 0; i < 200; i++) printf "%01024d", 0; print "\"}}}" }' >"$small"
	yamldoc="$BATS_TEST_TMPDIR/doc.yaml"
	awk 'BEGIN { printf "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  annotations:\n    a: "; for (i = 0; i < 200; i++) printf "%01024d", 0; print "" }' >"$yamldoc"
	yamllist="$BATS_TEST_TMPDIR/list.yaml"
	{ printf 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: n0}\n'; tail -n +2 "$yamldoc" | sed 's/^/  /; 1s/^  /- /'; } >"$yamllist"
	for f in "$small" "$yamldoc" "$yamllist"; do
		for t in $tools; do
			[ "$t" = apiq-sim ] && continue     # its inputs are events, read by the same reader
			[ "$t" = victims ] && set -- victims --pending || set -- "$t"
			run "$@" --max-record-bytes 100000 "$f"
			[ "$status" -eq 1 ] || [ "$status" -eq 2 ] || { echo "$t $f: status $status"; return 1; }
			[[ "$output" == *"--max-record-bytes"* ]] || { echo "$t $f: not refused: $output"; return 1; }
		done
	done
	# the position is that of the refused record: the List's second item
	run pc-validate --max-record-bytes 100000 "$yamllist"
	assert_output --partial "list.yaml:7:3: the object here is larger than 100000 bytes (--max-record-bytes): it and the rest of this input are not read"
}

@test "--max-record-bytes keeps memory bounded on a huge single object (JSON and YAML)" {
	[ -z "$SANITIZED" ] || skip "peak RSS is not meaningful under ASan"
	json="$BATS_TEST_TMPDIR/huge.json"
	awk 'BEGIN { printf "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"annotations\":{\"a\":\""; for (i = 0; i < 48 * 1024; i++) printf "%01024d", 0; print "\"}}}" }' >"$json"
	yaml="$BATS_TEST_TMPDIR/huge.yaml"
	awk 'BEGIN { printf "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  annotations:\n    a: "; for (i = 0; i < 48 * 1024; i++) printf "%01024d", 0; print "" }' >"$yaml"
	for f in "$json" "$yaml"; do
		run pc-validate --max-record-bytes 1048576 "$f"
		assert_output --partial "--max-record-bytes"
		kb=$(peak_kb pc-validate --max-record-bytes 1048576 "$f")
		# a 48 MB object under a 1 MB bound: a few MB resident, not the object
		[ "$kb" -lt 40000 ] || { echo "$f: peak RSS $kb kB"; return 1; }
	done
}

@test "gzip input is read transparently by every tool, from a file, a directory and stdin" {
	gz="$BATS_TEST_TMPDIR/cluster.json.gz"
	gzip -c "$SAMPLE/cluster.json" >"$gz"
	victims --preemptor "$SAMPLE/preemptor.yaml" "$SAMPLE/cluster.json" >"$BATS_TEST_TMPDIR/plain.out"
	run victims --preemptor "$SAMPLE/preemptor.yaml" "$gz"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$BATS_TEST_TMPDIR/plain.out")" ]
	run bash -c "victims --preemptor '$SAMPLE/preemptor.yaml' < '$gz'"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$BATS_TEST_TMPDIR/plain.out")" ]
	# YAML, concatenated gzip members, in a directory (*.yaml.gz)
	mkdir "$BATS_TEST_TMPDIR/dir"
	gzip -c "$SAMPLE/preemptor.yaml" >"$BATS_TEST_TMPDIR/dir/p.yaml.gz"
	run victims --preemptor "$BATS_TEST_TMPDIR/dir/p.yaml.gz" "$SAMPLE/cluster.json"
	[ "$output" = "$(cat "$BATS_TEST_TMPDIR/plain.out")" ]
	run pc-validate --stats "$BATS_TEST_TMPDIR/dir"
	assert_output --partial "read 1"
	for t in pp-match preempt-plan; do
		run "$t" "$gz"
		[[ "$output" != *"control characters"* ]] || { echo "$t: $output"; return 1; }
	done
	run bash -c "echo '{\"op\":\"pop\"}' | gzip | apiq-sim step"
	[ "$status" -eq 0 ]
	# a truncated gzip file is said to be one
	head -c 200 "$gz" >"$BATS_TEST_TMPDIR/cut.json.gz"
	run victims --pending "$BATS_TEST_TMPDIR/cut.json.gz"
	[ "$status" -eq 2 ]
	assert_output --partial "cut.json.gz: truncated gzip stream"
}

@test "a missing file gives one message, not a second one about an empty input" {
	for t in pc-validate pp-match preempt-plan; do
		run "$t" /nonexistent/snapshot.yaml
		[ "$status" -eq 2 ] || { echo "$t: status $status"; return 1; }
		[ "$output" = "$t: /nonexistent/snapshot.yaml: No such file or directory" ] || { echo "$t: $output"; return 1; }
	done
	run victims --pending /nonexistent/snapshot.yaml
	[ "$status" -eq 2 ]
	[ "$output" = "victims: /nonexistent/snapshot.yaml: No such file or directory" ]
}
