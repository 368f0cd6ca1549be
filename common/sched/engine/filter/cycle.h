/* One scheduling cycle, as upstream's CycleState with the PreFilter
 * extensions (pkg/scheduler/framework/cycle_state.go, interface.go
 * PreFilterExtensions): the pod under evaluation, each plugin's PreFilter
 * state, and the hypothetical adds and removes of a dry run.
 *
 * The snapshot (engine.h) holds the committed cluster only: pods bound,
 * deleted or nominated. Everything a dry run or a gang placement supposes
 * goes through a cycle: pk_cycle_add_pod/_remove_pod change the node's view
 * and every plugin's PreFilter state together (AddPod/RemovePod), and
 * pk_cycle_close takes back whatever is still supposed. A gang member's
 * placement opens a cycle of its own inside its group's (nested: closed
 * first). A cycle is used by one thread; the threads of a memo's dry runs
 * share one only on the arithmetic path, which moves no pod.
 *
 * A plugin with PreFilter state is an id below and one entry of the table
 * in cycle.c (pk_prefilter_plugin_of): its PreFilter, AddPod/RemovePod,
 * Filter and release. Nothing else changes when one is added: the filter
 * pass, the dry runs and the gang placement reach it through the cycle, and
 * test/unit/test_cycle.c asks for a case of it. */
#ifndef PK_SCHED_CYCLE_H
#define PK_SCHED_CYCLE_H

#include <stdbool.h>

#include "sched/engine/filter/filter.h"

/* The plugins with PreFilter state, in the default profile's Filter order. */
typedef enum {
	PK_STATE_VOLUME_RESTRICTIONS,    /* before VolumeBinding and VolumeZone (volumes.h) */
	PK_STATE_POD_TOPOLOGY_SPREAD,
	PK_STATE_INTER_POD_AFFINITY,
	PK_NSTATES
} pk_state_id;

typedef struct pk_prefilter_plugin {
	const char *name;                /* upstream's plugin name */
	/* PreFilter for pod over the snapshot's node view (the cycle's moves
	 * included): NULL when the plugin has nothing to check (upstream's Skip). */
	void *(*prefilter)(const pk_snapshot *s, const pk_pod *pod);
	/* AddPod (mult 1) / RemovePod (mult -1) of pod q on node n. */
	void (*update)(void *state, const pk_pod *q, const pk_node *n, int mult);
	/* Filter of pod on n; false with *out set when it fails (true when the
	 * state was built for another pod). */
	bool (*filter)(const void *state, const pk_pod *pod, const pk_node *n, pk_status *out);
	void (*release)(void *state);
} pk_prefilter_plugin;

/* The table, indexed by pk_state_id (constant data). */
const pk_prefilter_plugin *pk_prefilter_plugin_of(pk_state_id id);

/* A move still supposed: undone at the cycle's end. */
typedef struct pk_cycle_move {
	pk_pod *pod;
	pk_nodeinfo *ni;
	signed char mult;                /* 1: added, -1: removed */
	bool nomination;                 /* the pod's nomination to the node, not the pod */
} pk_cycle_move;

typedef struct pk_cycle {
	pk_snapshot *s;
	const pk_pod *pod;               /* the pod scheduled, or NULL (a group's cycle) */
	void *state[PK_NSTATES];         /* per plugin, NULL: nothing to check */
	bool has_state;                  /* any of them is set */
	struct pk_cycle *outer;          /* the cycle this one is nested in, or NULL */
	bool inner_open;                 /* a nested cycle is open: this one waits */
	pk_cycle_move *moves;            /* outstanding moves; a move and its
	                                  * reverse cancel out */
	int nmoves;
	size_t capmoves;
} pk_cycle;

/* A cycle for pod with every plugin's PreFilter run over the snapshot as it
 * is now. outer: the cycle it is nested in (a gang member inside its
 * group's), or NULL. */
void pk_cycle_open(pk_cycle *c, pk_snapshot *s, pk_cycle *outer, const pk_pod *pod);
/* A cycle without PreFilter state: the kubelet's admission (it runs no
 * PreFilter plugin), a group's placement moves, a finished evaluation's
 * victims listed again on the arithmetic path. */
void pk_cycle_open_bare(pk_cycle *c, pk_snapshot *s, pk_cycle *outer);
/* Take back every move still supposed, release the PreFilter state. */
void pk_cycle_close(pk_cycle *c);

/* Suppose p added to / removed from the node: the node's view and every
 * PreFilter state of the cycle. */
void pk_cycle_add_pod(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p);
void pk_cycle_remove_pod(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p);
/* Suppose a pending pod's nomination to the node lifted (a gang's members
 * while their group is evaluated) or given back. */
void pk_cycle_lift_nomination(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p);
void pk_cycle_restore_nomination(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p);
/* The PreFilter states alone (mult 1: AddPod, -1: RemovePod) for p on a
 * node whose view stays as it is: a victim on another node, as upstream
 * runs RunPreFilterExtensionRemovePod with that node's NodeInfo. */
void pk_cycle_update_states(pk_cycle *c, const pk_pod *p, const pk_node *n, int mult);

/* Every plugin's Filter with state, in order, for pod on n with the extra
 * pods (nominated ones) added to the states for the call: stops at the
 * first failure (*out set, false). */
bool pk_cycle_filter(pk_cycle *c, const pk_pod *pod, const pk_node *n, pk_pod *const *extra, int nextra,
                     pk_status *out);
/* The same for the plugins from..to-1 alone: the filter pass runs the
 * node-only volume filters (VolumeBinding, VolumeZone) between them. */
bool pk_cycle_filter_range(pk_cycle *c, const pk_pod *pod, const pk_node *n, pk_pod *const *extra, int nextra,
                           int from, int to, pk_status *out);

#endif
