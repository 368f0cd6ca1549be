/* SVG charts of the HTML pages (apiq-sim's timeline, preempt-plan
 * --replay's), drawn by the program on a pk_html so that they read with
 * JavaScript off: axes with round ticks, lines, stacked step areas, marks
 * at instants, range bars, legends. Tooltips are SVG <title> elements (the
 * browser shows them without script). The classes they use (svg.chart,
 * .line sN, .area aN, .mark, .range) are html.c's style sheet's.
 *
 * A chart's frame is its viewBox with the plot area inside it; the SVG
 * scales to its box's width and the text keeps its size. */
#ifndef PK_IO_PLOT_H
#define PK_IO_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>
#include "io/html.h"

enum { PK_PLOT_MAX_TICKS = 8, PK_PLOT_AREAS = 8 };

typedef struct pk_plot_frame {
	int w, h;                 /* viewBox */
	int x0, x1, y0, y1;       /* the plot area: x0..x1 left to right, y0 top, y1 bottom */
} pk_plot_frame;

/* How the x axis labels its ticks: seconds as a number ("1.5k s"), or as
 * a duration ("1h30m"). */
typedef enum { PK_PLOT_SECONDS, PK_PLOT_DURATION } pk_plot_time;

/* A value as a label shows it: milliseconds below a second (unit "s"),
 * thousands, millions and billions with k, M and G, never in exponent form. */
void pk_plot_value_text(double v, const char *unit, char *buf, size_t size);
/* A duration in whole seconds with its two largest units: "0", "45s",
 * "1m30s", "2h", "1d6h". */
void pk_plot_duration_text(double seconds, char *buf, size_t size);

/* An axis from 0 to a round number at or above max, in round steps (1, 2
 * or 5 times a power of ten), at most PK_PLOT_MAX_TICKS - 1 of them; an
 * axis with nothing on it goes to 1. Returns its end, the step in *step. */
double pk_plot_nice_axis(double max, double *step);
/* The same in seconds for a time axis: steps of round durations (10s, 1m,
 * 15m, 1h, 6h, 1d, ...), at most PK_PLOT_MAX_TICKS of them. */
double pk_plot_time_axis(double max, double *step);

/* <text> at x, y (viewBox units), anchored start, middle or end. */
void pk_plot_label(pk_html *h, double x, double y, const char *anchor, const char *text);

/* Grid lines, the axis lines and the tick labels of both axes: time along
 * the bottom (its title under it), the value (in unit) up the left. */
void pk_plot_axes(pk_html *h, const pk_plot_frame *f, const char *unit, double tmax, double tstep, double ymax,
                  double ystep, pk_plot_time style, const char *xtitle);

/* The <svg class="chart"> of a frame, with its accessible label; closed
 * with pk_html_close(h, "svg"). */
void pk_plot_svg_open(pk_html *h, const pk_plot_frame *f, const char *aria_label);

/* One line through the values of vals (a JSON array, null for a gap) at
 * the times of t (a JSON array), in style N (class "line sN", 0..4). */
void pk_plot_line(pk_html *h, const pk_plot_frame *f, const cJSON *t, const cJSON *vals, double tmax, double ymax,
                  int style);

/* Stacked areas over n windows of equal width (seconds) from time 0, the
 * last one ending at end: layer k's band lies on the layers before it.
 * Each layer is drawn as a step line of its windows' values closed down to
 * the axis, the sums drawn back to front, so a page carries one outline
 * per layer; fill class "area aN" (N = k mod PK_PLOT_AREAS), and its
 * tooltip. */
typedef struct pk_plot_layer {
	const double *v;          /* n values */
	const char *tip;          /* <title>, or NULL */
} pk_plot_layer;
void pk_plot_stack(pk_html *h, const pk_plot_frame *f, const pk_plot_layer *layers, int nlayers, long n,
                   double width, double end, double tmax, double ymax);
/* A step line of n window values (e.g. a peak per window), style N. */
void pk_plot_steps(pk_html *h, const pk_plot_frame *f, const double *v, long n, double width, double end,
                   double tmax, double ymax, int style);
/* A horizontal line across the plot area at value y (a capacity), style N. */
void pk_plot_hline(pk_html *h, const pk_plot_frame *f, double y, double ymax, int style, const char *tip);
/* A mark across the plot area at time t (class "mark"), with its tooltip. */
void pk_plot_mark(pk_html *h, const pk_plot_frame *f, double t, double tmax, const char *tip);

/* Range bars on a logarithmic axis of seconds (0, 1s, 10s, 1m, 10m, 1h,
 * ...), one row per item of a table (its label, its bar, its note; the
 * caption over it): a bar from 0 to lo, a lighter one from lo to hi, a
 * whisker from hi to top; the row's tooltip and accessible label is tip.
 * The text is HTML, so it keeps its size on a narrow window. */
typedef struct pk_plot_range {
	const char *label, *note, *tip;
	double lo, hi, top;
} pk_plot_range;
void pk_plot_ranges(pk_html *h, const pk_plot_range *rows, int n, const char *caption);

/* A legend in HTML: a sample of each key (a line in style N, a filled
 * area N, or the mark) and its name. */
typedef enum { PK_PLOT_KEY_LINE, PK_PLOT_KEY_AREA, PK_PLOT_KEY_MARK } pk_plot_key_kind;
typedef struct pk_plot_key {
	pk_plot_key_kind kind;
	int style;
	const char *label;
} pk_plot_key;
void pk_plot_legend(pk_html *h, const pk_plot_key *keys, int n);

#endif
