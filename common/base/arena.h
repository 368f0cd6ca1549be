/* A bump allocator: many small objects, freed all at once. */
#ifndef PK_BASE_ARENA_H
#define PK_BASE_ARENA_H

#include <stddef.h>

typedef struct pk_arena_block pk_arena_block;
typedef struct pk_arena {
	pk_arena_block *head;
	size_t used_bytes;        /* total handed out, for --stats and tests */
} pk_arena;

void pk_arena_init(pk_arena *a);
/* Zeroed, 16-byte aligned memory (out of memory ends the run: alloc.h). */
void *pk_arena_alloc(pk_arena *a, size_t size);
/* A copy of s[0..n) with a NUL after it, unaligned: strings packed end to
 * end waste nothing on padding. s holds no NUL before n. */
char *pk_arena_strndup(pk_arena *a, const char *s, size_t n);
void pk_arena_free(pk_arena *a);

#endif
