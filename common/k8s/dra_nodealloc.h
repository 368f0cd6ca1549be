/* DRA node-allocatable resources (KEP-5517, gate DRANodeAllocatableResources):
 * the node-allocatable footprint a ResourceSlice device declares, and what
 * a bound pod's status.nodeAllocatableResourceClaimStatuses says its
 * claims take of its node, decoded once (dra_nodealloc.c).
 *
 * Two API shapes, one per release that has the gate:
 *   1.36 (alpha, kubernetes/kubernetes#136725): a device's
 *        nodeAllocatableResourceMappings {<resource>: {capacityKey,
 *        allocationMultiplier}}; a claim status's resources {<resource>: q}.
 *   1.37 (alpha2, kubernetes/kubernetes#140009): a device's
 *        nodeAllocatableResources {<resource>: {mapping: {capacityKey,
 *        capacityMultiplier, deviceMultiplier}, overhead: {perPod,
 *        perContainer}}}; a claim status's mapping [{name, quantity}] and
 *        overhead [{name, perPod, perContainer}].
 * Both are read whatever the release answered for: an input holds what
 * its apiserver served. */
#ifndef PK_K8S_DRA_NODEALLOC_H
#define PK_K8S_DRA_NODEALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "k8s/pod.h"

/* One resource of a device's footprint. */
typedef struct pk_dra_nodealloc {
	const char *resource;           /* interned: "cpu", "memory", "hugepages-2Mi", ... */
	bool mapping;                   /* a direct mapping (a CPU or memory driver) */
	const char *capacity_key;       /* the mapping scales this consumed capacity ("" when none) */
	int64_t capacity_multiplier;    /* milli (1000 = x1) */
	int64_t device_multiplier;      /* milli: the amount per allocated device */
	bool overhead;                  /* an accelerator's host overhead */
	int64_t per_pod, per_container; /* milli-units; 0 when unset */
} pk_dra_nodealloc;

struct pk_dra_device;

/* The device object dv's footprint (either shape) into x->nodealloc: 0, or
 * -1 with a message naming the field. */
int pk_dra_device_nodealloc_decode(pk_decoder *d, const cJSON *dv, struct pk_dra_device *x, char *err,
                                   size_t errsize);

/* A pod's requests with its status.nodeAllocatableResourceClaimStatuses in
 * them (spec: pod.c's member table of the PodSpec), as upstream's
 * PodRequests with UseDRANodeAllocatableResourceClaimStatus: *out NULL when
 * statuses holds none. 0, or -1 with a message naming the field. */
int pk_pod_nodealloc_requests(pk_decoder *d, const cJSON *statuses, const cJSON *const *spec, const pk_res **out,
                              char *err, size_t errsize);

struct pk_dra_set;
/* How many devices of the set's slices declare a footprint. */
long pk_dra_nodealloc_devices(const struct pk_dra_set *s);

/* The containers that reference each of a pod's claims (by
 * spec.resourceClaims[].name): app containers and sidecars, whose
 * perContainer overheads add to the pod's requests. */
typedef struct pk_dra_claim_refs {
	const char **claims;            /* interned pod claim names */
	int *containers;                /* per claim: how many containers name it */
	int n;
} pk_dra_claim_refs;

/* Of the PodSpec members spec (pod.c's table); NULL when the spec has no
 * resourceClaims. */
const pk_dra_claim_refs *pk_pod_dra_claim_refs(pk_decoder *d, const cJSON *const *spec);

#endif
