/* kubectl-like tables; see table.h. */
#include "io/table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "io/html.h"

static char *copy_cell(const char *s)
{
	char *p = pk_xstrdup(s ? s : "");
	return p;
}

void pk_table_init(pk_table *t, int ncols)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols;
}

void pk_table_header(pk_table *t, const char *const *cells)
{
	pk_table_row(t, cells);
	t->has_header = true;
}

void pk_table_row(pk_table *t, const char *const *cells)
{
	t->cells = pk_grow(t->cells, &t->cap, (size_t)(t->nrows + 1) * (size_t)t->ncols, sizeof *t->cells);
	for (int c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = copy_cell(cells[c]);
	t->nrows++;
}

void pk_table_footer(pk_table *t, const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	t->footer = pk_grow(t->footer, &t->footer_cap, t->nfooter + 1, sizeof *t->footer);
	t->footer[t->nfooter++] = copy_cell(line);
}

static void print_row(const pk_table *t, long r, const size_t *w, pk_out *out)
{
	/* no padding after the last non-empty cell: no trailing blanks */
	int last = t->ncols - 1;
	while (last > 0 && !t->cells[r * t->ncols + last][0])
		last--;
	for (int c = 0; c <= last; c++) {
		const char *s = t->cells[r * t->ncols + c];
		if (c == last)
			pk_out_printf(out, "%s\n", s);
		else
			pk_out_printf(out, "%-*s   ", (int)w[c], s);
	}
}

void pk_table_flush(pk_table *t, pk_out *out)
{
	long first = t->has_header && t->no_headers ? 1 : 0;
	size_t *w = pk_xcalloc((size_t)t->ncols, sizeof *w);
	for (long r = first; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++) {
			size_t l = strlen(t->cells[r * t->ncols + c]);
			if (l > w[c])
				w[c] = l;
		}
	for (long r = first; r < t->nrows; r++)
		print_row(t, r, w, out);
	if (!t->no_headers && t->nfooter) {
		pk_out_printf(out, "\n");
		for (size_t i = 0; i < t->nfooter; i++)
			pk_out_printf(out, "%s\n", t->footer[i]);
	}
	free(w);
	pk_table_free(t);
}

void pk_table_free(pk_table *t)
{
	for (long i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	for (size_t i = 0; i < t->nfooter; i++)
		free(t->footer[i]);
	free(t->cells);
	free(t->footer);
	memset(t, 0, sizeof *t);
}

/* A cell that is a number (digits, a sign, a point): right-aligned. */
static bool numeric(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if ((*s < '0' || *s > '9') && *s != '.')
			return false;
	return true;
}

void pk_table_html(const pk_table *t, pk_html *h, const char *id)
{
	PK_HTML_LIT(h, "<div class=\"wide\">");
	pk_html_open(h, "table", "class", "sortable", "id", id, NULL);
	long r = 0;
	if (t->has_header) {
		PK_HTML_LIT(h, "<thead><tr>");
		for (int c = 0; c < t->ncols; c++)
			pk_html_elem(h, "th", t->cells[c], "scope", "col", NULL);
		PK_HTML_LIT(h, "</tr></thead>\n");
		r = 1;
	}
	if (r < t->nrows) /* an empty tbody is an error to HTML checkers */
		PK_HTML_LIT(h, "<tbody>\n");
	for (; r < t->nrows; r++) {
		PK_HTML_LIT(h, "<tr>");
		for (int c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];
			pk_html_elem(h, "td", s, "class", numeric(s) ? "n" : NULL, NULL);
		}
		PK_HTML_LIT(h, "</tr>\n");
	}
	if (t->nrows > (t->has_header ? 1 : 0))
		PK_HTML_LIT(h, "</tbody>");
	PK_HTML_LIT(h, "</table></div>\n");
}
