/* "What if I kubectl apply these manifests?": objects applied on top of a
 * snapshot as `kubectl apply` would (create, or update the object of the
 * same identity), and the pods their controllers would then create or
 * delete, queued into a what-if simulation (simulate.h).
 *
 * What each kind does (the controllers' rules, pkg/controller/...):
 *   Pod            one pending pod; one of the same name already there is
 *                  left as it is (a pod's scheduling fields cannot change).
 *   Deployment,    `replicas` pods of the template (default 1). Existing
 *   ReplicaSet,    pods are the ones the controller owns (ownerReferences;
 *   RC             a Deployment's through its ReplicaSets "<name>-<hash>")
 *                  or adopts (selector). More replicas: new pods; fewer:
 *                  the pods getPodsToDelete orders first are deleted
 *                  (unassigned, pending, not ready, co-located, newest,
 *                  by creation time on a log2 scale, then uid). A changed
 *                  template starts a rollout: the first wave of a
 *                  RollingUpdate (maxSurge new pods, 25% rounded up by
 *                  default; old pods down to replicas - maxUnavailable, 25%
 *                  rounded down), or Recreate (all old pods go, all new
 *                  come); none while the Deployment is paused.
 *   StatefulSet    ordinals 0..replicas-1 not present yet; OrderedReady
 *                  (default) queues ordinal N+1 once N is scheduled or
 *                  nominated, Parallel all at once; scale-down deletes the
 *                  highest ordinals.
 *   Job            min(parallelism, completions - succeeded) active pods
 *                  (Indexed: the lowest indices), none when suspended.
 *   CronJob        one run of its job template (concurrencyPolicy Forbid
 *                  skips it while a run is active, Replace deletes that run).
 *   DaemonSet      one pod per node the controller targets: nodeSelector,
 *                  required node affinity, NoSchedule/NoExecute taints not
 *                  tolerated (with the tolerations the controller adds);
 *                  each pod pinned to its node by a matchFields
 *                  metadata.name term, so its preemption considers that
 *                  node only. Nodes that have one of its pods are skipped.
 *   PriorityClass  created classes resolve the applied pods' priorities
 *                  (apply them in the same run); value and preemptionPolicy
 *                  cannot change (the apiserver rejects the update), and
 *                  existing pods keep the priority they were admitted with.
 *   PodGroup,      gangs for the pods that name them, as --simulate plays
 *   Workload       the snapshot's.
 * PriorityClasses, then Workloads, then PodGroups are applied first,
 * wherever they stand in the input: before the objects that name them.
 * Every pod goes through the Priority admission plugin
 * (pk_priority_admission_error): an object whose pods it would reject is
 * rejected.
 * New pods are created in input order after every pod of the snapshot.
 * Other kinds are not modelled (the caller counts them as skipped).
 *
 * Deletions happen at once, before the queue runs (graceful termination is
 * not modelled).
 */
#ifndef PK_SCHED_APPLY_H
#define PK_SCHED_APPLY_H

#include <stdbool.h>
#include <cjson/cJSON.h>
#include "sched/engine/filter/pairmap.h"
#include "sched/sim/simulate.h"

typedef enum {
	PK_APPLY_CREATE,
	PK_APPLY_UPDATE,
	PK_APPLY_SCALE,
	PK_APPLY_UNCHANGED,
	PK_APPLY_REJECTED,
} pk_apply_action;

const char *pk_apply_action_name(pk_apply_action a); /* "create", ... */

typedef struct pk_apply_count {
	const char *what;         /* interned reason */
	long count;
} pk_apply_count;

typedef struct pk_apply_ref {
	const char *namespace_, *name; /* interned */
} pk_apply_ref;

/* One applied object and what became of it. */
typedef struct pk_applied {
	const char *api_version, *kind, *namespace_, *name; /* namespace "" when cluster-scoped */
	char origin[300];         /* "file:line" */
	pk_apply_action action;
	char detail[200];         /* what the update or scale did ("replicas 8 -> 12"), or "" */
	long existing;            /* pods it had in the snapshot */
	long pods;                /* pods its controller creates */
	long waiting;             /* of those, not created by the end (OrderedReady) */
	long placed, nominated, unschedulable;
	pk_apply_count *reasons;  /* why pods stay unschedulable, per pod */
	int nreasons;
	size_t reasoncap;
	pk_apply_ref *victims;    /* pods its pods preempt */
	long nvictims;
	size_t victimcap;
	pk_apply_ref *deleted_pods;  /* existing pods its controller deletes */
	long ndeleted;
	size_t deletedcap;
	cJSON *warnings;          /* array of strings */
	char *error;              /* why it was rejected (heap), or NULL */
	pk_sim_chain *chain;
	const char *prefix;       /* name prefix of its pods */
	/* a StatefulSet's spec.volumeClaimTemplates: each pod's claims
	 * <template>-<pod> (k8s/volume.h), NULL when none */
	const struct pk_claim_template *claim_templates;
	int nclaim_templates;
	bool skip;                /* a kind the simulation does not model: no record */
} pk_applied;

typedef enum { PK_APPLY_USED, PK_APPLY_SKIPPED, PK_APPLY_REJECTED_OBJ } pk_apply_verdict;

typedef struct pk_apply {
	pk_sim *m;
	pk_snapshot *s;
	pk_pg_set *g;
	const char *default_ns;   /* for objects that name no namespace */
	pk_applied *objs;
	long n;
	size_t cap;
	pk_pair_map pod_origin;   /* (namespace, name) of a created pod -> object index + 1 */
	bool *live_used;          /* per snapshot controller object (g->templates): read by an apply */
	long nlive;
} pk_apply;

/* After pk_sim_init. default_ns: the namespace of objects that name none. */
void pk_apply_init(pk_apply *a, pk_sim *m, const char *default_ns);
void pk_apply_free(pk_apply *a);

/* Apply objs[0..n) (where[i]: "file:line" of each): PriorityClasses,
 * Workloads and PodGroups first, then the rest in input order. verdict[i]
 * says whether each was used, skipped (a kind not modelled) or rejected. */
void pk_apply_run(pk_apply *a, cJSON *const *objs, const char *const *where, long n, pk_apply_verdict *verdict);

/* --scale REF --replicas N: REF is KIND/NAMESPACE/NAME, KIND/NAME or
 * kubectl's forms (deploy/NAME, deployment.apps/NAME, sts/NAME, ...) with
 * namespace ns; sets the count as `kubectl scale` does (a Job's
 * parallelism). -1 with a message when REF is malformed or names nothing
 * the input has. */
int pk_apply_scale(pk_apply *a, const char *ref, const char *ns, long replicas, char *err, size_t errsize);

/* The warning for n objects of a kind no pod comes from (a Service, a
 * ConfigMap), which are skipped: "N KIND object(s) not used: MODE does not
 * model them". One wording for --apply (mode "--simulate") and victims
 * --preemptor (mode "--preemptor"). Returns buf. */
const char *pk_apply_unused_text(char *buf, size_t size, long n, const char *kind, const char *mode);

/* The object that created a pod, or NULL. */
const pk_applied *pk_apply_owner(const pk_apply *a, const pk_pod *p);

/* Account one simulation step (call it from the pk_sim_fn). */
void pk_apply_observe(pk_apply *a, const pk_sim_step *st);
/* After the run: pods an OrderedReady StatefulSet never got to create. */
void pk_apply_finish(pk_apply *a);

/* "Deployment shop/checkout: 3 pods — 2 placed by preempting 4 pods
 * (batch/report-1, …), 1 unschedulable: Insufficient cpu". */
void pk_applied_message(const pk_applied *o, char *buf, size_t size);
/* {"kind":"AppliedObject","object":{apiVersion,kind,namespace,name},
 * "origin","action","pods","placed","nominated","victims","unschedulable",
 * "reasons":[{reason,count}],"victimPods":[{namespace,name}],"deleted",
 * "deletedPods","warnings","message"}; caller owns it. */
cJSON *pk_applied_json(const pk_applied *o);
/* Totals for the SimulationSummary: {"objects","rejected","pods","placed",
 * "nominated","unschedulable","victims","deleted"}. */
cJSON *pk_apply_totals_json(const pk_apply *a);
/* Objects rejected, and applied pods not placed or nominated. */
long pk_apply_rejected(const pk_apply *a);
long pk_apply_unplaced(const pk_apply *a);

#endif
