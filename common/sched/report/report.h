/* The report of preemption plans and simulations (preempt-plan -o html):
 * one self-contained HTML page - no network, no external assets, readable
 * with JavaScript off (the script only sorts and filters tables), dark mode
 * through prefers-color-scheme, print styles.
 *
 * The page is a view of the records the tool writes as NDJSON
 * (PreemptionPlan, SimulationSummary, AppliedObject): everything it shows
 * is counted or grouped from them, nothing is decided again. The records
 * are embedded in the page (<script type="application/json"
 * id="preemptkit-records">, an array) so that the report is also the data;
 * each plan's "actions" are left out there (the page counts them per call
 * type; -o json has them), and beyond a byte budget the plans that do not
 * fit are left out of the embedded data, which the page says.
 *
 * Order of the page: warnings (each once, with the plans, applied objects
 * or times it concerns); summary; applied objects; the node choice of a single
 * plan; impact by owner workload; PDB violations; gangs; cascades;
 * Unschedulable and NotEligible reasons grouped; nodes touched (one SVG
 * capacity bar per resource before and after, at most max_nodes of them);
 * per unit its plan (with the criterion that chose its node, decidedBy),
 * each with an anchor (#pod-<namespace>.<name>).
 */
#ifndef PK_SCHED_REPORT_H
#define PK_SCHED_REPORT_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "diag.h"
#include "io/writer.h"
#include "sched/engine/engine.h"
#include "sched/report/records.h"

typedef struct pk_report_opts {
	const char *title;        /* what made it, e.g. "preempt-plan --simulate" */
	int k8s_minor;            /* the release answered for, named in the header (the newest by default) */
	long nodes;               /* nodes in the cluster, or -1 when the records do not say */
	int max_nodes;            /* touched nodes drawn (default 500) */
	int max_candidates;       /* candidates shown beside a single plan's choice (default 10) */
	long max_units;           /* plans listed one by one (default 2000) */
	size_t max_bytes;         /* the page's size the embedded plans must leave it within
	                           * (default 2,000,000 bytes) */
} pk_report_opts;

void pk_report_opts_default(pk_report_opts *o);

typedef struct pk_report pk_report;

pk_report *pk_report_new(const pk_report_opts *o);
void pk_report_free(pk_report *r);

/* Hand over a record the tool would write (the report owns it from here):
 * PreemptionPlan, SimulationSummary, AppliedObject; other kinds are kept in
 * the embedded data only. */
void pk_report_take(pk_report *r, cJSON *rec);

/* The candidates a single plan chose from (victims' Candidate records, as
 * decoded), ranked as node choice ranks them (pk_pick_one_node at now):
 * the first max_candidates are shown beside the chosen node; and the
 * nodes that are no candidate, grouped by why (victims --explain; others
 * may be NULL, it is emptied). preemptor is the plan's preemptor reference. */
void pk_report_candidates(pk_report *r, const cJSON *preemptor, const pk_candidate *c, int n,
                          pk_node_groups *others, int64_t now);

/* The tool's own warnings of the run, each with how often it was said (the
 * causes of d, pk_diag_warn_once's): the count as a number, not read back
 * from the text the records carry ("message (N times)", the
 * SimulationSummary's). With the warnings of the records they make the box
 * at the top of the page: each once, with what it touched. Call it before
 * pk_report_write. */
void pk_report_run_warnings(pk_report *r, const pk_diag *d);

/* Write the page. Returns 0, or -1 when a write failed (out remembers it). */
int pk_report_write(pk_report *r, pk_out *out);

#endif
