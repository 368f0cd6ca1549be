/* The structured allocator on one node (dra_int.h), as
 * staging/src/k8s.io/dynamic-resource-allocation/structured allocates: the
 * node's free devices, the class's and request's CEL selectors, ExactCount
 * slots by backtracking, All requests, firstAvailable alternatives and
 * matchAttribute constraints; device taints and the requests' tolerations,
 * admin access (held devices too, never one device twice in a claim),
 * partitionable devices' counters (dra_counters.c) and consumable capacity
 * (dra_capacity.c: a device that allows multiple allocations shared while
 * its capacity lasts), each as its gate says (pk_dra_set.off). */
#include "sched/engine/filter/dra_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/dra.h"

pk_cel_device pk_dra_cel_view(const pk_dra_slice *sl, const pk_dra_device *dv)
{
	return (pk_cel_device){ .driver = sl->driver, .attrs = dv->attrs, .nattrs = dv->nattrs,
		                .capacity = dv->capacity, .ncapacity = dv->ncapacity,
		                .allow_multiple_allocations = dv->multi_alloc };
}

/* Each selector until one is false; on an error, *failed its index and err
 * the CEL error. */
static sel_verdict selectors_match(const pk_dra_selector *sel, int n, const pk_cel_device *d, int *failed, char *err,
                                   size_t errsize)
{
	for (int i = 0; i < n; i++) {
		*failed = i;
		if (!sel[i].program) {
			snprintf(err, errsize, "the selector does not compile");
			return SEL_ERROR; /* a compile error: the PreFilter said it */
		}
		pk_cel_result res = pk_cel_eval_device(sel[i].program, d, err, errsize);
		if (res == PK_CEL_ERROR)
			return SEL_ERROR;
		if (res == PK_CEL_FALSE)
			return SEL_NO;
	}
	return SEL_YES;
}

sel_verdict pk_dra_device_matches_why(const pk_dra_class *cls, const pk_dra_request *rq, const pk_dra_claim *c,
                                      const pk_cel_device *d, char *text, size_t size)
{
	char err[300];
	int failed = 0;
	sel_verdict v = selectors_match(cls->selectors, cls->nselectors, d, &failed, err, sizeof err);
	bool of_class = v != SEL_YES;
	if (!of_class)
		v = selectors_match(rq->selectors, rq->nselectors, d, &failed, err, sizeof err);
	if (v != SEL_ERROR || !text)
		return v;
	if (of_class) /* isSelectable's error */
		snprintf(text, size, "class %s: selector #%d: CEL runtime error: %s", cls->name, failed, err);
	else
		snprintf(text, size, "claim %s/%s: selector #%d: CEL runtime error: %s", c ? c->namespace_ : "",
		         c ? c->name : "", failed, err);
	return v;
}

/* The class's selectors, then the request's, for one device. */
sel_verdict pk_dra_device_matches(const pk_dra_class *cls, const pk_dra_request *rq, const pk_cel_device *d)
{
	return pk_dra_device_matches_why(cls, rq, NULL, d, NULL, 0);
}

typedef struct alloc_state {
	const pk_dra_set *set;
	/* the node's devices not held by a claim, and the held ones too when a
	 * request asks for admin access (held[] says which; NULL: none) */
	dev_at *devs;
	int ndevs;
	bool *held;
	int *picked;                    /* per device: the picks that hold it now */
	dra_counters *counters;         /* NULL: no device here consumes counters */
	dra_capacity *capacity;         /* NULL: no capacity to check (dra_capacity.c) */
	/* the ExactCount slots: one per device to pick, with its request's candidates */
	int nslots;
	int *slot_req;
	int **cands;                    /* per request: indices into devs */
	int *ncands;
	int *pick;                      /* per slot */
	long budget;                    /* backtracking steps left */
	bool error;
	char *why;                      /* the error's text, as the allocator's (NULL: not asked) */
	size_t whysize;
	/* the devices picked so far, All requests' then the slots': for the
	 * claims' matchAttribute constraints */
	const struct want *w;
	int *pick_want, *pick_dev;
	bool *pick_ctr;                 /* per pick: it took counters (a share of a device in use does not;
	                                 * NULL without capacity: all do) */
	int npicks;
} alloc_state;

typedef struct want {
	const pk_dra_request *rq;
	const pk_dra_class *cls;
	const pk_dra_claim *claim;
	const char *parent;             /* the request's name (a subrequest's parent's) */
} want;

/* Does the constraint name the want's request (none named: every one)? */
static bool constraint_covers(const pk_dra_constraint *c, const want *w)
{
	if (!c->nrequests)
		return true;
	for (int i = 0; i < c->nrequests; i++)
		if (strcmp(c->requests[i], w->parent) == 0 || strcmp(c->requests[i], w->rq->name) == 0)
			return true;
	return false;
}

/* Two semantic versions equal as semver's Equals has it: build metadata
 * ("+...") aside. */
static bool same_version(const char *x, const char *y)
{
	size_t nx = strcspn(x, "+"), ny = strcspn(y, "+");
	return nx == ny && strncmp(x, y, nx) == 0;
}

/* distinctAttributeConstraint.matchesAttribute: v differs from the value
 * of every device picked so far, in pick order; the first of another kind
 * ends the comparison, as upstream's (which then accepts). */
static bool distinct_keeps(const alloc_state *a, const want *w, const pk_dra_constraint *c, const pk_cel_attr *v)
{
	for (int i = 0; i < a->npicks; i++) {
		const want *w2 = &a->w[a->pick_want[i]];
		if (w2->claim != w->claim || !constraint_covers(c, w2))
			continue;
		const pk_cel_attr *v2 = pk_dra_device_attr(a->devs[a->pick_dev[i]].dev, c);
		if (!v2)
			continue;
		if (v2->kind != v->kind)
			return true;
		if (v->kind == PK_CEL_V_VERSION ? same_version(v->s, v2->s) : pk_dra_attr_equal(v, v2))
			return false;
	}
	return true;
}

/* Does device d for want q keep its claim's constraints with the devices
 * picked so far (constraint.go: the attribute present; matchAttribute one
 * value, distinctAttribute no value twice)? */
static bool constraints_keep(const alloc_state *a, int q, int d)
{
	const want *w = &a->w[q];
	for (int k = 0; k < w->claim->nconstraints; k++) {
		const pk_dra_constraint *c = &w->claim->constraints[k];
		if (!constraint_covers(c, w))
			continue;
		const pk_cel_attr *v = pk_dra_device_attr(a->devs[d].dev, c);
		if (!v)
			return false;
		if (c->distinct) {
			if (!distinct_keeps(a, w, c, v))
				return false;
			continue;
		}
		for (int i = 0; i < a->npicks; i++) {
			const want *w2 = &a->w[a->pick_want[i]];
			if (w2->claim != w->claim || !constraint_covers(c, w2))
				continue;
			const pk_cel_attr *v2 = pk_dra_device_attr(a->devs[a->pick_dev[i]].dev, c);
			if (!v2 || !pk_dra_attr_equal(v, v2))
				return false;
		}
	}
	return true;
}

static bool admin_of(const alloc_state *a, const want *w)
{
	return w->rq->admin_access && !(a->set->off & PK_DRA_OFF_ADMIN_ACCESS);
}

/* Is d picked already for a request of the claim? (allocatingDeviceForClaim) */
static bool picked_in_claim(const alloc_state *a, const pk_dra_claim *claim, int d)
{
	for (int i = 0; i < a->npicks; i++)
		if (a->pick_dev[i] == d && a->w[a->pick_want[i]].claim == claim)
			return true;
	return false;
}

/* allocateDevice: may want q have device d with what is picked so far? An
 * admin-access request may have a device in use, but not one its own claim
 * picked; a device that allows multiple allocations is never in use by a
 * pick, only its capacity must last (with what its shares and the picks
 * consume); the counters of d's pool must last (a shared device that has
 * shares took them already); the claim's constraints must hold. Then d is
 * picked (untake undoes it). */
static bool take(alloc_state *a, int q, int d)
{
	const want *w = &a->w[q];
	bool shared = pk_dra_capacity_shared(a->capacity, d);
	if (admin_of(a, w) ? !shared && picked_in_claim(a, w->claim, d)
	                   : (!shared && a->picked[d] > 0) || (a->held && a->held[d]))
		return false;
	if (a->capacity && !pk_dra_capacity_fits(a->capacity, d, w->rq, true))
		return false;
	bool ctr = !(shared && pk_dra_capacity_in_use(a->capacity, d));
	if (ctr && !pk_dra_counters_take(a->counters, d))
		return false;
	if (!constraints_keep(a, q, d)) {
		if (ctr)
			pk_dra_counters_give(a->counters, d);
		return false;
	}
	pk_dra_capacity_take(a->capacity, d, w->rq);
	a->picked[d]++;
	if (a->pick_ctr)
		a->pick_ctr[a->npicks] = ctr;
	a->pick_want[a->npicks] = q;
	a->pick_dev[a->npicks++] = d;
	return true;
}

static void untake(alloc_state *a, int d)
{
	a->npicks--;
	a->picked[d]--;
	pk_dra_capacity_give(a->capacity, d, a->w[a->pick_want[a->npicks]].rq);
	if (!a->pick_ctr || a->pick_ctr[a->npicks])
		pk_dra_counters_give(a->counters, d);
}

const pk_taint *pk_dra_untolerated_taint(const pk_dra_request *rq, const pk_dra_device *dv)
{
	for (int t = 0; t < dv->ntaints; t++) {
		bool tolerated = false;
		for (int k = 0; !tolerated && k < rq->ntolerations; k++)
			tolerated = pk_toleration_tolerates(&rq->tolerations[k], &dv->taints[t]);
		if (!tolerated)
			return &dv->taints[t];
	}
	return NULL;
}

/* What keeps a selectable device from a request whatever else is picked:
 * an untolerated taint (DRADeviceTaints), counters it consumes while
 * DRAPartitionableDevices is off. */
static bool device_barred(const alloc_state *a, const want *w, const pk_dra_device *dv)
{
	if (dv->ntaints && !(a->set->off & PK_DRA_OFF_DEVICE_TAINTS) && pk_dra_untolerated_taint(w->rq, dv))
		return true;
	return dv->nconsumes && (a->set->off & PK_DRA_OFF_PARTITIONABLE);
}

/* Backtracking over the slots (the allocator's allocateOne): a slot of the
 * same request as the one before picks a later candidate. */
static bool assign(alloc_state *a, int slot)
{
	if (slot == a->nslots)
		return true;
	if (--a->budget < 0)
		return false;
	int q = a->slot_req[slot];
	int from = slot > 0 && a->slot_req[slot - 1] == q ? a->pick[slot - 1] + 1 : 0;
	for (int k = from; k < a->ncands[q]; k++) {
		int d = a->cands[q][k];
		if (!take(a, q, d))
			continue;
		a->pick[slot] = k;
		if (assign(a, slot + 1))
			return true;
		untake(a, d);
	}
	return false;
}

/* Does a device on node n that a claim holds match want w? (All) */
static bool held_device_matches(const alloc_state *a, const pk_node *n, const want *w)
{
	long *on, non = pk_dra_node_slices(a->set, n, &on);
	bool found = false;
	for (long k = 0; !found && k < non; k++) {
		const pk_dra_slice *sl = &a->set->slices[on[k]];
		for (int i = 0; !found && i < sl->ndevices; i++) {
			if (!pk_dra_holder(a->set, sl->driver, sl->pool, sl->devices[i].name))
				continue;
			pk_cel_device v = pk_dra_cel_view(sl, &sl->devices[i]);
			found = pk_dra_device_matches(w->cls, w->rq, &v) == SEL_YES;
		}
	}
	free(on);
	return found;
}

/* The candidates of want q among devs: selectable, not barred, and unless
 * it asks for admin access not held. An All request's are every
 * selectable device, which must all be usable: false when one is not. */
static bool candidates(alloc_state *a, const want *w, int q)
{
	bool admin = admin_of(a, w);
	a->cands[q] = pk_xmalloc(sizeof **a->cands * (size_t)(a->ndevs + 1));
	a->ncands[q] = 0;
	for (int d = 0; d < a->ndevs; d++) {
		pk_cel_device v = pk_dra_cel_view(a->devs[d].slice, a->devs[d].dev);
		sel_verdict m = pk_dra_device_matches_why(w->cls, w->rq, w->claim, &v, a->why, a->whysize);
		if (m == SEL_ERROR) {
			a->error = true;
			return false;
		}
		if (m != SEL_YES || (a->capacity && !pk_dra_capacity_fits(a->capacity, d, w->rq, false)))
			continue; /* capacity: validateDeviceRequest and allocateOne skip the device */
		bool unusable = device_barred(a, w, a->devs[d].dev) || (!admin && a->held && a->held[d]);
		if (unusable && w->rq->all)
			return false; /* allocateDevice(must) fails on it: no solution */
		if (!unusable)
			a->cands[q][a->ncands[q]++] = d;
	}
	return true;
}

/* Candidates of each request among the node's devices; All requests take
 * theirs (every matching device, held ones included, must be usable and
 * there must be one). False when an All request cannot be met. */
static bool gather(alloc_state *a, const pk_node *n, const want *w, int nw)
{
	for (int q = 0; q < nw; q++) {
		if (!candidates(a, &w[q], q))
			return false;
		if (!w[q].rq->all)
			continue;
		/* All: a held device that matches fails it (found among devs when
		 * they hold the held ones) */
		if (!a->held && !admin_of(a, &w[q]) && held_device_matches(a, n, &w[q]))
			return false;
		if (a->ncands[q] == 0)
			return false; /* at least one device for All */
		for (int k = 0; k < a->ncands[q]; k++)
			if (!take(a, q, a->cands[q][k]))
				return false;
	}
	return true;
}

/* The node's devices: those no claim holds, and with with_held the held
 * ones too (marked in held[]). */
static void node_devices(alloc_state *a, const pk_node *n, bool with_held)
{
	long *on, non = pk_dra_node_slices(a->set, n, &on);
	int cap = 0;
	for (long k = 0; k < non; k++)
		cap += a->set->slices[on[k]].ndevices;
	a->devs = pk_xmalloc(sizeof *a->devs * (size_t)(cap + 1));
	a->held = with_held ? pk_xcalloc((size_t)cap + 1, sizeof *a->held) : NULL;
	for (long k = 0; k < non; k++) {
		const pk_dra_slice *sl = &a->set->slices[on[k]];
		for (int i = 0; i < sl->ndevices; i++) {
			bool held = pk_dra_holder(a->set, sl->driver, sl->pool, sl->devices[i].name) != NULL;
			if (held && !with_held)
				continue;
			if (held)
				a->held[a->ndevs] = true;
			a->devs[a->ndevs++] = (dev_at){ sl, &sl->devices[i] };
		}
	}
	free(on);
	if (a->set->counter_devices && !(a->set->off & PK_DRA_OFF_PARTITIONABLE))
		a->counters = pk_dra_counters_new(a->set, a->devs, a->ndevs);
	a->capacity = pk_dra_capacity_new(a->set, a->devs, a->ndevs);
}

/* The wants of the pod's unallocated claims, in claim then request order
 * (the allocator's: claims as the pod lists them), a request with
 * subrequests as the one choice[] picks (per such request, in order). */
static want *wants_of(const pk_snapshot *s, const dra_res *r, const int *choice, int *nw, long *total)
{
	int n = 0;
	for (int i = 0; i < r->nclaims; i++)
		n += r->claims[i]->allocated ? 0 : r->claims[i]->nrequests;
	*nw = n;
	*total = 0;
	if (n == 0)
		return NULL;
	want *w = pk_xmalloc(sizeof *w * (size_t)n);
	n = 0;
	int alt = 0;
	for (int i = 0; i < r->nclaims; i++)
		for (int q = 0; !r->claims[i]->allocated && q < r->claims[i]->nrequests; q++) {
			const pk_dra_request *rq = &r->claims[i]->requests[q];
			const char *parent = rq->name;
			if (rq->nsubs)
				rq = &rq->subs[choice[alt++]];
			w[n++] = (want){ rq, pk_dra_class_get(s->dra, rq->class_name), r->claims[i], parent };
			*total += rq->all ? 0 : rq->count;
		}
	return w;
}

/* The requests with subrequests among the pod's unallocated claims: their
 * counts of alternatives into *sizes (malloc'd); how many. */
static int alternatives(const dra_res *r, int **sizes)
{
	int n = 0;
	for (int i = 0; i < r->nclaims; i++)
		for (int q = 0; !r->claims[i]->allocated && q < r->claims[i]->nrequests; q++)
			n += r->claims[i]->requests[q].nsubs > 0;
	*sizes = pk_xcalloc((size_t)n + 1, sizeof **sizes);
	n = 0;
	for (int i = 0; i < r->nclaims; i++)
		for (int q = 0; !r->claims[i]->allocated && q < r->claims[i]->nrequests; q++)
			if (r->claims[i]->requests[q].nsubs)
				(*sizes)[n++] = r->claims[i]->requests[q].nsubs;
	return n;
}

/* The next choice of subrequests in the allocator's order (the first
 * request's alternatives outermost, as allocateOne recurses); false after
 * the last. */
static bool next_choice(int *choice, const int *sizes, int n)
{
	for (int k = n - 1; k >= 0; k--) {
		if (++choice[k] < sizes[k])
			return true;
		choice[k] = 0;
	}
	return false;
}

/* The devices chosen, per want: All requests their candidates, ExactCount
 * ones their slots' picks. */
static void record_picks(const alloc_state *a, const want *w, int nw, alloc_out *out)
{
	out->first = pk_xmalloc(sizeof *out->first * (size_t)(nw + 1));
	out->count = pk_xmalloc(sizeof *out->count * (size_t)(nw + 1));
	out->devs = pk_xmalloc(sizeof *out->devs * (size_t)(a->npicks + 1));
	out->names = pk_xmalloc(sizeof *out->names * (size_t)(nw + 1));
	out->admin = pk_xmalloc(sizeof *out->admin * (size_t)(nw + 1));
	out->rqs = pk_xmalloc(sizeof *out->rqs * (size_t)(nw + 1));
	out->shared = pk_xcalloc((size_t)a->npicks + 1, sizeof *out->shared);
	out->nwants = nw;
	out->ndevs = 0;
	int slot = 0;
	for (int q = 0; q < nw; q++) {
		out->first[q] = out->ndevs;
		out->names[q] = w[q].rq->name;
		out->admin[q] = admin_of(a, &w[q]);
		out->rqs[q] = w[q].rq;
		if (w[q].rq->all) {
			for (int k = 0; k < a->ncands[q]; k++) {
				out->shared[out->ndevs] = pk_dra_capacity_shared(a->capacity, a->cands[q][k]);
				out->devs[out->ndevs++] = a->devs[a->cands[q][k]];
			}
		} else {
			for (int64_t k = 0; k < w[q].rq->count; k++, slot++) {
				int d = a->cands[q][a->pick[slot]];
				out->shared[out->ndevs] = pk_dra_capacity_shared(a->capacity, d);
				out->devs[out->ndevs++] = a->devs[d];
			}
		}
		out->count[q] = out->ndevs - out->first[q];
	}
}

void pk_dra_alloc_out_free(alloc_out *o)
{
	free(o->first);
	free(o->count);
	free(o->devs);
	free(o->names);
	free(o->admin);
	free(o->rqs);
	free(o->shared);
	memset(o, 0, sizeof *o);
}

/* One choice of subrequests: can the wants all be allocated on n? */
static bool allocatable_as(const pk_snapshot *s, const dra_res *r, const int *choice, const pk_node *n, bool *error,
                           char *why, size_t whysize, alloc_out *out)
{
	int nw;
	long total;
	want *w = wants_of(s, r, choice, &nw, &total);
	*error = false;
	if (nw == 0)
		return true;
	alloc_state a = { .set = s->dra, .budget = 1000000, .w = w, .why = why, .whysize = whysize };
	bool any_admin = false;
	for (int q = 0; q < nw; q++)
		any_admin |= admin_of(&a, &w[q]);
	node_devices(&a, n, any_admin);
	a.picked = pk_xcalloc((size_t)a.ndevs + 1, sizeof *a.picked);
	/* admin access may pick a device once per claim: room for every pick */
	long maxpicks = total + 1;
	for (int q = 0; q < nw; q++)
		maxpicks += w[q].rq->all ? a.ndevs : 0;
	a.pick_want = pk_xmalloc(sizeof *a.pick_want * (size_t)maxpicks);
	a.pick_dev = pk_xmalloc(sizeof *a.pick_dev * (size_t)maxpicks);
	if (a.capacity) /* else every pick takes counters */
		a.pick_ctr = pk_xmalloc(sizeof *a.pick_ctr * (size_t)maxpicks);
	a.cands = pk_xcalloc((size_t)nw, sizeof *a.cands);
	a.ncands = pk_xcalloc((size_t)nw, sizeof *a.ncands);
	/* fewer devices than asked: only admin access or shares make it */
	bool ok = (any_admin || total <= a.ndevs || a.capacity) && gather(&a, n, w, nw);
	if (ok) {
		a.slot_req = pk_xmalloc(sizeof *a.slot_req * (size_t)(total + 1));
		a.pick = pk_xmalloc(sizeof *a.pick * (size_t)(total + 1));
		for (int q = 0; q < nw; q++)
			for (int64_t k = 0; !w[q].rq->all && k < w[q].rq->count; k++)
				a.slot_req[a.nslots++] = q;
		ok = assign(&a, 0);
		if (ok && out)
			record_picks(&a, w, nw, out);
		free(a.slot_req);
		free(a.pick);
	}
	*error = a.error;
	for (int q = 0; q < nw; q++)
		free(a.cands[q]);
	free(a.cands);
	free(a.ncands);
	free(a.picked);
	free(a.held);
	pk_dra_counters_free(a.counters);
	pk_dra_capacity_free(a.capacity);
	free(a.pick_ctr);
	free(a.pick_want);
	free(a.pick_dev);
	free(a.devs);
	free(w);
	return ok;
}

/* Can the pod's unallocated claims all be allocated on n? With out, what
 * the allocator picks (when it can). Requests with subrequests
 * (firstAvailable) take their alternatives in order, the first request's
 * outermost: the first choice that allocates wins, as upstream's search
 * finds it. */
bool pk_dra_allocatable(const pk_snapshot *s, const dra_res *r, const pk_node *n, bool *error, char *why,
                        size_t whysize, alloc_out *out)
{
	int *sizes;
	int nalt = alternatives(r, &sizes);
	int *choice = pk_xcalloc((size_t)nalt + 1, sizeof *choice);
	bool ok;
	do
		ok = allocatable_as(s, r, choice, n, error, why, whysize, out);
	while (!ok && !*error && next_choice(choice, sizes, nalt));
	free(choice);
	free(sizes);
	return ok;
}
