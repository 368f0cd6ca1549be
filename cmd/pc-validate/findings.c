/* Findings: collection, the apiserver's error wording, sorting. */
#include "pcv.h"
#include "k8s/gates.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* Each type's name in records, and the last part of the rule ids of its
 * findings (the apiserver's error types in camel case). */
static const struct {
	const char *name, *rule;
} types[PCV_NTYPES] = {
	[PCV_REQUIRED] = {"Required", "required"},
	[PCV_INVALID] = {"Invalid", "invalid"},
	[PCV_NOT_SUPPORTED] = {"NotSupported", "notSupported"},
	[PCV_FORBIDDEN] = {"Forbidden", "forbidden"},
	[PCV_DUPLICATE] = {"Duplicate", "duplicate"},
	[PCV_TOO_LONG] = {"TooLong", "tooLong"},
	[PCV_TOO_MANY] = {"TooMany", "tooMany"},
	[PCV_PARSE_ERROR] = {"ParseError", "parse"},
	[PCV_TYPE_ERROR] = {"TypeError", "type"},
	[PCV_UNKNOWN_FIELD] = {"UnknownField", "unknownField"},
	[PCV_DUPLICATE_FIELD] = {"DuplicateField", "duplicateField"},
	[PCV_MISSING_KIND] = {"MissingKind", "missingKind"},
	[PCV_UNKNOWN_KIND] = {"UnknownKind", "unknownKind"},
	[PCV_DUPLICATE_DEFINITION] = {"DuplicateDefinition", "duplicateDefinition"},
	[PCV_NOT_CHECKED] = {"NotChecked", "notChecked"},
};

const char *pcv_type_name(pcv_type t)
{
	return t < PCV_NTYPES ? types[t].name : "Invalid";
}

const char *pcv_rule_name(pcv_type t)
{
	return t < PCV_NTYPES ? types[t].rule : "invalid";
}

static char *dup_or_null(const char *s)
{
	return s && *s ? pk_xstrdup(s) : NULL;
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
	f->files = pk_strtab_new();
}

static void finding_free(pcv_finding *d)
{
	pcv_ident_free(&d->obj);
	free(d->field);
	free(d->rule);
	free(d->message);
	free(d->related.file);
}

void pcv_findings_free(pcv_findings *f)
{
	for (size_t i = 0; i < f->n; i++)
		finding_free(&f->v[i]);
	finding_free(&f->left_out);
	free(f->v);
	pk_strtab_free(f->files);
	pk_diag_cap_free(&f->cap);
	memset(f, 0, sizeof *f);
}

int pcv_intern_file(pcv_findings *f, const char *file)
{
	return (int)pk_intern_id(f->files, file ? file : "-");
}

pcv_finding *pcv_add_finding(pcv_findings *f, int file, long line, long col, pk_severity sev,
                             const pcv_ident *obj, const char *field, pcv_type type, const char *message)
{
	pcv_finding *d;
	if (pk_diag_cap_take(&f->cap, pk_strtab_str(f->files, (uint32_t)file), sev)) {
		f->v = pk_grow(f->v, &f->cap_v, f->n + 1, sizeof *f->v);
		d = &f->v[f->n++];
	} else {
		/* over --max-findings: counted, built for the caller to
		 * finish, and not kept */
		d = &f->left_out;
		finding_free(d);
	}
	memset(d, 0, sizeof *d);
	d->file = file;
	d->line = line;
	d->col = col;
	d->seq = f->seq++;
	d->sev = sev;
	if (obj)
		pcv_ident_set(&d->obj, obj->api_version, obj->kind, obj->ns, obj->name);
	d->field = field && *field ? pk_xstrdup(field) : NULL;
	d->type = type;
	d->message = pk_xstrdup(message ? message : "");
	return d;
}

void pcv_strip_indices(const char *in, char *out, size_t size)
{
	size_t j = 0;
	for (size_t i = 0; in[i] && j + 1 < size; i++) {
		if (in[i] == '[') {
			i += strcspn(in + i, "]");
			if (!in[i])
				break;
			continue;
		}
		out[j++] = in[i];
	}
	out[j] = '\0';
}

/* "<Kind>.<field without indices>.<name>"; "manifest" when the kind is unknown. */
static void compose_rule(const char *kind, const char *field, const char *name, char *buf, size_t size)
{
	char path[PCV_PATH_MAX];
	pcv_strip_indices(field ? field : "", path, sizeof path);
	snprintf(buf, size, "%s%s%s.%s", kind ? kind : "manifest", *path ? "." : "", path, name);
}

void pcv_set_rule(pcv_finding *d, const char *field, const char *name)
{
	if (!d)
		return;
	char id[PCV_PATH_MAX + 160];
	compose_rule(d->obj.kind, field, name, id, sizeof id);
	free(d->rule);
	d->rule = pk_xstrdup(id);
}

void pcv_set_related(pcv_finding *d, const char *file, long line, long col, const char *what)
{
	if (!d)
		return;
	free(d->related.file);
	d->related = (pcv_place){ file ? pk_xstrdup(file) : NULL, line, col, what };
}

void pcv_rule_of(const pcv_finding *d, char *buf, size_t size)
{
	if (d->rule)
		snprintf(buf, size, "%s", d->rule);
	else
		compose_rule(d->obj.kind, d->field, pcv_rule_name(d->type), buf, size);
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
	size_t n = (size_t)(f->cap.left_errors + (strict ? f->cap.left_warnings : 0));
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

pcv_finding *pcv_report(pcv_obj *o, pk_severity sev, pcv_type type, const char *field, const char *fmt, ...)
{
	char msg[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);

	pk_origin at = o->rec->origin;
	if (field && o->rec->obj)
		at = pk_record_path_origin(o->rec, field);
	pcv_ident id = {
		(char *)o->api_version, (char *)o->kind, (char *)o->ns, (char *)o->name,
	};
	return pcv_add_finding(&o->ctx->findings, o->file, at.line, at.col, sev, &id, field, type, msg);
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

pcv_finding *pcv_required(pcv_obj *o, const char *field, const char *detail)
{
	if (detail && *detail)
		return pcv_report(o, PK_SEV_ERROR, PCV_REQUIRED, field, "Required value: %s", detail);
	return pcv_report(o, PK_SEV_ERROR, PCV_REQUIRED, field, "Required value");
}

pcv_finding *pcv_invalid(pcv_obj *o, const char *field, const cJSON *value, const char *detail)
{
	char v[1100];
	pcv_format_value(value, v, sizeof v);
	if (detail && *detail)
		return pcv_report(o, PK_SEV_ERROR, PCV_INVALID, field, "Invalid value: %s: %s", v, detail);
	return pcv_report(o, PK_SEV_ERROR, PCV_INVALID, field, "Invalid value: %s", v);
}

pcv_finding *pcv_invalid_str(pcv_obj *o, const char *field, const char *value, const char *detail)
{
	cJSON *s = cJSON_CreateString(value ? value : "");
	pcv_finding *d = pcv_invalid(o, field, s, detail);
	cJSON_Delete(s);
	return d;
}

pcv_finding *pcv_forbidden(pcv_obj *o, const char *field, const char *detail)
{
	if (detail && *detail)
		return pcv_report(o, PK_SEV_ERROR, PCV_FORBIDDEN, field, "Forbidden: %s", detail);
	return pcv_report(o, PK_SEV_ERROR, PCV_FORBIDDEN, field, "Forbidden");
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

const cJSON *pcv_gated(pcv_obj *o, const cJSON *parent, const char *key, const char *path, bool enabled,
                       const char *gate, pcv_gate_verdict verdict)
{
	const cJSON *v = pk_get(parent, key);
	if (!v || cJSON_IsNull(v) || enabled)
		return v;
	pcv_finding *d;
	/* a gate the release answered for does not have is off there */
	char why[160];
	int minor = o->ctx->cli->engine.release.minor;
	pk_gate_id id = pk_gate_lookup(gate);
	if (id != PK_NGATES && !pk_gate_at(id, minor)->exists)
		snprintf(why, sizeof why, "feature gate %s does not exist in Kubernetes 1.%d", gate, minor);
	else
		snprintf(why, sizeof why, "feature gate %s is disabled", gate);
	if (verdict == PCV_GATE_FORBIDDEN) {
		/* declarative validation: +k8s:ifDisabled(gate)=+k8s:forbidden */
		d = pcv_report(o, PK_SEV_ERROR, PCV_FORBIDDEN, path, "Forbidden (%s)", why);
	} else {
		/* the strategy drops the field before validation runs: a live
		 * create succeeds without it */
		d = pcv_report(o, PK_SEV_WARNING, PCV_FORBIDDEN, path, "%s: the apiserver drops this field on create", why);
		pcv_set_rule(d, path, "droppedOnCreate");
	}
	return NULL;
}

