#include "k8s/gates.h"
#include <cjson/cJSON.h>

#include "diag.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

bool pk_parse_go_bool(const char *s, bool *out)
{
	static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
	static const char *const no[] = {"0", "f", "F", "FALSE", "false", "False"};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (strcmp(s, yes[i]) == 0)
			return *out = true, true;
		if (strcmp(s, no[i]) == 0)
			return *out = false, true;
	}
	return false;
}

/* Called once per Name=value pair; non-zero (with a message in err) rejects it. */
typedef int (*gate_fn)(void *ctx, const char *name, bool value, char *err, size_t errsize);

/* component-base's syntax: comma-separated Name=value pairs. */
static int each_gate(const char *spec, gate_fn fn, void *ctx, char *err, size_t errsize)
{
	char *copy = pk_xstrdup(spec), *save = NULL;
	int rc = 0;

	for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		char *eq = strchr(tok, '=');
		bool value;
		if (!eq) {
			snprintf(err, errsize, "missing bool value for %s", tok);
			rc = -1;
			break;
		}
		*eq = '\0';
		if (!pk_parse_go_bool(eq + 1, &value)) {
			snprintf(err, errsize, "invalid value of %s=%s, err: invalid syntax", tok, eq + 1);
			rc = -1;
			break;
		}
		if (fn(ctx, tok, value, err, errsize) != 0)
			rc = -1;
	}
	free(copy);
	return rc;
}

/* Per release: {exists, stage, upstream default}, for 1.35, 1.36, 1.37.
 * Upstream: the versioned feature specs of kubernetes/kubernetes
 * (pkg/features/kube_features.go, and the scheduler's own list after the
 * gates moved: GenericWorkload alpha 1.35, beta 1.37, off; CompositePodGroup
 * and PodGroupPreemptionPolicy alpha 1.37; DRAWorkloadResourceClaims alpha
 * 1.36, beta 1.37, off; TopologyAwareWorkloadScheduling alpha 1.36;
 * SchedulerAsyncPreemption beta on since 1.33; SchedulerAsyncAPICalls beta
 * off since 1.34), WorkloadAwarePreemption alpha 1.36 (#137200) and removed
 * in 1.37 (#139520); InPlacePodVerticalScalingSchedulerPreemption alpha
 * 1.37, off (KEP-5836, #140000); karmada.md R32 for Karmada's gate, which no Kubernetes
 * release changes. */
#define ABSENT {false, PK_GATE_ALPHA, false, false}
#define ALPHA_OFF {true, PK_GATE_ALPHA, false, false}
#define BETA_OFF {true, PK_GATE_BETA, false, false}
#define BETA_ON {true, PK_GATE_BETA, true, false}
#define GA_ON {true, PK_GATE_GA, true, false}
#define GA_LOCKED {true, PK_GATE_GA, true, true}

/* The DRA gates of the apiserver's drop-disabled-fields (pkg/api/
 * resourceclaimspec/util.go DropDisabledFields for claims and templates,
 * pkg/registry/resource/deviceclass/strategy.go for classes), stages from
 * the versioned specs of pkg/features/kube_features.go as the index holds
 * it for 1.35 (DRAConsumableCapacity, DRADeviceTaints, DRAExtendedResource
 * alpha; DRAAdminAccess, DRAPrioritizedList beta on) and for 1.37
 * (DRAAdminAccess GA locked 1.36; DRAPrioritizedList GA 1.36, locked 1.37;
 * DRAConsumableCapacity beta on 1.36; DRADeviceTaints beta on 1.36, GA
 * 1.37; DRAExtendedResource beta on 1.36, GA locked 1.37;
 * DRADerivedAttributes alpha 1.37). */
#define DRA_TOOLS "pc-validate"
/* the DRA gates the structured allocator reads too (victims, preempt-plan:
 * filter/dra_alloc.c through pk_dra_features_off) */
#define DRA_ALLOCATOR_TOOLS "pc-validate, victims, preempt-plan"

static const pk_gate_info registry[PK_NGATES] = {
	[PK_GATE_GENERIC_WORKLOAD] = {
		"GenericWorkload", "kube-apiserver, kube-scheduler", {ALPHA_OFF, ALPHA_OFF, BETA_OFF}, true,
		"pc-validate, victims, preempt-plan",
		"an input that holds Workload or PodGroup objects comes from a cluster that serves the API"},
	[PK_GATE_WORKLOAD_AWARE_PREEMPTION] = {
		"WorkloadAwarePreemption", "kube-apiserver, kube-scheduler", {ABSENT, ALPHA_OFF, ABSENT}, true,
		"pc-validate, victims, preempt-plan",
		"PodGroups with a disruptionMode are what KEP-5710 (beta in 1.37, under GenericWorkload) preempts as a whole"},
	[PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING] = {
		"TopologyAwareWorkloadScheduling", "kube-apiserver, kube-scheduler", {ABSENT, ALPHA_OFF, ALPHA_OFF}, false,
		"pc-validate, victims, preempt-plan", NULL},
	[PK_GATE_DRA_WORKLOAD_RESOURCE_CLAIMS] = {
		"DRAWorkloadResourceClaims", "kube-apiserver, kube-scheduler", {ABSENT, ALPHA_OFF, BETA_OFF}, false,
		"pc-validate, victims, preempt-plan", NULL},
	[PK_GATE_POD_GROUP_PREEMPTION_POLICY] = {
		"PodGroupPreemptionPolicy", "kube-apiserver", {ABSENT, ABSENT, ALPHA_OFF}, false, "pc-validate", NULL},
	[PK_GATE_COMPOSITE_POD_GROUP] = {
		"CompositePodGroup", "kube-apiserver, kube-scheduler", {ABSENT, ABSENT, ALPHA_OFF}, true,
		"pc-validate, victims, preempt-plan",
		"an input that holds CompositePodGroup objects comes from a cluster that serves them"},
	[PK_GATE_SCHEDULER_ASYNC_PREEMPTION] = {
		"SchedulerAsyncPreemption", "kube-scheduler", {BETA_ON, BETA_ON, BETA_ON}, true, "apiq-sim", NULL},
	[PK_GATE_SCHEDULER_ASYNC_API_CALLS] = {
		"SchedulerAsyncAPICalls", "kube-scheduler", {BETA_OFF, BETA_OFF, BETA_OFF}, false, "apiq-sim", NULL},
	[PK_GATE_PROPAGATION_POLICY_PREEMPTION] = {
		"PropagationPolicyPreemption", "karmada-controller-manager", {ALPHA_OFF, ALPHA_OFF, ALPHA_OFF}, false,
		"pp-match", NULL},
	[PK_GATE_IN_PLACE_RESIZE_SCHEDULER_PREEMPTION] = {
		"InPlacePodVerticalScalingSchedulerPreemption", "kube-apiserver, kube-scheduler, kubelet",
		{ABSENT, ABSENT, ALPHA_OFF}, false, "victims, preempt-plan", NULL},
	[PK_GATE_DRA_PRIORITIZED_LIST] = {
		"DRAPrioritizedList", "kube-apiserver, kube-scheduler", {BETA_ON, GA_ON, GA_LOCKED}, true, DRA_TOOLS,
		NULL, .follows_upstream = true},
	[PK_GATE_DRA_ADMIN_ACCESS] = {
		"DRAAdminAccess", "kube-apiserver, kube-scheduler", {BETA_ON, GA_LOCKED, GA_LOCKED}, true, DRA_ALLOCATOR_TOOLS,
		NULL, .follows_upstream = true},
	[PK_GATE_DRA_DEVICE_TAINTS] = {
		"DRADeviceTaints", "kube-apiserver, kube-scheduler", {ALPHA_OFF, BETA_ON, GA_ON}, false, DRA_ALLOCATOR_TOOLS,
		NULL, .follows_upstream = true},
	/* DRADeviceTaintRules (KEP-5055): alpha 1.35, beta and off in 1.36 (its
	 * v1beta2 API is off by default), GA and on in 1.37 (not locked); the
	 * scheduler's resourceslice tracker applies DeviceTaintRules' taints
	 * under it (pkg/scheduler/scheduler.go EnableDeviceTaintRules) */
	[PK_GATE_DRA_DEVICE_TAINT_RULES] = {
		"DRADeviceTaintRules", "kube-apiserver, kube-scheduler", {ALPHA_OFF, BETA_OFF, GA_ON}, false,
		"victims, preempt-plan", NULL, .follows_upstream = true},
	[PK_GATE_DRA_CONSUMABLE_CAPACITY] = {
		"DRAConsumableCapacity", "kube-apiserver, kube-scheduler", {ALPHA_OFF, BETA_ON, BETA_ON}, false, DRA_ALLOCATOR_TOOLS,
		NULL, .follows_upstream = true},
	[PK_GATE_DRA_EXTENDED_RESOURCE] = {
		"DRAExtendedResource", "kube-apiserver, kube-scheduler", {ALPHA_OFF, BETA_ON, GA_LOCKED}, false,
		DRA_ALLOCATOR_TOOLS, NULL, .follows_upstream = true},
	[PK_GATE_DRA_DERIVED_ATTRIBUTES] = {
		"DRADerivedAttributes", "kube-apiserver, kube-scheduler", {ABSENT, ABSENT, ALPHA_OFF}, false, DRA_TOOLS,
		NULL, .follows_upstream = true},
	/* DRAPartitionableDevices (KEP-4815): alpha 1.33, beta and on in 1.36
	 * (the scheduler's versioned specs); the allocator's counters */
	[PK_GATE_DRA_PARTITIONABLE_DEVICES] = {
		"DRAPartitionableDevices", "kube-apiserver, kube-scheduler", {ALPHA_OFF, BETA_ON, BETA_ON}, false,
		"victims, preempt-plan", NULL, .follows_upstream = true},
	/* DRANodeAllocatableResources (KEP-5517): alpha, off, from 1.36 (#136725;
	 * pkg/features/kube_features.go has one row, 1.36 alpha, so 1.37 keeps
	 * it alpha and off); 1.37's alpha2 API reshaped by #140009. On, a bound
	 * pod's status.nodeAllocatableResourceClaimStatuses count in its node's
	 * requested resources, and DynamicResources checks the pod's own
	 * footprint (sched/engine/filter/dra_nodealloc.c). */
	[PK_GATE_DRA_NODE_ALLOCATABLE_RESOURCES] = {
		"DRANodeAllocatableResources", "kube-apiserver, kube-scheduler, kubelet", {ABSENT, ALPHA_OFF, ALPHA_OFF},
		false, "victims, preempt-plan", NULL, .follows_upstream = true},
	/* VolumeLimitScaling (KEP-5030): alpha 1.35 (#137343), beta and on in
	 * 1.37 (#140612); NodeVolumeLimits reads CSIDriver
	 * spec.preventPodSchedulingIfMissing under it. Ours is upstream's in
	 * each release. */
	[PK_GATE_VOLUME_LIMIT_SCALING] = {
		"VolumeLimitScaling", "kube-apiserver, kube-scheduler", {ALPHA_OFF, ALPHA_OFF, BETA_ON}, false,
		"victims, preempt-plan", NULL, .follows_upstream = true},
};

_Static_assert(PK_NGATES <= 32, "PK_GATE_BIT is a bit of an unsigned");

/* kubernetes/kubernetes#139520 merged both into GenericWorkload. */
static const pk_gate_removal removals[] = {
	{"WorkloadAwarePreemption", 37, "kubernetes/kubernetes#139520", "GenericWorkload"},
	{"GangScheduling", 37, "kubernetes/kubernetes#139520", "GenericWorkload"},
};

static int release_index(int minor)
{
	if (minor < PK_K8S_MINOR_OLDEST)
		return 0;
	if (minor > PK_K8S_MINOR_NEWEST)
		return PK_K8S_NRELEASES - 1;
	return minor - PK_K8S_MINOR_OLDEST;
}

const pk_gate_release *pk_gate_at(pk_gate_id id, int minor)
{
	return &registry[id].at[release_index(minor)];
}

bool pk_gate_our_default(pk_gate_id id, int minor)
{
	return registry[id].follows_upstream ? pk_gate_at(id, minor)->upstream_default : registry[id].our_default;
}

const pk_gate_removal *pk_gate_removal_of(const char *name)
{
	for (size_t i = 0; i < sizeof removals / sizeof removals[0]; i++)
		if (strcmp(removals[i].name, name) == 0)
			return &removals[i];
	return NULL;
}

const pk_gate_info *pk_gate_info_of(pk_gate_id id)
{
	return &registry[id];
}

pk_gate_id pk_gate_lookup(const char *name)
{
	for (int i = 0; i < PK_NGATES; i++)
		if (strcmp(registry[i].name, name) == 0)
			return (pk_gate_id)i;
	return PK_NGATES;
}

/* Explicit value, else AllAlpha/AllBeta for a gate of that stage in the
 * release, else ours. A gate the release does not have is off, unless it
 * was merged into another (WorkloadAwarePreemption into GenericWorkload in
 * 1.37): then it is what that gate is. */
static void resolve(pk_feature_gates *g)
{
	for (int i = 0; i < PK_NGATES; i++) {
		const pk_gate_release *r = pk_gate_at((pk_gate_id)i, g->k8s_minor);
		signed char all = r->stage == PK_GATE_ALPHA ? g->all_alpha : r->stage == PK_GATE_BETA ? g->all_beta : -1;
		if (!r->exists)
			g->on[i] = false;
		else if (g->explicit_value[i] >= 0)
			g->on[i] = g->explicit_value[i];
		else if (all >= 0)
			g->on[i] = all;
		else
			g->on[i] = pk_gate_our_default((pk_gate_id)i, g->k8s_minor);
	}
	for (int i = 0; i < PK_NGATES; i++) {
		const pk_gate_removal *gone = pk_gate_removal_of(registry[i].name);
		if (!pk_gate_at((pk_gate_id)i, g->k8s_minor)->exists && gone && gone->minor <= g->k8s_minor &&
		    gone->instead && pk_gate_lookup(gone->instead) != PK_NGATES)
			g->on[i] = g->on[pk_gate_lookup(gone->instead)];
	}
}

void pk_feature_gates_set_release(pk_feature_gates *g, int minor)
{
	g->k8s_minor = minor;
	resolve(g);
}

/* The message for a gate named that release 1.<minor> does not have. */
static void absent_gate(const char *name, int minor, char *err, size_t errsize)
{
	const pk_gate_removal *gone = pk_gate_removal_of(name);
	if (gone && gone->minor <= minor) {
		snprintf(err, errsize, "unrecognized feature gate: %s (removed in Kubernetes 1.%d by %s%s%s%s)", name,
		         gone->minor, gone->by, gone->instead ? "; " : "", gone->instead ? gone->instead : "",
		         gone->instead ? " switches the feature now" : "");
		return;
	}
	pk_gate_id id = pk_gate_lookup(name);
	int since = 0;
	for (int m = minor + 1; id != PK_NGATES && m <= PK_K8S_MINOR_NEWEST && !since; m++)
		if (pk_gate_at(id, m)->exists)
			since = m;
	if (since)
		snprintf(err, errsize, "unrecognized feature gate: %s (Kubernetes 1.%d does not have it; it arrives in 1.%d)",
		         name, minor, since);
	else
		snprintf(err, errsize, "unrecognized feature gate: %s (Kubernetes 1.%d does not have it)", name, minor);
}

int pk_feature_gates_check_release(const pk_feature_gates *g, char *err, size_t errsize)
{
	for (int i = 0; i < PK_NGATES; i++)
		if (g->explicit_value[i] >= 0 && !pk_gate_at((pk_gate_id)i, g->k8s_minor)->exists) {
			absent_gate(registry[i].name, g->k8s_minor, err, errsize);
			return -1;
		}
	for (int i = 0; i < PK_NGATES; i++) {
		const pk_gate_release *r = pk_gate_at((pk_gate_id)i, g->k8s_minor);
		if (g->explicit_value[i] >= 0 && r->locked && (bool)g->explicit_value[i] != r->upstream_default) {
			/* component-base's text (featuregate.Set) */
			snprintf(err, errsize, "cannot set feature gate %s to %s, feature is locked to %s", registry[i].name,
			         g->explicit_value[i] ? "true" : "false", r->upstream_default ? "true" : "false");
			return -1;
		}
	}
	for (int i = 0; i < g->nignored; i++) {
		const pk_gate_removal *gone = pk_gate_removal_of(g->ignored[i]);
		if (gone && gone->minor <= g->k8s_minor) {
			absent_gate(g->ignored[i], g->k8s_minor, err, errsize);
			return -1;
		}
	}
	return 0;
}

bool pk_k8s_version_parse(const char *s, int *minor)
{
	char *end;
	if (*s == 'v')
		s++;
	if (strncmp(s, "1.", 2) != 0 || !isdigit((unsigned char)s[2]))
		return false;
	long m = strtol(s + 2, &end, 10);
	if (*end == '.') {
		if (!isdigit((unsigned char)end[1]))
			return false;
		strtol(end + 1, &end, 10);
	}
	/* a build suffix as kubectl version prints it: -gke.100, +k3s1 */
	if (*end && *end != '-' && *end != '+')
		return false;
	if (m < PK_K8S_MINOR_OLDEST || m > PK_K8S_MINOR_NEWEST)
		return false;
	*minor = (int)m;
	return true;
}

const char *pk_k8s_versions_supported(void)
{
	_Static_assert(PK_K8S_NRELEASES == 3, "name every modelled release here");
	return "1.35, 1.36, 1.37";
}

const char *pk_k8s_version_text(int minor, char *buf, size_t size)
{
	snprintf(buf, size, "1.%d", minor);
	return buf;
}

void pk_k8s_add_version(cJSON *record, int minor)
{
	char v[16];
	cJSON_AddStringToObject(record, PK_K8S_VERSION_KEY, pk_k8s_version_text(minor, v, sizeof v));
}

void pk_feature_gates_default(pk_feature_gates *g)
{
	memset(g, 0, sizeof *g);
	memset(g->explicit_value, -1, sizeof g->explicit_value);
	g->all_alpha = g->all_beta = -1;
	g->k8s_minor = PK_K8S_MINOR_NEWEST;
	resolve(g);
}

static int set_gate(void *ctx, const char *name, bool value, char *err, size_t errsize)
{
	pk_feature_gates *g = ctx;
	if (strcmp(name, "AllAlpha") == 0) {
		g->all_alpha = value;
		return 0;
	}
	if (strcmp(name, "AllBeta") == 0) {
		g->all_beta = value;
		return 0;
	}
	pk_gate_id id = pk_gate_lookup(name);
	if (id != PK_NGATES) {
		g->explicit_value[id] = value;
		return 0;
	}
	const char *names[PK_NGATES];
	for (int i = 0; i < PK_NGATES; i++)
		names[i] = registry[i].name;
	const char *near = pk_nearest_word(name, names, PK_NGATES);
	if (near) {
		snprintf(err, errsize, "unrecognized feature gate: %s (did you mean %s?)", name, near);
		return -1;
	}
	for (int i = 0; i < g->nignored; i++)
		if (strcmp(g->ignored[i], name) == 0)
			return 0;
	if (g->nignored == PK_GATES_MAX_IGNORED || strlen(name) >= sizeof g->ignored[0]) {
		snprintf(err, errsize, "unrecognized feature gate: %s", name);
		return -1;
	}
	snprintf(g->ignored[g->nignored++], sizeof g->ignored[0], "%s", name);
	return 0;
}

int pk_feature_gates_parse(pk_feature_gates *g, const char *spec, char *err, size_t errsize)
{
	int rc = each_gate(spec, set_gate, g, err, errsize);
	resolve(g);
	return rc;
}
