/* PodGroup preemption pieces: victim-unit importance as upstream's
 * TestMoreImportantVictim (podgrouppreemption_test.go @805300d) states it,
 * the release caveat, and the members a group needs placed. */
#include <stdio.h>
#include <string.h>

#include "t.h"
#include "sched/engine/gang/gang.h"

#define NS 1000000000LL

static pk_pod pods[8];

/* A unit of n pods; group units are pods that name a scheduling group. */
static pk_victim_unit unit(int32_t prio, bool group, int n, int64_t start, pk_pod **storage)
{
	for (int i = 0; i < n; i++) {
		pk_pod *p = storage[i];
		p->namespace_ = "default";
		p->name = "p";
		p->priority = prio;
		p->start_time = start;
		p->has_start_time = start != 0;
	}
	pk_victim_unit u = { .pods = storage, .npods = n, .priority = prio, .is_group = group,
	                     .earliest_start = start ? start : 1000 * NS };
	return u;
}

static bool more_important(pk_victim_unit a, pk_victim_unit b)
{
	return pk_unit_importance_cmp(&a, &b, 1000 * NS) < 0;
}

static void test_more_important_victim(void)
{
	pk_pod *s1[2] = { &pods[0], &pods[1] }, *s2[2] = { &pods[2], &pods[3] };
	int64_t now = 1000 * NS, before = 500 * NS;
	CHECK(more_important(unit(20, false, 1, 0, s1), unit(10, false, 1, 0, s2)), "vi1 has higher priority");
	CHECK(!more_important(unit(10, false, 1, 0, s1), unit(20, false, 1, 0, s2)), "vi2 has higher priority");
	CHECK(more_important(unit(10, true, 1, 0, s1), unit(10, false, 1, 0, s2)), "vi1 is PG, vi2 is Pod, same priority");
	CHECK(!more_important(unit(10, false, 1, 0, s1), unit(10, true, 1, 0, s2)), "vi1 is Pod, vi2 is PG, same priority");
	CHECK(more_important(unit(10, false, 1, before, s1), unit(10, false, 1, now, s2)), "both Pods, vi1 older");
	CHECK(!more_important(unit(10, false, 1, now, s1), unit(10, false, 1, before, s2)), "both Pods, vi2 older");
	CHECK(more_important(unit(10, true, 2, 0, s1), unit(10, true, 1, 0, s2)), "both PGs, vi1 larger");
	CHECK(!more_important(unit(10, true, 1, 0, s1), unit(10, true, 2, 0, s2)), "both PGs, vi2 larger");
	CHECK(more_important(unit(10, true, 2, before, s1), unit(10, true, 2, now, s2)), "both PGs, same size, vi1 older");
	CHECK(!more_important(unit(10, true, 2, now, s1), unit(10, true, 2, before, s2)), "both PGs, same size, vi2 older");
	/* util.go victimRank (#139596/#140634): CompositePodGroup 3 > PodGroup 2 */
	pk_victim_unit cpg = unit(10, true, 1, now, s1), pg = unit(10, true, 2, before, s2);
	cpg.is_composite = true;
	CHECK(more_important(cpg, pg), "CPG outranks a larger, older PG of the same priority");
	CHECK(!more_important(pg, cpg), "PG below a CPG of the same priority");
	CHECK(!more_important(cpg, unit(20, true, 1, now, s2)), "priority first: a CPG below a higher PG");
}

static void test_release_caveat(void)
{
	pk_pg_set g;
	pk_podgroup groups[1] = {{0}};
	pk_feature_gates fg;
	pk_release_profile r;
	memset(&g, 0, sizeof g);
	g.groups = groups;
	g.release = &r;
	pk_feature_gates_default(&fg);
	pk_feature_gates_set_release(&fg, 35);
	pk_release_profile_of(&r, &fg);
	CHECK(pk_pg_release_caveat(&g) == NULL, "1.35 without PodGroups: nothing to say");
	g.n = 1;
	CHECK(pk_pg_release_caveat(&g) && strstr(pk_pg_release_caveat(&g), "1.35's gang scheduling"),
	      "1.35 with PodGroups: the unmodelled gang scheduling is said");
	pk_feature_gates_set_release(&fg, 36);
	pk_release_profile_of(&r, &fg);
	CHECK(pk_pg_release_caveat(&g) == NULL, "1.36: modelled");
	groups[0].composite = true;
	CHECK(pk_pg_release_caveat(&g) && strstr(pk_pg_release_caveat(&g), "1.36 has no CompositePodGroup"),
	      "1.36 with a CompositePodGroup: said that it is not read");
	pk_feature_gates_set_release(&fg, 37);
	pk_release_profile_of(&r, &fg);
	r.composite_pod_groups = false; /* as CompositePodGroup=false gives */
	CHECK(pk_pg_release_caveat(&g) && strstr(pk_pg_release_caveat(&g), "CompositePodGroup=false"),
	      "1.37 with the gate off: said");
	r.composite_pod_groups = true;
	CHECK(pk_pg_release_caveat(&g) == NULL, "1.37, hierarchy read: nothing to say");
}

static void test_required(void)
{
	pk_podgroup pg = {0};
	pg.policy = PK_PG_POLICY_GANG;
	pg.min_count = 3;
	CHECK(pk_pg_required(&pg, 5) == 3, "gang: minCount");
	pg.policy = PK_PG_POLICY_BASIC;
	CHECK(pk_pg_required(&pg, 5) == 1, "basic: one member is success, as upstream's scheduling function");
	pg.policy = PK_PG_POLICY_NONE;
	CHECK(pk_pg_required(&pg, 2) == 1, "no policy: as basic");
}

int main(void)
{
	test_more_important_victim();
	test_release_caveat();
	test_required();
	return T_DONE();
}
