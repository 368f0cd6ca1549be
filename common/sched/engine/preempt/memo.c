/* The cache across evaluations (pk_eval_memo, engine.h): what pk_evaluate
 * worked out for a preemptor's shape, kept for the next preemptor that asks
 * for the same thing (replicas of one template), on the arithmetic path:
 *   - per node: the filter status and the dry run's summary for the memo's
 *     shape (memo_entry), the lower-priority tail (pk_tail, preempt_int.h),
 *     the node-only filters' verdict for the static shape;
 *   - NodeResourcesFit's status per set of failed checks, and each status
 *     the entries point to, stored once (pk_status_table, filter.h);
 *   - the session (pk_session): a shape's whole evaluation, kept up to
 *     date between decisions, its candidates in a heap;
 *   - a few shapes at once, each in a slot of its own (memo_slot): shapes
 *     that take turns in the queue find theirs again;
 *   - the dry runs of a reset, cut into parts on several cores (workers.h).
 * pk_node_filter and pk_node_dry_run serve evaluations without a memo entry
 * too: they then copy the status into the evaluation's arena (statuses by
 * reference, engine.h's pk_node_eval).
 *
 * One owner: the memo holds all of it (entries, tails, statuses, session,
 * threads); an evaluation only borrows (the session's nodes, until the next
 * evaluation with the memo), and preempt.c does the work (victim selection,
 * node choice) into what it is handed. One invalidation rule: a node's
 * results hold while its generation - bumped by every change of its pods or
 * nominated pods - is the one they saw, and for the shape they were worked
 * out for; a new shape starts a slot's entries and session over. Nothing
 * else goes stale: the nodes and the PDBs' budgets do not change while the
 * snapshot is played forward (the node-only verdicts, read of the node
 * alone, hold for their static shape). */
#include "sched/engine/preempt/preempt_int.h"
#include "sched/engine/reasons.h"
#include "sched/engine/workers.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

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
 * and the two fields the key folds into one. A key that is not exact is a
 * lower bound (pk_select_victims_bound) in the criteria up to the number of
 * victims: the session works the exact one out only if the node may be
 * among the best two. */
typedef struct memo_cand {
	pick_key key;
	bool top_unstarted;
	bool exact;
	int64_t top_start;
} memo_cand;

typedef struct memo_entry {
	/* what the filter pass reads, together at the start */
	uint64_t generation;      /* the node's when computed */
	uint64_t shape;           /* the memo's shape id when computed; 0 = never */
	uint64_t twin_in;         /* the evaluation in which a pod with the
	                           * preemptor's uid was nominated here */
	const pk_status *filter;  /* interned in the memo */
	const pk_status *dry;     /* NULL until the dry run is known */
	memo_cand cand;
} memo_entry;

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

/* The FitError of a session's counts, kept while they do not move (a replay
 * tries its pending queue at every instant; each pod that does not fit asks). */
typedef struct fit_cache {
	bool valid;
	char *msg;
	pk_fit_error fe;          /* reasons malloc'd */
} fit_cache;

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
	int ncounts;
	size_t countcap;
	int *heap;                /* candidate nodes, the best first once built;
	                           * the best two exact once settled */
	int nheap;
	bool heap_built;          /* heap order holds (else a list: a shape seen
	                           * once pays no heap, see pk_session_sync) */
	int first, second;        /* without the heap: the best two, or -1 */
	/* Dry runs are done only when a decision needs them (a pod that fits
	 * needs none): the potential nodes whose dry run is owed. */
	bool all_owed;            /* every potential node (after a reset) */
	int *owed;
	int nowed;
	bool *is_owed;            /* per node: in owed */
	int *at;                  /* per node: its place in heap, or -1 */
	long shown_best;          /* the node whose candidate is 0 (the last pick), or -1 */
	fit_cache fit;            /* a cache: written through a const session too */
} pk_session;

/* A node's verdict of the node-only filters for one static shape (nodes
 * do not change while the snapshot is played forward). */
typedef struct static_entry {
	uint64_t shape;           /* the memo's static_shape when worked out; 0 = never */
	const pk_status *st;
	const pk_status *volumes; /* VolumeBinding's or VolumeZone's failure, after
	                           * NodeResourcesFit, or NULL */
} static_entry;

/* One shape's results: the entries, the node-only verdicts and the session.
 * The memo keeps a few, so that shapes that take turns in the queue (the
 * replicas of a StatefulSet whose volumes are in three zones) each find
 * theirs again, valid wherever no node's generation moved. */
typedef struct memo_slot {
	memo_entry *nodes;
	static_entry *statics;    /* per node, for static_shape */
	uint64_t static_shape;    /* id of the last preemptor's tolerations, node
	                           * selection and volume node checks */
	uint64_t shape;
	/* The last preemptor it served, as it was then: binding or nominating
	 * it changes the pod afterwards. The arrays it points to do not change. */
	pk_pod last;
	bool has_last;
	uint64_t used;            /* the evaluation that last chose it */
	pk_session session;
} memo_slot;

enum { MEMO_SLOTS = 8 };

struct pk_eval_memo {
	memo_slot slots[MEMO_SLOTS];
	memo_slot *cur;           /* the slot of the evaluation under way */
	pk_tail *tails;           /* per node, whatever the shape */
	long nnodes;
	/* NodeResourcesFit's status by the set of checks that failed (fit_failures):
	 * a handful of distinct values, worked out once each. */
	const pk_status *fit_status[32];
	uint64_t next_shape;
	uint64_t evaluation;      /* counts pk_memo_begin calls, from 1 */
	pk_status_table statuses; /* what the entries point to, for the memo's life */
	/* No two pods the simulator may nominate share a uid (it says so,
	 * pk_eval_memo_uids_unique): no node can hide a twin of the preemptor,
	 * and the uid comparisons are skipped. */
	bool uids_unique;
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
	free(x->fit.msg);
	free(x->fit.fe.reasons);
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
		pk_tail_free(&m->tails[i]);
	free(m->tails);
	m->tails = NULL;
	for (int k = 0; k < MEMO_SLOTS; k++) {
		memo_slot *sl = &m->slots[k];
		free(sl->nodes);
		free(sl->statics);
		session_free(&sl->session);
		*sl = (memo_slot){ 0 };
	}
}

pk_eval_memo *pk_eval_memo_new(void)
{
	pk_eval_memo *m = pk_xcalloc(1, sizeof *m);
	pk_status_table_init(&m->statuses);
	m->cur = &m->slots[0];
	return m;
}

void pk_eval_memo_free(pk_eval_memo *m)
{
	if (!m)
		return;
	pk_workers_free(m->workers);
	free_tails(m);
	pk_status_table_free(&m->statuses);
	free(m);
}

static const pk_status *memo_status(pk_eval_memo *m, const pk_status *st)
{
	return pk_status_table_intern(&m->statuses, st);
}

static void memo_cand_store(memo_cand *mc, const pk_candidate *c, int64_t now, bool exact)
{
	*mc = (memo_cand){ pk_pick_key_of(c, now), c->top_unstarted, exact, c->top_start };
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
	return same_tolerations(a, b) && same_node_selection(a, b) && pk_volumes_same_node_checks(a, b);
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

/* The slot whose shape the pod has (the current one first: replicas follow
 * each other); else an unused one; else the least recently chosen of those
 * sharing its node-only verdicts, else of all: a shape per slot. */
static memo_slot *slot_for(pk_eval_memo *m, const pk_pod *pod)
{
	memo_slot *same_static = NULL, *oldest = &m->slots[0];
	for (int k = -1; k < MEMO_SLOTS; k++) {
		memo_slot *sl = k < 0 ? m->cur : &m->slots[k];
		if (sl->has_last && same_static_shape(&sl->last, pod)) {
			if (same_requests(&sl->last, pod))
				return sl;
			if (!same_static || sl->used < same_static->used)
				same_static = sl;
		}
		if (sl->used < oldest->used)
			oldest = sl;
	}
	return !oldest->has_last || !same_static ? oldest : same_static;
}

memo_entry *pk_memo_begin(const pk_cycle *c, const pk_pod *pod, const pk_eval_opts *o)
{
	const pk_snapshot *s = c->s;
	pk_eval_memo *m = o->memo;
	/* with pod groups as victims a node's answer depends on other nodes */
	if (!m || !o->victims_of_best_only || !pk_arithmetic_applies(c, pod) || *pod->nominated_node ||
	    s->victim_groups)
		return NULL;
	if (m->nnodes != s->nnodes) {
		free_tails(m);
		m->tails = pk_xcalloc((size_t)s->nnodes + 1, sizeof *m->tails);
		for (int k = 0; k < MEMO_SLOTS; k++) {
			m->slots[k].nodes = pk_xcalloc((size_t)s->nnodes + 1, sizeof *m->slots[k].nodes);
			m->slots[k].statics = pk_xcalloc((size_t)s->nnodes + 1, sizeof *m->slots[k].statics);
		}
		m->nnodes = s->nnodes;
	}
	m->evaluation++;
	memo_slot *sl = slot_for(m, pod);
	bool same_static = sl->has_last && same_static_shape(&sl->last, pod);
	if (!same_static)
		sl->static_shape = ++m->next_shape;
	if (!same_static || !same_requests(&sl->last, pod))
		sl->shape = ++m->next_shape;
	sl->last = *pod;
	sl->has_last = true;
	sl->used = m->evaluation;
	m->cur = sl;
	return sl->nodes;
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
	*valid = me->shape == m->cur->shape && me->generation == ni->generation;
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
	static_entry *se = &m->cur->statics[ni->node->index];
	if (se->shape != m->cur->static_shape) {
		pk_status st = pk_run_static_filters(pod, ni), vs;
		bool vol_ok = pk_volumes_node_fits(pod, ni->node, &vs);
		*se = (static_entry){ m->cur->static_shape, memo_status(m, &st), vol_ok ? NULL : memo_status(m, &vs) };
	}
	if (se->st->code != PK_CODE_SUCCESS)
		return se->st;
	sums t = pk_node_sums(ni, pod);
	room r = pk_room_beside(pod, ni->node);
	int f = fit_failures(pod, ni->node, &r, &t);
	if (!m->fit_status[f]) {
		pk_status st = pk_fit_sums(pod, ni, &t);
		m->fit_status[f] = memo_status(m, &st);
	}
	if (se->volumes && m->fit_status[f]->code == PK_CODE_SUCCESS)
		return se->volumes;
	return m->fit_status[f];
}

const pk_status *pk_node_filter(pk_cycle *c, const pk_pod *pod, pk_nodeinfo *ni, memo_entry *entries,
                                pk_eval_memo *m, pk_arena *arena)
{
	bool valid;
	memo_entry *me = memo_entry_of(entries, m, ni, pod, &valid, true);
	if (valid)
		return me->filter;
	if (!entries) {
		pk_status st = pk_run_filters_with_nominated(c, pod, ni);
		return keep_status(arena, &st);
	}
	const pk_status *st = arithmetic_filter(pod, ni, m);
	if (me)
		*me = (memo_entry){ .generation = ni->generation, .shape = m->cur->shape, .filter = st };
	return st;
}

const pk_status *pk_node_dry_run(pk_cycle *cy, const pk_pod *pod, pk_nodeinfo *ni, const pk_eval_opts *o,
                                 memo_entry *entries, pk_arena *arena, pk_candidate *c)
{
	bool valid;
	memo_entry *me = memo_entry_of(entries, o->memo, ni, pod, &valid, false);
	if (valid && me->dry && (me->dry->code != PK_CODE_SUCCESS || me->cand.exact)) {
		memo_cand_load(c, &me->cand);
		return me->dry;
	}
	/* a potential node: its filter status was Unschedulable, which the
	 * node-only filters never say */
	pk_tail *tail = entries ? &o->memo->tails[ni->node->index] : NULL;
	pk_status st = pk_select_victims(cy, pod, ni, arena, c, !o->victims_of_best_only, tail, true);
	if (!valid)
		return keep_status(arena, &st);
	if (!me->dry) /* else the status was known, the key only bounded */
		me->dry = memo_status(o->memo, &st);
	memo_cand_store(&me->cand, c, cy->s->now, true);
	return me->dry;
}

void pk_prefetch_unless_known(const pk_nodeinfo *ni, memo_entry *entries, const pk_eval_memo *m)
{
	if (entries) {
		const memo_entry *me = &entries[ni->node->index];
		if (me->shape == m->cur->shape && me->generation == ni->generation && me->dry)
			return;
	}
	prefetch_slots(ni);
}

/* ---- the session (see pk_session) ------------------------------------------------ */

static void session_alloc(pk_session *x, const pk_snapshot *s)
{
	session_free(x);
	size_t n = (size_t)s->nnodes + 1;
	x->nnodes = s->nnodes;
	x->nodes = pk_xcalloc(n, sizeof *x->nodes);
	x->dry = pk_xcalloc(n, sizeof *x->dry);
	x->seen = pk_xmalloc(n * sizeof *x->seen);
	x->heap = pk_xmalloc(n * sizeof *x->heap);
	x->at = pk_xmalloc(n * sizeof *x->at);
	x->owed = pk_xmalloc(n * sizeof *x->owed);
	x->is_owed = pk_xcalloc(n, sizeof *x->is_owed);
}

static void count_status(pk_session *x, const pk_status *st, long d)
{
	x->fit.valid = false;
	for (int i = 0; i < x->ncounts; i++)
		if (x->counts[i].st == st) {
			x->counts[i].n += d;
			return;
		}
	x->counts = pk_grow(x->counts, &x->countcap, (size_t)x->ncounts + 1, sizeof *x->counts);
	x->counts[x->ncounts++] = (status_count){ st, d };
}

/* Start over for another shape: every node is filtered again, in one pass
 * (session_redo's work for a node that had no status), and its dry run is
 * owed. */
static void session_reset(pk_session *x, pk_cycle *c, const pk_pod *pod, memo_entry *entries,
                          pk_eval_memo *m, uint64_t shape, pk_arena *arena)
{
	pk_snapshot *s = c->s;
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
	const pk_status *last = NULL; /* a run of nodes with one status: counted at once */
	long run = 0;
	for (long i = 0; i < s->nnodes; i++) {
		pk_nodeinfo *ni = &s->infos[i];
		const pk_status *st = pk_node_filter(c, pod, ni, entries, m, arena);
		x->nodes[i] = (pk_node_eval){ .ni = ni, .filter = st, .candidate = -1 };
		x->dry[i] = NULL;
		x->at[i] = -1;
		x->is_owed[i] = false;
		x->seen[i] = ni->generation;
		x->nfit += st->code == PK_CODE_SUCCESS;
		x->npotential += st->code == PK_CODE_UNSCHEDULABLE;
		if (st != last) {
			if (run)
				count_status(x, last, run);
			last = st;
			run = 0;
		}
		run++;
	}
	if (run)
		count_status(x, last, run);
}

/* Candidate order of nodes a and b (preempt.c's candidate_cmp, on their memo
 * summaries). A bounded key goes before an exact one it ties with in the
 * criteria it bounds: the exact key may be equal, and must be worked out
 * before the other node can be taken as the better one. */
static int node_order(const pk_snapshot *s, const pk_eval_memo *m, int a, int b, int *criterion)
{
	(void)s;
	const memo_cand *x = &m->cur->nodes[a].cand, *y = &m->cur->nodes[b].cand;
	if (x->exact && y->exact)
		return pk_pick_key_cmp(&x->key, &y->key, criterion);
	int c = pk_pick_key_cmp_upto_victims(&x->key, &y->key, criterion);
	if (c)
		return c;
	if (x->exact != y->exact)
		return x->exact ? 1 : -1;
	return strcmp(x->key.node, y->key.node);
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
static void session_redo(pk_session *x, pk_cycle *c, const pk_pod *pod, memo_entry *entries,
                         pk_eval_memo *m, long i, pk_arena *arena)
{
	pk_snapshot *s = c->s;
	pk_nodeinfo *ni = &s->infos[i];
	pk_node_eval *ne = &x->nodes[i];
	if (ne->filter) {
		count_status(x, ne->filter, -1);
		x->nfit -= ne->filter->code == PK_CODE_SUCCESS;
		x->npotential -= ne->filter->code == PK_CODE_UNSCHEDULABLE;
	}
	if (x->at[i] >= 0)
		heap_remove(x, s, m, (int)i); /* never after a reset: the heap is empty */
	ne->filter = pk_node_filter(c, pod, ni, entries, m, arena);
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
static void session_dry(pk_session *x, pk_cycle *cy, const pk_pod *pod, const pk_eval_opts *o,
                        memo_entry *entries, int i, pk_arena *arena)
{
	pk_snapshot *s = cy->s;
	pk_candidate c;
	x->dry[i] = pk_node_dry_run(cy, pod, &s->infos[i], o, entries, arena, &c);
	x->nodes[i].dry = x->dry_shown ? x->dry[i] : NULL;
	if (x->dry[i]->code != PK_CODE_SUCCESS)
		return;
	heap_put(x, x->nheap++, i);
	sift_up(x, s, o->memo, x->at[i]);
}

/* Without the heap, after a reset: the best two candidates in one pass.
 * dry_part left a key bounded only when two exact ones of its part are
 * better: those are skipped. */
static void best_two(pk_session *x, const pk_snapshot *s, const pk_eval_memo *m)
{
	x->first = x->second = -1;
	for (int k = 0; k < x->nheap; k++) {
		int c = x->heap[k];
		if (!m->cur->nodes[c].cand.exact)
			continue;
		if (x->first < 0 || heap_before(s, m, c, x->first)) {
			x->second = x->first;
			x->first = c;
		} else if (x->second < 0 || heap_before(s, m, c, x->second)) {
			x->second = c;
		}
	}
}

/* Work the exact key out for the nodes at the top of the heap until the
 * best two are exact. A node whose key is bounded sorts before every exact
 * key it could equal (node_order), so the exact ones on top are the best
 * two; its exact key is never below its bound, so sifting it down restores
 * the order. */
static void settle_best_two(pk_session *x, pk_cycle *cy, const pk_pod *pod, const pk_eval_opts *o)
{
	pk_snapshot *s = cy->s;
	pk_eval_memo *m = o->memo;
	for (;;) {
		int pos = 0;
		if (x->nheap == 0)
			return;
		if (m->cur->nodes[x->heap[0]].cand.exact) {
			if (x->nheap < 2)
				return;
			pos = x->nheap > 2 && heap_before(s, m, x->heap[2], x->heap[1]) ? 2 : 1;
			if (m->cur->nodes[x->heap[pos]].cand.exact)
				return;
		}
		int i = x->heap[pos];
		pk_candidate c;
		pk_select_victims(cy, pod, &s->infos[i], NULL, &c, false, &m->tails[i], true);
		memo_cand_store(&m->cur->nodes[i].cand, &c, s->now, true);
		sift_down(x, s, m, pos);
	}
}

pk_session *pk_session_sync(pk_cycle *c, const pk_pod *pod, const pk_eval_opts *o, memo_entry *entries,
                            pk_evaluation *e)
{
	pk_snapshot *s = c->s;
	pk_eval_memo *m = o->memo;
	if (!entries || o->sample || !m->uids_unique)
		return NULL;
	pk_session *x = &m->cur->session;
	bool bulk = x->shape != m->cur->shape || x->nnodes != s->nnodes || !x->nodes;
	if (bulk)
		session_reset(x, c, pod, entries, m, m->cur->shape, &e->arena);
	else if (!x->heap_built) {
		/* the shape's second decision: worth a heap from now on */
		for (int pos = x->nheap / 2 - 1; pos >= 0; pos--)
			sift_down(x, s, m, pos);
		x->heap_built = true;
	}
	for (long i = 0; !bulk && i < s->nnodes; i++) { /* a reset has seen every node */
		if (i + 8 < s->nnodes)
			__builtin_prefetch(&s->infos[i + 8].generation);
		if (x->seen[i] != s->infos[i].generation)
			session_redo(x, c, pod, entries, m, i, &e->arena);
	}
	if (x->shown_best >= 0)
		x->nodes[x->shown_best].candidate = -1;
	x->shown_best = -1;
	e->nodes = x->nodes; /* lent until the next evaluation with the memo */
	e->nfit = x->nfit;
	e->npotential = x->npotential;
	return x;
}

void pk_session_show_dry(pk_session *x, bool show)
{
	if (x->dry_shown == show)
		return;
	x->dry_shown = show;
	for (long i = 0; i < x->nnodes; i++)
		x->nodes[i].dry = show ? x->dry[i] : NULL;
}

/* A copy of a FitError's text and histogram: in the arena, or malloc'd. */
static char *fit_copy(pk_arena *a, const char *msg, const pk_fit_error *from, pk_fit_error *to)
{
	size_t len = strlen(msg) + 1, rlen = sizeof *from->reasons * (size_t)(from->n + 1);
	char *out = memcpy(a ? pk_arena_alloc(a, len) : pk_xmalloc(len), msg, len);
	*to = *from;
	to->reasons = memcpy(a ? pk_arena_alloc(a, rlen) : pk_xmalloc(rlen), from->reasons, rlen - sizeof *from->reasons);
	return out;
}

const char *pk_session_filter_message(pk_evaluation *e, const pk_session *x)
{
	if (e->nnodes == 0)
		return PK_R_NO_NODES;
	fit_cache *fc = (fit_cache *)&x->fit; /* the session is not const itself */
	if (fc->valid && fc->fe.nnodes == e->nnodes)
		return fit_copy(&e->arena, fc->msg, &fc->fe, &e->filter_error);
	const pk_status **st = pk_xmalloc(sizeof *st * (size_t)(x->ncounts + 1));
	long *w = pk_xmalloc(sizeof *w * (size_t)(x->ncounts + 1));
	long n = 0;
	for (int i = 0; i < x->ncounts; i++)
		if (x->counts[i].n) {
			st[n] = x->counts[i].st;
			w[n++] = x->counts[i].n;
		}
	const char *msg = pk_fit_error_weighted(&e->arena, e->nnodes, st, w, n, &e->filter_error);
	free(st);
	free(w);
	free(fc->msg);
	free(fc->fe.reasons);
	fc->msg = fit_copy(NULL, msg, &e->filter_error, &fc->fe);
	fc->valid = true;
	return msg;
}

/* ---- the dry runs of a reset, on more than one core ------------------------------ */

/* After a reset every potential node is owed its dry run, and those are
 * independent: each reads the snapshot and writes only its own node's tail,
 * slots, pods' PDB lists and memo entry. With several cores they are cut
 * into parts run at once (5,000 nodes of ~25 lower-priority pods cost about
 * half a millisecond on one); the statuses are interned and the candidates
 * listed afterwards by the calling thread, which alone touches the memo's
 * shared tables, the string table and the session. */
typedef struct dry_job {
	pk_cycle *c;              /* the preemptor's: no PreFilter state, no move
	                           * (the arithmetic path), so threads share it */
	pk_snapshot *s;
	const pk_pod *pod;
	const pk_eval_opts *o;
	const int *nodes;         /* the potential nodes, in node order */
	long n;
	pk_status *status;        /* per position: the dry run's status */
} dry_job;

/* pk_pick_key_cmp in the criteria a bounded key covers (up to the number
 * of victims), without the string comparison of node names. */
static int bounded_cmp(const pick_key *a, const pick_key *b)
{
	int criterion;
	return pk_pick_key_cmp_upto_victims(a, b, &criterion);
}

/* Node a's key is above t in a criterion its bound covers: a bounded key
 * this far up cannot be among the best two when t is no better than the
 * second best. */
static bool above(const memo_cand *a, const pick_key *t)
{
	return bounded_cmp(&a->key, t) > 0;
}

/* The exact key of node i, into its memo entry. */
static void dry_exact(dry_job *j, int i)
{
	pk_eval_memo *m = j->o->memo;
	pk_candidate c;
	pk_select_victims(j->c, j->pod, &j->s->infos[i], NULL, &c, false, &m->tails[i], true);
	memo_cand_store(&m->cur->nodes[i].cand, &c, j->s->now, true);
}

/* The best two exact keys seen; the second is the bar a bounded key must
 * clear to be worth its exact run. */
typedef struct best_keys {
	pick_key k[2];
	int n;
} best_keys;

static void best_keys_add(best_keys *b, const pick_key *k)
{
	if (b->n < 2)
		b->k[b->n++] = *k;
	else if (bounded_cmp(k, &b->k[1]) < 0)
		b->k[1] = *k;
	else
		return;
	if (b->n == 2 && bounded_cmp(&b->k[1], &b->k[0]) < 0) {
		pick_key t = b->k[0];
		b->k[0] = b->k[1];
		b->k[1] = t;
	}
}

/* The first position from k on whose node's key is bounded and not above
 * the bar b; to if none. */
static long next_owed_exact(const dry_job *j, long k, long to, const best_keys *b)
{
	const pk_eval_memo *m = j->o->memo;
	for (; k < to; k++) {
		const memo_cand *mc = &m->cur->nodes[j->nodes[k]].cand;
		if (j->status[k].code == PK_CODE_SUCCESS && !mc->exact && !(b->n == 2 && above(mc, &b->k[1])))
			return k;
	}
	return to;
}

/* One part of the potential nodes: each node's status and a bound of its
 * key first (the reprieve stopped at the first victim), then the exact key
 * of the two nodes with the lowest bounds, and then of every node whose
 * bound does not rise above the second best exact key so far. A node left
 * bounded is beaten by two others of its part, so it is not among the best
 * two of all (best_two; the heap settles the rest when it comes to them). */
static void dry_part(void *ctx, int part, int nparts)
{
	dry_job *j = ctx;
	pk_eval_memo *m = j->o->memo;
	long from = j->n * part / nparts, to = j->n * (part + 1) / nparts;
	long low[2] = { -1, -1 };
	for (long k = from; k < to; k++) {
		int i = j->nodes[k];
		if (k + 2 < to)
			__builtin_prefetch(&m->tails[j->nodes[k + 2]]);
		pk_candidate c;
		bool exact;
		j->status[k] = pk_select_victims_bound(j->c, j->pod, &j->s->infos[i], &c, &m->tails[i], &exact);
		if (j->status[k].code != PK_CODE_SUCCESS)
			continue;
		memo_cand *mc = &m->cur->nodes[i].cand;
		memo_cand_store(mc, &c, j->s->now, exact);
		/* the two lowest bounds (of equal ones, the first): a bar to start with */
		if (low[0] < 0 || bounded_cmp(&mc->key, &m->cur->nodes[j->nodes[low[0]]].cand.key) < 0) {
			low[1] = low[0];
			low[0] = k;
		} else if (low[1] < 0 || bounded_cmp(&mc->key, &m->cur->nodes[j->nodes[low[1]]].cand.key) < 0) {
			low[1] = k;
		}
	}
	best_keys b = { .n = 0 };
	for (int t = 0; t < 2 && low[t] >= 0; t++) {
		int i = j->nodes[low[t]];
		if (!m->cur->nodes[i].cand.exact)
			dry_exact(j, i);
		best_keys_add(&b, &m->cur->nodes[i].cand.key);
	}
	long k = next_owed_exact(j, from, to, &b);
	while (k < to) {
		long next = next_owed_exact(j, k + 1, to, &b);
		if (next < to) /* its run reads the node's slots: ask for them now */
			prefetch_slots(&j->s->infos[j->nodes[next]]);
		int i = j->nodes[k];
		dry_exact(j, i);
		best_keys_add(&b, &m->cur->nodes[i].cand.key);
		k = next_owed_exact(j, next, to, &b); /* the bar may have come down */
	}
}

/* Threads for the dry runs of this many potential nodes, or NULL for one. */
static pk_workers *dry_workers(pk_eval_memo *m, const pk_eval_opts *o, long potential)
{
	/* A dry run stops at the first victim for most nodes: threads pay for
	 * waking them only on large clusters (5,000 nodes, 3,375 potential:
	 * 0.090 s on one against 0.102 s on two for 150 new shapes; 20,000
	 * nodes, 13,500 potential: 0.167 s against 0.117 s for 60) */
	long from = o->threads_from > 0 ? o->threads_from : 4096;
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
static void session_dry_all(pk_session *x, pk_cycle *cy, const pk_pod *pod, const pk_eval_opts *o,
                            pk_arena *arena)
{
	pk_snapshot *s = cy->s;
	pk_eval_memo *m = o->memo;
	dry_job j = { cy, s, pod, o, x->owed, 0, NULL };
	for (long i = 0; i < x->nnodes; i++)
		if (x->nodes[i].filter->code == PK_CODE_UNSCHEDULABLE)
			x->owed[j.n++] = (int)i;
	pk_workers *w = dry_workers(m, o, j.n);
	j.status = pk_xmalloc(sizeof *j.status * (size_t)(j.n + 1));
	pk_workers_run(w, dry_part, &j);
	for (long k = 0; k < j.n; k++) {
		int i = x->owed[k];
		pk_status *st = &j.status[k];
		if (st->code == PK_CODE_ERROR && st->nreasons == 0) {
			pk_candidate c; /* its message needs the string table: once more, here */
			*st = pk_select_victims(cy, pod, &s->infos[i], arena, &c, false, &m->tails[i], true);
		}
		memo_entry *me = &m->cur->nodes[i];
		x->dry[i] = me->dry = memo_status(m, st);
		x->nodes[i].dry = x->dry_shown ? x->dry[i] : NULL;
		if (st->code == PK_CODE_SUCCESS)
			heap_put(x, x->nheap++, i);
	}
	free(j.status);
}

void pk_session_pick(pk_session *x, pk_cycle *cy, const pk_pod *pod, const pk_eval_opts *o,
                     pk_evaluation *e)
{
	pk_snapshot *s = cy->s;
	const pk_eval_memo *m = o->memo;
	memo_entry *entries = o->memo->cur->nodes;
	if (x->all_owed) {
		session_dry_all(x, cy, pod, o, &e->arena);
		x->all_owed = false;
		x->heap_built = false;
		best_two(x, s, m);
	} else {
		for (int k = 0; k < x->nowed; k++) {
			x->is_owed[x->owed[k]] = false;
			session_dry(x, cy, pod, o, entries, x->owed[k], &e->arena);
		}
	}
	x->nowed = 0;
	if (x->heap_built)
		settle_best_two(x, cy, pod, o);
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
	e->decided_by = pk_pick_criteria[criterion];
	e->candidates = pk_arena_alloc(&e->arena, sizeof *e->candidates);
	e->best = 0;
	x->nodes[best].candidate = 0; /* back to -1 at the next sync */
	x->shown_best = best;
	pk_nodeinfo *ni = &s->infos[best];
	pk_select_victims(cy, pod, ni, &e->arena, &e->candidates[0], true, &o->memo->tails[best], true);
}

