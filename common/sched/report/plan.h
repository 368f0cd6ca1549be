/* A PreemptionPlan: kube-scheduler's decision for one preemptor (a pod or a
 * PodGroup), built in one place from the engine's structs and written by
 * one encoder per form:
 *
 *   pk_plan_of_pod     a pod's evaluation (preempt-plan --simulate), or the
 *                      same facts decoded from victims' records
 *                      (pk_plan_pod_from_record, then pk_plan_decide)
 *   pk_plan_of_group   a PodGroup's evaluation
 *   pk_plan_of_step    either, as a step of --simulate found it, with what
 *                      the simulation adds (nodeResources, appliedFrom, ...)
 *   pk_plan_json       the PreemptionPlan record (-o json, -o html), as a
 *   pk_plan_text       tree or as text: one encoder (actions, placement,
 *                      nodeResources, disruptions included)
 *   pk_plan_row        its table row (-o table, -o wide), drawn by
 *                      pk_plan_table_row with the tool's columns
 *
 * The result names (pk_plan_result_name) are the same in every tool:
 * NoPreemptionNeeded, Preempt, NotEligible, Unschedulable,
 * PreemptionInProgress. */
#ifndef PK_SCHED_PLAN_H
#define PK_SCHED_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "io/table.h"
#include "sched/engine/engine.h"
#include "sched/engine/filter/dra.h"
#include "sched/engine/gang/gang.h"
#include "sched/engine/score/score.h"
#include "sched/report/records.h"
#include "sched/sim/apply.h"
#include "sched/sim/simulate.h"

enum { PK_PLAN_MAX_WARNINGS = 32 };

typedef struct pk_plan {
	/* the preemptor */
	const pk_pg_evaluation *group; /* a PodGroup's plan: its evaluation, else NULL */
	bool kind_named;          /* the record's preemptor names its kind (--simulate) */
	const char *namespace_, *name, *uid, *scheduler;
	const char *nominated_before; /* its nominatedNodeName before this plan, or NULL */
	int64_t priority;
	int k8s_minor;            /* the release answered for */

	/* what the evaluation found (a pod's plan), set before pk_plan_decide */
	pk_plan_result found;     /* Preempt: candidates exist */
	const char *message;
	const pk_candidate *candidates;
	int ncandidates;
	int best;                 /* the candidate chosen, or -1: pk_plan_decide chooses */
	const char *decided_by;
	long nfit;                /* nodes it fits on; their first names: */
	const char *fit_nodes[PK_FITS_SHOWN];
	int nfit_shown;
	const pk_placement *placement;     /* where the scores place it (an evaluation's) */
	const cJSON *placement_record;     /* or as a Preemptor record gave it */
	const char *gate, *gate_status;    /* the PostFilter gate that stopped it */
	/* A Deferred in-place resize (KEP-5836): the node the pod is bound to,
	 * where its victims are; no nomination is written. NULL otherwise. */
	const char *resize_node;
	/* A pod's plan that places nothing: the message's parts (records.h,
	 * pk_diagnosis_emit) from the evaluation, with the per-pod PostFilter's
	 * gate message when that stopped it, or as victims' record gave them */
	const pk_evaluation *eval;
	const char *gate_message;
	const cJSON *diagnosis_record;
	const cJSON *pre_enqueue_record;   /* victims' "preEnqueue" (a gated pod) */

	/* the decision */
	pk_plan_result result;
	const char *nominated;    /* nominatedNodeName after it, or NULL */
	const char *placed_on;    /* a pod that fits: the node it goes to, or NULL */
	const pk_victim_ref *victims;
	int nvictims;
	int num_pdb_violations;
	const pk_victim_ref *cleared;
	int ncleared;
	int num_pod_group_disruptions;     /* victim units that are pod groups */
	const pk_group_disruption *disruptions; /* which groups (records.h) */
	int ndisruptions;
	char reason[2048];
	const char *warnings[PK_PLAN_MAX_WARNINGS];
	int nwarnings;

	/* what --simulate adds */
	bool recreated, scaled;
	int requeued;
	const char *applied_kind, *applied_namespace, *applied_name;
	const pk_snapshot *snap;  /* nodeResources from this snapshot, as it is before the
	                           * plan is played forward (encoded with the record) */
	const pk_nodeinfo *assumed_on; /* a pod that fits: the node it is assumed onto */
	pk_dra_pick *devices;     /* and the devices its resource claims get there (owned) */
	int ndevices;
	const cJSON *candidate_resources; /* or the chosen Candidate record's nodeResources */

	pk_victim_ref *owned_victims;
	pk_victim_device *owned_devices; /* what owned_victims' devices point into */
	char owned_warning[400];
} pk_plan;

/* A pod's plan from its evaluation: pl where a pod that fits is placed
 * (NULL if it is not), gate_message when the per-pod PostFilter refused it.
 * Decided already (the evaluation chose). */
void pk_plan_of_pod(pk_plan *p, const pk_evaluation *e, const pk_placement *pl, const char *gate_message);
/* The REASON of a pod PreEnqueue kept out of the queue (a gated pod):
 * "<message> (SchedulingGates PreEnqueue: UnschedulableAndUnresolvable,
 * PodScheduled False: SchedulingGated)"; its record's "preEnqueue" is
 * records.h's pk_pre_enqueue_emit. */
const char *pk_pre_enqueue_text(const char *message, char *buf, size_t size);
/* The facts of a pod's plan from victims' Preemptor record (NULL when the
 * input had only Candidate records) and its preemptor reference, into a
 * zeroed plan whose candidates the caller has set (decoded with records.h),
 * then pk_plan_decide. The plan borrows the records' strings. */
void pk_plan_pod_from_record(pk_plan *p, const cJSON *preemptor_record, const cJSON *ref);
/* Choose among the candidates (pk_pick_one_node_why at now, unless best
 * is set) and write the decision. */
void pk_plan_decide(pk_plan *p, int64_t now);
/* A PodGroup's plan. */
void pk_plan_of_group(pk_plan *p, const pk_pg_evaluation *e, const char *scheduler, int k8s_minor);
/* The plan of one step of --simulate (sim/simulate.h): the pod's or the
 * PodGroup's plan, with what the simulation adds (recreated, scaled,
 * requeuedVictims, appliedFrom: the object of a that made the unit's pods,
 * and nodeResources from s, encoded while s is as the step left it). */
void pk_plan_of_step(pk_plan *p, const pk_sim_step *st, const pk_snapshot *s, int k8s_minor, const pk_apply *a);
void pk_plan_add_warning(pk_plan *p, const char *w);
void pk_plan_free(pk_plan *p);

/* The PreemptionPlan record (records.h; the caller owns it). */
cJSON *pk_plan_json(const pk_plan *p);
/* The same record as compact text (malloc'd), what cJSON_PrintUnformatted
 * prints for pk_plan_json's tree, without the tree. */
char *pk_plan_text(const pk_plan *p);

/* ---- tables ----------------------------------------------------------------------
 * One row of any plan table (victims, preempt-plan, --simulate): the cells
 * a tool's columns pick from. Counts are always numbers; a cell with
 * nothing to say shows PK_PLAN_NONE. */
#define PK_PLAN_NONE "<none>"

typedef enum {
	PK_COL_PREEMPTOR,
	PK_COL_PRIORITY,
	PK_COL_RESULT,
	PK_COL_NODE,
	PK_COL_VICTIMS,
	PK_COL_PDB_VIOLATIONS,
	PK_COL_TOP_PRIORITY,
	PK_COL_ADJUSTED_SUM,
	PK_COL_VICTIM_PODS,
	PK_COL_REASON,            /* the whole reason */
	PK_COL_REASON_FIRST,      /* its first clause (up to ';') */
	PK_NCOLS
} pk_plan_col;

typedef struct pk_plan_columns {
	const pk_plan_col *cols;
	int n;
} pk_plan_columns;
#define PK_PLAN_COLUMNS(array) { array, (int)(sizeof array / sizeof array[0]) }

typedef struct pk_plan_row {
	char who[600];            /* namespace/name, podgroup/ or compositepodgroup/namespace/name */
	int64_t priority;
	char result[64];
	char node[440];
	long nvictims;
	long pdb_violations;
	bool has_top;             /* TOP-PRIORITY and ADJUSTED-SUM apply */
	int32_t top_priority;
	char adjusted_sum[64];
	char *victim_pods;        /* malloc'd "ns/a,ns/b", or NULL */
	const char *reason;
	bool reason_whole;        /* not cut to its first clause (a NotCandidate row's) */
} pk_plan_row;

/* The row of a plan; *compared: its ADJUSTED-SUM cell is node choice's
 * (a pod plan that preempts), for the rule under the table. */
void pk_plan_row_of(pk_plan_row *r, const pk_plan *p, bool *compared);
/* The row of candidate i of e (victims' table); the one node choice
 * picked has its RESULT marked with '*'. */
void pk_plan_row_of_candidate(pk_plan_row *r, const pk_evaluation *e, int i);
/* Who and priority of a pod's rows. */
void pk_plan_row_init(pk_plan_row *r, const char *ns, const char *name, int64_t priority);
/* The row of a node group that is no candidate (--explain). */
void pk_plan_row_not_candidate(pk_plan_row *r, const char *nodes, const char *reason);
void pk_plan_row_victims(pk_plan_row *r, const pk_victim_ref *v, int n);

/* A table of the tool's columns (no_headers: kubectl's --no-headers), and
 * a row in them (frees r's victim_pods). */
void pk_plan_table_init(pk_table *t, const pk_plan_columns *c, bool no_headers);
void pk_plan_table_row(pk_table *t, const pk_plan_columns *c, pk_plan_row *r);

#endif
