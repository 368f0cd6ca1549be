/* kubectl-like tables; see table.h. */
#include "io/table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *copy_cell(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		abort();
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
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 32;
		t->cells = realloc(t->cells, sizeof *t->cells * (size_t)(t->cap * t->ncols));
		if (!t->cells)
			abort();
	}
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
	if (t->nfooter == t->footer_cap) {
		t->footer_cap = t->footer_cap ? t->footer_cap * 2 : 8;
		t->footer = realloc(t->footer, sizeof *t->footer * (size_t)t->footer_cap);
		if (!t->footer)
			abort();
	}
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
	size_t *w = calloc((size_t)t->ncols, sizeof *w);
	if (!w)
		abort();
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
		for (long i = 0; i < t->nfooter; i++)
			pk_out_printf(out, "%s\n", t->footer[i]);
	}
	for (long i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	for (long i = 0; i < t->nfooter; i++)
		free(t->footer[i]);
	free(t->cells);
	free(t->footer);
	free(w);
	memset(t, 0, sizeof *t);
}
