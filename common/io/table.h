/* kubectl-like tables for -o table / -o wide: rows are collected, then
 * printed with every column as wide as its widest cell plus three spaces
 * (kubectl's tabwriter padding); the last column is not padded. */
#ifndef PK_IO_TABLE_H
#define PK_IO_TABLE_H

#include "writer.h"

typedef struct pk_table {
	int ncols;
	char **cells;             /* nrows * ncols, malloc'd copies */
	long nrows, cap;
} pk_table;

void pk_table_init(pk_table *t, int ncols);
/* Append a row of ncols cells (NULL prints as ""). */
void pk_table_row(pk_table *t, const char *const *cells);
/* Print and free. */
void pk_table_flush(pk_table *t, pk_out *out);

#endif
