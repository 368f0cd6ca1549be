/* victims: the logic behind cmd/victims/main.c. */
#ifndef VICTIMS_H
#define VICTIMS_H

#include <stdbool.h>
#include "cli.h"
#include "io/writer.h"
#include "sched/engine/engine.h"
#include "sched/engine/score/score.h"
#include "io/table.h"
#include "sched/report/plan.h"
#include "sched/engine/gang/gang.h"

typedef struct victims_opts {
	char **preemptor_files;   /* --preemptor, in order */
	int npreemptor_files;
	bool pending;             /* --pending */
	/* -n NS (NULL: every namespace, -A): the pending pods answered for,
	 * and the namespace of a --preemptor object that names none */
	const char *namespace_;
	bool explain;             /* --explain */
	pk_eval_opts eval;
} victims_opts;

typedef struct victims_run victims_run;

/* How the answers are written, chosen once from -o (evaluate.c). */
typedef struct victims_writer {
	void (*begin)(victims_run *r);
	/* pl: where a pod that fits goes (score.h), NULL for the others */
	void (*answer)(victims_run *r, const pk_evaluation *e, const pk_placement *pl);
	void (*end)(victims_run *r);
	/* The records list every candidate's victims as they are printed
	 * (pk_write_candidates): the evaluation may leave them out. */
	bool lists_victims_itself;
	const pk_plan_columns *columns;   /* a table's */
	bool footer_warnings;     /* the run's warnings go under it */
} victims_writer;

const victims_writer *victims_writer_for(pk_format f);

/* Run state of one invocation. */
struct victims_run {
	pk_cli *cli;
	const victims_opts *opts;
	pk_snapshot snap;
	pk_stats stats;
	pk_preemptor *preemptors;
	long *lines;              /* parallel: line of each --preemptor object (0: pending pod) */
	long npreemptors, cap;
	pk_pg_set groups;         /* the input's PodGroups, for PostFilter's gating */
	cJSON *input_warnings;    /* what the snapshot made us assume: every Preemptor record's */
	long trouble;             /* reader errors and unusable preemptors */
	const victims_writer *writer;
	pk_eval_opts eval;        /* opts->eval, as the writer lets it */
	pk_out *out;
	pk_table table;
	bool chosen;              /* a table row marks a chosen node */
};

/* Read the cluster snapshot from paths and the --preemptor files.
 * Returns 0, or -1 when the run cannot go on (reported already). */
int victims_load(victims_run *r, char **paths, int npaths);
/* Evaluate every preemptor in order, writing records (or a table) to out.
 * Returns the number of preemptors that cannot be placed or may not
 * preempt (a negative finding: exit 1). */
long victims_evaluate(victims_run *r, pk_out *out);
void victims_free(victims_run *r);

#endif
