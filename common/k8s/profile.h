/* The release profile: what differs between the Kubernetes releases
 * modelled, by name, computed once from --kubernetes-version and
 * --feature-gates (pk_release_profile_of) and read everywhere else. No
 * code outside common/k8s/ compares a release number with a constant
 * (test/release-profile.bats keeps it so): a behaviour that changes in a
 * new release is one more row of profile.c's table and, where it is new,
 * one more field here. */
#ifndef PK_PROFILE_H
#define PK_PROFILE_H

#include <stdbool.h>

#include "k8s/gates.h"

/* How DefaultPreemption's per-pod PostFilter treats a pod that names a
 * pod group (pk_postfilter_group_gate). */
typedef enum {
	/* 1.36: TopologyAwareWorkloadScheduling stops a pod whose group is
	 * missing or has constraints, then WorkloadAwarePreemption stops it */
	PK_POSTFILTER_GATED_PER_GATE,
	/* 1.37 (#139520): GenericWorkload alone sends every pod of a group to
	 * workload-aware preemption (the topology check moved to
	 * PodGroupPostFilter) */
	PK_POSTFILTER_GATED_BY_GENERIC_WORKLOAD,
} pk_postfilter_gating;

typedef struct pk_release_profile {
	int minor;                 /* Kubernetes 1.<minor>, resolved (never 0) */

	/* ---- the gates the tools read, at their final values ---- */
	bool generic_workload;     /* GenericWorkload: schedulingGroup / PodGroup honoured */
	bool workload_aware_preemption; /* PodGroupPostFilter runs: GenericWorkload where
	                            * wap_follows_generic_workload, else the
	                            * WorkloadAwarePreemption gate */
	const char *workload_aware_preemption_gate; /* the gate that switches it, by name */
	bool topology_aware;       /* TopologyAwareWorkloadScheduling */
	bool composite_pod_groups; /* CompositePodGroup hierarchies honoured (the gate) */
	bool dra_workload_resource_claims; /* DRAWorkloadResourceClaims (pc-validate; the scheduler's podGroupResourceClaim) */
	bool pod_group_preemption_policy;  /* PodGroupPreemptionPolicy (the apiserver's, pc-validate) */
	/* the apiserver's DRA gates whose fields it drops on create when off
	 * (pc-validate): firstAvailable; adminAccess; tolerations; capacity and
	 * distinctAttribute; a DeviceClass's extendedResourceName;
	 * derivedAttributes */
	bool dra_prioritized_list, dra_admin_access, dra_device_taints;
	bool dra_consumable_capacity, dra_extended_resource, dra_derived_attributes;
	bool dra_partitionable_devices; /* DRAPartitionableDevices (the allocator's counters) */
	bool dra_device_taint_rules;    /* DRADeviceTaintRules (the tracker applies DeviceTaintRules) */
	/* PodGroup priority and disruptionMode count in pod-by-pod scheduling
	 * and preemption too (the release's rule, with GenericWorkload on) */
	bool groups_count_in_pod_preemption;
	/* KEP-5836 (#140000): a bound pod whose in-place resize the kubelet
	 * Deferred is queued and may preempt on its own node
	 * (InPlacePodVerticalScalingSchedulerPreemption, alpha in 1.37);
	 * resize_preemption_gate_exists: the release has the gate at all */
	bool resize_preemption;
	bool volume_limit_scaling;    /* NodeVolumeLimits honours CSIDriver preventPodSchedulingIfMissing */
	/* DRANodeAllocatableResources: bound pods' DRA node-allocatable claim
	 * statuses count in their node's requests (KEP-5517) */
	bool dra_node_allocatable;
	bool resize_preemption_gate_exists;
	int resize_preemption_since;  /* the first release with the gate (its minor) */

	/* ---- behaviours by release (the table), whatever the gates ---- */
	bool gang_scheduling_modelled;       /* 1.35's Permit-time gang scheduling is not (answered as 1.36) */
	bool composite_pod_group_served;     /* the release has CompositePodGroup (v1alpha3, 1.37) */
	bool group_priority_authoritative;   /* #137981, #139030: a PodGroup's priority and
	                                      * disruptionMode count pod by pod, not only in
	                                      * workload-aware preemption */
	bool wap_follows_generic_workload;   /* #139520: the WorkloadAwarePreemption gate removed */
	pk_postfilter_gating postfilter_gating;
	bool pod_group_status_prefix;        /* PodGroupPostFilter prefixes its messages
	                                      * ("pod group preemption: ") */
	bool in_place_reprieve;              /* the group's reprieve re-places members in place */
	bool topology_refusal_own_message;   /* PodGroupPostFilter refuses a group with constraints
	                                      * itself (PK_R_TOPOLOGY, else PK_R_GROUP_TAS) */
	bool terminating_victims_in_progress; /* a victim still terminating on a member's node:
	                                      * preemption in progress (IsPodGroupWaitingForVictims) */
	bool unschedulable_code_for_no_victims; /* no victim units: Unschedulable, else
	                                      * UnschedulableAndUnresolvable */
	bool disruption_mode_string;         /* records spell disruptionMode as v1alpha2's string
	                                      * ("Pod"|"PodGroup"), else {single:{}}|{all:{}} */
	bool balanced_allocation_change;     /* #135573 (1.36): NodeResourcesBalancedAllocation
	                                      * scores the change in balance the pod brings,
	                                      * 50 + (50 + with - without) / 2, else the
	                                      * balance with it, (1 - std) * 100 */
} pk_release_profile;

/* The profile of the release g answers for (g->k8s_minor, within the
 * modelled range) with g's gates at their final values. */
void pk_release_profile_of(pk_release_profile *p, const pk_feature_gates *g);
/* The table's disruption_mode_string for 1.<minor>, for the record writers,
 * which know the release a record names and not its gates. */
bool pk_release_disruption_mode_string(int minor);

#endif
