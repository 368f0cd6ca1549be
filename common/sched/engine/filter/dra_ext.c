/* Extended resources backed by DRA (KEP-5004, gate DRAExtendedResource:
 * alpha 1.35, beta 1.36, GA 1.37), as pkg/scheduler/framework/plugins/
 * dynamicresources/extendeddynamicresources.go and noderesources/fit.go
 * have it: a pod's request of an extended resource that a DeviceClass maps
 * (spec.extendedResourceName, or the implicit
 * "deviceclass.resource.kubernetes.io/<class>") is left by NodeResourcesFit
 * to DynamicResources on a node whose allocatable does not list it; there
 * the plugin allocates that many devices of the class through a claim of
 * its own for the pod (the "special claim" the scheduler writes at
 * PreBind). On a node that lists it, the device plugin's count is checked
 * by NodeResourcesFit as before and the claim asks nothing of that
 * resource. */
#include "sched/engine/filter/dra_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/dra.h"

/* upstream's generateName for the claim: <pod name>-extended-resources- */
#define EXT_SUFFIX "-extended-resources-"

/* The class backing resource, when the release has the feature. */
static const pk_dra_class *backing_class(const pk_snapshot *s, const char *resource)
{
	if (!s->dra || (s->dra_off & PK_DRA_OFF_EXTENDED_RESOURCE) || !s->dra->finished)
		return NULL;
	return pk_dra_class_for_resource(s->dra, resource);
}

bool pk_dra_backs_resource(const pk_snapshot *s, const char *resource)
{
	return backing_class(s, resource) != NULL;
}

/* Does the node leave the resource to DRA (allocatable does not list it,
 * or lists 0: upstream's "allocatable == 0")? */
static bool left_to_dra(const pk_node *n, const char *resource)
{
	return pk_res_scalar(&n->allocatable, resource) == 0;
}

bool pk_dra_ext_wanted(pk_snapshot *s, const pk_pod *pod)
{
	if (!s->dra || (s->dra_off & PK_DRA_OFF_EXTENDED_RESOURCE))
		return false;
	pk_dra_resolve_all(s);
	for (int i = 0; i < pod->requests.nscalar; i++)
		if (pod->requests.scalar[i].milli > 0 && backing_class(s, pod->requests.scalar[i].name))
			return true;
	return false;
}

/* A request of the claim, with the resource it is for. */
typedef struct ext_ask {
	pk_dra_request rq;
	const char *resource;
} ext_ask;

static int by_request_name(const void *a, const void *b)
{
	return strcmp(((const ext_ask *)a)->rq.name, ((const ext_ask *)b)->rq.name);
}

static ext_ask ask_of(pk_snapshot *s, const pk_ext_request *e, const pk_dra_class *cls, int64_t count)
{
	char name[64];
	snprintf(name, sizeof name, "container-%d-request-%d", e->container, e->rank);
	return (ext_ask){ .rq = { .name = pk_intern(s->strs, name), .class_name = cls->name, .count = count },
	                  .resource = e->resource };
}

/* The requests for resource (the entries from first on that name it), as
 * createRequestsAndMappings makes them: one per long-lived container (app
 * container or sidecar) with its count; a short-lived init container first
 * reuses the long-lived containers' devices at its index or later and asks
 * for the rest, and of those asks only the largest (the first of equals)
 * is kept, the init containers running one at a time. Into out; how many. */
static int asks_for(pk_snapshot *s, const pk_ext_request *e, int ne, int first, const pk_dra_class *cls,
                    ext_ask *out)
{
	const char *resource = e[first].resource;
	int n = 0;
	const pk_ext_request *widest = NULL;
	int64_t widest_count = 0;
	for (int i = first; i < ne; i++) {
		if (e[i].resource != resource)
			continue;
		if (!e[i].short_lived) {
			out[n++] = ask_of(s, &e[i], cls, e[i].count);
			continue;
		}
		int64_t reused = 0;
		for (int k = first; k < ne; k++)
			if (e[k].resource == resource && !e[k].short_lived && e[k].container >= e[i].container)
				reused += e[k].count;
		if (reused < e[i].count && e[i].count - reused > widest_count) {
			widest = &e[i];
			widest_count = e[i].count - reused;
		}
	}
	if (widest)
		out[n++] = ask_of(s, widest, cls, widest_count);
	return n;
}

void pk_dra_ext_claim(pk_snapshot *s, const pk_pod *pod, dra_res *r, char *text, size_t size)
{
	const pk_ext_request *e = pod->con->ext_requests;
	int ne = pod->con->next_requests, n = 0;
	ext_ask *asks = pk_xmalloc(sizeof *asks * (size_t)(ne + 1));
	for (int i = 0; i < ne; i++) {
		bool seen = false;
		for (int k = 0; k < i && !seen; k++)
			seen = e[k].resource == e[i].resource;
		const pk_dra_class *cls = seen ? NULL : backing_class(s, e[i].resource);
		if (cls && pk_res_scalar(&pod->requests, e[i].resource) > 0)
			n += asks_for(s, e, ne, i, cls, asks + n);
	}
	qsort(asks, (size_t)n, sizeof *asks, by_request_name); /* upstream sorts them by name */
	pk_dra_request *rqs = pk_arena_alloc(&s->arena, sizeof *rqs * (size_t)(n + 1));
	r->ext_resources = pk_arena_alloc(&s->arena, sizeof *r->ext_resources * (size_t)(n + 1));
	size_t len = 0;
	for (int i = 0; i < n; i++) {
		rqs[i] = asks[i].rq;
		r->ext_resources[i] = asks[i].resource;
		if (len < size)
			len += (size_t)snprintf(text + len, size - len, "%s%s: %lld (DeviceClass %s) as %s", i ? ", " : "",
			                        asks[i].resource, (long long)asks[i].rq.count, asks[i].rq.class_name,
			                        asks[i].rq.name);
	}
	free(asks);
	char name[600];
	snprintf(name, sizeof name, "%s-extended-resources", pod->name);
	pk_dra_template t = { .namespace_ = pod->namespace_, .name = "", .requests = rqs, .nrequests = n };
	r->ext = pk_dra_claim_make(s->dra, &s->arena, &t, pk_intern(s->strs, name), pod->name, pod->uid);
	r->claims[r->nclaims++] = r->ext;
}

const pk_dra_claim *pk_dra_ext_find(const pk_snapshot *s, const pk_pod *pod)
{
	const pk_dra_set *set = s->dra;
	size_t n = strlen(pod->name);
	for (long i = 0; i < set->nclaims; i++) {
		const pk_dra_claim *c = &set->claims[i];
		if (!c->deleted && strcmp(c->owner_kind, "Pod") == 0 && strcmp(c->namespace_, pod->namespace_) == 0 &&
		    strcmp(c->owner_name, pod->name) == 0 && strncmp(c->name, pod->name, n) == 0 &&
		    strncmp(c->name + n, EXT_SUFFIX, sizeof EXT_SUFFIX - 1) == 0 &&
		    (!*c->owner_uid || !*pod->uid || strcmp(c->owner_uid, pod->uid) == 0))
			return c;
	}
	return NULL;
}

/* The resource request q of r's extended-resource claim asks for (a claim
 * of the input's: its request's name). */
static const char *resource_of(const dra_res *r, int q)
{
	return r->ext_resources ? r->ext_resources[q] : r->ext->requests[q].name;
}

const dra_res *pk_dra_on_node(const dra_res *r, const pk_node *n, dra_view *v)
{
	memset(v, 0, sizeof *v);
	if (!r->ext || r->ext->allocated)
		return r;
	int keep = 0;
	for (int q = 0; q < r->ext->nrequests; q++)
		keep += left_to_dra(n, resource_of(r, q));
	if (keep == r->ext->nrequests)
		return r;
	v->res = *r;
	v->claims = pk_xmalloc(sizeof *v->claims * (size_t)(r->nclaims + 1));
	memcpy(v->claims, r->claims, sizeof *v->claims * (size_t)r->nclaims);
	v->res.claims = v->claims;
	if (keep == 0) { /* all from device plugins: no claim here (the ext claim is the last) */
		v->res.nclaims--;
		v->res.ext = NULL;
		return &v->res;
	}
	v->ext = *r->ext;
	v->requests = pk_xmalloc(sizeof *v->requests * (size_t)keep);
	v->ext.nrequests = 0;
	for (int q = 0; q < r->ext->nrequests; q++)
		if (left_to_dra(n, resource_of(r, q)))
			v->requests[v->ext.nrequests++] = r->ext->requests[q];
	v->ext.requests = v->requests;
	v->claims[r->nclaims - 1] = &v->ext;
	v->res.ext = &v->ext;
	return &v->res;
}

const pk_dra_claim *pk_dra_view_claim(const dra_res *r, const dra_view *v, const pk_dra_claim *c)
{
	return c == &v->ext ? r->ext : c;
}

void pk_dra_view_free(dra_view *v)
{
	free(v->claims);
	free(v->requests);
}
