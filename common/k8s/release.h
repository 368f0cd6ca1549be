/* What the apiserver of one Kubernetes release serves: the API versions of
 * the scheduling.k8s.io and resource.k8s.io kinds the tools read, per release modelled
 * (k8s/gates.h PK_K8S_MINOR_OLDEST..NEWEST). */
#ifndef PK_RELEASE_H
#define PK_RELEASE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether Kubernetes 1.<minor> serves group/version for kind. False too for
 * a kind the table does not know (see pk_release_knows_kind). */
bool pk_release_serves(int minor, const char *group, const char *kind, const char *version);
/* Whether the table lists the kind (Workload, PodGroup, CompositePodGroup,
 * PriorityClass in scheduling.k8s.io; ResourceClaim, ResourceClaimTemplate,
 * DeviceClass, ResourceSlice in resource.k8s.io). */
bool pk_release_knows_kind(const char *group, const char *kind);
/* "scheduling.k8s.io/v1beta1, scheduling.k8s.io/v1alpha3", or "" when the
 * release serves no version of the kind. */
void pk_release_served_list(int minor, const char *group, const char *kind, char *buf, size_t size);

#endif
