/* The default score plugins and host selection; see score.h. */
#include "sched/engine/score/score.h"
#include "sched/engine/filter/interpod.h"
#include "sched/engine/workers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

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
	[PK_SCORE_INTERPOD] = { "InterPodAffinity", 2 },
	[PK_SCORE_IMAGE] = { "ImageLocality", 1 },
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

/* (1 - the standard deviation of the cpu and memory fractions) * 100, of a
 * node holding cpu and memory (requests as requested: useRequested). */
static int64_t balance_of(const pk_res *al, int64_t cpu, int64_t memory)
{
	double f[2];
	int n = 0;
	if (al->cpu)
		f[n++] = fraction(cpu, al->cpu);
	if (al->memory)
		f[n++] = fraction(memory, al->memory);
	double std = n == 2 ? fabs((f[0] - f[1]) / 2) : 0;
	return (int64_t)((1 - std) * MAX_NODE_SCORE);
}

/* The node's balance with the pod; from 1.36 (#135573) the change the pod
 * brings to it: both balances are in [50, 100], their difference moved
 * back into [50, 100] (no change: 75). */
static int64_t balanced_allocation(const pk_pod *pod, const pk_nodeinfo *ni, bool change)
{
	const pk_res *al = &ni->node->allocatable;
	int64_t with = balance_of(al, ni->requested.cpu + pod->requests.cpu, ni->requested.memory + pod->requests.memory);
	if (!change)
		return with;
	int64_t without = balance_of(al, ni->requested.cpu, ni->requested.memory);
	return MAX_NODE_SCORE / 2 + (MAX_NODE_SCORE / 2 + with - without) / 2;
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

typedef struct controller {
	const char *ns, *kind;    /* interned */
	const char *name;         /* a pod's controller_name: lives with the snapshot */
	uint64_t hash;
} controller;

/* One image name of node.status.images over the snapshot's nodes (the
 * scheduler cache's imageStates): the size the first node gives it and the
 * nodes that list it. */
typedef struct image_state {
	const char *name;         /* interned */
	int64_t size;
	int32_t *nodes;           /* node indices, ascending, each once */
	int nnodes, cap;
} image_state;

/* What placements of one run share, so that a decision costs a pass over
 * the nodes and not over every pod:
 *  - the controllers of the pods that are placed ("wanted": the pending
 *    pods of the snapshot, and any other that asks later), and for each
 *    node the wanted controllers of its pods: countPodsMatchSelector with
 *    the controller as the selector. A snapshot's bound pods have as many
 *    controllers as pods (130,000 of 150,000 in bench section 3), of which
 *    the pods placed need a handful;
 *  - each node's pods with pod-affinity terms that score others
 *    (InterPodAffinity's PodsWithAffinity);
 *  - the image states (ImageLocality), built when a pod with images is
 *    first scored.
 * A node whose generation moved is indexed again. */
struct pk_score_cache {
	bool balance_change;      /* the release's BalancedAllocation (k8s/profile.h) */
	long nnodes;              /* nodes indexed (0: not yet) */
	const char **zone;        /* per node: its zone label value, or NULL */
	bool *hostname;           /* per node: it has the hostname label */
	uint64_t *generation;     /* per node: its generation when indexed */
	bool *stale;              /* per node: to index again whatever its generation */
	int32_t **ids;            /* per node: the wanted controller of each of its pods */
	int *nids;
	const pk_pod ***affine;   /* per node: its pods that pk_interpod_scores_others */
	int *naffine;
	long affine_pods;         /* their sum */
	controller *ctl;
	long nctl, ctlcap;
	int32_t *slots;           /* open addressing over ctl (-1 free) */
	size_t nslots;
	uint64_t ns_mask;         /* ns_bit of each wanted controller's namespace */
	image_state *images;      /* NULL until built */
	long nimages, imgcap;
	int32_t *img_slots;       /* open addressing over images by name address (-1 free) */
	size_t nimg_slots;
	bool current;             /* up to date: within one pk_score_nodes, whose
	                           * snapshot does not change */
};

pk_score_cache *pk_score_cache_new(const pk_release_profile *release)
{
	pk_score_cache *c = pk_xcalloc(1, sizeof *c);
	c->balance_change = release ? release->balanced_allocation_change : true;
	return c;
}

static void cache_clear(pk_score_cache *c)
{
	for (long i = 0; i < c->nnodes; i++) {
		free(c->ids[i]);
		free(c->affine[i]);
	}
	for (long i = 0; i < c->nimages; i++)
		free(c->images[i].nodes);
	free(c->zone);
	free(c->hostname);
	free(c->generation);
	free(c->stale);
	free(c->ids);
	free(c->nids);
	free(c->affine);
	free(c->naffine);
	free(c->ctl);
	free(c->slots);
	free(c->images);
	free(c->img_slots);
	bool change = c->balance_change; /* the release's rules outlive the index */
	memset(c, 0, sizeof *c);
	c->balance_change = change;
}

void pk_score_cache_free(pk_score_cache *c)
{
	if (!c)
		return;
	cache_clear(c);
	free(c);
}

static uint64_t controller_hash(const pk_pod *p)
{
	return pk_hash_str(p->controller_name) ^ ((uint64_t)(uintptr_t)p->namespace_ * 0x9e3779b97f4a7c15ull) ^
	       (uint64_t)(uintptr_t)p->controller_kind;
}

static void slots_rebuild(pk_score_cache *c)
{
	c->nslots = c->nslots ? 2 * c->nslots : 64;
	free(c->slots);
	c->slots = pk_xrealloc(NULL, c->nslots, sizeof *c->slots);
	for (size_t i = 0; i < c->nslots; i++)
		c->slots[i] = -1;
	for (long k = 0; k < c->nctl; k++) {
		size_t j = c->ctl[k].hash & (c->nslots - 1);
		while (c->slots[j] >= 0)
			j = (j + 1) & (c->nslots - 1);
		c->slots[j] = (int32_t)k;
	}
}

/* A bit of the wanted controllers' namespaces mask: most pods of other
 * namespaces are passed over without hashing their controller's name. */
static uint64_t ns_bit(const char *ns)
{
	return 1ull << (((uintptr_t)ns >> 4) & 63);
}

/* p's controller number, or -1 if it is not wanted; changes nothing (the
 * nodes are indexed by several threads at once). */
static int32_t controller_find(const pk_score_cache *c, const pk_pod *p, uint64_t h, size_t *slot)
{
	size_t j = h & (c->nslots - 1);
	for (; c->slots[j] >= 0; j = (j + 1) & (c->nslots - 1)) {
		const controller *k = &c->ctl[c->slots[j]];
		if (k->hash == h && k->ns == p->namespace_ && k->kind == p->controller_kind &&
		    (k->name == p->controller_name || strcmp(k->name, p->controller_name) == 0))
			return c->slots[j];
	}
	if (slot)
		*slot = j;
	return -1;
}

/* p's controller number, added to the wanted ones when it is not. */
static int32_t controller_want(pk_score_cache *c, const pk_pod *p)
{
	if (2 * (size_t)(c->nctl + 1) > c->nslots)
		slots_rebuild(c);
	uint64_t h = controller_hash(p);
	size_t j;
	int32_t id = controller_find(c, p, h, &j);
	if (id >= 0)
		return id;
	size_t cap = (size_t)c->ctlcap;
	c->ctl = pk_grow(c->ctl, &cap, (size_t)c->nctl + 1, sizeof *c->ctl);
	c->ctlcap = (long)cap;
	c->ctl[c->nctl] = (controller){ p->namespace_, p->controller_kind, p->controller_name, h };
	c->ns_mask |= ns_bit(p->namespace_);
	c->slots[j] = (int32_t)c->nctl;
	return (int32_t)c->nctl++;
}

/* The wanted controller of bound pod q, or -1; prev: the pod before it on
 * the node, whose answer was *prev_id. */
static int32_t wanted_controller(const pk_score_cache *c, const pk_pod *q, const pk_pod *prev, int32_t prev_id)
{
	if (!c->nslots || !(c->ns_mask & ns_bit(q->namespace_)) || q->terminating || !*q->controller_name)
		return -1;
	/* replicas share their controller's name (the decoder keeps one copy
	 * for a run of them): found without hashing */
	if (prev && prev->controller_name == q->controller_name && prev->namespace_ == q->namespace_ &&
	    prev->controller_kind == q->controller_kind && !prev->terminating)
		return prev_id;
	if (c->nctl <= 16) { /* a few wanted: compared, not hashed */
		for (int32_t k = 0; k < (int32_t)c->nctl; k++)
			if (c->ctl[k].ns == q->namespace_ && c->ctl[k].kind == q->controller_kind &&
			    (c->ctl[k].name == q->controller_name || strcmp(c->ctl[k].name, q->controller_name) == 0))
				return k;
		return -1;
	}
	return controller_find(c, q, controller_hash(q), NULL);
}

/* Index node i again: its pods of wanted controllers that
 * countPodsMatchSelector counts (not terminating), and its pods whose
 * affinity terms score others. Touches node i's entries only; returns the
 * change in the count of pods whose terms score others. */
static long index_node(pk_score_cache *c, const pk_nodeinfo *ni, long i)
{
	long before = c->naffine[i];
	int32_t *ids = c->ids[i];
	const pk_pod **affine = c->affine[i];
	int n = 0, na = 0;
	const pk_pod *prev = NULL;
	int32_t prev_id = -1;
	for (int k = 0; k < ni->npods; k++) {
		const pk_pod *q = ni->pods[k];
		/* The first pass touches every bound pod and its controller's
		 * name: ask for the pods eight ahead, and for the name of the
		 * pod four ahead, whose own lines were asked for by then. */
		if (k + 8 < ni->npods) {
			__builtin_prefetch(ni->pods[k + 8]);
			__builtin_prefetch((const char *)ni->pods[k + 8] + 128);
		}
		if (k + 4 < ni->npods)
			__builtin_prefetch(ni->pods[k + 4]->controller_name);
		if (q->con != &pk_pod_no_constraints && pk_interpod_scores_others(q)) {
			affine = pk_xrealloc(affine, (size_t)na + 1, sizeof *affine);
			affine[na++] = q;
		}
		int32_t id = wanted_controller(c, q, prev, prev_id);
		prev = q;
		prev_id = id;
		if (id < 0)
			continue;
		ids = pk_xrealloc(ids, (size_t)n + 1, sizeof *ids);
		ids[n++] = id;
	}
	c->ids[i] = n ? ids : (free(ids), NULL);
	c->affine[i] = na ? affine : (free(affine), NULL);
	c->nids[i] = n;
	c->naffine[i] = na;
	c->generation[i] = ni->generation;
	c->stale[i] = false;
	return na - before;
}

/* The nodes of one part whose index is out of date, indexed again. */
typedef struct index_job {
	pk_score_cache *c;
	const pk_snapshot *s;
	long affine_delta[8];     /* per part */
} index_job;

static void index_part(void *ctx, int part, int nparts)
{
	index_job *job = ctx;
	pk_score_cache *c = job->c;
	const pk_snapshot *s = job->s;
	long end = s->nnodes * (part + 1) / nparts;
	for (long i = s->nnodes * part / nparts; i < end; i++) {
		if (!c->stale[i] && s->infos[i].generation == c->generation[i])
			continue;
		if (i + 1 < end && c->stale[i + 1]) /* the first pass: the next node's first pods */
			for (int k = 0; k < 8 && k < s->infos[i + 1].npods; k++) {
				__builtin_prefetch(s->infos[i + 1].pods[k]);
				__builtin_prefetch((const char *)s->infos[i + 1].pods[k] + 128);
			}
		job->affine_delta[part] += index_node(c, &s->infos[i], i);
	}
}

/* Every out-of-date node indexed again; the first pass over every bound
 * pod of a large snapshot is shared among threads. */
static void index_nodes(pk_score_cache *c, const pk_snapshot *s, bool all)
{
	index_job job = { .c = c, .s = s };
	pk_workers *w = all && s->nnodes >= 256 ? pk_workers_new(pk_workers_wanted(s->threads)) : NULL;
	if (pk_workers_parts(w) > 8) {
		pk_workers_free(w);
		w = NULL;
	}
	pk_workers_run(w, index_part, &job);
	pk_workers_free(w);
	for (int i = 0; i < 8; i++)
		c->affine_pods += job.affine_delta[i];
}

static void mark_stale(pk_score_cache *c)
{
	for (long i = 0; i < c->nnodes; i++)
		c->stale[i] = true;
}

/* The cache brought up to date with s (a cache of its own when c is NULL:
 * the caller frees it). The first time, the controllers of the snapshot's
 * pending pods are wanted. */
static pk_score_cache *cache_for(const pk_snapshot *s, pk_score_cache *c)
{
	if (!c)
		c = pk_score_cache_new(NULL);
	if (c->current)
		return c;
	if (c->nnodes != s->nnodes) {
		cache_clear(c);
		size_t n = (size_t)s->nnodes;
		c->zone = pk_xcalloc(n, sizeof *c->zone);
		c->hostname = pk_xcalloc(n, sizeof *c->hostname);
		c->generation = pk_xcalloc(n, sizeof *c->generation);
		c->stale = pk_xcalloc(n, sizeof *c->stale);
		c->ids = pk_xcalloc(n, sizeof *c->ids);
		c->nids = pk_xcalloc(n, sizeof *c->nids);
		c->affine = pk_xcalloc(n, sizeof *c->affine);
		c->naffine = pk_xcalloc(n, sizeof *c->naffine);
		for (long i = 0; i < s->npods; i++)
			if (!*s->pods[i]->node_name && default_spread_applies(s->pods[i]))
				controller_want(c, s->pods[i]);
		for (long i = 0; i < s->nnodes; i++) {
			c->zone[i] = pk_labels_value(s->nodes[i].labels, ZONE_KEY);
			c->hostname[i] = pk_labels_value(s->nodes[i].labels, HOSTNAME_KEY) != NULL;
		}
		c->nnodes = s->nnodes;
		mark_stale(c);
		index_nodes(c, s, true);
		return c;
	}
	index_nodes(c, s, false);
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
	int32_t id = c->nslots ? controller_find(c, pod, controller_hash(pod), NULL) : -1;
	if (id < 0) { /* a controller no pending pod of the snapshot has: count its pods */
		id = controller_want(c, pod);
		mark_stale(c);
		index_nodes(c, s, true);
	}
	int32_t *on_node = pk_xcalloc((size_t)s->nnodes, sizeof *on_node);
	zone_count *zones = pk_xcalloc((size_t)n + 1, sizeof *zones);
	long nzones = 0;
	for (long i = 0; i < n; i++) {
		const char *z = c->zone[nodes[i]->node->index];
		if (z && !zone_find(zones, nzones, z))
			zones[nzones++].zone = z;
	}
	/* matching pods per node, and per zone over every node the pod's node
	 * selection admits (nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore) */
	for (long x = 0; x < s->nnodes; x++) {
		for (int k = 0; k < c->nids[x]; k++)
			on_node[x] += c->ids[x][k] == id;
		zone_count *zc = on_node[x] && c->zone[x] ? zone_find(zones, nzones, c->zone[x]) : NULL;
		if (zc && pk_node_affinity_matches(pod, s->infos[x].node))
			zc->pods += on_node[x];
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

/* ---- InterPodAffinity ------------------------------------------------------ */

static bool has_preferred_pod_terms(const pk_pod *pod)
{
	return pod->con->npreferred_affinity || pod->con->npreferred_anti;
}

/* PreScore over every bound pod when the pod has preferred terms, over the
 * pods whose terms score others otherwise; false (Skip) when no term
 * matched. */
static bool interpod_raw(const pk_snapshot *s, pk_score_cache *given, const pk_pod *pod,
                         const pk_nodeinfo *const *nodes, long n, int64_t *raw)
{
	bool mine = has_preferred_pod_terms(pod);
	pk_score_cache *c = cache_for(s, given);
	pk_pair_map pairs;
	pk_pair_map_init(&pairs);
	for (long x = 0; (mine || c->affine_pods) && x < s->nnodes; x++) {
		const pk_nodeinfo *ni = &s->infos[x];
		if (mine)
			for (int k = 0; k < ni->npods; k++)
				pk_interpod_score_pod(&pairs, pod, ni->pods[k], ni->node, true);
		else
			for (int k = 0; k < c->naffine[x]; k++)
				pk_interpod_score_pod(&pairs, pod, c->affine[x][k], ni->node, false);
	}
	bool scored = pairs.used > 0;
	for (long i = 0; scored && i < n; i++)
		raw[i] = pk_interpod_score_node(&pairs, nodes[i]->node);
	pk_pair_map_free(&pairs);
	if (c != given)
		pk_score_cache_free(c);
	return scored;
}

/* ---- ImageLocality --------------------------------------------------------- */

#define MB (1024LL * 1024)
#define IMAGE_MIN_THRESHOLD (23 * MB)
#define IMAGE_MAX_CONTAINER_THRESHOLD (1000 * MB)

static size_t image_slot(const pk_score_cache *c, const char *name)
{
	size_t j = (size_t)(((uintptr_t)name >> 4) * 0x9e3779b97f4a7c15ull) & (c->nimg_slots - 1);
	while (c->img_slots[j] >= 0 && c->images[c->img_slots[j]].name != name)
		j = (j + 1) & (c->nimg_slots - 1);
	return j;
}

static void image_slots_rebuild(pk_score_cache *c)
{
	c->nimg_slots = c->nimg_slots ? 2 * c->nimg_slots : 256;
	free(c->img_slots);
	c->img_slots = pk_xrealloc(NULL, c->nimg_slots, sizeof *c->img_slots);
	for (size_t i = 0; i < c->nimg_slots; i++)
		c->img_slots[i] = -1;
	for (long k = 0; k < c->nimages; k++)
		c->img_slots[image_slot(c, c->images[k].name)] = (int32_t)k;
}

/* The scheduler cache's imageStates: each name with the size of the first
 * node that lists it and the nodes that list it. */
static void images_build(pk_score_cache *c, const pk_snapshot *s)
{
	c->images = pk_xcalloc(1, sizeof *c->images);
	image_slots_rebuild(c);
	for (long x = 0; x < s->nnodes; x++) {
		const pk_node *nd = &s->nodes[x];
		for (int k = 0; k < nd->nimages; k++) {
			if (2 * (size_t)(c->nimages + 1) > c->nimg_slots)
				image_slots_rebuild(c);
			size_t j = image_slot(c, nd->images[k].name);
			if (c->img_slots[j] < 0) {
				size_t cap = (size_t)c->imgcap;
				c->images = pk_grow(c->images, &cap, (size_t)c->nimages + 1, sizeof *c->images);
				c->imgcap = (long)cap;
				c->images[c->nimages] = (image_state){ nd->images[k].name, nd->images[k].size, NULL, 0, 0 };
				c->img_slots[j] = (int32_t)c->nimages++;
			}
			image_state *st = &c->images[c->img_slots[j]];
			if (st->nnodes && st->nodes[st->nnodes - 1] == (int32_t)x)
				continue; /* the node lists the name twice */
			size_t cap = (size_t)st->cap;
			st->nodes = pk_grow(st->nodes, &cap, (size_t)st->nnodes + 1, sizeof *st->nodes);
			st->cap = (int)cap;
			st->nodes[st->nnodes++] = (int32_t)x;
		}
	}
}

/* Score (no NormalizeScore): the sizes of the pod's images present on the
 * node, each scaled by the share of nodes that have it, between 23 MB and
 * 1000 MB a container, to 0..100. */
static bool image_raw(const pk_snapshot *s, pk_score_cache *given, const pk_pod *pod,
                      const pk_nodeinfo *const *nodes, long n, int64_t *raw)
{
	int ncontainers = pod->con->nimages;
	if (ncontainers == 0)
		return false;
	pk_score_cache *c = cache_for(s, given);
	if (!c->images)
		images_build(c, s);
	int64_t *sum = pk_xcalloc((size_t)s->nnodes, sizeof *sum);
	for (int k = 0; k < ncontainers && c->nimages; k++) {
		int32_t j = c->img_slots[image_slot(c, pod->con->images[k])];
		if (j < 0)
			continue;
		const image_state *st = &c->images[j];
		double spread = (double)st->nnodes / (double)s->nnodes;
		int64_t scaled = (int64_t)((double)st->size * spread);
		for (int x = 0; x < st->nnodes; x++)
			sum[st->nodes[x]] += scaled;
	}
	int64_t max = IMAGE_MAX_CONTAINER_THRESHOLD * ncontainers;
	for (long i = 0; i < n; i++) {
		int64_t v = sum[nodes[i]->node->index];
		v = v < IMAGE_MIN_THRESHOLD ? IMAGE_MIN_THRESHOLD : v > max ? max : v;
		raw[i] = MAX_NODE_SCORE * (v - IMAGE_MIN_THRESHOLD) / (max - IMAGE_MIN_THRESHOLD);
	}
	free(sum);
	if (c != given)
		pk_score_cache_free(c);
	return true;
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
			raw[i] = balanced_allocation(pod, nodes[i], c ? c->balance_change : true);
		return true;
	case PK_SCORE_INTERPOD:
		return interpod_raw(s, c, pod, nodes, n, raw);
	case PK_SCORE_IMAGE:
		return image_raw(s, c, pod, nodes, n, raw);
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

/* InterPodAffinity's NormalizeScore: min..max to 0..100, where the sums of
 * anti-affinity weights may be negative. */
static void min_max_normalize(int64_t *raw, long n)
{
	int64_t min = INT64_MAX, max = INT64_MIN;
	for (long i = 0; i < n; i++) {
		if (raw[i] > max)
			max = raw[i];
		if (raw[i] < min)
			min = raw[i];
	}
	for (long i = 0; i < n; i++)
		raw[i] = max > min ? (int64_t)((double)MAX_NODE_SCORE * ((double)(raw[i] - min) / (double)(max - min))) : 0;
}

void pk_score_normalize(int plugin, int64_t *raw, long n)
{
	if (plugin == PK_SCORE_TAINT)
		default_normalize(raw, n, true);
	else if (plugin == PK_SCORE_AFFINITY)
		default_normalize(raw, n, false);
	else if (plugin == PK_SCORE_SPREAD)
		spread_normalize(raw, n);
	else if (plugin == PK_SCORE_INTERPOD)
		min_max_normalize(raw, n);
}

static const char *assumptions(const pk_pod *pod)
{
	if (pod->con->soft_spread)
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
	int64_t *total = pk_xcalloc((size_t)n, sizeof *total), *raw = pk_xmalloc(sizeof *raw * (size_t)n);
	int64_t *norm[PK_SCORE_NPLUGINS] = { 0 };
	if (c) {
		cache_for(s, c);
		c->current = true;
	}
	for (int p = 0; p < PK_SCORE_NPLUGINS; p++) {
		if (!pk_score_raw(s, c, pod, p, nodes, n, raw))
			continue;
		pk_score_normalize(p, raw, n);
		for (long i = 0; i < n; i++)
			total[i] += raw[i] * plugins[p].weight;
		norm[p] = raw;
		raw = pk_xmalloc(sizeof *raw * (size_t)n);
	}
	if (c)
		c->current = false;
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
	const pk_nodeinfo **nodes = pk_xmalloc(sizeof *nodes * (size_t)(e->nnodes + 1));
	long n = 0;
	for (long i = 0; i < e->nnodes; i++)
		if (e->nodes[i].filter->code == PK_CODE_SUCCESS)
			nodes[n++] = e->nodes[i].ni;
	pk_score_nodes(s, c, pod, nodes, n, out);
	free(nodes);
}
