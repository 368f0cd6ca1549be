#!/usr/bin/env bats
# A representative subset under valgrind (memcheck, leaks included): one run
# per tool on real-looking input, plus the reader's hostile paths. Zero
# reports expected. Uses the plain build (valgrind and ASan do not mix).

load test_helper/common

setup() {
	command -v valgrind >/dev/null || skip "valgrind not installed"
	VG="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --suppressions=$ROOT/test/valgrind.supp"
	PLAIN="$ROOT/bin"
	[ -x "$PLAIN/victims" ] || skip "plain build not present"
}

vg() { run bash -c "$VG $*"; [ "$status" -ne 99 ] || { echo "$output"; return 1; }; }

@test "valgrind: victims and preempt-plan on the sample cluster" {
	vg "$PLAIN/victims --preemptor $SAMPLE/preemptor.yaml --explain $SAMPLE/cluster.json > $BATS_TEST_TMPDIR/c.ndjson"
	vg "$PLAIN/preempt-plan -o table $BATS_TEST_TMPDIR/c.ndjson"
}

@test "valgrind: pc-validate on fixtures and a broken YAML stream" {
	vg "$PLAIN/pc-validate $FIX/pc-validate"
	printf 'kind: A\n---\nkind: [\n---\nkind: PriorityClass\nmetadata: {name: x}\nvalue: 1\n' >"$BATS_TEST_TMPDIR/b.yaml"
	vg "$PLAIN/pc-validate $BATS_TEST_TMPDIR/b.yaml"
}

@test "valgrind: pp-match on the Karmada examples" {
	vg "$PLAIN/pp-match --explain --emit-metadata $ROOT/share/examples/karmada"
}

@test "valgrind: apiq-sim step on its fixtures" {
	for f in $(ls -d "$FIX"/apiq-sim/*/ | head -5); do
		for input in "$f"*.ndjson "$f"*.jsonl; do
			[ -f "$input" ] && vg "$PLAIN/apiq-sim step $input"
		done
	done
	true
}

@test "valgrind: the reader's error paths (List with a broken item, alias bomb, invalid UTF-8)" {
	printf '{"kind":"List","items":[\n    {"kind":"Pod","metadata":{"name":"a"}},\n    {"kind":"Pod","metadata":{"name":"b"]},\n    {"kind":"Pod","metadata":{"name":"c"}}\n]}\n' >"$BATS_TEST_TMPDIR/l.json"
	vg "$PLAIN/pp-match $BATS_TEST_TMPDIR/l.json"
	printf 'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n' >"$BATS_TEST_TMPDIR/bomb.yaml"
	vg "$PLAIN/pc-validate --max-alias-expansions 1000 $BATS_TEST_TMPDIR/bomb.yaml"
	printf '{"kind":"Pod","metadata":{"name":"\xff"}}\n' >"$BATS_TEST_TMPDIR/u.json"
	vg "$PLAIN/victims --pending $BATS_TEST_TMPDIR/u.json"
}
