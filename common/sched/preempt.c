/* DefaultPreemption: eligibility, victim units (order, PDB split, reprieve),
 * SelectVictimsOnNode, DryRunPreemption with candidate sampling, node
 * choice, and playing a chosen plan forward. */
#include "engine.h"
#include "interpod.h"
#include "spread.h"
#include "workers.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R_NO_VICTIMS "No preemption victims found for incoming pod"
#define R_NOT_HELPFUL "Preemption is not helpful for scheduling"

/* ---- victim units ---------------------------------------------------------- */

int pk_unit_importance_cmp(const pk_victim_unit *a, const pk_victim_unit *b, int64_t now)
{
	if (!a->is_group && !b->is_group && a->npods == 1 && b->npods == 1)
		return pk_pod_importance_cmp(a->pods[0], b->pods[0], now);
	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	if (a->is_group != b->is_group)
		return a->is_group ? -1 : 1;
	if (a->is_group && a->npods != b->npods)
		return a->npods > b->npods ? -1 : 1;
	if (a->earliest_start != b->earliest_start)
		return a->earliest_start < b->earliest_start ? -1 : 1;
	int c = strcmp(a->pods[0]->namespace_, b->pods[0]->namespace_);
	return c ? c : strcmp(a->pods[0]->name, b->pods[0]->name);
}

/* Insertion-free merge sort keeps this stable and context-carrying. */
static void units_merge_sort(pk_victim_unit *u, pk_victim_unit *tmp, int n, int64_t now)
{
	if (n < 2)
		return;
	int h = n / 2;
	units_merge_sort(u, tmp, h, now);
	units_merge_sort(u + h, tmp, n - h, now);
	int i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = pk_unit_importance_cmp(&u[j], &u[i], now) < 0 ? u[j++] : u[i++];
	while (i < h)
		tmp[k++] = u[i++];
	while (j < n)
		tmp[k++] = u[j++];
	memcpy(u, tmp, sizeof *u * (size_t)n);
}

void pk_units_sort(pk_victim_unit *u, int n, int64_t now)
{
	if (n < 2)
		return;
	/* a node keeps its pods in importance order, so the victims usually
	 * arrive sorted: one pass says so */
	int sorted = 1;
	for (int i = 1; i < n && sorted; i++)
		sorted = pk_unit_importance_cmp(&u[i - 1], &u[i], now) <= 0;
	if (sorted)
		return;
	pk_victim_unit small[64];
	pk_victim_unit *tmp = n <= 64 ? small : malloc(sizeof *tmp * (size_t)n);
	if (!tmp)
		abort();
	units_merge_sort(u, tmp, n, now);
	if (tmp != small)
		free(tmp);
}

static bool pdb_skips_pod(const pk_pdb *b, const pk_pod *p)
{
	for (int i = 0; i < b->ndisrupted; i++)
		if (strcmp(b->disrupted_pods[i], p->name) == 0) /* pod names are not interned */
			return true;
	return false;
}

static bool pdb_matches(const pk_pdb *b, const pk_pod *p)
{
	/* all interned in the snapshot: equal strings are equal pointers */
	return b->namespace_ == p->namespace_ &&
	       (!b->must_key || pk_labels_have_interned(p->labels, b->must_key, b->must_value)) &&
	       pk_selector_matches_labels(&b->selector, p->labels);
}

static void cache_pod_pdbs(const pk_snapshot *s, pk_pod *p);

/* PDBs ordered by namespace, then by the label every pod they select
 * carries (must_value; none first), then index: a pod's PDBs are found
 * among those of its namespace without such a label and those whose label
 * value the pod carries. Namespaces and values are interned: their
 * addresses name them. */
typedef struct pdb_key {
	uintptr_t ns, value;
	int idx;
} pdb_key;

static int pdb_key_cmp(const void *a, const void *b)
{
	const pdb_key *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static pdb_key key_of_pdb(const pk_snapshot *s, int i)
{
	const pk_pdb *b = &s->pdbs[i];
	return (pdb_key){ (uintptr_t)b->namespace_, b->must_key ? (uintptr_t)b->must_value : 0, i };
}

void pk_pdb_index(pk_snapshot *s)
{
	pdb_key *k = malloc(sizeof *k * (size_t)(s->npdbs + 1));
	free(s->pdbs_by_namespace);
	s->pdbs_by_namespace = malloc(sizeof *s->pdbs_by_namespace * (size_t)(s->npdbs + 1));
	if (!k || !s->pdbs_by_namespace)
		abort();
	for (int i = 0; i < s->npdbs; i++)
		k[i] = key_of_pdb(s, i);
	qsort(k, (size_t)s->npdbs, sizeof *k, pdb_key_cmp);
	for (int i = 0; i < s->npdbs; i++)
		s->pdbs_by_namespace[i] = k[i].idx;
	free(k);
}

/* The first position in pdbs_by_namespace at or after (ns, value). */
static int first_pdb_at(const pk_snapshot *s, uintptr_t ns, uintptr_t value)
{
	const int *o = s->pdbs_by_namespace;
	pdb_key want = { ns, value, -1 };
	int lo = 0, hi = s->npdbs;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		pdb_key k = key_of_pdb(s, o[mid]);
		if (pdb_key_cmp(&k, &want) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Add to found[] the PDBs at (ns, value) that select p; false when more
 * than PK_POD_MAX_PDBS do. */
static bool find_pdbs_at(const pk_snapshot *s, const pk_pod *p, uintptr_t value, int16_t *found, int *n)
{
	const int *o = s->pdbs_by_namespace;
	uintptr_t ns = (uintptr_t)p->namespace_;
	for (int k = first_pdb_at(s, ns, value); k < s->npdbs; k++) {
		pdb_key key = key_of_pdb(s, o[k]);
		if (key.ns != ns || key.value != value)
			break;
		if (!pdb_matches(&s->pdbs[o[k]], p))
			continue;
		for (int j = 0; j < *n; j++)
			if (found[j] == o[k])
				goto next; /* a value the pod carries under two keys */
		if (*n == PK_POD_MAX_PDBS || o[k] > INT16_MAX)
			return false;
		found[(*n)++] = (int16_t)o[k];
	next:;
	}
	return true;
}

void pk_pod_match_pdbs(const pk_snapshot *s, pk_pod *p)
{
	if (p->npdbs < 0)
		cache_pod_pdbs(s, p);
}

/* The PDBs that select p, in index order (pk_pod.pdbs). */
static void cache_pod_pdbs(const pk_snapshot *s, pk_pod *p)
{
	int16_t found[PK_POD_MAX_PDBS];
	int n = 0;
	bool ok = find_pdbs_at(s, p, 0, found, &n);
	for (uint32_t i = 0; ok && p->labels && i < p->labels->n; i++)
		ok = find_pdbs_at(s, p, (uintptr_t)pk_labels_pair(p->labels, i)->value, found, &n);
	if (!ok) {
		p->npdbs = PK_POD_MAX_PDBS + 1;   /* rare: scan every time */
		return;
	}
	for (int i = 1; i < n; i++) /* insertion sort of at most four */
		for (int j = i; j > 0 && found[j - 1] > found[j]; j--) {
			int16_t t = found[j];
			found[j] = found[j - 1];
			found[j - 1] = t;
		}
	memcpy(p->pdbs, found, sizeof *found * (size_t)n);
	p->npdbs = (int8_t)n;
}

/* The budget left of PDB i in this split: budgets are fresh per call, and
 * only the few PDBs that the units' pods match are ever touched, so they are
 * looked up in a short list rather than copied for every PDB per node. */
typedef struct budget {
	int idx[64];
	int32_t left[64];
	int n;
	int32_t *all;       /* every PDB's budget, when the short list overflows */
} budget;

static int32_t *budget_of(budget *b, const pk_snapshot *s, int i)
{
	if (b->all)
		return &b->all[i];
	for (int k = 0; k < b->n; k++)
		if (b->idx[k] == i)
			return &b->left[k];
	if (b->n < 64) {
		b->idx[b->n] = i;
		b->left[b->n] = s->pdbs[i].disruptions_allowed;
		return &b->left[b->n++];
	}
	b->all = malloc(sizeof *b->all * (size_t)s->npdbs);
	if (!b->all)
		abort();
	for (int k = 0; k < s->npdbs; k++)
		b->all[k] = s->pdbs[k].disruptions_allowed;
	for (int k = 0; k < b->n; k++)
		b->all[b->idx[k]] = b->left[k];
	return &b->all[i];
}

void pk_units_pdb_split(const pk_snapshot *s, pk_victim_unit *u, int n)
{
	budget b;
	b.n = 0;
	b.all = NULL;
	for (int k = 0; k < n; k++) {
		u[k].violating = false;
		for (int m = 0; m < u[k].npods; m++) {
			pk_pod *p = u[k].pods[m];
			if (p->npdbs < 0)
				cache_pod_pdbs(s, p);
			if (p->npdbs <= PK_POD_MAX_PDBS) {
				for (int j = 0; j < p->npdbs; j++) {
					const pk_pdb *pdb = &s->pdbs[p->pdbs[j]];
					if (!pdb_skips_pod(pdb, p) && --*budget_of(&b, s, p->pdbs[j]) < 0)
						u[k].violating = true;
				}
				continue;
			}
			for (int i = 0; i < s->npdbs; i++) {
				const pk_pdb *pdb = &s->pdbs[i];
				if (pdb_matches(pdb, p) && !pdb_skips_pod(pdb, p) && --*budget_of(&b, s, i) < 0)
					u[k].violating = true;
			}
		}
	}
	free(b.all);
}

static int reprieve_group(pk_victim_unit *u, int n, bool violating, pk_fit_fn fits,
                          pk_unit_apply_fn apply, void *ctx, int *victims_out, int nv, int *violations)
{
	for (int k = 0; k < n; k++) {
		if (u[k].violating != violating)
			continue;
		apply(ctx, &u[k], true);
		if (fits(ctx))
			continue;
		apply(ctx, &u[k], false);
		victims_out[nv++] = k;
		if (violating)
			(*violations)++;
	}
	return nv;
}

int pk_units_reprieve(pk_victim_unit *u, int n, pk_fit_fn fits, pk_unit_apply_fn apply, void *ctx,
                      int *victims_out, int *violations)
{
	*violations = 0;
	int nv = reprieve_group(u, n, true, fits, apply, ctx, victims_out, 0, violations);
	return reprieve_group(u, n, false, fits, apply, ctx, victims_out, nv, violations);
}

/* ---- SelectVictimsOnNode --------------------------------------------------- */

typedef struct node_ctx {
	pk_snapshot *s;
	const pk_pod *preemptor;
	pk_nodeinfo *ni;
	pk_status last;
} node_ctx;

static bool node_fits(void *c)
{
	node_ctx *x = c;
	/* pk_select_victims_on_node checked the node-only filters once */
	x->last = pk_run_pod_filters_with_nominated(x->s, x->preemptor, x->ni);
	return x->last.code == PK_CODE_SUCCESS;
}

/* Add or remove a pod on the node under evaluation, with the filter
 * state's AddPod/RemovePod extension. */
static void node_pod(pk_snapshot *s, pk_nodeinfo *ni, pk_pod *p, bool add)
{
	if (add)
		pk_nodeinfo_add_pod(ni, p);
	else
		pk_nodeinfo_remove_pod(ni, p);
	pk_prefilter_update(s, p, ni->node, add ? 1 : -1);
}

static void node_apply(void *c, const pk_victim_unit *u, bool add)
{
	node_ctx *x = c;
	for (int i = 0; i < u->npods; i++)
		node_pod(x->s, x->ni, u->pods[i], add);
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

typedef struct sums {
	int64_t pods, cpu, memory, ephemeral;
} sums;

static bool arithmetic_applies(const pk_snapshot *s, const pk_pod *preemptor)
{
	return preemptor->con->nports == 0 && preemptor->requests.nscalar == 0 && !s->interpod && !s->spread;
}

static void sums_add(sums *t, const pk_pod *p, int sign)
{
	t->pods += sign;
	t->cpu += sign * p->requests.cpu;
	t->memory += sign * p->requests.memory;
	t->ephemeral += sign * p->requests.ephemeral;
}

/* What the node holds, nominated pods of equal or higher priority included
 * (RunFilterPluginsWithNominatedPods; without pod affinity its second pass
 * without them cannot fail when the first passed). */
static sums node_sums(const pk_nodeinfo *ni, const pk_pod *preemptor)
{
	sums t = { ni->npods, ni->requested.cpu, ni->requested.memory, ni->requested.ephemeral };
	for (int i = 0; i < ni->nnominated; i++) {
		const pk_pod *q = ni->nominated[i];
		if (q == preemptor || (*q->uid && strcmp(q->uid, preemptor->uid) == 0) || q->priority < preemptor->priority)
			continue;
		sums_add(&t, q, 1);
	}
	return t;
}

static pk_status fit_sums(const pk_pod *preemptor, const pk_nodeinfo *ni, const sums *t)
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
		cache_pod_pdbs(s, p);
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
				if ((pdb->ndisrupted == 0 || !pdb_skips_pod(pdb, ni->pods[k])) &&
				    --*budget_of(&b, s, sl->pdbs[j]) < 0)
					v = true;
			}
		} else {
			for (int i = 0; i < s->npdbs; i++) {
				const pk_pdb *pdb = &s->pdbs[i];
				if (pdb_matches(pdb, ni->pods[k]) && !pdb_skips_pod(pdb, ni->pods[k]) &&
				    --*budget_of(&b, s, i) < 0)
					v = true;
			}
		}
		violating[k - from] = v;
	}
	free(b.all);
}

/* ---- the lower-priority tail of a node ------------------------------------- */

/* The pods a preemptor of some priority may evict from a node: those of
 * lower priority, the end of the node's list (kept in importance order).
 * What SelectVictimsOnNode needs of them before it looks at the preemptor's
 * requests depends only on the node's pods and the PDBs (their budgets do
 * not change while the snapshot is played forward), so the simulator keeps
 * it per node in its memo, valid while the node's generation holds and for
 * every preemptor priority in (lo, hi]. */
typedef struct pk_tail {
	bool known;
	uint64_t generation;      /* the node's when worked out */
	int from;                 /* first pod of the tail; npods = none */
	int64_t lo, hi;           /* the priorities it serves: lo < p <= hi */
	sums total;               /* the tail's requests, summed */
	bool *violating;          /* per tail pod: its eviction would violate a
	                           * PDB (pk_units_pdb_split, one pod a unit) */
	int *order;               /* the reprieve's order: the violating pods,
	                           * then the others, each in the node's order */
	int cap;                  /* of violating and order */
} pk_tail;

static bool tail_serves(const pk_tail *t, const pk_nodeinfo *ni, int32_t priority)
{
	return t->known && t->generation == ni->generation && t->lo < priority && priority <= t->hi;
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
		t->violating = malloc((size_t)t->cap);
		t->order = malloc(sizeof *t->order * (size_t)t->cap);
		if (!t->violating || !t->order)
			abort();
	}
	if (n)
		slots_pdb_split(s, ni, from, t->violating);
	int w = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < n; k++)
			if (t->violating[k] == (pass == 0))
				t->order[w++] = k;
}

static void tail_free(pk_tail *t)
{
	free(t->violating);
	free(t->order);
}

/* What may sit on a node beside the preemptor: NodeResourcesFit passes
 * while the node's pods stay within these (pk_fits_basic's arithmetic,
 * turned around so that the reprieve loop compares sums only). */
typedef struct room {
	int64_t pods_milli, cpu, memory, ephemeral;
} room;

static int64_t room_for(int64_t request, int64_t allocatable, bool no_requests)
{
	return no_requests || request <= 0 ? INT64_MAX : allocatable - request;
}

static room room_beside(const pk_pod *preemptor, const pk_node *n)
{
	const pk_res *al = &n->allocatable, *p = &preemptor->requests;
	bool none = pk_res_is_zero(p);
	return (room){ al->pods - 1000, room_for(p->cpu, al->cpu, none), room_for(p->memory, al->memory, none),
	               room_for(p->ephemeral, al->ephemeral, none) };
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

/* SelectVictimsOnNode on the arithmetic path, for the tail t of the node
 * (those of lower priority). The node keeps its pods in importance order,
 * so that tail is already sorted as the reprieve needs it; everything is
 * read from the slots. */
static pk_status select_victims_by_sums(pk_snapshot *s, const pk_pod *preemptor, pk_nodeinfo *ni,
                                        const pk_tail *t, pk_arena *arena, pk_candidate *out, bool fill)
{
	pk_status st;
	int from = t->from, n = ni->npods - from;
	sums left = node_sums(ni, preemptor);
	left.pods -= t->total.pods;
	left.cpu -= t->total.cpu;
	left.memory -= t->total.memory;
	left.ephemeral -= t->total.ephemeral;
	room r = room_beside(preemptor, ni->node);
	if (!within(&r, &left))
		return fit_sums(preemptor, ni, &left);

	enum { SMALL = 256 };
	bool small[SMALL];
	bool *victim = n <= SMALL ? small : malloc((size_t)n);
	if (!victim)
		abort();
	int violations;
	int nv = reprieve_slots(&ni->slots[from], t, n, &r, &left, victim, &violations, out);
	if (nv == 0) {
		if (victim != small)
			free(victim);
		/* Without an arena (a dry-run thread, which must not touch the
		 * string table) the reason is left out: the caller asks again. */
		pk_status_set(&st, PK_CODE_ERROR, "DefaultPreemption", NULL);
		if (arena) {
			char buf[600];
			snprintf(buf, sizeof buf, "expected at least one victim pod on node \"%s\"", ni->node->name);
			pk_status_add_reason(&st, pk_intern(s->strs, buf));
		}
		return st;
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

/* fill: whether to list the victims (the general path always does). */
/* fill: whether to list the victims (the general path always does).
 * tail: the memo's entry for the node, or NULL. static_passed: the
 * node-only filters are known to pass (the filter pass said Unschedulable). */
static pk_status select_victims(pk_snapshot *s, const pk_pod *preemptor, pk_nodeinfo *ni, pk_arena *arena,
                                pk_candidate *out, bool fill, pk_tail *tail, bool static_passed)
{
	pk_status st;
	memset(out, 0, sizeof *out);
	out->node = ni->node->name;
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
	if (arithmetic_applies(s, preemptor)) {
		pk_tail scratch = {0};
		pk_tail *t = tail ? tail : &scratch;
		if (!tail_serves(t, ni, preemptor->priority))
			tail_compute(s, ni, preemptor->priority, t);
		st = select_victims_by_sums(s, preemptor, ni, t, arena, out, fill);
		tail_free(&scratch);
		return st;
	}
	enum { SMALL = 64 };
	pk_victim_unit units_small[SMALL];
	pk_pod *pods_small[SMALL];
	int picked_small[SMALL];
	bool big = n > SMALL;
	pk_victim_unit *units = big ? malloc(sizeof *units * (size_t)n) : units_small;
	pk_pod **pods = big ? malloc(sizeof *pods * (size_t)n) : pods_small;
	int *picked = big ? malloc(sizeof *picked * (size_t)n) : picked_small;
	if (!units || !pods || !picked)
		abort();
	for (int k = 0; k < n; k++)
		pods[k] = ni->pods[from + k];
	for (int i = 0; i < n; i++) {
		units[i] = (pk_victim_unit){ .pods = &pods[i], .npods = 1, .priority = pods[i]->priority,
		                             .earliest_start = pods[i]->has_start_time ? pods[i]->start_time : s->now };
		node_pod(s, ni, pods[i], false);
	}
	node_ctx ctx = { s, preemptor, ni, {0} };
	if (!node_fits(&ctx)) {
		st = ctx.last;
		for (int i = 0; i < n; i++)
			node_pod(s, ni, pods[i], true);
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
	pk_victim_unit *vu = big ? malloc(sizeof *vu * (size_t)(nv ? nv : 1)) : vu_small;
	if (!vu)
		abort();
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
		node_pod(s, ni, vu[i].pods[0], true);
	if (big) {
		free(vu);
		free(units);
		free(pods);
		free(picked);
	}
	if (nv == 0) {
		char buf[600];
		snprintf(buf, sizeof buf, "expected at least one victim pod on node \"%s\"", ni->node->name);
		pk_status_set(&st, PK_CODE_ERROR, "DefaultPreemption", pk_intern(s->strs, buf));
		return st;
	}
	pk_status_set(&st, PK_CODE_SUCCESS, NULL, NULL);
	return st;
}

pk_status pk_select_victims_on_node(pk_snapshot *s, const pk_pod *preemptor, pk_nodeinfo *ni,
                                    pk_arena *arena, pk_candidate *out)
{
	return select_victims(s, preemptor, ni, arena, out, true, NULL, false);
}

/* ---- eligibility ----------------------------------------------------------- */

bool pk_pod_eligible_to_preempt(pk_snapshot *s, const pk_pod *p, const char **why)
{
	*why = "";
	if (p->policy == PK_PREEMPT_NEVER) {
		*why = "not eligible due to preemptionPolicy=Never.";
		return false;
	}
	if (!*p->nominated_node)
		return true;
	pk_nodeinfo *ni = pk_snapshot_node(s, p->nominated_node);
	if (!ni)
		return true; /* absent node: UnschedulableAndUnresolvable */
	pk_status st = pk_run_filters_with_nominated(s, p, ni);
	if (st.code == PK_CODE_UNSCHEDULABLE_UNRESOLVABLE)
		return true;
	for (int i = 0; i < ni->npods; i++) {
		const pk_pod *q = ni->pods[i];
		if (q->priority < p->priority && q->terminating && q->preemption_target) {
			*why = "not eligible due to a terminating pod on the nominated node.";
			return false;
		}
	}
	return true;
}

/* ---- FitError -------------------------------------------------------------- */

typedef struct reason_count {
	const char *reason;
	long count;
	char text[320];
} reason_count;

static int text_cmp(const void *a, const void *b)
{
	return strcmp(((const reason_count *)a)->text, ((const reason_count *)b)->text);
}

/* The FitError text from statuses, each counted weight[i] times (1 when
 * weight is NULL). */
static char *fit_error_weighted(pk_arena *a, long nnodes, const pk_status *const *statuses, const long *weight,
                                long n)
{
	enum { MAXR = 64 };
	reason_count rc[MAXR];
	int nr = 0;
	for (long i = 0; i < n; i++) {
		const pk_status *st = statuses[i];
		for (int r = 0; st && r < st->nreasons; r++) {
			/* reasons are constants or interned: pointers first */
			int j = 0;
			while (j < nr && rc[j].reason != st->reasons[r])
				j++;
			for (int k = 0; j == nr && k < nr; k++)
				if (strcmp(rc[k].reason, st->reasons[r]) == 0)
					j = k;
			if (j == nr) {
				if (nr == MAXR)
					continue;
				rc[nr].reason = st->reasons[r];
				rc[nr].count = 0;
				nr++;
			}
			rc[j].count += weight ? weight[i] : 1;
		}
	}
	size_t len = 64;
	for (int j = 0; j < nr; j++) {
		snprintf(rc[j].text, sizeof rc[j].text, "%ld %s", rc[j].count, rc[j].reason);
		len += strlen(rc[j].text) + 2;
	}
	qsort(rc, (size_t)nr, sizeof *rc, text_cmp);
	char *out = pk_arena_alloc(a, len);
	size_t w = (size_t)snprintf(out, len, "0/%ld nodes are available", nnodes);
	for (int j = 0; j < nr; j++)
		w += (size_t)snprintf(out + w, len - w, "%s%s", j ? ", " : ": ", rc[j].text);
	snprintf(out + w, len - w, ".");
	return out;
}

char *pk_fit_error_message(pk_arena *a, long nnodes, const pk_status *const *statuses, long n)
{
	return fit_error_weighted(a, nnodes, statuses, NULL, n);
}

/* ---- node choice ----------------------------------------------------------- */

void pk_candidate_summarize(pk_candidate *c)
{
	c->top_priority = c->nvictims ? c->victims[0].priority : INT32_MIN;
	c->priority_sum = 0;
	c->top_start = INT64_MAX;
	c->top_unstarted = false;
	for (int i = 0; i < c->nvictims; i++) {
		const pk_victim_ref *v = &c->victims[i];
		c->priority_sum += (int64_t)v->priority + INT32_MAX + 1;
		if (v->priority != c->top_priority)
			continue;
		if (!v->has_start_time)
			c->top_unstarted = true;
		else if (v->start_time < c->top_start)
			c->top_start = v->start_time;
	}
	c->summarized = true;
}

/* The earliest start among the highest-priority victims (unset = now). */
static int64_t earliest_top_start(const pk_candidate *c, int64_t now)
{
	return c->top_unstarted && now < c->top_start ? now : c->top_start;
}

/* The criteria of pickOneNodeForPreemption, in upstream's order. */
static const char *const pick_criteria[] = {
	"the only candidate",
	"fewest PDB violations",
	"lowest highest-victim priority",
	"smallest priority sum",
	"fewest victims",
	"latest start of the highest-priority victims",
	"node name (upstream: map order)",
};

/* What pickOneNodeForPreemption compares of a candidate, in its order. */
typedef struct pick_key {
	int num_pdb_violations;
	int32_t top_priority;
	int64_t priority_sum;     /* sum of (priority + MaxInt32 + 1): every term
	                           * positive; fits in int64 for 2^31 victims */
	int nvictims;
	int64_t top_start;        /* earliest_top_start: the later the better */
	const char *node;
} pick_key;

static pick_key pick_key_of(const pk_candidate *c, int64_t now)
{
	return (pick_key){ c->num_pdb_violations, c->top_priority, c->priority_sum, c->nvictims,
	                   earliest_top_start(c, now), c->node };
}

/* <0 if a is the better node; *criterion is the index in pick_criteria of
 * the first criterion that tells them apart. */
static int pick_key_cmp(const pick_key *a, const pick_key *b, int *criterion)
{
	*criterion = 1;
	if (a->num_pdb_violations != b->num_pdb_violations)
		return a->num_pdb_violations < b->num_pdb_violations ? -1 : 1;
	*criterion = 2;
	if (a->top_priority != b->top_priority)
		return a->top_priority < b->top_priority ? -1 : 1;
	*criterion = 3;
	if (a->priority_sum != b->priority_sum)
		return a->priority_sum < b->priority_sum ? -1 : 1;
	*criterion = 4;
	if (a->nvictims != b->nvictims)
		return a->nvictims < b->nvictims ? -1 : 1;
	*criterion = 5;
	if (a->top_start != b->top_start)
		return a->top_start > b->top_start ? -1 : 1;
	*criterion = 6;
	return strcmp(a->node, b->node);
}

static int candidate_cmp(const pk_candidate *a, const pk_candidate *b, int64_t now, int *criterion)
{
	pick_key x = pick_key_of(a, now), y = pick_key_of(b, now);
	return pick_key_cmp(&x, &y, criterion);
}

/* c itself, or a summarized copy in tmp when it was built by hand. */
static const pk_candidate *summarized(const pk_candidate *c, pk_candidate *tmp)
{
	if (c->summarized)
		return c;
	*tmp = *c;
	pk_candidate_summarize(tmp);
	return tmp;
}

int pk_pick_one_node_why(const pk_candidate *c, int n, int64_t now, const char **decided_by)
{
	*decided_by = NULL;
	if (n <= 0)
		return -1;
	int best = 0, criterion;
	pk_candidate ti, tb;
	for (int i = 1; i < n; i++)
		if (candidate_cmp(summarized(&c[i], &ti), summarized(&c[best], &tb), now, &criterion) < 0)
			best = i;
	/* Upstream narrows the set criterion by criterion; the last other
	 * candidate drops out at the latest criterion that separates it. */
	int decided = 0;
	for (int i = 0; i < n; i++) {
		if (i == best)
			continue;
		candidate_cmp(summarized(&c[best], &tb), summarized(&c[i], &ti), now, &criterion);
		if (criterion > decided)
			decided = criterion;
	}
	*decided_by = pick_criteria[decided];
	return best;
}

int pk_pick_one_node(const pk_candidate *c, int n, int64_t now)
{
	const char *why;
	return pk_pick_one_node_why(c, n, now, &why);
}

pk_group_gate pk_postfilter_group_gate(const pk_group_gate_in *in)
{
	pk_group_gate g = { NULL, NULL };
	if (!in->generic_workload || !in->has_group)
		return g;
	if (in->topology_aware && !in->group_found) {
		g.message = "preemption: pod group for pod not found";
		g.gate = "TopologyAwareWorkloadScheduling";
	} else if (in->topology_aware && in->group_has_constraints) {
		g.message = "preemption: not eligible due to placement-based pod group scheduling limitation";
		g.gate = "TopologyAwareWorkloadScheduling";
	} else if (in->workload_aware_preemption) {
		g.message = "preemption: not eligible due to workload aware preemption enabled";
		g.gate = "WorkloadAwarePreemption";
	}
	return g;
}

long pk_num_candidates(long n, int pct, int abs)
{
	long k = n * pct / 100;
	if (k < abs)
		k = abs;
	if (k > n)
		k = n;
	return k;
}

/* ---- evaluation ------------------------------------------------------------ */

void pk_eval_opts_default(pk_eval_opts *o)
{
	memset(o, 0, sizeof *o);
	o->min_candidate_nodes_percentage = 10;
	o->min_candidate_nodes_absolute = 100;
}

const char *pk_pre_status_name(pk_pre_status s)
{
	switch (s) {
	case PK_PRE_NOT_ELIGIBLE: return "NotEligible";
	case PK_PRE_FITS: return "FitsWithoutPreemption";
	case PK_PRE_NEEDS_PREEMPTION: return "NeedsPreemption";
	case PK_PRE_UNSCHEDULABLE: return "Unschedulable";
	}
	return "Unknown";
}

static const pk_status not_helpful = {
	.code = PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, .plugin = "DefaultPreemption",
	.nreasons = 1, .reasons = { R_NOT_HELPFUL },
};

/* The FitError of the scheduling cycle's filter pass. */
static const char *filter_message(pk_evaluation *e)
{
	if (e->nnodes == 0)
		return "no nodes available to schedule pods";
	const pk_status **st = malloc(sizeof *st * (size_t)e->nnodes);
	if (!st)
		abort();
	for (long i = 0; i < e->nnodes; i++)
		st[i] = e->nodes[i].filter;
	const char *m = pk_fit_error_message(&e->arena, e->nnodes, st, e->nnodes);
	free(st);
	return m;
}

/* "<filter FitError> preemption: <preemption message>" as the scheduler's
 * FailedScheduling event shows it. */
static const char *event_message(pk_evaluation *e, const char *filter, const char *preemption)
{
	size_t len = strlen(filter) + strlen(preemption) + 16;
	char *out = pk_arena_alloc(&e->arena, len);
	snprintf(out, len, "%s preemption: %s", filter, preemption);
	return out;
}

/* Ask for a node's slots before its turn: each node's are a separate
 * allocation, and victim selection reads them from the end. */
static void prefetch_slots(const pk_nodeinfo *ni)
{
	const char *p = (const char *)ni->slots, *e = p + sizeof *ni->slots * (size_t)ni->npods;
	for (; p < e; p += 64)
		__builtin_prefetch(p);
}

/* ---- statuses by reference -------------------------------------------------- */

/* A status for an evaluation's node table: the shared success, or a copy in
 * the evaluation's arena. */
static const pk_status *keep_status(pk_arena *a, const pk_status *st)
{
	if (st->code == PK_CODE_SUCCESS && st->nreasons == 0 && !st->plugin)
		return &pk_status_success;
	pk_status *c = pk_arena_alloc(a, sizeof *c);
	*c = *st;
	return c;
}

/* ---- memo across evaluations ------------------------------------------------- */

/* What node choice reads of a candidate that lists no victims: its key,
 * and the two fields the key folds into one. */
typedef struct memo_cand {
	pick_key key;
	bool top_unstarted;
	int64_t top_start;
} memo_cand;

typedef struct memo_entry {
	uint64_t generation;      /* the node's when computed */
	uint64_t shape;           /* the memo's shape id when computed; 0 = never */
	const pk_status *filter;  /* interned in the memo */
	const pk_status *dry;     /* NULL until the dry run is known */
	memo_cand cand;
	uint64_t twin_in;         /* the evaluation in which a pod with the
	                           * preemptor's uid was nominated here */
} memo_entry;

/* The distinct statuses the memo's entries point to: a few per shape
 * ("Insufficient cpu", ...), each stored once for the memo's life. */
typedef struct status_set {
	pk_status **slot;
	size_t cap, n;
	pk_arena arena;
} status_set;

/* ---- the last shape's evaluation, kept up to date ------------------------------ */

/* Replicas of one template follow each other in the queue, and each
 * decision changes a node or two. Rather than visit every node's memo entry
 * per decision, the memo keeps the whole evaluation of its shape: per-node
 * statuses as an evaluation lists them, the counts, how often each filter
 * status occurs (for the FitError text), and the candidates in a heap
 * ordered as pickOneNodeForPreemption orders them. Only the nodes whose
 * generation moved are evaluated again. Its one owner is the memo; it is
 * valid for one shape (pk_eval_memo.shape) and, per node, while the node's
 * generation is the one it saw. */
typedef struct status_count {
	const pk_status *st;      /* interned in the memo */
	long n;
} status_count;

typedef struct pk_session {
	uint64_t shape;           /* the memo shape it holds; 0 = none */
	long nnodes;
	pk_node_eval *nodes;      /* lent to the evaluations, dry set as below */
	const pk_status **dry;    /* per node: SelectVictimsOnNode's status, NULL
	                           * when not potential */
	bool dry_shown;           /* nodes[].dry is dry[] (else all NULL) */
	uint64_t *seen;           /* per node: the generation nodes[i] reflects */
	long nfit, npotential;
	status_count *counts;     /* filter statuses and how many nodes have each */
	int ncounts, countcap;
	int *heap;                /* candidate nodes, the best first once built */
	int nheap;
	bool heap_built;          /* heap order holds (else a list: a shape seen
	                           * once pays no heap, see session_sync) */
	int first, second;        /* without the heap: the best two, or -1 */
	/* Dry runs are done only when a decision needs them (a pod that fits
	 * needs none): the potential nodes whose dry run is owed. */
	bool all_owed;            /* every potential node (after a reset) */
	int *owed;
	int nowed;
	bool *is_owed;            /* per node: in owed */
	int *at;                  /* per node: its place in heap, or -1 */
	long shown_best;          /* the node whose candidate is 0 (the last pick), or -1 */
} pk_session;

/* A node's verdict of the node-only filters for one static shape (nodes
 * do not change while the snapshot is played forward). */
typedef struct static_entry {
	uint64_t shape;           /* the memo's static_shape when worked out; 0 = never */
	const pk_status *st;
} static_entry;

struct pk_eval_memo {
	memo_entry *nodes;
	pk_tail *tails;           /* per node, whatever the shape */
	static_entry *statics;    /* per node, for static_shape */
	long nnodes;
	uint64_t static_shape;    /* id of the last preemptor's tolerations and node selection */
	/* NodeResourcesFit's status by the set of checks that failed (fit_failures):
	 * a handful of distinct values, worked out once each. */
	const pk_status *fit_status[32];
	/* The last preemptor it served, as it was then: binding or nominating
	 * it changes the pod afterwards. The arrays it points to do not change. */
	pk_pod last;
	bool has_last;
	uint64_t shape, next_shape;
	uint64_t evaluation;      /* counts memo_begin calls, from 1 */
	status_set statuses;
	/* No two pods the simulator may nominate share a uid (it says so,
	 * pk_eval_memo_uids_unique): no node can hide a twin of the preemptor,
	 * and the uid comparisons are skipped. */
	bool uids_unique;
	pk_session session;
	pk_workers *workers;      /* the dry runs' threads, started on first need */
	bool workers_tried;
};

static void session_free(pk_session *x)
{
	free(x->nodes);
	free(x->dry);
	free(x->seen);
	free(x->counts);
	free(x->heap);
	free(x->at);
	free(x->owed);
	free(x->is_owed);
	memset(x, 0, sizeof *x);
}

void pk_eval_memo_uids_unique(pk_eval_memo *m, bool unique)
{
	if (m)
		m->uids_unique = unique;
}

static void free_tails(pk_eval_memo *m)
{
	for (long i = 0; m->tails && i < m->nnodes; i++)
		tail_free(&m->tails[i]);
	free(m->tails);
	free(m->nodes);
	free(m->statics);
	m->tails = NULL;
	m->nodes = NULL;
	m->statics = NULL;
}

pk_eval_memo *pk_eval_memo_new(void)
{
	pk_eval_memo *m = calloc(1, sizeof *m);
	if (!m)
		abort();
	pk_arena_init(&m->statuses.arena);
	return m;
}

void pk_eval_memo_free(pk_eval_memo *m)
{
	if (!m)
		return;
	pk_workers_free(m->workers);
	free_tails(m);
	session_free(&m->session);
	free(m->statuses.slot);
	pk_arena_free(&m->statuses.arena);
	free(m);
}

/* Reasons and plugins are constants or interned: pointers identify them
 * (equal texts at two addresses only cost a second copy). */
static size_t status_hash(const pk_status *st)
{
	uint64_t h = (uint64_t)st->code * 0x9e3779b97f4a7c15u ^ (uintptr_t)st->plugin;
	for (int i = 0; i < st->nreasons; i++)
		h = (h ^ (uintptr_t)st->reasons[i]) * 0x100000001b3u;
	return (size_t)(h ^ h >> 29);
}

static bool status_same(const pk_status *a, const pk_status *b)
{
	if (a->code != b->code || a->plugin != b->plugin || a->nreasons != b->nreasons)
		return false;
	for (int i = 0; i < a->nreasons; i++)
		if (a->reasons[i] != b->reasons[i])
			return false;
	return true;
}

static void status_set_grow(status_set *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	pk_status **slot = calloc(cap, sizeof *slot);
	if (!slot)
		abort();
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slot[i])
			continue;
		size_t j = status_hash(t->slot[i]) & (cap - 1);
		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
}

static const pk_status *memo_status(pk_eval_memo *m, const pk_status *st)
{
	if (st->code == PK_CODE_SUCCESS && st->nreasons == 0 && !st->plugin)
		return &pk_status_success;
	status_set *t = &m->statuses;
	if (2 * (t->n + 1) > t->cap)
		status_set_grow(t);
	size_t j = status_hash(st) & (t->cap - 1);
	for (; t->slot[j]; j = (j + 1) & (t->cap - 1))
		if (status_same(t->slot[j], st))
			return t->slot[j];
	pk_status *c = pk_arena_alloc(&t->arena, sizeof *c);
	*c = *st;
	t->slot[j] = c;
	t->n++;
	return c;
}

static void memo_cand_store(memo_cand *mc, const pk_candidate *c, int64_t now)
{
	*mc = (memo_cand){ pick_key_of(c, now), c->top_unstarted, c->top_start };
}

static void memo_cand_load(pk_candidate *c, const memo_cand *mc)
{
	const pick_key *k = &mc->key;
	*c = (pk_candidate){ .node = k->node, .nvictims = k->nvictims, .num_pdb_violations = k->num_pdb_violations,
	                     .top_priority = k->top_priority, .priority_sum = k->priority_sum,
	                     .top_start = mc->top_start, .top_unstarted = mc->top_unstarted, .summarized = true };
}

static bool same_str(const char *a, const char *b)
{
	return a == b || strcmp(a, b) == 0;
}

static bool same_tolerations(const pk_pod *a, const pk_pod *b)
{
	if (a->ntolerations != b->ntolerations)
		return false;
	for (int i = 0; i < a->ntolerations; i++) {
		const pk_toleration *x = &a->tolerations[i], *y = &b->tolerations[i];
		if (x->op != y->op || x->effect != y->effect || !same_str(x->key, y->key) || !same_str(x->value, y->value))
			return false;
	}
	return true;
}

static bool same_node_selection(const pk_pod *a, const pk_pod *b)
{
	if (!same_str(a->node_name, b->node_name) || a->con->has_node_selector != b->con->has_node_selector ||
	    a->con->has_node_affinity != b->con->has_node_affinity || a->con->naffinity_terms != b->con->naffinity_terms)
		return false;
	if (a->con->has_node_selector && !pk_selector_equal(&a->con->node_selector, &b->con->node_selector))
		return false;
	for (int i = 0; i < a->con->naffinity_terms; i++) {
		const pk_node_term *x = &a->con->affinity_terms[i], *y = &b->con->affinity_terms[i];
		if (x->has_fields != y->has_fields || !pk_selector_equal(&x->labels, &y->labels) ||
		    (x->has_fields && !pk_selector_equal(&x->fields, &y->fields)))
			return false;
	}
	return true;
}

/* What the node-only filters read of a preemptor. */
static bool same_static_shape(const pk_pod *a, const pk_pod *b)
{
	return same_tolerations(a, b) && same_node_selection(a, b);
}

/* Everything else the filter pass and the arithmetic SelectVictimsOnNode
 * read of a preemptor, but its identity. */
static bool same_requests(const pk_pod *a, const pk_pod *b)
{
	const pk_res *x = &a->requests, *y = &b->requests;
	return a->priority == b->priority && x->cpu == y->cpu && x->memory == y->memory &&
	       x->ephemeral == y->ephemeral && x->nscalar == 0 && y->nscalar == 0 && a->con->nports == 0 &&
	       b->con->nports == 0;
}

/* The per-node entries valid for this preemptor's shape, or NULL when the
 * memo does not apply to it. */
static memo_entry *memo_begin(const pk_snapshot *s, const pk_pod *pod, const pk_eval_opts *o)
{
	pk_eval_memo *m = o->memo;
	if (!m || !o->victims_of_best_only || !arithmetic_applies(s, pod) || *pod->nominated_node)
		return NULL;
	if (m->nnodes != s->nnodes) {
		free_tails(m);
		m->nodes = calloc((size_t)s->nnodes + 1, sizeof *m->nodes);
		m->tails = calloc((size_t)s->nnodes + 1, sizeof *m->tails);
		m->statics = calloc((size_t)s->nnodes + 1, sizeof *m->statics);
		if (!m->nodes || !m->tails || !m->statics)
			abort();
		m->nnodes = s->nnodes;
		m->has_last = false;
	}
	bool same_static = m->has_last && same_static_shape(&m->last, pod);
	if (!same_static)
		m->static_shape = ++m->next_shape;
	if (!same_static || !same_requests(&m->last, pod))
		m->shape = ++m->next_shape;
	m->last = *pod;
	m->has_last = true;
	m->evaluation++;
	return m->nodes;
}

/* A pod nominated to the node with the preemptor's uid (a duplicate) is
 * left out of the preemptor's view: such a node is not memoised. */
static bool uid_nominated_on(const pk_nodeinfo *ni, const pk_pod *pod)
{
	for (int i = 0; i < ni->nnominated; i++)
		if (*ni->nominated[i]->uid && same_str(ni->nominated[i]->uid, pod->uid))
			return true;
	return false;
}

/* The node's memo entry for this evaluation, or NULL when the node is not
 * memoised; *valid says whether it holds this shape's results. The filter
 * pass looks for a twin once and marks the entry; the dry run reads the mark. */
static memo_entry *memo_entry_of(memo_entry *entries, const pk_eval_memo *m, const pk_nodeinfo *ni,
                                 const pk_pod *pod, bool *valid, bool filter_pass)
{
	*valid = false;
	if (!entries)
		return NULL;
	memo_entry *me = &entries[ni->node->index];
	if (filter_pass && !m->uids_unique && ni->nnominated && uid_nominated_on(ni, pod))
		me->twin_in = m->evaluation;
	if (me->twin_in == m->evaluation)
		return NULL;
	*valid = me->shape == m->shape && me->generation == ni->generation;
	return me;
}

enum { FIT_PODS = 1, FIT_CPU = 2, FIT_MEMORY = 4, FIT_EPHEMERAL = 8, FIT_UNRESOLVABLE = 16 };

/* Which of NodeResourcesFit's checks fail with t on the node: the status
 * (pk_fit_basic's) is a function of this set alone. */
static int fit_failures(const pk_pod *pod, const pk_node *n, const room *r, const sums *t)
{
	const pk_res *al = &n->allocatable, *p = &pod->requests;
	int f = t->pods * 1000 > r->pods_milli ? FIT_PODS : 0;
	if (t->cpu > r->cpu)
		f |= FIT_CPU | (p->cpu > al->cpu ? FIT_UNRESOLVABLE : 0);
	if (t->memory > r->memory)
		f |= FIT_MEMORY | (p->memory > al->memory ? FIT_UNRESOLVABLE : 0);
	if (t->ephemeral > r->ephemeral)
		f |= FIT_EPHEMERAL | (p->ephemeral > al->ephemeral ? FIT_UNRESOLVABLE : 0);
	return f;
}

/* pk_run_filters_with_nominated for a preemptor on the arithmetic path
 * (no host ports, extended resources, spread or pod affinity: the
 * node-only filters, then NodeResourcesFit with the nominated pods of
 * equal or higher priority), from the memo's per-node and per-outcome
 * statuses. */
static const pk_status *arithmetic_filter(const pk_pod *pod, pk_nodeinfo *ni, pk_eval_memo *m)
{
	static_entry *se = &m->statics[ni->node->index];
	if (se->shape != m->static_shape) {
		pk_status st = pk_run_static_filters(pod, ni);
		*se = (static_entry){ m->static_shape, memo_status(m, &st) };
	}
	if (se->st->code != PK_CODE_SUCCESS)
		return se->st;
	sums t = node_sums(ni, pod);
	room r = room_beside(pod, ni->node);
	int f = fit_failures(pod, ni->node, &r, &t);
	if (!m->fit_status[f]) {
		pk_status st = fit_sums(pod, ni, &t);
		m->fit_status[f] = memo_status(m, &st);
	}
	return m->fit_status[f];
}

static const pk_status *node_filter(pk_snapshot *s, const pk_pod *pod, pk_nodeinfo *ni, memo_entry *entries,
                                    pk_eval_memo *m, pk_arena *arena)
{
	bool valid;
	memo_entry *me = memo_entry_of(entries, m, ni, pod, &valid, true);
	if (valid)
		return me->filter;
	if (!entries) {
		pk_status st = pk_run_filters_with_nominated(s, pod, ni);
		return keep_status(arena, &st);
	}
	const pk_status *st = arithmetic_filter(pod, ni, m);
	if (me)
		*me = (memo_entry){ .generation = ni->generation, .shape = m->shape, .filter = st };
	return st;
}

static const pk_status *node_dry_run(pk_snapshot *s, const pk_pod *pod, pk_nodeinfo *ni, const pk_eval_opts *o,
                                     memo_entry *entries, pk_arena *arena, pk_candidate *c)
{
	bool valid;
	memo_entry *me = memo_entry_of(entries, o->memo, ni, pod, &valid, false);
	if (valid && me->dry) {
		memo_cand_load(c, &me->cand);
		return me->dry;
	}
	/* a potential node: its filter status was Unschedulable, which the
	 * node-only filters never say */
	pk_tail *tail = entries ? &o->memo->tails[ni->node->index] : NULL;
	pk_status st = select_victims(s, pod, ni, arena, c, !o->victims_of_best_only, tail, true);
	if (!valid)
		return keep_status(arena, &st);
	me->dry = memo_status(o->memo, &st);
	memo_cand_store(&me->cand, c, s->now);
	return me->dry;
}

/* Ask for a node's slots before its turn unless the memo holds its dry run
 * (the common case between replicas: only the slots' reads miss the cache). */
static void prefetch_unless_known(const pk_nodeinfo *ni, memo_entry *entries, const pk_eval_memo *m)
{
	if (entries) {
		const memo_entry *me = &entries[ni->node->index];
		if (me->shape == m->shape && me->generation == ni->generation && me->dry)
			return;
	}
	prefetch_slots(ni);
}

static void dry_run(pk_snapshot *s, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e,
                    long *potential, long np, memo_entry *memo)
{
	e->num_candidates = o->sample ? pk_num_candidates(np, o->min_candidate_nodes_percentage,
	                                                  o->min_candidate_nodes_absolute) : np;
	e->offset = o->sample && np ? ((o->offset % np) + np) % np : 0;
	/* Candidates in visiting order; the evaluation lists the non-violating
	 * ones first, as upstream does: those go straight into the result, the
	 * (usually few) violating ones aside, appended at the end. */
	pk_candidate *cand = pk_arena_alloc(&e->arena, sizeof *cand * (size_t)(np + 1));
	pk_candidate *vio = NULL;
	long *vio_node = NULL;
	long nn = 0, nvl = 0, vcap = 0;
	pk_candidate c;
	for (long i = 0; i < np; i++) {
		long idx = potential[(e->offset + i) % np];
		pk_node_eval *ne = &e->nodes[idx];
		if (i + 1 < np)
			prefetch_unless_known(&s->infos[potential[(e->offset + i + 1) % np]], memo, o->memo);
		ne->dry = node_dry_run(s, p->pod, &s->infos[idx], o, memo, &e->arena, &c);
		if (ne->dry->code != PK_CODE_SUCCESS)
			continue;
		if (c.num_pdb_violations == 0 && nn < e->num_candidates) {
			ne->candidate = (int)nn;
			cand[nn++] = c;
		} else if (c.num_pdb_violations != 0 && nvl < e->num_candidates) {
			if (nvl == vcap) {
				vcap = vcap ? 2 * vcap : 16;
				vio = realloc(vio, sizeof *vio * (size_t)vcap);
				vio_node = realloc(vio_node, sizeof *vio_node * (size_t)vcap);
				if (!vio || !vio_node)
					abort();
			}
			vio_node[nvl] = idx;
			vio[nvl++] = c;
		}
		if (nn >= 1 && nn + nvl >= e->num_candidates)
			break;
	}
	for (long k = 0; k < nvl; k++) {
		cand[nn + k] = vio[k];
		e->nodes[vio_node[k]].candidate = (int)(nn + k);
	}
	e->ncandidates = (int)(nn + nvl);
	e->candidates = cand;
	free(vio);
	free(vio_node);
}

/* ---- the session (see pk_session) ------------------------------------------------ */

static void session_alloc(pk_session *x, const pk_snapshot *s)
{
	session_free(x);
	size_t n = (size_t)s->nnodes + 1;
	x->nnodes = s->nnodes;
	x->nodes = calloc(n, sizeof *x->nodes);
	x->dry = calloc(n, sizeof *x->dry);
	x->seen = malloc(n * sizeof *x->seen);
	x->heap = malloc(n * sizeof *x->heap);
	x->at = malloc(n * sizeof *x->at);
	x->owed = malloc(n * sizeof *x->owed);
	x->is_owed = calloc(n, sizeof *x->is_owed);
	if (!x->nodes || !x->dry || !x->seen || !x->heap || !x->at || !x->owed || !x->is_owed)
		abort();
}

/* Start over for another shape: every node is to be evaluated again. */
static void session_reset(pk_session *x, const pk_snapshot *s, uint64_t shape)
{
	if (x->nnodes != s->nnodes || !x->nodes)
		session_alloc(x, s);
	x->shape = shape;
	x->nfit = x->npotential = 0;
	x->ncounts = 0;
	x->nheap = 0;
	x->heap_built = false;
	x->all_owed = true;
	x->nowed = 0;
	x->dry_shown = false;
	x->shown_best = -1;
	for (long i = 0; i < s->nnodes; i++) {
		x->nodes[i] = (pk_node_eval){ .ni = &s->infos[i], .candidate = -1 };
		x->dry[i] = NULL;
		x->at[i] = -1;
		x->is_owed[i] = false;
		x->seen[i] = ~s->infos[i].generation;
	}
}

static void count_status(pk_session *x, const pk_status *st, long d)
{
	for (int i = 0; i < x->ncounts; i++)
		if (x->counts[i].st == st) {
			x->counts[i].n += d;
			return;
		}
	if (x->ncounts == x->countcap) {
		x->countcap = x->countcap ? 2 * x->countcap : 16;
		x->counts = realloc(x->counts, sizeof *x->counts * (size_t)x->countcap);
		if (!x->counts)
			abort();
	}
	x->counts[x->ncounts++] = (status_count){ st, d };
}

/* Candidate order of nodes a and b (candidate_cmp on their memo summaries). */
static int node_order(const pk_snapshot *s, const pk_eval_memo *m, int a, int b, int *criterion)
{
	(void)s;
	return pick_key_cmp(&m->nodes[a].cand.key, &m->nodes[b].cand.key, criterion);
}

static bool heap_before(const pk_snapshot *s, const pk_eval_memo *m, int a, int b)
{
	int criterion;
	return node_order(s, m, a, b, &criterion) < 0;
}

static void heap_put(pk_session *x, int pos, int node)
{
	x->heap[pos] = node;
	x->at[node] = pos;
}

static void sift_up(pk_session *x, const pk_snapshot *s, const pk_eval_memo *m, int pos)
{
	int node = x->heap[pos];
	while (pos > 0 && heap_before(s, m, node, x->heap[(pos - 1) / 2])) {
		heap_put(x, pos, x->heap[(pos - 1) / 2]);
		pos = (pos - 1) / 2;
	}
	heap_put(x, pos, node);
}

static void sift_down(pk_session *x, const pk_snapshot *s, const pk_eval_memo *m, int pos)
{
	int node = x->heap[pos];
	for (;;) {
		int c = 2 * pos + 1;
		if (c >= x->nheap)
			break;
		if (c + 1 < x->nheap && heap_before(s, m, x->heap[c + 1], x->heap[c]))
			c++;
		if (!heap_before(s, m, x->heap[c], node))
			break;
		heap_put(x, pos, x->heap[c]);
		pos = c;
	}
	heap_put(x, pos, node);
}

static void heap_remove(pk_session *x, const pk_snapshot *s, const pk_eval_memo *m, int node)
{
	int pos = x->at[node];
	x->at[node] = -1;
	int last = x->heap[--x->nheap];
	if (pos == x->nheap)
		return;
	heap_put(x, pos, last);
	sift_up(x, s, m, pos);
	sift_down(x, s, m, x->at[last]);
}

/* Filter node i again for the session's shape; its dry run is owed. */
static void session_redo(pk_session *x, pk_snapshot *s, const pk_pod *pod, memo_entry *entries,
                         pk_eval_memo *m, long i, pk_arena *arena)
{
	pk_nodeinfo *ni = &s->infos[i];
	pk_node_eval *ne = &x->nodes[i];
	if (ne->filter) {
		count_status(x, ne->filter, -1);
		x->nfit -= ne->filter->code == PK_CODE_SUCCESS;
		x->npotential -= ne->filter->code == PK_CODE_UNSCHEDULABLE;
	}
	if (x->at[i] >= 0)
		heap_remove(x, s, m, (int)i); /* never after a reset: the heap is empty */
	ne->filter = node_filter(s, pod, ni, entries, m, arena);
	count_status(x, ne->filter, 1);
	x->nfit += ne->filter->code == PK_CODE_SUCCESS;
	x->npotential += ne->filter->code == PK_CODE_UNSCHEDULABLE;
	x->dry[i] = NULL;
	ne->dry = NULL;
	ne->candidate = -1;
	if (ne->filter->code == PK_CODE_UNSCHEDULABLE && !x->all_owed && !x->is_owed[i]) {
		x->is_owed[i] = true;
		x->owed[x->nowed++] = (int)i;
	}
	x->seen[i] = ni->generation;
}

/* The dry run of a potential node whose run was owed: a candidate into the
 * heap (built by then: a reset's runs go through session_dry_all). */
static void session_dry(pk_session *x, pk_snapshot *s, const pk_pod *pod, const pk_eval_opts *o,
                        memo_entry *entries, int i, pk_arena *arena)
{
	pk_candidate c;
	x->dry[i] = node_dry_run(s, pod, &s->infos[i], o, entries, arena, &c);
	x->nodes[i].dry = x->dry_shown ? x->dry[i] : NULL;
	if (x->dry[i]->code != PK_CODE_SUCCESS)
		return;
	heap_put(x, x->nheap++, i);
	sift_up(x, s, o->memo, x->at[i]);
}

/* Without the heap: the best two candidates in one pass. */
static void best_two(pk_session *x, const pk_snapshot *s, const pk_eval_memo *m)
{
	x->first = x->second = -1;
	for (int k = 0; k < x->nheap; k++) {
		int c = x->heap[k];
		if (x->first < 0 || heap_before(s, m, c, x->first)) {
			x->second = x->first;
			x->first = c;
		} else if (x->second < 0 || heap_before(s, m, c, x->second)) {
			x->second = c;
		}
	}
}

/* The session brought up to date for this preemptor, or NULL when it does
 * not apply (no memo for the pod, sampling, or uids that may repeat). */
static pk_session *session_sync(pk_snapshot *s, const pk_pod *pod, const pk_eval_opts *o, memo_entry *entries,
                                pk_arena *arena)
{
	pk_eval_memo *m = o->memo;
	if (!entries || o->sample || !m->uids_unique)
		return NULL;
	pk_session *x = &m->session;
	bool bulk = x->shape != m->shape || x->nnodes != s->nnodes || !x->nodes;
	if (bulk)
		session_reset(x, s, m->shape);
	else if (!x->heap_built) {
		/* the shape's second decision: worth a heap from now on */
		for (int pos = x->nheap / 2 - 1; pos >= 0; pos--)
			sift_down(x, s, m, pos);
		x->heap_built = true;
	}
	for (long i = 0; i < s->nnodes; i++) {
		if (i + 8 < s->nnodes)
			__builtin_prefetch(&s->infos[i + 8].generation);
		if (x->seen[i] != s->infos[i].generation)
			session_redo(x, s, pod, entries, m, i, arena);
	}
	if (x->shown_best >= 0)
		x->nodes[x->shown_best].candidate = -1;
	x->shown_best = -1;
	return x;
}

/* nodes[].dry as the evaluation's status wants them: set where the dry run
 * ran (preemption was tried), NULL otherwise. */
static void session_show_dry(pk_session *x, bool show)
{
	if (x->dry_shown == show)
		return;
	x->dry_shown = show;
	for (long i = 0; i < x->nnodes; i++)
		x->nodes[i].dry = show ? x->dry[i] : NULL;
}

/* The filter pass's FitError from the session's counts. */
static const char *session_filter_message(pk_evaluation *e, const pk_session *x)
{
	if (e->nnodes == 0)
		return "no nodes available to schedule pods";
	const pk_status **st = malloc(sizeof *st * (size_t)(x->ncounts + 1));
	long *w = malloc(sizeof *w * (size_t)(x->ncounts + 1));
	if (!st || !w)
		abort();
	long n = 0;
	for (int i = 0; i < x->ncounts; i++)
		if (x->counts[i].n) {
			st[n] = x->counts[i].st;
			w[n++] = x->counts[i].n;
		}
	const char *msg = fit_error_weighted(&e->arena, e->nnodes, st, w, n);
	free(st);
	free(w);
	return msg;
}

/* The chosen candidate from the heap: e->candidates lists it alone
 * (ncandidates counts them all); decided_by compares it with the runner-up,
 * which of all candidates agrees with it longest in pick order. */
/* ---- the dry runs of a reset, on more than one core ------------------------------ */

/* After a reset every potential node is owed its dry run, and those are
 * independent: each reads the snapshot and writes only its own node's tail,
 * slots, pods' PDB lists and memo entry. With several cores they are cut
 * into parts run at once (5,000 nodes of ~25 lower-priority pods cost about
 * half a millisecond on one); the statuses are interned and the candidates
 * listed afterwards by the calling thread, which alone touches the memo's
 * shared tables, the string table and the session. */
typedef struct dry_job {
	pk_snapshot *s;
	const pk_pod *pod;
	const pk_eval_opts *o;
	const int *nodes;         /* the potential nodes, in node order */
	long n;
	pk_status *status;        /* per position: the dry run's status */
} dry_job;

static void dry_part(void *ctx, int part, int nparts)
{
	dry_job *j = ctx;
	pk_eval_memo *m = j->o->memo;
	long from = j->n * part / nparts, to = j->n * (part + 1) / nparts;
	for (long k = from; k < to; k++) {
		int i = j->nodes[k];
		if (k + 1 < to)
			prefetch_slots(&j->s->infos[j->nodes[k + 1]]);
		memo_entry *me = &m->nodes[i];
		pk_candidate c;
		j->status[k] = select_victims(j->s, j->pod, &j->s->infos[i], NULL, &c, false, &m->tails[i], true);
		if (j->status[k].code == PK_CODE_SUCCESS)
			memo_cand_store(&me->cand, &c, j->s->now);
	}
}

/* Threads for the dry runs of this many potential nodes, or NULL for one. */
static pk_workers *dry_workers(pk_eval_memo *m, const pk_eval_opts *o, long potential)
{
	long from = o->threads_from > 0 ? o->threads_from : 512;
	if (potential < from)
		return NULL;
	if (!m->workers_tried) {
		m->workers_tried = true;
		m->workers = pk_workers_new(pk_workers_wanted(o->threads));
	}
	return m->workers;
}

/* Every potential node's dry run, after a reset: the candidates listed, the
 * best two found. */
static void session_dry_all(pk_session *x, pk_snapshot *s, const pk_pod *pod, const pk_eval_opts *o,
                            pk_arena *arena)
{
	pk_eval_memo *m = o->memo;
	dry_job j = { s, pod, o, x->owed, 0, NULL };
	for (long i = 0; i < x->nnodes; i++)
		if (x->nodes[i].filter->code == PK_CODE_UNSCHEDULABLE)
			x->owed[j.n++] = (int)i;
	pk_workers *w = dry_workers(m, o, j.n);
	j.status = malloc(sizeof *j.status * (size_t)(j.n + 1));
	if (!j.status)
		abort();
	pk_workers_run(w, dry_part, &j);
	for (long k = 0; k < j.n; k++) {
		int i = x->owed[k];
		pk_status *st = &j.status[k];
		if (st->code == PK_CODE_ERROR && st->nreasons == 0) {
			pk_candidate c; /* its message needs the string table: once more, here */
			*st = select_victims(s, pod, &s->infos[i], arena, &c, false, &m->tails[i], true);
		}
		memo_entry *me = &m->nodes[i];
		x->dry[i] = me->dry = memo_status(m, st);
		x->nodes[i].dry = x->dry_shown ? x->dry[i] : NULL;
		if (st->code == PK_CODE_SUCCESS)
			heap_put(x, x->nheap++, i);
	}
	free(j.status);
}

static void session_pick(pk_session *x, pk_snapshot *s, const pk_pod *pod, const pk_eval_opts *o,
                         pk_evaluation *e)
{
	const pk_eval_memo *m = o->memo;
	memo_entry *entries = o->memo->nodes;
	if (x->all_owed) {
		session_dry_all(x, s, pod, o, &e->arena);
		x->all_owed = false;
		x->heap_built = false;
		best_two(x, s, m);
	} else {
		for (int k = 0; k < x->nowed; k++) {
			x->is_owed[x->owed[k]] = false;
			session_dry(x, s, pod, o, entries, x->owed[k], &e->arena);
		}
	}
	x->nowed = 0;
	e->num_candidates = x->npotential;
	e->offset = 0;
	e->ncandidates = x->nheap;
	if (x->nheap == 0)
		return;
	int best = x->first, second = x->second, criterion = 0;
	if (x->heap_built) {
		best = x->heap[0];
		second = x->nheap < 2 ? -1
		         : x->nheap > 2 && heap_before(s, m, x->heap[2], x->heap[1]) ? x->heap[2] : x->heap[1];
	}
	if (second >= 0)
		node_order(s, m, best, second, &criterion);
	e->decided_by = pick_criteria[criterion];
	e->candidates = pk_arena_alloc(&e->arena, sizeof *e->candidates);
	e->best = 0;
	x->nodes[best].candidate = 0; /* back to -1 at the next sync */
	x->shown_best = best;
	pk_nodeinfo *ni = &s->infos[best];
	select_victims(s, pod, ni, &e->arena, &e->candidates[0], true, &o->memo->tails[best], true);
}

static void evaluate(pk_snapshot *s, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e);

void pk_prefilter_begin(pk_snapshot *s, const pk_pod *pod)
{
	pk_prefilter_end(s);
	s->interpod = pk_interpod_new(s, pod);
	s->spread = pk_spread_new(s, pod);
}

void pk_prefilter_end(pk_snapshot *s)
{
	pk_interpod_free(s->interpod);
	pk_spread_free(s->spread);
	s->interpod = NULL;
	s->spread = NULL;
}

void pk_prefilter_update(pk_snapshot *s, const pk_pod *q, const pk_node *n, int mult)
{
	pk_interpod_update(s->interpod, q, n, mult);
	pk_spread_update(s->spread, q, n, mult);
}

void pk_evaluate(pk_snapshot *s, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e)
{
	/* PreFilter of PodTopologySpread and InterPodAffinity; the dry run
	 * updates their state as it removes and adds pods. A caller's active
	 * state (another pod's) is put aside and restored. */
	pk_interpod *outer_ip = s->interpod;
	pk_spread_state *outer_sp = s->spread;
	s->interpod = NULL;
	s->spread = NULL;
	pk_prefilter_begin(s, p->pod);
	evaluate(s, p, o, e);
	pk_prefilter_end(s);
	s->interpod = outer_ip;
	s->spread = outer_sp;
}

/* The filter pass over every node, into e (without a session). */
static void filter_pass(pk_snapshot *s, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e,
                        memo_entry *memo)
{
	e->nodes = pk_arena_alloc(&e->arena, sizeof *e->nodes * (size_t)(s->nnodes + 1));
	for (long i = 0; i < s->nnodes; i++) {
		pk_node_eval *ne = &e->nodes[i];
		ne->ni = &s->infos[i];
		ne->candidate = -1;
		ne->filter = node_filter(s, p->pod, &s->infos[i], memo, o->memo, &e->arena);
		if (ne->filter->code == PK_CODE_SUCCESS)
			e->nfit++;
		else if (ne->filter->code == PK_CODE_UNSCHEDULABLE)
			e->npotential++;
	}
}

static const char *fit_message(pk_evaluation *e, const pk_session *x)
{
	return x ? session_filter_message(e, x) : filter_message(e);
}

static void evaluate(pk_snapshot *s, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e)
{
	memset(e, 0, sizeof *e);
	pk_arena_init(&e->arena);
	e->preemptor = p;
	e->best = -1;
	e->message = "";
	e->nnodes = s->nnodes;
	memo_entry *memo = memo_begin(s, p->pod, o);
	pk_session *x = session_sync(s, p->pod, o, memo, &e->arena);
	if (x) {
		e->nodes = x->nodes; /* lent until the next evaluation with the memo */
		e->nfit = x->nfit;
		e->npotential = x->npotential;
	} else {
		filter_pass(s, p, o, e, memo);
	}
	if (x)
		session_show_dry(x, false); /* shown again below if preemption is tried */
	if (e->nfit > 0) {
		e->status = PK_PRE_FITS;
		return;
	}
	if (p->gate_message) { /* PostFilter stops before the evaluator */
		static const char prefix[] = "preemption: ";
		const char *m = p->gate_message;
		e->status = PK_PRE_NOT_ELIGIBLE;
		e->message = event_message(e, fit_message(e, x),
		                           strncmp(m, prefix, sizeof prefix - 1) == 0 ? m + sizeof prefix - 1 : m);
		return;
	}
	const char *why;
	if (!pk_pod_eligible_to_preempt(s, p->pod, &why)) {
		e->status = PK_PRE_NOT_ELIGIBLE;
		e->message = event_message(e, fit_message(e, x), why);
		return;
	}
	e->status = PK_PRE_UNSCHEDULABLE;
	if (s->nnodes == 0) {
		e->message = event_message(e, fit_message(e, x), "no nodes available");
		return;
	}
	if (x) {
		session_show_dry(x, true);
		session_pick(x, s, p->pod, o, e);
	} else {
		long *potential = pk_arena_alloc(&e->arena, sizeof *potential * (size_t)(e->npotential + 1));
		long np = 0;
		for (long i = 0; i < s->nnodes; i++)
			if (e->nodes[i].filter->code == PK_CODE_UNSCHEDULABLE)
				potential[np++] = i;
		if (np > 0)
			dry_run(s, p, o, e, potential, np, memo);
	}
	if (e->ncandidates > 0) {
		e->status = PK_PRE_NEEDS_PREEMPTION;
		if (!x)
			e->best = pk_pick_one_node_why(e->candidates, e->ncandidates, s->now, &e->decided_by);
		pk_candidate *best = &e->candidates[e->best];
		if (o->victims_of_best_only && !best->victims) {
			/* the same selection again, the state unchanged, listing them */
			pk_nodeinfo *ni = pk_snapshot_node(s, best->node);
			select_victims(s, p->pod, ni, &e->arena, best, true, NULL, false);
		}
		e->message = fit_message(e, x);
		return;
	}
	const pk_status **st = malloc(sizeof *st * (size_t)(s->nnodes + 1));
	if (!st)
		abort();
	for (long i = 0; i < s->nnodes; i++)
		st[i] = e->nodes[i].dry ? e->nodes[i].dry : &not_helpful;
	const char *fe = pk_fit_error_message(&e->arena, s->nnodes, st, s->nnodes);
	free(st);
	e->message = event_message(e, fit_message(e, x), fe);
}

void pk_evaluation_free(pk_evaluation *e)
{
	pk_arena_free(&e->arena);
	memset(e, 0, sizeof *e);
}

pk_pod *pk_nodeinfo_find_pod(const pk_nodeinfo *ni, const pk_victim_ref *r)
{
	for (int i = 0; i < ni->npods; i++)
		if (ni->pods[i]->namespace_ == r->namespace_ && strcmp(ni->pods[i]->name, r->name) == 0)
			return ni->pods[i];
	return NULL;
}

void pk_snapshot_apply(pk_snapshot *s, const pk_evaluation *e)
{
	pk_pod *pod = e->preemptor->pod;
	if (e->status == PK_PRE_UNSCHEDULABLE) {
		pk_snapshot_nominate(s, pod, NULL); /* upstream clears it when no candidate exists */
		return;
	}
	if (e->status != PK_PRE_NEEDS_PREEMPTION || e->best < 0)
		return;
	const pk_candidate *c = &e->candidates[e->best];
	pk_nodeinfo *ni = pk_snapshot_node(s, c->node);
	if (!ni)
		return;
	for (int i = 0; i < c->nvictims; i++) {
		pk_pod *v = pk_nodeinfo_find_pod(ni, &c->victims[i]);
		if (v)
			pk_snapshot_delete(s, v);
	}
	for (int i = ni->nnominated - 1; i >= 0; i--) {
		pk_pod *q = ni->nominated[i];
		if (q != pod && q->priority < pod->priority)
			pk_snapshot_nominate(s, q, NULL);
	}
	pk_snapshot_nominate(s, pod, ni->node->name);
}
