/* The DynamicResources plugin's parts among themselves (dra.c, dra_alloc.c,
 * dra_held.c): a pod's claims as resolved, and the allocator's entry. Not
 * for use outside sched/engine/filter. */
#ifndef PK_SCHED_ENGINE_FILTER_DRA_INT_H
#define PK_SCHED_ENGINE_FILTER_DRA_INT_H

#include <stdbool.h>

#include "k8s/cel.h"
#include "k8s/dra.h"
#include "sched/engine/filter/dra.h"

/* A pod's claims resolved (pk_pod_dra.resolved). */
typedef struct dra_res dra_res;
struct dra_res {
	pk_status reject;               /* the PreFilter's rejection (code SUCCESS: none) */
	const pk_dra_claim **claims;    /* the claims found, in spec order (skipped ones left out) */
	int nclaims;
	bool applies;                   /* modelled: the Filter runs */
	pk_snapshot *s;                 /* resolved against */
	const pk_pod *pod;              /* the pod of a per-pod resolution (claims from templates), else NULL */
	struct dra_res *next;           /* the con's other pods' */
	const char **assumes;           /* what the answer assumes (claims made from templates here, capacity
	                                 * ignored, NoExecute taints), one warning each; nassumes of them */
	int nassumes;
	const char *proposal;           /* PK_DRA_KEP5690_ASSUMPTION (pk_dra_kep5690_assume), or NULL */
	const pk_dra_claim *ext;        /* the claim for extended resources backed by DRA (the last of
	                                 * claims; dra_ext.c), or NULL */
	bool ext_stale;                 /* ext is a pending pod's claim of an earlier cycle (dra_ext.c) */
	const char **ext_resources;     /* per request of ext when made here: its extended resource */
	const char *held_note;          /* pk_dra_held_devices_note, as of the set's generation: */
	long held_note_gen;             /* 0: not computed yet */
};

/* A pod's resolution: the con's, or of a con whose claims come from
 * templates (every pod its own claims) the pod's, which pk_dra_resolve
 * keeps first; NULL when not resolved. */
const dra_res *pk_dra_resolution(const pk_pod *pod);

/* Does c's status.reservedFor name the pod (by uid, or by name)? */
bool pk_dra_reserved_for(const pk_dra_claim *c, const pk_pod *pod);

typedef enum { SEL_NO, SEL_YES, SEL_ERROR } sel_verdict;

/* A device of the node: its slice and index. */
typedef struct dev_at {
	const pk_dra_slice *slice;
	const pk_dra_device *dev;
} dev_at;

/* What the allocator chose: per want (claim by claim, request by request),
 * its devices in the order they were picked. */
typedef struct alloc_out {
	int *first;                     /* per want: index of its first device in devs */
	int *count;                     /* per want */
	dev_at *devs;
	int ndevs;
	const char **names;             /* per want: the request's name, a subrequest's "<request>/<sub>" */
	bool *admin;                    /* per want: its request asks for admin access */
	const pk_dra_request **rqs;     /* per want: the request (a subrequest: the one chosen) */
	bool *shared;                   /* per device of devs: a share of it (DRAConsumableCapacity) */
	int nwants;
} alloc_out;

/* Partitionable devices' counters on one node (dra_counters.c). */
typedef struct dra_counters dra_counters;
/* For the node's devices devs: NULL when none consumes counters. */
dra_counters *pk_dra_counters_new(const pk_dra_set *s, const dev_at *devs, int ndevs);
/* Take device d's counters (true), or false, nothing taken, when a counter
 * of its pool would be used beyond what is available. NULL c: true. */
bool pk_dra_counters_take(dra_counters *c, int d);
void pk_dra_counters_give(dra_counters *c, int d);
void pk_dra_counters_free(dra_counters *c);

/* Consumable capacity on one node (dra_capacity.c; DRAConsumableCapacity). */
typedef struct dra_capacity dra_capacity;
/* For the node's devices devs: NULL when the release's gate is off or the
 * input has no device that allows multiple allocations, no request for
 * capacity and no requestPolicy (nothing to check). */
dra_capacity *pk_dra_capacity_new(const pk_dra_set *s, const dev_at *devs, int ndevs);
void pk_dra_capacity_free(dra_capacity *c);
/* Does device d allow multiple allocations (the gate on)? Has it shares
 * now, allocated or picked? NULL c: false. */
bool pk_dra_capacity_shared(const dra_capacity *c, int d);
bool pk_dra_capacity_in_use(const dra_capacity *c, int d);
/* Does device d's capacity take request rq, with what its shares consume
 * and, with allocating, what the picks so far do? NULL c: true. */
bool pk_dra_capacity_fits(const dra_capacity *c, int d, const pk_dra_request *rq, bool allocating);
/* A pick of a shared device d for rq consumes (take) or gives back. */
void pk_dra_capacity_take(dra_capacity *c, int d, const pk_dra_request *rq);
void pk_dra_capacity_give(dra_capacity *c, int d, const pk_dra_request *rq);
/* What rq consumes of dv's capacities (a result's consumedCapacity), in
 * arena; *n entries (NULL when dv has none). */
pk_dra_capacity_amount *pk_dra_capacity_consumed(const pk_dra_device *dv, const pk_dra_request *rq, pk_arena *arena,
                                                 int *n);
/* The same into v (dv->ncapacity entries). */
void pk_dra_capacity_consumed_into(const pk_dra_device *dv, const pk_dra_request *rq, pk_dra_capacity_amount *v);

/* The shareID of the claim's index-th result (upstream's a random UID,
 * here "<claim>-share-<index>"), interned. */
const char *pk_dra_share_id(const pk_snapshot *s, const char *claim, int index);
/* Make x, the result of a share of device dv for request rq of claim c
 * (the claim's index-th result), a share: its shareID and consumedCapacity. */
void pk_dra_share_result(pk_snapshot *s, const pk_dra_claim *c, pk_dra_device_ref *x, const pk_dra_device *dv,
                         const pk_dra_request *rq, int index);
struct dra_res;
/* DRAConsumableCapacity off while an unallocated claim of r asks for
 * capacity: what the answer assumes then, into text (true). */
bool pk_dra_capacity_ignored(const pk_snapshot *s, const struct dra_res *r, char *text, size_t size);

/* A device as CEL sees it. */
pk_cel_device pk_dra_cel_view(const pk_dra_slice *sl, const pk_dra_device *dv);
/* The class's selectors, then the request's, for one device. */
sel_verdict pk_dra_device_matches(const pk_dra_class *cls, const pk_dra_request *rq, const pk_cel_device *d);
/* The same; on an error, with text, the allocator's (isSelectable's) error
 * for it: "class X: selector #i: CEL runtime error: ..." or, for a
 * selector of the request of claim c, "claim <ns>/<name>: ...". */
sel_verdict pk_dra_device_matches_why(const pk_dra_class *cls, const pk_dra_request *rq, const pk_dra_claim *c,
                                      const pk_cel_device *d, char *text, size_t size);

/* The taint of device dv that keeps request rq off it
 * (taintPreventsAllocation: a NoSchedule or NoExecute taint no toleration
 * of the request tolerates), or NULL. (dra_alloc.c) */
const pk_taint *pk_dra_untolerated_taint(const pk_dra_request *rq, const pk_dra_device *dv);

/* Can the pod's unallocated claims all be allocated on n? With out, what
 * the allocator picks (when it can; free with pk_dra_alloc_out_free).
 * *error: a CEL runtime error stopped it, and why (unless NULL) says it
 * as the allocator's error does. */
bool pk_dra_allocatable(const pk_snapshot *s, const dra_res *r, const pk_node *n, bool *error, char *why,
                        size_t whysize, alloc_out *out);
void pk_dra_alloc_out_free(alloc_out *o);

/* Reserve's allocation: the pod's claims not allocated yet get the devices
 * the allocator picks on n (held from now on; their device lists in s's
 * arena). *claims (malloc'd): every claim of the pod as asked on n (the
 * extended-resource claim mapped back), *fresh (malloc'd) per claim whether
 * this call allocated it. How many claims; -1, nothing allocated, when the
 * pod's claims do not apply or cannot be allocated on n. (dra.c) */
int pk_dra_allocate_on(pk_snapshot *s, const pk_pod *pod, const pk_node *n, pk_dra_claim ***claims, bool **fresh);

/* ---- extended resources backed by DRA (dra_ext.c) ---- */

/* Does the pod request an extended resource a DeviceClass backs, the
 * release's DRAExtendedResource on? */
bool pk_dra_ext_wanted(pk_snapshot *s, const pk_pod *pod);
/* Make the pod's extended-resource claim (ExactCount requests of the
 * classes, one per container and resource, as upstream's
 * createRequestsAndMappings makes them) and append it to r's claims (room
 * for one more); what it asks, for the assumption, into text. */
void pk_dra_ext_claim(pk_snapshot *s, const pk_pod *pod, dra_res *r, char *text, size_t size);
/* The pod's extended-resource claim in the input, or NULL. Upstream's
 * findExtendedResourceClaim takes the claim annotated
 * resource.kubernetes.io/extended-resource-claim "true" whose controller
 * ownerReference is the pod (name and uid); a snapshot's annotations and
 * ownerReference uids are not read (pk_snapshot_unused_members), so here:
 * the claim the pod owns by name whose name is upstream's generateName
 * <pod>-extended-resources-<suffix> (a pod name so long that upstream
 * truncated it is not found). */
const pk_dra_claim *pk_dra_ext_find(const pk_snapshot *s, const pk_pod *pod);
/* r as the Filter sees it on n: its extended-resource claim asks only for
 * the resources n's allocatable does not list (none: no claim there),
 * filterExtendedResources. Either r itself or v's copy (free with
 * pk_dra_view_free); pk_dra_view_claim maps a claim of the copy back. */
typedef struct dra_view {
	dra_res res;
	pk_dra_claim ext;
	const pk_dra_claim **claims;
	pk_dra_request *requests;
} dra_view;
const dra_res *pk_dra_on_node(const dra_res *r, const pk_node *n, dra_view *v);
const pk_dra_claim *pk_dra_view_claim(const dra_res *r, const dra_view *v, const pk_dra_claim *c);
void pk_dra_view_free(dra_view *v);

/* What an answer under --dra-preemption=kep-5690 assumes (dra_preempt.c):
 * r->proposal of a pod with a claim to allocate, an assumption of its own
 * after r->assumes' (pk_dra_assumption), so that every record, plan, table
 * footer and stderr line that gives the pod's assumptions says the answer
 * is the proposal's. Its last sentence is the proposal's settling window
 * (its "Preemption settling for DRA"), which no tool plays out in time. */
#define PK_DRA_KEP5690_ASSUMPTION \
	"DRA preemption as KEP-5690 proposes (--dra-preemption=kep-5690; kubernetes/enhancements#6113, not " \
	"merged, in no release): in the preemption dry run a victim's ResourceClaim reserved only for victims on " \
	"the node (its devices node-local) is released, its devices free for this pod (not for a pod of a " \
	"PodGroup); a claim shared with a pod " \
	"that stays is not. Kubernetes through 1.37 does not (--dra-preemption=release, the default): a pod that " \
	"needs devices that lower-priority pods hold stays pending, the devices and their holders named. The " \
	"devices the victims free become allocatable only when the resourceclaim controller has deallocated their " \
	"claims (the proposal's settling window): meanwhile the pod waits for its nominated node, starts no other " \
	"preemption while one of those claims is still allocated (no timeout), and its claim nomination holds the " \
	"devices against pods of its priority or lower; --simulate and --replay deallocate a victim's claims the " \
	"moment it is gone"
void pk_dra_kep5690_assume(pk_snapshot *s, dra_res *r);

#endif
