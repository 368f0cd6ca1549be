/* What-if simulation of the scheduling queue over a cluster snapshot.
 *
 * Every pending unit - a pod, or the pending members of a PodGroup when
 * GenericWorkload and WorkloadAwarePreemption are on - is taken in
 * scheduling-queue order (priority, then queue time = creationTimestamp,
 * then namespace/name) and:
 *   - fits without preemption: it is assumed onto the FIRST node in name
 *     order whose filters pass (a pod), or onto the nodes the greedy
 *     first-fit placement picked (a group): deterministic, documented;
 *   - or preempts: its victims are removed from the snapshot, and the pod
 *     is nominated to the chosen node (a group's members to their intended
 *     nodes), where later preemptors count it as upstream counts nominated
 *     pods (priority >= theirs);
 *   - or stays unschedulable.
 * Victims owned by a controller (ownerReferences with controller: true) are
 * re-queued once as a new pending pod with the same spec (the controller
 * recreating them); a recreated pod that preempts again is a cascading
 * preemption. The number of recreations is bounded globally.
 *
 * State updates are incremental (the engine's nodeinfo add/remove); no
 * step rescans all pods except a PodGroup's unit building.
 */
#ifndef PK_SCHED_SIMULATE_H
#define PK_SCHED_SIMULATE_H

#include <stdbool.h>
#include "engine.h"
#include "podgroup.h"

typedef struct pk_sim_opts {
	pk_eval_opts eval;
	bool pod_postfilter;      /* every pending pod on its own through the per-pod PostFilter */
	bool cascade;             /* re-queue controller-owned victims (default on) */
	long max_recreations;     /* global bound (default 1000) */
} pk_sim_opts;

void pk_sim_opts_default(pk_sim_opts *o);

typedef enum { PK_SIM_SCHEDULED, PK_SIM_NOMINATED, PK_SIM_UNSCHEDULABLE } pk_sim_outcome;

typedef struct pk_sim_unit {
	pk_pod **pods;            /* the pod, or the group's pending members in queue order */
	int npods;
	pk_podgroup *group;       /* NULL for a pod */
	int32_t priority;
	int64_t created;
	bool recreated;           /* a victim re-queued by its controller */
	bool scaled;              /* added by pk_sim_add_replicas */
} pk_sim_unit;

/* What happened to one unit; handed to the caller's callback. */
typedef struct pk_sim_step {
	const pk_sim_unit *unit;
	pk_sim_outcome outcome;
	const pk_evaluation *pod_eval;      /* pod units */
	const pk_preemptor *preemptor;
	const char *gate_message;           /* per-pod PostFilter refused it (gates), or NULL */
	const pk_nodeinfo *node;            /* node a fitting pod was assumed onto */
	const pk_pg_evaluation *group_eval; /* group units */
	int requeued;                       /* victims re-queued by this step */
} pk_sim_step;

typedef void (*pk_sim_fn)(void *ctx, const pk_sim_step *st);

typedef struct pk_sim_summary {
	long units, pods, pod_groups;
	long scheduled, nominated, unschedulable;
	long victims;
	long recreated, cascading_preemptions, scaled;
	long recreations_dropped; /* over the global bound */
} pk_sim_summary;

typedef struct pk_sim {
	pk_snapshot *s;
	pk_pg_set *g;
	pk_sim_opts opts;
	pk_sim_unit *queue;
	long n, cap, head;
	pk_pod **owned;           /* decoded templates to release */
	long nowned, ownedcap;
	int64_t clock;            /* queue time of pods created during the run */
	pk_sim_summary sum;
	pk_arena arena;
} pk_sim;

/* Build the queue from the snapshot's pending pods (after both finishes). */
void pk_sim_init(pk_sim *m, pk_snapshot *s, pk_pg_set *g, const pk_sim_opts *o);
void pk_sim_free(pk_sim *m);
/* "What if I scale KIND/NAMESPACE/NAME": add n pending copies of its pod
 * template. -1 with a message when no such object was read. */
int pk_sim_add_replicas(pk_sim *m, const char *ref, long n, char *err, size_t errsize);
/* Run the queue to the end, calling fn after each unit. */
void pk_sim_run(pk_sim *m, pk_sim_fn fn, void *ctx);

#endif
