/* SVG charts of the HTML pages; see plot.h. */
#include "io/plot.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

/* ---- numbers as labels --------------------------------------------------------------- */

void pk_plot_value_text(double v, const char *unit, char *buf, size_t size)
{
	const char *sp = *unit ? " " : "";
	if (strcmp(unit, "s") == 0 && v > 0 && v < 1)
		snprintf(buf, size, "%.3g ms", v * 1000);
	else if (v >= 1e10)
		snprintf(buf, size, "%.4gG%s%s", v / 1e9, sp, unit);
	else if (v >= 1e7)
		snprintf(buf, size, "%.4gM%s%s", v / 1e6, sp, unit);
	else if (v >= 1e4)
		snprintf(buf, size, "%.4gk%s%s", v / 1e3, sp, unit);
	else
		snprintf(buf, size, "%.4g%s%s", v, sp, unit);
}

void pk_plot_duration_text(double seconds, char *buf, size_t size)
{
	static const struct { long s; char c; } units[] = { { 86400, 'd' }, { 3600, 'h' }, { 60, 'm' }, { 1, 's' } };
	long v = seconds > 0 && seconds < 1e15 ? (long)llround(seconds) : 0;
	if (!v) {
		snprintf(buf, size, "0");
		return;
	}
	int i = 0;
	while (v < units[i].s)
		i++;
	long rest = i < 3 ? v % units[i].s / units[i + 1].s : 0;
	if (rest)
		snprintf(buf, size, "%ld%c%ld%c", v / units[i].s, units[i].c, rest, units[i + 1].c);
	else
		snprintf(buf, size, "%ld%c", v / units[i].s, units[i].c);
}

double pk_plot_nice_axis(double max, double *step)
{
	if (!(max > 0) || !isfinite(max))
		max = 1;
	double raw = max / 4, mag = pow(10, floor(log10(raw))), f = raw / mag;
	*step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
	double top = ceil(max / *step - 1e-9) * *step;
	return top > 0 ? top : *step;
}

double pk_plot_time_axis(double max, double *step)
{
	static const double steps[] = { 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800,
	                                21600, 43200, 86400, 172800, 604800, 1209600, 2592000 };
	if (!(max > 0) || !isfinite(max))
		max = 1;
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (ceil(max / steps[i] - 1e-9) <= PK_PLOT_MAX_TICKS - 1) {
			*step = steps[i];
			return ceil(max / steps[i] - 1e-9) * steps[i];
		}
	/* beyond a month a tick: a round number of days */
	pk_plot_nice_axis(max / 86400, step);
	*step = ceil(*step) * 86400;
	return ceil(max / *step - 1e-9) * *step;
}

/* ---- pieces ------------------------------------------------------------------------- */

void pk_plot_label(pk_html *h, double x, double y, const char *anchor, const char *text)
{
	char xs[16], ys[16];
	snprintf(xs, sizeof xs, "%.1f", x);
	snprintf(ys, sizeof ys, "%.1f", y);
	pk_html_elem(h, "text", text, "x", xs, "y", ys, "text-anchor", anchor, NULL);
}

static double x_of(const pk_plot_frame *f, double t, double tmax)
{
	return f->x0 + (tmax > 0 ? t / tmax : 0) * (f->x1 - f->x0);
}

static double y_of(const pk_plot_frame *f, double v, double ymax)
{
	return f->y1 - (ymax > 0 ? v / ymax : 0) * (f->y1 - f->y0);
}

void pk_plot_axes(pk_html *h, const pk_plot_frame *f, const char *unit, double tmax, double tstep, double ymax,
                  double ystep, pk_plot_time style, const char *xtitle)
{
	char d[4096], text[64];
	size_t w = 0;
	for (int k = 1; k < PK_PLOT_MAX_TICKS && k * ystep <= ymax * (1 + 1e-9); k++) {
		double y = f->y1 - k * ystep / ymax * (f->y1 - f->y0);
		w += (size_t)snprintf(d + w, sizeof d - w, "M%d %.1fH%d", f->x0, y, f->x1);
	}
	for (int k = 1; k < 2 * PK_PLOT_MAX_TICKS && k * tstep <= tmax * (1 + 1e-9); k++) {
		double x = f->x0 + k * tstep / tmax * (f->x1 - f->x0);
		w += (size_t)snprintf(d + w, sizeof d - w, "M%.1f %dV%d", x, f->y0, f->y1);
	}
	if (w)
		pk_html_void(h, "path", "class", "grid-line", "d", d, NULL);
	snprintf(d, sizeof d, "M%d %dV%dH%d", f->x0, f->y0, f->y1, f->x1);
	pk_html_void(h, "path", "class", "axis", "d", d, NULL);
	for (int k = 0; k < PK_PLOT_MAX_TICKS && k * ystep <= ymax * (1 + 1e-9); k++) {
		if (k)
			pk_plot_value_text(k * ystep, unit, text, sizeof text);
		else
			snprintf(text, sizeof text, "0");
		pk_plot_label(h, f->x0 - 4, f->y1 - k * ystep / ymax * (f->y1 - f->y0) + 4, "end", text);
	}
	for (int k = 0; k < 2 * PK_PLOT_MAX_TICKS && k * tstep <= tmax * (1 + 1e-9); k++) {
		if (style == PK_PLOT_DURATION)
			pk_plot_duration_text(k * tstep, text, sizeof text);
		else
			pk_plot_value_text(k * tstep, "s", text, sizeof text);
		pk_plot_label(h, f->x0 + k * tstep / tmax * (f->x1 - f->x0), f->y1 + 14, k ? "middle" : "start", text);
	}
	pk_plot_label(h, (f->x0 + f->x1) / 2.0, f->h - 4, "middle", xtitle);
}

void pk_plot_svg_open(pk_html *h, const pk_plot_frame *f, const char *aria_label)
{
	char vb[32], ws[16], hs[16];
	snprintf(vb, sizeof vb, "0 0 %d %d", f->w, f->h);
	snprintf(ws, sizeof ws, "%d", f->w);
	snprintf(hs, sizeof hs, "%d", f->h);
	pk_html_open(h, "svg", "class", "chart", "width", ws, "height", hs, "viewBox", vb, "role", "img",
	             "aria-label", aria_label, NULL);
}

/* ---- paths ------------------------------------------------------------------------- */

typedef struct path {
	char *d;
	size_t n, cap;
	long x, y;                /* the pen, in tenths of a viewBox unit */
	long hx;                  /* a horizontal move not yet written (tenths), or LONG_MIN */
} path;

static void path_add(path *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void path_add(path *p, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(p->d ? p->d + p->n : NULL, p->d ? p->cap - p->n : 0, fmt, ap);
		va_end(ap);
		if (k >= 0 && p->d && (size_t)k < p->cap - p->n) {
			p->n += (size_t)k;
			return;
		}
		size_t cap = p->cap ? p->cap : 256;
		while (cap < p->n + (size_t)k + 1)
			cap *= 2;
		p->d = pk_xrealloc(p->d, cap, 1);
		p->cap = cap;
	}
}

static long tenths(double v)
{
	return lround(v * 10);
}

/* A number of tenths as text: "12", "12.5", "-3.2". */
static void path_num(path *p, char cmd, long v)
{
	if (v % 10)
		path_add(p, "%c%s%ld.%ld", cmd, v < 0 ? "-" : "", labs(v) / 10, labs(v) % 10);
	else
		path_add(p, "%c%ld", cmd, v / 10);
}

static void path_move(path *p, double x, double y)
{
	p->x = tenths(x);
	p->y = tenths(y);
	path_num(p, 'M', p->x);
	path_num(p, ' ', p->y);
	p->hx = p->x;
}

static void path_flush_h(path *p)
{
	if (p->hx != p->x) {
		path_num(p, 'H', p->hx);
		p->x = p->hx;
	}
}

/* Step to height y, then run right to x: runs at one height are one H. */
static void path_step(path *p, double y, double x)
{
	long ty = tenths(y);
	if (ty != p->y) {
		path_flush_h(p);
		path_num(p, 'V', ty);
		p->y = ty;
	}
	p->hx = tenths(x);
}

/* The outline of window values as steps from the left edge: window i runs
 * from i * width to (i + 1) * width, the last to end. */
static void step_outline(path *p, const pk_plot_frame *f, const double *v, long n, double width, double end,
                         double tmax, double ymax)
{
	for (long i = 0; i < n; i++) {
		double right = i + 1 < n ? (double)(i + 1) * width : end;
		path_step(p, y_of(f, v[i], ymax), x_of(f, right, tmax));
	}
	path_flush_h(p);
}

static void path_elem(pk_html *h, path *p, const char *cls, const char *tip)
{
	if (tip) {
		pk_html_open(h, "path", "class", cls, "d", p->d, NULL);
		pk_html_elem(h, "title", tip, NULL);
		pk_html_close(h, "path");
	} else {
		pk_html_void(h, "path", "class", cls, "d", p->d, NULL);
	}
	free(p->d);
	memset(p, 0, sizeof *p);
}

void pk_plot_line(pk_html *h, const pk_plot_frame *f, const cJSON *t, const cJSON *vals, double tmax, double ymax,
                  int style)
{
	size_t cap = 64 + 24 * (size_t)cJSON_GetArraySize(vals), w = 0;
	char *d = pk_xmalloc(cap);
	d[0] = '\0';
	bool pen = false;
	const cJSON *tv = t ? t->child : NULL, *v;
	cJSON_ArrayForEach(v, vals) {
		double x = tv && tmax > 0 ? tv->valuedouble / tmax : 0;
		tv = tv ? tv->next : NULL;
		if (!cJSON_IsNumber(v)) {
			pen = false;
			continue;
		}
		double y = ymax > 0 ? v->valuedouble / ymax : 0;
		w += (size_t)snprintf(d + w, cap - w, "%c%.1f %.1f", pen ? 'L' : 'M', f->x0 + x * (f->x1 - f->x0),
		                      f->y1 - y * (f->y1 - f->y0));
		pen = true;
	}
	char cls[32];
	snprintf(cls, sizeof cls, "line s%d", style);
	if (w)
		pk_html_void(h, "path", "class", cls, "d", d, NULL);
	free(d);
}

void pk_plot_stack(pk_html *h, const pk_plot_frame *f, const pk_plot_layer *layers, int nlayers, long n,
                   double width, double end, double tmax, double ymax)
{
	if (n <= 0 || nlayers <= 0)
		return;
	/* sum[i] is the top of layer k in window i, k counted down */
	double *sum = pk_xcalloc((size_t)n, sizeof *sum);
	for (int k = 0; k < nlayers; k++)
		for (long i = 0; i < n; i++)
			sum[i] += layers[k].v[i];
	for (int k = nlayers - 1; k >= 0; k--) {
		bool any = false;
		for (long i = 0; i < n && !any; i++)
			any = layers[k].v[i] > 0;
		if (any) {
			path p = { 0 };
			path_move(&p, f->x0, f->y1);
			step_outline(&p, f, sum, n, width, end, tmax, ymax);
			path_num(&p, 'V', tenths(f->y1));
			path_add(&p, "Z");
			char cls[32];
			snprintf(cls, sizeof cls, "area a%d", k % PK_PLOT_AREAS);
			path_elem(h, &p, cls, layers[k].tip);
		}
		for (long i = 0; i < n; i++)
			sum[i] -= layers[k].v[i];
	}
	free(sum);
}

void pk_plot_steps(pk_html *h, const pk_plot_frame *f, const double *v, long n, double width, double end,
                   double tmax, double ymax, int style)
{
	if (n <= 0)
		return;
	path p = { 0 };
	path_move(&p, f->x0, y_of(f, v[0], ymax));
	step_outline(&p, f, v, n, width, end, tmax, ymax);
	char cls[32];
	snprintf(cls, sizeof cls, "line s%d", style);
	path_elem(h, &p, cls, NULL);
}

void pk_plot_hline(pk_html *h, const pk_plot_frame *f, double y, double ymax, int style, const char *tip)
{
	path p = { 0 };
	path_move(&p, f->x0, y_of(f, y, ymax));
	path_num(&p, 'H', tenths(f->x1));
	char cls[32];
	snprintf(cls, sizeof cls, "line s%d", style);
	path_elem(h, &p, cls, tip);
}

void pk_plot_mark(pk_html *h, const pk_plot_frame *f, double t, double tmax, const char *tip)
{
	/* a line across the plot, and a triangle above it to point at */
	path p = { 0 };
	double x = x_of(f, t, tmax);
	path_move(&p, x, f->y1);
	path_num(&p, 'V', tenths(f->y0));
	path_add(&p, "m-4 -7h8l-4 7z");
	path_elem(h, &p, "mark", tip);
}

/* ---- range bars on a logarithmic axis of seconds ------------------------------------ */

enum { RANGE_W = 400, RANGE_H = 16, RANGE_X0 = 6, RANGE_X1 = 390 };

/* The ticks of the axis: 0, 1s, 10s, 1m, 10m, 1h, 6h, 1d, 1w, 30d, 1y. */
static const double log_ticks[] = { 0, 1, 10, 60, 600, 3600, 21600, 86400, 604800, 2592000, 31536000 };
enum { NLOG_TICKS = sizeof log_ticks / sizeof log_ticks[0] };

static int log_axis_ticks(double max)
{
	int n = 2;
	while (n < NLOG_TICKS && log_ticks[n - 1] < max)
		n++;
	return n;
}

/* x of seconds on an axis whose last tick is top: log(1 + s), so 0 is at the left */
static double log_x(double s, double top)
{
	double v = s > 0 ? log1p(s) / log1p(top) : 0;
	return RANGE_X0 + (v > 1 ? 1 : v) * (RANGE_X1 - RANGE_X0);
}

/* aria_label NULL: decoration, hidden from assistive technology */
static void range_svg_open(pk_html *h, const char *aria_label)
{
	char vb[32], ws[16], hs[16];
	snprintf(vb, sizeof vb, "0 0 %d %d", RANGE_W, RANGE_H);
	snprintf(ws, sizeof ws, "%d", RANGE_W);
	snprintf(hs, sizeof hs, "%d", RANGE_H);
	pk_html_open(h, "svg", "class", "chart range", "width", ws, "height", hs, "viewBox", vb, "role",
	             aria_label ? "img" : NULL, "aria-label", aria_label, "aria-hidden", aria_label ? NULL : "true", NULL);
}

static void rect(pk_html *h, const char *cls, double x0, double x1, int y, int height)
{
	char xs[16], ys[16], ws[16], hs[16];
	snprintf(xs, sizeof xs, "%.1f", x0);
	snprintf(ys, sizeof ys, "%d", y);
	snprintf(ws, sizeof ws, "%.1f", x1 - x0);
	snprintf(hs, sizeof hs, "%d", height);
	if (x1 > x0)
		pk_html_void(h, "rect", "class", cls, "x", xs, "y", ys, "width", ws, "height", hs, NULL);
}

/* One row's bar: ticks as grid lines, 0..lo, lo..hi, a whisker to top. */
static void range_bar(pk_html *h, const pk_plot_range *r, int nt, double top)
{
	range_svg_open(h, r->tip ? r->tip : r->label);
	if (r->tip)
		pk_html_elem(h, "title", r->tip, NULL);
	path p = { 0 };
	for (int k = 1; k < nt; k++) {
		path_move(&p, log_x(log_ticks[k], top), 0);
		path_num(&p, 'V', RANGE_H * 10);
	}
	if (p.d)
		path_elem(h, &p, "grid-line", NULL);
	double xlo = log_x(r->lo, top), xhi = log_x(r->hi, top), xtop = log_x(r->top, top);
	if (xtop > xhi) {
		path_move(&p, xhi, RANGE_H / 2.0);
		path_num(&p, 'H', tenths(xtop));
		path_move(&p, xtop, 3);
		path_num(&p, 'V', 130);
		path_elem(h, &p, "whisker", NULL);
	}
	rect(h, "hi", xlo, xhi, 3, 10);
	rect(h, "lo", log_x(0, top), xlo, 3, 10);
	pk_html_close(h, "svg");
}

void pk_plot_ranges(pk_html *h, const pk_plot_range *rows, int n, const char *caption)
{
	double max = 0;
	for (int i = 0; i < n; i++)
		max = fmax(max, rows[i].top);
	int nt = log_axis_ticks(max);
	double top = log_ticks[nt - 1];
	PK_HTML_LIT(h, "<div class=\"wide\"><table class=\"ranges\">");
	pk_html_elem(h, "caption", caption, NULL);
	PK_HTML_LIT(h, "<thead><tr><th scope=\"col\">Class</th><th scope=\"col\" class=\"bar\">");
	/* the axis: its ticks' labels over the bars */
	range_svg_open(h, NULL);
	char text[32];
	double shown = -1e9, last = log_x(top, top);
	for (int k = 0; k < nt; k++) { /* 0 and the end always; a label between too near either is left out */
		double x = log_x(log_ticks[k], top);
		if (k && k < nt - 1 && (x - shown < 36 || last - x < 48))
			continue;
		pk_plot_duration_text(log_ticks[k], text, sizeof text);
		pk_plot_label(h, x, 12, k == 0 ? "start" : k == nt - 1 ? "end" : "middle", text);
		shown = x;
	}
	pk_html_close(h, "svg");
	PK_HTML_LIT(h, "</th><th scope=\"col\">Figures</th></tr></thead>\n<tbody>\n");
	for (int i = 0; i < n; i++) {
		PK_HTML_LIT(h, "<tr>");
		pk_html_elem(h, "td", rows[i].label, NULL);
		PK_HTML_LIT(h, "<td class=\"bar\">");
		range_bar(h, &rows[i], nt, top);
		PK_HTML_LIT(h, "</td>");
		pk_html_elem(h, "td", rows[i].note, NULL);
		PK_HTML_LIT(h, "</tr>\n");
	}
	PK_HTML_LIT(h, "</tbody></table></div>\n");
}

/* ---- legend ------------------------------------------------------------------------- */

void pk_plot_legend(pk_html *h, const pk_plot_key *keys, int n)
{
	PK_HTML_LIT(h, "<ul class=\"legend\">");
	for (int i = 0; i < n; i++) {
		char cls[32];
		PK_HTML_LIT(h, "<li><svg class=\"chart\" width=\"28\" height=\"8\" aria-hidden=\"true\">");
		switch (keys[i].kind) {
		case PK_PLOT_KEY_LINE:
			snprintf(cls, sizeof cls, "line s%d", keys[i].style);
			pk_html_void(h, "path", "class", cls, "d", "M0 4H28", NULL);
			break;
		case PK_PLOT_KEY_AREA:
			snprintf(cls, sizeof cls, "area a%d", keys[i].style % PK_PLOT_AREAS);
			pk_html_void(h, "rect", "class", cls, "width", "28", "height", "8", NULL);
			break;
		case PK_PLOT_KEY_MARK:
			pk_html_void(h, "path", "class", "mark", "d", "M14 8V2m-3 -2h6l-3 3z", NULL);
			break;
		}
		PK_HTML_LIT(h, "</svg> ");
		pk_html_text(h, keys[i].label);
		PK_HTML_LIT(h, "</li>");
	}
	PK_HTML_LIT(h, "</ul>");
}
