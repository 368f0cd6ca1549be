/* DefaultPreemption: eligibility, victim units (order, PDB split, reprieve),
 * SelectVictimsOnNode (on the node, or by sums from a node's lower-priority
 * tail), the FitError text, node choice, the evaluation (PreFilter state,
 * filter pass, DryRunPreemption with candidate sampling), and playing a
 * chosen plan forward. What evaluations keep for the next preemptor of the
 * same shape (the memo, the session) is memo.c's; preempt_int.h declares
 * what the two files share. */
#include "sched/engine/interpod.h"
#include "sched/engine/podgroup.h"
#include "sched/engine/preempt_int.h"
#include "sched/engine/spread.h"

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
 * carries (must_value; none first), then index (pk_pdb_key, engine.h). The
 * keys are searched where they lie, together, not through the PDBs: two
 * million pods look up five keys each. */
static int pdb_key_cmp(const void *a, const void *b)
{
	const pk_pdb_key *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Which of pk_snapshot.pdb_key_bits' 4,096 bits stands for (ns, value). */
static unsigned pdb_key_bit(uintptr_t ns, uintptr_t value)
{
	uint64_t h = ((uint64_t)ns * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)value * 0xff51afd7ed558ccdull);
	return (unsigned)(h >> 52);
}

void pk_pdb_index(pk_snapshot *s)
{
	free(s->pdb_keys);
	s->pdb_keys = malloc(sizeof *s->pdb_keys * (size_t)(s->npdbs + 1));
	if (!s->pdb_keys)
		abort();
	for (int i = 0; i < s->npdbs; i++) {
		const pk_pdb *b = &s->pdbs[i];
		s->pdb_keys[i] = (pk_pdb_key){ (uintptr_t)b->namespace_, b->must_key ? (uintptr_t)b->must_value : 0, i };
	}
	qsort(s->pdb_keys, (size_t)s->npdbs, sizeof *s->pdb_keys, pdb_key_cmp);
	memset(s->pdb_key_bits, 0, sizeof s->pdb_key_bits);
	for (int i = 0; i < s->npdbs; i++) {
		unsigned bit = pdb_key_bit(s->pdb_keys[i].ns, s->pdb_keys[i].value);
		s->pdb_key_bits[bit >> 6] |= 1ull << (bit & 63);
	}
}

/* May some PDB have the key (ns, value)? (No: certainly none has.) */
static bool pdb_key_maybe(const pk_snapshot *s, uintptr_t ns, uintptr_t value)
{
	unsigned bit = pdb_key_bit(ns, value);
	return s->pdb_key_bits[bit >> 6] >> (bit & 63) & 1;
}

static bool pdb_key_before(const pk_pdb_key *k, uintptr_t ns, uintptr_t value)
{
	return k->ns < ns || (k->ns == ns && k->value < value);
}

/* The first position in pdb_keys at or after (ns, value). A search
 * without branches on the comparisons, which a pod's label values make
 * unpredictable: the range halves each step whatever the answer. */
static int first_pdb_at(const pk_snapshot *s, uintptr_t ns, uintptr_t value)
{
	const pk_pdb_key *base = s->pdb_keys;
	size_t n = (size_t)s->npdbs;
	if (n == 0)
		return 0;
	while (n > 1) {
		size_t half = n / 2;
		base = pdb_key_before(&base[half], ns, value) ? base + half : base;
		n -= half;
	}
	return (int)(base - s->pdb_keys) + pdb_key_before(base, ns, value);
}

/* Add to found[] the PDBs at (ns, value) that select p; false when more
 * than PK_POD_MAX_PDBS do. */
static bool find_pdbs_at(const pk_snapshot *s, const pk_pod *p, uintptr_t value, int16_t *found, int *n)
{
	uintptr_t ns = (uintptr_t)p->namespace_;
	if (!pdb_key_maybe(s, ns, value))
		return true;
	for (int k = first_pdb_at(s, ns, value); k < s->npdbs; k++) {
		const pk_pdb_key *key = &s->pdb_keys[k];
		if (key->ns != ns || key->value != value)
			break;
		if (!pdb_matches(&s->pdbs[key->idx], p))
			continue;
		for (int j = 0; j < *n; j++)
			if (found[j] == key->idx)
				goto next; /* a value the pod carries under two keys */
		if (*n == PK_POD_MAX_PDBS || key->idx > INT16_MAX)
			return false;
		found[(*n)++] = (int16_t)key->idx;
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
		u[k].violating_pods = 0;
		for (int m = 0; m < u[k].npods; m++) {
			pk_pod *p = u[k].pods[m];
			bool violates = false;
			if (p->npdbs < 0)
				cache_pod_pdbs(s, p);
			if (p->npdbs <= PK_POD_MAX_PDBS) {
				for (int j = 0; j < p->npdbs; j++) {
					const pk_pdb *pdb = &s->pdbs[p->pdbs[j]];
					if (!pdb_skips_pod(pdb, p) && --*budget_of(&b, s, p->pdbs[j]) < 0)
						violates = true;
				}
			} else {
				for (int i = 0; i < s->npdbs; i++) {
					const pk_pdb *pdb = &s->pdbs[i];
					if (pdb_matches(pdb, p) && !pdb_skips_pod(pdb, p) && --*budget_of(&b, s, i) < 0)
						violates = true;
				}
			}
			u[k].violating_pods += violates;
		}
		u[k].violating = u[k].violating_pods > 0;
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
		if (q == preemptor || (*q->uid && strcmp(q->uid, preemptor->uid) == 0) || q->priority < preemptor->priority)
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

/* The tail itself (pk_tail) is declared in preempt_int.h: the memo keeps one
 * per node. */

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

void pk_tail_free(pk_tail *t)
{
	free(t->violating);
	free(t->order);
}

static int64_t room_for(int64_t request, int64_t allocatable, bool no_requests)
{
	return no_requests || request <= 0 ? INT64_MAX : allocatable - request;
}

room pk_room_beside(const pk_pod *preemptor, const pk_node *n)
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
	sums left = pk_node_sums(ni, preemptor);
	left.pods -= t->total.pods;
	left.cpu -= t->total.cpu;
	left.memory -= t->total.memory;
	left.ephemeral -= t->total.ephemeral;
	room r = pk_room_beside(preemptor, ni->node);
	if (!within(&r, &left))
		return pk_fit_sums(preemptor, ni, &left);

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
static void unit_pod(pk_snapshot *s, pk_nodeinfo *ni, pk_pod *p, bool add)
{
	if (p->node_name == ni->node->name || strcmp(p->node_name, ni->node->name) == 0) {
		node_pod(s, ni, p, add);
		return;
	}
	const pk_nodeinfo *other = pk_snapshot_node(s, p->node_name);
	if (other)
		pk_prefilter_update(s, p, other->node, add ? 1 : -1);
}

static void group_unit_apply(void *c, const pk_victim_unit *u, bool add)
{
	node_ctx *x = c;
	for (int i = 0; i < u->npods; i++)
		unit_pod(x->s, x->ni, u->pods[i], add);
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
	gu->u = malloc(sizeof *gu->u * (size_t)(ni->npods + 1));
	gu->group = malloc(sizeof *gu->group * (size_t)(ni->npods + 1));
	gu->pods = malloc(sizeof *gu->pods * (size_t)(cap + 1));
	if (!gu->u || !gu->group || !gu->pods)
		abort();
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
		                       .earliest_start = INT64_MAX };
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
static pk_status select_victims_with_groups(pk_snapshot *s, const pk_pod *preemptor, pk_nodeinfo *ni,
                                            pk_arena *arena, pk_candidate *out)
{
	pk_status st;
	group_units gu;
	group_units_build(s, preemptor, ni, &gu);
	if (gu.n == 0) {
		group_units_free(&gu);
		pk_status_set(&st, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "DefaultPreemption", R_NO_VICTIMS);
		return st;
	}
	node_ctx ctx = { s, preemptor, ni, {0} };
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
	int *picked = malloc(sizeof *picked * nu);
	pk_victim_unit *vu = malloc(sizeof *vu * nu);
	if (!picked || !vu)
		abort();
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
	out->victims = pk_arena_alloc(arena, sizeof *out->victims * (size_t)(npods ? npods : 1));
	for (int i = 0, k = 0; i < nv; i++)
		for (int m = 0; m < vu[i].npods; m++)
			fill_ref(s, &out->victims[k++], vu[i].pods[m], vu[i].violating);
	out->nvictims = npods;
	out->num_pdb_violations = violations;
	pk_candidate_summarize(out);
	lower_nominations(ni, preemptor, arena, out);
	for (int i = 0; i < nv; i++)
		group_unit_apply(&ctx, &vu[i], true);
	free(picked);
	free(vu);
	group_units_free(&gu);
	return selection_status(s, ni, nv);
}

pk_status pk_select_victims(pk_snapshot *s, const pk_pod *preemptor, pk_nodeinfo *ni, pk_arena *arena,
                            pk_candidate *out, bool fill, pk_tail *tail, bool static_passed)
{
	pk_status st;
	memset(out, 0, sizeof *out);
	out->node = ni->node->name;
	if (s->victim_groups && node_has_group_pods(s, ni)) {
		if (!static_passed && (st = pk_run_static_filters(preemptor, ni)).code != PK_CODE_SUCCESS)
			return st;
		return select_victims_with_groups(s, preemptor, ni, arena, out);
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
	if (pk_arithmetic_applies(s, preemptor)) {
		pk_tail scratch = {0};
		pk_tail *t = tail ? tail : &scratch;
		if (!tail_serves(t, ni, preemptor->priority))
			tail_compute(s, ni, preemptor->priority, t);
		st = select_victims_by_sums(s, preemptor, ni, t, arena, out, fill);
		pk_tail_free(&scratch);
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
	return selection_status(s, ni, nv);
}

pk_status pk_select_victims_on_node(pk_snapshot *s, const pk_pod *preemptor, pk_nodeinfo *ni,
                                    pk_arena *arena, pk_candidate *out)
{
	return pk_select_victims(s, preemptor, ni, arena, out, true, NULL, false);
}

bool pk_candidate_list_victims(pk_snapshot *s, const pk_pod *preemptor, const pk_candidate *c, pk_arena *arena,
                               pk_candidate *out)
{
	pk_nodeinfo *ni = pk_snapshot_node(s, c->node);
	if (!ni || !pk_arithmetic_applies(s, preemptor))
		return false;
	pk_status st = pk_select_victims(s, preemptor, ni, arena, out, true, NULL, true);
	return st.code == PK_CODE_SUCCESS && out->nvictims == c->nvictims &&
	       out->num_pdb_violations == c->num_pdb_violations;
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

char *pk_fit_error_weighted(pk_arena *a, long nnodes, const pk_status *const *statuses, const long *weight,
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
	return pk_fit_error_weighted(a, nnodes, statuses, NULL, n);
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

const char *const pk_pick_criteria[] = {
	"the only candidate",
	"fewest PDB violations",
	"lowest highest-victim priority",
	"smallest priority sum",
	"fewest victims",
	"latest start of the highest-priority victims",
	"node name (upstream: map order)",
};

int pk_pick_key_cmp(const pick_key *a, const pick_key *b, int *criterion)
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
	pick_key x = pk_pick_key_of(a, now), y = pk_pick_key_of(b, now);
	return pk_pick_key_cmp(&x, &y, criterion);
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
	*decided_by = pk_pick_criteria[decided];
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
	if (in->k8s_minor == 0 || in->k8s_minor >= 37) {
		/* 1.37 (#139520): GenericWorkload alone sends every pod of a
		 * pod group to workload-aware preemption; the topology check
		 * moved to PodGroupPostFilter */
		g.message = "preemption: not eligible due to workload aware preemption enabled";
		g.gate = "GenericWorkload";
	} else if (in->topology_aware && !in->group_found) {
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

void pk_eval_opts_engine(pk_eval_opts *o, const pk_engine_opts *e)
{
	o->k8s_minor = e->gates.k8s_minor;
	o->threads = e->threads;
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
			pk_prefetch_unless_known(&s->infos[potential[(e->offset + i + 1) % np]], memo, o->memo);
		ne->dry = pk_node_dry_run(s, p->pod, &s->infos[idx], o, memo, &e->arena, &c);
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
	e->k8s_minor = o->k8s_minor;
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
		ne->filter = pk_node_filter(s, p->pod, &s->infos[i], memo, o->memo, &e->arena);
		if (ne->filter->code == PK_CODE_SUCCESS)
			e->nfit++;
		else if (ne->filter->code == PK_CODE_UNSCHEDULABLE)
			e->npotential++;
	}
}

static const char *fit_message(pk_evaluation *e, const pk_session *x)
{
	return x ? pk_session_filter_message(e, x) : filter_message(e);
}

static void evaluate(pk_snapshot *s, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e)
{
	memset(e, 0, sizeof *e);
	pk_arena_init(&e->arena);
	e->preemptor = p;
	e->best = -1;
	e->message = "";
	e->nnodes = s->nnodes;
	memo_entry *memo = pk_memo_begin(s, p->pod, o);
	pk_session *x = pk_session_sync(s, p->pod, o, memo, e);
	if (x)
		pk_session_show_dry(x, false); /* shown again below if preemption is tried */
	else
		filter_pass(s, p, o, e, memo);
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
		pk_session_show_dry(x, true);
		pk_session_pick(x, s, p->pod, o, e);
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
			pk_select_victims(s, p->pod, ni, &e->arena, best, true, NULL, false);
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
		/* a disruptionMode-all group's members may sit on other nodes */
		const char *at = c->victims[i].node;
		pk_nodeinfo *vn = at && at != ni->node->name && strcmp(at, ni->node->name) != 0 ? pk_snapshot_node(s, at) : ni;
		pk_pod *v = vn ? pk_nodeinfo_find_pod(vn, &c->victims[i]) : NULL;
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
