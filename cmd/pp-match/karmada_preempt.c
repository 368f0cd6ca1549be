/* Preemption of an existing claim (karmada pkg/detector preemption.go; the
 * "PropagationPolicy Priority and Preemption" proposal; karmada.md section F).
 *
 * A snapshot has no event order, so pp-match computes the converged owner:
 * among the policies allowed to preempt the current claimant, a PP beats a
 * CPP (a PP takes a template from a CPP whatever the priorities), then the
 * higher explicit priority wins. Equal top priorities are order-dependent
 * upstream (the first to reconcile wins); pp-match breaks the tie by name, as
 * matching does, and says so in the reason. */
#include "karmada.h"

#include <stdio.h>
#include <string.h>

const char *pp_cannot_preempt(const pp_policy *p, const pp_policy *claimant, const pp_template *t,
                              const pp_options *o, char *buf, size_t size)
{
	if (p == claimant)
		return "is the claimant";
	if (!p->preempt_always)
		return "preemption is Never";
	if (!o->preemption_gate)
		return "preemption needs --feature-gates PropagationPolicyPreemption=true";
	if (p->deleting)
		return "is being deleted";
	if (!pp_policy_names_template(p, t))
		return "no selector names the template (preemption only reaches templates named explicitly)";
	if (p->kind == PP_CLUSTER_PROPAGATION_POLICY && claimant->kind == PP_PROPAGATION_POLICY)
		return "a ClusterPropagationPolicy never preempts a PropagationPolicy";
	if (p->kind == claimant->kind && p->priority <= claimant->priority) {
		snprintf(buf, size, "priority %d is not higher than the claimant's %d", (int)p->priority,
		         (int)claimant->priority);
		return buf;
	}
	return NULL;
}

/* <0 if preemptor a should win over b. */
static int preemptor_compare(const pp_policy *a, const pp_policy *b)
{
	if (a->kind != b->kind)
		return a->kind == PP_PROPAGATION_POLICY ? -1 : 1;
	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	return strcmp(a->name, b->name);
}

const pp_policy *pp_preemptor(const pp_world *w, const pp_template *t, const pp_policy *claimant,
                              const pp_options *o, pp_decision *d)
{
	const pp_policy *best = NULL;
	bool tie = false;
	char buf[160];

	if (!o->preemption_gate)
		return NULL;
	for (long i = 0; i < w->npolicies; i++) {
		const pp_policy *p = &w->policies[i];
		if (!p->admitted || pp_cannot_preempt(p, claimant, t, o, buf, sizeof buf))
			continue;
		if (!best) {
			best = p;
			continue;
		}
		int c = preemptor_compare(p, best);
		if (p->kind == best->kind && p->priority == best->priority)
			tie = true;
		else if (c < 0)
			tie = false;
		if (c < 0)
			best = p;
	}
	d->preemptor_tie = best && tie;
	return best;
}
