/* --feature-gates: one registry, parsed as component-base parses it. */
#include "t.h"
#include <string.h>
#include "k8s/gates.h"
#include "k8s/release.h"

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
		bool differs = false;
		for (int m = PK_K8S_MINOR_OLDEST; m <= PK_K8S_MINOR_NEWEST; m++) {
			const pk_gate_release *r = pk_gate_at((pk_gate_id)i, m);
			differs |= r->exists && r->upstream_default != pk_gate_our_default((pk_gate_id)i, m);
		}
		CHECK((differs) == (info->why != NULL),
		      "%s: a default that differs from upstream in some release says why, and only then", info->name);
		CHECK(pk_gate_lookup(info->name) == (pk_gate_id)i, "%s is found by name", info->name);
	}
}

static void test_releases(void)
{
	pk_feature_gates g;
	char err[300];
	pk_feature_gates_default(&g);
	CHECK(g.k8s_minor == 37, "the newest release by default");
	CHECK(pk_gate_on(&g, PK_GATE_GENERIC_WORKLOAD) && pk_gate_on(&g, PK_GATE_WORKLOAD_AWARE_PREEMPTION),
	      "1.37: workload-aware preemption is what GenericWorkload is");
	CHECK(parse(&g, "GenericWorkload=false", err) == 0 && !pk_gate_on(&g, PK_GATE_WORKLOAD_AWARE_PREEMPTION),
	      "1.37: GenericWorkload=false turns workload-aware preemption off (kubernetes/kubernetes#139520)");
	CHECK(pk_gate_at(PK_GATE_GENERIC_WORKLOAD, 37)->stage == PK_GATE_BETA &&
	      pk_gate_at(PK_GATE_GENERIC_WORKLOAD, 36)->stage == PK_GATE_ALPHA, "GenericWorkload: alpha in 1.36, beta in 1.37");

	pk_feature_gates_default(&g);
	CHECK(pk_gate_on(&g, PK_GATE_VOLUME_LIMIT_SCALING), "1.37: VolumeLimitScaling beta, on (#140612)");
	pk_feature_gates_set_release(&g, 36);
	CHECK(!pk_gate_on(&g, PK_GATE_VOLUME_LIMIT_SCALING), "1.36: VolumeLimitScaling alpha, off");
	CHECK(parse(&g, "VolumeLimitScaling=true", err) == 0 && pk_gate_on(&g, PK_GATE_VOLUME_LIMIT_SCALING),
	      "1.36: VolumeLimitScaling=true turns it on");

	pk_feature_gates_default(&g);
	CHECK(parse(&g, "WorkloadAwarePreemption=false", err) == 0, "a gate of another release parses");
	CHECK(pk_feature_gates_check_release(&g, err, sizeof err) != 0, "but 1.37 does not have it");
	CHECK_STR(err, "unrecognized feature gate: WorkloadAwarePreemption (removed in Kubernetes 1.37 by "
	          "kubernetes/kubernetes#139520; GenericWorkload switches the feature now)", "the removal is said");
	pk_feature_gates_set_release(&g, 36);
	CHECK(pk_feature_gates_check_release(&g, err, sizeof err) == 0 && !pk_gate_on(&g, PK_GATE_WORKLOAD_AWARE_PREEMPTION) &&
	      pk_gate_on(&g, PK_GATE_GENERIC_WORKLOAD), "1.36 has it, whatever the order of the flags");

	pk_feature_gates_default(&g);
	CHECK(parse(&g, "GangScheduling=true", err) == 0 && pk_feature_gates_check_release(&g, err, sizeof err) != 0,
	      "GangScheduling, which no tool models, is removed in 1.37 too");
	pk_feature_gates_set_release(&g, 35);
	CHECK(pk_feature_gates_check_release(&g, err, sizeof err) == 0, "and a gate of 1.35's cluster");

	pk_feature_gates_default(&g);
	pk_feature_gates_set_release(&g, 36);
	CHECK(parse(&g, "CompositePodGroup=true", err) == 0 && pk_feature_gates_check_release(&g, err, sizeof err) != 0,
	      "1.36 has no CompositePodGroup");
	CHECK_STR(err, "unrecognized feature gate: CompositePodGroup (Kubernetes 1.36 does not have it; it arrives in 1.37)",
	          "and says when it arrives");
	CHECK(!pk_gate_on(&g, PK_GATE_COMPOSITE_POD_GROUP), "a gate the release lacks is off");
	CHECK(parse(&g, "AllAlpha=true", err) == 0 && pk_gate_on(&g, PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING) &&
	      pk_gate_on(&g, PK_GATE_DRA_WORKLOAD_RESOURCE_CLAIMS), "1.36: DRAWorkloadResourceClaims is alpha");
	pk_feature_gates_set_release(&g, 37);
	CHECK(!pk_gate_on(&g, PK_GATE_DRA_WORKLOAD_RESOURCE_CLAIMS), "1.37: it is beta, AllAlpha leaves it");

	int minor = 0;
	CHECK(pk_k8s_version_parse("1.36", &minor) && minor == 36, "1.36");
	CHECK(pk_k8s_version_parse("v1.37", &minor) && minor == 37, "v1.37");
	CHECK(pk_k8s_version_parse("1.35.4", &minor) && minor == 35, "1.35.4");
	CHECK(pk_k8s_version_parse("v1.37.2-gke.100", &minor) && minor == 37, "a build suffix");
	CHECK(!pk_k8s_version_parse("1.34", &minor) && !pk_k8s_version_parse("1.38", &minor), "not modelled");
	CHECK(!pk_k8s_version_parse("2.37", &minor) && !pk_k8s_version_parse("1.37x", &minor) &&
	      !pk_k8s_version_parse("1.", &minor) && !pk_k8s_version_parse("", &minor) &&
	      !pk_k8s_version_parse("1.37.", &minor), "not a version");
}

static void test_served(void)
{
	char list[200];
	const char *g = "scheduling.k8s.io";
	CHECK(pk_release_serves(35, g, "Workload", "v1alpha1") && !pk_release_serves(36, g, "Workload", "v1alpha1"),
	      "v1alpha1 Workload is 1.35's");
	CHECK(pk_release_serves(36, g, "PodGroup", "v1alpha2") && !pk_release_serves(37, g, "PodGroup", "v1alpha2"),
	      "v1alpha2 PodGroup is 1.36's, gone in 1.37");
	CHECK(pk_release_serves(37, g, "PodGroup", "v1beta1") && pk_release_serves(37, g, "Workload", "v1alpha3") &&
	      !pk_release_serves(36, g, "PodGroup", "v1beta1"), "1.37 serves v1beta1 and v1alpha3");
	CHECK(pk_release_serves(37, g, "CompositePodGroup", "v1alpha3") &&
	      !pk_release_serves(36, g, "CompositePodGroup", "v1alpha3"), "CompositePodGroup arrives in 1.37");
	pk_release_served_list(37, g, "PodGroup", list, sizeof list);
	CHECK_STR(list, "scheduling.k8s.io/v1beta1, scheduling.k8s.io/v1alpha3", "the served list, newest first");
	pk_release_served_list(35, g, "PodGroup", list, sizeof list);
	CHECK_STR(list, "", "none in 1.35");
	CHECK(!pk_release_knows_kind("batch.volcano.sh", "PodGroup") && pk_release_knows_kind(g, "PriorityClass"),
	      "only scheduling.k8s.io's kinds");
	const char *r = "resource.k8s.io";
	for (int m = 35; m <= 37; m++)
		CHECK(pk_release_serves(m, r, "ResourceClaim", "v1") && pk_release_serves(m, r, "DeviceClass", "v1") &&
		      !pk_release_serves(m, r, "ResourceClaimTemplate", "v1beta1") &&
		      !pk_release_serves(m, r, "ResourceClaim", "v1beta2") && !pk_release_serves(m, r, "ResourceSlice", "v1alpha3"),
		      "1.%d serves resource.k8s.io/v1 only (its betas are off by default)", m);
}

/* The DRA gates of the apiserver's drop-disabled-fields, per release, as
 * the versioned specs of pkg/features/kube_features.go say. */
static void test_dra_gates(void)
{
	static const struct {
		pk_gate_id id;
		const char *name;
		struct { bool exists; pk_gate_stage stage; bool on, locked; } at[3]; /* 1.35, 1.36, 1.37 */
	} rows[] = {
		{PK_GATE_DRA_CONSUMABLE_CAPACITY, "DRAConsumableCapacity",
		 {{true, PK_GATE_ALPHA, false, false}, {true, PK_GATE_BETA, true, false}, {true, PK_GATE_BETA, true, false}}},
		{PK_GATE_DRA_DEVICE_TAINTS, "DRADeviceTaints",
		 {{true, PK_GATE_ALPHA, false, false}, {true, PK_GATE_BETA, true, false}, {true, PK_GATE_GA, true, false}}},
		/* KEP-5055: beta off in 1.36 (an off-by-default beta API), GA on in 1.37 */
		{PK_GATE_DRA_DEVICE_TAINT_RULES, "DRADeviceTaintRules",
		 {{true, PK_GATE_ALPHA, false, false}, {true, PK_GATE_BETA, false, false}, {true, PK_GATE_GA, true, false}}},
		{PK_GATE_DRA_EXTENDED_RESOURCE, "DRAExtendedResource",
		 {{true, PK_GATE_ALPHA, false, false}, {true, PK_GATE_BETA, true, false}, {true, PK_GATE_GA, true, true}}},
		{PK_GATE_DRA_DERIVED_ATTRIBUTES, "DRADerivedAttributes",
		 {{false, PK_GATE_ALPHA, false, false}, {false, PK_GATE_ALPHA, false, false}, {true, PK_GATE_ALPHA, false, false}}},
		/* KEP-5517: one versioned row, 1.36 alpha (#136725); 1.37's alpha2 (#140009) keeps it */
		{PK_GATE_DRA_NODE_ALLOCATABLE_RESOURCES, "DRANodeAllocatableResources",
		 {{false, PK_GATE_ALPHA, false, false}, {true, PK_GATE_ALPHA, false, false}, {true, PK_GATE_ALPHA, false, false}}},
		{PK_GATE_DRA_PRIORITIZED_LIST, "DRAPrioritizedList",
		 {{true, PK_GATE_BETA, true, false}, {true, PK_GATE_GA, true, false}, {true, PK_GATE_GA, true, true}}},
		{PK_GATE_DRA_ADMIN_ACCESS, "DRAAdminAccess",
		 {{true, PK_GATE_BETA, true, false}, {true, PK_GATE_GA, true, true}, {true, PK_GATE_GA, true, true}}},
		{PK_GATE_DRA_PARTITIONABLE_DEVICES, "DRAPartitionableDevices",
		 {{true, PK_GATE_ALPHA, false, false}, {true, PK_GATE_BETA, true, false}, {true, PK_GATE_BETA, true, false}}},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		CHECK(pk_gate_lookup(rows[i].name) == rows[i].id, "%s is in the registry", rows[i].name);
		for (int m = 35; m <= 37; m++) {
			const pk_gate_release *r = pk_gate_at(rows[i].id, m);
			pk_feature_gates g;
			pk_feature_gates_default(&g);
			pk_feature_gates_set_release(&g, m);
			CHECK(r->exists == rows[i].at[m - 35].exists, "%s exists in 1.%d: %d", rows[i].name, m, r->exists);
			if (!r->exists)
				continue;
			CHECK(r->stage == rows[i].at[m - 35].stage && r->locked == rows[i].at[m - 35].locked,
			      "%s: stage and LockToDefault in 1.%d", rows[i].name, m);
			CHECK(pk_gate_on(&g, rows[i].id) == rows[i].at[m - 35].on && r->upstream_default == rows[i].at[m - 35].on,
			      "%s: upstream's default in 1.%d, and ours", rows[i].name, m);
		}
	}
	pk_feature_gates g;
	char err[300];
	pk_feature_gates_default(&g);
	pk_feature_gates_set_release(&g, 35);
	CHECK(parse(&g, "DRADeviceTaints=true", err) == 0 && pk_feature_gates_check_release(&g, err, sizeof err) == 0 &&
	      pk_gate_on(&g, PK_GATE_DRA_DEVICE_TAINTS) && !pk_gate_on(&g, PK_GATE_DRA_CONSUMABLE_CAPACITY),
	      "1.35: DRADeviceTaints=true turns that gate on alone");
	CHECK(parse(&g, "AllAlpha=true", err) == 0 && pk_gate_on(&g, PK_GATE_DRA_CONSUMABLE_CAPACITY) &&
	      pk_gate_on(&g, PK_GATE_DRA_EXTENDED_RESOURCE), "1.35: AllAlpha turns the alpha DRA gates on");
	pk_feature_gates_default(&g);
	CHECK(parse(&g, "DRAExtendedResource=false", err) == 0 && pk_feature_gates_check_release(&g, err, sizeof err) != 0,
	      "1.37: DRAExtendedResource is locked to true");
	CHECK_STR(err, "cannot set feature gate DRAExtendedResource to false, feature is locked to true",
	          "component-base's text for a locked gate");
	pk_feature_gates_set_release(&g, 36);
	CHECK(pk_feature_gates_check_release(&g, err, sizeof err) == 0 && !pk_gate_on(&g, PK_GATE_DRA_EXTENDED_RESOURCE),
	      "1.36: beta, it may be set false");
	pk_feature_gates_default(&g);
	CHECK(parse(&g, "DRAExtendedResource=true,DRADeviceTaints=false", err) == 0 &&
	      pk_feature_gates_check_release(&g, err, sizeof err) == 0 && !pk_gate_on(&g, PK_GATE_DRA_DEVICE_TAINTS),
	      "1.37: the locked value itself is accepted, and GA DRADeviceTaints (not locked) may be off");
	pk_feature_gates_default(&g);
	pk_feature_gates_set_release(&g, 36);
	CHECK(parse(&g, "DRADerivedAttributes=true", err) == 0 && pk_feature_gates_check_release(&g, err, sizeof err) != 0,
	      "1.36 has no DRADerivedAttributes");
	CHECK_STR(err, "unrecognized feature gate: DRADerivedAttributes (Kubernetes 1.36 does not have it; it arrives in 1.37)",
	          "and says when it arrives");
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
	test_releases();
	test_served();
	test_dra_gates();
	return T_DONE();
}
