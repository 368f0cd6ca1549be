/* Workload (v1alpha1, v1alpha2, v1alpha3, v1beta1), PodGroup (v1alpha2,
 * v1alpha3, v1beta1) and CompositePodGroup (v1alpha3); v1beta1 has v1alpha3's
 * rules (the same declarative tags):
 * declarative + hand-written validation (validation.md WL-*, WL1-*, PG-*). */
#include "pcv.h"
#include "k8s/json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define MAX_TEMPLATES 8
#define MAX_TREE_DEPTH 4
#define MAX_CLAIMS 4

static bool is_v1alpha2(const pcv_obj *o)
{
	return strcmp(o->version, "v1alpha2") == 0;
}

static bool present(const cJSON *v)
{
	return v && !cJSON_IsNull(v);
}

static int array_len(const cJSON *v)
{
	return cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 0;
}

/* Declarative union: exactly one member set; an empty object counts as set.
 * The error sits on the parent path. */
static void check_union(pcv_obj *o, const char *path, const cJSON *parent, const char *const members[],
                        const bool set[], int n)
{
	int count = 0;
	char list[256] = "", value[256] = "{";
	for (int i = 0; i < n; i++) {
		size_t l = strlen(list);
		snprintf(list + l, sizeof list - l, "%s`%s`", i ? ", " : "", members[i]);
		if (set[i]) {
			size_t vl = strlen(value);
			snprintf(value + vl, sizeof value - vl, "%s%s", count ? ", " : "", members[i]);
			count++;
		}
	}
	char detail[400];
	if (count == 0) {
		snprintf(detail, sizeof detail, "must specify one of: %s", list);
		pcv_invalid_str(o, path, "", detail);
	} else if (count > 1) {
		size_t vl = strlen(value);
		snprintf(value + vl, sizeof value - vl, "}");
		snprintf(detail, sizeof detail, "must specify exactly one of: %s", list);
		pcv_report(o, PK_SEV_ERROR, PCV_INVALID, path, "Invalid value: %s: %s", value, detail);
	}
	(void)parent;
}

/* int32 with "+k8s:required +k8s:minimum=1": zero or absent is Required. */
static void check_positive_required(pcv_obj *o, const cJSON *parent, const char *key, const char *path)
{
	const cJSON *v = pk_get(parent, key);
	int64_t n = 0;
	if (!present(v) || (pk_num_int64(v, &n) && n == 0)) {
		pcv_required(o, path, NULL);
	} else if (pk_num_int64(v, &n) && n < 1) {
		pcv_invalid(o, path, v, "must be greater than or equal to 1");
	}
}

static void check_scheduling_policy(pcv_obj *o, const cJSON *pol, const char *path, bool composite)
{
	static const char *const members[] = {"basic", "gang"};
	const cJSON *basic = pk_get(pol, "basic"), *gang = pk_get(pol, "gang");
	bool set[2] = {present(basic), present(gang)};
	check_union(o, path, pol, members, set, 2);
	if (present(gang)) {
		char p[PCV_PATH_MAX];
		const char *key = composite ? "minGroupCount" : "minCount";
		pcv_path(p, "%s.gang.%s", path, key);
		check_positive_required(o, gang, key, p);
	}
}

static void check_topology(pcv_obj *o, const cJSON *cons, const char *path)
{
	char p[PCV_PATH_MAX];
	/* v1alpha2 revisions used topologyConstraints[].topologyKey */
	const char *list_key = pk_get(cons, "topologyConstraints") ? "topologyConstraints" : "topology";
	const char *key_key = strcmp(list_key, "topology") == 0 ? "key" : "topologyKey";
	const cJSON *topo = pk_get(cons, list_key);
	pcv_path(p, "%s.%s", path, list_key);
	if (array_len(topo) > 1)
		pcv_too_many(o, p, array_len(topo), 1);
	int i = 0;
	for (const cJSON *t = cJSON_IsArray(topo) ? topo->child : NULL; t; t = t->next, i++) {
		char kp[PCV_PATH_MAX];
		pcv_path(kp, "%s.%s[%d].%s", path, list_key, i, key_key);
		const char *key = pk_str(t, key_key);
		if (!key || !*key)
			pcv_required(o, kp, NULL);
		else
			pcv_check_label_key(o, kp, key);
	}
}

static void check_claims(pcv_obj *o, const cJSON *claims, const char *path)
{
	static const char *const members[] = {"resourceClaimName", "resourceClaimTemplateName"};
	if (array_len(claims) > MAX_CLAIMS)
		pcv_too_many(o, path, array_len(claims), MAX_CLAIMS);
	int i = 0;
	for (const cJSON *c = cJSON_IsArray(claims) ? claims->child : NULL; c; c = c->next, i++) {
		char p[PCV_PATH_MAX], f[PCV_PATH_MAX];
		pcv_path(p, "%s[%d]", path, i);
		const char *name = pk_str(c, "name");
		pcv_path(f, "%s.name", p);
		if (!name || !*name)
			pcv_required(o, f, NULL);
		else
			pcv_check_label(o, f, name);
		/* listMapKey name: a later item with an earlier name */
		int j = 0;
		for (const cJSON *d = claims->child; d != c; d = d->next, j++) {
			const char *dn = pk_str(d, "name");
			if (name && *name && dn && strcmp(dn, name) == 0) {
				pcv_duplicate(o, p, c);
				break;
			}
		}
		const char *rc = pk_str(c, "resourceClaimName"), *rt = pk_str(c, "resourceClaimTemplateName");
		bool set[2] = {rc && *rc, rt && *rt};
		check_union(o, p, c, members, set, 2);
		if (rc && *rc) {
			pcv_path(f, "%s.resourceClaimName", p);
			pcv_check_subdomain(o, f, rc);
		}
		if (rt && *rt) {
			pcv_path(f, "%s.resourceClaimTemplateName", p);
			pcv_check_subdomain(o, f, rt);
		}
	}
}

/* disruptionMode: a string enum Pod|PodGroup in v1alpha2, a union
 * single{}/all{} in v1alpha3. */
static void check_disruption_mode(pcv_obj *o, const cJSON *dm, const char *path)
{
	if (!present(dm))
		return;
	if (cJSON_IsString(dm)) {
		if (strcmp(dm->valuestring, "Pod") != 0 && strcmp(dm->valuestring, "PodGroup") != 0)
			pcv_not_supported(o, path, dm->valuestring, "\"Pod\", \"PodGroup\"");
		return;
	}
	static const char *const members[] = {"single", "all"};
	bool set[2] = {present(pk_get(dm, "single")), present(pk_get(dm, "all"))};
	check_union(o, path, dm, members, set, 2);
}

static void check_priority_fields(pcv_obj *o, const cJSON *t, const char *path)
{
	char p[PCV_PATH_MAX];
	const char *cls = pk_str(t, "priorityClassName");
	if (cls && *cls) {
		pcv_path(p, "%s.priorityClassName", path);
		pcv_check_subdomain(o, p, cls);
	}
	const cJSON *prio = pk_get(t, "priority");
	int64_t v;
	if (present(prio) && pk_num_int64(prio, &v) && v > PK_HIGHEST_USER_PRIORITY) {
		pcv_path(p, "%s.priority", path);
		pcv_invalid(o, p, prio, "must be less than or equal to 1000000000");
	}
}

/* Gate off: templates forbid it (declarative tag); a CompositePodGroup's
 * strategy drops it on create (its strategy test at 06e67ba2). */
static void check_group_preemption_policy(pcv_obj *o, const cJSON *parent, const char *path,
                                          pcv_gate_verdict verdict)
{
	char p[PCV_PATH_MAX];
	pcv_path(p, "%s.preemptionPolicy", path);
	/* an update keeps a dropped field the stored object uses
	 * (dropDisabledFields); the update rules judge a change */
	bool kept = verdict == PCV_GATE_DROPPED && o->old && present(pk_getp(o->old, p));
	const cJSON *pp = pcv_gated(o, parent, "preemptionPolicy", p, o->ctx->release->pod_group_preemption_policy || kept,
	                            "PodGroupPreemptionPolicy", verdict);
	if (!cJSON_IsString(pp))
		return;
	pk_preemption_policy pol;
	if (!pk_parse_preemption_policy(pp->valuestring, &pol))
		pcv_not_supported(o, p, pp->valuestring, "\"Never\", \"PreemptLowerPriority\"");
}

/* KEP-5710 proposal (option --kep5710-preemption-priority): the class must
 * exist and not be below the scheduling priority; checked at the end. */
static void note_preemption_class(pcv_obj *o, const cJSON *parent, const char *path)
{
	if (!o->ctx->kep5710)
		return;
	const char *pcls = pk_str(parent, "preemptionPriorityClassName");
	if (!pcls || !*pcls)
		return;
	char p[PCV_PATH_MAX];
	pcv_path(p, "%s.preemptionPriorityClassName", path);
	pcv_check_subdomain(o, p, pcls);
	pcv_add_ref(o, REF_PREEMPTION_PCLASS, p, pcls, pk_str_or(parent, "priorityClassName", ""), NULL);
}

/* Fields shared by PodGroupTemplate and PodGroup.spec. */
static void check_group_fields(pcv_obj *o, const cJSON *t, const char *path, bool podgroup)
{
	char p[PCV_PATH_MAX];
	const pk_release_profile *g = o->ctx->release;
	bool v2 = is_v1alpha2(o);
	pcv_path(p, "%s.schedulingPolicy", path);
	check_scheduling_policy(o, pk_get(t, "schedulingPolicy"), p, false);

	pcv_path(p, "%s.schedulingConstraints", path);
	const cJSON *cons = pcv_gated(o, t, "schedulingConstraints", p, g->topology_aware, "TopologyAwareWorkloadScheduling",
	                              PCV_GATE_DROPPED);
	if (present(cons))
		check_topology(o, cons, p);

	pcv_path(p, "%s.resourceClaims", path);
	const cJSON *claims = pcv_gated(o, t, "resourceClaims", p, g->dra_workload_resource_claims,
	                                "DRAWorkloadResourceClaims", PCV_GATE_DROPPED);
	if (present(claims))
		check_claims(o, claims, p);

	/* v1alpha2 gates these behind WorkloadAwarePreemption; the newest
	 * v1alpha3 carries no gate tag on them. */
	bool prio_on = v2 ? g->workload_aware_preemption : true;
	pcv_path(p, "%s.disruptionMode", path);
	check_disruption_mode(o, pcv_gated(o, t, "disruptionMode", p, prio_on, "WorkloadAwarePreemption", PCV_GATE_DROPPED),
	                      p);
	pcv_path(p, "%s.priorityClassName", path);
	const cJSON *cls = pcv_gated(o, t, "priorityClassName", p, prio_on, "WorkloadAwarePreemption",
	                              PCV_GATE_DROPPED);
	pcv_path(p, "%s.priority", path);
	const cJSON *prio = pcv_gated(o, t, "priority", p, prio_on, "WorkloadAwarePreemption", PCV_GATE_DROPPED);
	if (present(cls) || present(prio))
		check_priority_fields(o, t, path);
	if (!v2)
		check_group_preemption_policy(o, t, path, PCV_GATE_FORBIDDEN);
	note_preemption_class(o, t, path);
	(void)podgroup;
}

/* ---- template tree (v1alpha2 / v1alpha3) ---- */

typedef struct tree_state {
	pk_strmap names;        /* template name -> list id + 1 */
	int next_list;
	/* priority consistency (WL-22) */
	bool have_first;
	const char *first_class;
	bool first_has_prio;
	int64_t first_prio;
	bool mismatch;
	bool composite;
	/* template names for PodGroup references */
	char *tnames;
	size_t tlen, tcap;
} tree_state;

static void remember_name(tree_state *st, const char *name)
{
	size_t n = strlen(name) + 1;
	st->tnames = pk_grow(st->tnames, &st->tcap, st->tlen + n + 1, 1);
	memcpy(st->tnames + st->tlen, name, n);
	st->tlen += n;
	st->tnames[st->tlen] = '\0';
}

static void note_priority(tree_state *st, const cJSON *t)
{
	const char *cls = pk_str_or(t, "priorityClassName", "");
	int64_t prio = 0;
	bool has = pk_int64(t, "priority", &prio);
	if (!st->have_first) {
		st->have_first = true;
		st->first_class = cls;
		st->first_has_prio = has;
		st->first_prio = prio;
		return;
	}
	if (strcmp(cls, st->first_class) != 0 || has != st->first_has_prio || (has && prio != st->first_prio))
		st->mismatch = true;
}

/* A template's class must exist once admission resolves it
 * (gate WorkloadAwarePreemption). */
static void note_template_class(pcv_obj *o, const cJSON *t, const char *path)
{
	const char *cls = pk_str(t, "priorityClassName");
	if (!cls || !*cls || !o->ctx->release->workload_aware_preemption)
		return;
	char p[PCV_PATH_MAX];
	pcv_path(p, "%s.priorityClassName", path);
	pcv_add_ref(o, REF_PCLASS, p, cls, NULL, NULL);
	pcv_ref *r = pcv_last_ref(o->ctx);
	if (r)
		r->admission = true;
}

/* Names are unique in the whole tree: within one list it is the list-map
 * Duplicate on the item, across lists the hand-written Duplicate on .name. */
static void check_name(pcv_obj *o, tree_state *st, const cJSON *item, const char *item_path, int list_id)
{
	char p[PCV_PATH_MAX];
	pcv_path(p, "%s.name", item_path);
	const char *name = pk_str(item, "name");
	if (!name || !*name) {
		pcv_required(o, p, NULL);
		return;
	}
	pcv_check_label(o, p, name);
	intptr_t seen = (intptr_t)pk_strmap_get(&st->names, name);
	if (seen == list_id + 1)
		pcv_duplicate(o, item_path, item);
	else if (seen)
		pcv_duplicate(o, p, pk_get(item, "name"));
	else
		pk_strmap_put(&st->names, name, (void *)(intptr_t)(list_id + 1));
}

static int check_pg_templates(pcv_obj *o, tree_state *st, const cJSON *list, const char *path)
{
	if (!present(list))
		return 0;
	int list_id = st->next_list++;
	if (array_len(list) > MAX_TEMPLATES)
		pcv_too_many(o, path, array_len(list), MAX_TEMPLATES);
	int i = 0;
	for (const cJSON *t = cJSON_IsArray(list) ? list->child : NULL; t; t = t->next, i++) {
		char p[PCV_PATH_MAX];
		pcv_path(p, "%s[%d]", path, i);
		check_name(o, st, t, p, list_id);
		check_group_fields(o, t, p, false);
		note_priority(st, t);
		note_template_class(o, t, p);
		const char *name = pk_str(t, "name");
		if (name && *name)
			remember_name(st, name);
	}
	return array_len(list) ? 1 : 0;
}

/* What a CompositePodGroupTemplate and a CompositePodGroup's spec have
 * beyond policy and priority (v1beta1 types): topology constraints (no gate,
 * immutable), a disruption mode, a preemption policy (gated). */
static void check_composite_fields(pcv_obj *o, const cJSON *t, const char *path, pcv_gate_verdict policy_off)
{
	char p[PCV_PATH_MAX];
	const cJSON *cons = pk_get(t, "schedulingConstraints");
	pcv_path(p, "%s.schedulingConstraints", path);
	if (present(cons))
		check_topology(o, cons, p);
	pcv_path(p, "%s.disruptionMode", path);
	check_disruption_mode(o, pk_get(t, "disruptionMode"), p);
	check_group_preemption_policy(o, t, path, policy_off);
}

/* Returns the hierarchy depth below and including this list's items. */
static int check_cpg_templates(pcv_obj *o, tree_state *st, const cJSON *list, const char *path, bool top)
{
	if (!present(list))
		return 0;
	int list_id = st->next_list++;
	if (array_len(list) > MAX_TEMPLATES)
		pcv_too_many(o, path, array_len(list), MAX_TEMPLATES);
	int deepest = 0, i = 0;
	for (const cJSON *t = cJSON_IsArray(list) ? list->child : NULL; t; t = t->next, i++) {
		char p[PCV_PATH_MAX], sub[PCV_PATH_MAX];
		pcv_path(p, "%s[%d]", path, i);
		check_name(o, st, t, p, list_id);
		pcv_path(sub, "%s.schedulingPolicy", p);
		check_scheduling_policy(o, pk_get(t, "schedulingPolicy"), sub, true);
		check_priority_fields(o, t, p);
		if (!is_v1alpha2(o))
			check_composite_fields(o, t, p, PCV_GATE_FORBIDDEN);
		note_priority(st, t);
		note_template_class(o, t, p);
		const cJSON *pgts = pk_get(t, "podGroupTemplates"), *cpgts = pk_get(t, "compositePodGroupTemplates");
		pcv_path(sub, "%s.podGroupTemplates", p);
		int depth = check_pg_templates(o, st, pgts, sub);
		pcv_path(sub, "%s.compositePodGroupTemplates", p);
		int cdepth = check_cpg_templates(o, st, cpgts, sub, false);
		if (cdepth > depth)
			depth = cdepth;
		if (array_len(pgts) == 0 && array_len(cpgts) == 0)
			pcv_invalid(o, p, pk_get(t, "name"),
			            "must have at least one child PodGroupTemplate or CompositePodGroupTemplate");
		depth += 1;
		if (top && depth > MAX_TREE_DEPTH)
			pcv_invalid(o, p, NULL, "maximum template hierarchy depth is 4");
		if (depth > deepest)
			deepest = depth;
	}
	return deepest;
}

static void check_controller_ref(pcv_obj *o, const cJSON *ref)
{
	if (!present(ref))
		return;
	const char *group = pk_str(ref, "apiGroup");
	if (group && *group)
		pcv_check_subdomain(o, "spec.controllerRef.apiGroup", group);
	static const char *const keys[] = {"kind", "name"};
	for (int i = 0; i < 2; i++) {
		char p[PCV_PATH_MAX];
		pcv_path(p, "spec.controllerRef.%s", keys[i]);
		const char *v = pk_str(ref, keys[i]);
		const char *err;
		if (!v || !*v)
			pcv_required(o, p, NULL);
		else if ((err = pcv_path_segment_error(v)))
			pcv_invalid_str(o, p, v, err);
	}
}

static bool is_workload_api_served(pcv_obj *o)
{
	if (o->ctx->release->generic_workload)
		return true;
	pcv_report(o, PK_SEV_ERROR, PCV_UNKNOWN_KIND, "apiVersion",
	           "no matches for kind \"%s\" in version \"%s\" (feature gate GenericWorkload is disabled)",
	           o->kind, o->api_version);
	return false;
}

void pcv_rules_workload(pcv_obj *o)
{
	if (!is_workload_api_served(o))
		return;
	pcv_check_meta(o, true);
	const cJSON *spec = pk_get(o->root, "spec");
	check_controller_ref(o, pk_get(spec, "controllerRef"));

	tree_state st;
	memset(&st, 0, sizeof st);
	pk_strmap_init(&st.names);
	const cJSON *pgts = pk_get(spec, "podGroupTemplates");
	const cJSON *cpgts = pcv_gated(o, spec, "compositePodGroupTemplates", "spec.compositePodGroupTemplates",
	                               o->ctx->release->composite_pod_groups, "CompositePodGroup", PCV_GATE_FORBIDDEN);
	st.composite = array_len(cpgts) > 0;

	static const char *const members[] = {"podGroupTemplates", "compositePodGroupTemplates"};
	bool set[2] = {array_len(pgts) > 0, array_len(cpgts) > 0};
	if (is_v1alpha2(o) && !set[1]) {
		/* v1alpha2 before the composite tree: a required list */
		if (!set[0])
			pcv_required(o, "spec.podGroupTemplates", "must have at least one item");
	} else {
		check_union(o, "spec", spec, members, set, o->ctx->release->composite_pod_groups ? 2 : 1);
	}

	check_pg_templates(o, &st, pgts, "spec.podGroupTemplates");
	check_cpg_templates(o, &st, cpgts, "spec.compositePodGroupTemplates", true);
	if (st.mismatch)
		pcv_invalid(o, "spec", NULL,
		            st.composite ? "all priority and priorityClassName values must be identical, detected multiple values"
		                         : "detected multiple priority configurations");

	note_preemption_class(o, spec, "spec");
	pcv_cross_workload(o, st.tnames ? st.tnames : "", st.tlen);
	free(st.tnames);
	pk_strmap_free(&st.names, NULL);
}

/* ---- v1alpha1 (1.35 shape: spec.podGroups[].policy) ---- */

void pcv_rules_workload_v1alpha1(pcv_obj *o)
{
	if (!is_workload_api_served(o))
		return;
	pcv_check_meta(o, true);
	const cJSON *spec = pk_get(o->root, "spec");
	check_controller_ref(o, pk_get(spec, "controllerRef"));
	const cJSON *groups = pk_get(spec, "podGroups");
	int n = array_len(groups);
	if (n == 0)
		pcv_required(o, "spec.podGroups", "must have at least one item");
	else if (n > MAX_TEMPLATES)
		pcv_too_many(o, "spec.podGroups", n, MAX_TEMPLATES);

	tree_state st;
	memset(&st, 0, sizeof st);
	pk_strmap_init(&st.names);
	int i = 0;
	for (const cJSON *g = n ? groups->child : NULL; g; g = g->next, i++) {
		char p[PCV_PATH_MAX], sub[PCV_PATH_MAX];
		pcv_path(p, "spec.podGroups[%d]", i);
		check_name(o, &st, g, p, 0);
		const char *name = pk_str(g, "name");
		if (name && *name)
			remember_name(&st, name);
		const cJSON *pol = pk_get(g, "policy");
		const cJSON *basic = pk_get(pol, "basic"), *gang = pk_get(pol, "gang");
		pcv_path(sub, "%s.policy", p);
		if (!present(basic) && !present(gang))
			pcv_invalid_str(o, sub, "", "must specify one of: `basic`, `gang`");
		else if (present(basic) && present(gang))
			pcv_invalid(o, sub, pol, "exactly one of `basic`, `gang` is required, but multiple fields are set");
		if (present(gang)) {
			pcv_path(sub, "%s.policy.gang.minCount", p);
			int64_t mc = 0;
			const cJSON *v = pk_get(gang, "minCount");
			if (!present(v) || (pk_num_int64(v, &mc) && mc == 0))
				pcv_required(o, sub, NULL);
			else if (pk_num_int64(v, &mc) && mc < 0)
				pcv_invalid(o, sub, v, "must be greater than zero");
			int64_t dc;
			const cJSON *d = pk_get(gang, "desiredCount");
			if (present(d) && pk_num_int64(d, &dc) && dc < mc) {
				pcv_path(sub, "%s.policy.gang.desiredCount", p);
				pcv_invalid(o, sub, d, "must be greater than or equal to minCount");
			}
		}
		int64_t bdc;
		const cJSON *bd = pk_get(basic, "desiredCount");
		if (present(bd) && pk_num_int64(bd, &bdc) && bdc < 0) {
			pcv_path(sub, "%s.policy.basic.desiredCount", p);
			pcv_invalid(o, sub, bd, "must be greater than or equal to 0");
		}
	}
	/* Intermediate revision: Workload-level priority (gate WorkloadAwarePreemption). */
	const cJSON *cls = pcv_gated(o, spec, "priorityClassName", "spec.priorityClassName",
	                             o->ctx->release->workload_aware_preemption, "WorkloadAwarePreemption", PCV_GATE_DROPPED);
	const cJSON *prio = pcv_gated(o, spec, "priority", "spec.priority", o->ctx->release->workload_aware_preemption,
	                              "WorkloadAwarePreemption", PCV_GATE_DROPPED);
	if (present(cls) || present(prio))
		check_priority_fields(o, spec, "spec");
	if (cJSON_IsString(cls) && *cls->valuestring) {
		pcv_add_ref(o, REF_PCLASS, "spec.priorityClassName", cls->valuestring, NULL, NULL);
		pcv_ref *r = pcv_last_ref(o->ctx);
		int64_t v;
		if (r) {
			r->admission = true;
			if (pk_num_int64(prio, &v) && v >= INT32_MIN && v <= INT32_MAX) {
				r->has_priority = true;
				r->priority = (int32_t)v;
			}
		}
	}
	note_preemption_class(o, spec, "spec");
	pcv_cross_workload(o, st.tnames ? st.tnames : "", st.tlen);
	free(st.tnames);
	pk_strmap_free(&st.names, NULL);
}

/* ---- PodGroup ---- */

/* workloadName (DNS subdomain) and the template name (DNS label), both
 * required. True when both are there. */
static bool check_reference_names(pcv_obj *o, const char *wname, const char *tname, const char *wfield,
                                  const char *tfield)
{
	if (!wname || !*wname)
		pcv_required(o, wfield, NULL);
	else
		pcv_check_subdomain(o, wfield, wname);
	if (!tname || !*tname)
		pcv_required(o, tfield, NULL);
	else
		pcv_check_label(o, tfield, tname);
	return wname && *wname && tname && *tname;
}

static void check_template_ref(pcv_obj *o, const cJSON *spec)
{
	const cJSON *ref = pk_get(spec, "podGroupTemplateRef");
	const cJSON *wref = pk_get(spec, "workloadRef");
	const char *wname = NULL, *tname = NULL, *wfield = NULL, *tfield = NULL;
	if (present(ref)) {
		const cJSON *w = pk_get(ref, "workload");
		static const char *const members[] = {"workload"};
		bool set[1] = {present(w)};
		check_union(o, "spec.podGroupTemplateRef", ref, members, set, 1);
		if (present(w)) {
			wname = pk_str(w, "workloadName");
			tname = pk_str(w, "podGroupTemplateName");
			wfield = "spec.podGroupTemplateRef.workload.workloadName";
			tfield = "spec.podGroupTemplateRef.workload.podGroupTemplateName";
		}
	} else if (present(wref)) {
		wname = pk_str(wref, "workloadName");
		tname = pk_str(wref, "templateName");
		wfield = "spec.workloadRef.workloadName";
		tfield = "spec.workloadRef.templateName";
	}
	if (wfield && check_reference_names(o, wname, tname, wfield, tfield))
		pcv_add_ref(o, REF_WORKLOAD, wfield, wname, tname, o->ns && *o->ns ? o->ns : "default");
}

/* Priority admission for PodGroups and CompositePodGroups (gate
 * WorkloadAwarePreemption; GenericWorkload from 1.37): the class resolves
 * to the priority; an update is a no-op for it. */
static void admit_group_priority(pcv_obj *o, const cJSON *spec)
{
	if (!o->ctx->release->workload_aware_preemption || o->old)
		return;
	const char *cls = pk_str_or(spec, "priorityClassName", "");
	pcv_add_ref(o, REF_PCLASS, *cls ? "spec.priorityClassName" : "spec.priority", cls, NULL, NULL);
	pcv_ref *r = pcv_last_ref(o->ctx);
	int64_t v;
	if (r) {
		r->admission = true;
		if (pk_int64(spec, "priority", &v) && v >= INT32_MIN && v <= INT32_MAX) {
			r->has_priority = true;
			r->priority = (int32_t)v;
		}
	}
}

void pcv_rules_podgroup(pcv_obj *o)
{
	if (!is_workload_api_served(o))
		return;
	pcv_check_meta(o, true);
	const cJSON *spec = pk_get(o->root, "spec");
	check_template_ref(o, spec);
	if (!is_v1alpha2(o)) {
		const cJSON *parent = pcv_gated(o, spec, "parentCompositePodGroupName", "spec.parentCompositePodGroupName",
		                                o->ctx->release->composite_pod_groups, "CompositePodGroup", PCV_GATE_FORBIDDEN);
		if (cJSON_IsString(parent) && *parent->valuestring) {
			pcv_check_subdomain(o, "spec.parentCompositePodGroupName", parent->valuestring);
			if (!present(pk_get(spec, "workloadRef")) && !present(pk_get(spec, "podGroupTemplateRef")))
				pcv_invalid_str(o, "spec.parentCompositePodGroupName", parent->valuestring,
				                "may only be set when workloadRef is set");
		}
	}
	check_group_fields(o, spec, "spec", true);

	admit_group_priority(o, spec);
}

/* CompositePodGroup, scheduling.k8s.io/v1alpha3 (1.37; gate
 * CompositePodGroup): the declarative tags of its types. */
void pcv_rules_composite_podgroup(pcv_obj *o)
{
	if (!o->ctx->release->composite_pod_groups) {
		pcv_report(o, PK_SEV_ERROR, PCV_UNKNOWN_KIND, "apiVersion",
		           "no matches for kind \"%s\" in version \"%s\" (feature gate CompositePodGroup is disabled)",
		           o->kind, o->api_version);
		return;
	}
	pcv_check_meta(o, true);
	const cJSON *spec = pk_get(o->root, "spec");
	const cJSON *parent = pk_get(spec, "parentCompositePodGroupName");
	if (cJSON_IsString(parent) && *parent->valuestring)
		pcv_check_subdomain(o, "spec.parentCompositePodGroupName", parent->valuestring);
	const cJSON *wref = pk_get(spec, "workloadRef");
	if (!present(wref))
		pcv_required(o, "spec.workloadRef", NULL);
	else
		check_reference_names(o, pk_str(wref, "workloadName"), pk_str(wref, "templateName"),
		                      "spec.workloadRef.workloadName", "spec.workloadRef.templateName");
	check_scheduling_policy(o, pk_get(spec, "schedulingPolicy"), "spec.schedulingPolicy", true);
	check_priority_fields(o, spec, "spec");
	check_composite_fields(o, spec, "spec", PCV_GATE_DROPPED);
	admit_group_priority(o, spec);
}
