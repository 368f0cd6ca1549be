/* Output formats: text (file:line:col: kind/name: field: message), NDJSON
 * Diagnostic records, JUnit XML and SARIF 2.1.0. */
#include "pcv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL_URI "https://github.com/preemptkit/preemptkit"

static const char *sev_name(pk_severity s)
{
	return s == PK_SEV_ERROR ? "error" : s == PK_SEV_WARNING ? "warning" : "note";
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static const char *file_of(const pcv_ctx *c, const pcv_finding *d)
{
	return d->file >= 0 && (size_t)d->file < c->findings.nfiles ? c->findings.files[d->file] : "-";
}

static void format_where(const pcv_ctx *c, const pcv_finding *d, char *buf, size_t size)
{
	if (d->line > 0 && d->col > 0)
		snprintf(buf, size, "%s:%ld:%ld", file_of(c, d), d->line, d->col);
	else if (d->line > 0)
		snprintf(buf, size, "%s:%ld", file_of(c, d), d->line);
	else
		snprintf(buf, size, "%s", file_of(c, d));
}

/* SGR sequences for --color: location bold, errors red, warnings yellow. */
static void output_text(const pcv_ctx *c, pk_out *out)
{
	bool color = pk_cli_use_color(c->cli, 1);
	const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
	for (size_t i = 0; i < c->findings.n; i++) {
		const pcv_finding *d = &c->findings.v[i];
		char where[1200];
		format_where(c, d, where, sizeof where);
		const char *tint = !color ? "" : d->sev == PK_SEV_WARNING ? "\033[33m" : "\033[31m";
		pk_out_printf(out, "%s%s%s: %s/%s: %s: %s%s%s%s\n", bold, where, reset, or_dash(d->obj.kind),
		              or_dash(d->obj.name), d->field, tint, d->sev == PK_SEV_WARNING ? "warning: " : "",
		              d->message, reset);
	}
}

static cJSON *diagnostic_json(const pcv_ctx *c, const pcv_finding *d)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "file", file_of(c, d));
	cJSON_AddNumberToObject(j, "line", (double)d->line);
	cJSON_AddNumberToObject(j, "column", (double)d->col);
	cJSON_AddStringToObject(j, "severity", sev_name(d->sev));
	cJSON *obj = cJSON_AddObjectToObject(j, "object");
	cJSON_AddStringToObject(obj, "apiVersion", d->obj.api_version ? d->obj.api_version : "");
	cJSON_AddStringToObject(obj, "kind", d->obj.kind ? d->obj.kind : "");
	cJSON_AddStringToObject(obj, "namespace", d->obj.ns ? d->obj.ns : "");
	cJSON_AddStringToObject(obj, "name", d->obj.name ? d->obj.name : "");
	cJSON_AddStringToObject(j, "field", d->field);
	cJSON_AddStringToObject(j, "type", pcv_type_name(d->type));
	cJSON_AddStringToObject(j, "message", d->message);
	return j;
}

static void output_json(const pcv_ctx *c, pk_out *out)
{
	for (size_t i = 0; i < c->findings.n; i++) {
		cJSON *j = diagnostic_json(c, &c->findings.v[i]);
		pk_out_json(out, j);
		cJSON_Delete(j);
	}
}

static void xml_escaped(pk_out *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': pk_out_printf(out, "&lt;"); break;
		case '>': pk_out_printf(out, "&gt;"); break;
		case '&': pk_out_printf(out, "&amp;"); break;
		case '"': pk_out_printf(out, "&quot;"); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				pk_out_printf(out, "?");
			else
				pk_out_printf(out, "%c", *s);
		}
	}
}

/* One testcase per input file; each error finding is a failure in it. */
static void output_junit(const pcv_ctx *c, pk_out *out)
{
	size_t nfiles = c->findings.nfiles, failures = 0;
	size_t *per_file = calloc(nfiles ? nfiles : 1, sizeof *per_file);
	for (size_t i = 0; i < c->findings.n; i++) {
		const pcv_finding *d = &c->findings.v[i];
		if (d->sev != PK_SEV_ERROR && !c->strict)
			continue;
		if (per_file && d->file >= 0 && (size_t)d->file < nfiles && per_file[d->file]++ == 0)
			failures++;
	}
	pk_out_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	pk_out_printf(out, "<testsuites name=\"pc-validate\" tests=\"%zu\" failures=\"%zu\">\n", nfiles, failures);
	pk_out_printf(out, "  <testsuite name=\"pc-validate\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", nfiles,
	              failures);
	for (size_t f = 0; f < nfiles; f++) {
		pk_out_printf(out, "    <testcase classname=\"pc-validate\" name=\"");
		xml_escaped(out, c->findings.files[f]);
		pk_out_printf(out, "\"");
		if (!per_file || !per_file[f]) {
			pk_out_printf(out, "/>\n");
			continue;
		}
		pk_out_printf(out, ">\n");
		for (size_t i = 0; i < c->findings.n; i++) {
			const pcv_finding *d = &c->findings.v[i];
			if ((size_t)d->file != f || (d->sev != PK_SEV_ERROR && !c->strict))
				continue;
			char where[1200];
			format_where(c, d, where, sizeof where);
			pk_out_printf(out, "      <failure type=\"%s\" message=\"", pcv_type_name(d->type));
			xml_escaped(out, d->message);
			pk_out_printf(out, "\">");
			xml_escaped(out, where);
			pk_out_printf(out, ": %s/%s: ", or_dash(d->obj.kind), or_dash(d->obj.name));
			xml_escaped(out, d->field);
			pk_out_printf(out, ": ");
			xml_escaped(out, d->message);
			pk_out_printf(out, "</failure>\n");
		}
		pk_out_printf(out, "    </testcase>\n");
	}
	pk_out_printf(out, "  </testsuite>\n</testsuites>\n");
	free(per_file);
}

static cJSON *sarif_rules(void)
{
	static const char *const help[PCV_NTYPES] = {
		[PCV_REQUIRED] = "A required field is missing.",
		[PCV_INVALID] = "A field has an invalid value.",
		[PCV_NOT_SUPPORTED] = "A field has a value outside its enumeration.",
		[PCV_FORBIDDEN] = "The apiserver forbids this field or value (validation or admission).",
		[PCV_DUPLICATE] = "A list item or name is repeated.",
		[PCV_TOO_LONG] = "A value is too long.",
		[PCV_TOO_MANY] = "A list has too many items.",
		[PCV_PARSE_ERROR] = "The document cannot be parsed.",
		[PCV_TYPE_ERROR] = "A field has the wrong JSON type or is out of range.",
		[PCV_UNKNOWN_FIELD] = "A field the API does not define (strict field validation).",
		[PCV_DUPLICATE_FIELD] = "A key appears twice in one mapping (strict field validation).",
		[PCV_MISSING_KIND] = "The object has no kind or apiVersion.",
		[PCV_UNKNOWN_KIND] = "The kind is not served in that apiVersion.",
	};
	cJSON *rules = cJSON_CreateArray();
	for (int t = 0; t < PCV_NTYPES; t++) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "id", pcv_type_name((pcv_type)t));
		cJSON_AddStringToObject(r, "name", pcv_type_name((pcv_type)t));
		cJSON *sd = cJSON_AddObjectToObject(r, "shortDescription");
		cJSON_AddStringToObject(sd, "text", help[t]);
		cJSON_AddItemToArray(rules, r);
	}
	return rules;
}

static cJSON *sarif_result(const pcv_ctx *c, const pcv_finding *d)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "ruleId", pcv_type_name(d->type));
	cJSON_AddNumberToObject(r, "ruleIndex", (double)d->type);
	cJSON_AddStringToObject(r, "level", sev_name(d->sev));
	char text[3000];
	snprintf(text, sizeof text, "%s/%s: %s: %s", or_dash(d->obj.kind), or_dash(d->obj.name), d->field, d->message);
	cJSON *msg = cJSON_AddObjectToObject(r, "message");
	cJSON_AddStringToObject(msg, "text", text);
	cJSON *locs = cJSON_AddArrayToObject(r, "locations");
	cJSON *loc = cJSON_CreateObject();
	cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
	cJSON *art = cJSON_AddObjectToObject(phys, "artifactLocation");
	const char *file = file_of(c, d);
	cJSON_AddStringToObject(art, "uri", strncmp(file, "./", 2) == 0 ? file + 2 : file);
	cJSON *region = cJSON_AddObjectToObject(phys, "region");
	/* code scanning requires a start line */
	cJSON_AddNumberToObject(region, "startLine", d->line > 0 ? (double)d->line : 1);
	if (d->col > 0)
		cJSON_AddNumberToObject(region, "startColumn", (double)d->col);
	cJSON_AddItemToArray(locs, loc);
	return r;
}

static void output_sarif(const pcv_ctx *c, pk_out *out)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	cJSON_AddStringToObject(root, "version", "2.1.0");
	cJSON *runs = cJSON_AddArrayToObject(root, "runs");
	cJSON *run = cJSON_CreateObject();
	cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
	cJSON_AddStringToObject(driver, "name", "pc-validate");
	cJSON_AddStringToObject(driver, "version", PK_VERSION);
	cJSON_AddStringToObject(driver, "informationUri", TOOL_URI);
	cJSON_AddItemToObject(driver, "rules", sarif_rules());
	cJSON *results = cJSON_AddArrayToObject(run, "results");
	for (size_t i = 0; i < c->findings.n; i++)
		cJSON_AddItemToArray(results, sarif_result(c, &c->findings.v[i]));
	cJSON_AddItemToArray(runs, run);
	char *s = cJSON_Print(root);
	if (s)
		pk_out_printf(out, "%s\n", s);
	free(s);
	cJSON_Delete(root);
}

int pcv_output(pcv_ctx *c, pk_out *out)
{
	switch (c->cli->format) {
	case PK_FMT_JSON:
		output_json(c, out);
		break;
	case PK_FMT_JUNIT:
		output_junit(c, out);
		break;
	case PK_FMT_SARIF:
		output_sarif(c, out);
		break;
	default:
		output_text(c, out);
		break;
	}
	if (c->summary) {
		size_t errors = 0, warnings = 0;
		for (size_t i = 0; i < c->findings.n; i++) {
			if (c->findings.v[i].sev == PK_SEV_ERROR)
				errors++;
			else
				warnings++;
		}
		fprintf(stderr, "pc-validate: %ld objects checked in %zu files: %zu errors, %zu warnings\n",
		        c->objects_checked, c->findings.nfiles, errors, warnings);
	}
	return 0;
}
