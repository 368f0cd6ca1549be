/* PriorityClass (scheduling.k8s.io/v1): per-object validation
 * (validation.md PC-01..PC-13). */
#include "pcv.h"
#include "k8s/json.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Preemption policy of a PriorityClass or Pod (core ValidatePreemptionPolicy):
 * "" is Required, anything unknown NotSupported. */
static void check_preemption_policy(pcv_obj *o, const cJSON *v, const char *field)
{
	if (!cJSON_IsString(v))
		return;
	pk_preemption_policy p;
	if (!*v->valuestring)
		pcv_required(o, field, NULL);
	else if (!pk_parse_preemption_policy(v->valuestring, &p))
		pcv_not_supported(o, field, v->valuestring, "\"PreemptLowerPriority\", \"Never\"");
}

/* The system- prefix is reserved: the name must be a built-in class, with its
 * value and globalDefault false (helpers IsKnownSystemPriorityClass). */
static void check_system_name(pcv_obj *o, const char *name, int64_t value, bool gd)
{
	char why[256];
	int64_t want = strcmp(name, "system-node-critical") == 0    ? PK_SYSTEM_NODE_CRITICAL
	               : strcmp(name, "system-cluster-critical") == 0 ? PK_SYSTEM_CLUSTER_CRITICAL
	                                                              : -1;
	if (want < 0)
		snprintf(why, sizeof why, "%s is not a known system priority class", name);
	else if (value != want)
		snprintf(why, sizeof why, "value of %s PriorityClass must be %" PRId64, name, want);
	else if (gd)
		snprintf(why, sizeof why, "globalDefault of %s PriorityClass must be false", name);
	else
		return;
	char detail[400];
	snprintf(detail, sizeof detail,
	         "priority class names with '" PK_SYSTEM_PREFIX "' prefix are reserved for system use only. error: %s",
	         why);
	pcv_forbidden(o, "metadata.name", detail);
}

void pcv_rules_priorityclass(pcv_obj *o)
{
	const cJSON *pc = o->root;
	pcv_check_meta(o, false);

	int64_t value = 0;
	const cJSON *v = pk_get(pc, "value");
	bool have_value = v && pk_num_int64(v, &value);
	if (!v || cJSON_IsNull(v)) {
		/* The server decodes a missing value as 0; the OpenAPI schema
		 * marks it required, so schema-based tools reject it. */
		if (o->ctx->strict)
			pcv_required(o, "value", "the OpenAPI schema requires value (the apiserver stores 0)");
	}
	bool gd = pk_bool(pc, "globalDefault");
	const char *name = o->name;
	if (name && strncmp(name, PK_SYSTEM_PREFIX, strlen(PK_SYSTEM_PREFIX)) == 0) {
		check_system_name(o, name, value, gd);
	} else if (have_value && value > PK_HIGHEST_USER_PRIORITY) {
		pcv_forbidden(o, "value", "maximum allowed value of a user defined priority is 1000000000");
	}
	check_preemption_policy(o, pk_get(pc, "preemptionPolicy"), "preemptionPolicy");
}

/* Pod and pod-template priority fields (POD-01, POD-02), plus the facts the
 * Priority admission plugin checks once every class is known. */
/* spec.schedulingGroup (gate GenericWorkload; its strategy drops it when
 * the gate is off): the PodGroup the pod belongs to, podGroupName a DNS
 * subdomain (core PodSchedulingGroup). */
static void check_scheduling_group(pcv_obj *o, const cJSON *spec, const char *spec_path)
{
	char field[PCV_PATH_MAX];
	pcv_path(field, "%s.schedulingGroup", spec_path);
	const cJSON *group = pcv_gated(o, spec, "schedulingGroup", field, o->ctx->release->generic_workload,
	                               "GenericWorkload", PCV_GATE_DROPPED);
	const char *name = pk_str(group, "podGroupName");
	pcv_path(field, "%s.schedulingGroup.podGroupName", spec_path);
	if (name && *name)
		pcv_check_subdomain(o, field, name);
}

void pcv_rules_podspec(pcv_obj *o, const char *spec_path, bool is_pod)
{
	const cJSON *spec = pk_getp(o->root, spec_path);
	if (!cJSON_IsObject(spec)) {
		pcv_check_podspec_types(o, spec, spec_path);
		return;
	}
	pcv_check_podspec_types(o, spec, spec_path);
	if (o->type_errors)
		return;
	char field[PCV_PATH_MAX];
	const char *cls = pk_str(spec, "priorityClassName");
	if (cls && *cls) {
		pcv_path(field, "%s.priorityClassName", spec_path);
		pcv_check_subdomain(o, field, cls);
	}
	const cJSON *pol = pk_get(spec, "preemptionPolicy");
	pcv_path(field, "%s.preemptionPolicy", spec_path);
	check_preemption_policy(o, pol, field);
	check_scheduling_group(o, spec, spec_path);

	if (is_pod && o->old) {
		/* An update: admission keeps the old values; only the generic
		 * pod-update rule applies (pcv_update_rules). */
		return;
	}
	/* Reference to check at the end: the class must exist, and a given
	 * priority / preemptionPolicy must match what admission computes. */
	pcv_path(field, "%s.priorityClassName", spec_path);
	pcv_add_ref(o, REF_PCLASS, field, cls ? cls : "", NULL, NULL);
	pcv_ref *r = pcv_last_ref(o->ctx);
	if (!r)
		return;
	r->admission = is_pod;
	int64_t prio;
	if (pk_int64(spec, "priority", &prio) && prio >= INT32_MIN && prio <= INT32_MAX) {
		r->has_priority = true;
		r->priority = (int32_t)prio;
	}
	pk_preemption_policy p;
	if (cJSON_IsString(pol) && pk_parse_preemption_policy(pol->valuestring, &p)) {
		r->has_policy = true;
		r->policy = p;
	}
}
