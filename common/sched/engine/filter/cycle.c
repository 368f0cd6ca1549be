/* One scheduling cycle: the PreFilter state of each plugin that keeps one,
 * and the moves a dry run supposes (cycle.h). */
#include "sched/engine/filter/cycle.h"
#include "sched/engine/filter/interpod.h"
#include "sched/engine/cluster/nodeinfo_int.h"
#include "sched/engine/filter/spread.h"
#include "sched/engine/filter/volumes.h"
#include "sched/engine/filter/dra.h"

#include <assert.h>
#include <stdlib.h>

#include "base/alloc.h"

/* ---- the plugins with PreFilter state ---------------------------------------- */

static void *spread_prefilter(const pk_snapshot *s, const pk_pod *pod) { return pk_spread_new(s, pod); }
static void spread_update(void *st, const pk_pod *q, const pk_node *n, int mult) { pk_spread_update(st, q, n, mult); }
static bool spread_filter(const void *st, const pk_pod *pod, const pk_node *n, pk_status *out)
{
	return pk_spread_check(st, pod, n, out);
}
static void spread_release(void *st) { pk_spread_free(st); }

static void *interpod_prefilter(const pk_snapshot *s, const pk_pod *pod) { return pk_interpod_new(s, pod); }
static void interpod_update(void *st, const pk_pod *q, const pk_node *n, int mult)
{
	pk_interpod_update(st, q, n, mult);
}
static bool interpod_filter(const void *st, const pk_pod *pod, const pk_node *n, pk_status *out)
{
	return pk_interpod_check(st, pod, n, out);
}
static void interpod_release(void *st) { pk_interpod_free(st); }

static void *rwop_prefilter(const pk_snapshot *s, const pk_pod *pod) { return pk_rwop_new(s, pod); }

static const pk_prefilter_plugin plugins[PK_NSTATES] = {
	[PK_STATE_VOLUME_RESTRICTIONS] = { "VolumeRestrictions", rwop_prefilter, pk_rwop_update, pk_rwop_check,
	                                   pk_rwop_free },
	[PK_STATE_POD_TOPOLOGY_SPREAD] = { "PodTopologySpread", spread_prefilter, spread_update, spread_filter,
	                                   spread_release },
	[PK_STATE_INTER_POD_AFFINITY] = { "InterPodAffinity", interpod_prefilter, interpod_update, interpod_filter,
	                                  interpod_release },
};

const pk_prefilter_plugin *pk_prefilter_plugin_of(pk_state_id id)
{
	return &plugins[id];
}

/* ---- opening and closing ----------------------------------------------------- */

void pk_cycle_open_bare(pk_cycle *c, pk_snapshot *s, pk_cycle *outer)
{
	*c = (pk_cycle){ .s = s, .outer = outer };
	if (outer) {
		assert(!outer->inner_open);
		outer->inner_open = true;
	}
}

void pk_cycle_open(pk_cycle *c, pk_snapshot *s, pk_cycle *outer, const pk_pod *pod)
{
	pk_cycle_open_bare(c, s, outer);
	c->pod = pod;
	pk_volumes_resolve_all(s);
	pk_volumes_resolve(s, pod);
	pk_dra_resolve(s, pod);
	for (int i = 0; i < PK_NSTATES; i++) {
		c->state[i] = plugins[i].prefilter(s, pod);
		c->has_state |= c->state[i] != NULL;
	}
}

static void node_view(pk_nodeinfo *ni, pk_pod *p, int mult, bool nomination)
{
	if (nomination && mult > 0)
		pk_nodeinfo_add_nominated(ni, p);
	else if (nomination)
		pk_nodeinfo_remove_nominated(ni, p);
	else if (mult > 0)
		pk_nodeinfo_add_pod(ni, p);
	else
		pk_nodeinfo_remove_pod(ni, p);
}

void pk_cycle_close(pk_cycle *c)
{
	assert(!c->inner_open);
	/* what is still supposed, in the order it was supposed: the moves of
	 * pods commute (a node keeps its pods in importance order), and the
	 * nominations lifted come back in their order */
	for (int i = 0; i < c->nmoves; i++) {
		const pk_cycle_move *m = &c->moves[i];
		node_view(m->ni, m->pod, -m->mult, m->nomination);
	}
	for (int i = 0; i < PK_NSTATES; i++)
		if (c->state[i])
			plugins[i].release(c->state[i]);
	free(c->moves);
	if (c->outer)
		c->outer->inner_open = false;
	*c = (pk_cycle){0};
}

/* ---- moves ----------------------------------------------------------------------- */

/* Note a move; the reverse of an outstanding one cancels it instead. A dry
 * run gives back its pods in an order of its own: the outstanding moves
 * are those of the node under evaluation, searched from the newest, and
 * the others keep their order. */
static void note_move(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p, int mult, bool nomination)
{
	for (int i = c->nmoves - 1; i >= 0; i--) {
		pk_cycle_move *m = &c->moves[i];
		if (m->pod == p && m->ni == ni && m->nomination == nomination && m->mult == -mult) {
			memmove(m, m + 1, sizeof *m * (size_t)(c->nmoves - i - 1));
			c->nmoves--;
			return;
		}
	}
	c->moves = pk_grow(c->moves, &c->capmoves, (size_t)c->nmoves + 1, sizeof *c->moves);
	c->moves[c->nmoves++] = (pk_cycle_move){ p, ni, (signed char)mult, nomination };
}

static void move_pod(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p, int mult)
{
	assert(!c->inner_open);
	node_view(ni, p, mult, false);
	note_move(c, ni, p, mult, false);
	pk_cycle_update_states(c, p, ni->node, mult);
}

void pk_cycle_add_pod(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p)
{
	move_pod(c, ni, p, 1);
}

void pk_cycle_remove_pod(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p)
{
	move_pod(c, ni, p, -1);
}

void pk_cycle_lift_nomination(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p)
{
	node_view(ni, p, -1, true);
	note_move(c, ni, p, -1, true);
}

void pk_cycle_restore_nomination(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p)
{
	node_view(ni, p, 1, true);
	note_move(c, ni, p, 1, true);
}

void pk_cycle_update_states(pk_cycle *c, const pk_pod *p, const pk_node *n, int mult)
{
	if (!c->has_state)
		return;
	for (int i = 0; i < PK_NSTATES; i++)
		if (c->state[i])
			plugins[i].update(c->state[i], p, n, mult);
}

/* ---- Filter ----------------------------------------------------------------------- */

bool pk_cycle_filter(pk_cycle *c, const pk_pod *pod, const pk_node *n, pk_pod *const *extra, int nextra,
                     pk_status *out)
{
	return pk_cycle_filter_range(c, pod, n, extra, nextra, 0, PK_NSTATES, out);
}

bool pk_cycle_filter_range(pk_cycle *c, const pk_pod *pod, const pk_node *n, pk_pod *const *extra, int nextra,
                           int from, int to, pk_status *out)
{
	if (!c->has_state)
		return true;
	bool any = false;
	for (int i = from; i < to; i++)
		any |= c->state[i] != NULL;
	if (!any)
		return true;
	for (int k = 0; k < nextra; k++)
		pk_cycle_update_states(c, extra[k], n, 1);
	bool ok = true;
	for (int i = from; ok && i < to; i++)
		if (c->state[i])
			ok = plugins[i].filter(c->state[i], pod, n, out);
	for (int k = 0; k < nextra; k++)
		pk_cycle_update_states(c, extra[k], n, -1);
	return ok;
}
