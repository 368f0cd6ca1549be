/* --explain's account of a node DynamicResources' Filter rejected, in this
 * tool's words (dra.h pk_dra_explain): the scheduler's status says only
 * "cannot allocate all claims" or "resourceclaim not available on the
 * node" (dynamicresources.go Filter); this names the claim and request
 * that cannot be met there and why, from the same objects the allocator
 * reads: the node's devices, the class's and request's selectors, the
 * devices other claims hold, device taints, the claims' constraints. Read
 * only; runs after the evaluation, for the nodes a record explains. */
#include "sched/engine/filter/dra_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/dra.h"

/* What the node offers one request, device by device. */
typedef struct tally {
	int match;                 /* devices the class's and request's selectors select */
	int held, tainted, barred, free;
	const pk_taint *taint;     /* the first untolerated taint met */
	char holders[600];         /* the first held devices with their claims */
	int nholders;
	bool error;                /* a CEL runtime error */
} tally;

static void add(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t size, const char *fmt, ...)
{
	size_t w = strlen(buf);
	if (w + 1 >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + w, size - w, fmt, ap);
	va_end(ap);
}

static void claim_text(const pk_dra_claim *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", c->namespace_, c->name);
}

/* The node's devices (every one, held or not), in the allocator's order;
 * how many, *out malloc'd. */
static int node_devices(const pk_dra_set *set, const pk_node *n, dev_at **out)
{
	long *on, non = pk_dra_node_slices(set, n, &on);
	int cap = 0;
	for (long k = 0; k < non; k++)
		cap += set->slices[on[k]].ndevices;
	dev_at *v = pk_xmalloc(sizeof *v * (size_t)(cap + 1));
	int nv = 0;
	for (long k = 0; k < non; k++)
		for (int i = 0; i < set->slices[on[k]].ndevices; i++)
			v[nv++] = (dev_at){ &set->slices[on[k]], &set->slices[on[k]].devices[i] };
	free(on);
	*out = v;
	return nv;
}

static void note_holder(tally *t, const dev_at *d, const pk_dra_claim *h)
{
	if (t->nholders++ >= 3) {
		if (t->nholders == 4)
			add(t->holders, sizeof t->holders, ", ...");
		return;
	}
	add(t->holders, sizeof t->holders, "%s%s/%s/%s (claim %s/%s", t->nholders > 1 ? ", " : "", d->slice->driver,
	    d->slice->pool, d->dev->name, h->namespace_, h->name);
	for (int i = 0; i < h->nreserved && i < 2; i++)
		add(t->holders, sizeof t->holders, "%s%s", i ? ", " : ", reserved for pod ", h->reserved_names[i]);
	if (h->nreserved > 2)
		add(t->holders, sizeof t->holders, ", ...");
	add(t->holders, sizeof t->holders, ")");
}

/* Each device of the node for request rq: selected, and then held by a
 * claim (unless the request asks for admin access), kept off by a taint,
 * barred (counters with DRAPartitionableDevices off), or free. */
static void count_request(const pk_dra_set *set, const pk_dra_request *rq, const dev_at *devs, int ndevs, tally *t)
{
	memset(t, 0, sizeof *t);
	const pk_dra_class *cls = pk_dra_class_get(set, rq->class_name);
	bool admin = rq->admin_access && !(set->off & PK_DRA_OFF_ADMIN_ACCESS);
	for (int d = 0; cls && d < ndevs; d++) {
		pk_cel_device v = pk_dra_cel_view(devs[d].slice, devs[d].dev);
		sel_verdict m = pk_dra_device_matches(cls, rq, &v);
		if (m == SEL_ERROR) {
			t->error = true;
			return;
		}
		if (m != SEL_YES)
			continue;
		t->match++;
		const pk_dra_claim *h = pk_dra_holder(set, devs[d].slice->driver, devs[d].slice->pool, devs[d].dev->name);
		const pk_taint *taint = (set->off & PK_DRA_OFF_DEVICE_TAINTS) ? NULL
		                                                              : pk_dra_untolerated_taint(rq, devs[d].dev);
		if (h && !admin) {
			t->held++;
			note_holder(t, &devs[d], h);
		} else if (taint) {
			t->tainted++;
			if (!t->taint)
				t->taint = taint;
		} else if (devs[d].dev->nconsumes && (set->off & PK_DRA_OFF_PARTITIONABLE)) {
			t->barred++;
		} else {
			t->free++;
		}
	}
}

static bool met_alone(const pk_dra_request *rq, const tally *t)
{
	return rq->all ? t->match > 0 && t->free == t->match : t->free >= rq->count;
}

/* Why the node's devices do not meet rq alone: cause and sentence. */
static void request_why(const pk_dra_request *rq, const tally *t, int ndevs, const pk_node *n, pk_dra_why *w)
{
	if (t->match == 0) {
		w->cause = "noMatchingDevice";
		if (ndevs == 0)
			add(w->message, sizeof w->message, "node %s has no devices (no ResourceSlice publishes any for it)",
			    n->name);
		else
			add(w->message, sizeof w->message, "none of the node's %d device(s) is selected by DeviceClass %s%s",
			    ndevs, rq->class_name, rq->nselectors ? " and the request's selectors" : "");
		return;
	}
	if (rq->all)
		add(w->message, sizeof w->message, "allocationMode All needs every device it selects, %d here, and ",
		    t->match);
	else
		add(w->message, sizeof w->message, "it asks for %lld device(s) of class %s; %d of the node's match and ",
		    (long long)rq->count, rq->class_name, t->match);
	add(w->message, sizeof w->message, "%d of them are free", t->free);
	if (t->held)
		add(w->message, sizeof w->message, "; %d allocated to other claims: %s", t->held, t->holders);
	if (t->tainted) {
		char buf[400];
		snprintf(buf, sizeof buf, "%s%s%s:%s", t->taint->key, *t->taint->value ? "=" : "", t->taint->value,
		         pk_taint_effect_name(t->taint->effect));
		add(w->message, sizeof w->message, "; %d with a taint the request does not tolerate (%s)", t->tainted, buf);
	}
	if (t->barred)
		add(w->message, sizeof w->message, "; %d consume counters, which DRAPartitionableDevices off forbids",
		    t->barred);
	w->cause = t->held && !t->tainted && !t->barred   ? "devicesAllocated"
	           : t->tainted && !t->held && !t->barred ? "devicesTainted"
	           : t->held || t->tainted || t->barred   ? "devicesUnavailable"
	                                                  : "notEnoughDevices";
}

/* The first selector error the allocator meets for rq on the node's
 * devices, as its error says it (pk_dra_device_matches_why). */
static void runtime_error(const pk_dra_set *set, const pk_dra_claim *c, const pk_dra_request *rq, const dev_at *devs,
                          int ndevs, pk_dra_why *w)
{
	const pk_dra_class *cls = pk_dra_class_get(set, rq->class_name);
	char err[700];
	for (int d = 0; cls && d < ndevs; d++) {
		pk_cel_device v = pk_dra_cel_view(devs[d].slice, devs[d].dev);
		if (pk_dra_device_matches_why(cls, rq, c, &v, err, sizeof err) != SEL_ERROR)
			continue;
		add(w->message, sizeof w->message, "on device %s/%s/%s the allocator stops: %s", devs[d].slice->driver,
		    devs[d].slice->pool, devs[d].dev->name, err);
		return;
	}
	add(w->message, sizeof w->message, "a selector of class %s or of the request fails at run time on a device of "
	    "the node", rq->class_name);
}

/* The first request of claim c (as the Filter asks it on the node) the
 * node cannot meet alone: true with w filled. A request with
 * firstAvailable alternatives fails when none of them is met alone. */
static bool claim_unmet(const pk_dra_set *set, const pk_dra_claim *c, const dev_at *devs, int ndevs,
                        const pk_node *n, pk_dra_why *w)
{
	for (int q = 0; q < c->nrequests; q++) {
		const pk_dra_request *rq = &c->requests[q];
		const pk_dra_request *first = rq->nsubs ? &rq->subs[0] : rq;
		tally t, t0;
		bool met = false;
		for (int k = 0; !met && k < (rq->nsubs ? rq->nsubs : 1); k++) {
			const pk_dra_request *alt = rq->nsubs ? &rq->subs[k] : rq;
			count_request(set, alt, devs, ndevs, &t);
			if (k == 0)
				t0 = t;
			if (t.error) {
				claim_text(c, w->claim, sizeof w->claim);
				snprintf(w->request, sizeof w->request, "%s", alt->name);
				w->cause = "celRuntimeError";
				runtime_error(set, c, alt, devs, ndevs, w);
				return true;
			}
			met = met_alone(alt, &t);
		}
		if (met)
			continue;
		claim_text(c, w->claim, sizeof w->claim);
		snprintf(w->request, sizeof w->request, "%s", rq->name);
		if (rq->nsubs)
			add(w->message, sizeof w->message, "none of its %d firstAvailable alternatives can be met; the "
			    "first, %s: ", rq->nsubs, first->name);
		request_why(first, &t0, ndevs, n, w);
		return true;
	}
	return false;
}

/* Every request can be met alone: what keeps them from being met together. */
static void together_why(const dra_res *r, const pk_dra_set *set, pk_dra_why *w)
{
	long long need = 0;
	const pk_dra_claim *constrained = NULL;
	for (int i = 0; i < r->nclaims; i++) {
		const pk_dra_claim *c = r->claims[i];
		for (int q = 0; !c->allocated && q < c->nrequests; q++)
			need += c->requests[q].all ? 0 : c->requests[q].count;
		if (!c->allocated && c->nconstraints && !constrained)
			constrained = c;
	}
	w->cause = "notAllTogether";
	add(w->message, sizeof w->message, "enough free devices match each request on its own, but no choice meets "
	    "them all together (%lld device(s) by count in all, none twice)", need);
	if (constrained) {
		const pk_dra_constraint *k = &constrained->constraints[0];
		add(w->message, sizeof w->message, "; claim %s/%s constrains its devices (%s %s%s%s%s)",
		    constrained->namespace_, constrained->name, k->distinct ? "distinctAttribute" : "matchAttribute",
		    k->domain && *k->domain ? k->domain : "", k->domain && *k->domain ? "/" : "", k->name,
		    constrained->nconstraints > 1 ? ", ..." : "");
	}
	if (set->counter_devices && !(set->off & PK_DRA_OFF_PARTITIONABLE))
		add(w->message, sizeof w->message, "; partitionable devices share counters, which may run out");
}

/* An allocated claim whose allocation the node is not among. */
static bool allocated_elsewhere(const dra_res *r, const pk_node *n, pk_dra_why *w)
{
	for (int i = 0; i < r->nclaims; i++) {
		const pk_dra_claim *c = r->claims[i];
		if (!c->allocated || pk_dra_allocation_on_node(c, n))
			continue;
		claim_text(c, w->claim, sizeof w->claim);
		w->cause = "claimAllocatedElsewhere";
		add(w->message, sizeof w->message, "the claim is allocated already (");
		for (int j = 0; j < c->ndevices && j < 3; j++)
			add(w->message, sizeof w->message, "%s%s/%s/%s", j ? ", " : "", c->devices[j].driver,
			    c->devices[j].pool, c->devices[j].device);
		add(w->message, sizeof w->message, "%s)", c->ndevices > 3 ? ", ..." : "");
		if (*c->alloc_node)
			add(w->message, sizeof w->message, " on node %s in this run", c->alloc_node);
		else
			add(w->message, sizeof w->message, " and its allocation's node selector does not admit node %s",
			    n->name);
		return true;
	}
	return false;
}

bool pk_dra_explain(const pk_pod *pod, const pk_node *n, pk_dra_why *w)
{
	memset(w, 0, sizeof *w);
	const dra_res *full = pk_dra_resolution(pod);
	if (!full || !full->applies || full->reject.code != PK_CODE_SUCCESS || !full->s || !full->s->dra)
		return false;
	const pk_dra_set *set = full->s->dra;
	if (allocated_elsewhere(full, n, w))
		return true;
	dra_view view;
	const dra_res *r = pk_dra_on_node(full, n, &view);
	dev_at *devs;
	int ndevs = node_devices(set, n, &devs);
	bool found = false;
	for (int i = 0; !found && i < r->nclaims; i++)
		found = !r->claims[i]->allocated && claim_unmet(set, r->claims[i], devs, ndevs, n, w);
	bool unallocated = false;
	for (int i = 0; i < r->nclaims; i++)
		unallocated |= !r->claims[i]->allocated;
	if (!found && unallocated) {
		together_why(r, set, w);
		found = true;
	}
	free(devs);
	pk_dra_view_free(&view);
	return found;
}
