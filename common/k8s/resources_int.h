/* Private to common/k8s/pod.c and resources.c: the PodSpec members the
 * decoder reads in one pass, and the work vector a ResourceList is read
 * into, for a node's allocatable (pod.c) and a pod's requests
 * (resources.c). */
#ifndef PK_RESOURCES_INT_H
#define PK_RESOURCES_INT_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "pod.h"

/* Work vectors while computing requests: scalars in a small fixed table. */
enum { MAX_SCALARS = 32 };
typedef struct pk_res_acc {
	int64_t cpu, memory, ephemeral, pods;
	const char *names[MAX_SCALARS];
	int64_t vals[MAX_SCALARS];
	int n;
} pk_res_acc;

/* The members of a PodSpec the decoder reads, found in one pass. */
enum {
	S_NODE_NAME, S_SCHEDULER, S_CLASS, S_PRIORITY, S_POLICY, S_CONTAINERS, S_INIT_CONTAINERS, S_RESOURCES,
	S_OVERHEAD, S_TOLERATIONS, S_NODE_SELECTOR, S_AFFINITY, S_VOLUMES, S_CLAIMS, S_GATES, S_SPREAD, S_GROUP,
	S_WORKLOAD, S_COUNT
};
/* Their names, for pk_get_members (pod.c; constant). */
extern const char *const pk_spec_members[S_COUNT + 1];

/* Parse a ResourceList object into a (adding). */
int pk_res_acc_parse_list(pk_res_acc *a, pk_decoder *d, const cJSON *list, const char *what, char *err,
                          size_t errsize);
void pk_res_acc_to_res(pk_decoder *d, const pk_res_acc *a, pk_res *out);
/* The effective requests of a pod spec (spec as pod.c's field table reads it). */
int pk_pod_requests_of(pk_decoder *d, const cJSON *const *spec, pk_res *out, char *err, size_t errsize);

/* A pod's DRA node-allocatable amounts from its
 * status.nodeAllocatableResourceClaimStatuses (dra_nodealloc.c), as
 * upstream's component-helpers/resource getDRANodeAllocatableResources
 * splits them: pod_fixed (mappings, perPod overheads, and perContainer
 * overheads of containers the spec does not have) for the pod's lifetime;
 * per_container[i] added to container container[i]'s own requests (an app
 * container's, a sidecar's, or an init container's peak). */
enum { PK_DRA_MAX_CONTAINERS = 16 };
typedef struct pk_dra_extra {
	pk_res_acc pod_fixed;
	const char *container[PK_DRA_MAX_CONTAINERS];    /* interned names */
	pk_res_acc per_container[PK_DRA_MAX_CONTAINERS];
	int ncontainers;
} pk_dra_extra;

/* The requests of a pod spec with x's amounts in them, as PodRequests with
 * UseDRANodeAllocatableResourceClaimStatus computes them (pod-level
 * requests still replace the container sums, DRA included). */
int pk_pod_requests_with_dra(pk_decoder *d, const cJSON *const *spec, const pk_dra_extra *x, pk_res *out,
                             char *err, size_t errsize);
/* x's slot for container name (interned), added when new; NULL when full. */
pk_res_acc *pk_dra_extra_container(pk_dra_extra *x, const char *name);
/* dst += src. */
void pk_res_acc_add(pk_res_acc *dst, pk_decoder *d, const pk_res_acc *src);
/* acc's slot for resource name (interned through d); NULL when full. */
int64_t *pk_res_acc_slot(pk_res_acc *a, pk_decoder *d, const char *name);

#endif
