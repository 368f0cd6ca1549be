/* Storage objects and a pod's claims, decoded (volume.h). */
#include "k8s/volume.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/nsname.h"
#include "k8s/json.h"
#include "k8s/quantity.h"

bool pk_volume_kind(const char *kind)
{
	return strcmp(kind, "PersistentVolumeClaim") == 0 || strcmp(kind, "PersistentVolume") == 0 ||
	       strcmp(kind, "StorageClass") == 0 || strcmp(kind, "CSINode") == 0 ||
	       strcmp(kind, "VolumeAttachment") == 0 || strcmp(kind, "CSIDriver") == 0;
}

static const char *istr(pk_decoder *d, const cJSON *obj, const char *path)
{
	const char *s = pk_str(obj, path);
	return pk_intern(d->strs, s ? s : "");
}

static uint8_t access_modes(const cJSON *list)
{
	uint8_t m = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, list) {
		if (!cJSON_IsString(it))
			continue;
		const char *s = it->valuestring;
		m |= strcmp(s, "ReadWriteOnce") == 0      ? PK_ACCESS_RWO
		     : strcmp(s, "ReadOnlyMany") == 0     ? PK_ACCESS_ROX
		     : strcmp(s, "ReadWriteMany") == 0    ? PK_ACCESS_RWX
		     : strcmp(s, "ReadWriteOncePod") == 0 ? PK_ACCESS_RWOP
		                                          : 0;
	}
	return m;
}

/* A storage quantity in bytes (0 when absent); -1 with err when malformed. */
static int storage_bytes(const cJSON *v, const char *what, int64_t *out, char *err, size_t errsize)
{
	*out = 0;
	if (!v)
		return 0;
	int64_t milli;
	pk_qty_status st = pk_qty_from_json(v, &milli);
	if (st != PK_QTY_OK) {
		snprintf(err, errsize, "%s: %s", what, pk_qty_strerror(st));
		return -1;
	}
	*out = milli / 1000;
	return 0;
}

static int add_pvc(pk_volume_set *v, pk_decoder *d, const cJSON *obj, long record, char *err, size_t errsize)
{
	const cJSON *spec = pk_get(obj, "spec");
	pk_pvc c = {
		.namespace_ = pk_intern(d->strs, *pk_namespace(obj) ? pk_namespace(obj) : "default"),
		.name = istr(d, obj, "metadata.name"),
		.volume_name = istr(d, spec, "volumeName"),
		.class_name = istr(d, spec, "storageClassName"),
		.phase = istr(d, obj, "status.phase"),
		.modes = access_modes(pk_get(spec, "accessModes")),
		.record = record,
	};
	const cJSON *del = pk_getp(obj, "metadata.deletionTimestamp");
	c.deleting = del && !cJSON_IsNull(del);
	c.controller_kind = c.controller_name = pk_intern(d->strs, "");
	const cJSON *ref;
	cJSON_ArrayForEach(ref, pk_getp(obj, "metadata.ownerReferences"))
		if (pk_bool(ref, "controller")) {
			c.controller_kind = istr(d, ref, "kind");
			c.controller_name = istr(d, ref, "name");
		}
	if (storage_bytes(pk_getp(spec, "resources.requests.storage"), "spec.resources.requests.storage", &c.storage,
	                  err, errsize) < 0)
		return -1;
	v->pvcs = pk_grow(v->pvcs, &v->pvccap, (size_t)v->npvcs + 1, sizeof *v->pvcs);
	v->pvcs[v->npvcs++] = c;
	return 0;
}

/* A node affinity compiled, shared by the volumes that have the same one. */
typedef struct shared_terms {
	pk_node_term *terms;
	int n;
} shared_terms;

static void free_shared_terms(void *p)
{
	shared_terms *st = p;
	pk_node_terms_free(st->terms, st->n);
	free(st);
}

/* nodeSelectorTerms compiled, or the same ones compiled before. */
static int affinity_terms(pk_volume_set *v, pk_decoder *d, const cJSON *terms, pk_pv *p, char *err,
                          size_t errsize)
{
	char *key = terms ? cJSON_PrintUnformatted(terms) : NULL;
	shared_terms *st = key ? pk_strmap_get(&v->affinities, key) : NULL;
	if (!st) {
		pk_node_term *t;
		int n;
		if (pk_node_terms_compile(d->arena, terms, &t, &n, "", err, errsize) < 0) {
			pk_node_terms_free(t, n);
			free(key);
			return -1;
		}
		st = pk_xmalloc(sizeof *st);
		*st = (shared_terms){ t, n };
		if (key)
			pk_strmap_put(&v->affinities, key, st);
	}
	p->terms = st->terms;
	p->nterms = st->n;
	if (!key) /* no terms: nothing to share or free */
		free(st);
	free(key);
	return 0;
}

static int add_pv(pk_volume_set *v, pk_decoder *d, const cJSON *obj, char *err, size_t errsize)
{
	const cJSON *spec = pk_get(obj, "spec");
	pk_pv p = {
		.name = istr(d, obj, "metadata.name"),
		.class_name = istr(d, spec, "storageClassName"),
		.phase = istr(d, obj, "status.phase"),
		.labels = pk_intern_labels(d->strs, pk_getp(obj, "metadata.labels")),
		.claim_namespace = istr(d, spec, "claimRef.namespace"),
		.claim_name = istr(d, spec, "claimRef.name"),
		.modes = access_modes(pk_get(spec, "accessModes")),
		.csi_driver = istr(d, spec, "csi.driver"),
		.volume_handle = istr(d, spec, "csi.volumeHandle"),
	};
	static const char *const in_tree[] = { "awsElasticBlockStore", "gcePersistentDisk", "azureDisk", "cinder" };
	p.in_tree = pk_intern(d->strs, "");
	for (size_t k = 0; k < sizeof in_tree / sizeof *in_tree; k++)
		if (pk_get(spec, in_tree[k]))
			p.in_tree = pk_intern(d->strs, in_tree[k]);
	const cJSON *req = pk_getp(spec, "nodeAffinity.required");
	if (req && !cJSON_IsNull(req)) {
		p.has_affinity = true;
		const cJSON *terms = pk_get(req, "nodeSelectorTerms");
		if (terms && !cJSON_IsArray(terms)) {
			snprintf(err, errsize, "spec.nodeAffinity.required.nodeSelectorTerms is not a list");
			return -1;
		}
		char why[300];
		if (affinity_terms(v, d, terms, &p, why, sizeof why) < 0) {
			snprintf(err, errsize, "spec.nodeAffinity.required: %s", why);
			return -1;
		}
	}
	char why[200];
	if (storage_bytes(pk_getp(spec, "capacity.storage"), "spec.capacity.storage", &p.capacity, why, sizeof why) < 0) {
		snprintf(err, errsize, "%s", why); /* its terms are the shared ones */
		return -1;
	}
	v->pvs = pk_grow(v->pvs, &v->pvcap, (size_t)v->npvs + 1, sizeof *v->pvs);
	v->pvs[v->npvs++] = p;
	return 0;
}

/* allowedTopologies [{matchLabelExpressions: [{key, values}]}] as node
 * terms of In requirements. */
static int class_topologies(pk_decoder *d, const cJSON *topo, pk_storage_class *c, char *err, size_t errsize)
{
	cJSON *terms = cJSON_CreateArray();
	const cJSON *t;
	cJSON_ArrayForEach(t, topo) {
		cJSON *exprs = cJSON_CreateArray();
		const cJSON *e;
		cJSON_ArrayForEach(e, pk_get(t, "matchLabelExpressions")) {
			cJSON *r = cJSON_CreateObject();
			cJSON_AddStringToObject(r, "key", pk_str_or(e, "key", ""));
			cJSON_AddStringToObject(r, "operator", "In");
			const cJSON *vals = pk_get(e, "values");
			cJSON_AddItemToObject(r, "values", vals ? cJSON_Duplicate(vals, 1) : cJSON_CreateArray());
			cJSON_AddItemToArray(exprs, r);
		}
		cJSON *term = cJSON_CreateObject();
		cJSON_AddItemToObject(term, "matchExpressions", exprs);
		cJSON_AddItemToArray(terms, term);
	}
	int rc = pk_node_terms_compile(d->arena, terms, &c->topologies, &c->ntopologies, "allowedTopologies ", err,
	                               errsize);
	cJSON_Delete(terms);
	return rc;
}

static int add_class(pk_volume_set *v, pk_decoder *d, const cJSON *obj, char *err, size_t errsize)
{
	const char *mode = pk_str(obj, "volumeBindingMode");
	pk_storage_class c = {
		.name = istr(d, obj, "metadata.name"),
		.provisioner = istr(d, obj, "provisioner"),
		.has_binding_mode = mode != NULL,
		.wait_for_first_consumer = mode && strcmp(mode, "WaitForFirstConsumer") == 0,
	};
	const cJSON *topo = pk_get(obj, "allowedTopologies");
	char why[300];
	if (cJSON_IsArray(topo) && class_topologies(d, topo, &c, why, sizeof why) < 0) {
		pk_node_terms_free(c.topologies, c.ntopologies);
		snprintf(err, errsize, "%s", why);
		return -1;
	}
	v->classes = pk_grow(v->classes, &v->classcap, (size_t)v->nclasses + 1, sizeof *v->classes);
	v->classes[v->nclasses++] = c;
	return 0;
}

static int add_csinode(pk_volume_set *v, pk_decoder *d, const cJSON *obj, char *err, size_t errsize)
{
	pk_csinode n = { .name = istr(d, obj, "metadata.name") };
	const cJSON *drivers = pk_getp(obj, "spec.drivers");
	int cnt = cJSON_IsArray(drivers) ? cJSON_GetArraySize(drivers) : 0;
	n.drivers = cnt ? pk_arena_alloc(d->arena, sizeof *n.drivers * (size_t)cnt) : NULL;
	const cJSON *dr;
	cJSON_ArrayForEach(dr, drivers) {
		pk_csi_driver_limit *l = &n.drivers[n.ndrivers];
		*l = (pk_csi_driver_limit){ .driver = istr(d, dr, "name") };
		const cJSON *count = pk_getp(dr, "allocatable.count");
		if (count && !cJSON_IsNull(count)) {
			if (!pk_num_int64(count, &l->count) || l->count < 0 || l->count > INT32_MAX) {
				snprintf(err, errsize, "spec.drivers[%d].allocatable.count is not an int32 >= 0", n.ndrivers);
				return -1;
			}
			l->has_count = true;
		}
		n.ndrivers++;
	}
	v->csinodes = pk_grow(v->csinodes, &v->csicap, (size_t)v->ncsinodes + 1, sizeof *v->csinodes);
	v->csinodes[v->ncsinodes++] = n;
	return 0;
}

/* A string member at path: 0 with *out interned, or -1 with a message in
 * err when it is absent (and required) or not a string. */
static int required_string(pk_decoder *d, const cJSON *obj, const char *path, bool required, const char **out,
                           char *err, size_t errsize)
{
	const cJSON *m = pk_getp(obj, path);
	if ((!m || cJSON_IsNull(m)) && !required) {
		*out = pk_intern(d->strs, "");
		return 0;
	}
	if (!cJSON_IsString(m) || (required && !*m->valuestring)) {
		snprintf(err, errsize, "%s is %s", path, m && !cJSON_IsNull(m) ? "not a string" : "missing");
		return -1;
	}
	*out = pk_intern(d->strs, m->valuestring);
	return 0;
}

/* The API server requires spec.attacher, spec.nodeName and one source: an
 * object without them is no VolumeAttachment it would have served. */
static int add_attachment(pk_volume_set *v, pk_decoder *d, const cJSON *obj, char *err, size_t errsize)
{
	pk_volume_attachment a = { .name = istr(d, obj, "metadata.name") };
	if (required_string(d, obj, "spec.attacher", true, &a.attacher, err, errsize) < 0 ||
	    required_string(d, obj, "spec.nodeName", true, &a.node, err, errsize) < 0 ||
	    required_string(d, obj, "spec.source.persistentVolumeName", false, &a.pv_name, err, errsize) < 0)
		return -1;
	if (!*a.pv_name && !cJSON_IsObject(pk_getp(obj, "spec.source.inlineVolumeSpec"))) {
		snprintf(err, errsize, "spec.source names neither persistentVolumeName nor inlineVolumeSpec");
		return -1;
	}
	v->attachments = pk_grow(v->attachments, &v->attachcap, (size_t)v->nattachments + 1, sizeof *v->attachments);
	v->attachments[v->nattachments++] = a;
	return 0;
}

/* A CSIDriver: its name (the driver's, required) and
 * spec.preventPodSchedulingIfMissing, a boolean when present. */
static int add_csidriver(pk_volume_set *v, pk_decoder *d, const cJSON *obj, char *err, size_t errsize)
{
	pk_csi_driver c = {0};
	if (required_string(d, obj, "metadata.name", true, &c.name, err, errsize) < 0)
		return -1;
	const cJSON *prevent = pk_getp(obj, "spec.preventPodSchedulingIfMissing");
	if (prevent && !cJSON_IsNull(prevent) && !cJSON_IsBool(prevent)) {
		snprintf(err, errsize, "spec.preventPodSchedulingIfMissing is not a boolean");
		return -1;
	}
	c.prevent_if_missing = cJSON_IsTrue(prevent);
	v->csidrivers = pk_grow(v->csidrivers, &v->csidrivercap, (size_t)v->ncsidrivers + 1, sizeof *v->csidrivers);
	v->csidrivers[v->ncsidrivers++] = c;
	return 0;
}

int pk_volume_set_add(pk_volume_set *v, pk_decoder *d, const cJSON *obj, long record, char *err, size_t errsize)
{
	const char *kind = pk_kind(obj);
	v->finished = false;
	if (strcmp(kind, "PersistentVolumeClaim") == 0) {
		return add_pvc(v, d, obj, record, err, errsize);
	}
	if (strcmp(kind, "PersistentVolume") == 0)
		return add_pv(v, d, obj, err, errsize);
	if (strcmp(kind, "StorageClass") == 0)
		return add_class(v, d, obj, err, errsize);
	if (strcmp(kind, "VolumeAttachment") == 0)
		return add_attachment(v, d, obj, err, errsize);
	if (strcmp(kind, "CSIDriver") == 0)
		return add_csidriver(v, d, obj, err, errsize);
	return add_csinode(v, d, obj, err, errsize);
}

/* ---- look-ups: sorted by name, the last one read of a name first ---------- */

#define BY_NAME_CMP(fn, type, key)                                                     \
	static int fn(const void *a, const void *b)                                        \
	{                                                                                  \
		const type *x = a, *y = b;                                                     \
		int c = strcmp(x->key, y->key);                                                \
		return c ? c : (x > y) - (x < y);                                              \
	}

static int pvc_cmp(const void *a, const void *b)
{
	const pk_pvc *x = a, *y = b;
	int c = strcmp(x->namespace_, y->namespace_);
	if (!c)
		c = strcmp(x->name, y->name);
	return c ? c : (x->record < y->record) - (x->record > y->record);
}
BY_NAME_CMP(pv_cmp, pk_pv, name)
BY_NAME_CMP(class_cmp, pk_storage_class, name)
BY_NAME_CMP(csinode_cmp, pk_csinode, name)
BY_NAME_CMP(attachment_cmp, pk_volume_attachment, node)
BY_NAME_CMP(csidriver_cmp, pk_csi_driver, name)

static int available_cmp(const void *a, const void *b)
{
	const pk_pv *x = *(const pk_pv *const *)a, *y = *(const pk_pv *const *)b;
	int c = strcmp(x->class_name, y->class_name);
	return c ? c : strcmp(x->name, y->name);
}

static void index_available(pk_volume_set *v)
{
	free(v->available);
	v->available = pk_xmalloc(sizeof *v->available * (size_t)(v->npvs + 1));
	v->navailable = 0;
	for (long i = 0; i < v->npvs; i++)
		if (strcmp(v->pvs[i].phase, "Available") == 0)
			v->available[v->navailable++] = &v->pvs[i];
	if (v->navailable > 1)
		qsort(v->available, (size_t)v->navailable, sizeof *v->available, available_cmp);
}

static void index_limited_drivers(pk_volume_set *v)
{
	free(v->limited_drivers);
	v->limited_drivers = NULL;
	v->nlimited = 0;
	size_t cap = 0;
	for (long n = 0; n < v->ncsinodes; n++)
		for (int d = 0; d < v->csinodes[n].ndrivers; d++) {
			const pk_csi_driver_limit *l = &v->csinodes[n].drivers[d];
			bool seen = !l->has_count;
			for (int k = 0; !seen && k < v->nlimited; k++)
				seen = v->limited_drivers[k] == l->driver;
			if (seen)
				continue;
			v->limited_drivers = pk_grow(v->limited_drivers, &cap, (size_t)v->nlimited + 1, sizeof *v->limited_drivers);
			v->limited_drivers[v->nlimited++] = l->driver;
		}
}

const pk_pv *const *pk_volume_available(const pk_volume_set *v, const char *cls, long *n)
{
	long lo = 0, hi = v->navailable;
	while (lo < hi) {
		long mid = (lo + hi) / 2;
		if (strcmp(v->available[mid]->class_name, cls) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	long end = lo;
	while (end < v->navailable && strcmp(v->available[end]->class_name, cls) == 0)
		end++;
	*n = end - lo;
	return v->available + lo;
}

bool pk_volume_driver_limited(const pk_volume_set *v, const char *driver)
{
	for (int k = 0; k < v->nlimited; k++)
		if (v->limited_drivers[k] == driver)
			return true;
	return false;
}

static const pk_pv *find_pv(const pk_volume_set *v, const char *name);

/* getNodeVolumeAttachmentInfo's look-up, once: an attachment counts with its
 * attacher and its volume's CSI handle; one whose volume is not in the input
 * or not a CSI volume (an inline spec too) is not counted, as upstream skips
 * it. Sorted by node for pk_volume_attachments. */
static void resolve_attachments(pk_volume_set *v)
{
	for (long i = 0; i < v->nattachments; i++) {
		pk_volume_attachment *a = &v->attachments[i];
		const pk_pv *pv = *a->pv_name ? find_pv(v, a->pv_name) : NULL;
		a->handle = pv && *pv->csi_driver ? pv->volume_handle : NULL;
	}
	if (v->nattachments > 1)
		qsort(v->attachments, (size_t)v->nattachments, sizeof *v->attachments, attachment_cmp);
}

void pk_volume_set_finish(pk_volume_set *v)
{
	if (v->finished)
		return;
	if (v->npvcs > 1)
		qsort(v->pvcs, (size_t)v->npvcs, sizeof *v->pvcs, pvc_cmp);
	/* the others have no record: qsort of equal names keeps no order, and
	 * a name read twice is an input of overlapping lists (either is it) */
	if (v->npvs > 1)
		qsort(v->pvs, (size_t)v->npvs, sizeof *v->pvs, pv_cmp);
	if (v->nclasses > 1)
		qsort(v->classes, (size_t)v->nclasses, sizeof *v->classes, class_cmp);
	if (v->ncsinodes > 1)
		qsort(v->csinodes, (size_t)v->ncsinodes, sizeof *v->csinodes, csinode_cmp);
	index_available(v);
	index_limited_drivers(v);
	resolve_attachments(v);
	if (v->ncsidrivers > 1)
		qsort(v->csidrivers, (size_t)v->ncsidrivers, sizeof *v->csidrivers, csidriver_cmp);
	v->finished = true;
}

void pk_volume_set_free(pk_volume_set *v)
{
	if (!v)
		return;
	pk_strmap_free(&v->affinities, free_shared_terms);
	for (long i = 0; i < v->nclasses; i++)
		pk_node_terms_free(v->classes[i].topologies, v->classes[i].ntopologies);
	free(v->pvcs);
	free(v->pvs);
	free(v->classes);
	free(v->csinodes);
	free(v->attachments);
	free(v->csidrivers);
	free(v->available);
	free(v->limited_drivers);
	memset(v, 0, sizeof *v);
}

/* The first element whose name is >= key in a sorted array. */
#define LOWER_BOUND(arr, n, key, nameexpr)                                             \
	do {                                                                               \
		long lo_ = 0, hi_ = (n);                                                       \
		while (lo_ < hi_) {                                                            \
			long mid_ = (lo_ + hi_) / 2;                                               \
			if (strcmp((arr)[mid_].nameexpr, (key)) < 0)                               \
				lo_ = mid_ + 1;                                                        \
			else                                                                       \
				hi_ = mid_;                                                            \
		}                                                                              \
		at = lo_;                                                                      \
	} while (0)

const pk_pvc *pk_volume_pvc(const pk_volume_set *v, const char *ns, const char *name)
{
	long i = pk_nsname_find(v->pvcs, v->npvcs, sizeof *v->pvcs, offsetof(pk_pvc, namespace_), offsetof(pk_pvc, name), ns,
	                        name);
	return i < 0 ? NULL : &v->pvcs[i];
}

static const pk_pv *find_pv(const pk_volume_set *v, const char *name)
{
	long at;
	LOWER_BOUND(v->pvs, v->npvs, name, name);
	return at < v->npvs && strcmp(v->pvs[at].name, name) == 0 ? &v->pvs[at] : NULL;
}

const pk_pv *pk_volume_pv(const pk_volume_set *v, const char *name)
{
	return find_pv(v, name);
}

const pk_storage_class *pk_volume_class(const pk_volume_set *v, const char *name)
{
	long at;
	LOWER_BOUND(v->classes, v->nclasses, name, name);
	return at < v->nclasses && strcmp(v->classes[at].name, name) == 0 ? &v->classes[at] : NULL;
}

const pk_csinode *pk_volume_csinode(const pk_volume_set *v, const char *node)
{
	long at;
	LOWER_BOUND(v->csinodes, v->ncsinodes, node, name);
	return at < v->ncsinodes && strcmp(v->csinodes[at].name, node) == 0 ? &v->csinodes[at] : NULL;
}

const pk_csi_driver *pk_volume_csidriver(const pk_volume_set *v, const char *driver)
{
	long at;
	LOWER_BOUND(v->csidrivers, v->ncsidrivers, driver, name);
	return at < v->ncsidrivers && strcmp(v->csidrivers[at].name, driver) == 0 ? &v->csidrivers[at] : NULL;
}

const pk_volume_attachment *pk_volume_attachments(const pk_volume_set *v, const char *node, long *n)
{
	long at, end;
	LOWER_BOUND(v->attachments, v->nattachments, node, node);
	for (end = at; end < v->nattachments && strcmp(v->attachments[end].node, node) == 0; end++)
		;
	*n = end - at;
	return v->attachments + at;
}

/* ---- a pod's volumes --------------------------------------------------------- */

static const char *const disk_sources[] = { NULL, "gcePersistentDisk", "awsElasticBlockStore", "rbd", "iscsi" };

static int disk_kind(const cJSON *vol)
{
	for (int k = PK_DISK_GCE_PD; k <= PK_DISK_ISCSI; k++)
		if (pk_get(vol, disk_sources[k]))
			return k;
	return 0;
}

static pk_inline_disk decode_disk(pk_decoder *d, const cJSON *vol, int kind)
{
	const cJSON *src = pk_get(vol, disk_sources[kind]);
	static const char *const id_member[] = { NULL, "pdName", "volumeID", "image", "iqn" };
	pk_inline_disk x = { .kind = (uint8_t)kind, .read_only = pk_bool(src, "readOnly"),
		             .id = istr(d, src, id_member[kind]), .pool = pk_intern(d->strs, "") };
	if (kind == PK_DISK_RBD) {
		x.pool = pk_intern(d->strs, pk_str_or(src, "pool", "rbd")); /* the API's default */
		const cJSON *mons = pk_get(src, "monitors");
		int n = cJSON_IsArray(mons) ? cJSON_GetArraySize(mons) : 0;
		x.monitors = n ? pk_arena_alloc(d->arena, sizeof *x.monitors * (size_t)n) : NULL;
		const cJSON *m;
		cJSON_ArrayForEach(m, mons)
			if (cJSON_IsString(m))
				x.monitors[x.nmonitors++] = pk_intern(d->strs, m->valuestring);
	}
	return x;
}

/* A claim template's spec; -1 with err for a storage request that is not
 * a quantity. */
static int claim_template(pk_decoder *d, const char *name, const cJSON *spec, pk_claim_template *t, char *err,
                          size_t errsize)
{
	const cJSON *cls = pk_get(spec, "storageClassName");
	*t = (pk_claim_template){ .set = true, .name = name, .class_name = istr(d, spec, "storageClassName"),
		                  .has_class = cJSON_IsString(cls), .modes = access_modes(pk_get(spec, "accessModes")) };
	return storage_bytes(pk_getp(spec, "resources.requests.storage"), "resources.requests.storage", &t->storage,
	                     err, errsize);
}

int pk_claim_templates_decode(pk_decoder *d, const cJSON *templates, pk_claim_template **out, int *n, char *err,
                              size_t errsize)
{
	int cnt = cJSON_IsArray(templates) ? cJSON_GetArraySize(templates) : 0;
	*n = 0;
	*out = cnt ? pk_arena_alloc(d->arena, sizeof **out * (size_t)cnt) : NULL;
	const cJSON *t;
	char why[300];
	cJSON_ArrayForEach(t, templates) {
		const char *name = pk_str(pk_get(t, "metadata"), "name");
		if (!name || !*name) {
			snprintf(err, errsize, "spec.volumeClaimTemplates[%d]: no metadata.name", *n);
			return -1;
		}
		if (claim_template(d, pk_intern(d->strs, name), pk_get(t, "spec"), &(*out)[*n], why, sizeof why) < 0) {
			snprintf(err, errsize, "spec.volumeClaimTemplates[%d].spec.%s", *n, why);
			return -1;
		}
		(*out)[(*n)++].statefulset = true;
	}
	return 0;
}

/* "<a>-<b>", interned. */
static const char *joined(pk_decoder *d, const char *a, const char *b)
{
	size_t n = strlen(a) + 1 + strlen(b) + 1;
	char *name = pk_xmalloc(n);
	snprintf(name, n, "%s-%s", a, b);
	const char *s = pk_intern(d->strs, name);
	free(name);
	return s;
}

const pk_pod_volumes *pk_pod_volumes_for_replica(pk_decoder *d, const pk_pod_volumes *tpl, const char *pod_name,
                                                 const pk_claim_template *templates, int ntemplates)
{
	int own = tpl ? tpl->nclaims : 0;
	if (!ntemplates && (!tpl || !tpl->ephemeral_at))
		return tpl;
	pk_pod_volumes *pv = pk_arena_alloc(d->arena, sizeof *pv);
	*pv = tpl ? *tpl : (pk_pod_volumes){ 0 };
	pv->resolved_for = NULL;
	pv->resolved = NULL;
	int n = own + ntemplates;
	const char **claims = pk_arena_alloc(d->arena, sizeof *claims * (size_t)n);
	bool *eph = pk_arena_alloc(d->arena, sizeof *eph * (size_t)n);
	pk_claim_template *tm = pk_arena_alloc(d->arena, sizeof *tm * (size_t)n);
	for (int i = 0; i < own; i++) {
		eph[i] = tpl->ephemeral_at && tpl->ephemeral_at[i];
		tm[i] = tpl->templates ? tpl->templates[i] : (pk_claim_template){ 0 };
		claims[i] = eph[i] ? joined(d, pod_name, tm[i].name) : tpl->claims[i];
	}
	for (int k = 0; k < ntemplates; k++) { /* the StatefulSet controller's getPersistentVolumeClaimName */
		eph[own + k] = false;
		tm[own + k] = templates[k];
		claims[own + k] = joined(d, templates[k].name, pod_name);
	}
	pv->claims = claims;
	pv->nclaims = n;
	pv->ephemeral_at = eph;
	pv->templates = tm;
	return pv;
}

const pk_pod_volumes *pk_pod_volumes_decode(pk_decoder *d, const cJSON *volumes)
{
	int nclaims = 0, ndisks = 0;
	bool ephemeral = false;
	const cJSON *vol;
	cJSON_ArrayForEach(vol, volumes) {
		bool eph = pk_get(vol, "ephemeral") != NULL;
		if (pk_get(vol, "persistentVolumeClaim") || eph)
			nclaims++;
		else if (disk_kind(vol))
			ndisks++;
		ephemeral |= eph;
	}
	if (!nclaims && !ndisks)
		return NULL;
	pk_pod_volumes *pv = pk_arena_alloc(d->arena, sizeof *pv);
	memset(pv, 0, sizeof *pv);
	bool *eph_at = ephemeral ? pk_arena_alloc(d->arena, sizeof *eph_at * (size_t)nclaims) : NULL;
	pk_claim_template *tmpl = ephemeral ? pk_arena_alloc(d->arena, sizeof *tmpl * (size_t)nclaims) : NULL;
	pv->ephemeral_at = eph_at;
	pv->templates = tmpl;
	pv->claims = nclaims ? pk_arena_alloc(d->arena, sizeof *pv->claims * (size_t)nclaims) : NULL;
	pv->disks = ndisks ? pk_arena_alloc(d->arena, sizeof *pv->disks * (size_t)ndisks) : NULL;
	cJSON_ArrayForEach(vol, volumes) {
		const cJSON *c = pk_get(vol, "persistentVolumeClaim");
		bool eph = !c && pk_get(vol, "ephemeral");
		int k = c || eph ? 0 : disk_kind(vol);
		if (eph_at && (c || eph)) {
			char why[300];
			eph_at[pv->nclaims] = eph;
			tmpl[pv->nclaims] = (pk_claim_template){ 0 };
			/* a malformed storage request is the apiserver's to refuse, as the pod is */
			if (eph && claim_template(d, istr(d, vol, "name"), pk_getp(vol, "ephemeral.volumeClaimTemplate.spec"),
			                          &tmpl[pv->nclaims], why, sizeof why) < 0)
				tmpl[pv->nclaims].storage = 0;
		}
		if (c)
			pv->claims[pv->nclaims++] = istr(d, c, "claimName");
		else if (eph)
			pv->claims[pv->nclaims++] = istr(d, vol, "name"); /* named for the pod below */
		else if (k)
			pv->disks[pv->ndisks++] = decode_disk(d, vol, k);
	}
	return pv;
}

void pk_pod_volumes_name_ephemeral(pk_decoder *d, const pk_pod_volumes *pv, const char *pod_name)
{
	for (int i = 0; pv && pv->ephemeral_at && i < pv->nclaims; i++)
		if (pv->ephemeral_at[i])
			((pk_pod_volumes *)pv)->claims[i] = joined(d, pod_name, pv->templates[i].name);
}
