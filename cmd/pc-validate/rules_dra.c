/* ResourceClaim, ResourceClaimTemplate, DeviceClass and DeviceTaintRule (resource.k8s.io/v1):
 * the apiserver's validation (pkg/apis/resource/validation/validation.go
 * @009801d930e2), with its field paths and messages, and the selectors' CEL
 * compiled by the one interpreter (k8s/cel.h).
 *
 * The object has been decoded (schema.c) and defaulted as the apiserver
 * does before validation: an unset allocationMode is ExactCount, an unset
 * or zero count of ExactCount is 1, an unset toleration operator is Equal. */
#include "pcv.h"
#include "k8s/cel.h"
#include "k8s/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* pkg/apis/resource/types.go */
#define DEVICE_REQUESTS_MAX 32
#define DEVICE_CONSTRAINTS_MAX 32
#define DEVICE_CONFIG_MAX 32
#define DEVICE_SELECTORS_MAX 32
#define FIRST_AVAILABLE_MAX 8
#define DEVICE_TOLERATIONS_MAX 16
#define CEL_EXPRESSION_MAX_LENGTH (10 * 1024)
#define OPAQUE_PARAMETERS_MAX_LENGTH (10 * 1024)
#define DEVICE_MAX_ID_LENGTH 32
#define DRIVER_NAME_MAX_LENGTH 63
#define POOL_NAME_MAX_LENGTH 253

static const char MSG_C_IDENTIFIER[] =
	"a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric "
	"characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is "
	"'[A-Za-z_][A-Za-z0-9_]*')";
static const char MSG_LABEL_VALUE[] =
	"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
	"must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
	"regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
static const char MSG_REQUEST_REF[] =
	"must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

static bool present(const cJSON *v)
{
	return v && !cJSON_IsNull(v);
}

static int array_len(const cJSON *v)
{
	return cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 0;
}

static const char *str_or_empty(const cJSON *parent, const char *key)
{
	const char *s = pk_str(parent, key);
	return s ? s : "";
}

/* validateSlice / validateSet: over the maximum is one TooMany and nothing
 * else about the list (DOS protection). */
static bool within_max(pcv_obj *o, const cJSON *list, int max, const char *path)
{
	if (array_len(list) <= max)
		return true;
	pcv_too_many(o, path, array_len(list), max);
	return false;
}

/* validateSet's uniqueness: a later item with an earlier key. */
static void check_unique(pcv_obj *o, const cJSON *list, const char *key, const char *path)
{
	int i = 0;
	for (const cJSON *a = cJSON_IsArray(list) ? list->child : NULL; a; a = a->next, i++) {
		const cJSON *av = key ? pk_get(a, key) : a;
		if (!cJSON_IsString(av))
			continue;
		for (const cJSON *b = list->child; b != a; b = b->next) {
			const cJSON *bv = key ? pk_get(b, key) : b;
			if (cJSON_IsString(bv) && strcmp(av->valuestring, bv->valuestring) == 0) {
				char p[PCV_PATH_MAX];
				pcv_path(p, "%s[%d]", path, i);
				pcv_duplicate(o, p, av);
				break;
			}
		}
	}
}

static bool is_c_identifier(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return false;
	for (const char *p = s + 1; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

static void check_c_identifier(pcv_obj *o, const char *path, const char *id)
{
	if (strlen(id) > DEVICE_MAX_ID_LENGTH)
		pcv_report(o, PK_SEV_ERROR, PCV_TOO_LONG, path, "Too long: may not be more than %d bytes",
		           DEVICE_MAX_ID_LENGTH);
	if (!is_c_identifier(id))
		pcv_invalid_str(o, path, id, MSG_C_IDENTIFIER);
}

/* corevalidation.ValidateCSIDriverName: a driver name, and a qualified
 * name's domain. */
static void check_driver_name(pcv_obj *o, const char *path, const char *name)
{
	if (!*name) {
		pcv_required(o, path, NULL);
		return;
	}
	if (strlen(name) > DRIVER_NAME_MAX_LENGTH)
		pcv_report(o, PK_SEV_ERROR, PCV_TOO_LONG, path, "Too long: may not be more than %d bytes",
		           DRIVER_NAME_MAX_LENGTH);
	char lower[300];
	size_t i;
	for (i = 0; name[i] && i + 1 < sizeof lower; i++)
		lower[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
	lower[i] = '\0';
	const char *msgs[2];
	int n = pcv_dns_subdomain_errors(lower, msgs);
	for (int k = 0; k < n; k++)
		pcv_invalid_str(o, path, name, msgs[k]);
}

/* validateFullyQualifiedName: "<domain>/<C identifier>". */
static void check_fully_qualified_name(pcv_obj *o, const char *path, const char *name)
{
	const char *slash = strchr(name, '/');
	if (slash && strchr(slash + 1, '/')) {
		pcv_invalid_str(o, path, name, "must not contain more than one slash");
		return;
	}
	if (!slash) {
		check_c_identifier(o, path, name);
		pcv_invalid_str(o, path, name, "a fully qualified name must be a domain and a name separated by a slash");
		return;
	}
	char domain[300];
	snprintf(domain, sizeof domain, "%.*s", (int)(slash - name), name);
	if (!*domain)
		pcv_invalid_str(o, path, "", "the domain must not be empty");
	else
		check_driver_name(o, path, domain);
	if (!slash[1])
		pcv_invalid_str(o, path, "", "the name must not be empty");
	else
		check_c_identifier(o, path, slash + 1);
}

/* ---- CEL selectors ---- */

/* cel-go's error text: "ERROR: <input>:L:C: msg", the line and a caret.
 * cel-go names the container an undeclared reference was looked up in;
 * a selector's is the empty one. */
static void compile_error_message(const char *expr, int line, int col, const char *msg, char *out, size_t size)
{
	char err[1100];
	bool undeclared = strncmp(msg, "undeclared reference to '", 25) == 0 && msg[strlen(msg) - 1] == '\'';
	snprintf(err, sizeof err, "%s%s", msg, undeclared ? " (in container '')" : "");
	if (line <= 0 || col <= 0) {
		snprintf(out, size, "compilation failed: ERROR: <input>: %s", err);
		return;
	}
	const char *ln = expr;
	for (int l = 1; l < line && ln; l++) {
		ln = strchr(ln, '\n');
		if (ln)
			ln++;
	}
	if (!ln)
		ln = "";
	int len = (int)strcspn(ln, "\n");
	int n = snprintf(out, size, "compilation failed: ERROR: <input>:%d:%d: %s\n | %.*s\n | ", line, col, err, len, ln);
	/* the caret under the column (cel-go counts code points, as col does) */
	size_t at = n < 0 ? size : (size_t)n;
	for (int i = 1; i < col && at + 2 < size; i++)
		out[at++] = '.';
	if (at + 1 < size) {
		out[at++] = '^';
		out[at] = '\0';
	}
}

/* validateCELExpression: required, at most 10 KiB, compiles. A construct
 * the interpreter does not support is said as that (a warning: the
 * expression is not known to be valid or invalid); the static cost limit
 * is not estimated (said once per run, pcv_dra_note). */
static void check_cel_expression(pcv_obj *o, const cJSON *expr, const char *path)
{
	const char *e = cJSON_IsString(expr) ? expr->valuestring : "";
	if (!*e) {
		pcv_required(o, path, NULL);
		return;
	}
	if (strlen(e) > CEL_EXPRESSION_MAX_LENGTH) {
		pcv_report(o, PK_SEV_ERROR, PCV_TOO_LONG, path, "Too long: may not be more than %d bytes",
		           CEL_EXPRESSION_MAX_LENGTH);
		return;
	}
	int line = 0, col = 0;
	char err[1024];
	pk_cel_program *p = pk_cel_compile_at(e, &line, &col, err, sizeof err);
	o->ctx->cel_compiled++;
	if (p) {
		pk_cel_free(p);
		return;
	}
	if (pk_cel_error_unsupported(err)) {
		pcv_finding *d = pcv_report(o, PK_SEV_WARNING, PCV_NOT_CHECKED, path,
		                            "not checked: %s (at %d:%d); the apiserver compiles this expression "
		                            "with cel-go, which may accept or reject it",
		                            err, line, col);
		pcv_set_rule(d, path, "notChecked");
		return;
	}
	char msg[2048];
	compile_error_message(e, line, col, err, msg, sizeof msg);
	pcv_invalid_str(o, path, e, msg);
}

static void check_selectors(pcv_obj *o, const cJSON *sels, const char *path)
{
	if (!within_max(o, sels, DEVICE_SELECTORS_MAX, path))
		return;
	int i = 0;
	for (const cJSON *s = cJSON_IsArray(sels) ? sels->child : NULL; s; s = s->next, i++) {
		char p[PCV_PATH_MAX];
		const cJSON *cel = pk_get(s, "cel");
		if (!present(cel)) {
			pcv_path(p, "%s[%d].cel", path, i);
			pcv_required(o, p, NULL);
			continue;
		}
		pcv_path(p, "%s[%d].cel.expression", path, i);
		check_cel_expression(o, pk_get(cel, "expression"), p);
	}
}

/* ---- requests ---- */

static void check_label_value(pcv_obj *o, const char *path, const char *v)
{
	if (strlen(v) > 63)
		pcv_invalid_str(o, path, v, "must be no more than 63 characters");
	size_t n = strlen(v);
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		char c = v[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		if (!alnum && ((i == 0 || i == n - 1) || (c != '-' && c != '_' && c != '.')))
			ok = false;
	}
	if (!ok)
		pcv_invalid_str(o, path, v, MSG_LABEL_VALUE);
}

static void check_toleration(pcv_obj *o, const cJSON *t, const char *path)
{
	char p[PCV_PATH_MAX];
	const char *key = str_or_empty(t, "key"), *op = str_or_empty(t, "operator");
	const char *value = str_or_empty(t, "value"), *effect = str_or_empty(t, "effect");
	if (*key) {
		pcv_path(p, "%s.key", path);
		pcv_check_label_key(o, p, key);
	}
	pcv_path(p, "%s.value", path);
	if (strcmp(op, "Exists") == 0) {
		if (*value)
			pcv_invalid_str(o, p, value, "must be empty for operator `Exists`");
	} else if (!*op || strcmp(op, "Equal") == 0) {
		check_label_value(o, p, value);
	} else {
		pcv_path(p, "%s.operator", path);
		pcv_not_supported(o, p, op, "\"Equal\", \"Exists\"");
	}
	if (*effect && strcmp(effect, "NoSchedule") != 0 && strcmp(effect, "NoExecute") != 0 &&
	    strcmp(effect, "None") != 0) {
		pcv_path(p, "%s.effect", path);
		pcv_not_supported(o, p, effect, "\"NoExecute\", \"NoSchedule\", \"None\"");
	}
}

/* What an ExactDeviceRequest and a DeviceSubRequest share. */
static void check_device_request_body(pcv_obj *o, const cJSON *r, const char *path)
{
	char p[PCV_PATH_MAX];
	const char *cls = str_or_empty(r, "deviceClassName");
	pcv_path(p, "%s.deviceClassName", path);
	if (!*cls)
		pcv_required(o, p, NULL);
	else
		pcv_check_subdomain(o, p, cls);
	pcv_path(p, "%s.selectors", path);
	check_selectors(o, pk_get(r, "selectors"), p);

	const char *mode = str_or_empty(r, "allocationMode");
	const cJSON *count = pk_get(r, "count");
	int64_t n = 0;
	bool has_count = present(count) && pk_num_int64(count, &n) && n != 0;
	pcv_path(p, "%s.count", path);
	if (strcmp(mode, "All") == 0) {
		if (has_count) {
			pcv_invalid(o, p, count, "must not be specified when allocationMode is 'All'");
		}
	} else if (!*mode || strcmp(mode, "ExactCount") == 0) {
		if (has_count && n < 0)
			pcv_invalid(o, p, count, "must be greater than zero");
	} else {
		pcv_path(p, "%s.allocationMode", path);
		pcv_not_supported(o, p, mode, "\"All\", \"ExactCount\"");
	}

	const cJSON *tols = pk_get(r, "tolerations");
	pcv_path(p, "%s.tolerations", path);
	if (!within_max(o, tols, DEVICE_TOLERATIONS_MAX, p))
		return;
	int i = 0;
	for (const cJSON *t = cJSON_IsArray(tols) ? tols->child : NULL; t; t = t->next, i++) {
		pcv_path(p, "%s.tolerations[%d]", path, i);
		check_toleration(o, t, p);
	}
}

static void check_request_name(pcv_obj *o, const char *path, const char *name)
{
	const char *msgs[2];
	int n = pcv_dns_label_errors(name, msgs);
	for (int i = 0; i < n; i++)
		pcv_invalid_str(o, path, name, msgs[i]);
}

static void check_request(pcv_obj *o, const cJSON *r, const char *path)
{
	char p[PCV_PATH_MAX];
	pcv_path(p, "%s.name", path);
	check_request_name(o, p, str_or_empty(r, "name"));
	const cJSON *exactly = pk_get(r, "exactly"), *fa = pk_get(r, "firstAvailable");
	bool has_exactly = present(exactly), has_fa = array_len(fa) > 0;
	if (!has_exactly && !has_fa) {
		pcv_required(o, path, "exactly one of `exactly` or `firstAvailable` is required");
	} else if (has_exactly && has_fa) {
		pcv_report(o, PK_SEV_ERROR, PCV_INVALID, path,
		           "Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple "
		           "fields are set");
	} else if (has_fa) {
		pcv_path(p, "%s.firstAvailable", path);
		if (!within_max(o, fa, FIRST_AVAILABLE_MAX, p))
			return;
		int i = 0;
		for (const cJSON *s = fa->child; s; s = s->next, i++) {
			char sp[PCV_PATH_MAX], np[PCV_PATH_MAX];
			pcv_path(sp, "%s.firstAvailable[%d]", path, i);
			pcv_path(np, "%s.name", sp);
			check_request_name(o, np, str_or_empty(s, "name"));
			check_device_request_body(o, s, sp);
		}
		check_unique(o, fa, "name", p);
	} else {
		pcv_path(p, "%s.exactly", path);
		check_device_request_body(o, exactly, p);
	}
}

/* ---- drop-disabled-fields ----
 * What the apiserver's strategy does before validation (pkg/api/
 * resourceclaimspec/util.go DropDisabledFields, in this order): a field of
 * a gate that is off is dropped, said as a warning, unless the stored
 * object (an update) already uses the feature somewhere in its spec. The
 * rules then see the spec without it, as the apiserver's do. */

typedef struct dra_use {
	bool prioritized_list, device_taints, admin_access, consumable_capacity, derived_attributes;
} dra_use;

#define EACH(list, it) for (cJSON *it = cJSON_IsArray(list) ? (list)->child : NULL; it; it = it->next)

/* The features a (stored) DeviceClaim uses: the *FeatureInUse functions. */
static dra_use features_in_use(const cJSON *dev)
{
	dra_use u = {0};
	const cJSON *requests = pk_get(dev, "requests"), *cons = pk_get(dev, "constraints");
	EACH(cons, c)
		u.consumable_capacity |= present(pk_get(c, "distinctAttribute"));
	EACH(requests, r) {
		const cJSON *exactly = pk_get(r, "exactly"), *fa = pk_get(r, "firstAvailable");
		u.prioritized_list |= array_len(fa) > 0;
		u.admin_access |= present(pk_get(exactly, "adminAccess"));
		u.device_taints |= array_len(pk_get(exactly, "tolerations")) > 0;
		u.consumable_capacity |= present(pk_get(exactly, "capacity"));
		u.derived_attributes |= present(pk_get(exactly, "derivedAttributes"));
		EACH(fa, sub) {
			u.device_taints |= array_len(pk_get(sub, "tolerations")) > 0;
			u.consumable_capacity |= present(pk_get(sub, "capacity"));
			u.derived_attributes |= present(pk_get(sub, "derivedAttributes"));
		}
	}
	return u;
}

/* One field of parent at path: kept when enabled, else said and removed.
 * An empty list is removed without a word (nothing is lost). */
static void drop_unless(pcv_obj *o, cJSON *parent, const char *key, const char *path, bool enabled, const char *gate)
{
	cJSON *v = cJSON_IsObject(parent) ? cJSON_GetObjectItemCaseSensitive(parent, key) : NULL;
	if (!v || enabled)
		return;
	if (!(cJSON_IsArray(v) && array_len(v) == 0))
		pcv_gated(o, parent, key, path, false, gate, PCV_GATE_DROPPED);
	cJSON_DeleteItemFromObjectCaseSensitive(parent, key);
}

/* The same field of every request's exactly and every subrequest. */
static void drop_in_bodies(pcv_obj *o, cJSON *requests, const char *path, const char *key, bool exact, bool subs,
                           bool enabled, const char *gate)
{
	char p[PCV_PATH_MAX];
	int i = 0;
	EACH(requests, r) {
		if (exact) {
			pcv_path(p, "%s[%d].exactly.%s", path, i, key);
			drop_unless(o, cJSON_GetObjectItemCaseSensitive(r, "exactly"), key, p,
			            enabled, gate);
		}
		int j = 0;
		cJSON *fa = subs && cJSON_IsObject(r) ? cJSON_GetObjectItemCaseSensitive(r, "firstAvailable") : NULL;
		EACH(fa, sub) {
			pcv_path(p, "%s[%d].firstAvailable[%d].%s", path, i, j++, key);
			drop_unless(o, sub, key, p, enabled, gate);
		}
		i++;
	}
}

/* dev: the DeviceClaim (a copy, edited); old: the stored one, or NULL. */
static void drop_disabled_fields(pcv_obj *o, cJSON *dev, const cJSON *old, const char *path)
{
	const pk_release_profile *rel = o->ctx->release;
	dra_use in_use = features_in_use(old);
	char p[PCV_PATH_MAX];
	cJSON *requests = cJSON_IsObject(dev) ? cJSON_GetObjectItemCaseSensitive(dev, "requests") : NULL;
	pcv_path(p, "%s.requests", path);
	int i = 0;
	EACH(requests, r) {
		char fp[PCV_PATH_MAX];
		pcv_path(fp, "%s[%d].firstAvailable", p, i++);
		drop_unless(o, r, "firstAvailable", fp, rel->dra_prioritized_list || in_use.prioritized_list,
		            "DRAPrioritizedList");
	}
	drop_in_bodies(o, requests, p, "tolerations", true, true, rel->dra_device_taints || in_use.device_taints,
	               "DRADeviceTaints");
	drop_in_bodies(o, requests, p, "adminAccess", true, false, rel->dra_admin_access || in_use.admin_access,
	               "DRAAdminAccess");
	bool capacity = rel->dra_consumable_capacity || in_use.consumable_capacity;
	cJSON *cons = cJSON_IsObject(dev) ? cJSON_GetObjectItemCaseSensitive(dev, "constraints") : NULL;
	i = 0;
	EACH(cons, c) {
		char cp[PCV_PATH_MAX];
		pcv_path(cp, "%s.constraints[%d].distinctAttribute", path, i++);
		drop_unless(o, c, "distinctAttribute", cp, capacity, "DRAConsumableCapacity");
	}
	drop_in_bodies(o, requests, p, "capacity", true, true, capacity, "DRAConsumableCapacity");
	/* not in the util.go read (1.36); the 1.37 field is taken to follow
	 * the same pattern */
	drop_in_bodies(o, requests, p, "derivedAttributes", true, true,
	               rel->dra_derived_attributes || in_use.derived_attributes, "DRADerivedAttributes");
}

/* requestNames.Has: "req", or "req/sub" of a request with firstAvailable.
 * Upstream gathers the names into a map, so of two requests of one name
 * the later one's subrequests count. */
static bool names_request(const cJSON *requests, const char *ref)
{
	const char *slash = strchr(ref, '/');
	size_t len = slash ? (size_t)(slash - ref) : strlen(ref);
	if (slash && strchr(slash + 1, '/'))
		return false;
	const cJSON *last = NULL;
	for (const cJSON *r = cJSON_IsArray(requests) ? requests->child : NULL; r; r = r->next) {
		const char *name = str_or_empty(r, "name");
		if (strlen(name) == len && strncmp(name, ref, len) == 0)
			last = r;
	}
	if (!last || !slash)
		return last != NULL;
	const cJSON *fa = pk_get(last, "firstAvailable");
	for (const cJSON *s = cJSON_IsArray(fa) ? fa->child : NULL; s; s = s->next)
		if (strcmp(str_or_empty(s, "name"), slash + 1) == 0)
			return true;
	return false;
}

/* validateRequestNameRef for each entry of a constraint's or config's
 * requests, which is a set of at most DEVICE_REQUESTS_MAX. */
static void check_request_refs(pcv_obj *o, const cJSON *refs, const cJSON *requests, const char *path)
{
	if (!within_max(o, refs, DEVICE_REQUESTS_MAX, path))
		return;
	int i = 0;
	for (const cJSON *r = cJSON_IsArray(refs) ? refs->child : NULL; r; r = r->next, i++) {
		char p[PCV_PATH_MAX];
		pcv_path(p, "%s[%d]", path, i);
		const char *ref = cJSON_IsString(r) ? r->valuestring : "";
		const char *slash = strchr(ref, '/');
		if (slash && strchr(slash + 1, '/')) {
			pcv_invalid_str(o, p, ref, MSG_REQUEST_REF);
			continue;
		}
		char seg[300];
		snprintf(seg, sizeof seg, "%.*s", (int)(slash ? slash - ref : (long)strlen(ref)), ref);
		check_request_name(o, p, seg);
		if (slash)
			check_request_name(o, p, slash + 1);
		if (!names_request(requests, ref))
			pcv_invalid_str(o, p, ref, MSG_REQUEST_REF);
	}
	check_unique(o, refs, NULL, path);
}

static void check_constraint(pcv_obj *o, const cJSON *c, const cJSON *requests, const char *path)
{
	char p[PCV_PATH_MAX];
	pcv_path(p, "%s.requests", path);
	check_request_refs(o, pk_get(c, "requests"), requests, p);
	const cJSON *match = pk_get(c, "matchAttribute"), *distinct = pk_get(c, "distinctAttribute");
	if (cJSON_IsString(match)) {
		pcv_path(p, "%s.matchAttribute", path);
		check_fully_qualified_name(o, p, match->valuestring);
	} else if (cJSON_IsString(distinct)) {
		pcv_path(p, "%s.distinctAttribute", path);
		check_fully_qualified_name(o, p, distinct->valuestring);
	} else {
		pcv_path(p, "%s.matchAttribute", path);
		pcv_required(o, p, NULL);
	}
}

/* validateRawExtension: a JSON object of at most 10 KiB. */
static void check_parameters(pcv_obj *o, const cJSON *params, const char *path)
{
	if (!present(params)) {
		pcv_required(o, path, NULL);
		return;
	}
	char *raw = cJSON_PrintUnformatted(params);
	size_t len = raw ? strlen(raw) : 0;
	free(raw);
	if (len > OPAQUE_PARAMETERS_MAX_LENGTH)
		pcv_report(o, PK_SEV_ERROR, PCV_TOO_LONG, path, "Too long: may not be more than %d bytes",
		           OPAQUE_PARAMETERS_MAX_LENGTH);
	else if (!cJSON_IsObject(params))
		pcv_report(o, PK_SEV_ERROR, PCV_INVALID, path, "Invalid value: \"<value omitted>\": must be a valid JSON object");
}

static void check_configuration(pcv_obj *o, const cJSON *cfg, const char *path)
{
	char p[PCV_PATH_MAX];
	const cJSON *opaque = pk_get(cfg, "opaque");
	pcv_path(p, "%s.opaque", path);
	if (!present(opaque)) {
		pcv_required(o, p, NULL);
		return;
	}
	pcv_path(p, "%s.opaque.driver", path);
	check_driver_name(o, p, str_or_empty(opaque, "driver"));
	pcv_path(p, "%s.opaque.parameters", path);
	check_parameters(o, pk_get(opaque, "parameters"), p);
}

/* validateDeviceClaim at path ("spec.devices", "spec.spec.devices"). */
static void check_device_claim(pcv_obj *o, const cJSON *dev, const char *path)
{
	char p[PCV_PATH_MAX];
	const cJSON *requests = pk_get(dev, "requests");
	pcv_path(p, "%s.requests", path);
	if (within_max(o, requests, DEVICE_REQUESTS_MAX, p)) {
		int i = 0;
		for (const cJSON *r = cJSON_IsArray(requests) ? requests->child : NULL; r; r = r->next, i++) {
			char rp[PCV_PATH_MAX];
			pcv_path(rp, "%s[%d]", p, i);
			check_request(o, r, rp);
		}
		check_unique(o, requests, "name", p);
	}
	const cJSON *cons = pk_get(dev, "constraints");
	pcv_path(p, "%s.constraints", path);
	if (within_max(o, cons, DEVICE_CONSTRAINTS_MAX, p)) {
		int i = 0;
		for (const cJSON *c = cJSON_IsArray(cons) ? cons->child : NULL; c; c = c->next, i++) {
			char cp[PCV_PATH_MAX];
			pcv_path(cp, "%s[%d]", p, i);
			check_constraint(o, c, requests, cp);
		}
	}
	const cJSON *cfg = pk_get(dev, "config");
	pcv_path(p, "%s.config", path);
	if (within_max(o, cfg, DEVICE_CONFIG_MAX, p)) {
		int i = 0;
		for (const cJSON *c = cJSON_IsArray(cfg) ? cfg->child : NULL; c; c = c->next, i++) {
			char cp[PCV_PATH_MAX], rp[PCV_PATH_MAX];
			pcv_path(cp, "%s[%d]", p, i);
			pcv_path(rp, "%s.requests", cp);
			check_request_refs(o, pk_get(c, "requests"), requests, rp);
			check_configuration(o, c, cp);
		}
	}
}

/* v1helper.IsExtendedResourceName: a name with a domain outside
 * kubernetes.io, not "requests."-prefixed, that is a qualified name once
 * prefixed with "requests.". */
static bool is_extended_resource_name(const char *name)
{
	if (!strchr(name, '/') || strstr(name, "kubernetes.io/") || strncmp(name, "requests.", 9) == 0)
		return false;
	char quota[400], msgs[3][400];
	snprintf(quota, sizeof quota, "requests.%s", name);
	return pcv_qualified_name_errors(quota, msgs) == 0;
}

/* The existing object's spec, when it is an update in the same version. */
static const cJSON *old_spec(const pcv_obj *o)
{
	if (!o->old || strcmp(pk_api_version(o->old), o->api_version) != 0)
		return NULL;
	const cJSON *s = pk_get(o->old, "spec");
	return s ? s : o->old;  /* an old object without spec: nothing equals it */
}

/* Equal as the apiserver's semantic DeepEqual sees two lists: both absent
 * or empty, or the same JSON. */
static bool same_list(const cJSON *a, const cJSON *b)
{
	if (array_len(a) == 0 && array_len(b) == 0)
		return true;
	return a && b && cJSON_Compare(a, b, true);
}

/* validateDeviceClassSpec: on an update, selectors or config exactly as
 * stored are not validated again (a limit introduced later does not
 * reject them). extendedResourceName is dropped first unless
 * DRAExtendedResource is on or the stored class has one (deviceclass/
 * strategy.go dropDisabledDRAExtendedResourceFields). */
static void rules_device_class(pcv_obj *o, const cJSON *spec)
{
	const cJSON *old = old_spec(o);
	pcv_check_meta(o, false);
	if (!old || !same_list(pk_get(spec, "selectors"), pk_get(old, "selectors")))
		check_selectors(o, pk_get(spec, "selectors"), "spec.selectors");
	const cJSON *cfg = pk_get(spec, "config");
	bool stored = old && same_list(cfg, pk_get(old, "config"));
	if (!stored && within_max(o, cfg, DEVICE_CONFIG_MAX, "spec.config")) {
		int i = 0;
		for (const cJSON *c = cJSON_IsArray(cfg) ? cfg->child : NULL; c; c = c->next, i++) {
			char p[PCV_PATH_MAX];
			pcv_path(p, "spec.config[%d]", i);
			check_configuration(o, c, p);
		}
	}
	const cJSON *ern = pcv_gated(o, spec, "extendedResourceName", "spec.extendedResourceName",
	                             o->ctx->release->dra_extended_resource || present(pk_get(old, "extendedResourceName")),
	                             "DRAExtendedResource", PCV_GATE_DROPPED);
	if (cJSON_IsString(ern) && !is_extended_resource_name(ern->valuestring))
		pcv_invalid(o, "spec.extendedResourceName", ern, "must be a valid extended resource name");
}

/* validatePoolName: not empty, at most 253 bytes, each "/"-separated
 * part a DNS subdomain. */
static void check_pool_name(pcv_obj *o, const char *path, const char *name)
{
	if (!*name) {
		pcv_required(o, path, NULL);
		return;
	}
	if (strlen(name) > POOL_NAME_MAX_LENGTH)
		pcv_report(o, PK_SEV_ERROR, PCV_TOO_LONG, path, "Too long: may not be more than %d bytes",
		           POOL_NAME_MAX_LENGTH);
	for (const char *part = name;; part = strchr(part, '/') + 1) {
		char one[300];
		snprintf(one, sizeof one, "%.*s", (int)strcspn(part, "/"), part);
		const char *msgs[2];
		int n = pcv_dns_subdomain_errors(one, msgs);
		for (int k = 0; k < n; k++)
			pcv_invalid_str(o, path, one, msgs[k]);
		if (!strchr(part, '/'))
			break;
	}
}

/* ValidateDeviceTaintRule(Update): the selector's driver, pool and device
 * (validateDeviceTaintSelector; deviceClassName and selectors went in
 * 1.35, unknown fields to the schema), and validateDeviceTaint: key a
 * label name, value a label value, effect required and one of NoExecute,
 * NoSchedule and None, unless an update keeps the stored one. */
static void rules_device_taint_rule(pcv_obj *o, const cJSON *spec)
{
	pcv_check_meta(o, false);
	const cJSON *sel = pk_get(spec, "deviceSelector");
	const char *v;
	if ((v = pk_str(sel, "driver")))
		check_driver_name(o, "spec.deviceSelector.driver", v);
	if ((v = pk_str(sel, "pool")))
		check_pool_name(o, "spec.deviceSelector.pool", v);
	if ((v = pk_str(sel, "device")))
		pcv_check_label(o, "spec.deviceSelector.device", v);
	const cJSON *taint = pk_get(spec, "taint");
	const char *key = str_or_empty(taint, "key"), *value = str_or_empty(taint, "value");
	const char *effect = str_or_empty(taint, "effect");
	pcv_check_label_key(o, "spec.taint.key", key); /* ValidateLabelName: an empty key too */
	if (*value)
		check_label_value(o, "spec.taint.value", value);
	const cJSON *old = old_spec(o);
	if (old && strcmp(str_or_empty(pk_get(old, "taint"), "effect"), effect) == 0)
		return;
	if (!*effect)
		pcv_required(o, "spec.taint.effect", NULL);
	else if (strcmp(effect, "NoExecute") != 0 && strcmp(effect, "NoSchedule") != 0 && strcmp(effect, "None") != 0)
		pcv_not_supported(o, "spec.taint.effect", effect, "\"NoExecute\", \"NoSchedule\", \"None\"");
}

void pcv_rules_dra(pcv_obj *o)
{
	const cJSON *spec = pk_get(o->root, "spec");
	if (strcmp(o->kind, "DeviceClass") == 0) {
		rules_device_class(o, spec);
		return;
	}
	if (strcmp(o->kind, "DeviceTaintRule") == 0) {
		rules_device_taint_rule(o, spec);
		return;
	}
	pcv_check_meta(o, true);
	bool claim = strcmp(o->kind, "ResourceClaim") == 0;
	const char *dev_path = claim ? "spec.devices" : "spec.spec.devices";
	const cJSON *old = old_spec(o);
	/* the spec the rules see: without the fields of gates that are off */
	cJSON *mine = spec ? cJSON_Duplicate(spec, true) : NULL;
	cJSON *dev = claim ? cJSON_GetObjectItemCaseSensitive(mine, "devices")
	                   : cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(mine, "spec"), "devices");
	const cJSON *old_dev = !old ? NULL : claim ? pk_get(old, "devices") : pk_getp(old, "spec.devices");
	drop_disabled_fields(o, dev, old_dev, dev_path);
	/* A claim's and a template's spec are immutable: an update is checked
	 * for that alone (ValidateResourceClaimUpdate, ...TemplateUpdate). */
	if (old) {
		if (!cJSON_Compare(mine ? mine : old, old, true))
			pcv_set_rule(pcv_invalid(o, "spec", spec, "field is immutable"), "spec", "immutable");
	} else {
		if (!claim)
			pcv_check_template_meta(o, "spec.metadata");
		check_device_claim(o, dev, dev_path);
	}
	cJSON_Delete(mine);
}

void pcv_dra_note(pcv_ctx *c)
{
	if (!c->cel_compiled)
		return;
	pk_diag_report(&c->cli->diag, PK_SEV_NOTE, NULL,
	               "the static cost limit of CEL selectors (%d) is not checked: the apiserver rejects a selector "
	               "whose estimated cost is over it (\"too complex, exceeds cost limit\"); its cost estimator "
	               "is not modelled",
	               1000000);
}
