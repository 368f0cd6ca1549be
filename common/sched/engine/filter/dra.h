/* DynamicResources (pkg/scheduler/framework/plugins/dynamicresources) over
 * the DRA objects of the input (k8s/dra.h), its first slice: a pod's claims
 * looked up once (PreFilter: upstream's messages, all
 * UnschedulableAndUnresolvable), then per node (Filter) an allocated
 * claim's node selector and the allocation of the unallocated ones from the
 * node's ResourceSlices out of the devices no claim holds (ExactCount and
 * All, DeviceClass and request selectors through k8s/cel.h; a selector that
 * does not compile is upstream's error, never a match).
 *
 * Through 1.37 the plugin has no PreFilterExtensions (AddPod/RemovePod):
 * the preemption dry run does not see a victim's devices freed, and its
 * rejections are UnschedulableAndUnresolvable, so no node that lacks devices
 * is a preemption candidate (--dra-preemption=kep-5690 answers as the
 * unmerged KEP-5690 proposes instead: pk_dra_node_fits_in_cycle). Its
 * Filter reads claims, not the node's pods:
 * a pod with claims leaves the arithmetic path and the memo
 * (pk_arithmetic_applies). */
#ifndef PK_SCHED_DRA_H
#define PK_SCHED_DRA_H

#include <stdbool.h>

#include "sched/engine/filter/filter.h"

struct pk_dra_claim; /* k8s/dra.h */

/* Which devices the snapshot's claims hold, indexed once (the first cycle,
 * single-threaded). */
void pk_dra_resolve_all(pk_snapshot *s);

/* The PreFilter for pod, once: nothing when the input holds no DRA object
 * (the pod keeps its "resourceClaims not modelled" warning) or a claim uses
 * what this slice does not model (said in the warning); otherwise the
 * warning is cleared. Single-threaded. */
void pk_dra_resolve(pk_snapshot *s, const pk_pod *pod);

/* What the pod's answer assumes of its claims, one warning each, i from 0
 * (NULL past the last): those made from their ResourceClaimTemplates because
 * the input does not hold them yet (as the resourceclaim controller makes
 * them) and the other assumptions of the PreFilter (capacity requests
 * ignored, NoExecute taints, what is not modelled), one warning each, then
 * under --dra-preemption=kep-5690 that the answer is the proposal's. */
const char *pk_dra_assumption(const pk_pod *pod, int i);

/* The PreFilter rejected the pod: *out is its status, for every node. */
bool pk_dra_prefilter_rejects(const pk_pod *pod, pk_status *out);
/* The Filter for pod on n: false with *out set when it fails. */
bool pk_dra_node_fits(const pk_snapshot *s, const pk_pod *pod, const pk_node *n, pk_status *out);

/* The Filter for pod on ni within cycle c: pk_dra_node_fits, or with the
 * snapshot's dra_kep5690 (--dra-preemption=kep-5690) as KEP-5690 proposes
 * (not merged; dra_preempt.c): the claims of the pods the cycle's dry run
 * has taken off ni that are reserved for no other pod, their devices
 * node-local, count as deallocated, and "cannot allocate all claims" is
 * Unschedulable, so that preemption may evict their holders; the pods
 * nominated to ni among extra (priority at least pod's) hold the devices
 * the allocator picks for them there (the proposal's claim nomination).
 * Then, on the same view, the node-allocatable footprint of the devices
 * picked (pk_dra_nodealloc_fits, add: the nominated pods' requests). */
struct pk_cycle;
bool pk_dra_node_fits_in_cycle(const struct pk_cycle *c, const pk_pod *pod, const pk_nodeinfo *ni,
                               pk_pod *const *extra, int nextra, const pk_res *add, pk_status *out);

/* Under --dra-preemption=kep-5690 (the snapshot's dra_kep5690), for
 * reports: sets victims[0..n).devices, the devices of the allocated claims
 * reserved for each victim of a candidate on node, each freed for preemptor
 * as the proposal's dry run releases it (every pod the claim is reserved for
 * among the victims, its devices published for the victim's node by
 * spec.nodeName, the preemptor of no PodGroup) or kept, with why (a claim
 * shared by two victims is listed under both). Returns the one malloc'd
 * block they point into (free it after the refs), NULL when no victim has a
 * device or the option is off. Reads the snapshot only (threads). */
struct pk_victim_ref;
struct pk_victim_device *pk_dra_victims_devices(const pk_snapshot *s, const pk_pod *preemptor, const char *node,
                                                struct pk_victim_ref *victims, int n);

/* Does a DeviceClass back the extended resource (DRAExtendedResource on
 * in the release)? NodeResourcesFit then leaves it to DynamicResources on a
 * node whose allocatable does not list it (fit.go fitsRequest). */
bool pk_dra_backs_resource(const pk_snapshot *s, const char *resource);

/* Does the plugin run for pod (its claims resolved and modelled)? */
bool pk_dra_applies(const pk_pod *pod);
/* Does it allocate devices to one of the pod's claims (one not allocated
 * in the input)? */
bool pk_dra_allocates(const pk_pod *pod);

/* Play allocations forward in a simulation (the snapshot's bind and
 * delete hooks): a pod bound gets the devices the allocator picks on its
 * node for its unallocated claims (in the Filter's order: the pod's claims,
 * their requests, the node's slices by driver, pool and name, their devices
 * as listed) and every claim of it reserved for it; a pod gone (evicted,
 * deleted) leaves reservedFor, and a claim left unreserved is deallocated
 * as the resourceclaim controller does, its devices free for later pods.
 * Nothing when the input holds no DRA object. */
void pk_dra_play_forward(pk_snapshot *s);

/* One device a pod placed on a node uses: of a claim allocated now (the
 * allocator's pick) or before (the claim's allocation). */
typedef struct pk_dra_pick {
	const char *claim_namespace, *claim_name;
	const char *request, *driver, *pool, *device;
	bool allocated_before;
	bool group_shared;              /* another member of the pod's group placed in the
	                                 * same cycle uses the claim too (pk_dra_devices_in_order) */
	/* DRAConsumableCapacity: a share of the device (the result's shareID,
	 * NULL: the device is the claim's alone) and its consumedCapacity
	 * (has_consumed: the result has one, even empty; the entries live in
	 * the block of the picks) */
	const char *share_id;
	const struct pk_dra_capacity_amount *consumed; /* k8s/dra.h */
	int nconsumed;
	bool has_consumed;
} pk_dra_pick;

/* The devices pod gets on n, claim by claim as the pod lists them, into
 * *out (malloc'd; NULL when none): how many. What the bind hook of
 * pk_dra_play_forward then allocates. */
int pk_dra_devices_on(const pk_snapshot *s, const pk_pod *pod, const pk_node *n, pk_dra_pick **out);
/* v[0..n) copied into arena, their consumedCapacity with them (which
 * pk_dra_devices_on keeps in its block); NULL when n is 0. */
pk_dra_pick *pk_dra_picks_copy(pk_arena *arena, const pk_dra_pick *v, int n);

/* ---- a pod group's members in one cycle (dra_gang.c) ----
 *
 * Upstream's pod-group scheduling cycle (schedule_one_podgroup.go
 * podGroupPodSchedulingAlgorithm) assumes and Reserves each member placed
 * before the next is filtered; DynamicResources' Reserve signals the
 * member's allocation in flight (SignalClaimPendingAllocation), so a later
 * member's allocator sees those devices taken, and a claim the members
 * share (one claim each names, e.g. a PodGroup's resourceClaims) is
 * allocated once, by the first, the others pinned to that allocation. */
typedef struct pk_dra_assumed pk_dra_assumed;
pk_dra_assumed *pk_dra_assumed_new(void);
/* Reserve: pod placed on n allocates its claims there (nothing when the
 * plugin does not run for it or the input holds no DRA object). */
void pk_dra_assume(pk_snapshot *s, pk_dra_assumed *a, const pk_pod *pod, const pk_node *n);
/* Unreserve: pod's latest assumption taken back (its allocations undone). */
void pk_dra_forget(pk_snapshot *s, pk_dra_assumed *a, const pk_pod *pod);
/* Every assumption still held taken back, then freed. NULL: nothing. */
void pk_dra_assumed_free(pk_snapshot *s, pk_dra_assumed *a);

/* The devices each of pods[0..n) gets on nodes[i] (NULL: not placed)
 * placed in that order in one cycle, each after the ones before it took
 * theirs: into out[i] (malloc'd; NULL when none), counts into nout[i]. A
 * claim an earlier pod allocated is named allocated now, and a claim two
 * of them use is group_shared in both. The snapshot is left as it was. */
void pk_dra_devices_in_order(pk_snapshot *s, pk_pod *const *pods, const pk_node *const *nodes, int n,
                             pk_dra_pick **out, int *nout);

/* --explain: why DynamicResources' Filter rejects pod on n, in this tool's
 * words beside the scheduler's status, which says only "cannot allocate
 * all claims" or "resourceclaim not available on the node"
 * (dra_explain.c): the claim and request that cannot be met there, a cause
 * (claimAllocatedElsewhere, noMatchingDevice, notEnoughDevices,
 * devicesAllocated, devicesTainted, devicesUnavailable, notAllTogether,
 * celRuntimeError) and a sentence naming the devices and their holders.
 * False when the plugin does not run for pod. */
typedef struct pk_dra_why {
	char claim[600];                /* "namespace/name"; "" for the claims together */
	char request[300];              /* "" when not one request */
	const char *cause;
	char message[1500];
} pk_dra_why;
bool pk_dra_explain(const pk_pod *pod, const pk_node *n, pk_dra_why *w);

/* For a pod that stays pending: the devices its claims could use that
 * claims of lower-priority pods hold (driver/pool/device, holders
 * namespace/name), and why preemption does not free them in the release
 * (one sentence), or NULL when there are none. */
const char *pk_dra_held_devices_note(const pk_pod *pod);

/* The indices in set->slices of the slices that publish devices on node n
 * (theirs by spec.nodeName, or allNodes, or a nodeSelector that admits it),
 * in the set's order (driver, pool, name: the allocator's), into *out, to
 * free; returns how many (dra_slices.c). */
long pk_dra_node_slices(const struct pk_dra_set *set, const pk_node *n, long **out);
/* May an allocated claim be used on node n (its allocation's node selector,
 * or the node it was allocated on in this run)? (dra_slices.c) */
bool pk_dra_allocation_on_node(const struct pk_dra_claim *c, const pk_node *n);

/* DeviceTaintRules (DRADeviceTaintRules, dra_slices.c). The scheduler's
 * view of the slices (the resourceslice tracker): each rule's taint
 * appended to the taints of the devices it selects, after their own, the
 * rules in name order (upstream's: its informer's, which the allocator's
 * "any untolerated taint" does not depend on); once per slice, nothing with
 * the gate off (set->off). Taints in arena. */
struct pk_arena;
void pk_dra_apply_taint_rules(struct pk_dra_set *set, struct pk_arena *arena);
/* What an answer for a pod with these claims assumes: an allocated one
 * holds a device with a NoExecute taint (a rule's, named, or its slice's)
 * its request does not tolerate, whose eviction is not modelled. Text into
 * buf; false when none (or DRADeviceTaints off). */
bool pk_dra_noexecute_note(const pk_snapshot *s, const struct pk_dra_claim *const *claims, int n, char *buf,
                           size_t size);
/* For the input: claims in use with such devices (their pods' eviction
 * not modelled), else, when pods use claims (claims), slices with devices
 * and no DeviceTaintRule read while the gate is on: which `kubectl get`
 * belongs in the input. */
bool pk_dra_taint_rules_hint(const pk_snapshot *s, bool claims, char *buf, size_t size);

/* Does the input hold one of DRA's four kinds (DeviceTaintRules alone
 * are not DRA's objects for a pod's claims)? */
bool pk_dra_input_has_objects(const pk_snapshot *s);
/* Which `kubectl get` the input lacks for the claims of pods[0..n): no DRA
 * object at all while pods use claims; with them, what
 * pk_dra_taint_rules_hint says. Text into buf; false when nothing is
 * missing. */
bool pk_dra_input_hint(const pk_snapshot *s, pk_pod *const *pods, long n, char *buf, size_t size);

#endif
