/* Resource-selector matching and the ranking among matching policies
 * (karmada pkg/util/selector.go ResourceSelectorPriority, pkg/detector/compare.go;
 * karmada.md sections A and C). */
#include "karmada.h"

#include <string.h>

pp_match_level pp_selector_level(const pp_rsel *s, const pp_template *t)
{
	if (strcmp(s->api_version, t->api_version) != 0 || strcmp(s->kind, t->kind) != 0)
		return PP_MATCH_NONE;
	/* An empty selector namespace matches every namespace and cluster-scoped
	 * templates; a set one never matches a cluster-scoped template. */
	if (*s->namespace && strcmp(s->namespace, t->namespace) != 0)
		return PP_MATCH_NONE;
	/* A name makes the label selector irrelevant, even a non-matching one. */
	if (*s->name)
		return strcmp(s->name, t->name) == 0 ? PP_MATCH_NAME : PP_MATCH_NONE;
	if (!s->has_label_selector)
		return PP_MATCH_ALL;
	/* An invalid selector converts with an error upstream: no match. */
	if (!s->label_selector_ok)
		return PP_MATCH_NONE;
	return pk_selector_matches(&s->label_selector, t->labels) ? PP_MATCH_LABEL_SELECTOR : PP_MATCH_NONE;
}

pp_match_level pp_policy_level(const pp_policy *p, const pp_template *t)
{
	pp_match_level best = PP_MATCH_NONE;

	for (int i = 0; i < p->nsels && best < PP_MATCH_NAME; i++) {
		pp_match_level l = pp_selector_level(&p->sels[i], t);
		if (l > best)
			best = l;
	}
	return best;
}

const char *pp_match_level_name(pp_match_level l)
{
	switch (l) {
	case PP_MATCH_NAME: return "Name";
	case PP_MATCH_LABEL_SELECTOR: return "LabelSelector";
	case PP_MATCH_ALL: return "MatchAll";
	default: return "None";
	}
}

int pp_rank_compare(const pp_policy *a, pp_match_level la, const pp_policy *b, pp_match_level lb)
{
	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	if (la != lb)
		return la > lb ? -1 : 1;
	/* Byte-wise name order: "A" < "B", "ab" < "abc", "" first. */
	return strcmp(a->name, b->name);
}

bool pp_policy_names_template(const pp_policy *p, const pp_template *t)
{
	for (int i = 0; i < p->nsels; i++) {
		const pp_rsel *s = &p->sels[i];
		/* The detector fetches the named object at the selector's own
		 * namespace, so that namespace must be the template's. */
		if (*s->name && strcmp(s->name, t->name) == 0 && strcmp(s->api_version, t->api_version) == 0 &&
		    strcmp(s->kind, t->kind) == 0 && strcmp(s->namespace, t->namespace) == 0)
			return true;
	}
	return false;
}
