/* preempt-plan -o html: the plans as a report page (common/sched/report/report.h). */
#include "plan.h"

#include "k8s/json.h"

static void html_begin(plan_run *r)
{
	pk_report_opts o;
	pk_report_opts_default(&o);
	o.title = "victims | preempt-plan";
	o.k8s_minor = r->cli->engine.release.minor;
	/* the cluster's size, as victims counted it */
	for (long i = 0; i < r->nentries && o.nodes < 0; i++) {
		int64_t n;
		if (pk_int64(r->entries[i].preemptor, "nodes", &n))
			o.nodes = (long)n;
	}
	r->report = pk_report_new(&o);
}

static void html_plan(plan_run *r, const pk_plan *p, plan_entry *e)
{
	(void)e;
	pk_report_take(r->report, pk_plan_json(p));
}

static void html_end(plan_run *r, pk_out *out)
{
	/* one preemptor: the candidates it chose from beside its plan, and
	 * why the other nodes are none (victims --explain) */
	plan_entry *e = &r->entries[0];
	if (r->nentries == 1 && (e->ncandidates || e->not_candidates.n))
		pk_report_candidates(r->report, e->ref, e->candidates, e->ncandidates, &e->not_candidates, r->now);
	pk_report_run_warnings(r->report, &r->cli->diag);   /* the run's: its records hold none */
	pk_report_write(r->report, out);
	pk_report_free(r->report);
	r->report = NULL;
}

/* The page ranks every candidate: their victims are kept. */
const plan_writer plan_html_writer = { html_begin, html_plan, html_end, true, true, false, false };
