/* preempt-plan: the writers of plans, one per format, chosen once
 * (plan_writer_for): NDJSON records, a table, a wide table (html.c: a
 * page). */
#include "plan.h"

#include "base/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- json ------------------------------------------------------------------------ */

static void json_begin(plan_run *r)
{
	(void)r;
}

static void json_plan(plan_run *r, const pk_plan *p, plan_entry *e)
{
	(void)e;
	cJSON *o = pk_plan_json(p);
	pk_out_json(r->out, o);
	cJSON_Delete(o);
}

static void json_end(plan_run *r, pk_out *out)
{
	(void)r;
	(void)out;
}

static const plan_writer json_writer = { json_begin, json_plan, json_end, false, false, false, false };

/* ---- table and wide ----------------------------------------------------------------- */

/* NODE: the node nominated (Preempt), or where the pod fits */
static const pk_plan_col narrow_cols[] = { PK_COL_PREEMPTOR, PK_COL_PRIORITY, PK_COL_RESULT, PK_COL_NODE,
                                           PK_COL_VICTIMS, PK_COL_ADJUSTED_SUM, PK_COL_REASON_FIRST };
static const pk_plan_col wide_cols[] = { PK_COL_PREEMPTOR, PK_COL_PRIORITY, PK_COL_RESULT, PK_COL_NODE,
                                         PK_COL_VICTIMS, PK_COL_ADJUSTED_SUM, PK_COL_PDB_VIOLATIONS,
                                         PK_COL_VICTIM_PODS, PK_COL_REASON };
static const pk_plan_columns narrow = PK_PLAN_COLUMNS(narrow_cols);
static const pk_plan_columns wide = PK_PLAN_COLUMNS(wide_cols);

static void table_begin(plan_run *r, const pk_plan_columns *c)
{
	pk_plan_table_init(&r->table, c, r->cli->no_headers);
}

static void narrow_begin(plan_run *r)
{
	table_begin(r, &narrow);
}

static void wide_begin(plan_run *r)
{
	table_begin(r, &wide);
}

/* The nodes victims --explain said are no candidate, grouped. */
typedef struct group_ctx {
	pk_table *t;
	const pk_plan_columns *c;
	const pk_plan *p;
} group_ctx;

static void group_row(void *ctx, const pk_node_group *g, const char *nodes, const char *reason)
{
	group_ctx *x = ctx;
	(void)g;
	pk_plan_row row;
	pk_plan_row_init(&row, x->p->namespace_, x->p->name, x->p->priority);
	pk_plan_row_not_candidate(&row, nodes, reason);
	pk_plan_table_row(x->t, x->c, &row);
}

static void count_warnings(plan_run *r, const pk_plan *p)
{
	for (int i = 0; i < p->nwarnings; i++) {
		long j = 0;
		while (j < r->nwarnings && strcmp(r->warnings[j].text, p->warnings[i]) != 0)
			j++;
		if (j == r->nwarnings) {
			r->warnings = pk_xrealloc(r->warnings, (size_t)r->nwarnings + 1, sizeof *r->warnings);
			r->warnings[j].text = pk_xstrdup(p->warnings[i]);
			r->warnings[j].n = 0;
			r->nwarnings++;
		}
		r->warnings[j].n++;
	}
}

static void table_plan(plan_run *r, const pk_plan_columns *c, const pk_plan *p, plan_entry *e)
{
	pk_plan_row row;
	bool compared;
	pk_plan_row_of(&row, p, &compared);
	r->compared |= compared;
	pk_plan_table_row(&r->table, c, &row);
	group_ctx x = { &r->table, c, p };
	pk_node_groups_flush(&e->not_candidates, group_row, &x);
	count_warnings(r, p);
}

static void narrow_plan(plan_run *r, const pk_plan *p, plan_entry *e)
{
	table_plan(r, &narrow, p, e);
}

static void wide_plan(plan_run *r, const pk_plan *p, plan_entry *e)
{
	table_plan(r, &wide, p, e);
}

static void table_end(plan_run *r, pk_out *out)
{
	if (r->compared)
		pk_table_footer(&r->table, "%s", PK_ADJUSTED_SUM_RULE);
	for (long j = 0; j < r->nwarnings; j++) {
		if (r->warnings[j].n > 1)
			pk_table_footer(&r->table, "Warning: %s (%ld preemptors)", r->warnings[j].text, r->warnings[j].n);
		else
			pk_table_footer(&r->table, "Warning: %s", r->warnings[j].text);
		free(r->warnings[j].text);
	}
	free(r->warnings);
	r->warnings = NULL;
	pk_cli_table_warnings(r->cli, &r->table);
	pk_table_flush(&r->table, out);
}

static const plan_writer narrow_writer = { narrow_begin, narrow_plan, table_end, false, true, false, true };
static const plan_writer wide_writer = { wide_begin, wide_plan, table_end, false, true, true, true };

const plan_writer *plan_writer_for(pk_format f)
{
	switch (f) {
	case PK_FMT_TABLE: return &narrow_writer;
	case PK_FMT_WIDE: return &wide_writer;
	case PK_FMT_HTML: return &plan_html_writer;
	default: return &json_writer;
	}
}
