/* victims: evaluating the preemptors in order and writing the records. */
#include "victims.h"

#include <stdio.h>
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
		rec = pk_candidate_json(e->preemptor->pod, &e->candidates[i]);
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
	if (table)
		victims_table_header(out, wide);
	for (long i = 0; i < r->npreemptors; i++) {
		pk_preemptor *p = &r->preemptors[i];
		warn_unmodelled(r, p);
		pk_evaluation e;
		pk_evaluate(&r->snap, p, &r->opts->eval, &e);
		candidates += e.ncandidates;
		if (table)
			victims_table_rows(out, &e, wide);
		else
			write_records(out, &e, &r->snap, r->opts->explain);
		/* Later preemptors see this one's plan carried out: victims gone,
		 * the preemptor nominated to the chosen node. */
		pk_snapshot_apply(&r->snap, &e);
		pk_evaluation_free(&e);
	}
	return candidates;
}

/* ---- table ------------------------------------------------------------------ */

void victims_table_header(pk_out *out, bool wide)
{
	pk_out_printf(out, "%-40s %-11s %-22s %-24s %7s %14s %12s%s\n", "PREEMPTOR", "PRIORITY", "STATUS", "NODE",
	              "VICTIMS", "PDB-VIOLATIONS", "TOP-PRIORITY", wide ? "   VICTIM-PODS" : "");
}

static void pod_label(char *buf, size_t size, const char *ns, const char *name)
{
	snprintf(buf, size, "%s/%s", ns, name);
}

void victims_table_rows(pk_out *out, const pk_evaluation *e, bool wide)
{
	const pk_pod *p = e->preemptor->pod;
	char who[300];
	pod_label(who, sizeof who, p->namespace_, p->name);
	const char *status = pk_pre_status_name(e->status);
	if (e->ncandidates == 0) {
		pk_out_printf(out, "%-40s %-11d %-22s %-24s %7s %14s %12s%s%s\n", who, p->priority, status, "<none>",
		              "-", "-", "-", wide ? "   " : "", wide ? e->message : "");
		return;
	}
	for (int i = 0; i < e->ncandidates; i++) {
		const pk_candidate *c = &e->candidates[i];
		char top[16];
		snprintf(top, sizeof top, "%d", c->nvictims ? c->victims[0].priority : 0);
		pk_out_printf(out, "%-40s %-11d %-22s %-24s %7d %14d %12s", who, p->priority,
		              i == e->best ? "NeedsPreemption*" : status, c->node, c->nvictims,
		              c->num_pdb_violations, top);
		if (wide) {
			pk_out_printf(out, "   ");
			for (int k = 0; k < c->nvictims; k++)
				pk_out_printf(out, "%s%s/%s", k ? "," : "", c->victims[k].namespace_, c->victims[k].name);
		}
		pk_out_printf(out, "\n");
	}
}
