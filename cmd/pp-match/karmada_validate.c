/* The admission checks on (Cluster)PropagationPolicy that decide whether a
 * policy can exist at all and whether it may preempt (CRD schema; karmada
 * pkg/util/validation ValidatePropagationSpec; pkg/webhook/propagationpolicy;
 * karmada.md section H). A policy with errors would have been rejected, so
 * it takes no part in matching. Placement/failover/suspension checks are out
 * of scope: they do not change which policy claims a template. */
#include "karmada.h"

#include <stdio.h>
#include <string.h>

#include "k8s/json.h"

#define PREEMPTION_NEEDS_NAME \
	"name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption"
#define SELECTOR_NAMESPACE_MISMATCH \
	"namespace of resource selector must be the same as the namespace of the policy"

static pk_origin at_path(const pk_record *rec, const char *path)
{
	return pk_record_path_origin(rec, path);
}

static int check_priority(const pp_policy *p, const pk_record *rec, pp_report *r)
{
	const cJSON *v = pk_getp(p->obj, "spec.priority");
	int64_t n;

	if (!v || cJSON_IsNull(v))
		return 0;
	if (pk_num_int64(v, &n) && n >= INT32_MIN && n <= INT32_MAX)
		return 0;
	pk_origin at = at_path(rec, "spec.priority");
	pp_report_problem(r, PK_SEV_ERROR, p, &at, "spec.priority", "TypeError",
	                  "Invalid value: must be a 32-bit integer");
	return 1;
}

static int check_preemption(const pp_policy *p, const pk_record *rec, pp_report *r)
{
	const cJSON *v = pk_getp(p->obj, "spec.preemption");

	if (!v || cJSON_IsNull(v))
		return 0;
	if (cJSON_IsString(v) && (strcmp(v->valuestring, "Always") == 0 || strcmp(v->valuestring, "Never") == 0))
		return 0;
	pk_origin at = at_path(rec, "spec.preemption");
	char *text = cJSON_PrintUnformatted(v);
	pp_report_problem(r, PK_SEV_ERROR, p, &at, "spec.preemption", "NotSupported",
	                  "Unsupported value: %.200s: supported values: \"Always\", \"Never\"", text ? text : "?");
	cJSON_free(text);
	return 1;
}

static int check_string_field(const pp_policy *p, const pk_record *rec, pp_report *r, const cJSON *sel,
                              int index, const char *key)
{
	char field[96];
	const cJSON *v = pk_get(sel, key);

	if (cJSON_IsString(v) && *v->valuestring)
		return 0;
	snprintf(field, sizeof field, "spec.resourceSelectors[%d].%s", index, key);
	pk_origin at = at_path(rec, field);
	if (v && !cJSON_IsNull(v) && !cJSON_IsString(v))
		pp_report_problem(r, PK_SEV_ERROR, p, &at, field, "TypeError", "Invalid value: must be a string");
	else
		pp_report_problem(r, PK_SEV_ERROR, p, &at, field, "Required", "Required value");
	return 1;
}

static int check_selector(const pp_policy *p, const pk_record *rec, pp_report *r, const cJSON *sel, int i)
{
	char field[96], err[256];
	int errors = 0;

	errors += check_string_field(p, rec, r, sel, i, "apiVersion");
	errors += check_string_field(p, rec, r, sel, i, "kind");

	const char *ns = pk_str_or(sel, "namespace", "");
	if (p->kind == PP_PROPAGATION_POLICY && *ns && strcmp(ns, p->namespace) != 0) {
		snprintf(field, sizeof field, "spec.resourceSelectors[%d].namespace", i);
		pk_origin at = at_path(rec, field);
		pp_report_problem(r, PK_SEV_ERROR, p, &at, field, "Invalid", "Invalid value: \"%s\": %s", ns,
		                  SELECTOR_NAMESPACE_MISMATCH);
		errors++;
	}
	if (p->preempt_always && !*pk_str_or(sel, "name", "")) {
		snprintf(field, sizeof field, "spec.resourceSelectors[%d].name", i);
		pk_origin at = at_path(rec, field);
		pp_report_problem(r, PK_SEV_ERROR, p, &at, field, "Invalid", "Invalid value: \"\": %s",
		                  PREEMPTION_NEEDS_NAME);
		errors++;
	}
	/* Not a webhook error: upstream converts the selector at match time and
	 * treats a failure as "no match". Worth a warning, not a rejection. */
	const cJSON *ls = pk_get(sel, "labelSelector");
	if (ls && !cJSON_IsNull(ls) && !*pk_str_or(sel, "name", "")) {
		pk_selector tmp = {0};
		if (pk_selector_compile(ls, &tmp, err, sizeof err) != 0) {
			snprintf(field, sizeof field, "spec.resourceSelectors[%d].labelSelector", i);
			pk_origin at = at_path(rec, field);
			pp_report_problem(r, PK_SEV_WARNING, p, &at, field, "Invalid",
			                  "Invalid value: %s; the selector matches nothing", err);
		}
		pk_selector_free(&tmp);
	}
	return errors;
}

int pp_validate_policy(const pp_policy *p, const pk_record *rec, pp_report *r)
{
	int errors = 0;

	if (!*p->name) {
		pk_origin at = at_path(rec, "metadata.name");
		pp_report_problem(r, PK_SEV_ERROR, p, &at, "metadata.name", "Required",
		                  "Required value: name or generateName is required");
		errors++;
	}
	errors += check_priority(p, rec, r);
	errors += check_preemption(p, rec, r);

	const cJSON *sels = pk_getp(p->obj, "spec.resourceSelectors");
	pk_origin at = at_path(rec, "spec.resourceSelectors");
	if (!sels || cJSON_IsNull(sels)) {
		pp_report_problem(r, PK_SEV_ERROR, p, &at, "spec.resourceSelectors", "Required", "Required value");
		return errors + 1;
	}
	if (!cJSON_IsArray(sels)) {
		pp_report_problem(r, PK_SEV_ERROR, p, &at, "spec.resourceSelectors", "TypeError",
		                  "Invalid value: must be a list");
		return errors + 1;
	}
	if (cJSON_GetArraySize(sels) == 0) {
		pp_report_problem(r, PK_SEV_ERROR, p, &at, "spec.resourceSelectors", "Invalid",
		                  "Invalid value: 0: should have at least 1 items");
		return errors + 1;
	}
	int i = 0;
	const cJSON *sel;
	cJSON_ArrayForEach(sel, sels) {
		if (!cJSON_IsObject(sel)) {
			char field[64];
			snprintf(field, sizeof field, "spec.resourceSelectors[%d]", i);
			pk_origin sat = at_path(rec, field);
			pp_report_problem(r, PK_SEV_ERROR, p, &sat, field, "TypeError",
			                  "Invalid value: must be an object");
			errors++;
		} else {
			errors += check_selector(p, rec, r, sel, i);
		}
		i++;
	}
	return errors;
}
