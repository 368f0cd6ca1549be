/* PodGroup objects, Workload templates, pod membership and the release's
 * caveats; see podgroup.h. */
#include "sched/engine/cluster/podgroup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "k8s/gates.h"
#include "k8s/json.h"
#include "k8s/release.h"
#include "base/alloc.h"

/* ---- the release ---------------------------------------------------------- */

static bool has_composite(const pk_pg_set *g)
{
	for (long i = 0; i < g->n; i++)
		if (g->groups[i].composite)
			return true;
	return false;
}

static const char *release_caveat(const pk_pg_set *g)
{
	const pk_release_profile *r = g->release;
	if (r->gang_scheduling_modelled && !r->composite_pod_groups && has_composite(g))
		return !r->composite_pod_group_served
		               ? "Kubernetes 1.36 has no CompositePodGroup (scheduling.k8s.io/v1alpha3, 1.37): the "
		                 "input's CompositePodGroups are not read, each PodGroup under one is scheduled and "
		                 "preempted on its own"
		               : "CompositePodGroup=false: the input's CompositePodGroups are not read, each PodGroup "
		                 "under one is scheduled and preempted on its own, as a scheduler with the gate off does";
	if (r->gang_scheduling_modelled || g->n == 0)
		return NULL;
	return "Kubernetes 1.35's gang scheduling (the GangScheduling plugin holding members at Permit, "
	       "scheduling.k8s.io/v1alpha1 Workloads) is not modelled: the PodGroups of the input are "
	       "answered for as Kubernetes 1.36 answers them";
}

const char *pk_pg_release_caveat(pk_pg_set *g)
{
	const char *c = release_caveat(g);
	size_t w = (size_t)snprintf(g->caveat, sizeof g->caveat, "%s", c ? c : "");
	for (int i = 0; i < g->nunserved && w < sizeof g->caveat; i++) {
		char served[256];
		pk_release_served_list(g->release->minor, "scheduling.k8s.io", g->unserved[i].kind, served, sizeof served);
		w += (size_t)snprintf(g->caveat + w, sizeof g->caveat - w,
		                      "%s%ld %s object(s) are scheduling.k8s.io/%s, which Kubernetes 1.%d does not serve "
		                      "(it serves %s): its apiserver would have none of them (no matches for kind \"%s\" "
		                      "in version \"scheduling.k8s.io/%s\"); they are read as if it served them",
		                      w ? "; " : "", g->unserved[i].n, g->unserved[i].kind, g->unserved[i].version,
		                      g->release->minor, *served ? served : "no version of it", g->unserved[i].kind,
		                      g->unserved[i].version);
	}
	return *g->caveat ? g->caveat : NULL;
}

/* The versions of the scheduling.k8s.io workload kinds, oldest first. */
static const char *const versions[] = { "v1alpha1", "v1alpha2", "v1alpha3", "v1beta1", "v1" };
enum { NVERSIONS = sizeof versions / sizeof versions[0] };

static int version_rank(const char *v)
{
	for (int i = 0; i < NVERSIONS; i++)
		if (strcmp(v, versions[i]) == 0)
			return i;
	return -1;
}

/* An object of kind in apiVersion api: counted when the release answered
 * for serves only older versions of the kind, or none (an older version
 * than it serves is its upgrade's business: 1.37's release note asks to
 * remove v1alpha2 objects first). */
static void note_version(pk_pg_set *g, const char *kind, const char *api)
{
	static const char *const kinds[] = { "PodGroup", "CompositePodGroup", "Workload" };
	const char *slash = strchr(api, '/');
	int rank = version_rank(slash ? slash + 1 : "");
	if (rank < 0)
		return;
	for (int r = rank; r < NVERSIONS; r++)
		if (pk_release_serves(g->release->minor, "scheduling.k8s.io", kind, versions[r]))
			return;
	const char *k8s_kind = NULL; /* a static name: the object's text is not kept */
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(kind, kinds[i]) == 0)
			k8s_kind = kinds[i];
	int k = 0;
	while (k < g->nunserved && !(g->unserved[k].kind == k8s_kind && g->unserved[k].version == versions[rank]))
		k++;
	if (!k8s_kind || (k == g->nunserved && k == (int)(sizeof g->unserved / sizeof g->unserved[0])))
		return;
	if (k == g->nunserved) {
		g->unserved[k].kind = k8s_kind;
		g->unserved[k].version = versions[rank];
		g->unserved[k].n = 0;
		g->nunserved++;
	}
	g->unserved[k].n++;
}

/* ---- the set and its (namespace, name) index -------------------------------- */

typedef struct pg_index {
	long *slots;   /* group index + 1; 0 = empty */
	size_t cap;
} pg_index;

static size_t key_hash(const char *ns, const char *name)
{
	uintptr_t x = (uintptr_t)ns * 0x9e3779b97f4a7c15ull ^ (uintptr_t)name;
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 29;
	return (size_t)x;
}

static void index_insert(pg_index *ix, const pk_podgroup *groups, long i)
{
	size_t j = key_hash(groups[i].namespace_, groups[i].name) & (ix->cap - 1);
	while (ix->slots[j])
		j = (j + 1) & (ix->cap - 1);
	ix->slots[j] = i + 1;
}

static void index_rebuild(pk_pg_set *g)
{
	pg_index *ix = g->index;
	free(ix->slots);
	ix->cap = 16;
	while (ix->cap < (size_t)g->n * 2 + 2)
		ix->cap *= 2;
	ix->slots = pk_xcalloc(ix->cap, sizeof *ix->slots);
	for (long i = 0; i < g->n; i++)
		index_insert(ix, g->groups, i);
}

void pk_pg_set_init(pk_pg_set *g, const pk_release_profile *release)
{
	memset(g, 0, sizeof *g);
	g->index = pk_xcalloc(1, sizeof(pg_index));
	g->workloads = cJSON_CreateArray();
	g->templates = cJSON_CreateArray();
	if (!g->workloads || !g->templates)
		pk_out_of_memory();
	g->release = release;
	index_rebuild(g);
}

void pk_pg_set_free(pk_pg_set *g)
{
	for (long i = 0; i < g->n; i++)
		free(g->groups[i].bound);
	free(g->groups);
	free(g->pod_group_name);
	free(g->pod_group);
	free(g->pod_owner_kind);
	free(g->pod_owner_name);
	free(g->pod_ready);
	cJSON_Delete(g->workloads);
	cJSON_Delete(g->templates);
	if (g->index)
		free(((pg_index *)g->index)->slots);
	free(g->index);
	memset(g, 0, sizeof *g);
}

pk_podgroup *pk_pg_find(const pk_pg_set *g, const char *ns, const char *name)
{
	const pg_index *ix = g->index;
	size_t j = key_hash(ns, name) & (ix->cap - 1);
	while (ix->slots[j]) {
		pk_podgroup *pg = &g->groups[ix->slots[j] - 1];
		if (pg->namespace_ == ns && pg->name == name)
			return pg;
		j = (j + 1) & (ix->cap - 1);
	}
	return NULL;
}

/* The group (namespace, name), created empty if new. Names are interned. */
static pk_podgroup *group_get(pk_pg_set *g, const char *ns, const char *name, bool *created)
{
	pk_podgroup *pg = pk_pg_find(g, ns, name);
	*created = false;
	if (pg)
		return pg;
	size_t cap = (size_t)g->cap;
	g->groups = pk_grow(g->groups, &cap, (size_t)g->n + 1, sizeof *g->groups);
	g->cap = (long)cap;
	pg = &g->groups[g->n];
	memset(pg, 0, sizeof *pg);
	pg->namespace_ = ns;
	pg->name = name;
	pg->uid = "";
	pg->parent = "";
	pg->class_name = "";
	pg->workload = "";
	pg->template_ = "";
	g->n++;
	if ((size_t)g->n * 2 > ((pg_index *)g->index)->cap)
		index_rebuild(g);
	else
		index_insert(g->index, g->groups, g->n - 1);
	*created = true;
	return pg;
}

/* ---- decoding ---------------------------------------------------------------- */

bool pk_pg_decode_disruption_mode(const cJSON *m, bool *whole)
{
	if (cJSON_IsString(m)) {
		*whole = strcmp(m->valuestring, "PodGroup") == 0;
		return true;
	}
	if (cJSON_IsObject(m)) {
		*whole = pk_get(m, "all") != NULL;
		return true;
	}
	return false;
}

static bool decode_sched_policy(const cJSON *sp, pk_pg_policy *policy, int32_t *min_count)
{
	if (!cJSON_IsObject(sp))
		return false;
	const cJSON *gang = pk_get(sp, "gang");
	if (cJSON_IsObject(gang)) {
		int64_t mc = 1;
		if (!pk_int64(gang, "minCount", &mc)) /* a CompositePodGroup's gang */
			pk_int64(gang, "minGroupCount", &mc);
		*policy = PK_PG_POLICY_GANG;
		*min_count = (int32_t)(mc < 1 ? 1 : mc > INT32_MAX ? INT32_MAX : mc);
		return true;
	}
	if (pk_get(sp, "basic")) {
		*policy = PK_PG_POLICY_BASIC;
		return true;
	}
	return false;
}

/* Fields a PodGroup spec or a Workload template can carry. */
static void decode_group_fields(pk_podgroup *pg, pk_strtab *strs, const cJSON *spec, bool fill_only)
{
	int64_t prio;
	if ((!fill_only || !pg->has_priority) && pk_int64(spec, "priority", &prio) && prio >= INT32_MIN &&
	    prio <= INT32_MAX) {
		pg->priority = (int32_t)prio;
		pg->has_priority = true;
	}
	const char *cls = pk_str(spec, "priorityClassName");
	if (cls && (!fill_only || !*pg->class_name))
		pg->class_name = pk_intern(strs, cls);
	if (!fill_only || !pg->has_mode)
		pg->has_mode = pk_pg_decode_disruption_mode(pk_get(spec, "disruptionMode"), &pg->disrupt_whole) ||
		               pg->has_mode;
	const char *pol = pk_str(spec, "preemptionPolicy");
	if (pol && (!fill_only || !pg->has_policy_field)) {
		pg->policy_never = strcmp(pol, "Never") == 0;
		pg->has_policy_field = true;
	}
	if (!fill_only || !pg->has_sched_policy)
		pg->has_sched_policy = decode_sched_policy(pk_get(spec, "schedulingPolicy"), &pg->policy,
		                                           &pg->min_count) || pg->has_sched_policy;
	const cJSON *sc = pk_get(spec, "schedulingConstraints");
	if (cJSON_IsObject(sc) && sc->child)
		pg->has_constraints = true;
}

/* spec.resourceClaims of a PodGroup; an entry with neither reference is
 * kept with both "" (resourceclaim.Name's ErrAPIUnsupported). */
static void decode_group_claims(pk_podgroup *pg, pk_snapshot *s, const cJSON *spec)
{
	const cJSON *arr = pk_get(spec, "resourceClaims");
	int n = cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0;
	if (!n)
		return;
	pk_pg_claim *v = pk_arena_alloc(&s->arena, sizeof *v * (size_t)n);
	int k = 0;
	const cJSON *c;
	cJSON_ArrayForEach(c, arr) {
		v[k].name = pk_intern(s->strs, pk_str_or(c, "name", ""));
		v[k].claim = pk_intern(s->strs, pk_str_or(c, "resourceClaimName", ""));
		v[k].template_name = pk_intern(s->strs, pk_str_or(c, "resourceClaimTemplateName", ""));
		k++;
	}
	pg->claims = v;
	pg->nclaims = k;
}

static bool add_podgroup(pk_pg_set *g, pk_snapshot *s, const cJSON *obj, char *err, size_t errsize)
{
	const char *name = pk_name(obj);
	if (!*name) {
		snprintf(err, errsize, "%s without metadata.name", pk_kind(obj));
		return false;
	}
	const cJSON *prio = pk_getp(obj, "spec.priority");
	int64_t pv;
	if (prio && !cJSON_IsNull(prio) && (!pk_num_int64(prio, &pv) || pv < INT32_MIN || pv > INT32_MAX)) {
		snprintf(err, errsize, "%s %s: spec.priority is not an int32", pk_kind(obj), name);
		return false;
	}
	const char *ns = pk_namespace(obj);
	bool created;
	pk_podgroup *pg = group_get(g, pk_intern(s->strs, *ns ? ns : "default"), pk_intern(s->strs, name), &created);
	if (!created && !pg->synthesized) {
		free(pg->bound);
		const char *keep_ns = pg->namespace_, *keep_name = pg->name;
		memset(pg, 0, sizeof *pg);
		pg->namespace_ = keep_ns;
		pg->name = keep_name;
		pg->class_name = pg->workload = pg->template_ = "";
	}
	pg->synthesized = false;
	pg->composite = strcmp(pk_kind(obj), "CompositePodGroup") == 0;
	const char *parent = pk_str(pk_get(obj, "spec"), "parentCompositePodGroupName");
	pg->parent = pk_intern(s->strs, parent ? parent : "");
	pg->uid = pk_intern(s->strs, pk_uid(obj));
	const char *ts = pk_str(obj, "metadata.creationTimestamp");
	if (ts)
		pk_parse_time(ts, &pg->created);
	const cJSON *spec = pk_get(obj, "spec");
	decode_group_fields(pg, s->strs, spec, false);
	decode_group_claims(pg, s, spec);
	/* v1alpha2: spec.podGroupTemplateRef.workload; v1alpha3: spec.workloadRef */
	const char *wl = pk_str(spec, "podGroupTemplateRef.workload.workloadName");
	const char *tpl = pk_str(spec, "podGroupTemplateRef.workload.podGroupTemplateName");
	if (!wl) {
		wl = pk_str(spec, "workloadRef.workloadName");
		tpl = pk_str(spec, "workloadRef.templateName");
	}
	pg->workload = pk_intern(s->strs, wl ? wl : "");
	pg->template_ = pk_intern(s->strs, tpl ? tpl : "");
	return true;
}

bool pk_pg_is_controller_kind(const char *kind)
{
	static const char *const kinds[] = { "Deployment", "ReplicaSet", "StatefulSet", "Job", "DaemonSet",
	                                     "ReplicationController", "CronJob" };
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(kind, kinds[i]) == 0)
			return true;
	return false;
}

bool pk_pg_set_add(pk_pg_set *g, pk_snapshot *s, const cJSON *obj, bool *rejected, char *err, size_t errsize)
{
	const char *kind = pk_kind(obj);
	const char *api = pk_api_version(obj);
	/* Volcano's and other projects' PodGroups share the kind, not the group. */
	bool k8s_scheduling = !*api || strncmp(api, "scheduling.k8s.io/", 18) == 0;
	*rejected = false;
	if ((strcmp(kind, "PodGroup") == 0 || strcmp(kind, "CompositePodGroup") == 0) && k8s_scheduling) {
		*rejected = !add_podgroup(g, s, obj, err, errsize);
		if (!*rejected)
			note_version(g, kind, api);
		return true;
	}
	if (strcmp(kind, "Workload") == 0 && k8s_scheduling) {
		note_version(g, kind, api);
		cJSON_AddItemToArray(g->workloads, cJSON_Duplicate(obj, 1));
		return true;
	}
	bool workload_api = !*api || strcmp(api, "v1") == 0 || strncmp(api, "apps/", 5) == 0 || strncmp(api, "batch/", 6) == 0;
	if (pk_pg_is_controller_kind(kind) && workload_api) {
		if (!cJSON_IsObject(pk_getp(obj, "spec.template")) && !cJSON_IsObject(pk_getp(obj, "spec.jobTemplate.spec.template"))) {
			snprintf(err, errsize, "%s %s has no pod template", kind, pk_name(obj));
			*rejected = true;
			return true;
		}
		cJSON_AddItemToArray(g->templates, cJSON_Duplicate(obj, 1));
		return true;
	}
	return false;
}

static void grow_pod_arrays(pk_pg_set *g, long need)
{
	if (need <= g->podcap)
		return;
	size_t cap = (size_t)g->podcap; /* five parallel arrays */
	g->pod_group_name = pk_grow(g->pod_group_name, &cap, (size_t)need, sizeof *g->pod_group_name);
	g->pod_group = pk_xrealloc(g->pod_group, cap, sizeof *g->pod_group);
	g->pod_owner_kind = pk_xrealloc(g->pod_owner_kind, cap, sizeof *g->pod_owner_kind);
	g->pod_owner_name = pk_xrealloc(g->pod_owner_name, cap, sizeof *g->pod_owner_name);
	g->pod_ready = pk_xrealloc(g->pod_ready, cap, sizeof *g->pod_ready);
	g->podcap = (long)cap;
}

/* Entries [from, to) for pods that were not noted: the group their
 * spec.schedulingGroup names (snapshot pods), no controller. */
static void clear_pod_entries(pk_pg_set *g, pk_snapshot *s, long from, long to)
{
	for (long k = from; k < to; k++) {
		const char *grp = k < s->npods && g->release->generic_workload ? s->pods[k]->con->pod_group : NULL;
		g->pod_group_name[k] = pk_intern(s->strs, grp ? grp : "");
		g->pod_group[k] = -1;
		g->pod_owner_kind[k] = NULL;
		g->pod_owner_name[k] = NULL;
		g->pod_ready[k] = 0;
	}
}

/* The Ready condition (podutil.IsPodReady when 1); -1 when there is none. */
static signed char pod_is_ready(const cJSON *pod)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, pk_getp(pod, "status.conditions"))
		if (strcmp(pk_str_or(c, "type", ""), "Ready") == 0)
			return strcmp(pk_str_or(c, "status", ""), "True") == 0;
	return -1;
}

/* The group a pod names: spec.schedulingGroup.podGroupName, or for the older
 * v1alpha1 form spec.workloadRef{name, podGroup, podGroupReplicaKey} a group
 * synthesized from the Workload ("<workload>-<podGroup>[-<replicaKey>]"). */
static const char *synthesized_group(pk_pg_set *g, pk_snapshot *s, const pk_pod *p, const char *wl, const char *grp,
                                     const char *key);

static const char *pod_group_name(pk_pg_set *g, pk_snapshot *s, const pk_pod *p, const cJSON *spec)
{
	const char *n = pk_str(spec, "schedulingGroup.podGroupName");
	if (n && *n)
		return pk_intern(s->strs, n);
	const char *wl = pk_str(spec, "workloadRef.name");
	const char *grp = pk_str(spec, "workloadRef.podGroup");
	if (!wl || !grp || !g->release->generic_workload)
		return pk_intern(s->strs, "");
	return synthesized_group(g, s, p, wl, grp, pk_str(spec, "workloadRef.podGroupReplicaKey"));
}

static void apply_template(pk_pg_set *g, pk_snapshot *s, pk_podgroup *pg);

const char *pk_pg_group_name(pk_pg_set *g, pk_snapshot *s, const pk_pod *p)
{
	if (*p->con->pod_group)
		return p->con->pod_group;
	if (!*p->con->workload_name || !*p->con->workload_pod_group || !g->release->generic_workload)
		return pk_intern(s->strs, "");
	const char *name = synthesized_group(g, s, p, p->con->workload_name, p->con->workload_pod_group, NULL);
	/* a pod created during a run: its group takes the Workload's policy now */
	apply_template(g, s, pk_pg_find(g, p->namespace_, name));
	return name;
}

static const char *synthesized_group(pk_pg_set *g, pk_snapshot *s, const pk_pod *p, const char *wl, const char *grp,
                                     const char *key)
{
	char buf[800];
	snprintf(buf, sizeof buf, "%s-%s%s%s", wl, grp, key && *key ? "-" : "", key ? key : "");
	const char *name = pk_intern(s->strs, buf);
	bool created;
	pk_podgroup *pg = group_get(g, p->namespace_, name, &created);
	if (created) {
		pg->synthesized = true;
		pg->workload = pk_intern(s->strs, wl);
		pg->template_ = pk_intern(s->strs, grp);
	}
	return name;
}

void pk_pg_note_pod(pk_pg_set *g, pk_snapshot *s, const cJSON *pod)
{
	if (s->npods <= 0)
		return;
	long i = s->npods - 1;
	grow_pod_arrays(g, i + 1);
	clear_pod_entries(g, s, g->npods, i); /* pods added without a note */
	const pk_pod *p = s->pods[i];
	g->pod_group_name[i] = g->release->generic_workload ? pod_group_name(g, s, p, pk_get(pod, "spec"))
	                                                 : pk_intern(s->strs, "");
	g->pod_group[i] = -1;
	/* the controller ownerReference, as the pod's decoding found it */
	bool owned = p->controller_kind && *p->controller_kind;
	g->pod_owner_kind[i] = owned ? p->controller_kind : NULL;
	g->pod_owner_name[i] = owned ? p->controller_name : NULL;
	g->pod_ready[i] = pod_is_ready(pod);
	g->npods = i + 1;
}

void pk_pg_add_pod(pk_pg_set *g, pk_snapshot *s, pk_pod *p, const char *group, const char *owner_kind,
                   const char *owner_name)
{
	long i = g->npods;
	grow_pod_arrays(g, i + 1);
	clear_pod_entries(g, s, i, i + 1);
	if (g->release->generic_workload && group && *group) {
		g->pod_group_name[i] = pk_intern(s->strs, group);
		pk_podgroup *pg = pk_pg_find(g, p->namespace_, g->pod_group_name[i]);
		g->pod_group[i] = pg ? pg - g->groups : -1;
		if (pg && pg->synthesized && !pg->has_priority) { /* v1alpha1 has no group priority */
			pg->priority = p->priority;
			pg->has_priority = true;
		}
	}
	g->pod_owner_kind[i] = owner_kind ? pk_intern(s->strs, owner_kind) : NULL;
	g->pod_owner_name[i] = owner_name ? pk_intern(s->strs, owner_name) : NULL;
	if (owner_kind) { /* a report names the object that made the pod */
		p->controller_kind = g->pod_owner_kind[i];
		p->controller_name = g->pod_owner_name[i] ? g->pod_owner_name[i] : "";
		p->owner_trim = 0;
	}
	p->index = i;
	g->npods = i + 1;
}

bool pk_pg_pod_owner(const pk_pg_set *g, const pk_pod *p, const char **kind, const char **name)
{
	if (p->index < 0 || p->index >= g->npods || !g->pod_owner_kind[p->index])
		return false;
	*kind = g->pod_owner_kind[p->index];
	*name = g->pod_owner_name[p->index] ? g->pod_owner_name[p->index] : "";
	return true;
}

int pk_pg_pod_ready(const pk_pg_set *g, const pk_pod *p)
{
	return p->index >= 0 && p->index < g->npods ? g->pod_ready[p->index] : 0;
}

/* ---- finishing ------------------------------------------------------------------ */

static const cJSON *find_workload(const pk_pg_set *g, const char *ns, const char *name)
{
	const cJSON *w;
	cJSON_ArrayForEach(w, g->workloads) {
		const char *wns = pk_namespace(w);
		if (strcmp(pk_name(w), name) == 0 && strcmp(*wns ? wns : "default", ns) == 0)
			return w;
	}
	return NULL;
}

static const cJSON *find_named(const cJSON *arr, const char *name)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, arr)
		if (strcmp(pk_str_or(it, "name", ""), name) == 0)
			return it;
	return NULL;
}

/* Fill what the PodGroup left unset from its Workload template. */
static void apply_template(pk_pg_set *g, pk_snapshot *s, pk_podgroup *pg)
{
	if (!*pg->workload)
		return;
	const cJSON *w = find_workload(g, pg->namespace_, pg->workload);
	if (!w)
		return;
	const cJSON *spec = pk_get(w, "spec");
	if (pg->synthesized) { /* v1alpha1: spec.podGroups[].policy */
		const cJSON *grp = find_named(pk_get(spec, "podGroups"), pg->template_);
		const cJSON *pol = pk_get(grp, "policy");
		decode_sched_policy(pol, &pg->policy, &pg->min_count);
		pg->has_mode = pk_pg_decode_disruption_mode(pk_getp(pol, "gang.disruptionMode"), &pg->disrupt_whole);
		return;
	}
	const cJSON *tpl = find_named(pk_get(spec, "podGroupTemplates"), pg->template_);
	if (tpl) /* not resourceClaims: the scheduler reads the PodGroup's own (resourceclaim.Name) */
		decode_group_fields(pg, s->strs, tpl, true);
}

void pk_pg_add_bound(pk_podgroup *pg, pk_pod *p)
{
	size_t cap = (size_t)pg->boundcap;
	pg->bound = pk_grow(pg->bound, &cap, (size_t)pg->nbound + 1, sizeof *pg->bound);
	pg->boundcap = (int)cap;
	pg->bound[pg->nbound++] = p;
}

/* PodGroupPriority as admission sets it when the object does not carry it. */
static void resolve_group_priority(pk_snapshot *s, pk_podgroup *pg)
{
	cJSON *spec = cJSON_CreateObject();
	if (*pg->class_name)
		cJSON_AddStringToObject(spec, "priorityClassName", pg->class_name);
	pk_resolved_priority r = pk_resolve_priority(&s->classes, spec);
	cJSON_Delete(spec);
	pg->priority = r.value;
	if (!pg->has_policy_field)
		pg->policy_never = r.policy == PK_PREEMPT_NEVER;
}

void pk_pg_set_finish(pk_pg_set *g, pk_snapshot *s)
{
	grow_pod_arrays(g, s->npods + 1);
	if (g->npods < s->npods) {
		clear_pod_entries(g, s, g->npods, s->npods);
		g->npods = s->npods;
	}
	for (long i = g->nresolved; i < g->n; i++) {
		pk_podgroup *pg = &g->groups[i];
		apply_template(g, s, pg);
		if (!pg->has_priority && !pg->synthesized)
			resolve_group_priority(s, pg);
	}
	g->nresolved = g->n;
	/* link the pods not linked yet: all of them the first time, then those
	 * whose group has arrived since */
	for (long k = 0; k < g->npods; k++) {
		if (!*g->pod_group_name[k] || g->pod_group[k] >= 0)
			continue;
		pk_pod *p = k < s->npods ? s->pods[k] : NULL;
		if (!p)
			continue; /* created during a run: linked by pk_pg_add_pod */
		pk_podgroup *pg = pk_pg_find(g, p->namespace_, g->pod_group_name[k]);
		if (!pg)
			continue;
		g->pod_group[k] = pg - g->groups;
		if (pg->synthesized && !pg->has_priority) { /* v1alpha1 has no group priority */
			pg->priority = p->priority;
			pg->has_priority = true;
		}
		if (*p->node_name && !pk_pod_is_terminal(p) && pk_snapshot_node(s, p->node_name))
			pk_pg_add_bound(pg, p);
	}
	if (g->n > 0)
		s->pod_groups = g;
	if (g->n > 0 && g->release->groups_count_in_pod_preemption)
		s->victim_groups = g;
}

pk_podgroup *pk_pg_of_pod(const pk_pg_set *g, const pk_pod *p)
{
	if (p->index < 0 || p->index >= g->npods || g->pod_group[p->index] < 0)
		return NULL;
	return &g->groups[g->pod_group[p->index]];
}

bool pk_pg_pod_has_group(const pk_pg_set *g, const pk_pod *p)
{
	return p->index >= 0 && p->index < g->npods && *g->pod_group_name[p->index];
}

static const pk_podgroup *parent_of(const pk_pg_set *g, const pk_podgroup *pg);

/* Hierarchies are at most four deep (WorkloadMaxTreeDepth); the bound
 * keeps a cycle in a hand-written input from looping. */
enum { MAX_DEPTH = 8 };

const pk_podgroup *pk_pg_root(const pk_pg_set *g, const pk_podgroup *pg)
{
	for (int d = 0; pg && d < MAX_DEPTH; d++) {
		const pk_podgroup *up = parent_of(g, pg);
		if (!up)
			break;
		pg = up;
	}
	return pg;
}

pk_podgroup *pk_pg_scheduling_group(const pk_pg_set *g, const pk_pod *p)
{
	return (pk_podgroup *)pk_pg_root(g, pk_pg_of_pod(g, p));
}

int32_t pk_pg_pod_priority(const pk_pg_set *g, const pk_pod *p)
{
	const pk_podgroup *pg = pk_pg_scheduling_group(g, p);
	return pg ? pg->priority : p->priority;
}

int32_t pk_pg_victim_priority(const pk_pg_set *g, const pk_pod *p)
{
	return g->release->groups_count_in_pod_preemption ? pk_pg_pod_priority(g, p) : p->priority;
}

/* The parent of pg (a CompositePodGroup in the input), or NULL; NULL too
 * when the hierarchy is not honoured (gate off, or before 1.37), as
 * upstream's scheduler then has no CompositePodGroup lister. */
static const pk_podgroup *parent_of(const pk_pg_set *g, const pk_podgroup *pg)
{
	if (!g->release->composite_pod_groups || !*pg->parent)
		return NULL;
	const pk_podgroup *up = pk_pg_find(g, pg->namespace_, pg->parent);
	return up && up->composite ? up : NULL;
}

const pk_podgroup *pk_pg_parent(const pk_pg_set *g, const pk_podgroup *pg)
{
	return parent_of(g, pg);
}

const pk_podgroup *pk_pg_whole_group(const pk_pg_set *g, const pk_pod *p)
{
	const pk_podgroup *pg = pk_pg_of_pod(g, p), *whole = NULL;
	for (int d = 0; pg && d < MAX_DEPTH; d++, pg = parent_of(g, pg))
		if (pg->disrupt_whole)
			whole = pg;
	return whole;
}

static bool under(const pk_pg_set *g, const pk_podgroup *pg, const pk_podgroup *root)
{
	for (int d = 0; pg && d < MAX_DEPTH; d++, pg = parent_of(g, pg))
		if (pg == root)
			return true;
	return false;
}

static int present_of(const pk_snapshot *s, const pk_podgroup *pg, pk_pod **out, int n)
{
	for (int m = 0; m < pg->nbound; m++) {
		pk_pod *q = pg->bound[m];
		const pk_nodeinfo *qn = pk_snapshot_node(s, q->node_name);
		bool present = false;
		for (int t = 0; qn && t < qn->npods && !present; t++)
			present = qn->pods[t] == q;
		if (!present)
			continue;
		if (out)
			out[n] = q;
		n++;
	}
	return n;
}

int pk_pg_present_members(const pk_pg_set *g, const pk_snapshot *s, const pk_podgroup *pg, pk_pod **out)
{
	if (!pg->composite)
		return present_of(s, pg, out, 0);
	int n = 0;
	for (long i = 0; i < g->n; i++)
		if (!g->groups[i].composite && under(g, &g->groups[i], pg))
			n = present_of(s, &g->groups[i], out, n);
	return n;
}

int pk_pg_required(const pk_podgroup *pg, int nmembers)
{
	if (pg->policy == PK_PG_POLICY_GANG)
		return pg->min_count;
	return nmembers > 0 ? 1 : 0;
}

const char *pk_pg_missing_group(const pk_pg_set *g, pk_snapshot *s, const pk_pod *p, char *buf, size_t size)
{
	if (!g->release->generic_workload)
		return NULL;
	if (p->con->pod_group && *p->con->pod_group) {
		if (pk_pg_find(g, p->namespace_, pk_intern(s->strs, p->con->pod_group)))
			return NULL;
		snprintf(buf, size,
		         "PodGroup %s/%s (spec.schedulingGroup.podGroupName) is not in the input: planned as a pod on its "
		         "own; upstream holds such a pod before the queue (GangScheduling PreEnqueue: \"waiting for pod's "
		         "pod group \"%s\" to appear in scheduling queue\") until the PodGroup exists; kubectl get "
		         "podgroups belongs in the snapshot",
		         p->namespace_, p->con->pod_group, p->con->pod_group);
		return buf;
	}
	if (p->con->workload_name && *p->con->workload_name) {
		if (find_workload(g, p->namespace_, p->con->workload_name))
			return NULL;
		snprintf(buf, size,
		         "Workload %s/%s (spec.workloadRef.name) is not in the input: its gang policy is unknown, so its "
		         "pods are planned as a basic group; upstream waits for the Workload before it schedules them; "
		         "kubectl get workloads belongs in the snapshot",
		         p->namespace_, p->con->workload_name);
		return buf;
	}
	return NULL;
}
