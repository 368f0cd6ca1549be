/* The allocation policy; see alloc.h. */
#include "base/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Noreturn void pk_out_of_memory(void)
{
	/* Nothing here may allocate: the message is put together on the stack
	 * and goes out in one write(2); _exit ends the run without flushing a
	 * half-written stdout or running exit handlers while other threads
	 * still work. */
	char msg[128];
	int n = snprintf(msg, sizeof msg, "%s: out of memory\n", program_invocation_short_name);
	ssize_t ignored = write(STDERR_FILENO, msg, n > 0 && (size_t)n < sizeof msg ? (size_t)n : strlen(msg));
	(void)ignored;
	_exit(PK_EXIT_OUT_OF_MEMORY);
}

void *pk_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		pk_out_of_memory();
	return p;
}

void *pk_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		pk_out_of_memory();
	return p;
}

void *pk_xrealloc(void *p, size_t n, size_t size)
{
	size_t bytes;
	if (__builtin_mul_overflow(n, size, &bytes))
		pk_out_of_memory();
	void *q = realloc(p, bytes ? bytes : 1);
	if (!q)
		pk_out_of_memory();
	return q;
}

char *pk_xstrdup(const char *s)
{
	return pk_xstrndup(s, strlen(s));
}

char *pk_xstrndup(const char *s, size_t n)
{
	n = strnlen(s, n);
	if (n == SIZE_MAX)
		pk_out_of_memory();
	char *p = pk_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void *pk_grow_slow(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	size_t ncap = *cap > SIZE_MAX / 2 ? SIZE_MAX : *cap * 2;
	if (ncap < need)
		ncap = need;
	if (ncap < 8)
		ncap = 8;
	p = pk_xrealloc(p, ncap, elem);
	*cap = ncap;
	return p;
}
