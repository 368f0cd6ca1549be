/* Tolerations, device taints and counters, decoded (dra_devices.h). */
#include "k8s/dra_devices.h"

#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/strtab.h"
#include "k8s/json.h"
#include "k8s/profile.h"
#include "k8s/quantity.h"

static int count_of(const cJSON *a)
{
	return cJSON_IsArray(a) || cJSON_IsObject(a) ? cJSON_GetArraySize(a) : 0;
}

static void *arena_array(pk_decoder *d, int n, size_t size)
{
	return n > 0 ? pk_arena_alloc(d->arena, size * (size_t)n) : NULL;
}

static const char *istr(pk_decoder *d, const cJSON *obj, const char *key)
{
	const char *s = pk_str(obj, key);
	return pk_intern(d->strs, s ? s : "");
}

/* A device taint's effect: the two that prevent an allocation, or
 * PK_DRA_EFFECT_NONE (None, or one this release does not know: ignored,
 * as taintPreventsAllocation ignores them); "" (a toleration's) -1. */
int pk_dra_taint_effect(const char *s)
{
	if (!s || !*s)
		return -1;
	if (strcmp(s, "NoSchedule") == 0)
		return PK_EFFECT_NO_SCHEDULE;
	if (strcmp(s, "NoExecute") == 0)
		return PK_EFFECT_NO_EXECUTE;
	return PK_DRA_EFFECT_NONE;
}

void pk_dra_decode_tolerations(pk_decoder *d, const cJSON *list, pk_dra_request *rq)
{
	rq->tolerations = arena_array(d, count_of(list), sizeof *rq->tolerations);
	rq->ntolerations = 0;
	const cJSON *t, *arr = cJSON_IsArray(list) ? list : NULL;
	cJSON_ArrayForEach(t, arr) {
		pk_toleration *x = &rq->tolerations[rq->ntolerations++];
		*x = (pk_toleration){ .key = istr(d, t, "key"), .value = istr(d, t, "value"), .op = PK_TOL_EQUAL,
			              .effect = pk_dra_taint_effect(pk_str(t, "effect")) };
		const char *op = pk_str_or(t, "operator", "Equal");
		if (strcmp(op, "Exists") == 0)
			x->op = PK_TOL_EXISTS;
		else if (*op && strcmp(op, "Equal") != 0)
			x->effect = PK_DRA_EFFECT_NONE; /* ToleratesTaint: false */
	}
}

/* counters: {"name": {"value": quantity}, ...} */
static int decode_counters(pk_decoder *d, const cJSON *map, pk_dra_counter_set *set, const char *what,
                           char *err, size_t errsize)
{
	set->counters = arena_array(d, cJSON_IsObject(map) ? count_of(map) : 0, sizeof *set->counters);
	set->ncounters = 0;
	const cJSON *c, *obj = cJSON_IsObject(map) ? map : NULL;
	cJSON_ArrayForEach(c, obj) {
		pk_dra_counter *x = &set->counters[set->ncounters++];
		x->name = pk_intern(d->strs, c->string);
		if (pk_qty_from_json(pk_get(c, "value"), &x->milli) != PK_QTY_OK) {
			snprintf(err, errsize, "%s \"%s\": counter \"%s\": value is not a quantity", what, set->name,
			         c->string);
			return -1;
		}
	}
	return 0;
}

/* sharedCounters[] (name) or consumesCounters[] (counterSet) */
static int decode_sets(pk_decoder *d, const cJSON *list, const char *name_key, pk_dra_counter_set **out, int *n,
                       const char *what, char *err, size_t errsize)
{
	*out = arena_array(d, cJSON_IsArray(list) ? count_of(list) : 0, sizeof **out);
	*n = 0;
	const cJSON *it, *arr = cJSON_IsArray(list) ? list : NULL;
	cJSON_ArrayForEach(it, arr) {
		pk_dra_counter_set *x = &(*out)[(*n)++];
		x->name = istr(d, it, name_key);
		if (decode_counters(d, pk_get(it, "counters"), x, what, err, errsize) < 0)
			return -1;
	}
	return 0;
}

int pk_dra_decode_device_extras(pk_decoder *d, const cJSON *body, pk_dra_device *dv, char *err, size_t errsize)
{
	/* one look at the device's fields (a GPU cluster has thousands of
	 * devices, most with none of these) */
	const cJSON *taints = NULL, *consumes = NULL, *f;
	cJSON_ArrayForEach(f, body) {
		if (!f->string)
			continue;
		if (strcmp(f->string, "taints") == 0)
			taints = f;
		else if (strcmp(f->string, "consumesCounters") == 0)
			consumes = f;
		else if (strcmp(f->string, "allowMultipleAllocations") == 0)
			dv->multi_alloc = cJSON_IsTrue(f);
	}
	dv->taints = arena_array(d, cJSON_IsArray(taints) ? count_of(taints) : 0, sizeof *dv->taints);
	dv->ntaints = 0;
	const cJSON *t, *arr = cJSON_IsArray(taints) ? taints : NULL;
	cJSON_ArrayForEach(t, arr) {
		int eff = pk_dra_taint_effect(pk_str(t, "effect"));
		if (eff != PK_EFFECT_NO_SCHEDULE && eff != PK_EFFECT_NO_EXECUTE)
			continue; /* None and unknown effects never prevent an allocation */
		dv->taints[dv->ntaints++] = (pk_taint){ .key = istr(d, t, "key"), .value = istr(d, t, "value"),
			                                .effect = (pk_taint_effect)eff };
	}
	if (!consumes)
		return 0;
	char what[400];
	snprintf(what, sizeof what, "device \"%s\": consumesCounters", dv->name);
	return decode_sets(d, consumes, "counterSet", &dv->consumes, &dv->nconsumes, what, err, errsize);
}

int pk_dra_decode_shared_counters(pk_decoder *d, const cJSON *spec, pk_dra_slice *sl, char *err, size_t errsize)
{
	return decode_sets(d, pk_get(spec, "sharedCounters"), "name", &sl->shared, &sl->nshared,
	                   "spec.sharedCounters", err, errsize);
}

/* ---- consumable capacity (DRAConsumableCapacity) ---- */

/* {name: quantity}: the amounts, keys as written; what names the field */
static int decode_amounts(pk_decoder *d, const cJSON *map, pk_dra_capacity_amount **out, int *n, const char *what,
                          char *err, size_t errsize)
{
	*out = arena_array(d, cJSON_IsObject(map) ? count_of(map) : 0, sizeof **out);
	*n = 0;
	const cJSON *it, *obj = cJSON_IsObject(map) ? map : NULL;
	cJSON_ArrayForEach(it, obj) {
		pk_dra_capacity_amount *x = &(*out)[(*n)++];
		x->key = pk_intern(d->strs, it->string);
		if (pk_qty_from_json(it, &x->milli) != PK_QTY_OK) {
			snprintf(err, errsize, "%s \"%s\": not a quantity", what, it->string);
			return -1;
		}
	}
	return 0;
}

int pk_dra_decode_capacity_request(pk_decoder *d, const cJSON *ex, pk_dra_request *rq, char *err, size_t errsize)
{
	const cJSON *cap = pk_get(ex, "capacity");
	if (!cap || cJSON_IsNull(cap))
		return 0;
	rq->has_capacity = true;
	char what[700];
	snprintf(what, sizeof what, "spec.devices.requests \"%s\": capacity.requests", rq->name);
	return decode_amounts(d, pk_get(cap, "requests"), &rq->capacity, &rq->ncapacity, what, err, errsize);
}

/* One quantity field of a requestPolicy: 0 absent, 1 read, -1 bad. */
static int policy_qty(const cJSON *obj, const char *key, int64_t *milli)
{
	const cJSON *v = pk_get(obj, key);
	if (!v || cJSON_IsNull(v))
		return 0;
	return pk_qty_from_json(v, milli) == PK_QTY_OK ? 1 : -1;
}

static int decode_policy(pk_decoder *d, const cJSON *rp, pk_dra_capacity_policy *p)
{
	p->has_policy = true;
	int k = policy_qty(rp, "default", &p->def);
	p->has_default = k > 0;
	if (k < 0)
		return -1;
	const cJSON *range = pk_get(rp, "validRange");
	if (range && !cJSON_IsNull(range)) {
		int m = policy_qty(range, "min", &p->min), x = policy_qty(range, "max", &p->max),
		    st = policy_qty(range, "step", &p->step);
		if (m < 0 || x < 0 || st < 0)
			return -1;
		/* calculateConsumedCapacity rounds only with a min (validation requires it) */
		p->has_range = m > 0;
		p->has_max = x > 0;
		p->has_step = st > 0 && p->step > 0;
	}
	const cJSON *vals = pk_get(rp, "validValues"), *v;
	if (!cJSON_IsArray(vals))
		vals = NULL;
	int64_t *vv = arena_array(d, count_of(vals), sizeof *vv);
	cJSON_ArrayForEach(v, vals)
		if (pk_qty_from_json(v, &vv[p->nvalid++]) != PK_QTY_OK)
			return -1;
	p->valid_values = vv;
	return 0;
}

/* Does a capacity of the map need a policies entry: a name with a domain
 * (its spelling is not the attribute's name alone) or a requestPolicy? */
static bool needs_policies(const cJSON *map)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, map)
		if (strchr(it->string, '/') || pk_get(it, "requestPolicy"))
			return true;
	return false;
}

int pk_dra_decode_capacity_policies(pk_decoder *d, const cJSON *map, pk_dra_device *dv, char *err, size_t errsize)
{
	if (!dv->ncapacity || !needs_policies(map))
		return 0; /* the common case: names as the attributes', no policy */
	dv->policies = arena_array(d, dv->ncapacity, sizeof *dv->policies);
	int i = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, map) {
		pk_dra_capacity_policy *p = &dv->policies[i++];
		*p = (pk_dra_capacity_policy){ .key = pk_intern(d->strs, it->string) };
		const cJSON *rp = pk_get(it, "requestPolicy");
		if (rp && !cJSON_IsNull(rp) && decode_policy(d, rp, p) < 0) {
			snprintf(err, errsize, "device \"%s\": capacity \"%s\": requestPolicy: a value is not a quantity",
			         dv->name, it->string);
			return -1;
		}
	}
	return 0;
}

int pk_dra_decode_result_capacity(pk_decoder *d, const cJSON *result, pk_dra_device_ref *ref, char *err,
                                  size_t errsize)
{
	/* one look at the result's fields (most have neither) */
	const cJSON *cc = NULL, *f;
	ref->share_id = NULL;
	cJSON_ArrayForEach(f, result) {
		if (!f->string)
			continue;
		if (strcmp(f->string, "shareID") == 0 && cJSON_IsString(f))
			ref->share_id = pk_intern(d->strs, f->valuestring);
		else if (strcmp(f->string, "consumedCapacity") == 0)
			cc = f;
	}
	if (!cc || cJSON_IsNull(cc))
		return 0;
	pk_dra_capacity_amount *v;
	char what[700];
	snprintf(what, sizeof what, "status.allocation.devices.results device \"%s\": consumedCapacity", ref->device);
	int rc = decode_amounts(d, cc, &v, &ref->nconsumed, what, err, errsize);
	ref->consumed = v;
	return rc;
}

unsigned pk_dra_features_off(const pk_release_profile *p)
{
	return (p->dra_device_taints ? 0 : PK_DRA_OFF_DEVICE_TAINTS) | (p->dra_admin_access ? 0 : PK_DRA_OFF_ADMIN_ACCESS) |
	       (p->dra_partitionable_devices ? 0 : PK_DRA_OFF_PARTITIONABLE) |
	       (p->dra_consumable_capacity ? 0 : PK_DRA_OFF_CONSUMABLE_CAPACITY) |
	       (p->dra_extended_resource ? 0 : PK_DRA_OFF_EXTENDED_RESOURCE) |
	       (p->dra_device_taint_rules ? 0 : PK_DRA_OFF_DEVICE_TAINT_RULES) |
	       (p->dra_workload_resource_claims ? 0 : PK_DRA_OFF_WORKLOAD_CLAIMS);
}
