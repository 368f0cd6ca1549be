/* Placement of a pod that fits: the default profile's score plugins over
 * the nodes that passed the filters, as kube-scheduler's
 * prioritizeNodes/selectHost does (pkg/scheduler/schedule_one.go), with
 * the default weights (apis/config/v1/default_plugins.go):
 *
 *   TaintToleration 3       intolerable PreferNoSchedule taints, normalised
 *                           reversed (fewest = 100)
 *   NodeAffinity 2          weights of the matching preferred terms,
 *                           normalised to 0..100
 *   NodeResourcesFit 1      LeastAllocated over cpu and memory (weight 1
 *                           each), a container's absent request counted as
 *                           100m / 200Mi
 *   PodTopologySpread 2     the system default constraints (hostname
 *                           maxSkew 3, zone maxSkew 5, ScheduleAnyway) for a
 *                           pod without constraints of its own
 *   NodeResourcesBalancedAllocation 1  1 - the spread of the cpu and memory
 *                           fractions; a pod that requests neither is skipped
 *   InterPodAffinity 2      per topology pair: the weights of the pod's
 *                           preferred terms that select a bound pod there
 *                           (anti-affinity negative), of the bound pods'
 *                           preferred terms and required affinity terms
 *                           (hardPodAffinityWeight 1) that select the pod;
 *                           min..max normalised to 0..100
 *   ImageLocality 1         sizes of the pod's container images that the
 *                           node lists in status.images, each scaled by the
 *                           share of nodes that list it, clamped to
 *                           23 MB..1000 MB a container, as 0..100
 *
 * A pod with ScheduleAnyway constraints of its own is placed without those
 * terms, and the placement says so (pk_placement.assumes).
 *
 * Assumptions (the man pages say them): the defaults for absent requests
 * count per app or sidecar container (not in an init container's peak); the
 * system default spread
 * selects the pods of the pod's controller (ReplicaSet, StatefulSet,
 * ReplicationController), the Services that may select it too are not read.
 *
 * Every feasible node is scored (upstream scores the first
 * numFeasibleNodesToFind from a rotating start on large clusters) and of
 * equal top scores the node with the lowest name is taken (upstream:
 * reservoir sampling, at random): pk_placement.ntop says how many tied.
 */
#ifndef PK_SCHED_SCORE_H
#define PK_SCHED_SCORE_H

#include "k8s/profile.h"
#include "sched/engine/preempt/preempt.h"

enum {
	PK_SCORE_TAINT,
	PK_SCORE_AFFINITY,
	PK_SCORE_FIT,
	PK_SCORE_SPREAD,
	PK_SCORE_BALANCED,
	PK_SCORE_INTERPOD,
	PK_SCORE_IMAGE,
	PK_SCORE_NPLUGINS
};

/* The plugin's name and default weight. */
const char *pk_score_plugin_name(int plugin);
int pk_score_plugin_weight(int plugin);

typedef struct pk_placement {
	const pk_nodeinfo *node;  /* the node chosen, or NULL when none fits */
	int64_t score;            /* its weighted sum */
	int plugin[PK_SCORE_NPLUGINS]; /* its normalised score per plugin (0..100) */
	long nscored;             /* feasible nodes scored */
	long ntop;                /* nodes with the top score (> 1: the tie was broken by name) */
	const char *assumes;      /* what the score leaves out for this pod, or NULL (static) */
} pk_placement;

/* What scoring keeps between the placements of one run, so that replicas
 * of one template placed one after another cost a pass over the nodes and
 * not over every pod: each node's zone and hostname labels, the pods on
 * each node of the controllers of the pods placed, each node's pods whose
 * pod affinity terms score others, and the nodes' image states; a node is
 * indexed again when its generation moves. Belongs to the caller (one per
 * snapshot); NULL: nothing kept. It also holds the scoring rules of the
 * release answered for (the profile's; a NULL profile, or a NULL cache:
 * the newest release's). */
typedef struct pk_score_cache pk_score_cache;
pk_score_cache *pk_score_cache_new(const pk_release_profile *release);
void pk_score_cache_free(pk_score_cache *c);

/* The raw (before normalising) per-node scores of one plugin, for tests:
 * nodes[i] for i < n, into raw[i]; false when the plugin skips the pod
 * (every node 0). */
bool pk_score_raw(const pk_snapshot *s, pk_score_cache *c, const pk_pod *pod, int plugin,
                  const pk_nodeinfo *const *nodes, long n, int64_t *raw);
/* NormalizeScore of plugin over raw[0..n) in place (0..100). */
void pk_score_normalize(int plugin, int64_t *raw, long n);

/* Score nodes[0..n) (all feasible for pod) and pick one. */
void pk_score_nodes(const pk_snapshot *s, pk_score_cache *c, const pk_pod *pod, const pk_nodeinfo *const *nodes,
                    long n, pk_placement *out);
/* The same over the nodes whose filter pass succeeded in e. */
void pk_score_place(const pk_snapshot *s, pk_score_cache *c, const pk_pod *pod, const pk_evaluation *e,
                    pk_placement *out);

#endif
