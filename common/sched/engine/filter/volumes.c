/* VolumeRestrictions' PreFilter, VolumeBinding and VolumeZone over the
 * input's storage objects (volumes.h), as pkg/scheduler/framework/plugins/
 * {volumerestrictions, volumebinding, volumezone} do it. */
#include "sched/engine/filter/volumes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "k8s/json.h"
#include "k8s/volume.h"
#include "sched/engine/reasons.h"

/* A bound volume's zone or region label (VolumeZone's pvTopology): the
 * values of a multi-zone label ("a__b") split. */
typedef struct zone_topology {
	const char *key;
	const char **values;
	int nvalues;
} zone_topology;

/* A volume NodeVolumeLimits counts: its CSI driver and handle, interned
 * (a claim not bound yet: its class's provisioner and a handle of the
 * claim's own). */
typedef struct csi_volume {
	const char *driver, *handle;
} csi_volume;

/* A pod's claims resolved (pk_pod_volumes.resolved). */
typedef struct vol_res {
	const pk_pvc **claims;       /* the pod's claims looked up (NULL: not in the input) */
	bool full;                   /* the PreFilters worked out (else only the
	                              * volumes a node's pods attach) */
	csi_volume *csi;             /* NodeVolumeLimits' volumes, unique */
	int ncsi;
	bool limited;                /* a CSINode of the input limits one of their drivers */
	const char **driver_missing; /* VolumeLimitScaling on and the CSIDriver of one of
	                              * their drivers says preventPodSchedulingIfMissing:
	                              * per volume, the message when it is not on the
	                              * node (NULL for the other volumes); else NULL */
	pk_status reject;            /* a PreFilter's rejection (code Success: none) */
	const pk_pv **bound;         /* the volumes of its bound claims (NULL: not in the input) */
	int nbound;
	zone_topology *zones;        /* VolumeZone's, of the bound volumes */
	int nzones;
	const pk_pvc **delayed;      /* unbound WaitForFirstConsumer claims, smallest first */
	int ndelayed;
	bool node_checks;            /* any of the three */
	const char *assumes;         /* what the answer assumes of its claims, or NULL */
} vol_res;

/* ---- the snapshot's objects ------------------------------------------------- */

static void resolve_attached(pk_snapshot *s, const pk_pod *pod);

/* What every pod of the snapshot needs resolved: the volumes it attaches,
 * which NodeVolumeLimits counts on its node when a CSINode limits a driver.
 * A preemptor's PreFilters are worked out at its own cycle (pk_volumes_resolve). */
void pk_volumes_resolve_all(pk_snapshot *s)
{
	if (!s->volumes || s->volumes->pods_resolved)
		return;
	if (!s->volumes->finished)
		pk_volume_set_finish(s->volumes);
	for (long i = 0; s->volumes->nlimited && i < s->npods; i++)
		resolve_attached(s, s->pods[i]);
	s->volumes->pods_resolved = true;
}

/* ---- resolution: the PreFilters, in the default profile's order -------------- */

static void reject_with(pk_snapshot *s, vol_res *r, pk_code code, const char *plugin, const char *message)
{
	pk_status_set(&r->reject, code, plugin, pk_intern(s->strs, message));
	r->reject.prefilter = true;
}

/* A PreFilter's rejection with upstream's message (a reasons.h format). */
#define reject(s, r, code, plugin, ...)                      \
	do {                                                     \
		char msg_[600];                                      \
		snprintf(msg_, sizeof msg_, __VA_ARGS__);            \
		reject_with(s, r, code, plugin, msg_);               \
	} while (0)

/* Is claim i of pv a generic ephemeral volume's? VolumeRestrictions and the
 * claim references NodeInfo counts look at persistentVolumeClaim volumes
 * alone. */
static bool ephemeral_claim(const pk_pod_volumes *pv, int i)
{
	return pv->ephemeral_at && pv->ephemeral_at[i];
}

/* VolumeRestrictions' PreFilter reads every claim (readWriteOncePodPVCsForPod):
 * a missing one is its NotFound. */
static bool restrictions_prefilter(pk_snapshot *s, const pk_pod *pod, const pk_pod_volumes *pv, vol_res *r)
{
	for (int i = 0; i < pv->nclaims; i++)
		if (!r->claims[i] && !ephemeral_claim(pv, i)) {
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "VolumeRestrictions", PK_R_PVC_NOT_FOUND,
			       pv->claims[i]);
			return false;
		}
	return true;
}

/* Bound, as isPVCFullyBound says (spec.volumeName and the
 * bind-completed annotation, which the input's pruned annotations do not
 * carry: phase Bound stands for it). */
static bool claim_bound(const pk_pvc *c)
{
	return *c->volume_name && strcmp(c->phase, "Bound") == 0;
}

static int by_size(const void *a, const void *b)
{
	const pk_pvc *x = *(const pk_pvc *const *)a, *y = *(const pk_pvc *const *)b;
	return (x->storage > y->storage) - (x->storage < y->storage);
}

/* VolumeBinding's PreFilter: podHasPVCs, then GetPodVolumeClaims. */
static bool binding_prefilter(pk_snapshot *s, const pk_pod *pod, const pk_pod_volumes *pv, vol_res *r)
{
	const pk_volume_set *v = s->volumes;
	for (int i = 0; i < pv->nclaims; i++) {
		const pk_pvc *c = r->claims[i];
		if (!c) { /* a bound pod's ephemeral volume's: the others were rejected above */
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "VolumeBinding", PK_R_EPHEMERAL_WAITING, pv->claims[i]);
			return false;
		}
		if (strcmp(c->phase, "Lost") == 0) {
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "VolumeBinding", PK_R_PVC_LOST, c->name, c->volume_name);
			return false;
		}
		if (c->deleting) {
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "VolumeBinding", PK_R_PVC_DELETING, c->name);
			return false;
		}
		/* a claim of the input (not one made for the pod here, record -1);
		 * upstream compares the controller's uid, which the input's pruned
		 * ownerReferences do not keep: its kind and name stand for it */
		if (ephemeral_claim(pv, i) && c->record >= 0 &&
		    (strcmp(c->controller_kind, "Pod") != 0 || strcmp(c->controller_name, pod->name) != 0)) {
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "VolumeBinding", PK_R_PVC_NOT_FOR_POD, c->namespace_,
			       c->name, pod->namespace_, pod->name);
			return false;
		}
	}
	r->bound = pk_arena_alloc(&s->arena, sizeof *r->bound * (size_t)pv->nclaims);
	r->delayed = pk_arena_alloc(&s->arena, sizeof *r->delayed * (size_t)pv->nclaims);
	bool immediate = false;
	for (int i = 0; i < pv->nclaims; i++) {
		const pk_pvc *c = r->claims[i];
		if (claim_bound(c)) {
			r->bound[r->nbound++] = pk_volume_pv(v, c->volume_name);
			continue;
		}
		/* IsDelayBindingMode: no class or a class not in the input is
		 * Immediate binding */
		if (c->default_class) {
			r->delayed[r->ndelayed++] = c; /* as said: WaitForFirstConsumer, provisioned anywhere */
			continue;
		}
		const pk_storage_class *sc = *c->class_name ? pk_volume_class(v, c->class_name) : NULL;
		if (sc && !sc->has_binding_mode) {
			reject(s, r, PK_CODE_ERROR, "VolumeBinding", PK_R_NO_BINDING_MODE, sc->name);
			return false;
		}
		if (sc && sc->wait_for_first_consumer && !*c->volume_name)
			r->delayed[r->ndelayed++] = c;
		else
			immediate = true; /* prebound claims too */
	}
	if (immediate) {
		pk_status_set(&r->reject, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "VolumeBinding", PK_R_UNBOUND_IMMEDIATE);
		r->reject.prefilter = true;
		return false;
	}
	qsort(r->delayed, (size_t)r->ndelayed, sizeof *r->delayed, by_size);
	return true;
}

static const char *const zone_labels[] = {
	"failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
	"topology.kubernetes.io/zone", "topology.kubernetes.io/region",
};

/* LabelZonesToSet: "a__b" is {a, b}. */
static void add_zone_topology(pk_snapshot *s, vol_res *r, const char *key, const char *value)
{
	int n = 1;
	for (const char *p = value; (p = strstr(p, "__")); p += 2)
		n++;
	zone_topology *z = &r->zones[r->nzones++];
	z->key = key;
	z->values = pk_arena_alloc(&s->arena, sizeof *z->values * (size_t)n);
	z->nvalues = 0;
	const char *p = value;
	for (;;) {
		const char *e = strstr(p, "__");
		size_t len = e ? (size_t)(e - p) : strlen(p);
		z->values[z->nvalues++] = pk_intern_n(s->strs, p, len);
		if (!e)
			break;
		p = e + 2;
	}
}

/* VolumeZone's PreFilter (getPVbyPod). */
static bool zone_prefilter(pk_snapshot *s, const pk_pod *pod, const pk_pod_volumes *pv, vol_res *r)
{
	const pk_volume_set *v = s->volumes;
	int nz = 0; /* the zone labels of the bound volumes: room for them exactly */
	for (int i = 0; i < pv->nclaims; i++) {
		const pk_pvc *c = r->claims[i];
		const pk_pv *vol = *c->volume_name ? pk_volume_pv(v, c->volume_name) : NULL;
		for (int k = 0; vol && k < 4; k++)
			nz += pk_labels_value(vol->labels, zone_labels[k]) != NULL;
	}
	r->zones = nz ? pk_arena_alloc(&s->arena, sizeof *r->zones * (size_t)nz) : NULL;
	for (int i = 0; i < pv->nclaims; i++) {
		const pk_pvc *c = r->claims[i];
		if (!*c->volume_name)
			continue; /* WaitForFirstConsumer: the others were rejected above */
		const pk_pv *vol = pk_volume_pv(v, c->volume_name);
		if (!vol) {
			reject(s, r, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "VolumeZone", PK_R_PV_NOT_FOUND, c->volume_name);
			return false;
		}
		for (int k = 0; k < 4; k++) {
			const char *val = pk_labels_value(vol->labels, zone_labels[k]);
			if (val)
				add_zone_topology(s, r, zone_labels[k], val);
		}
	}
	return true;
}

/* getCSIDriverInfo (and ...FromSC) for claim c: false when the volume is
 * not counted (not CSI: in-tree volumes migrated to CSI are not modelled). */
static bool csi_volume_of(pk_snapshot *s, const pk_pvc *c, csi_volume *out)
{
	const pk_volume_set *v = s->volumes;
	const pk_pv *vol = *c->volume_name ? pk_volume_pv(v, c->volume_name) : NULL;
	if (vol) {
		if (!*vol->csi_driver || !*vol->volume_handle)
			return false;
		*out = (csi_volume){ vol->csi_driver, vol->volume_handle };
		return true;
	}
	const pk_storage_class *sc = *c->class_name ? pk_volume_class(v, c->class_name) : NULL;
	if (!sc || !*sc->provisioner)
		return false;
	/* upstream: a random prefix, then namespace/name: a handle no volume has */
	char h[600];
	snprintf(h, sizeof h, "\x01%s/%s", c->namespace_, c->name);
	*out = (csi_volume){ sc->provisioner, pk_intern(s->strs, h) };
	return true;
}

static bool csi_has(const csi_volume *a, int n, const csi_volume *x)
{
	for (int i = 0; i < n; i++)
		if (a[i].driver == x->driver && a[i].handle == x->handle)
			return true;
	return false;
}

/* The pod's volumes NodeVolumeLimits counts (filterAttachableVolumes: a
 * claim that is not in the input is not counted), and whether a CSINode
 * limits one of their drivers. */
static void csi_volumes(pk_snapshot *s, const pk_pod *pod, const pk_pod_volumes *pv, vol_res *r)
{
	r->csi = pk_arena_alloc(&s->arena, sizeof *r->csi * (size_t)pv->nclaims);
	for (int i = 0; i < pv->nclaims; i++) {
		const pk_pvc *c = r->claims[i];
		csi_volume x;
		if (c && csi_volume_of(s, c, &x) && !csi_has(r->csi, r->ncsi, &x))
			r->csi[r->ncsi++] = x;
	}
	for (int i = 0; !r->limited && i < r->ncsi; i++)
		r->limited = pk_volume_driver_limited(s->volumes, r->csi[i].driver);
	for (int i = 0; s->volume_limit_scaling && i < r->ncsi; i++) {
		const pk_csi_driver *d = pk_volume_csidriver(s->volumes, r->csi[i].driver);
		if (!d || !d->prevent_if_missing)
			continue;
		if (!r->driver_missing) {
			r->driver_missing = pk_arena_alloc(&s->arena, sizeof *r->driver_missing * (size_t)r->ncsi);
			memset(r->driver_missing, 0, sizeof *r->driver_missing * (size_t)r->ncsi);
		}
		/* made here, once: the filters run on several threads */
		char msg[400];
		snprintf(msg, sizeof msg, PK_R_CSI_DRIVER_MISSING, r->csi[i].driver);
		r->driver_missing[i] = pk_intern(s->strs, msg);
	}
}

/* The claim the ephemeral volume controller makes for a pending pod's
 * ephemeral volume i (pkg/controller/volume/ephemeral: from the template,
 * owned by the pod; the DefaultStorageClass admission names a class when
 * the template does not), when the input does not hold it yet. */
/* Adds a sentence to what the pod's answer assumes of its claims. */
static void assume(pk_snapshot *s, vol_res *r, const char *text)
{
	if (!r->assumes) {
		r->assumes = pk_intern(s->strs, text);
		return;
	}
	size_t n = strlen(r->assumes) + 2 + strlen(text) + 1;
	char *both = pk_xmalloc(n);
	snprintf(both, n, "%s; %s", r->assumes, text);
	r->assumes = pk_intern(s->strs, both);
	free(both);
}

static const pk_pvc *claim_to_be_made(pk_snapshot *s, const pk_pod *pod, const pk_pod_volumes *pv, int i,
                                      vol_res *r)
{
	const pk_claim_template *t = &pv->templates[i];
	pk_pvc *c = pk_arena_alloc(&s->arena, sizeof *c);
	*c = (pk_pvc){ .namespace_ = pod->namespace_, .name = pv->claims[i], .volume_name = pk_intern(s->strs, ""),
		       .class_name = t->class_name, .phase = pk_intern(s->strs, "Pending"), .storage = t->storage,
		       .modes = t->modes, .controller_kind = pk_intern(s->strs, "Pod"), .controller_name = pod->name,
		       .default_class = !t->has_class, .record = -1 };
	char made[300], cls[300];
	if (t->statefulset)
		snprintf(made, sizeof made, "of the StatefulSet's volumeClaimTemplate \"%s\": not in the input, taken as "
		         "the StatefulSet controller makes it before the pod", t->name);
	else
		snprintf(made, sizeof made, "of ephemeral volume \"%s\": not in the input, taken as the ephemeral volume "
		         "controller makes it from the pod's volumeClaimTemplate", t->name);
	if (c->default_class)
		snprintf(cls, sizeof cls, "of the cluster's default StorageClass, which the input does not show: taken as "
		         "provisioning on any node when the pod is placed (WaitForFirstConsumer)");
	else
		snprintf(cls, sizeof cls, "class \"%s\"", c->class_name);
	char text[900];
	snprintf(text, sizeof text, "claim \"%s\" %s, unbound, %s%s", c->name, made, cls,
	         t->statefulset ? "" : "; the scheduler first waits for it (\"waiting for ephemeral volume controller "
	                              "to create the persistentvolumeclaim\")");
	assume(s, r, text);
	return c;
}

/* What the volume filters would read and the input cannot hold, said for
 * the claims it matters to: the storage capacity of dynamic provisioning
 * (CSIStorageCapacity, CSIDriver.storageCapacity) and whether an in-tree
 * volume is migrated to CSI (the CSINode's migrated-plugins annotation). */
static void say_what_is_not_read(pk_snapshot *s, vol_res *r)
{
	const pk_volume_set *v = s->volumes;
	char text[700];
	for (int i = 0; i < r->ndelayed; i++) {
		const pk_pvc *c = r->delayed[i];
		const pk_storage_class *sc = *c->class_name ? pk_volume_class(v, c->class_name) : NULL;
		if (c->default_class || !sc || !*sc->provisioner || strcmp(sc->provisioner, "kubernetes.io/no-provisioner") == 0)
			continue;
		snprintf(text, sizeof text,
		         "claim \"%s\", where no available volume matches, is provisioned by %s wherever its class admits "
		         "the node: its capacity there is assumed (upstream also checks the CSIStorageCapacity objects when "
		         "the CSIDriver publishes capacity; neither is read)", c->name, sc->provisioner);
		assume(s, r, text);
	}
	for (int i = 0; v->nlimited && i < r->nbound; i++) {
		const pk_pv *vol = r->bound[i];
		if (!vol || !*vol->in_tree)
			continue;
		snprintf(text, sizeof text,
		         "volume \"%s\" is an in-tree %s volume: upstream counts it against its CSI driver's attach limit "
		         "on nodes whose CSINode names the plugin as migrated (an annotation the input does not keep); not "
		         "counted here", vol->name, vol->in_tree);
		assume(s, r, text);
	}
}

/* The pod's resolution against the snapshot's set, started (its claims
 * looked up, the volumes it attaches) if it was not: NULL when there is
 * nothing to resolve (no claim, or no claim in the input: its claims were
 * not fetched, pk_volumes_input_hint; generic ephemeral volumes, not
 * modelled and said). */
static vol_res *resolution_started(pk_snapshot *s, const pk_pod *pod)
{
	pk_pod_volumes *pv = (pk_pod_volumes *)pod->con->volumes;
	if (!pv || !pv->nclaims || !s->volumes || !s->volumes->npvcs)
		return NULL;
	if (pv->resolved_for == s->volumes)
		return pv->resolved;
	if (!s->volumes->finished)
		pk_volume_set_finish(s->volumes);
	pv->resolved_for = s->volumes;
	pv->resolved = NULL;
	vol_res *r = pk_arena_alloc(&s->arena, sizeof *r);
	memset(r, 0, sizeof *r);
	r->reject.code = PK_CODE_SUCCESS;
	r->claims = pk_arena_alloc(&s->arena, sizeof *r->claims * (size_t)pv->nclaims);
	for (int i = 0; i < pv->nclaims; i++) {
		r->claims[i] = pk_volume_pvc(s->volumes, pod->namespace_, pv->claims[i]);
		if (!r->claims[i] && pv->templates && pv->templates[i].set && !*pod->node_name)
			r->claims[i] = claim_to_be_made(s, pod, pv, i, r);
	}
	csi_volumes(s, pod, pv, r);
	pv->resolved = r;
	return r;
}

static void resolve_attached(pk_snapshot *s, const pk_pod *pod)
{
	resolution_started(s, pod);
}

void pk_volumes_resolve(pk_snapshot *s, const pk_pod *pod)
{
	vol_res *r = resolution_started(s, pod);
	if (!r || r->full)
		return;
	const pk_pod_volumes *pv = pod->con->volumes;
	if (restrictions_prefilter(s, pod, pv, r) && binding_prefilter(s, pod, pv, r))
		zone_prefilter(s, pod, pv, r);
	r->node_checks = r->nbound > 0 || r->nzones > 0 || r->ndelayed > 0;
	if (r->reject.code == PK_CODE_SUCCESS)
		say_what_is_not_read(s, r);
	r->full = true;
	((pk_pod *)pod)->unmodelled &= (uint8_t)~PK_UNMODELLED_VOLUMES;
}

static const vol_res *resolution(const pk_pod *pod)
{
	const pk_pod_volumes *pv = pod->con->volumes;
	return pv ? pv->resolved : NULL;
}

const char *pk_volumes_assumption(const pk_pod *pod)
{
	const vol_res *r = resolution(pod);
	return r ? r->assumes : NULL;
}

bool pk_volumes_prefilter_rejects(const pk_pod *pod, pk_status *out)
{
	const vol_res *r = resolution(pod);
	if (!r || r->reject.code == PK_CODE_SUCCESS)
		return false;
	*out = r->reject;
	return true;
}

/* ---- Filter --------------------------------------------------------------------- */

/* CheckNodeAffinity: a volume without required node affinity fits every
 * node; with it, one of its terms must select the node. */
static bool volume_node_affinity_fits(const pk_pv *vol, const pk_node *n)
{
	if (!vol->has_affinity)
		return true;
	for (int i = 0; i < vol->nterms; i++)
		if (pk_node_term_matches(&vol->terms[i], n))
			return true;
	return false;
}

/* CheckAccessModes: every mode the claim asks for, the volume has. */
static bool access_modes_fit(const pk_pvc *c, const pk_pv *vol)
{
	return (c->modes & vol->modes) == c->modes;
}

static bool chosen(const pk_pv *const *picked, int n, const pk_pv *vol)
{
	for (int i = 0; i < n; i++)
		if (picked[i] == vol)
			return true;
	return false;
}

/* FindMatchingVolume for claim c on node n, delayed binding: the volume
 * already pointing at the claim (if its node affinity admits n), else the
 * smallest Available volume of the claim's class, big enough, unclaimed,
 * whose node affinity admits n and whose access modes cover the claim's.
 * NULL: none. Only Available volumes are looked at (pk_volume_available):
 * one already pointing at the claim is Available until bound. */
static const pk_pv *matching_volume(const pk_volume_set *v, const pk_pvc *c, const pk_node *n,
                                    const pk_pv *const *picked, int npicked)
{
	const pk_pv *best = NULL;
	long nav;
	const pk_pv *const *av = pk_volume_available(v, c->class_name, &nav);
	for (long i = 0; i < nav; i++) {
		const pk_pv *vol = av[i];
		if (chosen(picked, npicked, vol) || vol->capacity < c->storage)
			continue;
		bool fits = volume_node_affinity_fits(vol, n);
		if (*vol->claim_name && strcmp(vol->claim_name, c->name) == 0 &&
		    strcmp(vol->claim_namespace, c->namespace_) == 0)
			return fits ? vol : NULL;
		if (*vol->claim_name || !fits || !access_modes_fit(c, vol))
			continue;
		if (!best || vol->capacity < best->capacity)
			best = vol;
	}
	return best;
}

/* checkVolumeProvisions for one claim: its class provisions and admits n. */
static bool provisionable(const pk_volume_set *v, const pk_pvc *c, const pk_node *n)
{
	if (c->default_class)
		return true;
	const pk_storage_class *sc = pk_volume_class(v, c->class_name);
	if (!sc || !*sc->provisioner || strcmp(sc->provisioner, "kubernetes.io/no-provisioner") == 0)
		return false;
	if (sc->ntopologies == 0)
		return true;
	for (int i = 0; i < sc->ntopologies; i++)
		if (pk_node_term_matches(&sc->topologies[i], n))
			return true;
	return false;
}

/* The unbound WaitForFirstConsumer claims on n: each matched to a volume of
 * its own (smallest claims first) or provisioned. */
static bool delayed_claims_fit(const pk_volume_set *v, const vol_res *r, const pk_node *n)
{
	enum { SMALL = 16 };
	const pk_pv *small[SMALL];
	const pk_pv **picked = r->ndelayed <= SMALL ? small : pk_xmalloc(sizeof *picked * (size_t)r->ndelayed);
	int npicked = 0;
	bool ok = true;
	for (int i = 0; ok && i < r->ndelayed; i++) {
		const pk_pv *vol = r->delayed[i]->default_class ? NULL : matching_volume(v, r->delayed[i], n, picked, npicked);
		if (vol)
			picked[npicked++] = vol;
		else
			ok = provisionable(v, r->delayed[i], n);
	}
	if (picked != small)
		free(picked);
	return ok;
}

static bool binding_fits(const pk_pod *pod, const vol_res *r, const pk_node *n, pk_status *out)
{
	bool node_ok = true, found = true;
	for (int i = 0; i < r->nbound; i++) {
		if (!r->bound[i]) {
			found = false; /* checkBoundClaims stops at a missing volume */
			break;
		}
		if (!volume_node_affinity_fits(r->bound[i], n)) {
			node_ok = false;
			break;
		}
	}
	bool unbound_ok = r->ndelayed == 0 || delayed_claims_fit((const pk_volume_set *)pod->con->volumes->resolved_for, r, n);
	if (node_ok && unbound_ok && found)
		return true;
	if (out) {
		pk_status_set(out, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "VolumeBinding", NULL);
		if (!node_ok)
			pk_status_add_reason(out, PK_R_VOLUME_NODE_CONFLICT);
		if (!unbound_ok)
			pk_status_add_reason(out, PK_R_VOLUME_BIND_CONFLICT);
		if (!found)
			pk_status_add_reason(out, PK_R_VOLUME_PV_NOT_EXIST);
	}
	return false;
}

/* translateToGALabel */
static const char *ga_label(const char *key)
{
	if (strcmp(key, zone_labels[0]) == 0)
		return zone_labels[2];
	if (strcmp(key, zone_labels[1]) == 0)
		return zone_labels[3];
	return key;
}

static bool zone_fits(const vol_res *r, const pk_node *n, pk_status *out)
{
	bool constrained = false;
	for (int k = 0; !constrained && k < 4; k++)
		constrained = pk_labels_value(n->labels, zone_labels[k]) != NULL;
	if (!constrained)
		return true; /* a node without zone labels: a single-zone cluster */
	for (int i = 0; i < r->nzones; i++) {
		const zone_topology *z = &r->zones[i];
		const char *v = pk_labels_value(n->labels, z->key);
		if (!v)
			v = pk_labels_value(n->labels, ga_label(z->key));
		bool in = false;
		for (int j = 0; v && !in && j < z->nvalues; j++)
			in = strcmp(z->values[j], v) == 0;
		if (!in) {
			if (out)
				pk_status_set(out, PK_CODE_UNSCHEDULABLE_UNRESOLVABLE, "VolumeZone", PK_R_VOLUME_ZONE);
			return false;
		}
	}
	return true;
}

bool pk_volumes_node_fits(const pk_pod *pod, const pk_node *n, pk_status *out)
{
	const vol_res *r = resolution(pod);
	if (!r || !r->node_checks || r->reject.code != PK_CODE_SUCCESS)
		return true;
	return binding_fits(pod, r, n, out) && zone_fits(r, n, out);
}

bool pk_volumes_pod_dependent(const pk_pod *pod)
{
	const vol_res *r = resolution(pod);
	return (r && r->limited) || (pod->con->volumes && pod->con->volumes->ndisks);
}

/* ---- VolumeRestrictions: disk conflicts ------------------------------------------- */

static bool monitors_overlap(const pk_inline_disk *a, const pk_inline_disk *b)
{
	for (int i = 0; i < a->nmonitors; i++)
		for (int k = 0; k < b->nmonitors; k++)
			if (a->monitors[i] == b->monitors[k])
				return true;
	return false;
}

/* isVolumeConflict for one disk of each pod: the same GCE PD or iSCSI iqn
 * unless both mount it read-only, the same EBS volume, the same RBD image of
 * a pool with a monitor in common unless both mount it read-only. */
static bool disks_conflict(const pk_inline_disk *a, const pk_inline_disk *b)
{
	if (a->kind != b->kind || a->id != b->id)
		return false;
	bool both_ro = a->read_only && b->read_only;
	switch (a->kind) {
	case PK_DISK_GCE_PD:
	case PK_DISK_ISCSI: return !both_ro;
	case PK_DISK_AWS_EBS: return true;
	case PK_DISK_RBD: return !both_ro && a->pool == b->pool && monitors_overlap(a, b);
	}
	return false;
}

bool pk_volumes_disks_fit(const pk_pod *pod, const pk_nodeinfo *ni, pk_pod *const *extra, int nextra,
                          pk_status *out)
{
	const pk_pod_volumes *pv = pod->con->volumes;
	if (!pv || !pv->ndisks)
		return true;
	for (int k = 0; k < ni->npods + nextra; k++) {
		const pk_pod_volumes *q = (k < ni->npods ? ni->pods[k] : extra[k - ni->npods])->con->volumes;
		for (int i = 0; q && i < pv->ndisks; i++)
			for (int j = 0; j < q->ndisks; j++)
				if (disks_conflict(&pv->disks[i], &q->disks[j])) {
					pk_status_set(out, PK_CODE_UNSCHEDULABLE, "VolumeRestrictions", PK_R_DISK_CONFLICT);
					return false;
				}
	}
	return true;
}

/* ---- NodeVolumeLimits (CSI) ------------------------------------------------------- */

/* The volumes of the node's pods (and the extra ones) into *att, unique. */
static int attached_volumes(const pk_nodeinfo *ni, pk_pod *const *extra, int nextra, csi_volume **att, int *cap)
{
	int n = 0;
	for (int k = 0; k < ni->npods + nextra; k++) {
		const vol_res *q = resolution(k < ni->npods ? ni->pods[k] : extra[k - ni->npods]);
		for (int i = 0; q && i < q->ncsi; i++) {
			if (csi_has(*att, n, &q->csi[i]))
				continue;
			if (n == *cap) {
				*cap = *cap ? 2 * *cap : 16;
				*att = pk_xrealloc(*att, (size_t)*cap, sizeof **att);
			}
			(*att)[n++] = q->csi[i];
		}
	}
	return n;
}

/* The node's VolumeAttachments of driver that no pod on it (nor an extra
 * one) accounts for, each unique volume once (getNodeVolumeAttachmentInfo
 * keys them by attacher and handle). The pod's own volumes are not matched
 * against them: upstream only takes those away that the node's pods use.
 * An attachment outlives its pod: a victim removed in the dry run frees
 * its volume's slot only where no attachment holds it. */
static long attachments_beyond_pods(const pk_volume_attachment *va, long nva, const char *driver,
                                    const csi_volume *att, int natt)
{
	long n = 0;
	for (long i = 0; i < nva; i++) {
		if (va[i].attacher != driver || !va[i].handle)
			continue;
		const csi_volume x = { va[i].attacher, va[i].handle };
		bool counted = csi_has(att, natt, &x);
		for (long k = 0; !counted && k < i; k++) /* an earlier attachment of the same volume */
			counted = va[k].attacher == driver && va[k].handle == x.handle;
		n += !counted;
	}
	return n;
}

static bool csinode_has(const pk_csinode *cn, const char *driver)
{
	for (int d = 0; cn && d < cn->ndrivers; d++)
		if (strcmp(cn->drivers[d].driver, driver) == 0)
			return true;
	return false;
}

/* VolumeLimitScaling: each of the pod's drivers whose CSIDriver says
 * preventPodSchedulingIfMissing is on the node's CSINode (a node without
 * a CSINode has none), else Unschedulable naming the first such driver
 * of the pod's volumes. */
static bool required_drivers_on(const vol_res *r, const pk_csinode *cn, pk_status *out)
{
	for (int i = 0; i < r->ncsi; i++) {
		if (!r->driver_missing[i] || csinode_has(cn, r->csi[i].driver))
			continue;
		if (out)
			pk_status_set(out, PK_CODE_UNSCHEDULABLE, "NodeVolumeLimits", r->driver_missing[i]);
		return false;
	}
	return true;
}

bool pk_volumes_limits_fit(const pk_snapshot *s, const pk_pod *pod, const pk_nodeinfo *ni, pk_pod *const *extra,
                           int nextra, pk_status *out)
{
	const vol_res *r = resolution(pod);
	if (!r || (!r->limited && !r->driver_missing))
		return true;
	const pk_csinode *cn = pk_volume_csinode(s->volumes, ni->node->name);
	/* upstream checks the drivers after the pod's volumes are worked out
	 * and before the node's limits are read: a node without limits too */
	if (r->driver_missing && !required_drivers_on(r, cn, out))
		return false;
	if (!r->limited || !cn)
		return true;
	csi_volume *att = NULL;
	int cap = 0, natt = attached_volumes(ni, extra, nextra, &att, &cap);
	long nva;
	const pk_volume_attachment *va = pk_volume_attachments(s->volumes, ni->node->name, &nva);
	bool ok = true;
	for (int d = 0; ok && d < cn->ndrivers; d++) {
		const pk_csi_driver_limit *l = &cn->drivers[d];
		if (!l->has_count)
			continue;
		long attached = 0, fresh = 0;
		for (int i = 0; i < natt; i++)
			attached += att[i].driver == l->driver;
		attached += attachments_beyond_pods(va, nva, l->driver, att, natt);
		for (int i = 0; i < r->ncsi; i++)
			fresh += r->csi[i].driver == l->driver && !csi_has(att, natt, &r->csi[i]);
		ok = fresh == 0 || attached + fresh <= l->count;
	}
	free(att);
	if (!ok)
		pk_status_set(out, PK_CODE_UNSCHEDULABLE, "NodeVolumeLimits", PK_R_MAX_VOLUME_COUNT);
	return ok;
}

bool pk_volumes_same_node_checks(const pk_pod *a, const pk_pod *b)
{
	const vol_res *x = resolution(a), *y = resolution(b);
	bool cx = x && x->node_checks, cy = y && y->node_checks;
	if (!cx && !cy)
		return true;
	if (cx != cy || x->nbound != y->nbound || x->nzones != y->nzones || x->ndelayed != y->ndelayed)
		return false;
	/* the verdicts are the same when the volumes' node affinities are
	 * (volumes of one affinity share its compiled terms: k8s/volume.c) and
	 * so are their zones: the replicas of a StatefulSet in one zone */
	for (int i = 0; i < x->nbound; i++) {
		const pk_pv *u = x->bound[i], *w = y->bound[i];
		if (u != w && (!u || !w || u->has_affinity != w->has_affinity || u->terms != w->terms ||
		               u->nterms != w->nterms))
			return false;
	}
	for (int i = 0; i < x->nzones; i++) {
		const zone_topology *u = &x->zones[i], *w = &y->zones[i];
		if (u->key != w->key || u->nvalues != w->nvalues)
			return false;
		for (int k = 0; k < u->nvalues; k++)
			if (u->values[k] != w->values[k])
				return false;
	}
	for (int i = 0; i < x->ndelayed; i++)
		if (x->delayed[i] != y->delayed[i])
			return false;
	return true;
}

/* ---- VolumeRestrictions: ReadWriteOncePod (PreFilter state) ------------------- */

/* preFilterState: the pod's ReadWriteOncePod claims, and how many of them
 * scheduled pods use (upstream counts at most one pod a claim at PreFilter,
 * then AddPod/RemovePod add and take away every reference by name). */
typedef struct pk_rwop_state {
	const char **claims;
	int nclaims;
	int conflicts;
} pk_rwop_state;

/* References by q to the state's claims: by claim name, as upstream's
 * conflictingPVCRefCountForPod counts them. */
static int rwop_refs(const pk_rwop_state *st, const pk_pod *q)
{
	const pk_pod_volumes *v = q->con->volumes;
	int n = 0;
	for (int i = 0; v && i < v->nclaims; i++)
		for (int k = 0; k < st->nclaims && !ephemeral_claim(v, i); k++)
			if (v->claims[i] == st->claims[k])
				n++;
	return n;
}

/* IsPVCUsedByPods: a pod the scheduler's cache holds (bound, on a node of
 * the snapshot) in the pod's namespace names the claim. */
static bool claim_in_use(const pk_snapshot *s, const char *ns, const char *claim)
{
	for (long i = 0; i < s->nnodes; i++) {
		const pk_nodeinfo *ni = &s->infos[i];
		for (int k = 0; k < ni->npods; k++) {
			const pk_pod *q = ni->pods[k];
			const pk_pod_volumes *v = q->con->volumes;
			if (!v || q->namespace_ != ns)
				continue;
			for (int j = 0; j < v->nclaims; j++)
				if (v->claims[j] == claim && !ephemeral_claim(v, j))
					return true;
		}
	}
	return false;
}

void *pk_rwop_new(const pk_snapshot *s, const pk_pod *pod)
{
	const pk_pod_volumes *pv = pod->con->volumes;
	const vol_res *r = resolution(pod);
	if (!r || r->reject.code != PK_CODE_SUCCESS)
		return NULL;
	pk_rwop_state *st = pk_xcalloc(1, sizeof *st);
	st->claims = pk_xmalloc(sizeof *st->claims * (size_t)pv->nclaims);
	for (int i = 0; i < pv->nclaims; i++) {
		const pk_pvc *c = pk_volume_pvc(s->volumes, pod->namespace_, pv->claims[i]);
		bool seen = false;
		for (int k = 0; k < st->nclaims; k++)
			seen |= st->claims[k] == pv->claims[i];
		if (c && (c->modes & PK_ACCESS_RWOP) && !seen && !ephemeral_claim(pv, i))
			st->claims[st->nclaims++] = pv->claims[i];
	}
	for (int k = 0; k < st->nclaims; k++)
		if (claim_in_use(s, pod->namespace_, st->claims[k]))
			st->conflicts++;
	if (st->conflicts == 0) { /* upstream's Skip: no Filter, no AddPod/RemovePod */
		pk_rwop_free(st);
		return NULL;
	}
	return st;
}

void pk_rwop_update(void *state, const pk_pod *q, const pk_node *n, int mult)
{
	pk_rwop_state *st = state;
	st->conflicts += mult * rwop_refs(st, q);
}

bool pk_rwop_check(const void *state, const pk_pod *pod, const pk_node *n, pk_status *out)
{
	const pk_rwop_state *st = state;
	if (st->conflicts <= 0)
		return true;
	pk_status_set(out, PK_CODE_UNSCHEDULABLE, "VolumeRestrictions", PK_R_RWOP_CONFLICT);
	return false;
}

void pk_rwop_free(void *state)
{
	pk_rwop_state *st = state;
	if (!st)
		return;
	free(st->claims);
	free(st);
}

/* ---- what the input lacks -------------------------------------------------------- */

static size_t append(char *buf, size_t size, size_t w, const char *text)
{
	if (w < size)
		w += (size_t)snprintf(buf + w, size - w, "%s%s", w ? "; " : "", text);
	return w;
}

/* Does a node of the input lack driver on its CSINode (or have none)? */
static bool driver_missing_somewhere(const pk_snapshot *s, const char *driver)
{
	for (long i = 0; i < s->nnodes; i++)
		if (!csinode_has(pk_volume_csinode(s->volumes, s->nodes[i].name), driver))
			return true;
	return false;
}

bool pk_volumes_input_hint(const pk_snapshot *s, pk_pod *const *pods, long n, char *buf, size_t size)
{
	const pk_volume_set *v = s->volumes;
	long with_claims = 0, unbound_pv = 0, classed = 0, csi = 0, limited = 0, unlisted = 0;
	const pk_pod *first = NULL;
	for (long i = 0; i < n; i++) {
		const pk_pod_volumes *pv = pods[i]->con->volumes;
		if (!pv || !pv->nclaims)
			continue;
		with_claims++;
		first = first ? first : pods[i];
		for (int k = 0; v && v->npvcs && k < pv->nclaims; k++) {
			const pk_pvc *c = pk_volume_pvc(v, pods[i]->namespace_, pv->claims[k]);
			if (!c)
				continue;
			unbound_pv += *c->volume_name && !pk_volume_pv(v, c->volume_name);
			classed += *c->class_name != 0;
			/* as csi_volume_of counts it */
			const pk_pv *vol = *c->volume_name ? pk_volume_pv(v, c->volume_name) : NULL;
			const pk_storage_class *sc = *c->class_name ? pk_volume_class(v, c->class_name) : NULL;
			csi += vol ? *vol->csi_driver != 0 : sc && *sc->provisioner;
			const char *driver = vol ? vol->csi_driver : sc ? sc->provisioner : "";
			limited += *driver && pk_volume_driver_limited(v, driver);
			unlisted += *driver && v->ncsinodes && driver_missing_somewhere(s, driver);
		}
	}
	size_t w = 0;
	buf[0] = '\0';
	char text[700];
	if (with_claims && (!v || !v->npvcs)) {
		snprintf(text, sizeof text,
		         "%ld pod(s) use PersistentVolumeClaims (first: %s/%s) and the input holds none: VolumeRestrictions, "
		         "NodeVolumeLimits, VolumeBinding and VolumeZone are not run for them, where upstream checks their "
		         "claims; take the snapshot with "
		         "`kubectl get nodes,pods,pdb,priorityclasses,pvc,pv,storageclass,csinodes,volumeattachments,csidrivers -A -o json`",
		         with_claims, first->namespace_, first->name);
		w = append(buf, size, w, text);
		return true;
	}
	if (unbound_pv && !v->npvs) {
		snprintf(text, sizeof text,
		         "%ld claim(s) are bound to PersistentVolumes and the input holds none (VolumeZone's PreFilter then "
		         "says the volume is not found); `kubectl get pv` belongs in the input", unbound_pv);
		w = append(buf, size, w, text);
	}
	if (classed && !v->nclasses) {
		snprintf(text, sizeof text,
		         "%ld claim(s) name a StorageClass and the input holds none (an unbound claim's class decides its "
		         "binding mode); `kubectl get storageclass` belongs in the input", classed);
		w = append(buf, size, w, text);
	}
	if (csi && !v->ncsinodes) {
		snprintf(text, sizeof text,
		         "the input holds no CSINode objects: NodeVolumeLimits' CSI attach limits are not checked for "
		         "%ld volume(s); `kubectl get csinodes` belongs in the input", csi);
		w = append(buf, size, w, text);
	}
	/* only where the answer could change: a claim whose driver a CSINode
	 * limits. An empty VolumeAttachmentList read says there are none. */
	if (limited && !v->nattachments && !v->attachments_listed) {
		snprintf(text, sizeof text,
		         "the input holds no VolumeAttachment objects: NodeVolumeLimits' attach limits count %ld volume(s) "
		         "against the volumes of the node's pods alone, where upstream also counts the volumes still attached "
		         "to the node (a deleted pod's until they are detached); `kubectl get volumeattachments` belongs in "
		         "the input", limited);
		w = append(buf, size, w, text);
	}
	/* VolumeLimitScaling: a CSIDriver that says preventPodSchedulingIfMissing
	 * refuses nodes whose CSINode lacks its driver; only where a node of the
	 * input lacks one. An empty CSIDriverList read says there are none. */
	if (s->volume_limit_scaling && unlisted && !v->ncsidrivers && !v->csidrivers_listed) {
		snprintf(text, sizeof text,
		         "the input holds no CSIDriver objects: with VolumeLimitScaling on, NodeVolumeLimits refuses a node "
		         "whose CSINode lacks a driver whose CSIDriver sets preventPodSchedulingIfMissing; not checked for "
		         "%ld volume(s); `kubectl get csidrivers` belongs in the input", unlisted);
		w = append(buf, size, w, text);
	}
	return w > 0;
}
