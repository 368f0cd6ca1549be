#include "k8s/release.h"

#include "k8s/gates.h"

#include <stdio.h>
#include <string.h>

/* Served versions, newest first, per release 1.35, 1.36, 1.37 (NULL: none).
 * Upstream (kubernetes/kubernetes), checked on 2026-11-27:
 * - 1.35: v1alpha1 Workload only (the KEP-4671 first alpha).
 * - 1.36: v1alpha2 Workload and PodGroup; #136976 ("Create Workload API
 *   v1alpha2", merged) created them and removed v1alpha1.
 * - 1.37: v1beta1 Workload and PodGroup (#140184, "KEP-4671: Promote WAS
 *   APIs to beta", merged; staging/src/k8s.io/api/scheduling/v1beta1/
 *   types.go @01d0b7277d40 tags Workload prerelease-lifecycle-gen
 *   introduced=1.37); its release note asks to remove every v1alpha2 object
 *   before upgrading from 1.36, and #138572 ("Converts the DisruptionMode
 *   enum field to struct as v1alpha3 and drops v1alpha2", merged) removed
 *   v1alpha2. v1alpha3 serves Workload, PodGroup and CompositePodGroup (the
 *   scheduler reads CompositePodGroups as schedulingv1alpha3 and PodGroups
 *   as schedulingv1beta1: preemption/types.go after #140634); the
 *   PodGroupProtection integration test enables both versions.
 * PriorityClass: v1 only since 1.22 (v1beta1's prerelease-lifecycle says
 * removed=1.22). */
static const struct {
	const char *group, *kind;
	const char *versions[PK_K8S_NRELEASES][3];
} served[] = {
	{"scheduling.k8s.io", "PriorityClass", {{"v1"}, {"v1"}, {"v1"}}},
	{"scheduling.k8s.io", "Workload", {{"v1alpha1"}, {"v1alpha2"}, {"v1beta1", "v1alpha3"}}},
	{"scheduling.k8s.io", "PodGroup", {{NULL}, {"v1alpha2"}, {"v1beta1", "v1alpha3"}}},
	{"scheduling.k8s.io", "CompositePodGroup", {{NULL}, {NULL}, {"v1alpha3"}}},
	/* DRA (pc-validate): resource.k8s.io/v1 is GA since 1.34 and the only
	 * version a default apiserver serves: v1beta1 and v1beta2 are beta
	 * group versions, off unless --runtime-config enables them (KEP-3136,
	 * pkg/controlplane/apiserver TestNoBetaVersionsEnabledByDefault);
	 * v1alpha2 (classic DRA) went in 1.31, and v1alpha3 serves only
	 * DeviceTaintRule (below). */
	{"resource.k8s.io", "ResourceClaim", {{"v1"}, {"v1"}, {"v1"}}},
	{"resource.k8s.io", "ResourceClaimTemplate", {{"v1"}, {"v1"}, {"v1"}}},
	{"resource.k8s.io", "DeviceClass", {{"v1"}, {"v1"}, {"v1"}}},
	{"resource.k8s.io", "ResourceSlice", {{"v1"}, {"v1"}, {"v1"}}},
	/* DeviceTaintRule (KEP-5055): v1alpha3 (alpha, off by default) in
	 * 1.35, v1beta2 (beta, off by default: DRADeviceTaintRules beta off)
	 * in 1.36, v1 (GA, the gate on) in 1.37 (the scheduler's informer:
	 * Resource().V1().DeviceTaintRules()) */
	{"resource.k8s.io", "DeviceTaintRule", {{NULL}, {NULL}, {"v1"}}},
};

static int entry(const char *group, const char *kind)
{
	for (size_t i = 0; i < sizeof served / sizeof served[0]; i++)
		if (strcmp(served[i].group, group) == 0 && strcmp(served[i].kind, kind) == 0)
			return (int)i;
	return -1;
}

static int release(int minor)
{
	if (minor < PK_K8S_MINOR_OLDEST)
		minor = PK_K8S_MINOR_OLDEST;
	if (minor > PK_K8S_MINOR_NEWEST)
		minor = PK_K8S_MINOR_NEWEST;
	return minor - PK_K8S_MINOR_OLDEST;
}

bool pk_release_knows_kind(const char *group, const char *kind)
{
	return entry(group, kind) >= 0;
}

bool pk_release_serves(int minor, const char *group, const char *kind, const char *version)
{
	int e = entry(group, kind);
	if (e < 0)
		return false;
	const char *const *v = served[e].versions[release(minor)];
	for (int i = 0; i < 3 && v[i]; i++)
		if (strcmp(v[i], version) == 0)
			return true;
	return false;
}

void pk_release_served_list(int minor, const char *group, const char *kind, char *buf, size_t size)
{
	buf[0] = '\0';
	int e = entry(group, kind);
	if (e < 0)
		return;
	const char *const *v = served[e].versions[release(minor)];
	size_t len = 0;
	for (int i = 0; i < 3 && v[i] && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s/%s", i ? ", " : "", group, v[i]);
}
