/* What became of each applied object: accounting over the simulation's
 * steps, the AppliedObject record and its one-line message; see apply.h. */
#include "sched/sim/apply_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

void pk_applied_add_reason(pk_apply *a, pk_applied *o, const char *why)
{
	const char *w = pk_intern(a->s->strs, why);
	for (int i = 0; i < o->nreasons; i++)
		if (o->reasons[i].what == w) {
			o->reasons[i].count++;
			return;
		}
	o->reasons = pk_grow(o->reasons, &o->reasoncap, (size_t)o->nreasons + 1, sizeof *o->reasons);
	o->reasons[o->nreasons++] = (pk_apply_count){ w, 1 };
}

static void add_victim(pk_applied *o, const char *ns, const char *name)
{
	o->victims = pk_grow(o->victims, &o->victimcap, (size_t)o->nvictims + 1, sizeof *o->victims);
	o->victims[o->nvictims++] = (pk_apply_ref){ ns, name };
}

/* Why a pod stays off the nodes, each reason once: the filter reasons of the
 * nodes preemption could have helped on, or of every node when there are
 * none (a DaemonSet pod's other nodes, say, would only add noise). */
static void pod_reasons(pk_apply *a, pk_applied *o, const pk_sim_step *st)
{
	if (st->gate_message) {
		pk_applied_add_reason(a, o, st->gate_message);
		return;
	}
	const pk_evaluation *e = st->pod_eval;
	const char *mine[32];
	int n = 0;
	for (int pass = 0; pass < 2 && n == 0; pass++)
		for (long i = 0; i < e->nnodes; i++) {
			const pk_status *s = e->nodes[i].filter;
			if (pass == 0 && s->code != PK_CODE_UNSCHEDULABLE)
				continue;
			for (int k = 0; k < s->nreasons; k++) {
				const char *w = pk_intern(a->s->strs, s->reasons[k]);
				int j = 0;
				while (j < n && mine[j] != w)
					j++;
				if (j == n && n < (int)(sizeof mine / sizeof mine[0]))
					mine[n++] = w;
			}
		}
	for (int j = 0; j < n; j++)
		pk_applied_add_reason(a, o, mine[j]);
	if (!n)
		pk_applied_add_reason(a, o, *e->message ? e->message : "no node fits");
}

static void observe_pod(pk_apply *a, const pk_sim_step *st)
{
	pk_applied *o = (pk_applied *)pk_apply_owner(a, st->unit->pods[0]);
	if (!o)
		return;
	if (st->outcome == PK_SIM_SCHEDULED) {
		o->placed++;
	} else if (st->outcome == PK_SIM_NOMINATED) {
		o->nominated++;
		const pk_evaluation *e = st->pod_eval;
		const pk_candidate *c = &e->candidates[e->best];
		for (int i = 0; i < c->nvictims; i++)
			add_victim(o, pk_intern(a->s->strs, c->victims[i].namespace_), pk_intern(a->s->strs, c->victims[i].name));
	} else {
		o->unschedulable++;
		pod_reasons(a, o, st);
	}
}

static void observe_group(pk_apply *a, const pk_sim_step *st)
{
	const pk_pg_evaluation *e = st->group_eval;
	pk_applied *first = NULL;
	for (int k = 0; k < e->nmembers; k++) {
		pk_applied *o = (pk_applied *)pk_apply_owner(a, e->placements[k].pod);
		if (!o)
			continue;
		bool placed = e->placements[k].node != NULL;
		if (placed && e->result == PK_PG_NO_PREEMPTION_NEEDED) {
			o->placed++;
		} else if (placed && e->result == PK_PG_PREEMPT) {
			o->nominated++;
		} else {
			o->unschedulable++;
			pk_applied_add_reason(a, o, e->reason && *e->reason ? e->reason : "not placed with its gang");
		}
		if (!first)
			first = o;
	}
	/* the group preempts as one: its victims are the first applied member's object's */
	for (int i = 0; first && e->result == PK_PG_PREEMPT && i < e->nvictims; i++)
		add_victim(first, e->victims[i]->namespace_, e->victims[i]->name);
}

void pk_apply_observe(pk_apply *a, const pk_sim_step *st)
{
	if (!a || !a->n)
		return;
	if (st->group_eval)
		observe_group(a, st);
	else
		observe_pod(a, st);
}

void pk_apply_finish(pk_apply *a)
{
	for (long i = 0; i < a->n; i++) {
		pk_applied *o = &a->objs[i];
		if (o->chain)
			o->waiting += o->chain->n - o->chain->next;
	}
}

/* ---- the record ---------------------------------------------------------------------------- */

static int count_desc(const void *x, const void *y)
{
	const pk_apply_count *p = x, *q = y;
	if (p->count != q->count)
		return p->count > q->count ? -1 : 1;
	return strcmp(p->what, q->what);
}

/* The reasons, most pods first (malloc'd). */
static pk_apply_count *sorted_reasons(const pk_applied *o)
{
	pk_apply_count *r = pk_xmalloc(sizeof *r * (size_t)(o->nreasons + 1));
	if (o->nreasons)
		memcpy(r, o->reasons, sizeof *r * (size_t)o->nreasons);
	qsort(r, (size_t)o->nreasons, sizeof *r, count_desc);
	return r;
}

static size_t put(char *buf, size_t size, size_t w, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static size_t put(char *buf, size_t size, size_t w, const char *fmt, ...)
{
	if (w >= size)
		return w;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + w, size - w, fmt, ap);
	va_end(ap);
	return n < 0 ? w : w + (size_t)n;
}

/* "a/b, c/d, e/f, …" */
static size_t put_refs(char *buf, size_t size, size_t w, const pk_apply_ref *r, long n)
{
	for (long i = 0; i < n && i < 3; i++)
		w = put(buf, size, w, "%s%s/%s", i ? ", " : "", r[i].namespace_, r[i].name);
	return n > 3 ? put(buf, size, w, ", …") : w;
}

static const char *plural(long n)
{
	return n == 1 ? "" : "s";
}

void pk_applied_message(const pk_applied *o, char *buf, size_t size)
{
	size_t w = put(buf, size, 0, "%s %s%s%s", o->kind, o->namespace_, *o->namespace_ ? "/" : "", o->name);
	if (o->action == PK_APPLY_REJECTED) {
		put(buf, size, w, ": rejected: %s", o->error ? o->error : "");
		return;
	}
	static const char *const verbs[] = { "", "updated", "scaled", "unchanged", "" };
	const char *verb = verbs[o->action];
	if (o->action == PK_APPLY_CREATE && !o->prefix)
		verb = "created"; /* a PriorityClass, a PodGroup: no pods of its own */
	bool said = false;
	if (*verb || *o->detail) {
		w = put(buf, size, w, ": %s%s%s%s", verb, *o->detail ? (*verb ? " (" : "") : "", o->detail,
		        *o->detail && *verb ? ")" : "");
		said = true;
	}
	if (o->pods) {
		w = put(buf, size, w, "%s %ld pod%s —", said ? ";" : ":", o->pods, plural(o->pods));
		const char *sep = " ";
		if (o->placed)
			w = put(buf, size, w, "%s%ld placed", sep, o->placed), sep = ", ";
		if (o->nominated) {
			w = put(buf, size, w, "%s%ld placed by preempting %ld pod%s", sep, o->nominated, o->nvictims,
			        plural(o->nvictims));
			if (o->nvictims) {
				w = put(buf, size, w, " (");
				w = put_refs(buf, size, w, o->victims, o->nvictims);
				w = put(buf, size, w, ")");
			}
			sep = ", ";
		}
		if (o->unschedulable) {
			w = put(buf, size, w, "%s%ld unschedulable", sep, o->unschedulable);
			pk_apply_count *r = sorted_reasons(o);
			for (int i = 0; i < o->nreasons; i++)
				w = put(buf, size, w, "%s%s", i ? ", " : ": ", r[i].what);
			free(r);
			sep = ", ";
		}
		if (o->waiting)
			w = put(buf, size, w, "%s%ld not created yet (OrderedReady)", sep, o->waiting);
		said = true;
	}
	if (o->ndeleted) {
		w = put(buf, size, w, "%s %ld pod%s deleted (", said ? ";" : ":", o->ndeleted, plural(o->ndeleted));
		w = put_refs(buf, size, w, o->deleted_pods, o->ndeleted);
		w = put(buf, size, w, ")");
		said = true;
	}
	if (!said)
		put(buf, size, w, ": no pods to create or delete");
}

static cJSON *refs_json(const pk_apply_ref *r, long n)
{
	cJSON *arr = cJSON_CreateArray();
	for (long i = 0; i < n; i++) {
		cJSON *v = cJSON_CreateObject();
		cJSON_AddStringToObject(v, "namespace", r[i].namespace_);
		cJSON_AddStringToObject(v, "name", r[i].name);
		cJSON_AddItemToArray(arr, v);
	}
	return arr;
}

cJSON *pk_applied_json(const pk_applied *o)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "kind", "AppliedObject");
	cJSON *ref = cJSON_AddObjectToObject(j, "object");
	cJSON_AddStringToObject(ref, "apiVersion", o->api_version);
	cJSON_AddStringToObject(ref, "kind", o->kind);
	if (*o->namespace_)
		cJSON_AddStringToObject(ref, "namespace", o->namespace_);
	cJSON_AddStringToObject(ref, "name", o->name);
	cJSON_AddStringToObject(j, "origin", o->origin);
	cJSON_AddStringToObject(j, "action", pk_apply_action_name(o->action));
	if (*o->detail)
		cJSON_AddStringToObject(j, "detail", o->detail);
	if (o->error)
		cJSON_AddStringToObject(j, "error", o->error);
	cJSON_AddNumberToObject(j, "existing", (double)o->existing);
	cJSON_AddNumberToObject(j, "pods", (double)o->pods);
	cJSON_AddNumberToObject(j, "placed", (double)o->placed);
	cJSON_AddNumberToObject(j, "nominated", (double)o->nominated);
	cJSON_AddNumberToObject(j, "victims", (double)o->nvictims);
	cJSON_AddNumberToObject(j, "unschedulable", (double)o->unschedulable);
	cJSON_AddNumberToObject(j, "waiting", (double)o->waiting);
	pk_apply_count *r = sorted_reasons(o);
	cJSON *reasons = cJSON_AddArrayToObject(j, "reasons");
	for (int i = 0; i < o->nreasons; i++) {
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "reason", r[i].what);
		cJSON_AddNumberToObject(x, "count", (double)r[i].count);
		cJSON_AddItemToArray(reasons, x);
	}
	free(r);
	cJSON_AddItemToObject(j, "victimPods", refs_json(o->victims, o->nvictims));
	cJSON_AddNumberToObject(j, "deleted", (double)o->ndeleted);
	cJSON_AddItemToObject(j, "deletedPods", refs_json(o->deleted_pods, o->ndeleted));
	cJSON_AddItemToObject(j, "warnings", cJSON_Duplicate(o->warnings, 1));
	char msg[2048];
	pk_applied_message(o, msg, sizeof msg);
	cJSON_AddStringToObject(j, "message", msg);
	return j;
}

cJSON *pk_apply_totals_json(const pk_apply *a)
{
	long objs = 0, rejected = 0, pods = 0, placed = 0, nominated = 0, unsched = 0, waiting = 0, victims = 0,
	     deleted = 0;
	for (long i = 0; i < a->n; i++) {
		const pk_applied *o = &a->objs[i];
		if (o->skip)
			continue;
		objs++;
		rejected += o->action == PK_APPLY_REJECTED;
		pods += o->pods;
		placed += o->placed;
		nominated += o->nominated;
		unsched += o->unschedulable;
		waiting += o->waiting;
		victims += o->nvictims;
		deleted += o->ndeleted;
	}
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "objects", (double)objs);
	cJSON_AddNumberToObject(j, "rejected", (double)rejected);
	cJSON_AddNumberToObject(j, "pods", (double)pods);
	cJSON_AddNumberToObject(j, "placed", (double)placed);
	cJSON_AddNumberToObject(j, "nominated", (double)nominated);
	cJSON_AddNumberToObject(j, "unschedulable", (double)unsched);
	cJSON_AddNumberToObject(j, "waiting", (double)waiting);
	cJSON_AddNumberToObject(j, "victims", (double)victims);
	cJSON_AddNumberToObject(j, "deleted", (double)deleted);
	return j;
}

long pk_apply_rejected(const pk_apply *a)
{
	long n = 0;
	for (long i = 0; i < a->n; i++)
		n += !a->objs[i].skip && a->objs[i].action == PK_APPLY_REJECTED;
	return n;
}

long pk_apply_unplaced(const pk_apply *a)
{
	long n = 0;
	for (long i = 0; i < a->n; i++)
		n += a->objs[i].unschedulable + a->objs[i].waiting;
	return n;
}
