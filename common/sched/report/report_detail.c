/* The page's detailed sections, after the overview (report_page.c):
 * reasons grouped, nodes touched with their capacity bars, per unit. */
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

/* ---- 6. reasons ---------------------------------------------------------------------- */

void rp_write_reasons(pk_report *r, pk_html *h)
{
	if (rp_section_or_none(h, "reasons", "Unschedulable and NotEligible", !r->nreasons, "Every plan places its pods."))
		return;
	PK_HTML_LIT(h, "<p>The reasons of the plans that place nothing, one row per reason: how many plans give "
	               "it and on how many nodes in all (the count before each reason of a FitError). "
	               "Filter: the scheduling cycle's filters; Preemption: the preemption dry run.</p>\n");
	static const char *const cols[] = { "Stage", "Reason", "Plans", "Nodes", "Plans (first ones)", NULL };
	rp_table_start(h, "reasons-table", cols);
	PK_HTML_LIT(h, "<tbody>\n");
	for (long i = 0; i < r->nreasons; i++) {
		const rp_reason *x = &r->reasons[i];
		PK_HTML_LIT(h, "<tr>");
		rp_td_text(h, strcmp(x->stage, "filter") == 0 ? "Filter"
		           : strcmp(x->stage, "preemption") == 0 ? "Preemption" : x->stage);
		pk_html_elem(h, "td", x->text, "class", "reason", NULL);
		rp_td_num(h, x->units);
		if (x->nodes)
			rp_td_num(h, x->nodes);
		else
			rp_td_text(h, "-");
		PK_HTML_LIT(h, "<td>");
		rp_unit_links(r, h, &x->examples, RP_MAX_LINKS);
		PK_HTML_LIT(h, "</td></tr>\n");
	}
	rp_table_end(h);
	rp_section_end(h);
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
		rp_unit_links(r, h, &n->victim_units, RP_MAX_LINKS);
	} else {
		pk_html_text(h, "none");
	}
	PK_HTML_LIT(h, "</td><td>");
	if (n->placed_units.n) {
		pk_html_textf(h, "+%ld: ", n->placed_units.n);
		rp_unit_links(r, h, &n->placed_units, RP_MAX_LINKS);
	} else {
		pk_html_text(h, "none");
	}
	PK_HTML_LIT(h, "</td><td>");
	node_bars(h, n);
	PK_HTML_LIT(h, "</td></tr>\n");
}

void rp_write_nodes(pk_report *r, pk_html *h)
{
	if (rp_section_or_none(h, "nodes", "Nodes touched", !r->nnodes, "No plan touches a node."))
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
	rp_table_start(h, "nodes-table", cols);
	PK_HTML_LIT(h, "<tbody>\n");
	for (long i = 0; i < shown; i++)
		node_row(r, h, &r->nodes[i]);
	rp_table_end(h);
	if (shown < r->nnodes)
		rp_note(h, "nodes-left-out", "Dropped %ld of %ld touched node(s), those with the fewest victims: the "
		        "page draws at most %d. The plans below name them all.", r->nnodes - shown, r->nnodes,
		        r->o.max_nodes);
	rp_section_end(h);
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
	rp_td_num(h, rp_num(pk_get(u->plan, "preemptor"), "priority"));
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
	rp_td_num(h, rp_num(u->plan, "numPDBViolations"));
	const char *crit = rp_criterion_text(u->plan);
	rp_td_text(h, crit ? crit : "-");
	calls_cell(h, u);
	PK_HTML_LIT(h, "<td class=\"reason\">");
	pk_html_text(h, pk_str_or(u->plan, "reason", ""));
	rp_record_warnings(h, pk_get(u->plan, "warnings"));
	PK_HTML_LIT(h, "</td></tr>\n");
}

void rp_write_units(pk_report *r, pk_html *h)
{
	if (rp_section_or_none(h, "units", "Plans", !r->nunits, "No plans."))
		return;
	PK_HTML_LIT(h, "<p>One row per plan, in the order the tool wrote them (for --simulate, queue order); "
	               "each row is an anchor: <code>#pod-NAMESPACE.NAME</code>, <code>#podgroup-NAMESPACE.NAME</code> "
	               "or <code>#compositepodgroup-NAMESPACE.NAME</code>.</p>\n");
	static const char *const cols[] = { "#", "Preemptor", "Priority", "Result", "Node", "Victims", "PDB",
		                            "Criterion", "API calls", "Reason", NULL };
	rp_table_start(h, "units-table", cols);
	PK_HTML_LIT(h, "<tbody>\n");
	long shown = r->nunits < r->o.max_units ? r->nunits : r->o.max_units;
	for (long i = 0; i < shown; i++)
		unit_row(r, h, i);
	rp_table_end(h);
	if (shown < r->nunits)
		rp_note(h, "units-left-out", "The last %ld of %ld plans are left out of this table; the sections above "
		        "count them all.", r->nunits - shown, r->nunits);
	rp_section_end(h);
}
