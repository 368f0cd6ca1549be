/* One template, one decision: the converged-snapshot algorithm of karmada.md
 * section K.
 *   1. Read the recorded claim; it is valid if the claimant exists, would be
 *      admitted, is not being deleted and still matches the template.
 *   2. Valid claim: keep it, unless preemption (gate on) hands it over.
 *   3. No or stale claim: fresh match. PPs of the template's namespace first;
 *      CPPs only when no PP matches. Within a kind: explicit priority, then
 *      implicit (name > label selector > kind only), then name order. */
#include "karmada.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

const char *pp_action_name(pp_action a)
{
	switch (a) {
	case PP_ACT_CLAIM: return "Claim";
	case PP_ACT_KEEP: return "Keep";
	case PP_ACT_PREEMPT: return "Preempt";
	case PP_ACT_SKIPPED: return "Skipped";
	default: return "None";
	}
}

static void append(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, size - used, fmt, ap);
	va_end(ap);
}

/* "PropagationPolicy default/name" or "ClusterPropagationPolicy name". */
static const char *describe_policy(pp_policy_kind kind, const char *ns, const char *name, char *buf, size_t size)
{
	if (kind == PP_PROPAGATION_POLICY)
		snprintf(buf, size, "PropagationPolicy %s/%s", ns, name);
	else
		snprintf(buf, size, "ClusterPropagationPolicy %s", name);
	return buf;
}

static const char *describe(const pp_policy *p, char *buf, size_t size)
{
	return describe_policy(p->kind, p->namespace, p->name, buf, size);
}

static const char *describe_claim(const pp_claim *c, char *buf, size_t size)
{
	return describe_policy(c->kind, c->namespace, c->name, buf, size);
}

/* A PP can only claim templates of its own namespace; cluster-scoped
 * templates only get CPPs (LookForMatchedPolicy). */
static bool policy_can_see(const pp_policy *p, const pp_template *t)
{
	if (p->kind == PP_CLUSTER_PROPAGATION_POLICY)
		return true;
	return *t->namespace && strcmp(p->namespace, t->namespace) == 0;
}

static int collect_candidates(const pp_world *w, const pp_template *t, pp_decision *d)
{
	size_t cap = 0;

	for (long i = 0; i < w->npolicies; i++) {
		const pp_policy *p = &w->policies[i];
		if (!p->admitted || p->deleting || !policy_can_see(p, t))
			continue;
		pp_match_level l = pp_policy_level(p, t);
		if (l == PP_MATCH_NONE)
			continue;
		d->cands = pk_grow(d->cands, &cap, (size_t)d->ncands + 1, sizeof *d->cands);
		d->cands[d->ncands++] = (pp_candidate){.policy = p, .level = l};
	}
	return 0;
}

/* Why a stale claim is not honoured, or NULL if it is valid. */
static const char *stale_because(const pp_policy *claimant, const pp_template *t)
{
	if (!claimant)
		return "is not in the input";
	if (!claimant->admitted)
		return "would be rejected by the webhook";
	if (claimant->deleting)
		return "is being deleted";
	if (!policy_can_see(claimant, t) || pp_policy_level(claimant, t) == PP_MATCH_NONE)
		return "no longer matches the template";
	return NULL;
}

/* Why candidate c lost a fresh match against winner w. */
static void explain_fresh_loss(pp_candidate *c, const pp_candidate *w)
{
	const pp_policy *a = c->policy, *b = w->policy;

	c->why_lost = c->why_buf;
	if (a->kind != b->kind)
		snprintf(c->why_buf, sizeof c->why_buf,
		         "a ClusterPropagationPolicy is only considered when no PropagationPolicy matches");
	else if (a->priority != b->priority)
		snprintf(c->why_buf, sizeof c->why_buf, "lower explicit priority (%d < %d)", (int)a->priority,
		         (int)b->priority);
	else if (c->level != w->level)
		snprintf(c->why_buf, sizeof c->why_buf, "same explicit priority, weaker match (%s < %s)",
		         pp_match_level_name(c->level), pp_match_level_name(w->level));
	else
		snprintf(c->why_buf, sizeof c->why_buf,
		         "same explicit priority and match, name sorts after \"%s\"", b->name);
}

static void fresh_match(const pp_template *t, pp_decision *d)
{
	pp_candidate *best = NULL;
	char who[300];

	for (int i = 0; i < d->ncands; i++) {
		pp_candidate *c = &d->cands[i];
		if (!best || (c->policy->kind == PP_PROPAGATION_POLICY && best->policy->kind != PP_PROPAGATION_POLICY))
			best = c;
		else if (c->policy->kind == best->policy->kind &&
		         pp_rank_compare(c->policy, c->level, best->policy, best->level) < 0)
			best = c;
	}
	if (!best) {
		d->action = PP_ACT_NONE;
		append(d->reason, sizeof d->reason, "%s",
		       *t->namespace ? "no policy matches"
		                     : "no ClusterPropagationPolicy matches (only those claim a cluster-scoped template)");
		return;
	}
	d->policy = best->policy;
	d->action = PP_ACT_CLAIM;
	append(d->reason, sizeof d->reason, "matched by %s (priority %d, %s match", describe(best->policy, who, sizeof who),
	       (int)best->policy->priority, pp_match_level_name(best->level));
	if (d->ncands > 1)
		append(d->reason, sizeof d->reason, ", best of %d", d->ncands);
	append(d->reason, sizeof d->reason, ")");
	for (int i = 0; i < d->ncands; i++)
		if (&d->cands[i] != best)
			explain_fresh_loss(&d->cands[i], best);
}

static void keep_or_preempt(const pp_world *w, const pp_template *t, const pp_options *o, pp_decision *d)
{
	const pp_policy *claimant = d->previous_policy;
	char who[300], who2[300];

	const pp_policy *preemptor = pp_preemptor(w, t, claimant, o, d);
	if (preemptor) {
		d->policy = preemptor;
		d->action = PP_ACT_PREEMPT;
		append(d->reason, sizeof d->reason, "%s (priority %d) preempts %s (priority %d)",
		       describe(preemptor, who, sizeof who), (int)preemptor->priority,
		       describe(claimant, who2, sizeof who2), (int)claimant->priority);
		if (preemptor->kind != claimant->kind)
			append(d->reason, sizeof d->reason, ": a PropagationPolicy preempts a ClusterPropagationPolicy regardless of priority");
		if (d->preemptor_tie)
			append(d->reason, sizeof d->reason,
			       "; several preemptors share priority %d: upstream the first to reconcile wins, "
			       "pp-match takes the first by name",
			       (int)preemptor->priority);
	} else {
		d->policy = claimant;
		d->action = PP_ACT_KEEP;
		append(d->reason, sizeof d->reason, "claimed by %s; a claim sticks, priority only applies at the first match",
		       describe(claimant, who, sizeof who));
	}
	for (int i = 0; i < d->ncands; i++) {
		pp_candidate *c = &d->cands[i];
		if (c->policy == d->policy)
			continue;
		if (c->policy == claimant) {
			c->why_lost = "preempted";
			continue;
		}
		char buf[160];
		const char *why = pp_cannot_preempt(c->policy, claimant, t, o, buf, sizeof buf);
		if (why)
			snprintf(c->why_buf, sizeof c->why_buf, "cannot preempt: %.160s", why);
		else
			snprintf(c->why_buf, sizeof c->why_buf, "could preempt, but %.150s wins", describe(d->policy, who, sizeof who));
		c->why_lost = c->why_buf;
	}
}

void pp_decide(const pp_world *w, const pp_template *t, const pp_options *o, pp_decision *d)
{
	char who[300];

	memset(d, 0, sizeof *d);
	d->tmpl = t;
	if (t->skipped) {
		d->action = PP_ACT_SKIPPED;
		append(d->reason, sizeof d->reason, "%s", t->skipped);
		return;
	}
	d->previous = pp_claim_read(t);
	d->previous_policy = pp_claim_find(w, &d->previous);
	if (collect_candidates(w, t, d) != 0) {
		append(d->reason, sizeof d->reason, "out of memory");
		return;
	}
	if (w->npolicies == 0) {
		append(d->reason, sizeof d->reason, "no PropagationPolicy or ClusterPropagationPolicy in the input");
		return;
	}
	if (d->previous.form == PP_CLAIM_NONE) {
		fresh_match(t, d);
		return;
	}
	const char *stale = stale_because(d->previous_policy, t);
	if (stale) {
		/* The detector removes a stale claim, and the template is matched
		 * again from scratch (cleanup on deletion / unmatched selectors). */
		append(d->reason, sizeof d->reason, "recorded claimant %s %s; ",
		       describe_claim(&d->previous, who, sizeof who), stale);
		fresh_match(t, d);
		return;
	}
	keep_or_preempt(w, t, o, d);
}

void pp_decision_free(pp_decision *d)
{
	free(d->cands);
	d->cands = NULL;
	d->ncands = 0;
}
