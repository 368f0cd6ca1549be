/* The PodGroup evaluator of workload-aware preemption (KEP-5710): a pod
 * group as the preemptor, the whole cluster as the domain, a greedy
 * pod-group scheduling function (podgroup_eval.c says how it follows
 * upstream's podgrouppreemption.go), and its outcome played forward. The
 * groups themselves are the cluster's (cluster/podgroup.h). */
#ifndef PK_SCHED_GANG_H
#define PK_SCHED_GANG_H

#include "sched/engine/cluster/podgroup.h"
#include "sched/engine/filter/dra.h"
#include "sched/engine/preempt/preempt.h"
#include "sched/engine/score/score.h"

/* ---- evaluation ----------------------------------------------------------- */

typedef enum {
	PK_PG_NO_PREEMPTION_NEEDED,
	PK_PG_PREEMPT,
	PK_PG_NOT_ELIGIBLE,
	PK_PG_UNSCHEDULABLE,
	/* 1.37 (#140641): a preemption of the group is under way (a member's
	 * nominated node holds a lower-priority pod terminating by preemption):
	 * Success, and the members keep their nominations */
	PK_PG_PREEMPTION_IN_PROGRESS,
} pk_pg_result;

const char *pk_pg_result_name(pk_pg_result r);  /* NoPreemptionNeeded, Preempt, ... */

typedef struct pk_pg_placement {
	pk_pod *pod;
	const pk_nodeinfo *node;   /* NULL: not placed */
	pk_placement score;        /* how node was chosen (ntop > 1: a tie broken by name) */
	pk_dra_pick *devices;      /* the devices its resource claims get there, the members
	                            * before it in placement order having taken theirs (arena) */
	int ndevices;
} pk_pg_placement;

typedef struct pk_pg_evaluation {
	const pk_podgroup *group;
	pk_pg_result result;
	pk_code code;              /* status code of the PodGroupPostFilter outcome */
	const char *reason;        /* arena text */
	pk_pg_placement *placements; /* one per member, member order */
	int nmembers, nplaced, required;
	pk_pod **victims;          /* victim pods, unit importance order */
	int nvictims;
	int nvictim_units;
	int num_pod_group_disruptions; /* victim units whose pods name a scheduling group */
	pk_group_disruption *disruptions; /* the groups they are (pk_pg_disruptions) */
	int ndisruptions;
	int num_pdb_violations;    /* violating victim units */
	long potential_units;
	long schedule_calls;       /* scheduling-function runs (for --stats) */
	pk_arena arena;
} pk_pg_evaluation;

/* Evaluate a pending PodGroup whose pending members are given in queue
 * order, each placed by score.c's scorer (scores: the caller's cache for
 * the snapshot, or NULL). State is restored on return. */
void pk_pg_evaluate(pk_snapshot *s, pk_score_cache *scores, const pk_pg_set *g, const pk_podgroup *pg,
                    pk_pod **members, int n, pk_pg_evaluation *out);
void pk_pg_evaluation_free(pk_pg_evaluation *e);

/* Play the outcome forward: victims removed from their nodes; on
 * NoPreemptionNeeded the placed members are bound, on Preempt they are
 * nominated to their intended nodes (so later preemptors respect them). */
void pk_pg_apply(pk_snapshot *s, const pk_pg_evaluation *e);

/* What a group evaluation for the release answered for assumed about its
 * reprieve, or NULL when it follows that release (podgroup_eval.c's
 * unit_fits says why): to be said wherever the answer is shown. */
const char *pk_pg_reprieve_assumption(const pk_pg_evaluation *e);

#endif
