/* The release profile; see profile.h. */
#include "k8s/profile.h"

#include <stddef.h>

/* What each release modelled does, as upstream's code at that release
 * does it (the changes named in profile.h). One row per release, oldest
 * first: a new release is one more row. */
typedef struct release_row {
	int minor;
	bool gang_scheduling_modelled;
	bool composite_pod_group_served;
	bool group_priority_authoritative;
	bool wap_follows_generic_workload;
	pk_postfilter_gating postfilter_gating;
	bool pod_group_status_prefix;
	bool in_place_reprieve;
	bool topology_refusal_own_message;
	bool terminating_victims_in_progress;
	bool unschedulable_code_for_no_victims;
	bool disruption_mode_string;
	bool balanced_allocation_change;
} release_row;

static const release_row rows[] = {
	{ .minor = 35,
	  .gang_scheduling_modelled = false,    /* answered as 1.36 (pk_pg_release_caveat says so) */
	  .composite_pod_group_served = false,
	  .group_priority_authoritative = false,
	  .wap_follows_generic_workload = false,
	  .postfilter_gating = PK_POSTFILTER_GATED_PER_GATE,
	  .pod_group_status_prefix = false,
	  .in_place_reprieve = false,
	  .topology_refusal_own_message = false,
	  .terminating_victims_in_progress = false,
	  .unschedulable_code_for_no_victims = false,
	  .disruption_mode_string = true,
	  .balanced_allocation_change = false },
	{ .minor = 36,
	  .gang_scheduling_modelled = true,
	  .composite_pod_group_served = false,
	  .group_priority_authoritative = false,
	  .wap_follows_generic_workload = false,
	  .postfilter_gating = PK_POSTFILTER_GATED_PER_GATE,
	  .pod_group_status_prefix = false,
	  .in_place_reprieve = false,
	  .topology_refusal_own_message = false,
	  .terminating_victims_in_progress = false,
	  .unschedulable_code_for_no_victims = false,
	  .disruption_mode_string = true,     /* v1alpha2 PodGroup */
	  .balanced_allocation_change = true }, /* #135573 */
	{ .minor = 37,
	  .gang_scheduling_modelled = true,
	  .composite_pod_group_served = true,   /* v1alpha3, #139596 */
	  .group_priority_authoritative = true, /* #137981, #139030 */
	  .wap_follows_generic_workload = true, /* #139520 */
	  .postfilter_gating = PK_POSTFILTER_GATED_BY_GENERIC_WORKLOAD,
	  .pod_group_status_prefix = true,
	  .in_place_reprieve = true,
	  .topology_refusal_own_message = true,
	  .terminating_victims_in_progress = true,
	  .unschedulable_code_for_no_victims = true,
	  .disruption_mode_string = false,    /* v1beta1/v1alpha3 {single:{}}|{all:{}} */
	  .balanced_allocation_change = true },
};

_Static_assert(sizeof rows / sizeof rows[0] == PK_K8S_NRELEASES, "one row per release modelled");

static const release_row *row_of(int minor)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (rows[i].minor == minor)
			return &rows[i];
	return &rows[sizeof rows / sizeof rows[0] - 1]; /* unreachable: the option layer checks the range */
}

void pk_release_profile_of(pk_release_profile *p, const pk_feature_gates *g)
{
	const release_row *r = row_of(g->k8s_minor);
	p->minor = r->minor;
	p->gang_scheduling_modelled = r->gang_scheduling_modelled;
	p->composite_pod_group_served = r->composite_pod_group_served;
	p->group_priority_authoritative = r->group_priority_authoritative;
	p->wap_follows_generic_workload = r->wap_follows_generic_workload;
	p->postfilter_gating = r->postfilter_gating;
	p->pod_group_status_prefix = r->pod_group_status_prefix;
	p->balanced_allocation_change = r->balanced_allocation_change;
	p->in_place_reprieve = r->in_place_reprieve;
	p->topology_refusal_own_message = r->topology_refusal_own_message;
	p->terminating_victims_in_progress = r->terminating_victims_in_progress;
	p->unschedulable_code_for_no_victims = r->unschedulable_code_for_no_victims;
	p->disruption_mode_string = r->disruption_mode_string;

	p->generic_workload = pk_gate_on(g, PK_GATE_GENERIC_WORKLOAD);
	p->workload_aware_preemption_gate = r->wap_follows_generic_workload ? "GenericWorkload" : "WorkloadAwarePreemption";
	p->workload_aware_preemption = r->wap_follows_generic_workload ? p->generic_workload
	                                                               : pk_gate_on(g, PK_GATE_WORKLOAD_AWARE_PREEMPTION);
	p->topology_aware = pk_gate_on(g, PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING);
	/* CompositePodGroup exists from 1.37 (alpha, off upstream); an input
	 * that holds CompositePodGroups comes from a cluster that serves them,
	 * so only an explicit CompositePodGroup=false turns the hierarchy off
	 * (our default, gates.c) */
	p->composite_pod_groups = pk_gate_on(g, PK_GATE_COMPOSITE_POD_GROUP);
	p->dra_workload_resource_claims = pk_gate_on(g, PK_GATE_DRA_WORKLOAD_RESOURCE_CLAIMS);
	p->pod_group_preemption_policy = pk_gate_on(g, PK_GATE_POD_GROUP_PREEMPTION_POLICY);
	p->dra_prioritized_list = pk_gate_on(g, PK_GATE_DRA_PRIORITIZED_LIST);
	p->dra_admin_access = pk_gate_on(g, PK_GATE_DRA_ADMIN_ACCESS);
	p->dra_device_taints = pk_gate_on(g, PK_GATE_DRA_DEVICE_TAINTS);
	p->dra_device_taint_rules = pk_gate_on(g, PK_GATE_DRA_DEVICE_TAINT_RULES);
	p->dra_consumable_capacity = pk_gate_on(g, PK_GATE_DRA_CONSUMABLE_CAPACITY);
	p->dra_extended_resource = pk_gate_on(g, PK_GATE_DRA_EXTENDED_RESOURCE);
	p->dra_derived_attributes = pk_gate_on(g, PK_GATE_DRA_DERIVED_ATTRIBUTES);
	p->dra_partitionable_devices = pk_gate_on(g, PK_GATE_DRA_PARTITIONABLE_DEVICES);
	p->groups_count_in_pod_preemption = p->generic_workload && r->group_priority_authoritative;
	p->resize_preemption = pk_gate_on(g, PK_GATE_IN_PLACE_RESIZE_SCHEDULER_PREEMPTION);
	p->volume_limit_scaling = pk_gate_on(g, PK_GATE_VOLUME_LIMIT_SCALING);
	p->dra_node_allocatable = pk_gate_on(g, PK_GATE_DRA_NODE_ALLOCATABLE_RESOURCES);
	p->resize_preemption_gate_exists = pk_gate_at(PK_GATE_IN_PLACE_RESIZE_SCHEDULER_PREEMPTION, g->k8s_minor)->exists;
	p->resize_preemption_since = PK_K8S_MINOR_NEWEST;
	for (int m = PK_K8S_MINOR_NEWEST; m >= PK_K8S_MINOR_OLDEST; m--)
		if (pk_gate_at(PK_GATE_IN_PLACE_RESIZE_SCHEDULER_PREEMPTION, m)->exists)
			p->resize_preemption_since = m;
}

bool pk_release_disruption_mode_string(int minor)
{
	return row_of(minor)->disruption_mode_string;
}
