/* apiq-sim's timeline: sampling a run into windows, and the page of plots.
 * See plot.h. */
#include "plot.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/html.h"
#include "io/plot.h"
#include "timed.h"
#include "k8s/json.h"
#include "queue.h"
#include "base/alloc.h"

/* ---- sampling ------------------------------------------------------------------------ */

enum {
	MAX_WINDOWS = 512,       /* twice what a plot draws: merging halves them */
	LAT_PER_DOUBLING = 4,
	LAT_BUCKETS = 120,       /* 100 µs to ~10^5 s */
};
#define LAT_MIN 1e-4
#define FIRST_WIDTH 0.001

typedef struct window {
	long bound, requests;
	double wait;
	long preempting;                 /* the largest preempting set seen */
	long in_flight;                  /* the most calls in flight */
	long pending[APIQ_MAX_TYPES];    /* the most calls pending, per type */
	uint32_t lat[LAT_BUCKETS];       /* time to bind of the pods bound */
} window;

struct apiq_series {
	double width;
	window *w;
	long cur;                        /* the window of the last event */
	int ntypes;
};

apiq_series *apiq_series_new(void)
{
	apiq_series *s = pk_xcalloc(1, sizeof *s);
	s->w = pk_xcalloc(MAX_WINDOWS, sizeof *s->w);
	s->width = FIRST_WIDTH;
	return s;
}

void apiq_series_free(apiq_series *s)
{
	if (s)
		free(s->w);
	free(s);
}

static void merge_into(window *dst, const window *a, const window *b)
{
	window m = *a;
	m.bound += b->bound;
	m.requests += b->requests;
	m.wait += b->wait;
	m.preempting = a->preempting > b->preempting ? a->preempting : b->preempting;
	m.in_flight = a->in_flight > b->in_flight ? a->in_flight : b->in_flight;
	for (int t = 0; t < APIQ_MAX_TYPES; t++)
		m.pending[t] = a->pending[t] > b->pending[t] ? a->pending[t] : b->pending[t];
	for (int k = 0; k < LAT_BUCKETS; k++)
		m.lat[k] += b->lat[k];
	*dst = m;
}

/* Windows twice as wide, half as many. */
static void coarsen(apiq_series *s)
{
	for (long i = 0; i < MAX_WINDOWS / 2; i++)
		merge_into(&s->w[i], &s->w[2 * i], &s->w[2 * i + 1]);
	memset(&s->w[MAX_WINDOWS / 2], 0, sizeof *s->w * (MAX_WINDOWS / 2));
	s->width *= 2;
	s->cur /= 2;
}

void apiq_series_at(apiq_series *s, double t, const long *pending, int ntypes, long in_flight, long preempting)
{
	long idx = (long)(t / s->width);
	while (idx >= MAX_WINDOWS) {
		coarsen(s);
		idx = (long)(t / s->width);
	}
	if (ntypes > s->ntypes)
		s->ntypes = ntypes < APIQ_MAX_TYPES ? ntypes : APIQ_MAX_TYPES;
	/* the gauges held from the previous event until now */
	for (long k = s->cur; k <= idx; k++) {
		window *w = &s->w[k];
		if (preempting > w->preempting)
			w->preempting = preempting;
		if (in_flight > w->in_flight)
			w->in_flight = in_flight;
		for (int i = 0; i < s->ntypes; i++)
			if (pending[i] > w->pending[i])
				w->pending[i] = pending[i];
	}
	s->cur = idx;
}

void apiq_series_bound(apiq_series *s, double latency)
{
	int k = latency > LAT_MIN ? (int)(log2(latency / LAT_MIN) * LAT_PER_DOUBLING) : 0;
	s->w[s->cur].bound++;
	s->w[s->cur].lat[k < LAT_BUCKETS ? k : LAT_BUCKETS - 1]++;
}

void apiq_series_request(apiq_series *s, double wait)
{
	s->w[s->cur].requests++;
	s->w[s->cur].wait += wait;
}

/* A percentile of the window's bind latencies: the middle of its bucket
 * (within 9 %); -1 when nothing was bound. */
static double lat_quantile(const window *w, double q)
{
	long n = 0;
	for (int k = 0; k < LAT_BUCKETS; k++)
		n += w->lat[k];
	if (!n)
		return -1;
	long need = (long)ceil(q * (double)n), seen = 0;
	for (int k = 0; k < LAT_BUCKETS; k++) {
		seen += w->lat[k];
		if (seen >= need)
			return LAT_MIN * exp2((k + 0.5) / LAT_PER_DOUBLING);
	}
	return -1;
}

static double sig6(double v)
{
	if (v == 0 || !isfinite(v))
		return 0;
	double m = pow(10, 5 - floor(log10(fabs(v))));
	return round(v * m) / m;
}

static void add_value(cJSON *arr, double v)
{
	cJSON_AddItemToArray(arr, v < 0 ? cJSON_CreateNull() : cJSON_CreateNumber(sig6(v)));
}

cJSON *apiq_series_json(const apiq_series *s, const apiq_types *types, double end)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "window", s->width);
	cJSON *t = cJSON_AddArrayToObject(o, "t"), *tp = cJSON_AddArrayToObject(o, "throughput");
	cJSON *pending = cJSON_AddObjectToObject(o, "pending"), *flight = cJSON_AddArrayToObject(o, "inFlight");
	cJSON *p50 = cJSON_AddArrayToObject(o, "bindP50"), *p99 = cJSON_AddArrayToObject(o, "bindP99");
	cJSON *wait = cJSON_AddArrayToObject(o, "rateLimiterWait"), *pre = cJSON_AddArrayToObject(o, "preempting");
	cJSON *per_type[APIQ_MAX_TYPES];
	for (int k = 0; k < s->ntypes && k < types->n; k++)
		per_type[k] = cJSON_AddArrayToObject(pending, types->t[k].name);
	for (long i = 0; i <= s->cur; i++) {
		const window *w = &s->w[i];
		double start = (double)i * s->width;
		double len = i == s->cur && end > start ? fmin(end - start, s->width) : s->width;
		add_value(t, start);
		add_value(tp, (double)w->bound / len);
		add_value(p50, lat_quantile(w, 0.5));
		add_value(p99, lat_quantile(w, 0.99));
		add_value(wait, w->requests ? w->wait / (double)w->requests : 0);
		add_value(pre, (double)w->preempting);
		add_value(flight, (double)w->in_flight);
		for (int k = 0; k < s->ntypes && k < types->n; k++)
			add_value(per_type[k], (double)w->pending[k]);
	}
	return o;
}

/* ---- the page ------------------------------------------------------------------------ */

enum { MAX_LINES = 5 };

/* A plot's frame in its viewBox: a single run's plots span the page, so
 * they are drawn wider (the text keeps its size as the SVG scales). The
 * margins hold the labels (the SVG clips what runs past its viewBox): 76
 * on the left for the y axis's, right-aligned; 24 on the right for half
 * the last time label, centred under its tick (7 characters at 11 px). */
static pk_plot_frame frame_for(int nsums)
{
	if (nsums == 1)
		return (pk_plot_frame){ 1200, 220, 76, 1176, 10, 188 };
	return (pk_plot_frame){ 340, 160, 76, 316, 10, 128 };
}

typedef struct line {
	const char *label;
	const cJSON *values;
} line;

static double array_max(const cJSON *a)
{
	double m = 0;
	const cJSON *v;
	cJSON_ArrayForEach(v, a)
		if (cJSON_IsNumber(v) && v->valuedouble > m)
			m = v->valuedouble;
	return m;
}

/* A legend: a sample of each line's pattern and its name. */
static void legend(pk_html *h, const line *lines, int n)
{
	pk_plot_key keys[MAX_LINES];
	for (int i = 0; i < n && i < MAX_LINES; i++)
		keys[i] = (pk_plot_key){ PK_PLOT_KEY_LINE, i, lines[i].label };
	pk_plot_legend(h, keys, n < MAX_LINES ? n : MAX_LINES);
}

static void chart(pk_html *h, const pk_plot_frame *f, const char *title, const char *unit, const cJSON *t,
                  const line *lines, int n, bool keyed, double tmax, double ymax)
{
	PK_HTML_LIT(h, "<figure>");
	pk_html_elem(h, "figcaption", title, NULL);
	double ystep, tstep;
	double ytop = pk_plot_nice_axis(ymax, &ystep), tright = pk_plot_nice_axis(tmax, &tstep);
	if (ystep < 1 && (strcmp(unit, "pods") == 0 || strcmp(unit, "calls") == 0)) {
		ystep = 1;    /* counts: whole ticks */
		ytop = ceil(ytop);
	}
	char label[400], top[64], right[64];
	pk_plot_value_text(ymax, unit, top, sizeof top);
	pk_plot_value_text(tmax, "s", right, sizeof right);
	snprintf(label, sizeof label, "%s over %s of simulated time; the largest value is %s", title, right, top);
	pk_plot_svg_open(h, f, label);
	pk_plot_axes(h, f, unit, tright, tstep, ytop, ystep, PK_PLOT_SECONDS, "simulated time");
	for (int i = 0; i < n; i++)
		pk_plot_line(h, f, t, lines[i].values, tright, ytop, i);
	pk_html_close(h, "svg");
	if (keyed)
		legend(h, lines, n);
	PK_HTML_LIT(h, "</figure>\n");
}

static void gates_label(const cJSON *sum, char *buf, size_t size)
{
	const cJSON *g = pk_get(sum, "featureGates");
	snprintf(buf, size, "SchedulerAsyncPreemption=%s, SchedulerAsyncAPICalls=%s",
	         pk_bool(g, "SchedulerAsyncPreemption") ? "true" : "false",
	         pk_bool(g, "SchedulerAsyncAPICalls") ? "true" : "false");
}

typedef struct metric {
	const char *title, *unit;
	const char *key;          /* member of series; NULL: the pending calls */
	const char *key2;         /* a second line (p99 beside p50) */
} metric;

static const metric metrics[] = {
	{ "Scheduling throughput", "pods/s", "throughput", NULL },
	{ "Pending API calls per call type, and calls in flight", "calls", NULL, NULL },
	{ "Time to bind, p50 and p99", "s", "bindP50", "bindP99" },
	{ "Client rate limiter wait per request", "s", "rateLimiterWait", NULL },
	{ "Preempting set (preemptions in flight)", "pods", "preempting", NULL },
};

static int metric_lines(const metric *m, const cJSON *series, line *out)
{
	int n = 0;
	if (m->key) {
		out[n++] = (line){ m->key2 ? "p50" : m->title, pk_get(series, m->key) };
		if (m->key2)
			out[n++] = (line){ "p99", pk_get(series, m->key2) };
		return n;
	}
	const cJSON *p;
	cJSON_ArrayForEach(p, pk_get(series, "pending"))
		if (n < MAX_LINES - 1 && array_max(p) > 0)
			out[n++] = (line){ p->string, p };
	if (array_max(pk_get(series, "inFlight")) > 0)
		out[n++] = (line){ "in flight, any type", pk_get(series, "inFlight") };
	return n;
}

/* One row of plots per metric, one column per gate setting, sharing the
 * scales so that the settings compare at a glance. */
static void metric_row(pk_html *h, const metric *m, cJSON *const *sums, int nsums)
{
	double tmax = 0, ymax = 0;
	for (int i = 0; i < nsums; i++) {
		const cJSON *s = pk_get(sums[i], "series");
		line ls[MAX_LINES];
		int n = metric_lines(m, s, ls);
		for (int k = 0; k < n; k++)
			ymax = fmax(ymax, array_max(ls[k].values));
		tmax = fmax(tmax, pk_getp(sums[i], "simulatedSeconds") ? pk_getp(sums[i], "simulatedSeconds")->valuedouble
		                                                        : 0);
	}
	pk_html_elem(h, "h3", m->title, NULL);
	if (nsums > 1)   /* settings side by side; one run's plots span the page */
		PK_HTML_LIT(h, "<div class=\"grid\">");
	else
		PK_HTML_LIT(h, "<div>");
	for (int i = 0; i < nsums; i++) {
		const cJSON *s = pk_get(sums[i], "series");
		line ls[MAX_LINES];
		int n = metric_lines(m, s, ls);
		char gates[200];
		gates_label(sums[i], gates, sizeof gates);
		if (n == 0) {
			PK_HTML_LIT(h, "<figure>");
			pk_html_elem(h, "figcaption", gates, NULL);
			bool dispatcher = pk_bool(pk_get(sums[i], "featureGates"), "SchedulerAsyncAPICalls");
			pk_html_elem(h, "p", m->key ? "No data."
			                     : dispatcher ? "No call waited in the dispatcher's queue or was in flight."
			                                  : "No call was queued: the dispatcher runs only with "
			                                    "SchedulerAsyncAPICalls.",
			             "class", "none", NULL);
			PK_HTML_LIT(h, "</figure>\n");
			continue;
		}
		pk_plot_frame f = frame_for(nsums);
		chart(h, &f, gates, m->unit, pk_get(s, "t"), ls, n, !m->key || m->key2, tmax, ymax);
	}
	PK_HTML_LIT(h, "</div>\n");
}

static void td_number(pk_html *h, const cJSON *sum, const char *path, double scale, int decimals)
{
	const cJSON *v = pk_getp(sum, path);
	char buf[64];
	snprintf(buf, sizeof buf, "%.*f", decimals, v ? v->valuedouble * scale : 0);
	pk_html_elem(h, "td", buf, "class", "n", NULL);
}

static void summary_table(pk_html *h, cJSON *const *sums, int n)
{
	PK_HTML_LIT(h, "<div class=\"wide\"><table class=\"sortable\" id=\"runs-table\"><thead><tr><th scope=\"col\">Feature gates</th>"
	               "<th scope=\"col\">Pods/s</th><th scope=\"col\">Bind p50 (ms)</th>"
	               "<th scope=\"col\">Bind p99 (ms)</th><th scope=\"col\">Preemptor bind p99 (ms)</th>"
	               "<th scope=\"col\">API requests</th><th scope=\"col\">Throttled (s)</th>"
	               "<th scope=\"col\">Calls skipped</th><th scope=\"col\">Calls merged</th>"
	               "<th scope=\"col\">Simulated (s)</th></tr></thead>\n<tbody>\n");
	for (int i = 0; i < n; i++) {
		char gates[200];
		gates_label(sums[i], gates, sizeof gates);
		PK_HTML_LIT(h, "<tr>");
		PK_HTML_LIT(h, "<td>");
		pk_html_text_words(h, gates);
		PK_HTML_LIT(h, "</td>");
		td_number(h, sums[i], "throughput", 1, 1);
		td_number(h, sums[i], "timeToBind.p50", 1000, 2);
		td_number(h, sums[i], "timeToBind.p99", 1000, 2);
		td_number(h, sums[i], "preemptorTimeToBind.p99", 1000, 2);
		td_number(h, sums[i], "apiRequests.total", 1, 0);
		td_number(h, sums[i], "apiRequests.throttledSeconds", 1, 3);
		td_number(h, sums[i], "calls.skipped", 1, 0);
		td_number(h, sums[i], "calls.merged", 1, 0);
		td_number(h, sums[i], "simulatedSeconds", 1, 3);
		PK_HTML_LIT(h, "</tr>\n");
	}
	PK_HTML_LIT(h, "</tbody></table></div>\n"); /* scrolls in its box on a narrow window */
}

/* -o html: one page, the runs' warnings under the runs table and in their
 * embedded records. */
static void write_page(const pk_cli *cli, pk_out *out, cJSON *const *sums, int n, bool compare)
{
	if (cli->diag.ncauses)
		for (int i = 0; i < n; i++)
			cJSON_AddItemToObject(sums[i], "warnings", pk_cli_warnings_json(cli));
	char release[16];
	apiq_plot_write(out, sums, n, pk_cli_k8s_version(cli, release, sizeof release));
}

const apiq_writer apiq_html_writer = { .plots_series = true, .write = write_page };

void apiq_plot_write(pk_out *out, cJSON *const *sums, int n, const char *release)
{
	pk_html h;
	pk_html_init(&h, out);
	pk_html_page_begin(&h, n > 1 ? "apiq-sim run --compare" : "apiq-sim run");
	PK_HTML_LIT(&h, "<header><h1>API call queue timeline</h1><p class=\"meta\">");
	pk_html_textf(&h, "apiq-sim run: %d gate setting(s) over simulated time, sampled in windows (their width "
	              "is in each run's series.window, seconds); answers for Kubernetes %s (--kubernetes-version).",
	              n, release);
	PK_HTML_LIT(&h, "</p></header>\n<main>\n<section id=\"runs\"><h2>Runs</h2>\n");
	summary_table(&h, sums, n);
	const cJSON *w;
	cJSON_ArrayForEach(w, pk_get(sums[0], "warnings")) /* the run's, the same in every record */
		if (cJSON_IsString(w))
			pk_html_elem(&h, "p", w->valuestring, "class", "note", NULL);
	PK_HTML_LIT(&h, "</section>\n<section id=\"timeline\"><h2>Timeline</h2>\n"
	               "<p>Per window of simulated time: pods bound per second, the most calls waiting in the "
	               "dispatcher's queue and in flight, the time to bind of the pods bound in it (from creation; percentiles "
	               "within 9 %), the mean wait of its API requests in client-go's token bucket, and the most "
	               "preemptions in flight.</p>\n");
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
		metric_row(&h, &metrics[i], sums, n);
	PK_HTML_LIT(&h, "</section>\n<section id=\"data\"><h2>Data</h2>\n<p>The Summary records of the runs, with "
	               "their series, are embedded as JSON in <code>script#apiq-sim-summaries</code>.</p>\n"
	               "<script type=\"application/json\" id=\"apiq-sim-summaries\">[");
	for (int i = 0; i < n; i++) {
		if (i)
			PK_HTML_LIT(&h, ",\n");
		pk_html_json_value(&h, sums[i]);
	}
	PK_HTML_LIT(&h, "]</script>\n</section>\n</main>\n");
	pk_html_page_end(&h);
}
