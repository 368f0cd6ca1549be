/* Findings: collection, the apiserver's error wording, sorting. */
#include "pcv.h"
#include "k8s/gates.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[PCV_NTYPES] = {
	[PCV_REQUIRED] = "Required",
	[PCV_INVALID] = "Invalid",
	[PCV_NOT_SUPPORTED] = "NotSupported",
	[PCV_FORBIDDEN] = "Forbidden",
	[PCV_DUPLICATE] = "Duplicate",
	[PCV_TOO_LONG] = "TooLong",
	[PCV_TOO_MANY] = "TooMany",
	[PCV_PARSE_ERROR] = "ParseError",
	[PCV_TYPE_ERROR] = "TypeError",
	[PCV_UNKNOWN_FIELD] = "UnknownField",
	[PCV_DUPLICATE_FIELD] = "DuplicateField",
	[PCV_MISSING_KIND] = "MissingKind",
	[PCV_UNKNOWN_KIND] = "UnknownKind",
};

const char *pcv_type_name(pcv_type t)
{
	return t < PCV_NTYPES ? type_names[t] : "Invalid";
}

static char *dup_or_null(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

void pcv_ident_set(pcv_ident *id, const char *api_version, const char *kind, const char *ns, const char *name)
{
	id->api_version = dup_or_null(api_version);
	id->kind = dup_or_null(kind);
	id->ns = dup_or_null(ns);
	id->name = dup_or_null(name);
}

void pcv_ident_free(pcv_ident *id)
{
	free(id->api_version);
	free(id->kind);
	free(id->ns);
	free(id->name);
	memset(id, 0, sizeof *id);
}

void pcv_findings_init(pcv_findings *f)
{
	memset(f, 0, sizeof *f);
}

void pcv_findings_free(pcv_findings *f)
{
	for (size_t i = 0; i < f->n; i++) {
		pcv_ident_free(&f->v[i].obj);
		free(f->v[i].field);
		free(f->v[i].message);
	}
	free(f->v);
	for (size_t i = 0; i < f->nfiles; i++)
		free(f->files[i]);
	free(f->files);
	pcv_strmap_free(&f->file_index, NULL);
	pcv_findings_init(f);
}

/* Records of one file arrive together: the last entry is checked first,
 * then the hash map, so interning stays linear for 10,000 files. */
int pcv_intern_file(pcv_findings *f, const char *file)
{
	if (!file)
		file = "-";
	if (f->nfiles && strcmp(f->files[f->nfiles - 1], file) == 0)
		return (int)f->nfiles - 1;
	intptr_t known = (intptr_t)pcv_strmap_get(&f->file_index, file);
	if (known)
		return (int)known - 1;
	if (f->nfiles == f->capfiles) {
		size_t ncap = f->capfiles ? f->capfiles * 2 : 16;
		char **nv = realloc(f->files, ncap * sizeof *nv);
		if (!nv)
			return 0;
		f->files = nv;
		f->capfiles = ncap;
	}
	f->files[f->nfiles] = strdup(file);
	if (!f->files[f->nfiles])
		return 0;
	pcv_strmap_put(&f->file_index, file, (void *)(intptr_t)(f->nfiles + 1));
	return (int)f->nfiles++;
}

pcv_finding *pcv_add_finding(pcv_findings *f, int file, long line, long col, pk_severity sev,
                             const pcv_ident *obj, const char *field, pcv_type type, const char *message)
{
	if (f->n == f->cap) {
		size_t ncap = f->cap ? f->cap * 2 : 64;
		pcv_finding *nv = realloc(f->v, ncap * sizeof *nv);
		if (!nv)
			return NULL;
		f->v = nv;
		f->cap = ncap;
	}
	pcv_finding *d = &f->v[f->n++];
	memset(d, 0, sizeof *d);
	d->file = file;
	d->line = line;
	d->col = col;
	d->seq = f->seq++;
	d->sev = sev;
	if (obj)
		pcv_ident_set(&d->obj, obj->api_version, obj->kind, obj->ns, obj->name);
	d->field = strdup(field && *field ? field : "-");
	d->type = type;
	d->message = strdup(message ? message : "");
	return d;
}

static int cmp_finding(const void *a, const void *b)
{
	const pcv_finding *x = a, *y = b;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void pcv_findings_sort(pcv_findings *f)
{
	if (f->n > 1)
		qsort(f->v, f->n, sizeof *f->v, cmp_finding);
}

size_t pcv_count_errors(const pcv_findings *f, bool strict)
{
	size_t n = 0;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].sev == PK_SEV_ERROR || (strict && f->v[i].sev == PK_SEV_WARNING))
			n++;
	return n;
}

void pcv_path(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, PCV_PATH_MAX, fmt, ap);
	va_end(ap);
}

void pcv_report(pcv_obj *o, pk_severity sev, pcv_type type, const char *field, const char *fmt, ...)
{
	char msg[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);

	pk_origin at = o->rec->origin;
	if (field && strcmp(field, "-") != 0 && o->rec->obj)
		at = pk_record_path_origin(o->rec, field);
	pcv_ident id = {
		(char *)o->api_version, (char *)o->kind, (char *)o->ns, (char *)o->name,
	};
	pcv_add_finding(&o->ctx->findings, o->file, at.line, at.col, sev, &id, field, type, msg);
}

void pcv_format_value(const cJSON *v, char *buf, size_t size)
{
	if (!v || cJSON_IsNull(v)) {
		snprintf(buf, size, "null");
	} else if (cJSON_IsString(v)) {
		snprintf(buf, size, "\"%s\"", v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		if (d == floor(d) && fabs(d) < 9.3e18)
			snprintf(buf, size, "%" PRId64, (int64_t)d);
		else
			snprintf(buf, size, "%g", d);
	} else if (cJSON_IsBool(v)) {
		snprintf(buf, size, "%s", cJSON_IsTrue(v) ? "true" : "false");
	} else {
		char *s = cJSON_PrintUnformatted(v);
		snprintf(buf, size, "%s", s ? s : "{}");
		if (s && strlen(s) >= size && size > 4)
			memcpy(buf + size - 4, "...", 4);
		free(s);
	}
}

void pcv_required(pcv_obj *o, const char *field, const char *detail)
{
	if (detail && *detail)
		pcv_report(o, PK_SEV_ERROR, PCV_REQUIRED, field, "Required value: %s", detail);
	else
		pcv_report(o, PK_SEV_ERROR, PCV_REQUIRED, field, "Required value");
}

void pcv_invalid(pcv_obj *o, const char *field, const cJSON *value, const char *detail)
{
	char v[1100];
	pcv_format_value(value, v, sizeof v);
	if (detail && *detail)
		pcv_report(o, PK_SEV_ERROR, PCV_INVALID, field, "Invalid value: %s: %s", v, detail);
	else
		pcv_report(o, PK_SEV_ERROR, PCV_INVALID, field, "Invalid value: %s", v);
}

void pcv_invalid_str(pcv_obj *o, const char *field, const char *value, const char *detail)
{
	cJSON *s = cJSON_CreateString(value ? value : "");
	pcv_invalid(o, field, s, detail);
	cJSON_Delete(s);
}

void pcv_forbidden(pcv_obj *o, const char *field, const char *detail)
{
	if (detail && *detail)
		pcv_report(o, PK_SEV_ERROR, PCV_FORBIDDEN, field, "Forbidden: %s", detail);
	else
		pcv_report(o, PK_SEV_ERROR, PCV_FORBIDDEN, field, "Forbidden");
}

void pcv_not_supported(pcv_obj *o, const char *field, const char *value, const char *supported)
{
	pcv_report(o, PK_SEV_ERROR, PCV_NOT_SUPPORTED, field, "Unsupported value: \"%s\": supported values: %s",
	           value, supported);
}

void pcv_duplicate(pcv_obj *o, const char *field, const cJSON *value)
{
	char v[256];
	pcv_format_value(value, v, sizeof v);
	pcv_report(o, PK_SEV_ERROR, PCV_DUPLICATE, field, "Duplicate value: %s", v);
}

void pcv_too_many(pcv_obj *o, const char *field, int n, int max)
{
	pcv_report(o, PK_SEV_ERROR, PCV_TOO_MANY, field, "Too many: %d: must have at most %d items", n, max);
}

const cJSON *pcv_gated(pcv_obj *o, const cJSON *parent, const char *key, const char *path,
                       bool enabled, const char *gate)
{
	const cJSON *v = pk_get(parent, key);
	if (!v || cJSON_IsNull(v) || enabled)
		return v;
	/* Validation says Forbidden; the strategy drops the field on create
	 * before validating, so a live apply succeeds without it. */
	pcv_report(o, PK_SEV_WARNING, PCV_FORBIDDEN, path,
	           "Forbidden: feature gate %s is disabled: the apiserver drops this field", gate);
	return NULL;
}

/* ---- feature gates ---- */

void pcv_gates_from(pcv_gates *g, const pk_feature_gates *fg)
{
	g->generic_workload = pk_gate_on(fg, PK_GATE_GENERIC_WORKLOAD);
	g->topology = pk_gate_on(fg, PK_GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING);
	g->dra_claims = pk_gate_on(fg, PK_GATE_DRA_WORKLOAD_RESOURCE_CLAIMS);
	g->workload_preemption = pk_gate_on(fg, PK_GATE_WORKLOAD_AWARE_PREEMPTION);
	g->pg_preemption_policy = pk_gate_on(fg, PK_GATE_POD_GROUP_PREEMPTION_POLICY);
	g->composite = pk_gate_on(fg, PK_GATE_COMPOSITE_POD_GROUP);
}
