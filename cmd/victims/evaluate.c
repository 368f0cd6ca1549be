/* victims: evaluating the preemptors in order and writing the records. */
#include "victims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/records.h"

static void warn_unmodelled(victims_run *r, const pk_preemptor *p)
{
	if (!p->pod->unmodelled)
		return;
	char names[256];
	pk_unmodelled_names(p->pod->unmodelled, names, sizeof names);
	pk_diag_report(&r->cli->diag, PK_SEV_WARNING, NULL,
	               "preemptor %s/%s asks for %s, which victims does not model (ignored when filtering)",
	               p->pod->namespace_, p->pod->name, names);
}

static void write_records(pk_out *out, const pk_evaluation *e, const pk_snapshot *s, bool explain)
{
	cJSON *rec = pk_preemptor_json(e, s);
	pk_out_json(out, rec);
	cJSON_Delete(rec);
	for (int i = 0; i < e->ncandidates; i++) {
		rec = pk_candidate_json(s, e->preemptor->pod, &e->candidates[i]);
		pk_out_json(out, rec);
		cJSON_Delete(rec);
	}
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
	long candidates = 0;
	bool table = r->cli->format == PK_FMT_TABLE || r->cli->format == PK_FMT_WIDE;
	bool wide = r->cli->format == PK_FMT_WIDE;
	pk_table t;
	if (table)
		victims_table_header(r->cli, &t, wide);
	for (long i = 0; i < r->npreemptors; i++) {
		pk_preemptor *p = &r->preemptors[i];
		warn_unmodelled(r, p);
		pk_evaluation e;
		pk_evaluate(&r->snap, p, &r->opts->eval, &e);
		candidates += e.ncandidates;
		if (table)
			victims_table_rows(&t, &e, wide);
		else
			write_records(out, &e, &r->snap, r->opts->explain);
		/* Later preemptors see this one's plan carried out: victims gone,
		 * the preemptor nominated to the chosen node. */
		pk_snapshot_apply(&r->snap, &e);
		pk_evaluation_free(&e);
	}
	if (table) {
		pk_cli_table_warnings(r->cli, &t);
		pk_table_flush(&t, out);
	}
	return candidates;
}

/* ---- table ------------------------------------------------------------------ */

void victims_table_header(const pk_cli *cli, pk_table *t, bool wide)
{
	static const char *const narrow[] = { "PREEMPTOR", "PRIORITY", "STATUS", "NODE", "VICTIMS",
	                                      "PDB-VIOLATIONS", "TOP-PRIORITY", "MESSAGE" };
	static const char *const wide_cols[] = { "PREEMPTOR", "PRIORITY", "STATUS", "NODE", "VICTIMS",
	                                         "PDB-VIOLATIONS", "TOP-PRIORITY", "VICTIM-PODS", "MESSAGE" };
	pk_cli_table_init(cli, t, wide ? 9 : 8, wide ? wide_cols : narrow);
}

/* One row per candidate (the chosen one's status marked with '*'), or one
 * row with the reason when there is none. */
void victims_table_rows(pk_table *t, const pk_evaluation *e, bool wide)
{
	const pk_pod *p = e->preemptor->pod;
	char who[600], prio[16];
	snprintf(who, sizeof who, "%s/%s", p->namespace_, p->name);
	snprintf(prio, sizeof prio, "%d", p->priority);
	const char *status = pk_pre_status_name(e->status);
	if (e->ncandidates == 0) {
		const char *row[] = { who, prio, status, "<none>", "-", "-", "-", e->message, e->message };
		if (wide)
			row[7] = "<none>";
		pk_table_row(t, row);
		return;
	}
	for (int i = 0; i < e->ncandidates; i++) {
		const pk_candidate *c = &e->candidates[i];
		char nv[16], viol[16], top[16], st[64];
		snprintf(nv, sizeof nv, "%d", c->nvictims);
		snprintf(viol, sizeof viol, "%d", c->num_pdb_violations);
		snprintf(top, sizeof top, "%d", c->nvictims ? c->victims[0].priority : 0);
		snprintf(st, sizeof st, "%s%s", status, i == e->best ? "*" : "");
		size_t len = 1;
		for (int k = 0; k < c->nvictims; k++)
			len += strlen(c->victims[k].namespace_) + strlen(c->victims[k].name) + 2;
		char *names = malloc(len);
		if (!names)
			abort();
		names[0] = '\0';
		for (int k = 0; k < c->nvictims; k++) {
			if (k)
				strcat(names, ",");
			strcat(names, c->victims[k].namespace_);
			strcat(names, "/");
			strcat(names, c->victims[k].name);
		}
		const char *row[] = { who, prio, st, c->node, nv, viol, top, wide ? names : "", "" };
		pk_table_row(t, row);
		free(names);
	}
}
