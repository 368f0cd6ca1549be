/* preempt-plan: reading victims' records, choosing the node, and writing the
 * plan with the API calls the scheduler would make. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "k8s/json.h"
#include "sched/report/records.h"
#include "sched/engine/score/score.h"
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
	r->writer = plan_writer_for(cli->format);
	r->summaries = !r->writer->every_candidate;
}

void plan_free(plan_run *r)
{
	for (long i = 0; i < r->nentries; i++) {
		cJSON_Delete(r->entries[i].preemptor);
		cJSON_Delete(r->entries[i].ref_owned);
		for (int k = 0; k < r->entries[i].ncandidates; k++)
			cJSON_Delete(r->entries[i].candidates[k].node_resources);
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
static void decode_if_leading(plan_run *r, plan_entry *e, cJSON *record)
{
	int at = e->ncandidates - 1;
	if (e->leading >= 0) {
		pk_candidate pair[2] = { e->candidates[e->leading], e->candidates[at] };
		const char *why;
		if (pk_pick_one_node_why(pair, 2, r->now, &why) != 1)
			return;
		/* no longer first: no plan shows its node's resources */
		cJSON_Delete(e->candidates[e->leading].node_resources);
		e->candidates[e->leading].node_resources = NULL;
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
	e->not_candidates.all_names = r->writer->all_node_names;
	const cJSON *t = pk_get(o, "untoleratedTaint"), *dra = pk_get(o, "draDetail");
	char taint[600], detail[2400];
	pk_node_groups_add(&e->not_candidates, pk_str_or(o, "node", ""), pk_str_or(o, "stage", ""),
	                   pk_str_or(o, "code", ""), pk_str(o, "plugin"), reasons, n, pk_str(o, "preemption"),
	                   cJSON_IsObject(t) ? pk_taint_text(pk_str_or(t, "key", ""), pk_str_or(t, "value", ""),
	                                                     pk_str_or(t, "effect", ""), taint, sizeof taint)
	                                     : NULL,
	                   cJSON_IsObject(dra) ? pk_dra_detail_text(pk_str_or(dra, "claim", ""), pk_str_or(dra, "request", ""),
	                                                            pk_str_or(dra, "message", ""), detail, sizeof detail)
	                                       : NULL);
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
	if (r->namespace_ && cJSON_IsObject(ref) && strcmp(pk_str_or(ref, "namespace", ""), r->namespace_) != 0) {
		r->other_namespaces++; /* -n: another namespace's preemptor */
		pk_stats_skip(&r->stats, kind);
		return 0;
	}
	if (r->writer->node_status && strcmp(kind, "NodeStatus") == 0 && cJSON_IsObject(ref)) {
		add_node_status(r, entry_for(r, ref), rec->obj);
		return 0;
	}
	if (!is_pre && !is_cand) {
		pk_stats_skip(&r->stats, kind); /* NodeStatus (when not shown), Stats, other objects */
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

/* ---- the plans --------------------------------------------------------------------- */

/* The plan of one entry: the Preemptor record and the candidates decoded
 * into the plan builder's facts, and decided. */
static void entry_plan(const plan_run *r, const plan_entry *e, pk_plan *p)
{
	memset(p, 0, sizeof *p);
	p->k8s_minor = r->cli->engine.release.minor;
	p->candidates = e->candidates;
	p->ncandidates = e->ncandidates;
	pk_plan_pod_from_record(p, e->preemptor, e->ref);
	if (e->preemptor && other_release(r, e->preemptor, p->owned_warning, sizeof p->owned_warning))
		pk_plan_add_warning(p, p->owned_warning);
	pk_plan_decide(p, r->now);
}

long plan_write(plan_run *r, pk_out *out)
{
	long unplaced = 0;
	r->out = out;
	r->writer->begin(r);
	for (long i = 0; i < r->nentries; i++) {
		pk_plan p;
		entry_plan(r, &r->entries[i], &p);
		unplaced += p.result != PK_PLAN_PREEMPT && p.result != PK_PLAN_NO_PREEMPTION_NEEDED;
		r->writer->plan(r, &p, &r->entries[i]);
		pk_plan_free(&p);
	}
	r->writer->end(r, out);
	return unplaced;
}
