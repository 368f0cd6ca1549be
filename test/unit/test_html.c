/* The HTML writer escapes every string it is given (common/io/html.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/html.h"
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
	char *e = pk_html_escape("<&>");
	CHECK_STR(e, "&lt;&amp;&gt;", "pk_html_escape");
	free(e);
	return T_DONE();
}
