/* Output formats: text (file:line:col: kind/name: field: message), NDJSON
 * Diagnostic records, a kubectl-like table, JUnit XML and SARIF 2.1.0.
 * What does not apply is left out (text) or null (JSON), never a dash. */
#include "pcv.h"
#include "io/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define TOOL_URI "https://github.com/preemptkit/preemptkit"
#define RULE_MAX (PCV_PATH_MAX + 160)

static const char *sev_name(pk_severity s)
{
	return s == PK_SEV_ERROR ? "error" : s == PK_SEV_WARNING ? "warning" : "note";
}

static const char *file_of(const pcv_ctx *c, const pcv_finding *d)
{
	return d->file >= 0 && (size_t)d->file < pk_strtab_count(c->findings.files)
	       ? pk_strtab_str(c->findings.files, (uint32_t)d->file) : "-";
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

/* "Kind/name: field: " with the parts that apply; "" when none does. */
static void format_subject(const pcv_finding *d, char *buf, size_t size)
{
	const char *kind = d->obj.kind, *name = d->obj.name;
	size_t n = 0;
	buf[0] = '\0';
	if (kind && name)
		n = (size_t)snprintf(buf, size, "%s/%s: ", kind, name);
	else if (kind || name)
		n = (size_t)snprintf(buf, size, "%s: ", kind ? kind : name);
	if (d->field && n < size)
		snprintf(buf + n, size - n, "%s: ", d->field);
}

/* SGR sequences for --color: location bold, errors red, warnings yellow. */
static void output_text(const pcv_ctx *c, pk_out *out)
{
	bool color = pk_cli_use_color(c->cli, 1);
	const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
	for (size_t i = 0; i < c->findings.n; i++) {
		const pcv_finding *d = &c->findings.v[i];
		char where[1200], subject[PCV_PATH_MAX + 600];
		format_where(c, d, where, sizeof where);
		format_subject(d, subject, sizeof subject);
		const char *tint = !color ? "" : d->sev == PK_SEV_WARNING ? "\033[33m" : "\033[31m";
		pk_out_printf(out, "%s%s%s: %s%s%s%s%s\n", bold, where, reset, subject, tint,
		              d->sev == PK_SEV_WARNING ? "warning: " : "", d->message, reset);
		/* the other place (the existing object of an update), as a
		 * compiler's note, unless the message names it already */
		if (d->related.file && !strstr(d->message, d->related.file)) {
			if (d->related.line > 0)
				pk_out_printf(out, "%s:%ld:%ld: note: %s\n", d->related.file, d->related.line, d->related.col,
				              d->related.what ? d->related.what : "related");
			else
				pk_out_printf(out, "%s: note: %s\n", d->related.file, d->related.what ? d->related.what : "related");
		}
	}
}

static void add_string_or_null(cJSON *o, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(o, key, s);
	else
		cJSON_AddNullToObject(o, key);
}

static void add_position(cJSON *o, long line, long col)
{
	if (line > 0)
		cJSON_AddNumberToObject(o, "line", (double)line);
	else
		cJSON_AddNullToObject(o, "line");
	if (col > 0)
		cJSON_AddNumberToObject(o, "column", (double)col);
	else
		cJSON_AddNullToObject(o, "column");
}

static cJSON *diagnostic_json(const pcv_ctx *c, const pcv_finding *d)
{
	char rule[RULE_MAX];
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "kind", "Diagnostic");
	cJSON_AddStringToObject(j, "file", file_of(c, d));
	add_position(j, d->line, d->col);
	cJSON_AddStringToObject(j, "severity", sev_name(d->sev));
	if (d->obj.kind || d->obj.name) {
		cJSON *obj = cJSON_AddObjectToObject(j, "object");
		add_string_or_null(obj, "apiVersion", d->obj.api_version);
		add_string_or_null(obj, "kind", d->obj.kind);
		add_string_or_null(obj, "namespace", d->obj.ns);
		add_string_or_null(obj, "name", d->obj.name);
	} else {
		cJSON_AddNullToObject(j, "object");
	}
	add_string_or_null(j, "field", d->field);
	cJSON_AddStringToObject(j, "type", pcv_type_name(d->type));
	pcv_rule_of(d, rule, sizeof rule);
	cJSON_AddStringToObject(j, "rule", rule);
	cJSON_AddStringToObject(j, "message", d->message);
	pk_cli_add_k8s_version(c->cli, j);
	if (d->related.file) {
		cJSON *rel = cJSON_CreateObject();
		cJSON_AddStringToObject(rel, "file", d->related.file);
		add_position(rel, d->related.line, d->related.col);
		cJSON_AddStringToObject(rel, "message", d->related.what ? d->related.what : "");
		cJSON_AddItemToArray(cJSON_AddArrayToObject(j, "related"), rel);
	}
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

static void count_severities(const pcv_ctx *c, size_t *errors, size_t *warnings)
{
	*errors = *warnings = 0;
	for (size_t i = 0; i < c->findings.n; i++) {
		if (c->findings.v[i].sev == PK_SEV_ERROR)
			++*errors;
		else
			++*warnings;
	}
}

/* "1 object", "2 objects". */
static const char *counted(char *buf, size_t size, long n, const char *noun)
{
	snprintf(buf, size, "%ld %s%s", n, noun, n == 1 ? "" : "s");
	return buf;
}

/* "3 objects checked in 1 file: 1 error, 2 warnings". */
static const char *counts_text(const pcv_ctx *c, char *buf, size_t size)
{
	size_t errors, warnings;
	count_severities(c, &errors, &warnings);
	char objects[40], files[40], errs[40], warns[40];
	snprintf(buf, size, "%s checked in %s: %s, %s", counted(objects, sizeof objects, c->objects_checked, "object"),
	         counted(files, sizeof files, c->files, "file"), counted(errs, sizeof errs, (long)errors, "error"),
	         counted(warns, sizeof warns, (long)warnings, "warning"));
	return buf;
}

/* -o table: FILE KIND NAME FIELD SEVERITY REASON; -o wide adds NAMESPACE,
 * TYPE and RULE. Empty cells read <none>, as kubectl prints them; the
 * footer counts what was checked. Nothing at all when there is no finding. */
static void output_table(const pcv_ctx *c, pk_out *out, bool wide)
{
	static const char *const narrow_cols[] = {"FILE", "KIND", "NAME", "FIELD", "SEVERITY", "REASON"};
	static const char *const wide_cols[] = {"FILE", "KIND", "NAMESPACE", "NAME", "FIELD", "SEVERITY", "TYPE",
	                                        "RULE", "REASON"};
	pk_table t;
	if (c->findings.n == 0)
		return;
	pk_cli_table_init(c->cli, &t, wide ? 9 : 6, wide ? wide_cols : narrow_cols);
	for (size_t i = 0; i < c->findings.n; i++) {
		const pcv_finding *d = &c->findings.v[i];
		char where[1200], rule[RULE_MAX];
		format_where(c, d, where, sizeof where);
		pcv_rule_of(d, rule, sizeof rule);
		const char *kind = d->obj.kind ? d->obj.kind : "<none>", *name = d->obj.name ? d->obj.name : "<none>";
		const char *field = d->field ? d->field : "<none>";
		if (wide) {
			const char *row[] = {where, kind, d->obj.ns ? d->obj.ns : "<none>", name, field, sev_name(d->sev),
			                     pcv_type_name(d->type), rule, d->message};
			pk_table_row(&t, row);
		} else {
			const char *row[] = {where, kind, name, field, sev_name(d->sev), d->message};
			pk_table_row(&t, row);
		}
	}
	char counts[300];
	pk_table_footer(&t, "%s", counts_text(c, counts, sizeof counts));
	pk_cli_table_warnings(c->cli, &t);
	pk_table_flush(&t, out);
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
	size_t nfiles = pk_strtab_count(c->findings.files), failures = 0;
	size_t *per_file = pk_xcalloc(nfiles ? nfiles : 1, sizeof *per_file);
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
		xml_escaped(out, pk_strtab_str(c->findings.files, (uint32_t)f));
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
			char where[1200], subject[PCV_PATH_MAX + 600];
			format_where(c, d, where, sizeof where);
			format_subject(d, subject, sizeof subject);
			pk_out_printf(out, "      <failure type=\"%s\" message=\"", pcv_type_name(d->type));
			xml_escaped(out, d->message);
			pk_out_printf(out, "\">");
			xml_escaped(out, where);
			pk_out_printf(out, ": ");
			xml_escaped(out, subject);
			xml_escaped(out, d->message);
			pk_out_printf(out, "</failure>\n");
		}
		pk_out_printf(out, "    </testcase>\n");
	}
	pk_out_printf(out, "  </testsuite>\n</testsuites>\n");
	free(per_file);
}

/* What a rule checks, by the last part of its id. */
static const char *rule_help(const char *name)
{
	static const struct {
		const char *name, *help;
	} help[] = {
		{"required", "The apiserver requires this field."},
		{"invalid", "The apiserver rejects this value of the field."},
		{"notSupported", "The value is not one of the values the field supports."},
		{"forbidden", "The apiserver forbids this field or value."},
		{"duplicate", "A list item or name is repeated where it must be unique."},
		{"tooLong", "The value is longer than the apiserver allows."},
		{"tooMany", "The list has more items than the apiserver allows."},
		{"parse", "The document cannot be parsed as YAML or JSON."},
		{"notAnObject", "The document is a sequence or a scalar; kubectl decodes every document as one object."},
		{"type", "The field has the wrong JSON type or is out of range for its Go type (strict decoding)."},
		{"unknownField", "The API does not define this field (strict field validation)."},
		{"duplicateField", "A key appears twice in one mapping (strict field validation)."},
		{"missingKind", "The object has no kind or apiVersion."},
		{"unknownKind", "The kind is not served in this apiVersion (removed, or its API is disabled)."},
		{"duplicateDefinition", "The input set defines the same object twice; applying both keeps only the last."},
		{"immutable", "The field may not change once the object exists (update validation)."},
		{"noAddItem", "Items may not be added to this list once the object exists."},
		{"noRemoveItem", "Items may not be removed from this list once the object exists."},
		{"noSet", "The field cannot be set once the object exists."},
		{"noUnset", "The field cannot be cleared once set."},
		{"onlyOneDefault", "At most one PriorityClass may be marked globalDefault (Priority admission)."},
		{"exists", "The referenced object must exist when this object is created (admission)."},
		{"notBeingDeleted", "The referenced Workload must not be terminating (PodGroupWorkloadExists admission)."},
		{"computedByAdmission",
		 "Priority admission computes this field from the PriorityClass; a different given value is rejected."},
		{"droppedOnCreate", "Its feature gate is off: the apiserver drops the field on create, without an error."},
		{"notChecked", "pc-validate cannot judge this part (a CEL construct its interpreter does not support); "
		               "the apiserver may accept or reject it."},
		{"notBelowSchedulingPriority", "KEP-5710 proposal: the preemption priority may not be below the scheduling "
		                               "priority."},
	};
	for (size_t i = 0; i < sizeof help / sizeof help[0]; i++)
		if (strcmp(help[i].name, name) == 0)
			return help[i].help;
	return "A rule the apiserver applies.";
}

/* One reportingDescriptor per rule that occurred: id, help text. */
static cJSON *sarif_rules(const pk_strtab *l)
{
	cJSON *rules = cJSON_CreateArray();
	for (size_t i = 0; i < pk_strtab_count(l); i++) {
		const char *id = pk_strtab_str(l, (uint32_t)i), *last = strrchr(id, '.');
		const char *help = rule_help(last ? last + 1 : id);
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "id", id);
		cJSON_AddStringToObject(r, "name", id);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "shortDescription"), "text", help);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "help"), "text", help);
		cJSON_AddStringToObject(r, "helpUri", TOOL_URI "/blob/main/share/man/man1/pc-validate.1");
		cJSON_AddItemToArray(rules, r);
	}
	return rules;
}

static cJSON *sarif_location(const char *file, long line, long col)
{
	cJSON *loc = cJSON_CreateObject();
	cJSON *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
	cJSON *art = cJSON_AddObjectToObject(phys, "artifactLocation");
	cJSON_AddStringToObject(art, "uri", strncmp(file, "./", 2) == 0 ? file + 2 : file);
	cJSON *region = cJSON_AddObjectToObject(phys, "region");
	/* code scanning requires a start line */
	cJSON_AddNumberToObject(region, "startLine", line > 0 ? (double)line : 1);
	if (col > 0)
		cJSON_AddNumberToObject(region, "startColumn", (double)col);
	return loc;
}

static cJSON *sarif_result(const pcv_ctx *c, const pcv_finding *d, pk_strtab *rules)
{
	char rule[RULE_MAX], subject[PCV_PATH_MAX + 600], text[5000];
	pcv_rule_of(d, rule, sizeof rule);
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "ruleId", rule);
	cJSON_AddNumberToObject(r, "ruleIndex", (double)pk_intern_id(rules, rule));
	cJSON_AddStringToObject(r, "level", sev_name(d->sev));
	format_subject(d, subject, sizeof subject);
	snprintf(text, sizeof text, "%s%s", subject, d->message);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(r, "message"), "text", text);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "locations"), sarif_location(file_of(c, d), d->line, d->col));
	if (d->related.file) {
		cJSON *rel = sarif_location(d->related.file, d->related.line, d->related.col);
		cJSON_AddNumberToObject(rel, "id", 1);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(rel, "message"), "text",
		                        d->related.what ? d->related.what : "");
		cJSON_AddItemToArray(cJSON_AddArrayToObject(r, "relatedLocations"), rel);
	}
	return r;
}

static void output_sarif(const pcv_ctx *c, pk_out *out)
{
	pk_strtab *rules = pk_strtab_new();
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	cJSON_AddStringToObject(root, "version", "2.1.0");
	cJSON *runs = cJSON_AddArrayToObject(root, "runs");
	cJSON *run = cJSON_CreateObject();
	cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
	cJSON_AddStringToObject(driver, "name", "pc-validate");
	cJSON_AddStringToObject(driver, "version", PK_VERSION);
	cJSON_AddStringToObject(driver, "informationUri", TOOL_URI);
	cJSON *results = cJSON_AddArrayToObject(run, "results");
	for (size_t i = 0; i < c->findings.n; i++)
		cJSON_AddItemToArray(results, sarif_result(c, &c->findings.v[i], rules));
	/* the release the verdicts are for (--kubernetes-version) */
	pk_cli_add_k8s_version(c->cli, cJSON_AddObjectToObject(run, "properties"));
	cJSON_AddItemToObject(driver, "rules", sarif_rules(rules));
	cJSON_AddItemToArray(runs, run);
	char *s = cJSON_Print(root);
	if (s)
		pk_out_printf(out, "%s\n", s);
	free(s);
	cJSON_Delete(root);
	pk_strtab_free(rules);
}

/* A validator given nothing it checks says so, and exits 0 (kubeconform
 * reports 0 resources): a note on stderr, as every tool notes an empty
 * answer, whatever the format. Otherwise silent on success (the findings
 * are the answer; pre-commit hooks expect nothing else); --summary adds
 * the counts. With --staged, where nobody named the files, what was
 * skipped is one line, not a note per file. */
static void say_counts(const pcv_ctx *c)
{
	char skipped[200] = "", files[40], docs[40];
	if (c->skipped_files || c->skipped_docs)
		snprintf(skipped, sizeof skipped, "; skipped as not Kubernetes objects: %s, %s",
		         counted(files, sizeof files, c->skipped_files, "file"),
		         counted(docs, sizeof docs, c->skipped_docs, "document"));
	char release[16], counts[300], render[400] = "";
	if (c->staged && c->skipped_renderable)
		pk_nonobject_render_hint(c->cli->prog, render, sizeof render);
	bool nothing = c->objects_checked == 0 && c->findings.n == 0 && !c->trouble;
	if (c->summary)
		fprintf(stderr, "%s: %s%s%s (answers for Kubernetes %s)\n", c->cli->prog,
		        counts_text(c, counts, sizeof counts), skipped, render,
		        pk_cli_k8s_version(c->cli, release, sizeof release));
	else if (c->staged && !c->staged_changes && !c->trouble)
		pk_diag_report(&c->cli->diag, PK_SEV_NOTE, NULL,
		               "--staged: the index changes no manifest (*.yaml, *.yml, *.json) against %s: nothing to "
		               "check", c->staged_rev);
	else if (nothing)
		pk_diag_report(&c->cli->diag, PK_SEV_NOTE, NULL, "0 objects checked%s%s", skipped, render);
	else if (c->staged && *skipped)
		pk_diag_report(&c->cli->diag, PK_SEV_NOTE, NULL, "%s%s", skipped + 2, render);
	pk_diag_cap_say(&c->findings.cap, &c->cli->diag);
}

static void output_table_narrow(const pcv_ctx *c, pk_out *out)
{
	output_table(c, out, false);
}

static void output_table_wide(const pcv_ctx *c, pk_out *out)
{
	output_table(c, out, true);
}

const pcv_writer *pcv_writer_for(pk_format format)
{
	static const pcv_writer text = {output_text}, json = {output_json}, junit = {output_junit},
	                        sarif = {output_sarif}, table = {output_table_narrow}, wide = {output_table_wide};
	switch (format) {
	case PK_FMT_JSON: return &json;
	case PK_FMT_JUNIT: return &junit;
	case PK_FMT_SARIF: return &sarif;
	case PK_FMT_TABLE: return &table;
	case PK_FMT_WIDE: return &wide;
	default: return &text;
	}
}

void pcv_output(pcv_ctx *c, pk_out *out)
{
	c->writer->write(c, out);
	say_counts(c);
}
