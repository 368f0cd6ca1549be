/* The pod groups of the cluster (KEP-5710, KEP-6012): what workload-aware
 * preemption (gang/gang.h) and pod-by-pod preemption read of them: their
 * priority, disruptionMode, policy and hierarchy, their members, and what
 * the release answered for makes of them.
 *
 * Objects read (pk_pg_set_add): scheduling.k8s.io PodGroup (v1alpha2
 * string disruptionMode Pod|PodGroup, v1alpha3 and v1beta1 {single:{}}|
 * {all:{}}, spec.parentCompositePodGroupName), CompositePodGroup (#139596,
 * #140634: the same priority and disruptionMode fields, kept as a group
 * that pods do not name but PodGroups name as their parent),
 * Workload (v1alpha2/3 podGroupTemplates supply fields a PodGroup leaves
 * unset; v1alpha1 spec.podGroups[] for pods that use the older
 * spec.workloadRef), and per pod its spec.schedulingGroup.podGroupName (or
 * spec.workloadRef) and its controller ownerReference.
 *
 * Nothing here keeps global state.
 */
#ifndef PK_SCHED_PODGROUP_H
#define PK_SCHED_PODGROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "sched/engine/cluster/snapshot.h"
#include "k8s/gates.h"
#include "k8s/profile.h"

/* ---- the release -------------------------------------------------------- */

/* The gates the engine reads and the behaviours of the release answered
 * for come from the release profile (k8s/profile.h), which pk_pg_set_init
 * installs: pk_pg_set.release. */

/* What the answers leave out for the release answered for, one sentence
 * to say (stderr, records), or NULL: Kubernetes 1.35's gang scheduling
 * (GangScheduling at Permit, v1alpha1 Workloads) is not modelled, so an
 * input with PodGroups is answered as 1.36 answers it; CompositePodGroups
 * in an input answered for a release (or gates) that does not read them;
 * PodGroups, CompositePodGroups or Workloads in a version newer than the
 * release serves (its apiserver would have none of them: kubectl's "no
 * matches for kind"), which are read as if it served them. */
const char *pk_pg_release_caveat(struct pk_pg_set *g);

/* ---- PodGroups ------------------------------------------------------------ */

typedef enum { PK_PG_POLICY_NONE, PK_PG_POLICY_BASIC, PK_PG_POLICY_GANG } pk_pg_policy;

/* A PodGroup's spec.resourceClaims[] entry (DRAWorkloadResourceClaims; the
 * scheduler reads the PodGroup's own, not its Workload template's): one of
 * claim and template_name is set ("" the other). */
typedef struct pk_pg_claim {
	const char *name, *claim, *template_name; /* interned */
} pk_pg_claim;

typedef struct pk_podgroup {
	const char *namespace_, *name, *uid;   /* interned */
	int32_t priority;                      /* PodGroupPriority (resolved at finish) */
	bool disrupt_whole;                    /* disruptionMode PodGroup / {all:{}} */
	bool policy_never;                     /* spec.preemptionPolicy Never */
	pk_pg_policy policy;
	int32_t min_count;                     /* gang.minCount */
	bool has_constraints;                  /* spec.schedulingConstraints present */
	bool synthesized;                      /* built from a v1alpha1 Workload */
	bool composite;                        /* a CompositePodGroup (a parent of groups) */
	const char *parent;                    /* spec.parentCompositePodGroupName ("" none) */
	int64_t created;                       /* metadata.creationTimestamp (0 if absent) */
	/* what the object said, before template fallback and resolution */
	bool has_priority, has_mode, has_policy_field, has_sched_policy;
	const char *class_name;
	const char *workload, *template_;      /* template reference ("" none) */
	const pk_pg_claim *claims;             /* spec.resourceClaims (snapshot arena) */
	int nclaims;
	pk_pod **bound;                        /* members bound to a node (victim side) */
	int nbound, boundcap;
} pk_podgroup;

typedef struct pk_pg_set {
	pk_podgroup *groups;
	long n, cap;
	/* per pod: the snapshot's (parallel to s->pods), then pods created
	 * during a simulation (pk_pg_add_pod): group name, group, controller */
	const char **pod_group_name;    /* "" when the pod names no group */
	long *pod_group;                /* index into groups, -1 */
	const char **pod_owner_kind;    /* controller ownerReference kind (pk_pod.controller_kind), or NULL */
	const char **pod_owner_name;    /* its name (interned), or NULL */
	signed char *pod_ready;         /* condition Ready: 1 True, 0 not True, -1 no such condition */
	long npods, podcap;
	long nresolved;                 /* groups whose priority pk_pg_set_finish resolved */
	cJSON *workloads;               /* array of Workload objects (owned) */
	cJSON *templates;               /* array of workload-like objects for --scale (owned) */
	const pk_release_profile *release; /* the option layer's (outlives the set) */
	/* Objects in an API version newer than any the release answered for
	 * serves (a v1beta1 PodGroup answered for 1.36): kind, version, count */
	struct { const char *kind, *version; long n; } unserved[4];
	int nunserved;
	char caveat[2048];              /* pk_pg_release_caveat's text */
	void *index;                    /* private: (namespace, name) -> group */
} pk_pg_set;

/* The release profile is installed once (the option layer's engine
 * options: gates at their final values for the release answered for). */
void pk_pg_set_init(pk_pg_set *g, const pk_release_profile *release);
void pk_pg_set_free(pk_pg_set *g);

/* Offer one object. Returns true if it was a PodGroup/Workload/controller
 * object taken here (rejects are reported through err and return true with
 * *rejected set). Pods are NOT taken: call pk_pg_note_pod after the snapshot
 * accepted a pod. */
bool pk_pg_set_add(pk_pg_set *g, pk_snapshot *s, const cJSON *obj, bool *rejected, char *err, size_t errsize);
/* Deployment, ReplicaSet, StatefulSet, Job, DaemonSet, ReplicationController,
 * CronJob: the objects pk_pg_set_add keeps in templates. */
bool pk_pg_is_controller_kind(const char *kind);
/* Record the group membership and controller of the pod just added to s. */
void pk_pg_note_pod(pk_pg_set *g, pk_snapshot *s, const cJSON *pod);
/* After pk_snapshot_finish: resolve priorities and templates, link pods
 * (a pod pk_pg_note_pod did not see links by its spec.schedulingGroup).
 * Again after more pk_pg_set_add calls (applied objects): only the groups
 * added since are resolved, with the classes the snapshot has by then.
 * When the groups count in pod-by-pod preemption
 * (pk_release_profile.groups_count_in_pod_preemption) and the input has a PodGroup,
 * sets s->victim_groups = g: g must then outlive s's evaluations. */
void pk_pg_set_finish(pk_pg_set *g, pk_snapshot *s);
/* A pod created after the snapshot was read (by a controller the simulation
 * plays): gives it an index (p->index) for the lookups below. group is the
 * spec.schedulingGroup.podGroupName it names ("" none); owner_kind and
 * owner_name its controller (NULL none). */
void pk_pg_add_pod(pk_pg_set *g, pk_snapshot *s, pk_pod *p, const char *group, const char *owner_kind,
                   const char *owner_name);
/* The controller (kind and name) of a pod, or false. */
bool pk_pg_pod_owner(const pk_pg_set *g, const pk_pod *p, const char **kind, const char **name);
/* The Ready condition of a snapshot pod: 1 True, 0 other, -1 the pod has
 * none (and 0 for pods created during a run). */
int pk_pg_pod_ready(const pk_pg_set *g, const pk_pod *p);
/* A pod names a PodGroup (spec.schedulingGroup) or a Workload (v1alpha1
 * spec.workloadRef) that is not in the input: the warning to give, in buf,
 * naming the group, not the pod (NULL when the pod names none, or it
 * exists, or GenericWorkload is off). Works for any pod decoded with the
 * snapshot's strings, in the set or not. */
const char *pk_pg_missing_group(const pk_pg_set *g, pk_snapshot *s, const pk_pod *p, char *buf, size_t size);

pk_podgroup *pk_pg_find(const pk_pg_set *g, const char *namespace_, const char *name);
/* The group of a snapshot pod (NULL if none or unknown). */
pk_podgroup *pk_pg_of_pod(const pk_pg_set *g, const pk_pod *p);
/* The group a pod is scheduled (and preempts) with: its PodGroup, or the
 * root CompositePodGroup above it when the hierarchy is honoured (the whole
 * hierarchy is one preemptor from 1.37, #139596/#140634). NULL: none. */
pk_podgroup *pk_pg_scheduling_group(const pk_pg_set *g, const pk_pod *p);
/* The root of pg's hierarchy (pg itself when it has no honoured parent). */
const pk_podgroup *pk_pg_root(const pk_pg_set *g, const pk_podgroup *pg);
/* spec.parentCompositePodGroupName's group when honoured, else NULL. */
const pk_podgroup *pk_pg_parent(const pk_pg_set *g, const pk_podgroup *pg);
/* The group a decoded pod (or template) names, as the snapshot groups its
 * pods: spec.schedulingGroup's, or the one synthesized from spec.workloadRef
 * ("<workload>-<podGroup>", created when new); "" for none. */
const char *pk_pg_group_name(pk_pg_set *g, pk_snapshot *s, const pk_pod *p);
/* A member of pg was bound during a simulation (it becomes part of the
 * group's victim unit). */
void pk_pg_add_bound(pk_podgroup *pg, pk_pod *p);
/* Does the pod name a scheduling group (whether or not it exists)? */
bool pk_pg_pod_has_group(const pk_pg_set *g, const pk_pod *p);
/* Priority as the PodGroup evaluator sees a pod (GetPodPriority): its
 * hierarchy's root group's when it has one. */
int32_t pk_pg_pod_priority(const pk_pg_set *g, const pk_pod *p);
/* The priority a bound pod has as a victim unit of its own: its group's
 * from 1.37 (GetPodPriority, #139030), its own before. */
int32_t pk_pg_victim_priority(const pk_pg_set *g, const pk_pod *p);
/* The group whose bound members are evicted together with p
 * (getHighestAllAncestor): of p's PodGroup and the CompositePodGroups above
 * it, the highest with disruptionMode all; NULL when none has it. */
const pk_podgroup *pk_pg_whole_group(const pk_pg_set *g, const pk_pod *p);
/* Members of pg (of every PodGroup under it, for a CompositePodGroup) still
 * bound to their node (not preempted meanwhile), into out when it is not
 * NULL (call with NULL first for the room needed); returns their number. */
int pk_pg_present_members(const pk_pg_set *g, const pk_snapshot *s, const pk_podgroup *pg, pk_pod **out);

/* disruptionMode as an object gives it: v1alpha2's string "Pod" |
 * "PodGroup", or v1alpha3's and v1beta1's union {single: {}} | {all: {}};
 * *whole for PodGroup / all. false when m is neither. */
bool pk_pg_decode_disruption_mode(const cJSON *m, bool *whole);

/* Members of a group that must be placed to succeed (minCount for gangs, 1
 * otherwise, as upstream's scheduling function treats basic groups).
 * pk_pg_evaluate lowers a gang's figure by the members already running. */
int pk_pg_required(const pk_podgroup *pg, int nmembers);

#endif
