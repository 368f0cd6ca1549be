/* The object pool; see pool.h. */
#include "pool.h"

enum { POOL_CHUNK = 1024 };

void apiq_pool_init(apiq_pool *pl, size_t size)
{
	pl->size = size;
	pl->free = NULL;
	pk_arena_init(&pl->arena);
}

void apiq_pool_refill(apiq_pool *pl)
{
	char *chunk = pk_arena_alloc(&pl->arena, POOL_CHUNK * pl->size);
	for (size_t i = 0; i < POOL_CHUNK; i++) {
		void **obj = (void **)(chunk + i * pl->size);
		*obj = pl->free;
		pl->free = obj;
	}
}

void apiq_pool_free(apiq_pool *pl)
{
	pk_arena_free(&pl->arena);
	pl->free = NULL;
}
