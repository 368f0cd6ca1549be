/* The one allocation policy: memory that cannot be had ends the run.
 *
 * Every tool asks for memory through these. Out of memory prints
 * "prog: out of memory" on stderr and exits with the README's status for
 * trouble (2, PK_EXIT_OUT_OF_MEMORY): an answer computed without some of its
 * input would be wrong, and no caller can do better than stop. A size
 * whose computation overflows size_t is out of memory too.
 */
#ifndef PK_BASE_ALLOC_H
#define PK_BASE_ALLOC_H

#include <stddef.h>

/* The exit status of a run that ran out of memory: the README's "trouble"
 * (diag.h's PK_EXIT_TROUBLE; base is below diag, which checks they agree). */
enum { PK_EXIT_OUT_OF_MEMORY = 2 };

/* Print "prog: out of memory" (prog: the name the tool was run as) and exit. */
_Noreturn void pk_out_of_memory(void);

void *pk_xmalloc(size_t size);
/* Zeroed n * size bytes. */
void *pk_xcalloc(size_t n, size_t size);
/* realloc of n * size bytes (n = 0: a minimal block, never NULL). */
void *pk_xrealloc(void *p, size_t n, size_t size);
char *pk_xstrdup(const char *s);
char *pk_xstrndup(const char *s, size_t n);

/* The one growth helper: room for at least need elements of elem bytes in
 * the array p of *cap elements. Returns p when it has room; otherwise a
 * reallocated array (the contents kept, the new room not zeroed) of at
 * least twice *cap elements (at least 8), with *cap updated. Usage:
 *     v = pk_grow(v, &cap, n + 1, sizeof *v);
 *     v[n++] = x;
 * Inline where there is room: output buffers ask per character. */
void *pk_grow_slow(void *p, size_t *cap, size_t need, size_t elem);
static inline void *pk_grow(void *p, size_t *cap, size_t need, size_t elem)
{
	return need <= *cap ? p : pk_grow_slow(p, cap, need, elem);
}

#endif
