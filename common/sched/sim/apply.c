/* Applying manifests on top of a snapshot: the objects themselves
 * (identity, admission, PriorityClasses, PodGroups, Pods), the pods
 * controllers create and delete, and --scale; see apply.h. The workload
 * controllers are in apply_controllers.c, the records in apply_records.c. */
#include "sched/engine/filter/cycle.h"
#include "sched/sim/apply_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "k8s/json.h"
#include "k8s/volume.h"
#include "k8s/quantity.h"
#include "base/alloc.h"

const char *pk_apply_action_name(pk_apply_action a)
{
	switch (a) {
	case PK_APPLY_CREATE: return "create";
	case PK_APPLY_UPDATE: return "update";
	case PK_APPLY_SCALE: return "scale";
	case PK_APPLY_UNCHANGED: return "unchanged";
	case PK_APPLY_REJECTED: return "rejected";
	}
	return "unknown";
}

void pk_apply_init(pk_apply *a, pk_sim *m, const char *default_ns)
{
	memset(a, 0, sizeof *a);
	a->m = m;
	a->s = m->s;
	a->g = m->g;
	a->default_ns = pk_intern(a->s->strs, default_ns && *default_ns ? default_ns : "default");
	pk_pair_map_init(&a->pod_origin);
	a->nlive = cJSON_GetArraySize(a->g->templates);
	a->live_used = pk_xcalloc((size_t)a->nlive + 1, sizeof *a->live_used);
}

void pk_apply_free(pk_apply *a)
{
	for (long i = 0; i < a->n; i++) {
		pk_applied *o = &a->objs[i];
		free(o->reasons);
		free(o->victims);
		free(o->deleted_pods);
		free(o->error);
		cJSON_Delete(o->warnings);
	}
	free(a->objs);
	free(a->live_used);
	pk_pair_map_free(&a->pod_origin);
	memset(a, 0, sizeof *a);
}

/* ---- the objects ------------------------------------------------------------------- */

static bool is_namespaced(const char *kind)
{
	return strcmp(kind, "PriorityClass") != 0 && strcmp(kind, "Namespace") != 0 && strcmp(kind, "Node") != 0;
}

static void reserve(pk_apply *a, long more)
{
	a->objs = pk_grow(a->objs, &a->cap, (size_t)(a->n + more), sizeof *a->objs);
}

/* Room must have been reserved: pointers to entries stay valid while a
 * batch is applied. */
static pk_applied *applied_new(pk_apply *a, const cJSON *obj, const char *where)
{
	pk_applied *o = &a->objs[a->n++];
	memset(o, 0, sizeof *o);
	pk_strtab *t = a->s->strs;
	o->api_version = pk_intern(t, pk_api_version(obj));
	o->kind = pk_intern(t, pk_kind(obj));
	o->name = pk_intern(t, pk_name(obj));
	const char *gen = pk_str(obj, "metadata.generateName");
	if (!*o->name && gen && *gen) { /* to name it in the message that rejects it */
		char buf[400];
		snprintf(buf, sizeof buf, "%s (generateName)", gen);
		o->name = pk_intern(t, buf);
	}
	const char *ns = pk_namespace(obj);
	o->namespace_ = is_namespaced(o->kind) ? (*ns ? pk_intern(t, ns) : a->default_ns) : pk_intern(t, "");
	snprintf(o->origin, sizeof o->origin, "%s", where ? where : "");
	o->warnings = cJSON_CreateArray();
	o->action = PK_APPLY_CREATE;
	return o;
}

static void vformat(char **dst, const char *fmt, va_list ap)
{
	char buf[1024];
	vsnprintf(buf, sizeof buf, fmt, ap);
	free(*dst);
	*dst = pk_xstrdup(buf);
}

void pk_applied_warn(pk_applied *o, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	vformat(&msg, fmt, ap);
	va_end(ap);
	cJSON_AddItemToArray(o->warnings, cJSON_CreateString(msg));
	free(msg);
}

void pk_applied_reject(pk_applied *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vformat(&o->error, fmt, ap);
	va_end(ap);
	o->action = PK_APPLY_REJECTED;
}

const cJSON *pk_apply_find_live(pk_apply *a, const char *kind, const char *ns, const char *name)
{
	const cJSON *o;
	long i = 0;
	cJSON_ArrayForEach(o, a->g->templates) {
		const char *ons = pk_namespace(o);
		if (strcasecmp(pk_kind(o), kind) == 0 && strcmp(pk_name(o), name) == 0 &&
		    strcmp(*ons ? ons : "default", ns) == 0) {
			a->live_used[i] = true;
			return o;
		}
		i++;
	}
	return NULL;
}

/* ---- comparing a manifest with the live object --------------------------------------- */

static bool scalar_equal(const cJSON *x, const cJSON *y)
{
	if (cJSON_IsString(x) && cJSON_IsString(y) && strcmp(x->valuestring, y->valuestring) == 0)
		return true;
	if (cJSON_IsNumber(x) && cJSON_IsNumber(y))
		return x->valuedouble == y->valuedouble;
	if (cJSON_IsBool(x) || cJSON_IsBool(y))
		return cJSON_IsTrue(x) == cJSON_IsTrue(y) && cJSON_IsBool(x) == cJSON_IsBool(y);
	int64_t a, b; /* quantities: "1000m", "1", 1 */
	return (cJSON_IsString(x) || cJSON_IsNumber(x)) && (cJSON_IsString(y) || cJSON_IsNumber(y)) &&
	       pk_qty_from_json(x, &a) == PK_QTY_OK && pk_qty_from_json(y, &b) == PK_QTY_OK && a == b;
}

static const cJSON *named_item(const cJSON *arr, const char *name)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, arr)
		if (strcmp(pk_str_or(it, "name", ""), name) == 0)
			return it;
	return NULL;
}

bool pk_json_subset(const cJSON *want, const cJSON *have)
{
	if (cJSON_IsNull(want))
		return !have || cJSON_IsNull(have);
	if (!have)
		return false;
	if (cJSON_IsObject(want)) {
		if (!cJSON_IsObject(have))
			return false;
		const cJSON *m;
		cJSON_ArrayForEach(m, want)
			if (!pk_json_subset(m, pk_get(have, m->string)))
				return false;
		return true;
	}
	if (cJSON_IsArray(want)) {
		if (!cJSON_IsArray(have) || cJSON_GetArraySize(want) != cJSON_GetArraySize(have))
			return false;
		const cJSON *w, *h = have->child;
		cJSON_ArrayForEach(w, want) {
			const char *name = pk_str(w, "name");
			const cJSON *match = name ? named_item(have, name) : h;
			if (!pk_json_subset(w, match))
				return false;
			h = h ? h->next : NULL;
		}
		return true;
	}
	return scalar_equal(want, have);
}

/* ---- pod templates and pods ----------------------------------------------------------- */

pk_pod *pk_apply_template(pk_apply *a, pk_applied *o, const cJSON *tpl, const cJSON *spec_override)
{
	const cJSON *spec = spec_override ? spec_override : pk_get(tpl, "spec");
	if (!cJSON_IsObject(spec)) {
		pk_applied_reject(o, "no pod template (spec.template.spec)");
		return NULL;
	}
	pk_resolved_priority r = pk_resolve_priority(&a->s->classes, spec);
	char err[600], evidence[1200];
	const pk_class_evidence *ev = *r.class_name ? pk_class_evidence_find(&a->s->classes, r.class_name) : NULL;
	if (ev)
		pk_class_evidence_text(ev, evidence, sizeof evidence);
	if (pk_priority_admission_error(&r, err, sizeof err)) {
		pk_applied_reject(o, "the Priority admission plugin would reject its pods: %s%s%s", err,
		                  ev ? "; " : r.class_missing ? " (if the cluster has that class, add priorityclasses to the "
		                                                "snapshot, or apply it too)" : "",
		                  ev ? evidence : "");
		return NULL;
	}
	if (ev) /* the class was taken from the snapshot's pods */
		pk_applied_warn(o, "%s", evidence);
	cJSON *meta = cJSON_Duplicate(pk_get(tpl, "metadata"), 1);
	if (!cJSON_IsObject(meta)) {
		cJSON_Delete(meta);
		meta = cJSON_CreateObject();
	}
	cJSON_DeleteItemFromObject(meta, "namespace");
	cJSON_AddStringToObject(meta, "namespace", o->namespace_);
	cJSON_DeleteItemFromObject(meta, "name");
	cJSON_AddStringToObject(meta, "name", o->name);
	pk_pod *t = pk_arena_alloc(&a->s->arena, sizeof *t);
	int rc = pk_pod_decode_spec(&a->s->dec, meta, spec, NULL, t, err, sizeof err);
	cJSON_Delete(meta);
	if (rc < 0) {
		pk_pod_release(t);
		pk_applied_reject(o, "its pods would not validate: %s", err);
		return NULL;
	}
	t->priority = r.value;
	t->policy = r.policy;
	if (!*t->class_name && *r.class_name)
		t->class_name = pk_intern(a->s->strs, r.class_name);
	pk_sim_keep(a->m, t);
	return t;
}

pk_pod *pk_apply_new_pod(pk_apply *a, pk_applied *o, const pk_pod *tpl, const char *name, const char *owner_kind,
                         const char *owner_name)
{
	char uid[700];
	snprintf(uid, sizeof uid, "%s-%s-%s", o->action == PK_APPLY_SCALE ? "scaled" : "applied", o->namespace_, name);
	pk_pod *p = pk_sim_new_pod(a->m, tpl, name, uid);
	/* claims of its own: its ephemeral volumes', a StatefulSet's templates' */
	const pk_pod_volumes *v = pk_pod_volumes_for_replica(&a->s->dec, tpl->con->volumes, p->name, o->claim_templates,
	                                                     o->nclaim_templates);
	p->con = pk_pod_constraints_for_replica(&a->s->dec, p->con, v);
	if (o->nclaim_templates)
		p->unmodelled |= PK_UNMODELLED_VOLUMES; /* until its claims are resolved */
	pk_pg_add_pod(a->g, a->s, p, pk_pg_group_name(a->g, a->s, tpl), owner_kind, owner_name);
	pk_pair_map_add(&a->pod_origin, p->namespace_, p->name, (o - a->objs) + 1);
	o->pods++;
	return p;
}

void pk_apply_create(pk_apply *a, pk_applied *o, const pk_pod *tpl, long n, long first, const char *owner_kind,
                     const char *owner_name)
{
	for (long i = 0; i < n; i++) {
		char name[600];
		snprintf(name, sizeof name, "%s-%ld", o->prefix, first + i);
		pk_sim_enqueue(a->m, pk_apply_new_pod(a, o, tpl, name, owner_kind, owner_name),
		               o->action == PK_APPLY_SCALE);
	}
}

static void push_ref(pk_apply_ref **arr, long *n, size_t *cap, const char *ns, const char *name)
{
	*arr = pk_grow(*arr, cap, (size_t)*n + 1, sizeof **arr);
	(*arr)[(*n)++] = (pk_apply_ref){ ns, name };
}

void pk_apply_delete(pk_apply *a, pk_applied *o, pk_pod *p)
{
	pk_snapshot_delete(a->s, p);
	if (p->index >= a->s->npods) { /* created by this apply, gone before it ran */
		pk_sim_dequeue(a->m, p);
		o->pods--;
		pk_pair_map_add(&a->pod_origin, p->namespace_, p->name, -((o - a->objs) + 1));
		return;
	}
	if (!*p->node_name)
		pk_sim_dequeue(a->m, p);
	p->node_name = pk_intern(a->s->strs, "");
	p->terminating = true; /* gone: no later lookup takes it again */
	push_ref(&o->deleted_pods, &o->ndeleted, &o->deletedcap, p->namespace_, p->name);
}

/* ---- the pods a controller already has -------------------------------------------------- */

static bool active(const pk_pod *p)
{
	return !p->shadowed && !p->terminating && !pk_pod_is_terminal(p);
}

/* "<name>-<hash>": a ReplicaSet of Deployment name. */
static bool replicaset_of(const char *rs, const char *name)
{
	size_t n = strlen(name);
	return strncmp(rs, name, n) == 0 && rs[n] == '-' && rs[n + 1] && !strchr(rs + n + 1, '-');
}

long pk_apply_owned_pods(pk_apply *a, const char *ns, const char *kind, const char *name, bool name_prefix,
                         const pk_selector *sel, pk_pod ***out)
{
	pk_pod **v = pk_xmalloc(sizeof *v * (size_t)(a->s->npods + 1));
	long n = 0;
	for (long i = 0; i < a->s->npods; i++) {
		pk_pod *p = a->s->pods[i];
		if (!active(p) || strcmp(p->namespace_, ns) != 0)
			continue;
		const char *ok, *on;
		bool owned = pk_pg_pod_owner(a->g, p, &ok, &on);
		if (owned && strcasecmp(ok, kind) == 0 &&
		    (name_prefix ? replicaset_of(on, name) && (!sel || pk_selector_matches_labels(sel, p->labels))
		                 : strcmp(on, name) == 0))
			v[n++] = p;
		else if (!owned && !name_prefix && sel && pk_selector_matches_labels(sel, p->labels))
			v[n++] = p; /* an orphan the controller adopts */
	}
	*out = v;
	return n;
}

/* ---- getPodsToDelete's order ----------------------------------------------------------- */

typedef struct del_key {
	pk_pod *pod;
	long rank;               /* active pods of the owner on the same node */
	int ready;
	int64_t now;
} del_key;

static int phase_ordinal(const char *phase)
{
	if (strcmp(phase, "Unknown") == 0)
		return 1;
	if (strcmp(phase, "Running") == 0)
		return 2;
	return 0; /* Pending, and phases the map does not name */
}

/* The first three criteria: the ones read from the snapshot before the
 * deletion cost, which is not. */
static int del_cmp_health(const del_key *x, const del_key *y)
{
	bool xu = !*x->pod->node_name, yu = !*y->pod->node_name;
	if (xu != yu)
		return xu ? -1 : 1;
	int px = phase_ordinal(x->pod->phase), py = phase_ordinal(y->pod->phase);
	if (px != py)
		return px < py ? -1 : 1;
	if ((x->ready == 1) != (y->ready == 1))
		return x->ready == 1 ? 1 : -1;
	return 0;
}

static long log2_age(int64_t now, int64_t t)
{
	int64_t d = now - t;
	return d > 0 ? (long)log2((double)d) : -1;
}

static int del_cmp(const void *pa, const void *pb)
{
	const del_key *x = pa, *y = pb;
	int c = del_cmp_health(x, y);
	if (c)
		return c;
	if (x->rank != y->rank) /* doubled up first */
		return x->rank > y->rank ? -1 : 1;
	const pk_pod *p = x->pod, *q = y->pod;
	if (p->created != q->created) {
		if (!p->created || !q->created) /* no creation time first, then the newer */
			return !p->created ? -1 : 1;
		long d = log2_age(x->now, p->created) - log2_age(x->now, q->created);
		if (d)
			return d < 0 ? -1 : 1;
		c = strcmp(p->uid, q->uid); /* LogarithmicScaleDown: same bucket, uid order */
		if (c)
			return c;
	}
	c = strcmp(p->namespace_, q->namespace_);
	return c ? c : strcmp(p->name, q->name);
}

/* How many pods around the cut after k tie with the pods at the cut. */
static long tied_run(const del_key *keys, long n, long k)
{
	long lo = k - 1, hi = k;
	while (lo > 0 && del_cmp_health(&keys[lo - 1], &keys[k]) == 0)
		lo--;
	while (hi + 1 < n && del_cmp_health(&keys[hi + 1], &keys[k]) == 0)
		hi++;
	return hi - lo + 1;
}

void pk_apply_deletion_order(pk_apply *a, pk_applied *o, pk_pod **pods, long n, long k)
{
	if (n < 2)
		return;
	static const char anywhere[] = "";
	pk_pair_map on_node;
	pk_pair_map_init(&on_node);
	for (long i = 0; i < n; i++)
		pk_pair_map_add(&on_node, pods[i]->node_name, anywhere, 1);
	del_key *keys = pk_xmalloc(sizeof *keys * (size_t)n);
	for (long i = 0; i < n; i++)
		keys[i] = (del_key){ pods[i], pk_pair_map_get(&on_node, pods[i]->node_name, anywhere),
		                     pk_pg_pod_ready(a->g, pods[i]), a->s->now };
	qsort(keys, (size_t)n, sizeof *keys, del_cmp);
	for (long i = 0; i < n; i++)
		pods[i] = keys[i].pod;
	if (k > 0 && k < n && del_cmp_health(&keys[k - 1], &keys[k]) == 0)
		pk_applied_warn(o, "which of %ld equally healthy pods to delete was decided by co-location and creation "
		                   "time: pod-deletion-cost annotations, ready times and restart counts are not read "
		                   "from the snapshot, and the ReplicaSet controller orders by them first",
		                tied_run(keys, n, k));
	free(keys);
	pk_pair_map_free(&on_node);
}

/* ---- PriorityClass --------------------------------------------------------------------- */

static void apply_priorityclass(pk_apply *a, pk_applied *o, const cJSON *obj)
{
	pk_pclass_set *cs = &a->s->classes;
	int64_t value = 0;
	pk_int64(obj, "value", &value);
	const pk_pclass *old = pk_pclass_find(cs, o->name);
	const pk_pclass *def = pk_pclass_default(cs);
	bool want_default = pk_bool(obj, "globalDefault");
	if (want_default && def && strcmp(def->name, o->name) != 0) {
		pk_applied_reject(o, "PriorityClass %s is already marked as default. Only one default can exist", def->name);
		return;
	}
	if (old && !old->builtin && old->value != value) {
		long users = 0;
		for (long i = 0; i < a->s->npods; i++)
			users += strcmp(a->s->pods[i]->class_name, o->name) == 0 && !pk_pod_is_terminal(a->s->pods[i]);
		pk_applied_reject(o, "value: Forbidden: may not be changed in an update (%d -> %lld). A pod's priority "
		                     "is resolved when it is admitted: the %ld pod(s) of this class keep %d whatever "
		                     "becomes of the class; to give new pods %lld, delete the class and create it again",
		                  (int)old->value, (long long)value, users, (int)old->value, (long long)value);
		return;
	}
	pk_preemption_policy pol = PK_PREEMPT_LOWER;
	pk_parse_preemption_policy(pk_str(obj, "preemptionPolicy"), &pol);
	if (old && !old->builtin && old->policy != pol) {
		pk_applied_reject(o, "preemptionPolicy: Invalid value: \"%s\": field is immutable",
		                  pk_preemption_policy_name(pol));
		return;
	}
	if (!old && !pk_is_system_class_name(o->name) && value > PK_HIGHEST_USER_PRIORITY) {
		pk_applied_reject(o, "value: Invalid value: %lld: must be no greater than %d", (long long)value,
		                  PK_HIGHEST_USER_PRIORITY);
		return;
	}
	bool was_default = old && old->global_default;
	if (pk_pclass_set_add(cs, obj) < 0) {
		pk_applied_reject(o, old && old->builtin ? "system classes cannot be changed"
		                                         : "value or preemptionPolicy is not valid");
		return;
	}
	if (!old) {
		snprintf(o->detail, sizeof o->detail, "value %lld%s", (long long)value,
		         want_default ? ", the global default" : "");
	} else if (was_default != want_default) {
		o->action = PK_APPLY_UPDATE;
		snprintf(o->detail, sizeof o->detail, "globalDefault %s -> %s: pods admitted from now on without a "
		         "class %s; pods that run keep theirs", was_default ? "true" : "false",
		         want_default ? "true" : "false", want_default ? "get it" : "no longer get it");
	} else {
		o->action = PK_APPLY_UNCHANGED;
	}
}

/* ---- PodGroup and Workload ---------------------------------------------------------------- */

static const char *group_workload_ref(const cJSON *spec)
{
	const char *wl = pk_str(spec, "podGroupTemplateRef.workload.workloadName");
	return wl ? wl : pk_str(spec, "workloadRef.workloadName");
}

static bool workload_exists(const pk_apply *a, const char *ns, const char *name)
{
	const cJSON *w;
	cJSON_ArrayForEach(w, a->g->workloads) {
		const char *wns = pk_namespace(w);
		if (strcmp(pk_name(w), name) == 0 && strcmp(*wns ? wns : "default", ns) == 0)
			return true;
	}
	return false;
}

/* A copy of obj in the namespace o was given. */
static cJSON *in_namespace(const pk_applied *o, const cJSON *obj)
{
	cJSON *c = cJSON_Duplicate(obj, 1);
	cJSON *meta = cJSON_GetObjectItemCaseSensitive(c, "metadata");
	if (!cJSON_IsObject(meta))
		return c;
	cJSON_DeleteItemFromObject(meta, "namespace");
	cJSON_AddStringToObject(meta, "namespace", o->namespace_);
	return c;
}

static void apply_group(pk_apply *a, pk_applied *o, const cJSON *obj, bool workload)
{
	if (workload ? workload_exists(a, o->namespace_, o->name) : pk_pg_find(a->g, o->namespace_, o->name) != NULL) {
		o->action = PK_APPLY_UNCHANGED;
		pk_applied_warn(o, "the snapshot has a %s of this name: it is kept as it is (its fields are immutable "
		                   "but for a gang's minCount, whose change is not played)", o->kind);
		return;
	}
	const cJSON *spec = pk_get(obj, "spec");
	const char *wl = workload ? NULL : group_workload_ref(spec);
	if (wl && !workload_exists(a, o->namespace_, wl)) {
		pk_applied_reject(o, "PodGroup rejected: Workload \"%s\" not found", wl);
		return;
	}
	const char *cls = pk_str(spec, "priorityClassName");
	if (!workload && cls && *cls && !pk_pclass_find(&a->s->classes, cls)) {
		pk_applied_reject(o, "no PriorityClass with name %s was found", cls);
		return;
	}
	cJSON *c = in_namespace(o, obj);
	bool rejected;
	char err[512] = "";
	pk_pg_set_add(a->g, a->s, c, &rejected, err, sizeof err);
	cJSON_Delete(c);
	if (rejected)
		pk_applied_reject(o, "%s", err);
}

/* ---- Pod -------------------------------------------------------------------------------- */

static const pk_pod *snapshot_pod(const pk_apply *a, const char *ns, const char *name)
{
	for (long i = 0; i < a->s->npods; i++) {
		const pk_pod *p = a->s->pods[i];
		if (!p->shadowed && !p->terminating && strcmp(p->name, name) == 0 && strcmp(p->namespace_, ns) == 0)
			return p;
	}
	return NULL;
}

/* A pod that names its node: the kubelet of that node runs it if it fits;
 * the scheduler never sees it. */
static void bind_by_name(pk_apply *a, pk_applied *o, pk_pod *p, const char *node)
{
	pk_nodeinfo *ni = pk_snapshot_node(a->s, node);
	const char *why = "spec.nodeName names a node that is not in the input";
	if (ni) {
		/* the kubelet's admission runs no PreFilter plugin: a cycle without state */
		pk_cycle c;
		pk_cycle_open_bare(&c, a->s, NULL);
		pk_status st = pk_run_filters(&c, p, ni);
		pk_cycle_close(&c);
		if (st.code == PK_CODE_SUCCESS) {
			pk_snapshot_bind(a->s, p, node);
			o->placed++;
			return;
		}
		why = st.nreasons ? st.reasons[0] : "the kubelet would not admit it";
	}
	o->unschedulable++;
	pk_applied_add_reason(a, o, why);
}

static void apply_pod(pk_apply *a, pk_applied *o, const cJSON *obj)
{
	if (!*pk_name(obj)) {
		pk_applied_reject(o, "metadata.name is required: kubectl apply cannot use metadata.generateName "
		                     "(that is for kubectl create)");
		return;
	}
	if (snapshot_pod(a, o->namespace_, o->name)) {
		o->action = PK_APPLY_UNCHANGED;
		pk_applied_warn(o, "the snapshot has a pod of this name: kubectl apply updates it in place, and the "
		                   "apiserver refuses changes to its scheduling fields; nothing to schedule");
		return;
	}
	cJSON *spec = cJSON_Duplicate(pk_get(obj, "spec"), 1);
	const char *node = pk_str(spec, "nodeName");
	char *pinned = NULL;
	if (node && *node && cJSON_IsObject(pk_get(obj, "status"))) {
		pk_applied_warn(o, "it carries a status (a copy of a pod that ran, as kubectl get -o yaml gives it): "
		                   "applied as a new pod of the same spec, without spec.nodeName %s and its status",
		                node);
		cJSON_DeleteItemFromObject(spec, "nodeName");
	} else if (node && *node) {
		pinned = pk_xstrdup(node);
		pk_applied_warn(o, "spec.nodeName %s: the scheduler never sees it and nothing is preempted for it; the "
		                   "kubelet of that node runs it if it fits", node);
		cJSON_DeleteItemFromObject(spec, "nodeName");
	}
	pk_pod *t = pk_apply_template(a, o, obj, spec);
	cJSON_Delete(spec);
	if (t) {
		o->prefix = o->name;
		pk_pod *p = pk_apply_new_pod(a, o, t, o->name, NULL, NULL);
		if (pinned)
			bind_by_name(a, o, p, pinned);
		else
			pk_sim_enqueue(a->m, p, false);
	}
	free(pinned);
}

/* ---- the batch --------------------------------------------------------------------------- */

static bool kubernetes_api(const char *api, const char *group)
{
	if (!*api)
		return true;
	if (!*group)
		return strcmp(api, "v1") == 0;
	size_t n = strlen(group);
	return strncmp(api, group, n) == 0 && api[n] == '/';
}

/* PriorityClasses, then Workloads, then PodGroups, each before what names
 * them; then the rest (3). */
static int pass_of(const char *kind, const char *api)
{
	static const char *const first[] = { "PriorityClass", "Workload", "PodGroup" };
	for (int i = 0; i < 3; i++)
		if (strcmp(kind, first[i]) == 0 && kubernetes_api(api, "scheduling.k8s.io"))
			return i;
	return 3;
}

static bool workload_api(const char *api)
{
	return kubernetes_api(api, "") || kubernetes_api(api, "apps") || kubernetes_api(api, "batch") ||
	       kubernetes_api(api, "extensions");
}

void pk_apply_run(pk_apply *a, cJSON *const *objs, const char *const *where, long n, pk_apply_verdict *verdict)
{
	reserve(a, n + 2);
	long base = a->n;
	for (long i = 0; i < n; i++) {
		pk_applied *o = applied_new(a, objs[i], where[i]);
		verdict[i] = PK_APPLY_USED;
		bool modelled = pass_of(o->kind, o->api_version) < 3 || pk_pg_is_controller_kind(o->kind);
		if (modelled && !*pk_name(objs[i]))
			pk_applied_reject(o, "metadata.name is required");
	}
	for (int pass = 0; pass < 3; pass++)
		for (long i = 0; i < n; i++) {
			pk_applied *o = &a->objs[base + i];
			if (o->action == PK_APPLY_REJECTED || pass_of(o->kind, o->api_version) != pass)
				continue;
			if (pass == 0)
				apply_priorityclass(a, o, objs[i]);
			else
				apply_group(a, o, objs[i], pass == 1);
		}
	pk_pg_set_finish(a->g, a->s); /* the new groups' priorities, with the new classes */
	for (long i = 0; i < n; i++) {
		pk_applied *o = &a->objs[base + i];
		if (o->action == PK_APPLY_REJECTED || pass_of(o->kind, o->api_version) < 3)
			continue;
		if (strcmp(o->kind, "Pod") == 0 && kubernetes_api(o->api_version, ""))
			apply_pod(a, o, objs[i]);
		else if (!workload_api(o->api_version) || !pk_apply_workload(a, o, objs[i]))
			verdict[i] = PK_APPLY_SKIPPED;
	}
	for (long i = 0; i < n; i++) {
		pk_applied *o = &a->objs[base + i];
		if (o->action == PK_APPLY_REJECTED)
			verdict[i] = PK_APPLY_REJECTED_OBJ;
		o->skip = verdict[i] == PK_APPLY_SKIPPED;
	}
}

/* kubectl's names of the kinds it scales, with a Job (its parallelism). */
static const char *scalable_kind(const char *name)
{
	static const struct { const char *names, *kind; } kinds[] = {
		{ " deploy deployment deployments ", "Deployment" },
		{ " rs replicaset replicasets ", "ReplicaSet" },
		{ " sts statefulset statefulsets ", "StatefulSet" },
		{ " rc replicationcontroller replicationcontrollers ", "ReplicationController" },
		{ " job jobs ", "Job" },
	};
	char key[80];
	size_t len = strcspn(name, "."); /* deployment.apps, deployments.v1.apps */
	if (len + 3 > sizeof key)
		return NULL;
	key[0] = ' ';
	for (size_t i = 0; i < len; i++)
		key[i + 1] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
	key[len + 1] = ' ';
	key[len + 2] = '\0';
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strstr(kinds[i].names, key))
			return kinds[i].kind;
	return NULL;
}

int pk_apply_scale(pk_apply *a, const char *ref, const char *ns, long replicas, char *err, size_t errsize)
{
	char kind[256], part2[256], part3[256];
	int nparts = sscanf(ref, "%255[^/]/%255[^/]/%255s", kind, part2, part3);
	if (nparts < 2) {
		snprintf(err, errsize, "--scale %s: want KIND/NAME (with -n NAMESPACE) or KIND/NAMESPACE/NAME", ref);
		return -1;
	}
	const char *k = scalable_kind(kind);
	if (!k) {
		snprintf(err, errsize, "--scale %s: cannot scale a %s (deployments, replicasets, statefulsets, "
		                       "replicationcontrollers, and a Job's parallelism)", ref, kind);
		return -1;
	}
	const char *space = nparts == 3 ? part2 : ns && *ns ? ns : "default";
	const char *name = nparts == 3 ? part3 : part2;
	const cJSON *live = pk_apply_find_live(a, k, space, name);
	if (!live) {
		snprintf(err, errsize, "--scale %s: no such object in the input (no %s %s/%s)", ref, k, space, name);
		return -1;
	}
	cJSON *c = cJSON_Duplicate(live, 1);
	cJSON *spec = cJSON_GetObjectItemCaseSensitive(c, "spec");
	const char *field = strcmp(k, "Job") == 0 ? "parallelism" : "replicas";
	cJSON_DeleteItemFromObject(spec, field);
	cJSON_AddNumberToObject(spec, field, (double)replicas);
	cJSON *meta = cJSON_GetObjectItemCaseSensitive(c, "metadata");
	cJSON_DeleteItemFromObject(meta, "namespace");
	cJSON_AddStringToObject(meta, "namespace", space);
	reserve(a, 1);
	pk_applied *o = applied_new(a, c, "--scale");
	o->action = PK_APPLY_SCALE;
	pk_apply_workload(a, o, c);
	cJSON_Delete(c);
	return 0;
}

const char *pk_apply_unused_text(char *buf, size_t size, long n, const char *kind, const char *mode)
{
	snprintf(buf, size, "%ld %s object(s) not used: %s does not model them", n, kind, mode);
	return buf;
}

const pk_applied *pk_apply_owner(const pk_apply *a, const pk_pod *p)
{
	long i = pk_pair_map_get(&a->pod_origin, p->namespace_, p->name);
	return i > 0 && i <= a->n ? &a->objs[i - 1] : NULL;
}
