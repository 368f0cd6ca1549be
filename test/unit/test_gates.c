/* --feature-gates: one registry, parsed as component-base parses it. */
#include "t.h"
#include <string.h>
#include "k8s/gates.h"

static int parse(pk_feature_gates *g, const char *spec, char *err)
{
	return pk_feature_gates_parse(g, spec, err, 300);
}

static void test_syntax(void)
{
	pk_feature_gates g;
	char err[300] = "";
	pk_feature_gates_default(&g);
	CHECK(parse(&g, "SchedulerAsyncAPICalls=true,CompositePodGroup=false", err) == 0 &&
	      pk_gate_on(&g, PK_GATE_SCHEDULER_ASYNC_API_CALLS) && !pk_gate_on(&g, PK_GATE_COMPOSITE_POD_GROUP),
	      "two gates");
	CHECK(parse(&g, "SchedulerAsyncAPICalls=0, CompositePodGroup=T", err) == 0 &&
	      !pk_gate_on(&g, PK_GATE_SCHEDULER_ASYNC_API_CALLS) && pk_gate_on(&g, PK_GATE_COMPOSITE_POD_GROUP),
	      "ParseBool forms and a space after a comma");
	CHECK(parse(&g, "Failover=true", err) == 0 && g.nignored == 1 && strcmp(g.ignored[0], "Failover") == 0,
	      "a gate we do not model is accepted and listed");
	CHECK(parse(&g, "Failover=false", err) == 0 && g.nignored == 1, "and listed once");
	CHECK(parse(&g, "WorkloadAwarePremption=true", err) != 0, "a misspelt gate");
	CHECK_STR(err, "unrecognized feature gate: WorkloadAwarePremption (did you mean WorkloadAwarePreemption?)",
	          "a misspelt gate names the nearest");
	CHECK(parse(&g, "GenericWorkload", err) != 0, "no value");
	CHECK_STR(err, "missing bool value for GenericWorkload", "upstream's text for a missing value");
	CHECK(parse(&g, "GenericWorkload=yes", err) != 0, "yes is not a Go bool");
	CHECK_STR(err, "invalid value of GenericWorkload=yes, err: invalid syntax", "upstream's text for a bad value");
	bool v;
	CHECK(pk_parse_go_bool("TRUE", &v) && v && pk_parse_go_bool("f", &v) && !v && !pk_parse_go_bool("on", &v),
	      "strconv.ParseBool");
}

static void test_defaults(void)
{
	pk_feature_gates g;
	pk_feature_gates_default(&g);
	for (int i = 0; i < PK_NGATES; i++) {
		const pk_gate_info *info = pk_gate_info_of((pk_gate_id)i);
		CHECK(pk_gate_on(&g, (pk_gate_id)i) == info->our_default, "%s starts at our default", info->name);
		CHECK((info->our_default != info->upstream_default) == (info->why != NULL),
		      "%s: a default that differs from upstream says why, and only then", info->name);
		CHECK(pk_gate_lookup(info->name) == (pk_gate_id)i, "%s is found by name", info->name);
	}
}

static void test_all_alpha(void)
{
	pk_feature_gates g;
	char err[300];
	pk_feature_gates_default(&g);
	CHECK(parse(&g, "TopologyAwareWorkloadScheduling=false,AllAlpha=true", err) == 0, "AllAlpha parses");
	CHECK(!pk_gate_on(&g, PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING),
	      "an explicit gate wins over AllAlpha, whatever the order");
	CHECK(pk_gate_on(&g, PK_GATE_PROPAGATION_POLICY_PREEMPTION) && pk_gate_on(&g, PK_GATE_COMPOSITE_POD_GROUP),
	      "AllAlpha turns the other alpha gates on");
	CHECK(!pk_gate_on(&g, PK_GATE_SCHEDULER_ASYNC_API_CALLS), "AllAlpha leaves beta gates alone");
	CHECK(parse(&g, "AllBeta=false", err) == 0 && !pk_gate_on(&g, PK_GATE_SCHEDULER_ASYNC_PREEMPTION),
	      "AllBeta=false turns beta gates off; a later flag accumulates");
	CHECK(pk_gate_on(&g, PK_GATE_COMPOSITE_POD_GROUP), "the earlier AllAlpha still holds");
}

int main(void)
{
	test_syntax();
	test_defaults();
	test_all_alpha();
	return T_DONE();
}
