/* What preemption cannot free (dra.h, pk_dra_held_devices_note): the
 * devices a pending pod's requests match that other claims hold, and who
 * holds them. Through 1.37 DynamicResources has no part in the preemption
 * dry run, so evicting the holders would not make them free; under
 * --dra-preemption=kep-5690 (dra_preempt.c) the note says why the
 * proposal's release of victims' claims did not make room either. */
#include "sched/engine/filter/dra_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/dra.h"
#include "sched/engine/reasons.h"

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
	pk_cel_device v = pk_dra_cel_view(sl, dv);
	for (int c = 0; c < r->nclaims; c++)
		for (int q = 0; !r->claims[c]->allocated && q < r->claims[c]->nrequests; q++) {
			const pk_dra_request *rq = &r->claims[c]->requests[q];
			for (int k = 0; k < (rq->nsubs ? rq->nsubs : 1); k++) {
				const pk_dra_request *x = rq->nsubs ? &rq->subs[k] : rq;
				const pk_dra_class *cls = pk_dra_class_get(set, x->class_name);
				if (cls && pk_dra_device_matches(cls, x, &v) == SEL_YES)
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
	if (nl && s->dra_kep5690) /* the proposal's dry run released what it could: not enough */
		w = (size_t)snprintf(note, sizeof note,
		         "devices the pod's claims ask for are held by lower-priority pods: %.2000s; with "
		         "--dra-preemption=kep-5690 (KEP-5690, not merged) the preemption dry run frees a claim's devices "
		         "only when every pod it is reserved for is a victim on the node its devices are published for "
		         "(spec.nodeName), and on no node did evicting lower-priority pods free enough of them",
		         lower);
	else if (nl)
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
	dra_res *r = (dra_res *)pk_dra_resolution(pod);
	if (!r || !r->applies || r->reject.code != PK_CODE_SUCCESS || *pod->node_name)
		return NULL;
	if (r->held_note_gen != r->s->dra->generation) { /* the held devices changed (played forward) */
		r->held_note = held_devices_text(r->s, pod, r);
		r->held_note_gen = r->s->dra->generation;
	}
	return r->held_note;
}
