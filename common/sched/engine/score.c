/* The default score plugins and host selection; see score.h. */
#include "sched/engine/score.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODE_SCORE 100
#define HOSTNAME_KEY "kubernetes.io/hostname"
#define ZONE_KEY "topology.kubernetes.io/zone"
/* schedutil.DefaultMilliCPURequest and DefaultMemoryRequest (200 MiB), in
 * the milli-units of pk_res */
#define DEFAULT_CPU_MILLI 100
#define DEFAULT_MEMORY_MILLI (200LL * 1024 * 1024 * 1000)

static const struct {
	const char *name;
	int weight;
} plugins[PK_SCORE_NPLUGINS] = {
	[PK_SCORE_TAINT] = { "TaintToleration", 3 },
	[PK_SCORE_AFFINITY] = { "NodeAffinity", 2 },
	[PK_SCORE_FIT] = { "NodeResourcesFit", 1 },
	[PK_SCORE_SPREAD] = { "PodTopologySpread", 2 },
	[PK_SCORE_BALANCED] = { "NodeResourcesBalancedAllocation", 1 },
};

const char *pk_score_plugin_name(int plugin)
{
	return plugins[plugin].name;
}

int pk_score_plugin_weight(int plugin)
{
	return plugins[plugin].weight;
}

/* ---- NodeResourcesFit (LeastAllocated) and BalancedAllocation ------------- */

static int64_t least_requested(int64_t requested, int64_t capacity)
{
	if (capacity == 0 || requested > capacity)
		return 0;
	return (capacity - requested) * MAX_NODE_SCORE / capacity;
}

/* Requests as the node's NonZeroRequested and the pod's non-missing
 * requests count them. */
static int64_t least_allocated(const pk_pod *pod, const pk_nodeinfo *ni)
{
	int64_t pcpu = pod->requests.cpu + (int64_t)pod->requests.cpu_unset * DEFAULT_CPU_MILLI;
	int64_t pmem = pod->requests.memory + (int64_t)pod->requests.memory_unset * DEFAULT_MEMORY_MILLI;
	int64_t cpu = ni->requested.cpu + (int64_t)ni->requested.cpu_unset * DEFAULT_CPU_MILLI + pcpu;
	int64_t mem = ni->requested.memory + (int64_t)ni->requested.memory_unset * DEFAULT_MEMORY_MILLI + pmem;
	const pk_res *al = &ni->node->allocatable;
	int64_t sum = 0, weights = 0;
	if (al->cpu) {
		sum += least_requested(cpu, al->cpu);
		weights++;
	}
	if (al->memory) {
		sum += least_requested(mem, al->memory);
		weights++;
	}
	return weights ? sum / weights : 0;
}

static double fraction(int64_t requested, int64_t allocatable)
{
	double f = (double)requested / (double)allocatable;
	return f > 1 ? 1 : f;
}

/* Requests as requested (useRequested): 1 - the standard deviation of the
 * cpu and memory fractions. */
static int64_t balanced_allocation(const pk_pod *pod, const pk_nodeinfo *ni)
{
	const pk_res *al = &ni->node->allocatable;
	double f[2];
	int n = 0;
	if (al->cpu)
		f[n++] = fraction(ni->requested.cpu + pod->requests.cpu, al->cpu);
	if (al->memory)
		f[n++] = fraction(ni->requested.memory + pod->requests.memory, al->memory);
	double std = n == 2 ? fabs((f[0] - f[1]) / 2) : 0;
	return (int64_t)((1 - std) * MAX_NODE_SCORE);
}

/* ---- TaintToleration and NodeAffinity -------------------------------------- */

static int64_t intolerable_prefer_no_schedule(const pk_pod *pod, const pk_node *n)
{
	int64_t count = 0;
	for (int i = 0; i < n->ntaints; i++)
		if (n->taints[i].effect == PK_EFFECT_PREFER_NO_SCHEDULE && !pk_pod_tolerates(pod, &n->taints[i]))
			count++;
	return count;
}

static int64_t preferred_affinity(const pk_pod *pod, const pk_node *n)
{
	int64_t sum = 0;
	for (int i = 0; i < pod->con->npreferred; i++)
		if (pod->con->preferred_weight[i] != 0 && pk_node_term_matches(&pod->con->preferred[i], n))
			sum += pod->con->preferred_weight[i];
	return sum;
}

/* ---- PodTopologySpread: the system default constraints ---------------------- */

/* Is the pod owned by what DefaultSelector reads (ReplicaSet, StatefulSet,
 * ReplicationController; Services are not in a snapshot)? */
static bool default_spread_applies(const pk_pod *pod)
{
	if (pod->con->nspread || pod->con->soft_spread || !*pod->controller_name)
		return false;
	const char *k = pod->controller_kind;
	return strcmp(k, "ReplicaSet") == 0 || strcmp(k, "StatefulSet") == 0 ||
	       strcmp(k, "ReplicationController") == 0;
}

/* Where a controller's pods are: (node index, pods there) pairs. */
typedef struct node_count {
	int32_t node, pods;
} node_count;

typedef struct controller {
	const char *ns, *kind;    /* interned */
	const char *name;         /* a pod's controller_name: lives with the snapshot */
	uint64_t hash;
	node_count *where;
	int n, cap;
} controller;

/* The index countPodsMatchSelector reads, with the controller as the
 * selector: each node's controlled pods as controller numbers, and each
 * controller's nodes. A node whose generation moved is indexed again, so
 * that a decision costs a pass over the nodes' generations and the pods
 * of the nodes that changed, not over every pod. */
struct pk_score_cache {
	long nnodes;              /* nodes indexed (0: not yet) */
	const char **zone;        /* per node: its zone label value, or NULL */
	bool *hostname;           /* per node: it has the hostname label */
	uint64_t *generation;     /* per node: its generation when indexed */
	int32_t **ids;            /* per node: the controller of each of its pods */
	int *nids;
	controller *ctl;
	long nctl, ctlcap;
	int32_t *slots;           /* open addressing over ctl (-1 free) */
	size_t nslots;
};

pk_score_cache *pk_score_cache_new(void)
{
	pk_score_cache *c = calloc(1, sizeof *c);
	if (!c)
		abort();
	return c;
}

static void cache_clear(pk_score_cache *c)
{
	for (long i = 0; i < c->nnodes; i++)
		free(c->ids[i]);
	for (long i = 0; i < c->nctl; i++)
		free(c->ctl[i].where);
	free(c->zone);
	free(c->hostname);
	free(c->generation);
	free(c->ids);
	free(c->nids);
	free(c->ctl);
	free(c->slots);
	memset(c, 0, sizeof *c);
}

void pk_score_cache_free(pk_score_cache *c)
{
	if (!c)
		return;
	cache_clear(c);
	free(c);
}

static void *alloc_or_die(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		abort();
	return p;
}

static void *grow_or_die(void *p, size_t n, size_t size)
{
	p = realloc(p, n * size);
	if (!p)
		abort();
	return p;
}

static uint64_t controller_hash(const pk_pod *p)
{
	return pk_hash_str(p->controller_name) ^ ((uint64_t)(uintptr_t)p->namespace_ * 0x9e3779b97f4a7c15ull) ^
	       (uint64_t)(uintptr_t)p->controller_kind;
}

static void slots_rebuild(pk_score_cache *c)
{
	c->nslots = c->nslots ? 2 * c->nslots : 1024;
	free(c->slots);
	c->slots = grow_or_die(NULL, c->nslots, sizeof *c->slots);
	for (size_t i = 0; i < c->nslots; i++)
		c->slots[i] = -1;
	for (long k = 0; k < c->nctl; k++) {
		size_t j = c->ctl[k].hash & (c->nslots - 1);
		while (c->slots[j] >= 0)
			j = (j + 1) & (c->nslots - 1);
		c->slots[j] = (int32_t)k;
	}
}

/* p's controller number, -1 if it has none and add is false. */
static int32_t controller_id(pk_score_cache *c, const pk_pod *p, bool add)
{
	if (2 * (size_t)(c->nctl + 1) > c->nslots)
		slots_rebuild(c);
	uint64_t h = controller_hash(p);
	size_t j = h & (c->nslots - 1);
	for (; c->slots[j] >= 0; j = (j + 1) & (c->nslots - 1)) {
		const controller *k = &c->ctl[c->slots[j]];
		if (k->hash == h && k->ns == p->namespace_ && k->kind == p->controller_kind &&
		    (k->name == p->controller_name || strcmp(k->name, p->controller_name) == 0))
			return c->slots[j];
	}
	if (!add)
		return -1;
	if (c->nctl == c->ctlcap) {
		c->ctlcap = c->ctlcap ? 2 * c->ctlcap : 256;
		c->ctl = grow_or_die(c->ctl, (size_t)c->ctlcap, sizeof *c->ctl);
	}
	controller *k = &c->ctl[c->nctl];
	memset(k, 0, sizeof *k);
	k->ns = p->namespace_;
	k->kind = p->controller_kind;
	k->name = p->controller_name;
	k->hash = h;
	c->slots[j] = (int32_t)c->nctl;
	return (int32_t)c->nctl++;
}

static void count_on(controller *k, int32_t node, int delta)
{
	for (int i = 0; i < k->n; i++)
		if (k->where[i].node == node) {
			k->where[i].pods += delta;
			if (k->where[i].pods == 0)
				k->where[i] = k->where[--k->n];
			return;
		}
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 4;
		k->where = grow_or_die(k->where, (size_t)k->cap, sizeof *k->where);
	}
	k->where[k->n++] = (node_count){ node, delta };
}

/* Index node i again: its pods that countPodsMatchSelector counts (not
 * terminating) and that have a controller. known: the controller numbers
 * of the snapshot's pods by index, or NULL. */
static void index_node(pk_score_cache *c, const pk_nodeinfo *ni, long i, const int32_t *known, long nknown)
{
	for (int k = 0; k < c->nids[i]; k++)
		count_on(&c->ctl[c->ids[i][k]], (int32_t)i, -1);
	c->nids[i] = 0;
	free(c->ids[i]);
	c->ids[i] = NULL;
	int n = 0;
	for (int k = 0; k < ni->npods; k++)
		n += !ni->pods[k]->terminating && *ni->pods[k]->controller_name;
	if (n)
		c->ids[i] = grow_or_die(NULL, (size_t)n, sizeof **c->ids);
	for (int k = 0; k < ni->npods; k++) {
		const pk_pod *q = ni->pods[k];
		if (q->terminating || !*q->controller_name)
			continue;
		int32_t id = known && q->index >= 0 && q->index < nknown ? known[q->index] : controller_id(c, q, true);
		c->ids[i][c->nids[i]++] = id;
		count_on(&c->ctl[id], (int32_t)i, 1);
	}
	c->generation[i] = ni->generation;
}

/* The controller numbers of the snapshot's pods, by index: replicas are
 * listed together and share their controller's name (the decoder keeps
 * one copy for a run of them), so most are found without hashing. */
static int32_t *number_pods(pk_score_cache *c, const pk_snapshot *s)
{
	int32_t *ids = alloc_or_die((size_t)s->npods, sizeof *ids);
	const pk_pod *last = NULL;
	int32_t last_id = -1;
	for (long i = 0; i < s->npods; i++) {
		const pk_pod *p = s->pods[i];
		if (!*p->controller_name) {
			ids[i] = -1;
			continue;
		}
		if (last && p->controller_name == last->controller_name && p->namespace_ == last->namespace_ &&
		    p->controller_kind == last->controller_kind) {
			ids[i] = last_id;
		} else {
			ids[i] = last_id = controller_id(c, p, true);
		}
		last = p;
	}
	return ids;
}

/* The cache brought up to date with s (a cache of its own when c is NULL:
 * the caller frees it). */
static pk_score_cache *cache_for(const pk_snapshot *s, pk_score_cache *c)
{
	if (!c)
		c = pk_score_cache_new();
	if (c->nnodes != s->nnodes) {
		cache_clear(c);
		size_t n = (size_t)s->nnodes;
		c->zone = alloc_or_die(n, sizeof *c->zone);
		c->hostname = alloc_or_die(n, sizeof *c->hostname);
		c->generation = alloc_or_die(n, sizeof *c->generation);
		c->ids = alloc_or_die(n, sizeof *c->ids);
		c->nids = alloc_or_die(n, sizeof *c->nids);
		int32_t *known = number_pods(c, s);
		for (long i = 0; i < s->nnodes; i++) {
			c->zone[i] = pk_labels_value(s->nodes[i].labels, ZONE_KEY);
			c->hostname[i] = pk_labels_value(s->nodes[i].labels, HOSTNAME_KEY) != NULL;
			index_node(c, &s->infos[i], i, known, s->npods);
		}
		free(known);
		c->nnodes = s->nnodes;
	}
	for (long i = 0; i < s->nnodes; i++)
		if (s->infos[i].generation != c->generation[i])
			index_node(c, &s->infos[i], i, NULL, 0);
	return c;
}

typedef struct zone_count {
	const char *zone;         /* interned */
	int64_t pods;
} zone_count;

static zone_count *zone_find(zone_count *z, long n, const char *zone)
{
	for (long i = 0; i < n; i++)
		if (z[i].zone == zone)
			return &z[i];
	return NULL;
}

static void spread_raw(const pk_snapshot *s, pk_score_cache *given, const pk_pod *pod,
                       const pk_nodeinfo *const *nodes, long n, int64_t *raw)
{
	pk_score_cache *c = cache_for(s, given);
	int32_t id = controller_id(c, pod, false);
	const controller *k = id >= 0 ? &c->ctl[id] : NULL;
	int32_t *on_node = alloc_or_die((size_t)s->nnodes, sizeof *on_node);
	zone_count *zones = alloc_or_die((size_t)n + 1, sizeof *zones);
	long nzones = 0;
	for (long i = 0; i < n; i++) {
		const char *z = c->zone[nodes[i]->node->index];
		if (z && !zone_find(zones, nzones, z))
			zones[nzones++].zone = z;
	}
	/* matching pods per node, and per zone over every node the pod's node
	 * selection admits (nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore) */
	for (int i = 0; k && i < k->n; i++) {
		int32_t x = k->where[i].node;
		on_node[x] = k->where[i].pods;
		zone_count *zc = c->zone[x] ? zone_find(zones, nzones, c->zone[x]) : NULL;
		if (zc && pk_node_affinity_matches(pod, s->infos[x].node))
			zc->pods += k->where[i].pods;
	}
	double host_weight = log((double)n + 2), zone_weight = log((double)nzones + 2);
	for (long i = 0; i < n; i++) {
		long x = nodes[i]->node->index;
		double score = 0;
		if (c->hostname[x])
			score += (double)on_node[x] * host_weight + (3 - 1);
		zone_count *zc = c->zone[x] ? zone_find(zones, nzones, c->zone[x]) : NULL;
		if (zc)
			score += (double)zc->pods * zone_weight + (5 - 1);
		raw[i] = (int64_t)llround(score);
	}
	free(zones);
	free(on_node);
	if (c != given)
		pk_score_cache_free(c);
}

/* ---- per plugin ------------------------------------------------------------ */

bool pk_score_raw(const pk_snapshot *s, pk_score_cache *c, const pk_pod *pod, int plugin,
                  const pk_nodeinfo *const *nodes, long n, int64_t *raw)
{
	memset(raw, 0, sizeof *raw * (size_t)n);
	switch (plugin) {
	case PK_SCORE_TAINT:
		for (long i = 0; i < n; i++)
			raw[i] = intolerable_prefer_no_schedule(pod, nodes[i]->node);
		return true;
	case PK_SCORE_AFFINITY:
		if (!pod->con->npreferred)
			return false;
		for (long i = 0; i < n; i++)
			raw[i] = preferred_affinity(pod, nodes[i]->node);
		return true;
	case PK_SCORE_FIT:
		for (long i = 0; i < n; i++)
			raw[i] = least_allocated(pod, nodes[i]);
		return true;
	case PK_SCORE_SPREAD:
		if (!default_spread_applies(pod))
			return false;
		spread_raw(s, c, pod, nodes, n, raw);
		return true;
	case PK_SCORE_BALANCED:
		if (!pod->requests.cpu && !pod->requests.memory)
			return false; /* best-effort: skipped (kubernetes#129138) */
		for (long i = 0; i < n; i++)
			raw[i] = balanced_allocation(pod, nodes[i]);
		return true;
	}
	return false;
}

/* helper.DefaultNormalizeScore */
static void default_normalize(int64_t *raw, long n, bool reverse)
{
	int64_t max = 0;
	for (long i = 0; i < n; i++)
		if (raw[i] > max)
			max = raw[i];
	for (long i = 0; i < n; i++) {
		int64_t v = max ? MAX_NODE_SCORE * raw[i] / max : 0;
		raw[i] = reverse ? MAX_NODE_SCORE - v : v;
	}
}

/* PodTopologySpread's NormalizeScore (no node is ignored under the system
 * defaults) */
static void spread_normalize(int64_t *raw, long n)
{
	int64_t min = INT64_MAX, max = 0;
	for (long i = 0; i < n; i++) {
		if (raw[i] < min)
			min = raw[i];
		if (raw[i] > max)
			max = raw[i];
	}
	for (long i = 0; i < n; i++)
		raw[i] = max == 0 ? MAX_NODE_SCORE : MAX_NODE_SCORE * (max + min - raw[i]) / max;
}

void pk_score_normalize(int plugin, int64_t *raw, long n)
{
	if (plugin == PK_SCORE_TAINT)
		default_normalize(raw, n, true);
	else if (plugin == PK_SCORE_AFFINITY)
		default_normalize(raw, n, false);
	else if (plugin == PK_SCORE_SPREAD)
		spread_normalize(raw, n);
}

static const char *assumptions(const pk_pod *pod)
{
	bool pod_aff = pod->con->preferred_pod_affinity, soft = pod->con->soft_spread;
	if (pod_aff && soft)
		return "the pod's preferred pod (anti-)affinity and ScheduleAnyway topology spread constraints are "
		       "not scored (upstream's InterPodAffinity and PodTopologySpread weigh them)";
	if (pod_aff)
		return "the pod's preferred pod (anti-)affinity is not scored (upstream's InterPodAffinity weighs it)";
	if (soft)
		return "the pod's ScheduleAnyway topology spread constraints are not scored (upstream's "
		       "PodTopologySpread weighs them)";
	return NULL;
}

void pk_score_nodes(const pk_snapshot *s, pk_score_cache *c, const pk_pod *pod, const pk_nodeinfo *const *nodes,
                    long n, pk_placement *out)
{
	memset(out, 0, sizeof *out);
	out->nscored = n;
	out->assumes = assumptions(pod);
	if (n == 0)
		return;
	int64_t *total = calloc((size_t)n, sizeof *total), *raw = malloc(sizeof *raw * (size_t)n);
	int64_t *norm[PK_SCORE_NPLUGINS] = { 0 };
	if (!total || !raw)
		abort();
	for (int p = 0; p < PK_SCORE_NPLUGINS; p++) {
		if (!pk_score_raw(s, c, pod, p, nodes, n, raw))
			continue;
		pk_score_normalize(p, raw, n);
		for (long i = 0; i < n; i++)
			total[i] += raw[i] * plugins[p].weight;
		norm[p] = raw;
		raw = malloc(sizeof *raw * (size_t)n);
		if (!raw)
			abort();
	}
	long best = 0;
	for (long i = 1; i < n; i++)
		if (total[i] > total[best])
			best = i;
	for (long i = 0; i < n; i++)
		out->ntop += total[i] == total[best];
	out->node = nodes[best];
	out->score = total[best];
	for (int p = 0; p < PK_SCORE_NPLUGINS; p++) {
		out->plugin[p] = norm[p] ? (int)norm[p][best] : 0;
		free(norm[p]);
	}
	free(raw);
	free(total);
}

void pk_score_place(const pk_snapshot *s, pk_score_cache *c, const pk_pod *pod, const pk_evaluation *e,
                    pk_placement *out)
{
	const pk_nodeinfo **nodes = malloc(sizeof *nodes * (size_t)(e->nnodes + 1));
	if (!nodes)
		abort();
	long n = 0;
	for (long i = 0; i < e->nnodes; i++)
		if (e->nodes[i].filter->code == PK_CODE_SUCCESS)
			nodes[n++] = e->nodes[i].ni;
	pk_score_nodes(s, c, pod, nodes, n, out);
	free(nodes);
}

#define PK_PLACEMENT_RULE                                                                                          \
	"the highest weighted sum of the default score plugins; of equal sums the lowest node name (upstream "      \
	"picks one at random)"

cJSON *pk_placement_json(const pk_placement *pl)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "node", pl->node ? pl->node->node->name : "");
	cJSON_AddNumberToObject(o, "score", (double)pl->score);
	cJSON_AddNumberToObject(o, "scoredNodes", (double)pl->nscored);
	cJSON_AddNumberToObject(o, "tiedNodes", (double)pl->ntop);
	cJSON_AddBoolToObject(o, "tieBroken", pl->ntop > 1);
	cJSON_AddStringToObject(o, "rule", PK_PLACEMENT_RULE);
	cJSON *p = cJSON_AddObjectToObject(o, "plugins");
	for (int i = 0; i < PK_SCORE_NPLUGINS; i++) {
		cJSON *x = cJSON_AddObjectToObject(p, plugins[i].name);
		cJSON_AddNumberToObject(x, "score", pl->plugin[i]);
		cJSON_AddNumberToObject(x, "weight", plugins[i].weight);
	}
	cJSON *ns = cJSON_AddArrayToObject(o, "notScored");
	cJSON_AddItemToArray(ns, cJSON_CreateString("InterPodAffinity"));
	cJSON_AddItemToArray(ns, cJSON_CreateString("ImageLocality"));
	if (pl->assumes)
		cJSON_AddStringToObject(o, "assumes", pl->assumes);
	return o;
}

static const char *describe(const char *node, int64_t score, long nscored, long ntop, char *buf, size_t size)
{
	int w = snprintf(buf, size, "placed on %s: score %lld, the highest of %ld node(s)", node, (long long)score,
	                 nscored);
	if (ntop > 1 && w > 0 && (size_t)w < size)
		snprintf(buf + w, size - (size_t)w, ", tied with %ld other(s): the lowest name taken (upstream: at random)",
		         ntop - 1);
	return buf;
}

const char *pk_placement_text(const pk_placement *pl, char *buf, size_t size)
{
	if (!pl->node) {
		snprintf(buf, size, "no node to place on");
		return buf;
	}
	return describe(pl->node->node->name, pl->score, pl->nscored, pl->ntop, buf, size);
}

const char *pk_placement_json_text(const cJSON *placement, char *buf, size_t size)
{
	const cJSON *node = cJSON_GetObjectItemCaseSensitive(placement, "node");
	const cJSON *score = cJSON_GetObjectItemCaseSensitive(placement, "score");
	const cJSON *scored = cJSON_GetObjectItemCaseSensitive(placement, "scoredNodes");
	const cJSON *tied = cJSON_GetObjectItemCaseSensitive(placement, "tiedNodes");
	if (!cJSON_IsString(node) || !*node->valuestring || !cJSON_IsNumber(score) || !cJSON_IsNumber(scored) ||
	    !cJSON_IsNumber(tied))
		return NULL;
	return describe(node->valuestring, (int64_t)score->valuedouble, (long)scored->valuedouble,
	                (long)tied->valuedouble, buf, size);
}
