/* preempt-plan: reading victims' records, choosing the node, and writing the
 * plan with the API calls the scheduler would make. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "k8s/json.h"
#include "sched/report/records.h"
#include "sched/engine/score.h"
#include "base/alloc.h"

void plan_init(plan_run *r, pk_cli *cli)
{
	memset(r, 0, sizeof *r);
	r->cli = cli;
	pk_arena_init(&r->arena);
	r->strs = pk_strtab_new();
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	r->now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	r->summaries = cli->format == PK_FMT_JSON;
}

void plan_free(plan_run *r)
{
	for (long i = 0; i < r->nentries; i++) {
		cJSON_Delete(r->entries[i].preemptor);
		cJSON_Delete(r->entries[i].ref_owned);
		free(r->entries[i].candidates);
		free(r->entries[i].not_candidates.g);
	}
	free(r->entries);
	pk_strtab_free(r->strs);
	pk_arena_free(&r->arena);
}

/* ---- reading ------------------------------------------------------------------ */

static plan_entry *entry_for(plan_run *r, const cJSON *ref)
{
	char key[600];
	pk_preemptor_key(ref, key, sizeof key);
	/* Records of one preemptor are adjacent in victims' output: check the
	 * last entry first, then search (linear in preemptors, not in records). */
	for (long i = r->nentries - 1; i >= 0; i--)
		if (strcmp(r->entries[i].key, key) == 0)
			return &r->entries[i];
	size_t cap = (size_t)r->cap;
	r->entries = pk_grow(r->entries, &cap, (size_t)r->nentries + 1, sizeof *r->entries);
	r->cap = (long)cap;
	plan_entry *e = &r->entries[r->nentries++];
	memset(e, 0, sizeof *e);
	snprintf(e->key, sizeof e->key, "%s", key);
	e->leading = -1;
	e->ref_owned = cJSON_Duplicate(ref, 1);
	e->ref = e->ref_owned;
	return e;
}

static void add_candidate(plan_entry *e, const pk_candidate *c)
{
	size_t cap = (size_t)e->cap;
	e->candidates = pk_grow(e->candidates, &cap, (size_t)e->ncandidates + 1, sizeof *e->candidates);
	e->cap = (int)cap;
	e->candidates[e->ncandidates++] = *c;
}

/* The candidate just added, decoded whole if node choice now puts it first
 * (pk_pick_one_node_why keeps the first of the best the same way): at the
 * end the one it picks is the last that led, and has its victims. */
static void decode_if_leading(plan_run *r, plan_entry *e, const cJSON *record)
{
	int at = e->ncandidates - 1;
	if (e->leading >= 0) {
		pk_candidate pair[2] = { e->candidates[e->leading], e->candidates[at] };
		const char *why;
		if (pk_pick_one_node_why(pair, 2, r->now, &why) != 1)
			return;
	}
	pk_candidate_from_json(record, r->strs, &r->arena, &e->candidates[at]);
	e->leading = at;
}

/* A NodeStatus record of victims --explain, grouped for the table. */
static void add_node_status(plan_run *r, plan_entry *e, const cJSON *o)
{
	const char *reasons[PK_STATUS_MAX_REASONS];
	int n = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, pk_get(o, "reasons"))
		if (n < PK_STATUS_MAX_REASONS && cJSON_IsString(it))
			reasons[n++] = it->valuestring;
	e->not_candidates.all_names = r->cli->format == PK_FMT_WIDE;
	pk_node_groups_add(&e->not_candidates, pk_str_or(o, "node", ""), pk_str_or(o, "stage", ""),
	                   pk_str_or(o, "code", ""), pk_str(o, "plugin"), reasons, n, pk_str(o, "preemption"));
	r->stats.used++;
}

/* victims' records name the release they answer for; a plan for another
 * release than the one asked for would mix two releases' answers. Said
 * once, at the first record that differs. Records of a victims that did
 * not name one are taken as they are. */
static bool other_release(const plan_run *r, const cJSON *record, char *msg, size_t size)
{
	const char *theirs = pk_str(record, PK_K8S_VERSION_KEY);
	char ours[16];
	pk_cli_k8s_version(r->cli, ours, sizeof ours);
	if (!theirs || strcmp(theirs, ours) == 0)
		return false;
	snprintf(msg, size, "the records answer for Kubernetes %s (kubernetesVersion) but this plan is for %s "
	         "(--kubernetes-version): their victims are %s's choice; run victims and preempt-plan with the "
	         "same --kubernetes-version", theirs, ours, theirs);
	return true;
}

static void check_release(plan_run *r, const pk_record *rec)
{
	char msg[400];
	if (r->release_warned || !other_release(r, rec->obj, msg, sizeof msg))
		return;
	r->release_warned = true;
	pk_diag_report(&r->cli->diag, PK_SEV_WARNING, &rec->origin, "%s", msg);
}

static int on_record(void *ctx, pk_record *rec)
{
	plan_run *r = ctx;
	if (!pk_cli_accept_record(r->cli, &r->stats, rec, &r->trouble))
		return 0;
	const char *kind = pk_kind(rec->obj);
	const cJSON *ref = pk_get(rec->obj, "preemptor");
	bool is_pre = strcmp(kind, "Preemptor") == 0, is_cand = strcmp(kind, "Candidate") == 0;
	bool grouped = r->cli->format == PK_FMT_TABLE || r->cli->format == PK_FMT_WIDE || r->cli->format == PK_FMT_HTML;
	if (grouped && strcmp(kind, "NodeStatus") == 0 && cJSON_IsObject(ref)) {
		add_node_status(r, entry_for(r, ref), rec->obj);
		return 0;
	}
	if (!is_pre && !is_cand) {
		pk_stats_skip(&r->stats, kind); /* NodeStatus (for a table or a page only), Stats, other objects */
		return 0;
	}
	if (!cJSON_IsObject(ref)) {
		pk_stats_reject(&r->stats, kind);
		pk_diag_report(&r->cli->diag, PK_SEV_WARNING, &rec->origin, "%s record without a preemptor object", kind);
		return 0;
	}
	check_release(r, rec);
	plan_entry *e = entry_for(r, ref);
	if (is_pre) {
		cJSON_Delete(e->preemptor);
		e->preemptor = rec->obj;
		rec->obj = NULL;
		e->ref = (cJSON *)pk_get(e->preemptor, "preemptor");
		r->stats.used++;
		return 0;
	}
	pk_candidate c;
	if (!(r->summaries ? pk_candidate_summary_from_json(rec->obj, r->strs, &c)
	                   : pk_candidate_from_json(rec->obj, r->strs, &r->arena, &c))) {
		pk_stats_reject(&r->stats, kind);
		pk_diag_report(&r->cli->diag, PK_SEV_WARNING, &rec->origin, "Candidate record without a node");
		return 0;
	}
	add_candidate(e, &c);
	if (r->summaries)
		decode_if_leading(r, e, rec->obj);
	r->stats.used++;
	return 0;
}

int plan_read(plan_run *r, char **paths, int npaths)
{
	return pk_read_paths(&r->cli->reader, paths, (size_t)npaths, on_record, r);
}

/* ---- actions --------------------------------------------------------------------- */

static void nomination_action(cJSON *actions, const char *uid, const char *ns, const char *name,
                              const char *node)
{
	cJSON *a = pk_action_json("pod_status_patch", uid, ns, name);
	cJSON *d = cJSON_AddObjectToObject(a, "details");
	if (node)
		cJSON_AddStringToObject(d, "nominatedNodeName", node);
	else
		cJSON_AddNullToObject(d, "nominatedNodeName");
	cJSON_AddItemToArray(actions, a);
}

/* ---- the plan --------------------------------------------------------------------- */

static const char *entry_status(const plan_entry *e)
{
	if (e->preemptor)
		return pk_str_or(e->preemptor, "status", "NeedsPreemption");
	return e->ncandidates ? "NeedsPreemption" : "Unschedulable";
}

static cJSON *ref_json(const cJSON *ref)
{
	cJSON *o = cJSON_CreateObject();
	static const char *const keys[] = { "namespace", "name", "uid" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		cJSON_AddStringToObject(o, keys[i], pk_str_or(ref, keys[i], ""));
	int64_t p = 0;
	pk_int64(ref, "priority", &p);
	cJSON_AddNumberToObject(o, "priority", (double)p);
	return o;
}

/* Where a pod that fits fits: the reason, and {"count":N,"nodes":[the
 * first few]} in the plan. */
static const char *fits_reason(const plan_entry *e, cJSON *plan, char *buf, size_t size)
{
	const cJSON *fits = pk_get(e->preemptor, "fitsNodes"), *it;
	const char *names[PK_FITS_SHOWN];
	int shown = 0;
	cJSON_ArrayForEach(it, fits)
		if (shown < PK_FITS_SHOWN && cJSON_IsString(it))
			names[shown++] = it->valuestring;
	cJSON *f = cJSON_AddObjectToObject(plan, "fits");
	cJSON_AddNumberToObject(f, "count", cJSON_GetArraySize(fits));
	cJSON_AddItemToObject(f, "nodes", cJSON_CreateStringArray(names, shown));
	return pk_fits_text(names, shown, cJSON_GetArraySize(fits), buf, size);
}

/* Where victims' record places a pod that fits (its placement, score.h):
 * the node and the placement in the plan, the placement's text after the
 * reason. */
static void placement_of(const plan_entry *e, cJSON *plan, char *reason, size_t size)
{
	const cJSON *pl = pk_get(e->preemptor, "placement");
	char text[600];
	if (!pk_placement_json_text(pl, text, sizeof text))
		return;
	cJSON_AddStringToObject(plan, "node", pk_str_or(pl, "node", ""));
	cJSON_AddItemToObject(plan, "placement", cJSON_Duplicate(pl, 1));
	size_t w = strlen(reason);
	snprintf(reason + w, size - w, "; %s", text);
}

/* What the Preemptor record says the answer assumed (and whether it
 * answered for another release), and the PostFilter gate that stopped it,
 * carried into the plan. */
static void carry_assumptions(const plan_run *r, cJSON *plan, const plan_entry *e)
{
	const cJSON *w = e->preemptor ? pk_get(e->preemptor, "warnings") : NULL;
	cJSON *warnings = cJSON_IsArray(w) ? cJSON_Duplicate(w, 1) : cJSON_CreateArray();
	char msg[400];
	if (e->preemptor && other_release(r, e->preemptor, msg, sizeof msg))
		cJSON_AddItemToArray(warnings, cJSON_CreateString(msg));
	cJSON_AddItemToObject(plan, "warnings", warnings);
	const cJSON *gate = e->preemptor ? pk_get(e->preemptor, "postFilter") : NULL;
	if (cJSON_IsObject(gate))
		cJSON_AddItemToObject(plan, "postFilter", cJSON_Duplicate(gate, 1));
}

cJSON *plan_build(plan_run *r, const plan_entry *e, bool *placed)
{
	const char *status = entry_status(e);
	const cJSON *ref = e->ref;
	const char *uid = pk_str_or(ref, "uid", ""), *ns = pk_str_or(ref, "namespace", "");
	const char *name = pk_str_or(ref, "name", "");
	const char *scheduler = pk_str_or(ref, "schedulerName", "default-scheduler");
	const char *nominated = pk_str(ref, "nominatedNodeName");
	const char *message = e->preemptor ? pk_str_or(e->preemptor, "message", "") : "";

	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", "PreemptionPlan");
	pk_cli_add_k8s_version(r->cli, o);
	cJSON_AddItemToObject(o, "preemptor", ref_json(ref));
	cJSON *actions = cJSON_CreateArray();
	cJSON *fits = cJSON_CreateObject(); /* filled for a pod that fits */
	cJSON *victims = cJSON_CreateArray();
	cJSON *cleared = cJSON_CreateArray();
	const char *result, *node = NULL;
	char reason[2048];
	int violations = 0;
	*placed = false;

	const char *decided_by = e->chosen ? e->decided_by : NULL;
	int best = strcmp(status, "NeedsPreemption") != 0 ? -1
	           : e->chosen ? e->best : pk_pick_one_node_why(e->candidates, e->ncandidates, r->now, &decided_by);
	if (best >= 0) {
		const pk_candidate *c = &e->candidates[best];
		result = "Preempt";
		node = c->node;
		violations = c->num_pdb_violations;
		*placed = true;
		snprintf(reason, sizeof reason, "preempting %d pod(s) on node %s, chosen from %d candidate node(s) by %s; %s",
		         c->nvictims, c->node, e->ncandidates, decided_by, message);
		char by[300];
		snprintf(by, sizeof by, "pod %s", uid);
		for (int i = 0; i < c->nvictims; i++) {
			cJSON_AddItemToArray(victims, pk_victim_ref_json(&c->victims[i]));
			pk_victim_actions_json(actions, &c->victims[i], c->node, scheduler, "pod", by);
		}
		for (int i = 0; i < c->nclear; i++) {
			const pk_victim_ref *q = &c->clear_nominations[i];
			cJSON_AddItemToArray(cleared, pk_victim_ref_json(q));
			nomination_action(actions, q->uid, q->namespace_, q->name, NULL);
		}
		nomination_action(actions, uid, ns, name, c->node);
	} else if (strcmp(status, "FitsWithoutPreemption") == 0) {
		result = "NoPreemptionNeeded";
		*placed = true;
		fits_reason(e, fits, reason, sizeof reason);
		placement_of(e, fits, reason, sizeof reason);
	} else if (strcmp(status, "NotEligible") == 0) {
		/* Upstream returns a nil result: an existing nomination stays. */
		result = "NotEligible";
		node = nominated;
		snprintf(reason, sizeof reason, "%s", message);
	} else {
		/* No candidate: upstream clears any nomination the pod had. */
		result = "Unschedulable";
		snprintf(reason, sizeof reason, "%s", *message ? message : "no candidate node for preemption");
		if (nominated && *nominated)
			nomination_action(actions, uid, ns, name, NULL);
	}
	cJSON_AddStringToObject(o, "result", result);
	if (node)
		cJSON_AddStringToObject(o, "nominatedNodeName", node);
	else
		cJSON_AddNullToObject(o, "nominatedNodeName");
	cJSON_AddItemToObject(o, "victims", victims);
	cJSON_AddNumberToObject(o, "numPDBViolations", violations);
	cJSON_AddItemToObject(o, "clearedNominations", cleared);
	cJSON_AddNumberToObject(o, "candidates", e->ncandidates);
	if (cJSON_GetArraySize(fits))
		cJSON_AddItemToObject(o, "fits", cJSON_DetachItemFromObject(fits, "fits"));
	if (cJSON_GetObjectItemCaseSensitive(fits, "node")) {
		cJSON_AddItemToObject(o, "node", cJSON_DetachItemFromObject(fits, "node"));
		cJSON_AddItemToObject(o, "placement", cJSON_DetachItemFromObject(fits, "placement"));
	}
	cJSON_Delete(fits);
	if (decided_by && best >= 0)
		cJSON_AddStringToObject(o, "decidedBy", decided_by);
	cJSON_AddStringToObject(o, "reason", reason);
	carry_assumptions(r, o, e);
	cJSON_AddItemToObject(o, "actions", actions);
	cJSON *res = best >= 0 && e->candidates[best].node_resources ? cJSON_Parse(e->candidates[best].node_resources)
	                                                              : NULL;
	if (res)
		cJSON_AddItemToArray(cJSON_AddArrayToObject(o, "nodeResources"), res);
	return o;
}
