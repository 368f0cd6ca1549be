/* victims: evaluating the preemptors in order and writing the records. */
#include "victims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/report/records.h"
#include "sched/engine/score.h"
#include "base/alloc.h"

static void write_records(pk_out *out, const pk_evaluation *e, const pk_placement *pl, pk_snapshot *s,
                          bool explain, int threads)
{
	cJSON *rec = pk_preemptor_json(e, s);
	if (pl) {
		cJSON_AddItemToObject(rec, "placement", pk_placement_json(pl));
		if (pl->assumes)
			cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(rec, "warnings"), cJSON_CreateString(pl->assumes));
	}
	pk_out_json(out, rec);
	cJSON_Delete(rec);
	pk_write_candidates(out, s, e, threads);
	if (!explain)
		return;
	for (long i = 0; i < e->nnodes; i++) {
		rec = pk_node_status_json(e, i);
		if (!rec)
			continue;
		pk_out_json(out, rec);
		cJSON_Delete(rec);
	}
}

long victims_evaluate(victims_run *r, pk_out *out)
{
	long negative = 0;
	bool table = r->cli->format == PK_FMT_TABLE || r->cli->format == PK_FMT_WIDE;
	bool wide = r->cli->format == PK_FMT_WIDE, chosen = false;
	pk_table t;
	if (table)
		victims_table_header(r->cli, &t, wide);
	pk_score_cache *scores = pk_score_cache_new();
	for (long i = 0; i < r->npreemptors; i++) {
		pk_preemptor *p = &r->preemptors[i];
		pk_evaluation e;
		pk_evaluate(&r->snap, p, &r->opts->eval, &e);
		pk_placement pl; /* where a pod that fits goes */
		if (e.status == PK_PRE_FITS)
			pk_score_place(&r->snap, scores, p->pod, &e, &pl);
		if (e.status == PK_PRE_NOT_ELIGIBLE || e.status == PK_PRE_UNSCHEDULABLE)
			negative++;
		chosen |= e.best >= 0;
		if (table)
			victims_table_rows(&t, &e, e.status == PK_PRE_FITS ? &pl : NULL, wide, r->opts->explain);
		else
			write_records(out, &e, e.status == PK_PRE_FITS ? &pl : NULL, &r->snap, r->opts->explain,
			              r->opts->eval.threads);
		/* Later preemptors see this one's plan carried out: victims gone,
		 * the preemptor nominated to the chosen node. */
		pk_snapshot_apply(&r->snap, &e);
		pk_evaluation_free(&e);
	}
	pk_score_cache_free(scores);
	if (table) {
		if (chosen)
			pk_table_footer(&t, "* the node pickOneNodeForPreemption chooses: fewest PDB violations, then lowest "
			                    "highest-victim priority, smallest priority sum, fewest victims, latest start of "
			                    "the highest-priority victims, node name; REASON names the criterion that decided");
		if (chosen && wide)
			pk_table_footer(&t, "%s", PK_ADJUSTED_SUM_RULE);
		pk_cli_table_warnings(r->cli, &t);
		pk_table_flush(&t, out);
	}
	return negative;
}

/* ---- table ------------------------------------------------------------------ */

void victims_table_header(const pk_cli *cli, pk_table *t, bool wide)
{
	static const char *const narrow[] = { "PREEMPTOR", "PRIORITY", "RESULT", "NODE", "VICTIMS",
	                                      "PDB-VIOLATIONS", "TOP-PRIORITY", "REASON" };
	static const char *const wide_cols[] = { "PREEMPTOR", "PRIORITY", "RESULT", "NODE", "VICTIMS",
	                                         "PDB-VIOLATIONS", "TOP-PRIORITY", PK_ADJUSTED_SUM_COLUMN,
	                                         "VICTIM-PODS", "REASON" };
	pk_cli_table_init(cli, t, wide ? 10 : 8, wide ? wide_cols : narrow);
}

/* A row of the narrow or the wide table: cells in wide order, the
 * ADJUSTED-SUM and VICTIM-PODS cells dropped when narrow. */
static void row(pk_table *t, bool wide, const char *const cells[10])
{
	if (wide) {
		pk_table_row(t, cells);
		return;
	}
	const char *narrow[8] = { cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], cells[9] };
	pk_table_row(t, narrow);
}

static char *victim_names(const pk_candidate *c)
{
	size_t len = 8;
	for (int k = 0; k < c->nvictims; k++)
		len += strlen(c->victims[k].namespace_) + strlen(c->victims[k].name) + 2;
	char *names = pk_xmalloc(len);
	size_t w = 0;
	for (int k = 0; k < c->nvictims; k++)
		w += (size_t)snprintf(names + w, len - w, "%s%s/%s", k ? "," : "", c->victims[k].namespace_,
		                      c->victims[k].name);
	if (!c->nvictims)
		snprintf(names, len, "<none>");
	return names;
}

static void candidate_rows(pk_table *t, const pk_evaluation *e, bool wide, const char *who, const char *prio)
{
	for (int i = 0; i < e->ncandidates; i++) {
		const pk_candidate *c = &e->candidates[i];
		char nv[16], viol[16], top[16], sum[64], result[64], reason[300];
		snprintf(nv, sizeof nv, "%d", c->nvictims);
		snprintf(viol, sizeof viol, "%d", c->num_pdb_violations);
		snprintf(top, sizeof top, "%d", c->nvictims ? c->victims[0].priority : 0);
		int64_t raw = 0;
		for (int k = 0; k < c->nvictims; k++)
			raw += c->victims[k].priority;
		pk_adjusted_sum_text(c->nvictims, raw, sum, sizeof sum);
		snprintf(result, sizeof result, "NeedsPreemption%s", i == e->best ? "*" : "");
		if (i == e->best)
			snprintf(reason, sizeof reason, "chosen from %d candidate node(s) by %s", e->ncandidates, e->decided_by);
		else
			snprintf(reason, sizeof reason, "a candidate");
		char *names = victim_names(c);
		const char *cells[10] = { who, prio, result, c->node, nv, viol, top, sum, names, reason };
		row(t, wide, cells);
		free(names);
	}
}

/* A pod that fits: where the scores place it, and on how many nodes it fits
 * (the first of them). */
static void fits_row(pk_table *t, const pk_evaluation *e, const pk_placement *pl, bool wide, const char *who,
                     const char *prio)
{
	const char *names[PK_FITS_SHOWN];
	int shown = 0;
	for (long i = 0; i < e->nnodes && shown < PK_FITS_SHOWN; i++)
		if (e->nodes[i].filter->code == PK_CODE_SUCCESS)
			names[shown++] = e->nodes[i].ni->node->name;
	char fits[600], placed[600], reason[1300];
	pk_fits_text(names, shown, e->nfit, fits, sizeof fits);
	snprintf(reason, sizeof reason, "%s; %s%s%s", fits, pk_placement_text(pl, placed, sizeof placed),
	         pl->assumes ? "; " : "", pl->assumes ? pl->assumes : "");
	const char *cells[10] = { who, prio, pk_pre_status_name(e->status), pl->node ? pl->node->node->name : "<none>",
	                         "0", "-", "-", "-", "<none>", reason };
	row(t, wide, cells);
}

/* --explain: the nodes that are no candidate, one row per plugin and
 * reason, with the count and the nodes. */
typedef struct explain_ctx {
	pk_table *t;
	bool wide;
	const char *who, *prio;
} explain_ctx;

static void explain_row(void *ctx, const pk_node_group *g, const char *nodes, const char *reason)
{
	explain_ctx *x = ctx;
	(void)g;
	const char *cells[10] = { x->who, x->prio, "NotCandidate", nodes, "-", "-", "-", "-", "-", reason };
	row(x->t, x->wide, cells);
}

static void explain_rows(pk_table *t, const pk_evaluation *e, bool wide, const char *who, const char *prio)
{
	pk_node_groups gs = { .all_names = wide };
	for (long i = 0; i < e->nnodes; i++) {
		const char *stage, *preemption;
		const pk_status *st = pk_node_status_of(e, i, &stage, &preemption);
		if (st && st->code != PK_CODE_SUCCESS)
			pk_node_groups_add(&gs, e->nodes[i].ni->node->name, stage, pk_code_name(st->code), st->plugin,
			                   st->reasons, st->nreasons, preemption);
	}
	explain_ctx x = { t, wide, who, prio };
	pk_node_groups_flush(&gs, explain_row, &x);
}

/* One row per candidate (the chosen one's RESULT marked with '*'), or one
 * row with the reason when there is none; --explain adds the others. */
void victims_table_rows(pk_table *t, const pk_evaluation *e, const pk_placement *pl, bool wide, bool explain)
{
	const pk_pod *p = e->preemptor->pod;
	char who[600], prio[16];
	snprintf(who, sizeof who, "%s/%s", p->namespace_, p->name);
	snprintf(prio, sizeof prio, "%d", p->priority);
	if (e->ncandidates > 0) {
		candidate_rows(t, e, wide, who, prio);
	} else if (pl) {
		fits_row(t, e, pl, wide, who, prio);
	} else {
		const char *cells[10] = { who, prio, pk_pre_status_name(e->status), "<none>", "-", "-", "-", "-", "<none>",
		                         e->message };
		row(t, wide, cells);
	}
	if (explain)
		explain_rows(t, e, wide, who, prio);
}
