/* The committed cluster: nodes, pods (bound and nominated), PDBs and
 * PriorityClasses decoded once into compact views (k8s/pod.h), pods grouped
 * per node in importance order; changed only by binding, deleting and
 * nominating (what a dry run supposes lives in a cycle: filter/cycle.h). */
#ifndef PK_SCHED_SNAPSHOT_H
#define PK_SCHED_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "diag.h"
#include "k8s/pod.h"
#include "k8s/namespace.h"
#include "k8s/options.h"
#include "k8s/priority.h"

/* ======================================================================
 * The committed cluster
 * ====================================================================== */

/* What victim selection reads of a bound pod, for every node of every
 * decision, packed together: following pods[i] to the pod itself costs a
 * cache miss per pod, and one decision on a 5,000-node cluster visits
 * 150,000 of them. */
typedef struct pk_pod_slot {
	int64_t cpu, memory, ephemeral;  /* the pod's requests */
	int64_t start;            /* status.startTime, or INT64_MIN when not started */
	int32_t priority;
	int8_t npdbs;             /* as pk_pod.npdbs, copied once it is known */
	int16_t pdbs[PK_POD_MAX_PDBS];
} pk_pod_slot;

/* One node and the pods the scheduler cache holds for it. */
typedef struct pk_nodeinfo {
	pk_node *node;
	pk_pod **pods;            /* bound, non-terminal pods; most important first
	                           * (pk_pod_importance_cmp at the snapshot's now) */
	pk_pod_slot *slots;       /* parallel to pods */
	int npods, cap;
	int64_t now;              /* the snapshot's now, to insert in order */
	uint64_t generation;      /* bumped by every change of pods or nominated */
	pk_res requested;         /* sum of the pods' requests (terminating included) */
	pk_pod **nominated;       /* pending pods with status.nominatedNodeName == node */
	int nnominated;
	size_t nomcap;
} pk_nodeinfo;


/* A PDB's place in pk_snapshot.pdb_keys: a pod's PDBs are those of its
 * namespace without a required label (value 0) and those whose required
 * label value the pod carries. Namespaces and values are interned: their
 * addresses name them. */
typedef struct pk_pdb_key {
	uintptr_t ns, value;
	int idx;
} pk_pdb_key;

/* A bound pod whose in-place resize the kubelet Deferred (KEP-5836,
 * kubernetes#140000): own is its entry on its node (counted at its spec
 * requests, as the scheduler's cache counts it), view the pod as the
 * scheduler evaluates the resize (pk_resize_view), decoded apart, with
 * own's priority once the snapshot is finished; view->index is -1. */
typedef struct pk_snapshot_resize {
	pk_pod *own, *view;
} pk_snapshot_resize;

typedef struct pk_snapshot {
	pk_arena arena;
	pk_strtab *strs;
	pk_decoder dec;
	pk_pclass_set classes;

	pk_node *nodes;           /* decoded nodes; after pk_snapshot_finish sorted by name */
	long nnodes;
	size_t nodecap;
	pk_nodeinfo *infos;       /* parallel to nodes after finish */

	pk_pod **pods;            /* every decoded pod, input order */
	long npods;
	size_t podcap;
	pk_pdb *pdbs;
	int npdbs;
	size_t pdbcap;
	pk_pdb_key *pdb_keys;     /* the PDBs by namespace, required label
	                           * value, then index (pk_pdb_index, at finish) */
	uint64_t pdb_key_bits[64];/* a bit per hash of each key's (ns, value):
	                           * a pod's label values that no PDB requires
	                           * are passed over without a search */

	bool keep_pending_objects;/* keep the cJSON of pending pods and Deferred resizes (for --pending) */
	bool volume_limit_scaling;/* the gate: NodeVolumeLimits refuses a node whose CSINode
	                           * lacks a driver whose CSIDriver says preventPodSchedulingIfMissing */
	unsigned dra_off;         /* the DRA features the release turns off (k8s/dra.h
	                           * PK_DRA_OFF_*, pk_dra_features_off): 0, all on */
	/* DRANodeAllocatableResources (KEP-5517): a bound pod's requests are
	 * its con->dra_requests, its status.nodeAllocatableResourceClaimStatuses
	 * in them, as upstream's NodeInfo counts them (filter/dra_nodealloc.h).
	 * Set before pk_snapshot_finish, which counts the bound pods that
	 * carry such statuses, gate on or off, for what the answers say. */
	bool dra_node_allocatable;
	long dra_status_pods;
	const pk_pod *dra_status_first;
	long dra_nodealloc_devices; /* slice devices that declare a footprint (at finish) */
	int threads;              /* pk_snapshot_finish's nodes are shared out
	                           * among this many (0: one per CPU, at most 4) */
	cJSON **pending_objects;  /* parallel to pods: owned cJSON or NULL */

	pk_snapshot_resize *resizes; /* bound pods with a Deferred resize, input order */
	long nresizes;
	size_t resizecap;

	long anti_affinity_pods;  /* bound pods with required pod anti-affinity */
	long unbound_node_pods;   /* bound to a node that is not in the input */
	long duplicates;          /* Nodes/Pods read twice: the last one read is used */
	long terminal_pods;       /* Succeeded/Failed: not in the scheduler cache */
	long priority_classes;    /* PriorityClass objects read (the built-in two not counted) */
	bool finished;
	int64_t now;              /* "now" for pods without a start time (Unix ns) */

	/* Pod-by-pod preemption as Kubernetes 1.37 does it (#137981, #139030):
	 * a bound pod of a known PodGroup is a victim at its group's priority,
	 * and the bound members of a group with disruptionMode all are one
	 * victim across nodes (evicted, counted and reprieved together). NULL:
	 * every pod is a victim on its own at its own priority (1.35 and 1.36,
	 * GenericWorkload off, or no PodGroup in the input). Set by
	 * pk_pg_set_finish (podgroup.h); the memo does not apply while set. */
	const struct pk_pg_set *victim_groups;
	/* The pod groups of the input (set by pk_pg_set_finish when it holds
	 * one), whatever the release: DynamicResources resolves a pod's
	 * podGroupResourceClaim through them (filter/dra.c). NULL: none. */
	const struct pk_pg_set *pod_groups;

	/* PersistentVolumeClaims, PersistentVolumes, StorageClasses, CSINodes
	 * (k8s/volume.h), or NULL when the input holds none (filter/volumes.h) */
	struct pk_volume_set *volumes;
	/* ResourceClaims, ResourceClaimTemplates, DeviceClasses, ResourceSlices
	 * (k8s/dra.h), or NULL when the input holds none (filter/dra.h) */
	struct pk_dra_set *dra;
	/* Set by pk_dra_play_forward (filter/dra.h) for a simulation: the
	 * snapshot's bind and delete of a pod with resource claims tell
	 * DynamicResources, which allocates and reserves the pod's claims, or
	 * takes its reservations back (NULL: nothing is played forward). Hooks,
	 * so that the one bind path below the plugin stays the only one. */
	void (*dra_bound)(struct pk_snapshot *s, pk_pod *p, const pk_node *n);
	void (*dra_gone)(struct pk_snapshot *s, pk_pod *p);
	/* --dra-preemption=kep-5690: DynamicResources in the preemption dry
	 * run as KEP-5690 proposes (not merged; filter/dra_preempt.c): a
	 * victim's claim reserved only for the node's victims is released.
	 * false: the release's behaviour (no part in the dry run). */
	bool dra_kep5690;
	/* Set by pk_dra_nodealloc_play_forward (filter/dra_nodealloc.h): after
	 * dra_bound, the pod's devices' node-allocatable footprint joins its
	 * requests on its node, as upstream's assume copies the status the
	 * Filter computed (NULL: nothing to add): true with the pod's new
	 * requests in *out, which the bind then counts. */
	bool (*dra_assumed)(struct pk_snapshot *s, const pk_pod *p, const pk_node *n, pk_res *out);

	/* Namespaces and their labels (Namespace objects), for the
	 * namespaceSelector of pod affinity terms; the decoder's terms point
	 * to it, so it never moves. */
	pk_ns_set *namespaces;

	void *index;              /* private: node-name hash index */
} pk_snapshot;

typedef enum { PK_ADD_USED, PK_ADD_SKIPPED, PK_ADD_REJECTED } pk_add_result;

/* Members of a snapshot's objects the engine never reads (managedFields,
 * container statuses, node images, annotations, ...): pass as the reader's
 * prune list so that they are not even built. NULL-terminated. */
extern const char *const pk_snapshot_unused_members[];

void pk_snapshot_init(pk_snapshot *s);
void pk_snapshot_free(pk_snapshot *s);
/* Decode one object (Node, Pod, PodDisruptionBudget, PriorityClass,
 * Namespace, the storage kinds) into the
 * snapshot. The object is not kept (except a pending pod's when
 * keep_pending_objects: then *take is set and the caller must detach it).
 * Other kinds are PK_ADD_SKIPPED; unusable objects PK_ADD_REJECTED with a
 * message in err. */
pk_add_result pk_snapshot_add(pk_snapshot *s, const cJSON *obj, long record, bool *take,
                              char *err, size_t errsize);
/* A typed List of item_kind begins in the input (pk_reader_opts.list_begun):
 * an empty VolumeAttachmentList (or CSIDriverList) says the cluster has
 * none, where no such object at all may only mean none was fetched. */
void pk_snapshot_list_begun(pk_snapshot *s, const char *item_kind);
/* After the last object: resolve priorities that pods do not carry (classes
 * may follow pods in the input), group pods per node, order them, sum
 * requests, index nominated pods. */
void pk_snapshot_finish(pk_snapshot *s);
/* Order the PDBs for the pods' PDB look-up (preempt.c). */
void pk_pdb_index(pk_snapshot *s);
/* Work out which PDBs select p (pk_pod.pdbs) unless known. */
void pk_pod_match_pdbs(const pk_snapshot *s, pk_pod *p);

pk_nodeinfo *pk_snapshot_node(const pk_snapshot *s, const char *name); /* NULL if unknown */

/* Committed changes (keep every nodeinfo's order and sums consistent, and
 * the pod's own fields, node_name and nominated_node, in step). What a dry
 * run supposes goes through a cycle instead (cycle.h); no cycle is open
 * while the snapshot changes. */

/* dst += sign * src for cpu, memory, ephemeral storage and the scalar
 * resources (not pods); dst's scalar table is malloc-owned and grows when
 * src brings a name dst has not seen yet. */
void pk_res_add(pk_res *dst, const pk_res *src, int sign);

/* Bind (assume) a pod to a node: drops its nomination, sets spec.nodeName,
 * adds it to the node. Returns false if the node is unknown. */
bool pk_snapshot_bind(pk_snapshot *s, pk_pod *p, const char *node);
/* Delete a bound pod (a victim gone) or forget a pending one. */
void pk_snapshot_delete(pk_snapshot *s, pk_pod *p);
/* Set or clear (node NULL/"") a pending pod's nomination. */
void pk_snapshot_nominate(pk_snapshot *s, pk_pod *p, const char *node);

/* Importance (MoreImportantPod): higher priority first, then earlier start
 * (no start time = now), then - our addition for determinism - namespace/
 * name order. Returns <0 if a is more important. */
int pk_pod_importance_cmp(const pk_pod *a, const pk_pod *b, int64_t now);

/* Preemptors from --pending: pending pods (no nodeName, not terminal) in
 * scheduling-queue order (PrioritySort: priority desc, then creation time,
 * then namespace/name). Gated pods (pk_pod_gated) are among them, so that
 * every answer lists them: upstream keeps them out of the active queue, and
 * pk_evaluate answers for them so. Returns the count; *out is malloc'd. */
long pk_snapshot_pending(const pk_snapshot *s, pk_pod ***out);

/* The bound pods with a Deferred in-place resize (pk_snapshot.resizes) that
 * the scheduler would queue with InPlacePodVerticalScalingSchedulerPreemption
 * on: live (not shadowed, terminal or terminating), on a node of the
 * snapshot, in scheduling-queue order (PrioritySort, as pending pods: see
 * pk_snapshot_pending). Returns the count; *out is malloc'd (views). */
long pk_snapshot_resizes(const pk_snapshot *s, pk_pod ***out);
/* The snapshot's entry of a Deferred resize's view (pk_snapshot_resize.own),
 * or NULL when view is none. */
pk_pod *pk_snapshot_resize_own(const pk_snapshot *s, const pk_pod *view);
/* Pending pods and, when resizes, the Deferred resizes' views, merged in
 * scheduling-queue order: the scheduler's queue. *out is malloc'd. */
long pk_snapshot_queue(const pk_snapshot *s, bool resizes, pk_pod ***out);
/* A pod object as the scheduler evaluates its Deferred resize: the Filter
 * plugins that skip such a pod (NodeUnschedulable, NodeAffinity,
 * TaintToleration, NodePorts, InterPodAffinity, PodTopologySpread, the
 * volume plugins, DynamicResources) have nothing to check in it, and it
 * is no member of a pod group (isPodGroupMember); NodeName and
 * NodeResourcesFit see it as it is. Its status goes: the pod is planned
 * from its spec. A new object (the caller deletes it). */
cJSON *pk_resize_view(const cJSON *pod);

/* ---- a PDB and a pod (pdb.c; inline: victim selection asks per pod) ---- */

/* The PDB lists p among its disrupted pods (already counted). */
static inline bool pk_pdb_skips_pod(const pk_pdb *b, const pk_pod *p)
{
	for (int i = 0; i < b->ndisrupted; i++)
		if (strcmp(b->disrupted_pods[i], p->name) == 0) /* pod names are not interned */
			return true;
	return false;
}

/* The PDB selects p. */
static inline bool pk_pdb_matches(const pk_pdb *b, const pk_pod *p)
{
	/* all interned in the snapshot: equal strings are equal pointers */
	return b->namespace_ == p->namespace_ &&
	       (!b->must_key || pk_labels_value(p->labels, b->must_key) == b->must_value) &&
	       pk_selector_matches_labels(&b->selector, p->labels);
}

#endif
