/* Decode-level checks, as the apiserver's strict decoder does them before any
 * validation: wrong JSON types, int32 overflow, unknown fields.
 * The tables describe the union of the fields each served version has had
 * across upstream revisions, so an older or newer revision's manifest is not
 * flagged for a field its server accepts. */
#include "pcv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef enum { S_ANY, S_STRING, S_BOOL, S_INT32, S_INT64, S_OBJECT, S_ARRAY, S_STRMAP } s_type;

typedef struct s_node s_node;
typedef struct s_field {
	const char *name;
	const s_node *node;
} s_field;

struct s_node {
	s_type type;
	const char *goname;     /* Go type in "cannot unmarshal" messages */
	const s_field *fields;  /* S_OBJECT, NULL-terminated */
	const s_node *elem;     /* S_ARRAY */
};

static const s_node N_ANY = {S_ANY, "interface {}", NULL, NULL};
static const s_node N_STR = {S_STRING, "string", NULL, NULL};
static const s_node N_BOOL = {S_BOOL, "bool", NULL, NULL};
static const s_node N_I32 = {S_INT32, "int32", NULL, NULL};
static const s_node N_I64 = {S_INT64, "int64", NULL, NULL};
static const s_node N_STRMAP = {S_STRMAP, "map[string]string", NULL, NULL};
static const s_node N_STRS = {S_ARRAY, "[]string", NULL, &N_STR};
static const s_node N_EMPTY = {S_OBJECT, "struct", (const s_field[]){{NULL, NULL}}, NULL};

/* ObjectMeta */
static const s_node N_OWNERREF = {S_OBJECT, "v1.OwnerReference", (const s_field[]){
	{"apiVersion", &N_STR}, {"kind", &N_STR}, {"name", &N_STR}, {"uid", &N_STR},
	{"controller", &N_BOOL}, {"blockOwnerDeletion", &N_BOOL}, {NULL, NULL}}, NULL};
static const s_node N_MANAGED = {S_OBJECT, "v1.ManagedFieldsEntry", (const s_field[]){
	{"manager", &N_STR}, {"operation", &N_STR}, {"apiVersion", &N_STR}, {"time", &N_STR},
	{"fieldsType", &N_STR}, {"fieldsV1", &N_ANY}, {"subresource", &N_STR}, {NULL, NULL}}, NULL};
static const s_node N_META = {S_OBJECT, "v1.ObjectMeta", (const s_field[]){
	{"name", &N_STR}, {"generateName", &N_STR}, {"namespace", &N_STR}, {"selfLink", &N_STR},
	{"uid", &N_STR}, {"resourceVersion", &N_STR}, {"generation", &N_I64},
	{"creationTimestamp", &N_STR}, {"deletionTimestamp", &N_STR},
	{"deletionGracePeriodSeconds", &N_I64}, {"labels", &N_STRMAP}, {"annotations", &N_STRMAP},
	{"ownerReferences", &(const s_node){S_ARRAY, "[]v1.OwnerReference", NULL, &N_OWNERREF}},
	{"finalizers", &N_STRS},
	{"managedFields", &(const s_node){S_ARRAY, "[]v1.ManagedFieldsEntry", NULL, &N_MANAGED}},
	{NULL, NULL}}, NULL};

/* scheduling.k8s.io/v1 PriorityClass */
static const s_node N_PRIORITYCLASS = {S_OBJECT, "PriorityClass", (const s_field[]){
	{"apiVersion", &N_STR}, {"kind", &N_STR}, {"metadata", &N_META}, {"value", &N_I32},
	{"globalDefault", &N_BOOL}, {"description", &N_STR}, {"preemptionPolicy", &N_STR},
	{NULL, NULL}}, NULL};

/* Workload API pieces shared by the versions */
static const s_node N_CONTROLLERREF = {S_OBJECT, "TypedLocalObjectReference", (const s_field[]){
	{"apiGroup", &N_STR}, {"kind", &N_STR}, {"name", &N_STR}, {NULL, NULL}}, NULL};
static const s_node N_GANG = {S_OBJECT, "GangSchedulingPolicy", (const s_field[]){
	{"minCount", &N_I32}, {"desiredCount", &N_I32}, {NULL, NULL}}, NULL};
static const s_node N_BASIC = {S_OBJECT, "BasicSchedulingPolicy", (const s_field[]){
	{"desiredCount", &N_I32}, {NULL, NULL}}, NULL};
static const s_node N_POLICY = {S_OBJECT, "PodGroupSchedulingPolicy", (const s_field[]){
	{"basic", &N_BASIC}, {"gang", &N_GANG}, {NULL, NULL}}, NULL};
static const s_node N_TOPOLOGY = {S_OBJECT, "TopologyConstraint", (const s_field[]){
	{"key", &N_STR}, {"topologyKey", &N_STR}, {NULL, NULL}}, NULL};
static const s_node N_TOPOLOGIES = {S_ARRAY, "[]TopologyConstraint", NULL, &N_TOPOLOGY};
static const s_node N_CONSTRAINTS = {S_OBJECT, "PodGroupSchedulingConstraints", (const s_field[]){
	{"topology", &N_TOPOLOGIES}, {"topologyConstraints", &N_TOPOLOGIES}, {NULL, NULL}}, NULL};
static const s_node N_CLAIM = {S_OBJECT, "PodGroupResourceClaim", (const s_field[]){
	{"name", &N_STR}, {"resourceClaimName", &N_STR}, {"resourceClaimTemplateName", &N_STR},
	{NULL, NULL}}, NULL};
static const s_node N_CLAIMS = {S_ARRAY, "[]PodGroupResourceClaim", NULL, &N_CLAIM};
static const s_node N_DISRUPTION = {S_OBJECT, "DisruptionMode", (const s_field[]){
	{"single", &N_EMPTY}, {"all", &N_EMPTY}, {NULL, NULL}}, NULL};

/* v1alpha1 Workload */
static const s_node N_PODGROUP1 = {S_OBJECT, "PodGroup", (const s_field[]){
	{"name", &N_STR}, {"policy", &N_POLICY}, {NULL, NULL}}, NULL};
static const s_node N_WL1_SPEC = {S_OBJECT, "WorkloadSpec", (const s_field[]){
	{"controllerRef", &N_CONTROLLERREF},
	{"podGroups", &(const s_node){S_ARRAY, "[]PodGroup", NULL, &N_PODGROUP1}},
	{"priorityClassName", &N_STR}, {"priority", &N_I32}, {NULL, NULL}}, NULL};

/* v1alpha2 / v1alpha3 templates */
#define PGT_COMMON \
	{"name", &N_STR}, {"schedulingPolicy", &N_POLICY}, {"schedulingConstraints", &N_CONSTRAINTS}, \
	{"resourceClaims", &N_CLAIMS}, {"priorityClassName", &N_STR}, {"priority", &N_I32}
static const s_node N_PGT2 = {S_OBJECT, "PodGroupTemplate", (const s_field[]){
	PGT_COMMON, {"disruptionMode", &N_STR}, {NULL, NULL}}, NULL};
static const s_node N_PGT3 = {S_OBJECT, "PodGroupTemplate", (const s_field[]){
	PGT_COMMON, {"disruptionMode", &N_DISRUPTION}, {"preemptionPolicy", &N_STR}, {NULL, NULL}}, NULL};
static const s_node N_PGTS2 = {S_ARRAY, "[]PodGroupTemplate", NULL, &N_PGT2};
static const s_node N_PGTS3 = {S_ARRAY, "[]PodGroupTemplate", NULL, &N_PGT3};

static const s_node N_CGANG = {S_OBJECT, "CompositeGangSchedulingPolicy", (const s_field[]){
	{"minGroupCount", &N_I32}, {NULL, NULL}}, NULL};
static const s_node N_CPOLICY = {S_OBJECT, "CompositePodGroupSchedulingPolicy", (const s_field[]){
	{"basic", &N_EMPTY}, {"gang", &N_CGANG}, {NULL, NULL}}, NULL};

/* The composite tree is recursive: tentative definitions first. */
static const s_node N_CPGTS2, N_CPGTS3;
static const s_node N_CPGT2 = {S_OBJECT, "CompositePodGroupTemplate", (const s_field[]){
	{"name", &N_STR}, {"schedulingPolicy", &N_CPOLICY}, {"podGroupTemplates", &N_PGTS2},
	{"compositePodGroupTemplates", &N_CPGTS2}, {"priorityClassName", &N_STR}, {"priority", &N_I32},
	{"disruptionMode", &N_STR}, {NULL, NULL}}, NULL};
static const s_node N_CPGTS2 = {S_ARRAY, "[]CompositePodGroupTemplate", NULL, &N_CPGT2};
static const s_node N_CPGT3 = {S_OBJECT, "CompositePodGroupTemplate", (const s_field[]){
	{"name", &N_STR}, {"schedulingPolicy", &N_CPOLICY}, {"podGroupTemplates", &N_PGTS3},
	{"compositePodGroupTemplates", &N_CPGTS3}, {"priorityClassName", &N_STR}, {"priority", &N_I32},
	{"disruptionMode", &N_DISRUPTION}, {NULL, NULL}}, NULL};
static const s_node N_CPGTS3 = {S_ARRAY, "[]CompositePodGroupTemplate", NULL, &N_CPGT3};

static const s_node N_WL2_SPEC = {S_OBJECT, "WorkloadSpec", (const s_field[]){
	{"controllerRef", &N_CONTROLLERREF}, {"podGroupTemplates", &N_PGTS2},
	{"compositePodGroupTemplates", &N_CPGTS2}, {NULL, NULL}}, NULL};
static const s_node N_WL3_SPEC = {S_OBJECT, "WorkloadSpec", (const s_field[]){
	{"controllerRef", &N_CONTROLLERREF}, {"podGroupTemplates", &N_PGTS3},
	{"compositePodGroupTemplates", &N_CPGTS3}, {NULL, NULL}}, NULL};

/* PodGroup */
static const s_node N_PGTREF = {S_OBJECT, "PodGroupTemplateReference", (const s_field[]){
	{"workload", &(const s_node){S_OBJECT, "WorkloadPodGroupTemplateReference", (const s_field[]){
		{"workloadName", &N_STR}, {"podGroupTemplateName", &N_STR}, {NULL, NULL}}, NULL}},
	{NULL, NULL}}, NULL};
static const s_node N_WLREF = {S_OBJECT, "WorkloadReference", (const s_field[]){
	{"workloadName", &N_STR}, {"templateName", &N_STR}, {NULL, NULL}}, NULL};
static const s_node N_PG2_SPEC = {S_OBJECT, "PodGroupSpec", (const s_field[]){
	{"podGroupTemplateRef", &N_PGTREF}, {"schedulingPolicy", &N_POLICY},
	{"schedulingConstraints", &N_CONSTRAINTS}, {"resourceClaims", &N_CLAIMS},
	{"disruptionMode", &N_STR}, {"priorityClassName", &N_STR}, {"priority", &N_I32},
	{NULL, NULL}}, NULL};
static const s_node N_PG3_SPEC = {S_OBJECT, "PodGroupSpec", (const s_field[]){
	{"podGroupTemplateRef", &N_PGTREF}, {"workloadRef", &N_WLREF},
	{"parentCompositePodGroupName", &N_STR}, {"schedulingPolicy", &N_POLICY},
	{"schedulingConstraints", &N_CONSTRAINTS}, {"resourceClaims", &N_CLAIMS},
	{"disruptionMode", &N_DISRUPTION}, {"priorityClassName", &N_STR}, {"priority", &N_I32},
	{"preemptionPolicy", &N_STR}, {NULL, NULL}}, NULL};

/* v1beta1 (1.37): v1alpha3's newest shape, without the earlier revisions'
 * names; composite templates carry constraints and a preemption policy. */
static const s_node N_GANG_B1 = {S_OBJECT, "GangSchedulingPolicy", (const s_field[]){
	{"minCount", &N_I32}, {NULL, NULL}}, NULL};
static const s_node N_POLICY_B1 = {S_OBJECT, "PodGroupSchedulingPolicy", (const s_field[]){
	{"basic", &N_EMPTY}, {"gang", &N_GANG_B1}, {NULL, NULL}}, NULL};
static const s_node N_TOPOLOGY_B1 = {S_OBJECT, "TopologyConstraint", (const s_field[]){
	{"key", &N_STR}, {NULL, NULL}}, NULL};
static const s_node N_CONSTRAINTS_B1 = {S_OBJECT, "PodGroupSchedulingConstraints", (const s_field[]){
	{"topology", &(const s_node){S_ARRAY, "[]TopologyConstraint", NULL, &N_TOPOLOGY_B1}}, {NULL, NULL}}, NULL};
#define GROUP_B1 \
	{"schedulingConstraints", &N_CONSTRAINTS_B1}, {"disruptionMode", &N_DISRUPTION}, \
	{"priorityClassName", &N_STR}, {"priority", &N_I32}, {"preemptionPolicy", &N_STR}
static const s_node N_PGT_B1 = {S_OBJECT, "PodGroupTemplate", (const s_field[]){
	{"name", &N_STR}, {"schedulingPolicy", &N_POLICY_B1}, {"resourceClaims", &N_CLAIMS}, GROUP_B1,
	{NULL, NULL}}, NULL};
static const s_node N_PGTS_B1 = {S_ARRAY, "[]PodGroupTemplate", NULL, &N_PGT_B1};
static const s_node N_CPGTS_B1;
static const s_node N_CPGT_B1 = {S_OBJECT, "CompositePodGroupTemplate", (const s_field[]){
	{"name", &N_STR}, {"schedulingPolicy", &N_CPOLICY}, {"podGroupTemplates", &N_PGTS_B1},
	{"compositePodGroupTemplates", &N_CPGTS_B1}, GROUP_B1, {NULL, NULL}}, NULL};
static const s_node N_CPGTS_B1 = {S_ARRAY, "[]CompositePodGroupTemplate", NULL, &N_CPGT_B1};
static const s_node N_WL_B1_SPEC = {S_OBJECT, "WorkloadSpec", (const s_field[]){
	{"controllerRef", &N_CONTROLLERREF}, {"podGroupTemplates", &N_PGTS_B1},
	{"compositePodGroupTemplates", &N_CPGTS_B1}, {NULL, NULL}}, NULL};
static const s_node N_PG_B1_SPEC = {S_OBJECT, "PodGroupSpec", (const s_field[]){
	{"parentCompositePodGroupName", &N_STR}, {"workloadRef", &N_WLREF}, {"schedulingPolicy", &N_POLICY_B1},
	{"resourceClaims", &N_CLAIMS}, GROUP_B1, {NULL, NULL}}, NULL};
/* CompositePodGroup, v1alpha3 */
static const s_node N_CPG_SPEC = {S_OBJECT, "CompositePodGroupSpec", (const s_field[]){
	{"parentCompositePodGroupName", &N_STR}, {"workloadRef", &N_WLREF}, {"schedulingPolicy", &N_CPOLICY},
	GROUP_B1, {NULL, NULL}}, NULL};

/* resource.k8s.io/v1 ResourceClaim, ResourceClaimTemplate and DeviceClass:
 * the union of the fields 1.35 to 1.37 serve (staging/src/k8s.io/api/
 * resource/v1/types.go). Gated fields (adminAccess, tolerations, capacity,
 * distinctAttribute, extendedResourceName) decode whatever the gates. */
static const s_node N_CEL_SEL = {S_OBJECT, "CELDeviceSelector", (const s_field[]){
	{"expression", &N_STR}, {NULL, NULL}}, NULL};
static const s_node N_SELECTORS = {S_ARRAY, "[]DeviceSelector", NULL,
	&(const s_node){S_OBJECT, "DeviceSelector", (const s_field[]){{"cel", &N_CEL_SEL}, {NULL, NULL}}, NULL}};
static const s_node N_DTOLS = {S_ARRAY, "[]DeviceToleration", NULL,
	&(const s_node){S_OBJECT, "DeviceToleration", (const s_field[]){
		{"key", &N_STR}, {"operator", &N_STR}, {"value", &N_STR}, {"effect", &N_STR},
		{"tolerationSeconds", &N_I64}, {NULL, NULL}}, NULL}};
static const s_node N_CAPREQ = {S_OBJECT, "CapacityRequirements", (const s_field[]){
	{"requests", &N_ANY}, {NULL, NULL}}, NULL};
#define DEVREQ_COMMON \
	{"deviceClassName", &N_STR}, {"selectors", &N_SELECTORS}, {"allocationMode", &N_STR}, \
	{"count", &N_I64}, {"tolerations", &N_DTOLS}, {"capacity", &N_CAPREQ}, {"derivedAttributes", &N_ANY}
static const s_node N_EXACT = {S_OBJECT, "ExactDeviceRequest", (const s_field[]){
	DEVREQ_COMMON, {"adminAccess", &N_BOOL}, {NULL, NULL}}, NULL};
static const s_node N_SUBREQ = {S_OBJECT, "DeviceSubRequest", (const s_field[]){
	{"name", &N_STR}, DEVREQ_COMMON, {NULL, NULL}}, NULL};
static const s_node N_DEVREQ = {S_OBJECT, "DeviceRequest", (const s_field[]){
	{"name", &N_STR}, {"exactly", &N_EXACT},
	{"firstAvailable", &(const s_node){S_ARRAY, "[]DeviceSubRequest", NULL, &N_SUBREQ}}, {NULL, NULL}}, NULL};
static const s_node N_OPAQUE = {S_OBJECT, "OpaqueDeviceConfiguration", (const s_field[]){
	{"driver", &N_STR}, {"parameters", &N_ANY}, {NULL, NULL}}, NULL};
static const s_node N_DEVCLAIM = {S_OBJECT, "DeviceClaim", (const s_field[]){
	{"requests", &(const s_node){S_ARRAY, "[]DeviceRequest", NULL, &N_DEVREQ}},
	{"constraints", &(const s_node){S_ARRAY, "[]DeviceConstraint", NULL,
		&(const s_node){S_OBJECT, "DeviceConstraint", (const s_field[]){
			{"requests", &N_STRS}, {"matchAttribute", &N_STR}, {"distinctAttribute", &N_STR},
			{NULL, NULL}}, NULL}}},
	{"config", &(const s_node){S_ARRAY, "[]DeviceClaimConfiguration", NULL,
		&(const s_node){S_OBJECT, "DeviceClaimConfiguration", (const s_field[]){
			{"requests", &N_STRS}, {"opaque", &N_OPAQUE}, {NULL, NULL}}, NULL}}},
	{NULL, NULL}}, NULL};
static const s_node N_RC_SPEC = {S_OBJECT, "ResourceClaimSpec", (const s_field[]){
	{"devices", &N_DEVCLAIM}, {NULL, NULL}}, NULL};
static const s_node N_DC_SPEC = {S_OBJECT, "DeviceClassSpec", (const s_field[]){
	{"selectors", &N_SELECTORS},
	{"config", &(const s_node){S_ARRAY, "[]DeviceClassConfiguration", NULL,
		&(const s_node){S_OBJECT, "DeviceClassConfiguration", (const s_field[]){
			{"opaque", &N_OPAQUE}, {NULL, NULL}}, NULL}}},
	{"extendedResourceName", &N_STR}, {NULL, NULL}}, NULL};
/* DeviceTaintRule (v1, 1.37; the selector as from 1.35) */
static const s_node N_DTR_SPEC = {S_OBJECT, "DeviceTaintRuleSpec", (const s_field[]){
	{"deviceSelector", &(const s_node){S_OBJECT, "DeviceTaintSelector", (const s_field[]){
		{"driver", &N_STR}, {"pool", &N_STR}, {"device", &N_STR}, {NULL, NULL}}, NULL}},
	{"taint", &(const s_node){S_OBJECT, "DeviceTaint", (const s_field[]){
		{"key", &N_STR}, {"value", &N_STR}, {"effect", &N_STR}, {"timeAdded", &N_STR}, {NULL, NULL}}, NULL}},
	{NULL, NULL}}, NULL};
static const s_node N_RCT_SPEC = {S_OBJECT, "ResourceClaimTemplateSpec", (const s_field[]){
	{"metadata", &N_META}, {"spec", &N_RC_SPEC}, {NULL, NULL}}, NULL};

#define TOP(spec) {"apiVersion", &N_STR}, {"kind", &N_STR}, {"metadata", &N_META}, {"spec", spec}
static const s_node N_WL1 = {S_OBJECT, "Workload", (const s_field[]){TOP(&N_WL1_SPEC), {NULL, NULL}}, NULL};
static const s_node N_WL2 = {S_OBJECT, "Workload", (const s_field[]){TOP(&N_WL2_SPEC), {NULL, NULL}}, NULL};
static const s_node N_WL3 = {S_OBJECT, "Workload", (const s_field[]){TOP(&N_WL3_SPEC), {NULL, NULL}}, NULL};
static const s_node N_PG2 = {S_OBJECT, "PodGroup", (const s_field[]){
	TOP(&N_PG2_SPEC), {"status", &N_ANY}, {NULL, NULL}}, NULL};
static const s_node N_PG3 = {S_OBJECT, "PodGroup", (const s_field[]){
	TOP(&N_PG3_SPEC), {"status", &N_ANY}, {NULL, NULL}}, NULL};
static const s_node N_WL_B1 = {S_OBJECT, "Workload", (const s_field[]){TOP(&N_WL_B1_SPEC), {NULL, NULL}}, NULL};
static const s_node N_PG_B1 = {S_OBJECT, "PodGroup", (const s_field[]){
	TOP(&N_PG_B1_SPEC), {"status", &N_ANY}, {NULL, NULL}}, NULL};
static const s_node N_RC = {S_OBJECT, "ResourceClaim", (const s_field[]){
	TOP(&N_RC_SPEC), {"status", &N_ANY}, {NULL, NULL}}, NULL};
static const s_node N_RCT = {S_OBJECT, "ResourceClaimTemplate", (const s_field[]){TOP(&N_RCT_SPEC), {NULL, NULL}}, NULL};
static const s_node N_DC = {S_OBJECT, "DeviceClass", (const s_field[]){TOP(&N_DC_SPEC), {NULL, NULL}}, NULL};
static const s_node N_DTR = {S_OBJECT, "DeviceTaintRule", (const s_field[]){
	TOP(&N_DTR_SPEC), {"status", &N_ANY}, {NULL, NULL}}, NULL};
static const s_node N_CPG = {S_OBJECT, "CompositePodGroup", (const s_field[]){
	TOP(&N_CPG_SPEC), {"status", &N_ANY}, {NULL, NULL}}, NULL};

static const char *json_type_name(const cJSON *v)
{
	if (cJSON_IsString(v))
		return "string";
	if (cJSON_IsNumber(v))
		return "number";
	if (cJSON_IsBool(v))
		return "bool";
	if (cJSON_IsArray(v))
		return "array";
	return "object";
}

static void type_error(pcv_obj *o, const s_node *n, const cJSON *v, const char *path, const char *detail)
{
	char gopath[PCV_PATH_MAX];
	pcv_strip_indices(path, gopath, sizeof gopath);
	o->type_errors++;
	char what[128];
	if (detail)
		snprintf(what, sizeof what, "number %s", detail);
	else
		snprintf(what, sizeof what, "%s", json_type_name(v));
	pcv_report(o, PK_SEV_ERROR, PCV_TYPE_ERROR, path,
	           "json: cannot unmarshal %s into Go struct field %s.%s of type %s",
	           what, o->kind, gopath, n->goname);
}

/* The proposal put the field on Workload.spec, on templates and on
 * PodGroup.spec: accepted there only, and only with the option. */
static bool kep5710_field(const pcv_obj *o, const char *parent, const char *key)
{
	if (!o->ctx->kep5710 || strcmp(key, "preemptionPriorityClassName") != 0 ||
	    (strcmp(o->kind, "Workload") != 0 && strcmp(o->kind, "PodGroup") != 0))
		return false;
	size_t n = strlen(parent);
	return strcmp(parent, "spec") == 0 ||
	       (n && parent[n - 1] == ']' && strstr(parent, "odGroupTemplates[") != NULL);
}

static void check_number(pcv_obj *o, const s_node *n, const cJSON *v, const char *path)
{
	double d = v->valuedouble;
	char num[64];
	pcv_format_value(v, num, sizeof num);
	if (d != floor(d) || !isfinite(d)) {
		type_error(o, n, v, path, num);
		return;
	}
	if (n->type == S_INT32 && (d < -2147483648.0 || d > 2147483647.0))
		type_error(o, n, v, path, num);
	else if (n->type == S_INT64 && (d < -9223372036854775808.0 || d >= 9223372036854775808.0))
		type_error(o, n, v, path, num);
}

static void walk(pcv_obj *o, const s_node *n, const cJSON *v, const char *path);

static void walk_object(pcv_obj *o, const s_node *n, const cJSON *v, const char *path)
{
	for (const cJSON *m = v->child; m; m = m->next) {
		const char *key = m->string ? m->string : "";
		char sub[PCV_PATH_MAX];
		if (*path)
			pcv_path(sub, "%s.%s", path, key);
		else
			pcv_path(sub, "%s", key);
		const s_field *f = n->fields;
		while (f->name && strcmp(f->name, key) != 0)
			f++;
		if (f->name) {
			walk(o, f->node, m, sub);
		} else if (kep5710_field(o, path, key)) {
			walk(o, &N_STR, m, sub);
		} else {
			pcv_report(o, PK_SEV_ERROR, PCV_UNKNOWN_FIELD, sub,
			           "strict decoding error: unknown field \"%s\"", sub);
		}
	}
}

static void walk(pcv_obj *o, const s_node *n, const cJSON *v, const char *path)
{
	if (cJSON_IsNull(v) || n->type == S_ANY)
		return;  /* null decodes to the zero value */
	switch (n->type) {
	case S_STRING:
		if (!cJSON_IsString(v))
			type_error(o, n, v, path, NULL);
		break;
	case S_BOOL:
		if (!cJSON_IsBool(v))
			type_error(o, n, v, path, NULL);
		break;
	case S_INT32:
	case S_INT64:
		if (!cJSON_IsNumber(v))
			type_error(o, n, v, path, NULL);
		else
			check_number(o, n, v, path);
		break;
	case S_STRMAP:
		if (!cJSON_IsObject(v)) {
			type_error(o, n, v, path, NULL);
			break;
		}
		for (const cJSON *m = v->child; m; m = m->next) {
			if (cJSON_IsString(m) || cJSON_IsNull(m))
				continue;
			char sub[PCV_PATH_MAX];
			pcv_path(sub, "%s.%s", path, m->string ? m->string : "");
			type_error(o, &N_STR, m, sub, NULL);
		}
		break;
	case S_ARRAY:
		if (!cJSON_IsArray(v)) {
			type_error(o, n, v, path, NULL);
			break;
		}
		{
			int i = 0;
			for (const cJSON *e = v->child; e; e = e->next, i++) {
				char sub[PCV_PATH_MAX];
				pcv_path(sub, "%s[%d]", path, i);
				walk(o, n->elem, e, sub);
			}
		}
		break;
	case S_OBJECT:
		if (!cJSON_IsObject(v))
			type_error(o, n, v, path, NULL);
		else
			walk_object(o, n, v, path);
		break;
	case S_ANY:
		break;
	}
}

static const s_node *schema_for(const pcv_obj *o)
{
	const char *v = o->version, *k = o->kind;
	if (strcmp(k, "PriorityClass") == 0)
		return &N_PRIORITYCLASS;
	if (strcmp(o->group, "resource.k8s.io") == 0)
		return strcmp(k, "ResourceClaim") == 0           ? &N_RC
		       : strcmp(k, "ResourceClaimTemplate") == 0 ? &N_RCT
		       : strcmp(k, "DeviceClass") == 0           ? &N_DC
		       : strcmp(k, "DeviceTaintRule") == 0       ? &N_DTR
		                                                 : NULL;
	bool beta = strcmp(v, "v1beta1") == 0;
	if (strcmp(k, "Workload") == 0)
		return beta ? &N_WL_B1 : strcmp(v, "v1alpha1") == 0 ? &N_WL1 : strcmp(v, "v1alpha2") == 0 ? &N_WL2 : &N_WL3;
	if (strcmp(k, "PodGroup") == 0)
		return beta ? &N_PG_B1 : strcmp(v, "v1alpha2") == 0 ? &N_PG2 : &N_PG3;
	if (strcmp(k, "CompositePodGroup") == 0)
		return &N_CPG;
	return NULL;
}

void pcv_schema_check(pcv_obj *o)
{
	const s_node *n = schema_for(o);
	if (n)
		walk(o, n, o->root, "");
}

void pcv_check_podspec_types(pcv_obj *o, const cJSON *spec, const char *path)
{
	static const s_field fields[] = {
		{"priorityClassName", &N_STR}, {"priority", &N_I32}, {"preemptionPolicy", &N_STR}, {NULL, NULL},
	};
	if (!spec || cJSON_IsNull(spec))
		return;
	if (!cJSON_IsObject(spec)) {
		static const s_node podspec = {S_OBJECT, "v1.PodSpec", NULL, NULL};
		type_error(o, &podspec, spec, path, NULL);
		return;
	}
	for (const s_field *f = fields; f->name; f++) {
		const cJSON *v = pk_get(spec, f->name);
		if (!v)
			continue;
		char sub[PCV_PATH_MAX];
		pcv_path(sub, "%s.%s", path, f->name);
		walk(o, f->node, v, sub);
	}
}
