/* SelectVictimsOnNode: on the node itself, by sums from the node's
 * lower-priority tail (the arithmetic path), or with pod groups (1.37). */
#include "sched/engine/filter/cycle.h"
#include "sched/engine/cluster/podgroup.h"
#include "sched/engine/preempt/preempt_int.h"
#include "sched/engine/reasons.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define R_NO_VICTIMS PK_R_NO_VICTIMS

/* ---- SelectVictimsOnNode --------------------------------------------------- */

typedef struct node_ctx {
	pk_cycle *c;
	const pk_pod *preemptor;
	pk_nodeinfo *ni;
	pk_status last;
} node_ctx;

static bool node_fits(void *c)
{
	node_ctx *x = c;
	/* pk_select_victims_on_node checked the node-only filters once */
	x->last = pk_run_pod_filters_with_nominated(x->c, x->preemptor, x->ni);
	return x->last.code == PK_CODE_SUCCESS;
}

/* Add or remove a pod on the node under evaluation, with the PreFilter
 * states' AddPod/RemovePod extensions. */
static void node_pod(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p, bool add)
{
	if (add)
		pk_cycle_add_pod(c, ni, p);
	else
		pk_cycle_remove_pod(c, ni, p);
}

static void node_apply(void *c, const pk_victim_unit *u, bool add)
{
	node_ctx *x = c;
	for (int i = 0; i < u->npods; i++)
		node_pod(x->c, x->ni, u->pods[i], add);
}

void pk_victim_ref_of_pod(pk_victim_ref *r, const pk_pod *p)
{
	*r = (pk_victim_ref){
		.namespace_ = p->namespace_, .name = p->name, .uid = p->uid,
		.node = *p->node_name ? p->node_name : p->nominated_node, .priority = p->priority,
		.start_time = p->start_time, .has_start_time = p->has_start_time, .terminating = p->terminating,
		.class_name = p->class_name, .owner_kind = p->controller_kind, .owner_name = p->controller_name,
		.owner_trim = p->owner_trim,
		.pod_group = p->con->pod_group,
	};
}

static void fill_ref(const pk_snapshot *s, pk_victim_ref *r, const pk_pod *p, bool violating)
{
	pk_victim_ref_of_pod(r, p);
	r->violating = violating;
	/* the PDB split has worked out the pod's budgets by now */
	if (violating && p->npdbs > 0 && p->npdbs <= PK_POD_MAX_PDBS)
		r->pdb = s->pdbs[p->pdbs[0]].name;
}

static void lower_nominations(const pk_nodeinfo *ni, const pk_pod *preemptor, pk_arena *arena,
                              pk_candidate *out)
{
	out->nclear = 0;
	out->clear_nominations = NULL;
	int n = 0;
	for (int i = 0; i < ni->nnominated; i++)
		if (ni->nominated[i] != preemptor && ni->nominated[i]->priority < preemptor->priority)
			n++;
	if (!n)
		return;
	out->clear_nominations = pk_arena_alloc(arena, sizeof *out->clear_nominations * (size_t)n);
	for (int i = 0; i < ni->nnominated; i++) {
		const pk_pod *q = ni->nominated[i];
		if (q != preemptor && q->priority < preemptor->priority)
			pk_victim_ref_of_pod(&out->clear_nominations[out->nclear++], q);
	}
}

/* ---- the arithmetic path ---------------------------------------------------
 * When only NodeResourcesFit can change its verdict as pods come and go -
 * the preemptor has no host ports and no extended resources, and neither
 * topology spread nor inter-pod affinity is in play - every fit check of
 * SelectVictimsOnNode is a comparison of sums. The same steps (remove all
 * lower-priority pods, check, order, PDB split, reprieve) then run on
 * numbers instead of on the node, without touching it. */

static void sums_add(sums *t, const pk_pod *p, int sign)
{
	t->pods += sign;
	t->cpu += sign * p->requests.cpu;
	t->memory += sign * p->requests.memory;
	t->ephemeral += sign * p->requests.ephemeral;
}

sums pk_node_sums(const pk_nodeinfo *ni, const pk_pod *preemptor)
{
	sums t = { ni->npods, ni->requested.cpu, ni->requested.memory, ni->requested.ephemeral };
	for (int i = 0; i < ni->nnominated; i++) {
		const pk_pod *q = ni->nominated[i];
		if (q == preemptor || q->priority < preemptor->priority ||
		    (*q->uid && strcmp(q->uid, preemptor->uid) == 0))
			continue;
		sums_add(&t, q, 1);
	}
	return t;
}

pk_status pk_fit_sums(const pk_pod *preemptor, const pk_nodeinfo *ni, const sums *t)
{
	return pk_fit_basic(preemptor, ni->node, t->pods, t->cpu, t->memory, t->ephemeral);
}

static inline void slot_add(sums *t, const pk_pod_slot *sl, int sign)
{
	t->pods += sign;
	t->cpu += sign * sl->cpu;
	t->memory += sign * sl->memory;
	t->ephemeral += sign * sl->ephemeral;
}

/* The PDBs that count slot k's pod, copied from the pod once known. */
static void slot_pdbs(const pk_snapshot *s, pk_nodeinfo *ni, int k)
{
	pk_pod_slot *sl = &ni->slots[k];
	if (sl->npdbs >= 0)
		return;
	pk_pod *p = ni->pods[k];
	if (p->npdbs < 0)
		pk_pod_match_pdbs(s, p);
	sl->npdbs = p->npdbs;
	memcpy(sl->pdbs, p->pdbs, sizeof sl->pdbs);
}

/* pk_units_pdb_split for the node's pods from index `from` on, one pod a
 * unit, reading slots: the pod itself only when a PDB names disrupted pods. */
static void slots_pdb_split(const pk_snapshot *s, pk_nodeinfo *ni, int from, bool *violating)
{
	budget b;
	b.n = 0;
	b.all = NULL;
	for (int k = from; k < ni->npods; k++) {
		slot_pdbs(s, ni, k);
		const pk_pod_slot *sl = &ni->slots[k];
		bool v = false;
		if (sl->npdbs <= PK_POD_MAX_PDBS) {
			for (int j = 0; j < sl->npdbs; j++) {
				const pk_pdb *pdb = &s->pdbs[sl->pdbs[j]];
				if ((pdb->ndisrupted == 0 || !pk_pdb_skips_pod(pdb, ni->pods[k])) &&
				    --*pk_budget_of(&b, s, sl->pdbs[j]) < 0)
					v = true;
			}
		} else {
			for (int i = 0; i < s->npdbs; i++) {
				const pk_pdb *pdb = &s->pdbs[i];
				if (pk_pdb_matches(pdb, ni->pods[k]) && !pk_pdb_skips_pod(pdb, ni->pods[k]) &&
				    --*pk_budget_of(&b, s, i) < 0)
					v = true;
			}
		}
		violating[k - from] = v;
	}
	free(b.all);
}

/* ---- the lower-priority tail of a node ------------------------------------- */

/* The tail itself (pk_tail) is declared in preempt_int.h: the memo keeps one
 * per node. */

static bool tail_serves(const pk_tail *t, const pk_nodeinfo *ni, int32_t priority)
{
	return t->known && t->generation == ni->generation && t->lo < priority && priority <= t->hi;
}

/* Cut the reprieve's order of t into levels (pk_tail_level): the
 * violating pods, if any, then a level per priority. */
static void tail_levels(const pk_nodeinfo *ni, pk_tail *t, int n)
{
	const pk_pod_slot *sl = &ni->slots[t->from];
	sums upto = {0};
	int nl = 0;
	t->largest = (sums){ n > 0, 0, 0, 0 }; /* a pod is one pod */
	t->lowest = n ? sl[n - 1].priority : 0; /* the node's order: by priority, highest first */
	for (int k = 0; k < n; k++) {
		t->largest.cpu = sl[k].cpu > t->largest.cpu ? sl[k].cpu : t->largest.cpu;
		t->largest.memory = sl[k].memory > t->largest.memory ? sl[k].memory : t->largest.memory;
		t->largest.ephemeral = sl[k].ephemeral > t->largest.ephemeral ? sl[k].ephemeral : t->largest.ephemeral;
	}
	t->first_violating = n > 0 && t->violating[t->order[0]];
	for (int j = 0; j < n; j++) {
		int k = t->order[j];
		bool new_level = nl == 0 || (nl == 1 && t->first_violating && !t->violating[k]) ||
		                 (!t->violating[k] && t->levels[nl - 1].priority != sl[k].priority);
		if (new_level) {
			if (nl == PK_TAIL_LEVELS) {
				t->nlevels = -1;
				return;
			}
			t->levels[nl++].priority = sl[k].priority;
		}
		pk_tail_level *last = &t->levels[nl - 1];
		slot_add(&upto, &sl[k], 1);
		if (sl[k].priority < last->priority)
			last->priority = sl[k].priority;
		*last = (pk_tail_level){ last->priority, (int32_t)upto.pods, upto.cpu, upto.memory, upto.ephemeral };
	}
	t->nlevels = (int8_t)nl;
}

/* Work out the tail of ni for a preemptor of this priority into t. */
static void tail_compute(const pk_snapshot *s, pk_nodeinfo *ni, int32_t priority, pk_tail *t)
{
	int from = ni->npods;
	while (from > 0 && ni->slots[from - 1].priority < priority)
		from--;
	int n = ni->npods - from;
	t->known = true;
	t->generation = ni->generation;
	t->from = from;
	t->lo = n ? ni->slots[from].priority : INT64_MIN;
	t->hi = from ? ni->slots[from - 1].priority : INT64_MAX;
	t->total = (sums){0};
	for (int k = from; k < ni->npods; k++)
		slot_add(&t->total, &ni->slots[k], 1);
	if (n > t->cap) {
		free(t->violating);
		free(t->order);
		t->cap = n < 32 ? 32 : n;
		t->violating = pk_xmalloc((size_t)t->cap);
		t->order = pk_xmalloc(sizeof *t->order * (size_t)t->cap);
	}
	if (n)
		slots_pdb_split(s, ni, from, t->violating);
	int w = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < n; k++)
			if (t->violating[k] == (pass == 0))
				t->order[w++] = k;
	tail_levels(ni, t, n);
	const pk_res *al = &ni->node->allocatable;
	t->node = ni->node->name;
	t->allocatable = (sums){ al->pods, al->cpu, al->memory, al->ephemeral };
}

void pk_tail_free(pk_tail *t)
{
	free(t->violating);
	free(t->order);
}

static int64_t room_for(int64_t request, int64_t allocatable, bool no_requests)
{
	return no_requests || request <= 0 ? INT64_MAX : allocatable - request;
}

/* What may sit beside the preemptor on a node of this allocatable. */
static room room_in(const pk_pod *preemptor, const sums *al)
{
	const pk_res *p = &preemptor->requests;
	bool none = pk_res_is_zero(p);
	return (room){ al->pods - 1000, room_for(p->cpu, al->cpu, none), room_for(p->memory, al->memory, none),
	               room_for(p->ephemeral, al->ephemeral, none) };
}

room pk_room_beside(const pk_pod *preemptor, const pk_node *n)
{
	const pk_res *al = &n->allocatable;
	return room_in(preemptor, &(sums){ al->pods, al->cpu, al->memory, al->ephemeral });
}

/* The node's sums as the preemptor sees them, without the tail t. */
static sums left_of_tail(const pk_nodeinfo *ni, const pk_pod *preemptor, const pk_tail *t)
{
	sums left = pk_node_sums(ni, preemptor);
	left.pods -= t->total.pods;
	left.cpu -= t->total.cpu;
	left.memory -= t->total.memory;
	left.ephemeral -= t->total.ephemeral;
	return left;
}

static inline bool within(const room *r, const sums *t)
{
	return t->pods * 1000 <= r->pods_milli && t->cpu <= r->cpu && t->memory <= r->memory &&
	       t->ephemeral <= r->ephemeral;
}

/* The node-choice summary, built victim by victim in any order: the
 * highest priority among them, and the earliest start at that priority. */
static void summary_begin(pk_candidate *c)
{
	c->top_priority = INT32_MIN;
	c->priority_sum = 0;
	c->top_start = INT64_MAX;
	c->top_unstarted = false;
	c->summarized = true;
}

static inline void summary_add(pk_candidate *c, const pk_pod_slot *sl)
{
	c->priority_sum += (int64_t)sl->priority + INT32_MAX + 1;
	if (sl->priority < c->top_priority)
		return;
	if (sl->priority > c->top_priority) {
		c->top_priority = sl->priority;
		c->top_start = INT64_MAX;
		c->top_unstarted = false;
	}
	if (sl->start == INT64_MIN)
		c->top_unstarted = true;
	else if (sl->start < c->top_start)
		c->top_start = sl->start;
}

/* The reprieve's first victim: the position in t->order of the first pod
 * that no longer fits once added back (every pod before it is reprieved),
 * or -1 when all of them fit. l: the sums without the tail. */
static int first_victim(const pk_pod_slot *sl, const pk_tail *t, int n, const room *r, sums l)
{
	room rr = *r;
	for (int j = 0; j < n; j++) {
		slot_add(&l, &sl[t->order[j]], 1);
		if (!within(&rr, &l))
			return j;
	}
	return -1;
}

/* Greedy reprieve over the tail's slots: violating pods first, then the
 * others, each kept if the preemptor still fits. Marks victims, summarizes
 * them into c; returns their number and counts the violating ones. */
static int reprieve_slots(const pk_pod_slot *sl, const pk_tail *t, int n, const room *r, sums *left,
                          bool *victim, int *violations, pk_candidate *c)
{
	/* locals: stores through victim (a bool, which may alias anything)
	 * would otherwise send every sum back to memory */
	int nv = 0, nviol = 0;
	sums l = *left;
	room rr = *r;
	pk_candidate sum;
	summary_begin(&sum);
	for (int j = 0; j < n; j++) {
		int k = t->order[j];
		slot_add(&l, &sl[k], 1);
		bool v = !within(&rr, &l);
		victim[k] = v;
		if (!v)
			continue;
		slot_add(&l, &sl[k], -1);
		summary_add(&sum, &sl[k]);
		nv++;
		nviol += t->violating[k];
	}
	*left = l;
	c->top_priority = sum.top_priority;
	c->priority_sum = sum.priority_sum;
	c->top_start = sum.top_start;
	c->top_unstarted = sum.top_unstarted;
	c->summarized = true;
	*violations = nviol;
	return nv;
}

/* How many pods of at most `largest` each free `excess` at least. */
static int64_t pods_to_free(int64_t excess, int64_t largest)
{
	if (excess <= 0)
		return 0;
	return largest > 0 ? (excess + largest - 1) / largest : 1;
}

/* How many victims the reprieve leaves at least: whatever it keeps must fit
 * beside the preemptor, so the victims free what the node holds beyond the
 * room (l: the sums without the tail), each at most the tail's largest
 * request. */
static int64_t victims_at_least(const pk_tail *t, const room *r, const sums *l)
{
	int64_t n = 1, k;
	const sums *x = &t->total, *big = &t->largest;
	if ((k = pods_to_free((l->pods + x->pods) * 1000 - r->pods_milli, big->pods * 1000)) > n)
		n = k;
	if ((k = pods_to_free(l->cpu + x->cpu - r->cpu, big->cpu)) > n)
		n = k;
	if ((k = pods_to_free(l->memory + x->memory - r->memory, big->memory)) > n)
		n = k;
	if ((k = pods_to_free(l->ephemeral + x->ephemeral - r->ephemeral, big->ephemeral)) > n)
		n = k;
	return n;
}

/* What node choice's key is at least, knowing the first victim (its
 * priority, and whether it violates a PDB): the victims include it, so
 * the highest victim priority is at least its own and, when it violates,
 * there is a violation or more; there are as many victims as the room asks
 * for (victims_at_least), each adding at least the tail's lowest priority
 * to the sum. When the first victim violates no PDB, every violating pod
 * was reprieved and the rest come in the node's order: the highest
 * priority is then its own, exactly. */
static void bound_key(const pk_tail *t, int32_t first, bool violating, const room *r, const sums *left,
                      pk_candidate *c)
{
	int64_t nv = victims_at_least(t, r, left);
	int64_t others = (nv - 1) * ((int64_t)t->lowest + INT32_MAX + 1);
	*c = (pk_candidate){ .node = t->node, .nvictims = (int)nv, .num_pdb_violations = violating,
	                     .top_priority = first, .priority_sum = (int64_t)first + INT32_MAX + 1 + others,
	                     .top_start = INT64_MAX, .summarized = true };
}

/* Upstream's error for a dry run that reprieved every pod. Without an arena
 * (a dry-run thread, which must not touch the string table) the reason is
 * left out: the caller asks again. */
static pk_status no_victim_status(pk_snapshot *s, const pk_nodeinfo *ni, pk_arena *arena)
{
	pk_status st;
	pk_status_set(&st, PK_CODE_ERROR, "DefaultPreemption", NULL);
	if (arena) {
		char buf[600];
		snprintf(buf, sizeof buf, "expected at least one victim pod on node \"%s\"", ni->node->name);
		pk_status_add_reason(&st, pk_intern(s->strs, buf));
	}
	return st;
}

/* SelectVictimsOnNode on the arithmetic path, for the tail t of the node
 * (those of lower priority). The node keeps its pods in importance order,
 * so that tail is already sorted as the reprieve needs it; everything is
 * read from the slots. */
static pk_status select_victims_by_sums(pk_snapshot *s, const pk_pod *preemptor, pk_nodeinfo *ni,
                                        const pk_tail *t, pk_arena *arena, pk_candidate *out, pk_select_mode mode)
{
	bool fill = mode == PK_SELECT_LIST;
	pk_status st;
	int from = t->from, n = ni->npods - from;
	sums left = left_of_tail(ni, preemptor, t);
	room r = room_in(preemptor, &t->allocatable);
	if (!within(&r, &left))
		return pk_fit_sums(preemptor, ni, &left);

	if (mode == PK_SELECT_BOUND) {
		int j = first_victim(&ni->slots[from], t, n, &r, left);
		if (j < 0)
			return no_victim_status(s, ni, arena);
		int k = t->order[j];
		bound_key(t, ni->slots[from + k].priority, t->violating[k], &r, &left, out);
		return (pk_status){ .code = PK_CODE_SUCCESS };
	}
	enum { SMALL = 256 };
	bool small[SMALL];
	bool *victim = n <= SMALL ? small : pk_xmalloc((size_t)n);
	int violations;
	int nv = reprieve_slots(&ni->slots[from], t, n, &r, &left, victim, &violations, out);
	if (nv == 0) {
		if (victim != small)
			free(victim);
		return no_victim_status(s, ni, arena);
	}
	/* victims in importance order: the node's order */
	out->victims = fill ? pk_arena_alloc(arena, sizeof *out->victims * (size_t)nv) : NULL;
	for (int k = 0, i = 0; fill && k < n; k++) {
		if (!victim[k])
			continue;
		fill_ref(s, &out->victims[i], ni->pods[from + k], t->violating[k]);
		i++;
	}
	out->nvictims = nv;
	out->num_pdb_violations = violations;
	if (fill)
		lower_nominations(ni, preemptor, arena, out);
	if (victim != small)
		free(victim);
	st.code = PK_CODE_SUCCESS;
	st.plugin = NULL;
	st.nreasons = 0;
	return st;
}


/* The general path's answer: Success, or upstream's error for a dry run
 * that kept every victim back (cannot happen when the fit check passed). */
static pk_status selection_status(pk_snapshot *s, const pk_nodeinfo *ni, int nv)
{
	pk_status st;
	if (nv == 0) {
		char buf[600];
		snprintf(buf, sizeof buf, "expected at least one victim pod on node \"%s\"", ni->node->name);
		pk_status_set(&st, PK_CODE_ERROR, "DefaultPreemption", pk_intern(s->strs, buf));
		return st;
	}
	pk_status_set(&st, PK_CODE_SUCCESS, NULL, NULL);
	return st;
}

/* ---- SelectVictimsOnNode with pod groups (Kubernetes 1.37) ----------------- */

/* A pod of the node names a scheduling group: its unit may differ from the
 * pod alone at its own priority. */
static bool node_has_group_pods(const pk_snapshot *s, const pk_nodeinfo *ni)
{
	for (int i = 0; i < ni->npods; i++)
		if (pk_pg_pod_has_group(s->victim_groups, ni->pods[i]))
			return true;
	return false;
}

/* A victim's pod comes or goes: on the node under evaluation for real; on
 * another node (a member of a disruptionMode-all group) only in the
 * PreFilter state, as upstream runs RunPreFilterExtensionRemovePod/AddPod
 * with that node and leaves its NodeInfo alone. */
static void unit_pod(pk_cycle *c, pk_nodeinfo *ni, pk_pod *p, bool add)
{
	if (p->node_name == ni->node->name || strcmp(p->node_name, ni->node->name) == 0) {
		node_pod(c, ni, p, add);
		return;
	}
	const pk_nodeinfo *other = pk_snapshot_node(c->s, p->node_name);
	if (other)
		pk_cycle_update_states(c, p, other->node, add ? 1 : -1);
}

static void group_unit_apply(void *c, const pk_victim_unit *u, bool add)
{
	node_ctx *x = c;
	for (int i = 0; i < u->npods; i++)
		unit_pod(x->c, x->ni, u->pods[i], add);
}

typedef struct group_units {
	pk_victim_unit *u;
	const pk_podgroup **group;  /* per unit: its disruptionMode-all group, or NULL */
	pk_pod **pods;              /* storage of the units' pod lists */
	int n;
} group_units;

static bool unit_of_group_built(const group_units *gu, const pk_podgroup *pg)
{
	for (int k = 0; k < gu->n; k++)
		if (gu->group[k] == pg)
			return true;
	return false;
}

/* The node's potential victims (getCrossNodesVictims for one node, then
 * isPreemptionAllowedAcrossAllVictimNodes): a pod of a disruptionMode-all
 * group brings every bound member of it, on any node, at the group's
 * priority; another pod of a known group is a unit of its own at the
 * group's priority (GetPodPriority); a pod of no group at its own. A pod
 * that names a group counts as a group for the order (NewPodVictim). */
static void group_units_build(pk_snapshot *s, const pk_pod *preemptor, const pk_nodeinfo *ni, group_units *gu)
{
	const pk_pg_set *g = s->victim_groups;
	long cap = 0;
	for (int i = 0; i < ni->npods; i++) {
		const pk_podgroup *pg = pk_pg_whole_group(g, ni->pods[i]);
		cap += pg ? pk_pg_present_members(g, s, pg, NULL) + 1 : 1;
	}
	gu->u = pk_xmalloc(sizeof *gu->u * (size_t)(ni->npods + 1));
	gu->group = pk_xmalloc(sizeof *gu->group * (size_t)(ni->npods + 1));
	gu->pods = pk_xmalloc(sizeof *gu->pods * (size_t)(cap + 1));
	gu->n = 0;
	long np = 0;
	for (int i = 0; i < ni->npods; i++) {
		pk_pod *p = ni->pods[i];
		const pk_podgroup *pg = pk_pg_whole_group(g, p);
		int32_t prio = pg ? pg->priority : pk_pg_victim_priority(g, p);
		if (prio >= preemptor->priority || (pg && unit_of_group_built(gu, pg)))
			continue;
		pk_victim_unit *u = &gu->u[gu->n];
		*u = (pk_victim_unit){ .pods = &gu->pods[np], .priority = prio, .is_group = pk_pg_pod_has_group(g, p),
		                       .is_composite = pg && pg->composite, .earliest_start = INT64_MAX };
		u->npods = pg ? pk_pg_present_members(g, s, pg, u->pods) : 0;
		if (u->npods == 0) { /* upstream falls back to the pod alone */
			u->pods[0] = p;
			u->npods = 1;
		}
		for (int m = 0; m < u->npods; m++) {
			const pk_pod *q = u->pods[m];
			int64_t t0 = q->has_start_time ? q->start_time : s->now;
			if (t0 < u->earliest_start)
				u->earliest_start = t0;
		}
		np += u->npods;
		gu->group[gu->n++] = pg;
	}
}

static void group_units_free(group_units *gu)
{
	free(gu->u);
	free(gu->group);
	free(gu->pods);
}

/* SelectVictimsOnNode of default_preemption.go after #137981: the victims
 * are units; a whole group is removed, kept or evicted as one, every one
 * of its pods is a victim of this node's candidate (counted in node
 * choice) and the PDB violations are its violating pods (ViolateCount). */
static pk_status select_victims_with_groups(pk_cycle *c, const pk_pod *preemptor, pk_nodeinfo *ni,
                                            pk_arena *arena, pk_candidate *out)
{
	pk_snapshot *s = c->s;
	pk_status st;
	group_units gu;
	group_units_build(s, preemptor, ni, &gu);
	if (gu.n == 0) {
		group_units_free(&gu);
		pk_status_set(&st, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "DefaultPreemption", R_NO_VICTIMS);
		return st;
	}
	node_ctx ctx = { c, preemptor, ni, {0} };
	for (int k = 0; k < gu.n; k++)
		group_unit_apply(&ctx, &gu.u[k], false);
	if (!node_fits(&ctx)) {
		st = ctx.last;
		for (int k = 0; k < gu.n; k++)
			group_unit_apply(&ctx, &gu.u[k], true);
		group_units_free(&gu);
		return st;
	}
	pk_units_sort(gu.u, gu.n, s->now);
	pk_units_pdb_split(s, gu.u, gu.n);
	size_t nu = (size_t)gu.n + 1;
	int *picked = pk_xmalloc(sizeof *picked * nu);
	pk_victim_unit *vu = pk_xmalloc(sizeof *vu * nu);
	int units_violating;
	int nv = pk_units_reprieve(gu.u, gu.n, node_fits, group_unit_apply, &ctx, picked, &units_violating);
	int npods = 0, violations = 0;
	for (int i = 0; i < nv; i++) {
		vu[i] = gu.u[picked[i]];
		npods += vu[i].npods;
		if (vu[i].violating)
			violations += vu[i].violating_pods;
	}
	pk_units_sort(vu, nv, s->now);
	pk_group_disruption *dis = pk_xmalloc(sizeof *dis * nu);
	int nd;
	out->num_pod_group_disruptions = pk_pg_disruptions(s->victim_groups, vu, nv, dis, &nd);
	nd = nd > UINT16_MAX ? UINT16_MAX : nd;
	out->victims = pk_arena_alloc(arena, pk_candidate_disruptions_room(npods, nd));
	for (int i = 0, k = 0; i < nv; i++)
		for (int m = 0; m < vu[i].npods; m++)
			fill_ref(s, &out->victims[k++], vu[i].pods[m], vu[i].violating);
	out->nvictims = npods;
	out->num_pdb_violations = violations;
	out->ndisruptions = (uint16_t)nd; /* after the victims (engine.h) */
	if (nd)
		memcpy((void *)pk_candidate_disruptions(out), dis, sizeof *dis * (size_t)nd);
	free(dis);
	pk_candidate_summarize(out);
	lower_nominations(ni, preemptor, arena, out);
	for (int i = 0; i < nv; i++)
		group_unit_apply(&ctx, &vu[i], true);
	free(picked);
	free(vu);
	group_units_free(&gu);
	return selection_status(s, ni, nv);
}

static pk_status select_victims(pk_cycle *c, const pk_pod *preemptor, pk_nodeinfo *ni, pk_arena *arena,
                                pk_candidate *out, pk_select_mode mode, pk_tail *tail, bool static_passed)
{
	pk_snapshot *s = c->s;
	pk_status st;
	memset(out, 0, sizeof *out);
	out->node = ni->node->name;
	if (s->victim_groups && node_has_group_pods(s, ni)) {
		if (!static_passed && (st = pk_run_static_filters(preemptor, ni)).code != PK_CODE_SUCCESS)
			return st;
		return select_victims_with_groups(c, preemptor, ni, arena, out);
	}
	/* the pods of lower priority: the tail of the node's list */
	int from = ni->npods;
	if (tail && tail_serves(tail, ni, preemptor->priority))
		from = tail->from;
	else
		while (from > 0 && ni->slots[from - 1].priority < preemptor->priority)
			from--;
	int n = ni->npods - from;
	if (n == 0) {
		pk_status_set(&st, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "DefaultPreemption", R_NO_VICTIMS);
		return st;
	}
	/* Removing victims cannot change what the node-only filters say: if
	 * they fail, that is the answer after any removal too. */
	if (!static_passed && (st = pk_run_static_filters(preemptor, ni)).code != PK_CODE_SUCCESS)
		return st;
	if (pk_arithmetic_applies(c, preemptor)) {
		pk_tail scratch = {0};
		pk_tail *t = tail ? tail : &scratch;
		if (!tail_serves(t, ni, preemptor->priority))
			tail_compute(s, ni, preemptor->priority, t);
		st = select_victims_by_sums(s, preemptor, ni, t, arena, out, mode);
		if (t == &scratch)
			pk_tail_free(&scratch);
		/* VolumeBinding and VolumeZone look at the node alone and come
		 * after NodeResourcesFit: where the pod fits with every potential
		 * victim gone, theirs is the dry run's answer. No pod is moved:
		 * the memo's threads share this cycle. */
		pk_status vs;
		if (st.code == PK_CODE_SUCCESS && preemptor->con->volumes &&
		    !pk_volumes_node_fits(preemptor, ni->node, &vs)) {
			out->nvictims = 0;
			st = vs;
		}
		return st;
	}
	if (mode == PK_SELECT_BOUND)
		return select_victims(c, preemptor, ni, arena, out, PK_SELECT_SUMMARY, tail, static_passed);
	enum { SMALL = 64 };
	pk_victim_unit units_small[SMALL];
	pk_pod *pods_small[SMALL];
	int picked_small[SMALL];
	bool big = n > SMALL;
	pk_victim_unit *units = big ? pk_xmalloc(sizeof *units * (size_t)n) : units_small;
	pk_pod **pods = big ? pk_xmalloc(sizeof *pods * (size_t)n) : pods_small;
	int *picked = big ? pk_xmalloc(sizeof *picked * (size_t)n) : picked_small;
	for (int k = 0; k < n; k++)
		pods[k] = ni->pods[from + k];
	for (int i = 0; i < n; i++) {
		units[i] = (pk_victim_unit){ .pods = &pods[i], .npods = 1, .priority = pods[i]->priority,
		                             .earliest_start = pods[i]->has_start_time ? pods[i]->start_time : s->now };
		node_pod(c, ni, pods[i], false);
	}
	node_ctx ctx = { c, preemptor, ni, {0} };
	if (!node_fits(&ctx)) {
		st = ctx.last;
		for (int i = 0; i < n; i++)
			node_pod(c, ni, pods[i], true);
		if (big) {
			free(units);
			free(pods);
			free(picked);
		}
		return st;
	}
	pk_units_sort(units, n, s->now);
	pk_units_pdb_split(s, units, n);
	int violations = 0;
	int nv = pk_units_reprieve(units, n, node_fits, node_apply, &ctx, picked, &violations);

	/* Victims: violating first, then the rest; re-sort when both exist so
	 * that victims[0] is the most important one (node choice relies on it). */
	pk_victim_unit vu_small[SMALL];
	pk_victim_unit *vu = big ? pk_xmalloc(sizeof *vu * (size_t)(nv ? nv : 1)) : vu_small;
	for (int i = 0; i < nv; i++)
		vu[i] = units[picked[i]];
	pk_units_sort(vu, nv, s->now);
	out->victims = pk_arena_alloc(arena, sizeof *out->victims * (size_t)(nv ? nv : 1));
	for (int i = 0; i < nv; i++) {
		fill_ref(s, &out->victims[i], vu[i].pods[0], vu[i].violating);
	}
	out->nvictims = nv;
	out->num_pdb_violations = violations;
	pk_candidate_summarize(out);
	lower_nominations(ni, preemptor, arena, out);
	for (int i = 0; i < nv; i++)
		node_pod(c, ni, vu[i].pods[0], true);
	if (big) {
		free(vu);
		free(units);
		free(pods);
		free(picked);
	}
	return selection_status(s, ni, nv);
}

pk_status pk_select_victims_on_node(pk_cycle *c, const pk_pod *preemptor, pk_nodeinfo *ni,
                                    pk_arena *arena, pk_candidate *out)
{
	return pk_select_victims(c, preemptor, ni, arena, out, true, NULL, false);
}

bool pk_candidate_list_victims(pk_snapshot *s, const pk_pod *preemptor, const pk_candidate *cand, pk_arena *arena,
                               pk_candidate *out)
{
	pk_nodeinfo *ni = pk_snapshot_node(s, cand->node);
	/* the evaluation's cycle had no PreFilter state (the arithmetic path):
	 * a cycle without one, of this thread's own, selects the same victims */
	pk_cycle c;
	pk_cycle_open_bare(&c, s, NULL);
	bool same = false;
	if (ni && pk_arithmetic_applies(&c, preemptor)) {
		pk_status st = pk_select_victims(&c, preemptor, ni, arena, out, true, NULL, true);
		same = st.code == PK_CODE_SUCCESS && out->nvictims == cand->nvictims &&
		       out->num_pdb_violations == cand->num_pdb_violations;
	}
	pk_cycle_close(&c);
	return same;
}

pk_status pk_select_victims(pk_cycle *c, const pk_pod *preemptor, pk_nodeinfo *ni, pk_arena *arena,
                            pk_candidate *out, bool fill, pk_tail *tail, bool static_passed)
{
	return select_victims(c, preemptor, ni, arena, out, fill ? PK_SELECT_LIST : PK_SELECT_SUMMARY, tail,
	                      static_passed);
}

/* The level of t in which the reprieve meets its first victim, or -1 when
 * every pod is reprieved (l: the sums without the tail). */
static int first_victim_level(const pk_tail *t, const room *r, const sums *l)
{
	for (int L = 0; L < t->nlevels; L++) {
		const pk_tail_level *u = &t->levels[L];
		sums x = { l->pods + u->pods, l->cpu + u->cpu, l->memory + u->memory, l->ephemeral + u->ephemeral };
		if (!within(r, &x))
			return L;
	}
	return -1;
}

pk_status pk_select_victims_bound(pk_cycle *c, const pk_pod *preemptor, pk_nodeinfo *ni, pk_candidate *out,
                                  pk_tail *tail, bool *exact)
{
	pk_snapshot *s = c->s;
	*exact = true;
	if (!tail || !pk_arithmetic_applies(c, preemptor) ||
	    (preemptor->con->volumes && !pk_volumes_node_fits(preemptor, ni->node, NULL)) || /* exact: no candidate */
	    (s->victim_groups && node_has_group_pods(s, ni)))
		return select_victims(c, preemptor, ni, NULL, out, PK_SELECT_SUMMARY, tail, true);
	if (!tail_serves(tail, ni, preemptor->priority))
		tail_compute(s, ni, preemptor->priority, tail);
	*exact = false;
	if (tail->from == ni->npods || tail->nlevels < 0) /* no victims, or too many levels: from the slots */
		return select_victims(c, preemptor, ni, NULL, out, PK_SELECT_BOUND, tail, true);
	/* select_victims_by_sums up to its first victim, from the levels */
	sums left = left_of_tail(ni, preemptor, tail);
	room r = room_in(preemptor, &tail->allocatable);
	if (!within(&r, &left))
		return pk_fit_sums(preemptor, ni, &left);
	int L = first_victim_level(tail, &r, &left);
	if (L < 0)
		return no_victim_status(s, ni, NULL);
	/* the first victim's level: its priority (the level's lowest, for the
	 * violating pods), and whether it violates */
	bound_key(tail, tail->levels[L].priority, L == 0 && tail->first_violating, &r, &left, out);
	return (pk_status){ .code = PK_CODE_SUCCESS };
}
