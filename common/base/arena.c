/* The bump allocator; see arena.h. */
#include "base/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

struct pk_arena_block {
	pk_arena_block *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

enum { PK_ARENA_BLOCK = 256 * 1024 };

void pk_arena_init(pk_arena *a)
{
	a->head = NULL;
	a->used_bytes = 0;
}

/* Bump-allocate size bytes at the given alignment (1 or 16). */
static void *arena_alloc_aligned(pk_arena *a, size_t size, size_t align)
{
	if (a->head)
		a->head->used = (a->head->used + align - 1) & ~(align - 1);
	if (!a->head || a->head->size - a->head->used < size) {
		/* a multiple of 16, so that aligning `used` never passes the end */
		if (size > SIZE_MAX - sizeof(pk_arena_block) - 15)
			pk_out_of_memory();
		size_t cap = size > PK_ARENA_BLOCK / 4 ? (size + 15) & ~(size_t)15 : PK_ARENA_BLOCK;
		pk_arena_block *b = pk_xmalloc(sizeof *b + cap);
		b->size = cap;
		b->used = 0;
		/* A big one-off allocation goes behind the current block so the
		 * current block keeps serving small requests. */
		if (cap != PK_ARENA_BLOCK && a->head) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
		b->used = size;
		a->used_bytes += size;
		memset(b->data, 0, size);
		return b->data;
	}
	void *p = a->head->data + a->head->used;
	a->head->used += size;
	a->used_bytes += size;
	memset(p, 0, size);
	return p;
}

void *pk_arena_alloc(pk_arena *a, size_t size)
{
	if (size > SIZE_MAX - 15)
		pk_out_of_memory();
	return arena_alloc_aligned(a, (size + 15) & ~(size_t)15, 16);
}

char *pk_arena_strndup(pk_arena *a, const char *s, size_t n)
{
	if (n == SIZE_MAX)
		pk_out_of_memory();
	char *p = arena_alloc_aligned(a, n + 1, 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void pk_arena_free(pk_arena *a)
{
	pk_arena_block *b = a->head;
	while (b) {
		pk_arena_block *n = b->next;
		free(b);
		b = n;
	}
	a->head = NULL;
	a->used_bytes = 0;
}
