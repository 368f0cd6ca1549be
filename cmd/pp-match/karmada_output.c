/* Records pp-match writes: PolicyClaim per template, Diagnostic per policy
 * problem (or the same as text on stderr), and the human table. */
#include "karmada.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "k8s/json.h"

static cJSON *object_ref(const pp_policy *p)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "apiVersion", pk_api_version(p->obj));
	cJSON_AddStringToObject(o, "kind", pp_policy_kind_name(p->kind));
	cJSON_AddStringToObject(o, "namespace", p->namespace);  /* "" for CPPs, as pc-validate */
	cJSON_AddStringToObject(o, "name", p->name);
	return o;
}

void pp_report_problem(pp_report *r, pk_severity sev, const pp_policy *p, const pk_origin *at,
                       const char *field, const char *type, const char *fmt, ...)
{
	char message[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	if (sev == PK_SEV_ERROR)
		r->errors++;
	else
		r->warnings++;
	if (r->quiet || (r->cap && !pk_diag_cap_take(r->cap, at ? at->file : NULL, sev)))
		return;

	if (!r->json) {
		pk_diag_report(r->diag, sev, at, "%s/%s: %s: %s", pp_policy_kind_name(p->kind), p->name, field, message);
		return;
	}
	cJSON *rec = cJSON_CreateObject();
	cJSON_AddStringToObject(rec, "kind", "Diagnostic");
	cJSON_AddStringToObject(rec, "file", at->file ? at->file : "");
	cJSON_AddNumberToObject(rec, "line", (double)at->line);
	cJSON_AddNumberToObject(rec, "column", (double)at->col);
	cJSON_AddStringToObject(rec, "severity",
	                        sev == PK_SEV_ERROR ? "error" : sev == PK_SEV_WARNING ? "warning" : "note");
	cJSON_AddItemToObject(rec, "object", object_ref(p));
	cJSON_AddStringToObject(rec, "field", field);
	cJSON_AddStringToObject(rec, "type", type);
	cJSON_AddStringToObject(rec, "message", message);
	pk_out_json(r->out, rec);
	cJSON_Delete(rec);
}

static cJSON *resource_ref(const pp_template *t)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "apiVersion", t->api_version);
	cJSON_AddStringToObject(o, "kind", t->kind);
	if (*t->namespace)
		cJSON_AddStringToObject(o, "namespace", t->namespace);
	cJSON_AddStringToObject(o, "name", t->name);
	return o;
}

static cJSON *policy_ref(const pp_policy *p)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "kind", pp_policy_kind_name(p->kind));
	if (p->kind == PP_PROPAGATION_POLICY)
		cJSON_AddStringToObject(o, "namespace", p->namespace);
	cJSON_AddStringToObject(o, "name", p->name);
	cJSON_AddNumberToObject(o, "priority", p->priority);
	return o;
}

static cJSON *candidates_json(const pp_decision *d)
{
	cJSON *arr = cJSON_CreateArray();

	for (int i = 0; i < d->ncands; i++) {
		const pp_candidate *c = &d->cands[i];
		cJSON *o = policy_ref(c->policy);
		cJSON_AddStringToObject(o, "match", pp_match_level_name(c->level));
		cJSON_AddStringToObject(o, "preemption", c->policy->preempt_always ? "Always" : "Never");
		cJSON_AddBoolToObject(o, "chosen", c->policy == d->policy);
		if (c->policy != d->policy && c->why_lost)
			cJSON_AddStringToObject(o, "why", c->why_lost);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

cJSON *pp_decision_json(const pp_decision *d, const pp_options *o)
{
	cJSON *rec = cJSON_CreateObject();

	cJSON_AddStringToObject(rec, "kind", "PolicyClaim");
	cJSON_AddItemToObject(rec, "resource", resource_ref(d->tmpl));
	cJSON_AddItemToObject(rec, "policy", d->policy ? policy_ref(d->policy) : cJSON_CreateNull());
	cJSON_AddItemToObject(rec, "previous", d->previous.form != PP_CLAIM_NONE
	                                           ? pp_claim_ref(&d->previous, d->previous_policy)
	                                           : cJSON_CreateNull());
	cJSON_AddStringToObject(rec, "action", pp_action_name(d->action));
	cJSON_AddStringToObject(rec, "reason", d->reason);
	if (d->tmpl->namespace_defaulted) {
		char w[300];
		snprintf(w, sizeof w, "no metadata.namespace: taken as in namespace \"%s\", where kubectl apply would create it",
		         d->tmpl->namespace);
		cJSON *warnings = cJSON_AddArrayToObject(rec, "warnings");
		cJSON_AddItemToArray(warnings, cJSON_CreateString(w));
	}
	if (o->explain)
		cJSON_AddItemToObject(rec, "candidates", candidates_json(d));
	if (o->emit_metadata) {
		/* the detector does not touch a skipped object: nothing to patch */
		cJSON *patch = d->action == PP_ACT_SKIPPED ? NULL : pp_claim_patch(d->tmpl, d->policy);
		cJSON_AddItemToObject(rec, "metadata", patch ? patch : cJSON_CreateNull());
	}
	return rec;
}

static void format_resource(const pp_template *t, char *buf, size_t size)
{
	if (*t->namespace)
		snprintf(buf, size, "%s/%s/%s", t->kind, t->namespace, t->name);
	else
		snprintf(buf, size, "%s/%s", t->kind, t->name);
}

static void format_policy(const pp_policy *p, char *buf, size_t size)
{
	if (!p)
		snprintf(buf, size, "<none>");
	else if (p->kind == PP_PROPAGATION_POLICY)
		snprintf(buf, size, "PP/%s/%s", p->namespace, p->name);
	else
		snprintf(buf, size, "CPP/%s", p->name);
}

static void format_claim(const pp_claim *c, char *buf, size_t size)
{
	if (c->form == PP_CLAIM_NONE)
		snprintf(buf, size, "<none>");
	else if (c->kind == PP_PROPAGATION_POLICY)
		snprintf(buf, size, "PP/%s/%s", c->namespace, c->name);
	else
		snprintf(buf, size, "CPP/%s", c->name);
}

/* Columns: the vocabulary all five tools share (RESULT, REASON); -o wide
 * adds the winner's priority and how many policies matched. */
static const char *const table_columns[] = {"RESOURCE", "RESULT", "POLICY", "PREVIOUS", "REASON"};
static const char *const wide_columns[] = {"RESOURCE", "RESULT", "POLICY", "PRIORITY", "PREVIOUS", "CANDIDATES", "REASON"};

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

void pp_table_init(const pk_cli *cli, pk_table *t, bool wide)
{
	if (wide)
		pk_cli_table_init(cli, t, NCOLS(wide_columns), wide_columns);
	else
		pk_cli_table_init(cli, t, NCOLS(table_columns), table_columns);
}

void pp_table_add(pk_table *t, bool wide, const pp_decision *d)
{
	char res[600], pol[600], prev[600], prio[16] = "<none>", cands[16] = "<none>";

	format_resource(d->tmpl, res, sizeof res);
	format_policy(d->policy, pol, sizeof pol);
	format_claim(&d->previous, prev, sizeof prev);
	const char *result = pp_action_name(d->action);
	if (!wide) {
		const char *row[] = {res, result, pol, prev, d->reason};
		pk_table_row(t, row);
		return;
	}
	if (d->policy)
		snprintf(prio, sizeof prio, "%d", (int)d->policy->priority);
	if (d->action != PP_ACT_SKIPPED)
		snprintf(cands, sizeof cands, "%d", d->ncands);
	const char *row[] = {res, result, pol, prio, prev, cands, d->reason};
	pk_table_row(t, row);
}
