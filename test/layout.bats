#!/usr/bin/env bats
# The house as DESIGN.md draws it, checked on the sources: rules that a
# review once had to find by hand stay true by themselves.

bats_require_minimum_version 1.5.0
load test_helper/common

src() { cd "$BATS_TEST_DIRNAME/.." && find common cmd -name '*.[ch]' | sort; }

@test "a node's view changes only in the snapshot (committed) and the cycle (supposed): nodeinfo_int.h is theirs alone" {
	cd "$BATS_TEST_DIRNAME/.."
	run grep -l 'nodeinfo_int\.h' $(src) test/unit/*.c
	assert_success
	assert_output "$(printf '%s\n' common/sched/engine/cluster/snapshot.c common/sched/engine/filter/cycle.c)"
	bad=$(grep -nE 'pk_nodeinfo_(add|remove)_(pod|nominated) *\(' $(src) test/unit/*.c |
	      grep -vE '^common/sched/engine/(filter/cycle\.c|cluster/snapshot\.c|cluster/nodeinfo_int\.h):' || true)
	[ -z "$bad" ] || { echo "moved outside the snapshot and the cycle: $bad"; false; }
}

@test "common/sched calls only downward: engine/ cluster < filter < preempt < score < gang, then sim, then report (nm on the objects)" {
	cd "$BATS_TEST_DIRNAME/.."
	objdir=$(cd "$UNITDIR/.." && pwd)
	[ -f "$objdir/common/sched/engine/cluster/snapshot.o" ] || skip "no objects in $objdir"
	run test/layers "$objdir" .
	assert_success
	assert_output ""
}

@test "no source file is over 1,000 lines" {
	cd "$BATS_TEST_DIRNAME/.."
	long=$(find common cmd -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 1000')
	[ -z "$long" ] || { echo "over 1,000 lines: $long"; false; }
}

@test "DESIGN.md names every folder of the engine, and engine.h lists them" {
	cd "$BATS_TEST_DIRNAME/.."
	for d in common/sched/engine/*/; do
		d=${d#common/sched/}; d=${d%/}
		grep -qE "^ +${d#engine/}/ " DESIGN.md || { echo "DESIGN.md does not name $d/ under common/sched/engine/"; false; }
		grep -qF "${d#engine/}/" common/sched/engine/engine.h || { echo "engine.h does not list $d/"; false; }
	done
}
