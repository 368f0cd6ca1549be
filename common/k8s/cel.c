/* The CEL interpreter (cel.h): compile and free. The grammar is in
 * cel_parse.c, the checker in cel_check.c, the evaluator in cel_eval.c, the
 * functions in cel_fns.c, semantic versions and regular expressions in
 * cel_lib.c. A program's tree lives in its arena (base/arena.h). */
#include "k8s/cel_int.h"

#include "base/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *cel_alloc(pk_cel_program *p, size_t size)
{
	return pk_arena_alloc(&p->arena, size);
}

/* The position in err: "(column C)" on one line, "(line L, column C)" else. */
static void add_position(const char *expr, char *err, size_t errsize, int line, int col)
{
	size_t n = strlen(err);
	if (n + 1 >= errsize)
		return;
	if (strchr(expr, '\n'))
		snprintf(err + n, errsize - n, " (line %d, column %d)", line, col);
	else
		snprintf(err + n, errsize - n, " (column %d)", col);
}

pk_cel_program *pk_cel_compile_at(const char *expr, int *line, int *col, char *err, size_t errsize)
{
	int l = 0, c = 0;
	pk_cel_program *p = pk_xcalloc(1, sizeof *p);
	pk_arena_init(&p->arena);
	if (errsize > 0)
		err[0] = '\0';
	if (!expr || !cel_parse(p, expr ? expr : "", err, errsize, &l, &c)) {
		if (!expr)
			snprintf(err, errsize, "no expression");
		pk_cel_free(p);
		if (line)
			*line = l;
		if (col)
			*col = c;
		return NULL;
	}
	if (line)
		*line = 0;
	if (col)
		*col = 0;
	return p;
}

pk_cel_program *pk_cel_compile(const char *expr, char *err, size_t errsize)
{
	int line, col;
	pk_cel_program *p = pk_cel_compile_at(expr, &line, &col, err, errsize);
	if (!p && expr)
		add_position(expr, err, errsize, line, col);
	return p;
}

void pk_cel_free(pk_cel_program *p)
{
	if (!p)
		return;
	pk_arena_free(&p->arena);
	free(p);
}

/* Every refusal of a construct starts so (cel_parse.c, cel_check.c,
 * cel_lib.c): "not supported by this interpreter: ..." and the bytes
 * literal escape's "not supported: ...". */
bool pk_cel_error_unsupported(const char *err)
{
	return err && strncmp(err, "not supported", strlen("not supported")) == 0;
}
