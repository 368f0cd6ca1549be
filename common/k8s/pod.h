/* Compact, typed views of the Kubernetes objects the scheduler engine uses:
 * Node, Pod, PodDisruptionBudget. Decoded from cJSON once, inside the reader
 * callback, so that no cJSON tree of a pod has to be kept.
 *
 * Memory model: every view and everything it points to lives in a pk_arena
 * (bump allocator, freed at once); strings are interned in a pk_strtab, so
 * equal strings are equal pointers and repeated names cost nothing.
 * Label maps, of pods and of nodes, are packed (pk_intern_labels): numbers
 * of interned (key, value) pairs, matched by pk_selector_matches_labels()
 * (the one selector matcher). A 65,000-node snapshot kept its node labels
 * as cJSON objects at 1 KB a node.
 *
 * Pod requests follow upstream's resource.PodRequests as NodeResourcesFit
 * uses it: max(sum of app containers + restartable init (sidecar)
 * containers, the peak of any regular init container plus the sidecars
 * started before it) + spec.overhead; spec.resources.requests (pod-level
 * resources) replaces the container sums for the resources it names.
 */
#ifndef PK_K8S_POD_H
#define PK_K8S_POD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>
#include "base/arena.h"
#include "base/hash.h"
#include "base/strtab.h"
#include "priority.h"
#include "selector.h"

/* ---- string interning (base/strtab.h) ------------------------------- */

/* A label map (metadata.labels) packed (selector.h): its pairs, keys and
 * values interned, numbered by the table. Members that are not strings
 * are left out; a repeated key keeps its last value (encoding/json), so
 * the packed keys are unique. NULL when labels is no object or empty. Lives as long as
 * the table. */
const pk_labels *pk_intern_labels(pk_strtab *t, const cJSON *labels);

/* ---- resources ---------------------------------------------------------- */

/* Named resources other than cpu/memory/ephemeral-storage/pods: hugepages-*,
 * extended resources (example.com/gpu), ... Names are interned. */
typedef struct pk_scalar_res {
	const char *name;
	int64_t milli;
} pk_scalar_res;

/* A resource vector in milli-units (memory 1Gi = 1073741824000). */
typedef struct pk_res {
	int64_t cpu, memory, ephemeral, pods;
	pk_scalar_res *scalar;   /* arena; nscalar entries, names unique */
	int nscalar;
	/* App and sidecar containers that name no cpu / no memory request:
	 * scoring counts each at the scheduler's defaults (sched/score.h). */
	uint16_t cpu_unset, memory_unset;
} pk_res;

int64_t pk_res_scalar(const pk_res *r, const char *interned_name);
/* True if the pod asks for nothing (cpu, memory, ephemeral, scalars all 0). */
bool pk_res_is_zero(const pk_res *r);

/* ---- nodes -------------------------------------------------------------- */

typedef enum { PK_EFFECT_NO_SCHEDULE, PK_EFFECT_PREFER_NO_SCHEDULE, PK_EFFECT_NO_EXECUTE } pk_taint_effect;

typedef struct pk_taint {
	const char *key, *value;  /* value "" when absent */
	pk_taint_effect effect;
} pk_taint;

/* One name of an image in node.status.images, with the image's sizeBytes
 * (ImageLocality's score). */
typedef struct pk_node_image {
	const char *name;         /* interned, as listed (not normalised) */
	int64_t size;
} pk_node_image;

typedef struct pk_node {
	const char *name;
	const pk_labels *labels;  /* packed (pk_intern_labels), or NULL */
	const pk_labels *fields;  /* {"metadata.name": name} for matchFields, packed */
	pk_res allocatable;       /* status.allocatable (pods in .pods, as a count x1000) */
	bool unschedulable;       /* spec.unschedulable */
	/* spec.podPreemptionPolicy.disableResizePreemption lists an owner:
	 * no preemption for an in-place resize on this node (KEP-5836) */
	bool resize_preemption_disabled;
	pk_taint *taints;
	int ntaints;
	pk_node_image *images;    /* every name of every status.images entry */
	int nimages;
	long index;               /* position in the snapshot's node array */
} pk_node;

/* ---- pods --------------------------------------------------------------- */

typedef enum { PK_TOL_EQUAL, PK_TOL_EXISTS } pk_tol_op;
typedef struct pk_toleration {
	const char *key;          /* "" = all keys (only with Exists) */
	const char *value;
	pk_tol_op op;
	int effect;               /* pk_taint_effect, or -1 for all effects */
} pk_toleration;

typedef struct pk_host_port {
	const char *ip;           /* "" or "0.0.0.0" = all addresses */
	const char *protocol;     /* "TCP" default */
	int32_t port;
} pk_host_port;

/* Scheduling features a pod asks for that the engine does not model; they
 * are reported as warnings, never silently ignored. Bit set. */
enum {
	PK_UNMODELLED_NAMESPACE_SELECTOR = 1u << 0, /* unused: namespaceSelector is modelled (k8s/namespace.h) */
	PK_UNMODELLED_POD_ANTI_AFFINITY = 1u << 1,  /* unused: required pod (anti-)affinity is modelled */
	PK_UNMODELLED_TOPOLOGY_SPREAD = 1u << 2,    /* unused: DoNotSchedule spread is modelled */
	PK_UNMODELLED_VOLUMES = 1u << 3,            /* PVC volumes (VolumeBinding/Zone/limits) */
	PK_UNMODELLED_RESOURCE_CLAIMS = 1u << 4,    /* DRA resourceClaims */
	PK_UNMODELLED_SCHEDULING_GATES = 1u << 5,   /* unused: spec.schedulingGates are modelled (pk_pod_gated) */
};
/* Comma-separated names of the bits set in mask, written into buf. */
const char *pk_unmodelled_names(unsigned mask, char *buf, size_t size);

/* A required node-affinity term: matchExpressions over labels AND
 * matchFields over fields; terms are ORed. */
typedef struct pk_node_term {
	pk_selector labels;
	pk_selector fields;
	bool has_fields;
} pk_node_term;

/* A pod (anti-)affinity term, required or preferred (weight). Namespaces: the listed ones; none
 * listed and no namespaceSelector = the owning pod's namespace; an empty
 * namespaceSelector ({}) = every namespace; a non-empty one adds the
 * namespaces whose labels it matches (k8s/namespace.h), as upstream's
 * AffinityTerm.Matches. */
typedef struct pk_pod_term {
	pk_selector selector;         /* labelSelector; nil matches nothing */
	const char **namespaces;      /* interned */
	int nnamespaces;
	bool all_namespaces;
	bool has_ns_selector;         /* a non-empty namespaceSelector: ns_selector */
	pk_selector ns_selector;
	const struct pk_ns_set *ns_set; /* the namespaces' labels it is matched against */
	const char *topology_key;     /* interned */
	int32_t weight;               /* a preferred term's weight (0 for a required one) */
} pk_pod_term;

/* A topologySpreadConstraint with whenUnsatisfiable: DoNotSchedule (the
 * ScheduleAnyway ones only score). */
typedef struct pk_spread {
	int32_t max_skew;
	const char *topology_key;     /* interned */
	pk_selector selector;         /* labelSelector with matchLabelKeys merged in */
	int32_t min_domains;          /* 0 when unset */
	bool honor_affinity;          /* nodeAffinityPolicy: Honor (default) */
	bool honor_taints;            /* nodeTaintsPolicy: Honor (default Ignore) */
} pk_spread;

/* What a pod asks of its node beyond resources and tolerations, and its
 * gang: few pods have any of it, so a pod points to these (shared,
 * read-only) instead of carrying 110 bytes of empty members. */
/* A container's request of an extended resource (a name with a domain:
 * one a DeviceClass may back, DRAExtendedResource), as upstream's
 * createRequestsAndMappings reads them: its container counts init
 * containers then app containers; rank is the name's position among the
 * container's sorted request names (limits standing in for absent
 * requests, as the apiserver's defaulting does); whole numbers only
 * (Quantity.AsInt64), zero left out. */
typedef struct pk_ext_request {
	const char *resource;         /* interned */
	int64_t count;
	int16_t container, rank;
	bool short_lived;             /* an init container that is not a sidecar */
} pk_ext_request;

typedef struct pk_pod_constraints {
	pk_host_port *ports;          /* hostPort > 0 of all containers (incl. init) */
	int nports;
	bool has_node_selector;
	bool has_node_affinity;       /* requiredDuringScheduling... present */
	pk_selector node_selector;    /* spec.nodeSelector (is_nil when absent) */
	pk_node_term *affinity_terms; /* required nodeAffinity terms */
	int naffinity_terms;
	int naffinity;
	pk_pod_term *affinity;        /* required podAffinity terms */
	pk_pod_term *anti_affinity;   /* required podAntiAffinity terms */
	int nanti_affinity;
	int nspread;
	pk_spread *spread;            /* DoNotSchedule topology spread constraints */
	/* For scoring (sched/score.h): preferred nodeAffinity terms and their
	 * weights; whether the pod has ScheduleAnyway spread constraints (not
	 * scored: said) or preferred pod (anti-)affinity terms. */
	pk_node_term *preferred;
	int32_t *preferred_weight;
	int npreferred;
	bool soft_spread, preferred_pod_affinity;
	/* preferred podAffinity / podAntiAffinity terms, with their weights */
	pk_pod_term *preferred_affinity, *preferred_anti;
	int npreferred_affinity, npreferred_anti;
	/* ImageLocality: the images of the init and app containers, each
	 * normalised (":latest" added when untagged) and interned, one per
	 * container. Read for pods not bound (spec.nodeName empty) only: those
	 * are the pods placed, and a bound pod's images are not scored. */
	const char *const *images;
	int nimages;
	/* Gang membership, for PodGroup preemption (common/sched/engine/cluster/podgroup.c, gang/):
	 * spec.schedulingGroup.podGroupName (scheduling/v1alpha2 PodGroup) and
	 * spec.workloadRef {name, podGroup} (v1alpha1 Workload); "" when absent. */
	const char *pod_group;
	const char *workload_name, *workload_pod_group;
	/* The claims of spec.volumes (k8s/volume.h), or NULL. */
	const struct pk_pod_volumes *volumes;
	/* spec.schedulingGates' names, interned, in order (pk_pod_gated) */
	const char *const *scheduling_gates;
	int nscheduling_gates;
	/* A replica's copy (pk_pod_constraints_for_replica): the template's
	 * constraints own the selectors, pk_pod_release leaves them alone. */
	bool borrowed;
	/* spec.resourceClaims (k8s/dra.h), or NULL. */
	const struct pk_pod_dra *dra;
	/* The pod's requests with its status.nodeAllocatableResourceClaimStatuses
	 * in them (k8s/dra_nodealloc.h), or NULL when it has none: what its
	 * node counts for it under DRANodeAllocatableResources. */
	const pk_res *dra_requests;
	/* how many containers name each of spec.resourceClaims (k8s/dra_nodealloc.h), or NULL */
	const struct pk_dra_claim_refs *dra_refs;
	/* the containers' extended-resource requests, by container (pods not
	 * bound only: pod.c decode_ext_requests), or NULL */
	const pk_ext_request *ext_requests;
	int next_requests;
} pk_pod_constraints;

/* A required node-selector term ({matchExpressions, matchFields}) compiled
 * into x; what prefixes the message ("preferred ", ...). Shared with the
 * PersistentVolume and StorageClass decoders (volume.c). */
int pk_node_term_compile(const cJSON *t, pk_node_term *x, const char *what, char *err, size_t errsize);
/* A list of such terms (nodeSelectorTerms) compiled into *out, in the
 * arena, *n of them; -1 at the first that does not compile (those before it
 * are in *out, for pk_node_terms_free). */
int pk_node_terms_compile(pk_arena *a, const cJSON *terms, pk_node_term **out, int *n, const char *what, char *err,
                          size_t errsize);
void pk_node_terms_free(pk_node_term *t, int n);

/* The constraints of a pod that has none (node_selector is nil, the gang
 * names ""). */
extern const pk_pod_constraints pk_pod_no_constraints;

#define PK_POD_MAX_PDBS 4

/* The Priority admission plugin's objections to a pod (pk_pod.admission). */
enum {
	PK_ADMISSION_CLASS_MISSING = 1u << 0,     /* priorityClassName not in the input */
	PK_ADMISSION_PRIORITY_CONFLICT = 1u << 1, /* spec.priority differs from its class's value */
	PK_ADMISSION_POLICY_CONFLICT = 1u << 2,   /* spec.preemptionPolicy differs from its class's */
};

typedef struct pk_pod {
	/* Ordered by size (pointers, 64-bit, 32-bit, then bytes): a snapshot
	 * holds millions of these, and padding is memory per pod. */
	const char *namespace_;
	const char *name, *uid;       /* not interned (each pod has its own): compare with strcmp */
	const char *node_name;        /* spec.nodeName ("" = not bound) */
	const char *nominated_node;   /* status.nominatedNodeName ("" = none) */
	const char *scheduler_name;   /* spec.schedulerName, default "default-scheduler" */
	const char *class_name;       /* spec.priorityClassName ("" = none) */
	const char *phase;            /* status.phase ("" if absent) */
	const pk_labels *labels;      /* packed (pk_intern_labels), or NULL */

	pk_res requests;              /* as upstream's PodRequests computes them */
	int64_t start_time;           /* status.startTime, Unix ns */
	int64_t created;              /* metadata.creationTimestamp, Unix ns (0 if absent) */

	const pk_toleration *tolerations; /* shared (pk_intern_blob) */
	const pk_pod_constraints *con; /* never NULL: pk_pod_no_constraints when it has none */

	/* The controller ownerReference's kind and name ("" when none; the
	 * name is not interned: compare with strcmp). The workload that owns
	 * the pod, for reports, is the same, but one level up for a ReplicaSet
	 * the Deployment controller made (named <deployment>-<pod-template-hash>,
	 * its pods labelled with the hash): owner_trim > 0 says so, the
	 * Deployment's name being controller_name without its last owner_trim
	 * characters. */
	const char *controller_kind, *controller_name;

	int32_t index;                /* position in the snapshot's pod array */
	int32_t priority;             /* effective priority (resolved if !has_priority) */

	/* The PDBs (indices into the snapshot's pdbs) whose selector matches
	 * this pod, worked out once on first use: victim selection asks for
	 * every potential victim on every node, per preemptor. */
	int16_t pdbs[4];
	uint16_t ntolerations;        /* at most PK_POD_MAX_TOLERATIONS */
	int8_t npdbs;                 /* -1: not yet known; PK_POD_MAX_PDBS+1: too many, scan */

	uint8_t admission;            /* PK_ADMISSION_*: what the Priority admission plugin
	                               * would say about the pod, set when it is resolved */
	uint8_t unmodelled;           /* PK_UNMODELLED_* */
	uint8_t owner_trim;           /* see controller_kind */
	/* The last two bytes as bit-fields (not addressable: copy them) */
	pk_preemption_policy policy : 8;
	bool has_priority : 1;        /* spec.priority was present */
	bool has_policy : 1;          /* spec.preemptionPolicy was present */
	bool has_start_time : 1;
	bool terminating : 1;         /* metadata.deletionTimestamp set */
	bool preemption_target : 1;   /* first DisruptionTarget condition is True/PreemptionByScheduler */
	bool shadowed : 1;            /* a later object of the same namespace/name replaced it */
} pk_pod;

/* Every byte of a pod is 2 MB of a 2-million-pod snapshot: keep it at 192
 * (12 cache-line quarters) on 64-bit targets. */
_Static_assert(sizeof(void *) != 8 || sizeof(pk_pod) <= 192, "pk_pod grew beyond 192 bytes");

/* Tolerations a pod may carry (pk_pod.ntolerations is 16 bits). */
#define PK_POD_MAX_TOLERATIONS 65535

/* ---- PodDisruptionBudget ------------------------------------------------ */

typedef struct pk_pdb {
	const char *namespace_, *name;
	pk_selector selector;         /* spec.selector; nil matches nothing */
	/* A label every pod it selects carries (a single-value In, as
	 * matchLabels gives), interned: a quick reject before the selector,
	 * which victim selection asks of 150,000 pods. NULL if none. */
	const char *must_key, *must_value;
	int32_t disruptions_allowed;  /* status.disruptionsAllowed (0 when absent) */
	const char **disrupted_pods;  /* keys of status.disruptedPods (pod names, interned) */
	int ndisrupted;
} pk_pdb;

/* ---- decoding ----------------------------------------------------------- */

typedef struct pk_decoder {
	pk_arena *arena;
	pk_strtab *strs;
	/* Well-known interned names, filled by pk_decoder_init. */
	const char *res_cpu, *res_memory, *res_ephemeral, *res_pods;
	/* The last controller name kept (decode_owner): replicas of one
	 * ReplicaSet are listed together and share it. */
	const char *last_owner;
	/* The namespaces a term's namespaceSelector is matched against
	 * (k8s/namespace.h), or NULL: the selector then matches none. */
	struct pk_ns_set *namespaces;
} pk_decoder;

void pk_decoder_init(pk_decoder *d, pk_arena *arena, pk_strtab *strs);

/* Decode into *out (zeroed by the callee). Return 0, or -1 with a message in
 * err when the object cannot be used (e.g. a malformed quantity); the
 * message names the field. */
int pk_node_decode(pk_decoder *d, const cJSON *node, pk_node *out, char *err, size_t errsize);
int pk_pod_decode(pk_decoder *d, const cJSON *pod, pk_pod *out, char *err, size_t errsize);
/* Decode a PodSpec with its metadata given separately (pod templates of
 * workloads); meta may be NULL. */
int pk_pod_decode_spec(pk_decoder *d, const cJSON *meta, const cJSON *spec, const cJSON *status,
                       pk_pod *out, char *err, size_t errsize);
int pk_pdb_decode(pk_decoder *d, const cJSON *pdb, pk_pdb *out, char *err, size_t errsize);

/* Requests of a PodSpec as upstream computes them (see the top comment).
 * Scalar names are interned through d. */
int pk_pod_requests(pk_decoder *d, const cJSON *spec, pk_res *out, char *err, size_t errsize);

/* Free the compiled selectors held by views (the arena frees the rest). */
void pk_pod_release(pk_pod *p);
/* The constraints of a replica of a template pod whose constraints are c,
 * with volumes of its own (the claims named for it), in the decoder's
 * arena; c itself when the volumes are c's. */
const pk_pod_constraints *pk_pod_constraints_for_replica(pk_decoder *d, const pk_pod_constraints *c,
                                                         const struct pk_pod_volumes *volumes);
void pk_pdb_release(pk_pdb *p);

/* Toleration semantics (v1.Toleration.ToleratesTaint). */
bool pk_toleration_tolerates(const pk_toleration *t, const pk_taint *taint);
bool pk_pod_tolerates(const pk_pod *p, const pk_taint *taint);

/* Does term t of pod owner select pod target (namespace and labels)? */
bool pk_pod_term_matches(const pk_pod_term *t, const pk_pod *owner, const pk_pod *target);

/* A pod with spec.schedulingGates: the SchedulingGates plugin's PreEnqueue
 * keeps it out of the active queue (UnschedulableAndUnresolvable), so it is
 * never filtered, placed, nominated or a preemptor. */
static inline bool pk_pod_gated(const pk_pod *p)
{
	return p->con->nscheduling_gates > 0;
}
/* PreEnqueue's message, "waiting for scheduling gates: [a b]" (Go's %v of
 * the names), into buf. */
const char *pk_pod_gates_message(const pk_pod *p, char *buf, size_t size);
/* The PodScheduled condition the apiserver gives a gated pod at creation
 * (pkg/registry/core/pod/strategy.go applySchedulingGatedCondition; reason
 * v1.PodReasonSchedulingGated). */
#define PK_POD_REASON_SCHEDULING_GATED "SchedulingGated"
#define PK_POD_SCHEDULING_GATED_MESSAGE "Scheduling is blocked due to non-empty scheduling gates"

/* Priority admission's resolution of a pod's priorityClassName, with its
 * spec.priority and spec.preemptionPolicy when it carries them. */
pk_resolved_priority pk_pod_resolve_priority(const pk_pclass_set *classes, const pk_pod *p);

/* Is the pod in a terminal phase (Succeeded/Failed)? The scheduler's cache
 * does not hold such pods. */
bool pk_pod_is_terminal(const pk_pod *p);

/* Is the pod object's in-place resize Deferred by the kubelet? As
 * upstream's IsPodResizeDeferred (component-helpers/resource): the first
 * PodResizePending condition has reason Deferred. Read from the object
 * (a --preemptor as `kubectl get pod -o json` shows it), never on the
 * snapshot's hot path. */
bool pk_pod_object_resize_deferred(const cJSON *pod);

#endif
