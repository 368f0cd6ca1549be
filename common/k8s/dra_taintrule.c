/* DeviceTaintRule objects, decoded (dra_taintrule.h). */
#include "k8s/dra_taintrule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/dra.h"
#include "k8s/dra_devices.h"
#include "k8s/json.h"

bool pk_dra_taint_rule_kind(const char *kind)
{
	return strcmp(kind, "DeviceTaintRule") == 0;
}

/* An optional string field of obj at key: *out NULL when absent or null,
 * -1 with err naming where.key when it is not a string. */
static int opt_string(pk_decoder *d, const cJSON *obj, const char *key, const char *where, const char **out,
                      char *err, size_t errsize)
{
	const cJSON *v = pk_get(obj, key);
	*out = NULL;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsString(v)) {
		snprintf(err, errsize, "%s.%s: must be a string", where, key);
		return -1;
	}
	*out = pk_intern(d->strs, v->valuestring);
	return 0;
}

/* spec.deviceSelector: driver, pool, device. deviceClassName and
 * selectors were removed in 1.35 (every release modelled here): a rule
 * that has them was written for an older apiserver, and which devices it
 * taints would be guessed. */
static int decode_selector(pk_decoder *d, const cJSON *sel, pk_dra_taint_rule *r, char *err, size_t errsize)
{
	const char *where = "spec.deviceSelector";
	if (!sel || cJSON_IsNull(sel))
		return 0;
	if (!cJSON_IsObject(sel)) {
		snprintf(err, errsize, "%s: must be an object", where);
		return -1;
	}
	static const char *const removed[] = { "deviceClassName", "selectors" };
	for (size_t i = 0; i < sizeof removed / sizeof removed[0]; i++)
		if (pk_get(sel, removed[i])) {
			snprintf(err, errsize,
			         "%s.%s: not a field of DeviceTaintRule since Kubernetes 1.35 (only driver, pool and "
			         "device select devices): which devices the rule taints is not known",
			         where, removed[i]);
			return -1;
		}
	if (opt_string(d, sel, "driver", where, &r->driver, err, errsize) < 0 ||
	    opt_string(d, sel, "pool", where, &r->pool, err, errsize) < 0 ||
	    opt_string(d, sel, "device", where, &r->device, err, errsize) < 0)
		return -1;
	return 0;
}

/* spec.taint: key and effect required, value and timeAdded optional. */
static int decode_taint(pk_decoder *d, const cJSON *taint, pk_dra_taint_rule *r, char *err, size_t errsize)
{
	const char *where = "spec.taint";
	if (!cJSON_IsObject(taint)) {
		snprintf(err, errsize, "%s: %s", where, taint ? "must be an object" : "Required value");
		return -1;
	}
	const char *key, *value, *effect, *added;
	if (opt_string(d, taint, "key", where, &key, err, errsize) < 0 ||
	    opt_string(d, taint, "value", where, &value, err, errsize) < 0 ||
	    opt_string(d, taint, "effect", where, &effect, err, errsize) < 0 ||
	    opt_string(d, taint, "timeAdded", where, &added, err, errsize) < 0)
		return -1;
	if (!key || !*key || !effect || !*effect) {
		snprintf(err, errsize, "%s.%s: Required value", where, !key || !*key ? "key" : "effect");
		return -1;
	}
	int eff = pk_dra_taint_effect(effect);
	r->taint = (pk_taint){ .key = key, .value = value ? value : pk_intern(d->strs, ""),
		               .effect = (pk_taint_effect)eff };
	r->time_added = added ? added : pk_intern(d->strs, "");
	return 0;
}

int pk_dra_taint_rule_add(pk_dra_set *s, pk_decoder *d, const cJSON *obj, long record, char *err,
                          size_t errsize)
{
	pk_dra_taint_rule r = { .name = pk_intern(d->strs, pk_name(obj)), .record = record };
	s->rules_listed = true; /* even when rejected: the input is not missing the kind */
	const cJSON *spec = pk_get(obj, "spec");
	if (!cJSON_IsObject(spec)) {
		snprintf(err, errsize, "spec: %s", spec ? "must be an object" : "Required value");
		return -1;
	}
	if (decode_selector(d, pk_get(spec, "deviceSelector"), &r, err, errsize) < 0 ||
	    decode_taint(d, pk_get(spec, "taint"), &r, err, errsize) < 0)
		return -1;
	s->rules = pk_grow(s->rules, &s->rulecap, (size_t)s->nrules + 1, sizeof *s->rules);
	s->rules[s->nrules++] = r;
	return 0;
}

/* By name, then input order (the last one read of a name last). */
static int rule_cmp(const void *a, const void *b)
{
	const pk_dra_taint_rule *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->record > y->record) - (x->record < y->record);
}

void pk_dra_taint_rules_finish(pk_dra_set *s)
{
	if (s->nrules > 1)
		qsort(s->rules, (size_t)s->nrules, sizeof *s->rules, rule_cmp);
}

/* Interned strings compare by address; a rule's and a slice's come from
 * one table. */
static bool same(const char *want, const char *have)
{
	return !want || want == have || strcmp(want, have) == 0;
}

bool pk_dra_taint_rule_matches(const pk_dra_taint_rule *r, const pk_dra_slice *sl, const pk_dra_device *dv)
{
	return same(r->driver, sl->driver) && same(r->pool, sl->pool) && same(r->device, dv->name);
}

bool pk_dra_taint_rule_effective(const pk_dra_taint_rule *r)
{
	return (int)r->taint.effect == PK_EFFECT_NO_SCHEDULE || (int)r->taint.effect == PK_EFFECT_NO_EXECUTE;
}
