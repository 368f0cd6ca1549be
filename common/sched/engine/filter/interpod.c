/* InterPodAffinity (required terms only), as the plugin's PreFilter/Filter and
 * its AddPod/RemovePod extensions compute it:
 *   existing[(k,v)] - bound pods whose anti-affinity term with topology key k
 *                     selects the incoming pod, on nodes labelled k=v;
 *   affinity[(k,v)] - bound pods that match ALL the incoming pod's affinity
 *                     terms, per term key k, on nodes labelled k=v;
 *   anti[(k,v)]     - bound pods matched by an anti-affinity term of the
 *                     incoming pod with key k, on nodes labelled k=v.
 * Filter: affinity must hold for every term (UnschedulableAndUnresolvable,
 * with the first-pod-of-a-group exception), then the incoming pod's and the
 * existing pods' anti-affinity (Unschedulable). Preemption removes and adds
 * pods through pk_interpod_update, so victims lift the counts they held. */
#include "sched/engine/filter/interpod.h"
#include "sched/engine/reasons.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define R_AFFINITY PK_R_POD_AFFINITY
#define R_ANTI PK_R_POD_ANTI_AFFINITY
#define R_EXISTING PK_R_EXISTING_ANTI_AFFINITY

struct pk_interpod {
	const pk_pod *pod;
	pk_pair_map existing, affinity, anti;
};

static bool matches_all_affinity(const pk_pod *p, const pk_pod *q)
{
	for (int i = 0; i < p->con->naffinity; i++)
		if (!pk_pod_term_matches(&p->con->affinity[i], p, q))
			return false;
	return true;
}

void pk_interpod_update(pk_interpod *st, const pk_pod *q, const pk_node *n, int mult)
{
	if (!st || q == st->pod)
		return;
	const pk_pod *p = st->pod;
	for (int i = 0; i < q->con->nanti_affinity; i++) {
		const pk_pod_term *t = &q->con->anti_affinity[i];
		const char *v = pk_labels_value(n->labels, t->topology_key);
		if (v && pk_pod_term_matches(t, q, p))
			pk_pair_map_add(&st->existing, t->topology_key, v, mult);
	}
	if (p->con->naffinity && matches_all_affinity(p, q))
		for (int i = 0; i < p->con->naffinity; i++) {
			const char *v = pk_labels_value(n->labels, p->con->affinity[i].topology_key);
			if (v)
				pk_pair_map_add(&st->affinity, p->con->affinity[i].topology_key, v, mult);
		}
	for (int i = 0; i < p->con->nanti_affinity; i++) {
		const pk_pod_term *t = &p->con->anti_affinity[i];
		const char *v = pk_labels_value(n->labels, t->topology_key);
		if (v && pk_pod_term_matches(t, p, q))
			pk_pair_map_add(&st->anti, t->topology_key, v, mult);
	}
}

pk_interpod *pk_interpod_new(const pk_snapshot *s, const pk_pod *p)
{
	if (p->con->naffinity == 0 && p->con->nanti_affinity == 0 && s->anti_affinity_pods == 0)
		return NULL; /* upstream's PreFilter returns Skip */
	pk_interpod *st = pk_xcalloc(1, sizeof *st);
	st->pod = p;
	pk_pair_map_init(&st->existing);
	pk_pair_map_init(&st->affinity);
	pk_pair_map_init(&st->anti);
	for (long i = 0; i < s->nnodes; i++) {
		const pk_nodeinfo *ni = &s->infos[i];
		for (int k = 0; k < ni->npods; k++)
			pk_interpod_update(st, ni->pods[k], ni->node, 1);
	}
	return st;
}

void pk_interpod_free(pk_interpod *st)
{
	if (!st)
		return;
	pk_pair_map_free(&st->existing);
	pk_pair_map_free(&st->affinity);
	pk_pair_map_free(&st->anti);
	free(st);
}

static bool affinity_ok(const pk_interpod *st, const pk_node *n)
{
	const pk_pod *p = st->pod;
	if (p->con->naffinity == 0)
		return true;
	bool exist = true;
	for (int i = 0; i < p->con->naffinity; i++) {
		const char *v = pk_labels_value(n->labels, p->con->affinity[i].topology_key);
		if (!v)
			return false; /* every topology label must exist, self-affinity too */
		if (pk_pair_map_get(&st->affinity, p->con->affinity[i].topology_key, v) <= 0)
			exist = false;
	}
	if (exist)
		return true;
	/* The first pod of a group that selects itself may go anywhere. */
	return st->affinity.nonzero == 0 && matches_all_affinity(p, p);
}

static bool anti_ok(const pk_interpod *st, const pk_node *n)
{
	const pk_pod *p = st->pod;
	if (st->anti.nonzero == 0)
		return true;
	for (int i = 0; i < p->con->nanti_affinity; i++) {
		const char *v = pk_labels_value(n->labels, p->con->anti_affinity[i].topology_key);
		if (v && pk_pair_map_get(&st->anti, p->con->anti_affinity[i].topology_key, v) > 0)
			return false;
	}
	return true;
}

static bool existing_ok(const pk_interpod *st, const pk_node *n)
{
	if (st->existing.nonzero == 0)
		return true;
	for (uint32_t i = 0; n->labels && i < n->labels->n; i++) {
		const pk_label_pair *kv = pk_labels_pair(n->labels, i);
		if (pk_pair_map_get(&st->existing, kv->key, kv->value) > 0)
			return false;
	}
	return true;
}

bool pk_interpod_check(const pk_interpod *st, const pk_pod *pod, const pk_node *n, pk_status *out)
{
	if (!st || st->pod != pod)
		return true;
	if (!affinity_ok(st, n)) {
		pk_status_set(out, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "InterPodAffinity", R_AFFINITY);
		return false;
	}
	if (!anti_ok(st, n)) {
		pk_status_set(out, PK_CODE_UNSCHEDULABLE, "InterPodAffinity", R_ANTI);
		return false;
	}
	if (!existing_ok(st, n)) {
		pk_status_set(out, PK_CODE_UNSCHEDULABLE, "InterPodAffinity", R_EXISTING);
		return false;
	}
	return true;
}

/* ---- scoring: preferred terms both ways, existing pods' required affinity -- */

bool pk_interpod_scores_others(const pk_pod *q)
{
	return q->con->naffinity || q->con->npreferred_affinity || q->con->npreferred_anti;
}

/* processTerm: term t of owner selects target, and node n has its key. */
static void score_term(pk_pair_map *pairs, const pk_pod_term *t, int64_t weight, const pk_pod *owner,
                       const pk_pod *target, const pk_node *n)
{
	const char *v = pk_labels_value(n->labels, t->topology_key);
	if (v && pk_pod_term_matches(t, owner, target))
		pk_pair_map_add(pairs, t->topology_key, v, (long)weight);
}

void pk_interpod_score_pod(pk_pair_map *pairs, const pk_pod *p, const pk_pod *q, const pk_node *n, bool mine)
{
	if (!n->labels || n->labels->n == 0)
		return;
	const pk_pod_constraints *pc = p->con, *qc = q->con;
	for (int i = 0; mine && i < pc->npreferred_affinity; i++)
		score_term(pairs, &pc->preferred_affinity[i], pc->preferred_affinity[i].weight, p, q, n);
	for (int i = 0; mine && i < pc->npreferred_anti; i++)
		score_term(pairs, &pc->preferred_anti[i], -(int64_t)pc->preferred_anti[i].weight, p, q, n);
	for (int i = 0; i < qc->naffinity; i++)
		score_term(pairs, &qc->affinity[i], PK_HARD_POD_AFFINITY_WEIGHT, q, p, n);
	for (int i = 0; i < qc->npreferred_affinity; i++)
		score_term(pairs, &qc->preferred_affinity[i], qc->preferred_affinity[i].weight, q, p, n);
	for (int i = 0; i < qc->npreferred_anti; i++)
		score_term(pairs, &qc->preferred_anti[i], -(int64_t)qc->preferred_anti[i].weight, q, p, n);
}

int64_t pk_interpod_score_node(const pk_pair_map *pairs, const pk_node *n)
{
	int64_t score = 0;
	for (uint32_t i = 0; n->labels && i < n->labels->n; i++) {
		const pk_label_pair *kv = pk_labels_pair(n->labels, i);
		score += pk_pair_map_get(pairs, kv->key, kv->value);
	}
	return score;
}
