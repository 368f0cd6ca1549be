/* victims: reading the cluster snapshot and the preemptors. */
#include "victims.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"
#include "k8s/quantity.h"
#include "base/alloc.h"
#include "sched/engine/filter/volumes.h"
#include "k8s/dra.h"
#include "sched/engine/filter/dra.h"
#include "sched/engine/filter/dra_nodealloc.h"
#include "sched/sim/apply.h"
#include "sched/sim/simulate.h"

static void push_preemptor(victims_run *r, const pk_preemptor *p, long line)
{
	size_t cap = (size_t)r->cap;
	r->preemptors = pk_grow(r->preemptors, &cap, (size_t)r->npreemptors + 1, sizeof *r->preemptors);
	if (cap != (size_t)r->cap) /* parallel */
		r->lines = pk_xrealloc(r->lines, cap, sizeof *r->lines);
	r->cap = (long)cap;
	r->lines[r->npreemptors] = line;
	r->preemptors[r->npreemptors++] = *p;
}

/* A warning into a record's list (made on first use) and, with a key, on
 * standard error once per cause, the repeats counted. */
static void vwarn(victims_run *r, cJSON **list, const char *key, const pk_origin *at, const char *fmt, va_list ap)
{
	char msg[1600];
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (!*list)
		*list = cJSON_CreateArray();
	cJSON_AddItemToArray(*list, cJSON_CreateString(msg));
	if (key)
		pk_diag_warn_once(&r->cli->diag, key, at, "%s", msg);
}

/* An assumption the answer for preemptor i rests on: in its record, and on
 * standard error (key NULL: said there already, for the whole input). A
 * --preemptor's warning names the pod (a controller's, its count): its own
 * cause. Pending pods' repeat: one cause, counted. */
static void preemptor_warn(victims_run *r, long i, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void preemptor_warn(victims_run *r, long i, const char *key, const char *fmt, ...)
{
	pk_preemptor *p = &r->preemptors[i];
	pk_origin at = { .file = p->file, .line = r->lines[i], .item = -1 };
	char own_key[700];
	if (key && p->pod->index < 0) {
		snprintf(own_key, sizeof own_key, "%s:%s/%s", key, p->pod->namespace_, p->pod->name);
		key = own_key;
	}
	va_list ap;
	va_start(ap, fmt);
	vwarn(r, &p->warnings, key, p->file ? &at : NULL, fmt, ap);
	va_end(ap);
}

/* An assumption about the whole input: said once, and in every Preemptor
 * record. */
static void input_warn(victims_run *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void input_warn(victims_run *r, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(r, &r->input_warnings, key, NULL, fmt, ap);
	va_end(ap);
}

/* ---- cluster input ---------------------------------------------------------- */

static int add_cluster_object(victims_run *r, pk_record *rec);

static void on_cluster_list(void *ctx, const char *item_kind)
{
	victims_run *r = ctx;
	pk_snapshot_list_begun(&r->snap, item_kind);
}

static int on_cluster_record(void *ctx, pk_record *rec)
{
	victims_run *r = ctx;
	if (!pk_cli_accept_record(r->cli, &r->stats, rec, &r->trouble))
		return 0;
	return add_cluster_object(r, rec);
}

/* An object of the cluster: into the snapshot, or PodGroups and Workloads
 * into the groups. */
static int add_cluster_object(victims_run *r, pk_record *rec)
{
	char err[512];
	bool take = false;
	const char *kind = pk_kind(rec->obj);
	if (strcmp(kind, "PodGroup") == 0 || strcmp(kind, "CompositePodGroup") == 0 || strcmp(kind, "Workload") == 0) { /* PostFilter's gating and, from 1.37, victim units */
		bool rejected;
		if (pk_pg_set_add(&r->groups, &r->snap, rec->obj, &rejected, err, sizeof err)) {
			if (rejected) {
				pk_stats_reject(&r->stats, kind);
				pk_diag_report(&r->cli->diag, PK_SEV_WARNING, &rec->origin, "%s %s/%s rejected: %s", kind,
				               pk_namespace(rec->obj), pk_name(rec->obj), err);
			} else {
				r->stats.used++;
			}
			return 0;
		}
	}
	switch (pk_snapshot_add(&r->snap, rec->obj, r->stats.read - 1, &take, err, sizeof err)) {
	case PK_ADD_USED:
		r->stats.used++;
		if (take)
			rec->obj = NULL; /* the snapshot keeps this pending pod's object */
		break;
	case PK_ADD_SKIPPED:
		pk_stats_skip(&r->stats, kind);
		break;
	case PK_ADD_REJECTED:
		pk_stats_reject(&r->stats, kind);
		pk_diag_report(&r->cli->diag, PK_SEV_WARNING, &rec->origin, "%s %s/%s rejected: %s", kind,
		               pk_namespace(rec->obj), pk_name(rec->obj), err);
		break;
	}
	return 0;
}

/* ---- preemptor files ------------------------------------------------------- */

typedef struct preemptor_ctx {
	victims_run *r;
	const char *file;
	pk_stats *unused;         /* objects no pod comes from, by kind, over every file */
} preemptor_ctx;

/* The pod template of a workload (a kind whose controller makes pods, as
 * --apply and the snapshot's groups know them), or NULL. */
static const cJSON *pod_template(const cJSON *obj, const char *kind)
{
	if (!pk_pg_is_controller_kind(kind))
		return NULL;
	return pk_getp(obj, strcmp(kind, "CronJob") == 0 ? "spec.jobTemplate.spec.template" : "spec.template");
}

/* A Pod object built from a workload's template: the workload's name and
 * namespace, the template's labels and spec. */
static cJSON *pod_from_template(const cJSON *workload, const cJSON *tmpl)
{
	cJSON *pod = cJSON_CreateObject();
	cJSON_AddStringToObject(pod, "apiVersion", "v1");
	cJSON_AddStringToObject(pod, "kind", "Pod");
	cJSON *meta = cJSON_AddObjectToObject(pod, "metadata");
	cJSON_AddStringToObject(meta, "name", pk_name(workload));
	if (*pk_namespace(workload))
		cJSON_AddStringToObject(meta, "namespace", pk_namespace(workload));
	const cJSON *labels = pk_getp(tmpl, "metadata.labels");
	if (labels)
		cJSON_AddItemToObject(meta, "labels", cJSON_Duplicate(labels, 1));
	const cJSON *spec = pk_get(tmpl, "spec");
	cJSON_AddItemToObject(pod, "spec", spec ? cJSON_Duplicate(spec, 1) : cJSON_CreateObject());
	return pod;
}

/* A manifest has no metadata.uid yet; the apiserver would assign one. The
 * plan's API calls are keyed by uid, so give the preemptor a stable one
 * derived from its namespace and name (FNV-1a, shaped like a UUID). */
static const char *made_up_uid(victims_run *r, const pk_pod *p)
{
	char key[600];
	snprintf(key, sizeof key, "%s/%s", p->namespace_, p->name);
	uint64_t h1 = pk_hash_str(key), h2 = 0x9e3779b97f4a7c15ull;
	for (const char *c = key; *c; c++)   /* a second hash, for the uid's other bits */
		h2 = (h2 ^ (unsigned char)*c) * 0x100000001b3ull + 7;
	char uid[40];
	snprintf(uid, sizeof uid, "%08x-%04x-4%03x-8%03x-%012llx", (unsigned)(h1 >> 32), (unsigned)(h1 >> 16) & 0xffff,
	         (unsigned)h1 & 0xfff, (unsigned)(h2 >> 52) & 0xfff, (unsigned long long)(h2 & 0xffffffffffffull));
	return pk_intern(r->snap.strs, uid);
}

/* How many pods the controller would create, as its spec says it. */
static void controller_count(const cJSON *obj, const char *kind, char *buf, size_t size)
{
	int64_t n = 1;
	if (strcmp(kind, "DaemonSet") == 0) {
		snprintf(buf, size, "one pod per node it selects");
	} else if (strcmp(kind, "Job") == 0) {
		pk_int64(obj, "spec.parallelism", &n);
		snprintf(buf, size, "parallelism %lld", (long long)n);
	} else if (strcmp(kind, "CronJob") == 0) {
		pk_int64(obj, "spec.jobTemplate.spec.parallelism", &n);
		snprintf(buf, size, "parallelism %lld per run", (long long)n);
	} else {
		pk_int64(obj, "spec.replicas", &n);
		snprintf(buf, size, "replicas %lld", (long long)n);
	}
}

/* A pod copied from a cluster (kubectl get pod -o yaml) that was bound or
 * ran is planned as a new pod of the same spec: spec.nodeName and the
 * status (nominatedNodeName with it) are what the scheduler and the
 * kubelet wrote, and are cleared. A pending pod keeps its status: a
 * nominatedNodeName is what the scheduler sees when the pod is retried.
 * Returns what was cleared ("" if nothing). */
static const char *clear_placement(cJSON *pod, char *buf, size_t size)
{
	cJSON *spec = cJSON_GetObjectItemCaseSensitive(pod, "spec");
	const char *node = pk_str_or(spec, "nodeName", "");
	const char *phase = pk_str_or(pod, "status.phase", "");
	bool ran = (*phase && strcmp(phase, "Pending") != 0) || pk_getp(pod, "status.startTime");
	buf[0] = '\0';
	if (*node)
		snprintf(buf, size, "spec.nodeName %s%s", node, ran ? " and a status" : "");
	else if (ran)
		snprintf(buf, size, "the status of a pod that ran (phase %s)", *phase ? phase : "unknown");
	bool bound = *node; /* node and phase point into what is deleted next */
	if (bound)
		cJSON_DeleteItemFromObjectCaseSensitive(spec, "nodeName");
	if (bound || ran)
		cJSON_DeleteItemFromObjectCaseSensitive(pod, "status");
	return buf;
}

/* ---- a Deferred in-place resize (KEP-5836, kubernetes#140000) --------------- */

/* A pod bound to a node whose in-place resize the kubelet Deferred. */
static bool resize_deferred(const cJSON *pod)
{
	return *pk_str_or(pod, "spec.nodeName", "") && pk_pod_object_resize_deferred(pod);
}

/* "cpu 100m, memory 100": the cpu and memory of r. */
static void cpu_memory_text(int64_t cpu, int64_t memory, char *buf, size_t size)
{
	char c[32], m[32];
	pk_qty_format(cpu, c, sizeof c);
	pk_qty_format(memory, m, sizeof m);
	snprintf(buf, size, "cpu %s, memory %s", c, m);
}

/* The containers' status.containerStatuses[].allocatedResources, summed
 * (pod NULL: a snapshot's pod, whose container statuses are not read). */
static void allocated_text(const cJSON *pod, char *buf, size_t size)
{
	if (!pod) {
		snprintf(buf, size, "not read: the snapshot's node counts the pod at its spec requests");
		return;
	}
	int64_t cpu = 0, memory = 0, q;
	bool any = false;
	const cJSON *cs;
	cJSON_ArrayForEach(cs, pk_getp(pod, "status.containerStatuses")) {
		const cJSON *a = pk_get(cs, "allocatedResources");
		if (pk_qty_from_json(pk_get(a, "cpu"), &q) == PK_QTY_OK)
			cpu += q, any = true;
		if (pk_qty_from_json(pk_get(a, "memory"), &q) == PK_QTY_OK)
			memory += q, any = true;
	}
	if (any)
		cpu_memory_text(cpu, memory, buf, size);
	else
		snprintf(buf, size, "not in its status");
}

/* What the answer for a Deferred resize rests on (the gate on), or why
 * the scheduler does not take the pod (the gate off, or a release without
 * it): the refusal is the answer's message. */
static void resize_preemptor(victims_run *r, long i, const cJSON *pod)
{
	pk_preemptor *p = &r->preemptors[i];
	const pk_release_profile *rel = &r->cli->engine.release;
	char want[96], alloc[96], text[1600];
	cpu_memory_text(p->pod->requests.cpu, p->pod->requests.memory, want, sizeof want);
	allocated_text(pod, alloc, sizeof alloc);
	p->resize = true;
	if (rel->resize_preemption) {
		preemptor_warn(r, i, "preemptor-resize",
		               "pod %s/%s is bound to node %s with its in-place resize Deferred (spec requests %s; "
		               "allocated %s): planned as the scheduler with InPlacePodVerticalScalingSchedulerPreemption "
		               "(alpha, KEP-5836) plans it: on node %s only, its own entry discounted so that only the "
		               "increase must fit, victims of lower priority there, no nominatedNodeName written; the "
		               "kubelet resizes it once they are gone",
		               p->pod->namespace_, p->pod->name, p->pod->node_name, want, alloc, p->pod->node_name);
		return;
	}
	char why[300], model[160] = "";
	if (rel->resize_preemption_gate_exists) {
		snprintf(why, sizeof why, "with InPlacePodVerticalScalingSchedulerPreemption off (upstream's default) the "
		         "scheduler does not take a bound pod");
	} else {
		snprintf(why, sizeof why, "Kubernetes 1.%d's scheduler does not take a bound pod (scheduler preemption "
		         "for a resize is KEP-5836, alpha in 1.%d)", rel->minor, rel->resize_preemption_since);
		snprintf(model, sizeof model, "--kubernetes-version 1.%d ", rel->resize_preemption_since);
	}
	snprintf(text, sizeof text,
	         "pod %s/%s is bound to node %s with its in-place resize Deferred (spec requests %s; allocated %s): "
	         "%s, and the kubelet keeps the resize Deferred until the node has room; no preemption. "
	         "`%s--feature-gates InPlacePodVerticalScalingSchedulerPreemption=true` models the alpha behaviour",
	         p->pod->namespace_, p->pod->name, p->pod->node_name, want, alloc, why, model);
	p->resize_refusal = pk_intern(r->snap.strs, text);
}

/* The snapshot's entry of a Deferred resize's pod (same uid, or same
 * namespace and name, bound to its node): left out of its node while it is
 * evaluated. Said when the input lacks it. */
static void resize_own_entries(victims_run *r)
{
	for (long i = 0; i < r->npreemptors; i++) {
		pk_preemptor *p = &r->preemptors[i];
		if (!p->resize)
			continue;
		for (long k = 0; k < r->snap.npods && !p->resize_own; k++) {
			pk_pod *q = r->snap.pods[k];
			bool same = *p->pod->uid && *q->uid ? strcmp(q->uid, p->pod->uid) == 0
			                                     : q->namespace_ == p->pod->namespace_ &&
			                                               strcmp(q->name, p->pod->name) == 0;
			if (same && !q->shadowed && !pk_pod_is_terminal(q) && *q->node_name &&
			    strcmp(q->node_name, p->pod->node_name) == 0 && pk_snapshot_node(&r->snap, q->node_name))
				p->resize_own = q;
		}
		if (!pk_snapshot_node(&r->snap, p->pod->node_name))
			preemptor_warn(r, i, "preemptor-resize-node",
			               "pod %s/%s is bound to node %s, which is not in the input: its resize is evaluated "
			               "on no node; `kubectl get nodes` belongs in the input",
			               p->pod->namespace_, p->pod->name, p->pod->node_name);
		else if (!p->resize_own)
			preemptor_warn(r, i, "preemptor-resize-own",
			               "pod %s/%s: the input does not hold it on node %s, so the node is counted without "
			               "it (as with its allocation discounted)",
			               p->pod->namespace_, p->pod->name, p->pod->node_name);
	}
}

/* -n NS: a preemptor without a namespace is in NS, as kubectl apply -n NS
 * creates it; one in another namespace is refused, as kubectl refuses it. */
static bool preemptor_in_namespace(victims_run *r, cJSON *pod, const pk_record *rec)
{
	const char *ns = r->opts->namespace_, *own = pk_namespace(pod);
	if (!ns)
		return true;
	if (!*own) {
		cJSON *meta = cJSON_GetObjectItemCaseSensitive(pod, "metadata");
		if (!meta)
			meta = cJSON_AddObjectToObject(pod, "metadata");
		cJSON_AddStringToObject(meta, "namespace", ns);
		return true;
	}
	if (strcmp(own, ns) == 0)
		return true;
	pk_diag_report(&r->cli->diag, PK_SEV_ERROR, &rec->origin,
	               "--preemptor: the namespace of the object (\"%s\") does not match -n \"%s\"", own, ns);
	cJSON_Delete(pod);
	r->trouble++;
	return false;
}

static int on_preemptor_record(void *ctx, pk_record *rec)
{
	preemptor_ctx *pc = ctx;
	victims_run *r = pc->r;
	if (pk_cli_report_record_problem(r->cli, rec)) {
		r->trouble++;
		return 0;
	}
	if (rec->type != PK_REC_OBJECT)
		return 0;
	const char *kind = pk_kind(rec->obj);
	if (strcmp(kind, "PriorityClass") == 0 || strcmp(kind, "PodGroup") == 0 || strcmp(kind, "Workload") == 0) {
		/* what the preemptors name, given with them: used as the cluster's,
		 * as --apply uses them */
		r->stats.read++;
		return add_cluster_object(r, rec);
	}
	if (*kind && strcmp(kind, "Pod") != 0 && !pk_pg_is_controller_kind(kind)) {
		/* an application's other objects (its Service, its ConfigMap): no
		 * pod comes from them; skipped, as --apply skips them, and said
		 * once per kind (warn_unused) */
		r->stats.read++;
		pk_stats_skip(&r->stats, kind);
		pk_stats_skip(pc->unused, kind);
		return 0;
	}
	cJSON *pod;
	char cleared[300] = "", count[64] = "";
	bool resize = false;
	if (strcmp(kind, "Pod") == 0) {
		pod = rec->obj;
		rec->obj = NULL;
		resize = resize_deferred(pod); /* bound, and so it stays */
		if (!resize)
			clear_placement(pod, cleared, sizeof cleared);
	} else {
		const cJSON *tmpl = pod_template(rec->obj, kind);
		if (!tmpl) {
			if (*kind)
				pk_diag_report(&r->cli->diag, PK_SEV_ERROR, &rec->origin, "--preemptor: %s %s has no pod template",
				               kind, pk_name(rec->obj));
			else
				pk_diag_report(&r->cli->diag, PK_SEV_ERROR, &rec->origin,
				               "--preemptor: an object without a kind is neither a Pod nor a workload with a "
				               "pod template");
			r->trouble++;
			return 0;
		}
		pod = pod_from_template(rec->obj, tmpl);
		controller_count(rec->obj, kind, count, sizeof count);
	}
	if (!preemptor_in_namespace(r, pod, rec))
		return 0;
	pk_preemptor p = { .object = pod, .source = pk_intern(r->snap.strs, *kind ? kind : "Pod"),
	                   .file = pc->file };
	p.pod = pk_arena_alloc(&r->snap.arena, sizeof *p.pod);
	char err[512];
	cJSON *view = resize ? pk_resize_view(pod) : NULL;
	int rc = pk_pod_decode(&r->snap.dec, view ? view : pod, p.pod, err, sizeof err);
	cJSON_Delete(view);
	if (rc < 0) {
		pk_diag_report(&r->cli->diag, PK_SEV_ERROR, &rec->origin, "--preemptor: %s", err);
		pk_pod_release(p.pod);
		cJSON_Delete(pod);
		r->trouble++;
		return 0;
	}
	p.pod->index = -1;
	if (!*p.pod->uid)
		p.pod->uid = made_up_uid(r, p.pod);
	push_preemptor(r, &p, rec->origin.line);
	long i = r->npreemptors - 1;
	if (resize)
		resize_preemptor(r, i, pod);
	if (*cleared)
		preemptor_warn(r, i, "preemptor-copied",
		               "pod %s/%s carries %s, as a pod copied from a cluster does: planned as a new pod of the "
		               "same spec (nodeName, nominatedNodeName and status cleared)",
		               p.pod->namespace_, p.pod->name, cleared);
	if (*count)
		preemptor_warn(r, i, "preemptor-controller",
		               "%s %s/%s (%s): one pod of its template is planned, as if it were the only one; the "
		               "whole workload, each pod seeing the ones before it, is planned by "
		               "`preempt-plan --simulate --apply`",
		               kind, p.pod->namespace_, p.pod->name, count);
	return 0;
}

/* The Priority admission plugin's verdict on a preemptor, said. */
static void warn_admission(victims_run *r, long i, const pk_resolved_priority *rp)
{
	pk_pod *pod = r->preemptors[i].pod;
	char why[900];
	if (!pk_priority_admission_error(rp, why, sizeof why))
		return;
	bool pending = pod->index >= 0; /* input_admission_warnings said it on stderr */
	if (rp->class_missing)
		preemptor_warn(r, i, pending ? NULL : "preemptor-class-missing",
		               "pod %s/%s: priorityClassName \"%s\" not found in the input; admission would have "
		               "rejected the pod (%s); priority %d assumed (%s); `kubectl get priorityclasses` belongs "
		               "in the input",
		               pod->namespace_, pod->name, pod->class_name, why, pod->priority,
		               rp->from_spec ? "its spec.priority" : "as for a pod without a class");
	else
		preemptor_warn(r, i, pending ? NULL : "preemptor-class-conflict",
		               "pod %s/%s: admission would have rejected the pod (%s); planned as written, with "
		               "priority %d and preemptionPolicy %s",
		               pod->namespace_, pod->name, why, pod->priority, pk_preemption_policy_name(pod->policy));
}

/* Priority and preemptionPolicy as admission sets them, now that every
 * PriorityClass of the input is known; pending pods were resolved with
 * the snapshot. */
static void resolve_preemptor(victims_run *r, long i)
{
	pk_pod *pod = r->preemptors[i].pod;
	pk_resolved_priority rp = pk_pod_resolve_priority(&r->snap.classes, pod);
	if (pod->index < 0) {
		pod->priority = rp.value;
		pod->policy = rp.policy;
		if (!*pod->class_name && *rp.class_name)
			pod->class_name = pk_intern(r->snap.strs, rp.class_name);
	}
	warn_admission(r, i, &rp);
}

/* The pending pods and, with InPlacePodVerticalScalingSchedulerPreemption
 * on, the bound pods whose resize is Deferred, in queue order (the
 * scheduler's queue: pk_snapshot_queue); with it off, those are said once. */
static void add_pending(victims_run *r)
{
	pk_pod **pending;
	const pk_release_profile *rel = &r->cli->engine.release;
	long n = pk_snapshot_queue(&r->snap, rel->resize_preemption, &pending);
	for (long i = 0; i < n; i++) {
		if (r->opts->namespace_ && strcmp(pending[i]->namespace_, r->opts->namespace_) != 0)
			continue; /* -n NS */
		pk_preemptor p = { .pod = pending[i], .source = "Pod", .file = NULL };
		pk_pod *own = pk_snapshot_resize_own(&r->snap, pending[i]);
		if (own) { /* a Deferred resize: bound, its entry discounted */
			p.resize = true;
			p.resize_own = own;
		}
		if (r->snap.pending_objects)
			p.object = r->snap.pending_objects[own ? own->index : pending[i]->index];
		push_preemptor(r, &p, 0);
		if (own)
			resize_preemptor(r, r->npreemptors - 1, NULL);
	}
	free(pending);
	char text[1200];
	if (pk_sim_resizes_left_text(&r->snap, rel, r->opts->namespace_, text, sizeof text))
		input_warn(r, "input-resizes-left-to-the-kubelet", "%s", text);
}

/* Pods of the input that admission would have objected to: one warning
 * per cause for the whole input, with a count and the first pod. */
static void input_admission_warnings(victims_run *r)
{
	const pk_snapshot *s = &r->snap;
	long missing = 0, missing_without_priority = 0, conflicts = 0;
	const pk_pod *first_missing = NULL, *first_conflict = NULL;
	for (long i = 0; i < s->npods; i++) {
		const pk_pod *p = s->pods[i];
		if (p->shadowed || pk_pod_is_terminal(p) || !p->admission)
			continue;
		if (p->admission & PK_ADMISSION_CLASS_MISSING) {
			missing++;
			missing_without_priority += !p->has_priority;
			first_missing = first_missing ? first_missing : p;
		} else {
			conflicts++;
			first_conflict = first_conflict ? first_conflict : p;
		}
	}
	char text[1200];
	if (pk_inferred_classes_text(&s->classes, text, sizeof text))
		input_warn(r, "input-classes-inferred", "%s", text);
	for (int i = 0; i < s->classes.nevidence; i++) {
		const pk_class_evidence *e = &s->classes.evidence[i];
		char key[300];
		snprintf(key, sizeof key, "input-class-disagreement:%s", e->name);
		if (e->min != e->max)
			input_warn(r, key, "%s", pk_class_evidence_text(e, text, sizeof text));
	}
	char used[200] = "each pod's spec.priority is used";
	if (missing_without_priority == missing)
		snprintf(used, sizeof used, "none carries a spec.priority: 0 is used, as for a pod without a class");
	else if (missing_without_priority)
		snprintf(used, sizeof used,
		         "each pod's spec.priority is used, and 0 for the %ld that carry none, as for a pod without a class",
		         missing_without_priority);
	if (missing && s->priority_classes == 0)
		input_warn(r, "input-no-priorityclasses",
		           "the input holds no PriorityClass objects, and %ld pod(s) name a class it cannot resolve "
		           "(first: %s/%s, \"%s\"): %s; take the snapshot with "
		           "`kubectl get nodes,pods,pdb,priorityclasses -A -o json`",
		           missing, first_missing->namespace_, first_missing->name, first_missing->class_name, used);
	else if (missing)
		input_warn(r, "input-class-missing",
		           "%ld pod(s) name a PriorityClass that is not in the input (first: %s/%s, \"%s\"); admission "
		           "rejects a new pod whose class does not exist; %s; "
		           "`kubectl get priorityclasses` belongs in the snapshot",
		           missing, first_missing->namespace_, first_missing->name, first_missing->class_name, used);
	if (conflicts) {
		char why[900];
		pk_resolved_priority rp = pk_pod_resolve_priority(&s->classes, first_conflict);
		input_warn(r, "input-class-conflict",
		           "%ld pod(s) carry a priority or preemptionPolicy that contradicts their PriorityClass, which "
		           "admission would have rejected (first: %s/%s: %s); their fields are used as written",
		           conflicts, first_conflict->namespace_, first_conflict->name,
		           pk_priority_admission_error(&rp, why, sizeof why));
	}
}

/* DefaultPreemption.PostFilter's gating of a pod of a pod group, and the
 * pod-by-pod planning of a gang member said. */
static void gate_preemptor(victims_run *r, long i)
{
	pk_preemptor *p = &r->preemptors[i];
	const pk_release_profile *release = r->groups.release;
	const char *group = *p->pod->con->pod_group ? p->pod->con->pod_group : p->pod->con->workload_pod_group;
	if (!*group || !release->generic_workload)
		return;
	const pk_podgroup *pg = NULL;
	if (*p->pod->con->pod_group) { /* upstream's PostFilter reads spec.schedulingGroup only */
		pg = pk_pg_find(&r->groups, p->pod->namespace_, p->pod->con->pod_group);
		pk_group_gate g = pk_pg_postfilter_gate(&r->groups, true, pg);
		p->gate_message = g.message;
		p->gate = g.gate;
	}
	char whole[96] = "";
	if (release->workload_aware_preemption)
		snprintf(whole, sizeof whole, " and preempts for the group as a whole (%s)",
		         release->workload_aware_preemption_gate);
	preemptor_warn(r, i, "gang-member",
	               "pod %s/%s belongs to pod group %s%s: victims plans it pod by pod, as the per-pod PostFilter "
	               "sees it; the scheduler places the group's pods together%s: `preempt-plan --simulate` plans "
	               "the group",
	               p->pod->namespace_, p->pod->name, group, pg || !*p->pod->con->pod_group ? "" : " (not in the input)",
	               whole);
}

static void warn_unmodelled(victims_run *r, long i)
{
	const pk_pod *pod = r->preemptors[i].pod;
	if (!pod->unmodelled)
		return;
	char names[256], key[300];
	pk_unmodelled_names(pod->unmodelled, names, sizeof names);
	snprintf(key, sizeof key, "unmodelled:%s", names);
	pk_origin at = { .file = r->preemptors[i].file, .line = r->lines[i], .item = -1 };
	/* the record says it already (pk_preemptor_json) */
	pk_diag_warn_once(&r->cli->diag, key, at.file ? &at : NULL,
	                  "preemptor %s/%s asks for %s, which victims does not model (ignored when filtering)",
	                  pod->namespace_, pod->name, names);
}

/* A preemptor from a file with the uid of a bound pod of the snapshot (a
 * pod copied with kubectl get pod -o yaml) is that pod being rescheduled:
 * its original leaves its node first, so that the two do not compete. */
static void reschedule_copies(victims_run *r)
{
	for (long i = 0; i < r->npreemptors; i++) {
		pk_preemptor *p = &r->preemptors[i];
		if (p->pod->index >= 0 || !*p->pod->uid || p->resize)
			continue;
		for (long k = 0; k < r->snap.npods; k++) {
			pk_pod *q = r->snap.pods[k];
			if (q->shadowed || !*q->node_name || pk_pod_is_terminal(q) || strcmp(q->uid, p->pod->uid) != 0)
				continue;
			pk_nodeinfo *ni = pk_snapshot_node(&r->snap, q->node_name);
			if (!ni)
				continue;
			pk_snapshot_delete(&r->snap, q);
			q->shadowed = true; /* the preemptor stands for it now */
			preemptor_warn(r, i, "preemptor-rescheduled",
			               "pod %s/%s has the uid of pod %s/%s, bound to node %s: planned as that pod being "
			               "rescheduled, the original leaving %s first (as after its deletion)",
			               p->pod->namespace_, p->pod->name, q->namespace_, q->name, ni->node->name,
			               ni->node->name);
			break;
		}
	}
}

/* The kinds the preemptors' volume filters need and the input lacks. */
static void volume_input_hint(victims_run *r)
{
	pk_pod **pods = pk_xmalloc(sizeof *pods * (size_t)(r->npreemptors + 1));
	for (long i = 0; i < r->npreemptors; i++)
		pods[i] = r->preemptors[i].pod;
	char text[2000];
	if (pk_volumes_input_hint(&r->snap, pods, r->npreemptors, text, sizeof text))
		input_warn(r, "input-volumes", "%s", text);
	if (pk_dra_input_hint(&r->snap, pods, r->npreemptors, text, sizeof text))
		input_warn(r, "input-dra", "%s", text);
	if (pk_dra_nodealloc_note(&r->snap, r->cli->engine.release.minor, text, sizeof text))
		input_warn(r, "input-dra-node-allocatable", "%s", text);
	free(pods);
}

/* Everything the answers will rest on, said before the first answer. */
static void preemptor_assumptions(victims_run *r)
{
	reschedule_copies(r);
	resize_own_entries(r);
	input_admission_warnings(r);
	volume_input_hint(r);
	for (long i = 0; i < r->npreemptors; i++) /* a --preemptor's namespace may be new */
		pk_ns_set_note(r->snap.namespaces, r->preemptors[i].pod->namespace_);
	const char *ns_assumed = pk_ns_assumption(r->snap.namespaces);
	if (ns_assumed)
		input_warn(r, "input-namespaces", "%s", ns_assumed);
	for (long i = 0; i < r->npreemptors; i++) {
		resolve_preemptor(r, i);
		gate_preemptor(r, i);
		pk_volumes_resolve(&r->snap, r->preemptors[i].pod); /* its claims: modelled when the input has them */
		pk_dra_resolve(&r->snap, r->preemptors[i].pod); /* its resource claims, likewise */
		warn_unmodelled(r, i);
		const char *claims_assumed = pk_volumes_assumption(r->preemptors[i].pod);
		if (claims_assumed) /* the record says it too (pk_preemptor_json) */
			pk_diag_warn_once(&r->cli->diag, claims_assumed, NULL, "preemptor %s/%s: %s",
			                  r->preemptors[i].pod->namespace_, r->preemptors[i].pod->name, claims_assumed);
		const char *devices_assumed;
		for (int k = 0; (devices_assumed = pk_dra_assumption(r->preemptors[i].pod, k)); k++)
			/* the record says it too (pk_preemptor_json) */
			pk_diag_warn_once(&r->cli->diag, devices_assumed, NULL, "preemptor %s/%s: %s",
			                  r->preemptors[i].pod->namespace_, r->preemptors[i].pod->name, devices_assumed);
		pk_preemptor *p = &r->preemptors[i];
		const cJSON *it;
		cJSON_ArrayForEach(it, r->input_warnings) {
			if (!p->warnings)
				p->warnings = cJSON_CreateArray();
			cJSON_AddItemToArray(p->warnings, cJSON_Duplicate(it, 1));
		}
	}
}

/* The --preemptor files' objects no pod comes from, once per kind with
 * their count, in --apply's words. */
static void warn_unused(victims_run *r, const pk_stats *unused)
{
	for (int i = 0; i < unused->nkinds; i++) {
		char key[128], text[256];
		snprintf(key, sizeof key, "preemptor-unused:%s", unused->by_kind[i].kind);
		input_warn(r, key, "%s", pk_apply_unused_text(text, sizeof text, unused->by_kind[i].skipped,
		                                              unused->by_kind[i].kind, "--preemptor"));
	}
}

int victims_load(victims_run *r, char **paths, int npaths)
{
	pk_snapshot_init(&r->snap);
	r->snap.threads = r->cli->engine.threads;
	pk_pg_set_init(&r->groups, &r->cli->engine.release);
	r->snap.keep_pending_objects = r->opts->pending;
	r->snap.volume_limit_scaling = r->cli->engine.release.volume_limit_scaling;
	r->snap.dra_kep5690 = r->cli->engine.dra_kep5690;
	r->snap.dra_node_allocatable = r->cli->engine.release.dra_node_allocatable;
	r->snap.dra_off = pk_dra_features_off(&r->cli->engine.release);
	pk_stats unused = {0};
	for (int i = 0; i < r->opts->npreemptor_files; i++) {
		preemptor_ctx pc = { r, r->opts->preemptor_files[i], &unused };
		char *one[1] = { r->opts->preemptor_files[i] };
		long before = r->npreemptors;
		if (pk_read_paths(&r->cli->reader, one, 1, on_preemptor_record, &pc) < 0)
			return -1;
		if (r->npreemptors == before && !r->trouble) {
			warn_unused(r, &unused);
			pk_diag_report(&r->cli->diag, PK_SEV_ERROR, NULL, "%s: no pod or workload in --preemptor file",
			               one[0]);
			return -1;
		}
	}
	warn_unused(r, &unused);
	pk_reader_opts cluster_reader = r->cli->reader;
	cluster_reader.prune = pk_snapshot_unused_members;
	cluster_reader.list_begun = on_cluster_list;
	if (pk_read_paths(&cluster_reader, paths, (size_t)npaths, on_cluster_record, r) < 0)
		return -1;
	pk_snapshot_finish(&r->snap);
	if (r->groups.n > 0) /* members linked: gangs as victims (1.37) */
		pk_pg_set_finish(&r->groups, &r->snap);
	const char *caveat = pk_pg_release_caveat(&r->groups);
	if (caveat)
		input_warn(r, "release-caveat", "%s", caveat);
	if (r->snap.duplicates)
		pk_diag_report(&r->cli->diag, PK_SEV_WARNING, NULL,
		               "%ld Node/Pod objects were read more than once; the last one read of each is used",
		               r->snap.duplicates);
	if (r->snap.nnodes == 0) {
		/* a snapshot consumer without nodes has nothing to answer from;
		 * when reading failed, the reader's message already says why */
		if (r->cli->input_errors > 0)
			return -1;
		pk_diag_report(&r->cli->diag, PK_SEV_ERROR, NULL,
		               "%s: a cluster snapshot needs its nodes: kubectl get nodes,pods,pdb,priorityclasses -A -o json",
		               r->stats.read == 0 ? "no objects in the input" : "no Node objects in the input");
		return -1;
	}
	if (r->opts->pending) {
		long before = r->npreemptors;
		add_pending(r);
		if (r->npreemptors == before)
			pk_diag_report(&r->cli->diag, PK_SEV_NOTE, NULL,
			               "--pending: no pending pods in the input%s%s; 0 preemptors evaluated",
			               r->opts->namespace_ ? " in namespace " : "", r->opts->namespace_ ? r->opts->namespace_ : "");
	}
	preemptor_assumptions(r);
	return 0;
}

void victims_free(victims_run *r)
{
	for (long i = 0; i < r->npreemptors; i++) {
		pk_preemptor *p = &r->preemptors[i];
		/* from --preemptor: owned here (a Deferred resize's view from
		 * --pending is the snapshot's) */
		if (p->pod->index < 0 && !pk_snapshot_resize_own(&r->snap, p->pod)) {
			pk_pod_release(p->pod);
			cJSON_Delete(p->object);
		}
		cJSON_Delete(p->warnings);
	}
	free(r->preemptors);
	free(r->lines);
	cJSON_Delete(r->input_warnings);
	pk_pg_set_free(&r->groups);
	pk_snapshot_free(&r->snap);
}
