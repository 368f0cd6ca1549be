/* The report of preemption plans: taking the records, gathering what the
 * page shows from them, and the page around the sections (report_page.c,
 * report_detail.c). See report.h. */
#include "sched/report/report.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "k8s/json.h"
#include "sched/report/records.h"
#include "sched/report/report_int.h"
#include "base/alloc.h"

void pk_report_opts_default(pk_report_opts *o)
{
	memset(o, 0, sizeof *o);
	o->title = "preempt-plan";
	o->k8s_minor = PK_K8S_MINOR_NEWEST;
	o->nodes = -1;
	o->max_nodes = 500;
	o->max_candidates = 10;
	o->max_units = 2000;
	o->max_bytes = 2000000;
}

pk_report *pk_report_new(const pk_report_opts *o)
{
	pk_report *r = pk_xcalloc(1, sizeof *r);
	r->o = *o;
	r->strs = pk_strtab_new();
	r->applied = cJSON_CreateArray();
	r->extra = cJSON_CreateArray();
	pk_pair_map_init(&r->ids);
	pk_pair_map_init(&r->index);
	pk_pair_map_init(&r->evicted_by);
	pk_pair_map_init(&r->group_evicted_by);
	return r;
}

static void free_list(rp_list *l)
{
	free(l->v);
}

static void free_nameds(rp_nameds *a)
{
	for (long i = 0; i < a->n; i++)
		free_list(&a->v[i].units);
	free(a->v);
}

void pk_report_free(pk_report *r)
{
	if (!r)
		return;
	for (long i = 0; i < r->nunits; i++)
		cJSON_Delete(r->units[i].plan);
	free(r->units);
	for (long i = 0; i < r->nowners; i++)
		free_list(&r->owners[i].units);
	free(r->owners);
	for (long i = 0; i < r->nnodes; i++) {
		free_list(&r->nodes[i].victim_units);
		free_list(&r->nodes[i].placed_units);
	}
	free(r->nodes);
	free_nameds(&r->pdbs);
	free_nameds(&r->groups);
	for (long i = 0; i < r->nreasons; i++)
		free_list(&r->reasons[i].examples);
	free(r->reasons);
	free(r->warnings);
	cJSON_Delete(r->summary);
	cJSON_Delete(r->applied);
	cJSON_Delete(r->extra);
	pk_pair_map_free(&r->ids);
	pk_pair_map_free(&r->index);
	pk_pair_map_free(&r->evicted_by);
	pk_pair_map_free(&r->group_evicted_by);
	pk_strtab_free(r->strs);
	free(r);
}

const char *rp_str(pk_report *r, const char *s)
{
	return pk_intern(r->strs, s ? s : "");
}

static void *grow(void *arr, long *cap, long need, size_t elem)
{
	size_t had = (size_t)*cap, c = had;
	void *p = pk_grow(arr, &c, (size_t)need, elem);
	memset((char *)p + elem * had, 0, elem * (c - had));
	*cap = (long)c;
	return p;
}

void rp_sort(void *base, long n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1) /* an empty array may have no memory at all */
		qsort(base, (size_t)n, size, cmp);
}

void rp_list_add(rp_list *l, long unit)
{
	if (l->n && l->v[l->n - 1] == unit)
		return;
	l->v = grow(l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = unit;
}

/* ---- taking records ---------------------------------------------------------------- */

static int call_type(const cJSON *a)
{
	const char *call = pk_str_or(a, "call", "");
	if (strcmp(call, "pod_delete") == 0)
		return RP_CALL_DELETE;
	if (strcmp(call, "pod_status_patch") != 0)
		return RP_CALL_OTHER;
	if (pk_getp(a, "details.condition"))
		return RP_CALL_DISRUPTION;
	const cJSON *nnn = pk_getp(a, "details.nominatedNodeName");
	if (nnn)
		return cJSON_IsString(nnn) ? RP_CALL_NOMINATE : RP_CALL_CLEAR;
	return RP_CALL_OTHER;
}

/* A group preemptor's kind in kubectl's lowercase form, or NULL for a pod. */
static const char *group_word(const char *kind)
{
	if (strcmp(kind, "PodGroup") == 0)
		return "podgroup";
	if (strcmp(kind, "CompositePodGroup") == 0)
		return "compositepodgroup";
	return NULL;
}

/* An anchor for the unit: "<kind>-<namespace>.<name>", made unique. */
static const char *unit_id(pk_report *r, const char *word, const char *ns, const char *name)
{
	char key[600], id[640], prefix[32];
	snprintf(key, sizeof key, "%s.%s", ns, name);
	snprintf(prefix, sizeof prefix, "%s-", word ? word : "pod");
	pk_html_id(id, sizeof id, prefix, key);
	size_t base = strlen(id);
	for (int k = 2; pk_pair_map_has(&r->ids, rp_str(r, id), NULL); k++)
		snprintf(id + base, sizeof id - base, "-%d", k);
	const char *s = rp_str(r, id);
	pk_pair_map_add(&r->ids, s, NULL, 1);
	return s;
}

static void take_plan(pk_report *r, cJSON *plan)
{
	r->units = grow(r->units, &r->capunits, r->nunits + 1, sizeof *r->units);
	rp_unit *u = &r->units[r->nunits++];
	const cJSON *ref = pk_get(plan, "preemptor");
	u->plan = plan;
	u->kind = rp_str(r, pk_str_or(ref, "kind", "Pod"));
	u->ns = rp_str(r, pk_str_or(ref, "namespace", ""));
	u->name = rp_str(r, pk_str_or(ref, "name", ""));
	u->result = rp_str(r, pk_str_or(plan, "result", ""));
	const char *word = group_word(u->kind);
	char label[32];
	snprintf(label, sizeof label, "%s%s", word ? word : "", word ? " " : "");
	u->group = word != NULL;
	u->label = rp_str(r, label);
	u->id = unit_id(r, word, u->ns, u->name);
	u->victims = cJSON_GetArraySize(pk_get(plan, "victims"));
	const cJSON *a;
	cJSON_ArrayForEach(a, pk_get(plan, "actions"))
		u->calls[call_type(a)]++;
	/* the page counts the calls; the embedded data would double in size */
	cJSON_DeleteItemFromObjectCaseSensitive(plan, "actions");
}

void pk_report_take(pk_report *r, cJSON *rec)
{
	if (!rec)
		return;
	const char *kind = pk_kind(rec);
	if (strcmp(kind, "PreemptionPlan") == 0) {
		take_plan(r, rec);
	} else if (strcmp(kind, "SimulationSummary") == 0 && !r->summary) {
		r->summary = rec;
	} else if (strcmp(kind, "AppliedObject") == 0) {
		cJSON_AddItemToArray(r->applied, rec);
	} else {
		cJSON_AddItemToArray(r->extra, rec);
	}
}

/* ---- a single plan's candidates ------------------------------------------------------ */

static cJSON *ranked_json(const pk_candidate *c, int rank)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "rank", rank);
	cJSON_AddStringToObject(o, "node", c->node);
	cJSON_AddNumberToObject(o, "numPDBViolations", c->num_pdb_violations);
	cJSON_AddNumberToObject(o, "victims", c->nvictims);
	if (c->nvictims) {
		int64_t sum = 0;
		for (int i = 0; i < c->nvictims; i++)
			sum += c->victims[i].priority;
		cJSON_AddNumberToObject(o, "highestVictimPriority", c->top_priority);
		cJSON_AddNumberToObject(o, "victimPrioritySum", (double)sum);
		/* the start node choice compares: the earliest among the
		 * highest-priority victims; one without a start counts as now */
		if (c->top_unstarted) {
			cJSON_AddStringToObject(o, "highestVictimsEarliestStart", "not started");
		} else if (c->top_start != INT64_MAX) {
			char t[64];
			pk_format_time(c->top_start, t, sizeof t);
			cJSON_AddStringToObject(o, "highestVictimsEarliestStart", t);
		}
	}
	return o;
}

/* {"nodes":N,"reason":"Plugin: reasons (stage code)","names":"a,b,..."} */
static void other_nodes_json(void *ctx, const pk_node_group *g, const char *nodes, const char *reason)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "nodes", (double)g->count);
	cJSON_AddStringToObject(o, "reason", g->what);
	cJSON_AddStringToObject(o, "names", nodes);
	if (*g->detail) /* DynamicResources' rejection in this tool's words (pk_dra_explain) */
		cJSON_AddStringToObject(o, "detail", g->detail);
	cJSON_AddItemToArray(ctx, o);
	(void)reason;
}

void pk_report_candidates(pk_report *r, const cJSON *preemptor, const pk_candidate *c, int n,
                          pk_node_groups *others, int64_t now)
{
	pk_candidate *left = pk_xmalloc(sizeof *left * (size_t)(n ? n : 1));
	if (n)
		memcpy(left, c, sizeof *left * (size_t)n);
	for (int i = 0; i < n; i++)
		if (!left[i].summarized)
			pk_candidate_summarize(&left[i]);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "NodeChoice");
	cJSON_AddItemToObject(o, "preemptor", cJSON_Duplicate(preemptor, 1));
	cJSON_AddNumberToObject(o, "candidates", n);
	cJSON *ranked = cJSON_AddArrayToObject(o, "ranked");
	/* the order node choice gives: pick the best of those left, again */
	int m = n;
	for (int rank = 1; m > 0 && rank <= r->o.max_candidates; rank++) {
		int best = pk_pick_one_node(left, m, now);
		cJSON_AddItemToArray(ranked, ranked_json(&left[best], rank));
		left[best] = left[--m];
	}
	free(left);
	if (others)
		pk_node_groups_flush(others, other_nodes_json, cJSON_AddArrayToObject(o, "otherNodes"));
	cJSON_AddItemToArray(r->extra, o);
	r->choice = o;
}

/* ---- gathering ----------------------------------------------------------------------- */

enum { TAG_OWNER = 1, TAG_NODE, TAG_PDB, TAG_REASON, TAG_GROUP };

/* Index of key in an array of the report, creating the entry at *n. */
static long lookup(pk_report *r, int tag, const char *key, long *n, bool *created)
{
	static const char tags[6][2] = { "", "o", "n", "p", "r", "g" };
	long i = pk_pair_map_get(&r->index, tags[tag], key) - 1;
	*created = i < 0;
	if (i < 0) {
		i = (*n)++;
		pk_pair_map_add(&r->index, tags[tag], key, i + 1);
	}
	return i;
}

static void note_owner(pk_report *r, long unit, const cJSON *v)
{
	const char *ns = pk_str_or(v, "namespace", "");
	const char *kind = pk_str(v, "owner.kind"), *name = pk_str(v, "owner.name");
	if (!kind || !*kind) {
		kind = "Pod";   /* no controller: the pod is its own workload */
		name = pk_str_or(v, "name", "");
	}
	char key[800];
	snprintf(key, sizeof key, "%s/%s/%s", ns, kind, name ? name : "");
	long k = r->nowners;
	bool created;
	long i = lookup(r, TAG_OWNER, rp_str(r, key), &k, &created);
	r->owners = grow(r->owners, &r->capowners, k, sizeof *r->owners);
	r->nowners = k;
	rp_owner *o = &r->owners[i];
	int64_t prio = 0;
	pk_int64(v, "priority", &prio);
	if (created) {
		o->ns = rp_str(r, ns);
		o->kind = rp_str(r, kind);
		o->name = rp_str(r, name);
		o->pmin = o->pmax = (int32_t)prio;
	}
	o->pods++;
	o->pmin = prio < o->pmin ? (int32_t)prio : o->pmin;
	o->pmax = prio > o->pmax ? (int32_t)prio : o->pmax;
	const char *cls = rp_str(r, pk_str_or(v, "priorityClassName", ""));
	bool seen = !*cls;
	for (int c = 0; c < o->nclasses && !seen; c++)
		seen = o->classes[c] == cls;
	if (!seen && o->nclasses < 4)
		o->classes[o->nclasses++] = cls;
	else if (!seen)
		o->more_classes = true;
	rp_list_add(&o->units, unit);
}

static rp_node *node_of(pk_report *r, const char *name)
{
	long k = r->nnodes;
	bool created;
	long i = lookup(r, TAG_NODE, rp_str(r, name), &k, &created);
	r->nodes = grow(r->nodes, &r->capnodes, k, sizeof *r->nodes);
	r->nnodes = k;
	if (created)
		r->nodes[i].name = rp_str(r, name);
	return &r->nodes[i];
}

/* A victim of a budget or a group: ns and the name in member of v. */
static void note_named(pk_report *r, rp_nameds *a, int tag, long unit, const cJSON *v, const char *member)
{
	const char *ns = pk_str_or(v, "namespace", ""), *name = pk_str_or(v, member, "");
	char key[600];
	snprintf(key, sizeof key, "%s/%s", ns, name);
	long k = a->n;
	bool created;
	long i = lookup(r, tag, rp_str(r, key), &k, &created);
	a->v = grow(a->v, &a->cap, k, sizeof *a->v);
	a->n = k;
	if (created) {
		a->v[i].ns = rp_str(r, ns);
		a->v[i].name = rp_str(r, name);
	}
	a->v[i].victims++;
	rp_list_add(&a->v[i].units, unit);
}

static void note_victims(pk_report *r, long unit, const cJSON *plan)
{
	const cJSON *v;
	cJSON_ArrayForEach(v, pk_get(plan, "victims")) {
		r->victims++;
		note_owner(r, unit, v);
		const char *node = pk_str(v, "node");
		if (node && *node) {
			rp_node *n = node_of(r, node);
			n->victims++;
			rp_list_add(&n->victim_units, unit);
		}
		if (pk_bool(v, "pdbViolation"))
			note_named(r, &r->pdbs, TAG_PDB, unit, v, "pdb");
		if (pk_str(v, "podGroup")) {
			note_named(r, &r->groups, TAG_GROUP, unit, v, "podGroup");
			const char *ns = rp_str(r, pk_str_or(v, "namespace", "")), *pg = rp_str(r, pk_str(v, "podGroup"));
			if (!pk_pair_map_has(&r->group_evicted_by, ns, pg))
				pk_pair_map_add(&r->group_evicted_by, ns, pg, unit + 1);
		}
		pk_pair_map_add(&r->evicted_by, rp_str(r, pk_str_or(v, "namespace", "")),
		                rp_str(r, pk_str_or(v, "name", "")), unit + 1);
	}
}

/* nodeResources: the first "requested" a node shows is its state before
 * the run, the last "requestedAfter" its state after. */
static void note_nodes(pk_report *r, long unit, const cJSON *plan)
{
	const cJSON *res;
	cJSON_ArrayForEach(res, pk_get(plan, "nodeResources")) {
		rp_node *n = node_of(r, pk_str_or(res, "node", ""));
		if (!n->before) {
			n->alloc = pk_get(res, "allocatable");
			n->before = pk_get(res, "requested");
		}
		n->after = pk_get(res, "requestedAfter");
	}
	/* the node a plan nominates its pod to (a NotEligible plan keeps the
	 * nomination it had: it touches no node), or places it on */
	const char *placed = strcmp(pk_str_or(plan, "result", ""), "Preempt") == 0 ? pk_str(plan, "nominatedNodeName")
	                                                                           : NULL;
	if (!placed)
		placed = pk_str(plan, "node");
	if (placed)
		rp_list_add(&node_of(r, placed)->placed_units, unit);
	const cJSON *pl;
	cJSON_ArrayForEach(pl, pk_get(plan, "placements"))
		rp_list_add(&node_of(r, pk_str_or(pl, "node", ""))->placed_units, unit);
}

static long num_of(const cJSON *o, const char *key)
{
	int64_t v = 0;
	pk_int64(o, key, &v);
	return (long)v;
}

static void note_reason_text(pk_report *r, long unit, const char *stage, const char *text, size_t len,
                             long nodes)
{
	char key[1200];
	snprintf(key, sizeof key, "%s\x1f%.*s", stage, (int)(len < 1000 ? len : 1000), text);
	long k = r->nreasons;
	bool created;
	long i = lookup(r, TAG_REASON, rp_str(r, key), &k, &created);
	r->reasons = grow(r->reasons, &r->capreasons, k, sizeof *r->reasons);
	r->nreasons = k;
	rp_reason *x = &r->reasons[i];
	if (created) {
		x->stage = rp_str(r, stage);
		x->text = pk_intern_n(r->strs, text, len < 1000 ? len : 1000);
	}
	if (!x->examples.n || x->examples.v[x->examples.n - 1] != unit)
		x->units++;
	x->nodes += nodes;
	rp_list_add(&x->examples, unit);
}

/* The reasons of one stage of a plan's diagnosis (records.h), each with
 * its nodes; TaintToleration's once per taint it names. */
static void note_stage(pk_report *r, long unit, const char *stage, const cJSON *reasons)
{
	const cJSON *it, *t;
	cJSON_ArrayForEach(it, reasons) {
		const char *reason = pk_str_or(it, "reason", "");
		const cJSON *taints = pk_get(it, "taints");
		if (!cJSON_GetArraySize(taints)) {
			note_reason_text(r, unit, stage, reason, strlen(reason), num_of(it, "nodes"));
			continue;
		}
		cJSON_ArrayForEach(t, taints) {
			char taint[600], text[1200];
			snprintf(text, sizeof text, "%s: %s", reason,
			         pk_taint_text(pk_str_or(t, "key", ""), pk_str_or(t, "value", ""), pk_str_or(t, "effect", ""),
			                       taint, sizeof taint));
			note_reason_text(r, unit, stage, text, strlen(text), num_of(t, "nodes"));
		}
	}
}

/* Units that were not placed: the reasons of their diagnosis one by one
 * (each with its nodes, as the FailedScheduling message counts them),
 * what the PostFilter said otherwise whole under the result's name; a
 * plan without a diagnosis (a PodGroup's) its reason whole. */
static void note_reasons(pk_report *r, long unit, const rp_unit *u)
{
	if (strcmp(u->result, "Unschedulable") != 0 && strcmp(u->result, "NotEligible") != 0)
		return;
	const cJSON *d = pk_get(u->plan, "diagnosis");
	if (!cJSON_IsObject(d)) {
		const char *reason = pk_str_or(u->plan, "reason", "");
		note_reason_text(r, unit, u->result, reason, strlen(reason), 0);
		return;
	}
	note_stage(r, unit, "filter", pk_get(d, "filter"));
	const cJSON *pre = pk_get(d, "preemption");
	const char *post = pk_str_or(d, "postFilter", "");
	if (cJSON_GetArraySize(pre))
		note_stage(r, unit, "preemption", pre);
	else if (*post)
		note_reason_text(r, unit, u->result, post, strlen(post), 0);
}

static int cmp_node(const void *a, const void *b)
{
	const rp_node *x = a, *y = b;
	if (x->victims != y->victims)
		return x->victims > y->victims ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_named(const void *a, const void *b)
{
	const rp_named *x = a, *y = b;
	if (x->victims != y->victims)
		return x->victims > y->victims ? -1 : 1;
	int c = strcmp(x->ns, y->ns);
	return c ? c : strcmp(x->name, y->name);
}

static int cmp_reason(const void *a, const void *b)
{
	const rp_reason *x = a, *y = b;
	if (x->units != y->units)
		return x->units > y->units ? -1 : 1;
	int c = strcmp(x->stage, y->stage);
	return c ? c : strcmp(x->text, y->text);
}

/* The warning with text, added if new. */
static rp_warning *warning_of(pk_report *r, const char *text)
{
	char buf[2200];
	snprintf(buf, sizeof buf, "%s", text);
	const char *key = rp_str(r, buf);
	for (long i = 0; i < r->nwarnings; i++)
		if (r->warnings[i].text == key)
			return &r->warnings[i];
	r->warnings = grow(r->warnings, &r->capwarnings, r->nwarnings + 1, sizeof *r->warnings);
	r->warnings[r->nwarnings] = (rp_warning){ .text = key, .last_unit = -1 };
	return &r->warnings[r->nwarnings++];
}

void pk_report_run_warnings(pk_report *r, const pk_diag *d)
{
	/* first in the box: before the records' (gathered when the page is written) */
	for (size_t i = 0; i < d->ncauses; i++)
		warning_of(r, d->causes[i].message)->times += d->causes[i].count;
}

/* The warning with text, or NULL. */
static rp_warning *find_warning(pk_report *r, const char *text)
{
	const char *key = pk_strtab_find(r->strs, text);
	for (long i = 0; key && i < r->nwarnings; i++)
		if (r->warnings[i].text == key)
			return &r->warnings[i];
	return NULL;
}

/* Each warning once: the run's (its own count), then the plans' and the
 * applied objects' (how many carry it; a record that repeats one counts
 * once). */
static void gather_warnings(pk_report *r)
{
	const cJSON *w, *rec;
	for (long i = 0; i < r->nunits; i++)
		cJSON_ArrayForEach(w, pk_get(r->units[i].plan, "warnings")) {
			rp_warning *x = cJSON_IsString(w) ? warning_of(r, w->valuestring) : NULL;
			if (x && x->last_unit != i) {
				x->last_unit = i;
				x->units++;
			}
		}
	cJSON_ArrayForEach(rec, r->applied) {
		const cJSON *o = pk_get(rec, "object");
		cJSON_ArrayForEach(w, pk_get(rec, "warnings")) {
			if (!cJSON_IsString(w))
				continue;
			/* the run says an applied object's warning with the object's name
			 * before it (preempt-plan --simulate --apply): one warning */
			char said[2300];
			snprintf(said, sizeof said, "%s %s/%s: %s", pk_str_or(o, "kind", ""), pk_str_or(o, "namespace", ""),
			         pk_str_or(o, "name", ""), w->valuestring);
			rp_warning *x = find_warning(r, said);
			(x ? x : warning_of(r, w->valuestring))->applied++;
		}
	}
}

static void gather(pk_report *r)
{
	gather_warnings(r);
	for (long i = 0; i < r->nunits; i++) {
		rp_unit *u = &r->units[i];
		int64_t v = 0;
		if (pk_int64(u->plan, "numPDBViolations", &v))
			r->pdb_violations += v;
		if (pk_bool(u->plan, "recreated")) {
			r->recreated++;
			if (strcmp(u->result, "Preempt") == 0)
				r->cascades++;
		}
		note_victims(r, i, u->plan);
		note_nodes(r, i, u->plan);
		note_reasons(r, i, u);
	}
	/* the lookups are done: order the arrays for the page */
	rp_sort(r->nodes, r->nnodes, sizeof *r->nodes, cmp_node);
	rp_sort(r->pdbs.v, r->pdbs.n, sizeof *r->pdbs.v, cmp_named);
	rp_sort(r->groups.v, r->groups.n, sizeof *r->groups.v, cmp_named);
	rp_sort(r->reasons, r->nreasons, sizeof *r->reasons, cmp_reason);
}

/* ---- the page ------------------------------------------------------------------------ */

static void write_nav(pk_report *r, pk_html *h)
{
	static const char *const sections[][2] = {
		{ "warnings", "Warnings" }, { "summary", "Summary" }, { "applied", "Applied objects" }, { "choice", "Node choice" },
		{ "impact", "Impact by owner" }, { "pdb", "PDB violations" }, { "gangs", "Gangs" },
		{ "cascades", "Cascades" }, { "reasons", "Reasons" }, { "nodes", "Nodes touched" },
		{ "units", "Plans" }, { "data", "Data" },
	};
	PK_HTML_LIT(h, "<nav aria-label=\"Sections\"><ol>");
	for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
		if ((i == 2 && !cJSON_GetArraySize(r->applied)) || (i == 3 && !r->choice))
			continue;
		char href[32];
		snprintf(href, sizeof href, "#%s", sections[i][0]);
		PK_HTML_LIT(h, "<li>");
		pk_html_elem(h, "a", sections[i][1], "href", href, NULL);
		PK_HTML_LIT(h, "</li>");
	}
	PK_HTML_LIT(h, "</ol></nav>\n");
}

static void write_record(pk_html *h, const cJSON *rec, bool *first)
{
	if (!*first)
		PK_HTML_LIT(h, ",\n");
	*first = false;
	pk_html_json_value(h, rec);
}

/* The records, as an array: summary, applied objects and the node choice
 * always; the plans while they fit what is left of the byte budget. */
static void write_data(pk_report *r, pk_html *h)
{
	long budget = (long)r->o.max_bytes - (long)h->bytes - 16384;
	long fit = 0;
	size_t start = h->bytes;
	rp_section_start(h, "data", "Data");
	PK_HTML_LIT(h, "<p>The records this page shows are embedded in it as JSON, an array in the element "
	               "<code>script#preemptkit-records</code>; each plan without its <code>actions</code> "
	               "(counted under Plans; <code>-o json</code> writes them).</p>\n");
	/* how many plans fit: measured as they are written, so the count is
	 * said after the array */
	PK_HTML_LIT(h, "<script type=\"application/json\" id=\"preemptkit-records\">[");
	bool first = true;
	if (r->summary)
		write_record(h, r->summary, &first);
	const cJSON *it;
	cJSON_ArrayForEach(it, r->applied)
		write_record(h, it, &first);
	cJSON_ArrayForEach(it, r->extra)
		write_record(h, it, &first);
	for (long i = 0; i < r->nunits; i++) {
		if ((long)(h->bytes - start) > budget && i > 0)
			break;
		write_record(h, r->units[i].plan, &first);
		fit++;
	}
	PK_HTML_LIT(h, "]</script>\n");
	if (fit < r->nunits)
		rp_note(h, "data-left-out", "Left out of the embedded data to keep the page within %zu bytes: %ld of "
		        "%ld plans (the last ones); preempt-plan -o json writes them all.", r->o.max_bytes,
		        r->nunits - fit, r->nunits);
	PK_HTML_LIT(h, "</section>\n");
}

static void write_head(pk_report *r, pk_html *h)
{
	char title[600];
	snprintf(title, sizeof title, "Preemption report: %s", r->o.title);
	pk_html_page_begin(h, title);
	PK_HTML_LIT(h, "<header><h1>Preemption report</h1><p class=\"meta\">");
	pk_html_textf(h, "%s: %ld plan(s)", r->o.title, r->nunits);
	if (r->o.nodes >= 0)
		pk_html_textf(h, " on a cluster of %ld node(s)", r->o.nodes);
	char release[16];
	pk_html_textf(h, "; answers for Kubernetes %s", pk_k8s_version_text(r->o.k8s_minor, release, sizeof release));
	pk_html_text(h, "; written by preemptkit " PK_VERSION ".");
	PK_HTML_LIT(h, "</p></header>\n");
}

int pk_report_write(pk_report *r, pk_out *out)
{
	gather(r);
	pk_html h;
	pk_html_init(&h, out);
	write_head(r, &h);
	write_nav(r, &h);
	PK_HTML_LIT(&h, "<main>\n");
	rp_write_warnings(r, &h);
	rp_write_summary(r, &h);
	rp_write_applied(r, &h);
	rp_write_choice(r, &h);
	rp_write_owners(r, &h);
	rp_write_pdbs(r, &h);
	rp_write_gangs(r, &h);
	rp_write_cascades(r, &h);
	rp_write_reasons(r, &h);
	rp_write_nodes(r, &h);
	rp_write_units(r, &h);
	write_data(r, &h);
	PK_HTML_LIT(&h, "</main>\n");
	pk_html_page_end(&h);
	return out->failed ? -1 : 0;
}
