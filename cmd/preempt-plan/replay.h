/* preempt-plan --replay SNAPSHOT TRACE...: the what-if over time
 * (common/sched/sim/replay.h), reading and writing on --simulate's
 * machinery (simulate.c). */
#ifndef PREEMPT_PLAN_REPLAY_H
#define PREEMPT_PLAN_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include "cli.h"
#include "io/writer.h"
#include "sched/sim/simulate.h"

typedef struct pp_replay_args {
	bool on;                  /* --replay */
	const char *until;        /* --until TIME|DURATION */
	long max_instants;        /* --max-instants (default 1000000) */
	int grace_period;         /* --grace-period, -1 when unset */
	const char *run_time_from;/* --run-time-from ANNOTATION */
	bool strict;
	bool progress;
} pp_replay_args;

/* What the reader notes per pod of the input, by snapshot pod index. */
typedef struct pp_replay_input {
	pp_replay_args args;
	long nsnapshot_pods;      /* pods read from SNAPSHOT: the trace's come after */
	bool trace_phase;         /* reading TRACE paths */
	int *grace;               /* per pod index */
	int64_t *run;             /* per pod index: seconds, -1 unknown */
	int64_t *deleted;         /* per pod index: metadata.deletionTimestamp (Unix s, rounded up), or INT64_MIN */
	long cap;
	long no_creation;         /* trace pods without creationTimestamp, skipped */
	long not_pods;            /* trace objects that are not pods */
	long no_run_time;         /* trace pods that run to the end */
	const char *first_no_run; /* the first of them */
	bool strict_failed;
} pp_replay_input;

void pp_replay_args_default(pp_replay_args *a);
/* Is --replay among the arguments (before --)? */
bool pp_wants_replay(int argc, char **argv, const struct option *longopts);

/* A record of a TRACE path: false to leave it out (not a pod, no
 * creationTimestamp); a pod is made pending (nodeName, status dropped). */
bool pp_replay_trace_record(pp_replay_input *in, pk_cli *cli, cJSON *obj, const pk_origin *at);
/* A pod just decoded into the snapshot at index (the raw object). */
void pp_replay_pod_added(pp_replay_input *in, long index, const cJSON *obj);
void pp_replay_input_free(pp_replay_input *in);

/* Play and write; the exit status. */
int pp_replay_run(pp_replay_input *in, pk_cli *cli, pk_out *out, pk_sim *sim);

#endif
