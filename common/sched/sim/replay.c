/* The what-if over time; see replay.h. */
#include "sched/sim/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/queue_order.h"

#define NS_PER_S 1000000000LL

const char *pk_replay_event_name(pk_replay_event_kind k)
{
	static const char *const names[] = { "Arrived", "Scheduled", "Nominated", "PreemptionStarted",
	                                     "Evicted", "Completed", "Recreated" };
	return names[k];
}

int pk_replay_grace(const pk_replay *r, int pod_grace)
{
	int g = r->o.grace_period >= 0 ? r->o.grace_period : pod_grace;
	return g < 1 ? 1 : g;
}

/* ---- entries and the pod -> entry index ---------------------------------------- */

static void index_put(pk_replay *r, const pk_pod *p, long v);

static void index_grow(pk_replay *r)
{
	size_t old = r->index.cap, cap = old ? 2 * old : 1024;
	const pk_pod **key = r->index.key;
	long *val = r->index.val;
	r->index.key = pk_xcalloc(cap, sizeof *r->index.key);
	r->index.val = pk_xcalloc(cap, sizeof *r->index.val);
	r->index.cap = cap;
	r->index.n = 0;
	for (size_t i = 0; i < old; i++)
		if (key[i])
			index_put(r, key[i], val[i]);
	free(key);
	free(val);
}

static size_t ptr_slot(const pk_pod *p, size_t cap)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x & (cap - 1);
}

static void index_put(pk_replay *r, const pk_pod *p, long v)
{
	if (2 * (r->index.n + 1) > r->index.cap)
		index_grow(r);
	size_t j = ptr_slot(p, r->index.cap);
	while (r->index.key[j] && r->index.key[j] != p)
		j = (j + 1) & (r->index.cap - 1);
	if (!r->index.key[j])
		r->index.n++;
	r->index.key[j] = p;
	r->index.val[j] = v;
}

static long index_get(const pk_replay *r, const pk_pod *p)
{
	if (!r->index.cap)
		return -1;
	for (size_t j = ptr_slot(p, r->index.cap); r->index.key[j]; j = (j + 1) & (r->index.cap - 1))
		if (r->index.key[j] == p)
			return r->index.val[j];
	return -1;
}

static bool owned_by_controller(const pk_pod *p)
{
	static const char *const kinds[] = { "Job", "ReplicaSet", "StatefulSet", "ReplicationController", "DaemonSet" };
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(p->controller_kind, kinds[i]) == 0)
			return true;
	return false;
}

static long new_entry(pk_replay *r, pk_pod *p)
{
	size_t cap = (size_t)r->podcap;
	r->pods = pk_grow(r->pods, &cap, (size_t)r->npods + 1, sizeof *r->pods);
	r->podcap = (long)cap;
	long k = r->npods++;
	pk_replay_pod *e = &r->pods[k];
	memset(e, 0, sizeof *e);
	e->pod = p;
	e->line = k;
	e->owned = owned_by_controller(p);
	e->arrived = e->scheduled = e->evicted = e->completed = e->preempted = e->leave = e->done = PK_REPLAY_NONE;
	index_put(r, p, k);
	return k;
}

void pk_replay_init(pk_replay *r, pk_sim *m, const pk_replay_opts *o, int *snapshot_grace)
{
	memset(r, 0, sizeof *r);
	r->m = m;
	r->o = *o;
	r->snapshot_grace = snapshot_grace;
}

void pk_replay_free(pk_replay *r)
{
	free(r->pods);
	free(r->index.key);
	free(r->index.val);
	free(r->heap);
	free(r->pending);
	free(r->use);
	free(r->group_first);
	memset(r, 0, sizeof *r);
}

void pk_replay_add(pk_replay *r, pk_pod *p, int64_t arrive, int64_t run, int grace)
{
	long k = new_entry(r, p);
	pk_replay_pod *e = &r->pods[k];
	e->arrived = arrive < r->o.start ? r->o.start : arrive;
	e->run_known = run >= 0;
	e->run = run < 0 ? 0 : run;
	e->grace = pk_replay_grace(r, grace);
	e->state = PK_RP_WAITING;
	p->created = e->arrived * NS_PER_S; /* whole seconds: then namespace/name */
	r->ntrace++;
}

/* ---- the timed events: completions, then evictions, then arrivals ---------------- */

enum { EV_COMPLETE = 0, EV_EVICT = 1, EV_ARRIVE = 2 };

static bool heap_less(const pk_replay *r, long a, long b)
{
	if (r->heap[a].t != r->heap[b].t)
		return r->heap[a].t < r->heap[b].t;
	if (r->heap[a].kind != r->heap[b].kind)
		return r->heap[a].kind < r->heap[b].kind;
	return r->heap[a].entry < r->heap[b].entry;
}

static void heap_swap(pk_replay *r, long a, long b)
{
	__typeof__(*r->heap) x = r->heap[a];
	r->heap[a] = r->heap[b];
	r->heap[b] = x;
}

static void heap_push(pk_replay *r, int64_t t, int kind, long entry)
{
	size_t cap = (size_t)r->heapcap;
	r->heap = pk_grow(r->heap, &cap, (size_t)r->nheap + 1, sizeof *r->heap);
	r->heapcap = (long)cap;
	long i = r->nheap++;
	r->heap[i].t = t;
	r->heap[i].kind = kind;
	r->heap[i].entry = entry;
	while (i > 0 && heap_less(r, i, (i - 1) / 2)) {
		heap_swap(r, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_pop(pk_replay *r)
{
	r->heap[0] = r->heap[--r->nheap];
	for (long i = 0;;) {
		long l = 2 * i + 1, rr = l + 1, m = i;
		if (l < r->nheap && heap_less(r, l, m))
			m = l;
		if (rr < r->nheap && heap_less(r, rr, m))
			m = rr;
		if (m == i)
			break;
		heap_swap(r, i, m);
		i = m;
	}
}

/* ---- pods that arrive or leave on their own --------------------------------------- */

void pk_replay_add_chain(pk_replay *r, pk_sim_chain *c, int64_t arrive)
{
	if (c->next < 1)
		return;
	pk_replay_add(r, c->pods[c->next - 1], arrive, -1, 30);
	r->pods[r->npods - 1].chain = c;
}

/* The chain's next pod, created once the one before it (entry k) is
 * Running and Ready: a second after its bind, on the whole-second clock. */
static void chain_next(pk_replay *r, long k)
{
	pk_sim_chain *c = r->pods[k].chain;
	r->pods[k].chain = NULL;
	if (c->next >= c->n)
		return;
	pk_pod *p = c->pods[c->next++];
	long n = new_entry(r, p);
	pk_replay_pod *e = &r->pods[n];
	e->arrived = r->now + 1;
	e->grace = pk_replay_grace(r, 30);
	e->state = PK_RP_WAITING;
	e->chain = c;
	p->created = e->arrived * NS_PER_S;
	r->ntrace++;
	heap_push(r, e->arrived, EV_ARRIVE, n);
}

void pk_replay_leaves(pk_replay *r, pk_pod *p, int64_t leave)
{
	long k = new_entry(r, p);
	pk_replay_pod *e = &r->pods[k];
	e->from_snapshot = true;
	e->state = PK_RP_TERMINATING;
	e->node = p->node_name;
	if (p->has_start_time)
		e->scheduled = p->start_time / NS_PER_S;
	e->done = leave < r->o.start ? r->o.start : leave;
	heap_push(r, e->done, EV_COMPLETE, k);
}

/* ---- events -------------------------------------------------------------------- */

static void emit(pk_replay *r, pk_replay_event_kind kind, long entry, const char *node, const char *preemptor)
{
	pk_replay_event ev = { .t = r->now, .kind = kind, .pod = &r->pods[entry], .node = node,
	                       .preemptor = preemptor };
	r->fn(r->ctx, &ev);
}

static void push_pending(pk_replay *r, long entry)
{
	size_t cap = (size_t)r->pendingcap;
	r->pending = pk_grow(r->pending, &cap, (size_t)r->npending + 1, sizeof *r->pending);
	r->pendingcap = (long)cap;
	r->pending[r->npending++] = entry;
	r->pods[entry].state = PK_RP_PENDING;
}

/* A controller's new pod for an evicted one: the full run time of its
 * line, named after the line's first pod. */
static void replace(pk_replay *r, long victim)
{
	long line = r->pods[victim].line;
	pk_replay_pod *orig = &r->pods[line];
	int n = ++orig->replacements;
	char name[600], uid[600];
	snprintf(name, sizeof name, "%s-r%d", orig->pod->name, n);
	snprintf(uid, sizeof uid, "%s-r%d", *orig->pod->uid ? orig->pod->uid : orig->pod->name, n);
	pk_pod *p = pk_sim_new_pod(r->m, orig->pod, name, uid);
	p->created = r->now * NS_PER_S;
	pk_sim *m = r->m;
	if (pk_sim_plays_gangs(m) && orig->pod->index >= 0 && orig->pod->index < m->g->npods &&
	    pk_pg_scheduling_group(m->g, orig->pod))
		pk_pg_add_pod(m->g, m->s, p, m->g->pod_group_name[orig->pod->index], NULL, NULL);
	long k = new_entry(r, p);
	pk_replay_pod *e = &r->pods[k], *o = &r->pods[line];
	e->line = line;
	e->replaces = r->pods[victim].pod->name;
	e->owned = true;
	e->run_known = o->run_known;
	e->run = o->run;
	e->grace = o->grace;
	e->arrived = r->now;
	push_pending(r, k);
	emit(r, PK_REPLAY_RECREATED, k, NULL, NULL);
}

static void complete(pk_replay *r, long k)
{
	pk_replay_pod *e = &r->pods[k];
	if ((e->state != PK_RP_RUNNING && e->state != PK_RP_TERMINATING) || e->done != r->now)
		return; /* stale */
	pk_snapshot_delete(r->m->s, e->pod);
	e->state = PK_RP_COMPLETED;
	e->completed = r->now;
	emit(r, PK_REPLAY_COMPLETED, k, e->node, NULL);
}

static void evict(pk_replay *r, long k)
{
	pk_replay_pod *e = &r->pods[k];
	if (e->state != PK_RP_TERMINATING || e->leave != r->now)
		return;
	pk_snapshot_delete(r->m->s, e->pod);
	e->state = PK_RP_EVICTED;
	e->evicted = r->now;
	emit(r, PK_REPLAY_EVICTED, k, e->node, e->preemptor);
	if (e->owned)
		replace(r, k);
}

/* A pod created during the replay (chain_next) joins the queue. */
static void arrive(pk_replay *r, long k)
{
	push_pending(r, k);
	emit(r, PK_REPLAY_ARRIVED, k, NULL, NULL);
}

/* ---- the scheduling pass ------------------------------------------------------- */

typedef struct pass_item {
	pk_sim_unit key;          /* the unit's queue key (pods unset) */
	const pk_podgroup *group;
	long entry;
} pass_item;

static int item_cmp(const void *a, const void *b)
{
	const pass_item *x = a, *y = b;
	int c = pk_sim_unit_cmp(&x->key, &y->key);
	if (c)
		return c;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return (x->entry > y->entry) - (x->entry < y->entry);
}

/* The step's callback: a pod bound now started now (a victim's start
 * time is the instant it was bound), set before the bind orders its node. */
static void on_step(void *ctx, const pk_sim_step *st)
{
	pk_replay *r = ctx;
	for (int i = 0; i < st->unit->npods; i++) {
		st->unit->pods[i]->has_start_time = true;
		st->unit->pods[i]->start_time = r->now * NS_PER_S;
	}
}

static const char *unit_name(pk_replay *r, const pk_sim_unit *u, char *buf, size_t size)
{
	(void)r;
	if (u->group)
		snprintf(buf, size, "%s/%s", u->group->namespace_, u->group->name);
	else
		snprintf(buf, size, "%s/%s", u->pods[0]->namespace_, u->pods[0]->name);
	return buf;
}

/* The victims the unit's step left terminating: each leaves after its
 * grace, or completes first if its run ends by then. */
static void start_preemptions(pk_replay *r, const pk_sim_unit *u)
{
	pk_sim *m = r->m;
	char who[600];
	const char *preemptor = NULL;
	for (long i = 0; i < m->nvictims; i++) {
		if (m->victims[i].was_terminating)
			continue;
		pk_pod *v = m->victims[i].pod;
		long k = index_get(r, v);
		if (k < 0) { /* a pod of the snapshot */
			k = new_entry(r, v);
			pk_replay_pod *s = &r->pods[k];
			s->from_snapshot = true;
			s->state = PK_RP_RUNNING;
			s->node = v->node_name;
			s->grace = pk_replay_grace(r, r->snapshot_grace && v->index >= 0 ? r->snapshot_grace[v->index] : 30);
			if (v->has_start_time)
				s->scheduled = v->start_time / NS_PER_S;
		}
		if (!preemptor) {
			unit_name(r, u, who, sizeof who);
			preemptor = pk_strtab_keep(m->s->strs, who, strlen(who));
		}
		pk_replay_pod *e = &r->pods[k];
		e->state = PK_RP_TERMINATING;
		e->preempted = r->now;
		e->preemptor = preemptor;
		e->leave = r->now + e->grace;
		emit(r, PK_REPLAY_PREEMPTION_STARTED, k, e->node, preemptor);
		if (e->done == PK_REPLAY_NONE || e->done > e->leave)
			heap_push(r, e->leave, EV_EVICT, k);
	}
	m->nvictims = m->victims_kept = 0;
}

/* Each pod of the unit: bound now, or nominated (said when it changes). */
static void note_outcomes(pk_replay *r, const pk_sim_unit *u)
{
	for (int i = 0; i < u->npods; i++) {
		pk_pod *p = u->pods[i];
		long k = index_get(r, p);
		pk_replay_pod *e = &r->pods[k];
		if (*p->node_name) {
			e->state = PK_RP_RUNNING;
			e->scheduled = r->now;
			e->node = p->node_name;
			if (e->run_known) {
				e->done = r->now + (e->run < 1 ? 1 : e->run);
				heap_push(r, e->done, EV_COMPLETE, k);
			}
			emit(r, PK_REPLAY_SCHEDULED, k, e->node, NULL);
			if (e->chain)
				chain_next(r, k);
		} else if (*p->nominated_node && (!e->nominated || strcmp(e->nominated, p->nominated_node) != 0)) {
			e->nominated = p->nominated_node;
			emit(r, PK_REPLAY_NOMINATED, k, e->nominated, NULL);
		} else if (!*p->nominated_node) {
			e->nominated = NULL;
		}
	}
}

/* A group without its own time queues at its earliest pending member's:
 * the minimum per group in one sweep over the items, kept by group index
 * in r->group_first (INT64_MAX between passes). */
static void group_queue_times(pk_replay *r, pass_item *it, long n)
{
	const pk_pg_set *g = r->m->g;
	if (r->ngroup_first < g->n) {
		r->group_first = pk_xrealloc(r->group_first, (size_t)g->n, sizeof *r->group_first);
		for (long k = r->ngroup_first; k < g->n; k++)
			r->group_first[k] = INT64_MAX;
		r->ngroup_first = g->n;
	}
	for (long i = 0; i < n; i++)
		if (it[i].group && !it[i].group->created) {
			long k = it[i].group - g->groups;
			if (it[i].key.created < r->group_first[k])
				r->group_first[k] = it[i].key.created;
		}
	for (long i = 0; i < n; i++)
		if (it[i].group && !it[i].group->created)
			it[i].key.created = r->group_first[it[i].group - g->groups];
	for (long i = 0; i < n; i++)
		if (it[i].group && !it[i].group->created)
			r->group_first[it[i].group - g->groups] = INT64_MAX;
}

/* The queue key of each pending pod's unit: its own, or its PodGroup's
 * (created: the group's, else its earliest member's). */
static pass_item *pass_items(pk_replay *r)
{
	pk_sim *m = r->m;
	bool gangs = pk_sim_plays_gangs(m);
	pass_item *it = pk_xcalloc((size_t)r->npending, sizeof *it);
	for (long i = 0; i < r->npending; i++) {
		pk_pod *p = r->pods[r->pending[i]].pod;
		pk_podgroup *pg = gangs && !pk_pod_gated(p) ? pk_pg_scheduling_group(m->g, p) : NULL;
		it[i].entry = r->pending[i];
		it[i].group = pg;
		it[i].key.pods = NULL;
		it[i].key.group = pg;
		it[i].key.priority = pg ? pg->priority : p->priority;
		it[i].key.created = pg && pg->created ? pg->created : p->created;
	}
	if (gangs)
		group_queue_times(r, it, r->npending);
	return it;
}

static void pass(pk_replay *r)
{
	if (!r->npending)
		return;
	long n = r->npending;
	pass_item *it = pass_items(r);
	/* the unit key reads pods[0] for a pod's name: point it at the pod */
	pk_pod **pods = pk_xmalloc(sizeof *pods * (size_t)n);
	for (long i = 0; i < n; i++) {
		pods[i] = r->pods[it[i].entry].pod;
		it[i].key.pods = &pods[i];
		it[i].key.npods = 1;
	}
	qsort(it, (size_t)n, sizeof *it, item_cmp);
	pk_pod **members = pk_xmalloc(sizeof *members * (size_t)n);
	for (long i = 0; i < n; i++)
		members[i] = r->pods[it[i].entry].pod;
	for (long i = 0; i < n;) {
		long j = i + 1;
		while (it[i].group && j < n && it[j].group == it[i].group)
			j++;
		pk_sim_unit u = it[i].key;
		u.pods = &members[i];
		u.npods = (int)(j - i);
		u.group = (pk_podgroup *)it[i].group;
		u.recreated = r->pods[it[i].entry].replaces != NULL;
		pk_sim_run_unit(r->m, &u, on_step, r);
		r->unit_trials++;
		start_preemptions(r, &u);
		note_outcomes(r, &u);
		i = j;
	}
	long w = 0;
	for (long i = 0; i < r->npending; i++)
		if (r->pods[r->pending[i]].state == PK_RP_PENDING)
			r->pending[w++] = r->pending[i];
	r->npending = w;
	free(members);
	free(pods);
	free(it);
}

/* ---- utilisation ----------------------------------------------------------------- */

static int use_index(pk_replay *r, const char *name)
{
	for (int i = 0; i < r->nuse; i++)
		if (r->use[i].name == name || strcmp(r->use[i].name, name) == 0)
			return i;
	r->use = pk_xrealloc(r->use, (size_t)r->nuse + 1, sizeof *r->use);
	memset(&r->use[r->nuse], 0, sizeof *r->use);
	r->use[r->nuse].name = name;
	return r->nuse++;
}

static void use_init(pk_replay *r)
{
	const pk_snapshot *s = r->m->s;
	use_index(r, "cpu");
	use_index(r, "memory");
	for (long i = 0; i < s->nnodes; i++) {
		const pk_res *a = &s->nodes[i].allocatable;
		r->use[0].allocatable += (double)a->cpu / 1000.0;
		r->use[1].allocatable += (double)a->memory / 1000.0; /* kept in milli-units */
		for (int k = 0; k < a->nscalar; k++) {
			int u = use_index(r, a->scalar[k].name); /* may move r->use */
			r->use[u].allocatable += (double)a->scalar[k].milli / 1000.0;
		}
	}
}

/* The cluster's allocated resources now (terminating pods included). */
static void use_now(const pk_replay *r, double *out)
{
	const pk_snapshot *s = r->m->s;
	for (int u = 0; u < r->nuse; u++)
		out[u] = 0;
	for (long i = 0; i < s->nnodes; i++) {
		const pk_res *q = &s->infos[i].requested;
		out[0] += (double)q->cpu / 1000.0;
		out[1] += (double)q->memory / 1000.0;
		for (int u = 2; u < r->nuse; u++)
			out[u] += (double)pk_res_scalar(q, r->use[u].name) / 1000.0;
	}
}

/* ---- the loop ------------------------------------------------------------------- */

static int arrival_cmp(const void *a, const void *b, void *ctx)
{
	const pk_replay *r = ctx;
	long x = *(const long *)a, y = *(const long *)b;
	int64_t ta = r->pods[x].arrived, tb = r->pods[y].arrived;
	return ta != tb ? (ta > tb) - (ta < tb) : (x > y) - (x < y);
}

void pk_replay_run(pk_replay *r, pk_replay_fn fn, void *ctx)
{
	r->fn = fn;
	r->ctx = ctx;
	long ntrace = 0; /* the entries added to arrive (the snapshot's leaving ones are not) */
	long *arrivals = pk_xmalloc(sizeof *arrivals * (size_t)(r->npods + 1));
	for (long i = 0; i < r->npods; i++)
		if (r->pods[i].state == PK_RP_WAITING)
			arrivals[ntrace++] = i;
	qsort_r(arrivals, (size_t)ntrace, sizeof *arrivals, arrival_cmp, r);
	use_init(r);
	double *alloc = pk_xcalloc((size_t)r->nuse, sizeof *alloc);
	long next = 0;
	r->first = r->now = ntrace ? r->pods[arrivals[0]].arrived : r->o.start;
	if (r->nheap && r->heap[0].t < r->first) /* a snapshot pod leaving before the first arrival */
		r->first = r->now = r->heap[0].t;
	r->end = r->first;
	for (;;) {
		int64_t t = INT64_MAX;
		if (next < ntrace)
			t = r->pods[arrivals[next]].arrived;
		if (r->nheap && r->heap[0].t < t)
			t = r->heap[0].t;
		if (t == INT64_MAX)
			break;
		if (t > r->o.until) {
			r->until_hit = true;
			break;
		}
		if (r->instants >= r->o.max_instants) {
			r->max_instants_hit = true;
			break;
		}
		if (r->instants)
			for (int u = 0; u < r->nuse; u++)
				r->use[u].area += alloc[u] * (double)(t - r->now);
		r->now = r->end = t;
		r->instants++;
		while (r->nheap && r->heap[0].t == t) {
			long k = r->heap[0].entry;
			int kind = r->heap[0].kind;
			heap_pop(r);
			if (kind == EV_COMPLETE)
				complete(r, k);
			else if (kind == EV_EVICT)
				evict(r, k);
			else
				arrive(r, k);
		}
		for (; next < ntrace && r->pods[arrivals[next]].arrived == t; next++) {
			push_pending(r, arrivals[next]);
			emit(r, PK_REPLAY_ARRIVED, arrivals[next], NULL, NULL);
		}
		pass(r);
		use_now(r, alloc);
		for (int u = 0; u < r->nuse; u++)
			if (alloc[u] > r->use[u].peak)
				r->use[u].peak = alloc[u];
		if (r->o.progress)
			r->o.progress(ctx, t, r->instants, r->npending);
	}
	if (r->until_hit && r->o.until > r->end) {
		for (int u = 0; u < r->nuse; u++)
			r->use[u].area += alloc[u] * (double)(r->o.until - r->end);
		r->end = r->o.until;
	}
	free(alloc);
	free(arrivals);
}
