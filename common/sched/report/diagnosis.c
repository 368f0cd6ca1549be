/* Why no node fits, as a record gives it: the FitError's reasons per
 * filter and per preemption dry run (grouped as upstream counts them, the
 * taints TaintToleration stopped at named), and a gated pod's PreEnqueue
 * rejection; see records.h. */
#include "sched/report/records.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/emit.h"
#include "k8s/json.h"
#include "sched/engine/filter/dra.h"

enum { MAX_TAINTS = 64 };

/* The taints TaintToleration stopped the pod at, each with its nodes. */
typedef struct taint_count {
	const pk_taint *t;
	long nodes;
} taint_count;

typedef struct taint_tally {
	taint_count c[MAX_TAINTS];
	int n;
	long more;                /* nodes of taints past MAX_TAINTS */
	const char *reason;       /* the status reason they give */
} taint_tally;

static bool same_taint(const pk_taint *a, const pk_taint *b)
{
	return a->effect == b->effect && strcmp(a->key, b->key) == 0 && strcmp(a->value, b->value) == 0;
}

static void taints_of(const pk_evaluation *ev, taint_tally *x)
{
	x->n = 0;
	x->more = 0;
	x->reason = NULL;
	const pk_pod *pod = ev->preemptor->pod;
	for (long i = 0; i < ev->nnodes; i++) {
		const pk_status *st = ev->nodes[i].filter;
		if (!st || !st->plugin || strcmp(st->plugin, "TaintToleration") != 0 || !st->nreasons)
			continue;
		const pk_taint *t = pk_untolerated_taint(pod, ev->nodes[i].ni->node);
		if (!t)
			continue;
		x->reason = st->reasons[0];
		int k = 0;
		while (k < x->n && !same_taint(x->c[k].t, t))
			k++;
		if (k == x->n && x->n == MAX_TAINTS) {
			x->more++;
			continue;
		}
		if (k == x->n)
			x->c[x->n++] = (taint_count){ t, 0 };
		x->c[k].nodes++;
	}
}

static void taints_emit(pk_emit *e, const taint_tally *x)
{
	pk_emit_array(e, "taints");
	for (int k = 0; k < x->n; k++) {
		pk_emit_object(e, NULL);
		pk_emit_string(e, "key", x->c[k].t->key);
		pk_emit_string(e, "value", x->c[k].t->value);
		pk_emit_string(e, "effect", pk_taint_effect_name(x->c[k].t->effect));
		pk_emit_number(e, "nodes", (double)x->c[k].nodes);
		pk_emit_end(e);
	}
	pk_emit_end(e);
	if (x->more)
		pk_emit_number(e, "nodesWithOtherTaints", (double)x->more);
}

static void fit_reasons_emit(pk_emit *e, const char *key, const pk_fit_error *fe, const taint_tally *taints)
{
	pk_emit_array(e, key);
	for (int i = 0; i < fe->n; i++) {
		pk_emit_object(e, NULL);
		pk_emit_string(e, "reason", fe->reasons[i].reason);
		pk_emit_number(e, "nodes", (double)fe->reasons[i].nodes);
		if (taints && taints->n && taints->reason && strcmp(taints->reason, fe->reasons[i].reason) == 0)
			taints_emit(e, taints);
		pk_emit_end(e);
	}
	pk_emit_end(e);
}

void pk_diagnosis_emit(pk_emit *e, const char *key, const pk_evaluation *ev, const char *gate)
{
	static const char prefix[] = "preemption: ";
	taint_tally taints;
	taints_of(ev, &taints);
	pk_emit_object(e, key);
	pk_emit_number(e, "nodes", (double)ev->nnodes);
	fit_reasons_emit(e, "filter", &ev->filter_error, &taints);
	if (gate) {
		pk_emit_string(e, "postFilter", strncmp(gate, prefix, sizeof prefix - 1) == 0 ? gate + sizeof prefix - 1
		                                                                              : gate);
	} else {
		pk_emit_string(e, "postFilter", ev->postfilter ? ev->postfilter : "");
		if (ev->preemption_error.n)
			fit_reasons_emit(e, "preemption", &ev->preemption_error, NULL);
	}
	pk_emit_end(e);
}

void pk_pre_enqueue_emit(pk_emit *e, const char *key, const pk_evaluation *ev)
{
	pk_emit_object(e, key);
	pk_emit_string(e, "plugin", "SchedulingGates");
	pk_emit_string(e, "code", pk_code_name(PK_CODE_UNSCHEDULABLE_UNRESOLVABLE));
	pk_emit_string(e, "message", ev->message);
	pk_emit_object(e, "podScheduled");
	pk_emit_string(e, "status", "False");
	pk_emit_string(e, "reason", PK_POD_REASON_SCHEDULING_GATED);
	pk_emit_string(e, "message", PK_POD_SCHEDULING_GATED_MESSAGE);
	pk_emit_end(e);
	pk_emit_end(e);
}


/* ---- --explain: DynamicResources' rejection in this tool's words ---------------- */

/* The account of node i, when DynamicResources' Filter stopped it (the
 * scheduling cycle's filter; the dry run never asks it in the release). */
static bool dra_why_of(const pk_evaluation *e, long i, const pk_status *st, pk_dra_why *w)
{
	if (!st || st->code == PK_CODE_SUCCESS || !st->plugin || strcmp(st->plugin, "DynamicResources") != 0 ||
	    e->nodes[i].dry)
		return false;
	return pk_dra_explain(e->preemptor->pod, e->nodes[i].ni->node, w);
}

void pk_dra_detail_emit(pk_emit *em, const pk_evaluation *e, long i, const pk_status *st)
{
	pk_dra_why w;
	if (!dra_why_of(e, i, st, &w))
		return;
	pk_emit_object(em, "draDetail");
	if (*w.claim)
		pk_emit_string(em, "claim", w.claim);
	if (*w.request)
		pk_emit_string(em, "request", w.request);
	pk_emit_string(em, "cause", w.cause);
	pk_emit_string(em, "message", w.message);
	pk_emit_end(em);
}

const char *pk_dra_detail_text(const char *claim, const char *request, const char *message, char *buf,
                               size_t size)
{
	if (*claim && *request)
		snprintf(buf, size, "claim %s, request %s: %s", claim, request, message);
	else if (*claim)
		snprintf(buf, size, "claim %s: %s", claim, message);
	else
		snprintf(buf, size, "%s", message);
	return buf;
}

const char *pk_node_dra_detail_text(const pk_evaluation *e, long i, char *buf, size_t size)
{
	const char *stage, *preemption;
	pk_dra_why w;
	if (!dra_why_of(e, i, pk_node_status_of(e, i, &stage, &preemption), &w))
		return NULL;
	return pk_dra_detail_text(w.claim, w.request, w.message, buf, size);
}
