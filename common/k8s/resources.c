/* A pod's and a node's resources: the requests a pod makes (containers,
 * init containers, pod-level resources, overhead) and a ResourceList read
 * into a pk_res; see pod.h and resources_int.h. Split from pod.c. */
#include "pod.h"
#include "resources_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "json.h"
#include "quantity.h"

/* ---- resources ----------------------------------------------------------- */

int64_t pk_res_scalar(const pk_res *r, const char *name)
{
	for (int i = 0; i < r->nscalar; i++)
		if (r->scalar[i].name == name)
			return r->scalar[i].milli;
	return 0;
}

bool pk_res_is_zero(const pk_res *r)
{
	if (r->cpu || r->memory || r->ephemeral)
		return false;
	for (int i = 0; i < r->nscalar; i++)
		if (r->scalar[i].milli)
			return false;
	return true;
}

static int64_t *acc_slot(pk_res_acc *a, pk_decoder *d, const char *name)
{
	if (name == d->res_cpu)
		return &a->cpu;
	if (name == d->res_memory)
		return &a->memory;
	if (name == d->res_ephemeral)
		return &a->ephemeral;
	if (name == d->res_pods)
		return &a->pods;
	for (int i = 0; i < a->n; i++)
		if (a->names[i] == name)
			return &a->vals[i];
	if (a->n == MAX_SCALARS)
		return NULL;
	a->names[a->n] = name;
	a->vals[a->n] = 0;
	return &a->vals[a->n++];
}

static void acc_add(pk_res_acc *dst, pk_decoder *d, const pk_res_acc *src)
{
	dst->cpu += src->cpu;
	dst->memory += src->memory;
	dst->ephemeral += src->ephemeral;
	dst->pods += src->pods;
	for (int i = 0; i < src->n; i++) {
		int64_t *s = acc_slot(dst, d, src->names[i]);
		if (s)
			*s += src->vals[i];
	}
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static void acc_max(pk_res_acc *dst, pk_decoder *d, const pk_res_acc *src)
{
	dst->cpu = max64(dst->cpu, src->cpu);
	dst->memory = max64(dst->memory, src->memory);
	dst->ephemeral = max64(dst->ephemeral, src->ephemeral);
	dst->pods = max64(dst->pods, src->pods);
	for (int i = 0; i < src->n; i++) {
		int64_t *s = acc_slot(dst, d, src->names[i]);
		if (s)
			*s = max64(*s, src->vals[i]);
	}
}

/* Parse a ResourceList object into acc (adding). */
int pk_res_acc_parse_list(pk_res_acc *a, pk_decoder *d, const cJSON *list, const char *what,
                          char *err, size_t errsize)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, list) {
		if (!it->string)
			continue;
		int64_t v;
		pk_qty_status st = pk_qty_from_json(it, &v);
		if (st != PK_QTY_OK) {
			snprintf(err, errsize, "%s[%s]: %s", what, it->string, pk_qty_strerror(st));
			return -1;
		}
		int64_t *slot = acc_slot(a, d, pk_intern(d->strs, it->string));
		if (!slot) {
			snprintf(err, errsize, "%s: more than %d distinct resources", what, MAX_SCALARS);
			return -1;
		}
		*slot += v;
	}
	return 0;
}

/* A container's requests, defaulted from limits as the apiserver does for
 * resources that have a limit but no request. */
static int container_requests(pk_res_acc *out, pk_decoder *d, const cJSON *c, const char *what,
                              char *err, size_t errsize)
{
	memset(out, 0, sizeof *out);
	const cJSON *reqs = pk_getp(c, "resources.requests");
	const cJSON *lims = pk_getp(c, "resources.limits");
	if (pk_res_acc_parse_list(out, d, reqs, what, err, errsize) < 0)
		return -1;
	const cJSON *it;
	cJSON_ArrayForEach(it, lims) {
		if (!it->string || pk_get(reqs, it->string))
			continue;
		int64_t v;
		pk_qty_status st = pk_qty_from_json(it, &v);
		if (st != PK_QTY_OK) {
			snprintf(err, errsize, "%s limits[%s]: %s", what, it->string, pk_qty_strerror(st));
			return -1;
		}
		int64_t *slot = acc_slot(out, d, pk_intern(d->strs, it->string));
		if (slot)
			*slot += v;
	}
	return 0;
}

static bool is_pod_level_resource(const char *name)
{
	return strcmp(name, "cpu") == 0 || strcmp(name, "memory") == 0 ||
	       strncmp(name, "hugepages-", 10) == 0;
}

void pk_res_acc_to_res(pk_decoder *d, const pk_res_acc *a, pk_res *out)
{
	out->cpu = a->cpu;
	out->memory = a->memory;
	out->ephemeral = a->ephemeral;
	out->pods = a->pods;
	out->nscalar = 0;
	out->scalar = NULL;
	if (a->n == 0)
		return;
	out->scalar = pk_arena_alloc(d->arena, sizeof *out->scalar * (size_t)a->n);
	for (int i = 0; i < a->n; i++) {
		out->scalar[out->nscalar].name = a->names[i];
		out->scalar[out->nscalar].milli = a->vals[i];
		out->nscalar++;
	}
}

/* The containers that run with the app (app containers and sidecars) and
 * name no cpu / memory request, unless the pod-level requests name it. */
static void count_unset_requests(const cJSON *const *spec, const cJSON *pod_level, pk_res *out)
{
	unsigned cpu = 0, memory = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, spec[S_CONTAINERS]) {
		const cJSON *req = pk_getp(it, "resources.requests");
		cpu += !pk_get(req, "cpu");
		memory += !pk_get(req, "memory");
	}
	cJSON_ArrayForEach(it, spec[S_INIT_CONTAINERS]) {
		const char *rp = pk_str(it, "restartPolicy");
		if (!rp || strcmp(rp, "Always") != 0)
			continue;
		const cJSON *req = pk_getp(it, "resources.requests");
		cpu += !pk_get(req, "cpu");
		memory += !pk_get(req, "memory");
	}
	out->cpu_unset = (uint16_t)(pk_get(pod_level, "cpu") ? 0 : cpu > UINT16_MAX ? UINT16_MAX : cpu);
	out->memory_unset = (uint16_t)(pk_get(pod_level, "memory") ? 0 : memory > UINT16_MAX ? UINT16_MAX : memory);
}

int64_t *pk_res_acc_slot(pk_res_acc *a, pk_decoder *d, const char *name)
{
	return acc_slot(a, d, name);
}

void pk_res_acc_add(pk_res_acc *dst, pk_decoder *d, const pk_res_acc *src)
{
	acc_add(dst, d, src);
}

pk_res_acc *pk_dra_extra_container(pk_dra_extra *x, const char *name)
{
	for (int i = 0; i < x->ncontainers; i++)
		if (x->container[i] == name)
			return &x->per_container[i];
	if (x->ncontainers == PK_DRA_MAX_CONTAINERS)
		return NULL;
	x->container[x->ncontainers] = name;
	memset(&x->per_container[x->ncontainers], 0, sizeof x->per_container[0]);
	return &x->per_container[x->ncontainers++];
}

/* The DRA amounts of container c (by its name), added to its requests. */
static void add_container_dra(pk_res_acc *c, pk_decoder *d, const pk_dra_extra *x, const cJSON *container)
{
	const char *name = x && x->ncontainers ? pk_str(container, "name") : NULL;
	if (!name)
		return;
	const char *in = pk_intern(d->strs, name);
	for (int i = 0; i < x->ncontainers; i++)
		if (x->container[i] == in)
			acc_add(c, d, &x->per_container[i]);
}

static int requests_of(pk_decoder *d, const cJSON *const *spec, const pk_dra_extra *x, pk_res *out, char *err,
                       size_t errsize)
{
	pk_res_acc sum = {0}, c, sidecars = {0}, init_peak = {0};
	const cJSON *it;
	cJSON_ArrayForEach(it, spec[S_CONTAINERS]) {
		if (container_requests(&c, d, it, "containers", err, errsize) < 0)
			return -1;
		add_container_dra(&c, d, x, it);
		acc_add(&sum, d, &c);
	}
	/* Init containers run one at a time before the app containers; a
	 * restartable one (a sidecar) keeps running, so it adds to everything
	 * that starts after it and to the app containers' sum. */
	cJSON_ArrayForEach(it, spec[S_INIT_CONTAINERS]) {
		if (container_requests(&c, d, it, "initContainers", err, errsize) < 0)
			return -1;
		add_container_dra(&c, d, x, it);
		const char *rp = pk_str(it, "restartPolicy");
		if (rp && strcmp(rp, "Always") == 0) {
			acc_add(&sum, d, &c);
			acc_add(&sidecars, d, &c);
			acc_max(&init_peak, d, &sidecars);
		} else {
			acc_add(&c, d, &sidecars);
			acc_max(&init_peak, d, &c);
		}
	}
	acc_max(&sum, d, &init_peak);
	if (x) /* for the pod's lifetime, before pod-level requests replace the sums */
		acc_add(&sum, d, &x->pod_fixed);

	const cJSON *pod_level = pk_get(spec[S_RESOURCES], "requests");
	cJSON_ArrayForEach(it, pod_level) {
		if (!it->string || !is_pod_level_resource(it->string))
			continue;
		int64_t v;
		pk_qty_status st = pk_qty_from_json(it, &v);
		if (st != PK_QTY_OK) {
			snprintf(err, errsize, "resources.requests[%s]: %s", it->string, pk_qty_strerror(st));
			return -1;
		}
		int64_t *slot = acc_slot(&sum, d, pk_intern(d->strs, it->string));
		if (slot)
			*slot = v;
	}
	if (pk_res_acc_parse_list(&sum, d, spec[S_OVERHEAD], "overhead", err, errsize) < 0)
		return -1;
	pk_res_acc_to_res(d, &sum, out);
	count_unset_requests(spec, pod_level, out);
	return 0;
}

int pk_pod_requests_of(pk_decoder *d, const cJSON *const *spec, pk_res *out, char *err, size_t errsize)
{
	return requests_of(d, spec, NULL, out, err, errsize);
}

int pk_pod_requests_with_dra(pk_decoder *d, const cJSON *const *spec, const pk_dra_extra *x, pk_res *out,
                             char *err, size_t errsize)
{
	return requests_of(d, spec, x, out, err, errsize);
}

int pk_pod_requests(pk_decoder *d, const cJSON *spec, pk_res *out, char *err, size_t errsize)
{
	const cJSON *m[S_COUNT];
	pk_get_members(spec, pk_spec_members, m);
	return pk_pod_requests_of(d, m, out, err, errsize);
}
