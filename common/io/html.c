/* HTML and SVG output; see html.h. */
#include "io/html.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "version.h"
#include "base/alloc.h"

void pk_html_init(pk_html *h, pk_out *out)
{
	h->out = out;
	h->bytes = 0;
}

static void emit(pk_html *h, const char *s, size_t len)
{
	pk_out_write(h->out, s, len);
	h->bytes += len;
}

void pk_html_markup_(pk_html *h, const char *markup, size_t len)
{
	emit(h, markup, len);
}

/* ---- characters ------------------------------------------------------------------ */

/* The code point at s (n bytes available): its length in *len, or -1 for a
 * byte that does not start a well-formed UTF-8 sequence (overlong forms,
 * surrogates and values past U+10FFFF included); *len is then 1. */
static int32_t decode_utf8(const unsigned char *s, size_t n, size_t *len)
{
	*len = 1;
	unsigned c = s[0];
	if (c < 0x80)
		return (int32_t)c;
	size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
	if (!need || c > 0xF4 || need > n)
		return -1;
	uint32_t cp = c & (0x3F >> (need - 1));
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (cp < min[need] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1;
	*len = need;
	return (int32_t)cp;
}

/* Characters the HTML parser reports as errors wherever they appear:
 * controls other than tab, newline, form feed and carriage return, and
 * noncharacters. */
static bool bad_in_html(int32_t cp)
{
	if (cp < 0x20)
		return cp != '\t' && cp != '\n' && cp != '\f' && cp != '\r';
	if (cp >= 0x7F && cp <= 0x9F)
		return true;
	return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

static const char REPLACEMENT[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Text and attribute values: one pass writing the runs between the bytes
 * that need a reference or a replacement. */
void pk_html_textn(pk_html *h, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t run = 0, i = 0;
	while (i < n) {
		unsigned c = u[i];
		const char *rep = NULL;
		size_t len = 1;
		if (c < 0x80) {
			switch (c) {
			case '&': rep = "&amp;"; break;
			case '<': rep = "&lt;"; break;
			case '>': rep = "&gt;"; break;
			case '"': rep = "&quot;"; break;
			case '\'': rep = "&#39;"; break;
			default:
				if (bad_in_html((int32_t)c))
					rep = REPLACEMENT;
			}
		} else {
			int32_t cp = decode_utf8(u + i, n - i, &len);
			if (cp < 0 || bad_in_html(cp))
				rep = REPLACEMENT;
		}
		if (rep) {
			emit(h, s + run, i - run);
			emit(h, rep, strlen(rep));
			run = i + len;
		}
		i += len;
	}
	emit(h, s + run, n - run);
}

void pk_html_text(pk_html *h, const char *s)
{
	if (s)
		pk_html_textn(h, s, strlen(s));
}

void pk_html_text_words(pk_html *h, const char *s)
{
	const char *from = s;
	for (const char *p = s; p && *p; p++)
		if (p > s && *p >= 'A' && *p <= 'Z' && p[-1] >= 'a' && p[-1] <= 'z') {
			pk_html_textn(h, from, (size_t)(p - from));
			PK_HTML_LIT(h, "<wbr>");
			from = p;
		}
	pk_html_text(h, from);
}

void pk_html_textf(pk_html *h, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		pk_html_textn(h, small, (size_t)n);
		return;
	}
	char *big = pk_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	pk_html_textn(h, big, (size_t)n);
	free(big);
}

/* ---- tags ---------------------------------------------------------------------------- */

/* Names come from the program; a name that is not one is a bug. */
static void check_name(const char *name)
{
	if (!name || !*name)
		abort();
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == ':' ||
		      (*p >= 'A' && *p <= 'Z' && p != name))) /* SVG's viewBox */
			abort();
}

static void start_tag(pk_html *h, const char *tag, va_list ap)
{
	check_name(tag);
	emit(h, "<", 1);
	emit(h, tag, strlen(tag));
	const char *name;
	while ((name = va_arg(ap, const char *)) != NULL) {
		const char *value = va_arg(ap, const char *);
		check_name(name);
		if (!value)
			continue;
		emit(h, " ", 1);
		emit(h, name, strlen(name));
		if (!*value)
			continue;
		emit(h, "=\"", 2);
		pk_html_text(h, value);
		emit(h, "\"", 1);
	}
}

void pk_html_open(pk_html *h, const char *tag, ...)
{
	va_list ap;
	va_start(ap, tag);
	start_tag(h, tag, ap);
	va_end(ap);
	emit(h, ">", 1);
}

/* SVG's elements are the ones this writer closes with "/>". */
static bool is_svg_element(const char *tag)
{
	static const char *const svg[] = { "rect", "line", "path", "polyline", "circle", "use", "stop", NULL };
	for (int i = 0; svg[i]; i++)
		if (strcmp(tag, svg[i]) == 0)
			return true;
	return false;
}

void pk_html_void(pk_html *h, const char *tag, ...)
{
	va_list ap;
	va_start(ap, tag);
	start_tag(h, tag, ap);
	va_end(ap);
	if (is_svg_element(tag))
		emit(h, "/>", 2);
	else
		emit(h, ">", 1);
}

void pk_html_close(pk_html *h, const char *tag)
{
	check_name(tag);
	emit(h, "</", 2);
	emit(h, tag, strlen(tag));
	emit(h, ">", 1);
}

void pk_html_elem(pk_html *h, const char *tag, const char *text, ...)
{
	va_list ap;
	va_start(ap, text);
	start_tag(h, tag, ap);
	va_end(ap);
	emit(h, ">", 1);
	pk_html_text(h, text);
	pk_html_close(h, tag);
}

void pk_html_count(pk_html *h, const char *id, const char *label, long v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%ld", v);
	PK_HTML_LIT(h, "<li>");
	pk_html_elem(h, "span", label, NULL);
	pk_html_elem(h, "strong", buf, "id", id, NULL);
	PK_HTML_LIT(h, "</li>");
}

/* ---- embedded JSON ------------------------------------------------------------------- */

/* JSON text from cJSON: < > & can only be inside strings, where \u escapes
 * mean the same; U+2028/2029, other characters the HTML parser objects to
 * and bytes that are not UTF-8 likewise. */
static void json_escaped(pk_html *h, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), run = 0, i = 0;
	char esc[8];
	while (i < n) {
		unsigned c = u[i];
		size_t len = 1;
		int32_t cp = (int32_t)c;
		bool replace;
		if (c < 0x80) {
			replace = c == '<' || c == '>' || c == '&' || bad_in_html(cp);
		} else {
			cp = decode_utf8(u + i, n - i, &len);
			if (cp < 0)
				cp = 0xFFFD;
			replace = cp == 0xFFFD || cp == 0x2028 || cp == 0x2029 || bad_in_html(cp);
		}
		if (replace) {
			emit(h, s + run, i - run);
			/* noncharacters above the BMP are written as U+FFFD: \u escapes
			 * name 16-bit units only */
			snprintf(esc, sizeof esc, "\\u%04x", cp > 0xFFFF ? 0xFFFD : (unsigned)cp);
			emit(h, esc, 6);
			run = i + len;
		}
		i += len;
	}
	emit(h, s + run, n - run);
}

void pk_html_json_value(pk_html *h, const cJSON *v)
{
	char *text = cJSON_PrintUnformatted(v);
	if (!text)
		pk_out_of_memory();
	json_escaped(h, text);
	free(text);
}

void pk_html_json(pk_html *h, const char *id, const cJSON *v)
{
	pk_html_open(h, "script", "type", "application/json", "id", id, NULL);
	pk_html_json_value(h, v);
	pk_html_close(h, "script");
}

/* ---- the page ------------------------------------------------------------------------ */

static void page_style(pk_html *h)
{
	PK_HTML_LIT(h, "<style>\n"
		":root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--head:#f6f8fa;"
		"--link:#0550ae;--before:#818b98;--after:#0969da;--over:#cf222e;--note:#fff8c5}\n"
		"@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;"
		"--head:#151b23;--link:#4493f8;--before:#656c76;--after:#4493f8;--over:#f85149;--note:#3b2e00}}\n"
		"body{margin:0 auto;max-width:100rem;padding:1rem 1rem 3rem;background:var(--bg);color:var(--fg);"
		"font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif}\n"
		"a{color:var(--link)}h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.25rem;margin:2rem 0 .5rem;"
		"padding-bottom:.25rem;border-bottom:1px solid var(--line)}h3{font-size:1rem;margin:1rem 0 .25rem}\n"
		".meta,.muted,.none{color:var(--muted)}nav ol{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;"
		"list-style:none}\n"
		"ul.counts{display:flex;flex-wrap:wrap;gap:.75rem;margin:0;padding:0;list-style:none}ul.counts li{"
		"border:1px solid var(--line);border-radius:6px;padding:.4rem .8rem;min-width:7rem}ul.counts span{"
		"display:block;color:var(--muted);font-size:.85rem}ul.counts strong{font-size:1.4rem}\n"
		"table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid var(--line);"
		"padding:.25rem .5rem;text-align:left;vertical-align:top}thead th{background:var(--head);position:sticky;"
		"top:0}td.n{text-align:right;font-variant-numeric:tabular-nums}tr.group th{background:var(--head);"
		"text-align:left}td{overflow-wrap:break-word}td.reason{min-width:7rem;max-width:36rem}td.reason,td.name,td a,ul.pods li{overflow-wrap:anywhere}\n"
		"div.wide{max-width:100%;overflow-x:auto}\n" /* a wide table scrolls in its box, not the page */
		"ul.pods{margin:0;padding-left:1.1rem;min-width:8rem}.tag{display:inline-block;border:1px solid var(--line);"
		"border-radius:4px;padding:0 .3rem;font-size:.8rem;margin-left:.3rem}.tag.warn{border-color:var(--over)}\n"
		".note{background:var(--note);border-radius:6px;padding:.4rem .8rem}"
		"ul.warnings{list-style:none;padding:0;margin:.5rem 0;display:grid;gap:.4rem}"
		"ul.warnings .reach{font-weight:600;margin-right:.4rem}ul.warnings .reach::after{content:':'}\n"
		"svg.bars{display:block;color:var(--fg);font-size:11px;width:28rem;min-width:20rem;max-width:100%;height:auto}svg.bars text{fill:currentColor}"
		"svg.bars .t{fill:none;stroke:var(--line)}svg.bars .b{fill:var(--before)}"
		"svg.bars .a{fill:url(#pk-hatch);color:var(--after)}svg.bars .o{fill:none;stroke:var(--over);"
		"stroke-width:2}\n"
		"button.sort{font:inherit;color:inherit;background:none;border:0;padding:0;margin:0;text-align:inherit;"
		"cursor:pointer}button.sort::after{content:' \\2195';color:var(--muted)}"
		"th[aria-sort=ascending] button.sort::after{content:' \\2191'}th[aria-sort=descending] "
		"button.sort::after{content:' \\2193'}input.filter{margin:.25rem 0;padding:.2rem .4rem;width:18rem;"
		"max-width:100%}\n"
		":target{outline:2px solid var(--link)}\n"
		"svg.chart{display:block;color:var(--fg);font-size:11px;width:100%;height:auto}svg.chart text{fill:currentColor}"
		"svg.chart .axis{stroke:var(--muted);fill:none}svg.chart .grid-line{stroke:var(--line);stroke-opacity:.6;fill:none}svg.chart .line{fill:none;stroke-width:1.5}"
		"svg.chart .s0{stroke:var(--after)}svg.chart .s1{stroke:var(--over);stroke-dasharray:6 3}"
		"svg.chart .s2{stroke:var(--before);stroke-dasharray:2 2}svg.chart .s3{stroke:var(--fg);"
		"stroke-dasharray:8 2 2 2}svg.chart .s4{stroke:var(--link);stroke-dasharray:1 3}"
		".grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(max(16rem,calc(50% - 1rem)),1fr));gap:.5rem 1rem}"
		"svg.chart .area{stroke:none}svg.chart .a0{fill:#0072b2}svg.chart .a1{fill:#e69f00}svg.chart .a2{fill:#009e73}"
		"svg.chart .a3{fill:#cc79a7}svg.chart .a4{fill:#56b4e9}svg.chart .a5{fill:#d55e00}svg.chart .a6{fill:#f0e442}"
		"svg.chart .a7{fill:#999}svg.chart .mark{stroke:var(--over);fill:var(--over);stroke-width:1.5}\n"
		".grid.charts{grid-template-columns:repeat(auto-fit,minmax(min(100%,max(40rem,calc(50% - 1rem))),1fr))}"
		".grid.charts figure{max-width:64rem}\n" /* each chart near its own size: 11 px labels stay legible */
		"table.ranges caption{text-align:left}table.ranges td.bar,table.ranges th.bar{width:55%;min-width:12rem}svg.range .lo{fill:var(--after)}"
		"svg.range .hi{fill:var(--after);fill-opacity:.35}svg.range .whisker{stroke:var(--fg);fill:none}\n"
		"ul.legend{display:flex;flex-wrap:wrap;gap:.2rem 1rem;list-style:none;padding:0;margin:.2rem 0}"
		"ul.legend svg.chart{display:inline;width:28px}"
		"figure{margin:0}figcaption{font-weight:600;margin:.5rem 0 .2rem}\n"
		"@media print{:root{--bg:#fff;--fg:#000;--muted:#444;--line:#999;--head:#eee;--link:#000;"
		"--before:#888;--after:#000;--over:#000;--note:#eee}body{max-width:none;padding:0;font-size:9pt}"
		"nav,input.filter{display:none}button.sort::after{content:none}thead th{position:static}tr,svg.bars{break-inside:avoid}"
		"h2{break-after:avoid}a{text-decoration:none}}\n"
		"</style>\n");
}

/* Sorting and filtering; without it the page reads the same. */
static void page_script(pk_html *h)
{
	PK_HTML_LIT(h, "<script>\n"
		"(function(){'use strict';\n"
		"document.documentElement.classList.add('js');\n"
		"function key(c){var s=c.getAttribute('data-sort');return s!==null?s:c.textContent.trim();}\n"
		"function cmp(a,b){var x=Number(a),y=Number(b);if(a!==''&&b!==''&&!isNaN(x)&&!isNaN(y))return x-y;"
		"return a.localeCompare(b);}\n"
		"function rows(tb){return Array.prototype.filter.call(tb.rows,function(r){"
		"return !r.classList.contains('group');});}\n"
		"function sortable(t){var hr=t.tHead&&t.tHead.rows[0];if(!hr)return;"
		"Array.prototype.forEach.call(hr.cells,function(th,i){var b=document.createElement('button');"
		"b.type='button';b.className='sort';while(th.firstChild)b.appendChild(th.firstChild);th.appendChild(b);"
		"b.addEventListener('click',function(){var d=th.getAttribute('aria-sort')==='ascending'?-1:1;"
		"Array.prototype.forEach.call(hr.cells,function(c){c.removeAttribute('aria-sort');});"
		"th.setAttribute('aria-sort',d>0?'ascending':'descending');"
		"Array.prototype.forEach.call(t.tBodies,function(tb){rows(tb).sort(function(p,q){"
		"var a=p.cells[i],z=q.cells[i];return a&&z?d*cmp(key(a),key(z)):0;}).forEach(function(r){"
		"tb.appendChild(r);});});});});}\n"
		"function filterable(t){var f=document.createElement('input');f.type='search';f.className='filter';"
		"f.placeholder='Filter rows';f.setAttribute('aria-label','Filter the rows of the table below');"
		"f.addEventListener('input',function(){var q=f.value.toLowerCase();"
		"Array.prototype.forEach.call(t.tBodies,function(tb){rows(tb).forEach(function(r){"
		"r.hidden=q!==''&&r.textContent.toLowerCase().indexOf(q)<0;});});});"
		"t.parentNode.insertBefore(f,t);}\n"
		"Array.prototype.forEach.call(document.querySelectorAll('table.sortable'),function(t){"
		"sortable(t);filterable(t);});\n"
		"})();\n"
		"</script>\n");
}

/* The hatch pattern of the "after" bars: drawn once, used by every bar. */
static void page_defs(pk_html *h)
{
	PK_HTML_LIT(h, "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>"
		"<pattern id=\"pk-hatch\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" "
		"patternTransform=\"rotate(45)\"><rect width=\"4\" height=\"4\" fill=\"currentColor\" "
		"fill-opacity=\"0.35\"/><rect width=\"2\" height=\"4\" fill=\"currentColor\"/></pattern></defs></svg>\n");
}

void pk_html_page_begin(pk_html *h, const char *title)
{
	PK_HTML_LIT(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	               "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
	               "<meta name=\"generator\" content=\"preemptkit " PK_VERSION "\">\n");
	pk_html_elem(h, "title", title, NULL);
	PK_HTML_LIT(h, "\n");
	page_style(h);
	PK_HTML_LIT(h, "</head>\n<body>\n");
	page_defs(h);
}

void pk_html_page_end(pk_html *h)
{
	page_script(h);
	PK_HTML_LIT(h, "</body>\n</html>\n");
}

/* ---- helpers ------------------------------------------------------------------------- */

char *pk_html_escape(const char *s)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	if (!fp)
		pk_out_of_memory();
	pk_out out;
	pk_out_init(&out, fp);
	pk_html h;
	pk_html_init(&h, &out);
	pk_html_text(&h, s);
	fclose(fp);
	return buf;
}

void pk_html_id(char *buf, size_t size, const char *prefix, const char *s)
{
	if (size == 0)
		return;
	int n = snprintf(buf, size, "%s", prefix && *prefix ? prefix : "id");
	size_t w = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
	for (; s && *s && w + 1 < size; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
		          c == '_' || c == '.';
		buf[w++] = ok ? c : '_';
	}
	if (w < size)
		buf[w] = '\0';
}
