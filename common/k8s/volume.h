/* The storage objects the volume filters read, decoded once into compact
 * views: PersistentVolumeClaims, PersistentVolumes, StorageClasses, CSINodes,
 * VolumeAttachments and CSIDrivers (`kubectl get pvc,pv,storageclass,
 * csinodes,volumeattachments,csidrivers -A -o json`), and the
 * claims a pod's spec.volumes name. The filters that use them
 * (VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone) are the
 * engine's (sched/engine/filter/volumes.c).
 *
 * Names are interned in the decoder's table and the views live in its
 * arena, as the pods' do (pod.h). */
#ifndef PK_K8S_VOLUME_H
#define PK_K8S_VOLUME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "k8s/pod.h"

/* Access modes (bit set). */
enum {
	PK_ACCESS_RWO = 1u << 0,  /* ReadWriteOnce */
	PK_ACCESS_ROX = 1u << 1,  /* ReadOnlyMany */
	PK_ACCESS_RWX = 1u << 2,  /* ReadWriteMany */
	PK_ACCESS_RWOP = 1u << 3, /* ReadWriteOncePod */
};

typedef struct pk_pvc {
	const char *namespace_, *name;  /* interned */
	const char *volume_name;        /* spec.volumeName, "" when unbound */
	const char *class_name;         /* spec.storageClassName, "" when none */
	const char *phase;              /* status.phase ("" if absent) */
	int64_t storage;                /* spec.resources.requests.storage, bytes (0: none) */
	uint8_t modes;                  /* spec.accessModes */
	bool deleting;                  /* metadata.deletionTimestamp set */
	const char *controller_kind;    /* the controller ownerReference's kind and name
	                                 * ("" when none; its uid is not read) */
	const char *controller_name;
	bool default_class;             /* made here from a template that names no class:
	                                 * the cluster's default, unknown to the input */
	long record;                    /* the input record it came from (0-based) */
} pk_pvc;

typedef struct pk_pv {
	const char *name;
	const char *class_name;         /* spec.storageClassName */
	const char *phase;              /* status.phase */
	const pk_labels *labels;        /* metadata.labels (VolumeZone reads the zone ones) */
	bool has_affinity;              /* spec.nodeAffinity.required present */
	pk_node_term *terms;            /* its nodeSelectorTerms (ORed) */
	int nterms;
	const char *claim_namespace, *claim_name; /* spec.claimRef, "" when none */
	int64_t capacity;               /* spec.capacity.storage, bytes */
	uint8_t modes;
	const char *csi_driver;         /* spec.csi.driver, "" when not CSI */
	const char *in_tree;            /* an attachable in-tree source NodeVolumeLimits
	                                 * counts once migrated to CSI ("awsElasticBlockStore",
	                                 * "gcePersistentDisk", "azureDisk", "cinder"), or "" */
	const char *volume_handle;      /* spec.csi.volumeHandle */
} pk_pv;

typedef struct pk_storage_class {
	const char *name, *provisioner;
	bool wait_for_first_consumer;   /* volumeBindingMode: WaitForFirstConsumer */
	bool has_binding_mode;
	/* allowedTopologies: each term's matchLabelExpressions as In
	 * requirements; no terms: every node */
	pk_node_term *topologies;
	int ntopologies;
} pk_storage_class;

typedef struct pk_csi_driver_limit {
	const char *driver;             /* spec.drivers[].name */
	int64_t count;                  /* allocatable.count */
	bool has_count;
} pk_csi_driver_limit;

typedef struct pk_csinode {
	const char *name;               /* the node's */
	pk_csi_driver_limit *drivers;
	int ndrivers;
} pk_csinode;

/* A VolumeAttachment (storage.k8s.io/v1): a volume the attach/detach
 * controller attaches to a node, which stays attached until the object is
 * gone, after the pods that used it (NodeVolumeLimits counts it). */
typedef struct pk_volume_attachment {
	const char *name;
	const char *node;               /* spec.nodeName */
	const char *attacher;           /* spec.attacher: the CSI driver */
	const char *pv_name;            /* spec.source.persistentVolumeName, "" for an
	                                 * inlineVolumeSpec (upstream does not count those) */
	const char *handle;             /* at finish: the volume's spec.csi.volumeHandle
	                                 * (interned), NULL when it is not counted (no such
	                                 * volume in the input, or not a CSI one) */
} pk_volume_attachment;

/* A CSIDriver (storage.k8s.io/v1): what NodeVolumeLimits reads of it. */
typedef struct pk_csi_driver {
	const char *name;               /* metadata.name: the driver's */
	bool prevent_if_missing;        /* spec.preventPodSchedulingIfMissing (VolumeLimitScaling) */
} pk_csi_driver;

/* The storage objects of an input; the arrays sorted by name at finish. */
typedef struct pk_volume_set {
	pk_pvc *pvcs;
	long npvcs;
	size_t pvccap;
	pk_pv *pvs;
	long npvs;
	size_t pvcap;
	pk_storage_class *classes;
	long nclasses;
	size_t classcap;
	pk_csinode *csinodes;
	long ncsinodes;
	size_t csicap;
	pk_volume_attachment *attachments; /* by node at finish */
	long nattachments;
	size_t attachcap;
	bool attachments_listed;        /* a VolumeAttachmentList was read, if empty */
	pk_csi_driver *csidrivers;
	long ncsidrivers;
	size_t csidrivercap;
	bool csidrivers_listed;         /* a CSIDriverList was read, if empty */
	/* at finish: the Available volumes by class (what an unbound claim may
	 * be matched to), and the drivers some CSINode limits (interned) */
	const pk_pv **available;
	long navailable;
	const char **limited_drivers;
	int nlimited;
	/* the volumes' node affinities compiled once each: volumes of one zone
	 * share theirs (by its JSON text) */
	pk_strmap affinities;
	bool finished;
	bool pods_resolved;      /* the snapshot's pods resolved against it (engine/filter/volumes.c) */
} pk_volume_set;

/* Is kind one of the six? */
bool pk_volume_kind(const char *kind);
/* Decode obj (of a volume kind) into the set. 0, or -1 with a message in
 * err naming the object and field (a malformed node affinity, a CSINode
 * count that is not a number, ...). */
int pk_volume_set_add(pk_volume_set *v, pk_decoder *d, const cJSON *obj, long record, char *err, size_t errsize);
/* Sort for the look-ups below (later duplicates of a name win). */
void pk_volume_set_finish(pk_volume_set *v);
void pk_volume_set_free(pk_volume_set *v);

/* Look-ups by interned or plain name; NULL when absent. */
const pk_pvc *pk_volume_pvc(const pk_volume_set *v, const char *ns, const char *name);
const pk_pv *pk_volume_pv(const pk_volume_set *v, const char *name);
const pk_storage_class *pk_volume_class(const pk_volume_set *v, const char *name);
const pk_csinode *pk_volume_csinode(const pk_volume_set *v, const char *node);
/* The CSIDriver object of driver, or NULL. */
const pk_csi_driver *pk_volume_csidriver(const pk_volume_set *v, const char *driver);
/* The VolumeAttachments of node (interned or plain): *n of them from the
 * returned one. */
const pk_volume_attachment *pk_volume_attachments(const pk_volume_set *v, const char *node, long *n);
/* The Available volumes of class cls: *n of them from the returned one. */
const pk_pv *const *pk_volume_available(const pk_volume_set *v, const char *cls, long *n);
/* Does some CSINode give driver (interned) an allocatable count? */
bool pk_volume_driver_limited(const pk_volume_set *v, const char *driver);

/* ---- a pod's volumes ----------------------------------------------------- */

/* A disk a pod mounts in its spec (VolumeRestrictions' disk conflicts). */
enum { PK_DISK_GCE_PD = 1, PK_DISK_AWS_EBS, PK_DISK_RBD, PK_DISK_ISCSI };
typedef struct pk_inline_disk {
	uint8_t kind;                   /* PK_DISK_* */
	bool read_only;
	const char *id;                 /* pdName, volumeID, RBD image, iSCSI iqn (interned) */
	const char *pool;               /* RBD pool ("" otherwise) */
	const char **monitors;          /* RBD monitors */
	int nmonitors;
} pk_inline_disk;

/* What a claim made from a template asks for: an ephemeral volume's
 * volumeClaimTemplate.spec, or a StatefulSet's spec.volumeClaimTemplates[]
 * (its controller makes the claim <template>-<pod>). */
typedef struct pk_claim_template {
	bool set;                       /* this claim is made from a template */
	bool statefulset;               /* by the StatefulSet controller (else the
	                                 * ephemeral volume controller) */
	const char *name;               /* the ephemeral volume's, or the template's metadata.name */
	const char *class_name;         /* storageClassName ("" when none) */
	bool has_class;                 /* storageClassName given (even "") */
	uint8_t modes;
	int64_t storage;                /* resources.requests.storage, bytes */
} pk_claim_template;

/* What a pod's spec.volumes ask for: the claims it names, in order. A
 * pod points to one through its constraints (pod.h), or to none. The
 * resolution against an input's storage objects (sched/engine/filter/volumes.c)
 * is kept with it, filled once per snapshot. */
typedef struct pk_pod_volumes {
	const char **claims;            /* persistentVolumeClaim.claimName, interned;
	                                 * of a generic ephemeral volume, the claim
	                                 * its controller makes: <pod>-<volume> */
	int nclaims;
	const bool *ephemeral_at;       /* per claim: of an ephemeral volume (NULL: none is) */
	const struct pk_claim_template *templates; /* per claim: an ephemeral volume's
	                                 * volumeClaimTemplate.spec (NULL: none is) */
	pk_inline_disk *disks;          /* GCE PD, AWS EBS, RBD and iSCSI volumes */
	int ndisks;
	/* resolution (volumes.c): private to the engine */
	const void *resolved_for;       /* the volume set it was resolved against */
	void *resolved;
} pk_pod_volumes;

/* The hook pod.c calls for spec.volumes (NULL: nothing the volume filters
 * read). An ephemeral volume's claim is named by its volume until
 * pk_pod_volumes_name_ephemeral names it for the pod. */
const pk_pod_volumes *pk_pod_volumes_decode(pk_decoder *d, const cJSON *volumes);
/* Names the ephemeral volumes' claims of pv (decoded for pod pod_name) as
 * the ephemeral volume controller does (VolumeClaimName: pod name, "-",
 * volume name). */
void pk_pod_volumes_name_ephemeral(pk_decoder *d, const pk_pod_volumes *pv, const char *pod_name);
/* A StatefulSet's spec.volumeClaimTemplates into *out (*n of them, in the
 * decoder's arena): 0, or -1 with a message in err (a template without a
 * name, a storage request that is not a quantity). */
int pk_claim_templates_decode(pk_decoder *d, const cJSON *templates, pk_claim_template **out, int *n, char *err,
                              size_t errsize);
/* The volumes of a replica named pod_name made from a template pod whose
 * volumes are tpl (NULL: none): its ephemeral volumes' claims named for it,
 * and a claim <template>-<pod_name> for each of the StatefulSet's claim
 * templates (ntemplates of them). NULL when it has none. */
const pk_pod_volumes *pk_pod_volumes_for_replica(pk_decoder *d, const pk_pod_volumes *tpl, const char *pod_name,
                                                 const pk_claim_template *templates, int ntemplates);

#endif
