/* PodGroupEvaluator: selectVictimsOnDomain over the whole cluster with a
 * greedy pod-group scheduling function; see gang.h. */
#include "sched/engine/filter/cycle.h"
#include "sched/engine/filter/dra.h"
#include "sched/engine/gang/gang.h"
#include "sched/engine/reasons.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define R_NO_VICTIMS PK_R_NO_VICTIMS_GROUP
#define R_NEVER PK_R_NEVER
#define R_TERMINATING PK_R_TERMINATING
#define R_TAS PK_R_GROUP_TAS
#define R_ONGOING PK_R_ONGOING
#define R_TOPOLOGY PK_R_TOPOLOGY

const char *pk_pg_result_name(pk_pg_result r)
{
	switch (r) {
	case PK_PG_NO_PREEMPTION_NEEDED: return "NoPreemptionNeeded";
	case PK_PG_PREEMPT: return "Preempt";
	case PK_PG_NOT_ELIGIBLE: return "NotEligible";
	case PK_PG_UNSCHEDULABLE: return "Unschedulable";
	case PK_PG_PREEMPTION_IN_PROGRESS: return "PreemptionInProgress";
	}
	return "Unknown";
}

/* ---- the scheduling function ----------------------------------------------------
 *
 * podGroupSchedulingDefaultAlgorithm (pkg/scheduler/schedule_one_podgroup.go):
 * members are placed one by one in the given (queue) order, each by the
 * single-pod algorithm: the nodes whose filters pass with the members placed
 * so far and the nominated pods counted, scored as score.c scores a pod that
 * fits (ties to the lowest node name), the member assumed on the best node
 * before the next. 1.36 does the same (its PodGroup cycle already ran the
 * per-pod filtering and scoring phases, kubernetes/website#54666), so no
 * release keeps the first fit of earlier versions of this tool.
 * Every modelled filter is monotonic in the pods on a node, which gives one
 * exact shortcut: a node a member cannot use once every potential victim is
 * gone can never pass its filters in any later state, so each member filters
 * only its "open" nodes (the feasible set, and so the scores, are the same).
 * A reprieve runs the function again: putting pods back on a node the
 * placement does not use moves scores (InterPodAffinity, PodTopologySpread
 * and their normalisation), so it may move the placement.
 */
typedef struct pg_sched {
	pk_snapshot *s;
	pk_cycle cycle;          /* the group's: the members assumed, the victims
	                          * removed; each member's filters run in a cycle
	                          * of its own nested in it */
	pk_pod **members;
	int n, required;
	long **open;             /* per member: node indices usable in the relaxed state */
	long *nopen;
	bool restricted;         /* open lists computed */
	long *place;             /* per member: node index or -1 (current placement) */
	long *saved;             /* previous placement, to restore after a failed reprieve */
	pk_placement *score;     /* per member: how its node was chosen (current placement) */
	pk_placement *saved_score;
	const pk_nodeinfo **feasible; /* scratch: one member's feasible nodes, name order */
	pk_score_cache *scores;  /* the caller's, or NULL */
	int count, saved_count;
	bool ok, saved_ok;
	unsigned *used;          /* per node: members placed there by the current placement */
	int max_scheduled;
	long calls;
	bool in_place;           /* 1.37's reprieve (#139980): the placement is kept */
	bool keep_cycles;        /* placements keep their member's cycle (below) */
	pk_cycle *member_cycles; /* per member: the cycle of its placement, kept for
	                          * the in-place reprieve, or closed (.s NULL) */
	/* a CompositePodGroup preemptor: the groups of its hierarchy */
	const pk_pg_set *g;
	const pk_podgroup *root; /* NULL: one PodGroup, c->required decides */
	long *tree;              /* group indices under root (root included) */
	int ntree;
	int *placed;             /* per tree entry: members placed by the current run */
	int *present;            /* per tree entry: members already running */
	int *leaf;               /* per member: its tree entry, -1 */
	int *order, norder;      /* placed members, in placement order */
	int *saved_order, saved_norder;
	pk_dra_assumed *dra;     /* the placed members' DynamicResources Reserve: the
	                          * devices they take, which later members see taken */
} pg_sched;

static void mark_used(pg_sched *c, const long *place, int delta)
{
	for (int k = 0; k < c->n; k++)
		if (place[k] >= 0)
			c->used[place[k]] += (unsigned)delta;
}

/* A member's cycle after its placement: kept for the in-place reprieve,
 * which filters each member with the state its placement built (the
 * members placed before it assumed, the victims gone), as upstream's
 * reprieveVictim does with each assignment's CycleState; closed otherwise. */
static void keep_member_cycle(pg_sched *c, int k, pk_cycle *mine)
{
	if (!c->keep_cycles) {
		pk_cycle_close(mine);
		return;
	}
	if (c->member_cycles[k].s)
		pk_cycle_close(&c->member_cycles[k]);
	c->member_cycles[k] = *mine;
}

static void close_member_cycles(pg_sched *c)
{
	for (int k = 0; k < c->n; k++)
		if (c->member_cycles[k].s)
			pk_cycle_close(&c->member_cycles[k]);
	c->keep_cycles = false;
}

static bool place_member(pg_sched *c, int k)
{
	pk_pod *m = c->members[k];
	long nn = c->restricted ? c->nopen[k] : c->s->nnodes, nfeasible = 0;
	/* The member's own cycle: its PreFilter state built on the group's
	 * view as it is now (the members placed before it included), as the
	 * scheduling cycle of each member builds it. */
	pk_cycle mine;
	pk_cycle_open(&mine, c->s, c->keep_cycles ? NULL : &c->cycle, m);
	for (long j = 0; j < nn; j++) {
		pk_nodeinfo *ni = &c->s->infos[c->restricted ? c->open[k][j] : j];
		if (pk_run_filters_with_nominated(&mine, m, ni).code == PK_CODE_SUCCESS)
			c->feasible[nfeasible++] = ni;
	}
	keep_member_cycle(c, k, &mine);
	c->place[k] = -1;
	if (nfeasible == 0)
		return false;
	pk_score_nodes(c->s, c->scores, m, c->feasible, nfeasible, &c->score[k]);
	c->place[k] = c->score[k].node->node->index;
	pk_cycle_add_pod(&c->cycle, &c->s->infos[c->place[k]], m);
	pk_dra_assume(c->s, c->dra, m, c->score[k].node->node);
	return true;
}

/* Hierarchies are at most four deep (WorkloadMaxTreeDepth). */
enum { TREE_MAX_DEPTH = 8 };

static void unplace_to(pg_sched *c, int mark)
{
	while (c->norder > mark) {
		int k = c->order[--c->norder];
		pk_dra_forget(c->s, c->dra, c->members[k]);
		pk_cycle_remove_pod(&c->cycle, &c->s->infos[c->place[k]], c->members[k]);
		if (c->leaf)
			c->placed[c->leaf[k]]--;
		c->place[k] = -1;
	}
}

static bool place_noted(pg_sched *c, int k)
{
	if (!place_member(c, k))
		return false;
	c->order[c->norder++] = k;
	if (c->leaf && c->leaf[k] >= 0)
		c->placed[c->leaf[k]]++;
	return true;
}

/* Multi-level gang scheduling (KEP-6012, "CompositePodGroup Scheduling
 * Algorithm"): the children of a CompositePodGroup are scheduled one after
 * the other, greedily, each on the state its siblings left; a PodGroup
 * places its members in order and is satisfied when its placed and running
 * members reach minCount (gang) or one (basic); a CompositePodGroup when
 * minGroupCount children (gang) or one (basic) are. A group that is not
 * satisfied gives its placements back. Children go in input order (the
 * KEP's "pre-sorted order" is not modelled). */
static bool schedule_tree(pg_sched *c, int t, int depth)
{
	const pk_podgroup *pg = &c->g->groups[c->tree[t]];
	int need = pg->policy == PK_PG_POLICY_GANG ? pg->min_count : 1;
	int mark = c->norder;
	bool ok;
	if (depth > TREE_MAX_DEPTH) /* a cycle in a hand-written input */
		return false;
	if (!pg->composite) {
		for (int k = 0; k < c->n; k++)
			if (c->leaf[k] == t && c->place[k] < 0)
				place_noted(c, k);
		ok = c->placed[t] + c->present[t] >= need;
	} else {
		int sat = 0;
		for (int k = 0; k < c->ntree; k++)
			if (pk_pg_parent(c->g, &c->g->groups[c->tree[k]]) == pg && schedule_tree(c, k, depth + 1))
				sat++;
		ok = sat >= need;
	}
	if (!ok)
		unplace_to(c, mark);
	return ok;
}

/* One run of the scheduling function; leaves the state as it found it. */
static void schedule(pg_sched *c)
{
	c->calls++;
	mark_used(c, c->place, -1);
	for (int k = 0; k < c->n; k++)
		c->place[k] = -1;
	c->norder = 0;
	bool ok;
	if (c->root) {
		memset(c->placed, 0, sizeof *c->placed * (size_t)c->ntree);
		ok = schedule_tree(c, 0, 0);
	} else {
		for (int k = 0; k < c->n; k++)
			place_noted(c, k);
		ok = c->norder >= c->required;
	}
	c->count = c->norder;
	for (int i = c->norder - 1; i >= 0; i--) {
		pk_dra_forget(c->s, c->dra, c->members[c->order[i]]);
		pk_cycle_remove_pod(&c->cycle, &c->s->infos[c->place[c->order[i]]], c->members[c->order[i]]);
	}
	mark_used(c, c->place, 1);
	c->ok = ok && c->count > 0;
}

static void compute_open_nodes(pg_sched *c)
{
	for (int k = 0; k < c->n; k++) {
		c->open[k] = pk_xmalloc(sizeof **c->open * (size_t)(c->s->nnodes + 1));
		c->nopen[k] = 0;
		for (long i = 0; i < c->s->nnodes; i++) {
			pk_status st = pk_run_filters_with_nominated(&c->cycle, c->members[k], &c->s->infos[i]);
			if (st.code == PK_CODE_SUCCESS)
				c->open[k][c->nopen[k]++] = i;
		}
	}
	c->restricted = true;
}

/* ---- reprieve callbacks ---------------------------------------------------------- */

static void unit_apply(void *ctx, const pk_victim_unit *u, bool add)
{
	pg_sched *c = ctx;
	for (int i = 0; i < u->npods; i++) {
		pk_nodeinfo *ni = pk_snapshot_node(c->s, u->pods[i]->node_name);
		if (!ni)
			continue;
		if (add)
			pk_cycle_add_pod(&c->cycle, ni, u->pods[i]);
		else
			pk_cycle_remove_pod(&c->cycle, ni, u->pods[i]);
		/* and the kept cycles of the placed members: their AddPod/RemovePod */
		for (int k = 0; c->keep_cycles && k < c->n; k++)
			if (c->place[k] >= 0 && c->member_cycles[k].s)
				pk_cycle_update_states(&c->member_cycles[k], u->pods[i], ni->node, add ? 1 : -1);
	}
}

/* reprieveVictim as Kubernetes 1.36 has it (#138757): the scheduling
 * function runs again; the unit fits when it succeeds and does not place
 * fewer members than the best run so far (which may grow). */
static bool unit_fits(void *ctx)
{
	pg_sched *c = ctx;
	memcpy(c->saved, c->place, sizeof *c->place * (size_t)c->n);
	memcpy(c->saved_score, c->score, sizeof *c->score * (size_t)c->n);
	memcpy(c->saved_order, c->order, sizeof *c->order * (size_t)c->n);
	c->saved_norder = c->norder;
	c->saved_count = c->count;
	c->saved_ok = c->ok;
	schedule(c);
	if (c->count > c->max_scheduled)
		c->max_scheduled = c->count;
	bool fits = c->ok && c->count >= c->max_scheduled;
	if (!fits) { /* the unit is removed again: the previous placement holds */
		mark_used(c, c->place, -1);
		memcpy(c->place, c->saved, sizeof *c->place * (size_t)c->n);
		memcpy(c->score, c->saved_score, sizeof *c->score * (size_t)c->n);
		memcpy(c->order, c->saved_order, sizeof *c->order * (size_t)c->n);
		c->norder = c->saved_norder;
		mark_used(c, c->place, 1);
		c->count = c->saved_count;
		c->ok = c->saved_ok;
	}
	return fits;
}

/* reprieveVictim as Kubernetes 1.37 has it (#139980, "Reimplement WAP with
 * in place filter reprieval", pkg/scheduler/framework/preemption/
 * podgrouppreemption.go): the placement found with every potential victim
 * removed is kept; the unit put back fits when each placed member, in
 * the order they were placed, with the members before it assumed on their
 * nodes, still passes the filters (nominated pods included) on its node. */
static bool unit_fits_in_place(void *ctx)
{
	pg_sched *c = ctx;
	c->calls++;
	int i = 0;
	bool fits = true;
	for (; i < c->norder; i++) {
		int k = c->order[i];
		pk_nodeinfo *ni = &c->s->infos[c->place[k]];
		pk_cycle *own = c->keep_cycles && c->member_cycles[k].s ? &c->member_cycles[k] : &c->cycle;
		if (pk_run_filters_with_nominated(own, c->members[k], ni).code != PK_CODE_SUCCESS) {
			fits = false;
			break;
		}
		pk_cycle_add_pod(&c->cycle, ni, c->members[k]);
		pk_dra_assume(c->s, c->dra, c->members[k], ni->node);
	}
	while (--i >= 0) {
		pk_dra_forget(c->s, c->dra, c->members[c->order[i]]);
		pk_cycle_remove_pod(&c->cycle, &c->s->infos[c->place[c->order[i]]], c->members[c->order[i]]);
	}
	return fits;
}

/* What a group evaluation assumed about its reprieve, or NULL: each
 * release modelled (1.36, 1.37; 1.35 is answered as 1.36, which
 * pk_pg_release_caveat says) reprieves as upstream does in it. */
const char *pk_pg_reprieve_assumption(const pk_pg_evaluation *e)
{
	(void)e;
	return NULL;
}

/* ---- victim units (newDomainForWorkloadPreemption) -------------------------------- */

typedef struct unit_set {
	pk_victim_unit *u;
	int n;
	pk_pod **pods;      /* storage for the units' pod lists */
} unit_set;

static int64_t start_or_now(const pk_pod *p, int64_t now)
{
	return p->has_start_time ? p->start_time : now;
}

/* Units of every bound pod, kept when their priority is below prio: a whole
 * group for disruptionMode all, else the pod alone, at its group's priority
 * from 1.37 (#139030), its own before. IsPodGroup is "the first pod names
 * a scheduling group". */
static void build_units(pk_snapshot *s, const pk_pg_set *g, int32_t prio, unit_set *out)
{
	long total = 0;
	for (long i = 0; i < s->nnodes; i++)
		total += s->infos[i].npods;
	out->u = pk_xmalloc(sizeof *out->u * (size_t)(total + 1));
	out->pods = pk_xmalloc(sizeof *out->pods * (size_t)(total + 1));
	unsigned char *seen = pk_xcalloc((size_t)g->n + 1, 1);
	out->n = 0;
	long np = 0;
	for (long i = 0; i < s->nnodes; i++) {
		const pk_nodeinfo *ni = &s->infos[i];
		for (int j = 0; j < ni->npods; j++) {
			pk_pod *p = ni->pods[j];
			const pk_podgroup *pg = pk_pg_whole_group(g, p);
			pk_victim_unit *u = &out->u[out->n];
			memset(u, 0, sizeof *u);
			u->is_group = pk_pg_pod_has_group(g, p);
			u->is_composite = pg && pg->composite;
			u->pods = &out->pods[np];
			if (pg) {
				long gi = pg - g->groups;
				if (seen[gi] || pg->priority >= prio)
					continue;
				seen[gi] = 1;
				u->npods = pk_pg_present_members(g, s, pg, u->pods);
				u->priority = pg->priority;
			} else {
				u->priority = pk_pg_victim_priority(g, p);
				if (u->priority >= prio)
					continue;
				u->pods[0] = p;
				u->npods = 1;
			}
			if (u->npods == 0)
				continue;
			np += u->npods;
			u->earliest_start = INT64_MAX;
			for (int m = 0; m < u->npods; m++) {
				int64_t t0 = start_or_now(u->pods[m], s->now);
				if (t0 < u->earliest_start)
					u->earliest_start = t0;
			}
			out->n++;
		}
	}
	free(seen);
}

static void units_remove_all(pg_sched *c, unit_set *us)
{
	for (int k = 0; k < us->n; k++)
		unit_apply(c, &us->u[k], false);
}

static void units_add_all(pg_sched *c, unit_set *us)
{
	for (int k = 0; k < us->n; k++)
		unit_apply(c, &us->u[k], true);
}

/* ---- eligibility (preemptorEligibleToPreemptOthers) ---------------------------------- */

static const char *eligibility(pk_snapshot *s, const pk_pg_set *g, const pk_podgroup *pg, pk_pod **members, int n)
{
	/* The PodGroup's own preemptionPolicy (v1alpha3, PodGroupPreemptionPolicy)
	 * decides when it is set; otherwise one member with Never is enough. */
	if (pg->has_policy_field || pg->policy_never) {
		if (pg->policy_never)
			return R_NEVER;
	} else {
		for (int k = 0; k < n; k++)
			if (members[k]->policy == PK_PREEMPT_NEVER)
				return R_NEVER;
	}
	for (int k = 0; k < n; k++) {
		pk_nodeinfo *ni = pk_snapshot_node(s, members[k]->nominated_node);
		for (int j = 0; ni && j < ni->npods; j++) {
			const pk_pod *q = ni->pods[j];
			if (pk_pg_pod_priority(g, q) < pg->priority && q->terminating && q->preemption_target)
				return R_TERMINATING;
		}
	}
	return NULL;
}

/* ---- members' own nominations are lifted while the group is evaluated ------------- */

/* Given back when the group's cycle closes (sched_free). */
static void lift_nominations(pg_sched *c)
{
	for (int k = 0; k < c->n; k++) {
		pk_nodeinfo *ni = pk_snapshot_node(c->s, c->members[k]->nominated_node);
		if (ni)
			pk_cycle_lift_nomination(&c->cycle, ni, c->members[k]);
	}
}

/* ---- evaluation --------------------------------------------------------------------- */

static const char *fmt(pk_arena *a, const char *f, ...) __attribute__((format(printf, 2, 3)));
static const char *fmt(pk_arena *a, const char *f, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, f);
	vsnprintf(buf, sizeof buf, f, ap);
	va_end(ap);
	char *out = pk_arena_alloc(a, strlen(buf) + 1);
	memcpy(out, buf, strlen(buf) + 1);
	return out;
}

/* A message of PodGroupPostFilter's status: from 1.37 it prefixes every one
 * ("pod group preemption: "), 1.36's returned the evaluator's as it was. */
static const char *status_message(pk_pg_evaluation *e, const pk_pg_set *g, const char *m)
{
	return g->release->pod_group_status_prefix ? fmt(&e->arena, PK_R_POD_GROUP_PREFIX "%s", m) : m;
}

/* The devices each placed member's claims get, the members taken in the
 * order they were placed (each after the devices of those before it). */
static void record_devices(pk_pg_evaluation *e, const pg_sched *c)
{
	int n = c->norder;
	pk_pod **pods = pk_xmalloc(sizeof *pods * (size_t)(n + 1));
	const pk_node **nodes = pk_xmalloc(sizeof *nodes * (size_t)(n + 1));
	pk_dra_pick **picks = pk_xmalloc(sizeof *picks * (size_t)(n + 1));
	int *npicks = pk_xmalloc(sizeof *npicks * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		pods[i] = c->members[c->order[i]];
		nodes[i] = c->s->infos[c->place[c->order[i]]].node;
	}
	pk_dra_devices_in_order(c->s, pods, nodes, n, picks, npicks);
	for (int i = 0; i < n; i++) {
		pk_pg_placement *pl = &e->placements[c->order[i]];
		pl->ndevices = npicks[i];
		pl->devices = pk_dra_picks_copy(&e->arena, picks[i], npicks[i]);
		free(picks[i]);
	}
	free(pods);
	free(nodes);
	free(picks);
	free(npicks);
}

static void record_placement(pk_pg_evaluation *e, const pg_sched *c)
{
	e->nplaced = 0;
	for (int k = 0; k < c->n; k++) {
		e->placements[k].pod = c->members[k];
		e->placements[k].node = c->place[k] >= 0 ? &c->s->infos[c->place[k]] : NULL;
		e->placements[k].devices = NULL;
		e->placements[k].ndevices = 0;
		if (c->place[k] >= 0) {
			e->placements[k].score = c->score[k];
			e->nplaced++;
		}
	}
	if (c->s->dra)
		record_devices(e, c);
}

/* The hierarchy under a CompositePodGroup preemptor: its groups (root
 * first), the members each PodGroup has running, and each member's group. */
static void tree_init(pg_sched *c, const pk_pg_set *g, const pk_podgroup *root)
{
	c->g = g;
	if (!root->composite)
		return;
	c->root = root;
	c->tree = pk_xmalloc(sizeof *c->tree * (size_t)(g->n + 1));
	c->placed = pk_xcalloc((size_t)g->n + 1, sizeof *c->placed);
	c->present = pk_xcalloc((size_t)g->n + 1, sizeof *c->present);
	c->leaf = pk_xmalloc(sizeof *c->leaf * (size_t)(c->n + 1));
	c->tree[c->ntree++] = root - g->groups;
	for (long i = 0; i < g->n; i++)
		if (&g->groups[i] != root && pk_pg_root(g, &g->groups[i]) == root)
			c->tree[c->ntree++] = i;
	for (int t = 0; t < c->ntree; t++)
		if (!g->groups[c->tree[t]].composite)
			c->present[t] = pk_pg_present_members(g, c->s, &g->groups[c->tree[t]], NULL);
	for (int k = 0; k < c->n; k++) {
		const pk_podgroup *leaf = pk_pg_of_pod(g, c->members[k]);
		c->leaf[k] = -1;
		for (int t = 0; leaf && t < c->ntree; t++)
			if (&g->groups[c->tree[t]] == leaf)
				c->leaf[k] = t;
	}
}

enum { NEED_NEVER = 1 << 29 };

/* The fewest pending members whose placement satisfies tree entry t
 * (NEED_NEVER when its pending members cannot): a PodGroup needs what its
 * running members leave of minCount (or one, basic); a CompositePodGroup
 * the cheapest minGroupCount (or one) of its children. */
static int tree_need(const pg_sched *c, int t, const int *pending, int depth)
{
	const pk_podgroup *pg = &c->g->groups[c->tree[t]];
	int want = pg->policy == PK_PG_POLICY_GANG ? pg->min_count : 1;
	if (depth > TREE_MAX_DEPTH)
		return NEED_NEVER;
	if (!pg->composite) {
		int need = want - c->present[t] > 0 ? want - c->present[t] : 0;
		return need <= pending[t] ? need : NEED_NEVER;
	}
	int *needs = pk_xmalloc(sizeof *needs * (size_t)(c->ntree + 1)), nn = 0;
	for (int k = 0; k < c->ntree; k++)
		if (pk_pg_parent(c->g, &c->g->groups[c->tree[k]]) == pg)
			needs[nn++] = tree_need(c, k, pending, depth + 1);
	for (int i = 1; i < nn; i++) /* insertion sort: a handful of children */
		for (int j = i; j > 0 && needs[j] < needs[j - 1]; j--) {
			int x = needs[j];
			needs[j] = needs[j - 1];
			needs[j - 1] = x;
		}
	long sum = nn >= want ? 0 : NEED_NEVER;
	for (int i = 0; i < want && i < nn; i++)
		sum += needs[i];
	free(needs);
	return sum < NEED_NEVER ? (int)sum : NEED_NEVER;
}

static int composite_required(const pg_sched *c)
{
	int *pending = pk_xcalloc((size_t)c->ntree + 1, sizeof *pending);
	for (int k = 0; k < c->n; k++)
		if (c->leaf[k] >= 0)
			pending[c->leaf[k]]++;
	int need = tree_need(c, 0, pending, 0);
	free(pending);
	return need;
}

static void sched_init(pg_sched *c, pk_snapshot *s, pk_score_cache *scores, pk_pod **members, int n,
                       int required)
{
	memset(c, 0, sizeof *c);
	c->s = s;
	pk_cycle_open_bare(&c->cycle, s, NULL);
	c->scores = scores;
	c->members = members;
	c->n = n;
	c->required = required;
	size_t nn = (size_t)n + 1;
	c->open = pk_xcalloc(nn, sizeof *c->open);
	c->nopen = pk_xcalloc(nn, sizeof *c->nopen);
	c->place = pk_xmalloc(sizeof *c->place * nn);
	c->saved = pk_xmalloc(sizeof *c->saved * nn);
	c->used = pk_xcalloc((size_t)s->nnodes + 1, sizeof *c->used);
	c->order = pk_xmalloc(sizeof *c->order * nn);
	c->saved_order = pk_xmalloc(sizeof *c->saved_order * nn);
	c->score = pk_xcalloc(nn, sizeof *c->score);
	c->saved_score = pk_xcalloc(nn, sizeof *c->saved_score);
	c->feasible = pk_xcalloc((size_t)s->nnodes + 1, sizeof *c->feasible);
	c->member_cycles = pk_xcalloc(nn, sizeof *c->member_cycles);
	c->dra = pk_dra_assumed_new();
	for (int k = 0; k < n; k++)
		c->place[k] = -1;
}

static void sched_free(pg_sched *c)
{
	close_member_cycles(c);
	free(c->member_cycles);
	pk_dra_assumed_free(c->s, c->dra);
	pk_cycle_close(&c->cycle);
	for (int k = 0; k < c->n; k++)
		free(c->open[k]);
	free(c->open);
	free(c->nopen);
	free(c->place);
	free(c->saved);
	free(c->used);
	free(c->tree);
	free(c->placed);
	free(c->present);
	free(c->leaf);
	free(c->order);
	free(c->saved_order);
	free(c->score);
	free(c->saved_score);
	free(c->feasible);
}

/* The victims of the chosen units, most important unit first. */
static void collect_victims(const pk_pg_set *g, pk_pg_evaluation *e, unit_set *us, const int *picked, int nv,
                            int64_t now)
{
	pk_victim_unit *vu = pk_xmalloc(sizeof *vu * (size_t)(nv + 1));
	int npods = 0;
	for (int i = 0; i < nv; i++) {
		vu[i] = us->u[picked[i]];
		npods += vu[i].npods;
	}
	pk_units_sort(vu, nv, now);
	e->disruptions = pk_arena_alloc(&e->arena, sizeof *e->disruptions * (size_t)(nv + 1));
	e->num_pod_group_disruptions = pk_pg_disruptions(g, vu, nv, e->disruptions, &e->ndisruptions);
	e->victims = pk_arena_alloc(&e->arena, sizeof *e->victims * (size_t)(npods + 1));
	for (int i = 0; i < nv; i++)
		for (int m = 0; m < vu[i].npods; m++)
			e->victims[e->nvictims++] = vu[i].pods[m];
	e->nvictim_units = nv;
	free(vu);
}

/* "node a" or "nodes a, b" of n names (pk_names_text), into buf. */
static void nodes_text(const char **names, int n, char *buf, size_t size)
{
	char list[1200];
	int k = pk_names_text(names, n, list, sizeof list);
	snprintf(buf, size, "node%s %s", k > 1 ? "s" : "", list);
}

/* A plan's reason names every node it touches: where its victims run, and
 * where its members go. */
static void preempt_reason(pk_pg_evaluation *e, int nunits)
{
	int n = e->nvictims > e->nmembers ? e->nvictims : e->nmembers;
	const char **names = pk_xmalloc(sizeof *names * (size_t)(n + 1));
	char from[1300], to[1300], groups[64] = "";
	for (int i = 0; i < e->nvictims; i++)
		names[i] = e->victims[i]->node_name;
	nodes_text(names, e->nvictims, from, sizeof from);
	int k = 0;
	for (int m = 0; m < e->nmembers; m++)
		if (e->placements[m].node)
			names[k++] = e->placements[m].node->node->name;
	nodes_text(names, k, to, sizeof to);
	free(names);
	if (e->num_pod_group_disruptions)
		snprintf(groups, sizeof groups, " (%d PodGroup disruption(s))", e->num_pod_group_disruptions);
	size_t len = strlen(from) + strlen(to) + 200;
	char *out = pk_arena_alloc(&e->arena, len);
	snprintf(out, len, "preempting %d pod(s) in %d unit(s) on %s%s lets %d of %d member(s) be placed on %s",
	         e->nvictims, nunits, from, groups, e->nplaced, e->nmembers, to);
	e->reason = out;
}

static void select_victims(pk_snapshot *s, pg_sched *c, unit_set *us, pk_pg_evaluation *e)
{
	units_remove_all(c, us);
	c->keep_cycles = c->in_place;
	schedule(c);
	if (!c->ok) {
		e->result = PK_PG_UNSCHEDULABLE;
		e->code = PK_CODE_UNSCHEDULABLE;
		e->reason = fmt(&e->arena, "only %d of %d member(s) can be placed even with every lower-priority "
		                "unit preempted; %d needed", c->count, c->n, c->required);
		close_member_cycles(c);
		units_add_all(c, us);
		return;
	}
	c->max_scheduled = c->count;
	pk_units_sort(us->u, us->n, s->now);
	pk_units_pdb_split(s, us->u, us->n);
	int *picked = pk_xmalloc(sizeof *picked * (size_t)(us->n + 1));
	int violations = 0;
	int nv = pk_units_reprieve(us->u, us->n, c->in_place ? unit_fits_in_place : unit_fits, unit_apply, c, picked,
	                           &violations);
	record_placement(e, c);
	e->num_pdb_violations = violations;
	/* Delayed preemption (KEP-5710): nothing is deleted unless the group as a
	 * whole has its placement in the state the victims leave behind. */
	if (!c->ok || e->nplaced < c->required) {
		e->result = PK_PG_UNSCHEDULABLE;
		e->code = PK_CODE_UNSCHEDULABLE;
		e->reason = fmt(&e->arena, "delayed preemption: only %d of %d member(s) placed, %d needed; "
		                "no victim is deleted", e->nplaced, c->n, c->required);
	} else if (nv == 0) {
		e->result = PK_PG_NO_PREEMPTION_NEEDED;
		e->code = PK_CODE_SUCCESS;
		e->reason = fmt(&e->arena, "%d of %d member(s) placed without preemption; preempting cannot place "
		                "more", e->nplaced, c->n);
	} else {
		collect_victims(c->g, e, us, picked, nv, s->now);
		e->result = PK_PG_PREEMPT;
		e->code = PK_CODE_SUCCESS;
		preempt_reason(e, nv);
	}
	/* restore: the victims go back on their nodes */
	close_member_cycles(c);
	for (int i = 0; i < nv; i++)
		unit_apply(c, &us->u[picked[i]], true);
	free(picked);
}

void pk_pg_evaluate(pk_snapshot *s, pk_score_cache *scores, const pk_pg_set *g, const pk_podgroup *pg,
                    pk_pod **members, int n, pk_pg_evaluation *e)
{
	memset(e, 0, sizeof *e);
	pk_arena_init(&e->arena);
	e->group = pg;
	e->nmembers = n;
	e->placements = pk_arena_alloc(&e->arena, sizeof *e->placements * (size_t)(n + 1));
	for (int k = 0; k < n; k++)
		e->placements[k].pod = members[k];
	pg_sched c;
	sched_init(&c, s, scores, members, n, 0);
	tree_init(&c, g, pg);
	c.in_place = g->release->in_place_reprieve;
	/* Members already running count toward a gang's minCount. */
	int bound = pk_pg_present_members(g, s, pg, NULL);
	e->required = pk_pg_required(pg, n);
	if (c.root)
		e->required = composite_required(&c);
	else if (pg->policy == PK_PG_POLICY_GANG)
		e->required = pg->min_count - bound > 1 ? pg->min_count - bound : 1;
	if (e->required < 1)
		e->required = 1;
	c.required = e->required;
	if (e->required > n) {
		e->result = PK_PG_UNSCHEDULABLE;
		e->code = PK_CODE_UNSCHEDULABLE;
		e->reason = c.root ? fmt(&e->arena, "waiting for members: the CompositePodGroup's policy cannot be met "
		                         "by its %d pending member(s) and %d running", n, bound)
		                   : fmt(&e->arena, "waiting for members: minCount %d, %d running, %d pending",
		                         pg->min_count, bound, n);
		sched_free(&c);
		return;
	}
	if (pg->has_constraints && g->release->topology_aware) {
		/* (without the gate the apiserver drops schedulingConstraints);
		 * 1.37: PodGroupPostFilter's own refusal, another message */
		e->result = PK_PG_NOT_ELIGIBLE;
		e->code = PK_CODE_UNSCHEDULABLE;
		e->reason = status_message(e, g, g->release->topology_refusal_own_message ? R_TOPOLOGY : R_TAS);
		sched_free(&c);
		return;
	}
	lift_nominations(&c);

	/* The pod-group scheduling cycle: does the group fit as the cluster is? */
	schedule(&c);
	if (c.count == n && c.ok) {
		record_placement(e, &c);
		e->result = PK_PG_NO_PREEMPTION_NEEDED;
		e->code = PK_CODE_SUCCESS;
		e->reason = fmt(&e->arena, "all %d member(s) fit without preemption", n);
		goto out;
	}
	const char *why = eligibility(s, g, pg, members, n);
	if (why && strcmp(why, R_TERMINATING) == 0 && g->release->terminating_victims_in_progress) {
		/* IsPodGroupWaitingForVictims, which upstream's executor knows from
		 * its own bookkeeping: offline, a victim of the group still
		 * terminating on a member's nominated node says it */
		e->result = PK_PG_PREEMPTION_IN_PROGRESS;
		e->code = PK_CODE_SUCCESS;
		e->reason = status_message(e, g, R_ONGOING);
		goto out;
	}
	if (why) {
		e->result = PK_PG_NOT_ELIGIBLE;
		e->code = PK_CODE_UNSCHEDULABLE;
		e->reason = status_message(e, g, why);
		goto out;
	}
	unit_set us;
	build_units(s, g, pg->priority, &us);
	e->potential_units = us.n;
	if (us.n == 0) {
		/* 1.37 (GenerateVictims, then Preempt): Unschedulable */
		e->result = PK_PG_UNSCHEDULABLE;
		e->code = g->release->unschedulable_code_for_no_victims ? PK_CODE_UNSCHEDULABLE : PK_CODE_UNSCHEDULABLE_UNRESOLVABLE;
		e->reason = status_message(e, g, R_NO_VICTIMS);
	} else {
		units_remove_all(&c, &us);
		compute_open_nodes(&c);
		units_add_all(&c, &us);
		select_victims(s, &c, &us, e);
	}
	free(us.u);
	free(us.pods);
out:
	e->schedule_calls = c.calls;
	sched_free(&c);
}

void pk_pg_evaluation_free(pk_pg_evaluation *e)
{
	pk_arena_free(&e->arena);
	memset(e, 0, sizeof *e);
}

/* ---- playing a decision forward: victims leave their nodes, members are
 * bound or nominated, through the snapshot's one bind path ---------------- */

void pk_pg_apply(pk_snapshot *s, const pk_pg_evaluation *e)
{
	if (e->result == PK_PG_PREEMPT)
		for (int i = 0; i < e->nvictims; i++)
			pk_snapshot_delete(s, e->victims[i]);
	if (e->result != PK_PG_PREEMPT && e->result != PK_PG_NO_PREEMPTION_NEEDED)
		return;
	for (int k = 0; k < e->nmembers; k++) {
		const pk_pg_placement *pl = &e->placements[k];
		if (!pl->node)
			continue;
		if (e->result == PK_PG_NO_PREEMPTION_NEEDED)
			pk_snapshot_bind(s, pl->pod, pl->node->node->name);
		else /* delayed preemption: the members wait for their victims to
		      * go, their intended nodes held for them like nominations */
			pk_snapshot_nominate(s, pl->pod, pl->node->node->name);
	}
}
