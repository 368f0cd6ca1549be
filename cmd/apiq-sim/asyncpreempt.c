/* Preemption actuation, sync and async; see asyncpreempt.h. Goroutines run
 * when asked (runAsync), victims in list order, so replays are
 * deterministic; upstream runs the first N-1 victims in parallel. */
#include "asyncpreempt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define ERR_PATCH "patch pod status failed"
#define ERR_DELETE "delete pod failed"

static bool same(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

static void push_str(const char ***arr, size_t *n, size_t *cap, const char *s)
{
	*arr = pk_grow(*arr, cap, *n + 1, sizeof **arr);
	(*arr)[(*n)++] = s;
}

static void remove_str(const char **arr, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (same(arr[i], s)) {
			memmove(&arr[i], &arr[i + 1], (*n - i - 1) * sizeof(*arr));
			(*n)--;
			return;
		}
}

void apiq_eval_init(apiq_evaluator *ev, bool async, const apiq_preempt_env *env)
{
	memset(ev, 0, sizeof(*ev));
	ev->async = async;
	ev->env = *env;
}

static void free_req(apiq_preempt_req *r)
{
	free(r->victims);
	free(r->nominated);
	free(r->members);
}

void apiq_eval_free(apiq_evaluator *ev)
{
	for (size_t i = 0; i < ev->njobs; i++)
		free_req(&ev->jobs[i]);
	free(ev->jobs);
	free(ev->lister);
	free(ev->preempting);
	free(ev->last);
	free(ev->activated);
	free(ev->deleted);
}

static apiq_lister_pod *lister_find_uid(apiq_evaluator *ev, const char *uid)
{
	for (size_t i = 0; i < ev->nlister; i++)
		if (same(ev->lister[i].uid, uid))
			return &ev->lister[i];
	return NULL;
}

static const apiq_lister_pod *lister_get(const apiq_evaluator *ev, const char *ns, const char *name)
{
	for (size_t i = 0; i < ev->nlister; i++)
		if (same(ev->lister[i].ns, ns) && same(ev->lister[i].name, name))
			return &ev->lister[i];
	return NULL;
}

static void lister_add(apiq_evaluator *ev, const apiq_victim *v)
{
	apiq_lister_pod *p = lister_find_uid(ev, v->pod.uid);
	if (!p) {
		ev->lister = pk_grow(ev->lister, &ev->caplister, ev->nlister + 1, sizeof *ev->lister);
		p = &ev->lister[ev->nlister++];
	}
	p->uid = v->pod.uid;
	p->ns = v->pod.ns;
	p->name = v->pod.name;
	p->deleting = v->deleting;
}

void apiq_eval_pod_deleted(apiq_evaluator *ev, const char *uid)
{
	apiq_lister_pod *p = lister_find_uid(ev, uid);
	if (!p)
		return;
	*p = ev->lister[--ev->nlister];
}

void apiq_eval_pod_terminating(apiq_evaluator *ev, const char *uid)
{
	apiq_lister_pod *p = lister_find_uid(ev, uid);
	if (p)
		p->deleting = true;
}

static void observe_victims(apiq_evaluator *ev, size_t n)
{
	int b = 0;
	for (long le = 1; b < 7 && (long)n > le; le *= 2)
		b++;
	ev->m.victims_buckets[b]++;   /* cumulative form is built at export */
	ev->m.victims_sum += (double)n;
	ev->m.victims_count++;
}

bool apiq_preemptor_is_group(const char *kind)
{
	return strcmp(kind, "PodGroup") == 0 || strcmp(kind, "CompositePodGroup") == 0;
}

void apiq_disruption_message(char *buf, size_t size, const char *scheduler, bool pod_group)
{
	snprintf(buf, size, "%s: preempting to accommodate a higher priority %s",
	         scheduler && *scheduler ? scheduler : "default-scheduler", pod_group ? "podgroup" : "pod");
}

/* PreemptPod for one victim: DisruptionTarget patch, then delete. The
 * condition's message names the preemptor's type: "pod" or "podgroup". */
static const char *preempt_pod(apiq_evaluator *ev, const apiq_preempt_req *r, const apiq_victim *v)
{
	const char *patch = v->patch ? v->patch : "ok";
	const char *del = v->del ? v->del : "ok";
	if (!same(patch, "none")) {
		char condition[320];
		apiq_disruption_message(condition, sizeof(condition), r->scheduler, r->pod_group);
		ev->env.request(ev->env.ctx, "PATCH", &v->pod, "status", condition);
		if (same(patch, "fail"))
			return ERR_PATCH;
		if (same(patch, "notFound"))
			return NULL;  /* already gone: success, no delete */
	}
	ev->env.request(ev->env.ctx, "DELETE", &v->pod, NULL, NULL);
	if (same(del, "fail"))
		return ERR_DELETE;
	if (same(del, "ok"))
		push_str(&ev->deleted, &ev->ndeleted, &ev->capdeleted, v->pod.uid);
	return NULL;
}

/* Lower-priority pods nominated to the node lose their nomination. */
static void clear_lower_nominations(apiq_evaluator *ev, const apiq_preempt_req *r)
{
	for (size_t i = 0; i < r->nnominated; i++) {
		const apiq_pod_ref *p = &r->nominated[i];
		if (p->has_priority && r->preemptor.has_priority && p->priority >= r->preemptor.priority)
			continue;
		if (same(p->uid, r->preemptor.uid))
			continue;
		if (ev->env.async_api_calls)
			ev->env.clear_nomination(ev->env.ctx, p);
		else if (p->nnn && *p->nnn)
			ev->env.request(ev->env.ctx, "PATCH", p, "status", NULL);
	}
}

static void preempt_sync(apiq_evaluator *ev, apiq_preempt_req *req, const char **nominated,
                         char *err, size_t errsize)
{
	observe_victims(ev, req->nvictims);
	const char *first_err = NULL;
	for (size_t i = 0; i < req->nvictims; i++) {
		const char *e = preempt_pod(ev, req, &req->victims[i]);
		if (e && !first_err)
			first_err = e;
	}
	if (first_err) {
		snprintf(err, errsize, "%s", first_err);
		*nominated = NULL;
	} else {
		clear_lower_nominations(ev, req);
		*nominated = req->node;
	}
	free_req(req);
}

static bool in_preempting(const apiq_evaluator *ev, const char *uid)
{
	for (size_t i = 0; i < ev->npreempting; i++)
		if (same(ev->preempting[i], uid))
			return true;
	return false;
}

void apiq_eval_preempt(apiq_evaluator *ev, apiq_preempt_req *req, const char **nominated,
                       char *err, size_t errsize)
{
	err[0] = '\0';
	ev->m.attempts++;
	for (size_t i = 0; i < req->nvictims; i++)
		if (req->victims[i].in_lister)
			lister_add(ev, &req->victims[i]);
	if (!ev->async) {
		preempt_sync(ev, req, nominated, err, errsize);
		return;
	}

	*nominated = req->node;
	/* Victims already terminating need no API call (#134927). */
	size_t keep = 0;
	for (size_t i = 0; i < req->nvictims; i++)
		if (!req->victims[i].deleting)
			req->victims[keep++] = req->victims[i];
	size_t all = req->nvictims;
	req->nvictims = keep;
	if (keep == 0) {
		free_req(req);
		return;
	}
	observe_victims(ev, all);
	/* a set: a second preemption by the same pod does not add it twice */
	if (!in_preempting(ev, req->preemptor.uid))
		push_str(&ev->preempting, &ev->npreempting, &ev->cappreempting, req->preemptor.uid);
	ev->jobs = pk_grow(ev->jobs, &ev->capjobs, ev->njobs + 1, sizeof *ev->jobs);
	ev->jobs[ev->njobs++] = *req;
}

static void set_last_victim(apiq_evaluator *ev, const char *preemptor, const apiq_victim *v)
{
	ev->last = pk_grow(ev->last, &ev->caplast, ev->nlast + 1, sizeof *ev->last);
	ev->last[ev->nlast++] = (apiq_last_victim){preemptor, v->pod.ns, v->pod.name};
}

static void remove_last_victim(apiq_evaluator *ev, const char *preemptor)
{
	for (size_t i = 0; i < ev->nlast; i++)
		if (same(ev->last[i].preemptor, preemptor)) {
			ev->last[i] = ev->last[--ev->nlast];
			return;
		}
}

/* Phase one: nominations, the first N-1 victims, then register the last. */
static void goroutine_start(apiq_evaluator *ev, apiq_preempt_req *r)
{
	clear_lower_nominations(ev, r);
	/* the first N-1 victims; a failure skips the last one (#135495) */
	for (size_t i = 0; i + 1 < r->nvictims; i++) {
		const char *e = preempt_pod(ev, r, &r->victims[i]);
		if (e && !r->first_err)
			r->first_err = e;
	}
	if (!r->first_err && r->nvictims > 0)
		set_last_victim(ev, r->preemptor.uid, &r->victims[r->nvictims - 1]);
	r->at_last_victim = true;
}

/* Phase two: the last victim, cleanup, activation on failure. */
static void goroutine_finish(apiq_evaluator *ev, apiq_preempt_req *r, apiq_goroutine_result *out)
{
	if (!r->first_err && r->nvictims > 0)
		r->first_err = preempt_pod(ev, r, &r->victims[r->nvictims - 1]);
	remove_str(ev->preempting, &ev->npreempting, r->preemptor.uid);
	remove_last_victim(ev, r->preemptor.uid);
	out->preemptor = r->preemptor.uid;
	out->error = r->first_err != NULL;
	snprintf(out->message, sizeof(out->message), "%s", r->first_err ? r->first_err : "");
	if (r->first_err) {
		/* so the preemptor cannot stay stuck in the unschedulable pool:
		 * Activate(preemptor.Pods()), a pod group's every member */
		if (r->pod_group)
			for (size_t i = 0; i < r->nmembers; i++)
				push_str(&ev->activated, &ev->nactivated, &ev->capactivated, r->members[i].uid);
		else
			push_str(&ev->activated, &ev->nactivated, &ev->capactivated, r->preemptor.uid);
		ev->m.goroutines_error++;
	} else {
		ev->m.goroutines_success++;
	}
}

void apiq_eval_run_async(apiq_evaluator *ev, bool until_last, apiq_goroutine_result **res, size_t *nres)
{
	*res = NULL;
	*nres = 0;
	if (ev->njobs == 0)
		return;
	*res = pk_xcalloc(ev->njobs, sizeof(**res));
	size_t keep = 0;
	for (size_t i = 0; i < ev->njobs; i++) {
		apiq_preempt_req *r = &ev->jobs[i];
		if (!r->at_last_victim)
			goroutine_start(ev, r);
		if (until_last) {
			ev->jobs[keep++] = *r;
			continue;
		}
		goroutine_finish(ev, r, &(*res)[(*nres)++]);
		free_req(r);
	}
	ev->njobs = keep;
}

bool apiq_eval_is_running(const apiq_evaluator *ev, const char *uid)
{
	if (!in_preempting(ev, uid))
		return false;
	for (size_t i = 0; i < ev->nlast; i++) {
		if (!same(ev->last[i].preemptor, uid))
			continue;
		const apiq_lister_pod *p = lister_get(ev, ev->last[i].ns, ev->last[i].name);
		/* gone, or its deletion started: the delete event may requeue it */
		return p && !p->deleting;
	}
	return true;
}

const char *apiq_eval_pre_enqueue(const apiq_evaluator *ev, const char *uid, const char *group_uid)
{
	if (!ev->async)
		return NULL;
	if (group_uid) /* IsPodGroupRunningPreemption, by the PodGroup's UID */
		return apiq_eval_is_running(ev, group_uid)
		               ? "UnschedulableAndUnresolvable: waiting for the preemption for this pod group to be finished"
		               : NULL;
	if (apiq_eval_is_running(ev, uid))
		return "UnschedulableAndUnresolvable: waiting for the preemption for this pod to be finished";
	return NULL;
}
