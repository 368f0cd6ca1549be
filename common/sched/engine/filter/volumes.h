/* The volume filters of the default profile (VolumeRestrictions,
 * NodeVolumeLimits, VolumeBinding, VolumeZone) over the storage objects of
 * the input (k8s/volume.h). A pod's claims are resolved once against the
 * snapshot's objects (their PreFilter, which reads no pod); what depends on
 * the node alone (a bound claim's volume node affinity, its zone, an unbound
 * WaitForFirstConsumer claim's volumes and class topologies) is then a
 * node-only check that the arithmetic path keeps (pk_volumes_node_fits);
 * what depends on the other pods (ReadWriteOncePod holders, CSI attach
 * counts) is PreFilter state in the cycle (cycle.h). */
#ifndef PK_SCHED_VOLUMES_H
#define PK_SCHED_VOLUMES_H

#include <stdbool.h>

#include "sched/engine/filter/filter.h"

/* Every pod of the snapshot resolved (pk_volumes_resolve), once, at the
 * first cycle (single-threaded): the filters then read the node's pods'
 * claims without resolving them. The snapshot holds the objects only
 * (cluster/snapshot.c, through k8s/volume.h). */
void pk_volumes_resolve_all(pk_snapshot *s);

/* Resolve pod's claims against the snapshot's objects (once; nothing when
 * the input holds none of the volume kinds, the pod then keeps its
 * "persistentVolumeClaims not modelled" warning). A pod whose claims are
 * modelled loses that warning. Single-threaded. */
void pk_volumes_resolve(pk_snapshot *s, const pk_pod *pod);

/* The PreFilter of VolumeRestrictions, VolumeBinding and VolumeZone
 * rejected the pod (a claim missing, lost, being deleted, unbound with
 * Immediate binding, ...): *out is that status, for every node. */
bool pk_volumes_prefilter_rejects(const pk_pod *pod, pk_status *out);
/* VolumeBinding's and VolumeZone's Filter for pod on n: false with *out
 * (when out is not NULL) set when one fails. */
bool pk_volumes_node_fits(const pk_pod *pod, const pk_node *n, pk_status *out);
/* Do a and b ask the same of the nodes (the memo's static shape)? */
bool pk_volumes_same_node_checks(const pk_pod *a, const pk_pod *b);

/* VolumeRestrictions' disk conflicts (its Filter before the
 * ReadWriteOncePod check): a GCE PD, AWS EBS, RBD or iSCSI disk of the pod
 * that a pod on the node (or an extra one) mounts too, as upstream's
 * isVolumeConflict says. Unschedulable. */
bool pk_volumes_disks_fit(const pk_pod *pod, const pk_nodeinfo *ni, pk_pod *const *extra, int nextra,
                          pk_status *out);
/* NodeVolumeLimits (CSI) for pod on ni with the extra pods (nominated)
 * counted: the unique volumes of each driver the node's CSINode limits
 * (allocatable.count), the pod's own not yet attached there added. It reads
 * the node's pods, so a victim's volumes free their slots in the dry run. */
bool pk_volumes_limits_fit(const pk_snapshot *s, const pk_pod *pod, const pk_nodeinfo *ni, pk_pod *const *extra,
                           int nextra, pk_status *out);
/* The pod's verdict depends on the other pods beyond NodeResourcesFit (a
 * CSI limit applies to its volumes): it leaves the arithmetic path. */
bool pk_volumes_pod_dependent(const pk_pod *pod);

/* What the answer for the pod assumes of its claims (a pending pod's
 * ephemeral volume whose claim the input does not hold yet: taken as its
 * controller makes it), one sentence, or NULL. */
const char *pk_volumes_assumption(const pk_pod *pod);

/* Which `kubectl get` the input lacks for the volume filters of pods[0..n)
 * (as the PriorityClass hint does for classes): no claim at all while pods
 * use some (the filters are then not run, and the pods keep their "not
 * modelled" warning), no PersistentVolume, StorageClass or CSINode while
 * their claims need one. Text into buf; false when nothing is missing. */
bool pk_volumes_input_hint(const pk_snapshot *s, pk_pod *const *pods, long n, char *buf, size_t size);

/* VolumeRestrictions' ReadWriteOncePod check, a plugin with PreFilter
 * state (cycle.c): the pod's ReadWriteOncePod claims and how many scheduled
 * pods use them. NULL (upstream's Skip) when none does. The Filter fails
 * (Unschedulable: preempting the holder helps) on every node while one
 * does; RemovePod of the holder, wherever it runs, lifts it. */
void *pk_rwop_new(const pk_snapshot *s, const pk_pod *pod);
void pk_rwop_update(void *state, const pk_pod *q, const pk_node *n, int mult);
bool pk_rwop_check(const void *state, const pk_pod *pod, const pk_node *n, pk_status *out);
void pk_rwop_free(void *state);

#endif
