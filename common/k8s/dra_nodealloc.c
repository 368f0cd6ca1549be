/* DRA node-allocatable resources, decoded (dra_nodealloc.h). Upstream:
 * staging/src/k8s.io/api/resource/v1/types.go NodeAllocatableResource*
 * (the device side), staging/src/k8s.io/component-helpers/resource/
 * helpers.go getDRANodeAllocatableResources (the pod status side). */
#include "k8s/dra_nodealloc.h"

#include <stdio.h>
#include <string.h>

#include "k8s/dra.h"
#include "k8s/json.h"
#include "k8s/quantity.h"
#include "resources_int.h"

/* A quantity member of obj, into *v (milli); absent: *v untouched, false. */
static int qty_member(const cJSON *obj, const char *key, int64_t *v, bool *present, const char *what,
                      char *err, size_t errsize)
{
	const cJSON *q = pk_get(obj, key);
	if (present)
		*present = q != NULL && !cJSON_IsNull(q);
	if (!q || cJSON_IsNull(q))
		return 0;
	pk_qty_status st = pk_qty_from_json(q, v);
	if (st != PK_QTY_OK) {
		snprintf(err, errsize, "%s.%s: %s", what, key, pk_qty_strerror(st));
		return -1;
	}
	return 0;
}

static const char *istr_or_empty(pk_decoder *d, const cJSON *obj, const char *key)
{
	const char *s = pk_str(obj, key);
	return pk_intern(d->strs, s ? s : "");
}

/* 1.37: {mapping: {capacityKey, capacityMultiplier, deviceMultiplier},
 * overhead: {perPod, perContainer}} */
static int decode_alpha2(pk_decoder *d, const cJSON *it, pk_dra_nodealloc *x, const char *what, char *err,
                         size_t errsize)
{
	const cJSON *m = pk_get(it, "mapping"), *o = pk_get(it, "overhead");
	if (m && !cJSON_IsNull(m)) {
		x->mapping = true;
		x->capacity_key = istr_or_empty(d, m, "capacityKey");
		x->capacity_multiplier = x->device_multiplier = 1000; /* x1 */
		if (qty_member(m, "capacityMultiplier", &x->capacity_multiplier, NULL, what, err, errsize) < 0 ||
		    qty_member(m, "deviceMultiplier", &x->device_multiplier, NULL, what, err, errsize) < 0)
			return -1;
	}
	if (o && !cJSON_IsNull(o)) {
		x->overhead = true;
		if (qty_member(o, "perPod", &x->per_pod, NULL, what, err, errsize) < 0 ||
		    qty_member(o, "perContainer", &x->per_container, NULL, what, err, errsize) < 0)
			return -1;
	}
	return 0;
}

/* 1.36: {capacityKey, allocationMultiplier}: with a capacityKey the
 * consumed capacity times the multiplier, else the multiplier per device. */
static int decode_alpha1(pk_decoder *d, const cJSON *it, pk_dra_nodealloc *x, const char *what, char *err,
                         size_t errsize)
{
	int64_t mult = 1000;
	if (qty_member(it, "allocationMultiplier", &mult, NULL, what, err, errsize) < 0)
		return -1;
	x->mapping = true;
	x->capacity_key = istr_or_empty(d, it, "capacityKey");
	x->capacity_multiplier = *x->capacity_key ? mult : 1000;
	x->device_multiplier = *x->capacity_key ? 1000 : mult;
	return 0;
}

int pk_dra_device_nodealloc_decode(pk_decoder *d, const cJSON *dv, struct pk_dra_device *x, char *err,
                                   size_t errsize)
{
	const cJSON *alpha2 = pk_get(dv, "nodeAllocatableResources");
	const cJSON *alpha1 = pk_get(dv, "nodeAllocatableResourceMappings");
	const cJSON *map = alpha2 ? alpha2 : alpha1;
	int n = cJSON_IsObject(map) ? cJSON_GetArraySize(map) : 0;
	if (n == 0)
		return 0;
	pk_dra_nodealloc *v = pk_arena_alloc(d->arena, sizeof *v * (size_t)n);
	int k = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, map) {
		if (!it->string)
			continue;
		char what[200];
		snprintf(what, sizeof what, "device \"%s\": %s[%s]", x->name,
		         alpha2 ? "nodeAllocatableResources" : "nodeAllocatableResourceMappings", it->string);
		v[k] = (pk_dra_nodealloc){ .resource = pk_intern(d->strs, it->string), .capacity_key = "" };
		if ((alpha2 ? decode_alpha2 : decode_alpha1)(d, it, &v[k], what, err, errsize) < 0)
			return -1;
		k++;
	}
	x->nodealloc = v;
	x->nnodealloc = k;
	return 0;
}

/* Adds list's {name: quantity} pairs (1.36's resources) or [{name,
 * <key>}] entries (1.37's mapping: quantity, overhead: perPod) to acc. */
static int add_entries(pk_res_acc *acc, pk_decoder *d, const cJSON *list, const char *key, const char *what,
                       char *err, size_t errsize)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, list) {
		const char *name = cJSON_IsObject(list) ? it->string : pk_str(it, "name");
		if (!name)
			continue;
		int64_t v = 0;
		pk_qty_status st = cJSON_IsObject(list) ? pk_qty_from_json(it, &v) : PK_QTY_OK;
		if (st != PK_QTY_OK) {
			snprintf(err, errsize, "%s[%s]: %s", what, name, pk_qty_strerror(st));
			return -1;
		}
		if (!cJSON_IsObject(list) && qty_member(it, key, &v, NULL, what, err, errsize) < 0)
			return -1;
		int64_t *slot = pk_res_acc_slot(acc, d, pk_intern(d->strs, name));
		if (!slot) {
			snprintf(err, errsize, "%s: more than %d distinct resources", what, MAX_SCALARS);
			return -1;
		}
		*slot += v;
	}
	return 0;
}

/* Is name one of the spec's containers (app or init)? */
static bool spec_has_container(const cJSON *const *spec, const char *name)
{
	const int lists[2] = { S_CONTAINERS, S_INIT_CONTAINERS };
	for (int l = 0; l < 2; l++) {
		const cJSON *c;
		cJSON_ArrayForEach(c, spec[lists[l]]) {
			const char *n = pk_str(c, "name");
			if (n && strcmp(n, name) == 0)
				return true;
		}
	}
	return false;
}

/* One claim status: its mappings and perPod overheads for the pod's
 * lifetime; a perContainer overhead for each container it names (one the
 * spec lacks: for the pod's lifetime, as upstream charges it). */
static int add_claim_status(pk_dra_extra *x, pk_decoder *d, const cJSON *cs, const cJSON *const *spec, char *err,
                            size_t errsize)
{
	if (add_entries(&x->pod_fixed, d, pk_get(cs, "resources"), NULL,
	                "status.nodeAllocatableResourceClaimStatuses[].resources", err, errsize) < 0 ||
	    add_entries(&x->pod_fixed, d, pk_get(cs, "mapping"), "quantity",
	                "status.nodeAllocatableResourceClaimStatuses[].mapping", err, errsize) < 0 ||
	    add_entries(&x->pod_fixed, d, pk_get(cs, "overhead"), "perPod",
	                "status.nodeAllocatableResourceClaimStatuses[].overhead", err, errsize) < 0)
		return -1;
	pk_res_acc per = { 0 };
	if (add_entries(&per, d, pk_get(cs, "overhead"), "perContainer",
	                "status.nodeAllocatableResourceClaimStatuses[].overhead", err, errsize) < 0)
		return -1;
	const cJSON *c;
	cJSON_ArrayForEach(c, pk_get(cs, "containers")) {
		if (!cJSON_IsString(c))
			continue;
		pk_res_acc *slot = spec_has_container(spec, c->valuestring)
		                           ? pk_dra_extra_container(x, pk_intern(d->strs, c->valuestring))
		                           : &x->pod_fixed;
		if (!slot) {
			snprintf(err, errsize, "status.nodeAllocatableResourceClaimStatuses: more than %d containers",
			         PK_DRA_MAX_CONTAINERS);
			return -1;
		}
		pk_res_acc_add(slot, d, &per);
	}
	return 0;
}

int pk_pod_nodealloc_requests(pk_decoder *d, const cJSON *statuses, const cJSON *const *spec, const pk_res **out,
                              char *err, size_t errsize)
{
	*out = NULL;
	if (!cJSON_IsArray(statuses) || cJSON_GetArraySize(statuses) == 0)
		return 0;
	pk_dra_extra x;
	memset(&x, 0, sizeof x);
	const cJSON *cs;
	cJSON_ArrayForEach(cs, statuses)
		if (add_claim_status(&x, d, cs, spec, err, errsize) < 0)
			return -1;
	pk_res *r = pk_arena_alloc(d->arena, sizeof *r);
	if (pk_pod_requests_with_dra(d, spec, &x, r, err, errsize) < 0)
		return -1;
	*out = r;
	return 0;
}

/* Does container c (an app container or a sidecar) name claim in
 * resources.claims? */
static bool container_names_claim(const cJSON *c, const char *claim)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, pk_getp(c, "resources.claims")) {
		const char *n = pk_str(it, "name");
		if (n && strcmp(n, claim) == 0)
			return true;
	}
	return false;
}

const pk_dra_claim_refs *pk_pod_dra_claim_refs(pk_decoder *d, const cJSON *const *spec)
{
	int n = cJSON_GetArraySize(spec[S_CLAIMS]);
	if (n <= 0)
		return NULL;
	pk_dra_claim_refs *r = pk_arena_alloc(d->arena, sizeof *r);
	r->claims = pk_arena_alloc(d->arena, sizeof *r->claims * (size_t)n);
	r->containers = pk_arena_alloc(d->arena, sizeof *r->containers * (size_t)n);
	r->n = 0;
	const cJSON *pc;
	cJSON_ArrayForEach(pc, spec[S_CLAIMS]) {
		const char *name = pk_str(pc, "name");
		if (!name)
			continue;
		int k = 0;
		const cJSON *c;
		cJSON_ArrayForEach(c, spec[S_CONTAINERS])
			k += container_names_claim(c, name);
		cJSON_ArrayForEach(c, spec[S_INIT_CONTAINERS]) {
			const char *rp = pk_str(c, "restartPolicy");
			k += rp && strcmp(rp, "Always") == 0 && container_names_claim(c, name);
		}
		r->claims[r->n] = pk_intern(d->strs, name);
		r->containers[r->n++] = k;
	}
	return r;
}

long pk_dra_nodealloc_devices(const pk_dra_set *s)
{
	long n = 0;
	for (long i = 0; i < s->nslices; i++)
		for (int k = 0; k < s->slices[i].ndevices; k++)
			n += s->slices[i].devices[k].nnodealloc > 0;
	return n;
}
