/* The devices a victim frees under --dra-preemption=kep-5690 (the unmerged
 * KEP-5690's DRA-aware preemption; engine/filter/dra_preempt.c decides
 * them): in victims' Candidate records and the plan's victims as "frees"
 * and "notFreed" (the shape of the plan's devices[]: claim, driver, pool,
 * device), decoded back by preempt-plan, and as text at the end of the
 * plan's reason and of victims' candidate rows (-o table, -o wide, the HTML
 * report's plans). The release frees nothing: nothing is written without
 * the option. */
#include "sched/report/records.h"

#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/json.h"

static void device_emit(pk_emit *e, const pk_victim_device *d)
{
	char claim[600];
	snprintf(claim, sizeof claim, "%s/%s", d->claim_namespace, d->claim_name);
	pk_emit_object(e, NULL);
	pk_emit_string(e, "claim", claim);
	pk_emit_string(e, "driver", d->driver);
	pk_emit_string(e, "pool", d->pool);
	pk_emit_string(e, "device", d->device);
	if (*d->why)
		pk_emit_string(e, "reason", d->why);
	pk_emit_end(e);
}

void pk_victim_devices_emit(pk_emit *e, const pk_victim_ref *v)
{
	if (!v->ndevices)
		return;
	for (int kept = 0; kept < 2; kept++) {
		pk_emit_array(e, kept ? "notFreed" : "frees");
		for (int i = 0; i < v->ndevices; i++)
			if ((*v->devices[i].why != '\0') == kept)
				device_emit(e, &v->devices[i]);
		pk_emit_end(e);
	}
}

/* One entry of "frees" or "notFreed" into d: false when it is no object
 * with a claim "namespace/name". */
static bool device_from_json(const cJSON *o, pk_strtab *strs, pk_victim_device *d)
{
	const char *claim = pk_str(o, "claim");
	const char *slash = claim ? strchr(claim, '/') : NULL;
	if (!slash)
		return false;
	d->claim_namespace = pk_strtab_keep(strs, claim, (size_t)(slash - claim));
	d->claim_name = pk_intern(strs, slash + 1);
	d->driver = pk_intern(strs, pk_str_or(o, "driver", ""));
	d->pool = pk_intern(strs, pk_str_or(o, "pool", ""));
	d->device = pk_intern(strs, pk_str_or(o, "device", ""));
	snprintf(d->why, sizeof d->why, "%s", pk_str_or(o, "reason", ""));
	return true;
}

void pk_victim_devices_from_json(const cJSON *o, pk_strtab *strs, pk_arena *a, pk_victim_ref *out)
{
	const cJSON *frees = pk_get(o, "frees"), *kept = pk_get(o, "notFreed");
	int n = cJSON_GetArraySize(frees) + cJSON_GetArraySize(kept);
	if (!n)
		return;
	n = n > UINT16_MAX ? UINT16_MAX : n;
	pk_victim_device *d = pk_arena_alloc(a, sizeof *d * (size_t)n);
	int k = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, frees)
		if (k < n && device_from_json(it, strs, &d[k]))
			d[k].why[0] = '\0', k++; /* freed, whatever the record said */
	cJSON_ArrayForEach(it, kept)
		if (k < n && device_from_json(it, strs, &d[k])) {
			if (!d[k].why[0])
				snprintf(d[k].why, sizeof d[k].why, "not freed");
			k++;
		}
	out->devices = k ? d : NULL;
	out->ndevices = (uint16_t)k;
}

/* s to buf at *w, within size. */
static void put(char *buf, size_t size, size_t *w, const char *s)
{
	int k = snprintf(buf + *w, size - *w, "%s", s);
	if (k > 0)
		*w = (size_t)k < size - *w ? *w + (size_t)k : size - 1;
}

/* The devices of one victim's claims that are freed (kept false) or not,
 * claim by claim: "d/p/x, d/p/y (claim ns/c of ns/v)" or, kept, with why. */
static void victim_text(const pk_victim_ref *v, bool kept, char *buf, size_t size, size_t *w, bool *first)
{
	char item[900];
	for (int i = 0; i < v->ndevices; i++) {
		const pk_victim_device *d = &v->devices[i];
		if ((*d->why != '\0') != kept)
			continue;
		bool claim_last = i + 1 == v->ndevices || v->devices[i + 1].claim_name != d->claim_name;
		snprintf(item, sizeof item, "%s%s/%s/%s", *first ? "" : ", ", d->driver, d->pool, d->device);
		put(buf, size, w, item);
		*first = false;
		if (claim_last) {
			if (kept)
				snprintf(item, sizeof item, " (claim %s/%s of %s/%s: %s)", d->claim_namespace, d->claim_name,
				         v->namespace_, v->name, d->why);
			else
				snprintf(item, sizeof item, " (claim %s/%s of %s/%s)", d->claim_namespace, d->claim_name,
				         v->namespace_, v->name);
			put(buf, size, w, item);
		}
	}
}

bool pk_victim_devices_text(const pk_victim_ref *v, int n, char *buf, size_t size)
{
	size_t w = 0;
	buf[0] = '\0';
	for (int kept = 0; kept < 2; kept++) {
		bool first = true, any = false;
		for (int i = 0; i < n; i++)
			for (int j = 0; !any && j < v[i].ndevices; j++)
				any = (*v[i].devices[j].why != '\0') == kept;
		if (!any)
			continue;
		put(buf, size, &w, w ? "; " : "");
		put(buf, size, &w, kept ? "victims' devices not freed (KEP-5690): " : "frees (KEP-5690): ");
		for (int i = 0; i < n; i++)
			victim_text(&v[i], kept, buf, size, &w, &first);
	}
	return w > 0;
}
