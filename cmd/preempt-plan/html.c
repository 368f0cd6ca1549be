/* preempt-plan -o html: the plans as a report page (common/sched/report.h). */
#include "plan.h"

#include "k8s/json.h"
#include "sched/report/report.h"

long plan_write_html(plan_run *r, pk_out *out)
{
	pk_report_opts o;
	pk_report_opts_default(&o);
	o.title = "victims | preempt-plan";
	o.k8s_minor = r->cli->engine.gates.k8s_minor;
	/* the cluster's size, as victims counted it */
	for (long i = 0; i < r->nentries && o.nodes < 0; i++) {
		int64_t n;
		if (pk_int64(r->entries[i].preemptor, "nodes", &n))
			o.nodes = (long)n;
	}
	pk_report *rep = pk_report_new(&o);
	long unplaced = 0;
	for (long i = 0; i < r->nentries; i++) {
		bool placed;
		pk_report_take(rep, plan_build(r, &r->entries[i], &placed));
		unplaced += !placed;
	}
	/* one preemptor: the candidates it chose from beside its plan, and
	 * why the other nodes are none (victims --explain) */
	plan_entry *e = &r->entries[0];
	if (r->nentries == 1 && (e->ncandidates || e->not_candidates.n))
		pk_report_candidates(rep, e->ref, e->candidates, e->ncandidates, &e->not_candidates, r->now);
	pk_report_warnings(rep, pk_cli_warnings_json(r->cli));   /* the run's: its records hold none */
	pk_report_write(rep, out);
	pk_report_free(rep);
	return unplaced;
}
