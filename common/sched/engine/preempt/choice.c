/* What an evaluation decides with: the preemptor's eligibility, the
 * FitError text, node choice (pickOneNodeForPreemption), the PostFilter
 * gate for pods of a group, and how many candidates to sample. */
#include "sched/engine/cluster/podgroup.h"
#include "sched/engine/preempt/preempt_int.h"
#include "sched/engine/reasons.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- eligibility ----------------------------------------------------------- */

bool pk_pod_eligible_to_preempt(pk_cycle *c, const pk_pod *p, const char **why)
{
	pk_snapshot *s = c->s;
	*why = "";
	if (p->policy == PK_PREEMPT_NEVER) {
		*why = PK_R_NEVER;
		return false;
	}
	if (!*p->nominated_node)
		return true;
	pk_nodeinfo *ni = pk_snapshot_node(s, p->nominated_node);
	if (!ni)
		return true; /* absent node: UnschedulableAndUnresolvable */
	pk_status st = pk_run_filters_with_nominated(c, p, ni);
	if (st.code == PK_CODE_UNSCHEDULABLE_UNRESOLVABLE)
		return true;
	for (int i = 0; i < ni->npods; i++) {
		const pk_pod *q = ni->pods[i];
		if (q->priority < p->priority && q->terminating && q->preemption_target) {
			*why = PK_R_TERMINATING;
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
                            long n, pk_fit_error *fe)
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
	if (fe) {
		fe->nnodes = nnodes;
		fe->n = nr;
		fe->reasons = pk_arena_alloc(a, sizeof *fe->reasons * (size_t)(nr + 1));
		for (int j = 0; j < nr; j++)
			fe->reasons[j] = (pk_fit_reason){ rc[j].reason, rc[j].count };
	}
	char *out = pk_arena_alloc(a, len);
	size_t w = (size_t)snprintf(out, len, PK_R_FIT_ERROR, nnodes);
	for (int j = 0; j < nr; j++)
		w += (size_t)snprintf(out + w, len - w, "%s%s", j ? ", " : ": ", rc[j].text);
	snprintf(out + w, len - w, ".");
	return out;
}

char *pk_fit_error_message(pk_arena *a, long nnodes, const pk_status *const *statuses, long n, pk_fit_error *out)
{
	return pk_fit_error_weighted(a, nnodes, statuses, NULL, n, out);
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
	int c = pk_pick_key_cmp_upto_victims(a, b, criterion);
	if (c)
		return c;
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
	const pk_release_profile *r = in->release;
	if (!r->generic_workload || !in->has_group)
		return g;
	if (r->postfilter_gating == PK_POSTFILTER_GATED_BY_GENERIC_WORKLOAD) {
		/* 1.37 (#139520): GenericWorkload alone sends every pod of a
		 * pod group to workload-aware preemption; the topology check
		 * moved to PodGroupPostFilter */
		g.message = PK_R_GATE_WAP;
		g.gate = r->workload_aware_preemption_gate; /* GenericWorkload */
	} else if (r->topology_aware && !in->group_found) {
		g.message = PK_R_GATE_NOT_FOUND;
		g.gate = "TopologyAwareWorkloadScheduling";
	} else if (r->topology_aware && in->group_has_constraints) {
		g.message = PK_R_GATE_TAS;
		g.gate = "TopologyAwareWorkloadScheduling";
	} else if (r->workload_aware_preemption) {
		g.message = PK_R_GATE_WAP;
		g.gate = r->workload_aware_preemption_gate; /* WorkloadAwarePreemption */
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

/* names[i] is one of names[0..i) (interned names compare by address first) */
static bool seen_before(const char *const *names, int i)
{
	for (int k = 0; k < i; k++)
		if (names[k] && (names[k] == names[i] || strcmp(names[k], names[i]) == 0))
			return true;
	return false;
}

int pk_names_text(const char *const *names, int n, char *buf, size_t size)
{
	int distinct = 0, shown = 0;
	size_t w = 0;
	buf[0] = '\0';
	/* room kept for ", and 2147483647 more" */
	size_t fits = size > 32 ? size - 32 : 0;
	for (int i = 0; i < n; i++) {
		if (!names[i] || !*names[i] || seen_before(names, i))
			continue;
		distinct++;
		size_t len = strlen(names[i]) + (shown ? 2 : 0);
		if (shown == distinct - 1 && w + len < fits) {
			w += (size_t)snprintf(buf + w, size - w, "%s%s", shown ? ", " : "", names[i]);
			shown++;
		}
	}
	if (shown < distinct && size)
		snprintf(buf + w, size - w, "%sand %d more", shown ? ", " : "", distinct - shown);
	return distinct;
}

pk_group_gate pk_pg_postfilter_gate(const pk_pg_set *g, bool has_group, const pk_podgroup *pg)
{
	pk_group_gate_in in = {
		.release = g->release,
		.has_group = has_group,
		.group_found = pg != NULL,
		.group_has_constraints = pg && pg->has_constraints,
	};
	return pk_postfilter_group_gate(&in);
}
