/* The cluster snapshot: decoding records into compact views, grouping pods
 * per node, and the state updates later preemptors and simulators need. */
#include "sched/engine/cluster/snapshot.h"
#include "sched/engine/cluster/nodeinfo_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "k8s/queue_order.h"
#include "k8s/json.h"
#include "k8s/volume.h"
#include "k8s/dra.h"
#include "k8s/dra_nodealloc.h"
#include "sched/engine/workers.h"
#include "base/alloc.h"

/* Members of a snapshot's objects the engine never reads: left out before
 * they are parsed (pk_reader_opts.prune). */
#define UNUSED_MEMBERS \
	"metadata.managedFields", "metadata.annotations", "metadata.resourceVersion", \
	"metadata.ownerReferences[].apiVersion", "metadata.ownerReferences[].blockOwnerDeletion", \
	"metadata.ownerReferences[].uid", \
	"status.containerStatuses", "status.initContainerStatuses", "status.ephemeralContainerStatuses", \
	"status.nodeInfo", "status.addresses", "status.daemonEndpoints", \
	"status.volumesAttached", "status.volumesInUse", "status.podIPs", "status.hostIPs", "status.config", \
	"status.hostIP", "status.podIP", "status.qosClass", "status.capacity", \
	/* of a condition the engine reads type, status and reason */ \
	"status.conditions[].lastProbeTime", "status.conditions[].lastTransitionTime", \
	"status.conditions[].lastHeartbeatTime", "status.conditions[].message", \
	"spec.dnsPolicy", "spec.enableServiceLinks", "spec.securityContext", "spec.serviceAccount", \
	"spec.serviceAccountName", "spec.terminationGracePeriodSeconds", "spec.imagePullSecrets", \
	"spec.podCIDR", "spec.providerID", "spec.tolerations[].tolerationSeconds", \
	/* of a volume, its name (an ephemeral one names its claim) and whether it \
	 * names a persistentVolumeClaim */ \
	"spec.volumes[].projected", "spec.volumes[].configMap", "spec.volumes[].secret", \
	"spec.volumes[].downwardAPI", "spec.volumes[].emptyDir", "spec.volumes[].hostPath", \
	/* of a container the engine reads name, image (ImageLocality), resources, ports, \
	 * restartPolicy; a node's status.images are read too */ \
	"spec.containers[].env", "spec.containers[].envFrom", "spec.containers[].volumeMounts", \
	"spec.containers[].command", "spec.containers[].args", "spec.containers[].livenessProbe", \
	"spec.containers[].readinessProbe", "spec.containers[].startupProbe", "spec.containers[].lifecycle", \
	"spec.containers[].securityContext", "spec.containers[].imagePullPolicy", \
	"spec.containers[].terminationMessagePath", "spec.containers[].terminationMessagePolicy", \
	"spec.containers[].ports[].name", \
	"spec.initContainers[].env", "spec.initContainers[].envFrom", "spec.initContainers[].volumeMounts", \
	"spec.initContainers[].command", "spec.initContainers[].args", \
	"spec.restartPolicy", "spec.containers[].ports[].containerPort"

const char *const pk_snapshot_unused_members[] = { UNUSED_MEMBERS, NULL };

/* ---- node-name index: open addressing over interned pointers ------------- */

typedef struct node_index {
	const char **keys;
	long *vals;
	size_t cap;
} node_index;

static void index_build(pk_snapshot *s)
{
	node_index *ix = pk_xcalloc(1, sizeof *ix);
	ix->cap = 16;
	while (ix->cap < (size_t)s->nnodes * 2 + 2)
		ix->cap *= 2;
	ix->keys = pk_xcalloc(ix->cap, sizeof *ix->keys);
	ix->vals = pk_xcalloc(ix->cap, sizeof *ix->vals);
	for (long i = 0; i < s->nnodes; i++) {
		size_t j = (size_t)pk_hash_ptr(s->nodes[i].name) & (ix->cap - 1);
		while (ix->keys[j] && ix->keys[j] != s->nodes[i].name)
			j = (j + 1) & (ix->cap - 1);
		ix->keys[j] = s->nodes[i].name;
		ix->vals[j] = i;
	}
	s->index = ix;
}

static void index_free(pk_snapshot *s)
{
	node_index *ix = s->index;
	if (!ix)
		return;
	free(ix->keys);
	free(ix->vals);
	free(ix);
	s->index = NULL;
}

/* The node whose interned name is key, or NULL. */
static pk_nodeinfo *node_of_key(const pk_snapshot *s, const char *key)
{
	const node_index *ix = s->index;
	size_t j = (size_t)pk_hash_ptr(key) & (ix->cap - 1);
	while (ix->keys[j]) {
		if (ix->keys[j] == key)
			return &s->infos[ix->vals[j]];
		j = (j + 1) & (ix->cap - 1);
	}
	return NULL;
}

pk_nodeinfo *pk_snapshot_node(const pk_snapshot *s, const char *name)
{
	if (!s->index || !name || !*name)
		return NULL;
	/* Names from the snapshot are interned; a name the table does not
	 * hold is no node's (and is not added: threads may call this at once). */
	const char *key = pk_strtab_find(s->strs, name);
	return key ? node_of_key(s, key) : NULL;
}

/* ---- building ------------------------------------------------------------- */

void pk_snapshot_init(pk_snapshot *s)
{
	memset(s, 0, sizeof *s);
	pk_arena_init(&s->arena);
	s->strs = pk_strtab_new();
	pk_decoder_init(&s->dec, &s->arena, s->strs);
	s->namespaces = pk_xcalloc(1, sizeof *s->namespaces);
	pk_ns_set_init(s->namespaces, s->strs);
	s->dec.namespaces = s->namespaces;
	pk_pclass_set_init(&s->classes);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	s->now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void pk_snapshot_free(pk_snapshot *s)
{
	for (long i = 0; i < s->npods; i++) {
		pk_pod_release(s->pods[i]);
		if (s->pending_objects)
			cJSON_Delete(s->pending_objects[i]);
	}
	for (long i = 0; i < s->nresizes; i++)
		pk_pod_release(s->resizes[i].view);
	free(s->resizes);
	for (int i = 0; i < s->npdbs; i++)
		pk_pdb_release(&s->pdbs[i]);
	if (s->infos)
		for (long i = 0; i < s->nnodes; i++) {
			free(s->infos[i].pods);
			free(s->infos[i].slots);
			free(s->infos[i].nominated);
			free(s->infos[i].requested.scalar);
		}
	free(s->infos);
	free(s->nodes);
	free(s->pods);
	free(s->pending_objects);
	free(s->pdbs);
	free(s->pdb_keys);
	index_free(s);
	pk_pclass_set_free(&s->classes);
	pk_volume_set_free(s->volumes);
	free(s->volumes);
	if (s->namespaces)
		pk_ns_set_free(s->namespaces);
	free(s->namespaces);
	pk_dra_set_free(s->dra);
	free(s->dra);
	pk_strtab_free(s->strs);
	pk_arena_free(&s->arena);
	memset(s, 0, sizeof *s);
}

cJSON *pk_resize_view(const cJSON *pod)
{
	static const char *const skipped[] = {
		"affinity", "nodeSelector", "tolerations", "topologySpreadConstraints", "volumes", "resourceClaims",
		"schedulingGates", "schedulingGroup", "workloadRef", NULL,
	};
	cJSON *v = cJSON_Duplicate(pod, 1);
	cJSON_DeleteItemFromObjectCaseSensitive(v, "status");
	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(v, "metadata"), "labels");
	cJSON *spec = cJSON_GetObjectItemCaseSensitive(v, "spec");
	for (int i = 0; skipped[i]; i++)
		cJSON_DeleteItemFromObjectCaseSensitive(spec, skipped[i]);
	static const char *const lists[] = { "containers", "initContainers", NULL };
	for (int i = 0; lists[i]; i++) {
		cJSON *c;
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(spec, lists[i]))
			cJSON_DeleteItemFromObjectCaseSensitive(c, "ports");
	}
	/* every taint tolerated: TaintToleration and NodeUnschedulable skip it */
	cJSON *all = cJSON_AddArrayToObject(spec, "tolerations"), *t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, "operator", "Exists");
	cJSON_AddItemToArray(all, t);
	return v;
}

/* A bound pod whose resize is Deferred: noted with its view, decoded now
 * (the object is not kept). */
static void note_resize(pk_snapshot *s, const cJSON *obj, pk_pod *own)
{
	if (!*own->node_name || !pk_pod_object_resize_deferred(obj))
		return;
	cJSON *v = pk_resize_view(obj);
	pk_pod *view = pk_arena_alloc(&s->arena, sizeof *view);
	char err[512];
	int rc = pk_pod_decode(&s->dec, v, view, err, sizeof err);
	cJSON_Delete(v);
	if (rc < 0) { /* the pod itself decoded: its view less so only by what it lost */
		pk_pod_release(view);
		return;
	}
	view->index = -1;
	s->resizes = pk_grow(s->resizes, &s->resizecap, (size_t)s->nresizes + 1, sizeof *s->resizes);
	s->resizes[s->nresizes++] = (pk_snapshot_resize){ own, view };
}

static pk_add_result add_pod(pk_snapshot *s, const cJSON *obj, bool *take,
                             char *err, size_t errsize)
{
	pk_pod *p = pk_arena_alloc(&s->arena, sizeof *p);
	if (pk_pod_decode(&s->dec, obj, p, err, errsize) < 0) {
		pk_pod_release(p);
		return PK_ADD_REJECTED;
	}
	size_t cap = s->podcap;
	s->pods = pk_grow(s->pods, &cap, (size_t)s->npods + 1, sizeof *s->pods);
	if (s->keep_pending_objects) {
		size_t c2 = s->podcap;
		s->pending_objects = pk_grow(s->pending_objects, &c2, (size_t)s->npods + 1, sizeof *s->pending_objects);
		s->pending_objects[s->npods] = NULL;
		/* and a bound pod's whose resize is Deferred: --pending may answer for it */
		if (!pk_pod_is_terminal(p) && (!*p->node_name || pk_pod_object_resize_deferred(obj))) {
			s->pending_objects[s->npods] = (cJSON *)obj;
			*take = true;
		}
	}
	s->podcap = cap;
	p->index = s->npods;
	s->pods[s->npods++] = p;
	note_resize(s, obj, p);
	return PK_ADD_USED;
}

pk_add_result pk_snapshot_add(pk_snapshot *s, const cJSON *obj, long record, bool *take,
                              char *err, size_t errsize)
{
	const char *kind = pk_kind(obj);
	*take = false;
	err[0] = '\0';
	if (strcmp(kind, "Pod") == 0)
		return add_pod(s, obj, take, err, errsize);
	if (strcmp(kind, "Node") == 0) {
		s->nodes = pk_grow(s->nodes, &s->nodecap, (size_t)s->nnodes + 1, sizeof *s->nodes);
		if (pk_node_decode(&s->dec, obj, &s->nodes[s->nnodes], err, errsize) < 0)
			return PK_ADD_REJECTED;
		s->nodes[s->nnodes].index = s->nnodes; /* input order until finish */
		s->nnodes++;
		return PK_ADD_USED;
	}
	if (strcmp(kind, "PodDisruptionBudget") == 0) {
		s->pdbs = pk_grow(s->pdbs, &s->pdbcap, (size_t)s->npdbs + 1, sizeof *s->pdbs);
		if (pk_pdb_decode(&s->dec, obj, &s->pdbs[s->npdbs], err, errsize) < 0)
			return PK_ADD_REJECTED;
		s->npdbs++;
		return PK_ADD_USED;
	}
	if (strcmp(kind, "PriorityClass") == 0) {
		if (pk_pclass_set_add(&s->classes, obj) < 0) {
			snprintf(err, errsize, "PriorityClass %s: value is not an int32", pk_name(obj));
			return PK_ADD_REJECTED;
		}
		s->priority_classes++;
		return PK_ADD_USED;
	}
	if (strcmp(kind, "Namespace") == 0) {
		pk_ns_set_add(s->namespaces, obj);
		return PK_ADD_USED;
	}
	if (pk_volume_kind(pk_kind(obj))) {
		if (!s->volumes)
			s->volumes = pk_xcalloc(1, sizeof *s->volumes);
		return pk_volume_set_add(s->volumes, &s->dec, obj, record, err, errsize) < 0 ? PK_ADD_REJECTED
		                                                                                : PK_ADD_USED;
	}
	if (!pk_dra_kind(pk_kind(obj)))
		return PK_ADD_SKIPPED;
	if (!s->dra)
		s->dra = pk_xcalloc(1, sizeof *s->dra);
	return pk_dra_set_add(s->dra, &s->dec, obj, record, err, errsize) < 0 ? PK_ADD_REJECTED : PK_ADD_USED;
}

void pk_snapshot_list_begun(pk_snapshot *s, const char *item_kind)
{
	if (strcmp(item_kind, "DeviceTaintRule") == 0) { /* an empty DeviceTaintRuleList says there are none */
		if (!s->dra)
			s->dra = pk_xcalloc(1, sizeof *s->dra);
		s->dra->rules_listed = true;
		return;
	}
	bool attachments = strcmp(item_kind, "VolumeAttachment") == 0, drivers = strcmp(item_kind, "CSIDriver") == 0;
	if (!attachments && !drivers)
		return;
	if (!s->volumes)
		s->volumes = pk_xcalloc(1, sizeof *s->volumes);
	if (attachments)
		s->volumes->attachments_listed = true;
	else
		s->volumes->csidrivers_listed = true;
}

/* Fill in what admission would have set: priority and preemptionPolicy from
 * the class (or the global default) when the pod does not carry them; note
 * what admission would have objected to (a class not in the input, fields
 * that contradict the class) so that tools can say so. */
static void resolve_pod_priority(pk_snapshot *s, pk_pod *p)
{
	pk_resolved_priority r = pk_pod_resolve_priority(&s->classes, p);
	p->priority = r.value;
	p->policy = r.policy;
	p->admission = (uint8_t)((r.class_missing ? PK_ADMISSION_CLASS_MISSING : 0) |
	                         (r.priority_conflict ? PK_ADMISSION_PRIORITY_CONFLICT : 0) |
	                         (r.policy_conflict ? PK_ADMISSION_POLICY_CONFLICT : 0));
}

static int64_t start_or_now(const pk_pod *p, int64_t now)
{
	return p->has_start_time ? p->start_time : now;
}

int pk_pod_importance_cmp(const pk_pod *a, const pk_pod *b, int64_t now)
{
	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	int64_t sa = start_or_now(a, now), sb = start_or_now(b, now);
	if (sa != sb)
		return sa < sb ? -1 : 1;
	int c = strcmp(a->namespace_, b->namespace_);
	return c ? c : strcmp(a->name, b->name);
}

/* By name, then input order (so the last one read of a name comes last). */
static int node_name_cmp(const void *a, const void *b)
{
	const pk_node *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* A Node read twice (overlapping inputs) would look like an empty second
 * node: keep the last one read. */
static void drop_duplicate_nodes(pk_snapshot *s)
{
	long w = 0;
	for (long i = 0; i < s->nnodes; i++) {
		if (i + 1 < s->nnodes && s->nodes[i + 1].name == s->nodes[i].name) {
			s->duplicates++;
			continue;
		}
		s->nodes[w++] = s->nodes[i];
	}
	s->nnodes = w;
}

/* A pod's (namespace, name) hashed and mixed: the slot is taken from bits
 * 20 and up, a tag from the top byte. */
static uint64_t pod_key_mix(const pk_pod *p)
{
	uint64_t h = ((uint64_t)(uintptr_t)p->namespace_ * 0x9e3779b97f4a7c15ull) ^ pk_hash_str(p->name);
	return h * 0xff51afd7ed558ccdull;
}

/* Pod k (mixed: pod_key_mix) into the table of pods seen; a pod with its
 * namespace and name seen before is shadowed by it. */
static void shadow_if_seen(pk_snapshot *s, uint32_t *seen, uint8_t *tag, size_t cap, long k, uint64_t mixed)
{
	const pk_pod *p = s->pods[k];
	size_t j = (size_t)(mixed >> 20) & (cap - 1);
	uint8_t t = (uint8_t)(mixed >> 56);
	for (; seen[j]; j = (j + 1) & (cap - 1)) {
		if (tag[j] != t)
			continue;
		pk_pod *q = s->pods[seen[j] - 1];
		if (q->namespace_ == p->namespace_ && strcmp(q->name, p->name) == 0) {
			q->shadowed = true;
			s->duplicates++;
			break;
		}
	}
	seen[j] = (uint32_t)(k + 1);
	tag[j] = t;
}

/* Likewise for pods: the same namespace/name twice counts once. */
static void shadow_duplicate_pods(pk_snapshot *s)
{
	/* An open-addressing table of pod numbers + 1, keyed by the interned
	 * namespace pointer and the name (a pod's own copy) and sized once: 4
	 * bytes a slot. (A pair map, three words an entry, set the peak memory
	 * of a whole run.) A snapshot of 2^32 pods would need a terabyte
	 * before this point. */
	size_t cap = 16;
	while (cap < (size_t)s->npods * 2)
		cap *= 2;
	uint32_t *seen = pk_xcalloc(cap, sizeof *seen);
	/* A byte of each slot's hash beside it: a probe looks at the pod (two
	 * cache misses at two million pods) only when the bytes agree. */
	uint8_t *tag = pk_xmalloc(cap);
	/* The slots are random in a table of 16 MB at two million pods: each
	 * pod's is fetched while the pods AHEAD of it are looked at. */
	enum { AHEAD = 16 };
	uint64_t mixed[AHEAD];
	for (long i = 0; i < s->npods + AHEAD; i++) {
		long k = i - AHEAD;      /* the pod looked at now; its mix is in mixed[i % AHEAD] */
		if (k >= 0)
			shadow_if_seen(s, seen, tag, cap, k, mixed[k % AHEAD]);
		if (i < s->npods) {
			mixed[i % AHEAD] = pod_key_mix(s->pods[i]);
			size_t at = (size_t)(mixed[i % AHEAD] >> 20) & (cap - 1);
			__builtin_prefetch(&seen[at]);
			__builtin_prefetch(&tag[at]);
		}
	}
	free(seen);
	free(tag);
}

/* qsort has no context argument; the snapshot time is carried through a
 * per-sort copy in the comparator's elements instead of global state. */
typedef struct pod_key {
	pk_pod *pod;
	int64_t now;
} pod_key;

static int pod_key_cmp(const void *a, const void *b)
{
	const pod_key *x = a, *y = b;
	return pk_pod_importance_cmp(x->pod, y->pod, x->now);
}

static void sort_pods(pk_pod **pods, int n, int64_t now)
{
	if (n < 2)
		return;
	pod_key *k = pk_xmalloc(sizeof *k * (size_t)n);
	for (int i = 0; i < n; i++)
		k[i] = (pod_key){pods[i], now};
	qsort(k, (size_t)n, sizeof *k, pod_key_cmp);
	for (int i = 0; i < n; i++)
		pods[i] = k[i].pod;
	free(k);
}

void pk_res_add(pk_res *dst, const pk_res *src, int sign)
{
	dst->cpu += sign * src->cpu;
	dst->memory += sign * src->memory;
	dst->ephemeral += sign * src->ephemeral;
	dst->cpu_unset = (uint16_t)(dst->cpu_unset + sign * src->cpu_unset);
	dst->memory_unset = (uint16_t)(dst->memory_unset + sign * src->memory_unset);
	for (int i = 0; i < src->nscalar; i++) {
		int j = 0;
		while (j < dst->nscalar && dst->scalar[j].name != src->scalar[i].name)
			j++;
		if (j == dst->nscalar) {
			pk_scalar_res *n = pk_xrealloc(dst->scalar, (size_t)dst->nscalar + 1, sizeof *n);
			n[j].name = src->scalar[i].name;
			n[j].milli = 0;
			dst->scalar = n;
			dst->nscalar++;
		}
		dst->scalar[j].milli += sign * src->scalar[i].milli;
	}
}

static void push_pod(pk_pod ***arr, int *n, size_t *cap, pk_pod *p)
{
	*arr = pk_grow(*arr, cap, (size_t)*n + 1, sizeof **arr);
	(*arr)[(*n)++] = p;
}

static pk_pod_slot slot_of(const pk_pod *p)
{
	pk_pod_slot sl = {
		.cpu = p->requests.cpu, .memory = p->requests.memory, .ephemeral = p->requests.ephemeral,
		.start = p->has_start_time ? p->start_time : INT64_MIN, .priority = p->priority,
		.npdbs = p->npdbs,
	};
	memcpy(sl.pdbs, p->pdbs, sizeof sl.pdbs);
	return sl;
}

/* Room for exactly cap pods (and their slots) on a node. */
static void size_pods(pk_nodeinfo *ni, int cap)
{
	ni->pods = pk_xrealloc(ni->pods, (size_t)cap, sizeof *ni->pods);
	ni->slots = pk_xrealloc(ni->slots, (size_t)cap, sizeof *ni->slots);
	ni->cap = cap;
}

/* Room for need pods on a node, growing by doubling (a simulation binds
 * pods one at a time). */
static void reserve_pods(pk_nodeinfo *ni, int need)
{
	if (need <= ni->cap)
		return;
	size_t cap = (size_t)ni->cap;
	ni->pods = pk_grow(ni->pods, &cap, (size_t)need, sizeof *ni->pods);
	ni->slots = pk_xrealloc(ni->slots, cap, sizeof *ni->slots); /* parallel */
	ni->cap = (int)cap;
}

/* The node each pod is bound to (its index, -1 when none: pending, shadowed,
 * terminal or bound to a node not in the input), counting them per node in
 * ni->npods; nominations are indexed on the way. */
static int32_t *pods_to_nodes(pk_snapshot *s)
{
	int32_t *where = pk_xmalloc(sizeof *where * (size_t)(s->npods ? s->npods : 1));
	for (long i = 0; i < s->npods; i++) {
		pk_pod *p = s->pods[i];
		where[i] = -1;
		resolve_pod_priority(s, p);
		if (p->shadowed)
			continue;
		if (pk_pod_is_terminal(p)) {
			s->terminal_pods++;
			continue;
		}
		if (*p->node_name) {
			pk_nodeinfo *ni = node_of_key(s, p->node_name);    /* interned by the decoder */
			if (!ni) {
				s->unbound_node_pods++;
				continue;
			}
			where[i] = (int32_t)(ni - s->infos);
			ni->npods++;
			if (p->con->dra_requests) { /* its DRA node-allocatable claims (KEP-5517) */
				s->dra_status_first = s->dra_status_pods++ ? s->dra_status_first : p;
				if (s->dra_node_allocatable)
					p->requests = *p->con->dra_requests;
			}
		} else if (*p->nominated_node && !pk_pod_gated(p)) { /* a gated pod is no nominated pod */
			pk_nodeinfo *ni = node_of_key(s, p->nominated_node);
			if (ni)
				push_pod(&ni->nominated, &ni->nnominated, &ni->nomcap, p);
		}
	}
	return where;
}

/* Part of the nodes, each with its pods in place: their requests summed,
 * their PDBs matched, sorted in importance order, their slots filled. A
 * pod is on one node only, so the parts touch disjoint state; at 65,000
 * nodes this is a second on one core. */
static void finish_nodes(void *ctx, int part, int nparts)
{
	pk_snapshot *s = ctx;
	for (long i = s->nnodes * part / nparts; i < s->nnodes * (part + 1) / nparts; i++) {
		pk_nodeinfo *ni = &s->infos[i];
		for (int k = 0; k < ni->npods; k++) {
			pk_res_add(&ni->requested, &ni->pods[k]->requests, 1);
			pk_pod_match_pdbs(s, ni->pods[k]);
		}
		sort_pods(ni->pods, ni->npods, s->now);
		for (int k = 0; k < ni->npods; k++)
			ni->slots[k] = slot_of(ni->pods[k]);
	}
}

/* Classes the input lacks but its pods name with a spec.priority: noted,
 * and taken at that value where the pods agree (priority.h), before any
 * pod's priority is resolved. Replicas name one class one after another:
 * the last class found is not looked up again. */
static void infer_missing_classes(pk_snapshot *s)
{
	const char *known = NULL;
	for (long i = 0; i < s->npods; i++) {
		const pk_pod *p = s->pods[i];
		if (!*p->class_name || !p->has_priority || p->shadowed || p->class_name == known)
			continue;
		if (pk_pclass_find(&s->classes, p->class_name)) {
			known = p->class_name;
			continue;
		}
		pk_preemption_policy policy = p->policy;
		pk_class_evidence_note(&s->classes, p->class_name, p->namespace_, p->name, p->priority,
		                       p->has_policy ? &policy : NULL);
	}
	pk_pclass_set_infer(&s->classes);
}

/* Without Namespace objects, the namespaces of the pods are the ones known,
 * each with its kubernetes.io/metadata.name label (namespace.h): only when
 * some pod term has a namespaceSelector. */
static void note_namespaces(pk_snapshot *s)
{
	if (!s->namespaces->selectors || s->namespaces->objects)
		return;
	const char *last = NULL;
	for (long i = 0; i < s->npods; i++)
		if (s->pods[i]->namespace_ != last)
			pk_ns_set_note(s->namespaces, last = s->pods[i]->namespace_);
}

void pk_snapshot_finish(pk_snapshot *s)
{
	if (s->finished)
		return;
	infer_missing_classes(s);
	if (s->nnodes > 1)
		qsort(s->nodes, (size_t)s->nnodes, sizeof *s->nodes, node_name_cmp);
	drop_duplicate_nodes(s);
	shadow_duplicate_pods(s);
	if (s->volumes)
		pk_volume_set_finish(s->volumes); /* its pods resolved at the first cycle */
	if (s->dra)
		pk_dra_set_finish(s->dra, &s->dec); /* selectors compiled once each */
	s->dra_nodealloc_devices = s->dra ? pk_dra_nodealloc_devices(s->dra) : 0;
	pk_pdb_index(s);
	s->infos = pk_xcalloc((size_t)s->nnodes + 1, sizeof *s->infos);
	for (long i = 0; i < s->nnodes; i++) {
		s->nodes[i].index = i;
		s->infos[i].node = &s->nodes[i];
		s->infos[i].now = s->now;
	}
	index_build(s);
	/* counted first, so that each node's arrays are allocated once and
	 * exactly: two million pods in arrays grown by doubling left some
	 * 4 bytes a pod unused */
	int32_t *where = pods_to_nodes(s);
	for (long i = 0; i < s->nnodes; i++) {
		size_pods(&s->infos[i], s->infos[i].npods);
		s->infos[i].npods = 0;
	}
	for (long i = 0; i < s->npods; i++) {
		if (where[i] < 0)
			continue;
		pk_nodeinfo *ni = &s->infos[where[i]];
		pk_pod *p = s->pods[i];
		ni->pods[ni->npods++] = p;
		if (p->con->nanti_affinity)
			s->anti_affinity_pods++;
	}
	free(where);
	note_namespaces(s);
	for (long i = 0; i < s->nresizes; i++) { /* a view queues as its pod: admission's priority */
		pk_pod *v = s->resizes[i].view, *own = s->resizes[i].own;
		v->priority = own->priority;
		v->policy = own->policy;
		v->admission = own->admission;
		v->class_name = own->class_name;
	}
	pk_workers *w = s->nnodes >= 256 ? pk_workers_new(pk_workers_wanted(s->threads)) : NULL;
	pk_workers_run(w, finish_nodes, s);
	pk_workers_free(w);
	s->finished = true;
}

/* ---- state updates -------------------------------------------------------- */

void pk_nodeinfo_remove_pod(pk_nodeinfo *ni, const pk_pod *p)
{
	for (int i = 0; i < ni->npods; i++) {
		if (ni->pods[i] != p)
			continue;
		memmove(&ni->pods[i], &ni->pods[i + 1], sizeof *ni->pods * (size_t)(ni->npods - i - 1));
		memmove(&ni->slots[i], &ni->slots[i + 1], sizeof *ni->slots * (size_t)(ni->npods - i - 1));
		ni->npods--;
		ni->generation++;
		pk_res_add(&ni->requested, &p->requests, -1);
		return;
	}
}

void pk_nodeinfo_add_pod(pk_nodeinfo *ni, pk_pod *p)
{
	/* keep importance order: victim selection takes the lower-priority
	 * pods as a tail of the list, already in the order it needs */
	reserve_pods(ni, ni->npods + 1);
	int i = ni->npods;
	while (i > 0 && pk_pod_importance_cmp(p, ni->pods[i - 1], ni->now) < 0)
		i--;
	memmove(&ni->pods[i + 1], &ni->pods[i], sizeof *ni->pods * (size_t)(ni->npods - i));
	memmove(&ni->slots[i + 1], &ni->slots[i], sizeof *ni->slots * (size_t)(ni->npods - i));
	ni->pods[i] = p;
	ni->slots[i] = slot_of(p);
	ni->npods++;
	ni->generation++;
	pk_res_add(&ni->requested, &p->requests, 1);
}

void pk_nodeinfo_add_nominated(pk_nodeinfo *ni, pk_pod *p)
{
	push_pod(&ni->nominated, &ni->nnominated, &ni->nomcap, p);
	ni->generation++;
}

void pk_nodeinfo_remove_nominated(pk_nodeinfo *ni, const pk_pod *p)
{
	for (int i = 0; i < ni->nnominated; i++)
		if (ni->nominated[i] == p) {
			memmove(&ni->nominated[i], &ni->nominated[i + 1],
			        sizeof *ni->nominated * (size_t)(ni->nnominated - i - 1));
			ni->nnominated--;
			ni->generation++;
			return;
		}
}

void pk_snapshot_nominate(pk_snapshot *s, pk_pod *p, const char *node)
{
	if (*p->nominated_node) {
		pk_nodeinfo *old = pk_snapshot_node(s, p->nominated_node);
		if (old)
			pk_nodeinfo_remove_nominated(old, p);
	}
	pk_nodeinfo *ni = node && *node ? pk_snapshot_node(s, node) : NULL;
	p->nominated_node = ni ? ni->node->name : pk_intern(s->strs, "");
	if (ni)
		pk_nodeinfo_add_nominated(ni, p);
}

bool pk_snapshot_bind(pk_snapshot *s, pk_pod *p, const char *node)
{
	pk_nodeinfo *ni = pk_snapshot_node(s, node);
	if (!ni)
		return false;
	pk_snapshot_nominate(s, p, NULL);
	if (*p->node_name) {
		pk_nodeinfo *old = pk_snapshot_node(s, p->node_name);
		if (old)
			pk_nodeinfo_remove_pod(old, p);
	}
	p->node_name = ni->node->name;
	pk_nodeinfo_add_pod(ni, p);
	if (s->dra_bound && p->con->dra)
		s->dra_bound(s, p, ni->node);
	pk_res more;
	if (s->dra_assumed && p->con->dra && s->dra_assumed(s, p, ni->node, &more)) {
		pk_nodeinfo_remove_pod(ni, p);
		p->requests = more;
		pk_nodeinfo_add_pod(ni, p);
	}
	return true;
}

void pk_snapshot_delete(pk_snapshot *s, pk_pod *p)
{
	pk_snapshot_nominate(s, p, NULL);
	if (*p->node_name) {
		pk_nodeinfo *ni = pk_snapshot_node(s, p->node_name);
		if (ni)
			pk_nodeinfo_remove_pod(ni, p);
	}
	if (s->dra_gone) /* also a pod without spec.resourceClaims: its extended-resource claim */
		s->dra_gone(s, p);
}

/* ---- pending pods in queue order ------------------------------------------ */

static int queue_cmp(const void *a, const void *b)
{
	const pk_pod *x = *(pk_pod *const *)a, *y = *(pk_pod *const *)b;
	pk_queue_key kx = { x->priority, x->created, x->namespace_, x->name };
	pk_queue_key ky = { y->priority, y->created, y->namespace_, y->name };
	return pk_queue_order_cmp(&kx, &ky);
}

long pk_snapshot_pending(const pk_snapshot *s, pk_pod ***out)
{
	long n = 0;
	pk_pod **v = pk_xmalloc(sizeof *v * (size_t)(s->npods + 1));
	for (long i = 0; i < s->npods; i++) {
		pk_pod *p = s->pods[i];
		if (*p->node_name || pk_pod_is_terminal(p) || p->terminating || p->shadowed)
			continue;
		v[n++] = p; /* gated ones too: their evaluation says they wait (pk_pod_gated) */
	}
	qsort(v, (size_t)n, sizeof *v, queue_cmp);
	*out = v;
	return n;
}

long pk_snapshot_resizes(const pk_snapshot *s, pk_pod ***out)
{
	long n = 0;
	pk_pod **v = pk_xmalloc(sizeof *v * (size_t)(s->nresizes + 1));
	for (long i = 0; i < s->nresizes; i++) {
		const pk_pod *own = s->resizes[i].own;
		if (own->shadowed || pk_pod_is_terminal(own) || own->terminating || !pk_snapshot_node(s, own->node_name))
			continue;
		v[n++] = s->resizes[i].view;
	}
	qsort(v, (size_t)n, sizeof *v, queue_cmp);
	*out = v;
	return n;
}

pk_pod *pk_snapshot_resize_own(const pk_snapshot *s, const pk_pod *view)
{
	for (long i = 0; i < s->nresizes; i++)
		if (s->resizes[i].view == view)
			return s->resizes[i].own;
	return NULL;
}

long pk_snapshot_queue(const pk_snapshot *s, bool resizes, pk_pod ***out)
{
	pk_pod **pending, **rs = NULL;
	long np = pk_snapshot_pending(s, &pending), nr = resizes ? pk_snapshot_resizes(s, &rs) : 0;
	if (nr == 0) {
		free(rs);
		*out = pending;
		return np;
	}
	pk_pod **v = pk_xmalloc(sizeof *v * (size_t)(np + nr + 1));
	long i = 0, j = 0, n = 0;
	while (i < np || j < nr)
		v[n++] = j == nr || (i < np && queue_cmp(&pending[i], &rs[j]) <= 0) ? pending[i++] : rs[j++];
	free(pending);
	free(rs);
	*out = v;
	return n;
}
