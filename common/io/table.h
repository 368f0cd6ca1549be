/* kubectl-like tables for -o table / -o wide: rows are collected, then
 * printed with every column as wide as its widest cell plus three spaces
 * (kubectl's tabwriter padding); the last column is not padded. Footer
 * lines (what the answer assumed, what a mark means) follow the rows after
 * a blank line. With no_headers (kubectl's --no-headers) the header row
 * and the footer are left out, so that only data rows reach a script; the
 * warnings still go to standard error. */
#ifndef PK_IO_TABLE_H
#define PK_IO_TABLE_H

#include <stdbool.h>
#include "writer.h"

typedef struct pk_table {
	int ncols;
	bool no_headers;
	bool has_header;          /* row 0 is the header */
	char **cells;             /* nrows * ncols, malloc'd copies */
	long nrows;
	size_t cap;               /* of cells */
	char **footer;            /* lines printed under the table */
	size_t nfooter, footer_cap;
} pk_table;

void pk_table_init(pk_table *t, int ncols);
/* The header row: the first row, and only one. */
void pk_table_header(pk_table *t, const char *const *cells);
/* Append a row of ncols cells (NULL prints as ""). */
void pk_table_row(pk_table *t, const char *const *cells);
/* Append a footer line (no newline needed). */
void pk_table_footer(pk_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print and free. */
void pk_table_flush(pk_table *t, pk_out *out);
/* The same rows as an HTML table (-o html): the header row as its head,
 * numbers right-aligned, sortable and filterable by the page's script
 * (table.sortable), in a box that scrolls sideways on a narrow window; the
 * footer is the page's to show. id: the table's id. Does not free. */
struct pk_html;
void pk_table_html(const pk_table *t, struct pk_html *h, const char *id);
/* Free without printing. */
void pk_table_free(pk_table *t);

#endif
