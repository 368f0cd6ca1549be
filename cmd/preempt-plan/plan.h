/* preempt-plan: the logic behind cmd/preempt-plan/main.c. */
#ifndef PREEMPT_PLAN_H
#define PREEMPT_PLAN_H

#include <stdbool.h>
#include "cli.h"
#include "io/writer.h"
#include "sched/engine/engine.h"
#include "sched/report/records.h"

/* Everything victims said about one preemptor. */
typedef struct plan_entry {
	char key[600];            /* uid:<uid> or <namespace>/<name> */
	cJSON *preemptor;         /* the Preemptor record (owned), or NULL */
	cJSON *ref;               /* preemptor reference (borrowed from a record) */
	cJSON *ref_owned;         /* a copy when no Preemptor record was seen */
	pk_candidate *candidates;
	int ncandidates, cap;
	/* The choice already made (the simulator's evaluation): candidates[best]
	 * won by decided_by, and candidates may list it alone. */
	bool chosen;
	int best;
	const char *decided_by;
	/* With plan_run.summaries: the candidate that node choice puts first
	 * so far, the only one decoded whole (-1: none yet). */
	int leading;
	pk_node_groups not_candidates; /* its NodeStatus records (victims --explain), for tables */
} plan_entry;

typedef struct plan_run {
	pk_cli *cli;
	pk_stats stats;
	pk_arena arena;
	pk_strtab *strs;
	plan_entry *entries;      /* in order of first appearance */
	long nentries, cap;
	long trouble;
	int64_t now;
	/* Candidates decoded as summaries but for the one that leads node
	 * choice as the records arrive: a plan (NDJSON) lists that one's
	 * victims only. Tables and the page show every candidate's. */
	bool summaries;
	bool release_warned;      /* a record named another release (said once) */
} plan_run;

void plan_init(plan_run *r, pk_cli *cli);
void plan_free(plan_run *r);
/* Read victims' records from paths (stdin when none). -1 if nothing could be read. */
int plan_read(plan_run *r, char **paths, int npaths);
/* Write one PreemptionPlan per preemptor; returns how many cannot be placed. */
long plan_write(plan_run *r, pk_out *out);
/* The same as a report page (-o html, html.c). */
long plan_write_html(plan_run *r, pk_out *out);

/* The PreemptionPlan record of one entry (caller owns it); *placed tells
 * whether the result is Preempt or NoPreemptionNeeded. */
cJSON *plan_build(plan_run *r, const plan_entry *e, bool *placed);

#endif
