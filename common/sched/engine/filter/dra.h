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

/* What the pod's answer assumes of its claims: those made from their
 * ResourceClaimTemplates because the input does not hold them yet (as the
 * resourceclaim controller makes them), or NULL. */
const char *pk_dra_assumption(const pk_pod *pod);

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
} pk_dra_pick;

/* The devices pod gets on n, claim by claim as the pod lists them, into
 * *out (malloc'd; NULL when none): how many. What the bind hook of
 * pk_dra_play_forward then allocates. */
int pk_dra_devices_on(const pk_snapshot *s, const pk_pod *pod, const pk_node *n, pk_dra_pick **out);

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

/* Which `kubectl get` the input lacks for the claims of pods[0..n): no DRA
 * object at all while pods use claims. Text into buf; false when nothing is
 * missing. */
bool pk_dra_input_hint(const pk_snapshot *s, pk_pod *const *pods, long n, char *buf, size_t size);

#endif
