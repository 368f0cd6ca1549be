/* Dynamic Resource Allocation's objects (resource.k8s.io/v1, and the
 * v1beta1 request shape), decoded once into compact views: ResourceClaims,
 * ResourceClaimTemplates, DeviceClasses and ResourceSlices (`kubectl get
 * resourceclaims,resourceclaimtemplates,deviceclasses,resourceslices -A -o
 * json`), and the claims a pod's spec.resourceClaims name. The plugin that
 * reads them (DynamicResources) is the engine's (sched/engine/filter/dra.c).
 *
 * What this slice models: requests by ExactCount and All of one DeviceClass
 * with CEL selectors (k8s/cel.h), prioritized alternatives (firstAvailable),
 * allocated claims (their devices and node selector) and reservations,
 * matchAttribute and distinctAttribute constraints, node-local, node-selected and all-nodes
 * slices; device taints (NoSchedule, NoExecute) and the requests'
 * tolerations (DRADeviceTaints); adminAccess requests and results
 * (DRAAdminAccess); partitionable devices: a pool's sharedCounters and its
 * devices' consumesCounters (DRAPartitionableDevices); consumable capacity:
 * devices with allowMultipleAllocations and their capacities'
 * requestPolicy, requests' capacity.requests, results' shareID and
 * consumedCapacity (DRAConsumableCapacity). A claim that uses what it does
 * not model (constraints of another kind) says so in `unsupported`: its
 * pods keep their "not modelled" warning.
 * DeviceTaintRule objects (DRADeviceTaintRules) are read here too
 * (k8s/dra_taintrule.h); the engine applies their taints to the devices
 * they select (sched/engine/filter/dra_slices.c).
 *
 * Names are interned in the decoder's table and the views live in its
 * arena, as the pods' do (pod.h). */
#ifndef PK_K8S_DRA_H
#define PK_K8S_DRA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "k8s/cel.h"
#include "k8s/pod.h"

/* A CEL selector: its text, compiled once when the set is finished (NULL
 * with the compiler's message in error when it does not compile). */
typedef struct pk_dra_selector {
	const char *expression;
	pk_cel_program *program;
	const char *error;              /* interned; "" when it compiled */
} pk_dra_selector;

/* The DRA features a release may turn off (pk_dra_set.off, from
 * pk_snapshot.dra_off: the release profile's gates). */
enum {
	PK_DRA_OFF_DEVICE_TAINTS = 1u << 0,       /* DRADeviceTaints */
	PK_DRA_OFF_ADMIN_ACCESS = 1u << 1,        /* DRAAdminAccess */
	PK_DRA_OFF_PARTITIONABLE = 1u << 2,       /* DRAPartitionableDevices */
	PK_DRA_OFF_CONSUMABLE_CAPACITY = 1u << 3, /* DRAConsumableCapacity */
	PK_DRA_OFF_EXTENDED_RESOURCE = 1u << 4,   /* DRAExtendedResource */
	PK_DRA_OFF_DEVICE_TAINT_RULES = 1u << 8,  /* DRADeviceTaintRules */
	PK_DRA_OFF_WORKLOAD_CLAIMS = 1u << 9,     /* DRAWorkloadResourceClaims */
};

/* A counter set: a slice's sharedCounters[] entry, or what a device's
 * consumesCounters[] entry takes from the set of that name. */
typedef struct pk_dra_counter {
	const char *name;               /* interned */
	int64_t milli;
} pk_dra_counter;
typedef struct pk_dra_counter_set {
	const char *name;               /* interned */
	pk_dra_counter *counters;
	int ncounters;
} pk_dra_counter_set;

/* An amount of a device's capacity: a request's capacity.requests entry, a
 * result's consumedCapacity entry (DRAConsumableCapacity). */
typedef struct pk_dra_capacity_amount {
	const char *key;                /* the capacity's name as written (interned) */
	int64_t milli;
} pk_dra_capacity_amount;

typedef struct pk_dra_request pk_dra_request;
struct pk_dra_request {
	const char *name;               /* a subrequest's: "<request>/<subrequest>", as results name it */
	const char *class_name;         /* exactly.deviceClassName (v1beta1: deviceClassName) */
	bool all;                       /* allocationMode All */
	int64_t count;                  /* ExactCount's count (default 1) */
	pk_dra_selector *selectors;
	int nselectors;
	bool admin_access;              /* exactly.adminAccess (a subrequest has none) */
	/* tolerations of device taints (pod.h's type: the same rules,
	 * resourceclaim.ToleratesTaint); effect -1 all, PK_DRA_EFFECT_NONE
	 * only those the allocator ignores anyway */
	pk_toleration *tolerations;
	int ntolerations;
	/* capacity.requests (DRAConsumableCapacity); has_capacity: the field is
	 * there, even empty */
	pk_dra_capacity_amount *capacity;
	int ncapacity;
	bool has_capacity;
	/* firstAvailable (KEP-4816, prioritized alternatives): the subrequests
	 * in order, the first that can be allocated wins; none: exactly */
	pk_dra_request *subs;
	int nsubs;
};

/* A claim's matchAttribute constraint: the devices of the requests named
 * (none: every request of the claim) must all have the attribute, of one
 * value; or its distinctAttribute one: all have it, no two of one value. */
typedef struct pk_dra_constraint {
	const char **requests;          /* interned; a request, or "<request>/<subrequest>" */
	int nrequests;
	const char *domain, *name;      /* the attribute, split as a device's are */
	bool distinct;                  /* distinctAttribute */
} pk_dra_constraint;

/* One device of an allocation (status.allocation.devices.results[]). */
typedef struct pk_dra_device_ref {
	const char *request, *driver, *pool, *device; /* interned */
	bool admin_access;              /* results[].adminAccess: not held (allocateddevices.go) */
	/* DRAConsumableCapacity: a share of a device that allows multiple
	 * allocations (NULL: the device is the claim's alone), and what it
	 * consumes of the device's capacity */
	const char *share_id;
	const pk_dra_capacity_amount *consumed;
	int nconsumed;
} pk_dra_device_ref;

/* A toleration's or taint's effect that never prevents an allocation
 * (None, or one this release does not know). */
#define PK_DRA_EFFECT_NONE 99

typedef struct pk_dra_claim {
	const char *namespace_, *name;  /* interned */
	long record;
	bool deleting;                  /* metadata.deletionTimestamp */
	const char *owner_kind, *owner_name, *owner_uid; /* controller ownerReference ("" when none) */
	pk_dra_request *requests;
	int nrequests;
	pk_dra_constraint *constraints;
	int nconstraints;
	const char *unsupported;        /* the first field this slice does not model, or NULL */
	bool allocated;                 /* status.allocation present */
	pk_dra_device_ref *devices;     /* status.allocation.devices.results */
	int ndevices;
	pk_node_term *node_terms;       /* status.allocation.nodeSelector (ORed); none: every node */
	int nnode_terms;
	bool has_node_selector;
	int nreserved;                  /* status.reservedFor entries */
	const char **reserved_uids;     /* their uids (interned) */
	const char **reserved_names;    /* their names (interned) */
	const char *reserved_group;     /* the first entry of resource podgroups: its name, or NULL */
	/* the run's own allocation (pk_dra_claim_allocate): its node, when a
	 * device came from a node-local slice ("" otherwise), and that it was
	 * made here, not read */
	const char *alloc_node;
	bool played;
	bool deleted;                   /* deleted in the run with the pod that owns it (pk_dra_claim_delete) */
} pk_dra_claim;

typedef struct pk_dra_class {
	const char *name;
	const char *extended_resource_name; /* spec.extendedResourceName (interned; "" when none) */
	pk_dra_selector *selectors;
	int nselectors;
} pk_dra_class;

/* A device capacity's name as the slice writes it and its requestPolicy
 * (DRAConsumableCapacity): what a request's amount is rounded up to, and
 * what it may be (validValues ascending; validRange min, max, step). */
typedef struct pk_dra_capacity_policy {
	const char *key;                /* interned */
	bool has_policy, has_default, has_range, has_max, has_step;
	int64_t def, min, max, step;    /* milli */
	const int64_t *valid_values;
	int nvalid;
} pk_dra_capacity_policy;

typedef struct pk_dra_device {
	const char *name;               /* interned */
	pk_cel_attr *attrs;
	int nattrs;
	pk_cel_attr *capacity;
	int ncapacity;
	/* per capacity; NULL when no name has a domain and none has a
	 * requestPolicy (then a capacity's name as written is capacity[k].name) */
	pk_dra_capacity_policy *policies;
	pk_taint *taints;               /* its NoSchedule and NoExecute taints (the others never count) */
	int ntaints;
	pk_dra_counter_set *consumes;   /* consumesCounters */
	int nconsumes;
	bool multi_alloc;               /* allowMultipleAllocations */
	/* its node-allocatable footprint (k8s/dra_nodealloc.h), or NULL */
	const struct pk_dra_nodealloc *nodealloc;
	int nnodealloc;
} pk_dra_device;

typedef struct pk_dra_slice {
	const char *name;
	const char *driver, *pool;      /* interned */
	int64_t generation;
	const char *node_name;          /* spec.nodeName ("" when none) */
	bool all_nodes;
	pk_node_term *node_terms;       /* spec.nodeSelector */
	int nnode_terms;
	bool has_node_selector;
	pk_dra_device *devices;
	int ndevices;
	pk_dra_counter_set *shared;     /* sharedCounters: the pool's counter sets */
	int nshared;
	bool rules_applied;             /* the DeviceTaintRules' taints are in its devices' */
} pk_dra_slice;

/* A ResourceClaimTemplate: what the claim its controller makes asks
 * (spec.spec.devices: the requests, what this slice does not model). */
typedef struct pk_dra_template {
	const char *namespace_, *name;
	pk_dra_request *requests;
	int nrequests;
	pk_dra_constraint *constraints;
	int nconstraints;
	const char *unsupported;
} pk_dra_template;

/* The DRA objects of an input; sorted at finish. */
typedef struct pk_dra_set {
	pk_dra_claim *claims;
	long nclaims;
	size_t claimcap;
	pk_dra_class *classes;
	long nclasses;
	size_t classcap;
	pk_dra_slice *slices;
	long nslices;
	size_t slicecap;
	pk_dra_template *templates;
	long ntemplates;
	size_t templatecap;
	/* claims made during the run from templates (pk_dra_claim_make), in the
	 * caller's arena: held devices are indexed with the input's */
	pk_dra_claim **made;
	long nmade;
	size_t madecap;
	/* at finish: every allocated claim's devices, sorted by (driver, pool,
	 * device) address (interned), with the claim that holds each */
	const pk_dra_device_ref **held;
	const pk_dra_claim **held_by;
	long nheld;
	long generation;                /* bumped each time the held devices change */
	/* at finish: the slices by node, so that a node's are found without a
	 * look at every slice (pk_dra_slices_of_node): indices of the slices
	 * with a spec.nodeName, by (nodeName, index), and of the others
	 * (allNodes, a nodeSelector), in index order */
	long *pinned, npinned;
	long *unpinned, nunpinned;
	bool multi_alloc_devices;       /* a device with allowMultipleAllocations */
	bool capacity_policies;         /* a device capacity with a requestPolicy */
	bool capacity_requests;         /* a request with capacity.requests */
	/* at finish (pk_dra_set_gates): the results with a shareID, sorted as
	 * held is, while DRAConsumableCapacity is on (else they are held) */
	const pk_dra_device_ref **shared;
	long nshared;
	bool counter_devices;           /* a device that consumes counters */
	unsigned off;                   /* PK_DRA_OFF_*: the release's gates (pk_dra_resolve_all) */
	bool finished;
	bool pods_resolved;             /* the snapshot's pods resolved (engine/filter/dra.c) */
	/* DeviceTaintRules (k8s/dra_taintrule.h), sorted by name at finish */
	struct pk_dra_taint_rule *rules;
	long nrules;
	size_t rulecap;
	bool rules_listed;              /* a DeviceTaintRuleList or a DeviceTaintRule was read (if empty,
	                                 * or rejected) */
	int8_t noexecute;               /* a NoExecute taint anywhere, a rule's or a device's: 0 not
	                                 * looked at yet, 1 none, 2 some (engine/filter/dra_slices.c) */
} pk_dra_set;

/* Is kind one of DRA's (the four, DeviceTaintRule)? */
bool pk_dra_kind(const char *kind);
/* Decode obj (of a DRA kind) into the set: 0, or -1 with a message in err
 * naming the field. */
int pk_dra_set_add(pk_dra_set *s, pk_decoder *d, const cJSON *obj, long record, char *err, size_t errsize);
/* Sort for the look-ups and compile the selectors (once each). */
void pk_dra_set_finish(pk_dra_set *s, pk_decoder *d);
/* Set the release's PK_DRA_OFF_* (pk_dra_set.off) on a finished set: the
 * held devices are indexed anew when the gates change what is held. */
void pk_dra_set_gates(pk_dra_set *s, unsigned off);
/* The results with a shareID on device (driver, pool, device: interned)
 * while DRAConsumableCapacity is on: how many, from *first in s->shared. */
long pk_dra_shares_of(const pk_dra_set *s, const char *driver, const char *pool, const char *device, long *first);
void pk_dra_set_free(pk_dra_set *s);
/* The PK_DRA_OFF_* features the release's gates turn off (the tools set
 * pk_snapshot.dra_off from it). */
struct pk_release_profile;
unsigned pk_dra_features_off(const struct pk_release_profile *p);

/* The indices of the slices that name node (spec.nodeName) followed by
 * *nrest indices of those that name none, each list in the set's order
 * (driver, pool, name): *first and *n give the pinned ones' range in
 * s->pinned; the caller tests the unpinned ones' selectors itself. */
void pk_dra_slices_of_node(const pk_dra_set *s, const char *node, long *first, long *n);
const pk_dra_claim *pk_dra_claim_get(const pk_dra_set *s, const char *ns, const char *name);
const pk_dra_class *pk_dra_class_get(const pk_dra_set *s, const char *name);
/* The class an extended resource name maps to (DRAExtendedResource):
 * the one whose spec.extendedResourceName it is, else the one it names
 * implicitly ("deviceclass.resource.kubernetes.io/<class>"), or NULL. Of
 * two classes with one explicit name, the first by name (upstream's
 * resolver keeps one of them; which is not modelled). Needs the set
 * finished. */
const pk_dra_class *pk_dra_class_for_resource(const pk_dra_set *s, const char *resource);
const pk_dra_template *pk_dra_template_get(const pk_dra_set *s, const char *ns, const char *name);
/* The device's attribute a matchAttribute constraint names, or NULL; two
 * attribute values equal (kind and value)? */
const pk_cel_attr *pk_dra_device_attr(const pk_dra_device *dv, const pk_dra_constraint *c);
bool pk_dra_attr_equal(const pk_cel_attr *x, const pk_cel_attr *y);
/* The claim that holds device (driver, pool, device: interned), or NULL. */
const pk_dra_claim *pk_dra_holder(const pk_dra_set *s, const char *driver, const char *pool, const char *device);
/* The held index's order: by driver, pool and device, interned and
 * compared as addresses (a copy of the index sorted with it can be
 * searched by pk_dra_holder). */
int pk_dra_ref_cmp(const pk_dra_device_ref *x, const pk_dra_device_ref *y);

/* ---- the run's changes: allocations played forward ---------------------- */

/* A claim made from template t for a pod's claim, as the resourceclaim
 * controller makes it (its requests the template's; owned by the pod
 * owner_name/owner_uid), named name, unallocated, in arena. */
pk_dra_claim *pk_dra_claim_make(pk_dra_set *s, pk_arena *arena, const pk_dra_template *t, const char *name,
                                const char *owner_name, const char *owner_uid);

/* Allocate c (not allocated) the n devices devs (kept: arena memory of the
 * caller's), on node when one of them came from a node-local slice (NULL
 * otherwise): the devices are held from now on (the index is rebuilt). */
void pk_dra_claim_allocate(pk_dra_set *s, pk_dra_claim *c, pk_dra_device_ref *devs, int n, const char *node);
/* Add a pod (uid, name: interned) to c's reservedFor, unless it is there;
 * the arrays grow in arena. */
void pk_dra_claim_reserve(pk_dra_claim *c, pk_arena *arena, const char *uid, const char *name);
/* Take the pod out of c's reservedFor (by uid when both have one, else by
 * name). When that empties it, the claim is deallocated as the
 * resourceclaim controller does (its devices free again): true then. */
bool pk_dra_claim_unreserve(pk_dra_set *s, pk_dra_claim *c, const char *uid, const char *name);
/* c is allocated no longer: its devices are free again (the index is
 * rebuilt). The device list stays the caller's. */
void pk_dra_claim_deallocate(pk_dra_set *s, pk_dra_claim *c);
/* Is c generated for the pod (its controller ownerReference names it: by
 * uid when both have one, else by name)? */
bool pk_dra_claim_owned_by(const pk_dra_claim *c, const char *uid, const char *name);
/* Delete c, as the garbage collector (or the resourceclaim controller,
 * for a pod done) does once the pod that owns it is gone: its devices free,
 * no longer found by name (pk_dra_claim_get), and a claim made in the run
 * leaves the set's list (its arena memory goes with the arena). */
void pk_dra_claim_delete(pk_dra_set *s, pk_dra_claim *c);
/* Undo pk_dra_claim_delete for a pod bound again (a replay's victim
 * terminating on its node until its grace period is over). */
void pk_dra_claim_undelete(pk_dra_set *s, pk_dra_claim *c);

/* A claim made in the run (pk_dra_claim_make) by namespace and name, or NULL. */
pk_dra_claim *pk_dra_made_claim_get(const pk_dra_set *s, const char *ns, const char *name);

/* ---- a pod's claims ------------------------------------------------------ */

typedef struct pk_pod_dra_claim {
	const char *name;               /* spec.resourceClaims[].name */
	const char *claim;              /* the ResourceClaim's name: resourceClaimName, or of a
	                                 * template the one status.resourceClaimStatuses names;
	                                 * "" while the template's claim is not made */
	const char *template_name;      /* resourceClaimTemplateName ("" when none) */
	const char *group_claim;        /* podGroupResourceClaim ("" when none): the name of a
	                                 * claim of the pod's PodGroup (DRAWorkloadResourceClaims);
	                                 * claim is then what status.resourceClaimStatuses names */
	bool from_template;
	bool skip;                      /* a status entry without a claim name: none is needed */
} pk_pod_dra_claim;

typedef struct pk_pod_dra {
	pk_pod_dra_claim *claims;
	int nclaims;
	/* resolution (engine/filter/dra.c): private to the engine */
	const void *resolved_for;
	void *resolved;
} pk_pod_dra;

/* The hook pod.c calls for spec.resourceClaims and status.resourceClaimStatuses
 * (NULL when the pod has none). */
const pk_pod_dra *pk_pod_dra_decode(pk_decoder *d, const cJSON *claims, const cJSON *statuses);

#endif
