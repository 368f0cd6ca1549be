/* The PreemptionPlan: built once from the engine's structs, written as a
 * record or a table row; see plan.h. */
#include "sched/report/plan.h"

#include "base/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/dra.h"
#include "k8s/gates.h"
#include "k8s/json.h"
#include "k8s/quantity.h"
#include "sched/engine/filter/volumes.h"
#include "sched/engine/filter/dra.h"
#include "sched/report/records.h"

static pk_plan_result result_of_group(pk_pg_result r)
{
	switch (r) {
	case PK_PG_NO_PREEMPTION_NEEDED: return PK_PLAN_NO_PREEMPTION_NEEDED;
	case PK_PG_PREEMPT: return PK_PLAN_PREEMPT;
	case PK_PG_NOT_ELIGIBLE: return PK_PLAN_NOT_ELIGIBLE;
	case PK_PG_PREEMPTION_IN_PROGRESS: return PK_PLAN_PREEMPTION_IN_PROGRESS;
	default: return PK_PLAN_UNSCHEDULABLE;
	}
}

/* ---- building ----------------------------------------------------------------------- */

void pk_plan_add_warning(pk_plan *p, const char *w)
{
	if (w && p->nwarnings < PK_PLAN_MAX_WARNINGS)
		p->warnings[p->nwarnings++] = w;
}

void pk_plan_of_pod(pk_plan *p, const pk_evaluation *e, const pk_placement *pl, const char *gate_message)
{
	const pk_preemptor *pre = e->preemptor;
	const pk_pod *pod = pre->pod;
	memset(p, 0, sizeof *p);
	p->kind_named = true;
	p->namespace_ = pod->namespace_;
	p->name = pod->name;
	p->uid = pod->uid;
	p->scheduler = *pod->scheduler_name ? pod->scheduler_name : "default-scheduler";
	p->nominated_before = *pod->nominated_node ? pod->nominated_node : NULL;
	p->priority = pod->priority;
	p->k8s_minor = e->k8s_minor;
	p->found = gate_message ? PK_PLAN_NOT_ELIGIBLE : pk_plan_result_of(e->status);
	p->message = gate_message ? gate_message : e->message;
	p->candidates = gate_message ? NULL : e->candidates;
	p->ncandidates = gate_message ? 0 : e->ncandidates;
	p->best = e->best;
	p->decided_by = e->decided_by;
	if (p->found == PK_PLAN_NO_PREEMPTION_NEEDED) { /* the filter pass counted them: the first few named */
		p->nfit = e->nfit;
		for (long i = 0; p->nfit_shown < PK_FITS_SHOWN && i < e->nnodes; i++)
			if (e->nodes[i].filter->code == PK_CODE_SUCCESS)
				p->fit_nodes[p->nfit_shown++] = e->nodes[i].ni->node->name;
	}
	p->placement = pl;
	p->eval = e;
	p->resize_node = pre->resize ? pod->node_name : NULL;
	p->gate_message = gate_message;
	if (pod->unmodelled) {
		char names[256];
		pk_unmodelled_names(pod->unmodelled, names, sizeof names);
		snprintf(p->owned_warning, sizeof p->owned_warning, "not modelled, ignored when filtering: %s", names);
		pk_plan_add_warning(p, p->owned_warning);
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, pre->warnings)
		pk_plan_add_warning(p, cJSON_IsString(it) ? it->valuestring : NULL);
	pk_plan_add_warning(p, pk_volumes_assumption(pod));
	for (int i = 0; pk_dra_assumption(pod, i); i++)
		pk_plan_add_warning(p, pk_dra_assumption(pod, i));
	if (e->status != PK_PRE_FITS && e->status != PK_PRE_NEEDS_PREEMPTION)
		pk_plan_add_warning(p, pk_dra_held_devices_note(pod));
	if (pl)
		pk_plan_add_warning(p, pl->assumes);
	if (pre->gate_message && e->status == PK_PRE_NOT_ELIGIBLE) {
		p->gate = pre->gate;
		p->gate_status = pre->gate_message;
	}
	pk_plan_decide(p, 0);
}

void pk_plan_pod_from_record(pk_plan *p, const cJSON *rec, const cJSON *ref)
{
	p->namespace_ = pk_str_or(ref, "namespace", "");
	p->name = pk_str_or(ref, "name", "");
	p->uid = pk_str_or(ref, "uid", "");
	p->scheduler = pk_str_or(ref, "schedulerName", "default-scheduler");
	p->nominated_before = pk_str(ref, "nominatedNodeName");
	pk_int64(ref, "priority", &p->priority);
	p->best = -1;
	p->found = p->ncandidates ? PK_PLAN_PREEMPT : PK_PLAN_UNSCHEDULABLE;
	p->message = "";
	if (!rec)
		return;
	if (!pk_plan_result_parse(pk_str_or(rec, "status", "Preempt"), &p->found))
		p->found = PK_PLAN_UNSCHEDULABLE;
	p->message = pk_str_or(rec, "message", "");
	const cJSON *pod = pk_get(rec, "pod"); /* victims echoes a Deferred resize bound, as it is */
	if (*pk_str_or(pod, "spec.nodeName", "") && pk_pod_object_resize_deferred(pod))
		p->resize_node = pk_str_or(pod, "spec.nodeName", "");
	const cJSON *it;
	cJSON_ArrayForEach(it, pk_get(rec, "fitsNodes"))
		if (cJSON_IsString(it) && p->nfit_shown < PK_FITS_SHOWN)
			p->fit_nodes[p->nfit_shown++] = it->valuestring;
	p->nfit = cJSON_GetArraySize(pk_get(rec, "fitsNodes"));
	p->placement_record = pk_get(rec, "placement");
	p->diagnosis_record = pk_get(rec, "diagnosis");
	p->pre_enqueue_record = pk_get(rec, "preEnqueue");
	cJSON_ArrayForEach(it, pk_get(rec, "warnings"))
		pk_plan_add_warning(p, cJSON_IsString(it) ? it->valuestring : NULL);
	const cJSON *gate = pk_get(rec, "postFilter");
	if (cJSON_IsObject(gate)) {
		p->gate = pk_str(gate, "gate");
		p->gate_status = pk_str(gate, "status");
	}
}

/* A pod that fits: where, in the reason, and the node the scores chose. */
static void decide_fits(pk_plan *p)
{
	pk_fits_text(p->fit_nodes, p->nfit_shown, p->nfit, p->reason, sizeof p->reason);
	char text[600];
	const char *placed = NULL;
	if (p->placement && p->placement->node) {
		placed = pk_placement_text(p->placement, text, sizeof text);
		p->placed_on = p->placement->node->node->name;
	} else if (p->placement_record && (placed = pk_placement_json_text(p->placement_record, text, sizeof text))) {
		p->placed_on = pk_str_or(p->placement_record, "node", "");
	}
	if (placed) {
		size_t w = strlen(p->reason);
		snprintf(p->reason + w, sizeof p->reason - w, "; %s", placed);
	}
	if (p->resize_node && p->message && *p->message) { /* DeferredPodScheduling's Permit: nothing is bound */
		size_t w = strlen(p->reason);
		snprintf(p->reason + w, sizeof p->reason - w, "; %s", p->message);
	}
}

/* "node N" or "nodes N, A, B": the nodes whose pods a candidate evicts, its
 * own first (a disruptionMode-all group's members may run elsewhere). */
static void victim_nodes_text(const pk_candidate *c, char *buf, size_t size)
{
	int k = 0;
	while (k < c->nvictims && (!c->victims[k].node || c->victims[k].node == c->node ||
	                           strcmp(c->victims[k].node, c->node) == 0))
		k++;
	if (k == c->nvictims) { /* all on its own node: the usual case */
		snprintf(buf, size, "node %s", c->node);
		return;
	}
	const char **names = pk_xmalloc(sizeof *names * (size_t)(c->nvictims + 1));
	names[0] = c->node;
	for (int i = 0; i < c->nvictims; i++)
		names[i + 1] = c->victims[i].node;
	char list[1200];
	int n = pk_names_text(names, c->nvictims + 1, list, sizeof list);
	snprintf(buf, size, "node%s %s", n > 1 ? "s" : "", list);
	free(names);
}

/* " (N PodGroup disruption(s))" when victim units are pod groups. */
static const char *disruptions_text(int n, char *buf, size_t size)
{
	if (n <= 0)
		return "";
	snprintf(buf, size, " (%d PodGroup disruption(s))", n);
	return buf;
}

const char *pk_pre_enqueue_text(const char *message, char *buf, size_t size)
{
	snprintf(buf, size, "%s (SchedulingGates PreEnqueue: %s, PodScheduled False: %s)", message,
	         pk_code_name(PK_CODE_UNSCHEDULABLE_UNRESOLVABLE), PK_POD_REASON_SCHEDULING_GATED);
	return buf;
}

/* Under --dra-preemption=kep-5690: the devices the victims free (and those
 * they keep), at the end of the reason; nothing when no victim has any. */
static void victim_devices_reason(pk_plan *p)
{
	char text[1500];
	if (!pk_victim_devices_text(p->victims, p->nvictims, text, sizeof text))
		return;
	size_t w = strlen(p->reason);
	snprintf(p->reason + w, sizeof p->reason - w, "; %s", text);
}

/* PreEnqueue kept the pod out of the queue (a gated pod). */
static bool pre_enqueued(const pk_plan *p)
{
	return p->eval ? p->eval->pre_enqueue : p->pre_enqueue_record != NULL;
}

void pk_plan_decide(pk_plan *p, int64_t now)
{
	const char *decided_by = p->best >= 0 ? p->decided_by : NULL;
	int best = p->found != PK_PLAN_PREEMPT ? -1
	           : p->best >= 0 ? p->best : pk_pick_one_node_why(p->candidates, p->ncandidates, now, &decided_by);
	p->best = best;
	p->decided_by = best >= 0 ? decided_by : NULL;
	if (best >= 0) {
		const pk_candidate *c = &p->candidates[best];
		p->result = PK_PLAN_PREEMPT;
		p->nominated = p->resize_node ? NULL : c->node;
		p->victims = c->victims;
		p->nvictims = c->nvictims;
		p->num_pdb_violations = c->num_pdb_violations;
		p->cleared = c->clear_nominations;
		p->ncleared = c->nclear;
		p->candidate_resources = c->node_resources;
		p->num_pod_group_disruptions = c->num_pod_group_disruptions;
		p->disruptions = pk_candidate_disruptions(c);
		p->ndisruptions = c->ndisruptions;
		char nodes[1300], groups[64];
		victim_nodes_text(c, nodes, sizeof nodes);
		const char *dis = disruptions_text(c->num_pod_group_disruptions, groups, sizeof groups);
		if (strncmp(nodes, "nodes ", 6) == 0) /* the nominated node among them named again */
			snprintf(p->reason, sizeof p->reason,
			         "preempting %d pod(s) on %s%s, %s chosen from %d candidate node(s) by %s; %s", c->nvictims,
			         nodes, dis, c->node, p->ncandidates, decided_by, p->message);
		else
			snprintf(p->reason, sizeof p->reason, "preempting %d pod(s) on %s%s, chosen from %d candidate node(s) "
			         "by %s; %s", c->nvictims, nodes, dis, p->ncandidates, decided_by, p->message);
		if (p->resize_node) {
			size_t w = strlen(p->reason);
			snprintf(p->reason + w, sizeof p->reason - w, " The in-place resize is the kubelet's once they are "
			         "gone: no nomination (the pod is bound to %s).", p->resize_node);
		}
		victim_devices_reason(p); /* as victims' records gave them */
	} else if (p->found == PK_PLAN_NO_PREEMPTION_NEEDED) {
		p->result = PK_PLAN_NO_PREEMPTION_NEEDED;
		decide_fits(p);
	} else if (p->found == PK_PLAN_NOT_ELIGIBLE) {
		/* Upstream returns a nil result: an existing nomination stays. */
		p->result = PK_PLAN_NOT_ELIGIBLE;
		p->nominated = p->nominated_before;
		snprintf(p->reason, sizeof p->reason, "%s", p->message);
	} else if (pre_enqueued(p)) {
		/* never in a cycle: nothing is cleared, a nomination stays */
		p->result = PK_PLAN_UNSCHEDULABLE;
		p->nominated = p->nominated_before;
		pk_pre_enqueue_text(p->message, p->reason, sizeof p->reason);
	} else {
		/* No candidate: upstream clears any nomination the pod had. */
		p->result = PK_PLAN_UNSCHEDULABLE;
		snprintf(p->reason, sizeof p->reason, "%s", *p->message ? p->message : "no candidate node for preemption");
	}
}

static void group_devices_reason(pk_plan *p, const pk_pg_evaluation *e);

void pk_plan_of_group(pk_plan *p, const pk_pg_evaluation *e, const char *scheduler, int k8s_minor)
{
	const pk_podgroup *pg = e->group;
	memset(p, 0, sizeof *p);
	p->group = e;
	p->kind_named = true;
	p->namespace_ = pg->namespace_;
	p->name = pg->name;
	p->uid = pg->uid;
	p->scheduler = scheduler;
	p->priority = pg->priority;
	p->k8s_minor = k8s_minor;
	p->best = -1;
	p->result = p->found = result_of_group(e->result);
	if (e->result == PK_PG_PREEMPT) {
		p->num_pdb_violations = e->num_pdb_violations;
		p->num_pod_group_disruptions = e->num_pod_group_disruptions;
		p->disruptions = e->disruptions;
		p->ndisruptions = e->ndisruptions;
	}
	if (e->result == PK_PG_PREEMPT && e->nvictims) {
		p->owned_victims = pk_xcalloc((size_t)e->nvictims, sizeof *p->owned_victims);
		for (int i = 0; i < e->nvictims; i++)
			pk_victim_ref_of_pod(&p->owned_victims[i], e->victims[i]);
		p->victims = p->owned_victims;
		p->nvictims = e->nvictims;
	}
	snprintf(p->reason, sizeof p->reason, "%s", e->reason ? e->reason : "");
	group_devices_reason(p, e);
}

/* A share of a device (DRAConsumableCapacity): " [share <id>, consumes
 * <capacity>=<amount> ...]". */
static void share_text(const pk_dra_pick *d, char *buf, size_t size)
{
	size_t w = (size_t)snprintf(buf, size, " [share %s%s", d->share_id, d->nconsumed ? ", consumes" : "");
	for (int i = 0; i < d->nconsumed && w < size; i++) {
		char q[64];
		pk_qty_format(d->consumed[i].milli, q, sizeof q);
		w += (size_t)snprintf(buf + w, size - w, " %s=%s", d->consumed[i].key, q);
	}
	if (w < size)
		snprintf(buf + w, size - w, "]");
}

/* "; <lead>: driver/pool/device[ [share ...]], ... (claim ns/name,
 * allocated when[, shared]), ..." appended to reason: devices v[0..n),
 * claim by claim. */
static void reason_devices(char *reason, size_t size, const char *lead, const pk_dra_pick *v, int n)
{
	size_t w = strlen(reason);
	int k = snprintf(reason + w, size - w, "; %s:", lead);
	for (int i = 0; k > 0 && (size_t)k < size - w && i < n; i++) {
		w += (size_t)k;
		const pk_dra_pick *d = &v[i];
		bool last = i + 1 == n || v[i + 1].claim_name != d->claim_name ||
		            v[i + 1].claim_namespace != d->claim_namespace;
		char share[800] = "";
		if (d->share_id)
			share_text(d, share, sizeof share);
		k = snprintf(reason + w, size - w, " %s/%s/%s%s%s", d->driver, d->pool, d->device, share, last ? "" : ",");
		if (last && k > 0 && (size_t)k < size - w) {
			w += (size_t)k;
			k = snprintf(reason + w, size - w, " (claim %s/%s, allocated %s%s)%s", d->claim_namespace,
			             d->claim_name, d->allocated_before ? "before" : "now",
			             d->group_shared ? ", shared with the group's other members" : "", i + 1 < n ? "," : "");
		}
	}
}

/* Under --dra-preemption=kep-5690, a pod's plan that preempts: the devices
 * each victim frees, worked out from s (before the plan is played forward),
 * on the plan's own copy of the victims, and in the reason. */
static void plan_victim_devices(pk_plan *p, const pk_snapshot *s, const pk_pod *pod)
{
	if (!s->dra_kep5690 || p->result != PK_PLAN_PREEMPT || !p->nvictims || p->owned_victims)
		return;
	pk_victim_ref *v = pk_xmalloc(sizeof *v * (size_t)p->nvictims);
	memcpy(v, p->victims, sizeof *v * (size_t)p->nvictims);
	p->owned_devices = pk_dra_victims_devices(s, pod, p->nominated ? p->nominated : p->resize_node, v, p->nvictims);
	if (!p->owned_devices) {
		free(v);
		return;
	}
	p->owned_victims = v;
	p->victims = v;
	victim_devices_reason(p);
}

/* The devices a placed pod's claims get on n (DynamicResources), in the
 * record and at the end of the reason, claim by claim. */
static void plan_devices(pk_plan *p, const pk_snapshot *s, const pk_pod *pod, const pk_node *n)
{
	p->ndevices = pk_dra_devices_on(s, pod, n, &p->devices);
	if (p->ndevices)
		reason_devices(p->reason, sizeof p->reason, "devices", p->devices, p->ndevices);
}

/* A PodGroup's placed members' devices at the end of its reason, member by
 * member ("<member> devices: ..."), as its evaluation placed them. */
static void group_devices_reason(pk_plan *p, const pk_pg_evaluation *e)
{
	char lead[300];
	bool placed = e->result == PK_PG_PREEMPT || e->result == PK_PG_NO_PREEMPTION_NEEDED;
	for (int k = 0; placed && k < e->nmembers; k++)
		if (e->placements[k].node && e->placements[k].ndevices) {
			snprintf(lead, sizeof lead, "%s devices", e->placements[k].pod->name);
			reason_devices(p->reason, sizeof p->reason, lead, e->placements[k].devices,
			               e->placements[k].ndevices);
		}
}

void pk_plan_of_step(pk_plan *p, const pk_sim_step *st, const pk_snapshot *s, int k8s_minor, const pk_apply *a)
{
	const pk_sim_unit *u = st->unit;
	if (st->group_eval) {
		pk_plan_of_group(p, st->group_eval, u->npods ? u->pods[0]->scheduler_name : "default-scheduler",
		                 k8s_minor);
		pk_plan_add_warning(p, pk_pg_reprieve_assumption(st->group_eval));
		if (u->gated_members) {
			snprintf(p->owned_warning, sizeof p->owned_warning,
			         "%d member(s) of the group carry scheduling gates: SchedulingGates' PreEnqueue keeps them "
			         "out of the queue (PodScheduled False, reason " PK_POD_REASON_SCHEDULING_GATED "), so they "
			         "are not among its pending members until their gates are removed; each has a plan of its own",
			         u->gated_members);
			pk_plan_add_warning(p, p->owned_warning);
		}
		p->snap = s;
	} else {
		pk_plan_of_pod(p, st->pod_eval, st->node ? &st->placement : NULL, st->gate_message);
		p->scaled = u->scaled;
		if (!st->gate_message) { /* the per-pod PostFilter refused it: it touches no node */
			p->snap = s;
			p->assumed_on = st->node;
		}
		if (st->node && u->pods[0]->con->dra)
			plan_devices(p, s, u->pods[0], st->node->node);
		plan_victim_devices(p, s, u->pods[0]);
	}
	pk_plan_add_warning(p, pk_ns_assumption(s->namespaces));
	p->recreated = u->recreated; /* an evicted gang's members come back as one */
	p->requeued = st->requeued;
	const pk_applied *from = u->npods ? pk_apply_owner(a, u->pods[0]) : NULL;
	if (from) {
		p->applied_kind = from->kind;
		p->applied_namespace = from->namespace_;
		p->applied_name = from->name;
	}
}

void pk_plan_free(pk_plan *p)
{
	free(p->owned_victims);
	p->owned_victims = NULL;
	free(p->owned_devices);
	p->owned_devices = NULL;
	free(p->devices);
	p->devices = NULL;
	p->ndevices = 0;
}

/* ---- nodeResources --------------------------------------------------------------------- */

/* The pods of pods[0..n) on node (each on nodes[i], or its own node), into out. */
static int pods_on(const char *node, const pk_pod *const *pods, const char *const *nodes, int n,
                   const pk_pod **out)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if ((nodes ? nodes[i] : pods[i]->node_name) == node)
			out[k++] = pods[i];
	return k;
}

/* A plan's nodeResources array: every node that loses a pod of gone or
 * gains added[i] (on added_nodes[i]), in order of first mention. */
static void plan_nodes_emit(pk_emit *e, const pk_snapshot *s, const pk_pod *const *gone, int ngone,
                            const pk_pod *const *added, const char *const *added_nodes, int nadded)
{
	int total = ngone + nadded;
	const char **names = pk_xmalloc(sizeof *names * (size_t)(total ? total : 1));
	const pk_pod **g = pk_xmalloc(sizeof *g * (size_t)(ngone ? ngone : 1));
	const pk_pod **a = pk_xmalloc(sizeof *a * (size_t)(nadded ? nadded : 1));
	int nnames = 0;
	for (int i = 0; i < total; i++) {
		const char *n = i < ngone ? gone[i]->node_name : added_nodes[i - ngone];
		int k = 0;
		while (k < nnames && names[k] != n)
			k++;
		if (k == nnames)
			names[nnames++] = n;
	}
	pk_emit_array(e, "nodeResources");
	for (int k = 0; k < nnames; k++) {
		const pk_nodeinfo *ni = pk_snapshot_node(s, names[k]);
		if (!ni)
			continue;
		int ng = pods_on(names[k], gone, NULL, ngone, g);
		int na = pods_on(names[k], added, added_nodes, nadded, a);
		pk_node_resources_emit(e, NULL, ni, g, ng, a, na);
	}
	pk_emit_end(e);
	free(names);
	free(g);
	free(a);
}

/* A pod's plan: the preemptor assumed onto the node it fits, or the chosen
 * candidate's victims gone and the preemptor nominated there; nothing for
 * other outcomes. */
static void pod_plan_nodes_emit(pk_emit *em, const pk_snapshot *s, const pk_evaluation *e,
                                const pk_nodeinfo *assumed)
{
	const pk_pod *pre = e->preemptor->pod;
	if (assumed) {
		plan_nodes_emit(em, s, NULL, 0, &pre, &assumed->node->name, 1);
		return;
	}
	if (e->status != PK_PRE_NEEDS_PREEMPTION || e->best < 0)
		return;
	const pk_candidate *c = &e->candidates[e->best];
	const pk_nodeinfo *ni = pk_snapshot_node(s, c->node);
	if (!ni)
		return;
	/* every node that loses a pod: a disruptionMode-all gang's members run
	 * on other nodes too */
	const pk_pod **gone = pk_xmalloc(sizeof *gone * (size_t)(c->nvictims ? c->nvictims : 1));
	int ngone = 0;
	for (int i = 0; i < c->nvictims; i++) {
		const char *at = c->victims[i].node;
		bool here = !at || !*at || at == ni->node->name || strcmp(at, ni->node->name) == 0;
		const pk_nodeinfo *vn = here ? ni : pk_snapshot_node(s, at);
		const pk_pod *p = vn ? pk_nodeinfo_find_pod(vn, &c->victims[i]) : NULL;
		if (p)
			gone[ngone++] = p;
	}
	plan_nodes_emit(em, s, gone, ngone, &pre, &ni->node->name, 1);
	free(gone);
}

/* A PodGroup's plan: its victims gone and its placed members added;
 * nothing when nothing moves. */
static void group_plan_nodes_emit(pk_emit *em, const pk_snapshot *s, const pk_pg_evaluation *e)
{
	bool preempt = e->result == PK_PG_PREEMPT;
	if (!preempt && e->result != PK_PG_NO_PREEMPTION_NEEDED)
		return;
	int n = e->nmembers ? e->nmembers : 1;
	const pk_pod **added = pk_xmalloc(sizeof *added * (size_t)n);
	const char **nodes = pk_xmalloc(sizeof *nodes * (size_t)n);
	int nadded = 0;
	for (int k = 0; k < e->nmembers; k++)
		if (e->placements[k].node) {
			added[nadded] = e->placements[k].pod;
			nodes[nadded++] = e->placements[k].node->node->name;
		}
	plan_nodes_emit(em, s, (const pk_pod *const *)e->victims, preempt ? e->nvictims : 0, added, nodes, nadded);
	free(added);
	free(nodes);
}

/* ---- the record ----------------------------------------------------------------------- */


/* {"call","uid","namespace","name" opened in the actions array: details
 * follow before its pk_emit_end. */
static void action_begin(pk_emit *e, const char *call, const char *uid, const char *ns, const char *name)
{
	pk_emit_object(e, NULL);
	pk_emit_string(e, "call", call);
	pk_emit_string(e, "uid", uid);
	pk_emit_string(e, "namespace", ns);
	pk_emit_string(e, "name", name);
}

/* A victim's two calls, as the executor makes them: a status patch adding
 * the DisruptionTarget condition, then a plain DELETE (no eviction: the
 * apiserver does not enforce PDBs) with the Preempted event; none for a
 * victim already terminating. node is the victim's node; by is what
 * preempts, as the messages name it: "pod <uid>" or "pod group
 * <namespace>/<name>"; what is "pod" or "pod group". Not inlined: the
 * message cuts names past the API's limits, which GCC would warn of. */
__attribute__((noinline)) static void victim_actions_emit(pk_emit *e, const pk_victim_ref *v, const char *node, const char *scheduler,
                                const char *what, const char *by)
{
	if (v->terminating)
		return;
	char msg[600];
	action_begin(e, "pod_status_patch", v->uid, v->namespace_, v->name);
	pk_emit_object(e, "details");
	pk_emit_object(e, "condition");
	snprintf(msg, sizeof msg, "%s: preempting to accommodate a higher priority %s", scheduler, what);
	pk_emit_string(e, "type", "DisruptionTarget");
	pk_emit_string(e, "status", "True");
	pk_emit_string(e, "reason", "PreemptionByScheduler");
	pk_emit_string(e, "message", msg);
	pk_emit_end(e);
	pk_emit_end(e);
	pk_emit_end(e);

	action_begin(e, "pod_delete", v->uid, v->namespace_, v->name);
	pk_emit_object(e, "details");
	pk_emit_string(e, "node", node);
	pk_emit_object(e, "event");
	snprintf(msg, sizeof msg, "Preempted by %s on node %s", by, node);
	pk_emit_string(e, "type", "Normal");
	pk_emit_string(e, "reason", "Preempted");
	pk_emit_string(e, "action", "Preempting");
	pk_emit_string(e, "message", msg);
	pk_emit_end(e);
	pk_emit_end(e);
	pk_emit_end(e);
}


static void nomination_action(pk_emit *e, const char *uid, const char *ns, const char *name, const char *node)
{
	action_begin(e, "pod_status_patch", uid, ns, name);
	pk_emit_object(e, "details");
	if (node)
		pk_emit_string(e, "nominatedNodeName", node);
	else
		pk_emit_null(e, "nominatedNodeName");
	pk_emit_end(e);
	pk_emit_end(e);
}

/* The API calls that carry the plan out, as the executor makes them. */
static void actions_emit(pk_emit *e, const pk_plan *p)
{
	pk_emit_array(e, "actions");
	char by[600];
	if (p->group)
		snprintf(by, sizeof by, "pod group %s/%s", p->namespace_, p->name);
	else
		snprintf(by, sizeof by, "pod %s", p->uid);
	/* executor.go: podGroupExecutorPreemptor.Type() is "podgroup" */
	/* the node of the victims: a group's are where they run, a resize's on its own node */
	const char *at = p->resize_node ? p->resize_node : p->nominated;
	for (int i = 0; i < p->nvictims; i++)
		victim_actions_emit(e, &p->victims[i], p->group ? p->victims[i].node : at, p->scheduler,
		                       p->group ? "podgroup" : "pod", by);
	if (!p->group) {
		for (int i = 0; i < p->ncleared; i++)
			nomination_action(e, p->cleared[i].uid, p->cleared[i].namespace_, p->cleared[i].name, NULL);
		if (p->result == PK_PLAN_PREEMPT && !p->resize_node)
			nomination_action(e, p->uid, p->namespace_, p->name, p->nominated);
		else if (p->result == PK_PLAN_UNSCHEDULABLE && p->nominated_before && *p->nominated_before &&
		         !pre_enqueued(p)) /* a gated pod ran no cycle: nothing clears its nomination */
			nomination_action(e, p->uid, p->namespace_, p->name, NULL);
	}
	pk_emit_end(e);
}

static void victims_emit(pk_emit *e, const char *key, const pk_victim_ref *v, int n)
{
	pk_emit_array(e, key);
	for (int i = 0; i < n; i++)
		pk_victim_ref_emit(e, NULL, &v[i]);
	pk_emit_end(e);
}

static void warnings_emit(pk_emit *e, const pk_plan *p)
{
	pk_emit_array(e, "warnings");
	for (int i = 0; i < p->nwarnings; i++)
		pk_emit_string(e, NULL, p->warnings[i]);
	pk_emit_end(e);
}

/* A share's shareID and consumedCapacity, named as the allocation result's. */
static void share_emit(pk_emit *e, const pk_dra_pick *d)
{
	pk_emit_string(e, "shareID", d->share_id);
	pk_emit_object(e, "consumedCapacity");
	for (int i = 0; i < d->nconsumed; i++) {
		char q[64];
		pk_qty_format(d->consumed[i].milli, q, sizeof q);
		pk_emit_string(e, d->consumed[i].key, q);
	}
	pk_emit_end(e);
}

/* The devices v[0..n) a placed pod's resource claims get (DynamicResources). */
static void picks_emit(pk_emit *e, const pk_dra_pick *v, int n)
{
	char claim[600];
	pk_emit_array(e, "devices");
	for (int i = 0; i < n; i++) {
		const pk_dra_pick *d = &v[i];
		snprintf(claim, sizeof claim, "%s/%s", d->claim_namespace, d->claim_name);
		pk_emit_object(e, NULL);
		pk_emit_string(e, "claim", claim);
		pk_emit_string(e, "request", d->request);
		pk_emit_string(e, "driver", d->driver);
		pk_emit_string(e, "pool", d->pool);
		pk_emit_string(e, "device", d->device);
		pk_emit_string(e, "allocated", d->allocated_before ? "before" : "now");
		if (d->group_shared) /* a claim the group's members share: the same devices */
			pk_emit_bool(e, "shared", true);
		if (d->share_id) /* a share of the device (DRAConsumableCapacity), as the result records it */
			share_emit(e, d);
		pk_emit_end(e);
	}
	pk_emit_end(e);
}

static void devices_emit(pk_emit *e, const pk_plan *p)
{
	picks_emit(e, p->devices, p->ndevices);
}

/* A pod's: what was compared, where it fits, what stopped it. */
static void pod_fields_emit(pk_emit *e, const pk_plan *p)
{
	victims_emit(e, "clearedNominations", p->cleared, p->ncleared);
	pk_emit_number(e, "candidates", p->ncandidates);
	if (p->result == PK_PLAN_NO_PREEMPTION_NEEDED) {
		pk_emit_object(e, "fits");
		pk_emit_number(e, "count", (double)p->nfit);
		pk_emit_array(e, "nodes");
		for (int i = 0; i < p->nfit_shown; i++)
			pk_emit_string(e, NULL, p->fit_nodes[i]);
		pk_emit_end(e);
		pk_emit_end(e);
	}
	if (p->placed_on) {
		pk_emit_string(e, "node", p->placed_on);
		if (p->placement)
			pk_placement_emit(e, "placement", p->placement);
		else
			pk_emit_item(e, "placement", p->placement_record);
		if (p->ndevices)
			devices_emit(e, p);
	} else if (p->resize_node) { /* a Deferred resize stays where it is bound */
		pk_emit_string(e, "node", p->resize_node);
	}
	pk_emit_string(e, "decidedBy", p->decided_by);
	pk_emit_string(e, "reason", p->reason);
	if (p->eval && p->eval->pre_enqueue)
		pk_pre_enqueue_emit(e, "preEnqueue", p->eval);
	else if (!p->eval && p->pre_enqueue_record)
		pk_emit_item(e, "preEnqueue", p->pre_enqueue_record);
	else if (p->result == PK_PLAN_NOT_ELIGIBLE || p->result == PK_PLAN_UNSCHEDULABLE) {
		if (p->eval)
			pk_diagnosis_emit(e, "diagnosis", p->eval, p->gate_message);
		else if (p->diagnosis_record)
			pk_emit_item(e, "diagnosis", p->diagnosis_record);
	}
	warnings_emit(e, p);
	if (p->gate || p->gate_status) {
		pk_emit_object(e, "postFilter");
		pk_emit_string(e, "gate", p->gate);
		pk_emit_string(e, "status", p->gate_status);
		pk_emit_end(e);
	}
}

/* A PodGroup's: its units, its members' placements, its gate's code. */
static void group_fields_emit(pk_emit *o, const pk_plan *p)
{
	const pk_pg_evaluation *e = p->group;
	bool preempt = e->result == PK_PG_PREEMPT;
	pk_emit_number(o, "victimUnits", preempt ? e->nvictim_units : 0);
	if (p->num_pod_group_disruptions)
		pk_group_disruptions_emit(o, p->num_pod_group_disruptions, p->disruptions, p->ndisruptions, p->k8s_minor);
	else
		pk_emit_number(o, "numPodGroupDisruptions", 0);
	pk_emit_array(o, "placements");
	bool placed = preempt || e->result == PK_PG_NO_PREEMPTION_NEEDED;
	for (int k = 0; placed && k < e->nmembers; k++) {
		if (!e->placements[k].node)
			continue;
		pk_emit_object(o, NULL);
		pk_emit_string(o, "namespace", e->placements[k].pod->namespace_);
		pk_emit_string(o, "name", e->placements[k].pod->name);
		pk_emit_string(o, "node", e->placements[k].node->node->name);
		pk_placement_emit(o, "placement", &e->placements[k].score);
		if (e->placements[k].ndevices)
			picks_emit(o, e->placements[k].devices, e->placements[k].ndevices);
		pk_emit_end(o);
	}
	pk_emit_end(o);
	pk_emit_number(o, "members", e->nmembers);
	if (e->group->composite) {
		/* the root's policy is over its child groups, not pods: the child
		 * groups it needs, and the pending members that meet it */
		pk_emit_number(o, "minGroupCount", e->group->policy == PK_PG_POLICY_GANG ? e->group->min_count : 1);
		pk_emit_number(o, "membersNeeded", e->required);
	} else {
		pk_emit_number(o, "minCount", e->required);
	}
	pk_disruption_mode_emit(o, "disruptionMode", e->group->disrupt_whole, p->k8s_minor);
	pk_emit_string(o, "reason", p->reason);
	/* the PodGroupPostFilter status code: Unschedulable and UnschedulableAndUnresolvable
	 * differ between releases for the same reason (1.37 GenerateVictims) */
	pk_emit_string(o, "code", pk_code_name(e->code));
}

/* What --simulate adds: how the unit came to be, and its nodes. */
static void simulation_fields_emit(pk_emit *e, const pk_plan *p)
{
	if (p->recreated)
		pk_emit_bool(e, "recreated", true);
	if (p->scaled)
		pk_emit_bool(e, "scaled", true);
	if (p->snap && p->group) {
		group_plan_nodes_emit(e, p->snap, p->group);
	} else if (p->snap) {
		pod_plan_nodes_emit(e, p->snap, p->eval, p->assumed_on);
	} else if (p->candidate_resources) {
		pk_emit_array(e, "nodeResources");
		pk_emit_item(e, NULL, p->candidate_resources);
		pk_emit_end(e);
	}
	if (p->requeued)
		pk_emit_number(e, "requeuedVictims", p->requeued);
	if (p->applied_kind) {
		pk_emit_object(e, "appliedFrom");
		pk_emit_string(e, "kind", p->applied_kind);
		pk_emit_string(e, "namespace", p->applied_namespace);
		pk_emit_string(e, "name", p->applied_name);
		pk_emit_end(e);
	}
}

/* The preemptor's kind, as the API names it. */
static const char *preemptor_kind(const pk_plan *p)
{
	if (!p->group)
		return "Pod";
	return p->group->group->composite ? "CompositePodGroup" : "PodGroup";
}

/* The PreemptionPlan record, into e: one encoder for the tree (a report
 * keeps it) and the text (--simulate writes one per decision). */
static void plan_emit(pk_emit *e, const pk_plan *p)
{
	char release[16];
	pk_emit_object(e, NULL);
	pk_emit_string(e, "kind", "PreemptionPlan");
	pk_emit_string(e, PK_K8S_VERSION_KEY, pk_k8s_version_text(p->k8s_minor, release, sizeof release));
	pk_emit_object(e, "preemptor");
	if (p->kind_named)
		pk_emit_string(e, "kind", preemptor_kind(p));
	pk_emit_string(e, "namespace", p->namespace_);
	pk_emit_string(e, "name", p->name);
	pk_emit_string(e, "uid", p->uid);
	pk_emit_number(e, "priority", (double)p->priority);
	pk_emit_end(e);
	pk_emit_string(e, "result", pk_plan_result_name(p->result));
	if (p->nominated)
		pk_emit_string(e, "nominatedNodeName", p->nominated);
	else
		pk_emit_null(e, "nominatedNodeName");
	victims_emit(e, "victims", p->victims, p->nvictims);
	pk_emit_number(e, "numPDBViolations", p->num_pdb_violations);
	if (!p->group && p->num_pod_group_disruptions) /* a group's always has it, below */
		pk_group_disruptions_emit(e, p->num_pod_group_disruptions, p->disruptions, p->ndisruptions, p->k8s_minor);
	if (p->group)
		group_fields_emit(e, p);
	else
		pod_fields_emit(e, p);
	actions_emit(e, p);
	if (p->group && p->nwarnings)
		warnings_emit(e, p);
	simulation_fields_emit(e, p);
	pk_emit_end(e);
}

cJSON *pk_plan_json(const pk_plan *p)
{
	pk_emit e;
	pk_emit_tree(&e);
	plan_emit(&e, p);
	return pk_emit_tree_done(&e);
}

char *pk_plan_text(const pk_plan *p)
{
	pk_emit e;
	pk_emit_text(&e);
	plan_emit(&e, p);
	return pk_emit_text_done(&e);
}

/* ---- table rows ------------------------------------------------------------------------- */

void pk_plan_row_init(pk_plan_row *r, const char *ns, const char *name, int64_t priority)
{
	memset(r, 0, sizeof *r);
	snprintf(r->who, sizeof r->who, "%s/%s", ns, name);
	r->priority = priority;
	r->reason = "";
}

void pk_plan_row_victims(pk_plan_row *r, const pk_victim_ref *v, int n)
{
	r->nvictims = n;
	free(r->victim_pods);
	r->victim_pods = NULL;
	if (!n)
		return;
	size_t len = 1;
	for (int k = 0; k < n; k++)
		len += strlen(v[k].namespace_) + strlen(v[k].name) + 2;
	char *names = pk_xmalloc(len);
	size_t w = 0;
	for (int k = 0; k < n; k++)
		w += (size_t)snprintf(names + w, len - w, "%s%s/%s", k ? "," : "", v[k].namespace_, v[k].name);
	r->victim_pods = names;
}

/* The ADJUSTED-SUM and TOP-PRIORITY cells of victims v. */
static void victim_priorities(pk_plan_row *r, const pk_victim_ref *v, int n)
{
	int64_t sum = 0;
	for (int k = 0; k < n; k++)
		sum += v[k].priority;
	r->has_top = true;
	r->top_priority = n ? v[0].priority : 0;
	pk_adjusted_sum_text(n, sum, r->adjusted_sum, sizeof r->adjusted_sum);
}

void pk_plan_row_of(pk_plan_row *r, const pk_plan *p, bool *compared)
{
	pk_plan_row_init(r, p->namespace_, p->name, p->priority);
	if (p->group) /* kubectl's kind/name form: the kind lowercased */
		snprintf(r->who, sizeof r->who, "%s/%s/%s", p->group->group->composite ? "compositepodgroup" : "podgroup",
		         p->namespace_, p->name);
	snprintf(r->result, sizeof r->result, "%s", pk_plan_result_name(p->result));
	int placed = 0;
	for (int k = 0; p->group && (p->result == PK_PLAN_PREEMPT || p->result == PK_PLAN_NO_PREEMPTION_NEEDED) &&
	                k < p->group->nmembers; k++)
		placed += p->group->placements[k].node != NULL;
	if (p->nominated)
		snprintf(r->node, sizeof r->node, "%s", p->nominated);
	else if (p->resize_node && p->result == PK_PLAN_PREEMPT)
		snprintf(r->node, sizeof r->node, "%s", p->resize_node);
	else if (p->placed_on)
		snprintf(r->node, sizeof r->node, "%s", p->placed_on);
	else if (placed)
		snprintf(r->node, sizeof r->node, "%d placed", placed);
	else if (p->nfit_shown && p->result == PK_PLAN_NO_PREEMPTION_NEEDED)
		snprintf(r->node, sizeof r->node, "%s", p->fit_nodes[0]); /* without a placement, the first node it fits on */
	else
		snprintf(r->node, sizeof r->node, PK_PLAN_NONE);
	pk_plan_row_victims(r, p->victims, p->nvictims);
	r->pdb_violations = p->num_pdb_violations;
	/* what node choice compared: a pod's plan that preempts (a gang's
	 * nodes are not chosen by it) */
	*compared = !p->group && p->result == PK_PLAN_PREEMPT && p->nvictims > 0;
	if (*compared)
		victim_priorities(r, p->victims, p->nvictims);
	r->reason = p->reason;
}

void pk_plan_row_of_candidate(pk_plan_row *r, const pk_evaluation *e, int i)
{
	const pk_candidate *c = &e->candidates[i];
	snprintf(r->result, sizeof r->result, "%s%s", pk_plan_result_name(PK_PLAN_PREEMPT), i == e->best ? "*" : "");
	snprintf(r->node, sizeof r->node, "%s", c->node);
	pk_plan_row_victims(r, c->victims, c->nvictims);
	r->pdb_violations = c->num_pdb_violations;
	victim_priorities(r, c->victims, c->nvictims);
}

void pk_plan_row_not_candidate(pk_plan_row *r, const char *nodes, const char *reason)
{
	snprintf(r->result, sizeof r->result, "NotCandidate");
	snprintf(r->node, sizeof r->node, "%s", nodes);
	pk_plan_row_victims(r, NULL, 0);
	r->pdb_violations = 0;
	r->has_top = false;
	r->reason = reason;
	r->reason_whole = true;
}

static const char *const column_names[PK_NCOLS] = {
	[PK_COL_PREEMPTOR] = "PREEMPTOR",
	[PK_COL_PRIORITY] = "PRIORITY",
	[PK_COL_RESULT] = "RESULT",
	[PK_COL_NODE] = "NODE",
	[PK_COL_VICTIMS] = "VICTIMS",
	[PK_COL_PDB_VIOLATIONS] = "PDB-VIOLATIONS",
	[PK_COL_TOP_PRIORITY] = "TOP-PRIORITY",
	[PK_COL_ADJUSTED_SUM] = PK_ADJUSTED_SUM_COLUMN,
	[PK_COL_VICTIM_PODS] = "VICTIM-PODS",
	[PK_COL_REASON] = "REASON",
	[PK_COL_REASON_FIRST] = "REASON",
};

void pk_plan_table_init(pk_table *t, const pk_plan_columns *c, bool no_headers)
{
	const char *header[PK_NCOLS];
	for (int i = 0; i < c->n; i++)
		header[i] = column_names[c->cols[i]];
	pk_table_init(t, c->n);
	t->no_headers = no_headers;
	pk_table_header(t, header);
}

void pk_plan_table_row(pk_table *t, const pk_plan_columns *c, pk_plan_row *r)
{
	char prio[24], nv[24], viol[24], top[24], reason[2048];
	snprintf(prio, sizeof prio, "%lld", (long long)r->priority);
	snprintf(nv, sizeof nv, "%ld", r->nvictims);
	snprintf(viol, sizeof viol, "%ld", r->pdb_violations);
	snprintf(top, sizeof top, "%d", (int)r->top_priority);
	snprintf(reason, sizeof reason, "%s", r->reason);
	char *cut = r->reason_whole ? NULL : strchr(reason, ';');
	if (cut)
		*cut = '\0';
	const char *cell[PK_NCOLS] = {
		[PK_COL_PREEMPTOR] = r->who,
		[PK_COL_PRIORITY] = prio,
		[PK_COL_RESULT] = r->result,
		[PK_COL_NODE] = r->node,
		[PK_COL_VICTIMS] = nv,
		[PK_COL_PDB_VIOLATIONS] = viol,
		[PK_COL_TOP_PRIORITY] = r->has_top ? top : PK_PLAN_NONE,
		[PK_COL_ADJUSTED_SUM] = r->has_top ? r->adjusted_sum : PK_PLAN_NONE,
		[PK_COL_VICTIM_PODS] = r->victim_pods ? r->victim_pods : PK_PLAN_NONE,
		[PK_COL_REASON] = r->reason,
		[PK_COL_REASON_FIRST] = reason,
	};
	const char *cells[PK_NCOLS];
	for (int i = 0; i < c->n; i++)
		cells[i] = cell[c->cols[i]];
	pk_table_row(t, cells);
	free(r->victim_pods);
	r->victim_pods = NULL;
}
