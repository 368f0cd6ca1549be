/* Compact views of Node, Pod and PodDisruptionBudget; see pod.h. */
#include "pod.h"
#include "resources_int.h"
#include "k8s/dra_nodealloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "json.h"
#include "namespace.h"
#include "quantity.h"
#include "volume.h"
#include "dra.h"

const char *const pk_spec_members[S_COUNT + 1] = {
	"nodeName", "schedulerName", "priorityClassName", "priority", "preemptionPolicy", "containers",
	"initContainers", "resources", "overhead", "tolerations", "nodeSelector", "affinity", "volumes",
	"resourceClaims", "schedulingGates", "topologySpreadConstraints", "schedulingGroup", "workloadRef", NULL,
};

/* ---- labels --------------------------------------------------------------- */

/* The index in p of the pair whose key is key (interned), or -1. Maps are
 * small: a scan; a hostile map of thousands of keys costs its square once,
 * when decoded, and is no worse than the selectors that read it. */
static long packed_key_index(const pk_labels *p, const char *key)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (pk_labels_pair(p, i)->key == key)
			return i;
	return -1;
}

const pk_labels *pk_intern_labels(pk_strtab *t, const cJSON *labels)
{
	if (!cJSON_IsObject(labels) || !labels->child)
		return NULL;
	int max = cJSON_GetArraySize(labels);
	pk_labels *p = pk_strtab_alloc(t, sizeof *p + sizeof *p->ids * (size_t)max);
	p->chunks = pk_strtab_pairs(t);
	const cJSON *it;
	cJSON_ArrayForEach(it, labels) {
		if (!it->string || !cJSON_IsString(it))
			continue;
		const char *key = pk_intern(t, it->string);
		uint32_t id = pk_intern_pair(t, key, pk_intern(t, it->valuestring));
		/* A label map is a map: keys are unique. A key our decoding saw
		 * twice keeps its last value, as Go's encoding/json (and so the
		 * apiserver) decodes a repeated key. */
		long at = packed_key_index(p, key);
		if (at >= 0)
			p->ids[at] = id;
		else
			p->ids[p->n++] = id;
	}
	return p;
}

void pk_decoder_init(pk_decoder *d, pk_arena *arena, pk_strtab *strs)
{
	d->arena = arena;
	d->strs = strs;
	d->res_cpu = pk_intern(strs, "cpu");
	d->res_memory = pk_intern(strs, "memory");
	d->res_ephemeral = pk_intern(strs, "ephemeral-storage");
	d->res_pods = pk_intern(strs, "pods");
	d->last_owner = NULL;
}

static const char *istr(pk_decoder *d, const cJSON *obj, const char *path, const char *fallback)
{
	return pk_intern(d->strs, pk_str_or(obj, path, fallback));
}

/* The interned string value v, or fallback when v is absent or no string. */
static const char *istr_of(pk_decoder *d, const cJSON *v, const char *fallback)
{
	return pk_intern(d->strs, cJSON_IsString(v) ? v->valuestring : fallback);
}

static int parse_effect(const char *s)
{
	if (!s || !*s)
		return -1;
	if (strcmp(s, "NoSchedule") == 0)
		return PK_EFFECT_NO_SCHEDULE;
	if (strcmp(s, "PreferNoSchedule") == 0)
		return PK_EFFECT_PREFER_NO_SCHEDULE;
	if (strcmp(s, "NoExecute") == 0)
		return PK_EFFECT_NO_EXECUTE;
	return -2;
}

/* ---- nodes ---------------------------------------------------------------- */

/* The fields matchFields can name, {"metadata.name": name}, packed as the
 * labels are. */
static const pk_labels *node_fields(pk_decoder *d, const char *name)
{
	cJSON *fields = cJSON_CreateObject();
	if (!fields || !cJSON_AddItemToObjectCS(fields, "metadata.name", cJSON_CreateStringReference(name)))
		pk_out_of_memory();
	const pk_labels *packed = pk_intern_labels(d->strs, fields);
	cJSON_Delete(fields);
	return packed;
}

/* status.images: each name of each image with the image's sizeBytes. */
static void decode_node_images(pk_decoder *d, const cJSON *images, pk_node *out)
{
	int n = 0;
	const cJSON *im, *name;
	cJSON_ArrayForEach(im, images)
		n += cJSON_GetArraySize(pk_get(im, "names"));
	if (n == 0)
		return;
	out->images = pk_arena_alloc(d->arena, sizeof *out->images * (size_t)n);
	cJSON_ArrayForEach(im, images) {
		int64_t size = 0;
		pk_int64(im, "sizeBytes", &size);
		cJSON_ArrayForEach(name, pk_get(im, "names"))
			if (cJSON_IsString(name) && out->nimages < n)
				out->images[out->nimages++] = (pk_node_image){ pk_intern(d->strs, name->valuestring), size };
	}
}

int pk_node_decode(pk_decoder *d, const cJSON *node, pk_node *out, char *err, size_t errsize)
{
	memset(out, 0, sizeof *out);
	out->name = istr(d, node, "metadata.name", "");
	if (!*out->name) {
		snprintf(err, errsize, "Node without metadata.name");
		return -1;
	}
	out->labels = pk_intern_labels(d->strs, pk_getp(node, "metadata.labels"));
	out->fields = node_fields(d, out->name);
	pk_res_acc a = {0};
	if (pk_res_acc_parse_list(&a, d, pk_getp(node, "status.allocatable"), "status.allocatable", err, errsize) < 0)
		return -1;
	pk_res_acc_to_res(d, &a, &out->allocatable);
	out->unschedulable = pk_bool(node, "spec.unschedulable");
	out->resize_preemption_disabled =
		cJSON_GetArraySize(pk_getp(node, "spec.podPreemptionPolicy.disableResizePreemption")) > 0;
	const cJSON *taints = pk_getp(node, "spec.taints");
	int n = cJSON_IsArray(taints) ? cJSON_GetArraySize(taints) : 0;
	if (n > 0) {
		out->taints = pk_arena_alloc(d->arena, sizeof *out->taints * (size_t)n);
		const cJSON *t;
		cJSON_ArrayForEach(t, taints) {
			int eff = parse_effect(pk_str(t, "effect"));
			if (eff < 0) {
				snprintf(err, errsize, "spec.taints: unsupported effect \"%s\"", pk_str_or(t, "effect", ""));
				return -1;
			}
			pk_taint *x = &out->taints[out->ntaints++];
			x->key = istr(d, t, "key", "");
			x->value = istr(d, t, "value", "");
			x->effect = (pk_taint_effect)eff;
		}
	}
	decode_node_images(d, pk_getp(node, "status.images"), out);
	return 0;
}

/* ---- pods ----------------------------------------------------------------- */

const char *pk_unmodelled_names(unsigned mask, char *buf, size_t size)
{
	static const char *const names[] = {
		"(unused)", "(unused)", "(unused)",
		"persistentVolumeClaims", "resourceClaims", "(unused)",
	};
	size_t len = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (!(mask & (1u << i)))
			continue;
		int w = snprintf(buf + len, size - len, "%s%s", len ? "," : "", names[i]);
		if (w < 0 || (size_t)w >= size - len)
			break;
		len += (size_t)w;
	}
	return buf;
}

/* The pod's tolerations, shared with every pod that has the same list
 * (pk_intern_blob): most pods carry just the two admission defaults. */
static int decode_tolerations(pk_decoder *d, const cJSON *tols, pk_pod *out, char *err, size_t errsize)
{
	int n = cJSON_IsArray(tols) ? cJSON_GetArraySize(tols) : 0;
	if (n == 0)
		return 0;
	if (n > PK_POD_MAX_TOLERATIONS) {
		snprintf(err, errsize, "spec.tolerations: %d entries, more than %d", n, PK_POD_MAX_TOLERATIONS);
		return -1;
	}
	pk_toleration local[8];
	pk_toleration *list = n <= 8 ? local : pk_xrealloc(NULL, (size_t)n, sizeof *list);
	memset(list, 0, sizeof *list * (size_t)n);
	int rc = 0;
	const cJSON *t;
	cJSON_ArrayForEach(t, tols) {
		pk_toleration *x = &list[out->ntolerations];
		x->key = istr(d, t, "key", "");
		x->value = istr(d, t, "value", "");
		const char *op = pk_str_or(t, "operator", "Equal");
		if (strcmp(op, "Exists") == 0)
			x->op = PK_TOL_EXISTS;
		else if (strcmp(op, "Equal") == 0 || !*op)
			x->op = PK_TOL_EQUAL;
		else {
			snprintf(err, errsize, "spec.tolerations: unsupported operator \"%s\"", op);
			rc = -1;
			break;
		}
		int eff = parse_effect(pk_str(t, "effect"));
		if (eff == -2) {
			snprintf(err, errsize, "spec.tolerations: unsupported effect \"%s\"", pk_str(t, "effect"));
			rc = -1;
			break;
		}
		x->effect = eff;
		out->ntolerations++;
	}
	if (rc == 0)
		out->tolerations = (pk_toleration *)pk_intern_blob(d->strs, list, sizeof *list * (size_t)n);
	else
		out->ntolerations = 0;
	if (list != local)
		free(list);
	return rc;
}

static void add_ports(pk_decoder *d, const cJSON *containers, pk_host_port *ports, int *n, int max)
{
	const cJSON *c, *p;
	cJSON_ArrayForEach(c, containers) {
		cJSON_ArrayForEach(p, pk_get(c, "ports")) {
			int64_t hp;
			if (!pk_int64(p, "hostPort", &hp) || hp <= 0 || *n >= max)
				continue;
			pk_host_port *x = &ports[(*n)++];
			x->port = (int32_t)hp;
			x->ip = istr(d, p, "hostIP", "0.0.0.0");
			if (!*x->ip)
				x->ip = pk_intern(d->strs, "0.0.0.0");
			x->protocol = istr(d, p, "protocol", "TCP");
			if (!*x->protocol)
				x->protocol = pk_intern(d->strs, "TCP");
		}
	}
}

static int count_host_ports(const cJSON *containers)
{
	int n = 0;
	const cJSON *c, *p;
	cJSON_ArrayForEach(c, containers) {
		cJSON_ArrayForEach(p, pk_get(c, "ports")) {
			int64_t hp;
			if (pk_int64(p, "hostPort", &hp) && hp > 0)
				n++;
		}
	}
	return n;
}

/* A NodeSelectorTerm (matchExpressions and matchFields); what names the
 * term's place in messages. */
int pk_node_term_compile(const cJSON *t, pk_node_term *x, const char *what, char *err, size_t errsize)
{
	char why[256];
	const cJSON *fields = pk_get(t, "matchFields");
	if (pk_selector_compile_node_reqs(pk_get(t, "matchExpressions"), &x->labels, why, sizeof why) < 0) {
		snprintf(err, errsize, "%snodeAffinity matchExpressions: %s", what, why);
		return -1;
	}
	if (fields && cJSON_GetArraySize(fields) > 0) {
		x->has_fields = true;
		if (pk_selector_compile_node_reqs(fields, &x->fields, why, sizeof why) < 0) {
			snprintf(err, errsize, "%snodeAffinity matchFields: %s", what, why);
			return -1;
		}
	}
	return 0;
}

int pk_node_terms_compile(pk_arena *a, const cJSON *terms, pk_node_term **out, int *n, const char *what, char *err,
                          size_t errsize)
{
	int cnt = cJSON_IsArray(terms) ? cJSON_GetArraySize(terms) : 0;
	*n = 0;
	*out = cnt ? pk_arena_alloc(a, sizeof **out * (size_t)cnt) : NULL;
	const cJSON *t;
	cJSON_ArrayForEach(t, terms) {
		memset(&(*out)[*n], 0, sizeof **out);
		if (pk_node_term_compile(t, &(*out)[(*n)++], what, err, errsize) < 0)
			return -1;
	}
	return 0;
}

void pk_node_terms_free(pk_node_term *t, int n)
{
	for (int i = 0; i < n; i++) {
		pk_selector_free(&t[i].labels);
		if (t[i].has_fields)
			pk_selector_free(&t[i].fields);
	}
}

static int decode_node_affinity(pk_decoder *d, const cJSON *const *spec, pk_pod_constraints *out, char *err,
                                size_t errsize)
{
	const cJSON *sel = spec[S_NODE_SELECTOR];
	if (cJSON_IsObject(sel)) {
		out->has_node_selector = true;
		pk_selector_compile_map(sel, &out->node_selector);
	} else {
		out->node_selector.is_nil = true;
	}
	const cJSON *req = pk_getp(spec[S_AFFINITY], "nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution");
	if (!req)
		return 0;
	out->has_node_affinity = true;
	const cJSON *terms = pk_get(req, "nodeSelectorTerms");
	int n = cJSON_IsArray(terms) ? cJSON_GetArraySize(terms) : 0;
	if (n == 0)
		return 0; /* no terms: matches nothing (see filter) */
	out->affinity_terms = pk_arena_alloc(d->arena, sizeof *out->affinity_terms * (size_t)n);
	const cJSON *t;
	cJSON_ArrayForEach(t, terms)
		if (pk_node_term_compile(t, &out->affinity_terms[out->naffinity_terms++], "", err, errsize) < 0)
			return -1;
	return 0;
}

/* Preferred nodeAffinity terms (NodeAffinity's score), with their weights. */
static int decode_preferred_node_terms(pk_decoder *d, const cJSON *aff, pk_pod_constraints *out, char *err,
                                       size_t errsize)
{
	const cJSON *list = pk_getp(aff, "nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution");
	int n = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
	if (n == 0)
		return 0;
	out->preferred = pk_arena_alloc(d->arena, sizeof *out->preferred * (size_t)n);
	out->preferred_weight = pk_arena_alloc(d->arena, sizeof *out->preferred_weight * (size_t)n);
	const cJSON *t;
	cJSON_ArrayForEach(t, list) {
		int64_t w = 0;
		pk_int64(t, "weight", &w);
		pk_node_term *x = &out->preferred[out->npreferred];
		out->preferred_weight[out->npreferred++] = (int32_t)w;
		if (pk_node_term_compile(pk_get(t, "preference"), x, "preferred ", err, errsize) < 0)
			return -1;
	}
	return 0;
}

static unsigned unmodelled_features(const cJSON *const *spec)
{
	unsigned m = 0;
	const cJSON *c;
	cJSON_ArrayForEach(c, spec[S_VOLUMES]) {
		if (pk_get(c, "persistentVolumeClaim") || pk_get(c, "ephemeral"))
			m |= PK_UNMODELLED_VOLUMES;
	}
	if (cJSON_GetArraySize(spec[S_CLAIMS]) > 0)
		m |= PK_UNMODELLED_RESOURCE_CLAIMS;
	return m;
}

/* Pod (anti-)affinity terms: required ones, or (weighted) preferred ones
 * ({weight, podAffinityTerm}). */
static int decode_pod_terms(pk_decoder *d, const cJSON *terms, bool weighted, pk_pod_term **res, int *n,
                            char *err, size_t errsize)
{
	int cnt = cJSON_IsArray(terms) ? cJSON_GetArraySize(terms) : 0;
	*n = 0;
	*res = NULL;
	if (cnt == 0)
		return 0;
	*res = pk_arena_alloc(d->arena, sizeof **res * (size_t)cnt);
	char why[256];
	const cJSON *wt;
	cJSON_ArrayForEach(wt, terms) {
		pk_pod_term *x = &(*res)[*n];
		const cJSON *t = weighted ? pk_get(wt, "podAffinityTerm") : wt;
		if (weighted) {
			int64_t w = 0;
			pk_int64(wt, "weight", &w);
			x->weight = (int32_t)w;
		}
		const cJSON *sel = pk_get(t, "labelSelector");
		if (pk_selector_compile(cJSON_IsNull(sel) ? NULL : sel, &x->selector, why, sizeof why) < 0) {
			snprintf(err, errsize, "pod affinity labelSelector: %s", why);
			return -1;
		}
		(*n)++;
		x->topology_key = istr(d, t, "topologyKey", "");
		const cJSON *nss = pk_get(t, "namespaces");
		int nn = cJSON_IsArray(nss) ? cJSON_GetArraySize(nss) : 0;
		if (nn) {
			x->namespaces = pk_arena_alloc(d->arena, sizeof *x->namespaces * (size_t)nn);
			const cJSON *ns;
			cJSON_ArrayForEach(ns, nss)
				if (cJSON_IsString(ns))
					x->namespaces[x->nnamespaces++] = pk_intern(d->strs, ns->valuestring);
		}
		const cJSON *nsel = pk_get(t, "namespaceSelector");
		if (cJSON_IsObject(nsel)) {
			if (!nsel->child || (cJSON_GetArraySize(pk_get(nsel, "matchLabels")) == 0 &&
			                     cJSON_GetArraySize(pk_get(nsel, "matchExpressions")) == 0)) {
				x->all_namespaces = true;
			} else {
				if (pk_selector_compile(nsel, &x->ns_selector, why, sizeof why) < 0) {
					snprintf(err, errsize, "pod affinity namespaceSelector: %s", why);
					return -1;
				}
				x->has_ns_selector = true;
				x->ns_set = d->namespaces;
				if (d->namespaces)
					d->namespaces->selectors = true;
			}
		}
	}
	return 0;
}

/* DoNotSchedule topologySpreadConstraints; matchLabelKeys become In
 * requirements on the pod's own label values, as the apiserver merges them. */
static int decode_spread(pk_decoder *d, const cJSON *list, const cJSON *labels, pk_pod_constraints *out,
                         char *err, size_t errsize)
{
	const cJSON *c;
	int n = 0;
	cJSON_ArrayForEach(c, list)
		if (strcmp(pk_str_or(c, "whenUnsatisfiable", "DoNotSchedule"), "DoNotSchedule") == 0)
			n++;
	if (!n)
		return 0;
	out->spread = pk_arena_alloc(d->arena, sizeof *out->spread * (size_t)n);
	char why[256];
	cJSON_ArrayForEach(c, list) {
		if (strcmp(pk_str_or(c, "whenUnsatisfiable", "DoNotSchedule"), "DoNotSchedule") != 0)
			continue;
		pk_spread *x = &out->spread[out->nspread];
		int64_t v = 1;
		pk_int64(c, "maxSkew", &v);
		x->max_skew = (int32_t)v;
		v = 0;
		pk_int64(c, "minDomains", &v);
		x->min_domains = (int32_t)v;
		x->topology_key = istr(d, c, "topologyKey", "");
		x->honor_affinity = strcmp(pk_str_or(c, "nodeAffinityPolicy", "Honor"), "Ignore") != 0;
		x->honor_taints = strcmp(pk_str_or(c, "nodeTaintsPolicy", "Ignore"), "Honor") == 0;
		const cJSON *sel = pk_get(c, "labelSelector");
		cJSON *merged = cJSON_IsObject(sel) ? cJSON_Duplicate(sel, 1) : NULL;
		const cJSON *k;
		cJSON_ArrayForEach(k, pk_get(c, "matchLabelKeys")) {
			const char *val = cJSON_IsString(k) ? pk_str(labels, k->valuestring) : NULL;
			if (!merged || !val)
				continue;
			cJSON *exprs = cJSON_GetObjectItemCaseSensitive(merged, "matchExpressions");
			if (!exprs)
				exprs = cJSON_AddArrayToObject(merged, "matchExpressions");
			cJSON *e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "key", k->valuestring);
			cJSON_AddStringToObject(e, "operator", "In");
			cJSON *vals = cJSON_AddArrayToObject(e, "values");
			cJSON_AddItemToArray(vals, cJSON_CreateString(val));
			cJSON_AddItemToArray(exprs, e);
		}
		int rc = pk_selector_compile(merged, &x->selector, why, sizeof why);
		cJSON_Delete(merged);
		out->nspread++;
		if (rc < 0) {
			snprintf(err, errsize, "topologySpreadConstraints labelSelector: %s", why);
			return -1;
		}
	}
	return 0;
}

bool pk_pod_term_matches(const pk_pod_term *t, const pk_pod *owner, const pk_pod *target)
{
	bool ns = t->all_namespaces;
	if (!ns && t->nnamespaces == 0 && !t->has_ns_selector)
		ns = strcmp(target->namespace_, owner->namespace_) == 0;
	for (int i = 0; !ns && i < t->nnamespaces; i++)
		ns = strcmp(t->namespaces[i], target->namespace_) == 0;
	if (!ns && t->has_ns_selector) /* the namespace's labels, after the label selector's cheaper test */
		return t->ns_set && pk_selector_matches_labels(&t->selector, target->labels) &&
		       pk_ns_matches(t->ns_set, &t->ns_selector, target->namespace_);
	return ns && pk_selector_matches_labels(&t->selector, target->labels);
}

/* Is the first DisruptionTarget condition True with reason
 * PreemptionByScheduler? (upstream's "terminating by preemption") */
static bool disrupted_by_preemption(const cJSON *conditions)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, conditions) {
		const char *type = pk_str(c, "type");
		if (!type || strcmp(type, "DisruptionTarget") != 0)
			continue;
		const char *st = pk_str_or(c, "status", "");
		const char *reason = pk_str_or(c, "reason", "");
		return strcmp(st, "True") == 0 && strcmp(reason, "PreemptionByScheduler") == 0;
	}
	return false;
}

static bool parse_ts(const cJSON *v, int64_t *out)
{
	return cJSON_IsString(v) && pk_parse_time(v->valuestring, out);
}

enum { M_NAMESPACE, M_NAME, M_GENERATE_NAME, M_UID, M_LABELS, M_CREATED, M_DELETED, M_OWNERS, M_COUNT };
static const char *const meta_members[M_COUNT + 1] = {
	"namespace", "name", "generateName", "uid", "labels", "creationTimestamp", "deletionTimestamp",
	"ownerReferences", NULL,
};

/* A controller's name, kept but not interned: most are a ReplicaSet's or a
 * Job's, with a few pods each, and at 65,000 nodes their 1.7 million
 * entries made the string table over three times the size, with a cache
 * miss for each. Replicas listed one after another share the copy. */
static const char *owner_name(pk_decoder *d, const char *name)
{
	if (!*name)
		return pk_intern(d->strs, "");
	if (!d->last_owner || strcmp(d->last_owner, name) != 0)
		d->last_owner = pk_strtab_keep(d->strs, name, strlen(name));
	return d->last_owner;
}

/* The controller ownerReference, and for a ReplicaSet of a Deployment the
 * Deployment: the Deployment controller names its ReplicaSets
 * <deployment>-<pod-template-hash> and labels their pods with the hash
 * (pkg/controller/deployment/sync.go), so the name says who is one level up
 * without the ReplicaSet object. */
static void decode_owner(pk_decoder *d, const cJSON *owners, const cJSON *labels, pk_pod *out)
{
	out->controller_kind = out->controller_name = pk_intern(d->strs, "");
	out->owner_trim = 0;
	const cJSON *ref;
	cJSON_ArrayForEach(ref, owners) {
		if (!pk_bool(ref, "controller"))
			continue;
		const char *kind = pk_str_or(ref, "kind", ""), *name = pk_str_or(ref, "name", "");
		out->controller_kind = pk_intern(d->strs, kind);
		out->controller_name = owner_name(d, name);
		const char *hash = pk_str(labels, "pod-template-hash");
		size_t n = strlen(name), h = hash ? strlen(hash) : 0;
		if (strcmp(kind, "ReplicaSet") == 0 && h && h < 255 && n > h + 1 && name[n - h - 1] == '-' &&
		    strcmp(name + n - h, hash) == 0)
			out->owner_trim = (uint8_t)(h + 1);
		return;
	}
}
enum { T_NOMINATED, T_PHASE, T_START, T_CONDITIONS, T_CLAIM_STATUSES, T_NODE_ALLOCATABLE, T_COUNT };
static const char *const status_members[T_COUNT + 1] = {
	"nominatedNodeName", "phase", "startTime", "conditions", "resourceClaimStatuses",
	"nodeAllocatableResourceClaimStatuses", NULL,
};

const pk_pod_constraints pk_pod_no_constraints = {
	.node_selector = { .is_nil = true }, .pod_group = "", .workload_name = "", .workload_pod_group = "",
};

/* upstream's normalizedImageName: ":latest" when the last ':' is not after
 * the last '/' */
static const char *normalized_image(pk_decoder *d, const char *image)
{
	const char *colon = strrchr(image, ':'), *slash = strrchr(image, '/');
	if (colon && (!slash || colon > slash))
		return pk_intern(d->strs, image);
	size_t n = strlen(image);
	char *buf = pk_xmalloc(n + sizeof ":latest");
	memcpy(buf, image, n);
	memcpy(buf + n, ":latest", sizeof ":latest");
	const char *s = pk_intern(d->strs, buf);
	free(buf);
	return s;
}

/* The images of the init and app containers (ImageLocality), kept once
 * for all pods that name the same ones. */
static void decode_images(pk_decoder *d, const cJSON *const *sp, pk_pod_constraints *c)
{
	int n = cJSON_GetArraySize(sp[S_INIT_CONTAINERS]) + cJSON_GetArraySize(sp[S_CONTAINERS]);
	if (n == 0)
		return;
	const char **names = pk_xcalloc((size_t)n, sizeof *names);
	int k = 0;
	const cJSON *it;
	for (int list = S_INIT_CONTAINERS, pass = 0; pass < 2; list = S_CONTAINERS, pass++)
		cJSON_ArrayForEach(it, sp[list]) {
			const char *image = pk_str(it, "image");
			if (image && *image && k < n)
				names[k++] = normalized_image(d, image);
		}
	if (k)
		c->images = pk_intern_blob(d->strs, names, sizeof *names * (size_t)k);
	c->nimages = k;
	free(names);
}

/* Host ports, node selection, pod (anti-)affinity and spread, decoded into c
 * (which starts as pk_pod_no_constraints). */
/* spec.schedulingGates: each gate's name (a gate without one is kept as "",
 * as upstream lists it). */
static void decode_scheduling_gates(pk_decoder *d, const cJSON *gates, pk_pod_constraints *c)
{
	int n = cJSON_IsArray(gates) ? cJSON_GetArraySize(gates) : 0;
	if (n == 0)
		return;
	const char **names = pk_arena_alloc(d->arena, sizeof *names * (size_t)n);
	const cJSON *g;
	cJSON_ArrayForEach(g, gates)
		names[c->nscheduling_gates++] = istr(d, g, "name", "");
	c->scheduling_gates = names;
}

static int decode_constraints(pk_decoder *d, const cJSON *const *sp, const cJSON *labels, pk_pod_constraints *c,
                              unsigned *unmodelled, char *err, size_t errsize)
{
	int nports = count_host_ports(sp[S_CONTAINERS]);
	if (nports) {
		c->ports = pk_arena_alloc(d->arena, sizeof *c->ports * (size_t)nports);
		add_ports(d, sp[S_CONTAINERS], c->ports, &c->nports, nports);
	}
	if (decode_node_affinity(d, sp, c, err, errsize) < 0)
		return -1;
	const cJSON *aff = sp[S_AFFINITY];
	if (decode_pod_terms(d, pk_getp(aff, "podAffinity.requiredDuringSchedulingIgnoredDuringExecution"), false,
	                     &c->affinity, &c->naffinity, err, errsize) < 0 ||
	    decode_pod_terms(d, pk_getp(aff, "podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution"), false,
	                     &c->anti_affinity, &c->nanti_affinity, err, errsize) < 0 ||
	    decode_pod_terms(d, pk_getp(aff, "podAffinity.preferredDuringSchedulingIgnoredDuringExecution"), true,
	                     &c->preferred_affinity, &c->npreferred_affinity, err, errsize) < 0 ||
	    decode_pod_terms(d, pk_getp(aff, "podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution"), true,
	                     &c->preferred_anti, &c->npreferred_anti, err, errsize) < 0)
		return -1;
	if (!cJSON_IsString(sp[S_NODE_NAME]) || !*sp[S_NODE_NAME]->valuestring)
		decode_images(d, sp, c);
	if (decode_spread(d, sp[S_SPREAD], labels, c, err, errsize) < 0 ||
	    decode_preferred_node_terms(d, aff, c, err, errsize) < 0)
		return -1;
	const cJSON *sc;
	cJSON_ArrayForEach(sc, sp[S_SPREAD])
		c->soft_spread |= strcmp(pk_str_or(sc, "whenUnsatisfiable", "DoNotSchedule"), "ScheduleAnyway") == 0;
	c->preferred_pod_affinity = c->npreferred_affinity > 0 || c->npreferred_anti > 0;
	c->pod_group = istr(d, sp[S_GROUP], "podGroupName", "");
	c->workload_name = istr(d, sp[S_WORKLOAD], "name", "");
	c->workload_pod_group = istr(d, sp[S_WORKLOAD], "podGroup", "");
	c->volumes = pk_pod_volumes_decode(d, sp[S_VOLUMES]); /* k8s/volume.c */
	decode_scheduling_gates(d, sp[S_GATES], c);
	return 0;
}

const char *pk_pod_gates_message(const pk_pod *p, char *buf, size_t size)
{
	size_t w = (size_t)snprintf(buf, size, "waiting for scheduling gates: [");
	for (int i = 0; i < p->con->nscheduling_gates && w < size; i++)
		w += (size_t)snprintf(buf + w, size - w, "%s%s", i ? " " : "", p->con->scheduling_gates[i]);
	if (w < size)
		snprintf(buf + w, size - w, "]");
	return buf;
}

/* The rank of resource among the container's request names, sorted (limits
 * stand in for absent requests, as the apiserver's defaulting does). */
static int request_rank(const cJSON *reqs, const cJSON *lims, const char *resource)
{
	int rank = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, reqs)
		rank += it->string && strcmp(it->string, resource) < 0;
	cJSON_ArrayForEach(it, lims)
		rank += it->string && !pk_get(reqs, it->string) && strcmp(it->string, resource) < 0;
	return rank;
}

/* One container's extended-resource requests (names with a domain) into
 * out (room for them); how many. Bad quantities are the requests' own
 * error (resources.c), whole numbers only here. */
static int container_ext_requests(pk_decoder *d, const cJSON *c, int index, bool short_lived, pk_ext_request *out)
{
	const cJSON *reqs = pk_getp(c, "resources.requests"), *lims = pk_getp(c, "resources.limits");
	int n = 0;
	for (int pass = 0; pass < 2; pass++) {
		const cJSON *list = pass ? lims : reqs, *it;
		cJSON_ArrayForEach(it, list) {
			int64_t milli;
			if (!it->string || !strchr(it->string, '/') || (pass && pk_get(reqs, it->string)) ||
			    pk_qty_from_json(it, &milli) != PK_QTY_OK || milli <= 0 || milli % 1000 != 0)
				continue;
			if (out)
				out[n] = (pk_ext_request){ .resource = pk_intern(d->strs, it->string), .count = milli / 1000,
				                           .container = (int16_t)index,
				                           .rank = (int16_t)request_rank(reqs, lims, it->string),
				                           .short_lived = short_lived };
			n++;
		}
	}
	return n;
}

/* Every container's (init containers first), for extended resources backed
 * by DRA (sched/engine/filter/dra_ext.c); counted, then filled. Read for
 * pods not bound only, which are the pods a claim is made for (a bound
 * pod's is the input's): a cluster's device-plugin pods keep the shared
 * empty constraints. */
static void decode_ext_requests(pk_decoder *d, const cJSON *const *sp, pk_pod_constraints *c)
{
	if (cJSON_IsString(sp[S_NODE_NAME]) && *sp[S_NODE_NAME]->valuestring)
		return;
	pk_ext_request *out = NULL;
	for (int fill = 0; fill < 2; fill++) {
		int n = 0, index = 0;
		for (int list = S_INIT_CONTAINERS, pass = 0; pass < 2; list = S_CONTAINERS, pass++) {
			const cJSON *it;
			cJSON_ArrayForEach(it, sp[list]) {
				const char *rp = pk_str(it, "restartPolicy");
				bool short_lived = list == S_INIT_CONTAINERS && !(rp && strcmp(rp, "Always") == 0);
				if (index <= INT16_MAX)
					n += container_ext_requests(d, it, index, short_lived, out ? out + n : NULL);
				index++;
			}
		}
		if (n == 0)
			return;
		if (fill)
			c->ext_requests = out, c->next_requests = n;
		else
			out = pk_arena_alloc(d->arena, sizeof *out * (size_t)n);
	}
}

/* The pod keeps c in the arena, or the shared empty one if c asks nothing. */
static void attach_constraints(pk_decoder *d, pk_pod *out, const pk_pod_constraints *c)
{
	if (!c->nports && !c->has_node_selector && !c->has_node_affinity && !c->naffinity_terms && !c->naffinity &&
	    !c->nanti_affinity && !c->nspread && !c->affinity && !c->anti_affinity && !c->spread &&
	    !c->affinity_terms && c->node_selector.is_nil && !c->node_selector.nreqs && !*c->pod_group &&
	    !*c->workload_name && !*c->workload_pod_group && !c->npreferred && !c->soft_spread &&
	    !c->preferred_pod_affinity && !c->nimages && !c->volumes && !c->nscheduling_gates &&
	    !c->dra && !c->dra_requests && !c->ext_requests)
		return;
	pk_pod_constraints *own = pk_arena_alloc(d->arena, sizeof *own);
	*own = *c;
	out->con = own;
}

/* metadata.uid and metadata.name, copied but not interned: every pod has
 * its own, and a table slot for each of two million (12 bytes, the table
 * at most 4/5 full, and a probe of a 48 MB table per pod) would only cost
 * memory and time. */
static const char *copy_own(pk_decoder *d, const cJSON *v)
{
	if (!cJSON_IsString(v) || !*v->valuestring)
		return pk_intern(d->strs, "");
	return pk_strtab_keep(d->strs, v->valuestring, strlen(v->valuestring));
}

int pk_pod_decode_spec(pk_decoder *d, const cJSON *meta, const cJSON *spec, const cJSON *status,
                       pk_pod *out, char *err, size_t errsize)
{
	/* each object's members in one pass: a pod is read once, but a
	 * snapshot has 150,000 of them */
	const cJSON *m[M_COUNT], *sp[S_COUNT], *st[T_COUNT];
	pk_get_members(meta, meta_members, m);
	pk_get_members(spec, pk_spec_members, sp);
	pk_get_members(status, status_members, st);

	memset(out, 0, sizeof *out);
	out->con = &pk_pod_no_constraints;
	out->npdbs = -1;   /* matching PDBs: worked out on first use */
	out->namespace_ = istr_of(d, m[M_NAMESPACE], "default");
	if (!*out->namespace_)
		out->namespace_ = pk_intern(d->strs, "default");
	out->name = copy_own(d, m[M_NAME]);
	if (!*out->name)
		out->name = copy_own(d, m[M_GENERATE_NAME]);
	out->uid = copy_own(d, m[M_UID]);
	out->labels = pk_intern_labels(d->strs, m[M_LABELS]);
	out->node_name = istr_of(d, sp[S_NODE_NAME], "");
	out->nominated_node = istr_of(d, st[T_NOMINATED], "");
	out->scheduler_name = istr_of(d, sp[S_SCHEDULER], "default-scheduler");
	out->class_name = istr_of(d, sp[S_CLASS], "");
	out->phase = istr_of(d, st[T_PHASE], "");

	int64_t prio;
	if (pk_num_int64(sp[S_PRIORITY], &prio)) {
		if (prio < INT32_MIN || prio > INT32_MAX) {
			snprintf(err, errsize, "spec.priority %lld is not an int32", (long long)prio);
			return -1;
		}
		out->has_priority = true;
		out->priority = (int32_t)prio;
	}
	if (cJSON_IsString(sp[S_POLICY])) {
		const char *pol = sp[S_POLICY]->valuestring;
		pk_preemption_policy policy;
		if (!pk_parse_preemption_policy(pol, &policy)) {
			snprintf(err, errsize, "spec.preemptionPolicy: unsupported value \"%s\"", pol);
			return -1;
		}
		out->policy = policy;
		out->has_policy = true;
	}
	out->has_start_time = parse_ts(st[T_START], &out->start_time);
	parse_ts(m[M_CREATED], &out->created);
	out->terminating = m[M_DELETED] && !cJSON_IsNull(m[M_DELETED]);
	out->preemption_target = disrupted_by_preemption(st[T_CONDITIONS]);

	if (pk_pod_requests_of(d, sp, &out->requests, err, errsize) < 0)
		return -1;

	if (decode_tolerations(d, sp[S_TOLERATIONS], out, err, errsize) < 0)
		return -1;
	unsigned unmodelled = unmodelled_features(sp);
	pk_pod_constraints c = pk_pod_no_constraints;
	int rc = decode_constraints(d, sp, m[M_LABELS], &c, &unmodelled, err, errsize);
	pk_pod_volumes_name_ephemeral(d, c.volumes, out->name); /* k8s/volume.c */
	c.dra = pk_pod_dra_decode(d, sp[S_CLAIMS], st[T_CLAIM_STATUSES]); /* k8s/dra.c */
	if (rc == 0 && pk_pod_nodealloc_requests(d, st[T_NODE_ALLOCATABLE], sp, &c.dra_requests, err, errsize) < 0)
		rc = -1; /* k8s/dra_nodealloc.c */
	if (c.dra)
		c.dra_refs = pk_pod_dra_claim_refs(d, sp);
	decode_ext_requests(d, sp, &c);
	out->unmodelled = (uint8_t)unmodelled;
	attach_constraints(d, out, &c); /* also on failure: pk_pod_release frees its selectors */
	if (rc < 0)
		return -1;
	decode_owner(d, m[M_OWNERS], m[M_LABELS], out);
	return 0;
}

int pk_pod_decode(pk_decoder *d, const cJSON *pod, pk_pod *out, char *err, size_t errsize)
{
	return pk_pod_decode_spec(d, pk_get(pod, "metadata"), pk_get(pod, "spec"), pk_get(pod, "status"),
	                          out, err, errsize);
}

const pk_pod_constraints *pk_pod_constraints_for_replica(pk_decoder *d, const pk_pod_constraints *c,
                                                         const struct pk_pod_volumes *volumes)
{
	if (volumes == c->volumes)
		return c;
	pk_pod_constraints *own = pk_arena_alloc(d->arena, sizeof *own);
	*own = *c;
	own->volumes = volumes;
	own->borrowed = true;
	return own;
}

static void free_pod_terms(pk_pod_term *t, int n)
{
	for (int i = 0; i < n; i++) {
		pk_selector_free(&t[i].selector);
		if (t[i].has_ns_selector)
			pk_selector_free(&t[i].ns_selector);
	}
}

void pk_pod_release(pk_pod *p)
{
	if (!p)
		return;
	p->labels = NULL; /* shared (pk_intern_labels) */
	if (!p->con || p->con == &pk_pod_no_constraints)
		return;
	/* the pod's own copy, in the decoder's arena */
	pk_pod_constraints *c = (pk_pod_constraints *)p->con;
	if (c->borrowed)
		return;
	pk_selector_free(&c->node_selector);
	for (int i = 0; i < c->naffinity_terms; i++) {
		pk_selector_free(&c->affinity_terms[i].labels);
		if (c->affinity_terms[i].has_fields)
			pk_selector_free(&c->affinity_terms[i].fields);
	}
	c->naffinity_terms = 0;
	for (int i = 0; i < c->npreferred; i++) {
		pk_selector_free(&c->preferred[i].labels);
		if (c->preferred[i].has_fields)
			pk_selector_free(&c->preferred[i].fields);
	}
	c->npreferred = 0;
	free_pod_terms(c->affinity, c->naffinity);
	free_pod_terms(c->anti_affinity, c->nanti_affinity);
	c->naffinity = c->nanti_affinity = 0;
	free_pod_terms(c->preferred_affinity, c->npreferred_affinity);
	free_pod_terms(c->preferred_anti, c->npreferred_anti);
	c->npreferred_affinity = c->npreferred_anti = 0;
	for (int i = 0; i < c->nspread; i++)
		pk_selector_free(&c->spread[i].selector);
	c->nspread = 0;
}

/* ---- PDBs ----------------------------------------------------------------- */

int pk_pdb_decode(pk_decoder *d, const cJSON *pdb, pk_pdb *out, char *err, size_t errsize)
{
	memset(out, 0, sizeof *out);
	out->namespace_ = istr(d, pdb, "metadata.namespace", "default");
	out->name = istr(d, pdb, "metadata.name", "");
	char why[256];
	const cJSON *sel = pk_getp(pdb, "spec.selector");
	if (pk_selector_compile(cJSON_IsNull(sel) ? NULL : sel, &out->selector, why, sizeof why) < 0) {
		snprintf(err, errsize, "spec.selector: %s", why);
		return -1;
	}
	for (int i = 0; i < out->selector.nreqs; i++) {
		const pk_sel_req *r = &out->selector.reqs[i];
		if (r->op == PK_SEL_IN && r->nvalues == 1) {
			out->must_key = pk_intern(d->strs, r->key);
			out->must_value = pk_intern(d->strs, r->values[0]);
			break;
		}
	}
	int64_t allowed = 0;
	pk_int64(pdb, "status.disruptionsAllowed", &allowed);
	out->disruptions_allowed = (int32_t)(allowed > INT32_MAX ? INT32_MAX : allowed < INT32_MIN ? INT32_MIN : allowed);
	const cJSON *dp = pk_getp(pdb, "status.disruptedPods");
	int n = cJSON_IsObject(dp) ? cJSON_GetArraySize(dp) : 0;
	if (n > 0) {
		out->disrupted_pods = pk_arena_alloc(d->arena, sizeof *out->disrupted_pods * (size_t)n);
		const cJSON *it;
		cJSON_ArrayForEach(it, dp)
			if (it->string)
				out->disrupted_pods[out->ndisrupted++] = pk_intern(d->strs, it->string);
	}
	return 0;
}

void pk_pdb_release(pk_pdb *p)
{
	if (p)
		pk_selector_free(&p->selector);
}

/* ---- semantics ------------------------------------------------------------ */

bool pk_toleration_tolerates(const pk_toleration *t, const pk_taint *taint)
{
	if (t->effect >= 0 && t->effect != (int)taint->effect)
		return false;
	if (*t->key && strcmp(t->key, taint->key) != 0)
		return false;
	if (t->op == PK_TOL_EXISTS)
		return true;
	return strcmp(t->value, taint->value) == 0;
}

bool pk_pod_tolerates(const pk_pod *p, const pk_taint *taint)
{
	for (int i = 0; i < p->ntolerations; i++)
		if (pk_toleration_tolerates(&p->tolerations[i], taint))
			return true;
	return false;
}

pk_resolved_priority pk_pod_resolve_priority(const pk_pclass_set *classes, const pk_pod *p)
{
	pk_preemption_policy policy = p->policy; /* a bit-field has no address */
	return pk_resolve_priority_fields(classes, p->class_name, p->has_priority ? &p->priority : NULL,
	                                  p->has_policy ? &policy : NULL);
}

bool pk_pod_object_resize_deferred(const cJSON *pod)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, pk_getp(pod, "status.conditions")) {
		const char *type = pk_str(c, "type");
		if (type && strcmp(type, "PodResizePending") == 0)
			return strcmp(pk_str_or(c, "reason", ""), "Deferred") == 0;
	}
	return false;
}

bool pk_pod_is_terminal(const pk_pod *p)
{
	return strcmp(p->phase, "Succeeded") == 0 || strcmp(p->phase, "Failed") == 0;
}
