/* HTML and SVG output; see html.h. */
#include "io/html.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	char *big = malloc((size_t)n + 1);
	if (!big)
		abort();
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
		abort();
	json_escaped(h, text);
	free(text);
}

void pk_html_json(pk_html *h, const char *id, const cJSON *v)
{
	pk_html_open(h, "script", "type", "application/json", "id", id, NULL);
	pk_html_json_value(h, v);
	pk_html_close(h, "script");
}

/* ---- helpers ------------------------------------------------------------------------- */

char *pk_html_escape(const char *s)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	if (!fp)
		abort();
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
