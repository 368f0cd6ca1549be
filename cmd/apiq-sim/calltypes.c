/* Call-type semantics; see calltypes.h. Relevances: pod_status_patch 1,
 * pod_binding 2 (apicalls.Relevances). */
#include "calltypes.h"

#include <stdio.h>
#include <string.h>

static bool str_eq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

void apiq_types_init(apiq_types *ts)
{
	memset(ts, 0, sizeof(*ts));
	snprintf(ts->t[0].name, sizeof(ts->t[0].name), "pod_status_patch");
	ts->t[0].relevance = 1;
	ts->t[0].kind = APIQ_KIND_STATUS_PATCH;
	snprintf(ts->t[1].name, sizeof(ts->t[1].name), "pod_binding");
	ts->t[1].relevance = 2;
	ts->t[1].kind = APIQ_KIND_BINDING;
	ts->n = 2;
}

int apiq_types_find(const apiq_types *ts, const char *name)
{
	for (int i = 0; i < ts->n; i++)
		if (strcmp(ts->t[i].name, name) == 0)
			return i;
	return -1;
}

int apiq_types_declare(apiq_types *ts, const char *name, int relevance)
{
	int i = apiq_types_find(ts, name);
	if (i < 0) {
		if (ts->n >= APIQ_MAX_TYPES || !*name || strlen(name) >= sizeof(ts->t[0].name))
			return -1;
		i = ts->n++;
		snprintf(ts->t[i].name, sizeof(ts->t[i].name), "%s", name);
		ts->t[i].kind = APIQ_KIND_CUSTOM;
	}
	ts->t[i].relevance = relevance;
	return i;
}

static const apiq_cond *find_cond(const apiq_podstatus *st, const char *type)
{
	for (int i = 0; i < st->ncond; i++)
		if (str_eq(st->cond[i].type, type))
			return &st->cond[i];
	return NULL;
}

/* podutil.IsPodConditionUpdateNeeded-like: missing, or a field differs. */
bool apiq_cond_needs_update(const apiq_podstatus *st, const apiq_cond *c)
{
	const apiq_cond *old = find_cond(st, c->type);
	return !old || !str_eq(old->status, c->status) || !str_eq(old->reason, c->reason) ||
	       !str_eq(old->message, c->message) || !str_eq(old->probe, c->probe);
}

/* podutil.UpdatePodCondition: a missing condition is appended; an existing
 * one keeps its transition time while Status is unchanged. */
static bool update_cond(apiq_podstatus *st, const apiq_cond *c)
{
	for (int i = 0; i < st->ncond; i++) {
		apiq_cond *old = &st->cond[i];
		if (!str_eq(old->type, c->type))
			continue;
		apiq_cond n = *c;
		if (str_eq(n.status, old->status))
			n.transition = old->transition;
		bool same = str_eq(n.status, old->status) && str_eq(n.reason, old->reason) &&
		            str_eq(n.message, old->message) && str_eq(n.probe, old->probe) &&
		            str_eq(n.transition, old->transition);
		*old = n;
		return !same;
	}
	if (st->ncond < APIQ_MAX_CONDS)
		st->cond[st->ncond++] = *c;
	return true;
}

bool apiq_status_apply(apiq_podstatus *st, const apiq_cond *conds, int n, apiq_mode mode,
                       const char *nnn)
{
	bool changed = false;
	for (int i = 0; i < n; i++)
		changed |= update_cond(st, &conds[i]);
	if (mode == APIQ_MODE_OVERRIDE && !str_eq(st->nnn, nnn)) {
		st->nnn = nnn;
		changed = true;
	}
	return changed;
}

bool apiq_xcall_is_noop(const apiq_xcall *c)
{
	switch (c->kind) {
	case APIQ_KIND_BINDING:
		return false;
	case APIQ_KIND_CUSTOM:
		if (c->synced)
			return c->noop_after_sync;
		if (c->merged)
			return c->noop_after_merge;
		return c->noop;
	case APIQ_KIND_STATUS_PATCH:
		break;
	}
	if (c->mode == APIQ_MODE_OVERRIDE && !str_eq(c->snap.nnn, c->target_nnn))
		return false;
	for (int i = 0; i < c->nnew; i++)
		if (apiq_cond_needs_update(&c->snap, &c->newc[i]))
			return false;
	return true;
}

static bool has_cond_type(const apiq_xcall *c, const char *type)
{
	for (int i = 0; i < c->nnew; i++)
		if (str_eq(c->newc[i].type, type))
			return true;
	return false;
}

int apiq_xcall_merge(apiq_xcall *newc, const apiq_xcall *oldc, char *err, size_t errsize)
{
	switch (newc->kind) {
	case APIQ_KIND_BINDING:
		return 0;  /* the newer binding replaces the older one */
	case APIQ_KIND_CUSTOM:
		if (newc->merge_error) {
			snprintf(err, errsize, "%s", newc->merge_error);
			return -1;
		}
		newc->merged = true;
		return 0;
	case APIQ_KIND_STATUS_PATCH:
		break;
	}
	if (newc->mode == APIQ_MODE_NOOP && oldc->mode == APIQ_MODE_OVERRIDE) {
		newc->mode = oldc->mode;
		newc->target_nnn = oldc->target_nnn;
	}
	for (int i = 0; i < oldc->nnew; i++) {
		if (has_cond_type(newc, oldc->newc[i].type))
			continue;
		if (newc->nnew >= APIQ_MAX_CONDS) {
			snprintf(err, errsize, "more than %d conditions", APIQ_MAX_CONDS);
			return -1;
		}
		newc->newc[newc->nnew++] = oldc->newc[i];
	}
	return 0;
}

void apiq_xcall_sync(apiq_xcall *c, const apiq_podstatus *obj, apiq_podstatus *out)
{
	*out = *obj;
	switch (c->kind) {
	case APIQ_KIND_BINDING:
		return;
	case APIQ_KIND_CUSTOM:
		c->synced = true;
		return;
	case APIQ_KIND_STATUS_PATCH:
		break;
	}
	if (!c->executed)
		c->snap = *obj;
	apiq_status_apply(out, c->newc, c->nnew, c->mode, c->target_nnn);
}

bool apiq_xcall_execute(apiq_xcall *c)
{
	if (c->kind != APIQ_KIND_STATUS_PATCH)
		return true;
	c->executed = true;
	apiq_podstatus st = c->snap;
	return apiq_status_apply(&st, c->newc, c->nnew, c->mode, c->target_nnn);
}
