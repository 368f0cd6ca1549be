/* The page of a replay; see replay_page.h. Everything on it is read from
 * the ReplaySummary and ReplaySeries records (and the table of classes
 * -o table prints), nothing is computed again. */
#include "sched/report/replay_page.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "io/html.h"
#include "io/plot.h"
#include "k8s/json.h"
#include "version.h"

enum {
	MAX_MARKS = 60,           /* eviction marks per chart: windows beyond it are grouped */
	MAX_LAYERS = PK_PLOT_AREAS, /* classes drawn apart; the lowest ones beyond share the last colour */
};

/* A chart per resource: 760 wide, so that in the page's two columns (one
 * on a narrow window) the SVG is drawn near its own size and its 11 px
 * labels stay 11 px. */
static const pk_plot_frame chart_frame = { 760, 250, 70, 736, 12, 212 };

static double num(const cJSON *o, const char *path)
{
	const cJSON *v = pk_getp(o, path);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static void section_start(pk_html *h, const char *id, const char *title)
{
	pk_html_open(h, "section", "id", id, NULL);
	pk_html_elem(h, "h2", title, NULL);
	PK_HTML_LIT(h, "\n");
}

/* ---- head, warnings, classes --------------------------------------------------------- */

static void write_head(pk_html *h, const pk_replay_page *p)
{
	char title[300];
	snprintf(title, sizeof title, "Replay timeline: %s", p->title);
	pk_html_page_begin(h, title);
	const cJSON *s = p->summary;
	PK_HTML_LIT(h, "<header><h1>Replay timeline</h1><p class=\"meta\">");
	char dur[32];
	pk_plot_duration_text(num(s, "durationSeconds"), dur, sizeof dur);
	pk_html_textf(h, "%s: %.0f trace pod(s) on a cluster of %.0f node(s), from %s to %s (%s, %.0f instant(s), "
	              "%.0f event(s)); answers for Kubernetes %s; written by preemptkit " PK_VERSION ".",
	              p->title, num(s, "tracePods"), num(s, "nodes"), pk_str_or(s, "start", "?"),
	              pk_str_or(s, "end", "?"), dur, num(s, "instants"), num(s, "events"), p->release);
	PK_HTML_LIT(h, "</p></header>\n<nav aria-label=\"Sections\"><ol><li><a href=\"#warnings\">Warnings</a></li>"
	               "<li><a href=\"#classes\">Classes</a></li><li><a href=\"#timeline\">Allocated over time</a></li>"
	               "<li><a href=\"#waits\">Waits</a></li><li><a href=\"#data\">Data</a></li></ol></nav>\n");
}

static void write_warnings(pk_html *h, const cJSON *summary)
{
	section_start(h, "warnings", "Warnings");
	const cJSON *w = pk_get(summary, "warnings");
	if (!cJSON_GetArraySize(w)) {
		pk_html_elem(h, "p", "None: no answer on this page rests on an assumption the tool knows of.", "class",
		             "none", NULL);
	} else {
		PK_HTML_LIT(h, "<p>What the replay assumed or left out, each once; the summary record carries them as "
		               "<code>warnings</code>.</p>\n<ul class=\"warnings\">\n");
		const cJSON *it;
		cJSON_ArrayForEach(it, w)
			if (cJSON_IsString(it)) {
				pk_html_elem(h, "li", it->valuestring, "class", "note", NULL);
				PK_HTML_LIT(h, "\n");
			}
		PK_HTML_LIT(h, "</ul>\n");
	}
	PK_HTML_LIT(h, "</section>\n");
}

static void write_classes(pk_html *h, const pk_replay_page *p)
{
	const cJSON *s = p->summary, *c;
	double evicted = 0, never = 0;
	cJSON_ArrayForEach(c, pk_get(s, "classes")) {
		evicted += num(c, "evicted");
		never += num(c, "neverScheduled");
	}
	section_start(h, "classes", "Classes");
	PK_HTML_LIT(h, "<ul class=\"counts\">");
	pk_html_count(h, "count-trace-pods", "trace pods", (long)num(s, "tracePods"));
	pk_html_count(h, "count-classes", "priority classes", cJSON_GetArraySize(pk_get(s, "classes")));
	pk_html_count(h, "count-evicted", "evicted (trace pods)", (long)evicted);
	pk_html_count(h, "count-snapshot-evicted", "snapshot pods evicted", (long)num(s, "snapshotEvicted"));
	pk_html_count(h, "count-never", "never scheduled", (long)never);
	PK_HTML_LIT(h, "</ul>\n<p>Per PriorityClass, highest first, as <code>-o table</code> prints it: the trace's "
	               "pods and their replacements; waits from arrival to the first bind (to the end for a pod never "
	               "scheduled), in seconds; lost pod-seconds are run time thrown away by evictions.</p>\n");
	pk_table_html(p->classes, h, "classes-table");
	if (num(s, "notArrivedBeforeEnd") > 0 || num(s, "skippedWithoutCreationTimestamp") > 0) {
		PK_HTML_LIT(h, "<p class=\"note\">");
		pk_html_textf(h, "Not counted above: %.0f trace pod(s) that had not arrived when the replay stopped, %.0f "
		              "without metadata.creationTimestamp.", num(s, "notArrivedBeforeEnd"),
		              num(s, "skippedWithoutCreationTimestamp"));
		PK_HTML_LIT(h, "</p>\n");
	}
	PK_HTML_LIT(h, "</section>\n");
}

/* ---- the charts of allocated resources ------------------------------------------------ */

/* How a resource is drawn: memory in GiB, cpu in cores, others as counts. */
static double scale_of(const char *res, const char **unit)
{
	if (strcmp(res, "memory") == 0) {
		*unit = "GiB";
		return 1.0 / (1024.0 * 1024.0 * 1024.0);
	}
	*unit = strcmp(res, "cpu") == 0 ? "cores" : "";
	return 1;
}

/* The values of a JSON array of n numbers, scaled; missing ones 0. */
static void values(const cJSON *arr, long n, double scale, double *out)
{
	const cJSON *v = arr ? arr->child : NULL;
	for (long i = 0; i < n; i++, v = v ? v->next : NULL)
		out[i] = cJSON_IsNumber(v) ? v->valuedouble * scale : 0;
}

/* "2 eviction(s) at 2026-01-01T00:00:15Z (+15s) to +20s: ns/a (by ns/p), ..." */
static void mark_tip(char *buf, size_t size, const cJSON *marks, long from, long to, const char *start_rfc)
{
	long count = 0;
	double first = -1, last = 0;
	const cJSON *first_rec = NULL;
	for (long i = from; i < to; i++) {
		const cJSON *m = cJSON_GetArrayItem(marks, (int)i);
		if (!first_rec)
			first_rec = m;
		count += (long)num(m, "count");
		if (first < 0)
			first = num(m, "firstOffsetSeconds");
		last = num(m, "lastOffsetSeconds");
	}
	char a[32], b[32];
	pk_plot_duration_text(first, a, sizeof a);
	pk_plot_duration_text(last, b, sizeof b);
	size_t w = (size_t)snprintf(buf, size, "%ld eviction(s) at %s (+%s after %s)", count,
	                            pk_str_or(first_rec, "first", "?"), a, start_rfc);
	if (last > first && w < size)
		w += (size_t)snprintf(buf + w, size - w, " to +%s", b);
	const cJSON *pod;
	int shown = 0;
	cJSON_ArrayForEach(pod, pk_get(first_rec, "pods")) {
		if (w >= size)
			break;
		w += (size_t)snprintf(buf + w, size - w, "%s %s/%s", shown++ ? "," : ":", pk_str_or(pod, "namespace", ""),
		                      pk_str_or(pod, "name", ""));
		if (pk_str(pod, "preemptor") && w < size)
			w += (size_t)snprintf(buf + w, size - w, " (preempted by %s)", pk_str(pod, "preemptor"));
	}
	if (count > shown && shown && w < size)
		snprintf(buf + w, size - w, " and %ld more", count - shown);
}

/* The evictions as marks: one per window that has any, grouped when
 * there are more than MAX_MARKS. */
static void eviction_marks(pk_html *h, const cJSON *series, double tmax)
{
	const cJSON *marks = pk_get(series, "evictions");
	long n = cJSON_GetArraySize(marks);
	long group = n > MAX_MARKS ? (n + MAX_MARKS - 1) / MAX_MARKS : 1;
	const char *start = pk_str_or(series, "start", "?");
	for (long i = 0; i < n; i += group) {
		long to = i + group < n ? i + group : n;
		char tip[1200];
		mark_tip(tip, sizeof tip, marks, i, to, start);
		pk_plot_mark(h, &chart_frame, num(cJSON_GetArrayItem(marks, (int)i), "firstOffsetSeconds"), tmax, tip);
	}
}

typedef struct layer_set {
	pk_plot_layer layers[MAX_LAYERS];
	double *v[MAX_LAYERS];
	char tips[MAX_LAYERS][300];
	int n;
} layer_set;

/* The classes' layers of one resource, highest priority at the bottom; the
 * classes beyond MAX_LAYERS - 1 summed into the last. */
static void class_layers(layer_set *ls, const cJSON *series, const char *res, long nwin, double scale,
                         const char *unit)
{
	const cJSON *classes = pk_get(series, "classes"), *c;
	int ncls = cJSON_GetArraySize(classes), k = 0;
	double *tmp = pk_xcalloc((size_t)nwin + 1, sizeof *tmp);
	memset(ls, 0, sizeof *ls);
	cJSON_ArrayForEach(c, classes) {
		int slot = k < MAX_LAYERS - 1 || ncls <= MAX_LAYERS ? k : MAX_LAYERS - 1;
		if (!ls->v[slot])
			ls->v[slot] = pk_xcalloc((size_t)nwin + 1, sizeof *ls->v[slot]);
		values(pk_get(pk_get(c, "allocated"), res), nwin, scale, tmp);
		double mean = 0;
		for (long i = 0; i < nwin; i++) {
			ls->v[slot][i] += tmp[i];
			mean += ls->v[slot][i];
		}
		mean /= (double)(nwin ? nwin : 1);
		if (slot < MAX_LAYERS - 1 || ncls <= MAX_LAYERS)
			snprintf(ls->tips[slot], sizeof ls->tips[slot], "%s (priority %.0f): %.4g %s of %s allocated, "
			         "mean over the windows", pk_str_or(c, "priorityClassName", "?"), num(c, "priority"), mean,
			         *unit ? unit : "units", res);
		else
			snprintf(ls->tips[slot], sizeof ls->tips[slot], "%d lower classes together: %.4g %s of %s allocated, "
			         "mean over the windows", ncls - (MAX_LAYERS - 1), mean, *unit ? unit : "units", res);
		ls->layers[slot] = (pk_plot_layer){ ls->v[slot], ls->tips[slot] };
		if (slot + 1 > ls->n)
			ls->n = slot + 1;
		k++;
	}
	free(tmp);
}

static void layer_set_free(layer_set *ls)
{
	for (int i = 0; i < MAX_LAYERS; i++)
		free(ls->v[i]);
}

/* What the summary says of a resource's use over the replay. */
static const cJSON *utilisation_of(const cJSON *summary, const char *res)
{
	const cJSON *u;
	cJSON_ArrayForEach(u, pk_get(summary, "utilisation"))
		if (strcmp(pk_str_or(u, "resource", ""), res) == 0)
			return u;
	return NULL;
}

static void resource_chart(pk_html *h, const pk_replay_page *p, const cJSON *res)
{
	const cJSON *series = p->series;
	const char *name = pk_str_or(res, "resource", "?"), *unit;
	double scale = scale_of(name, &unit);
	long nwin = (long)num(series, "windows");
	double width = num(series, "windowSeconds"), end = num(series, "durationSeconds");
	double alloc = num(res, "allocatable") * scale;
	double *peak = pk_xcalloc((size_t)nwin + 1, sizeof *peak), pmax = 0;
	values(pk_get(res, "peakAllocated"), nwin, scale, peak);
	for (long i = 0; i < nwin; i++)
		pmax = fmax(pmax, peak[i]);
	double ystep, tstep;
	double ytop = pk_plot_nice_axis(fmax(alloc, pmax), &ystep);
	double tright = pk_plot_time_axis(end > 0 ? end : 1, &tstep);

	char caption[400], a[64], pk[64], mean[64];
	const cJSON *u = utilisation_of(p->summary, name);
	pk_plot_value_text(alloc, unit, a, sizeof a);
	pk_plot_value_text(num(u, "peakAllocated") * scale, unit, pk, sizeof pk);
	pk_plot_value_text(num(u, "meanAllocated") * scale, unit, mean, sizeof mean);
	snprintf(caption, sizeof caption, "%s: %s allocatable; allocated %s on average (%.1f %%), %s at the peak", name,
	         a, mean, num(u, "meanFraction") * 100, pk);
	char id[200];
	pk_html_id(id, sizeof id, "chart-", name);
	pk_html_open(h, "figure", "id", id, NULL);
	pk_html_elem(h, "figcaption", caption, NULL);
	char label[600];
	snprintf(label, sizeof label, "%s allocated per priority class over the replay, stacked; %s", name, caption);
	pk_plot_svg_open(h, &chart_frame, label);
	char xtitle[160];
	snprintf(xtitle, sizeof xtitle, "time since %s (the first arrival)", pk_str_or(series, "start", "?"));
	pk_plot_axes(h, &chart_frame, unit, tright, tstep, ytop, ystep, PK_PLOT_DURATION, xtitle);
	layer_set ls;
	class_layers(&ls, series, name, nwin, scale, unit);
	pk_plot_stack(h, &chart_frame, ls.layers, ls.n, nwin, width, end > 0 ? end : 1, tright, ytop);
	layer_set_free(&ls);
	pk_plot_steps(h, &chart_frame, peak, nwin, width, end > 0 ? end : 1, tright, ytop, 3);
	char tip[200];
	snprintf(tip, sizeof tip, "allocatable: %s", a);
	pk_plot_hline(h, &chart_frame, alloc, ytop, 1, tip);
	eviction_marks(h, series, tright);
	pk_html_close(h, "svg");
	PK_HTML_LIT(h, "</figure>\n");
	free(peak);
}

static void legend(pk_html *h, const cJSON *series)
{
	pk_plot_key keys[MAX_LAYERS + 3];
	char labels[MAX_LAYERS][300];
	const cJSON *classes = pk_get(series, "classes"), *c;
	int ncls = cJSON_GetArraySize(classes), n = 0;
	cJSON_ArrayForEach(c, classes) {
		if (n == MAX_LAYERS - 1 && ncls > MAX_LAYERS) {
			snprintf(labels[n], sizeof labels[n], "the %d lower classes", ncls - n);
			keys[n] = (pk_plot_key){ PK_PLOT_KEY_AREA, n, labels[n] };
			n++;
			break;
		}
		snprintf(labels[n], sizeof labels[n], "%s (%.0f)", pk_str_or(c, "priorityClassName", "?"), num(c, "priority"));
		keys[n] = (pk_plot_key){ PK_PLOT_KEY_AREA, n, labels[n] };
		n++;
	}
	keys[n++] = (pk_plot_key){ PK_PLOT_KEY_LINE, 3, "peak of the total in a window" };
	keys[n++] = (pk_plot_key){ PK_PLOT_KEY_LINE, 1, "allocatable" };
	keys[n++] = (pk_plot_key){ PK_PLOT_KEY_MARK, 0, "evictions" };
	pk_plot_legend(h, keys, n);
}

static void write_timeline(pk_html *h, const pk_replay_page *p)
{
	const cJSON *series = p->series;
	section_start(h, "timeline", "Allocated over time");
	char width[32], dur[32];
	pk_plot_duration_text(num(series, "windowSeconds"), width, sizeof width);
	pk_plot_duration_text(num(series, "durationSeconds"), dur, sizeof dur);
	long nev = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, pk_get(series, "evictions"))
		nev += (long)num(e, "count");
	PK_HTML_LIT(h, "<p>");
	pk_html_textf(h, "The resources the pods on the nodes request, per PriorityClass (highest at the bottom; the "
	              "snapshot's pods included, terminating victims until they leave), over the %s of the replay. ", dur);
	if (num(series, "windowSeconds") > 1)
		pk_html_textf(h, "Downsampled to keep the page small: %.0f windows of %s each (at most %d), each band the "
		              "time-weighted mean in its window, the line over them the peak of the total in it; "
		              "-o json has every event. ", num(series, "windows"), width, PK_REPLAY_SERIES_WINDOWS);
	else
		pk_html_textf(h, "Every second as it was (%.0f windows of 1s; longer replays are downsampled to at most %d "
		              "windows). ", num(series, "windows"), PK_REPLAY_SERIES_WINDOWS);
	pk_html_textf(h, "%ld eviction(s) marked; a mark's tooltip says when (RFC 3339 and the offset) and which pods.",
	              nev);
	PK_HTML_LIT(h, "</p>\n");
	legend(h, series);
	PK_HTML_LIT(h, "<div class=\"grid charts\">\n");
	const cJSON *res;
	cJSON_ArrayForEach(res, pk_get(series, "resources"))
		resource_chart(h, p, res);
	PK_HTML_LIT(h, "</div>\n</section>\n");
}

/* ---- waits ------------------------------------------------------------------------- */

static void seconds_text(double s, char *buf, size_t size)
{
	char d[32];
	pk_plot_duration_text(s, d, sizeof d);
	if (s >= 60)
		snprintf(buf, size, "%.0f s (%s)", s, d);
	else
		snprintf(buf, size, "%.0f s", s);
}

static void write_waits(pk_html *h, const cJSON *summary)
{
	section_start(h, "waits", "Waits per class");
	const cJSON *classes = pk_get(summary, "classes"), *c;
	int n = cJSON_GetArraySize(classes), k = 0;
	if (!n) {
		pk_html_elem(h, "p", "No trace pod arrived: no waits.", "class", "none", NULL);
		PK_HTML_LIT(h, "</section>\n");
		return;
	}
	pk_plot_range *rows = pk_xcalloc((size_t)n, sizeof *rows);
	struct row_text { char label[320], note[400], tip[1000]; } *text = pk_xcalloc((size_t)n, sizeof *text);
	cJSON_ArrayForEach(c, classes) {
		double p50 = num(c, "waitSeconds.p50"), p95 = num(c, "waitSeconds.p95"), max = num(c, "waitSeconds.max");
		char a[48], b[48], m[48];
		seconds_text(p50, a, sizeof a);
		seconds_text(p95, b, sizeof b);
		seconds_text(max, m, sizeof m);
		struct row_text *t = &text[k];
		snprintf(t->label, sizeof t->label, "%s (%.0f)", pk_str_or(c, "priorityClassName", "?"), num(c, "priority"));
		snprintf(t->note, sizeof t->note, "p50 %s, p95 %s, max %s; %.0f of %.0f pod(s) never scheduled", a, b, m,
		         num(c, "neverScheduled"), num(c, "pods"));
		snprintf(t->tip, sizeof t->tip, "%s: wait p50 %s, p95 %s, max %s over %.0f pod(s); %.0f never scheduled",
		         t->label, a, b, m, num(c, "pods"), num(c, "neverScheduled"));
		rows[k] = (pk_plot_range){ t->label, t->note, t->tip, p50, p95, max };
		k++;
	}
	pk_plot_ranges(h, rows, n, "Wait from arrival to the first bind, logarithmic axis: the bar to the median (p50), "
	                           "the lighter bar to p95, the whisker to the longest; a pod never scheduled waits until "
	                           "the end of the replay.");
	free(rows);
	free(text);
	PK_HTML_LIT(h, "</section>\n");
}

/* ---- data ------------------------------------------------------------------------- */

static void write_data(pk_html *h, const pk_replay_page *p)
{
	section_start(h, "data", "Data");
	PK_HTML_LIT(h, "<p>The ReplaySummary record (as <code>-o json</code> writes it) and the ReplaySeries the charts "
	               "are drawn from (the page's own: allocated resources per class and window, in cores, bytes and "
	               "counts) are embedded as JSON, an array in <code>script#preemptkit-replay</code>. "
	               "<code>-o json</code> writes every ReplayEvent and ReplayPod.</p>\n"
	               "<script type=\"application/json\" id=\"preemptkit-replay\">[");
	pk_html_json_value(h, p->summary);
	PK_HTML_LIT(h, ",\n");
	pk_html_json_value(h, p->series);
	PK_HTML_LIT(h, "]</script>\n</section>\n");
}

int pk_replay_page_write(const pk_replay_page *p, pk_out *out)
{
	pk_html h;
	pk_html_init(&h, out);
	write_head(&h, p);
	PK_HTML_LIT(&h, "<main>\n");
	write_warnings(&h, p->summary);
	write_classes(&h, p);
	write_timeline(&h, p);
	write_waits(&h, p->summary);
	write_data(&h, p);
	PK_HTML_LIT(&h, "</main>\n");
	pk_html_page_end(&h);
	return out->failed ? -1 : 0;
}
