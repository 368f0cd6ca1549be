/* Upstream's words: every status reason and message the engine gives, as
 * kube-scheduler's code writes it (kubernetes/kubernetes, the files named;
 * test/unit/test_reasons.c drives the engine to each and compares what it
 * says with upstream's format, typed there from upstream's file). Changing
 * one here is changing what the tools say a cluster says. */
#ifndef PK_SCHED_REASONS_H
#define PK_SCHED_REASONS_H

/* ---- Filter plugins (pkg/scheduler/framework/plugins/) --------------------- */

/* nodeunschedulable/node_unschedulable.go ErrReasonUnschedulable */
#define PK_R_UNSCHEDULABLE "node(s) were unschedulable"
/* nodename/node_name.go ErrReason */
#define PK_R_NODE_NAME "node(s) didn't match the requested node name"
/* schedule_one.go findNodesThatFitPod: the nodes a PreFilterResult leaves
 * out (NodeName's, for a bound pod: its own node only) */
#define PK_R_NODE_NAME_PREFILTER "node(s) didn't satisfy plugin(s) [NodeName]"
/* deferredpodscheduling/deferred_pod_scheduling.go (KEP-5836, #140000):
 * ErrReasonNodeDisablesResizePreemption (Filter) and Permit's rejection of
 * a Deferred resize that fits (the kubelet actuates it) */
#define PK_R_RESIZE_DISABLED "node had resize preemption disabled"
#define PK_R_RESIZE_FITS "pod resize fits, waiting for Kubelet actuation"
/* tainttoleration/taint_toleration.go Filter, since #134740 (1.35, and
 * 1.34 by #135023): the taint is logged, not named; the records name it
 * (pk_untolerated_taint). Before: "node(s) had untolerated taint {%s: %s}". */
#define PK_R_TAINT "node(s) had untolerated taint(s)"
/* nodeaffinity/node_affinity.go ErrReasonPod */
#define PK_R_NODE_AFFINITY "node(s) didn't match Pod's node affinity/selector"
/* nodeports/node_ports.go ErrReason */
#define PK_R_PORTS "node(s) didn't have free ports for the requested pod ports"
/* noderesources/fit.go fitsRequest: "Too many pods", "Insufficient %v" */
#define PK_R_TOO_MANY_PODS "Too many pods"
#define PK_R_INSUFFICIENT "Insufficient %s"
#define PK_R_CPU "Insufficient cpu"
#define PK_R_MEMORY "Insufficient memory"
#define PK_R_EPHEMERAL "Insufficient ephemeral-storage"
/* podtopologyspread/plugin.go ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch */
#define PK_R_SPREAD "node(s) didn't match pod topology spread constraints"
#define PK_R_SPREAD_LABEL PK_R_SPREAD " (missing required label)"
/* interpodaffinity/filtering.go ErrReasonAffinityRulesNotMatch,
 * ErrReasonAntiAffinityRulesNotMatch, ErrReasonExistingAntiAffinityRulesNotMatch */
#define PK_R_POD_AFFINITY "node(s) didn't match pod affinity rules"
#define PK_R_POD_ANTI_AFFINITY "node(s) didn't match pod anti-affinity rules"
#define PK_R_EXISTING_ANTI_AFFINITY "node(s) didn't satisfy existing pods anti-affinity rules"

/* volumerestrictions/volume_restrictions.go ErrReasonDiskConflict,
 * ErrReasonReadWriteOncePodConflict */
#define PK_R_DISK_CONFLICT "node(s) had no available disk"
#define PK_R_RWOP_CONFLICT "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode"
/* nodevolumelimits/csi.go ErrReasonMaxVolumeCountExceeded */
#define PK_R_MAX_VOLUME_COUNT "node(s) exceed max volume count"
/* nodevolumelimits/csi.go, VolumeLimitScaling (#137343): a driver whose
 * CSIDriver sets preventPodSchedulingIfMissing, not on the node's CSINode
 * (Unschedulable); %s: the driver */
#define PK_R_CSI_DRIVER_MISSING "%s CSI driver is not installed on the node"
/* volumebinding/binder.go ConflictReasons (FindPodVolumes lists them in this
 * order) */
#define PK_R_VOLUME_NODE_CONFLICT "node(s) had volume node affinity conflict"
#define PK_R_VOLUME_BIND_CONFLICT "node(s) didn't find available persistent volumes to bind"
#define PK_R_VOLUME_PV_NOT_EXIST "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
/* volumebinding/volume_binding.go PreFilter and podHasPVCs (the first a
 * NotFound error of the lister, as VolumeRestrictions' PreFilter, which runs
 * first, returns it too) */
#define PK_R_PVC_NOT_FOUND "persistentvolumeclaim \"%s\" not found"
#define PK_R_PVC_LOST "persistentvolumeclaim \"%s\" bound to non-existent persistentvolume \"%s\""
#define PK_R_PVC_DELETING "persistentvolumeclaim \"%s\" is being deleted"
/* volumebinding podHasPVCs for a generic ephemeral volume: its claim not
 * made yet; component-helpers/storage/ephemeral VolumeIsForPod */
#define PK_R_EPHEMERAL_WAITING "waiting for ephemeral volume controller to create the persistentvolumeclaim \"%s\""
#define PK_R_PVC_NOT_FOR_POD "PVC %s/%s was not created for pod %s/%s (pod is not owner)"
#define PK_R_UNBOUND_IMMEDIATE "pod has unbound immediate PersistentVolumeClaims"
/* component-helpers/storage/volume/helpers.go IsDelayBindingMode (an Error) */
#define PK_R_NO_BINDING_MODE "VolumeBindingMode not set for StorageClass \"%s\""
/* volumezone/volume_zone.go ErrReasonConflict; its PreFilter's NotFound of
 * the claim's volume */
#define PK_R_VOLUME_ZONE "node(s) had no available volume zone"
#define PK_R_PV_NOT_FOUND "persistentvolume \"%s\" not found"
/* dynamicresources/dynamicresources.go (DynamicResources): PreFilter's
 * claims (foreachPodResourceClaim; dynamic-resource-allocation/resourceclaim
 * ErrClaimNotFound and ErrAPIUnsupported; the assume cache's NotFound;
 * resourceclaim.IsForPod; CanBeReserved), validateDeviceClass, and Filter's;
 * checked by the fixtures ported from its TestPlugin (test/fixtures/victims/
 * TestPlugin-*, DRA-*), not test_reasons.c's table */
#define PK_R_DRA_CLAIM_NOT_CREATED "pod \"%s/%s\": ResourceClaim not created yet"
#define PK_R_DRA_API_UNSUPPORTED "pod \"%s/%s\", spec.resourceClaim \"%s\": none of the supported fields are set"
#define PK_R_DRA_CLAIM_NOT_FOUND "could not find ResourceClaim \"%s/%s\""
/* resourceclaim.Name and IsForPod for a podGroupResourceClaim (DRAWorkloadResourceClaims) */
#define PK_R_DRA_GROUP_NO_CLAIM "PodGroup %s/%s does not have claim %s requested by Pod %s"
#define PK_R_DRA_GROUP_NOT_CREATED "PodGroup %s/%s: ResourceClaim not created yet"
#define PK_R_DRA_GROUP_UNSUPPORTED "PodGroup %s/%s, spec.resourceClaim %s: none of the supported fields are set"
#define PK_R_DRA_NOT_FOR_GROUP \
	"ResourceClaim %s/%s was not created for Pod %s/%s or PodGroup %s/%s (neither Pod nor PodGroup is the owner)"
#define PK_R_DRA_CLAIM_DELETING "resourceclaim \"%s\" is being deleted"
#define PK_R_DRA_NOT_FOR_POD "ResourceClaim %s/%s was not created for pod %s/%s (pod is not owner)"
#define PK_R_DRA_IN_USE "resourceclaim in use"
#define PK_R_DRA_UNSUPPORTED_REQUEST "request %s: unsupported request type"
#define PK_R_DRA_NO_CLASS "request %s: device class %s does not exist"
/* the allocator's (validateDeviceRequest) with DRAAdminAccess off: an Error */
#define PK_R_DRA_ADMIN_ACCESS_OFF "claim %s/%s, request %s: admin access is requested, but the feature is disabled"
#define PK_R_DRA_CANNOT_ALLOCATE "cannot allocate all claims"
#define PK_R_DRA_NOT_ON_NODE "resourceclaim not available on the node"
/* extendeddynamicresources.go filterExtendedResources: the pod's claim of an earlier cycle */
#define PK_R_DRA_EXT_STALE "cannot schedule extended resource claim"
/* nodeallocatabledynamicresources.go validateNodeAllocatableDRAClaimSharing (#140009) */
#define PK_R_DRA_NODEALLOC_SHARED "node allocatable resource claim %s has a mapped device and cannot be shared across pods"

/* ---- the scheduling cycle and FitError (pkg/scheduler/schedule_one.go,
 * framework/types.go) -------------------------------------------------------- */

/* schedule_one.go ErrNoNodesAvailable: no PostFilter runs after it */
#define PK_R_NO_NODES "no nodes available to schedule pods"
/* framework/types.go NoNodeAvailableMsg; FitError.Error() then ": " and the
 * "%v %v" (count, reason) histogram sorted as strings, joined by ", ", "." */
#define PK_R_FIT_ERROR "0/%ld nodes are available"

/* ---- DefaultPreemption (plugins/defaultpreemption/default_preemption.go,
 * framework/preemption/preemption.go) ---------------------------------------- */

/* default_preemption.go PostFilter: the prefix of its status message */
#define PK_R_PREEMPTION_PREFIX "preemption: "
/* default_preemption.go SelectVictimsOnNode */
#define PK_R_NO_VICTIMS "No preemption victims found for incoming pod"
/* preemption.go Preempt: the nodes no dry run was tried on */
#define PK_R_NOT_HELPFUL "Preemption is not helpful for scheduling"
/* default_preemption.go PodEligibleToPreemptOthers */
#define PK_R_NEVER "not eligible due to preemptionPolicy=Never."
#define PK_R_TERMINATING "not eligible due to a terminating pod on the nominated node."
/* default_preemption.go PostFilter, for a pod of a pod group */
#define PK_R_GATE_WAP "preemption: not eligible due to workload aware preemption enabled"
#define PK_R_GATE_NOT_FOUND "preemption: pod group for pod not found"
#define PK_R_GATE_TAS "preemption: not eligible due to placement-based pod group scheduling limitation"

/* ---- PodGroup preemption (framework/preemption/podgrouppreemption.go,
 * default_preemption.go PodGroupPostFilter) ---------------------------------- */

/* PodGroupPostFilter's prefix of every message, from 1.37 (at 1b8666f,
 * 1.36's, it returned the evaluator's status as it was) */
#define PK_R_POD_GROUP_PREFIX "pod group preemption: "
#define PK_R_NO_VICTIMS_GROUP "No preemption victims found for incoming preemptor"
#define PK_R_GROUP_TAS "not eligible due to placement-based pod group scheduling limitation"
#define PK_R_ONGOING "ongoing preemption on nominated nodes"
#define PK_R_TOPOLOGY "not supported with topology constraints"

#endif
