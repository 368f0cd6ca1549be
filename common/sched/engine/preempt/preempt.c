/* DefaultPreemption's evaluation: the filter pass, DryRunPreemption with
 * candidate sampling, and playing a chosen plan forward. Its parts:
 * pdb.c, units.c (victim units), select.c (SelectVictimsOnNode), choice.c
 * (eligibility, FitError, node choice), cycle.c (the preemptor's PreFilter state); what evaluations keep
 * for the next preemptor of the same shape (the memo, the session) is
 * memo.c's. preempt_int.h declares what these files share. */
#include "sched/engine/filter/interpod.h"
#include "sched/engine/cluster/podgroup.h"
#include "sched/engine/preempt/preempt_int.h"
#include "sched/engine/reasons.h"
#include "sched/engine/filter/spread.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define R_NOT_HELPFUL PK_R_NOT_HELPFUL

/* ---- evaluation ------------------------------------------------------------ */

void pk_eval_opts_default(pk_eval_opts *o)
{
	memset(o, 0, sizeof *o);
	o->min_candidate_nodes_percentage = 10;
	o->min_candidate_nodes_absolute = 100;
	o->k8s_minor = PK_K8S_MINOR_NEWEST;
}

void pk_eval_opts_engine(pk_eval_opts *o, const pk_engine_opts *e)
{
	o->k8s_minor = e->release.minor;
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

/* FitError.Error() after a PreFilter's rejection: its message (the
 * reasons joined by ", ") once, not the nodes' histogram. */
static const char *prefilter_message(pk_evaluation *e, const pk_status *st)
{
	size_t len = 64;
	for (int i = 0; i < st->nreasons; i++)
		len += strlen(st->reasons[i]) + 2;
	char *out = pk_arena_alloc(&e->arena, len);
	size_t w = (size_t)snprintf(out, len, PK_R_FIT_ERROR ": ", e->nnodes);
	for (int i = 0; i < st->nreasons; i++)
		w += (size_t)snprintf(out + w, len - w, "%s%s", i ? ", " : "", st->reasons[i]);
	snprintf(out + w, len - w, ".");
	return out;
}

/* The FitError of the scheduling cycle's filter pass. */
static const char *filter_message(pk_evaluation *e)
{
	if (e->nnodes == 0)
		return PK_R_NO_NODES;
	const pk_status **st = pk_xmalloc(sizeof *st * (size_t)e->nnodes);
	for (long i = 0; i < e->nnodes; i++)
		st[i] = e->nodes[i].filter;
	const char *m = pk_fit_error_message(&e->arena, e->nnodes, st, e->nnodes, &e->filter_error);
	free(st);
	if (e->nodes[0].filter->prefilter)
		m = prefilter_message(e, e->nodes[0].filter);
	return m;
}

/* "<filter FitError> preemption: <preemption message>" as the scheduler's
 * FailedScheduling event shows it. */
static const char *event_message(pk_evaluation *e, const char *filter, const char *preemption)
{
	size_t len = strlen(filter) + strlen(preemption) + 16;
	char *out = pk_arena_alloc(&e->arena, len);
	snprintf(out, len, "%s preemption: %s", filter, preemption);
	e->postfilter = preemption;
	return out;
}

static void dry_run(pk_cycle *cy, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e,
                    long *potential, long np, memo_entry *memo)
{
	pk_snapshot *s = cy->s;
	e->num_candidates = o->sample ? pk_num_candidates(np, o->min_candidate_nodes_percentage,
	                                                  o->min_candidate_nodes_absolute) : np;
	e->offset = o->sample && np ? ((o->offset % np) + np) % np : 0;
	/* Candidates in visiting order; the evaluation lists the non-violating
	 * ones first, as upstream does: those go straight into the result, the
	 * (usually few) violating ones aside, appended at the end. */
	pk_candidate *cand = pk_arena_alloc(&e->arena, sizeof *cand * (size_t)(np + 1));
	pk_candidate *vio = NULL;
	long *vio_node = NULL;
	long nn = 0, nvl = 0;
	size_t vcap = 0;
	pk_candidate c;
	for (long i = 0; i < np; i++) {
		long idx = potential[(e->offset + i) % np];
		pk_node_eval *ne = &e->nodes[idx];
		if (i + 1 < np)
			pk_prefetch_unless_known(&s->infos[potential[(e->offset + i + 1) % np]], memo, o->memo);
		ne->dry = pk_node_dry_run(cy, p->pod, &s->infos[idx], o, memo, &e->arena, &c);
		if (ne->dry->code != PK_CODE_SUCCESS)
			continue;
		if (c.num_pdb_violations == 0 && nn < e->num_candidates) {
			ne->candidate = (int)nn;
			cand[nn++] = c;
		} else if (c.num_pdb_violations != 0 && nvl < e->num_candidates) {
			size_t had = vcap;
			vio = pk_grow(vio, &vcap, (size_t)nvl + 1, sizeof *vio);
			if (vcap != had) /* parallel */
				vio_node = pk_xrealloc(vio_node, vcap, sizeof *vio_node);
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

static void evaluate(pk_cycle *c, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e);

/* SchedulingGates' PreEnqueue rejected the pod (UnschedulableAndUnresolvable):
 * it never leaves the queue's unschedulable pods, so no cycle runs, no
 * PostFilter, no nomination. */
static void gated(const pk_snapshot *s, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e)
{
	memset(e, 0, sizeof *e);
	pk_arena_init(&e->arena);
	e->preemptor = p;
	e->best = -1;
	e->status = PK_PRE_UNSCHEDULABLE;
	e->pre_enqueue = true;
	e->postfilter = "";
	e->nodes = pk_arena_alloc(&e->arena, sizeof *e->nodes);
	e->k8s_minor = o->k8s_minor;
	size_t len = 64;
	for (int i = 0; i < p->pod->con->nscheduling_gates; i++)
		len += strlen(p->pod->con->scheduling_gates[i]) + 1;
	char *m = pk_arena_alloc(&e->arena, len);
	e->message = pk_pod_gates_message(p->pod, m, len);
	(void)s;
}

/* KEP-5836: the pod's own entry (its allocated resources, as the
 * scheduler's cache holds it) leaves its node for the evaluation, so that
 * the spec's requests are what must fit: NodeResourcesFit's delta over the
 * cached pod (adjustDeltasToAccomodateCacheDiscrepancy). Its victims are
 * listed as they are chosen (no memo: one node). */
static void evaluate_resize(pk_cycle *c, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e)
{
	pk_eval_opts one = *o;
	one.memo = NULL;
	one.victims_of_best_only = false;
	pk_nodeinfo *own = pk_snapshot_node(c->s, p->pod->node_name);
	if (own && p->resize_own)
		pk_cycle_remove_pod(c, own, p->resize_own);
	evaluate(c, p, &one, e);
}

void pk_evaluate(pk_snapshot *s, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e)
{
	if (pk_pod_gated(p->pod)) {
		gated(s, p, o, e);
		return;
	}
	/* The preemptor's cycle: every PreFilter state, which the dry runs
	 * update as they remove and add pods (cycle.h). */
	pk_cycle c;
	pk_cycle_open(&c, s, NULL, p->pod);
	if (p->resize)
		evaluate_resize(&c, p, o, e);
	else
		evaluate(&c, p, o, e);
	e->k8s_minor = o->k8s_minor;
	pk_cycle_close(&c);
}

/* The filter pass over every node, into e (without a session). */
static void filter_pass(pk_cycle *c, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e,
                        memo_entry *memo)
{
	pk_snapshot *s = c->s;
	e->nodes = pk_arena_alloc(&e->arena, sizeof *e->nodes * (size_t)(s->nnodes + 1));
	for (long i = 0; i < s->nnodes; i++) {
		pk_node_eval *ne = &e->nodes[i];
		ne->ni = &s->infos[i];
		ne->candidate = -1;
		ne->filter = pk_node_filter(c, p->pod, &s->infos[i], memo, o->memo, &e->arena);
		if (ne->filter->code == PK_CODE_SUCCESS)
			e->nfit++;
		else if (ne->filter->code == PK_CODE_UNSCHEDULABLE)
			e->npotential++;
	}
}

/* KEP-5836: the filter pass of a bound pod whose resize is Deferred. Its
 * own node alone is evaluated (NodeName's PreFilterResult; the others get
 * the status findNodesThatFitPod gives the nodes it leaves out), unless
 * the node disables resize preemption (DeferredPodScheduling's Filter). */
static const pk_status resize_elsewhere = {
	.code = PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, .plugin = "NodeName",
	.nreasons = 1, .reasons = { PK_R_NODE_NAME_PREFILTER },
};
static const pk_status resize_disabled = {
	.code = PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, .plugin = "DeferredPodScheduling",
	.nreasons = 1, .reasons = { PK_R_RESIZE_DISABLED },
};

static void resize_filter_pass(pk_cycle *c, const pk_preemptor *p, pk_evaluation *e)
{
	pk_snapshot *s = c->s;
	e->nodes = pk_arena_alloc(&e->arena, sizeof *e->nodes * (size_t)(s->nnodes + 1));
	for (long i = 0; i < s->nnodes; i++) {
		pk_node_eval *ne = &e->nodes[i];
		pk_nodeinfo *ni = &s->infos[i];
		ne->ni = ni;
		ne->candidate = -1;
		if (strcmp(ni->node->name, p->pod->node_name) != 0)
			ne->filter = &resize_elsewhere;
		else if (ni->node->resize_preemption_disabled)
			ne->filter = &resize_disabled;
		else
			ne->filter = pk_node_filter(c, p->pod, ni, NULL, NULL, &e->arena);
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

static void evaluate(pk_cycle *c, const pk_preemptor *p, const pk_eval_opts *o, pk_evaluation *e)
{
	pk_snapshot *s = c->s;
	memset(e, 0, sizeof *e);
	pk_arena_init(&e->arena);
	e->preemptor = p;
	e->best = -1;
	e->message = "";
	e->postfilter = "";
	e->nnodes = s->nnodes;
	memo_entry *memo = pk_memo_begin(c, p->pod, o);
	pk_session *x = pk_session_sync(c, p->pod, o, memo, e);
	if (p->resize)
		resize_filter_pass(c, p, e);
	else if (!x)
		filter_pass(c, p, o, e, memo);
	/* the session's dry runs are shown when preemption is tried (below),
	 * and left out otherwise: flipped only when that changes */
	if (x && (e->nfit > 0 || p->gate_message || s->nnodes == 0))
		pk_session_show_dry(x, false);
	if (s->nnodes == 0) {
		/* ErrNoNodesAvailable: not a FitError, no PostFilter runs */
		e->status = PK_PRE_UNSCHEDULABLE;
		e->message = PK_R_NO_NODES;
		return;
	}
	if (p->resize_refusal) { /* the scheduler does not take the pod */
		e->status = PK_PRE_NOT_ELIGIBLE;
		e->message = p->resize_refusal;
		return;
	}
	if (e->nfit > 0) {
		e->status = PK_PRE_FITS;
		if (p->resize) /* DeferredPodScheduling's Permit: no bind, the kubelet resizes */
			e->message = PK_R_RESIZE_FITS;
		return;
	}
	if (p->gate_message) { /* PostFilter stops before the evaluator */
		static const char prefix[] = PK_R_PREEMPTION_PREFIX;
		const char *m = p->gate_message;
		e->status = PK_PRE_NOT_ELIGIBLE;
		e->message = event_message(e, fit_message(e, x),
		                           strncmp(m, prefix, sizeof prefix - 1) == 0 ? m + sizeof prefix - 1 : m);
		return;
	}
	const char *why;
	if (!pk_pod_eligible_to_preempt(c, p->pod, &why)) {
		if (x)
			pk_session_show_dry(x, false);
		e->status = PK_PRE_NOT_ELIGIBLE;
		e->message = event_message(e, fit_message(e, x), why);
		return;
	}
	e->status = PK_PRE_UNSCHEDULABLE;
	if (x) {
		pk_session_show_dry(x, true);
		pk_session_pick(x, c, p->pod, o, e);
	} else {
		long *potential = pk_arena_alloc(&e->arena, sizeof *potential * (size_t)(e->npotential + 1));
		long np = 0;
		for (long i = 0; i < s->nnodes; i++)
			if (e->nodes[i].filter->code == PK_CODE_UNSCHEDULABLE)
				potential[np++] = i;
		if (np > 0)
			dry_run(c, p, o, e, potential, np, memo);
	}
	if (e->ncandidates > 0) {
		e->status = PK_PRE_NEEDS_PREEMPTION;
		if (!x)
			e->best = pk_pick_one_node_why(e->candidates, e->ncandidates, s->now, &e->decided_by);
		pk_candidate *best = &e->candidates[e->best];
		if (o->victims_of_best_only && !best->victims) {
			/* the same selection again, the state unchanged, listing them */
			pk_nodeinfo *ni = pk_snapshot_node(s, best->node);
			pk_select_victims(c, p->pod, ni, &e->arena, best, true, NULL, false);
		}
		e->message = fit_message(e, x);
		return;
	}
	const pk_status **st = pk_xmalloc(sizeof *st * (size_t)(s->nnodes + 1));
	for (long i = 0; i < s->nnodes; i++)
		st[i] = e->nodes[i].dry ? e->nodes[i].dry : &not_helpful;
	const char *fe = pk_fit_error_message(&e->arena, s->nnodes, st, s->nnodes, &e->preemption_error);
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
	if (e->pre_enqueue)
		return;
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
	if (!e->preemptor->resize) /* a resize is the kubelet's once room is made: no nomination */
		pk_snapshot_nominate(s, pod, ni->node->name);
}
