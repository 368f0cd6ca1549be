/* The what-if queue simulation; see simulate.h. */
#include "sched/sim/simulate.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"
#include "k8s/queue_order.h"
#include "sched/engine/score/score.h"
#include "base/alloc.h"


void pk_sim_opts_default(pk_sim_opts *o)
{
	memset(o, 0, sizeof *o);
	pk_eval_opts_default(&o->eval);
	o->eval.victims_of_best_only = true; /* a step reports the chosen node's only */
	o->cascade = true;
	o->max_recreations = 1000;
}

/* ---- the queue ------------------------------------------------------------------ */

/* The queue order (k8s/queue_order.h) of a unit: a pod group queues under
 * its group's name. */
static pk_queue_key unit_key(const pk_sim_unit *u)
{
	return (pk_queue_key){
		.priority = u->priority,
		.timestamp_ns = u->created,
		.namespace_ = u->group ? u->group->namespace_ : u->pods[0]->namespace_,
		.name = u->group ? u->group->name : u->pods[0]->name,
	};
}

int pk_sim_unit_cmp(const pk_sim_unit *a, const pk_sim_unit *b)
{
	pk_queue_key ka = unit_key(a), kb = unit_key(b);
	return pk_queue_order_cmp(&ka, &kb);
}

static int unit_qsort_cmp(const void *a, const void *b)
{
	return pk_sim_unit_cmp(a, b);
}

static pk_sim_unit *push_unit(pk_sim *m)
{
	size_t cap = (size_t)m->cap;
	m->queue = pk_grow(m->queue, &cap, (size_t)m->n + 1, sizeof *m->queue);
	m->cap = (long)cap;
	pk_sim_unit *u = &m->queue[m->n++];
	memset(u, 0, sizeof *u);
	return u;
}

/* Insert a new unit into the not-yet-run part of the queue, in order. */
static void enqueue_sorted(pk_sim *m, const pk_sim_unit *nu)
{
	push_unit(m);
	long i = m->n - 1;
	while (i > m->head && pk_sim_unit_cmp(nu, &m->queue[i - 1]) < 0) {
		m->queue[i] = m->queue[i - 1];
		i--;
	}
	m->queue[i] = *nu;
}

static bool gang_path(const pk_sim *m)
{
	return m->g->release->generic_workload && m->g->release->workload_aware_preemption && !m->opts.pod_postfilter;
}

bool pk_sim_plays_gangs(const pk_sim *m)
{
	return gang_path(m);
}

/* ---- uids of the pods that may be nominated ------------------------------------ */

static void uids_grow(pk_sim *m)
{
	size_t cap = m->uids.cap ? 2 * m->uids.cap : 256;
	const char **uid = pk_xcalloc(cap, sizeof *uid);
	const pk_pod **pod = pk_xcalloc(cap, sizeof *pod);
	for (size_t i = 0; i < m->uids.cap; i++) {
		if (!m->uids.uid[i])
			continue;
		size_t j = (size_t)pk_hash_str(m->uids.uid[i]) & (cap - 1);
		while (uid[j])
			j = (j + 1) & (cap - 1);
		uid[j] = m->uids.uid[i];
		pod[j] = m->uids.pod[i];
	}
	free(m->uids.uid);
	free(m->uids.pod);
	m->uids.uid = uid;
	m->uids.pod = pod;
	m->uids.cap = cap;
}

/* Note p as a pod that may be nominated; a second pod with its uid ends
 * the memo's whole-evaluation shortcut for the rest of the run. */
static void note_uid(pk_sim *m, const pk_pod *p)
{
	if (!*p->uid || m->uid_twins)
		return;
	if (2 * (m->uids.n + 1) > m->uids.cap)
		uids_grow(m);
	size_t j = (size_t)pk_hash_str(p->uid) & (m->uids.cap - 1);
	for (; m->uids.uid[j]; j = (j + 1) & (m->uids.cap - 1))
		if (strcmp(m->uids.uid[j], p->uid) == 0) {
			if (m->uids.pod[j] != p) {
				m->uid_twins = true;
				pk_eval_memo_uids_unique(m->opts.eval.memo, false);
			}
			return;
		}
	m->uids.uid[j] = p->uid;
	m->uids.pod[j] = p;
	m->uids.n++;
}

void pk_sim_init(pk_sim *m, pk_snapshot *s, pk_pg_set *g, const pk_sim_opts *o)
{
	memset(m, 0, sizeof *m);
	m->s = s;
	m->g = g;
	m->opts = *o;
	m->opts.eval.memo = pk_eval_memo_new(); /* successive decisions differ by a node or two */
	m->scores = pk_score_cache_new(g->release);
	pk_arena_init(&m->arena);
	pk_pod **pending;
	long np = pk_snapshot_queue(s, g->release->resize_preemption, &pending);
	long *unit_of_group = pk_xmalloc(sizeof *unit_of_group * (size_t)(g->n + 1));
	for (long i = 0; i < g->n; i++)
		unit_of_group[i] = -1;
	/* members first counted, then stored, so each group's array is exact */
	int *count = pk_xcalloc((size_t)g->n + 1, sizeof *count);
	int *gated = pk_xcalloc((size_t)g->n + 1, sizeof *gated);
	for (long i = 0; i < np; i++) {
		pk_podgroup *pg = gang_path(m) && !*pending[i]->node_name ? pk_pg_scheduling_group(g, pending[i]) : NULL;
		if (pg)
			(pk_pod_gated(pending[i]) ? gated : count)[pg - g->groups]++;
	}
	pk_eval_memo_uids_unique(m->opts.eval.memo, true);
	for (long i = 0; i < np; i++)
		if (!*pending[i]->node_name) /* a resize is never nominated */
			note_uid(m, pending[i]);
	for (long i = 0; i < np; i++) {
		pk_pod *p = pending[i];
		int64_t created = p->created;
		if (created > m->clock)
			m->clock = created;
		pk_pod *own = *p->node_name ? pk_snapshot_resize_own(s, p) : NULL;
		/* a gated member is not in the queue: its group is played
		 * without it, and it waits in a unit of its own */
		pk_podgroup *pg = gang_path(m) && !own && !pk_pod_gated(p) ? pk_pg_scheduling_group(g, p) : NULL;
		if (!pg) {
			pk_sim_unit *u = push_unit(m);
			u->pods = pk_arena_alloc(&m->arena, sizeof *u->pods);
			u->pods[0] = p;
			u->npods = 1;
			u->priority = p->priority;
			u->created = p->created;
			u->resize_own = own;
			continue;
		}
		long gi = pg - g->groups;
		if (unit_of_group[gi] < 0) {
			pk_sim_unit *u = push_unit(m);
			unit_of_group[gi] = m->n - 1;
			u->group = pg;
			u->pods = pk_arena_alloc(&m->arena, sizeof *u->pods * (size_t)count[gi]);
			u->priority = pg->priority;
			u->created = pg->created ? pg->created : p->created;
			u->gated_members = gated[gi];
		}
		pk_sim_unit *u = &m->queue[unit_of_group[gi]];
		u->pods[u->npods++] = p;
		if (!pg->created && p->created < u->created)
			u->created = p->created;
	}
	free(count);
	free(gated);
	free(unit_of_group);
	free(pending);
	if (m->n > 1)
		qsort(m->queue, (size_t)m->n, sizeof *m->queue, unit_qsort_cmp);
	m->clock += 1000000000; /* pods created during the run queue after every input pod */
}

void pk_sim_free(pk_sim *m)
{
	for (long i = 0; i < m->nowned; i++)
		pk_pod_release(m->owned[i]);
	free(m->owned);
	free(m->queue);
	free(m->uids.uid);
	free(m->uids.pod);
	free(m->victims);
	pk_eval_memo_free(m->opts.eval.memo);
	pk_score_cache_free(m->scores);
	pk_arena_free(&m->arena);
	memset(m, 0, sizeof *m);
}

/* ---- new pending pods: recreated victims and pods of applied objects ----------------- */

static pk_pod *copy_pod(pk_sim *m, const pk_pod *src, const char *name, const char *uid)
{
	pk_pod *c = pk_arena_alloc(&m->arena, sizeof *c);
	*c = *src; /* selectors and labels stay owned by src */
	c->name = pk_strtab_keep(m->s->strs, name, strlen(name)); /* as the decoder keeps them */
	c->uid = pk_intern(m->s->strs, uid);
	c->node_name = pk_intern(m->s->strs, "");
	c->nominated_node = c->node_name;
	c->phase = pk_intern(m->s->strs, "Pending");
	c->has_start_time = false;
	c->start_time = 0;
	c->terminating = false;
	c->preemption_target = false;
	c->created = m->clock;
	m->clock += 1000000; /* 1 ms apart: creation order is queue order */
	pk_ns_set_note(m->s->namespaces, c->namespace_); /* an applied object's may be new */
	c->index = -1;
	return c;
}

static pk_sim_unit pod_unit(pk_sim *m, pk_pod *p)
{
	pk_sim_unit u = {0};
	u.pods = pk_arena_alloc(&m->arena, sizeof *u.pods);
	u.pods[0] = p;
	u.npods = 1;
	u.priority = p->priority;
	u.created = p->created;
	return u;
}

/* Who made a pod created during the run. */
typedef enum { SIM_APPLIED, SIM_SCALED, SIM_RECREATED } sim_origin;

static void enqueue_pod(pk_sim *m, pk_pod *p, bool recreated, bool scaled)
{
	pk_sim_unit u = pod_unit(m, p);
	u.recreated = recreated;
	u.scaled = scaled;
	enqueue_sorted(m, &u);
}

static void enqueue_member(pk_sim *m, pk_podgroup *pg, pk_pod *p, sim_origin origin);

/* A victim whose controller would recreate it comes back as a new pending
 * pod, once per victim, within the global bound. One already terminating
 * (deletionTimestamp set) does not: its controller counted it gone when
 * its deletion began and has made its replacement already. A member of a
 * pod group comes back into its group's unit when gangs are played, as the
 * pending members of the snapshot do (pk_sim_init): the group's minCount
 * then holds for the recreated members together. The recreated pod is
 * re-queued itself no more (its controller is not noted for it). */
static int requeue_victim(pk_sim *m, const pk_pod *v)
{
	if (!m->opts.cascade || v->terminating || v->index < 0 || v->index >= m->g->npods ||
	    !m->g->pod_owner_kind[v->index] ||
	    !*m->g->pod_owner_kind[v->index])
		return 0;
	if (m->sum.recreated >= m->opts.max_recreations) {
		m->sum.recreations_dropped++;
		return 0;
	}
	char name[600], uid[600];
	snprintf(name, sizeof name, "%s-recreated", v->name);
	snprintf(uid, sizeof uid, "recreated-%s", *v->uid ? v->uid : v->name);
	pk_pod *p = copy_pod(m, v, name, uid);
	pk_podgroup *pg = gang_path(m) ? pk_pg_scheduling_group(m->g, v) : NULL;
	if (pg) {
		pk_pg_add_pod(m->g, m->s, p, m->g->pod_group_name[v->index], NULL, NULL);
		enqueue_member(m, pg, p, SIM_RECREATED);
	} else {
		enqueue_pod(m, p, true, false);
	}
	m->sum.recreated++;
	return 1;
}

pk_pod *pk_sim_new_pod(pk_sim *m, const pk_pod *tpl, const char *name, const char *uid)
{
	return copy_pod(m, tpl, name, uid);
}

void pk_sim_keep(pk_sim *m, pk_pod *tpl)
{
	size_t cap = (size_t)m->ownedcap;
	m->owned = pk_grow(m->owned, &cap, (size_t)m->nowned + 1, sizeof *m->owned);
	m->ownedcap = (long)cap;
	m->owned[m->nowned++] = tpl;
}

static void count_created(pk_sim *m, bool scaled)
{
	if (scaled)
		m->sum.scaled++;
	else
		m->sum.applied++;
}

/* A member of a PodGroup joins the group's unit that has not run yet, or
 * starts one. */
static void enqueue_member(pk_sim *m, pk_podgroup *pg, pk_pod *p, sim_origin origin)
{
	for (long i = m->head; i < m->n; i++) {
		pk_sim_unit *u = &m->queue[i];
		if (u->group != pg)
			continue;
		pk_pod **pods = pk_arena_alloc(&m->arena, sizeof *pods * (size_t)(u->npods + 1));
		memcpy(pods, u->pods, sizeof *pods * (size_t)u->npods);
		pods[u->npods] = p;
		u->pods = pods;
		u->npods++;
		u->applied |= origin == SIM_APPLIED;
		u->scaled |= origin == SIM_SCALED;
		u->recreated |= origin == SIM_RECREATED;
		return;
	}
	pk_sim_unit u = pod_unit(m, p);
	u.group = pg;
	u.priority = pg->priority;
	u.created = pg->created ? pg->created : p->created;
	u.applied = origin == SIM_APPLIED;
	u.scaled = origin == SIM_SCALED;
	u.recreated = origin == SIM_RECREATED;
	enqueue_sorted(m, &u);
}

void pk_sim_enqueue(pk_sim *m, pk_pod *p, bool scaled)
{
	count_created(m, scaled);
	pk_podgroup *pg = gang_path(m) ? pk_pg_scheduling_group(m->g, p) : NULL;
	if (pg) {
		enqueue_member(m, pg, p, scaled ? SIM_SCALED : SIM_APPLIED);
		return;
	}
	pk_sim_unit u = pod_unit(m, p);
	u.scaled = scaled;
	u.applied = !scaled;
	enqueue_sorted(m, &u);
}

static void enqueue_chain_next(pk_sim *m, pk_sim_chain *c)
{
	pk_pod *p = c->pods[c->next++];
	p->created = m->clock; /* created now, behind everything queued so far */
	m->clock += 1000000;
	count_created(m, c->scaled);
	pk_sim_unit u = pod_unit(m, p);
	u.scaled = c->scaled;
	u.applied = !c->scaled;
	u.chain = c;
	enqueue_sorted(m, &u);
}

pk_sim_chain *pk_sim_enqueue_ordered(pk_sim *m, pk_pod **pods, int n, bool scaled)
{
	pk_sim_chain *c = pk_arena_alloc(&m->arena, sizeof *c);
	c->pods = pk_arena_alloc(&m->arena, sizeof *c->pods * (size_t)(n + 1));
	memcpy(c->pods, pods, sizeof *pods * (size_t)n);
	c->n = n;
	c->scaled = scaled;
	if (n > 0)
		enqueue_chain_next(m, c);
	return c;
}

void pk_sim_dequeue(pk_sim *m, const pk_pod *p)
{
	for (long i = m->head; i < m->n; i++) {
		pk_sim_unit *u = &m->queue[i];
		int k = 0;
		while (k < u->npods && u->pods[k] != p)
			k++;
		if (k == u->npods)
			continue;
		memmove(&u->pods[k], &u->pods[k + 1], sizeof *u->pods * (size_t)(u->npods - k - 1));
		if (p->index >= m->s->npods) { /* created for this run, then deleted before it ran */
			m->sum.applied -= u->applied;
			m->sum.scaled -= u->scaled;
		}
		if (--u->npods == 0) {
			memmove(&m->queue[i], &m->queue[i + 1], sizeof *m->queue * (size_t)(m->n - i - 1));
			m->n--;
		}
		return;
	}
}

/* ---- one step ------------------------------------------------------------------------ */

/* The per-pod PostFilter's gates for a pod that names a scheduling group
 * (one predicate, in the engine, for victims and the simulator). */
static const char *postfilter_gate(const pk_sim *m, const pk_pod *p)
{
	return pk_pg_postfilter_gate(m->g, pk_pg_pod_has_group(m->g, p), pk_pg_of_pod(m->g, p)).message;
}

/* not_eligible: not placed because preemption was not tried (NotEligible),
 * counted apart from the unschedulable. */
static void count_outcome(pk_sim *m, pk_sim_outcome o, bool not_eligible, bool resize)
{
	if (resize && o != PK_SIM_UNSCHEDULABLE)
		m->sum.resized++;
	else if (o == PK_SIM_SCHEDULED)
		m->sum.scheduled++;
	else if (o == PK_SIM_NOMINATED)
		m->sum.nominated++;
	else if (not_eligible)
		m->sum.not_eligible++;
	else
		m->sum.unschedulable++;
}

/* ---- a replay's pieces of a step (pk_sim_opts.nominated_first, victims_terminate) ---------- */

/* A pod nominated to a node that passes the filters goes there, as
 * upstream's evaluateNominatedNode binds it without scoring the others. */
static void prefer_nominated_node(const pk_evaluation *e, const pk_pod *p, pk_placement *pl)
{
	if (!*p->nominated_node || (pl->node && strcmp(pl->node->node->name, p->nominated_node) == 0))
		return;
	for (long i = 0; i < e->nnodes; i++)
		if (e->nodes[i].ni && strcmp(e->nodes[i].ni->node->name, p->nominated_node) == 0) {
			if (e->nodes[i].filter && e->nodes[i].filter->code == PK_CODE_SUCCESS) {
				pl->node = e->nodes[i].ni;
				pl->ntop = 1;
			}
			return;
		}
}

static void note_victim(pk_sim *m, pk_pod *v)
{
	for (long i = 0; i < m->nvictims; i++)
		if (m->victims[i].pod == v)
			return; /* already terminating, chosen again */
	size_t cap = (size_t)m->victimcap;
	m->victims = pk_grow(m->victims, &cap, (size_t)m->nvictims + 1, sizeof *m->victims);
	m->victimcap = (long)cap;
	m->victims[m->nvictims++] = (pk_sim_victim){ .pod = v, .node = v->node_name, .was_terminating = v->terminating };
}

/* The victims of a pod's chosen candidate, found on their nodes before
 * pk_snapshot_apply removes them. */
static void collect_pod_victims(pk_sim *m, const pk_evaluation *e)
{
	if (e->best < 0)
		return;
	const pk_candidate *c = &e->candidates[e->best];
	pk_nodeinfo *ni = pk_snapshot_node(m->s, c->node);
	for (int i = 0; ni && i < c->nvictims; i++) {
		const char *at = c->victims[i].node;
		bool here = !at || !*at || at == ni->node->name || strcmp(at, ni->node->name) == 0;
		pk_nodeinfo *vn = here ? ni : pk_snapshot_node(m->s, at);
		pk_pod *v = vn ? pk_nodeinfo_find_pod(vn, &c->victims[i]) : NULL;
		if (v)
			note_victim(m, v);
	}
}

/* A replay's victims do not leave at once: they terminate on their node
 * (deletionTimestamp set, DisruptionTarget) until their grace period is
 * over, taking their room, and the replay deletes them then. The step
 * removed them (pk_snapshot_apply, pk_pg_apply): bound again, terminating. */
static void keep_victims_terminating(pk_sim *m)
{
	for (long i = m->victims_kept; i < m->nvictims; i++) {
		pk_pod *v = m->victims[i].pod;
		const pk_nodeinfo *ni = pk_snapshot_node(m->s, m->victims[i].node);
		bool on_node = false; /* pk_snapshot_delete keeps spec.nodeName: look on the node */
		for (int k = 0; ni && !on_node && k < ni->npods; k++)
			on_node = ni->pods[k] == v;
		if (on_node || !ni)
			continue;
		v->terminating = true;
		v->preemption_target = true;
		pk_snapshot_bind(m->s, v, m->victims[i].node);
	}
	m->victims_kept = m->nvictims;
}

/* The callback sees the step before the state changes, so that records can
 * show the pods as the scheduler found them. */
static void run_pod(pk_sim *m, const pk_sim_unit *u, pk_sim_fn fn, void *ctx)
{
	pk_pod *p = u->pods[0];
	pk_preemptor pre = { .pod = p,
	                     .source = u->recreated ? "Recreated" : u->scaled ? "Scaled" : u->applied ? "Applied" : "Pod",
	                     .resize = u->resize_own != NULL, .resize_own = u->resize_own };
	pk_evaluation e;
	if (!pre.resize)
		note_uid(m, p);
	pk_evaluate(m->s, &pre, &m->opts.eval, &e);
	pk_sim_step st = { .unit = u, .pod_eval = &e, .preemptor = &pre, .outcome = PK_SIM_UNSCHEDULABLE };
	if (e.status == PK_PRE_FITS && pre.resize) {
		st.outcome = PK_SIM_SCHEDULED; /* Permit: the kubelet resizes it where it is, nothing is bound */
	} else if (e.status == PK_PRE_FITS) {
		pk_score_place(m->s, m->scores, p, &e, &st.placement);
		if (m->opts.nominated_first)
			prefer_nominated_node(&e, p, &st.placement);
		st.node = st.placement.node;
		st.outcome = PK_SIM_SCHEDULED;
	} else if (e.pre_enqueue) {
		st.outcome = PK_SIM_UNSCHEDULABLE; /* gated: it waits in the queue, no PostFilter */
	} else if ((st.gate_message = postfilter_gate(m, p)) != NULL) {
		st.outcome = PK_SIM_UNSCHEDULABLE;
	} else if (e.status == PK_PRE_NEEDS_PREEMPTION && e.best >= 0) {
		const pk_candidate *c = &e.candidates[e.best];
		pk_nodeinfo *ni = pk_snapshot_node(m->s, c->node);
		for (int i = 0; ni && m->opts.cascade && i < c->nvictims; i++) {
			/* a disruptionMode-all group's members run on other nodes too */
			const char *at = c->victims[i].node;
			bool here = !at || !*at || at == ni->node->name || strcmp(at, ni->node->name) == 0;
			pk_nodeinfo *vn = here ? ni : pk_snapshot_node(m->s, at);
			pk_pod *v = vn ? pk_nodeinfo_find_pod(vn, &c->victims[i]) : NULL;
			if (v)
				st.requeued += requeue_victim(m, v);
		}
		m->sum.victims += c->nvictims;
		st.outcome = PK_SIM_NOMINATED;
	}
	if (u->recreated && st.outcome == PK_SIM_NOMINATED)
		m->sum.cascading_preemptions++;
	count_outcome(m, st.outcome, st.gate_message || e.status == PK_PRE_NOT_ELIGIBLE, pre.resize);
	fn(ctx, &st);
	if (st.outcome == PK_SIM_NOMINATED && m->opts.victims_terminate)
		collect_pod_victims(m, &e);
	if (st.outcome == PK_SIM_SCHEDULED && st.node)
		pk_snapshot_bind(m->s, p, st.node->node->name);
	else if (!st.gate_message)
		pk_snapshot_apply(m->s, &e);
	keep_victims_terminating(m);
	pk_evaluation_free(&e);
	if (u->chain && st.outcome != PK_SIM_UNSCHEDULABLE && u->chain->next < u->chain->n)
		enqueue_chain_next(m, u->chain);
}

static void run_group(pk_sim *m, const pk_sim_unit *u, pk_sim_fn fn, void *ctx)
{
	pk_pg_evaluation e;
	for (int i = 0; i < u->npods; i++)
		note_uid(m, u->pods[i]);
	pk_pg_evaluate(m->s, m->scores, m->g, u->group, u->pods, u->npods, &e);
	pk_sim_step st = { .unit = u, .group_eval = &e, .outcome = PK_SIM_UNSCHEDULABLE };
	if (e.result == PK_PG_PREEMPT) {
		for (int i = 0; i < e.nvictims; i++)
			st.requeued += requeue_victim(m, e.victims[i]);
		m->sum.victims += e.nvictims;
		st.outcome = PK_SIM_NOMINATED;
	} else if (e.result == PK_PG_NO_PREEMPTION_NEEDED) {
		st.outcome = PK_SIM_SCHEDULED;
	} else if (e.result == PK_PG_PREEMPTION_IN_PROGRESS) {
		st.outcome = PK_SIM_NOMINATED; /* the members wait on their nominated nodes */
	}
	if (u->recreated && e.result == PK_PG_PREEMPT)
		m->sum.cascading_preemptions++;
	count_outcome(m, st.outcome, e.result == PK_PG_NOT_ELIGIBLE, false);
	fn(ctx, &st);
	if (e.result == PK_PG_PREEMPT && m->opts.victims_terminate)
		for (int i = 0; i < e.nvictims; i++)
			note_victim(m, e.victims[i]);
	pk_pg_apply(m->s, &e);
	keep_victims_terminating(m);
	if (e.result == PK_PG_NO_PREEMPTION_NEEDED)
		for (int k = 0; k < e.nmembers; k++)
			if (e.placements[k].node) { /* a CompositePodGroup's members join their PodGroups */
				pk_podgroup *leaf = pk_pg_of_pod(m->g, e.placements[k].pod);
				pk_pg_add_bound(leaf ? leaf : u->group, e.placements[k].pod);
			}
	pk_pg_evaluation_free(&e);
}

bool pk_sim_resizes_left_text(const pk_snapshot *s, const pk_release_profile *rel, const char *ns, char *buf,
                              size_t size)
{
	if (rel->resize_preemption)
		return false;
	pk_pod **rs;
	long n = pk_snapshot_resizes(s, &rs), count = 0;
	const pk_pod *first = NULL;
	for (long i = 0; i < n; i++)
		if (!ns || strcmp(rs[i]->namespace_, ns) == 0) {
			count++;
			first = first ? first : rs[i];
		}
	free(rs);
	if (!count)
		return false;
	char why[240], model[64] = "";
	if (rel->resize_preemption_gate_exists) {
		snprintf(why, sizeof why, "with InPlacePodVerticalScalingSchedulerPreemption off (upstream's default) the "
		         "scheduler does not queue a bound pod");
	} else {
		snprintf(why, sizeof why, "Kubernetes 1.%d's scheduler does not queue a bound pod (scheduler preemption "
		         "for a resize is KEP-5836, alpha in 1.%d)", rel->minor, rel->resize_preemption_since);
		snprintf(model, sizeof model, "--kubernetes-version 1.%d ", rel->resize_preemption_since);
	}
	snprintf(buf, size,
	         "%ld bound pod(s) have an in-place resize the kubelet Deferred (first: %s/%s on node %s): %s, so "
	         "they are not planned: the kubelet keeps each resize Deferred until its node has room, and "
	         "preempts nothing for it; `%s--feature-gates InPlacePodVerticalScalingSchedulerPreemption=true` "
	         "queues them as the alpha does",
	         count, first->namespace_, first->name, first->node_name, why, model);
	return true;
}

/* A Deferred resize's pod is still on its node: an earlier unit may have
 * evicted it (a victim) or an applied object deleted it. */
static bool resize_still_bound(const pk_sim *m, const pk_pod *own)
{
	const pk_nodeinfo *ni = own->terminating || !*own->node_name ? NULL : pk_snapshot_node(m->s, own->node_name);
	for (int i = 0; ni && i < ni->npods; i++)
		if (ni->pods[i] == own)
			return true;
	return false;
}

void pk_sim_run_unit(pk_sim *m, const pk_sim_unit *u, pk_sim_fn fn, void *ctx)
{
	if (u->resize_own && !resize_still_bound(m, u->resize_own))
		return; /* gone before its turn (the plan that evicted or deleted it says so): no resize left */
	m->sum.units++;
	m->sum.pods += u->npods;
	if (u->group) {
		m->sum.pod_groups++;
		run_group(m, u, fn, ctx);
	} else {
		run_pod(m, u, fn, ctx);
	}
}

void pk_sim_run(pk_sim *m, pk_sim_fn fn, void *ctx)
{
	while (m->head < m->n) {
		/* the queue may grow (and move) while a unit runs: work on a copy */
		pk_sim_unit u = m->queue[m->head++];
		pk_sim_run_unit(m, &u, fn, ctx);
	}
}
