/* victims: evaluating the preemptors in order, and the writers of the
 * answers, one per format (victims_writer_for): records, a table, a wide
 * table. */
#include "victims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/report/records.h"
#include "sched/engine/score/score.h"
#include "base/alloc.h"

long victims_evaluate(victims_run *r, pk_out *out)
{
	long negative = 0;
	r->out = out;
	r->eval = r->opts->eval;
	r->eval.victims_of_best_only = r->writer->lists_victims_itself;
	r->writer->begin(r);
	pk_score_cache *scores = pk_score_cache_new(&r->cli->engine.release);
	for (long i = 0; i < r->npreemptors; i++) {
		pk_preemptor *p = &r->preemptors[i];
		pk_evaluation e;
		pk_evaluate(&r->snap, p, &r->eval, &e);
		pk_placement pl; /* where a pod that fits goes */
		if (e.status == PK_PRE_FITS)
			pk_score_place(&r->snap, scores, p->pod, &e, &pl);
		if (e.status == PK_PRE_NOT_ELIGIBLE || e.status == PK_PRE_UNSCHEDULABLE)
			negative++;
		r->writer->answer(r, &e, e.status == PK_PRE_FITS ? &pl : NULL);
		/* Later preemptors see this one's plan carried out: victims gone,
		 * the preemptor nominated to the chosen node. */
		pk_snapshot_apply(&r->snap, &e);
		pk_evaluation_free(&e);
	}
	pk_score_cache_free(scores);
	r->writer->end(r);
	return negative;
}

/* ---- json: a Preemptor record, its Candidate records, --explain's NodeStatus ---- */

static void json_begin(victims_run *r)
{
	(void)r;
}

static void json_answer(victims_run *r, const pk_evaluation *e, const pk_placement *pl)
{
	char *text = pk_preemptor_text(e, pl); /* printed without a tree */
	pk_out_record_text(r->out, text);
	free(text);
	pk_write_candidates(r->out, &r->snap, e, r->eval.threads);
	if (!r->opts->explain)
		return;
	for (long i = 0; i < e->nnodes; i++) {
		text = pk_node_status_text(e, i);
		if (!text)
			continue;
		pk_out_record_text(r->out, text);
		free(text);
	}
}

static void json_end(victims_run *r)
{
	(void)r;
}

/* ---- table and wide: a row per candidate (the chosen one's RESULT marked
 * with '*'), or one row with the reason when there is none; --explain adds
 * the nodes that are no candidate, grouped by what failed ---- */

static const pk_plan_col narrow_cols[] = { PK_COL_PREEMPTOR, PK_COL_PRIORITY, PK_COL_RESULT, PK_COL_NODE,
                                           PK_COL_VICTIMS, PK_COL_PDB_VIOLATIONS, PK_COL_TOP_PRIORITY,
                                           PK_COL_REASON };
static const pk_plan_col wide_cols[] = { PK_COL_PREEMPTOR, PK_COL_PRIORITY, PK_COL_RESULT, PK_COL_NODE,
                                         PK_COL_VICTIMS, PK_COL_PDB_VIOLATIONS, PK_COL_TOP_PRIORITY,
                                         PK_COL_ADJUSTED_SUM, PK_COL_VICTIM_PODS, PK_COL_REASON };
static const pk_plan_columns narrow = PK_PLAN_COLUMNS(narrow_cols);
static const pk_plan_columns wide = PK_PLAN_COLUMNS(wide_cols);

static void table_begin(victims_run *r)
{
	pk_plan_table_init(&r->table, r->writer->columns, r->cli->no_headers);
}

static void row_init(pk_plan_row *row, const pk_evaluation *e)
{
	const pk_pod *p = e->preemptor->pod;
	pk_plan_row_init(row, p->namespace_, p->name, p->priority);
}

/* Under --dra-preemption=kep-5690: "; " and the devices candidate c's
 * victims free (and keep), into buf; "" when none. */
static void victim_devices_text(victims_run *r, const pk_evaluation *e, const pk_candidate *c, char *buf,
                                size_t size)
{
	buf[0] = '\0';
	if (!r->snap.dra_kep5690 || !c->nvictims || !c->victims)
		return;
	pk_victim_ref *v = pk_xmalloc(sizeof *v * (size_t)c->nvictims);
	memcpy(v, c->victims, sizeof *v * (size_t)c->nvictims);
	pk_victim_device *devices = pk_dra_victims_devices(&r->snap, e->preemptor->pod, c->node, v, c->nvictims);
	if (devices && size > 2 && pk_victim_devices_text(v, c->nvictims, buf + 2, size - 2))
		memcpy(buf, "; ", 2);
	else
		buf[0] = '\0';
	free(devices);
	free(v);
}

static void candidate_rows(victims_run *r, const pk_evaluation *e)
{
	for (int i = 0; i < e->ncandidates; i++) {
		char reason[1800], devices[1500];
		pk_plan_row row;
		row_init(&row, e);
		pk_plan_row_of_candidate(&row, e, i);
		victim_devices_text(r, e, &e->candidates[i], devices, sizeof devices);
		if (i == e->best)
			snprintf(reason, sizeof reason, "chosen from %d candidate node(s) by %s%s", e->ncandidates,
			         e->decided_by, devices);
		else
			snprintf(reason, sizeof reason, "a candidate%s", devices);
		row.reason = reason;
		row.reason_whole = true;
		pk_plan_table_row(&r->table, r->writer->columns, &row);
	}
}

/* A pod that fits: where the scores place it, and on how many nodes it fits
 * (the first of them). */
static void fits_row(victims_run *r, const pk_evaluation *e, const pk_placement *pl)
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
	pk_plan_row row;
	row_init(&row, e);
	snprintf(row.result, sizeof row.result, "%s", pk_plan_result_name(PK_PLAN_NO_PREEMPTION_NEEDED));
	snprintf(row.node, sizeof row.node, "%s", pl->node ? pl->node->node->name : PK_PLAN_NONE);
	row.reason = reason;
	row.reason_whole = true;
	pk_plan_table_row(&r->table, r->writer->columns, &row);
}

/* --explain: the nodes that are no candidate, one row per plugin and
 * reason, with the count and the nodes. */
typedef struct explain_ctx {
	victims_run *r;
	const pk_evaluation *e;
} explain_ctx;

static void explain_row(void *ctx, const pk_node_group *g, const char *nodes, const char *reason)
{
	explain_ctx *x = ctx;
	(void)g;
	pk_plan_row row;
	row_init(&row, x->e);
	pk_plan_row_not_candidate(&row, nodes, reason);
	pk_plan_table_row(&x->r->table, x->r->writer->columns, &row);
}

static void explain_rows(victims_run *r, const pk_evaluation *e)
{
	pk_node_groups gs = { .all_names = r->writer->columns == &wide };
	for (long i = 0; i < e->nnodes; i++) {
		const char *stage, *preemption;
		const pk_status *st = pk_node_status_of(e, i, &stage, &preemption);
		char taint[600], detail[2400];
		if (st && st->code != PK_CODE_SUCCESS)
			pk_node_groups_add(&gs, e->nodes[i].ni->node->name, stage, pk_code_name(st->code), st->plugin,
			                   st->reasons, st->nreasons, preemption, pk_node_taint_text(e, i, taint, sizeof taint),
			                   pk_node_dra_detail_text(e, i, detail, sizeof detail));
	}
	explain_ctx x = { r, e };
	pk_node_groups_flush(&gs, explain_row, &x);
}

static void table_answer(victims_run *r, const pk_evaluation *e, const pk_placement *pl)
{
	r->chosen |= e->best >= 0;
	if (e->ncandidates > 0) {
		candidate_rows(r, e);
	} else if (pl) {
		fits_row(r, e, pl);
	} else {
		pk_plan_row row;
		row_init(&row, e);
		snprintf(row.result, sizeof row.result, "%s", pk_plan_result_name(pk_plan_result_of(e->status)));
		snprintf(row.node, sizeof row.node, PK_PLAN_NONE);
		char gated[2300];
		row.reason = e->pre_enqueue ? pk_pre_enqueue_text(e->message, gated, sizeof gated) : e->message;
		row.reason_whole = true;
		pk_plan_table_row(&r->table, r->writer->columns, &row);
	}
	if (r->opts->explain)
		explain_rows(r, e);
}

static void table_end(victims_run *r)
{
	if (r->chosen)
		pk_table_footer(&r->table, "* the node pickOneNodeForPreemption chooses: fewest PDB violations, then lowest "
		                           "highest-victim priority, smallest priority sum, fewest victims, latest start of "
		                           "the highest-priority victims, node name; REASON names the criterion that decided");
	if (r->chosen && r->writer->columns == &wide)
		pk_table_footer(&r->table, "%s", PK_ADJUSTED_SUM_RULE);
	pk_cli_table_warnings(r->cli, &r->table);
	pk_table_flush(&r->table, r->out);
}

static const victims_writer json_writer = { json_begin, json_answer, json_end, true, NULL, false };
static const victims_writer narrow_writer = { table_begin, table_answer, table_end, false, &narrow, true };
static const victims_writer wide_writer = { table_begin, table_answer, table_end, false, &wide, true };

const victims_writer *victims_writer_for(pk_format f)
{
	switch (f) {
	case PK_FMT_TABLE: return &narrow_writer;
	case PK_FMT_WIDE: return &wide_writer;
	default: return &json_writer;
	}
}
