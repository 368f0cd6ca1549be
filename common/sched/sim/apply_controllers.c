/* The workload controllers' part of applying a manifest: how many pods a
 * Deployment, ReplicaSet, StatefulSet, Job, CronJob or DaemonSet creates or
 * deletes, and which (pkg/controller/{deployment,replicaset,statefulset,
 * job,cronjob,daemon}); see apply.h. */
#include "sched/sim/apply_int.h"

#include "k8s/volume.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"
#include "base/alloc.h"

/* ---- small pieces ---------------------------------------------------------------------- */

static bool count_of(const cJSON *spec, const char *field, long *out)
{
	int64_t v;
	if (!pk_int64(spec, field, &v) || v < 0)
		return false;
	*out = (long)v;
	return true;
}

/* intstr.GetScaledValueFromIntOrPercent: 3, or "25%" of total rounded up or down. */
static long scaled_value(const cJSON *v, const char *fallback, long total, bool round_up)
{
	if (cJSON_IsNumber(v))
		return (long)v->valuedouble;
	const char *s = cJSON_IsString(v) ? v->valuestring : fallback;
	char *end;
	double pct = strtod(s, &end);
	if (*end != '%')
		return (long)pct;
	double x = (double)total * pct / 100.0;
	return (long)(round_up ? ceil(x) : floor(x));
}

/* "<x>-<y>", interned. */
static const char *join_name(pk_apply *a, const char *x, const char *y)
{
	char buf[600];
	snprintf(buf, sizeof buf, "%s-%s", x, y);
	return pk_intern(a->s->strs, buf);
}

/* The prefix of the pods o creates: "<name>-applied" ("-scaled" for --scale). */
static void set_prefix(pk_apply *a, pk_applied *o, const char *name)
{
	o->prefix = join_name(a, name, o->action == PK_APPLY_SCALE ? "scaled" : "applied");
}

static void append_detail(pk_applied *o, const char *text)
{
	size_t n = strlen(o->detail);
	snprintf(o->detail + n, sizeof o->detail - n, "%s%s", n ? "; " : "", text);
}

/* "replicas 8 -> 12", with the pods the snapshot has when they differ
 * from the live count (the controller makes the difference good). */
static void count_detail(pk_applied *o, const char *what, const cJSON *live, const char *field, long n, long want)
{
	long was = n;
	bool has = live && count_of(pk_get(live, "spec"), field, &was);
	if (!has && !n)
		return; /* nothing to compare with */
	if (was == want && n == want)
		return;
	char text[160];
	if (n == was)
		snprintf(text, sizeof text, "%s %ld -> %ld", what, was, want);
	else
		snprintf(text, sizeof text, "%s %ld -> %ld, %ld pod%s in the snapshot", what, was, want, n,
		         n == 1 ? "" : "s");
	append_detail(o, text);
}

/* spec.selector (a map for a ReplicationController, defaulting to the
 * template's labels), which must select the template's labels. */
static bool compile_selector(pk_applied *o, const cJSON *spec, const cJSON *tpl, bool map_form, pk_selector *sel)
{
	const cJSON *s = pk_get(spec, "selector");
	const cJSON *labels = pk_getp(tpl, "metadata.labels");
	char err[256];
	memset(sel, 0, sizeof *sel);
	if (map_form) {
		pk_selector_compile_map(cJSON_IsObject(s) ? s : labels, sel);
	} else if (!cJSON_IsObject(s)) {
		pk_applied_reject(o, "spec.selector: Required value");
		return false;
	} else if (pk_selector_compile(s, sel, err, sizeof err) < 0) {
		pk_applied_reject(o, "spec.selector: %s", err);
		return false;
	}
	if (sel->nreqs == 0 || !pk_selector_matches(sel, labels)) {
		pk_selector_free(sel);
		pk_applied_reject(o, sel->nreqs == 0 ? "spec.selector: Invalid value: empty selector is invalid"
		                                     : "spec.template.metadata.labels: Invalid value: `selector` does "
		                                       "not match template `labels`");
		return false;
	}
	return true;
}

/* Ready as the controllers read it; a bound, Running pod without a Ready
 * condition (a hand-written snapshot) is taken as ready, and said so. */
static bool pod_ready(pk_apply *a, pk_applied *o, const pk_pod *p, long *assumed)
{
	int r = pk_pg_pod_ready(a->g, p);
	if (r >= 0)
		return r == 1;
	if (*p->node_name && strcmp(p->phase, "Running") == 0) {
		(*assumed)++;
		return true;
	}
	(void)o;
	return false;
}

static void warn_assumed_ready(pk_applied *o, long assumed)
{
	if (assumed)
		pk_applied_warn(o, "%ld running pod(s) have no Ready condition: taken as ready (kubectl get gives every "
		                   "running pod one; upstream reads a pod without it as not ready)", assumed);
}

static void delete_first(pk_apply *a, pk_applied *o, pk_pod **pods, long n, long k)
{
	pk_apply_deletion_order(a, o, pods, n, k);
	for (long i = 0; i < k && i < n; i++)
		pk_apply_delete(a, o, pods[i]);
}

/* Would applying obj change the live object's spec? */
static pk_apply_action update_action(const pk_applied *o, const cJSON *obj, const cJSON *live)
{
	if (o->action == PK_APPLY_SCALE)
		return PK_APPLY_SCALE;
	if (!live)
		return o->pods || o->ndeleted ? PK_APPLY_UPDATE : PK_APPLY_UNCHANGED;
	return pk_json_subset(pk_get(obj, "spec"), pk_get(live, "spec")) && !o->pods && !o->ndeleted
	       ? PK_APPLY_UNCHANGED : PK_APPLY_UPDATE;
}

/* ---- Deployment ---------------------------------------------------------------------------- */

/* The first wave of a rollout over the old pods (rolling.go, recreate.go). */
static void rollout(pk_apply *a, pk_applied *o, const cJSON *spec, pk_pod **old, long nold, long want,
                    const pk_pod *t, const char *new_rs)
{
	char text[200];
	if (strcmp(pk_str_or(spec, "strategy.type", "RollingUpdate"), "Recreate") == 0) {
		for (long i = 0; i < nold; i++)
			pk_apply_delete(a, o, old[i]);
		pk_apply_create(a, o, t, want, 1, "ReplicaSet", new_rs);
		append_detail(o, "rollout (Recreate): every old pod goes, then the new ones come");
		return;
	}
	long surge = scaled_value(pk_getp(spec, "strategy.rollingUpdate.maxSurge"), "25%", want, true);
	long unavail = scaled_value(pk_getp(spec, "strategy.rollingUpdate.maxUnavailable"), "25%", want, false);
	if (surge == 0 && unavail == 0)
		unavail = 1;
	if (unavail > want)
		unavail = want;
	long assumed = 0, avail = 0;
	for (long i = 0; i < nold; i++)
		avail += pod_ready(a, o, old[i], &assumed) && *old[i]->node_name;
	warn_assumed_ready(o, assumed);
	/* reconcileNewReplicaSet: up to replicas + maxSurge pods in all */
	long add = nold >= want + surge ? 0 : want + surge - nold < want ? want + surge - nold : want;
	pk_apply_create(a, o, t, add, 1, "ReplicaSet", new_rs);
	/* reconcileOldReplicaSets: unhealthy old pods first, then down to
	 * replicas - maxUnavailable available ones (the new are not yet) */
	long max_down = nold - (want - unavail);
	if (max_down > 0) {
		long unhealthy = nold - avail, c = max_down < unhealthy ? max_down : unhealthy;
		delete_first(a, o, old, nold, c);
		long d = avail - (want - unavail);
		if (d > 0)
			delete_first(a, o, old + c, nold - c, d < nold - c ? d : nold - c);
	}
	snprintf(text, sizeof text, "rollout, first wave of a RollingUpdate: maxSurge %ld, maxUnavailable %ld", surge,
	         unavail);
	append_detail(o, text);
}

/* The name of the ReplicaSet the existing pods belong to. */
static const char *old_replicaset(pk_apply *a, pk_pod **pods, long n, const char *fallback)
{
	const char *kind, *name;
	return n && pk_pg_pod_owner(a->g, pods[0], &kind, &name) ? name : fallback;
}

static void deployment(pk_apply *a, pk_applied *o, const cJSON *obj)
{
	const cJSON *spec = pk_get(obj, "spec"), *tpl = pk_get(spec, "template");
	pk_selector sel;
	if (!compile_selector(o, spec, tpl, false, &sel))
		return;
	const cJSON *live = pk_apply_find_live(a, "Deployment", o->namespace_, o->name);
	const cJSON *live_tpl = pk_getp(live, "spec.template");
	pk_pod **pods;
	long n = pk_apply_owned_pods(a, o->namespace_, "ReplicaSet", o->name, true, &sel, &pods);
	o->existing = n;
	long want = 1;
	if (!count_of(spec, "replicas", &want) && !(live && count_of(pk_get(live, "spec"), "replicas", &want)))
		want = live || !n ? 1 : n;
	bool changed = live_tpl && !pk_json_subset(tpl, live_tpl);
	pk_pod *t = pk_apply_template(a, o, tpl, NULL);
	pk_pod *old_t = changed ? pk_apply_template(a, o, live_tpl, NULL) : t;
	if (!t || !old_t)
		goto out;
	set_prefix(a, o, o->name);
	const char *new_rs = o->prefix, *old_rs = old_replicaset(a, pods, n, new_rs);
	if (!live && !n) {
		pk_apply_create(a, o, t, want, 1, "ReplicaSet", new_rs);
		goto out;
	}
	if (!live)
		pk_applied_warn(o, "the snapshot has no Deployment %s/%s but %ld pod(s) of its ReplicaSets: whether its "
		                   "template changed cannot be told, so no rollout is played (kubectl get deployments "
		                   "belongs in the snapshot)", o->namespace_, o->name, n);
	/* a change of replicas is a scaling event first (sync.go), then the rollout */
	pk_pod **old = pk_xmalloc(sizeof *old * (size_t)(n + (want > n ? want - n : 0) + 1));
	memcpy(old, pods, sizeof *old * (size_t)n);
	long nold = n;
	count_detail(o, "replicas", live, "replicas", n, want);
	if (want > n) {
		const char *keep = o->prefix;
		o->prefix = changed ? join_name(a, old_rs, "scaled") : o->prefix;
		for (long i = 0; i < want - n; i++) {
			char name[600];
			snprintf(name, sizeof name, "%s-%ld", o->prefix, i + 1);
			old[nold] = pk_apply_new_pod(a, o, old_t, name, "ReplicaSet", old_rs);
			pk_sim_enqueue(a->m, old[nold++], o->action == PK_APPLY_SCALE);
		}
		o->prefix = keep;
	} else if (want < n) {
		delete_first(a, o, old, nold, n - want);
		memmove(old, old + (n - want), sizeof *old * (size_t)want);
		nold = want;
	}
	if (changed && pk_bool(spec, "paused"))
		append_detail(o, "template changed, but the Deployment is paused: no rollout until it is resumed");
	else if (changed)
		rollout(a, o, spec, old, nold, want, t, new_rs);
	free(old);
	o->action = update_action(o, obj, live);
out:
	free(pods);
	pk_selector_free(&sel);
}

/* ---- ReplicaSet, ReplicationController ---------------------------------------------------------- */

static void replicaset(pk_apply *a, pk_applied *o, const cJSON *obj)
{
	bool rc = strcmp(o->kind, "ReplicationController") == 0;
	const cJSON *spec = pk_get(obj, "spec"), *tpl = pk_get(spec, "template");
	pk_selector sel;
	if (!compile_selector(o, spec, tpl, rc, &sel))
		return;
	const cJSON *live = pk_apply_find_live(a, o->kind, o->namespace_, o->name);
	pk_pod **pods;
	long n = pk_apply_owned_pods(a, o->namespace_, o->kind, o->name, false, &sel, &pods);
	o->existing = n;
	long want = 1;
	if (!count_of(spec, "replicas", &want) && !(live && count_of(pk_get(live, "spec"), "replicas", &want)))
		want = live || !n ? 1 : n;
	pk_pod *t = pk_apply_template(a, o, tpl, NULL);
	if (t) {
		set_prefix(a, o, o->name);
		if (want > n)
			pk_apply_create(a, o, t, want - n, 1, o->kind, o->name);
		else if (want < n)
			delete_first(a, o, pods, n, n - want);
		count_detail(o, "replicas", live, "replicas", n, want);
		const cJSON *live_tpl = pk_getp(live, "spec.template");
		if (live_tpl && !pk_json_subset(tpl, live_tpl))
			append_detail(o, "template changed: new pods only (a ReplicaSet does not replace running pods)");
		if (live || n)
			o->action = update_action(o, obj, live);
	}
	free(pods);
	pk_selector_free(&sel);
}

/* ---- StatefulSet --------------------------------------------------------------------------------- */

/* The ordinal of "<sts>-<N>", or -1. */
static long ordinal_of(const char *pod, const char *sts)
{
	size_t n = strlen(sts);
	if (strncmp(pod, sts, n) != 0 || pod[n] != '-' || !pod[n + 1])
		return -1;
	char *end;
	long v = strtol(pod + n + 1, &end, 10);
	return *end || v < 0 ? -1 : v;
}

static int by_ordinal_desc(const void *x, const void *y)
{
	const pk_pod *p = *(pk_pod *const *)x, *q = *(pk_pod *const *)y;
	size_t lp = strlen(p->name), lq = strlen(q->name); /* same prefix: longer is larger */
	if (lp != lq)
		return lp > lq ? -1 : 1;
	return -strcmp(p->name, q->name);
}

/* RollingUpdate's first step: the highest ordinal at or above the partition
 * is deleted and created again from the new template. */
static void statefulset_update(pk_apply *a, pk_applied *o, const cJSON *spec, pk_pod **have, long want,
                               const pk_pod *t)
{
	if (strcmp(pk_str_or(spec, "updateStrategy.type", "RollingUpdate"), "OnDelete") == 0) {
		append_detail(o, "template changed: updateStrategy OnDelete, the pods stay until deleted");
		return;
	}
	int64_t partition = 0;
	pk_int64(spec, "updateStrategy.rollingUpdate.partition", &partition);
	for (long k = want - 1; k >= 0 && k >= partition; k--) {
		if (!have[k])
			continue;
		char text[300];
		const char *name = have[k]->name;
		pk_apply_delete(a, o, have[k]);
		pk_sim_enqueue(a->m, pk_apply_new_pod(a, o, t, name, "StatefulSet", o->name), o->action == PK_APPLY_SCALE);
		snprintf(text, sizeof text, "rollout, first step of a RollingUpdate: %s replaced", name);
		append_detail(o, text);
		return;
	}
}

static void statefulset(pk_apply *a, pk_applied *o, const cJSON *obj)
{
	const cJSON *spec = pk_get(obj, "spec"), *tpl = pk_get(spec, "template");
	pk_selector sel;
	if (!compile_selector(o, spec, tpl, false, &sel))
		return;
	const cJSON *live = pk_apply_find_live(a, "StatefulSet", o->namespace_, o->name);
	pk_pod **pods;
	long n = pk_apply_owned_pods(a, o->namespace_, "StatefulSet", o->name, false, &sel, &pods);
	o->existing = n;
	long want = 1;
	if (!count_of(spec, "replicas", &want) && !(live && count_of(pk_get(live, "spec"), "replicas", &want)))
		want = live || !n ? 1 : n;
	int64_t start = 0;
	pk_int64(spec, "ordinals.start", &start);
	bool ordered = strcmp(pk_str_or(spec, "podManagementPolicy", "OrderedReady"), "Parallel") != 0;
	pk_pod *t = pk_apply_template(a, o, tpl, NULL);
	pk_pod **have = pk_xcalloc((size_t)want + 1, sizeof *have), **condemned = pk_xmalloc(sizeof *condemned * (size_t)(n + 1));
	pk_pod **make = pk_xmalloc(sizeof *make * (size_t)(want + 1));
	if (!t)
		goto out;
	char why[400];
	pk_claim_template *claims;
	if (pk_claim_templates_decode(&a->s->dec, pk_get(spec, "volumeClaimTemplates"), &claims, &o->nclaim_templates, why,
	                              sizeof why) < 0) {
		pk_applied_reject(o, "%s", why);
		goto out;
	}
	o->claim_templates = claims;
	o->prefix = o->name;
	long ncond = 0, nmake = 0, assumed = 0;
	for (long i = 0; i < n; i++) {
		long ord = ordinal_of(pods[i]->name, o->name) - start;
		if (ord >= 0 && ord < want && !have[ord])
			have[ord] = pods[i];
		else
			condemned[ncond++] = pods[i];
	}
	/* scale down: the highest ordinals go */
	qsort(condemned, (size_t)ncond, sizeof *condemned, by_ordinal_desc);
	for (long i = 0; i < ncond; i++)
		pk_apply_delete(a, o, condemned[i]);
	/* OrderedReady creates the missing ordinals in order, each once the ones
	 * below it run and are ready */
	long blocked_by = -1;
	for (long k = 0; k < want; k++) {
		if (have[k]) {
			if (ordered && nmake == 0 && blocked_by < 0 && !pod_ready(a, o, have[k], &assumed))
				blocked_by = k;
			continue;
		}
		char name[600];
		snprintf(name, sizeof name, "%s-%ld", o->name, start + k);
		if (blocked_by >= 0) {
			o->pods++;
			o->waiting++;
			continue;
		}
		make[nmake++] = pk_apply_new_pod(a, o, t, name, "StatefulSet", o->name);
	}
	warn_assumed_ready(o, assumed);
	if (blocked_by >= 0 && o->waiting) {
		char text[300];
		snprintf(text, sizeof text, "OrderedReady: %s is not running and ready, so no higher ordinal is created",
		         have[blocked_by]->name);
		append_detail(o, text);
	}
	if (ordered)
		o->chain = pk_sim_enqueue_ordered(a->m, make, (int)nmake, o->action == PK_APPLY_SCALE);
	else
		for (long i = 0; i < nmake; i++)
			pk_sim_enqueue(a->m, make[i], o->action == PK_APPLY_SCALE);
	count_detail(o, "replicas", live, "replicas", n, want);
	const cJSON *live_tpl = pk_getp(live, "spec.template");
	if (live_tpl && !pk_json_subset(tpl, live_tpl)) {
		if (nmake || o->waiting || ncond || blocked_by >= 0)
			append_detail(o, "template changed: the rolling update waits until every pod runs and is ready");
		else
			statefulset_update(a, o, spec, have, want, t);
	}
	if (live || n)
		o->action = update_action(o, obj, live);
out:
	free(make);
	free(have);
	free(condemned);
	free(pods);
	pk_selector_free(&sel);
}

/* ---- Job and CronJob ------------------------------------------------------------------------------ */

/* Pods of a Job that succeeded (the snapshot's terminal pods). */
static long succeeded_pods(pk_apply *a, const char *ns, const char *job)
{
	long n = 0;
	for (long i = 0; i < a->s->npods; i++) {
		const pk_pod *p = a->s->pods[i];
		const char *kind, *name;
		if (strcmp(p->phase, "Succeeded") == 0 && strcmp(p->namespace_, ns) == 0 &&
		    pk_pg_pod_owner(a->g, p, &kind, &name) && strcmp(kind, "Job") == 0 && strcmp(name, job) == 0)
			n++;
	}
	return n;
}

/* manageJob's wantActive. */
static long job_want_active(const cJSON *jspec, long active, long succeeded)
{
	long par = 1, comp = 0;
	bool has_comp = count_of(jspec, "completions", &comp);
	bool has_par = count_of(jspec, "parallelism", &par);
	if (!has_par && !has_comp) { /* SetDefaults_Job: a non-parallel Job */
		comp = 1;
		has_comp = true;
	}
	if (!has_par)
		par = 1;
	if (pk_bool(jspec, "suspend"))
		return 0;
	if (!has_comp)
		return succeeded > 0 ? active : par;
	long want = comp - succeeded;
	return want < 0 ? 0 : want > par ? par : want;
}

#define JOB_INDEX_LABEL "batch.kubernetes.io/job-completion-index"

/* Indexed: the lowest indices that no active pod holds. */
static void create_indexed(pk_apply *a, pk_applied *o, const pk_pod *t, pk_pod **active, long n, long count,
                           const char *job)
{
	for (long idx = 0; count > 0; idx++) {
		bool taken = false;
		for (long i = 0; i < n && !taken; i++) {
			const char *l = pk_labels_value(active[i]->labels, JOB_INDEX_LABEL);
			taken = l && strtol(l, NULL, 10) == idx;
		}
		if (taken)
			continue;
		char name[600];
		snprintf(name, sizeof name, "%s-%ld-%s", job, idx, o->action == PK_APPLY_SCALE ? "scaled" : "applied");
		pk_sim_enqueue(a->m, pk_apply_new_pod(a, o, t, name, "Job", job), o->action == PK_APPLY_SCALE);
		count--;
	}
}

static void job(pk_apply *a, pk_applied *o, const cJSON *obj)
{
	const cJSON *spec = pk_get(obj, "spec"), *tpl = pk_get(spec, "template");
	const cJSON *live = pk_apply_find_live(a, "Job", o->namespace_, o->name);
	const cJSON *live_tpl = pk_getp(live, "spec.template");
	if (live_tpl && !pk_json_subset(tpl, live_tpl)) {
		pk_applied_reject(o, "spec.template: Invalid value: field is immutable (a Job's pod template cannot "
		                     "change; delete the Job and create it again)");
		return;
	}
	pk_pod *t = pk_apply_template(a, o, tpl, NULL);
	if (!t)
		return;
	pk_pod **pods;
	long n = pk_apply_owned_pods(a, o->namespace_, "Job", o->name, false, NULL, &pods);
	o->existing = n;
	long succeeded = succeeded_pods(a, o->namespace_, o->name);
	int64_t st = 0;
	if (pk_int64(live, "status.succeeded", &st) && st > succeeded)
		succeeded = (long)st;
	long want = job_want_active(spec, n, succeeded);
	set_prefix(a, o, o->name);
	if (want > n && strcmp(pk_str_or(spec, "completionMode", "NonIndexed"), "Indexed") == 0)
		create_indexed(a, o, t, pods, n, want - n, o->name);
	else if (want > n)
		pk_apply_create(a, o, t, want - n, 1, "Job", o->name);
	else if (want < n)
		delete_first(a, o, pods, n, n - want);
	if (pk_bool(spec, "suspend"))
		append_detail(o, "suspended: no pods run");
	long par = 1, was = 1;
	count_of(spec, "parallelism", &par);
	bool said = false;
	if (live && count_of(pk_get(live, "spec"), "parallelism", &was) && was != par) {
		char text[120];
		snprintf(text, sizeof text, "parallelism %ld -> %ld", was, par);
		append_detail(o, text);
		said = was == n && par == want;
	}
	if (live || n) {
		if (want != n && !said) {
			char text[120];
			snprintf(text, sizeof text, "active pods %ld -> %ld", n, want);
			append_detail(o, text);
		}
		o->action = update_action(o, obj, live);
	}
	free(pods);
}

static void cronjob(pk_apply *a, pk_applied *o, const cJSON *obj)
{
	const cJSON *spec = pk_get(obj, "spec"), *jspec = pk_getp(spec, "jobTemplate.spec");
	const cJSON *live = pk_apply_find_live(a, "CronJob", o->namespace_, o->name);
	pk_pod *t = pk_apply_template(a, o, pk_get(jspec, "template"), NULL);
	if (!t)
		return;
	pk_pod **pods; /* the pods of its Jobs "<name>-<scheduled time>" that run */
	long n = pk_apply_owned_pods(a, o->namespace_, "Job", o->name, true, NULL, &pods);
	o->existing = n;
	const char *policy = pk_str_or(spec, "concurrencyPolicy", "Allow");
	const char *job_name = join_name(a, o->name, o->action == PK_APPLY_SCALE ? "scaled" : "applied");
	o->prefix = job_name;
	if (pk_bool(spec, "suspend")) {
		append_detail(o, "suspended: no run");
	} else if (n && strcmp(policy, "Forbid") == 0) {
		append_detail(o, "concurrencyPolicy Forbid: a run is active, so the next one is skipped");
	} else {
		if (n && strcmp(policy, "Replace") == 0) {
			for (long i = 0; i < n; i++)
				pk_apply_delete(a, o, pods[i]);
			append_detail(o, "concurrencyPolicy Replace: the active run is deleted");
		}
		append_detail(o, "one run of its job template");
		pk_apply_create(a, o, t, job_want_active(jspec, 0, 0), 1, "Job", job_name);
	}
	if (live)
		o->action = pk_json_subset(spec, pk_get(live, "spec")) ? PK_APPLY_UNCHANGED : PK_APPLY_UPDATE;
	free(pods);
}

/* ---- DaemonSet --------------------------------------------------------------------------------------- */

/* The tolerations the DaemonSet controller adds to its pods
 * (AddOrUpdateDaemonPodTolerations), where the template lacks them. */
static void add_daemon_tolerations(cJSON *spec)
{
	static const struct { const char *key, *effect; } added[] = {
		{ "node.kubernetes.io/not-ready", "NoExecute" },   { "node.kubernetes.io/unreachable", "NoExecute" },
		{ "node.kubernetes.io/disk-pressure", "NoSchedule" }, { "node.kubernetes.io/memory-pressure", "NoSchedule" },
		{ "node.kubernetes.io/pid-pressure", "NoSchedule" }, { "node.kubernetes.io/unschedulable", "NoSchedule" },
		{ "node.kubernetes.io/network-unavailable", "NoSchedule" },
	};
	cJSON *tols = cJSON_GetObjectItemCaseSensitive(spec, "tolerations");
	if (!cJSON_IsArray(tols)) {
		cJSON_DeleteItemFromObject(spec, "tolerations");
		tols = cJSON_AddArrayToObject(spec, "tolerations");
	}
	size_t n = sizeof added / sizeof added[0] - (pk_bool(spec, "hostNetwork") ? 0 : 1);
	for (size_t i = 0; i < n; i++) {
		const cJSON *t;
		bool have = false;
		cJSON_ArrayForEach(t, tols)
			have |= strcmp(pk_str_or(t, "key", ""), added[i].key) == 0 &&
			        strcmp(pk_str_or(t, "effect", ""), added[i].effect) == 0;
		if (have)
			continue;
		cJSON *t2 = cJSON_CreateObject();
		cJSON_AddStringToObject(t2, "key", added[i].key);
		cJSON_AddStringToObject(t2, "operator", "Exists");
		cJSON_AddStringToObject(t2, "effect", added[i].effect);
		cJSON_AddItemToArray(tols, t2);
	}
}

/* ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity
 * becomes the one term matchFields metadata.name In [node]. */
static cJSON *pinned_spec(const cJSON *spec, const char *node)
{
	cJSON *c = cJSON_Duplicate(spec, 1);
	cJSON *aff = cJSON_GetObjectItemCaseSensitive(c, "affinity");
	if (!cJSON_IsObject(aff)) {
		cJSON_DeleteItemFromObject(c, "affinity");
		aff = cJSON_AddObjectToObject(c, "affinity");
	}
	cJSON *na = cJSON_GetObjectItemCaseSensitive(aff, "nodeAffinity");
	if (!cJSON_IsObject(na)) {
		cJSON_DeleteItemFromObject(aff, "nodeAffinity");
		na = cJSON_AddObjectToObject(aff, "nodeAffinity");
	}
	cJSON_DeleteItemFromObject(na, "requiredDuringSchedulingIgnoredDuringExecution");
	cJSON *req = cJSON_AddObjectToObject(na, "requiredDuringSchedulingIgnoredDuringExecution");
	cJSON *term = cJSON_CreateObject();
	cJSON *expr = cJSON_CreateObject();
	cJSON_AddStringToObject(expr, "key", "metadata.name");
	cJSON_AddStringToObject(expr, "operator", "In");
	const char *values[] = { node };
	cJSON_AddItemToObject(expr, "values", cJSON_CreateStringArray(values, 1));
	cJSON_AddItemToArray(cJSON_AddArrayToObject(term, "matchFields"), expr);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(req, "nodeSelectorTerms"), term);
	return c;
}

/* A pod of o pinned to node, queued. */
static void daemon_pod(pk_apply *a, pk_applied *o, const cJSON *tpl, const cJSON *spec, const pk_node *node)
{
	cJSON *pinned = pinned_spec(spec, node->name);
	pk_pod *t = pk_apply_template(a, o, tpl, pinned);
	cJSON_Delete(pinned);
	if (!t)
		return;
	char name[600];
	snprintf(name, sizeof name, "%s-%s", o->name, node->name);
	pk_sim_enqueue(a->m, pk_apply_new_pod(a, o, t, name, "DaemonSet", o->name), false);
}

static pk_pod *pod_on(pk_pod **pods, long n, const char *node)
{
	for (long i = 0; i < n; i++)
		if (strcmp(pods[i]->node_name, node) == 0)
			return pods[i];
	return NULL;
}

static void daemonset(pk_apply *a, pk_applied *o, const cJSON *obj)
{
	const cJSON *spec = pk_get(obj, "spec"), *tpl = pk_get(spec, "template");
	pk_selector sel;
	if (!compile_selector(o, spec, tpl, false, &sel))
		return;
	const cJSON *live = pk_apply_find_live(a, "DaemonSet", o->namespace_, o->name);
	const cJSON *live_tpl = pk_getp(live, "spec.template");
	bool changed = live_tpl && !pk_json_subset(tpl, live_tpl);
	cJSON *dspec = cJSON_Duplicate(pk_get(tpl, "spec"), 1);
	if (cJSON_IsObject(dspec))
		add_daemon_tolerations(dspec);
	pk_pod **pods;
	long n = pk_apply_owned_pods(a, o->namespace_, "DaemonSet", o->name, false, &sel, &pods);
	o->existing = n;
	pk_pod *probe = pk_apply_template(a, o, tpl, dspec); /* nodeShouldRunDaemonPod asks it */
	const pk_node **update = pk_xmalloc(sizeof *update * (size_t)(a->s->nnodes + 1));
	long nupdate = 0, desired = 0;
	for (long i = 0; probe && i < a->s->nnodes; i++) {
		const pk_node *node = a->s->infos[i].node;
		bool run = (!*probe->node_name || strcmp(probe->node_name, node->name) == 0) &&
		           pk_node_affinity_matches(probe, node) && pk_taints_tolerated(probe, node);
		pk_pod *have = pod_on(pods, n, node->name);
		desired += run;
		if (have && !pk_node_affinity_matches(probe, node))
			pk_apply_delete(a, o, have);
		else if (run && !have)
			daemon_pod(a, o, tpl, dspec, node);
		else if (run && changed)
			update[nupdate++] = node;
	}
	if (nupdate && strcmp(pk_str_or(spec, "updateStrategy.type", "RollingUpdate"), "OnDelete") == 0) {
		append_detail(o, "template changed: updateStrategy OnDelete, the pods stay until deleted");
	} else if (nupdate) {
		/* rolling update, first wave, nodes in name order */
		long surge = scaled_value(pk_getp(spec, "updateStrategy.rollingUpdate.maxSurge"), "0", desired, true);
		long unavail = scaled_value(pk_getp(spec, "updateStrategy.rollingUpdate.maxUnavailable"), "1", desired, true);
		long k = surge > 0 ? surge : unavail < 1 ? 1 : unavail;
		for (long i = 0; i < nupdate && i < k; i++) {
			if (surge == 0)
				pk_apply_delete(a, o, pod_on(pods, n, update[i]->name));
			daemon_pod(a, o, tpl, dspec, update[i]);
		}
		char text[200];
		snprintf(text, sizeof text, "rollout, first wave of a RollingUpdate: %ld of %ld node(s)%s",
		         k < nupdate ? k : nupdate, nupdate, surge ? " (maxSurge: the old pods run meanwhile)" : "");
		append_detail(o, text);
	}
	if (live || n)
		o->action = update_action(o, obj, live);
	free(update);
	free(pods);
	cJSON_Delete(dspec);
	pk_selector_free(&sel);
}

bool pk_apply_workload(pk_apply *a, pk_applied *o, const cJSON *obj)
{
	static const struct { const char *kind; void (*fn)(pk_apply *, pk_applied *, const cJSON *); } controllers[] = {
		{ "Deployment", deployment }, { "ReplicaSet", replicaset }, { "ReplicationController", replicaset },
		{ "StatefulSet", statefulset }, { "Job", job }, { "CronJob", cronjob }, { "DaemonSet", daemonset },
	};
	for (size_t i = 0; i < sizeof controllers / sizeof controllers[0]; i++)
		if (strcmp(o->kind, controllers[i].kind) == 0) {
			controllers[i].fn(a, o, obj);
			return true;
		}
	return false;
}
