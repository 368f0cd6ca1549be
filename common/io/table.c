/* kubectl-like tables; see table.h. */
#include "io/table.h"

#include <stdlib.h>
#include <string.h>

void pk_table_init(pk_table *t, int ncols)
{
	memset(t, 0, sizeof *t);
	t->ncols = ncols;
}

void pk_table_row(pk_table *t, const char *const *cells)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 32;
		t->cells = realloc(t->cells, sizeof *t->cells * (size_t)(t->cap * t->ncols));
		if (!t->cells)
			abort();
	}
	for (int c = 0; c < t->ncols; c++) {
		char *s = strdup(cells[c] ? cells[c] : "");
		if (!s)
			abort();
		t->cells[t->nrows * t->ncols + c] = s;
	}
	t->nrows++;
}

void pk_table_flush(pk_table *t, pk_out *out)
{
	size_t *w = calloc((size_t)t->ncols, sizeof *w);
	if (!w)
		abort();
	for (long r = 0; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++) {
			size_t l = strlen(t->cells[r * t->ncols + c]);
			if (l > w[c])
				w[c] = l;
		}
	for (long r = 0; r < t->nrows; r++) {
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
	for (long i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(w);
	memset(t, 0, sizeof *t);
}
