/* The HTML writer escapes every string it is given (common/io/html.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/html.h"
#include "io/plot.h"
#include "io/table.h"
#include "t.h"

/* Run f on a writer over a memory stream; returns the text (malloc'd). */
typedef void (*write_fn)(pk_html *h, const void *arg);
static char *capture(write_fn f, const void *arg)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	pk_out out;
	pk_out_init(&out, fp);
	pk_html h;
	pk_html_init(&h, &out);
	f(&h, arg);
	fclose(fp);
	return buf;
}

static void w_text(pk_html *h, const void *arg) { pk_html_text(h, arg); }
static void w_attr(pk_html *h, const void *arg) { pk_html_open(h, "a", "href", (const char *)arg, "title", NULL, NULL); }
static void w_bare(pk_html *h, const void *arg) { pk_html_void(h, "input", "type", "search", "hidden", "", NULL); }
static void w_svg(pk_html *h, const void *arg) { pk_html_void(h, "rect", "width", "10", NULL); }
static void w_elem(pk_html *h, const void *arg) { pk_html_elem(h, "td", arg, "class", "n", NULL); }
static void w_textf(pk_html *h, const void *arg) { pk_html_textf(h, "%s=%d", (const char *)arg, 5); }
static void w_lit(pk_html *h, const void *arg) { PK_HTML_LIT(h, "<p>"); }

/* A table -o table prints, as a page shows it: a class name with markup, numbers right-aligned. */
static void w_table(pk_html *h, const void *arg)
{
	pk_table t;
	pk_table_init(&t, 3);
	pk_table_header(&t, (const char *const[]){ "CLASS", "PODS", "WAIT" });
	pk_table_row(&t, (const char *const[]){ arg, "12", "-" });
	pk_table_html(&t, h, "t");
	pk_table_free(&t);
}

/* Stacked steps: two layers over three windows of 10 s, the last cut at 25 s. */
static void w_stack(pk_html *h, const void *arg)
{
	static const pk_plot_frame f = { 100, 60, 0, 100, 0, 50 };
	const double a[] = { 1, 1, 2 }, b[] = { 0, 1, 0 };
	pk_plot_layer l[] = { { a, NULL }, { b, "b" } };
	pk_plot_stack(h, &f, l, 2, 3, 10, 25, 50, 4);
}

static void w_json(pk_html *h, const void *arg)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", arg);
	pk_html_json(h, "data", o);
	cJSON_Delete(o);
}

static void check_text(const char *in, const char *want, const char *what)
{
	char *got = capture(w_text, in);
	CHECK_STR(got, want, "text: %s (got %s)", what, got);
	free(got);
}

int main(void)
{
	check_text("plain", "plain", "plain text unchanged");
	check_text("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;", "markup escaped");
	check_text("a & b \"c\" 'd'", "a &amp; b &quot;c&quot; &#39;d&#39;", "& and quotes escaped");
	check_text("caf\xC3\xA9 \xE2\x80\xA8", "caf\xC3\xA9 \xE2\x80\xA8", "valid UTF-8 kept (U+2028 is text in HTML)");
	check_text("bad\xFF\xC0\xAFx", "bad\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDx", "invalid and overlong bytes replaced");
	check_text("\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", "a surrogate's bytes replaced");
	check_text("a\x01" "b\x7F" "c\tz\n", "a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\tz\n", "controls replaced, tab and newline kept");
	check_text("\xC2\x85|\xEF\xBF\xBE", "\xEF\xBF\xBD|\xEF\xBF\xBD", "C1 control and noncharacter replaced");

	char *got = capture(w_attr, "x\" onclick=\"alert(1)");
	CHECK_STR(got, "<a href=\"x&quot; onclick=&quot;alert(1)\">", "attribute value cannot close its quotes: %s", got);
	free(got);
	got = capture(w_bare, NULL);
	CHECK_STR(got, "<input type=\"search\" hidden>", "empty value is a bare boolean attribute: %s", got);
	free(got);
	got = capture(w_svg, NULL);
	CHECK_STR(got, "<rect width=\"10\"/>", "SVG element self-closes: %s", got);
	free(got);
	got = capture(w_elem, "<b>");
	CHECK_STR(got, "<td class=\"n\">&lt;b&gt;</td>", "element text escaped: %s", got);
	free(got);
	got = capture(w_textf, "<i>");
	CHECK_STR(got, "&lt;i&gt;=5", "formatted text escaped: %s", got);
	free(got);
	got = capture(w_lit, NULL);
	CHECK_STR(got, "<p>", "literal markup passes");
	free(got);

	got = capture(w_json, "</script><!-- & \xE2\x80\xA8\xE2\x80\xA9 \x01");
	CHECK_STR(got,
	          "<script type=\"application/json\" id=\"data\">"
	          "{\"name\":\"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028\\u2029 \\u0001\"}</script>",
	          "embedded JSON: < > & U+2028 U+2029 escaped: %s", got);
	cJSON *back = NULL;
	if (got) {
		char *start = strchr(got, '{'), *end = strrchr(got, '}');
		if (start && end) {
			end[1] = '\0';
			back = cJSON_Parse(start);
		}
	}
	CHECK(back && strcmp(cJSON_GetObjectItem(back, "name")->valuestring,
	                     "</script><!-- & \xE2\x80\xA8\xE2\x80\xA9 \x01") == 0,
	      "escaped JSON parses back to the same string");
	cJSON_Delete(back);
	free(got);
	got = capture(w_json, "bad \xFF byte");
	CHECK(got && strstr(got, "bad \\ufffd byte"), "invalid UTF-8 in JSON becomes \\ufffd: %s", got);
	free(got);

	char id[32];
	pk_html_id(id, sizeof id, "u-", "ns/na me<x>");
	CHECK_STR(id, "u-ns_na_me_x_", "id: unsafe characters become _");
	pk_html_id(id, 8, "unit-", "abcdefgh");
	CHECK_STR(id, "unit-ab", "id: truncated to its buffer");
	got = capture(w_table, "<b>hi</b>");
	CHECK_STR(got, "<div class=\"wide\"><table class=\"sortable\" id=\"t\"><thead><tr><th scope=\"col\">CLASS</th>"
	          "<th scope=\"col\">PODS</th><th scope=\"col\">WAIT</th></tr></thead>\n<tbody>\n<tr><td>&lt;b&gt;hi&lt;/b&gt;"
	          "</td><td class=\"n\">12</td><td>-</td></tr>\n</tbody></table></div>\n",
	          "pk_table_html: the rows of -o table, escaped, numbers right-aligned");
	free(got);
	/* the sums back to front: a+b over a, each a step outline closed to the axis;
	 * x: 10 s is 20 units, 25 s 50; y: a value of 1 is 12.5 units up from 50 */
	got = capture(w_stack, NULL);
	CHECK_STR(got, "<path class=\"area a1\" d=\"M0 50V37.5H20V25H50V50Z\"><title>b</title></path>"
	          "<path class=\"area a0\" d=\"M0 50V37.5H40V25H50V50Z\"/>",
	          "pk_plot_stack: layers stacked, runs at one height one H: %s", got);
	free(got);
	static const struct { double s; const char *want; } durations[] = {
		{ 0, "0" }, { 45, "45s" }, { 90, "1m30s" }, { 3600, "1h" }, { 5400, "1h30m" }, { 86400 + 60, "1d" },
		{ 2 * 86400 + 6 * 3600, "2d6h" },
	};
	for (size_t i = 0; i < sizeof durations / sizeof durations[0]; i++) {
		char buf[32];
		pk_plot_duration_text(durations[i].s, buf, sizeof buf);
		CHECK_STR(buf, durations[i].want, "duration %.0f s", durations[i].s);
	}
	double step, top = pk_plot_time_axis(3624, &step);
	CHECK(step == 600 && top == 4200, "a time axis of 3624 s: ticks of 10m to 1h10m (%g, %g)", step, top);
	top = pk_plot_time_axis(27 * 86400.0, &step);
	CHECK(step == 7 * 86400 && top == 28 * 86400, "27 days: ticks of a week (%g, %g)", step, top);
	char *e = pk_html_escape("<&>");
	CHECK_STR(e, "&lt;&amp;&gt;", "pk_html_escape");
	free(e);
	return T_DONE();
}
