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

void pk_dra_ext_claim(pk_snapshot *s, const pk_pod *pod, dra_res *r, char *text, size_t size)
{
	const pk_res *p = &pod->requests;
	pk_dra_request *rqs = pk_arena_alloc(&s->arena, sizeof *rqs * (size_t)(p->nscalar + 1));
	int n = 0;
	size_t len = 0;
	for (int i = 0; i < p->nscalar; i++) {
		const pk_dra_class *cls = p->scalar[i].milli > 0 ? backing_class(s, p->scalar[i].name) : NULL;
		if (!cls)
			continue;
		int64_t count = (p->scalar[i].milli + 999) / 1000; /* extended resources are whole numbers */
		rqs[n++] = (pk_dra_request){ .name = p->scalar[i].name, .class_name = cls->name, .count = count };
		if (len < size)
			len += (size_t)snprintf(text + len, size - len, "%s%s: %lld (DeviceClass %s)", n > 1 ? ", " : "",
			                        p->scalar[i].name, (long long)count, cls->name);
	}
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

const dra_res *pk_dra_on_node(const dra_res *r, const pk_node *n, dra_view *v)
{
	memset(v, 0, sizeof *v);
	if (!r->ext || r->ext->allocated)
		return r;
	int keep = 0;
	for (int q = 0; q < r->ext->nrequests; q++)
		keep += left_to_dra(n, r->ext->requests[q].name);
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
		if (left_to_dra(n, r->ext->requests[q].name))
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
