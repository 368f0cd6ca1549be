/* DynamicResources' PreFilter and Filter over the input's DRA objects
 * (dra.h), as pkg/scheduler/framework/plugins/dynamicresources and
 * staging/src/k8s.io/dynamic-resource-allocation/structured do it. */
#include "sched/engine/filter/dra.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/dra.h"
#include "sched/engine/reasons.h"

#define PLUGIN "DynamicResources"

/* A pod's claims resolved (pk_pod_dra.resolved). */
typedef struct dra_res dra_res;
struct dra_res {
	pk_status reject;               /* the PreFilter's rejection (code SUCCESS: none) */
	const pk_dra_claim **claims;    /* the claims found, in spec order (skipped ones left out) */
	int nclaims;
	bool applies;                   /* modelled: the Filter runs */
	pk_snapshot *s;                 /* resolved against */
	const pk_pod *pod;              /* the pod of a per-pod resolution (claims from templates), else NULL */
	struct dra_res *next;           /* the con's other pods' */
	const char *assumes;            /* claims made from templates here, or NULL */
	const char *held_note;          /* pk_dra_held_devices_note, as of the set's generation: */
	long held_note_gen;             /* 0: not computed yet */
};

/* A pod's resolution: the con's, or of a con whose claims come from
 * templates (every pod its own claims) the pod's, which pk_dra_resolve
 * keeps first. */
static const dra_res *resolution(const pk_pod *pod)
{
	const pk_pod_dra *pd = pod->con->dra;
	const dra_res *r = pd ? pd->resolved : NULL;
	while (r && r->pod && r->pod != pod)
		r = r->next;
	return r;
}

const char *pk_dra_assumption(const pk_pod *pod)
{
	const dra_res *r = resolution(pod);
	return r ? r->assumes : NULL;
}

bool pk_dra_allocates(const pk_pod *pod)
{
	const dra_res *r = resolution(pod);
	for (int i = 0; r && r->applies && r->reject.code == PK_CODE_SUCCESS && i < r->nclaims; i++)
		if (!r->claims[i]->allocated)
			return true;
	return false;
}

bool pk_dra_applies(const pk_pod *pod)
{
	const dra_res *r = resolution(pod);
	return r && r->applies;
}

bool pk_dra_prefilter_rejects(const pk_pod *pod, pk_status *out)
{
	const dra_res *r = resolution(pod);
	if (!r || !r->applies || r->reject.code == PK_CODE_SUCCESS)
		return false;
	*out = r->reject;
	return true;
}

void pk_dra_resolve_all(pk_snapshot *s)
{
	if (!s->dra || s->dra->pods_resolved)
		return;
	pk_dra_set_finish(s->dra, &s->dec);
	s->dra->pods_resolved = true;
}

/* ---- the PreFilter ------------------------------------------------------------- */

static void reject(pk_snapshot *s, dra_res *r, pk_code code, const char *msg)
{
	pk_status_set(&r->reject, code, PLUGIN, pk_intern(s->strs, msg));
	r->reject.prefilter = true;
}

/* The claim the resourceclaim controller makes from the pod claim's
 * template (controller.go handleClaim: generateName "<pod>-<claim>-", owned
 * by the pod), or NULL when the input lacks the template. Said. */
static const pk_dra_claim *claim_made(pk_snapshot *s, const pk_pod *pod, const pk_pod_dra_claim *pc, dra_res *r)
{
	const pk_dra_template *t = pk_dra_template_get(s->dra, pod->namespace_, pc->template_name);
	if (!t)
		return NULL;
	char name[600], text[3000];
	snprintf(name, sizeof name, "%s-%s", pod->name, pc->name);
	pk_dra_claim *c = pk_dra_claim_make(s->dra, &s->arena, t, pk_intern(s->strs, name), pod->name, pod->uid);
	snprintf(text, sizeof text,
	         "spec.resourceClaims \"%s\": its ResourceClaim is not created yet: made from ResourceClaimTemplate "
	         "%s/%s as the resourceclaim controller makes it, owned by the pod (upstream names it %s-<5 random "
	         "characters>; %s/%s here); until the controller has made it, upstream's PreFilter answers "
	         "\"ResourceClaim not created yet\" and the pod waits",
	         pc->name, t->namespace_, t->name, name, pod->namespace_, name);
	if (!r->assumes) {
		r->assumes = pk_intern(s->strs, text);
	} else {
		char both[6200];
		snprintf(both, sizeof both, "%s; %s", r->assumes, text);
		r->assumes = pk_intern(s->strs, both);
	}
	return c;
}

/* A pod the simulation made (an applied object's, a recreated victim):
 * its template claims are its own, made afresh, whatever the status it
 * was copied with names. */
static bool made_in_run(const pk_snapshot *s, const pk_pod *pod)
{
	return s->dra_bound && (pod->index < 0 || pod->index >= s->npods);
}

/* foreachPodResourceClaim: each claim named, found, not being deleted. */
static bool claims_found(pk_snapshot *s, const pk_pod *pod, dra_res *r)
{
	const pk_pod_dra *pd = pod->con->dra;
	char msg[700];
	bool fresh = made_in_run(s, pod);
	for (int i = 0; i < pd->nclaims; i++) {
		const pk_pod_dra_claim *pc = &pd->claims[i];
		if (pc->from_template && (!*pc->claim || fresh) && (!pc->skip || fresh)) {
			const pk_dra_claim *made = claim_made(s, pod, pc, r);
			if (made) {
				r->claims[r->nclaims++] = made;
				continue;
			}
		}
		if (pc->skip)
			continue; /* resourceclaim.Name: no claim needed */
		if (!*pc->claim) {
			if (pc->from_template) /* resourceclaim.ErrClaimNotFound */
				snprintf(msg, sizeof msg, PK_R_DRA_CLAIM_NOT_CREATED, pod->namespace_,
				         pod->name);
			else /* resourceclaim.ErrAPIUnsupported */
				snprintf(msg, sizeof msg, PK_R_DRA_API_UNSUPPORTED,
				         pod->namespace_, pod->name, pc->name);
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, msg);
			return false;
		}
		const pk_dra_claim *c = pk_dra_claim_get(s->dra, pod->namespace_, pc->claim);
		if (!c) { /* the scheduler's assume cache: NotFoundError */
			snprintf(msg, sizeof msg, PK_R_DRA_CLAIM_NOT_FOUND, pod->namespace_, pc->claim);
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, msg);
			return false;
		}
		if (c->deleting) {
			snprintf(msg, sizeof msg, PK_R_DRA_CLAIM_DELETING, c->name);
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, msg);
			return false;
		}
		/* resourceclaim.IsForPod (the owner's uid, when the input kept it) */
		if (pc->from_template && (strcmp(c->owner_kind, "Pod") != 0 || strcmp(c->owner_name, pod->name) != 0 ||
		                          (*c->owner_uid && *pod->uid && strcmp(c->owner_uid, pod->uid) != 0))) {
			snprintf(msg, sizeof msg, PK_R_DRA_NOT_FOR_POD,
			         c->namespace_, c->name, pod->namespace_, pod->name);
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, msg);
			return false;
		}
		r->claims[r->nclaims++] = c;
	}
	return true;
}

static bool reserved_for(const pk_dra_claim *c, const pk_pod *pod)
{
	for (int i = 0; i < c->nreserved; i++)
		if ((*pod->uid && strcmp(c->reserved_uids[i], pod->uid) == 0) || strcmp(c->reserved_names[i], pod->name) == 0)
			return true;
	return false;
}

/* A selector of the claim's requests or their classes that does not
 * compile: upstream's allocator error for the first device it meets. */
static const char *request_compile_error(pk_snapshot *s, const pk_dra_claim *c, const pk_dra_request *rq,
                                         char *msg, size_t size)
{
	if (rq->nsubs) { /* the allocator meets the first subrequest's first */
		for (int k = 0; k < rq->nsubs; k++)
			if (request_compile_error(s, c, &rq->subs[k], msg, size))
				return msg;
		return NULL;
	}
	const pk_dra_class *cls = pk_dra_class_get(s->dra, rq->class_name);
	for (int i = 0; cls && i < cls->nselectors; i++)
		if (*cls->selectors[i].error) {
			snprintf(msg, size, "class %s: selector #%d: CEL compile error: %s", cls->name, i,
			         cls->selectors[i].error);
			return msg;
		}
	for (int i = 0; i < rq->nselectors; i++)
		if (*rq->selectors[i].error) {
			snprintf(msg, size, "claim %s/%s: selector #%d: CEL compile error: %s", c->namespace_, c->name, i,
			         rq->selectors[i].error);
			return msg;
		}
	return NULL;
}

static const char *first_compile_error(pk_snapshot *s, const pk_dra_claim *c, char *msg, size_t size)
{
	for (int q = 0; q < c->nrequests; q++)
		if (request_compile_error(s, c, &c->requests[q], msg, size))
			return msg;
	return NULL;
}

/* validateDeviceClass for a request, or each of its subrequests: false
 * with the rejection set. */
static bool request_classes_exist(pk_snapshot *s, dra_res *r, const pk_dra_request *rq)
{
	char msg[900];
	for (int k = 0; k < rq->nsubs; k++)
		if (!request_classes_exist(s, r, &rq->subs[k]))
			return false;
	if (rq->nsubs)
		return true;
	if (!*rq->class_name) { /* an Error */
		snprintf(msg, sizeof msg, PK_R_DRA_UNSUPPORTED_REQUEST, rq->name);
		reject(s, r, PK_CODE_ERROR, msg);
		return false;
	}
	if (!pk_dra_class_get(s->dra, rq->class_name)) {
		snprintf(msg, sizeof msg, PK_R_DRA_NO_CLASS, rq->name, rq->class_name);
		reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, msg);
		return false;
	}
	return true;
}

/* PreFilter's checks of each claim, in order: in use by too many pods, an
 * unallocated one's requests and classes. */
static void claims_usable(pk_snapshot *s, const pk_pod *pod, dra_res *r)
{
	char msg[900];
	for (int i = 0; i < r->nclaims; i++) {
		const pk_dra_claim *c = r->claims[i];
		/* resourceclaim.CanBeReserved: ResourceClaimReservedForMaxSize 256 */
		if (c->allocated && c->nreserved >= 256 && !reserved_for(c, pod)) {
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, PK_R_DRA_IN_USE);
			return;
		}
		if (c->allocated)
			continue;
		for (int q = 0; q < c->nrequests; q++)
			if (!request_classes_exist(s, r, &c->requests[q]))
				return;
	}
	/* A selector that does not compile fails the Filter with an Error on
	 * any node that has devices (the allocator meets it on the first one):
	 * taken here, for every node, when some slice lists a device. */
	bool devices = false;
	for (long k = 0; !devices && k < s->dra->nslices; k++)
		devices = s->dra->slices[k].ndevices > 0;
	for (int i = 0; devices && i < r->nclaims; i++)
		if (!r->claims[i]->allocated && first_compile_error(s, r->claims[i], msg, sizeof msg)) {
			reject(s, r, PK_CODE_ERROR, msg);
			return;
		}
}

static const char *unsupported_of(const dra_res *r)
{
	for (int i = 0; i < r->nclaims; i++)
		if (r->claims[i]->unsupported && !r->claims[i]->allocated)
			return r->claims[i]->unsupported;
	return NULL;
}

/* Does every pod of the con need claims of its own (from templates)? */
static bool per_pod(const pk_pod_dra *pd)
{
	for (int i = 0; i < pd->nclaims; i++)
		if (pd->claims[i].from_template)
			return true;
	return false;
}

/* The pod's resolution, moved first among its con's (single-threaded:
 * the Filter's look-ups then find it at once). */
static dra_res *find_first(pk_pod_dra *pd, const pk_pod *pod)
{
	dra_res *prev = NULL, *r = pd->resolved;
	while (r && r->pod && r->pod != pod) {
		prev = r;
		r = r->next;
	}
	if (r && prev) {
		prev->next = r->next;
		r->next = pd->resolved;
		pd->resolved = r;
	}
	return r;
}

void pk_dra_resolve(pk_snapshot *s, const pk_pod *pod)
{
	pk_pod_dra *pd = (pk_pod_dra *)pod->con->dra;
	if (!pd || !s->dra)
		return;
	if (pd->resolved_for != s->dra) {
		pd->resolved = NULL;
		pd->resolved_for = s->dra;
	}
	const dra_res *have = find_first(pd, pod);
	if (have) { /* a copy of a pod resolved before (same con): the plugin runs for it too */
		if (have->applies)
			((pk_pod *)pod)->unmodelled &= (uint8_t)~PK_UNMODELLED_RESOURCE_CLAIMS;
		return;
	}
	pk_dra_resolve_all(s);
	dra_res *r = pk_arena_alloc(&s->arena, sizeof *r);
	memset(r, 0, sizeof *r);
	r->reject.code = PK_CODE_SUCCESS;
	r->claims = pk_arena_alloc(&s->arena, sizeof *r->claims * (size_t)(pd->nclaims + 1));
	r->pod = per_pod(pd) ? pod : NULL;
	r->next = pd->resolved;
	pd->resolved = r;
	r->s = s;
	if (claims_found(s, pod, r))
		claims_usable(s, pod, r);
	if (r->reject.code == PK_CODE_SUCCESS && unsupported_of(r))
		return; /* not modelled: the pod keeps its warning, the plugin does not run */
	r->applies = true;
	((pk_pod *)pod)->unmodelled &= (uint8_t)~PK_UNMODELLED_RESOURCE_CLAIMS;
}

/* ---- the Filter: the structured allocator on one node ---------------------------- */

static pk_cel_device cel_view(const pk_dra_slice *sl, const pk_dra_device *dv)
{
	return (pk_cel_device){ .driver = sl->driver, .attrs = dv->attrs, .nattrs = dv->nattrs,
		                .capacity = dv->capacity, .ncapacity = dv->ncapacity };
}

typedef enum { SEL_NO, SEL_YES, SEL_ERROR } sel_verdict;

static sel_verdict selectors_match(const pk_dra_selector *sel, int n, const pk_cel_device *d)
{
	for (int i = 0; i < n; i++) {
		if (!sel[i].program)
			return SEL_ERROR; /* a compile error: the PreFilter said it */
		char err[300];
		pk_cel_result res = pk_cel_eval_device(sel[i].program, d, err, sizeof err);
		if (res == PK_CEL_ERROR)
			return SEL_ERROR;
		if (res == PK_CEL_FALSE)
			return SEL_NO;
	}
	return SEL_YES;
}

/* The class's selectors, then the request's, for one device. */
static sel_verdict device_matches(const pk_dra_class *cls, const pk_dra_request *rq, const pk_cel_device *d)
{
	sel_verdict v = selectors_match(cls->selectors, cls->nselectors, d);
	return v == SEL_YES ? selectors_match(rq->selectors, rq->nselectors, d) : v;
}

/* A device of the node: its slice and index. */
typedef struct dev_at {
	const pk_dra_slice *slice;
	const pk_dra_device *dev;
} dev_at;

typedef struct alloc_state {
	const pk_dra_set *set;
	dev_at *devs;                   /* the node's devices not held by a claim */
	int ndevs;
	bool *picked;
	/* the ExactCount slots: one per device to pick, with its request's candidates */
	int nslots;
	int *slot_req;
	int **cands;                    /* per request: indices into devs */
	int *ncands;
	int *pick;                      /* per slot */
	long budget;                    /* backtracking steps left */
	bool error;
	/* the devices picked so far, All requests' then the slots': for the
	 * claims' matchAttribute constraints */
	const struct want *w;
	int *pick_want, *pick_dev;
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

/* Does device d for want q keep its claim's matchAttribute constraints with
 * the devices picked so far (constraint.go: the attribute present, one
 * value)? */
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

static void push_pick(alloc_state *a, int q, int d)
{
	a->pick_want[a->npicks] = q;
	a->pick_dev[a->npicks++] = d;
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
		if (a->picked[d] || !constraints_keep(a, q, d))
			continue;
		a->picked[d] = true;
		a->pick[slot] = k;
		push_pick(a, q, d);
		if (assign(a, slot + 1))
			return true;
		a->npicks--;
		a->picked[d] = false;
	}
	return false;
}

/* Candidates of each request among the node's free devices; All requests
 * take theirs (every matching device, held ones included, must be free and
 * there must be one). False when an All request cannot be met. */
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
			pk_cel_device v = cel_view(sl, &sl->devices[i]);
			found = device_matches(w->cls, w->rq, &v) == SEL_YES;
		}
	}
	free(on);
	return found;
}

static bool gather(alloc_state *a, const pk_node *n, const want *w, int nw)
{
	for (int q = 0; q < nw; q++) {
		a->cands[q] = pk_xmalloc(sizeof **a->cands * (size_t)(a->ndevs + 1));
		a->ncands[q] = 0;
		for (int d = 0; d < a->ndevs; d++) {
			pk_cel_device v = cel_view(a->devs[d].slice, a->devs[d].dev);
			sel_verdict m = device_matches(w[q].cls, w[q].rq, &v);
			if (m == SEL_ERROR) {
				a->error = true;
				return false;
			}
			if (m == SEL_YES)
				a->cands[q][a->ncands[q]++] = d;
		}
		if (!w[q].rq->all)
			continue;
		/* All: a held device that matches fails it */
		if (held_device_matches(a, n, &w[q]))
			return false;
		if (a->ncands[q] == 0)
			return false; /* at least one device for All */
		for (int k = 0; k < a->ncands[q]; k++) {
			if (a->picked[a->cands[q][k]] || !constraints_keep(a, q, a->cands[q][k]))
				return false;
			a->picked[a->cands[q][k]] = true;
			push_pick(a, q, a->cands[q][k]);
		}
	}
	return true;
}

static void node_devices(alloc_state *a, const pk_node *n)
{
	long *on, non = pk_dra_node_slices(a->set, n, &on);
	int cap = 0;
	for (long k = 0; k < non; k++)
		cap += a->set->slices[on[k]].ndevices;
	a->devs = pk_xmalloc(sizeof *a->devs * (size_t)(cap + 1));
	for (long k = 0; k < non; k++) {
		const pk_dra_slice *sl = &a->set->slices[on[k]];
		for (int i = 0; i < sl->ndevices; i++)
			if (!pk_dra_holder(a->set, sl->driver, sl->pool, sl->devices[i].name))
				a->devs[a->ndevs++] = (dev_at){ sl, &sl->devices[i] };
	}
	free(on);
}

/* What the allocator chose: per want (claim by claim, request by request),
 * its devices in the order they were picked. */
typedef struct alloc_out {
	int *first;                     /* per want: index of its first device in devs */
	int *count;                     /* per want */
	dev_at *devs;
	int ndevs;
	const char **names;             /* per want: the request's name, a subrequest's "<request>/<sub>" */
} alloc_out;

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
	out->devs = pk_xmalloc(sizeof *out->devs * (size_t)(a->ndevs + 1));
	out->names = pk_xmalloc(sizeof *out->names * (size_t)(nw + 1));
	out->ndevs = 0;
	int slot = 0;
	for (int q = 0; q < nw; q++) {
		out->first[q] = out->ndevs;
		out->names[q] = w[q].rq->name;
		if (w[q].rq->all) {
			for (int k = 0; k < a->ncands[q]; k++)
				out->devs[out->ndevs++] = a->devs[a->cands[q][k]];
		} else {
			for (int64_t k = 0; k < w[q].rq->count; k++, slot++)
				out->devs[out->ndevs++] = a->devs[a->cands[q][a->pick[slot]]];
		}
		out->count[q] = out->ndevs - out->first[q];
	}
}

static void alloc_out_free(alloc_out *o)
{
	free(o->first);
	free(o->count);
	free(o->devs);
	free(o->names);
	memset(o, 0, sizeof *o);
}

/* One choice of subrequests: can the wants all be allocated on n? */
static bool allocatable_as(const pk_snapshot *s, const dra_res *r, const int *choice, const pk_node *n, bool *error,
                           alloc_out *out)
{
	int nw;
	long total;
	want *w = wants_of(s, r, choice, &nw, &total);
	*error = false;
	if (nw == 0)
		return true;
	alloc_state a = { .set = s->dra, .budget = 1000000, .w = w };
	node_devices(&a, n);
	a.picked = pk_xcalloc((size_t)a.ndevs + 1, sizeof *a.picked);
	a.pick_want = pk_xmalloc(sizeof *a.pick_want * (size_t)(a.ndevs + 1));
	a.pick_dev = pk_xmalloc(sizeof *a.pick_dev * (size_t)(a.ndevs + 1));
	a.cands = pk_xcalloc((size_t)nw, sizeof *a.cands);
	a.ncands = pk_xcalloc((size_t)nw, sizeof *a.ncands);
	bool ok = total <= a.ndevs && gather(&a, n, w, nw);
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
static bool allocatable(const pk_snapshot *s, const dra_res *r, const pk_node *n, bool *error, alloc_out *out)
{
	int *sizes;
	int nalt = alternatives(r, &sizes);
	int *choice = pk_xcalloc((size_t)nalt + 1, sizeof *choice);
	bool ok;
	do
		ok = allocatable_as(s, r, choice, n, error, out);
	while (!ok && !*error && next_choice(choice, sizes, nalt));
	free(choice);
	free(sizes);
	return ok;
}

bool pk_dra_node_fits(const pk_snapshot *s, const pk_pod *pod, const pk_node *n, pk_status *out)
{
	const dra_res *r = resolution(pod);
	if (!r || !r->applies)
		return true;
	bool unavailable = false;
	for (int i = 0; i < r->nclaims; i++)
		unavailable |= r->claims[i]->allocated && !pk_dra_allocation_on_node(r->claims[i], n);
	bool error = false;
	if (!allocatable(s, r, n, &error, NULL)) {
		if (error) /* the allocator's error aborts the cycle upstream */
			pk_status_set(out, PK_CODE_ERROR, PLUGIN, "CEL runtime error");
		else
			pk_status_set(out, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, PLUGIN, PK_R_DRA_CANNOT_ALLOCATE);
		return false;
	}
	if (unavailable) {
		pk_status_set(out, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, PLUGIN, PK_R_DRA_NOT_ON_NODE);
		return false;
	}
	return true;
}

/* ---- the devices a placed pod gets ------------------------------------------------- */

static pk_dra_pick pick_of(const pk_dra_claim *c, const char *request, const char *driver, const char *pool,
                           const char *device, bool before)
{
	return (pk_dra_pick){ c->namespace_, c->name, request, driver, pool, device, before };
}

int pk_dra_devices_on(const pk_snapshot *s, const pk_pod *pod, const pk_node *n, pk_dra_pick **out)
{
	*out = NULL;
	const dra_res *r = resolution(pod);
	if (!r || !r->applies || r->reject.code != PK_CODE_SUCCESS)
		return 0;
	alloc_out o = { 0 };
	bool error;
	if (!allocatable(s, r, n, &error, &o))
		return 0;
	int cap = o.ndevs;
	for (int i = 0; i < r->nclaims; i++)
		cap += r->claims[i]->allocated ? r->claims[i]->ndevices : 0;
	pk_dra_pick *v = pk_xmalloc(sizeof *v * (size_t)(cap + 1));
	int k = 0, q = 0;
	for (int i = 0; i < r->nclaims; i++) {
		const pk_dra_claim *c = r->claims[i];
		if (c->allocated) {
			for (int j = 0; j < c->ndevices; j++)
				v[k++] = pick_of(c, c->devices[j].request, c->devices[j].driver, c->devices[j].pool,
				                 c->devices[j].device, true);
			continue;
		}
		for (int rq = 0; rq < c->nrequests; rq++, q++)
			for (int j = 0; j < o.count[q]; j++) {
				const dev_at *d = &o.devs[o.first[q] + j];
				v[k++] = pick_of(c, o.names[q], d->slice->driver, d->slice->pool, d->dev->name, false);
			}
	}
	alloc_out_free(&o);
	if (!k)
		free(v);
	else
		*out = v;
	return k;
}

/* ---- allocations played forward (pk_dra_play_forward) ----------------------------- */

/* The set's claims (the input's and those made in the run) are the
 * run's to change: the resolution only keeps them const. */
static pk_dra_claim *mutable_claim(pk_snapshot *s, const pk_dra_claim *c)
{
	(void)s;
	return (pk_dra_claim *)c;
}

/* The devices of one claim's requests among what the allocator picked
 * (from want q on), as its status.allocation.devices.results. */
static pk_dra_device_ref *claim_results(pk_snapshot *s, const pk_dra_claim *c, const alloc_out *o, int q, int *n,
                                        bool *local)
{
	int nd = 0;
	for (int k = 0; k < c->nrequests; k++)
		nd += o->count[q + k];
	pk_dra_device_ref *refs = pk_arena_alloc(&s->arena, sizeof *refs * (size_t)(nd + 1));
	*n = 0;
	*local = false;
	for (int k = 0; k < c->nrequests; k++)
		for (int j = 0; j < o->count[q + k]; j++) {
			const dev_at *d = &o->devs[o->first[q + k] + j];
			refs[(*n)++] = (pk_dra_device_ref){ o->names[q + k], d->slice->driver, d->slice->pool, d->dev->name };
			*local |= *d->slice->node_name != '\0';
		}
	return refs;
}

/* The pod is bound to n: its unallocated claims get the devices the
 * allocator picks there (the Filter passed, so it can), every claim is
 * reserved for it (Reserve, PreBind). */
static void dra_bound(pk_snapshot *s, pk_pod *pod, const pk_node *n)
{
	pk_dra_resolve(s, pod);
	const dra_res *r = resolution(pod);
	if (!r || !r->applies || r->reject.code != PK_CODE_SUCCESS)
		return;
	alloc_out o = { 0 };
	bool error;
	if (!allocatable(s, r, n, &error, &o))
		return;
	bool *unallocated = pk_xcalloc((size_t)r->nclaims + 1, sizeof *unallocated);
	for (int i = 0; i < r->nclaims; i++)
		unallocated[i] = !r->claims[i]->allocated;
	int q = 0;
	for (int i = 0; i < r->nclaims; i++) {
		pk_dra_claim *c = mutable_claim(s, r->claims[i]);
		if (unallocated[i] && o.first) {
			int nd;
			bool local;
			pk_dra_device_ref *refs = claim_results(s, c, &o, q, &nd, &local);
			q += c->nrequests;
			if (!c->allocated) /* a claim the pod lists twice is allocated once */
				pk_dra_claim_allocate(s->dra, c, refs, nd, local ? n->name : NULL);
		}
		pk_dra_claim_reserve(c, &s->arena, pod->uid, pod->name);
	}
	free(unallocated);
	alloc_out_free(&o);
}

/* The pod is gone (evicted or deleted): its reservations go, and a claim
 * left unreserved is deallocated (the resourceclaim controller). */
static void dra_gone(pk_snapshot *s, pk_pod *pod)
{
	pk_dra_resolve(s, pod);
	const dra_res *r = resolution(pod);
	for (int i = 0; r && i < r->nclaims; i++)
		pk_dra_claim_unreserve(s->dra, mutable_claim(s, r->claims[i]), pod->uid, pod->name);
}

void pk_dra_play_forward(pk_snapshot *s)
{
	if (!s->dra)
		return;
	s->dra_bound = dra_bound;
	s->dra_gone = dra_gone;
}

/* ---- what preemption cannot free --------------------------------------------------- */

static const pk_pod *pod_named(const pk_snapshot *s, const char *ns, const char *name, const char *uid)
{
	for (long i = 0; i < s->npods; i++) {
		const pk_pod *p = s->pods[i];
		if (p->namespace_ == ns && strcmp(p->name, name) == 0 && (!*uid || !*p->uid || strcmp(p->uid, uid) == 0))
			return p;
	}
	return NULL;
}

/* The claim is reserved only for pods of lower priority than pod's (bound
 * pods the input holds). */
static bool held_by_lower(const pk_snapshot *s, const pk_dra_claim *c, const pk_pod *pod, char *who, size_t size)
{
	size_t w = 0;
	who[0] = '\0';
	if (c->nreserved == 0)
		return false;
	for (int i = 0; i < c->nreserved; i++) {
		const pk_pod *h = pod_named(s, c->namespace_, c->reserved_names[i], c->reserved_uids[i]);
		if (!h || h->priority >= pod->priority)
			return false;
		int k = snprintf(who + w, size - w, "%s%s/%s", i ? ", " : "", h->namespace_, h->name);
		if (k > 0 && (size_t)k < size - w)
			w += (size_t)k;
	}
	return true;
}

/* Does a device match one of the pod's unallocated requests? */
static bool wanted_by(const pk_dra_set *set, const dra_res *r, const pk_dra_slice *sl, const pk_dra_device *dv)
{
	pk_cel_device v = cel_view(sl, dv);
	for (int c = 0; c < r->nclaims; c++)
		for (int q = 0; !r->claims[c]->allocated && q < r->claims[c]->nrequests; q++) {
			const pk_dra_request *rq = &r->claims[c]->requests[q];
			for (int k = 0; k < (rq->nsubs ? rq->nsubs : 1); k++) {
				const pk_dra_request *x = rq->nsubs ? &rq->subs[k] : rq;
				const pk_dra_class *cls = pk_dra_class_get(set, x->class_name);
				if (cls && device_matches(cls, x, &v) == SEL_YES)
					return true;
			}
		}
	return false;
}

/* Who a claim is reserved for: "ns/a, ns/b", or "no pod" */
static void reserved_text(const pk_dra_claim *c, char *who, size_t size)
{
	size_t w = 0;
	who[0] = '\0';
	for (int i = 0; i < c->nreserved; i++) {
		int k = snprintf(who + w, size - w, "%s%s/%s", i ? ", " : "", c->namespace_, c->reserved_names[i]);
		if (k > 0 && (size_t)k < size - w)
			w += (size_t)k;
	}
	if (!c->nreserved)
		snprintf(who, size, "no pod");
}

/* The devices a note names one by one; the rest are counted ("and N more"):
 * on a cluster of thousands of GPUs the note stays a sentence. */
enum { HELD_NAMED = 8 };

/* item to the list in buf, the first HELD_NAMED only; NULL ends the list:
 * " and N more" for those not named */
static void append(char *buf, size_t size, size_t *w, int *n, const char *item)
{
	char more[40];
	if (!item && *n <= HELD_NAMED)
		return;
	if (!item)
		snprintf(more, sizeof more, " and %d more", *n - HELD_NAMED);
	else if ((*n)++ >= HELD_NAMED)
		return;
	int m = snprintf(buf + *w, size - *w, "%s%s", item && *n > 1 ? ", " : "", item ? item : more);
	if (m > 0 && (size_t)m < size - *w)
		*w += (size_t)m;
}

/* The devices the pod's unallocated requests match (on any node) that
 * claims hold, as the set is now: those of lower-priority pods (which
 * preemption does not free in the release), then the others. Said for a
 * pod that stays pending. */
static const char *held_devices_text(const pk_snapshot *s, const pk_pod *pod, const dra_res *r)
{
	char lower[2000], other[2000], who[400], item[900];
	size_t wl = 0, wo = 0;
	int nl = 0, no = 0;
	const pk_dra_set *set = s->dra;
	for (long k = 0; k < set->nslices; k++) {
		const pk_dra_slice *sl = &set->slices[k];
		for (int i = 0; i < sl->ndevices; i++) {
			const pk_dra_claim *h = pk_dra_holder(set, sl->driver, sl->pool, sl->devices[i].name);
			if (!h || !wanted_by(set, r, sl, &sl->devices[i]))
				continue;
			bool low = held_by_lower(s, h, pod, who, sizeof who);
			if (!low)
				reserved_text(h, who, sizeof who);
			snprintf(item, sizeof item, "%s/%s/%s (claim %s/%s, reserved for %s)", sl->driver, sl->pool,
			         sl->devices[i].name, h->namespace_, h->name, who);
			if (low)
				append(lower, sizeof lower, &wl, &nl, item);
			else
				append(other, sizeof other, &wo, &no, item);
		}
	}
	if (!nl && !no)
		return NULL;
	append(lower, sizeof lower, &wl, &nl, NULL);
	append(other, sizeof other, &wo, &no, NULL);
	char note[4800];
	size_t w = 0;
	if (nl)
		w = (size_t)snprintf(note, sizeof note,
		         "devices the pod's claims ask for are held by lower-priority pods: %.2000s; through 1.37 "
		         "DynamicResources has no part in the preemption dry run (no AddPod/RemovePod extensions, its "
		         "rejections UnschedulableAndUnresolvable): evicting the holders does not free their devices for "
		         "this pod, so the scheduler does not preempt them and the pod stays pending until their claims "
		         "are deallocated",
		         lower);
	if (no && w < sizeof note)
		snprintf(note + w, sizeof note - w,
		         "%sdevices the pod's claims ask for are held by claims preemption does not free (reserved for "
		         "pods of its priority or higher, for pods the input does not hold, or for none): %.2000s",
		         nl ? "; " : "", other);
	return pk_intern(s->strs, note);
}

const char *pk_dra_held_devices_note(const pk_pod *pod)
{
	dra_res *r = (dra_res *)resolution(pod);
	if (!r || !r->applies || r->reject.code != PK_CODE_SUCCESS || *pod->node_name)
		return NULL;
	if (r->held_note_gen != r->s->dra->generation) { /* the held devices changed (played forward) */
		r->held_note = held_devices_text(r->s, pod, r);
		r->held_note_gen = r->s->dra->generation;
	}
	return r->held_note;
}
