/* HTML and SVG output for reports (-o html): one self-contained page on a
 * pk_out. Every string handed to these functions is escaped where it is
 * written; the only markup that passes unescaped is a string literal of the
 * program (PK_HTML_LIT: the "" lit "" concatenation rejects anything else at
 * compile time), so a pod named <script> stays text.
 *
 *   text and attribute values  & < > " ' as character references; bytes
 *                              that are not UTF-8, and control characters
 *                              other than tab and newline, as U+FFFD
 *   embedded JSON              <script type="application/json">: < > & as
 *                              \u003c \u003e \u0026, and U+2028, U+2029 as
 *                              \u2028 \u2029, so that no string closes the
 *                              element or breaks a JavaScript parser
 *
 * Tag and attribute names are the program's own constants (lower case
 * letters, digits, '-' and ':'; anything else aborts: a bug, not input).
 * Write errors are remembered by the pk_out (pk_out_finish reports them).
 */
#ifndef PK_IO_HTML_H
#define PK_IO_HTML_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "writer.h"

typedef struct pk_html {
	pk_out *out;
	size_t bytes;             /* written so far, for size bounds */
} pk_html;

void pk_html_init(pk_html *h, pk_out *out);

/* Program markup (CSS, script, fixed tags): string literals only. */
#define PK_HTML_LIT(h, lit) pk_html_markup_((h), "" lit "", sizeof(lit) - 1)
void pk_html_markup_(pk_html *h, const char *markup, size_t len);

/* Escaped text content (NULL writes nothing). */
void pk_html_text(pk_html *h, const char *s);
void pk_html_textn(pk_html *h, const char *s, size_t len);
/* Text with a line break allowed inside CamelCase words (a <wbr> before
 * each word of "NoPreemptionNeeded"), so a narrow column can wrap them. */
void pk_html_text_words(pk_html *h, const char *s);
/* printf, then escaped as text. */
void pk_html_textf(pk_html *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* <tag name="value" ...>: attribute name/value pairs, NULL-terminated; a
 * NULL value leaves its attribute out, "" writes a bare name (boolean
 * attributes). */
void pk_html_open(pk_html *h, const char *tag, ...) __attribute__((sentinel));
/* The same as an element with no content that is closed at once: <tag ...>
 * for HTML void elements (br, input, meta), <tag .../> for SVG elements. */
void pk_html_void(pk_html *h, const char *tag, ...) __attribute__((sentinel));
void pk_html_close(pk_html *h, const char *tag);
/* <tag attrs>text</tag> */
void pk_html_elem(pk_html *h, const char *tag, const char *text, ...) __attribute__((sentinel));

/* One box of a page's row of counts (inside <ul class="counts">): <li>
 * with the label and the number, the number's element named id. */
void pk_html_count(pk_html *h, const char *id, const char *label, long v);

/* <script type="application/json" id="id">v</script>, escaped as above. */
void pk_html_json(pk_html *h, const char *id, const cJSON *v);
/* The JSON text of v escaped for a script element, without the element:
 * for writing an array of records piece by piece. */
void pk_html_json_value(pk_html *h, const cJSON *v);

/* The frame of a self-contained page: doctype, head (charset, a Content-
 * Security-Policy that allows no network and no other origin, the style
 * sheet: CSS variables, dark mode through prefers-color-scheme, print
 * styles) and <body>; at the end the script that makes every
 * table.sortable sortable by its column headers and filterable by a search
 * field. The page reads the same without it. */
void pk_html_page_begin(pk_html *h, const char *title);
void pk_html_page_end(pk_html *h);

/* Escape s for text into a malloc'd string (tests, small labels). */
char *pk_html_escape(const char *s);

/* An id attribute value from arbitrary text: prefix, then the characters of
 * s that are ASCII letters, digits, '-', '_' or '.', others as '_'; at most
 * size - 1 bytes. Never empty, never contains whitespace. */
void pk_html_id(char *buf, size_t size, const char *prefix, const char *s);

#endif
