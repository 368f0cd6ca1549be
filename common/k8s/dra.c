/* DRA objects and a pod's resource claims, decoded (dra.h). */
#include "k8s/dra.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/nsname.h"
#include "k8s/dra_nodealloc.h"
#include "k8s/dra_devices.h"
#include "k8s/dra_taintrule.h"
#include "k8s/json.h"
#include "k8s/quantity.h"

bool pk_dra_kind(const char *kind)
{
	return strcmp(kind, "ResourceClaim") == 0 || strcmp(kind, "ResourceClaimTemplate") == 0 ||
	       strcmp(kind, "DeviceClass") == 0 || strcmp(kind, "ResourceSlice") == 0 || pk_dra_taint_rule_kind(kind);
}

static const char *istr(pk_decoder *d, const cJSON *obj, const char *path)
{
	const char *s = pk_str(obj, path);
	return pk_intern(d->strs, s ? s : "");
}

static void *arena_array(pk_decoder *d, int n, size_t size)
{
	return n > 0 ? pk_arena_alloc(d->arena, size * (size_t)n) : NULL;
}

static int array_size(const cJSON *a)
{
	return cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
}

/* selectors[].cel.expression */
static int decode_selectors(pk_decoder *d, const cJSON *list, pk_dra_selector **out, int *n, const char *what,
                            char *err, size_t errsize)
{
	*out = arena_array(d, array_size(list), sizeof **out);
	*n = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, list) {
		const char *expr = pk_str(it, "cel.expression");
		if (!expr) {
			snprintf(err, errsize, "%s.selectors[%d]: no cel.expression", what, *n);
			return -1;
		}
		(*out)[(*n)++] = (pk_dra_selector){ .expression = pk_intern(d->strs, expr), .error = pk_intern(d->strs, "") };
	}
	return 0;
}

/* A node selector's nodeSelectorTerms; what prefixes the message. */
static int compile_terms(pk_decoder *d, const cJSON *sel, pk_node_term **out, int *n, const char *what,
                         char *err, size_t errsize)
{
	char why[300];
	if (pk_node_terms_compile(d->arena, pk_get(sel, "nodeSelectorTerms"), out, n, "", why, sizeof why) < 0) {
		snprintf(err, errsize, "%s: %s", what, why);
		return -1;
	}
	return 0;
}

/* ---- ResourceClaim ----------------------------------------------------------- */

/* One request: v1's exactly {...} or v1beta1's fields on the request; a
 * firstAvailable subrequest's on it (sub: named "<parent>/<name>"). */
static int decode_request(pk_decoder *d, const cJSON *rq, pk_dra_request *out, const char **unsupported,
                          const char *parent, char *err, size_t errsize)
{
	const cJSON *ex = pk_get(rq, "exactly");
	if (!ex)
		ex = rq; /* v1beta1, and a subrequest */
	*out = (pk_dra_request){ .name = istr(d, rq, "name"), .class_name = istr(d, ex, "deviceClassName"), .count = 1 };
	if (parent) {
		char full[600];
		snprintf(full, sizeof full, "%s/%s", parent, out->name);
		out->name = pk_intern(d->strs, full);
	}
	out->admin_access = pk_bool(ex, "adminAccess");
	pk_dra_decode_tolerations(d, pk_get(ex, "tolerations"), out);
	if (pk_dra_decode_capacity_request(d, ex, out, err, errsize) < 0)
		return -1;
	const char *mode = pk_str_or(ex, "allocationMode", "ExactCount");
	out->all = strcmp(mode, "All") == 0;
	const cJSON *count = pk_get(ex, "count");
	if (count && !cJSON_IsNull(count) && (!pk_num_int64(count, &out->count) || out->count < 1)) {
		snprintf(err, errsize, "spec.devices.requests \"%s\": count is not an integer >= 1", out->name);
		return -1;
	}
	char what[700];
	snprintf(what, sizeof what, "spec.devices.requests \"%s\"", out->name);
	if (decode_selectors(d, pk_get(ex, "selectors"), &out->selectors, &out->nselectors, what, err, errsize) < 0)
		return -1;
	const cJSON *subs = parent || *out->class_name ? NULL : pk_get(rq, "firstAvailable");
	out->subs = arena_array(d, array_size(subs), sizeof *out->subs);
	const cJSON *it;
	cJSON_ArrayForEach(it, subs)
		if (decode_request(d, it, &out->subs[out->nsubs++], unsupported, out->name, err, errsize) < 0)
			return -1;
	return 0;
}

static void decode_owner(pk_decoder *d, const cJSON *obj, pk_dra_claim *c)
{
	c->owner_kind = c->owner_name = c->owner_uid = pk_intern(d->strs, "");
	const cJSON *ref;
	cJSON_ArrayForEach(ref, pk_getp(obj, "metadata.ownerReferences"))
		if (pk_bool(ref, "controller")) {
			c->owner_kind = istr(d, ref, "kind");
			c->owner_name = istr(d, ref, "name");
			c->owner_uid = istr(d, ref, "uid");
		}
}

static int decode_allocation(pk_decoder *d, const cJSON *alloc, pk_dra_claim *c, char *err, size_t errsize)
{
	c->allocated = true;
	const cJSON *results = pk_getp(alloc, "devices.results");
	c->devices = arena_array(d, array_size(results), sizeof *c->devices);
	const cJSON *r;
	cJSON_ArrayForEach(r, results) {
		pk_dra_device_ref *x = &c->devices[c->ndevices++];
		*x = (pk_dra_device_ref){ istr(d, r, "request"), istr(d, r, "driver"), istr(d, r, "pool"),
			                  istr(d, r, "device"), pk_bool(r, "adminAccess"), NULL, NULL, 0 };
		if (pk_dra_decode_result_capacity(d, r, x, err, errsize) < 0)
			return -1;
	}
	const cJSON *sel = pk_get(alloc, "nodeSelector");
	if (sel && !cJSON_IsNull(sel)) {
		c->has_node_selector = true;
		return compile_terms(d, sel, &c->node_terms, &c->nnode_terms, "status.allocation.nodeSelector", err,
		                     errsize);
	}
	return 0;
}

/* A claim spec's devices (a ResourceClaim's spec.devices, a template's
 * spec.spec.devices): its requests, and what this slice does not model. */
static void split_name(pk_decoder *d, const char *q, const char *driver, pk_cel_attr *a);

/* constraints[]: matchAttribute and distinctAttribute ones; any other kind
 * is not modelled. */
static void decode_constraints(pk_decoder *d, const cJSON *list, pk_dra_constraint **out, int *n,
                               const char **unsupported)
{
	*out = arena_array(d, array_size(list), sizeof **out);
	*n = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, list) {
		const char *attr = pk_str(it, "matchAttribute"), *distinct = pk_str(it, "distinctAttribute");
		if (!attr && !distinct) {
			*unsupported = "constraints other than matchAttribute and distinctAttribute";
			continue;
		}
		pk_dra_constraint *c = &(*out)[(*n)++];
		c->distinct = !attr;
		if (!attr)
			attr = distinct;
		pk_cel_attr a = { 0 };
		split_name(d, attr, pk_intern(d->strs, ""), &a);
		c->domain = a.domain;
		c->name = a.name;
		const cJSON *reqs = pk_get(it, "requests");
		c->requests = arena_array(d, array_size(reqs), sizeof *c->requests);
		c->nrequests = 0;
		const cJSON *r;
		cJSON_ArrayForEach(r, reqs)
			if (cJSON_IsString(r))
				c->requests[c->nrequests++] = pk_intern(d->strs, r->valuestring);
	}
}

/* Does a request (or a subrequest of it) ask for capacity? */
static bool asks_capacity(const pk_dra_request *rq, int n)
{
	for (int i = 0; i < n; i++)
		if (rq[i].has_capacity || asks_capacity(rq[i].subs, rq[i].nsubs))
			return true;
	return false;
}

static int decode_devices(pk_decoder *d, const cJSON *devs, pk_dra_request **requests, int *n,
                          pk_dra_constraint **constraints, int *nconstraints, const char **unsupported, char *err,
                          size_t errsize)
{
	const cJSON *reqs = pk_get(devs, "requests");
	*requests = arena_array(d, array_size(reqs), sizeof **requests);
	*n = 0;
	const cJSON *rq;
	cJSON_ArrayForEach(rq, reqs)
		if (decode_request(d, rq, &(*requests)[(*n)++], unsupported, NULL, err, errsize) < 0)
			return -1;
	decode_constraints(d, pk_get(devs, "constraints"), constraints, nconstraints, unsupported);
	return 0;
}

static int add_claim(pk_dra_set *s, pk_decoder *d, const cJSON *obj, long record, char *err, size_t errsize)
{
	pk_dra_claim c = {
		.namespace_ = pk_intern(d->strs, *pk_namespace(obj) ? pk_namespace(obj) : "default"),
		.name = istr(d, obj, "metadata.name"),
		.record = record,
		.alloc_node = "",
	};
	const cJSON *del = pk_getp(obj, "metadata.deletionTimestamp");
	c.deleting = del && !cJSON_IsNull(del);
	decode_owner(d, obj, &c);
	if (decode_devices(d, pk_getp(obj, "spec.devices"), &c.requests, &c.nrequests, &c.constraints, &c.nconstraints,
	                   &c.unsupported, err, errsize) < 0)
		return -1;
	s->capacity_requests |= asks_capacity(c.requests, c.nrequests);
	const cJSON *alloc = pk_getp(obj, "status.allocation");
	if (alloc && !cJSON_IsNull(alloc) && decode_allocation(d, alloc, &c, err, errsize) < 0) {
		pk_node_terms_free(c.node_terms, c.nnode_terms);
		return -1;
	}
	const cJSON *rf = pk_getp(obj, "status.reservedFor");
	int n = array_size(rf);
	c.reserved_uids = arena_array(d, n, sizeof *c.reserved_uids);
	c.reserved_names = arena_array(d, n, sizeof *c.reserved_names);
	const cJSON *it;
	cJSON_ArrayForEach(it, rf) {
		c.reserved_uids[c.nreserved] = istr(d, it, "uid");
		c.reserved_names[c.nreserved++] = istr(d, it, "name");
		if (!c.reserved_group && strcmp(istr(d, it, "resource"), "podgroups") == 0)
			c.reserved_group = c.reserved_names[c.nreserved - 1];
	}
	s->claims = pk_grow(s->claims, &s->claimcap, (size_t)s->nclaims + 1, sizeof *s->claims);
	s->claims[s->nclaims++] = c;
	return 0;
}

/* ---- DeviceClass, ResourceClaimTemplate ----------------------------------------- */

static int add_class(pk_dra_set *s, pk_decoder *d, const cJSON *obj, char *err, size_t errsize)
{
	pk_dra_class c = { .name = istr(d, obj, "metadata.name"),
		           .extended_resource_name = istr(d, obj, "spec.extendedResourceName") };
	if (decode_selectors(d, pk_getp(obj, "spec.selectors"), &c.selectors, &c.nselectors, "spec", err, errsize) < 0)
		return -1;
	s->classes = pk_grow(s->classes, &s->classcap, (size_t)s->nclasses + 1, sizeof *s->classes);
	s->classes[s->nclasses++] = c;
	return 0;
}

static int add_template(pk_dra_set *s, pk_decoder *d, const cJSON *obj, char *err, size_t errsize)
{
	pk_dra_template t = {
		.namespace_ = pk_intern(d->strs, *pk_namespace(obj) ? pk_namespace(obj) : "default"),
		.name = istr(d, obj, "metadata.name"),
	};
	if (decode_devices(d, pk_getp(obj, "spec.spec.devices"), &t.requests, &t.nrequests, &t.constraints,
	                   &t.nconstraints, &t.unsupported, err, errsize) < 0)
		return -1;
	s->capacity_requests |= asks_capacity(t.requests, t.nrequests);
	s->templates = pk_grow(s->templates, &s->templatecap, (size_t)s->ntemplates + 1, sizeof *s->templates);
	s->templates[s->ntemplates++] = t;
	return 0;
}

/* ---- ResourceSlice ---------------------------------------------------------------- */

/* A qualified attribute name "domain/name", or an unqualified one of the driver's domain. */
static void split_name(pk_decoder *d, const char *q, const char *driver, pk_cel_attr *a)
{
	const char *slash = strrchr(q, '/');
	if (!slash) {
		a->domain = driver;
		a->name = pk_intern(d->strs, q);
		return;
	}
	char *dom = pk_xmalloc((size_t)(slash - q) + 1);
	memcpy(dom, q, (size_t)(slash - q));
	dom[slash - q] = '\0';
	a->domain = pk_intern(d->strs, dom);
	a->name = pk_intern(d->strs, slash + 1);
	free(dom);
}

static int decode_attrs(pk_decoder *d, const cJSON *map, const char *driver, pk_cel_attr **out, int *n, bool capacity,
                        const char *dev, char *err, size_t errsize)
{
	*out = arena_array(d, cJSON_IsObject(map) ? cJSON_GetArraySize(map) : 0, sizeof **out);
	*n = 0;
	const cJSON *it, *obj = cJSON_IsObject(map) ? map : NULL;
	cJSON_ArrayForEach(it, obj) {
		pk_cel_attr a = { 0 };
		split_name(d, it->string, driver, &a);
		const cJSON *v;
		if (capacity) {
			a.kind = PK_CEL_V_QUANTITY;
			if (pk_qty_from_json(pk_get(it, "value"), &a.milli) != PK_QTY_OK) {
				snprintf(err, errsize, "device \"%s\": capacity \"%s\": value is not a quantity", dev, it->string);
				return -1;
			}
		} else if ((v = pk_get(it, "bool")) && cJSON_IsBool(v)) {
			a.kind = PK_CEL_V_BOOL;
			a.b = cJSON_IsTrue(v);
		} else if ((v = pk_get(it, "int")) && pk_num_int64(v, &a.i)) {
			a.kind = PK_CEL_V_INT;
		} else if ((v = pk_get(it, "string")) && cJSON_IsString(v)) {
			a.kind = PK_CEL_V_STRING;
			a.s = pk_intern(d->strs, v->valuestring);
		} else if ((v = pk_get(it, "version")) && cJSON_IsString(v)) {
			a.kind = PK_CEL_V_VERSION;
			a.s = pk_intern(d->strs, v->valuestring);
		} else {
			continue; /* a list-typed or future attribute: not visible to the selectors here */
		}
		(*out)[(*n)++] = a;
	}
	return 0;
}

static int add_slice(pk_dra_set *s, pk_decoder *d, const cJSON *obj, char *err, size_t errsize)
{
	const cJSON *spec = pk_get(obj, "spec");
	pk_dra_slice sl = {
		.name = istr(d, obj, "metadata.name"),
		.driver = istr(d, spec, "driver"),
		.pool = istr(d, spec, "pool.name"),
		.node_name = istr(d, spec, "nodeName"),
		.all_nodes = pk_bool(spec, "allNodes"),
	};
	pk_num_int64(pk_getp(spec, "pool.generation"), &sl.generation);
	const cJSON *sel = pk_get(spec, "nodeSelector");
	if (sel && !cJSON_IsNull(sel)) {
		sl.has_node_selector = true;
		if (compile_terms(d, sel, &sl.node_terms, &sl.nnode_terms, "spec.nodeSelector", err, errsize) < 0) {
			pk_node_terms_free(sl.node_terms, sl.nnode_terms);
			return -1;
		}
	}
	const cJSON *devs = pk_get(spec, "devices");
	sl.devices = arena_array(d, array_size(devs), sizeof *sl.devices);
	const cJSON *dv;
	cJSON_ArrayForEach(dv, devs) {
		const cJSON *basic = pk_get(dv, "basic"); /* v1beta1 */
		const cJSON *body = basic ? basic : dv;
		pk_dra_device *x = &sl.devices[sl.ndevices];
		*x = (pk_dra_device){ .name = istr(d, dv, "name") };
		for (int k = 0; k < sl.ndevices; k++)
			if (sl.devices[k].name == x->name) {
				snprintf(err, errsize, "spec.devices: duplicate device name \"%s\"", x->name);
				pk_node_terms_free(sl.node_terms, sl.nnode_terms);
				return -1;
			}
		if (decode_attrs(d, pk_get(body, "attributes"), sl.driver, &x->attrs, &x->nattrs, false, x->name, err,
		                 errsize) < 0 ||
		    decode_attrs(d, pk_get(body, "capacity"), sl.driver, &x->capacity, &x->ncapacity, true, x->name, err,
		                 errsize) < 0 ||
		    pk_dra_decode_capacity_policies(d, pk_get(body, "capacity"), x, err, errsize) < 0 ||
		    pk_dra_device_nodealloc_decode(d, body, x, err, errsize) < 0 || /* k8s/dra_nodealloc.c */
		    pk_dra_decode_device_extras(d, body, x, err, errsize) < 0) {
			pk_node_terms_free(sl.node_terms, sl.nnode_terms);
			return -1;
		}
		s->multi_alloc_devices |= x->multi_alloc;
		for (int k = 0; x->policies && k < x->ncapacity; k++)
			s->capacity_policies |= x->policies[k].has_policy;
		s->counter_devices |= x->nconsumes > 0;
		sl.ndevices++;
	}
	if (pk_dra_decode_shared_counters(d, spec, &sl, err, errsize) < 0) {
		pk_node_terms_free(sl.node_terms, sl.nnode_terms);
		return -1;
	}
	s->slices = pk_grow(s->slices, &s->slicecap, (size_t)s->nslices + 1, sizeof *s->slices);
	s->slices[s->nslices++] = sl;
	return 0;
}

int pk_dra_set_add(pk_dra_set *s, pk_decoder *d, const cJSON *obj, long record, char *err, size_t errsize)
{
	const char *kind = pk_kind(obj);
	s->finished = false;
	if (strcmp(kind, "ResourceClaim") == 0)
		return add_claim(s, d, obj, record, err, errsize);
	if (strcmp(kind, "DeviceClass") == 0)
		return add_class(s, d, obj, err, errsize);
	if (strcmp(kind, "ResourceSlice") == 0)
		return add_slice(s, d, obj, err, errsize);
	if (pk_dra_taint_rule_kind(kind))
		return pk_dra_taint_rule_add(s, d, obj, record, err, errsize);
	return add_template(s, d, obj, err, errsize);
}

/* ---- finish and look-ups ------------------------------------------------------------- */

static int claim_cmp(const void *a, const void *b)
{
	const pk_dra_claim *x = a, *y = b;
	int c = strcmp(x->namespace_, y->namespace_);
	if (!c)
		c = strcmp(x->name, y->name);
	return c ? c : (x->record < y->record) - (x->record > y->record); /* the last read first */
}

static int class_cmp(const void *a, const void *b)
{
	const pk_dra_class *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x > y) - (x < y);
}

/* Slices by driver, pool, then name: a node's devices in a fixed order. */
static int slice_cmp(const void *a, const void *b)
{
	const pk_dra_slice *x = a, *y = b;
	int c = strcmp(x->driver, y->driver);
	if (!c)
		c = strcmp(x->pool, y->pool);
	return c ? c : strcmp(x->name, y->name);
}

static void compile_selectors(pk_decoder *d, pk_dra_selector *sel, int n);

/* A request's selectors and its subrequests', compiled once. */
static void compile_requests(pk_decoder *d, pk_dra_request *rq, int n)
{
	for (int r = 0; r < n; r++) {
		compile_selectors(d, rq[r].selectors, rq[r].nselectors);
		compile_requests(d, rq[r].subs, rq[r].nsubs);
	}
}

static void compile_selectors(pk_decoder *d, pk_dra_selector *sel, int n)
{
	for (int i = 0; i < n; i++) {
		if (sel[i].program || *sel[i].error)
			continue;
		char err[400] = "";
		sel[i].program = pk_cel_compile(sel[i].expression, err, sizeof err);
		if (!sel[i].program)
			sel[i].error = pk_intern(d->strs, *err ? err : "does not compile");
	}
}

static int ref_cmp3(const pk_dra_device_ref *x, const char *driver, const char *pool, const char *device)
{
	uintptr_t a[3] = { (uintptr_t)x->driver, (uintptr_t)x->pool, (uintptr_t)x->device };
	uintptr_t b[3] = { (uintptr_t)driver, (uintptr_t)pool, (uintptr_t)device };
	for (int i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

typedef struct held_pair {
	const pk_dra_device_ref *ref;
	const pk_dra_claim *claim;
} held_pair;

int pk_dra_ref_cmp(const pk_dra_device_ref *x, const pk_dra_device_ref *y)
{
	return ref_cmp3(x, y->driver, y->pool, y->device);
}

static int held_cmp(const void *a, const void *b)
{
	return pk_dra_ref_cmp(((const held_pair *)a)->ref, ((const held_pair *)b)->ref);
}

/* Is the result a share of a device (DRAConsumableCapacity on and a
 * shareID), not the claim's alone? */
static bool is_share(const pk_dra_set *s, const pk_dra_device_ref *r)
{
	return r->share_id && !(s->off & PK_DRA_OFF_CONSUMABLE_CAPACITY);
}

/* The results that are shares, sorted (s->shared). */
static void index_shared(pk_dra_set *s)
{
	free(s->shared);
	s->shared = NULL;
	s->nshared = 0;
	long n = 0;
	for (long i = 0; i < s->nclaims + s->nmade; i++) {
		const pk_dra_claim *c = i < s->nclaims ? &s->claims[i] : s->made[i - s->nclaims];
		for (int j = 0; c->allocated && j < c->ndevices; j++)
			n += !c->devices[j].admin_access && is_share(s, &c->devices[j]);
	}
	if (!n)
		return;
	held_pair *pairs = pk_xmalloc(sizeof *pairs * (size_t)n);
	long k = 0;
	for (long i = 0; i < s->nclaims + s->nmade; i++) {
		const pk_dra_claim *c = i < s->nclaims ? &s->claims[i] : s->made[i - s->nclaims];
		for (int j = 0; c->allocated && j < c->ndevices; j++)
			if (!c->devices[j].admin_access && is_share(s, &c->devices[j]))
				pairs[k++] = (held_pair){ &c->devices[j], c };
	}
	qsort(pairs, (size_t)n, sizeof *pairs, held_cmp);
	s->shared = pk_xmalloc(sizeof *s->shared * (size_t)n);
	for (long i = 0; i < n; i++)
		s->shared[i] = pairs[i].ref;
	s->nshared = n;
	free(pairs);
}

/* The first of the n refs (sorted by ref_cmp) not below (driver, pool, device). */
static long ref_lower_bound(const pk_dra_device_ref *const *refs, long n, const char *driver, const char *pool,
                            const char *device)
{
	long lo = 0, hi = n;
	while (lo < hi) {
		long mid = (lo + hi) / 2;
		if (ref_cmp3(refs[mid], driver, pool, device) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

long pk_dra_shares_of(const pk_dra_set *s, const char *driver, const char *pool, const char *device, long *first)
{
	long lo = ref_lower_bound(s->shared, s->nshared, driver, pool, device);
	long end = lo;
	while (end < s->nshared && ref_cmp3(s->shared[end], driver, pool, device) == 0)
		end++;
	*first = lo;
	return end - lo;
}

/* The devices allocated claims hold (allocateddevices.go
 * foreachAllocatedDevice: every allocated claim's results but those with
 * adminAccess, which are not held, and, DRAConsumableCapacity on, those
 * with a shareID, which are shares: index_shared). */
static void index_held(pk_dra_set *s)
{
	long n = 0;
	for (long i = 0; i < s->nclaims; i++)
		n += s->claims[i].allocated ? s->claims[i].ndevices : 0;
	for (long i = 0; i < s->nmade; i++)
		n += s->made[i]->allocated ? s->made[i]->ndevices : 0;
	held_pair *pairs = pk_xmalloc(sizeof *pairs * (size_t)(n + 1));
	long k = 0;
	for (long i = 0; i < s->nclaims; i++)
		for (int j = 0; s->claims[i].allocated && j < s->claims[i].ndevices; j++)
			if (!s->claims[i].devices[j].admin_access && !is_share(s, &s->claims[i].devices[j]))
				pairs[k++] = (held_pair){ &s->claims[i].devices[j], &s->claims[i] };
	for (long i = 0; i < s->nmade; i++)
		for (int j = 0; s->made[i]->allocated && j < s->made[i]->ndevices; j++)
			if (!s->made[i]->devices[j].admin_access && !is_share(s, &s->made[i]->devices[j]))
				pairs[k++] = (held_pair){ &s->made[i]->devices[j], s->made[i] };
	n = k;
	if (n > 1)
		qsort(pairs, (size_t)n, sizeof *pairs, held_cmp);
	free(s->held);
	free(s->held_by);
	s->held = pk_xmalloc(sizeof *s->held * (size_t)(n + 1));
	s->held_by = pk_xmalloc(sizeof *s->held_by * (size_t)(n + 1));
	for (long i = 0; i < n; i++) {
		s->held[i] = pairs[i].ref;
		s->held_by[i] = pairs[i].claim;
	}
	s->nheld = n;
	s->generation++;
	free(pairs);
	index_shared(s);
}

void pk_dra_set_gates(pk_dra_set *s, unsigned off)
{
	bool reindex = ((s->off ^ off) & PK_DRA_OFF_CONSUMABLE_CAPACITY) && s->finished;
	s->off = off;
	if (reindex)
		index_held(s);
}

const pk_dra_claim *pk_dra_holder(const pk_dra_set *s, const char *driver, const char *pool, const char *device)
{
	long lo = ref_lower_bound(s->held, s->nheld, driver, pool, device);
	return lo < s->nheld && ref_cmp3(s->held[lo], driver, pool, device) == 0 ? s->held_by[lo] : NULL;
}

/* ---- the run's changes ------------------------------------------------------------- */

pk_dra_claim *pk_dra_claim_make(pk_dra_set *s, pk_arena *arena, const pk_dra_template *t, const char *name,
                                const char *owner_name, const char *owner_uid)
{
	pk_dra_claim *c = pk_arena_alloc(arena, sizeof *c);
	*c = (pk_dra_claim){ .namespace_ = t->namespace_, .name = name, .record = -1, .owner_kind = "Pod",
		             .owner_name = owner_name, .owner_uid = owner_uid, .requests = t->requests,
		             .nrequests = t->nrequests, .constraints = t->constraints, .nconstraints = t->nconstraints,
		             .unsupported = t->unsupported, .alloc_node = "" };
	s->made = pk_grow(s->made, &s->madecap, (size_t)s->nmade + 1, sizeof *s->made);
	s->made[s->nmade++] = c;
	return c;
}

pk_dra_claim *pk_dra_made_claim_get(const pk_dra_set *s, const char *ns, const char *name)
{
	for (long i = 0; i < s->nmade; i++)
		if (!s->made[i]->deleted && strcmp(s->made[i]->name, name) == 0 && strcmp(s->made[i]->namespace_, ns) == 0)
			return s->made[i];
	return NULL;
}

void pk_dra_claim_allocate(pk_dra_set *s, pk_dra_claim *c, pk_dra_device_ref *devs, int n, const char *node)
{
	c->allocated = true;
	c->played = true;
	c->devices = devs;
	c->ndevices = n;
	c->has_node_selector = false; /* the input's terms, if any, are freed with the set */
	c->alloc_node = node ? node : "";
	index_held(s);
}

static bool same_consumer(const pk_dra_claim *c, int i, const char *uid, const char *name)
{
	if (*uid && *c->reserved_uids[i])
		return strcmp(c->reserved_uids[i], uid) == 0;
	return strcmp(c->reserved_names[i], name) == 0;
}

void pk_dra_claim_reserve(pk_dra_claim *c, pk_arena *arena, const char *uid, const char *name)
{
	for (int i = 0; i < c->nreserved; i++)
		if (same_consumer(c, i, uid, name))
			return;
	const char **uids = pk_arena_alloc(arena, sizeof *uids * (size_t)(c->nreserved + 1));
	const char **names = pk_arena_alloc(arena, sizeof *names * (size_t)(c->nreserved + 1));
	if (c->nreserved) {
		memcpy(uids, c->reserved_uids, sizeof *uids * (size_t)c->nreserved);
		memcpy(names, c->reserved_names, sizeof *names * (size_t)c->nreserved);
	}
	uids[c->nreserved] = uid;
	names[c->nreserved++] = name;
	c->reserved_uids = uids;
	c->reserved_names = names;
}

bool pk_dra_claim_unreserve(pk_dra_set *s, pk_dra_claim *c, const char *uid, const char *name)
{
	int k = 0, before = c->nreserved;
	for (int i = 0; i < c->nreserved; i++)
		if (!same_consumer(c, i, uid, name)) {
			c->reserved_uids[k] = c->reserved_uids[i];
			c->reserved_names[k++] = c->reserved_names[i];
		}
	c->nreserved = k;
	/* controller.go syncClaim: deallocated on the transition from used to
	 * unused only (a claim allocated and never reserved stays allocated) */
	if (k == before || k > 0 || !c->allocated)
		return false;
	pk_dra_claim_deallocate(s, c);
	return true;
}

void pk_dra_claim_deallocate(pk_dra_set *s, pk_dra_claim *c)
{
	c->allocated = false;
	c->ndevices = 0;
	c->has_node_selector = false;
	c->alloc_node = "";
	index_held(s);
}

bool pk_dra_claim_owned_by(const pk_dra_claim *c, const char *uid, const char *name)
{
	if (strcmp(c->owner_kind, "Pod") != 0)
		return false;
	if (*uid && *c->owner_uid)
		return strcmp(c->owner_uid, uid) == 0;
	return strcmp(c->owner_name, name) == 0;
}

void pk_dra_claim_delete(pk_dra_set *s, pk_dra_claim *c)
{
	if (c->deleted)
		return;
	c->deleted = true;
	c->nreserved = 0;
	for (long i = 0; c->record < 0 && i < s->nmade; i++)
		if (s->made[i] == c) {
			s->made[i] = s->made[--s->nmade];
			break;
		}
	pk_dra_claim_deallocate(s, c);
}

void pk_dra_claim_undelete(pk_dra_set *s, pk_dra_claim *c)
{
	if (!c->deleted)
		return;
	c->deleted = false;
	if (c->record < 0) {
		s->made = pk_grow(s->made, &s->madecap, (size_t)s->nmade + 1, sizeof *s->made);
		s->made[s->nmade++] = c;
	}
}

/* pinned[] sorted by (node name, index): a node's slices in the set's order */
static int pinned_cmp(const void *a, const void *b, void *ctx)
{
	const pk_dra_slice *sl = ctx;
	long x = *(const long *)a, y = *(const long *)b;
	int c = strcmp(sl[x].node_name, sl[y].node_name);
	return c ? c : (x > y) - (x < y);
}

static void index_slices_by_node(pk_dra_set *s)
{
	s->pinned = pk_xmalloc(sizeof *s->pinned * (size_t)(s->nslices + 1));
	s->unpinned = pk_xmalloc(sizeof *s->unpinned * (size_t)(s->nslices + 1));
	s->npinned = s->nunpinned = 0;
	for (long i = 0; i < s->nslices; i++) {
		if (*s->slices[i].node_name)
			s->pinned[s->npinned++] = i;
		else
			s->unpinned[s->nunpinned++] = i;
	}
	if (s->npinned > 1)
		qsort_r(s->pinned, (size_t)s->npinned, sizeof *s->pinned, pinned_cmp, s->slices);
}

void pk_dra_slices_of_node(const pk_dra_set *s, const char *node, long *first, long *n)
{
	long lo = 0, hi = s->npinned;
	while (lo < hi) { /* the first slice whose node is not before node */
		long mid = (lo + hi) / 2;
		if (strcmp(s->slices[s->pinned[mid]].node_name, node) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	long end = lo;
	while (end < s->npinned && strcmp(s->slices[s->pinned[end]].node_name, node) == 0)
		end++;
	*first = lo;
	*n = end - lo;
}

void pk_dra_set_finish(pk_dra_set *s, pk_decoder *d)
{
	if (s->finished)
		return;
	if (s->nclaims > 1)
		qsort(s->claims, (size_t)s->nclaims, sizeof *s->claims, claim_cmp);
	if (s->nclasses > 1)
		qsort(s->classes, (size_t)s->nclasses, sizeof *s->classes, class_cmp);
	if (s->nslices > 1)
		qsort(s->slices, (size_t)s->nslices, sizeof *s->slices, slice_cmp);
	for (long i = 0; i < s->nclasses; i++)
		compile_selectors(d, s->classes[i].selectors, s->classes[i].nselectors);
	for (long i = 0; i < s->nclaims; i++)
		compile_requests(d, s->claims[i].requests, s->claims[i].nrequests);
	for (long i = 0; i < s->ntemplates; i++)
		compile_requests(d, s->templates[i].requests, s->templates[i].nrequests);
	pk_dra_taint_rules_finish(s);
	index_held(s);
	index_slices_by_node(s);
	s->finished = true;
}

static void free_programs(pk_dra_selector *sel, int n)
{
	for (int i = 0; i < n; i++)
		pk_cel_free(sel[i].program);
}

static void free_requests(pk_dra_request *rq, int n)
{
	for (int r = 0; r < n; r++) {
		free_programs(rq[r].selectors, rq[r].nselectors);
		free_requests(rq[r].subs, rq[r].nsubs);
	}
}

void pk_dra_set_free(pk_dra_set *s)
{
	if (!s)
		return;
	for (long i = 0; i < s->nclaims; i++) {
		pk_node_terms_free(s->claims[i].node_terms, s->claims[i].nnode_terms);
		free_requests(s->claims[i].requests, s->claims[i].nrequests);
	}
	for (long i = 0; i < s->nclasses; i++)
		free_programs(s->classes[i].selectors, s->classes[i].nselectors);
	for (long i = 0; i < s->ntemplates; i++) /* made claims share their template's */
		free_requests(s->templates[i].requests, s->templates[i].nrequests);
	free(s->made);
	for (long i = 0; i < s->nslices; i++)
		pk_node_terms_free(s->slices[i].node_terms, s->slices[i].nnode_terms);
	free(s->claims);
	free(s->classes);
	free(s->slices);
	free(s->templates);
	free(s->held);
	free(s->held_by);
	free(s->shared);
	free(s->pinned);
	free(s->unpinned);
	free(s->rules);
	memset(s, 0, sizeof *s);
}

const pk_dra_claim *pk_dra_claim_get(const pk_dra_set *s, const char *ns, const char *name)
{
	long i = pk_nsname_find(s->claims, s->nclaims, sizeof *s->claims, offsetof(pk_dra_claim, namespace_), offsetof(pk_dra_claim, name), ns,
	                        name);
	return i < 0 || s->claims[i].deleted ? NULL : &s->claims[i];
}

const pk_dra_class *pk_dra_class_get(const pk_dra_set *s, const char *name)
{
	long lo = 0, hi = s->nclasses;
	while (lo < hi) {
		long mid = (lo + hi) / 2;
		if (strcmp(s->classes[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nclasses && strcmp(s->classes[lo].name, name) == 0 ? &s->classes[lo] : NULL;
}

#define IMPLICIT_CLASS_PREFIX "deviceclass.resource.kubernetes.io/"

const pk_dra_class *pk_dra_class_for_resource(const pk_dra_set *s, const char *resource)
{
	for (long i = 0; i < s->nclasses; i++)
		if (*s->classes[i].extended_resource_name && strcmp(s->classes[i].extended_resource_name, resource) == 0)
			return &s->classes[i];
	size_t n = strlen(IMPLICIT_CLASS_PREFIX);
	return strncmp(resource, IMPLICIT_CLASS_PREFIX, n) == 0 ? pk_dra_class_get(s, resource + n) : NULL;
}

const pk_dra_template *pk_dra_template_get(const pk_dra_set *s, const char *ns, const char *name)
{
	for (long i = s->ntemplates - 1; i >= 0; i--) /* the last one read */
		if (strcmp(s->templates[i].name, name) == 0 && strcmp(s->templates[i].namespace_, ns) == 0)
			return &s->templates[i];
	return NULL;
}

const pk_cel_attr *pk_dra_device_attr(const pk_dra_device *dv, const pk_dra_constraint *c)
{
	for (int i = 0; i < dv->nattrs; i++)
		if (strcmp(dv->attrs[i].name, c->name) == 0 && strcmp(dv->attrs[i].domain, c->domain) == 0)
			return &dv->attrs[i];
	return NULL;
}

bool pk_dra_attr_equal(const pk_cel_attr *x, const pk_cel_attr *y)
{
	if (x->kind != y->kind)
		return false;
	switch (x->kind) {
	case PK_CEL_V_BOOL: return x->b == y->b;
	case PK_CEL_V_INT: return x->i == y->i;
	case PK_CEL_V_STRING:
	case PK_CEL_V_VERSION: return strcmp(x->s, y->s) == 0;
	default: return false;
	}
}

/* ---- a pod's claims ------------------------------------------------------------------ */

const pk_pod_dra *pk_pod_dra_decode(pk_decoder *d, const cJSON *claims, const cJSON *statuses)
{
	int n = array_size(claims);
	if (!n)
		return NULL;
	pk_pod_dra *pd = pk_arena_alloc(d->arena, sizeof *pd);
	memset(pd, 0, sizeof *pd);
	pd->claims = pk_arena_alloc(d->arena, sizeof *pd->claims * (size_t)n);
	const cJSON *c;
	cJSON_ArrayForEach(c, claims) {
		pk_pod_dra_claim *x = &pd->claims[pd->nclaims++];
		*x = (pk_pod_dra_claim){ .name = istr(d, c, "name"), .claim = istr(d, c, "resourceClaimName"),
			                 .template_name = istr(d, c, "resourceClaimTemplateName"),
			                 .group_claim = istr(d, c, "podGroupResourceClaim") };
		if (*x->claim || (!pk_str(c, "resourceClaimTemplateName") && !*x->group_claim))
			continue;
		x->from_template = !*x->group_claim;
		const cJSON *st;
		cJSON_ArrayForEach(st, statuses) {
			if (strcmp(pk_str_or(st, "name", ""), x->name) != 0)
				continue;
			x->claim = istr(d, st, "resourceClaimName");
			x->skip = !*x->claim; /* resourceclaim.Name: nil, no error */
		}
	}
	return pd;
}
