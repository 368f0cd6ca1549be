#include "k8s/gates.h"

#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	char *copy = strdup(spec), *save = NULL;
	int rc = 0;

	if (!copy) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
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

/* Upstream stages and defaults: ../shared/reference/validation.md 1.5 and 1.6,
 * preemption.md, apiq.md 1, karmada.md R32. */
static const pk_gate_info registry[PK_NGATES] = {
	[PK_GATE_GENERIC_WORKLOAD] = {
		"GenericWorkload", "kube-apiserver, kube-scheduler", PK_GATE_ALPHA, false, true,
		"pc-validate, victims, preempt-plan",
		"an input that holds Workload or PodGroup objects comes from a cluster that serves the API"},
	[PK_GATE_WORKLOAD_AWARE_PREEMPTION] = {
		"WorkloadAwarePreemption", "kube-apiserver, kube-scheduler", PK_GATE_ALPHA, false, true,
		"pc-validate, victims, preempt-plan",
		"PodGroups with a disruptionMode are what KEP-5710 (beta, on, in 1.37) preempts as a whole"},
	[PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING] = {
		"TopologyAwareWorkloadScheduling", "kube-apiserver, kube-scheduler", PK_GATE_ALPHA, false, false,
		"pc-validate, victims, preempt-plan", NULL},
	[PK_GATE_DRA_WORKLOAD_RESOURCE_CLAIMS] = {
		"DRAWorkloadResourceClaims", "kube-apiserver", PK_GATE_ALPHA, false, false, "pc-validate", NULL},
	[PK_GATE_POD_GROUP_PREEMPTION_POLICY] = {
		"PodGroupPreemptionPolicy", "kube-apiserver", PK_GATE_ALPHA, false, false, "pc-validate", NULL},
	[PK_GATE_COMPOSITE_POD_GROUP] = {
		"CompositePodGroup", "kube-apiserver", PK_GATE_ALPHA, false, false, "pc-validate", NULL},
	[PK_GATE_SCHEDULER_ASYNC_PREEMPTION] = {
		"SchedulerAsyncPreemption", "kube-scheduler", PK_GATE_BETA, true, true, "apiq-sim", NULL},
	[PK_GATE_SCHEDULER_ASYNC_API_CALLS] = {
		"SchedulerAsyncAPICalls", "kube-scheduler", PK_GATE_BETA, false, false, "apiq-sim", NULL},
	[PK_GATE_PROPAGATION_POLICY_PREEMPTION] = {
		"PropagationPolicyPreemption", "karmada-controller-manager", PK_GATE_ALPHA, false, false, "pp-match",
		NULL},
};

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

/* Explicit value, else AllAlpha/AllBeta for a gate of that stage, else ours. */
static void resolve(pk_feature_gates *g)
{
	for (int i = 0; i < PK_NGATES; i++) {
		signed char all = registry[i].stage == PK_GATE_ALPHA ? g->all_alpha :
		                  registry[i].stage == PK_GATE_BETA  ? g->all_beta : -1;
		if (g->explicit_value[i] >= 0)
			g->on[i] = g->explicit_value[i];
		else if (all >= 0)
			g->on[i] = all;
		else
			g->on[i] = registry[i].our_default;
	}
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
