/* What-if simulation of the scheduling queue over a cluster snapshot.
 *
 * Every pending unit - a pod, or the pending members of a PodGroup when
 * GenericWorkload and WorkloadAwarePreemption are on - is taken in
 * scheduling-queue order (priority, then queue time = creationTimestamp,
 * then namespace/name) and:
 *   - fits without preemption: it is assumed onto the node the default
 *     score plugins rank highest (a pod: score.h, equal scores go to the
 *     lowest node name), or onto the nodes the group's greedy placement
 *     picked, each member scored the same way (a group): deterministic, documented;
 *   - or preempts: its victims are removed from the snapshot, and the pod
 *     is nominated to the chosen node (a group's members to their intended
 *     nodes), where later preemptors count it as upstream counts nominated
 *     pods (priority >= theirs);
 *   - or stays unschedulable;
 *   - a bound pod whose in-place resize the kubelet Deferred is a unit
 *     too when the release's InPlacePodVerticalScalingSchedulerPreemption
 *     is on (pk_snapshot_queue): its own node only, victims evicted there,
 *     no nomination, the pod left bound at its spec requests;
 *   - a gated pod (spec.schedulingGates) waits: PreEnqueue keeps it out of
 *     the active queue (pk_evaluate says so), it takes no capacity and
 *     preempts nothing; a gated member of a PodGroup is not among its
 *     group's pending members (the group's plan says how many wait so).
 * Victims owned by a controller (ownerReferences with controller: true) are
 * re-queued once as a new pending pod with the same spec (the controller
 * recreating them), a member of a PodGroup into its group's unit when gangs
 * are played (so the recreated members of an evicted gang are placed, or
 * not, together, under the group's minCount); a recreated unit that
 * preempts again is a cascading preemption. The number of recreations is
 * bounded globally.
 *
 * Pods created by applied objects (apply.h) are queued before the run with
 * pk_sim_enqueue: created after every pod of the snapshot, in the order
 * they are given, so that at equal priority they queue behind the
 * snapshot's pending pods. pk_sim_enqueue_ordered queues a StatefulSet's
 * pods one at a time (OrderedReady).
 *
 * State updates are incremental (the engine's nodeinfo add/remove); no
 * step rescans all pods except a PodGroup's unit building.
 */
#ifndef PK_SCHED_SIMULATE_H
#define PK_SCHED_SIMULATE_H

#include <stdbool.h>
#include "sched/engine/engine.h"
#include "sched/engine/gang/gang.h"
#include "sched/engine/score/score.h"

typedef struct pk_sim_opts {
	pk_eval_opts eval;
	bool pod_postfilter;      /* every pending pod on its own through the per-pod PostFilter */
	bool cascade;             /* re-queue controller-owned victims (default on) */
	long max_recreations;     /* global bound (default 1000) */
	/* A replay's (replay.h): a pod nominated to a node that passes the
	 * filters is bound there (upstream's evaluateNominatedNode), and the
	 * victims of a step stay on their node, terminating, noted in
	 * pk_sim.victims for the caller to delete when their grace is over. */
	bool nominated_first;
	bool victims_terminate;
} pk_sim_opts;

void pk_sim_opts_default(pk_sim_opts *o);

typedef enum { PK_SIM_SCHEDULED, PK_SIM_NOMINATED, PK_SIM_UNSCHEDULABLE } pk_sim_outcome;

/* Pods of which each is created only once the one before is placed. */
typedef struct pk_sim_chain {
	pk_pod **pods;
	int n, next;              /* next: how many have been queued */
	bool scaled;
} pk_sim_chain;

typedef struct pk_sim_unit {
	pk_pod **pods;            /* the pod, or the group's pending members in queue order */
	int npods;
	pk_podgroup *group;       /* NULL for a pod */
	int32_t priority;
	int64_t created;
	bool recreated;           /* a victim re-queued by its controller */
	bool scaled;              /* created by --scale */
	bool applied;             /* created by an applied object */
	pk_sim_chain *chain;      /* the pod's chain (OrderedReady), or NULL */
	int gated_members;        /* a group's pending members left out: gated (each a unit of its own) */
	/* A bound pod whose in-place resize is Deferred, queued with
	 * InPlacePodVerticalScalingSchedulerPreemption on (KEP-5836): its
	 * entry on its node; pods[0] is its view (pk_snapshot_resize). It
	 * preempts on that node only, is never bound nor nominated: it stays
	 * where it is, at its spec requests. NULL for other units. */
	pk_pod *resize_own;
} pk_sim_unit;

/* What happened to one unit; handed to the caller's callback. */
typedef struct pk_sim_step {
	const pk_sim_unit *unit;
	pk_sim_outcome outcome;
	const pk_evaluation *pod_eval;      /* pod units */
	const pk_preemptor *preemptor;
	const char *gate_message;           /* per-pod PostFilter refused it (gates), or NULL */
	const pk_nodeinfo *node;            /* node a fitting pod was assumed onto */
	pk_placement placement;             /* how the scores chose it (pod units) */
	const pk_pg_evaluation *group_eval; /* group units */
	int requeued;                       /* victims re-queued by this step */
} pk_sim_step;

typedef void (*pk_sim_fn)(void *ctx, const pk_sim_step *st);

typedef struct pk_sim_summary {
	long units, pods, pod_groups;
	long scheduled, nominated, unschedulable;
	long not_eligible;        /* not placed, preemption not tried (NotEligible) */
	long resized;             /* Deferred resizes that fit or preempted: the kubelet's to
	                           * actuate in place (neither scheduled nor nominated) */
	long victims;
	long recreated, cascading_preemptions, scaled, applied;
	long recreations_dropped; /* over the global bound */
} pk_sim_summary;

/* A victim left terminating on its node (pk_sim_opts.victims_terminate). */
typedef struct pk_sim_victim {
	pk_pod *pod;
	const char *node;
	bool was_terminating;     /* terminating before this step chose it */
} pk_sim_victim;

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
	pk_score_cache *scores;   /* what placement keeps between units */
	pk_arena arena;
	/* The uids of the pods that may be nominated (pending at the start, and
	 * every preemptor run): while none repeats, the memo may keep a shape's
	 * whole evaluation (pk_eval_memo_uids_unique). */
	struct { const char **uid; const pk_pod **pod; size_t cap, n; } uids;
	bool uid_twins;
	/* victims_terminate: the victims of the steps run since the caller
	 * last emptied it (nvictims = victims_kept = 0) */
	pk_sim_victim *victims;
	long nvictims, victimcap, victims_kept;
} pk_sim;

/* Build the queue from the snapshot's pending pods (after both finishes). */
void pk_sim_init(pk_sim *m, pk_snapshot *s, pk_pg_set *g, const pk_sim_opts *o);
void pk_sim_free(pk_sim *m);
/* A new pod: a copy of tpl (a decoded pod template, which must outlive the
 * run: see pk_sim_keep) named name with uid, pending, created now. */
pk_pod *pk_sim_new_pod(pk_sim *m, const pk_pod *tpl, const char *name, const char *uid);
/* Release tpl (decoded into the snapshot's arena) with the simulation. */
void pk_sim_keep(pk_sim *m, pk_pod *tpl);
/* Queue a new pending pod: a unit of its own, or a member of its PodGroup's
 * unit (pk_pg_add_pod first) when gangs are played. scaled: by --scale
 * (else by an applied object). */
void pk_sim_enqueue(pk_sim *m, pk_pod *p, bool scaled);
/* Queue pods[0] now and each next one once the one before it was scheduled
 * or nominated. The chain (arena) tells how many were queued by the end. */
pk_sim_chain *pk_sim_enqueue_ordered(pk_sim *m, pk_pod **pods, int n, bool scaled);
/* Take a pending pod out of the queue before the run (its controller
 * deleted it). */
void pk_sim_dequeue(pk_sim *m, const pk_pod *p);
/* The note for the bound pods with a Deferred resize that the run does not
 * queue (the release's gate off, or no such gate), namespace ns only when
 * not NULL: how many, the first, what upstream does with them and the flags
 * that model the alpha. false (buf untouched) when there is nothing to say. */
bool pk_sim_resizes_left_text(const pk_snapshot *s, const pk_release_profile *rel, const char *ns, char *buf,
                              size_t size);
/* Run the queue to the end, calling fn after each unit. */
void pk_sim_run(pk_sim *m, pk_sim_fn fn, void *ctx);
/* One unit's step against the state as it is (the body of pk_sim_run's
 * loop: a replay calls it for each pending unit at each instant). */
void pk_sim_run_unit(pk_sim *m, const pk_sim_unit *u, pk_sim_fn fn, void *ctx);
/* The queue order of two units (k8s/queue_order.h; a group under its name). */
int pk_sim_unit_cmp(const pk_sim_unit *a, const pk_sim_unit *b);
/* Pods of a PodGroup are played as one unit (GenericWorkload and
 * WorkloadAwarePreemption on, no --pod-postfilter). */
bool pk_sim_plays_gangs(const pk_sim *m);

#endif
