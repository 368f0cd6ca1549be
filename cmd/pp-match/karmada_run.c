/* Reading the snapshot and writing the decisions: the body of pp-match,
 * between option parsing (main.c) and the matching logic. */
#include "karmada.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/gitrev.h"
#include "io/nonobject.h"
#include "k8s/json.h"
#include "base/alloc.h"

static int grow(void **items, long *cap, long need, size_t size)
{
	size_t c = (size_t)*cap;
	*items = pk_grow(*items, &c, (size_t)need, size); /* out of memory ends the run */
	*cap = (long)c;
	return 0;
}

/* A manifest without metadata.namespace is placed where kubectl apply would
 * put it: an assumption, said once with a count. */
static void warn_namespace_defaulted(pp_run *r, const char *kind, const char *name, const pk_origin *at)
{
	pk_diag_warn_once(&r->cli->diag, "no metadata.namespace", at,
	                  "objects without metadata.namespace are taken as in namespace \"%s\", where kubectl "
	                  "apply would create them (-n to choose); the first: %s/%s",
	                  r->opts->default_namespace, kind, name);
}

static void add_policy(pp_run *r, pk_record *rec)
{
	pp_world *w = &r->world;
	if (grow((void **)&w->policies, &w->cap_policies, w->npolicies + 1, sizeof *w->policies)) {
		r->out_of_memory = true;
		return;
	}
	if (!*pk_namespace(rec->obj) && strcmp(pk_kind(rec->obj), "PropagationPolicy") == 0)
		warn_namespace_defaulted(r, "PropagationPolicy", pk_name(rec->obj), &rec->origin);
	pp_policy *p = &w->policies[w->npolicies];
	if (pp_policy_init(p, rec->obj, &rec->origin, r->opts->default_namespace) != 0) {
		pp_policy_free(p);
		rec->obj = NULL;
		r->out_of_memory = true;
		return;
	}
	w->npolicies++;
	/* Validate while the reader still knows where each node came from;
	 * a committed policy that the webhook would reject takes no part,
	 * said by the commit that brought it, not by this one. */
	pp_report quiet = {.quiet = true};
	if (pp_validate_policy(p, rec, r->committed ? &quiet : &r->report) > 0) {
		p->admitted = false;
		pk_stats_reject(&r->stats, pp_policy_kind_name(p->kind));
	} else {
		r->stats.used++;
	}
	rec->obj = NULL;
}

/* A template, or with --explain one the detector skips (skipped: why). */
static void add_template(pp_run *r, pk_record *rec, const char *skipped)
{
	pp_world *w = &r->world;

	if (grow((void **)&w->templates, &w->cap_templates, w->ntemplates + 1, sizeof *w->templates)) {
		r->out_of_memory = true;
		return;
	}
	pp_template *t = &w->templates[w->ntemplates];
	if (pp_template_init(t, rec->obj, &rec->origin, r->opts->default_namespace, skipped) != 0) {
		r->out_of_memory = true;
		return;
	}
	w->ntemplates++;
	rec->obj = NULL;
	if (skipped)
		return;
	r->stats.used++;
	if (t->namespace_defaulted)
		warn_namespace_defaulted(r, t->kind, t->name, &t->origin);
}

static void note_ignored(pp_run *r, pk_record *rec, const char *why)
{
	const char *kind = pk_kind(rec->obj);

	pk_stats_skip(&r->stats, kind);
	/* Old pre-release schemas look like policies but are not: say so
	 * rather than skip in silence. */
	if (strcmp(kind, "PropagationPolicy") == 0 || strcmp(kind, "ClusterPropagationPolicy") == 0)
		pk_diag_warn_once(&r->cli->diag, "pre-release policy schema", &rec->origin, "%s/%s: %s; ignored",
		                  kind, pk_name(rec->obj), why);
	if (r->opts->explain)
		add_template(r, rec, why);
}

/* --against: only the policies of committed files that stay take part;
 * the inputs are the templates to decide. */
static int on_committed_record(pp_run *r, pk_record *rec)
{
	char why[512];
	if (rec->type != PK_REC_OBJECT || r->committed_replaced || !cJSON_IsObject(rec->obj))
		return 0;
	if (pp_classify(rec->obj, r->opts->default_namespace, why, sizeof why) == PP_OBJ_POLICY) {
		add_policy(r, rec);
		r->committed_policies++;
	}
	return r->out_of_memory ? 1 : 0;
}

/* A problem of the reader: an unreadable document is trouble, said (up
 * to --max-findings of its input); a warning too. */
static void reader_problem(void *ctx, const pk_record *rec)
{
	pp_run *r = ctx;
	if (rec->type == PK_REC_ERROR) {
		r->stats.errors++;
		r->trouble = true;
	}
	if (rec->err_type == PK_ERR_IO ||
	    pk_diag_cap_take(&r->cap, rec->origin.file, rec->type == PK_REC_ERROR ? PK_SEV_ERROR : PK_SEV_WARNING))
		pk_cli_report_record_problem(r->cli, rec);
}

static void release_held(pp_run *r)
{
	pk_held_release(&r->held, reader_problem, r);
}

/* An input on disk that a kustomization applies as a patch: its records
 * are dropped, the file said once. */
static bool input_is_patch(pp_run *r, const char *file)
{
	if (r->opts->staged || !file)
		return false;  /* --staged: decided where the index is read */
	if (r->patch_file && strcmp(r->patch_file, file) == 0)
		return r->patch_by != NULL;
	free(r->patch_file);
	r->patch_file = pk_xstrdup(file);
	r->patch_by = pk_kpatches_find_file(&r->kpatches, file);
	if (r->patch_by)
		pp_skip_file(r, file, PK_NONOBJECT_KPATCH, r->patch_by);
	return r->patch_by != NULL;
}

static int on_record(void *ctx, pk_record *rec)
{
	pp_run *r = ctx;
	char why[512];

	if (r->committed)
		return on_committed_record(r, rec);
	if (rec->err_type != PK_ERR_IO && input_is_patch(r, rec->origin.file))
		return 0;
	if (rec->type == PK_REC_WARNING) {
		pk_held_add(&r->held, rec, reader_problem, r);
		return 0;
	}
	if (rec->type == PK_REC_OBJECT && pk_held_for(&r->held, rec) && pk_nonobject_document(rec->obj)) {
		pk_held_drop(&r->held);  /* the document is skipped whole */
	}
	release_held(r);
	if (rec->type == PK_REC_OBJECT && pk_nonobject_document(rec->obj)) {
		/* config YAML, a values file: not an object, not a finding */
		pk_stats_skip(&r->stats, "(no apiVersion, no kind)");
		r->skipped_docs++;
		if (!r->opts->staged)
			pk_diag_report(&r->cli->diag, PK_SEV_NOTE, &rec->origin, "skipped: %s", pk_nonobject_document(rec->obj));
		return 0;
	}
	if (rec->type != PK_REC_OBJECT) {
		reader_problem(r, rec);
		return 0;
	}
	r->stats.read++;
	switch (pp_classify(rec->obj, r->opts->default_namespace, why, sizeof why)) {
	case PP_OBJ_POLICY:
		add_policy(r, rec);
		break;
	case PP_OBJ_TEMPLATE:
		add_template(r, rec, NULL);
		break;
	case PP_OBJ_IGNORED:
		note_ignored(r, rec, why);
		break;
	case PP_OBJ_UNUSABLE:
		pk_stats_reject(&r->stats, pk_kind(rec->obj));
		pk_diag_warn_once(&r->cli->diag, why, &rec->origin, "object with %s; ignored", why);
		break;
	}
	return r->out_of_memory ? 1 : 0;
}

static void count(pp_run *r, const pp_decision *d)
{
	if (d->action == PP_ACT_SKIPPED)
		r->skipped++;
	else if (d->policy)
		r->claimed++;
	else
		r->unclaimed++;
}

/* "6 templates: 5 claimed, 1 unclaimed; 5 policies" under the table. */
static void summary_footer(const pp_run *r, pk_table *t)
{
	char skipped[160] = "";
	size_t n = 0;
	if (r->skipped)
		n = (size_t)snprintf(skipped, sizeof skipped, ", %ld skipped by the detector", r->skipped);
	if ((r->skipped_files || r->skipped_docs) && n < sizeof skipped)
		snprintf(skipped + n, sizeof skipped - n, "; not Kubernetes objects: %ld files, %ld documents skipped",
		         r->skipped_files, r->skipped_docs);
	pk_table_footer(t, "%ld template(s): %ld claimed, %ld unclaimed%s; %ld polic%s", r->claimed + r->unclaimed,
	                r->claimed, r->unclaimed, skipped, r->world.npolicies, r->world.npolicies == 1 ? "y" : "ies");
}

/* Templates without a policy in sight: an input with no policies at all
 * (a repository that does not use Karmada, or a commit that touches no
 * policy) is said once, not taken for a finding. */
static void warn_no_policies(pp_run *r)
{
	long templates = 0;
	for (long i = 0; i < r->world.ntemplates; i++)
		templates += !r->world.templates[i].skipped;
	if (r->world.npolicies == 0 && templates > 0)
		pk_diag_warn_once(&r->cli->diag, "0 policies", NULL,
		                  "0 policies in the input (no PropagationPolicy or ClusterPropagationPolicy): "
		                  "%ld template(s) left unclaimed%s",
		                  templates, r->opts->require_claim ? "" : ", which is not a finding without --require-claim");
	else if (r->opts->staged && !r->staged_changes && !r->trouble)
		pk_diag_report(&r->cli->diag, PK_SEV_NOTE, NULL,
		               "--staged: the index changes no manifest (*.yaml, *.yml, *.json) against %s: nothing to "
		               "check", r->opts->against ? r->opts->against : "HEAD");
	else if (templates == 0 && !r->trouble)   /* a file that could not be read said so already */
		/* nothing to match is an answer, said as pc-validate says "0 objects checked" */
		pk_diag_report(&r->cli->diag, PK_SEV_NOTE, NULL, "0 resource templates in the input: %ld polic%s matched nothing",
		               r->world.npolicies, r->world.npolicies == 1 ? "y" : "ies");
}

/* --staged, where nobody named the files: what was skipped is one line,
 * not a note per file. */
static void say_skipped(pp_run *r)
{
	if (!r->opts->staged || (!r->skipped_files && !r->skipped_docs))
		return;
	char render[400] = "";
	if (r->skipped_renderable)
		pk_nonobject_render_hint(r->cli->prog, render, sizeof render);
	pk_diag_report(&r->cli->diag, PK_SEV_NOTE, NULL, "skipped as not Kubernetes objects: %ld file%s, %ld document%s%s",
	               r->skipped_files, r->skipped_files == 1 ? "" : "s", r->skipped_docs,
	               r->skipped_docs == 1 ? "" : "s", render);
}

/* -o json: a PolicyClaim record per template. */
static void records_begin(pp_run *r, pk_table *t)
{
}

static void records_decision(pp_run *r, pk_table *t, pk_out *out, const pp_decision *d)
{
	cJSON *rec = pp_decision_json(d, r->opts);
	pk_out_json(out, rec);
	cJSON_Delete(rec);
}

static void records_end(pp_run *r, pk_table *t, pk_out *out)
{
}

/* -o table and -o wide: a row per template, the counts and warnings under it. */
static void table_begin(pp_run *r, pk_table *t)
{
	pp_table_init(r->cli, t, r->writer->wide);
}

static void table_decision(pp_run *r, pk_table *t, pk_out *out, const pp_decision *d)
{
	pp_table_add(t, r->writer->wide, d);
}

static void table_end(pp_run *r, pk_table *t, pk_out *out)
{
	summary_footer(r, t);
	pk_cli_table_warnings(r->cli, t);
	pk_table_flush(t, out);
}

const pp_writer *pp_writer_for(pk_format format)
{
	static const pp_writer records = {true, false, records_begin, records_decision, records_end},
	                       table = {false, false, table_begin, table_decision, table_end},
	                       wide = {false, true, table_begin, table_decision, table_end};
	return format == PK_FMT_WIDE ? &wide : format == PK_FMT_TABLE ? &table : &records;
}

void pp_run_write(pp_run *r, pk_out *out)
{
	pk_table t;

	warn_no_policies(r);
	r->writer->begin(r, &t);
	for (long i = 0; i < r->world.ntemplates; i++) {
		pp_decision d;
		pp_decide(&r->world, &r->world.templates[i], r->opts, &d);
		count(r, &d);
		r->writer->decision(r, &t, out, &d);
		pp_decision_free(&d);
	}
	r->writer->end(r, &t, out);
	say_skipped(r);
	pk_diag_cap_say(&r->cap, &r->cli->diag);
}

void pp_run_free(pp_run *r)
{
	pp_world *w = &r->world;

	for (long i = 0; i < w->npolicies; i++)
		pp_policy_free(&w->policies[i]);
	for (long i = 0; i < w->ntemplates; i++)
		pp_template_free(&w->templates[i]);
	free(w->policies);
	free(w->templates);
	pk_diag_cap_free(&r->cap);
	pk_held_free(&r->held);
	pk_kpatches_free(&r->kpatches);
	free(r->patch_file);
}

/* Identity of an object, for spotting the same object given twice. */
typedef struct ident {
	const char *api_version, *kind, *namespace, *name;
} ident;

static int ident_compare(const void *a, const void *b)
{
	const ident *x = a, *y = b;
	int c;

	if ((c = strcmp(x->kind, y->kind)) != 0 || (c = strcmp(x->namespace, y->namespace)) != 0 ||
	    (c = strcmp(x->name, y->name)) != 0)
		return c;
	return strcmp(x->api_version, y->api_version);
}

/* Copies are matched separately (two records for one template); say so once
 * per identity rather than guess which copy the user meant. */
static void warn_duplicates(pp_run *r, ident *ids, long n)
{
	qsort(ids, (size_t)n, sizeof *ids, ident_compare);
	for (long i = 0; i < n;) {
		long j = i + 1;
		while (j < n && ident_compare(&ids[i], &ids[j]) == 0)
			j++;
		if (j - i > 1) {
			char what[1024];
			snprintf(what, sizeof what, "%s %s%s%s", ids[i].kind, ids[i].namespace, *ids[i].namespace ? "/" : "",
			         ids[i].name);
			pk_diag_warn_once(&r->cli->diag, what, NULL, "%s appears %ld times; each copy is taken as is", what,
			                  j - i);
		}
		i = j;
	}
}

static void check_duplicates(pp_run *r)
{
	const pp_world *w = &r->world;
	long n = w->ntemplates > w->npolicies ? w->ntemplates : w->npolicies;
	ident *ids = n ? pk_xmalloc((size_t)n * sizeof *ids) : NULL;

	if (!ids)
		return;
	long n_templates = 0;
	for (long i = 0; i < w->ntemplates; i++) {
		const pp_template *t = &w->templates[i];
		if (!t->skipped)
			ids[n_templates++] = (ident){t->api_version, t->kind, t->namespace, t->name};
	}
	warn_duplicates(r, ids, n_templates);
	for (long i = 0; i < w->npolicies; i++) {
		const pp_policy *p = &w->policies[i];
		ids[i] = (ident){PP_POLICY_GROUP_VERSION, pp_policy_kind_name(p->kind), p->namespace, p->name};
	}
	warn_duplicates(r, ids, w->npolicies);
	free(ids);
}

void pp_skip_file(pp_run *r, const char *file, const char *why, const char *by)
{
	if (r->committed)
		return;
	char note[1600], reason[200];
	snprintf(reason, sizeof reason, "(%s)", why);
	pk_stats_skip(&r->stats, reason);
	r->skipped_files++;
	r->skipped_renderable |= pk_nonobject_renders(why);
	if (r->opts->staged)
		return;  /* the hook's run: counted, said once at the end */
	pk_nonobject_note(why, file, by, r->cli->prog, note, sizeof note);
	pk_origin at = {.file = file};
	pk_diag_report(&r->cli->diag, PK_SEV_NOTE, &at, "%s", note);
}

static void on_skip_file(void *ctx, const char *file, const char *why)
{
	pp_skip_file(ctx, file, why, NULL);
}

static void on_file_done(void *ctx, const char *file)
{
	(void)file;
	release_held(ctx);
}

static int on_committed(void *ctx, const pk_git_file *f)
{
	pp_run *r = ctx;
	r->committed = !f->staged;
	r->committed_replaced = f->replaced;
	if (f->staged && f->skip)
		pp_skip_file(r, f->name, f->skip, f->skip_by);
	else
		pk_read_named_buffer(&r->cli->reader, f->data, f->len, f->name, on_record, r);
	r->committed = false;
	return r->out_of_memory ? -1 : 0;
}

void pp_run_read(pp_run *r, char *const *paths, size_t npaths)
{
	r->cli->reader.skip_file = on_skip_file;
	r->cli->reader.file_done = on_file_done;
	r->cap.max = r->cli->max_findings;
	r->report.cap = &r->cap;
	pk_kpatches_init(&r->kpatches);
	if (r->opts->staged) {
		if (pk_git_staged(r->cli->prog, r->opts->against ? r->opts->against : "HEAD",
		                  r->cli->reader.limits.max_record_bytes, on_committed, r, &r->staged_changes) < 0)
			r->trouble = true;
	} else if (r->opts->against) {
		if (pk_git_against(r->cli->prog, r->opts->against, paths, npaths,
		                   r->cli->reader.limits.max_record_bytes, on_committed, r) < 0)
			r->trouble = true;
	}
	/* --against without operands: the committed state only, not standard
	 * input (a hook with always_run may get no files). An unreadable
	 * input is trouble where it is said; one skipped whole as not
	 * Kubernetes objects is not. */
	if (!r->trouble && !r->opts->staged && (npaths || !r->opts->against))
		pk_read_paths(&r->cli->reader, paths, npaths, on_record, r);
	release_held(r);
	if (r->out_of_memory) {
		pk_diag_report(&r->cli->diag, PK_SEV_ERROR, NULL, "out of memory");
		r->trouble = true;
		return;
	}
	check_duplicates(r);
}
