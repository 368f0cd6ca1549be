/* The release profile (k8s/profile.h): each release modelled has the
 * behaviours upstream's code has in it, and the gates change the derived
 * ones as upstream's gates do. */
#include <stdio.h>
#include <string.h>

#include "t.h"
#include "k8s/profile.h"
#include "k8s/release.h"

static pk_release_profile profile(int minor, const char *gates)
{
	pk_feature_gates fg;
	char err[256];
	pk_feature_gates_default(&fg);
	pk_feature_gates_set_release(&fg, minor);
	if (gates)
		CHECK(pk_feature_gates_parse(&fg, gates, err, sizeof err) == 0, "1.%d: %s parsed (%s)", minor, gates, err);
	pk_release_profile p;
	pk_release_profile_of(&p, &fg);
	return p;
}

static void test_rows(void)
{
	pk_release_profile p35 = profile(35, NULL), p36 = profile(36, NULL), p37 = profile(37, NULL);
	CHECK(p35.minor == 35 && p36.minor == 36 && p37.minor == 37, "the resolved release");
	CHECK(!p35.gang_scheduling_modelled && p36.gang_scheduling_modelled && p37.gang_scheduling_modelled,
	      "1.35's Permit-time gang scheduling is not modelled (answered as 1.36)");
	CHECK(!p36.in_place_reprieve && p37.in_place_reprieve, "1.37 reprieves in place (#139980), 1.36 does not");
	CHECK(!p35.balanced_allocation_change && p36.balanced_allocation_change && p37.balanced_allocation_change,
	      "BalancedAllocation scores the change in balance from 1.36 (#135573)");
	CHECK(!p36.group_priority_authoritative && p37.group_priority_authoritative,
	      "1.37: a PodGroup's priority counts pod by pod (#137981, #139030)");
	CHECK(!p36.wap_follows_generic_workload && p37.wap_follows_generic_workload,
	      "1.37: WorkloadAwarePreemption removed, GenericWorkload switches it (#139520)");
	CHECK(p36.postfilter_gating == PK_POSTFILTER_GATED_PER_GATE &&
	      p37.postfilter_gating == PK_POSTFILTER_GATED_BY_GENERIC_WORKLOAD, "the per-pod PostFilter's gating");
	CHECK(!p36.pod_group_status_prefix && p37.pod_group_status_prefix, "1.37 prefixes PodGroupPostFilter's messages");
	CHECK(!p36.topology_refusal_own_message && p37.topology_refusal_own_message,
	      "1.37: PodGroupPostFilter refuses a group with constraints itself");
	CHECK(!p36.terminating_victims_in_progress && p37.terminating_victims_in_progress,
	      "1.37: a terminating victim is preemption in progress");
	CHECK(!p36.unschedulable_code_for_no_victims && p37.unschedulable_code_for_no_victims,
	      "no victims: 1.37 Unschedulable, 1.36 UnschedulableAndUnresolvable");
	CHECK(!p36.composite_pod_group_served && p37.composite_pod_group_served, "CompositePodGroup from 1.37");
	for (int m = PK_K8S_MINOR_OLDEST; m <= PK_K8S_MINOR_NEWEST; m++) {
		pk_release_profile p = profile(m, NULL);
		/* the table agrees with the apiserver table (release.c) */
		CHECK(p.composite_pod_group_served == pk_release_serves(m, "scheduling.k8s.io", "CompositePodGroup", "v1alpha3"),
		      "1.%d: CompositePodGroup served as release.c says", m);
		CHECK(p.disruption_mode_string == !pk_release_serves(m, "scheduling.k8s.io", "PodGroup", "v1beta1"),
		      "1.%d: disruptionMode a string where v1beta1's union is not served", m);
		CHECK(p.disruption_mode_string == pk_release_disruption_mode_string(m), "1.%d: the record writers' lookup", m);
	}
}

static void test_gates(void)
{
	pk_release_profile p = profile(37, NULL);
	CHECK(p.generic_workload && p.workload_aware_preemption && !p.topology_aware && p.composite_pod_groups &&
	      p.groups_count_in_pod_preemption, "1.37 defaults");
	CHECK_STR(p.workload_aware_preemption_gate, "GenericWorkload", "1.37: the gate that switches it");
	p = profile(37, "GenericWorkload=false");
	CHECK(!p.workload_aware_preemption && !p.groups_count_in_pod_preemption,
	      "1.37, GenericWorkload off: neither workload-aware preemption nor group priority pod by pod");
	p = profile(37, "CompositePodGroup=false");
	CHECK(!p.composite_pod_groups && p.composite_pod_group_served, "1.37, CompositePodGroup=false: not read");
	p = profile(36, NULL);
	CHECK(p.generic_workload && p.workload_aware_preemption && !p.groups_count_in_pod_preemption &&
	      !p.composite_pod_groups, "1.36 defaults: PodGroups count in workload-aware preemption only");
	CHECK_STR(p.workload_aware_preemption_gate, "WorkloadAwarePreemption", "1.36: its own gate");
	p = profile(36, "WorkloadAwarePreemption=false,TopologyAwareWorkloadScheduling=true");
	CHECK(!p.workload_aware_preemption && p.topology_aware && p.generic_workload, "1.36: two gates set");
}

int main(void)
{
	test_rows();
	test_gates();
	return T_DONE();
}
