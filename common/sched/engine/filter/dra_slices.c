/* What DRA places on a node (dra.h): the ResourceSlices that publish
 * devices there, found through the set's index by node (k8s/dra.c) rather
 * than by a look at every slice (on a GPU cluster each node has its own
 * slice, and the allocator asks for a node's devices once per node and
 * pod), and whether an allocated claim may be used there. */
#include "sched/engine/filter/dra.h"

#include <limits.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/dra.h"
#include "k8s/dra_taintrule.h"
#include "sched/engine/filter/filter.h"

static bool slice_on_node(const pk_dra_slice *sl, const pk_node *n)
{
	if (*sl->node_name)
		return sl->node_name == n->name || strcmp(sl->node_name, n->name) == 0;
	if (sl->all_nodes)
		return true;
	for (int i = 0; sl->has_node_selector && i < sl->nnode_terms; i++)
		if (pk_node_term_matches(&sl->node_terms[i], n))
			return true;
	return false;
}

long pk_dra_node_slices(const pk_dra_set *set, const pk_node *n, long **out)
{
	long first, npinned;
	pk_dra_slices_of_node(set, n->name, &first, &npinned);
	long *v = pk_xmalloc(sizeof *v * (size_t)(npinned + set->nunpinned + 1));
	long k = 0, i = 0, j = 0;
	while (i < npinned || j < set->nunpinned) { /* two lists in index order, merged */
		long pinned = i < npinned ? set->pinned[first + i] : LONG_MAX;
		long other = j < set->nunpinned ? set->unpinned[j] : LONG_MAX;
		if (pinned < other) {
			v[k++] = pinned;
			i++;
		} else {
			if (slice_on_node(&set->slices[other], n))
				v[k++] = other;
			j++;
		}
	}
	*out = v;
	return k;
}

bool pk_dra_allocation_on_node(const pk_dra_claim *c, const pk_node *n)
{
	if (*c->alloc_node) /* allocated in this run from a node-local slice */
		return c->alloc_node == n->name || strcmp(c->alloc_node, n->name) == 0;
	if (!c->has_node_selector)
		return true;
	for (int i = 0; i < c->nnode_terms; i++)
		if (pk_node_term_matches(&c->node_terms[i], n))
			return true;
	return false;
}

/* ---- DeviceTaintRules: the scheduler's view of the slices ------------------------ */

/* How many of the rules add a taint that counts to dv (of sl). */
static int rule_taints_of(const pk_dra_set *set, const pk_dra_slice *sl, const pk_dra_device *dv)
{
	int k = 0;
	for (long i = 0; i < set->nrules; i++)
		k += pk_dra_taint_rule_effective(&set->rules[i]) && pk_dra_taint_rule_matches(&set->rules[i], sl, dv);
	return k;
}

void pk_dra_apply_taint_rules(pk_dra_set *set, pk_arena *arena)
{
	if (!set->nrules || (set->off & PK_DRA_OFF_DEVICE_TAINT_RULES))
		return;
	for (long i = 0; i < set->nslices; i++) {
		pk_dra_slice *sl = &set->slices[i];
		if (sl->rules_applied)
			continue;
		sl->rules_applied = true;
		for (int j = 0; j < sl->ndevices; j++) {
			pk_dra_device *dv = &sl->devices[j];
			int k = rule_taints_of(set, sl, dv);
			if (!k)
				continue;
			/* the device's own taints first, then the rules' (applyPatches
			 * appends them); the rules in name order */
			pk_taint *t = pk_arena_alloc(arena, sizeof *t * (size_t)(dv->ntaints + k));
			if (dv->ntaints)
				memcpy(t, dv->taints, sizeof *t * (size_t)dv->ntaints);
			int n = dv->ntaints;
			for (long r = 0; r < set->nrules; r++)
				if (pk_dra_taint_rule_effective(&set->rules[r]) &&
				    pk_dra_taint_rule_matches(&set->rules[r], sl, dv))
					t[n++] = set->rules[r].taint;
			dv->taints = t;
			dv->ntaints = n;
		}
	}
}

/* Is the rules' part of the scheduler's view on? */
static bool rules_apply(const pk_dra_set *set, unsigned off)
{
	return set->nrules && !(off & PK_DRA_OFF_DEVICE_TAINT_RULES);
}

/* The taints of dv that count, in the scheduler's view, whether or not the
 * rules were applied yet: the first untolerated NoExecute one (tol: the
 * request's tolerations, or none), into *taint with the rule that adds it
 * (*rule NULL: the slice's own). */
static bool untolerated_noexecute(const pk_dra_set *set, unsigned off, const pk_dra_slice *sl,
                                  const pk_dra_device *dv, const pk_dra_request *rq, const pk_taint **taint,
                                  const pk_dra_taint_rule **rule)
{
	int own = sl->rules_applied ? dv->ntaints - rule_taints_of(set, sl, dv) : dv->ntaints;
	for (int t = 0; t < own + (int)(rules_apply(set, off) ? set->nrules : 0); t++) {
		const pk_dra_taint_rule *r = t < own ? NULL : &set->rules[t - own];
		const pk_taint *x = r ? &r->taint : &dv->taints[t];
		if (r && !(pk_dra_taint_rule_effective(r) && pk_dra_taint_rule_matches(r, sl, dv)))
			continue;
		if (x->effect != PK_EFFECT_NO_EXECUTE)
			continue;
		bool tolerated = false;
		for (int k = 0; rq && !tolerated && k < rq->ntolerations; k++)
			tolerated = pk_toleration_tolerates(&rq->tolerations[k], x);
		if (!tolerated) {
			*taint = x;
			*rule = r;
			return true;
		}
	}
	return false;
}

/* The request of c a result names ("<request>" or "<request>/<sub>"), or NULL. */
static const pk_dra_request *result_request(const pk_dra_claim *c, const char *name)
{
	for (int q = 0; q < c->nrequests; q++) {
		if (strcmp(c->requests[q].name, name) == 0)
			return &c->requests[q];
		for (int k = 0; k < c->requests[q].nsubs; k++)
			if (strcmp(c->requests[q].subs[k].name, name) == 0)
				return &c->requests[q].subs[k];
	}
	return NULL;
}

/* The device a result names, and its slice. */
static const pk_dra_device *find_device(const pk_dra_set *set, const pk_dra_device_ref *ref,
                                        const pk_dra_slice **slice)
{
	for (long i = 0; i < set->nslices; i++) {
		const pk_dra_slice *sl = &set->slices[i];
		if (sl->driver != ref->driver || sl->pool != ref->pool)
			continue;
		for (int j = 0; j < sl->ndevices; j++)
			if (sl->devices[j].name == ref->device) {
				*slice = sl;
				return &sl->devices[j];
			}
	}
	return NULL;
}

/* Is there a NoExecute taint at all (a device's own, or a rule's)? Looked
 * at once per set: most inputs have none, and then no claim's devices need
 * looking up. */
static bool any_noexecute(pk_dra_set *set)
{
	if (!set->noexecute) {
		bool some = false;
		for (long i = 0; !some && i < set->nrules; i++)
			some = set->rules[i].taint.effect == PK_EFFECT_NO_EXECUTE;
		for (long i = 0; !some && i < set->nslices; i++)
			for (int j = 0; !some && j < set->slices[i].ndevices; j++)
				for (int t = 0; !some && t < set->slices[i].devices[j].ntaints; t++)
					some = set->slices[i].devices[j].taints[t].effect == PK_EFFECT_NO_EXECUTE;
		set->noexecute = some ? 2 : 1;
	}
	return set->noexecute == 2;
}

/* Does allocated claim c hold a device with a NoExecute taint its request
 * does not tolerate? The first such into the note's words. */
static bool claim_noexecute(const pk_dra_set *set, unsigned off, const pk_dra_claim *c, char *buf, size_t size)
{
	for (int i = 0; c->allocated && i < c->ndevices; i++) {
		const pk_dra_device_ref *ref = &c->devices[i];
		const pk_dra_slice *sl;
		const pk_dra_device *dv = find_device(set, ref, &sl);
		const pk_taint *t;
		const pk_dra_taint_rule *r;
		if (!dv || !untolerated_noexecute(set, off, sl, dv, result_request(c, ref->request), &t, &r))
			continue;
		char from[600];
		if (r)
			snprintf(from, sizeof from, "DeviceTaintRule %s%s%s%s", r->name, *r->time_added ? " (timeAdded " : "",
			         r->time_added, *r->time_added ? ")" : "");
		else
			snprintf(from, sizeof from, "ResourceSlice %s", sl->name);
		snprintf(buf, size, "ResourceClaim %s/%s's device %s/%s/%s has the taint %s%s%s:NoExecute of %s, which "
		         "request \"%s\" does not tolerate", c->namespace_, c->name, ref->driver, ref->pool, ref->device,
		         t->key, *t->value ? "=" : "", t->value, from, ref->request);
		return true;
	}
	return false;
}

#define EVICTION_NOT_MODELLED                                                                                      \
	"upstream's device taint eviction controller (kube-controller-manager, DRADeviceTaints) evicts the pods "  \
	"that use it, and the claim is then deallocated; not modelled: "

bool pk_dra_noexecute_note(const pk_snapshot *s, const pk_dra_claim *const *claims, int n, char *buf, size_t size)
{
	const pk_dra_set *set = s->dra;
	if (!set || (s->dra_off & PK_DRA_OFF_DEVICE_TAINTS) || !any_noexecute(s->dra))
		return false;
	char what[1500];
	for (int i = 0; i < n; i++)
		if (claim_noexecute(set, s->dra_off, claims[i], what, sizeof what)) {
			snprintf(buf, size, "%s: " EVICTION_NOT_MODELLED "the pod is placed as if it kept the device", what);
			return true;
		}
	return false;
}

bool pk_dra_taint_rules_hint(const pk_snapshot *s, bool claims, char *buf, size_t size)
{
	const pk_dra_set *set = s->dra;
	if (!set || (s->dra_off & PK_DRA_OFF_DEVICE_TAINTS))
		return false;
	/* running pods whose claims' devices are tainted NoExecute */
	long nclaims = 0;
	bool noexecute = any_noexecute(s->dra);
	char what[1500] = "", first[1500] = "";
	for (long i = 0; i < set->nclaims; i++)
		if (noexecute && set->claims[i].nreserved && claim_noexecute(set, s->dra_off, &set->claims[i], what, sizeof what))
			if (!nclaims++)
				snprintf(first, sizeof first, "%s", what);
	if (nclaims) {
		snprintf(buf, size, "%ld ResourceClaim(s) in use hold a device with a NoExecute taint they do not tolerate "
		         "(first: %s): " EVICTION_NOT_MODELLED "their pods are counted as running and the devices as held",
		         nclaims, first);
		return true;
	}
	bool devices = false;
	for (long i = 0; !devices && i < set->nslices; i++)
		devices = set->slices[i].ndevices > 0;
	if (!claims || !devices || set->nrules || set->rules_listed || (s->dra_off & PK_DRA_OFF_DEVICE_TAINT_RULES))
		return false;
	snprintf(buf, size,
	         "the input holds ResourceSlices and no DeviceTaintRule objects: with DRADeviceTaintRules on, the "
	         "scheduler also applies the taints DeviceTaintRules add to the devices they select, taken as none "
	         "here; `kubectl get devicetaintrules -o json` belongs in the input (an empty DeviceTaintRuleList "
	         "says there are none)");
	return true;
}
