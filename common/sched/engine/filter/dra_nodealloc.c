/* DRA node-allocatable resources in placement and preemption
 * (dra_nodealloc.h). Upstream: pkg/scheduler/framework/plugins/
 * dynamicresources/nodeallocatabledynamicresources.go (the Filter's
 * footprint and nodeFitsResources), component-helpers/resource/helpers.go
 * (a bound pod's requests from its status). */
#include "sched/engine/filter/dra_nodealloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/dra.h"
#include "k8s/dra_nodealloc.h"
#include "k8s/gates.h"
#include "sched/engine/filter/dra.h"
#include "sched/engine/filter/dra_int.h"
#include "sched/engine/reasons.h"

#define PLUGIN "DynamicResources"

/* The device (driver, pool, name: interned) among the node's slices. */
static const pk_dra_device *device_of(const pk_dra_set *set, const long *idx, long n, const pk_dra_pick *p)
{
	for (long i = 0; i < n; i++) {
		const pk_dra_slice *sl = &set->slices[idx[i]];
		if (sl->driver != p->driver || sl->pool != p->pool)
			continue;
		for (int k = 0; k < sl->ndevices; k++)
			if (sl->devices[k].name == p->device)
				return &sl->devices[k];
	}
	return NULL;
}

/* How many of the pod's app containers and sidecars name the claim its
 * spec.resourceClaims entry resolves to (claim: the ResourceClaim's name).
 * A claim made in this run from a template has no name in the pod's
 * status: the template's entry is taken, the first such (one, when the
 * spec does not say). */
static int containers_naming(const pk_pod *pod, const char *claim)
{
	const pk_pod_dra *pd = pod->con->dra;
	const pk_dra_claim_refs *refs = pod->con->dra_refs;
	if (!pd || !refs)
		return 1;
	const char *entry = NULL;
	for (int i = 0; i < pd->nclaims && !entry; i++)
		if (pd->claims[i].claim == claim || strcmp(pd->claims[i].claim, claim) == 0)
			entry = pd->claims[i].name;
	for (int i = 0; i < pd->nclaims && !entry; i++)
		if (pd->claims[i].from_template && !*pd->claims[i].claim)
			entry = pd->claims[i].name;
	for (int i = 0; entry && i < refs->n; i++)
		if (refs->claims[i] == entry)
			return refs->containers[i];
	return 1;
}

/* A resource of the footprint: cpu, memory, ephemeral-storage, or a
 * hugepages-* (the only scalars upstream's nodeFitsResources checks). */
enum { MAXH = 8 };
typedef struct footprint {
	int64_t cpu, memory, ephemeral;
	const char *huge[MAXH];
	int64_t huge_amount[MAXH];
	int nhuge;
	char error[400];                /* upstream's Error for a mapping it cannot count ("" none) */
} footprint;

static void add_amount(footprint *f, const char *resource, int64_t v)
{
	if (strcmp(resource, "cpu") == 0)
		f->cpu += v;
	else if (strcmp(resource, "memory") == 0)
		f->memory += v;
	else if (strcmp(resource, "ephemeral-storage") == 0)
		f->ephemeral += v;
	else if (strncmp(resource, "hugepages-", 10) == 0) {
		int i = 0;
		while (i < f->nhuge && f->huge[i] != resource)
			i++;
		if (i == f->nhuge) {
			if (i == MAXH)
				return;
			f->huge[f->nhuge] = resource;
			f->huge_amount[f->nhuge++] = 0;
		}
		f->huge_amount[i] += v;
	}
}

/* The amount consumed under a mapping's capacityKey ("<domain>/<name>", or
 * a bare name in the driver's domain) among a result's consumedCapacity,
 * as LookupByQualifiedName finds it: the qualified spelling first, then
 * the bare one where it means the same; false when there is none. */
static bool consumed_under(const pk_dra_pick *p, const char *key, int64_t *milli)
{
	const char *slash = strchr(key, '/');
	size_t dlen = strlen(p->driver);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < p->nconsumed; i++) {
			const char *k = p->consumed[i].key;
			bool hit;
			if (pass == 0) /* qualified: the key as written, or the driver's domain before a bare key */
				hit = slash ? strcmp(k, key) == 0
				            : strncmp(k, p->driver, dlen) == 0 && k[dlen] == '/' && strcmp(k + dlen + 1, key) == 0;
			else /* bare: the key itself, or its name when its domain is the driver's */
				hit = slash ? (size_t)(slash - key) == dlen && strncmp(key, p->driver, dlen) == 0 &&
				                      strcmp(k, slash + 1) == 0
				            : strcmp(k, key) == 0;
			if (hit) {
				*milli = p->consumed[i].milli;
				return true;
			}
		}
	return false;
}

/* A capacityKey mapping of one allocated device (addDeviceMapping): the
 * result's consumedCapacity under the key times the capacityMultiplier
 * (for a claim allocated already, as its status records it; for the pod's
 * own claims, what the allocator's share consumes: dra_capacity.c). The
 * allocator records consumedCapacity only for a device that allows
 * multiple allocations; without one the Filter fails with an Error. A key
 * the result does not consume adds nothing. */
static void add_capacity_mapping(footprint *f, const pk_dra_nodealloc *e, const pk_dra_pick *p)
{
	int64_t used;
	if (!p->has_consumed) {
		if (!*f->error)
			snprintf(f->error, sizeof f->error,
			         "claim %s/%s, device %s: ConsumedCapacity is nil, but Capacity key '%s' is set in "
			         "NodeAllocatableResources for resource %s",
			         p->claim_namespace, p->claim_name, p->device, e->capacity_key, e->resource);
		return;
	}
	if (consumed_under(p, e->capacity_key, &used))
		add_amount(f, e->resource, (int64_t)((__int128)used * e->capacity_multiplier / 1000));
}

/* One allocated device's footprint, as buildNodeAllocatableDRAInfo sums it:
 * a mapping's deviceMultiplier per device or its capacityKey's amount, an
 * overhead's perPod once and its perContainer for every container that
 * names the claim. */
static void add_device(footprint *f, const pk_dra_device *dv, const pk_dra_pick *p, int containers)
{
	for (int i = 0; i < dv->nnodealloc; i++) {
		const pk_dra_nodealloc *e = &dv->nodealloc[i];
		if (e->mapping && *e->capacity_key)
			add_capacity_mapping(f, e, p);
		else if (e->mapping)
			add_amount(f, e->resource, e->device_multiplier);
		if (e->overhead)
			add_amount(f, e->resource, e->per_pod + e->per_container * containers);
	}
}

/* What the pod's devices on n add to its requests; false when nothing. */
static bool pod_footprint(const pk_snapshot *s, const pk_pod *pod, const pk_node *n, footprint *f)
{
	memset(f, 0, sizeof *f);
	pk_dra_pick *picks;
	int np = pk_dra_devices_on(s, pod, n, &picks);
	if (!np)
		return false;
	long *idx;
	long nidx = pk_dra_node_slices(s->dra, n, &idx);
	bool any = false;
	for (int i = 0; i < np; i++) {
		const pk_dra_device *dv = device_of(s->dra, idx, nidx, &picks[i]);
		if (!dv || !dv->nnodealloc)
			continue;
		any = true;
		add_device(f, dv, &picks[i], containers_naming(pod, picks[i].claim_name));
	}
	free(idx);
	free(picks);
	return any;
}

/* Is one of the claim's allocated devices mapped to node-allocatable
 * resources (a mapping, not only an overhead)? */
static bool has_mapped_device(const pk_dra_set *set, const pk_dra_claim *c)
{
	for (int j = 0; j < c->ndevices; j++)
		for (long i = 0; i < set->nslices; i++) {
			const pk_dra_slice *sl = &set->slices[i];
			if (sl->driver != c->devices[j].driver || sl->pool != c->devices[j].pool)
				continue;
			for (int k = 0; k < sl->ndevices; k++)
				for (int e = 0; sl->devices[k].name == c->devices[j].device && e < sl->devices[k].nnodealloc; e++)
					if (sl->devices[k].nodealloc[e].mapping)
						return true;
		}
	return false;
}

/* validateNodeAllocatableDRAClaimSharing: an allocated claim with a
 * mapped device, reserved for another pod, cannot be the pod's too
 * (overhead-only claims may be shared). */
static bool claims_unshared(const pk_snapshot *s, const pk_pod *pod, pk_status *out)
{
	const dra_res *r = pk_dra_resolution(pod);
	for (int i = 0; r && i < r->nclaims; i++) {
		const pk_dra_claim *c = r->claims[i];
		if (c->allocated && c->nreserved > 0 && !pk_dra_reserved_for(c, pod) && has_mapped_device(s->dra, c)) {
			char msg[400];
			snprintf(msg, sizeof msg, PK_R_DRA_NODEALLOC_SHARED, c->name);
			pk_status_set(out, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, PLUGIN, msg);
			return false;
		}
	}
	return true;
}

bool pk_dra_nodealloc_fits(const pk_snapshot *s, const pk_pod *pod, const pk_nodeinfo *ni, const pk_res *extra,
                           pk_status *out)
{
	footprint f;
	if (!s->dra_node_allocatable || !s->dra_nodealloc_devices)
		return true;
	if (!claims_unshared(s, pod, out))
		return false;
	if (!pod_footprint(s, pod, ni->node, &f))
		return true;
	if (*f.error) { /* statusError: the cycle ends in an Error */
		pk_status_set(out, PK_CODE_ERROR, PLUGIN, f.error);
		return false;
	}
	const pk_res *al = &ni->node->allocatable, *rq = &ni->requested, *p = &pod->requests;
	pk_status st;
	pk_status_set(&st, PK_CODE_SUCCESS, NULL, NULL);
	bool unresolvable = false;
	pk_fit_check_resource(&st, s, "cpu", PK_R_CPU, p->cpu + f.cpu, al->cpu, rq->cpu + extra->cpu, &unresolvable);
	pk_fit_check_resource(&st, s, "memory", PK_R_MEMORY, p->memory + f.memory, al->memory, rq->memory + extra->memory,
	                      &unresolvable);
	pk_fit_check_resource(&st, s, "ephemeral-storage", PK_R_EPHEMERAL, p->ephemeral + f.ephemeral, al->ephemeral,
	                      rq->ephemeral + extra->ephemeral, &unresolvable);
	for (int i = 0; i < f.nhuge; i++)
		pk_fit_check_resource(&st, s, f.huge[i], NULL, pk_res_scalar(p, f.huge[i]) + f.huge_amount[i],
		                      pk_res_scalar(al, f.huge[i]), pk_res_scalar(rq, f.huge[i]) + pk_res_scalar(extra, f.huge[i]),
		      &unresolvable);
	if (st.nreasons == 0)
		return true;
	st.code = unresolvable ? PK_CODE_UNSCHEDULABLE_UNRESOLVABLE : PK_CODE_UNSCHEDULABLE;
	st.plugin = PLUGIN;
	*out = st;
	return false;
}

/* r plus f, the scalars in the snapshot's arena (a pod's requests live there). */
static pk_res res_plus(pk_snapshot *s, const pk_res *r, const footprint *f)
{
	pk_res out = *r;
	out.cpu += f->cpu;
	out.memory += f->memory;
	out.ephemeral += f->ephemeral;
	out.scalar = pk_arena_alloc(&s->arena, sizeof *out.scalar * (size_t)(r->nscalar + f->nhuge + 1));
	if (r->nscalar)
		memcpy(out.scalar, r->scalar, sizeof *out.scalar * (size_t)r->nscalar);
	for (int i = 0; i < f->nhuge; i++) {
		int j = 0;
		while (j < out.nscalar && out.scalar[j].name != f->huge[i])
			j++;
		if (j == out.nscalar)
			out.scalar[out.nscalar++] = (pk_scalar_res){ f->huge[i], 0 };
		out.scalar[j].milli += f->huge_amount[i];
	}
	return out;
}

/* A pod just bound to n: its devices' footprint joins its requests there
 * (a pod whose status already records it counts it already). */
static bool assumed(pk_snapshot *s, const pk_pod *p, const pk_node *n, pk_res *out)
{
	footprint f;
	if (p->con->dra_requests || !pod_footprint(s, p, n, &f))
		return false;
	*out = res_plus(s, &p->requests, &f);
	return true;
}

void pk_dra_nodealloc_play_forward(pk_snapshot *s)
{
	if (s->dra && s->dra_node_allocatable && s->dra_nodealloc_devices)
		s->dra_assumed = assumed;
}

bool pk_dra_nodealloc_note(const pk_snapshot *s, int minor, char *buf, size_t size)
{
	const pk_gate_release *g = pk_gate_at(PK_GATE_DRA_NODE_ALLOCATABLE_RESOURCES, minor);
	const pk_pod *first = s->dra_status_first;
	if (s->dra_node_allocatable) {
		if (!s->dra_status_pods && !s->dra_nodealloc_devices)
			return false;
		size_t w = (size_t)snprintf(buf, size,
		                            "DRANodeAllocatableResources is on (alpha, KEP-5517): ");
		if (s->dra_status_pods && w < size)
			w += (size_t)snprintf(buf + w, size - w,
			                      "%ld bound pod(s) count the resources their DRA claims take of the node "
			                      "(status.nodeAllocatableResourceClaimStatuses; first: %s/%s) in its requested "
			                      "resources, as upstream's scheduler cache does, and a victim's are freed with it; ",
			                      s->dra_status_pods, first->namespace_, first->name);
		if (w < size)
			snprintf(buf + w, size - w,
			         "a pod placed adds its own claims' device footprint (nodeAllocatableResources of %ld "
			         "ResourceSlice device(s)) to its requests in DynamicResources' Filter",
			         s->dra_nodealloc_devices);
		return true;
	}
	if (!s->dra_status_pods && !s->dra_nodealloc_devices)
		return false;
	char what[600];
	size_t w = 0;
	if (s->dra_status_pods)
		w += (size_t)snprintf(what, sizeof what,
		                      "%ld bound pod(s) carry status.nodeAllocatableResourceClaimStatuses (first: %s/%s)",
		                      s->dra_status_pods, first->namespace_, first->name);
	if (s->dra_nodealloc_devices && w < sizeof what)
		snprintf(what + w, sizeof what - w, "%s%ld ResourceSlice device(s) declare a node-allocatable footprint",
		         w ? " and " : "", s->dra_nodealloc_devices);
	if (!g->exists)
		snprintf(buf, size,
		         "%s, but Kubernetes 1.%d has no DRANodeAllocatableResources (alpha from 1.36): the resources "
		         "those DRA claims take are not counted in the nodes' requested resources, as that release's "
		         "scheduler does not count them; the nodes may be over-committed",
		         what, minor);
	else
		snprintf(buf, size,
		         "%s, but DRANodeAllocatableResources is off (alpha, upstream's default in 1.%d): the resources "
		         "those DRA claims take are not counted in the nodes' requested resources, as upstream's scheduler "
		         "does not count them then, so the nodes may be over-committed; --feature-gates "
		         "DRANodeAllocatableResources=true counts them, a victim's freed with it",
		         what, minor);
	return true;
}
