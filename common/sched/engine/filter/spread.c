/* PodTopologySpread (whenUnsatisfiable: DoNotSchedule), as the plugin's
 * PreFilter/Filter and its AddPod/RemovePod extensions compute it:
 *   domains   - the values of the constraint's topology key on eligible nodes
 *               (nodes with every constraint key, matching the pod's node
 *               affinity unless nodeAffinityPolicy is Ignore, tolerated taints
 *               if nodeTaintsPolicy is Honor);
 *   count     - pods of the incoming pod's namespace, not terminating, that
 *               the constraint's selector matches, per domain;
 *   skew      - count(node's domain) + (1 if the pod matches itself) - the
 *               smallest count over the domains (0 while there are fewer
 *               domains than minDomains); more than maxSkew fails.
 * A missing topology label is UnschedulableAndUnresolvable, too much skew
 * Unschedulable. The minimum is kept with a histogram of counts so that the
 * dry run's many add/remove steps stay O(1). */
#include "sched/engine/filter/spread.h"

#include <stdlib.h>
#include <string.h>

#include "sched/engine/filter/pairmap.h"
#include "sched/engine/reasons.h"
#include "base/alloc.h"

#define R_MISSING PK_R_SPREAD_LABEL
#define R_SKEW PK_R_SPREAD

typedef struct constraint_state {
	const pk_spread *c;
	pk_pair_map counts;      /* (key, domain) -> matching pods; every domain present */
	long *hist;              /* hist[k] = domains whose count is k */
	size_t histcap;
	long min;                /* smallest count over the domains */
	long ndomains;
} constraint_state;

struct pk_spread_state {
	const pk_pod *pod;
	constraint_state *cs;
	int n;
};

static bool has_all_keys(const pk_pod *p, const pk_node *n)
{
	for (int i = 0; i < p->con->nspread; i++)
		if (!pk_labels_value(n->labels, p->con->spread[i].topology_key))
			return false;
	return true;
}

static bool counts_pod(const pk_spread_state *st, const pk_spread *c, const pk_pod *q)
{
	return strcmp(q->namespace_, st->pod->namespace_) == 0 && pk_selector_matches_labels(&c->selector, q->labels);
}

static void hist_move(constraint_state *s, long from, long to)
{
	long need = (from > to ? from : to) + 1;
	if ((size_t)need > s->histcap) {
		size_t had = s->histcap;
		s->hist = pk_grow(s->hist, &s->histcap, (size_t)need, sizeof *s->hist);
		memset(s->hist + had, 0, sizeof *s->hist * (s->histcap - had));
	}
	if (from >= 0)
		s->hist[from]--;
	s->hist[to]++;
	if (to < s->min)
		s->min = to;
	else if (from == s->min && s->hist[from] == 0)
		s->min = to; /* the last domain at the minimum went up by one */
}

pk_spread_state *pk_spread_new(const pk_snapshot *s, const pk_pod *p)
{
	if (p->con->nspread == 0)
		return NULL;
	pk_spread_state *st = pk_xcalloc(1, sizeof *st);
	constraint_state *cs = pk_xcalloc((size_t)p->con->nspread, sizeof *cs);
	st->pod = p;
	st->cs = cs;
	st->n = p->con->nspread;
	for (int i = 0; i < st->n; i++) {
		cs[i].c = &p->con->spread[i];
		pk_pair_map_init(&cs[i].counts);
	}
	for (long k = 0; k < s->nnodes; k++) {
		const pk_nodeinfo *ni = &s->infos[k];
		if (!has_all_keys(p, ni->node))
			continue;
		for (int i = 0; i < st->n; i++) {
			const pk_spread *c = cs[i].c;
			if (c->honor_affinity && !pk_node_affinity_matches(p, ni->node))
				continue;
			if (c->honor_taints && !pk_taints_tolerated(p, ni->node))
				continue;
			long add = 0;
			for (int j = 0; j < ni->npods; j++)
				if (!ni->pods[j]->terminating && counts_pod(st, c, ni->pods[j]))
					add++;
			pk_pair_map_add(&cs[i].counts, c->topology_key, pk_labels_value(ni->node->labels, c->topology_key), add);
		}
	}
	for (int i = 0; i < st->n; i++) {
		pk_pair_map *m = &cs[i].counts;
		cs[i].min = m->used ? -1 : 0;
		for (size_t j = 0; j < m->cap; j++) {
			if (!m->keys[j])
				continue;
			cs[i].ndomains++;
			if (cs[i].min < 0 || m->counts[j] < cs[i].min)
				cs[i].min = m->counts[j];
			hist_move(&cs[i], -1, m->counts[j]);
		}
	}
	return st;
}

void pk_spread_free(pk_spread_state *st)
{
	if (!st)
		return;
	for (int i = 0; i < st->n; i++) {
		pk_pair_map_free(&st->cs[i].counts);
		free(st->cs[i].hist);
	}
	free(st->cs);
	free(st);
}

void pk_spread_update(pk_spread_state *st, const pk_pod *q, const pk_node *n, int mult)
{
	if (!st || q == st->pod || !has_all_keys(st->pod, n))
		return;
	for (int i = 0; i < st->n; i++) {
		constraint_state *cs = &st->cs[i];
		const char *v = pk_labels_value(n->labels, cs->c->topology_key);
		if (!counts_pod(st, cs->c, q) || !pk_pair_map_has(&cs->counts, cs->c->topology_key, v))
			continue;
		long before = pk_pair_map_get(&cs->counts, cs->c->topology_key, v);
		long after = pk_pair_map_add(&cs->counts, cs->c->topology_key, v, mult);
		hist_move(cs, before, after);
	}
}

bool pk_spread_check(const pk_spread_state *st, const pk_pod *pod, const pk_node *n, pk_status *out)
{
	if (!st || st->pod != pod)
		return true;
	for (int i = 0; i < st->n; i++) {
		const constraint_state *cs = &st->cs[i];
		const pk_spread *c = cs->c;
		const char *v = pk_labels_value(n->labels, c->topology_key);
		if (!v) {
			pk_status_set(out, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "PodTopologySpread", R_MISSING);
			return false;
		}
		long match = pk_pair_map_get(&cs->counts, c->topology_key, v);
		long self = pk_selector_matches_labels(&c->selector, pod->labels) ? 1 : 0;
		long min = cs->ndomains < c->min_domains ? 0 : cs->min;
		if (match + self - min > c->max_skew) {
			pk_status_set(out, PK_CODE_UNSCHEDULABLE, "PodTopologySpread", R_SKEW);
			return false;
		}
	}
	return true;
}
