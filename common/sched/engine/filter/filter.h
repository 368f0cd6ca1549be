/* The Filter plugins and their status (framework.Status): upstream's codes
 * and reasons, run as RunFilterPlugins and RunFilterPluginsWithNominatedPods
 * run them; the plugins with PreFilter state are the cycle's (cycle.h). */
#ifndef PK_SCHED_FILTER_H
#define PK_SCHED_FILTER_H

#include "sched/engine/cluster/snapshot.h"

typedef struct pk_interpod pk_interpod; /* InterPodAffinity state (interpod.h) */
typedef struct pk_spread_state pk_spread_state; /* PodTopologySpread state (spread.h) */
typedef struct pk_cycle pk_cycle; /* one scheduling cycle (cycle.h) */

/* ======================================================================
 * Status (framework.Status)
 * ====================================================================== */

typedef enum {
	PK_CODE_SUCCESS = 0,
	PK_CODE_ERROR,
	PK_CODE_UNSCHEDULABLE,              /* preemption may help */
	PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, /* preemption cannot help */
} pk_code;

#define PK_STATUS_MAX_REASONS 8

typedef struct pk_status {
	pk_code code;
	const char *plugin;                 /* failing plugin, e.g. "NodeResourcesFit" */
	int nreasons;
	bool prefilter;                     /* a PreFilter's rejection, the same on every node
	                                     * (the FitError then gives its message once) */
	const char *reasons[PK_STATUS_MAX_REASONS]; /* static or interned strings */
} pk_status;

const char *pk_code_name(pk_code c);    /* "Unschedulable", ... */
/* Success without plugin or reasons: the one shared value of it. */
extern const pk_status pk_status_success;
void pk_status_set(pk_status *s, pk_code code, const char *plugin, const char *reason);
void pk_status_add_reason(pk_status *s, const char *reason);

/* Statuses stored once each, for tables that point to a few distinct ones
 * many times (the memo's node entries: "Insufficient cpu", ...). Reasons
 * and plugins are constants or interned, so they are compared by address
 * (equal texts at two addresses only cost a second copy). */
typedef struct pk_status_table {
	pk_status **slot;
	size_t cap, n;
	pk_arena arena;
} pk_status_table;
void pk_status_table_init(pk_status_table *t);
void pk_status_table_free(pk_status_table *t);
/* The table's copy of st, stored on first sight; the shared success for a
 * success without plugin or reasons. Lives as long as the table. */
const pk_status *pk_status_table_intern(pk_status_table *t, const pk_status *st);

/* ======================================================================
 * Filters
 * ====================================================================== */

/* Run the modelled Filter plugins in the default profile's order
 * (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts,
 * NodeResourcesFit, PodTopologySpread, InterPodAffinity); stops at the
 * first failure like RunFilterPlugins. The last two read the cycle's
 * PreFilter state (cycle.h) when it was built for this pod: pk_evaluate
 * opens the preemptor's cycle, a gang placement one per member. */
/* NodeResourcesFit's check of one resource (fitsRequest): the reason
 * added when req exceeds what is free (the constant for cpu, memory and
 * ephemeral-storage; NULL for others: "Insufficient <name>", interned in
 * s's table), *unresolvable when it exceeds the allocatable. */
void pk_fit_check_resource(pk_status *st, const pk_snapshot *s, const char *name, const char *reason, int64_t req,
                           int64_t alloc, int64_t used, bool *unresolvable);
pk_status pk_run_filters(pk_cycle *c, const pk_pod *pod, const pk_nodeinfo *ni);
/* Pieces of NodeAffinity and TaintToleration, shared with the spread and
 * gang code: spec.nodeSelector + required node affinity; NoSchedule and
 * NoExecute taints tolerated. */
bool pk_node_affinity_matches(const pk_pod *pod, const pk_node *n);
/* A node-affinity term (required or preferred) selects n; an empty one none. */
bool pk_node_term_matches(const pk_node_term *t, const pk_node *n);
bool pk_taints_tolerated(const pk_pod *pod, const pk_node *n);
/* The taint TaintToleration's Filter stops at (FindMatchingUntoleratedTaint:
 * the node's first NoSchedule or NoExecute taint the pod does not
 * tolerate), or NULL. Upstream's reason does not name it ("node(s) had
 * untolerated taint(s)", #134740) and logs it at V(4); the records name it
 * beside the reason. */
const pk_taint *pk_untolerated_taint(const pk_pod *pod, const pk_node *n);
/* "NoSchedule", "PreferNoSchedule", "NoExecute". */
const char *pk_taint_effect_name(int effect);

/* RunFilterPluginsWithNominatedPods: pods nominated to the node with
 * priority >= pod's (and another uid) are counted as if running there. */
pk_status pk_run_filters_with_nominated(pk_cycle *c, const pk_pod *pod, pk_nodeinfo *ni);
/* The filters that look only at the node (NodeUnschedulable, NodeName,
 * TaintToleration, NodeAffinity), and the others with nominated pods when
 * the node-only ones are known to pass: victim selection asks the second
 * question once per reprieve candidate. */
pk_status pk_run_static_filters(const pk_pod *pod, const pk_nodeinfo *ni);
/* NodeResourcesFit for a pod without extended resources, given what the
 * node holds: npods pods requesting cpu, memory and ephemeral-storage. */
pk_status pk_fit_basic(const pk_pod *pod, const pk_node *n, int64_t npods, int64_t cpu, int64_t memory,
                       int64_t ephemeral);
/* Its verdict alone, without building the status (reprieve asks often). */
bool pk_fits_basic(const pk_pod *pod, const pk_node *n, int64_t npods, int64_t cpu, int64_t memory,
                   int64_t ephemeral);
pk_status pk_run_pod_filters_with_nominated(pk_cycle *c, const pk_pod *pod, pk_nodeinfo *ni);

#endif
