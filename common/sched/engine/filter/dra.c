/* DynamicResources' PreFilter and Filter over the input's DRA objects
 * (dra.h), as pkg/scheduler/framework/plugins/dynamicresources and
 * staging/src/k8s.io/dynamic-resource-allocation/structured do it. */
#include "sched/engine/filter/dra_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/dra.h"
#include "sched/engine/cluster/podgroup.h"
#include "sched/engine/reasons.h"

#define PLUGIN "DynamicResources"

const dra_res *pk_dra_resolution(const pk_pod *pod)
{
	const pk_pod_dra *pd = pod->con->dra;
	const dra_res *r = pd ? pd->resolved : NULL;
	while (r && r->pod && r->pod != pod)
		r = r->next;
	return r;
}

const char *pk_dra_assumption(const pk_pod *pod, int i)
{
	const dra_res *r = pk_dra_resolution(pod);
	if (!r || i < 0)
		return NULL;
	if (i < r->nassumes)
		return r->assumes[i];
	return i == r->nassumes ? r->proposal : NULL;
}

bool pk_dra_allocates(const pk_pod *pod)
{
	const dra_res *r = pk_dra_resolution(pod);
	for (int i = 0; r && r->applies && r->reject.code == PK_CODE_SUCCESS && i < r->nclaims; i++)
		if (!r->claims[i]->allocated)
			return true;
	return false;
}

bool pk_dra_applies(const pk_pod *pod)
{
	const dra_res *r = pk_dra_resolution(pod);
	return r && r->applies;
}

bool pk_dra_prefilter_rejects(const pk_pod *pod, pk_status *out)
{
	const dra_res *r = pk_dra_resolution(pod);
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
	pk_dra_set_gates(s->dra, s->dra_off);
	pk_dra_apply_taint_rules(s->dra, &s->arena); /* the tracker's view (dra_slices.c) */
	s->dra->pods_resolved = true;
}

/* ---- the PreFilter ------------------------------------------------------------- */

static void reject(pk_snapshot *s, dra_res *r, pk_code code, const char *msg)
{
	pk_status_set(&r->reject, code, PLUGIN, pk_intern(s->strs, msg));
	r->reject.prefilter = true;
}

/* Add text to the resolution's assumptions, each a warning of its own. The
 * list lives in the snapshot's arena: it grows by copying, as a pod has few. */
static void assume(pk_snapshot *s, dra_res *r, const char *text)
{
	const char **list = pk_arena_alloc(&s->arena, sizeof *list * (size_t)(r->nassumes + 1));
	for (int i = 0; i < r->nassumes; i++)
		list[i] = r->assumes[i];
	list[r->nassumes] = pk_intern(s->strs, text);
	r->assumes = list;
	r->nassumes++;
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
	assume(s, r, text);
	return c;
}

/* A pod the simulation made (an applied object's, a recreated victim):
 * its template claims are its own, made afresh, whatever the status it
 * was copied with names. */
static bool made_in_run(const pk_snapshot *s, const pk_pod *pod)
{
	return s->dra_bound && (pod->index < 0 || pod->index >= s->npods);
}

/* The claim a run makes for a PodGroup's claim from a template, once for
 * the whole group (the resourceclaim controller makes one per PodGroup,
 * owned by it): later members find the one an earlier member made. */
static const pk_dra_claim *group_claim_made(pk_snapshot *s, const pk_pod *pod, const pk_podgroup *pg,
                                            const pk_pg_claim *gc, const pk_pod_dra_claim *pc,
                                            dra_res *r)
{
	const pk_dra_template *t = pk_dra_template_get(s->dra, pod->namespace_, gc->template_name);
	if (!t)
		return NULL;
	char name[600], text[3000];
	snprintf(name, sizeof name, "%s-%s", pg->name, gc->name);
	const char *iname = pk_intern(s->strs, name);
	pk_dra_claim *c = pk_dra_made_claim_get(s->dra, pod->namespace_, iname);
	if (!c) {
		c = pk_dra_claim_make(s->dra, &s->arena, t, iname, pg->name, pg->uid ? pg->uid : "");
		c->owner_kind = "PodGroup";
	}
	snprintf(text, sizeof text,
	         "spec.resourceClaims \"%s\": PodGroup %s/%s's claim \"%s\" is not created yet: made from "
	         "ResourceClaimTemplate %s/%s once for the group, owned by the PodGroup and shared by its members "
	         "(%s/%s here; upstream's controller names it after the PodGroup with a random suffix); until it "
	         "is made, upstream's PreFilter answers \"ResourceClaim not created yet\" and the pod waits",
	         pc->name, pg->namespace_, pg->name, gc->name, t->namespace_, t->name, pod->namespace_, name);
	assume(s, r, text);
	return c;
}

/* A claim reserved for a PodGroup (DRAWorkloadResourceClaims) is read as
 * reserved for a pod of that name: said, with what upstream does. */
static void group_reservations_said(pk_snapshot *s, dra_res *r)
{
	for (int i = 0; i < r->nclaims; i++) {
		const pk_dra_claim *c = r->claims[i];
		if (!c->reserved_group)
			continue;
		char text[1500];
		snprintf(text, sizeof text,
		         "ResourceClaim %s/%s is reserved for PodGroup %s (status.reservedFor), which is not modelled: "
		         "the entry is read as a pod of that name, so the claim stays allocated while it is there; "
		         "upstream keeps it for the group's members as long as the PodGroup has it reserved",
		         c->namespace_, c->name, c->reserved_group);
		assume(s, r, text);
	}
}

/* A claim named for pod: found and not being deleted (the scheduler's
 * assume cache), or NULL with the rejection set. */
static const pk_dra_claim *claim_usable(pk_snapshot *s, const pk_pod *pod, const char *name, dra_res *r)
{
	char msg[700];
	const pk_dra_claim *c = pk_dra_claim_get(s->dra, pod->namespace_, name);
	if (!c) /* NotFoundError */
		snprintf(msg, sizeof msg, PK_R_DRA_CLAIM_NOT_FOUND, pod->namespace_, name);
	else if (c->deleting)
		snprintf(msg, sizeof msg, PK_R_DRA_CLAIM_DELETING, c->name);
	else
		return c;
	reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, msg);
	return NULL;
}

/* resourceclaim.Name and IsForPod for a podGroupResourceClaim: with
 * DRAWorkloadResourceClaims off (the scheduler has no PodGroup to look in)
 * none of the fields it knows is set; on, the claim of that name in the
 * pod's PodGroup's spec.resourceClaims, by name, or made from a template
 * for the group. false: rejected. */
static bool group_claim(pk_snapshot *s, const pk_pod *pod, const pk_pod_dra_claim *pc, dra_res *r)
{
	char msg[900];
	const pk_podgroup *pg = NULL;
	if (!(s->dra->off & PK_DRA_OFF_WORKLOAD_CLAIMS) && *pod->con->pod_group && s->pod_groups)
		pg = pk_pg_find(s->pod_groups, pod->namespace_, pod->con->pod_group);
	if (s->dra->off & PK_DRA_OFF_WORKLOAD_CLAIMS) {
		snprintf(msg, sizeof msg,
		         "spec.resourceClaims \"%s\" names podGroupResourceClaim \"%s\", which the scheduler reads only "
		         "with DRAWorkloadResourceClaims on (alpha in 1.36, beta in 1.37, default off): off, as here, "
		         "none of the fields it knows is set and the pod is unschedulable; "
		         "`--feature-gates DRAWorkloadResourceClaims=true` resolves it through the PodGroup's "
		         "spec.resourceClaims",
		         pc->name, pc->group_claim);
		assume(s, r, msg);
	}
	if (!pg) { /* resourceclaim.ErrAPIUnsupported (no PodGroup: the gate off, or none found) */
		snprintf(msg, sizeof msg, PK_R_DRA_API_UNSUPPORTED, pod->namespace_, pod->name, pc->name);
		reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, msg);
		return false;
	}
	const pk_pg_claim *gc = NULL;
	for (int i = 0; i < pg->nclaims && !gc; i++)
		if (strcmp(pg->claims[i].name, pc->group_claim) == 0)
			gc = &pg->claims[i];
	if (!gc)
		snprintf(msg, sizeof msg, PK_R_DRA_GROUP_NO_CLAIM, pg->namespace_, pg->name, pc->group_claim, pod->name);
	else if (*gc->claim) {
		const pk_dra_claim *c = claim_usable(s, pod, gc->claim, r);
		if (c)
			r->claims[r->nclaims++] = c;
		return c != NULL;
	} else if (!*gc->template_name)
		snprintf(msg, sizeof msg, PK_R_DRA_GROUP_UNSUPPORTED, pg->namespace_, pg->name, gc->name);
	else if (pc->skip)
		return true; /* a status entry without a claim name: none is needed */
	else if (!*pc->claim) {
		const pk_dra_claim *made = group_claim_made(s, pod, pg, gc, pc, r);
		if (made) {
			r->claims[r->nclaims++] = made;
			return true;
		}
		snprintf(msg, sizeof msg, PK_R_DRA_GROUP_NOT_CREATED, pg->namespace_, pg->name);
	} else {
		const pk_dra_claim *c = claim_usable(s, pod, pc->claim, r);
		if (!c)
			return false;
		/* IsForPod: the pod's own claim, or its PodGroup's */
		bool group_owns = strcmp(c->owner_kind, "PodGroup") == 0 && strcmp(c->owner_name, pg->name) == 0 &&
		                  !(*c->owner_uid && pg->uid && *pg->uid && strcmp(c->owner_uid, pg->uid) != 0);
		if (group_owns || pk_dra_claim_owned_by(c, pod->uid, pod->name)) {
			r->claims[r->nclaims++] = c;
			return true;
		}
		snprintf(msg, sizeof msg, PK_R_DRA_NOT_FOR_GROUP, c->namespace_, c->name, pod->namespace_, pod->name,
		         pg->namespace_, pg->name);
	}
	reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, msg);
	return false;
}

/* foreachPodResourceClaim: each claim named, found, not being deleted. */
static bool claims_found(pk_snapshot *s, const pk_pod *pod, dra_res *r)
{
	const pk_pod_dra *pd = pod->con->dra;
	char msg[700];
	bool fresh = made_in_run(s, pod);
	for (int i = 0; i < pd->nclaims; i++) {
		const pk_pod_dra_claim *pc = &pd->claims[i];
		if (*pc->group_claim) {
			if (!group_claim(s, pod, pc, r))
				return false;
			continue;
		}
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

bool pk_dra_reserved_for(const pk_dra_claim *c, const pk_pod *pod)
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
		if (c->allocated && c->nreserved >= 256 && !pk_dra_reserved_for(c, pod)) {
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, PK_R_DRA_IN_USE);
			return;
		}
		if (c->allocated)
			continue;
		for (int q = 0; q < c->nrequests; q++) {
			if (!request_classes_exist(s, r, &c->requests[q]))
				return;
			if (c->requests[q].admin_access && (s->dra->off & PK_DRA_OFF_ADMIN_ACCESS)) {
				/* every node's Allocate fails on it before looking at devices */
				snprintf(msg, sizeof msg, PK_R_DRA_ADMIN_ACCESS_OFF, c->namespace_, c->name,
				         c->requests[q].name);
				reject(s, r, PK_CODE_ERROR, msg);
				return;
			}
		}
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

/* What the pod's unallocated claims use that is not modelled: a claim's
 * own. */
static const char *unsupported_of(const dra_res *r, const pk_dra_claim **claim)
{
	for (int i = 0; i < r->nclaims; i++) {
		*claim = r->claims[i];
		if (r->claims[i]->unsupported && !r->claims[i]->allocated)
			return r->claims[i]->unsupported;
	}
	*claim = NULL;
	return NULL;
}

/* preFilterExtendedResources found the pod's claim of an earlier cycle
 * (a bound pod's: the claim it runs with, which leaves with it). A pending
 * pod's has requests: filterExtendedResources fails every node with it. */
static void ext_claim_found(pk_snapshot *s, const pk_pod *pod, dra_res *r, const pk_dra_claim *c)
{
	r->ext = c;
	r->claims[r->nclaims++] = c;
	if (*pod->node_name || c->nrequests == 0)
		return;
	char text[1200];
	snprintf(text, sizeof text,
	         "extended resources backed by DRA (DRAExtendedResource): the pod's extended-resource claim %s/%s "
	         "(owned by the pod, named as upstream's scheduler names it; upstream finds it by its annotation "
	         "resource.kubernetes.io/extended-resource-claim, which the input's objects are read without) is "
	         "left from an earlier scheduling cycle: upstream's Filter fails every node with it (\"cannot "
	         "schedule extended resource claim\"), its PostFilter deletes the claim and the next attempt makes "
	         "a new one",
	         c->namespace_, c->name);
	assume(s, r, text);
	r->ext_stale = true;
}

/* preFilterExtendedResources: the pod's claim for its extended resources
 * backed by DRA, last among its claims. Said. */
static void ext_claim(pk_snapshot *s, const pk_pod *pod, dra_res *r)
{
	char asks[1400] = "", text[3000];
	pk_dra_ext_claim(s, pod, r, asks, sizeof asks);
	snprintf(text, sizeof text,
	         "extended resources backed by DRA (DRAExtendedResource): %s: on a node whose allocatable does not "
	         "list the resource, DynamicResources allocates that many devices of the class (NodeResourcesFit "
	         "leaves it), one request per container as upstream makes them (an init container first reuses "
	         "the devices of the containers at its index or later); upstream writes the claim at binding as "
	         "%s-extended-resources-<5 random characters>, here it is %s/%s-extended-resources",
	         asks, pod->name, pod->namespace_, pod->name);
	assume(s, r, text);
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
	if (!pk_dra_input_has_objects(s)) /* none, or DeviceTaintRules alone */
		return;
	pk_pod_dra *pd = (pk_pod_dra *)pod->con->dra;
	/* its extended resources backed by DRA: a resolution of its own (a
	 * claim made for it unless it is bound: a bound pod's is the input's) */
	bool mapped = pk_dra_ext_wanted(s, pod);
	const pk_dra_claim *found = mapped ? pk_dra_ext_find(s, pod) : NULL;
	bool ext = mapped && (!*pod->node_name || found);
	if ((!pd || pd->nclaims == 0) && !ext)
		return;
	if (!pd) { /* no spec.resourceClaims: the claim for its extended resources only */
		pd = pk_arena_alloc(&s->arena, sizeof *pd);
		memset(pd, 0, sizeof *pd);
		if (pod->con == &pk_pod_no_constraints) { /* shared (a bound pod's): one of its own */
			pk_pod_constraints *own = pk_arena_alloc(&s->arena, sizeof *own);
			*own = pk_pod_no_constraints;
			own->borrowed = true; /* nothing of its own to free */
			((pk_pod *)pod)->con = own;
		}
		((pk_pod_constraints *)pod->con)->dra = pd;
	}
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
	r->claims = pk_arena_alloc(&s->arena, sizeof *r->claims * (size_t)(pd->nclaims + 2));
	r->pod = per_pod(pd) || mapped ? pod : NULL;
	r->next = pd->resolved;
	pd->resolved = r;
	r->s = s;
	if (claims_found(s, pod, r)) {
		if (found)
			ext_claim_found(s, pod, r, found);
		else if (ext)
			ext_claim(s, pod, r);
		claims_usable(s, pod, r);
	}
	const pk_dra_claim *c;
	const char *what = r->reject.code == PK_CODE_SUCCESS ? unsupported_of(r, &c) : NULL;
	if (what) { /* not modelled: the pod keeps its warning, which names it; the plugin does not run */
		char text[1200];
		if (c)
			snprintf(text, sizeof text, "ResourceClaim %s/%s uses %s, which is not modelled: its claims are "
			         "ignored when filtering", c->namespace_, c->name, what);
		else
			snprintf(text, sizeof text, "the input's ResourceSlices hold %s, which is not modelled: the pod's "
			         "claims are ignored when filtering", what);
		assume(s, r, text);
		return;
	}
	r->applies = true;
	group_reservations_said(s, r);
	char text[1200];
	if (pk_dra_capacity_ignored(s, r, text, sizeof text)) /* dra_capacity.c */
		assume(s, r, text);
	char note[2500];
	if (pk_dra_noexecute_note(s, r->claims, r->nclaims, note, sizeof note)) /* dra_slices.c */
		assume(s, r, note);
	pk_dra_kep5690_assume(s, r); /* --dra-preemption=kep-5690: said in every answer */
	((pk_pod *)pod)->unmodelled &= (uint8_t)~PK_UNMODELLED_RESOURCE_CLAIMS;
}

bool pk_dra_node_fits(const pk_snapshot *s, const pk_pod *pod, const pk_node *n, pk_status *out)
{
	const dra_res *r = pk_dra_resolution(pod);
	if (!r || !r->applies)
		return true;
	if (r->ext_stale) { /* filterExtendedResources */
		pk_status_set(out, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, PLUGIN, PK_R_DRA_EXT_STALE);
		return false;
	}
	bool unavailable = false;
	for (int i = 0; i < r->nclaims; i++)
		unavailable |= r->claims[i]->allocated && !pk_dra_allocation_on_node(r->claims[i], n);
	bool error = false;
	dra_view v;
	char why[700] = "";
	bool ok = pk_dra_allocatable(s, pk_dra_on_node(r, n, &v), n, &error, why, sizeof why, NULL);
	pk_dra_view_free(&v);
	if (!ok) {
		if (error) /* the allocator's error aborts the cycle upstream (statusError: its text) */
			pk_status_set(out, PK_CODE_ERROR, PLUGIN, pk_intern(s->strs, why));
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
	return (pk_dra_pick){ c->namespace_, c->name, request, driver, pool, device, before, false, NULL, NULL, 0, false };
}

/* What the allocator picks on n for the pod's claims as asked there (the
 * extended-resource claim through view): the resolution asked, with the
 * picks in *o and the view to free after both (pk_dra_view_free); NULL,
 * nothing to free, when the pod's claims do not apply or do not allocate. */
static const dra_res *allocation_on(const pk_snapshot *s, const pk_pod *pod, const pk_node *n, dra_view *view,
                                    alloc_out *o)
{
	const dra_res *full = pk_dra_resolution(pod);
	if (!full || !full->applies || full->reject.code != PK_CODE_SUCCESS)
		return NULL;
	bool error;
	const dra_res *r = pk_dra_on_node(full, n, view);
	if (!pk_dra_allocatable(s, r, n, &error, NULL, 0, o)) {
		pk_dra_view_free(view);
		return NULL;
	}
	return r;
}

/* A device of a claim already allocated: its result as the claim records it. */
static pk_dra_pick allocated_pick(const pk_dra_claim *c, const pk_dra_device_ref *x)
{
	pk_dra_pick p = pick_of(c, x->request, x->driver, x->pool, x->device, true);
	p.share_id = x->share_id;
	p.consumed = x->consumed;
	p.nconsumed = x->nconsumed;
	p.has_consumed = x->consumed != NULL;
	return p;
}

/* How many consumedCapacity entries the allocator's shares in o take. */
static int shares_capacity(const alloc_out *o)
{
	int n = 0;
	for (int i = 0; i < o->ndevs; i++)
		n += o->shared[i] ? o->devs[i].dev->ncapacity : 0;
	return n;
}

/* A pick of the allocator that is a share of its device: its shareID as
 * the bind will record it (pk_dra_share_result: the claim's index-th
 * result) and what it consumes, into amounts. */
static void share_pick(const pk_snapshot *s, pk_dra_pick *p, const pk_dra_device *dv, const pk_dra_request *rq,
                       int index, pk_dra_capacity_amount *amounts)
{
	p->share_id = pk_dra_share_id(s, p->claim_name, index);
	pk_dra_capacity_consumed_into(dv, rq, amounts);
	p->consumed = dv->ncapacity ? amounts : NULL;
	p->nconsumed = dv->ncapacity;
	p->has_consumed = true;
}

int pk_dra_devices_on(const pk_snapshot *s, const pk_pod *pod, const pk_node *n, pk_dra_pick **out)
{
	*out = NULL;
	alloc_out o = { 0 };
	dra_view view;
	const dra_res *r = allocation_on(s, pod, n, &view, &o);
	if (!r)
		return 0;
	int cap = o.ndevs;
	for (int i = 0; i < r->nclaims; i++)
		cap += r->claims[i]->allocated ? r->claims[i]->ndevices : 0;
	/* one block: the picks, then the consumedCapacity of the shares picked */
	size_t head = sizeof(pk_dra_pick) * (size_t)(cap + 1);
	pk_dra_pick *v = pk_xmalloc(head + sizeof(pk_dra_capacity_amount) * (size_t)shares_capacity(&o));
	pk_dra_capacity_amount *amounts = (pk_dra_capacity_amount *)((char *)v + head);
	int k = 0, q = 0;
	for (int i = 0; i < r->nclaims; i++) {
		const pk_dra_claim *c = r->claims[i];
		if (c->allocated) {
			for (int j = 0; j < c->ndevices; j++)
				v[k++] = allocated_pick(c, &c->devices[j]);
			continue;
		}
		int index = 0; /* the claim's result */
		for (int rq = 0; rq < c->nrequests; rq++, q++)
			for (int j = 0; j < o.count[q]; j++, index++) {
				const dev_at *d = &o.devs[o.first[q] + j];
				v[k] = pick_of(c, o.names[q], d->slice->driver, d->slice->pool, d->dev->name, false);
				if (o.shared[o.first[q] + j]) {
					share_pick(s, &v[k], d->dev, o.rqs[q], index, amounts);
					amounts += d->dev->ncapacity;
				}
				k++;
			}
	}
	pk_dra_alloc_out_free(&o);
	pk_dra_view_free(&view);
	if (!k)
		free(v);
	else
		*out = v;
	return k;
}

pk_dra_pick *pk_dra_picks_copy(pk_arena *arena, const pk_dra_pick *v, int n)
{
	if (!n)
		return NULL;
	pk_dra_pick *c = pk_arena_alloc(arena, sizeof *c * (size_t)n);
	memcpy(c, v, sizeof *c * (size_t)n);
	for (int i = 0; i < n; i++)
		if (c[i].nconsumed) { /* a share's amounts live in v's block */
			pk_dra_capacity_amount *a = pk_arena_alloc(arena, sizeof *a * (size_t)c[i].nconsumed);
			memcpy(a, c[i].consumed, sizeof *a * (size_t)c[i].nconsumed);
			c[i].consumed = a;
		}
	return c;
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
			pk_dra_device_ref *x = &refs[(*n)++];
			*x = (pk_dra_device_ref){ o->names[q + k], d->slice->driver, d->slice->pool, d->dev->name,
				                  o->admin[q + k], NULL, NULL, 0 };
			if (o->shared[o->first[q + k] + j]) /* DRAConsumableCapacity: a share (dra_capacity.c) */
				pk_dra_share_result(s, c, x, d->dev, o->rqs[q + k], *n - 1);
			*local |= *d->slice->node_name != '\0';
		}
	return refs;
}

int pk_dra_allocate_on(pk_snapshot *s, const pk_pod *pod, const pk_node *n, pk_dra_claim ***claims, bool **fresh)
{
	*claims = NULL;
	*fresh = NULL;
	alloc_out o = { 0 };
	dra_view view;
	const dra_res *r = allocation_on(s, pod, n, &view, &o);
	if (!r)
		return -1;
	const dra_res *full = pk_dra_resolution(pod);
	pk_dra_claim **cs = pk_xmalloc(sizeof *cs * (size_t)(r->nclaims + 1));
	bool *made = pk_xcalloc((size_t)r->nclaims + 1, sizeof *made);
	/* as asked before any is allocated: a claim the pod lists twice has
	 * wants for each listing, allocated once */
	bool *unallocated = pk_xcalloc((size_t)r->nclaims + 1, sizeof *unallocated);
	for (int i = 0; i < r->nclaims; i++)
		unallocated[i] = !r->claims[i]->allocated;
	int q = 0;
	for (int i = 0; i < r->nclaims; i++) {
		/* the extended-resource claim as asked on n (view), allocated as the pod's */
		pk_dra_claim *c = mutable_claim(s, pk_dra_view_claim(full, &view, r->claims[i]));
		cs[i] = c;
		pk_dra_claim_undelete(s->dra, c); /* a victim bound again, terminating: before it is held */
		if (unallocated[i] && o.first) {
			int nd;
			bool local;
			pk_dra_device_ref *refs = claim_results(s, r->claims[i], &o, q, &nd, &local);
			q += r->claims[i]->nrequests;
			if (!c->allocated) {
				pk_dra_claim_allocate(s->dra, c, refs, nd, local ? n->name : NULL);
				made[i] = true;
			}
		}
	}
	free(unallocated);
	pk_dra_alloc_out_free(&o);
	pk_dra_view_free(&view);
	*claims = cs;
	*fresh = made;
	return r->nclaims;
}

/* The pod is bound to n: its unallocated claims get the devices the
 * allocator picks there (the Filter passed, so it can), every claim is
 * reserved for it (Reserve, PreBind). */
static void dra_bound(pk_snapshot *s, pk_pod *pod, const pk_node *n)
{
	pk_dra_resolve(s, pod);
	pk_dra_claim **claims;
	bool *fresh;
	int nc = pk_dra_allocate_on(s, pod, n, &claims, &fresh);
	for (int i = 0; i < nc; i++)
		pk_dra_claim_reserve(claims[i], &s->arena, pod->uid, pod->name);
	free(claims);
	free(fresh);
}

/* The pod is gone (evicted, deleted, completed): its reservations go, and
 * a claim left unreserved is deallocated (the resourceclaim controller);
 * a claim it owns (made from a template, or its extended-resource claim)
 * is deleted (the garbage collector; the resourceclaim controller for a
 * pod done: controller.go syncClaim, owningPod), its devices free even
 * when it was allocated and never reserved. */
static void dra_gone(pk_snapshot *s, pk_pod *pod)
{
	pk_dra_resolve(s, pod);
	const dra_res *r = pk_dra_resolution(pod);
	for (int i = 0; r && i < r->nclaims; i++) {
		pk_dra_claim *c = mutable_claim(s, r->claims[i]);
		pk_dra_claim_unreserve(s->dra, c, pod->uid, pod->name);
		if (pk_dra_claim_owned_by(c, pod->uid, pod->name) && c->nreserved == 0)
			pk_dra_claim_delete(s->dra, c);
	}
}

void pk_dra_play_forward(pk_snapshot *s)
{
	if (!s->dra)
		return;
	s->dra_bound = dra_bound;
	s->dra_gone = dra_gone;
}

