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
	assert_output "$(printf '%s\n' common/sched/engine/cycle.c common/sched/engine/snapshot.c)"
	bad=$(grep -nE 'pk_nodeinfo_(add|remove)_(pod|nominated) *\(' $(src) test/unit/*.c |
	      grep -vE '^common/sched/engine/(cycle\.c|snapshot\.c|nodeinfo_int\.h):' || true)
	[ -z "$bad" ] || { echo "moved outside the snapshot and the cycle: $bad"; false; }
}
