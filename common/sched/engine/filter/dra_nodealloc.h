/* DRA node-allocatable resources in placement and preemption (KEP-5517,
 * gate DRANodeAllocatableResources; k8s/dra_nodealloc.h decodes them).
 *
 * Upstream with the gate on (1.36 alpha, 1.37 alpha2, kubernetes/kubernetes
 * #136725 and #140009): the scheduler cache counts a bound pod at
 * PodRequests with UseDRANodeAllocatableResourceClaimStatus, so the CPU,
 * memory and hugepages its claims' devices map to, as its
 * status.nodeAllocatableResourceClaimStatuses records them, are part of
 * its node's requested resources (the snapshot swaps in con->dra_requests,
 * cluster/snapshot.c), and a victim removed in the dry run frees them.
 * The pod being placed has no such status yet: DynamicResources' Filter
 * (nodeallocatabledynamicresources.go calculateAndCheckNodeAllocatableResources)
 * adds what its claims' devices on the node map to (the allocation, or
 * the allocator's pick) to its requests and checks that against the
 * node's free resources (pk_dra_nodealloc_fits). */
#ifndef PK_SCHED_ENGINE_FILTER_DRA_NODEALLOC_H
#define PK_SCHED_ENGINE_FILTER_DRA_NODEALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "sched/engine/cluster/snapshot.h"
#include "sched/engine/filter/filter.h"

/* DynamicResources' node-allocatable check for pod on ni, with extra (the
 * nominated pods' requests) on top of the node's: false with *out set when
 * the pod's requests and its devices' footprint do not fit. True when the
 * gate is off, no device of the input has a footprint, or the pod's
 * devices on the node have none. */
bool pk_dra_nodealloc_fits(const pk_snapshot *s, const pk_pod *pod, const pk_nodeinfo *ni, const pk_res *extra,
                           pk_status *out);

/* For a simulation (--simulate, --apply, --replay), with the gate on and
 * devices with a footprint in the input: a pod bound in the run counts its
 * devices' footprint on its node from then on (snapshot's dra_assumed
 * hook), as upstream's assume and PreBind record it in its status. Call
 * after pk_dra_play_forward. */
void pk_dra_nodealloc_play_forward(pk_snapshot *s);

/* What an answer on this snapshot rests on about node-allocatable DRA
 * resources, for release 1.<minor>: the gate on and bound pods counted
 * with their claims' footprint; or the gate off (or absent) while pods or
 * slices carry such footprints, which upstream's scheduler then does not
 * count (the node may be over-committed). Text into buf; false when there
 * is nothing to say. */
bool pk_dra_nodealloc_note(const pk_snapshot *s, int minor, char *buf, size_t size);

#endif
