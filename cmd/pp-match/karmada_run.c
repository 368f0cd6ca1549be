/* Reading the snapshot and writing the decisions: the body of pp-match,
 * between option parsing (main.c) and the matching logic. */
#include "karmada.h"

#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"

static int grow(void **items, long *cap, long need, size_t size)
{
	if (need <= *cap)
		return 0;
	long n = *cap ? *cap * 2 : 64;
	void *p = realloc(*items, (size_t)n * size);
	if (!p)
		return -1;
	*items = p;
	*cap = n;
	return 0;
}

static void add_policy(pp_run *r, pk_record *rec)
{
	pp_world *w = &r->world;
	if (grow((void **)&w->policies, &w->cap_policies, w->npolicies + 1, sizeof *w->policies)) {
		r->out_of_memory = true;
		return;
	}
	pp_policy *p = &w->policies[w->npolicies];
	if (pp_policy_init(p, rec->obj, &rec->origin, r->opts->default_namespace) != 0) {
		pp_policy_free(p);
		rec->obj = NULL;
		r->out_of_memory = true;
		return;
	}
	w->npolicies++;
	/* Validate while the reader still knows where each node came from. */
	if (pp_validate_policy(p, rec, &r->report) > 0) {
		p->admitted = false;
		pk_stats_reject(&r->stats, pp_policy_kind_name(p->kind));
	} else {
		r->stats.used++;
	}
	rec->obj = NULL;
}

static void add_template(pp_run *r, pk_record *rec)
{
	pp_world *w = &r->world;

	if (grow((void **)&w->templates, &w->cap_templates, w->ntemplates + 1, sizeof *w->templates)) {
		r->out_of_memory = true;
		return;
	}
	pp_template_init(&w->templates[w->ntemplates++], rec->obj, &rec->origin, r->opts->default_namespace);
	rec->obj = NULL;
	r->stats.used++;
}

static void note_ignored(pp_run *r, pk_record *rec)
{
	const char *kind = pk_kind(rec->obj);

	pk_stats_skip(&r->stats, kind);
	/* Old pre-release schemas (propagationstrategy.karmada.io) look like
	 * policies but are not: say so rather than skip in silence. */
	if (strcmp(kind, "PropagationPolicy") == 0 || strcmp(kind, "ClusterPropagationPolicy") == 0)
		pk_diag_report(&r->cli->diag, PK_SEV_WARNING, &rec->origin,
		               "%s/%s: apiVersion %s is not %s; ignored", kind, pk_name(rec->obj),
		               pk_api_version(rec->obj), PP_POLICY_GROUP_VERSION);
}

static int on_record(void *ctx, pk_record *rec)
{
	pp_run *r = ctx;
	const char *why;

	if (rec->type != PK_REC_OBJECT) {
		if (pk_cli_report_record_problem(r->cli, rec)) {
			r->stats.errors++;
			r->trouble = true;
		}
		return 0;
	}
	r->stats.read++;
	switch (pp_classify(rec->obj, r->opts->default_namespace, &why)) {
	case PP_OBJ_POLICY:
		add_policy(r, rec);
		break;
	case PP_OBJ_TEMPLATE:
		add_template(r, rec);
		break;
	case PP_OBJ_IGNORED:
		note_ignored(r, rec);
		break;
	case PP_OBJ_UNUSABLE:
		pk_stats_reject(&r->stats, pk_kind(rec->obj));
		pk_diag_report(&r->cli->diag, PK_SEV_WARNING, &rec->origin, "object with %s; ignored", why);
		break;
	}
	return r->out_of_memory ? 1 : 0;
}

long pp_run_write(pp_run *r, pk_out *out)
{
	long unclaimed = 0;
	bool table = r->cli->format == PK_FMT_TABLE;

	if (table)
		pp_table_header(out, r->opts);
	for (long i = 0; i < r->world.ntemplates; i++) {
		pp_decision d;
		pp_decide(&r->world, &r->world.templates[i], r->opts, &d);
		if (!d.policy)
			unclaimed++;
		if (table) {
			pp_table_row(out, &d, r->opts);
		} else {
			cJSON *rec = pp_decision_json(&d, r->opts);
			pk_out_json(out, rec);
			cJSON_Delete(rec);
		}
		pp_decision_free(&d);
	}
	return unclaimed;
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
		if (j - i > 1)
			pk_diag_report(&r->cli->diag, PK_SEV_WARNING, NULL, "%s %s%s%s appears %ld times; each copy is taken as is",
			               ids[i].kind, ids[i].namespace, *ids[i].namespace ? "/" : "", ids[i].name, j - i);
		i = j;
	}
}

static void check_duplicates(pp_run *r)
{
	const pp_world *w = &r->world;
	long n = w->ntemplates > w->npolicies ? w->ntemplates : w->npolicies;
	ident *ids = n ? malloc((size_t)n * sizeof *ids) : NULL;

	if (!ids)
		return;
	for (long i = 0; i < w->ntemplates; i++) {
		const pp_template *t = &w->templates[i];
		ids[i] = (ident){t->api_version, t->kind, t->namespace, t->name};
	}
	warn_duplicates(r, ids, w->ntemplates);
	for (long i = 0; i < w->npolicies; i++) {
		const pp_policy *p = &w->policies[i];
		ids[i] = (ident){PP_POLICY_GROUP_VERSION, pp_policy_kind_name(p->kind), p->namespace, p->name};
	}
	warn_duplicates(r, ids, w->npolicies);
	free(ids);
}

void pp_run_read(pp_run *r, char *const *paths, size_t npaths)
{
	if (pk_read_paths(&r->cli->reader, paths, npaths, on_record, r) < 0)
		r->trouble = true;
	if (r->out_of_memory) {
		pk_diag_report(&r->cli->diag, PK_SEV_ERROR, NULL, "out of memory");
		r->trouble = true;
		return;
	}
	check_duplicates(r);
}
