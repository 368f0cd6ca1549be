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

