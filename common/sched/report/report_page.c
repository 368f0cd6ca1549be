/* The sections of the report page, in the order report.c writes them. */
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

static void section_end(pk_html *h)
{
	PK_HTML_LIT(h, "</section>\n");
}

/* Start a section; when empty, end it at once with a line that says so
 * (none), and return true. */
static bool section_or_none(pk_html *h, const char *id, const char *title, bool empty, const char *none)
{
	rp_section_start(h, id, title);
	if (!empty)
		return false;
	rp_none(h, none);
	section_end(h);
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

static void td_text(pk_html *h, const char *text)
{
	pk_html_elem(h, "td", text, NULL);
}

static long num(const cJSON *o, const char *path)
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
static void table_start(pk_html *h, const char *id, const char *const *cols)
{
	PK_HTML_LIT(h, "<div class=\"wide\">");
	pk_html_open(h, "table", "class", "sortable", "id", id, NULL);
	thead(h, cols);
}

static void table_end(pk_html *h)
{
	PK_HTML_LIT(h, "</tbody></table></div>\n");
}

/* The node-choice criterion that chose the plan's node (decidedBy), or
 * NULL. */
static const char *criterion_text(const cJSON *plan)
{
	return pk_str(plan, "decidedBy");
}

static void string_list(pk_html *h, const cJSON *arr, long max);

/* What a record says it assumed: its warnings array, after the rest. */
static void warnings(pk_html *h, const cJSON *w)
{
	if (!cJSON_GetArraySize(w))
		return;
	PK_HTML_LIT(h, "<br><strong>Warnings:</strong> ");
	string_list(h, w, 10);
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
	if (section_or_none(h, "warnings", "Warnings", !r->nwarnings,
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
	section_end(h);
}

/* ---- 1. summary ---------------------------------------------------------------------- */

static void count_box(pk_html *h, const char *id, const char *label, long v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%ld", v);
	PK_HTML_LIT(h, "<li>");
	pk_html_elem(h, "span", label, NULL);
	pk_html_elem(h, "strong", buf, "id", id, NULL);
	PK_HTML_LIT(h, "</li>");
}

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
		rows[k].pods += u->group ? num(u->plan, "members") : 1;
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
	              "%ld nominated, %ld unschedulable", num(s, "units"), num(s, "pods"), num(s, "podGroups"),
	              num(s, "nodes"), num(s, "scheduled"), num(s, "nominated"), num(s, "unschedulable"));
	if (num(s, "notEligible"))
		pk_html_textf(h, ", %ld not eligible to preempt", num(s, "notEligible"));
	pk_html_text(h, ".");
	if (num(s, "scaled"))
		pk_html_textf(h, " %ld of them added by --scale.", num(s, "scaled"));
	PK_HTML_LIT(h, "</p>\n");
	if (num(s, "recreationsDropped")) {
		PK_HTML_LIT(h, "<p class=\"note\">");
		pk_html_textf(h, "%ld victim(s) would be recreated beyond the bound on recreations "
		              "(--max-recreations) and were not simulated.", num(s, "recreationsDropped"));
		PK_HTML_LIT(h, "</p>\n");
	}
}

void rp_write_summary(pk_report *r, pk_html *h)
{
	rp_section_start(h, "summary", "Summary");
	result_row rows[16];
	long n = count_results(r, rows, 16);
	PK_HTML_LIT(h, "<ul class=\"counts\">");
	count_box(h, "count-warnings", "Warnings", r->nwarnings);
	count_box(h, "count-units", "Plans", r->nunits);
	for (long i = 0; i < n; i++) {
		char id[200];
		pk_html_id(id, sizeof id, "count-result-", rows[i].result);
		count_box(h, id, rows[i].result, rows[i].units);
	}
	long recreated = r->summary ? num(r->summary, "recreated") : r->recreated;
	long cascades = r->summary ? num(r->summary, "cascadingPreemptions") : r->cascades;
	count_box(h, "count-victims", "Victims", r->victims);
	count_box(h, "count-pdb-violations", "PDB violations", r->pdb_violations);
	count_box(h, "count-recreations", "Recreated victims", recreated);
	count_box(h, "count-cascades", "Cascading preemptions", cascades);
	PK_HTML_LIT(h, "</ul>\n");
	simulation_line(r, h);
	static const char *const cols[] = { "Result", "Plans", "Pods", "Victims", NULL };
	PK_HTML_LIT(h, "<div class=\"wide\"><table id=\"results-table\">");
	thead(h, cols);
	PK_HTML_LIT(h, "<tbody>\n");
	for (long i = 0; i < n; i++) {
		PK_HTML_LIT(h, "<tr>");
		td_text(h, rows[i].result);
		rp_td_num(h, rows[i].units);
		rp_td_num(h, rows[i].pods);
		rp_td_num(h, rows[i].victims);
		PK_HTML_LIT(h, "</tr>\n");
	}
	table_end(h);
	section_end(h);
}

/* ---- applied objects ----------------------------------------------------------------- */

static void string_list(pk_html *h, const cJSON *arr, long max)
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
		pk_html_textf(h, "%ld %s", num(it, "count"), pk_str_or(it, "reason", ""));
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
	td_text(h, pk_str_or(a, "origin", ""));
	td_text(h, pk_str_or(a, "action", ""));
	static const char *const counts[] = { "pods", "placed", "nominated", "unschedulable", "victims" };
	for (int i = 0; i < 5; i++)
		rp_td_num(h, num(a, counts[i]));
	reasons_cell(h, pk_get(a, "reasons"));
	pods_cell(h, pk_get(a, "victimPods"), 20);
	PK_HTML_LIT(h, "<td>");
	pk_html_text(h, pk_str(a, "message"));
	warnings(h, pk_get(a, "warnings"));
	PK_HTML_LIT(h, "</td></tr>\n");
}

void rp_write_applied(pk_report *r, pk_html *h)
{
	if (!cJSON_GetArraySize(r->applied))
		return;
	rp_section_start(h, "applied", "Applied objects");
	static const char *const cols[] = { "Object", "Origin", "Action", "Pods", "Placed", "Nominated",
		                            "Unschedulable", "Victims", "Reasons", "Victim pods", "Message", NULL };
	table_start(h, "applied-table", cols);
	PK_HTML_LIT(h, "<tbody>\n");
	const cJSON *a;
	cJSON_ArrayForEach(a, r->applied)
		applied_row(h, a);
	table_end(h);
	section_end(h);
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
	bool chosen = num(c, "rank") == 1;
	pk_html_open(h, "tr", "class", chosen ? "chosen" : NULL, NULL);
	PK_HTML_LIT(h, "<td class=\"n\">");
	pk_html_textf(h, "%ld", num(c, "rank"));
	if (chosen)
		PK_HTML_LIT(h, "<span class=\"tag\">chosen</span>");
	PK_HTML_LIT(h, "</td>");
	td_text(h, pk_str_or(c, "node", ""));
	rp_td_num(h, num(c, "numPDBViolations"));
	if (pk_get(c, "highestVictimPriority")) {
		rp_td_num(h, num(c, "highestVictimPriority"));
		char text[64], sort[32];
		int64_t sum = 0;
		pk_int64(c, "victimPrioritySum", &sum);
		snprintf(sort, sizeof sort, "%" PRId64, pk_adjusted_sum_text(num(c, "victims"), sum, text, sizeof text));
		pk_html_elem(h, "td", text, "class", "n", "data-sort", sort, NULL);
	} else {
		td_text(h, "-");
		td_text(h, "-");
	}
	rp_td_num(h, num(c, "victims"));
	td_text(h, pk_str_or(c, "highestVictimsEarliestStart", "-"));
	PK_HTML_LIT(h, "</tr>\n");
}

/* The nodes that are no candidate, grouped by why (victims --explain). */
static void other_nodes(pk_html *h, const cJSON *groups)
{
	if (!cJSON_GetArraySize(groups))
		return;
	pk_html_elem(h, "h3", "The other nodes", NULL);
	static const char *const cols[] = { "Nodes", "Why not a candidate", "Which", NULL };
	table_start(h, "other-nodes-table", cols);
	PK_HTML_LIT(h, "<tbody>\n");
	const cJSON *g;
	cJSON_ArrayForEach(g, groups) {
		PK_HTML_LIT(h, "<tr>");
		rp_td_num(h, num(g, "nodes"));
		pk_html_elem(h, "td", pk_str_or(g, "reason", ""), "class", "reason", NULL);
		td_text(h, pk_str_or(g, "names", ""));
		PK_HTML_LIT(h, "</tr>\n");
	}
	table_end(h);
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
	              pk_str_or(pk_get(ch, "preemptor"), "name", ""), num(ch, "candidates"));
	if (cJSON_GetArraySize(ranked))
		pk_html_textf(h, "; node %s chosen.", pk_str_or(cJSON_GetArrayItem(ranked, 0), "node", ""));
	else
		pk_html_text(h, ".");
	const char *crit = u ? criterion_text(u->plan) : NULL;
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
	table_start(h, "choice-table", cols);
	PK_HTML_LIT(h, "<tbody>\n");
	const cJSON *c;
	cJSON_ArrayForEach(c, ranked)
		choice_row(h, c);
	table_end(h);
	pk_html_elem(h, "p", PK_ADJUSTED_SUM_RULE ".", "class", "muted", "id", "adjusted-sum-rule", NULL);
	if (num(ch, "candidates") > cJSON_GetArraySize(ranked)) {
		PK_HTML_LIT(h, "<p class=\"muted\">");
		pk_html_textf(h, "%ld more candidate(s) rank lower and are left out.",
		              num(ch, "candidates") - cJSON_GetArraySize(ranked));
		PK_HTML_LIT(h, "</p>\n");
	}
	other_nodes(h, pk_get(ch, "otherNodes"));
	section_end(h);
}

/* ---- 2. impact by owner -------------------------------------------------------------- */

enum { MAX_OWNER_ROWS = 500, MAX_LINKS = 3 };

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
	rp_unit_links(r, h, &o->units, MAX_LINKS);
	PK_HTML_LIT(h, "</td></tr>\n");
}

void rp_write_owners(pk_report *r, pk_html *h)
{
	if (section_or_none(h, "impact", "Impact by owner", !r->nowners, "No plan evicts a pod."))
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
	table_start(h, "owners-table", cols);
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
	table_end(h);
	if (shown < r->nowners)
		rp_note(h, "owners-left-out", "Dropped %ld workload(s) that lose the fewest pods: the table shows at "
		        "most %d.", r->nowners - shown, MAX_OWNER_ROWS);
	section_end(h);
}

/* ---- 3. PDB violations --------------------------------------------------------------- */

/* Budgets or groups: name, the victims they lose, the plans that evict them. */
static void named_table(pk_report *r, pk_html *h, const char *id, const char *const *cols, const rp_nameds *a)
{
	table_start(h, id, cols);
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
	table_end(h);
}

void rp_write_pdbs(pk_report *r, pk_html *h)
{
	if (section_or_none(h, "pdb", "PDB violations", !r->pdb_violations && !r->pdbs.n,
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
	section_end(h);
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
	td_text(h, u->result);
	rp_td_num(h, num(u->plan, "members"));
	if (pk_get(u->plan, "minGroupCount")) { /* a CompositePodGroup's policy counts groups */
		PK_HTML_LIT(h, "<td>");
		pk_html_textf(h, "minGroupCount %ld: %ld member(s)", num(u->plan, "minGroupCount"),
		              num(u->plan, "membersNeeded"));
		PK_HTML_LIT(h, "</td>");
	} else {
		rp_td_num(h, num(u->plan, "minCount"));
	}
	rp_td_num(h, cJSON_GetArraySize(pk_get(u->plan, "placements")));
	rp_td_num(h, u->victims);
	rp_td_num(h, num(u->plan, "victimUnits"));
	rp_td_num(h, num(u->plan, "numPodGroupDisruptions"));
	td_text(h, disruption_mode_text(pk_get(u->plan, "disruptionMode")));
	pk_html_elem(h, "td", pk_str_or(u->plan, "reason", ""), "class", "reason", NULL);
	PK_HTML_LIT(h, "</tr>\n");
}

void rp_write_gangs(pk_report *r, pk_html *h)
{
	rp_section_start(h, "gangs", "Gangs");
	long gangs = 0, placed = 0, disrupted = 0;
	for (long i = 0; i < r->nunits; i++) {
		disrupted += num(r->units[i].plan, "numPodGroupDisruptions");
		if (!r->units[i].group)
			continue;
		gangs++;
		placed += strcmp(r->units[i].result, "Preempt") == 0 ||
		          strcmp(r->units[i].result, "NoPreemptionNeeded") == 0;
	}
	if (!gangs && !disrupted && !r->groups.n) {
		rp_none(h, "No PodGroup is planned or preempted.");
		section_end(h);
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
		table_start(h, "gangs-table", cols);
		PK_HTML_LIT(h, "<tbody>\n");
		for (long i = 0; i < r->nunits; i++)
			if (r->units[i].group)
				gang_row(r, h, i);
		table_end(h);
	}
	section_end(h);
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
	long recreated = r->summary ? num(r->summary, "recreated") : r->recreated;
	if (!r->recreated) {
		rp_none(h, recreated ? "Recreated victims are not among the plans."
		                     : "No victim comes back: none is recreated by a controller in these plans.");
		section_end(h);
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
	table_start(h, "cascades-table", cols);
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
		td_text(h, u->result);
		td_text(h, pk_str_or(u->plan, "nominatedNodeName", pk_str_or(u->plan, "node", "")));
		rp_td_num(h, u->victims);
		PK_HTML_LIT(h, "</tr>\n");
	}
	table_end(h);
	section_end(h);
}

/* ---- 6. reasons ---------------------------------------------------------------------- */

void rp_write_reasons(pk_report *r, pk_html *h)
{
	if (section_or_none(h, "reasons", "Unschedulable and NotEligible", !r->nreasons, "Every plan places its pods."))
		return;
	PK_HTML_LIT(h, "<p>The reasons of the plans that place nothing, one row per reason: how many plans give "
	               "it and on how many nodes in all (the count before each reason of a FitError). "
	               "Filter: the scheduling cycle's filters; Preemption: the preemption dry run.</p>\n");
	static const char *const cols[] = { "Stage", "Reason", "Plans", "Nodes", "Plans (first ones)", NULL };
	table_start(h, "reasons-table", cols);
	PK_HTML_LIT(h, "<tbody>\n");
	for (long i = 0; i < r->nreasons; i++) {
		const rp_reason *x = &r->reasons[i];
		PK_HTML_LIT(h, "<tr>");
		td_text(h, strcmp(x->stage, "filter") == 0 ? "Filter"
		           : strcmp(x->stage, "preemption") == 0 ? "Preemption" : x->stage);
		pk_html_elem(h, "td", x->text, "class", "reason", NULL);
		rp_td_num(h, x->units);
		if (x->nodes)
			rp_td_num(h, x->nodes);
		else
			td_text(h, "-");
		PK_HTML_LIT(h, "<td>");
		rp_unit_links(r, h, &x->examples, MAX_LINKS);
		PK_HTML_LIT(h, "</td></tr>\n");
	}
	table_end(h);
	section_end(h);
}

/* ---- 7. nodes touched ---------------------------------------------------------------- */

static int64_t qty(const cJSON *list, const char *name)
{
	int64_t v = 0;
	const cJSON *q = pk_get(list, name);
	if (q && pk_qty_from_json(q, &v) != PK_QTY_OK)
		v = 0;
	return v;
}

/* A human quantity: cores, bytes in Ki/Mi/Gi/Ti, counts. */
static void human(const char *res, int64_t milli, char *buf, size_t size)
{
	if (strcmp(res, "cpu") == 0) {
		snprintf(buf, size, "%.3g", (double)milli / 1000);
		return;
	}
	double v = (double)milli / 1000;
	if (strcmp(res, "memory") == 0 || strcmp(res, "ephemeral-storage") == 0 || strncmp(res, "hugepages-", 10) == 0) {
		static const char *const units[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
		int u = 0;
		while (v >= 1024 && u < 5) {
			v /= 1024;
			u++;
		}
		snprintf(buf, size, "%.3g%s", v, units[u]);
		return;
	}
	snprintf(buf, size, "%.6g", v);
}

static bool shown_resource(const rp_node *n, const char *name)
{
	if (!strcmp(name, "cpu") || !strcmp(name, "memory") || !strcmp(name, "pods"))
		return true;
	bool used = qty(n->before, name) || qty(n->after, name);
	if (!strcmp(name, "ephemeral-storage") || !strncmp(name, "hugepages-", 10))
		return used;
	return qty(n->alloc, name) > 0 || used;
}

enum { BAR_X1 = 122, BAR_X2 = 282, BAR_W = 150, BAR_H = 10, ROW_H = 15, SVG_W = 560 };

/* A bar's length for used of cap: at least a pixel when anything is used,
 * at most the whole bar (the text says "over"). */
static int bar_len(int64_t used, int64_t cap)
{
	if (used <= 0)
		return 0;
	if (cap <= 0 || used >= cap)
		return BAR_W;
	int w = (int)((double)used / (double)cap * BAR_W + 0.5);
	return w ? w : 1;
}

static int percent(int64_t used, int64_t cap)
{
	return cap > 0 ? (int)((used * 100 + cap / 2) / cap) : 0;
}

typedef struct bar_rows {
	const char *names[16];
	int64_t cap[16], before[16], after[16];
	int n;
} bar_rows;

/* The rectangles of one kind (tracks, before, after) of every row as one
 * path: a node's picture stays a few hundred bytes. */
static void bars_path(pk_html *h, const bar_rows *b, const char *cls)
{
	char d[16 * 80];
	size_t w = 0;
	for (int i = 0; i < b->n; i++) {
		int y = i * ROW_H + 2;
		if (*cls == 't') {
			w += (size_t)snprintf(d + w, sizeof d - w, "M%d %dh%dv%dh-%dzM%d %dh%dv%dh-%dz", BAR_X1, y, BAR_W,
			                      BAR_H, BAR_W, BAR_X2, y, BAR_W, BAR_H, BAR_W);
			continue;
		}
		int len = bar_len(*cls == 'b' ? b->before[i] : b->after[i], b->cap[i]);
		if (len)
			w += (size_t)snprintf(d + w, sizeof d - w, "M%d %dh%dv%dh-%dz", *cls == 'b' ? BAR_X1 : BAR_X2, y,
			                      len, BAR_H, len);
	}
	if (w)
		pk_html_void(h, "path", "class", cls, "d", d, NULL);
}

/* Beside the bars, the figures as text: colour and pattern are not all
 * that tells before from after. */
static void bar_texts(pk_html *h, const bar_rows *b)
{
	for (int i = 0; i < b->n; i++) {
		char y[16], capt[32];
		snprintf(y, sizeof y, "%d", i * ROW_H + 11);
		pk_html_elem(h, "text", b->names[i], "x", "0", "y", y, NULL);
		human(b->names[i], b->cap[i], capt, sizeof capt);
		pk_html_open(h, "text", "x", "440", "y", y, NULL);
		pk_html_textf(h, "%d%% \xE2\x86\x92 %d%% of %s%s", percent(b->before[i], b->cap[i]),
		              percent(b->after[i], b->cap[i]), capt, b->after[i] > b->cap[i] ? " over" : "");
		pk_html_close(h, "text");
	}
}

static void node_bars(pk_html *h, const rp_node *n)
{
	if (!n->alloc) {
		pk_html_text(h, "The plans carry no nodeResources for this node.");
		return;
	}
	bar_rows b = { .n = 0 };
	const cJSON *it;
	cJSON_ArrayForEach(it, n->alloc) {
		if (b.n == 16 || !shown_resource(n, it->string))
			continue;
		b.names[b.n] = it->string;
		b.cap[b.n] = qty(n->alloc, it->string);
		b.before[b.n] = qty(n->before, it->string);
		b.after[b.n] = qty(n->after, it->string);
		b.n++;
	}
	char vb[64], hs[16];
	snprintf(vb, sizeof vb, "0 0 %d %d", SVG_W, b.n * ROW_H);
	snprintf(hs, sizeof hs, "%d", b.n * ROW_H);
	pk_html_open(h, "svg", "class", "bars", "width", "560", "height", hs, "viewBox", vb, NULL);
	bars_path(h, &b, "t");
	bars_path(h, &b, "b");
	bars_path(h, &b, "a");
	for (int i = 0; i < b.n; i++)
		if (b.after[i] > b.cap[i]) {
			char y[16];
			snprintf(y, sizeof y, "%d", i * ROW_H + 2);
			pk_html_void(h, "rect", "class", "o", "x", "282", "y", y, "width", "150", "height", "10", NULL);
		}
	bar_texts(h, &b);
	pk_html_close(h, "svg");
}

static void node_row(pk_report *r, pk_html *h, const rp_node *n)
{
	char id[600];
	pk_html_id(id, sizeof id, "node-", n->name);
	pk_html_open(h, "tr", "id", id, NULL);
	pk_html_elem(h, "td", n->name, "class", "name", NULL);
	char sort[32];
	snprintf(sort, sizeof sort, "%ld", n->victims);
	pk_html_open(h, "td", "data-sort", sort, NULL);
	if (n->victims) {
		pk_html_textf(h, "\xE2\x88\x92%ld pod(s), by ", n->victims);
		rp_unit_links(r, h, &n->victim_units, MAX_LINKS);
	} else {
		pk_html_text(h, "none");
	}
	PK_HTML_LIT(h, "</td><td>");
	if (n->placed_units.n) {
		pk_html_textf(h, "+%ld: ", n->placed_units.n);
		rp_unit_links(r, h, &n->placed_units, MAX_LINKS);
	} else {
		pk_html_text(h, "none");
	}
	PK_HTML_LIT(h, "</td><td>");
	node_bars(h, n);
	PK_HTML_LIT(h, "</td></tr>\n");
}

void rp_write_nodes(pk_report *r, pk_html *h)
{
	if (section_or_none(h, "nodes", "Nodes touched", !r->nnodes, "No plan touches a node."))
		return;
	long shown = r->nnodes < r->o.max_nodes ? r->nnodes : r->o.max_nodes;
	PK_HTML_LIT(h, "<p>");
	pk_html_textf(h, "%ld node(s) lose or gain pods", r->nnodes);
	if (r->o.nodes > r->nnodes)
		pk_html_textf(h, "; the other %ld node(s) of the cluster are untouched", r->o.nodes - r->nnodes);
	else if (r->o.nodes >= 0)
		pk_html_text(h, ", every node of the cluster");
	pk_html_text(h, ". Each bar is what the pods bound or nominated to the node request against what it can "
	                "allocate: solid before the plans, hatched after them (victims gone, preemptors placed or nominated); "
	                "the figures beside each bar say the same.");
	PK_HTML_LIT(h, "</p>\n");
	static const char *const cols[] = { "Node", "Victims", "Placed or nominated", "Requests: before, after",
		                            NULL };
	table_start(h, "nodes-table", cols);
	PK_HTML_LIT(h, "<tbody>\n");
	for (long i = 0; i < shown; i++)
		node_row(r, h, &r->nodes[i]);
	table_end(h);
	if (shown < r->nnodes)
		rp_note(h, "nodes-left-out", "Dropped %ld of %ld touched node(s), those with the fewest victims: the "
		        "page draws at most %d. The plans below name them all.", r->nnodes - shown, r->nnodes,
		        r->o.max_nodes);
	section_end(h);
}

/* ---- 8. per unit ----------------------------------------------------------------------- */

enum { MAX_VICTIMS_LISTED = 50 };

static void calls_cell(pk_html *h, const rp_unit *u)
{
	static const char *const what[RP_NCALLS] = { "DisruptionTarget patch", "delete", "nomination",
		                                     "nomination cleared", "other" };
	long total = 0;
	for (int k = 0; k < RP_NCALLS; k++)
		total += u->calls[k];
	char sort[32];
	snprintf(sort, sizeof sort, "%ld", total);
	pk_html_open(h, "td", "data-sort", sort, NULL);
	bool first = true;
	for (int k = 0; k < RP_NCALLS; k++) {
		if (!u->calls[k])
			continue;
		pk_html_textf(h, "%s%ld ", first ? "" : ", ", u->calls[k]);
		pk_html_text_words(h, what[k]);
		first = false;
	}
	if (first)
		pk_html_text(h, "none");
	PK_HTML_LIT(h, "</td>");
}

static void victims_cell(pk_html *h, const rp_unit *u)
{
	char sort[32];
	snprintf(sort, sizeof sort, "%ld", u->victims);
	pk_html_open(h, "td", "data-sort", sort, NULL);
	pk_html_textf(h, "%ld", u->victims);
	if (u->victims) {
		PK_HTML_LIT(h, "<ul class=\"pods\">");
		const cJSON *v;
		long k = 0;
		cJSON_ArrayForEach(v, pk_get(u->plan, "victims")) {
			if (k++ == MAX_VICTIMS_LISTED)
				break;
			PK_HTML_LIT(h, "<li>");
			pk_html_textf(h, "%s/%s", pk_str_or(v, "namespace", ""), pk_str_or(v, "name", ""));
			if (pk_bool(v, "pdbViolation"))
				PK_HTML_LIT(h, "<span class=\"tag warn\">PDB</span>");
			PK_HTML_LIT(h, "</li>");
		}
		PK_HTML_LIT(h, "</ul>");
		if (u->victims > MAX_VICTIMS_LISTED)
			pk_html_textf(h, "and %ld more", u->victims - MAX_VICTIMS_LISTED);
	}
	PK_HTML_LIT(h, "</td>");
}

static void unit_row(pk_report *r, pk_html *h, long i)
{
	const rp_unit *u = &r->units[i];
	pk_html_open(h, "tr", "id", u->id, NULL);
	rp_td_num(h, i + 1);
	PK_HTML_LIT(h, "<td class=\"name\">");
	pk_html_textf(h, "%s%s/%s", u->label, u->ns, u->name);
	if (pk_bool(u->plan, "recreated"))
		PK_HTML_LIT(h, "<span class=\"tag\">recreated</span>");
	if (pk_bool(u->plan, "scaled"))
		PK_HTML_LIT(h, "<span class=\"tag\">scaled</span>");
	PK_HTML_LIT(h, "</td>");
	rp_td_num(h, num(pk_get(u->plan, "preemptor"), "priority"));
	PK_HTML_LIT(h, "<td>");
	pk_html_text_words(h, u->result);
	PK_HTML_LIT(h, "</td>");
	const char *node = pk_str(u->plan, "nominatedNodeName");
	if (!node)
		node = pk_str(u->plan, "node");
	long placed = cJSON_GetArraySize(pk_get(u->plan, "placements"));
	if (node || !placed) {
		pk_html_elem(h, "td", node ? node : "-", "class", "name", NULL);
	} else {
		PK_HTML_LIT(h, "<td>");
		pk_html_textf(h, "%ld node(s) for %ld member(s)", placed, placed);
		PK_HTML_LIT(h, "</td>");
	}
	victims_cell(h, u);
	rp_td_num(h, num(u->plan, "numPDBViolations"));
	const char *crit = criterion_text(u->plan);
	td_text(h, crit ? crit : "-");
	calls_cell(h, u);
	PK_HTML_LIT(h, "<td class=\"reason\">");
	pk_html_text(h, pk_str_or(u->plan, "reason", ""));
	warnings(h, pk_get(u->plan, "warnings"));
	PK_HTML_LIT(h, "</td></tr>\n");
}

void rp_write_units(pk_report *r, pk_html *h)
{
	if (section_or_none(h, "units", "Plans", !r->nunits, "No plans."))
		return;
	PK_HTML_LIT(h, "<p>One row per plan, in the order the tool wrote them (for --simulate, queue order); "
	               "each row is an anchor: <code>#pod-NAMESPACE.NAME</code>, <code>#podgroup-NAMESPACE.NAME</code> "
	               "or <code>#compositepodgroup-NAMESPACE.NAME</code>.</p>\n");
	static const char *const cols[] = { "#", "Preemptor", "Priority", "Result", "Node", "Victims", "PDB",
		                            "Criterion", "API calls", "Reason", NULL };
	table_start(h, "units-table", cols);
	PK_HTML_LIT(h, "<tbody>\n");
	long shown = r->nunits < r->o.max_units ? r->nunits : r->o.max_units;
	for (long i = 0; i < shown; i++)
		unit_row(r, h, i);
	table_end(h);
	if (shown < r->nunits)
		rp_note(h, "units-left-out", "The last %ld of %ld plans are left out of this table; the sections above "
		        "count them all.", r->nunits - shown, r->nunits);
	section_end(h);
}
