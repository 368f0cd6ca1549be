/* The CEL interpreter (cel.h): compile and free. The grammar is in
 * cel_parse.c, the checker in cel_check.c, the evaluator in cel_eval.c, the
 * functions in cel_fns.c, semantic versions and regular expressions in
 * cel_lib.c. A program's tree lives in chunks freed together. */
#include "k8s/cel_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cel_chunk {
	struct cel_chunk *next;
	size_t used, size;
	_Alignas(max_align_t) unsigned char data[];
};

void *cel_alloc(pk_cel_program *p, size_t size)
{
	size = (size + _Alignof(max_align_t) - 1) & ~(_Alignof(max_align_t) - 1);
	struct cel_chunk *c = p->chunks;
	if (!c || c->size - c->used < size) {
		size_t cap = size > 8192 ? size : 8192;
		if (!(c = malloc(sizeof *c + cap)))
			return NULL;
		c->next = p->chunks;
		c->used = 0;
		c->size = cap;
		p->chunks = c;
	}
	void *r = c->data + c->used;
	c->used += size;
	memset(r, 0, size);
	return r;
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
	pk_cel_program *p = calloc(1, sizeof *p);
	if (errsize > 0)
		err[0] = '\0';
	if (!p) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
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
	while (p->chunks) {
		struct cel_chunk *c = p->chunks;
		p->chunks = c->next;
		free(c);
	}
	free(p);
}
