/* What the resource detector looks at: policies, templates, and the objects
 * it ignores with default controller-manager flags (pkg/util/apigroup.go,
 * pkg/detector EventFilter; karmada.md sections B and I). */
#include "karmada.h"

#include <stdio.h>
#include <string.h>

#include "k8s/json.h"

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The group part of an apiVersion ("" for the core group "v1"). */
static void api_group(const char *api_version, char *group, size_t size)
{
	const char *slash = strchr(api_version, '/');
	size_t n = slash ? (size_t)(slash - api_version) : 0;
	if (n >= size)
		n = size - 1;
	memcpy(group, api_version, n);
	group[n] = '\0';
}

const char *pp_namespace_skip_reason(const char *ns)
{
	/* names.IsReservedNamespace; kube-* is also --skipped-propagating-namespaces'
	 * default (kube-.*, anchored) */
	if (strcmp(ns, "karmada-system") == 0 || strcmp(ns, "karmada-cluster") == 0 || has_prefix(ns, "karmada-es-"))
		return "reserved for Karmada (karmada-system, karmada-cluster, karmada-es-*)";
	if (has_prefix(ns, "kube-"))
		return "reserved for Kubernetes (kube-*, also the default of --skipped-propagating-namespaces)";
	return NULL;
}

/* The API groups NewSkippedResourceConfig disables by default: Karmada's own. */
static const char *const karmada_groups[] = {
	"cluster.karmada.io", "policy.karmada.io", "work.karmada.io",
	"config.karmada.io", "networking.karmada.io", "autoscaling.karmada.io",
};

/* Why the detector never watches this resource (gvrDisabled with the default
 * --skipped-propagating-apis), or NULL. */
static const char *skipped_api(const char *api_version, const char *kind, char *buf, size_t size)
{
	char group[256];

	api_group(api_version, group, sizeof group);
	for (size_t i = 0; i < sizeof karmada_groups / sizeof karmada_groups[0]; i++)
		if (strcmp(group, karmada_groups[i]) == 0) {
			snprintf(buf, size, "API group %s is Karmada's own; the detector does not watch it", group);
			return buf;
		}
	if (strcmp(group, "events.k8s.io") == 0 || (strcmp(api_version, "v1") == 0 && strcmp(kind, "Event") == 0)) {
		snprintf(buf, size, "the detector does not watch Events (v1, events.k8s.io)");
		return buf;
	}
	if (strcmp(api_version, "coordination.k8s.io/v1") == 0) {
		snprintf(buf, size, "the detector does not watch coordination.k8s.io/v1 (Leases)");
		return buf;
	}
	return NULL;
}

const char *pp_effective_namespace(const cJSON *obj, const char *default_ns)
{
	const char *ns = pk_namespace(obj);
	if (*ns)
		return ns;
	return pp_kind_is_cluster_scoped(pk_api_version(obj), pk_kind(obj)) ? "" : default_ns;
}

static bool is_policy_kind(const char *kind)
{
	return strcmp(kind, "PropagationPolicy") == 0 || strcmp(kind, "ClusterPropagationPolicy") == 0;
}

pp_obj_class pp_classify(const cJSON *obj, const char *default_ns, char *why, size_t size)
{
	const char *api_version = pk_api_version(obj), *kind = pk_kind(obj);

	why[0] = '\0';
	if (!cJSON_IsObject(obj)) {
		snprintf(why, size, "not an object");
		return PP_OBJ_UNUSABLE;
	}
	if (!*api_version || !*kind) {
		snprintf(why, size, "no apiVersion or kind");
		return PP_OBJ_UNUSABLE;
	}
	if (is_policy_kind(kind)) {
		if (strcmp(api_version, PP_POLICY_GROUP_VERSION) == 0)
			return PP_OBJ_POLICY;
		/* Pre-release schemas (propagationstrategy.karmada.io) look like
		 * policies but are not: no Karmada serves them. */
		snprintf(why, size, "apiVersion %s is not %s: no Karmada release serves it", api_version,
		         PP_POLICY_GROUP_VERSION);
		return PP_OBJ_IGNORED;
	}
	if (skipped_api(api_version, kind, why, size))
		return PP_OBJ_IGNORED;
	if (!*pk_name(obj)) {
		snprintf(why, size, "no metadata.name");
		return PP_OBJ_UNUSABLE;
	}
	const char *claimed_by = pp_meta_string(pk_getp(obj, "metadata.labels"), PP_CLAIMED_BY_LABEL);
	if (claimed_by && *claimed_by) {
		snprintf(why, size, "labelled %s=%s: another controller owns it; the detector applies no policy",
		         PP_CLAIMED_BY_LABEL, claimed_by);
		return PP_OBJ_IGNORED;
	}
	const char *ns = pp_effective_namespace(obj, default_ns);
	const char *reserved = *ns ? pp_namespace_skip_reason(ns) : NULL;
	if (reserved) {
		snprintf(why, size, "namespace %s is %s; the detector ignores its objects", ns, reserved);
		return PP_OBJ_IGNORED;
	}
	return PP_OBJ_TEMPLATE;
}

/* Built-in cluster-scoped kinds (kubectl api-resources --namespaced=false),
 * keyed by group and kind. Unknown kinds are taken as namespaced, as kubectl
 * apply would place them. */
static const struct { const char *group, *kind; } cluster_scoped[] = {
	{"", "Namespace"}, {"", "Node"}, {"", "PersistentVolume"}, {"", "ComponentStatus"},
	{"rbac.authorization.k8s.io", "ClusterRole"},
	{"rbac.authorization.k8s.io", "ClusterRoleBinding"},
	{"storage.k8s.io", "StorageClass"}, {"storage.k8s.io", "CSIDriver"},
	{"storage.k8s.io", "CSINode"}, {"storage.k8s.io", "VolumeAttachment"},
	{"storage.k8s.io", "VolumeAttributesClass"},
	{"apiextensions.k8s.io", "CustomResourceDefinition"},
	{"apiregistration.k8s.io", "APIService"},
	{"admissionregistration.k8s.io", "MutatingWebhookConfiguration"},
	{"admissionregistration.k8s.io", "ValidatingWebhookConfiguration"},
	{"admissionregistration.k8s.io", "ValidatingAdmissionPolicy"},
	{"admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"},
	{"admissionregistration.k8s.io", "MutatingAdmissionPolicy"},
	{"admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding"},
	{"scheduling.k8s.io", "PriorityClass"},
	{"node.k8s.io", "RuntimeClass"},
	{"networking.k8s.io", "IngressClass"}, {"networking.k8s.io", "IPAddress"},
	{"networking.k8s.io", "ServiceCIDR"},
	{"certificates.k8s.io", "CertificateSigningRequest"},
	{"certificates.k8s.io", "ClusterTrustBundle"},
	{"flowcontrol.apiserver.k8s.io", "FlowSchema"},
	{"flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"},
	{"resource.k8s.io", "DeviceClass"}, {"resource.k8s.io", "ResourceSlice"},
	{"apps.karmada.io", "WorkloadRebalancer"},
	{"policy.karmada.io", "ClusterPropagationPolicy"},
	{"policy.karmada.io", "ClusterOverridePolicy"},
};

bool pp_kind_is_cluster_scoped(const char *api_version, const char *kind)
{
	char group[256];

	api_group(api_version, group, sizeof group);
	for (size_t i = 0; i < sizeof cluster_scoped / sizeof cluster_scoped[0]; i++)
		if (strcmp(cluster_scoped[i].group, group) == 0 && strcmp(cluster_scoped[i].kind, kind) == 0)
			return true;
	return false;
}
