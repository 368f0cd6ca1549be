/* The Filter plugins the engine models, in the default profile's order, with
 * upstream's reasons and status codes. */
#include "sched/engine/filter/cycle.h"
#include "sched/engine/reasons.h"
#include "sched/engine/filter/volumes.h"
#include "sched/engine/filter/dra.h"
#include "sched/engine/filter/dra_nodealloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* ---- a plugin's status: its code, the plugin, upstream's reasons ---------- */

const char *pk_code_name(pk_code c)
{
	switch (c) {
	case PK_CODE_SUCCESS: return "Success";
	case PK_CODE_ERROR: return "Error";
	case PK_CODE_UNSCHEDULABLE: return "Unschedulable";
	case PK_CODE_UNSCHEDULABLE_UNRESOLVABLE: return "UnschedulableAndUnresolvable";
	}
	return "Unknown";
}

const pk_status pk_status_success = { .code = PK_CODE_SUCCESS };

void pk_status_set(pk_status *s, pk_code code, const char *plugin, const char *reason)
{
	memset(s, 0, sizeof *s);
	s->code = code;
	s->plugin = plugin;
	if (reason)
		pk_status_add_reason(s, reason);
}

void pk_status_add_reason(pk_status *s, const char *reason)
{
	if (s->nreasons < PK_STATUS_MAX_REASONS)
		s->reasons[s->nreasons++] = reason;
}

/* ---- statuses stored once (pk_status_table) ------------------------------- */

static size_t status_hash(const pk_status *st)
{
	uint64_t h = (uint64_t)st->code * 0x9e3779b97f4a7c15u ^ (uintptr_t)st->plugin;
	for (int i = 0; i < st->nreasons; i++)
		h = (h ^ (uintptr_t)st->reasons[i]) * 0x100000001b3u;
	return (size_t)(h ^ h >> 29);
}

static bool status_same(const pk_status *a, const pk_status *b)
{
	if (a->code != b->code || a->plugin != b->plugin || a->nreasons != b->nreasons)
		return false;
	for (int i = 0; i < a->nreasons; i++)
		if (a->reasons[i] != b->reasons[i])
			return false;
	return true;
}

static void status_table_grow(pk_status_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	pk_status **slot = pk_xcalloc(cap, sizeof *slot);
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slot[i])
			continue;
		size_t j = status_hash(t->slot[i]) & (cap - 1);
		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
}

void pk_status_table_init(pk_status_table *t)
{
	memset(t, 0, sizeof *t);
	pk_arena_init(&t->arena);
}

void pk_status_table_free(pk_status_table *t)
{
	free(t->slot);
	pk_arena_free(&t->arena);
	memset(t, 0, sizeof *t);
}

const pk_status *pk_status_table_intern(pk_status_table *t, const pk_status *st)
{
	if (st->code == PK_CODE_SUCCESS && st->nreasons == 0 && !st->plugin)
		return &pk_status_success;
	if (2 * (t->n + 1) > t->cap)
		status_table_grow(t);
	size_t j = status_hash(st) & (t->cap - 1);
	for (; t->slot[j]; j = (j + 1) & (t->cap - 1))
		if (status_same(t->slot[j], st))
			return t->slot[j];
	pk_status *c = pk_arena_alloc(&t->arena, sizeof *c);
	*c = *st;
	t->slot[j] = c;
	t->n++;
	return c;
}


/* Upstream reason strings (reasons.h). */
#define R_UNSCHEDULABLE PK_R_UNSCHEDULABLE
#define R_NODE_NAME PK_R_NODE_NAME
#define R_TAINT PK_R_TAINT
#define R_AFFINITY PK_R_NODE_AFFINITY
#define R_PORTS PK_R_PORTS
#define R_TOO_MANY_PODS PK_R_TOO_MANY_PODS
#define R_CPU PK_R_CPU
#define R_MEMORY PK_R_MEMORY
#define R_EPHEMERAL PK_R_EPHEMERAL

static bool node_unschedulable_fails(const pk_pod *pod, const pk_node *n)
{
	if (!n->unschedulable)
		return false;
	pk_taint t = { "node.kubernetes.io/unschedulable", "", PK_EFFECT_NO_SCHEDULE };
	return !pk_pod_tolerates(pod, &t);
}

static bool port_conflict(const pk_host_port *a, const pk_host_port *b)
{
	if (a->port != b->port || strcmp(a->protocol, b->protocol) != 0)
		return false;
	return strcmp(a->ip, b->ip) == 0 || strcmp(a->ip, "0.0.0.0") == 0 || strcmp(b->ip, "0.0.0.0") == 0;
}

static bool pods_conflict(const pk_pod *pod, const pk_pod *other)
{
	for (int i = 0; i < pod->con->nports; i++)
		for (int j = 0; j < other->con->nports; j++)
			if (port_conflict(&pod->con->ports[i], &other->con->ports[j]))
				return true;
	return false;
}

static bool ports_fail(const pk_pod *pod, const pk_nodeinfo *ni)
{
	if (pod->con->nports == 0)
		return false;
	for (int i = 0; i < ni->npods; i++)
		if (pods_conflict(pod, ni->pods[i]))
			return true;
	return false;
}

static int64_t requested_scalar(const pk_res *r, const char *name)
{
	return pk_res_scalar(r, name);
}

/* One resource check of fitsRequest: Insufficient if request > free,
 * Unresolvable if request > allocatable. */
static bool res_fits(int64_t req, int64_t alloc, int64_t used)
{
	return req <= 0 || req <= alloc - used;
}

void pk_fit_check_resource(pk_status *st, const pk_snapshot *s, const char *name, const char *reason, int64_t req,
                           int64_t alloc, int64_t used, bool *unresolvable)
{
	if (res_fits(req, alloc, used))
		return;
	if (!reason) {
		char buf[320];
		snprintf(buf, sizeof buf, PK_R_INSUFFICIENT, name);
		reason = pk_intern(s->strs, buf);
	}
	pk_status_add_reason(st, reason);
	if (req > alloc)
		*unresolvable = true;
}

static pk_status fits_request(pk_snapshot *s, const pk_pod *pod, const pk_nodeinfo *ni, int extra_pods,
                              const pk_res *extra)
{
	pk_status st;
	pk_status_set(&st, PK_CODE_SUCCESS, NULL, NULL);
	const pk_res *al = &ni->node->allocatable, *rq = &ni->requested, *p = &pod->requests;
	bool unresolvable = false;
	if ((int64_t)(ni->npods + extra_pods + 1) * 1000 > al->pods)
		pk_status_add_reason(&st, R_TOO_MANY_PODS);
	if (!pk_res_is_zero(p)) {
		pk_fit_check_resource(&st, s, "cpu", R_CPU, p->cpu, al->cpu, rq->cpu + extra->cpu, &unresolvable);
		pk_fit_check_resource(&st, s, "memory", R_MEMORY, p->memory, al->memory, rq->memory + extra->memory,
		                      &unresolvable);
		pk_fit_check_resource(&st, s, "ephemeral-storage", R_EPHEMERAL, p->ephemeral, al->ephemeral,
		                      rq->ephemeral + extra->ephemeral, &unresolvable);
		for (int i = 0; i < p->nscalar; i++) {
			const char *n = p->scalar[i].name;
			if (pk_res_scalar(al, n) == 0 && pk_dra_backs_resource(s, n))
				continue; /* left to DynamicResources (DRAExtendedResource) */
			pk_fit_check_resource(&st, s, n, NULL, p->scalar[i].milli, pk_res_scalar(al, n),
			                      requested_scalar(rq, n) + requested_scalar(extra, n), &unresolvable);
		}
	}
	if (st.nreasons > 0) {
		st.code = unresolvable ? PK_CODE_UNSCHEDULABLE_UNRESOLVABLE : PK_CODE_UNSCHEDULABLE;
		st.plugin = "NodeResourcesFit";
	}
	return st;
}

/* The filters that look at the node alone, not at the pods on it:
 * NodeUnschedulable, NodeName, TaintToleration, NodeAffinity. Their verdict
 * for a (pod, node) pair cannot change while victims come and go. */
pk_status pk_run_static_filters(const pk_pod *pod, const pk_nodeinfo *ni)
{
	pk_status st;
	const pk_node *n = ni->node;
	pk_status_set(&st, PK_CODE_SUCCESS, NULL, NULL);
	if (node_unschedulable_fails(pod, n)) {
		pk_status_set(&st, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "NodeUnschedulable", R_UNSCHEDULABLE);
		return st;
	}
	if (*pod->node_name && pod->node_name != n->name && strcmp(pod->node_name, n->name) != 0) {
		pk_status_set(&st, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "NodeName", R_NODE_NAME);
		return st;
	}
	if (!pk_taints_tolerated(pod, n)) {
		pk_status_set(&st, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "TaintToleration", R_TAINT);
		return st;
	}
	if (!pk_node_affinity_matches(pod, n)) {
		pk_status_set(&st, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "NodeAffinity", R_AFFINITY);
		return st;
	}
	return st;
}

bool pk_fits_basic(const pk_pod *pod, const pk_node *n, int64_t npods, int64_t cpu, int64_t memory,
                   int64_t ephemeral)
{
	const pk_res *al = &n->allocatable, *p = &pod->requests;
	if ((npods + 1) * 1000 > al->pods)
		return false;
	return pk_res_is_zero(p) || (res_fits(p->cpu, al->cpu, cpu) && res_fits(p->memory, al->memory, memory) &&
	                             res_fits(p->ephemeral, al->ephemeral, ephemeral));
}

pk_status pk_fit_basic(const pk_pod *pod, const pk_node *n, int64_t npods, int64_t cpu, int64_t memory,
                       int64_t ephemeral)
{
	pk_status st;
	pk_status_set(&st, PK_CODE_SUCCESS, NULL, NULL);
	if (pk_fits_basic(pod, n, npods, cpu, memory, ephemeral))
		return st;
	const pk_res *al = &n->allocatable, *p = &pod->requests;
	bool unresolvable = false;
	if ((npods + 1) * 1000 > al->pods)
		pk_status_add_reason(&st, R_TOO_MANY_PODS);
	if (!pk_res_is_zero(p)) {
		pk_fit_check_resource(&st, NULL, "cpu", R_CPU, p->cpu, al->cpu, cpu, &unresolvable);
		pk_fit_check_resource(&st, NULL, "memory", R_MEMORY, p->memory, al->memory, memory, &unresolvable);
		pk_fit_check_resource(&st, NULL, "ephemeral-storage", R_EPHEMERAL, p->ephemeral, al->ephemeral, ephemeral,
		                      &unresolvable);
	}
	if (st.nreasons > 0) {
		st.code = unresolvable ? PK_CODE_UNSCHEDULABLE_UNRESOLVABLE : PK_CODE_UNSCHEDULABLE;
		st.plugin = "NodeResourcesFit";
	}
	return st;
}

/* Filters with some pods added on top of the node (nominated pods). With
 * static_passed the node-only filters are known to pass and are skipped. */
static pk_status run_filters_extra(pk_cycle *c, const pk_pod *pod, const pk_nodeinfo *ni,
                                   pk_pod *const *extra, int nextra, bool static_passed)
{
	pk_status st;
	/* a PreFilter's rejection holds on every node (VolumeBinding's and
	 * VolumeZone's: a claim missing, unbound, ...) */
	bool volumes = pod->con->volumes != NULL;
	if (volumes && pk_volumes_prefilter_rejects(pod, &st))
		return st;
	bool dra = pod->con->dra && pk_dra_applies(pod); /* DynamicResources: its PreFilter, then its Filter last */
	if (dra && pk_dra_prefilter_rejects(pod, &st))
		return st;
	if (!static_passed && (st = pk_run_static_filters(pod, ni)).code != PK_CODE_SUCCESS)
		return st;
	bool ports = ports_fail(pod, ni);
	for (int i = 0; !ports && i < nextra; i++)
		ports = pods_conflict(pod, extra[i]);
	if (ports) {
		pk_status_set(&st, PK_CODE_UNSCHEDULABLE, "NodePorts", R_PORTS);
		return st;
	}
	/* Sum of the extra pods' requests; scalar names in a small table. */
	enum { MAXS = 16 };
	pk_scalar_res sc[MAXS];
	pk_res add = { .scalar = sc };
	for (int i = 0; i < nextra; i++) {
		const pk_res *r = &extra[i]->requests;
		add.cpu += r->cpu;
		add.memory += r->memory;
		add.ephemeral += r->ephemeral;
		for (int k = 0; k < r->nscalar; k++) {
			int j = 0;
			while (j < add.nscalar && sc[j].name != r->scalar[k].name)
				j++;
			if (j == add.nscalar) {
				if (j == MAXS)
					continue;
				sc[j] = (pk_scalar_res){ r->scalar[k].name, 0 };
				add.nscalar++;
			}
			sc[j].milli += r->scalar[k].milli;
		}
	}
	st = fits_request(c->s, pod, ni, nextra, &add);
	if (st.code != PK_CODE_SUCCESS)
		return st;
	/* VolumeRestrictions (disks, then its ReadWriteOncePod state), NodeVolumeLimits (the node's pods), then
	 * VolumeBinding and VolumeZone: the node's labels against the claims */
	if (volumes && (!pk_volumes_disks_fit(pod, ni, extra, nextra, &st) ||
	                !pk_cycle_filter_range(c, pod, ni->node, extra, nextra, 0, PK_STATE_POD_TOPOLOGY_SPREAD, &st) ||
	                !pk_volumes_limits_fit(c->s, pod, ni, extra, nextra, &st) ||
	                !pk_volumes_node_fits(pod, ni->node, &st)))
		return st;
	/* the plugins with PreFilter state (PodTopologySpread, InterPodAffinity),
	 * with the extra pods added as their AddPod extensions would */
	if (!pk_cycle_filter_range(c, pod, ni->node, extra, nextra, volumes ? PK_STATE_POD_TOPOLOGY_SPREAD : 0,
	                           PK_NSTATES, &st))
		return st;
	if (dra) /* with the footprint of its devices (KEP-5517) */
		pk_dra_node_fits_in_cycle(c, pod, ni, extra, nextra, &add, &st);
	return st;
}

pk_status pk_run_filters(pk_cycle *c, const pk_pod *pod, const pk_nodeinfo *ni)
{
	return run_filters_extra(c, pod, ni, NULL, 0, false);
}

static pk_status with_nominated(pk_cycle *c, const pk_pod *pod, pk_nodeinfo *ni, bool static_passed);

pk_status pk_run_filters_with_nominated(pk_cycle *c, const pk_pod *pod, pk_nodeinfo *ni)
{
	return with_nominated(c, pod, ni, false);
}

pk_status pk_run_pod_filters_with_nominated(pk_cycle *c, const pk_pod *pod, pk_nodeinfo *ni)
{
	return with_nominated(c, pod, ni, true);
}

static pk_status with_nominated(pk_cycle *c, const pk_pod *pod, pk_nodeinfo *ni, bool static_passed)
{
	enum { SMALL = 64 };
	pk_pod *small[SMALL] = {0};
	pk_pod **extra = ni->nnominated <= SMALL ? small : pk_xmalloc(sizeof *extra * (size_t)ni->nnominated);
	int n = 0;
	for (int i = 0; i < ni->nnominated; i++) {
		pk_pod *q = ni->nominated[i];
		if (q == pod || (*q->uid && strcmp(q->uid, pod->uid) == 0))
			continue;
		if (q->priority >= pod->priority)
			extra[n++] = q;
	}
	pk_status st = run_filters_extra(c, pod, ni, extra, n, static_passed);
	if (extra != small)
		free(extra);
	if (st.code != PK_CODE_SUCCESS || n == 0)
		return st;
	/* Both passes must succeed: with the nominated pods (resources, ports,
	 * anti-affinity) and without them (pod affinity must not rely on a pod
	 * that is only nominated). */
	return run_filters_extra(c, pod, ni, NULL, 0, static_passed);
}
