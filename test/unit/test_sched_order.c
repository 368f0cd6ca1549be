/* Node choice (pickOneNodeForPreemption), victim importance, candidate
 * sampling and FitError text. */
#include <stdio.h>
#include <string.h>

#include "t.h"
#include "sched/engine/engine.h"

#define NS 1000000000LL

static pk_victim_ref v(int32_t prio, int64_t start, bool has_start)
{
	pk_victim_ref r = { .namespace_ = "default", .name = "v", .uid = "v", .node = "n",
	                    .priority = prio, .start_time = start, .has_start_time = has_start };
	return r;
}

static int pick(pk_candidate *c, int n)
{
	return pk_pick_one_node(c, n, 100 * NS);
}

static void test_pick(void)
{
	pk_victim_ref a1[] = { v(100, 0, true) }, b1[] = { v(0, 0, true), v(0, 0, true) };
	pk_candidate c[3] = {
		{ .node = "node1", .victims = a1, .nvictims = 1, .num_pdb_violations = 1 },
		{ .node = "node2", .victims = b1, .nvictims = 2, .num_pdb_violations = 0 },
	};
	CHECK(pick(c, 2) == 1, "fewest PDB violations first");
	c[1].num_pdb_violations = 1;
	CHECK(pick(c, 2) == 1, "then the lowest highest-priority victim");

	/* same highest priority: two negative victims lose to one zero victim
	 * because every term adds MaxInt32 + 1. */
	pk_victim_ref x[] = { v(0, 0, true) }, y[] = { v(0, 0, true), v(-100, 0, true) };
	pk_candidate d[2] = { { .node = "node1", .victims = y, .nvictims = 2 }, { .node = "node2", .victims = x, .nvictims = 1 } };
	CHECK(pick(d, 2) == 1, "smallest sum of adjusted priorities");

	/* equal everything but start: prefer the node whose top victims started latest */
	pk_victim_ref s1[] = { v(100, 2, true), v(100, 2, true) }, s2[] = { v(100, 3, true), v(100, 3, true) },
		      s3[] = { v(100, 1, true), v(100, 1, true) };
	pk_candidate e[3] = { { .node = "node1", .victims = s1, .nvictims = 2 },
	                      { .node = "node2", .victims = s2, .nvictims = 2 },
	                      { .node = "node3", .victims = s3, .nvictims = 2 } };
	CHECK(pick(e, 3) == 1, "latest earliest start time among top-priority victims");

	/* only the highest-priority victims' start times count */
	pk_victim_ref t1[] = { v(100, 2, true), v(0, 4, true) }, t2[] = { v(100, 6, true), v(0, 1, true) },
		      t3[] = { v(100, 5, true), v(0, 3, true) };
	pk_candidate f[3] = { { .node = "node1", .victims = t1, .nvictims = 2 },
	                      { .node = "node2", .victims = t2, .nvictims = 2 },
	                      { .node = "node3", .victims = t3, .nvictims = 2 } };
	CHECK(pick(f, 3) == 1, "lower-priority victims' start times are ignored");

	/* a victim without start time reads as now: latest of all */
	pk_victim_ref u1[] = { v(100, 50, true) }, u2[] = { v(100, 0, false) };
	pk_candidate g[2] = { { .node = "node1", .victims = u1, .nvictims = 1 }, { .node = "node2", .victims = u2, .nvictims = 1 } };
	CHECK(pick(g, 2) == 1, "no start time counts as now");

	/* full tie: node name order */
	pk_candidate h[2] = { { .node = "node-b", .victims = u1, .nvictims = 1 }, { .node = "node-a", .victims = u1, .nvictims = 1 } };
	CHECK(pick(h, 2) == 1, "final tie-break is the node name");
	CHECK(pick(h, 0) == -1, "no candidates, no node");
	CHECK(pick(h, 1) == 0, "one candidate is chosen");
}

static void test_importance(void)
{
	pk_pod a = { .namespace_ = "default", .name = "a", .priority = 10, .start_time = 5, .has_start_time = true };
	pk_pod b = { .namespace_ = "default", .name = "b", .priority = 10, .start_time = 4, .has_start_time = true };
	pk_pod c = { .namespace_ = "default", .name = "c", .priority = 20, .start_time = 9, .has_start_time = true };
	pk_pod d = { .namespace_ = "default", .name = "d", .priority = 10 };
	CHECK(pk_pod_importance_cmp(&c, &a, 100) < 0, "higher priority is more important");
	CHECK(pk_pod_importance_cmp(&b, &a, 100) < 0, "equal priority: earlier start is more important");
	CHECK(pk_pod_importance_cmp(&a, &d, 100) < 0, "a pod that has not started is the youngest");
	CHECK(pk_pod_importance_cmp(&a, &a, 100) == 0, "a pod ties with itself");
}

static void test_num_candidates(void)
{
	CHECK(pk_num_candidates(5, 40, 1) == 2, "5 nodes, 40%%, min 1 -> 2");
	CHECK(pk_num_candidates(5, 40, 2) == 2, "5 nodes, 40%%, min 2 -> 2");
	CHECK(pk_num_candidates(50, 10, 100) == 50, "defaults below 100 nodes: all");
	CHECK(pk_num_candidates(5000, 10, 100) == 500, "defaults with 5000 nodes: 10%%");
	CHECK(pk_num_candidates(1500, 10, 100) == 150, "integer division of the percentage");
	CHECK(pk_num_candidates(999, 10, 100) == 100, "never fewer than the absolute minimum");
}

static void test_fit_error(void)
{
	pk_arena a;
	pk_arena_init(&a);
	pk_status s1, s2, s3;
	pk_status_set(&s1, PK_CODE_UNSCHEDULABLE, "NodeResourcesFit", "Insufficient cpu");
	pk_status_set(&s2, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "DefaultPreemption", "No preemption victims found for incoming pod");
	s3 = s2;
	const pk_status *st[] = { &s2, &s1, &s3 };
	pk_fit_error fe;
	const char *m = pk_fit_error_message(&a, 3, st, 3, &fe);
	CHECK_STR(m, "0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.",
	          "FitError counts reasons and sorts them as strings");
	CHECK(fe.nnodes == 3 && fe.n == 2 && fe.reasons[0].nodes == 1 && fe.reasons[1].nodes == 2,
	      "the histogram beside the text, in its order");
	CHECK_STR(fe.reasons[1].reason, "No preemption victims found for incoming pod", "a reason of the histogram");
	pk_status_add_reason(&s1, "Insufficient memory");
	const pk_status *st2[] = { &s1 };
	m = pk_fit_error_message(&a, 1, st2, 1, NULL);
	CHECK_STR(m, "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.", "every reason of a node counts");
	pk_arena_free(&a);
}

int main(void)
{
	test_pick();
	test_importance();
	test_num_candidates();
	test_fit_error();
	return T_DONE();
}
