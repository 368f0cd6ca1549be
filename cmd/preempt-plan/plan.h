/* preempt-plan: the logic behind cmd/preempt-plan/main.c. */
#ifndef PREEMPT_PLAN_H
#define PREEMPT_PLAN_H

#include <stdbool.h>
#include "cli.h"
#include "io/writer.h"
#include "sched/engine/engine.h"
#include "io/table.h"
#include "sched/report/plan.h"
#include "sched/report/records.h"
#include "sched/report/report.h"

/* Everything victims said about one preemptor. */
typedef struct plan_entry {
	char key[600];            /* uid:<uid> or <namespace>/<name> */
	cJSON *preemptor;         /* the Preemptor record (owned), or NULL */
	cJSON *ref;               /* preemptor reference (borrowed from a record) */
	cJSON *ref_owned;         /* a copy when no Preemptor record was seen */
	pk_candidate *candidates;
	int ncandidates, cap;
	/* With plan_run.summaries: the candidate that node choice puts first
	 * so far, the only one decoded whole (-1: none yet). */
	int leading;
	pk_node_groups not_candidates; /* its NodeStatus records (victims --explain), for tables */
} plan_entry;

typedef struct plan_run plan_run;

/* How plans are written, chosen once from -o (output.c). */
typedef struct plan_writer {
	void (*begin)(plan_run *r);
	void (*plan)(plan_run *r, const pk_plan *p, plan_entry *e);
	void (*end)(plan_run *r, pk_out *out);
	/* What the writer shows, so that the reading keeps it: every
	 * candidate's victims (the page), the nodes that are no candidate
	 * (victims --explain's NodeStatus records: a table, the page), every
	 * node of such a group (wide). */
	bool every_candidate, node_status, all_node_names;
	bool footer_warnings;     /* the run's warnings go under a table */
} plan_writer;

const plan_writer *plan_writer_for(pk_format f);

/* The plans' warnings under a table: each text once, with how many
 * preemptors it concerns. */
typedef struct warning_count {
	char *text;
	long n;
} warning_count;

struct plan_run {
	pk_cli *cli;
	pk_stats stats;
	pk_arena arena;
	pk_strtab *strs;
	plan_entry *entries;      /* in order of first appearance */
	long nentries, cap;
	long trouble;
	int64_t now;
	/* Candidates decoded as summaries but for the one that leads node
	 * choice as the records arrive: a plan lists that one's victims only.
	 * Off for a writer that shows every candidate (the page:
	 * plan_writer.every_candidate). */
	bool summaries;
	bool release_warned;      /* a record named another release (said once) */
	const char *namespace_;   /* -n: the namespace whose plans are written, NULL for all */
	long other_namespaces;    /* records of preemptors in other namespaces, left out */
	const plan_writer *writer;
	pk_out *out;
	/* the writers' state: a table and what goes under it, or a page */
	pk_table table;
	bool compared;
	warning_count *warnings;
	long nwarnings;
	pk_report *report;
};

void plan_init(plan_run *r, pk_cli *cli);
void plan_free(plan_run *r);
/* Read victims' records from paths (stdin when none). -1 if nothing could be read. */
int plan_read(plan_run *r, char **paths, int npaths);
/* Write one PreemptionPlan per preemptor; returns how many cannot be placed. */
long plan_write(plan_run *r, pk_out *out);
/* The page writer (-o html, html.c). */
extern const plan_writer plan_html_writer;

#endif
