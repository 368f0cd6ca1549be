/* The pieces the report page's sections share, and its overview sections
 * (warnings to cascades), in the order report.c writes them; the detailed
 * ones follow in report_detail.c. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/json.h"
#include "k8s/quantity.h"
#include "sched/report/records.h"
#include "sched/report/report_int.h"
#include "base/alloc.h"

/* ---- shared pieces ------------------------------------------------------------------- */

void rp_section_start(pk_html *h, const char *id, const char *title)
{
	pk_html_open(h, "section", "id", id, NULL);
	pk_html_elem(h, "h2", title, NULL);
}

void rp_none(pk_html *h, const char *text)
{
	pk_html_elem(h, "p", text, "class", "none", NULL);
}

void rp_note(pk_html *h, const char *id, const char *fmt, ...)
{
	char text[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	pk_html_elem(h, "p", text, "class", "note", "id", id, NULL);
	PK_HTML_LIT(h, "\n");
}

void rp_section_end(pk_html *h)
{
	PK_HTML_LIT(h, "</section>\n");
}

/* Start a section; when empty, end it at once with a line that says so
 * (none), and return true. */
bool rp_section_or_none(pk_html *h, const char *id, const char *title, bool empty, const char *none)
{
	rp_section_start(h, id, title);
	if (!empty)
		return false;
	rp_none(h, none);
	rp_section_end(h);
	return true;
}

/* A link to the unit's row; its name alone when the table leaves it out. */
void rp_unit_link(pk_report *r, pk_html *h, long unit)
{
	const rp_unit *u = &r->units[unit];
	char href[700];
	snprintf(href, sizeof href, "#%s", u->id);
	bool listed = unit < r->o.max_units;
	if (listed)
		pk_html_open(h, "a", "href", href, NULL);
	pk_html_textf(h, "%s%s/%s", u->label, u->ns, u->name);
	if (listed)
		pk_html_close(h, "a");
}

void rp_unit_links(pk_report *r, pk_html *h, const rp_list *l, long max)
{
	for (long i = 0; i < l->n && i < max; i++) {
		if (i)
			pk_html_text(h, ", ");
		rp_unit_link(r, h, l->v[i]);
	}
	if (l->n > max)
		pk_html_textf(h, " and %ld more", l->n - max);
}

void rp_td_num(pk_html *h, long v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%ld", v);
	pk_html_elem(h, "td", buf, "class", "n", NULL);
}

void rp_td_text(pk_html *h, const char *text)
{
	pk_html_elem(h, "td", text, NULL);
}

long rp_num(const cJSON *o, const char *path)
{
	int64_t v = 0;
	pk_int64(o, path, &v);
	return (long)v;
}

/* <thead> from a list of column titles. */
static void thead(pk_html *h, const char *const *cols)
{
	PK_HTML_LIT(h, "<thead><tr>");
	for (int i = 0; cols[i]; i++)
		pk_html_elem(h, "th", cols[i], "scope", "col", NULL);
	PK_HTML_LIT(h, "</tr></thead>\n");
}

/* A table in a box of its own width: a table wider than a narrow window
 * scrolls in it, not the page (html.c's div.wide). */
void rp_table_start(pk_html *h, const char *id, const char *const *cols)
{
	PK_HTML_LIT(h, "<div class=\"wide\">");
	pk_html_open(h, "table", "class", "sortable", "id", id, NULL);
	thead(h, cols);
}

void rp_table_end(pk_html *h)
{
	PK_HTML_LIT(h, "</tbody></table></div>\n");
}

/* The node-choice criterion that chose the plan's node (decidedBy), or
 * NULL. */
const char *rp_criterion_text(const cJSON *plan)
{
	return pk_str(plan, "decidedBy");
}

/* What a record says it assumed: its warnings array, after the rest. */
void rp_record_warnings(pk_html *h, const cJSON *w)
{
	if (!cJSON_GetArraySize(w))
		return;
	PK_HTML_LIT(h, "<br><strong>Warnings:</strong> ");
	rp_string_list(h, w, 10);
}

/* ---- 0. warnings --------------------------------------------------------------------- */

/* What a warning touched: "3 of 15 plans", "1 applied object", "said 4 times". */
static void warning_reach(pk_report *r, pk_html *h, const rp_warning *w)
{
	char parts[3][96];
	int n = 0;
	if (w->units)
		snprintf(parts[n++], sizeof parts[0], "%ld of %ld plan(s)", w->units, r->nunits);
	if (w->applied)
		snprintf(parts[n++], sizeof parts[0], "%ld applied object(s)", w->applied);
	if (w->times > 1 && !w->units && !w->applied)
		snprintf(parts[n++], sizeof parts[0], "said %ld times in the run", w->times);
	else if (!n)
		snprintf(parts[n++], sizeof parts[0], "the whole run");
	PK_HTML_LIT(h, "<span class=\"reach\">");
	for (int i = 0; i < n; i++)
		pk_html_textf(h, "%s%s", i ? ", " : "", parts[i]);
	PK_HTML_LIT(h, "</span>");
}

void rp_write_warnings(pk_report *r, pk_html *h)
{
	if (rp_section_or_none(h, "warnings", "Warnings", !r->nwarnings,
	                    "None: no answer on this page rests on an assumption the tool knows of."))
		return;
	PK_HTML_LIT(h, "<p>");
	pk_html_textf(h, "%ld assumption(s) or omission(s) of the run, each once, with what it touched; the "
	              "plans concerned say it again in their row under Plans.", r->nwarnings);
	PK_HTML_LIT(h, "</p>\n<ul class=\"warnings\">\n");
	for (long i = 0; i < r->nwarnings; i++) {
		PK_HTML_LIT(h, "<li class=\"note\">");
		warning_reach(r, h, &r->warnings[i]);
		PK_HTML_LIT(h, " ");
		pk_html_text(h, r->warnings[i].text);
		PK_HTML_LIT(h, "</li>\n");
	}
	PK_HTML_LIT(h, "</ul>\n");
	rp_section_end(h);
}

/* ---- 1. summary ---------------------------------------------------------------------- */

typedef struct result_row {
	const char *result;
	long units, pods, victims;
} result_row;

/* Results in the order an operator reads them, others after. */
static int result_rank(const char *r)
{
	static const char *const order[] = { "Preempt", "NoPreemptionNeeded", "Unschedulable", "NotEligible" };
	for (int i = 0; i < 4; i++)
		if (strcmp(r, order[i]) == 0)
			return i;
	return 4;
}

static int cmp_result(const void *a, const void *b)
{
	const result_row *x = a, *y = b;
	int c = result_rank(x->result) - result_rank(y->result);
	return c ? c : strcmp(x->result, y->result);
}

static long count_results(pk_report *r, result_row *rows, long max)
{
	long n = 0;
	for (long i = 0; i < r->nunits; i++) {
		const rp_unit *u = &r->units[i];
		long k = 0;
		while (k < n && rows[k].result != u->result)
			k++;
		if (k == n) {
			if (n == max)
				continue;
			rows[n++] = (result_row){ .result = u->result };
		}
		rows[k].units++;
		rows[k].pods += u->group ? rp_num(u->plan, "members") : 1;
		rows[k].victims += u->victims;
	}
	rp_sort(rows, n, sizeof *rows, cmp_result);
	return n;
}

static void simulation_line(pk_report *r, pk_html *h)
{
	const cJSON *s = r->summary;
	if (!s)
		return;
	PK_HTML_LIT(h, "<p>");
	pk_html_textf(h, "Simulated %ld unit(s) (%ld pod(s), %ld pod group(s)) on %ld node(s): %ld scheduled, "
	              "%ld nominated, %ld unschedulable", rp_num(s, "units"), rp_num(s, "pods"), rp_num(s, "podGroups"),
	              rp_num(s, "nodes"), rp_num(s, "scheduled"), rp_num(s, "nominated"), rp_num(s, "unschedulable"));
	if (rp_num(s, "notEligible"))
		pk_html_textf(h, ", %ld not eligible to preempt", rp_num(s, "notEligible"));
	pk_html_text(h, ".");
	if (rp_num(s, "scaled"))
		pk_html_textf(h, " %ld of them added by --scale.", rp_num(s, "scaled"));
	PK_HTML_LIT(h, "</p>\n");
	if (rp_num(s, "recreationsDropped")) {
		PK_HTML_LIT(h, "<p class=\"note\">");
		pk_html_textf(h, "%ld victim(s) would be recreated beyond the bound on recreations "
		              "(--max-recreations) and were not simulated.", rp_num(s, "recreationsDropped"));
		PK_HTML_LIT(h, "</p>\n");
	}
}

void rp_write_summary(pk_report *r, pk_html *h)
{
	rp_section_start(h, "summary", "Summary");
	result_row rows[16];
	long n = count_results(r, rows, 16);
	PK_HTML_LIT(h, "<ul class=\"counts\">");
	pk_html_count(h, "count-warnings", "Warnings", r->nwarnings);
	pk_html_count(h, "count-units", "Plans", r->nunits);
	for (long i = 0; i < n; i++) {
		char id[200];
		pk_html_id(id, sizeof id, "count-result-", rows[i].result);
		pk_html_count(h, id, rows[i].result, rows[i].units);
	}
	long recreated = r->summary ? rp_num(r->summary, "recreated") : r->recreated;
	long cascades = r->summary ? rp_num(r->summary, "cascadingPreemptions") : r->cascades;
	pk_html_count(h, "count-victims", "Victims", r->victims);
	pk_html_count(h, "count-pdb-violations", "PDB violations", r->pdb_violations);
	pk_html_count(h, "count-recreations", "Recreated victims", recreated);
	pk_html_count(h, "count-cascades", "Cascading preemptions", cascades);
	PK_HTML_LIT(h, "</ul>\n");
	simulation_line(r, h);
	static const char *const cols[] = { "Result", "Plans", "Pods", "Victims", NULL };
	PK_HTML_LIT(h, "<div class=\"wide\"><table id=\"results-table\">");
	thead(h, cols);
	PK_HTML_LIT(h, "<tbody>\n");
	for (long i = 0; i < n; i++) {
		PK_HTML_LIT(h, "<tr>");
		rp_td_text(h, rows[i].result);
		rp_td_num(h, rows[i].units);
		rp_td_num(h, rows[i].pods);
		rp_td_num(h, rows[i].victims);
		PK_HTML_LIT(h, "</tr>\n");
	}
	rp_table_end(h);
	rp_section_end(h);
}

/* ---- applied objects ----------------------------------------------------------------- */

void rp_string_list(pk_html *h, const cJSON *arr, long max)
{
	const cJSON *it;
	long k = 0;
	cJSON_ArrayForEach(it, arr) {
		if (k == max)
			break;
		if (k++)
			pk_html_text(h, "; ");
		pk_html_text(h, cJSON_IsString(it) ? it->valuestring : "");
	}
	if (cJSON_GetArraySize(arr) > max)
		pk_html_textf(h, " and %ld more", (long)cJSON_GetArraySize(arr) - max);
}

static void reasons_cell(pk_html *h, const cJSON *reasons)
{
	PK_HTML_LIT(h, "<td>");
	const cJSON *it;
	bool first = true;
	cJSON_ArrayForEach(it, reasons) {
		if (!first)
			pk_html_text(h, "; ");
		first = false;
		pk_html_textf(h, "%ld %s", rp_num(it, "count"), pk_str_or(it, "reason", ""));
	}
	PK_HTML_LIT(h, "</td>");
}

static void pods_cell(pk_html *h, const cJSON *pods, long max)
{
	PK_HTML_LIT(h, "<td>");
	const cJSON *it;
	long k = 0;
	cJSON_ArrayForEach(it, pods) {
		if (k == max)
			break;
		if (k++)
			pk_html_text(h, ", ");
		pk_html_textf(h, "%s/%s", pk_str_or(it, "namespace", ""), pk_str_or(it, "name", ""));
	}
	if (cJSON_GetArraySize(pods) > max)
		pk_html_textf(h, " and %ld more", (long)cJSON_GetArraySize(pods) - max);
	PK_HTML_LIT(h, "</td>");
}

static void applied_row(pk_html *h, const cJSON *a)
{
	const cJSON *obj = pk_get(a, "object");
	PK_HTML_LIT(h, "<tr><td>");
	const char *ns = pk_str_or(obj, "namespace", "");
	pk_html_textf(h, "%s %s%s%s", pk_str_or(obj, "kind", ""), ns, *ns ? "/" : "", pk_str_or(obj, "name", ""));
	PK_HTML_LIT(h, "</td>");
	rp_td_text(h, pk_str_or(a, "origin", ""));
	rp_td_text(h, pk_str_or(a, "action", ""));
	static const char *const counts[] = { "pods", "placed", "nominated", "unschedulable", "victims" };
	for (int i = 0; i < 5; i++)
		rp_td_num(h, rp_num(a, counts[i]));
	reasons_cell(h, pk_get(a, "reasons"));
	pods_cell(h, pk_get(a, "victimPods"), 20);
	PK_HTML_LIT(h, "<td>");
	pk_html_text(h, pk_str(a, "message"));
	rp_record_warnings(h, pk_get(a, "warnings"));
	PK_HTML_LIT(h, "</td></tr>\n");
}

void rp_write_applied(pk_report *r, pk_html *h)
{
	if (!cJSON_GetArraySize(r->applied))
		return;
	rp_section_start(h, "applied", "Applied objects");
	static const char *const cols[] = { "Object", "Origin", "Action", "Pods", "Placed", "Nominated",
		                            "Unschedulable", "Victims", "Reasons", "Victim pods", "Message", NULL };
	rp_table_start(h, "applied-table", cols);
	PK_HTML_LIT(h, "<tbody>\n");
	const cJSON *a;
	cJSON_ArrayForEach(a, r->applied)
		applied_row(h, a);
	rp_table_end(h);
	rp_section_end(h);
}

/* ---- the node choice of a single plan ------------------------------------------------ */

static const rp_unit *unit_of_ref(pk_report *r, const cJSON *ref)
{
	const char *ns = rp_str(r, pk_str_or(ref, "namespace", "")), *name = rp_str(r, pk_str_or(ref, "name", ""));
	for (long i = 0; i < r->nunits; i++)
		if (r->units[i].ns == ns && r->units[i].name == name)
			return &r->units[i];
	return NULL;
}

static void choice_row(pk_html *h, const cJSON *c)
{
	bool chosen = rp_num(c, "rank") == 1;
	pk_html_open(h, "tr", "class", chosen ? "chosen" : NULL, NULL);
	PK_HTML_LIT(h, "<td class=\"n\">");
	pk_html_textf(h, "%ld", rp_num(c, "rank"));
	if (chosen)
		PK_HTML_LIT(h, "<span class=\"tag\">chosen</span>");
	PK_HTML_LIT(h, "</td>");
	rp_td_text(h, pk_str_or(c, "node", ""));
	rp_td_num(h, rp_num(c, "numPDBViolations"));
	if (pk_get(c, "highestVictimPriority")) {
		rp_td_num(h, rp_num(c, "highestVictimPriority"));
		char text[64], sort[32];
		int64_t sum = 0;
		pk_int64(c, "victimPrioritySum", &sum);
		snprintf(sort, sizeof sort, "%" PRId64, pk_adjusted_sum_text(rp_num(c, "victims"), sum, text, sizeof text));
		pk_html_elem(h, "td", text, "class", "n", "data-sort", sort, NULL);
	} else {
		rp_td_text(h, "-");
		rp_td_text(h, "-");
	}
	rp_td_num(h, rp_num(c, "victims"));
	rp_td_text(h, pk_str_or(c, "highestVictimsEarliestStart", "-"));
	PK_HTML_LIT(h, "</tr>\n");
}

/* The nodes that are no candidate, grouped by why (victims --explain). */
static void other_nodes(pk_html *h, const cJSON *groups)
{
	if (!cJSON_GetArraySize(groups))
		return;
	pk_html_elem(h, "h3", "The other nodes", NULL);
	/* a DynamicResources rejection explained in this tool's words: a column
	 * of its own, apart from the scheduler's reason */
	bool detail = false;
	const cJSON *g;
	cJSON_ArrayForEach(g, groups)
		detail |= pk_str(g, "detail") != NULL;
	static const char *const cols[] = { "Nodes", "Why not a candidate", "Which", NULL };
	static const char *const cols_detail[] = { "Nodes", "Why not a candidate", "Which",
		                                   "Devices: preemptkit's detail (not the scheduler's)", NULL };
	rp_table_start(h, "other-nodes-table", detail ? cols_detail : cols);
	PK_HTML_LIT(h, "<tbody>\n");
	cJSON_ArrayForEach(g, groups) {
		PK_HTML_LIT(h, "<tr>");
		rp_td_num(h, rp_num(g, "nodes"));
		pk_html_elem(h, "td", pk_str_or(g, "reason", ""), "class", "reason", NULL);
		rp_td_text(h, pk_str_or(g, "names", ""));
		if (detail)
			pk_html_elem(h, "td", pk_str_or(g, "detail", "-"), "class", "reason", NULL);
		PK_HTML_LIT(h, "</tr>\n");
	}
	rp_table_end(h);
}

void rp_write_choice(pk_report *r, pk_html *h)
{
	const cJSON *ch = r->choice;
	if (!ch)
		return;
	rp_section_start(h, "choice", "Node choice");
	const cJSON *ranked = pk_get(ch, "ranked");
	const rp_unit *u = unit_of_ref(r, pk_get(ch, "preemptor"));
	PK_HTML_LIT(h, "<p>");
	pk_html_textf(h, "%s/%s: %ld candidate node(s)", pk_str_or(pk_get(ch, "preemptor"), "namespace", ""),
	              pk_str_or(pk_get(ch, "preemptor"), "name", ""), rp_num(ch, "candidates"));
	if (cJSON_GetArraySize(ranked))
		pk_html_textf(h, "; node %s chosen.", pk_str_or(cJSON_GetArrayItem(ranked, 0), "node", ""));
	else
		pk_html_text(h, ".");
	const char *crit = u ? rp_criterion_text(u->plan) : NULL;
	if (crit) {
		PK_HTML_LIT(h, " <strong>Why it won:</strong> ");
		pk_html_text(h, crit);
	}
	PK_HTML_LIT(h, "</p>\n<p class=\"muted\">Node choice (pickOneNodeForPreemption) compares, in this order: "
	               "fewest PDB violations, lowest highest victim priority, smallest adjusted priority sum, "
	               "fewest victims, latest start among the highest-priority victims, then (preemptkit, for "
	               "determinism) the node name. The table ranks the candidates the same way.</p>\n");
	static const char *const cols[] = { "Rank", "Node", "PDB violations", "Highest victim priority",
		                            PK_ADJUSTED_SUM_COLUMN, "Victims", "Earliest start of the highest",
		                            NULL };
	if (cJSON_GetArraySize(ranked)) { /* no candidate (the other nodes below say why): no empty table */
		rp_table_start(h, "choice-table", cols);
		PK_HTML_LIT(h, "<tbody>\n");
		const cJSON *c;
		cJSON_ArrayForEach(c, ranked)
			choice_row(h, c);
		rp_table_end(h);
		pk_html_elem(h, "p", PK_ADJUSTED_SUM_RULE ".", "class", "muted", "id", "adjusted-sum-rule", NULL);
	}
	if (rp_num(ch, "candidates") > cJSON_GetArraySize(ranked)) {
		PK_HTML_LIT(h, "<p class=\"muted\">");
		pk_html_textf(h, "%ld more candidate(s) rank lower and are left out.",
		              rp_num(ch, "candidates") - cJSON_GetArraySize(ranked));
		PK_HTML_LIT(h, "</p>\n");
	}
	other_nodes(h, pk_get(ch, "otherNodes"));
	rp_section_end(h);
}

/* ---- 2. impact by owner -------------------------------------------------------------- */

enum { MAX_OWNER_ROWS = 500 };

static int cmp_owner_key(const rp_owner *x, const rp_owner *y)
{
	int c = strcmp(x->ns, y->ns);
	if (c)
		return c;
	c = strcmp(x->kind, y->kind);
	return c ? c : strcmp(x->name, y->name);
}

/* Most pods first. */
static int cmp_owner_pods(const void *a, const void *b)
{
	const rp_owner *x = *(const rp_owner *const *)a, *y = *(const rp_owner *const *)b;
	if (x->pods != y->pods)
		return x->pods > y->pods ? -1 : 1;
	return cmp_owner_key(x, y);
}

/* By namespace, most pods first within it. */
static int cmp_owner_ns(const void *a, const void *b)
{
	const rp_owner *x = *(const rp_owner *const *)a, *y = *(const rp_owner *const *)b;
	int c = strcmp(x->ns, y->ns);
	return c ? c : cmp_owner_pods(a, b);
}

static void owner_row(pk_report *r, pk_html *h, const rp_owner *o)
{
	PK_HTML_LIT(h, "<tr>");
	PK_HTML_LIT(h, "<td>");
	pk_html_textf(h, "%s %s", o->kind, o->name);
	PK_HTML_LIT(h, "</td>");
	rp_td_num(h, o->pods);
	PK_HTML_LIT(h, "<td>");
	for (int c = 0; c < o->nclasses; c++) {
		if (c)
			pk_html_text(h, ", ");
		pk_html_text(h, o->classes[c]);
	}
	if (o->more_classes)
		pk_html_text(h, ", ...");
	PK_HTML_LIT(h, "</td>");
	char sort[32];
	snprintf(sort, sizeof sort, "%d", o->pmax);
	pk_html_open(h, "td", "class", "n", "data-sort", sort, NULL);
	if (o->pmin == o->pmax)
		pk_html_textf(h, "%d", o->pmin);
	else
		pk_html_textf(h, "%d to %d", o->pmin, o->pmax);
	PK_HTML_LIT(h, "</td><td>");
	rp_unit_links(r, h, &o->units, RP_MAX_LINKS);
	PK_HTML_LIT(h, "</td></tr>\n");
}

void rp_write_owners(pk_report *r, pk_html *h)
{
	if (rp_section_or_none(h, "impact", "Impact by owner", !r->nowners, "No plan evicts a pod."))
		return;
	const rp_owner **rows = pk_xmalloc(sizeof *rows * (size_t)r->nowners);
	for (long i = 0; i < r->nowners; i++)
		rows[i] = &r->owners[i];
	/* namespaces counted on the owners sorted by namespace, not in the
	 * order they were met */
	rp_sort(rows, r->nowners, sizeof *rows, cmp_owner_ns);
	long namespaces = 0;
	for (long i = 0; i < r->nowners; i++)
		namespaces += i == 0 || strcmp(rows[i]->ns, rows[i - 1]->ns) != 0;
	PK_HTML_LIT(h, "<p>");
	pk_html_textf(h, "%ld victim(s) of %ld workload(s) in %ld namespace(s). A workload is the pod's controller "
	              "(ownerReferences), a Deployment for the pods of its ReplicaSets; a pod without one is its "
	              "own.", r->victims, r->nowners, namespaces);
	PK_HTML_LIT(h, "</p>\n");
	static const char *const cols[] = { "Workload", "Pods evicted", "PriorityClass", "Priority", "Evicted by",
		                            NULL };
	rp_table_start(h, "owners-table", cols);
	/* the workloads that lose most, grouped by namespace */
	long shown = r->nowners < MAX_OWNER_ROWS ? r->nowners : MAX_OWNER_ROWS;
	rp_sort(rows, r->nowners, sizeof *rows, cmp_owner_pods);
	rp_sort(rows, shown, sizeof *rows, cmp_owner_ns);
	for (long i = 0; i < shown; i++) {
		if (i == 0 || strcmp(rows[i]->ns, rows[i - 1]->ns) != 0) {
			if (i)
				PK_HTML_LIT(h, "</tbody>\n");
			PK_HTML_LIT(h, "<tbody><tr class=\"group\"><th colspan=\"5\" scope=\"rowgroup\">");
			pk_html_textf(h, "Namespace %s", rows[i]->ns);
			PK_HTML_LIT(h, "</th></tr>\n");
		}
		owner_row(r, h, rows[i]);
	}
	free(rows);
	rp_table_end(h);
	if (shown < r->nowners)
		rp_note(h, "owners-left-out", "Dropped %ld workload(s) that lose the fewest pods: the table shows at "
		        "most %d.", r->nowners - shown, MAX_OWNER_ROWS);
	rp_section_end(h);
}

/* ---- 3. PDB violations --------------------------------------------------------------- */

/* Budgets or groups: name, the victims they lose, the plans that evict them. */
static void named_table(pk_report *r, pk_html *h, const char *id, const char *const *cols, const rp_nameds *a)
{
	rp_table_start(h, id, cols);
	PK_HTML_LIT(h, "<tbody>\n");
	for (long i = 0; i < a->n; i++) {
		const rp_named *p = &a->v[i];
		PK_HTML_LIT(h, "<tr><td>");
		if (*p->name)
			pk_html_textf(h, "%s/%s", p->ns, p->name);
		else
			pk_html_textf(h, "one in %s (the records do not name it)", p->ns);
		PK_HTML_LIT(h, "</td>");
		rp_td_num(h, p->victims);
		PK_HTML_LIT(h, "<td>");
		rp_unit_links(r, h, &p->units, 20);
		PK_HTML_LIT(h, "</td></tr>\n");
	}
	rp_table_end(h);
}

void rp_write_pdbs(pk_report *r, pk_html *h)
{
	if (rp_section_or_none(h, "pdb", "PDB violations", !r->pdb_violations && !r->pdbs.n,
	                    "No plan evicts a pod beyond its PodDisruptionBudget."))
		return;
	PK_HTML_LIT(h, "<p>");
	pk_html_textf(h, "%ld victim(s) are evicted beyond what their PodDisruptionBudget allows "
	              "(status.disruptionsAllowed): each is one disruption more than the budget. The scheduler "
	              "deletes victims, it does not evict them: the apiserver does not enforce budgets here.",
	              r->pdb_violations);
	PK_HTML_LIT(h, "</p>\n");
	static const char *const cols[] = { "Budget", "Pods beyond it", "Preemptors", NULL };
	named_table(r, h, "pdb-table", cols, &r->pdbs);
	rp_section_end(h);
}

/* ---- 4. gangs ------------------------------------------------------------------------ */

/* A disruptionMode as the record writes it: v1alpha2's string, or the name
 * of the member v1beta1's union sets ("all", "single"). */
static const char *disruption_mode_text(const cJSON *m)
{
	if (cJSON_IsString(m))
		return m->valuestring;
	if (cJSON_IsObject(m) && m->child && m->child->string)
		return m->child->string;
	return "";
}

static void gang_row(pk_report *r, pk_html *h, long i)
{
	const rp_unit *u = &r->units[i];
	PK_HTML_LIT(h, "<tr><td>");
	rp_unit_link(r, h, i);
	PK_HTML_LIT(h, "</td>");
	rp_td_text(h, u->result);
	rp_td_num(h, rp_num(u->plan, "members"));
	if (pk_get(u->plan, "minGroupCount")) { /* a CompositePodGroup's policy counts groups */
		PK_HTML_LIT(h, "<td>");
		pk_html_textf(h, "minGroupCount %ld: %ld member(s)", rp_num(u->plan, "minGroupCount"),
		              rp_num(u->plan, "membersNeeded"));
		PK_HTML_LIT(h, "</td>");
	} else {
		rp_td_num(h, rp_num(u->plan, "minCount"));
	}
	rp_td_num(h, cJSON_GetArraySize(pk_get(u->plan, "placements")));
	rp_td_num(h, u->victims);
	rp_td_num(h, rp_num(u->plan, "victimUnits"));
	rp_td_num(h, rp_num(u->plan, "numPodGroupDisruptions"));
	rp_td_text(h, disruption_mode_text(pk_get(u->plan, "disruptionMode")));
	pk_html_elem(h, "td", pk_str_or(u->plan, "reason", ""), "class", "reason", NULL);
	PK_HTML_LIT(h, "</tr>\n");
}

void rp_write_gangs(pk_report *r, pk_html *h)
{
	rp_section_start(h, "gangs", "Gangs");
	long gangs = 0, placed = 0, disrupted = 0;
	for (long i = 0; i < r->nunits; i++) {
		disrupted += rp_num(r->units[i].plan, "numPodGroupDisruptions");
		if (!r->units[i].group)
			continue;
		gangs++;
		placed += strcmp(r->units[i].result, "Preempt") == 0 ||
		          strcmp(r->units[i].result, "NoPreemptionNeeded") == 0;
	}
	if (!gangs && !disrupted && !r->groups.n) {
		rp_none(h, "No PodGroup is planned or preempted.");
		rp_section_end(h);
		return;
	}
	PK_HTML_LIT(h, "<p>");
	pk_html_textf(h, "%ld pod group(s) planned: %ld placed (with or without preemption), %ld could not be "
	              "placed. Victims include the pods of %ld pod group(s), in %ld PodGroup disruption(s) "
	              "(numPodGroupDisruptions, summed over the plans): a group whose disruptionMode is all "
	              "(PodGroup in v1alpha2) is evicted whole and counts once, however many pods and nodes it "
	              "loses; a pod of a group with mode single counts once on its own.", gangs, placed,
	              gangs - placed, r->groups.n, disrupted);
	PK_HTML_LIT(h, "</p>\n");
	if (r->groups.n) {
		pk_html_elem(h, "h3", "Pod groups that lose pods", NULL);
		static const char *const cols[] = { "PodGroup", "Pods evicted", "Evicted by", NULL };
		named_table(r, h, "victim-groups-table", cols, &r->groups);
	}
	if (gangs) {
		pk_html_elem(h, "h3", "Pod groups planned", NULL);
		static const char *const cols[] = { "PodGroup", "Result", "Members", "minCount", "Placed", "Victims",
			                            "Victim units", "PodGroups disrupted", "Disruption mode",
			                            "Reason", NULL };
		rp_table_start(h, "gangs-table", cols);
		PK_HTML_LIT(h, "<tbody>\n");
		for (long i = 0; i < r->nunits; i++)
			if (r->units[i].group)
				gang_row(r, h, i);
		rp_table_end(h);
	}
	rp_section_end(h);
}

/* ---- 5. cascades --------------------------------------------------------------------- */

/* The unit that evicted the pod a recreated unit stands for: the simulator
 * names a recreated victim <name>-recreated, and a gang's recreated members
 * come back as their PodGroup's unit, named after it. */
static long evicted_by(pk_report *r, const rp_unit *u)
{
	if (u->group) /* a gang's recreated members come back as their group */
		return pk_pair_map_get(&r->group_evicted_by, u->ns, u->name) - 1;
	static const char suffix[] = "-recreated";
	size_t n = strlen(u->name), s = sizeof suffix - 1;
	if (n <= s || strcmp(u->name + n - s, suffix) != 0)
		return -1;
	const char *orig = pk_intern_n(r->strs, u->name, n - s);
	return pk_pair_map_get(&r->evicted_by, u->ns, orig) - 1;
}

void rp_write_cascades(pk_report *r, pk_html *h)
{
	rp_section_start(h, "cascades", "Cascades");
	long recreated = r->summary ? rp_num(r->summary, "recreated") : r->recreated;
	if (!r->recreated) {
		rp_none(h, recreated ? "Recreated victims are not among the plans."
		                     : "No victim comes back: none is recreated by a controller in these plans.");
		rp_section_end(h);
		return;
	}
	PK_HTML_LIT(h, "<p>");
	if (recreated > r->recreated) /* a gang's members come back as one unit */
		pk_html_textf(h, "%ld victim(s) are recreated by their controller and queued again, in %ld unit(s): "
		              "the members of a gang come back as their PodGroup, one unit. %ld unit(s) preempt in "
		              "turn (cascading preemptions).", recreated, r->recreated, r->cascades);
	else
		pk_html_textf(h, "%ld victim(s) are recreated by their controller and queued again; %ld of them preempt "
		              "in turn (cascading preemptions).", r->recreated, r->cascades);
	PK_HTML_LIT(h, "</p>\n");
	static const char *const cols[] = { "Recreated unit", "First evicted by", "Result", "Node", "Victims",
		                            NULL };
	rp_table_start(h, "cascades-table", cols);
	PK_HTML_LIT(h, "<tbody>\n");
	for (long i = 0; i < r->nunits; i++) {
		const rp_unit *u = &r->units[i];
		if (!pk_bool(u->plan, "recreated"))
			continue;
		PK_HTML_LIT(h, "<tr><td>");
		rp_unit_link(r, h, i);
		PK_HTML_LIT(h, "</td><td>");
		long by = evicted_by(r, u);
		if (by >= 0)
			rp_unit_link(r, h, by);
		PK_HTML_LIT(h, "</td>");
		rp_td_text(h, u->result);
		rp_td_text(h, pk_str_or(u->plan, "nominatedNodeName", pk_str_or(u->plan, "node", "")));
		rp_td_num(h, u->victims);
		PK_HTML_LIT(h, "</tr>\n");
	}
	rp_table_end(h);
	rp_section_end(h);
}
