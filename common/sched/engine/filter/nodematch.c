/* What TaintToleration and NodeAffinity ask of a node, shared by the
 * filters, the spread and gang code and the scorer. */
#include "sched/engine/filter/filter.h"

const pk_taint *pk_untolerated_taint(const pk_pod *pod, const pk_node *n)
{
	for (int i = 0; i < n->ntaints; i++) {
		const pk_taint *t = &n->taints[i];
		if (t->effect != PK_EFFECT_PREFER_NO_SCHEDULE && !pk_pod_tolerates(pod, t))
			return t;
	}
	return NULL;
}

bool pk_taints_tolerated(const pk_pod *pod, const pk_node *n)
{
	return pk_untolerated_taint(pod, n) == NULL;
}

const char *pk_taint_effect_name(int effect)
{
	switch (effect) {
	case PK_EFFECT_NO_SCHEDULE: return "NoSchedule";
	case PK_EFFECT_PREFER_NO_SCHEDULE: return "PreferNoSchedule";
	case PK_EFFECT_NO_EXECUTE: return "NoExecute";
	}
	return "";
}

bool pk_node_term_matches(const pk_node_term *t, const pk_node *n)
{
	/* A term with neither expressions nor fields selects no node. */
	if (t->labels.nreqs == 0 && !t->has_fields)
		return false;
	if (t->labels.nreqs > 0 && !pk_selector_matches_labels(&t->labels, n->labels))
		return false;
	if (t->has_fields && !pk_selector_matches_labels(&t->fields, n->fields))
		return false;
	return true;
}

bool pk_node_affinity_matches(const pk_pod *pod, const pk_node *n)
{
	if (pod->con->has_node_selector && !pk_selector_matches_labels(&pod->con->node_selector, n->labels))
		return false;
	if (!pod->con->has_node_affinity)
		return true;
	for (int i = 0; i < pod->con->naffinity_terms; i++)
		if (pk_node_term_matches(&pod->con->affinity_terms[i], n))
			return true;
	return false;
}
